// SPDX-License-Identifier: GPL-2.0
/*
 * The driver's own count of what it holds: stock kernels have no
 * kmemleak, so each kind of object is counted by the file that owns it,
 * where it is made and where it goes (pks_acct_add()), and the counts are
 * reported on request and at unload. This file calls no other.
 */
#include "pks_internal.h"

#include <linux/cpumask.h>
#include <linux/percpu.h>

/*
 * Per CPU, summed when read: a task window (one per owner's copy call)
 * counts itself in and out, and a count all CPUs shared would put a
 * contended atomic on every bracketed call. An object may be counted in
 * on one CPU and out on another; the sum is exact whenever nothing is
 * being made or released, as at unload.
 */
struct pks_acct_counts {
	long n[PKS_ACCT_NR];
};

static DEFINE_PER_CPU(struct pks_acct_counts, pks_acct);

#define ___PKS_A(id, name) name
static const char *const pks_acct_names[] = PKS_ACCT_KINDS;
#undef ___PKS_A

/* Count @delta more (or, negative, fewer) objects of @kind. */
void pks_acct_add(enum pks_acct kind, long delta)
{
	this_cpu_add(pks_acct.n[kind], delta);
}

/* How many objects of @kind there are now, for reports of their own. */
long pks_acct_count(enum pks_acct kind)
{
	long n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += per_cpu(pks_acct.n[kind], cpu);
	return n;
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
