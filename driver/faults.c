// SPDX-License-Identifier: GPL-2.0
/*
 * Fault capture. The stock kernel has no hook for protection-key faults in
 * kernel mode, so two hooks on its fault path stand in, ftrace_ops of this
 * driver's own (oops.c says why not kprobes):
 *
 * - kernelmode_fixup_or_oops() sees every kernel fault that reaches the
 *   bad-area path, including those a fault-safe accessor will fix up. A
 *   protection-key fault on a key of ours is judged there: a stale TLB
 *   entry is flushed, a window's rights that an NMI reset are given back,
 *   a legitimate access (legit.c) is granted, and anything else is
 *   recorded: the record is built here and published, and reported, by
 *   the event log (log.c).
 * - page_fault_oops() sees the faults nothing fixed up: oops.c.
 *
 * This file holds the first and places both.
 */
#include "pks_internal.h"

#include <linux/delay.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/stacktrace.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <asm/apic.h>
#include <asm/msr.h>
#include <asm/nmi.h>
#include <asm/pgtable_types.h>
#include <asm/ptrace.h>
#include <asm/trap_pf.h>

/*
 * An administrator who wants no hooks on the kernel's fault path can
 * load the module without them. Keys and guards still work, but nothing
 * is recorded and nothing can be granted to the kernel's own accesses,
 * so namespaces cannot be protected: info and monitor say so.
 */
static bool fault_capture = true;
module_param(fault_capture, bool, 0444);
MODULE_PARM_DESC(fault_capture,
		 "Probe the kernel's fault path, which namespace protection needs (default: on)");

/**
 * struct pks_fault_scratch - room for one fault being recorded
 * @f: the record
 * @entries: the raw stack trace
 *
 * Per CPU and per hook slot (pks_hook_enter(): task, softirq, hardirq,
 * and each nested NMI-level context), so that the fault path needs no
 * stack of its own and a fault in an interrupt, NMI or #MC that lands in
 * the middle of recording another one has a record of its own.
 */
struct pks_fault_scratch {
	struct pks_fault f;
	unsigned long entries[PKS_FAULT_STACK + 56];
};

static DEFINE_PER_CPU(struct pks_fault_scratch, pks_scratch[PKS_HOOK_SLOTS]);

/*
 * Save the faulting context's callers in @sc->entries, past this
 * handler's own frames: returns how many, starting at *@first (*@first
 * is 0, and none are returned, when the faulting instruction is not on
 * the stack).
 */
static unsigned int pks_fault_frames(struct pks_fault_scratch *sc,
				     struct pt_regs *fregs, unsigned int *first)
{
	unsigned int nr, i;

	nr = stack_trace_save(sc->entries, ARRAY_SIZE(sc->entries), 0);
	for (i = 0; i < nr && sc->entries[i] != fregs->ip; i++)
		;
	*first = i < nr ? i + 1 : 0;
	return i < nr ? nr - i - 1 : 0;
}

/* The record's callers of the faulting instruction, as symbols. */
static void pks_fault_stack(struct pks_fault_scratch *sc,
			    struct pt_regs *fregs)
{
	struct pks_fault *f = &sc->f;
	unsigned int nr, first, n;

	nr = pks_fault_frames(sc, fregs, &first);
	for (n = 0; n < nr && n < PKS_FAULT_STACK; n++)
		snprintf(f->stack[n], PKS_SYM_LEN, "%pS",
			 (void *)sc->entries[first + n]);
}

static void pks_fault_record(struct pks_fault_scratch *sc,
			     struct pt_regs *fregs)
{
	struct pks_fault *f = &sc->f;

	f->event = PKS_EVENT_FAULT;
	snprintf(f->ip, sizeof(f->ip), "%pS", (void *)fregs->ip);
	pks_fault_stack(sc, fregs);
	pks_log_fault(f);
}

/* Per CPU: every kernel protection-key fault counts one. */
static DEFINE_PER_CPU(u64, pks_fixup_hits);

u64 pks_fault_probe_hits(void)
{
	unsigned int cpu;
	u64 sum = 0;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(*per_cpu_ptr(&pks_fixup_hits, cpu));
	return sum;
}

/*
 * The compiler may clone kernelmode_fixup_or_oops() (.constprop.N, .isra.N,
 * numbered from 0 in each function), and a kernel may carry more than one
 * copy. Try the plain name and the first PKS_CLONES_PER_KIND of each kind,
 * and probe every one that exists, or faults through a copy left out would
 * go unseen. A .part.N piece is not probed: it is the tail of a function
 * split in two, called from the plain one (so a fault would be seen
 * twice), and returning from it early would not skip the rest.
 */
#define PKS_FIXUP_FN		"kernelmode_fixup_or_oops"
#define PKS_CLONES_PER_KIND	4
static const char * const pks_clone_kinds[] = { "constprop", "isra" };
#define PKS_FIXUP_NAMES	(1 + ARRAY_SIZE(pks_clone_kinds) * PKS_CLONES_PER_KIND)

