// SPDX-License-Identifier: GPL-2.0
/*
 * pkstool info: CPU support, driver state, per-CPU registers, key table.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"

static const char info_doc[] =
	"Show PKS support, the driver's state, CR4.PKS and PKRS per CPU and "
	"the key table.";

static const struct argp info_argp = {
	.parser = pkstool_parse_no_args,
	.doc = info_doc,
	.children = pkstool_common_children,
};

/*
 * Grants by rule, and the interrupt boundaries that end them: null
 * without the driver. The counts are null unless the driver showed them
 * (counts: a caller with CAP_SYS_ADMIN).
 */
static struct json_object *grants_to_json(struct pks_ctx *ctx)
{
	struct json_object *jg = json_object_new_object();
	struct json_object *jrules = json_object_new_array();
	bool counts = pks_grants_have_counts(ctx);
	struct pks_rule *rule;

	json_object_object_add(jg, "armed",
			       json_object_new_boolean(pks_grants_armed(ctx)));
	json_object_object_add(jg, "counts", json_object_new_boolean(counts));
	json_object_object_add(jg, "tasks_granted", util_count_to_json(counts,
			       pks_get_tasks_granted(ctx)));
	json_object_object_add(jg, "fault_probe_hits", util_count_to_json(counts,
			       pks_get_fault_probe_hits(ctx)));
	json_object_object_add(jg, "refills", util_count_to_json(counts,
			       pks_get_refills(ctx)));
	json_object_object_add(jg, "spurious", util_count_to_json(counts,
			       pks_get_spurious(ctx)));
	json_object_object_add(jg, "frames_unwound", util_count_to_json(counts,
			       pks_get_frames_unwound(ctx)));
	json_object_object_add(jg, "symbol_lookups", util_count_to_json(counts,
			       pks_get_symbol_lookups(ctx)));
	json_object_object_add(jg, "boundary_writes", util_count_to_json(counts,
			       pks_get_boundary_writes(ctx)));
	json_object_object_add(jg, "boundary_hooks",
			       json_object_new_int(pks_get_boundary_hooks(ctx)));
	pks_rule_foreach(ctx, rule)
		json_object_array_add(jrules, util_rule_to_json(rule, counts));
	json_object_object_add(jg, "rules", jrules);
	return jg;
}

/* What the driver holds, by its own count: zero once nothing is held. */
static struct json_object *accounting_to_json(struct pks_ctx *ctx)
{
	struct json_object *jacct = json_object_new_object();
	unsigned int i;

	for (i = 0; i < pks_get_nr_counts(ctx); i++)
		json_object_object_add(jacct, pks_count_get_name(ctx, i),
				       json_object_new_uint64(
					       pks_count_get_value(ctx, i)));
	return jacct;
}

/* Who has the device open: what makes rmmod say "in use". */
static struct json_object *holders_to_json(struct pks_ctx *ctx)
{
	struct json_object *jholders = json_object_new_array();
	struct json_object *jh;
	unsigned int i;

	/* Not root: the driver told how many (accounting), not who. */
	if (pks_get_nr_holders(ctx) && !pks_holder_get_comm(ctx, 0)) {
		json_object_put(jholders);
		return NULL;
	}
	for (i = 0; i < pks_get_nr_holders(ctx); i++) {
		jh = json_object_new_object();
		json_object_object_add(jh, "pid", json_object_new_int(
				       pks_holder_get_pid(ctx, i)));
		json_object_object_add(jh, "comm", json_object_new_string(
				       pks_holder_get_comm(ctx, i)));
		json_object_array_add(jholders, jh);
	}
	return jholders;
}

static struct json_object *info_to_json(struct pks_ctx *ctx, int status)
{
	struct json_object *jinfo = json_object_new_object();
	struct json_object *jdrv = json_object_new_object();
	struct json_object *jcpus = json_object_new_array();
	struct json_object *jkeys = json_object_new_array();
	struct pks_cpu *cpu;
	struct pks_key *key;
	bool loaded = status == 0;

