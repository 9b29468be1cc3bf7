// SPDX-License-Identifier: GPL-2.0
/*
 * pkstool metrics: the driver's state in the Prometheus text format, for
 * node_exporter's textfile collector (or anything that scrapes it). With
 * --output the file is replaced atomically (written beside it, then
 * renamed), as the collector requires, so a scrape never sees half a file.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin.h"
#include "records.h"
#include "persist.h"

struct metrics_opts {
	struct pkstool_opts common;
	const char *output;
};

static const struct argp_option metrics_options[] = {
	{ "output", 'o', "FILE", 0,
	  "Replace FILE (e.g. node_exporter's textfile directory/pkstool.prom) instead of printing", 0 },
	{ 0 }
};

static error_t metrics_parse(int key, char *arg, struct argp_state *state)
{
	struct metrics_opts *opts = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &opts->common;
		return 0;
	case 'o':
		opts->output = arg;
		return 0;
	case ARGP_KEY_ARG:
		return pkstool_usage(state, "unexpected argument '%s'", arg);
	case ARGP_KEY_END:
		/* The collector reads one format: no JSON to offer. */
		if (opts->common.json)
			return pkstool_usage(state,
					     "--json is not accepted: metrics prints the Prometheus text format only (use 'pkstool info --json')");
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp metrics_argp = {
	.options = metrics_options,
	.parser = metrics_parse,
	.doc = "Print PKS protection metrics in the Prometheus text format "
	       "(node_exporter textfile collector).",
	.children = pkstool_common_children,
};

/* A label value, escaped as the text format wants. */
static void label(FILE *out, const char *value)
{
	for (; value && *value; value++) {
		if (*value == '\\' || *value == '"')
			fprintf(out, "\\%c", *value);
		else if (*value == '\n')
			fputs("\\n", out);
		else
			fputc(*value, out);
	}
}

static void family(FILE *out, const char *name, const char *type,
		   const char *help)
{
	fprintf(out, "# HELP pkstool_%s %s\n# TYPE pkstool_%s %s\n", name, help,
		name, type);
}

/* A family of one series without labels. */
static void scalar(FILE *out, const char *name, const char *type,
		   const char *help, uint64_t value)
{
	family(out, name, type, help);
	fprintf(out, "pkstool_%s %" PRIu64 "\n", name, value);
}

static void ns_labels(FILE *out, struct pks_ns *ns)
{
	fputs("{namespace=\"", out);
	label(out, pks_ns_get_name(ns));
	fputs("\",device=\"", out);
	label(out, pks_ns_get_device(ns));
	fputc('"', out);
}

static void write_namespaces(FILE *out, struct pks_ctx *ctx, bool loaded)
{
	static const int modes[] = { PKS_MODE_STRICT, PKS_MODE_RELAXED };
	struct pkstool_persist *persist;
	struct pks_record *rec;
	uint64_t dropped = 0, n;
	uint32_t outcome;
	struct pks_ns *ns;
	size_t i;

	family(out, "namespace_protected", "gauge",
	       "Whether the driver protects the namespace's range.");
	pks_ns_foreach(ctx, ns) {
		fputs("pkstool_namespace_protected", out);
		ns_labels(out, ns);
		fprintf(out, "} %d\n", pks_ns_is_protected(ns));
	}
	family(out, "namespace_mode", "gauge",
	       "1 for the protection mode in force (strict or relaxed).");
	pks_ns_foreach(ctx, ns) {
		for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
			fputs("pkstool_namespace_mode", out);
			ns_labels(out, ns);
			fprintf(out, ",mode=\"%s\"} %d\n", pks_mode_name(modes[i]),
				pks_ns_get_protection_mode(ns) == modes[i]);
		}
	}
	/* Records unreadable: no persistent series rather than wrong ones. */
	if (!pkstool_persist_open(&persist, false, NULL, "metrics")) {
		family(out, "namespace_persistent", "gauge",
		       "Whether /etc/pkstool/protect.conf records the namespace.");
		pks_ns_foreach(ctx, ns) {
			fputs("pkstool_namespace_persistent", out);
			ns_labels(out, ns);
			fprintf(out, "} %d\n",
				pkstool_persist_lookup(persist, ns) != -ENOENT);
		}
		pkstool_persist_close(persist, NULL, "metrics");
	}
	family(out, "namespace_faults_total", "counter",
	       "Stray accesses recorded since the namespace was protected.");
	pks_ns_foreach(ctx, ns) {
		fputs("pkstool_namespace_faults_total", out);
		ns_labels(out, ns);
		fprintf(out, "} %" PRIu64 "\n", pks_ns_get_faults(ns));
	}
	if (!loaded || pks_faults_refresh(ctx, 1, &dropped))
		return;
	family(out, "namespace_faults_recorded", "gauge",
	       "Records of the namespace in the driver's fault ring, by outcome.");
	pks_ns_foreach(ctx, ns) {
		for (outcome = 0; outcome <= PKS_FAULT_CALLBACK; outcome++) {
			const char *name = pks_fault_outcome_name(outcome);

			n = 0;
			pks_record_foreach(ctx, rec)
				if (pks_record_is_fault(rec) &&
				    !strcmp(pks_record_get_outcome(rec), name) &&
				    util_record_matches(rec, pks_ns_get_device(ns) ?
						       pks_ns_get_device(ns) : ""))
					n++;
			fputs("pkstool_namespace_faults_recorded", out);
			ns_labels(out, ns);
			fprintf(out, ",outcome=\"%s\"} %" PRIu64 "\n", name, n);
		}
	}
	scalar(out, "faults_dropped_total", "counter",
	       "Fault records the ring no longer holds (overwritten by newer ones).",
	       dropped);
}

