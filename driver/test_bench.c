// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark: the cost of opening a key with a guard window against the
 * correct alternative without PKS, a page-table change with a TLB flush on
 * every CPU, measured side by side and counted in events, since time
 * ratios under emulation do not predict hardware.
 */
#include "test.h"

#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <asm/tlbflush.h>

static void pks_bench_flush_local(void *data)
{
	atomic64_inc(data);
	__flush_tlb_all();
}

/* Present and writable, or not present: the alternative's two states. */
static void pks_bench_set_pte(pte_t *pte, bool open, atomic64_t *flushes)
{
	pteval_t val = pte_val(*pte);

	val = open ? val | _PAGE_PRESENT : val & ~_PAGE_PRESENT;
	set_pte(pte, __pte(val));
	on_each_cpu(pks_bench_flush_local, flushes, 1);
}

int pks_bench_run(struct pks_bench *b)
{
	struct pks_test_page tp, alt;
	atomic64_t flushes = ATOMIC64_INIT(0);
	u64 w0, s0, w1, s1, t0, i;
	unsigned int prev, outer, level;
	pte_t *pte;
	int rc;

	if (!b->iterations || b->iterations > 1000000)
		return -EINVAL;
	rc = pks_test_page_alloc(&tp, "bench");
	if (rc)
		return rc;
	rc = pks_test_page_map(&alt, 0);
	if (rc)
		goto free_tp;
	pte = lookup_address((unsigned long)alt.addr, &level);

	preempt_disable();
	pks_counters(&w0, &s0);
	t0 = ktime_get_ns();
	for (i = 0; i < b->iterations; i++) {
		prev = pks_window_open(tp.key, PKS_READ_WRITE);
		WRITE_ONCE(*(u64 *)tp.addr, i);
		pks_window_close(tp.key, prev);
	}
	b->window_ns = ktime_get_ns() - t0;
	pks_counters(&w1, &s1);
	b->window_pkrs_writes = w1 - w0;

	outer = pks_window_open(tp.key, PKS_READ_WRITE);
	pks_counters(&w0, &s0);
	for (i = 0; i < b->iterations; i++) {
		prev = pks_window_open(tp.key, PKS_READ_WRITE);
		pks_window_close(tp.key, prev);
	}
	pks_counters(&w1, &s1);
	pks_window_close(tp.key, outer);
	b->redundant_pkrs_writes = w1 - w0;
	preempt_enable();

	/* The alternative starts closed, as a protected page would be. */
	pks_bench_set_pte(pte, false, &flushes);
	atomic64_set(&flushes, 0);
	t0 = ktime_get_ns();
	for (i = 0; i < b->iterations; i++) {
		pks_bench_set_pte(pte, true, &flushes);
		WRITE_ONCE(*(u64 *)alt.addr, i);
		pks_bench_set_pte(pte, false, &flushes);
	}
	b->pte_ns = ktime_get_ns() - t0;
	b->pte_updates = 2 * i;
	b->tlb_flushes = atomic64_read(&flushes);
	pks_bench_set_pte(pte, true, &flushes);

	pks_test_page_free(&alt);
free_tp:
	pks_test_page_free(&tp);
	return rc;
}