	json_object_object_add(jinfo, "cpu_supports_pks",
			       json_object_new_boolean(pks_cpu_has_pks()));
	json_object_object_add(jdrv, "loaded", json_object_new_boolean(loaded));
	json_object_object_add(jdrv, "device",
			       json_object_new_string(pks_device_path(ctx)));
	json_object_object_add(jdrv, "abi_version", loaded ?
			       json_object_new_int(pks_get_abi_version(ctx)) :
			       NULL);
	json_object_object_add(jdrv, "default_pkrs", loaded ?
			       util_hex_to_json(pks_get_default_pkrs(ctx)) :
			       NULL);
	json_object_object_add(jdrv, "fault_hook", json_object_new_boolean(
			       loaded && pks_fault_hook_active(ctx)));
	json_object_object_add(jdrv, "fault_log", json_object_new_boolean(
			       loaded && pks_fault_log_active(ctx)));
	json_object_object_add(jdrv, "stock_pk_warn", loaded ?
			       json_object_new_string(
				       pks_stock_pk_warn_silenced(ctx) ?
				       "silenced" : "active") : NULL);
	json_object_object_add(jdrv, "fault_hooks_pinned",
			       json_object_new_boolean(loaded &&
					pks_fault_hooks_pinned(ctx)));
	json_object_object_add(jdrv, "dax_guard_missing",
			       json_object_new_boolean(loaded &&
					pks_dax_guard_missing(ctx)));
	json_object_object_add(jinfo, "driver", jdrv);
	if (loaded) {
		pks_cpu_foreach(ctx, cpu)
			json_object_array_add(jcpus, util_cpu_to_json(cpu));
		pks_key_foreach(ctx, key)
			json_object_array_add(jkeys, util_key_to_json(key));
	}
	json_object_object_add(jinfo, "cpus", jcpus);
	json_object_object_add(jinfo, "keys", jkeys);
	json_object_object_add(jinfo, "grants",
			       loaded ? grants_to_json(ctx) : NULL);
	json_object_object_add(jinfo, "holders",
			       loaded ? holders_to_json(ctx) : NULL);
	json_object_object_add(jinfo, "accounting",
			       loaded ? accounting_to_json(ctx) : NULL);
	return jinfo;
}