/*
 * Grants by rule and context, and what the interrupt boundaries cost:
 * the PKRS writes at interrupt entry and exit, and the faults that gave
 * a window its rights back after one. Without CAP_SYS_ADMIN the driver
 * shows none of the counts (they tell what other users' accesses do):
 * their series are left out rather than exported as zeros.
 */
static void write_grants(FILE *out, struct pks_ctx *ctx)
{
	static const struct {
		const char *name;
		uint64_t (*get)(struct pks_rule *rule);
	} contexts[] = {
		{ "task", pks_rule_get_task },
		{ "softirq", pks_rule_get_softirq },
		{ "hardirq", pks_rule_get_hardirq },
		{ "stepped", pks_rule_get_stepped },
	};
	struct pks_rule *rule;
	size_t i;

	scalar(out, "boundary_hooks", "gauge",
	       "Interrupt entry and exit hooks in place.",
	       pks_get_boundary_hooks(ctx));
	if (!pks_grants_have_counts(ctx))
		return;
	family(out, "grants_total", "counter",
	       "Kernel accesses to a protected namespace let through, by rule and context.");
	pks_rule_foreach(ctx, rule) {
		for (i = 0; i < sizeof(contexts) / sizeof(contexts[0]); i++) {
			fputs("pkstool_grants_total{rule=\"", out);
			label(out, pks_rule_get_name(rule));
			fprintf(out, "\",context=\"%s\"} %" PRIu64 "\n",
				contexts[i].name, contexts[i].get(rule));
		}
	}
	scalar(out, "tasks_granted", "gauge",
	       "Tasks holding a grant.",
	       pks_get_tasks_granted(ctx));
	scalar(out, "fault_probe_hits_total", "counter",
	       "Kernel protection-key faults the driver's fault probe saw.",
	       pks_get_fault_probe_hits(ctx));
	scalar(out, "grant_refills_total", "counter",
	       "Faults that gave a window its rights back after an interrupt boundary reset them.",
	       pks_get_refills(ctx));
	scalar(out, "spurious_faults_total", "counter",
	       "Faults on an entry the key already allowed (a stale TLB entry), flushed and retried.",
	       pks_get_spurious(ctx));
	scalar(out, "boundary_pkrs_writes_total", "counter",
	       "PKRS writes made at interrupt entry and exit.",
	       pks_get_boundary_writes(ctx));
}

/*
 * Per-CPU PKRS counters, for the CPUs the driver read (live: only for
 * CAP_SYS_ADMIN, see pks_cpu_is_live()); none is exported as a zero.
 */