/*
 * One ftrace_ops per candidate, so that the hook knows which copy it is
 * in. pks_fixup_pre() was a kprobe handler and still tells the copies
 * apart by a per-copy struct kprobe: never registered, only a name tag.
 */
static struct ftrace_ops pks_fixup_ops[PKS_FIXUP_NAMES];
static struct kprobe pks_fixup_kps[PKS_FIXUP_NAMES];
/* A call of this probe's function had the address CR2 held in dx. */
static bool pks_fixup_checked[PKS_FIXUP_NAMES];

/*
 * A clone (.constprop, .isra) may have dropped or moved arguments; its
 * arguments are trusted only where they have the original's layout: the
 * fault's registers lie just above this frame on the same stack (a page
 * fault never switches to an IST stack), and the address is the one CR2
 * holds. CR2 can change before the probe runs, though: the stock kernel
 * WARNs on the first protection-key fault of a boot, and the WARN's dump
 * of the code bytes around the faulting and the user-mode instruction
 * faults (and is fixed up) where they border an unmapped page. The layout
 * is the clone's, the same for every call: once one call has matched
 * CR2, the clone's address argument is trusted (pks_fixup_check() makes
 * such a call at load).
 */
static bool pks_clone_args_sane(struct kprobe *p, struct pt_regs *regs)
{
	unsigned long fregs = regs->di;
	bool *checked = &pks_fixup_checked[p - pks_fixup_kps];

	if (fregs < regs->sp || fregs - regs->sp >= THREAD_SIZE)
		return false;
	if (regs->dx == read_cr2())
		WRITE_ONCE(*checked, true);
	return READ_ONCE(*checked);
}

/*
 * kernelmode_fixup_or_oops(struct pt_regs *regs, unsigned long error_code,
 *			    unsigned long address, ...)
 *
 * Before any fixup: a fault that the context's own rights explain, or a
 * legitimate access to a protected namespace (legit.c), is retried,
 * unseen; every other fault on our keys is recorded, in @slot's scratch.
 */
static int pks_fixup_pre(struct kprobe *p, struct pt_regs *regs, int slot)
{
	struct pt_regs *fregs = (struct pt_regs *)regs->di;
	unsigned long error_code = regs->si;
	unsigned long address = regs->dx;
	bool write = error_code & X86_PF_WRITE;
	struct pks_fault_scratch *sc;
	struct pks_prot *prot = NULL;
	int key, mode, rule = -1;
	struct pks_fault *f;
	bool has_cb;

	if (p != &pks_fixup_kps[0] && !pks_clone_args_sane(p, regs))
		return 0;
	/* User pages (PKU) fault with the PK bit too; only kernel ones count. */
	if (!(error_code & X86_PF_PK) || user_mode(fregs) ||
	    address < TASK_SIZE_MAX)
		return 0;
	this_cpu_inc(pks_fixup_hits);
	sc = this_cpu_ptr(&pks_scratch[slot]);
	f = &sc->f;
	memset(f, 0, sizeof(*f));
	key = pks_addr_key(address);
	/* Faults on keys this driver did not hand out are not ours. */
	if (!pks_key_owner(key, f->owner, &has_cb))
		return !in_nmi() && pks_spurious(address, key, write) ?
		       pks_retry(regs) : 0;
	f->address = address;
	f->key = key;
	f->flags = write ? PKS_FAULT_F_WRITE : 0;
	/*
	 * Rights the context holds: a stale TLB entry, or a lost register.
	 * An NMI holds none and is granted nothing: the driver's copy of
	 * PKRS is the context's it interrupted.
	 */
	if (!in_nmi() &&
	    (pks_spurious(address, key, write) || pks_refill(key, write)))
		goto retry;
	rcu_read_lock();
	prot = pks_prot_at(address, f->owner, &f->offset, &mode);
	if (prot && !in_nmi())
		rule = pks_legit_rule(address, fregs);
	if (rule >= 0 && (pks_grant(key, write ? 0 : PKS_PKRS_WD, rule) ||
			  pks_allow_once(fregs, key, write ? 0 : PKS_PKRS_WD))) {
		rcu_read_unlock();
		goto retry;
	}
	if (prot) {
		pks_prot_count_fault(prot);
		f->flags |= PKS_FAULT_F_NAMESPACE;
	} else {
		mode = -1;
		f->offset = address & ~PAGE_MASK;
	}
	rcu_read_unlock();
	/*
	 * A fault-safe accessor disables page faults and will be fixed up;
	 * anything else goes on to page_fault_oops().
	 */
	if (pagefault_disabled())
		f->outcome = PKS_FAULT_REFUSED;
	else if (in_nmi())
		f->outcome = PKS_FAULT_OOPS;
	else if (has_cb)
		f->outcome = PKS_FAULT_CALLBACK;
	else if (mode == PKS_MODE_RELAXED)
		f->outcome = PKS_FAULT_ALLOWED;
	else
		f->outcome = PKS_FAULT_OOPS;
	pks_fault_record(sc, fregs);
	/*
	 * A relaxed stray completes, here where a fixup would otherwise fail
	 * it (a copy_to_user() from the namespace returns short); a
	 * fault-safe accessor's stays refused.
	 */
	if (f->outcome == PKS_FAULT_ALLOWED &&
	    pks_relaxed_allow(fregs, key, write))
		goto retry;
	return 0;
retry:
	return pks_retry(regs);
}

