// SPDX-License-Identifier: GPL-2.0
/*
 * The driver's own count of what it holds: stock kernels have no
 * kmemleak, so each kind of object is counted where it is made and where
 * it goes, and the counts are reported on request and at unload.
 */
#include "pks_internal.h"

#include <linux/atomic.h>

static atomic_long_t pks_acct[PKS_ACCT_NR];

#define ___PKS_A(id, name) name
static const char *const pks_acct_names[] = PKS_ACCT_KINDS;
#undef ___PKS_A

/* Count @delta more (or, negative, fewer) objects of @kind. */
void pks_acct_add(enum pks_acct kind, long delta)
{
	atomic_long_add(delta, &pks_acct[kind]);
}

static long pks_acct_read(enum pks_acct kind)
{
	/* Three kinds are counted by their owners already. */
	if (kind == PKS_ACCT_KEYS)
		return pks_keys_allocated();
	if (kind == PKS_ACCT_TASK_STATES)
		return pks_tasks_attached_count();
	if (kind == PKS_ACCT_GRANT_STATES)
		return pks_tasks_granted_count();
	return atomic_long_read(&pks_acct[kind]);
}

void pks_acct_fill(struct pks_accounting *a)
{
	int kind;

	a->nr = PKS_ACCT_NR;
	for (kind = 0; kind < PKS_ACCT_NR; kind++)
		a->counts[kind] = pks_acct_read(kind);
}

/* At unload, after every teardown: anything still counted is a leak. */
void pks_acct_report(void)
{
	int kind, left = 0;
	long n;

	for (kind = 0; kind < PKS_ACCT_NR; kind++) {
		n = pks_acct_read(kind);
		if (!n)
			continue;
		pr_warn("unloading with %ld %s still counted\n", n,
			pks_acct_names[kind]);
		left++;
	}
	if (!left)
		pr_info("unloading with nothing outstanding\n");
}