static void write_cpus(FILE *out, struct pks_ctx *ctx)
{
	struct pks_cpu *cpu;
	bool any = false;

	pks_cpu_foreach(ctx, cpu)
		any |= pks_cpu_is_live(cpu);
	if (!any)
		return;
	family(out, "cpu_pkrs_writes_total", "counter",
	       "PKRS register writes on the CPU.");
	pks_cpu_foreach(ctx, cpu)
		if (pks_cpu_is_live(cpu))
			fprintf(out, "pkstool_cpu_pkrs_writes_total{cpu=\"%u\"} %" PRIu64 "\n",
				pks_cpu_get_id(cpu),
				pks_cpu_get_pkrs_writes(cpu));
	family(out, "cpu_pkrs_skipped_total", "counter",
	       "PKRS writes skipped on the CPU because the value was current.");
	pks_cpu_foreach(ctx, cpu)
		if (pks_cpu_is_live(cpu))
			fprintf(out, "pkstool_cpu_pkrs_skipped_total{cpu=\"%u\"} %" PRIu64 "\n",
				pks_cpu_get_id(cpu),
				pks_cpu_get_pkrs_skipped(cpu));
}

static void write_driver(FILE *out, struct pks_ctx *ctx)
{
	struct pks_key *key;
	unsigned int keys = 0;

	scalar(out, "fault_capture_active", "gauge",
	       "Whether the driver's fault probes are placed (faults are recorded).",
	       pks_fault_log_active(ctx));
	scalar(out, "activity_shown", "gauge",
	       "Whether the driver showed PKRS and grant counters (CAP_SYS_ADMIN); without it their series are left out.",
	       pks_grants_have_counts(ctx));
	family(out, "keys_allocated", "gauge", "Protection keys in use.");
	pks_key_foreach(ctx, key)
		keys += pks_key_is_allocated(key);
	fprintf(out, "pkstool_keys_allocated %u\n", keys);
	write_cpus(out, ctx);
	write_grants(out, ctx);
}

/* Replace @path by @data: a temporary file beside it, then rename(). */
static int replace_file(const char *path, const char *data, size_t len)
{
	char tmp[4096];
	int fd, rc = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	if (write(fd, data, len) != (ssize_t)len || fchmod(fd, 0644) ||
	    fsync(fd))
		rc = errno ? -errno : -EIO;
	if (close(fd) && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (rc)
		unlink(tmp);
	return rc;
}

int cmd_metrics(int argc, char **argv, struct pks_ctx *ctx)
{
	struct metrics_opts opts = { 0 };
	bool loaded;
	size_t len;
	char *data;
	FILE *out;
	int status, rc;

	if (!pkstool_parse(&metrics_argp, argc, argv, &opts, &rc))
		return rc;
	/* Without the driver the metrics say so: driver_loaded 0. */
	status = pks_driver_status(ctx);
	if (status && status != -ENOENT)
		return pkstool_open_driver(ctx, &opts.common, "metrics");
	loaded = !status;
	if (loaded) {
		rc = pks_refresh(ctx);
		if (rc) {
			p_err(&opts.common, "metrics: reading driver state: %s",
			      strerror(-rc));
			return PKSTOOL_FAILED;
		}
	}
	rc = pks_ns_scan(ctx);
	if (rc) {
		p_err(&opts.common, "metrics: reading namespaces: %s",
		      strerror(-rc));
		return PKSTOOL_FAILED;
	}
	out = open_memstream(&data, &len);
	if (!out) {
		p_err(&opts.common, "metrics: %s", strerror(errno));
		return PKSTOOL_FAILED;
	}
	scalar(out, "cpu_pks_supported", "gauge",
	       "Whether the CPU has PKS (CPUID.7.0:ECX bit 31).",
	       pks_cpu_has_pks());
	scalar(out, "driver_loaded", "gauge",
	       "Whether /dev/pks answers.",
	       loaded);
	if (loaded)
		write_driver(out, ctx);
	write_namespaces(out, ctx, loaded);
	if (fclose(out)) {
		p_err(&opts.common, "metrics: %s", strerror(errno));
		return PKSTOOL_FAILED;
	}
	if (!opts.output) {
		fwrite(data, 1, len, stdout);
		rc = 0;
	} else {
		rc = replace_file(opts.output, data, len);
		if (rc)
			p_err(&opts.common, "metrics: writing %s: %s",
			      opts.output, strerror(-rc));
	}
	free(data);
	return rc ? PKSTOOL_FAILED : PKSTOOL_DONE;
}
