// SPDX-License-Identifier: GPL-2.0
/*
 * The driver's own count of what it holds: stock kernels have no
 * kmemleak, so each kind of object is counted by the file that owns it,
 * where it is made and where it goes (pks_acct_add()), and the counts are
 * reported on request and at unload. This file calls no other.
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

/* How many objects of @kind there are now, for reports of their own. */
long pks_acct_count(enum pks_acct kind)
{
	return atomic_long_read(&pks_acct[kind]);
}

void pks_acct_fill(struct pks_accounting *a)
{
	int kind;

	a->nr = PKS_ACCT_NR;
	for (kind = 0; kind < PKS_ACCT_NR; kind++)
		a->counts[kind] = pks_acct_count(kind);
}

/*
 * At unload, after every teardown: anything still counted is a leak, and
 * a count below zero an object released twice (or never counted).
 */
void pks_acct_report(void)
{
	int kind, left = 0;
	long n;

	for (kind = 0; kind < PKS_ACCT_NR; kind++) {
		n = pks_acct_count(kind);
		if (!n)
			continue;
		pr_warn("unloading with %ld %s still counted\n", n,
			pks_acct_names[kind]);
		left++;
	}
	if (!left)
		pr_info("unloading with nothing outstanding\n");
}