static void info_print_text(struct pks_ctx *ctx, int status)
{
	struct pks_rule *rule;
	const char *armed;
	unsigned int i;
	struct pks_cpu *cpu;
	struct pks_key *key;

	printf("cpu supports pks: %s\n", pks_cpu_has_pks() ? "yes" : "no");
	printf("driver: %s (%s)\n", status ? "not loaded" : "loaded",
	       pks_device_path(ctx));
	if (status)
		return;
	printf("abi version: %u\n", pks_get_abi_version(ctx));
	printf("default pkrs: %#010x\n", pks_get_default_pkrs(ctx));
	printf("fault hook: %s\n", pks_fault_hook_active(ctx) ? "yes" : "no");
	printf("fault log: %s\n", pks_fault_log_active(ctx) ? "yes" :
	       "no (fault capture is off: namespaces cannot be protected)");
	printf("stock pk warn: %s\n", pks_stock_pk_warn_silenced(ctx) ?
	       "silenced" :
	       "active (the first protection-key fault of a boot WARNs and taints the kernel)");
	printf("fault hooks: %s\n", pks_fault_hooks_pinned(ctx) ?
	       "ftrace (pinned: ftrace_enabled=0 refused, kprobes/enabled does not apply)" :
	       "none");
	printf("dax guard: %s\n", pks_dax_guard_missing(ctx) ?
	       "NOT PLACED (the kernel log says which function and why): device-dax namespaces cannot be protected" :
	       "placed");
	pks_cpu_foreach(ctx, cpu) {
		if (!pks_cpu_is_online(cpu)) {
			printf("cpu%u: offline\n", pks_cpu_get_id(cpu));
			continue;
		}
		/* Not read for us: no zeros that look like values. */
		if (!pks_cpu_is_live(cpu)) {
			printf("cpu%u: cr4.pks %s, registers and counters: root only\n",
			       pks_cpu_get_id(cpu),
			       pks_cpu_get_cr4_pks(cpu) ? "on" : "off");
			continue;
		}
		printf("cpu%u: cr4.pks %s pkrs %#010x writes %llu skipped %llu\n",
		       pks_cpu_get_id(cpu), pks_cpu_get_cr4_pks(cpu) ? "on" : "off",
		       pks_cpu_get_pkrs(cpu),
		       (unsigned long long)pks_cpu_get_pkrs_writes(cpu),
		       (unsigned long long)pks_cpu_get_pkrs_skipped(cpu));
	}
	pks_key_foreach(ctx, key)
		printf("key %2u: %s\n", pks_key_get_id(key),
		       *pks_key_get_owner(key) ? pks_key_get_owner(key) : "free");
	armed = pks_grants_armed(ctx) ? "armed" : "off (no namespace protected)";
	if (!pks_grants_have_counts(ctx)) {
		printf("grants: %s, counts: root only\n", armed);
		printf("interrupt boundaries: %u hooks, pkrs writes: root only\n",
		       pks_get_boundary_hooks(ctx));
	} else {
		printf("grants: %s, %u tasks granted, %llu fault probe hits, %llu refills, %llu spurious\n",
		       armed, pks_get_tasks_granted(ctx),
		       (unsigned long long)pks_get_fault_probe_hits(ctx),
		       (unsigned long long)pks_get_refills(ctx),
		       (unsigned long long)pks_get_spurious(ctx));
		printf("owner rules: %llu frames unwound, %llu symbol lookups\n",
		       (unsigned long long)pks_get_frames_unwound(ctx),
		       (unsigned long long)pks_get_symbol_lookups(ctx));
		printf("interrupt boundaries: %u hooks, %llu pkrs writes\n",
		       pks_get_boundary_hooks(ctx),
		       (unsigned long long)pks_get_boundary_writes(ctx));
		pks_rule_foreach(ctx, rule)
			printf("rule %-12s task %llu softirq %llu hardirq %llu stepped %llu\n",
			       pks_rule_get_name(rule),
			       (unsigned long long)pks_rule_get_task(rule),
			       (unsigned long long)pks_rule_get_softirq(rule),
			       (unsigned long long)pks_rule_get_hardirq(rule),
			       (unsigned long long)pks_rule_get_stepped(rule));
	}
	printf("accounting:");
	for (i = 0; i < pks_get_nr_counts(ctx); i++)
		printf(" %s=%llu", pks_count_get_name(ctx, i),
		       (unsigned long long)pks_count_get_value(ctx, i));
	printf("\n");
	/* This process is one; the others keep rmmod from unloading. */
	if (pks_get_nr_holders(ctx) && !pks_holder_get_comm(ctx, 0)) {
		printf("held open by: %u processes, this pkstool included (who: root only)\n",
		       pks_get_nr_holders(ctx));
		return;
	}
	for (i = 0; i < pks_get_nr_holders(ctx); i++)
		printf("held open by: %s[%u]%s\n", pks_holder_get_comm(ctx, i),
		       pks_holder_get_pid(ctx, i),
		       pks_holder_get_pid(ctx, i) == (unsigned int)getpid() ?
		       " (this pkstool)" : "");
}

int cmd_info(int argc, char **argv, struct pks_ctx *ctx)
{
	struct pkstool_opts opts = { 0 };
	struct json_object *array;
	int status, rc;

	if (!pkstool_parse(&info_argp, argc, argv, &opts, &rc))
		return rc;

	/* Without the driver, info still reports CPU support. */
	status = pks_driver_status(ctx);
	if (status == 0) {
		rc = pks_refresh(ctx);
		if (rc) {
			p_err(&opts, "info: reading driver state: %s",
			      strerror(-rc));
			return PKSTOOL_FAILED;
		}
	} else if (status != -ENOENT) {
		return pkstool_open_driver(ctx, &opts, "info");
	}

	if (opts.json) {
		array = json_object_new_array();
		json_object_array_add(array, info_to_json(ctx, status));
		display_json_array(array);
		json_object_put(array);
	} else {
		info_print_text(ctx, status);
	}
	return PKSTOOL_DONE;
}
