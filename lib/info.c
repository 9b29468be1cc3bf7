// SPDX-License-Identifier: LGPL-2.1
/*
 * libpks: the snapshot of the driver's state pks_refresh() reads: keys, CPUs,
 * grants and their rules, the driver's counts and the device's holders.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libpks-private.h"

/*
 * Who has the device open: count, then fill, until the count holds. The
 * driver fills the list for CAP_SYS_ADMIN only (-EPERM): anyone else gets
 * the count, and no list.
 */
static int pks_read_holders(struct pks_ctx *ctx)
{
	struct pks_holders req = { .size = sizeof(req) };
	struct pks_holder *holders = NULL;
	unsigned int room = 0, count = 0, i;
	int rc;

	for (;;) {
		req.nr = room;
		req.holders = (uintptr_t)holders;
		rc = pks_call(ctx, PKS_IOC_HOLDERS, &req);
		if (rc || req.nr <= room)
			break;
		count = req.nr;
		room = count + 4;
		free(holders);
		holders = calloc(room, sizeof(*holders));
		if (!holders)
			return -ENOMEM;
	}
	if (rc) {
		free(holders);
		holders = NULL;
		/* Not for us: the count only. */
		if (rc != -EPERM || !room)
			return rc;
		req.nr = count;
	}
	for (i = 0; holders && i < req.nr; i++)
		holders[i].comm[PKS_COMM_LEN - 1] = '\0';
	free(ctx->holders);
	ctx->holders = holders;
	ctx->nr_holders = req.nr;
	return 0;
}

int pks_refresh(struct pks_ctx *ctx)
{
	struct pks_cpu_info *raw = NULL;
	unsigned int i, n;
	int rc;

	ctx->loaded = false;
	/* Count, then fill; retry if CPUs appeared in between. */
	rc = pks_get_info(ctx, &ctx->info, NULL, 0);
	while (!rc) {
		n = ctx->info.nr_cpus;
		free(raw);
		raw = calloc(n ? n : 1, sizeof(*raw));
		if (!raw)
			return -ENOMEM;
		rc = pks_get_info(ctx, &ctx->info, raw, n);
		if (!rc && ctx->info.nr_cpus <= n)
			break;
	}
	if (rc) {
		free(raw);
		return rc;
	}
	n = ctx->info.nr_cpus;
	free(ctx->cpus);
	ctx->cpus = calloc(n ? n : 1, sizeof(*ctx->cpus));
	if (!ctx->cpus) {
		free(raw);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		ctx->cpus[i].ctx = ctx;
		ctx->cpus[i].info = raw[i];
	}
	free(raw);
	ctx->nr_cpus = n;
	for (i = 0; i < PKS_NR_KEYS; i++) {
		ctx->keys[i].ctx = ctx;
		ctx->keys[i].info = ctx->info.keys[i];
		ctx->keys[i].info.owner[PKS_OWNER_LEN - 1] = '\0';
	}
	memset(&ctx->grants, 0, sizeof(ctx->grants));
	ctx->grants.size = sizeof(ctx->grants);
	rc = pks_call(ctx, PKS_IOC_GRANTS, &ctx->grants);
	if (rc)
		return rc;
	n = ctx->grants.nr_rules;
	ctx->nr_rules = n < PKS_RULE_MAX ? n : PKS_RULE_MAX;
	for (i = 0; i < ctx->nr_rules; i++) {
		ctx->rules[i].ctx = ctx;
		ctx->rules[i].info = ctx->grants.rules[i];
		ctx->rules[i].info.name[PKS_NAME_LEN - 1] = '\0';
	}
	memset(&ctx->acct, 0, sizeof(ctx->acct));
	ctx->acct.size = sizeof(ctx->acct);
	rc = pks_call(ctx, PKS_IOC_ACCOUNTING, &ctx->acct);
	if (rc)
		return rc;
	rc = pks_read_holders(ctx);
	if (rc)
		return rc;
	ctx->loaded = true;
	return 0;
}

unsigned int pks_get_nr_counts(struct pks_ctx *ctx)
{
	if (!ctx->loaded)
		return 0;
	return ctx->acct.nr < PKS_ACCT_NR ? ctx->acct.nr : PKS_ACCT_NR;
}

const char *pks_count_get_name(struct pks_ctx *ctx, unsigned int i)
{
#define ___PKS_A(id, name) name
	static const char *const names[] = PKS_ACCT_KINDS;
#undef ___PKS_A

	return i < pks_get_nr_counts(ctx) ? names[i] : NULL;
}

uint64_t pks_count_get_value(struct pks_ctx *ctx, unsigned int i)
{
	return i < pks_get_nr_counts(ctx) ? ctx->acct.counts[i] : 0;
}

unsigned int pks_get_nr_holders(struct pks_ctx *ctx)
{
	return ctx->loaded ? ctx->nr_holders : 0;
}

unsigned int pks_holder_get_pid(struct pks_ctx *ctx, unsigned int i)
{
	return ctx->holders && i < pks_get_nr_holders(ctx) ?
	       ctx->holders[i].pid : 0;
}

const char *pks_holder_get_comm(struct pks_ctx *ctx, unsigned int i)
{
	return ctx->holders && i < pks_get_nr_holders(ctx) ?
	       ctx->holders[i].comm : NULL;
}

bool pks_grants_armed(struct pks_ctx *ctx)
{
	return ctx->grants.flags & PKS_GRANTS_F_ARMED;
}

