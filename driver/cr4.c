// SPDX-License-Identifier: GPL-2.0
/*
 * CR4.PKS and the kernel TLB flush, through the kernel's own functions
 * where it exports them to every module, and without them where it does
 * not.
 *
 * The kernel keeps a per-CPU shadow of CR4 (cpu_tlbstate.cr4) and writes
 * CR4 from it: cr4_update_irqsoff() sets and clears bits in shadow and
 * register together, the context switch toggles CR4.TSD from it, and KVM
 * loads the host CR4 on every VM exit from cr4_read_shadow(). A bit set in
 * the register alone is lost at the next such write. Kernels up to 6.12
 * export cr4_update_irqsoff() and __flush_tlb_all() to any module, and
 * pks uses them. Newer ones (Debian's 7.3) export both to the KVM modules
 * only, and nothing else that writes CR4 or the shadow: Kbuild reads that
 * from the export table (PKS_NO_CR4_EXPORT). There:
 *
 * - CR4.PKS is written in the register with the same instruction the
 *   kernel uses, interrupts off, and a kprobe on cr4_update_irqsoff()
 *   (a function, exported to KVM, so not inlined) adds X86_CR4_PKS to the
 *   bits it sets on every CPU where pks enabled PKS (to those it clears
 *   where pks disabled it). The kernel calls it on every switch to
 *   another mm (the CR4.PCE update), so its own shadow takes the bit on
 *   the CPU's next process switch and keeps it through every update the
 *   kernel makes from then on. Until that switch the shadow lacks the
 *   bit: a CR4.TSD toggle (prctl(PR_SET_TSC)) or a KVM VM exit in that
 *   window would clear CR4.PKS in the register (keys unenforced on that
 *   CPU, never a fault; a process switch mends it). Without the probe
 *   pks refuses to load.
 * - The TLB flush is the kernel's own global flush, done by hand: INVPCID
 *   "all contexts including globals" where the CPU has it (every CPU with
 *   PKS does), else a CR4.PGE toggle read from the register itself.
 */
#include "pks_internal.h"

#include <linux/kprobes.h>
#include <asm/tlbflush.h>
#include <asm/invpcid.h>

#ifndef PKS_NO_CR4_EXPORT

int pks_cr4_init(void)
{
	return 0;
}

void pks_cr4_exit(void)
{
}

void pks_cr4_update(bool on)
{
	if (on)
		cr4_update_irqsoff(X86_CR4_PKS, 0);
	else
		cr4_update_irqsoff(0, X86_CR4_PKS);
}

void pks_flush_tlb_local(void)
{
	__flush_tlb_all();
}

#else /* PKS_NO_CR4_EXPORT */

/* Per CPU: 1 when pks enabled CR4.PKS there, 0 when it disabled it. */
static DEFINE_PER_CPU(int, pks_cr4_want) = -1;
static bool pks_cr4_probed;

static unsigned long pks_read_cr4_hw(void)
{
	unsigned long val;

	asm volatile("mov %%cr4, %0" : "=r" (val) : : "memory");
	return val;
}

static void pks_write_cr4_hw(unsigned long val)
{
	asm volatile("mov %0, %%cr4" : : "r" (val) : "memory");
}

/* void cr4_update_irqsoff(unsigned long set, unsigned long clear) */
static int pks_cr4_update_pre(struct kprobe *p, struct pt_regs *regs)
{
	int want = this_cpu_read(pks_cr4_want);

	if (want == 1) {
		regs->di |= X86_CR4_PKS;
		regs->si &= ~X86_CR4_PKS;
	} else if (want == 0) {
		regs->si |= X86_CR4_PKS;
		regs->di &= ~X86_CR4_PKS;
	}
	return 0;
}

static struct kprobe pks_cr4_kp = {
	.symbol_name = "cr4_update_irqsoff",
	.pre_handler = pks_cr4_update_pre,
};

int pks_cr4_init(void)
{
	int rc = register_kprobe(&pks_cr4_kp);

	if (rc) {
		pr_err("cannot probe cr4_update_irqsoff (%d): without it the kernel's CR4 shadow would drop CR4.PKS\n",
		       rc);
		return rc;
	}
	pks_cr4_probed = true;
	return 0;
}

/*
 * After the CPUs are disabled: the shadows keep CR4.PKS where a process
 * switch has carried it there; PKRS holds the default (key 0 open, the
 * others closed, and no page carries another key any more), so the bit
 * left set does no harm and is what the kernel writes back. A reload
 * finds it set.
 */
void pks_cr4_exit(void)
{
	if (pks_cr4_probed)
		unregister_kprobe(&pks_cr4_kp);
	pks_cr4_probed = false;
}

/* Interrupts are off. */
void pks_cr4_update(bool on)
{
	unsigned long cr4 = pks_read_cr4_hw();

	this_cpu_write(pks_cr4_want, on);
	if (on)
		cr4 |= X86_CR4_PKS;
	else
		cr4 &= ~X86_CR4_PKS;
	pks_write_cr4_hw(cr4);
}

void pks_flush_tlb_local(void)
{
	unsigned long flags, cr4;

	if (boot_cpu_has(X86_FEATURE_INVPCID)) {
		invpcid_flush_all();
		return;
	}
	local_irq_save(flags);
	cr4 = pks_read_cr4_hw();
	if (cr4 & X86_CR4_PGE) {
		pks_write_cr4_hw(cr4 ^ X86_CR4_PGE);
		pks_write_cr4_hw(cr4);
	} else {
		/* No global pages: reloading CR3 flushes them all. */
		native_write_cr3(__native_read_cr3());
	}
	local_irq_restore(flags);
}

#endif /* PKS_NO_CR4_EXPORT */
EXPORT_SYMBOL_NS_GPL(pks_flush_tlb_local, PKS_TEST_NS);
