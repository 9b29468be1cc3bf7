// SPDX-License-Identifier: GPL-2.0
/*
 * How the direct map is keyed: a protected range's kernel direct-map
 * leaves carry its key in their protection-key bits, swapped in place and
 * followed by a TLB flush on every CPU. User mappings of a dax device use
 * their own page tables and keep working.
 */
#include "pks_internal.h"

#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/smp.h>
#include <asm/tlbflush.h>

/* The key of the kernel page mapping @address, or -1 when unmapped. */
int pks_addr_key(unsigned long address)
{
	unsigned int level;
	pte_t *pte = lookup_address(address, &level);

	if (!pte || !pte_present(*pte))
		return -1;
	return (pte_val(*pte) & PKS_PTE_KEY_MASK) >> PKS_PTE_KEY_SHIFT;
}

static void pks_flush_tlb_ipi(void *unused)
{
	pks_flush_tlb_local();
}

/* A large entry that keeps turning into a table under us is a bug. */
#define PKS_RETAG_TRIES	16

/*
 * Give the direct-map leaf that maps @va the key @key; *@level becomes its
 * size. The entry is swapped with cmpxchg, so that a concurrent change to
 * its other bits is never undone. A leaf that is not present (a page
 * unmapped after a memory failure) is keyed too: the page-attribute code
 * rebuilds it from its old bits when it maps it again. Returns whether the
 * leaf now carries a key, or -ENOENT when @va is no longer mapped.
 */
static int pks_retag_leaf(unsigned long va, int key, unsigned int *level)
{
	unsigned int tries = 0;
	pteval_t old, new;
	pte_t *pte;

retry:
	pte = lookup_address(va, level);
	if (!pte)
		return -ENOENT;
	old = pte_val(READ_ONCE(*pte));
	do {
		/*
		 * A present large entry without PSE points to a table: it
		 * was split since the lookup, so retag the new leaf.
		 */
		if (*level != PG_LEVEL_4K && (old & _PAGE_PRESENT) &&
		    !(old & _PAGE_PSE)) {
			if (WARN_ON_ONCE(++tries > PKS_RETAG_TRIES))
				return -ENOENT;
			goto retry;
		}
		new = (old & ~PKS_PTE_KEY_MASK) |
		      ((u64)key << PKS_PTE_KEY_SHIFT);
	} while (!try_cmpxchg64((u64 *)&pte->pte, (u64 *)&old, new));
	return !!(new & PKS_PTE_KEY_MASK);
}

/* One pass over @p's leaves; returns how many now carry a key. */
static long pks_retag_pass(struct pks_prot *p, int key, bool report)
{
	phys_addr_t pa, end = p->start + p->len;
	unsigned int level;
	long keyed = 0;
	int rc;

	for (pa = p->start; pa < end; pa += page_level_size(level)) {
		rc = pks_retag_leaf((unsigned long)__va(pa), key, &level);
		if (rc == -ENOENT) {
			if (report)
				pr_err("%s: %#llx left the direct map; not retagged\n",
				       p->name, (u64)pa);
			level = PG_LEVEL_4K;
			continue;
		}
		keyed += rc;
		/* A namespace of many GiB in 4 KiB pages is a long walk. */
		cond_resched();
	}
	return keyed;
}

/*
 * Retag every direct-map page of the range. The page-attribute code can
 * rewrite an entry from a copy it read earlier: splitting a large entry
 * (set_mce_nospec() after a memory failure) under pgd_lock, copying its
 * key into the small ones, or changing a 4 KiB entry under cpa_lock. A
 * module can take neither lock, so such a rewrite that read the entry
 * before the first pass would bring back the old key. Both locks are
 * spinlocks held with preemption off, so after a grace period every such
 * rewrite is complete, and a second pass retags what it left.
 *
 * The keyed-entries count follows what the second pass finds, so a split
 * between protect and release keeps it balanced.
 */
void __pks_set_range_key(struct pks_prot *p, int key)
{
	long keyed;

	lockdep_assert_held(&pks_lock);
	pks_retag_pass(p, key, true);
	/*
	 * A TLB entry keeps the key it was loaded with, and no PKRS write
	 * flushes it: flush after each pass, so that no CPU goes on using
	 * the old key for a grace period (faults on one that remains are
	 * flushed and retried by the fault path: pks_spurious()).
	 */
	on_each_cpu(pks_flush_tlb_ipi, NULL, 1);
	synchronize_rcu();
	keyed = pks_retag_pass(p, key, false);
	pks_acct_add(PKS_ACCT_KEYED_ENTRIES, keyed - p->keyed_leaves);
	p->keyed_leaves = keyed;
	on_each_cpu(pks_flush_tlb_ipi, NULL, 1);
}