bool pks_grants_have_counts(struct pks_ctx *ctx)
{
	return ctx->grants.flags & PKS_GRANTS_F_COUNTS;
}

unsigned int pks_get_tasks_granted(struct pks_ctx *ctx)
{
	return ctx->grants.tasks_granted;
}

uint64_t pks_get_fault_probe_hits(struct pks_ctx *ctx)
{
	return ctx->grants.fault_probe_hits;
}

uint64_t pks_get_refills(struct pks_ctx *ctx)
{
	return ctx->grants.refills;
}

uint64_t pks_get_spurious(struct pks_ctx *ctx)
{
	return ctx->grants.spurious;
}

uint64_t pks_get_frames_unwound(struct pks_ctx *ctx)
{
	return ctx->grants.frames_unwound;
}

uint64_t pks_get_symbol_lookups(struct pks_ctx *ctx)
{
	return ctx->grants.symbol_lookups;
}

uint64_t pks_get_boundary_writes(struct pks_ctx *ctx)
{
	return ctx->grants.boundary_writes;
}

unsigned int pks_get_boundary_hooks(struct pks_ctx *ctx)
{
	return ctx->grants.boundary_hooks;
}

struct pks_rule *pks_rule_get_first(struct pks_ctx *ctx)
{
	return ctx->loaded && ctx->nr_rules ? &ctx->rules[0] : NULL;
}

struct pks_rule *pks_rule_get_next(struct pks_rule *rule)
{
	struct pks_ctx *ctx = rule->ctx;

	return rule + 1 < ctx->rules + ctx->nr_rules ? rule + 1 : NULL;
}

const char *pks_rule_get_name(struct pks_rule *rule)
{
	return rule->info.name;
}

uint64_t pks_rule_get_task(struct pks_rule *rule)
{
	return rule->info.task;
}

uint64_t pks_rule_get_softirq(struct pks_rule *rule)
{
	return rule->info.softirq;
}

uint64_t pks_rule_get_hardirq(struct pks_rule *rule)
{
	return rule->info.hardirq;
}

uint64_t pks_rule_get_stepped(struct pks_rule *rule)
{
	return rule->info.stepped;
}

uint32_t pks_get_default_pkrs(struct pks_ctx *ctx)
{
	return ctx->info.default_pkrs;
}

bool pks_fault_hook_active(struct pks_ctx *ctx)
{
	return ctx->info.flags & PKS_INFO_F_FAULT_HOOK;
}

bool pks_fault_log_active(struct pks_ctx *ctx)
{
	return ctx->info.flags & PKS_INFO_F_FAULT_LOG;
}

bool pks_stock_pk_warn_silenced(struct pks_ctx *ctx)
{
	return ctx->info.flags & PKS_INFO_F_PK_WARN_SILENCED;
}

bool pks_fault_hooks_pinned(struct pks_ctx *ctx)
{
	return ctx->info.flags & PKS_INFO_F_FAULT_PINNED;
}

bool pks_dax_guard_missing(struct pks_ctx *ctx)
{
	return ctx->info.flags & PKS_INFO_F_DAX_GUARD_MISSING;
}

struct pks_key *pks_key_get_first(struct pks_ctx *ctx)
{
	return ctx->loaded ? &ctx->keys[0] : NULL;
}

struct pks_key *pks_key_get_next(struct pks_key *key)
{
	struct pks_ctx *ctx = key->ctx;

	return key + 1 < ctx->keys + PKS_NR_KEYS ? key + 1 : NULL;
}

unsigned int pks_key_get_id(struct pks_key *key)
{
	return key->info.key;
}

const char *pks_key_get_owner(struct pks_key *key)
{
	return key->info.owner;
}

bool pks_key_is_allocated(struct pks_key *key)
{
	return key->info.flags & PKS_KEY_F_ALLOCATED;
}

bool pks_key_is_reserved(struct pks_key *key)
{
	return key->info.flags & PKS_KEY_F_RESERVED;
}

struct pks_cpu *pks_cpu_get_first(struct pks_ctx *ctx)
{
	return ctx->loaded && ctx->nr_cpus ? &ctx->cpus[0] : NULL;
}

struct pks_cpu *pks_cpu_get_next(struct pks_cpu *cpu)
{
	struct pks_ctx *ctx = cpu->ctx;

	return cpu + 1 < ctx->cpus + ctx->nr_cpus ? cpu + 1 : NULL;
}

unsigned int pks_cpu_get_id(struct pks_cpu *cpu)
{
	return cpu->info.cpu;
}

bool pks_cpu_is_online(struct pks_cpu *cpu)
{
	return cpu->info.flags & PKS_CPU_F_ONLINE;
}

bool pks_cpu_get_cr4_pks(struct pks_cpu *cpu)
{
	return cpu->info.flags & PKS_CPU_F_CR4_PKS;
}

bool pks_cpu_is_live(struct pks_cpu *cpu)
{
	return cpu->info.flags & PKS_CPU_F_LIVE;
}

uint32_t pks_cpu_get_pkrs(struct pks_cpu *cpu)
{
	return cpu->info.pkrs;
}

uint32_t pks_cpu_get_pkrs_cached(struct pks_cpu *cpu)
{
	return cpu->info.pkrs_cached;
}

uint64_t pks_cpu_get_pkrs_writes(struct pks_cpu *cpu)
{
	return cpu->info.pkrs_writes;
}

uint64_t pks_cpu_get_pkrs_skipped(struct pks_cpu *cpu)
{
	return cpu->info.pkrs_skipped;
}