static char pks_fixup_names[PKS_FIXUP_NAMES][48];
static bool pks_fixup_placed[PKS_FIXUP_NAMES];
static bool pks_fixup_pinned;

/* The ftrace callback: pks_fixup_pre() as the kprobe handler it was. */
static void notrace pks_fixup_hook(unsigned long ip, unsigned long parent_ip,
				   struct ftrace_ops *op,
				   struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);

	int slot;

	if (!regs)
		return;
	slot = pks_hook_enter();
	if (slot < 0)
		return;
	pks_fixup_pre(&pks_fixup_kps[op - pks_fixup_ops], regs, slot);
	pks_hook_exit(slot);
}

/*
 * Whether the fault hooks are placed where no root knob but unloading
 * takes them out (info's PKS_INFO_F_FAULT_PINNED).
 */
bool pks_faults_pinned(void)
{
	return READ_ONCE(pks_fixup_pinned);
}

/* Name @i of the candidates: the plain function, then its clones. */
static const char *pks_fixup_name(unsigned int i)
{
	char *name = pks_fixup_names[i];

	if (!i)
		return PKS_FIXUP_FN;
	snprintf(name, sizeof(pks_fixup_names[i]), "%s.%s.%u", PKS_FIXUP_FN,
		 pks_clone_kinds[(i - 1) / PKS_CLONES_PER_KIND],
		 (i - 1) % PKS_CLONES_PER_KIND);
	return name;
}

/*
 * One harmless fault through the bad-area path that protection-key faults
 * take too: a fault-safe read of the guard page after a vmalloc area,
 * never mapped. No WARN comes before the probe, so CR2 still holds the
 * address, and the clone's arguments are checked before any protection-key
 * fault can come.
 */
static void pks_fixup_check(void)
{
	char *p = vmalloc(PAGE_SIZE);
	char c;

	if (!p)
		return;
	copy_from_kernel_nofault(&c, p + PAGE_SIZE, 1);
	vfree(p);
}

/* With the log up (log.c): it is told what was placed. */
int pks_faults_init(void)
{
	bool logging = false, oops;
	size_t i;

	if (!fault_capture) {
		pr_info("fault_capture=0: no fault probes, namespaces cannot be protected\n");
		return 0;
	}
	oops = pks_oops_init();
	for (i = 0; i < ARRAY_SIZE(pks_fixup_kps); i++) {
		struct kprobe *kp = &pks_fixup_kps[i];
		const char *name = pks_fixup_name(i);

		memset(kp, 0, sizeof(*kp));
		kp->symbol_name = name;
		/* Most candidates do not exist: -ENOENT. */
		pks_fixup_placed[i] = !pks_hook_place(&pks_fixup_ops[i],
						      pks_fixup_hook, name);
		pks_acct_add(PKS_ACCT_PROBES, pks_fixup_placed[i]);
		if (pks_fixup_placed[i])
			pr_info("fault log hooked at %s (ftrace, pinned)\n",
				kp->symbol_name);
		logging |= pks_fixup_placed[i];
	}
	pks_log_set_capture(oops, logging);
	WRITE_ONCE(pks_fixup_pinned, logging);
	if (!logging)
		pr_warn("cannot hook kernelmode_fixup_or_oops: faults are not logged\n");
	else
		pks_fixup_check();
	return 0;
}

void pks_faults_exit(void)
{
	size_t i;

	WRITE_ONCE(pks_fixup_pinned, false);
	for (i = 0; i < ARRAY_SIZE(pks_fixup_kps); i++) {
		if (!pks_fixup_placed[i])
			continue;
		pks_hook_remove(&pks_fixup_ops[i]);
		pks_acct_add(PKS_ACCT_PROBES, -1);
	}
	memset(pks_fixup_placed, 0, sizeof(pks_fixup_placed));
	memset(pks_fixup_checked, 0, sizeof(pks_fixup_checked));
	pks_oops_exit();
	/*
	 * Both hooks point tasks at pks_fault_handled() (pks_retry()): no
	 * task may still be in it when the text goes.
	 */
	if (fault_capture)
		pks_hooks_gone();
	pks_log_set_capture(false, false);
}
