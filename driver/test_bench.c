// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark: the cost of opening a key with a guard window against the
 * correct alternative without PKS, a page-table change with a TLB flush on
 * every CPU, measured side by side over a buffer of the caller's size and
 * counted in events, since time ratios under emulation do not predict
 * hardware.
 */
#include "test.h"

#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/vmalloc.h>
#include <asm/tlbflush.h>

/**
 * struct pks_bench_buf - pages vmap()ed as one buffer
 * @pages: the backing pages
 * @nr: how many
 * @addr: the mapping, tagged with the key it was made with
 */
struct pks_bench_buf {
	struct page **pages;
	unsigned int nr;
	void *addr;
};

static void pks_bench_buf_free(struct pks_bench_buf *b)
{
	unsigned int i;

	if (b->addr)
		vunmap(b->addr);
	for (i = 0; b->pages && i < b->nr; i++)
		if (b->pages[i])
			__free_page(b->pages[i]);
	kfree(b->pages);
	memset(b, 0, sizeof(*b));
}

static int pks_bench_buf_alloc(struct pks_bench_buf *b, size_t bytes, int key)
{
	unsigned int i;

	memset(b, 0, sizeof(*b));
	b->nr = DIV_ROUND_UP(bytes, PAGE_SIZE);
	b->pages = kcalloc(b->nr, sizeof(*b->pages), GFP_KERNEL);
	if (!b->pages)
		return -ENOMEM;
	for (i = 0; i < b->nr; i++) {
		b->pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!b->pages[i])
			goto nomem;
	}
	b->addr = vmap(b->pages, b->nr, VM_MAP, pks_pgprot(PAGE_KERNEL, key));
	if (b->addr)
		return 0;
nomem:
	pks_bench_buf_free(b);
	return -ENOMEM;
}

static void pks_bench_flush_local(void *data)
{
	atomic64_inc(data);
	__flush_tlb_all();
}

/*
 * The alternative's two states, present and writable or not present: one
 * PTE write per page of the buffer, then one TLB flush on every CPU.
 */
static u64 pks_bench_set_ptes(struct pks_bench_buf *b, bool open,
			      atomic64_t *flushes)
{
	unsigned long addr = (unsigned long)b->addr;
	unsigned int i, level;
	pteval_t val;
	pte_t *pte;

	for (i = 0; i < b->nr; i++, addr += PAGE_SIZE) {
		pte = lookup_address(addr, &level);
		val = pte_val(*pte);
		val = open ? val | _PAGE_PRESENT : val & ~_PAGE_PRESENT;
		set_pte(pte, __pte(val));
	}
	on_each_cpu(pks_bench_flush_local, flushes, 1);
	return b->nr;
}

int pks_bench_run(struct pks_bench *b)
{
	size_t bytes = b->access_bytes ? b->access_bytes : sizeof(u64);
	struct pks_bench_buf tp, alt;
	atomic64_t flushes = ATOMIC64_INIT(0);
	u64 w0, s0, w1, s1, t0, i, ptes = 0;
	unsigned int prev, outer;
	int key, rc;

	/* The window loop runs with preemption off: bound what it writes. */
	if (!b->iterations || b->iterations > 1000000 || b->rsvd ||
	    bytes % sizeof(u64) || bytes > PKS_BENCH_MAX_BYTES ||
	    (u64)b->iterations * bytes > PKS_BENCH_MAX_TOTAL)
		return -EINVAL;
	key = pks_key_alloc("bench", NULL, NULL);
	if (key < 0)
		return key;
	rc = pks_bench_buf_alloc(&tp, bytes, key);
	if (rc)
		goto free_key;
	rc = pks_bench_buf_alloc(&alt, bytes, 0);
	if (rc)
		goto free_tp;

	preempt_disable();
	pks_counters(&w0, &s0);
	t0 = ktime_get_ns();
	for (i = 0; i < b->iterations; i++) {
		prev = pks_window_open(key, PKS_READ_WRITE);
		memset(tp.addr, i, bytes);
		pks_window_close(key, prev);
	}
	b->window_ns = ktime_get_ns() - t0;
	pks_counters(&w1, &s1);
	b->window_pkrs_writes = w1 - w0;

	outer = pks_window_open(key, PKS_READ_WRITE);
	pks_counters(&w0, &s0);
	for (i = 0; i < b->iterations; i++) {
		prev = pks_window_open(key, PKS_READ_WRITE);
		pks_window_close(key, prev);
	}
	pks_counters(&w1, &s1);
	pks_window_close(key, outer);
	b->redundant_pkrs_writes = w1 - w0;
	preempt_enable();

	/* The alternative starts closed, as a protected buffer would be. */
	pks_bench_set_ptes(&alt, false, &flushes);
	atomic64_set(&flushes, 0);
	t0 = ktime_get_ns();
	for (i = 0; i < b->iterations; i++) {
		ptes += pks_bench_set_ptes(&alt, true, &flushes);
		memset(alt.addr, i, bytes);
		ptes += pks_bench_set_ptes(&alt, false, &flushes);
	}
	b->pte_ns = ktime_get_ns() - t0;
	b->pte_updates = ptes;
	b->tlb_flushes = atomic64_read(&flushes);
	pks_bench_set_ptes(&alt, true, &flushes);

	pks_bench_buf_free(&alt);
free_tp:
	pks_bench_buf_free(&tp);
free_key:
	pks_key_free(key);
	return rc;
}
