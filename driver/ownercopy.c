// SPDX-License-Identifier: GPL-2.0
/*
 * Owner's copy brackets: the namespace's own copy functions run with its
 * key open, so that the ordinary I/O of a protected fsdax namespace takes
 * no protection-key fault at all.
 *
 * Upstream's PKS series opened the key where the owner's code copies: the
 * dax core and the pmem driver. A module cannot edit them, but it can wrap
 * the functions that do the copying with a kretprobe (at function entry,
 * so ftrace-based, and the same API on 6.1, 6.12 and 7.3): the entry
 * handler opens the key in a task window (task.c) of the running task,
 * the return handler closes it; the window keeps it across a switch (a
 * kernel that preempts kernel code switches a copy out inside its
 * bracket: Debian's 7.3 is built with PREEMPT_LAZY). The
 * functions bracketed are the copies themselves, not their callers, so
 * that no file-system code runs inside a bracket:
 *
 * - drivers/dax/super.c: dax_copy_from_iter(), dax_copy_to_iter(),
 *   dax_zero_page_range(), dax_recovery_write(): fsdax file data, written,
 *   read, zeroed, or written over poison. The copies take the kernel
 *   address (third argument) that dax_direct_access() gave, which is
 *   looked up in the protected ranges; the zeroing takes the dax_device,
 *   matched with the protected fsdax namespace's.
 * - nd_pmem: pmem_submit_bio() (every kernel) and pmem_rw_page() (where it
 *   still exists, 6.1): the namespace's block I/O (journals, metadata,
 *   buffered reads of the block device), matched by its gendisk.
 *
 * - fs/dax.c: dax_iomap_copy_around() (dax_iomap_cow_copy() on 6.1), the
 *   copy of a shared (reflinked) extent's data into its new blocks before
 *   a write or a write fault, matched by its destination address (fifth
 *   argument); and dax_fault_iter(), the DAX fault's step for one extent,
 *   only when it copies: a private mapping's copy-on-write (the stock
 *   kernel inlines that copy, copy_cow_page_dax(), into it) or a shared
 *   extent's; matched by the extent's dax_device. It runs no file-system
 *   code (the caller's iomap_iter() does the mapping), only the copy and
 *   the insertion of the new page-table entry.
 *
 * A call that touches no protected namespace keeps no return instance
 * (the entry handler returns non-zero), so it costs one lockless lookup.
 *
 * What stays with the fault rule (legit.c): accesses in interrupt context
 * (the brackets act in task context only); fs/dax.c's unshare
 * (dax_unshare_iter()), partial-page zeroing (dax_memzero()) and dedupe
 * compare, which the stock kernel inlines into dax_file_unshare(),
 * dax_zero_range(), dax_truncate_page() and
 * dax_dedupe_file_range_compare(): those also run the file system's
 * mapping code (iomap_iter()), which a bracket would open the key to; a
 * call that found no free return instance; and everything else on a
 * stock kernel that reaches the pages (held-page rule).
 *
 * The rights are the task level's (boundary.c): an interrupt taken inside
 * a bracket runs with the default and gives them back on its way out; a
 * switch-out closes them and the switch back in opens them again (the
 * window's notifier, which lives in the kretprobe instance: a bracket is
 * never unregistered while a call is inside); a bracket never spans a
 * return to user space. Code the owner calls inside
 * its function runs with the key open too (a bio's end_io under
 * pmem_submit_bio()): the same caveat as the dax-layer and pmem-driver
 * rules' frames.
 *
 * The brackets are placed only while a namespace is protected (protect.c),
 * so that with nothing protected unrelated I/O runs no driver code.
 */
#include "pks_internal.h"

#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/cpumask.h>
#include <linux/iomap.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/wait_bit.h>

/* What the bracketed function's first arguments tell about its target. */
enum pks_bracket_arg {
	PKS_BRACKET_ADDR,	/* a kernel address, third argument */
	PKS_BRACKET_DEST,	/* a kernel address, fifth argument */
	PKS_BRACKET_DAX_DEV,	/* a struct dax_device *, first argument */
	PKS_BRACKET_BIO,	/* a struct bio *, first argument */
	PKS_BRACKET_BDEV,	/* a struct block_device *, first argument */
	PKS_BRACKET_FAULT_COPY,	/* a vm_fault and an iomap_iter that copies */
};

/**
 * struct pks_bracket - one bracketed function
 * @rp: its kretprobe
 * @names: the function's name, and the name it had on older kernels
 * @owner: whose code it is, as the fault rules name the owner
 * @arg: how to find the namespace it works on
 * @placed: @rp is registered
 */
struct pks_bracket {
	struct kretprobe rp;
	const char *names[2];
	const char *owner;
	enum pks_bracket_arg arg;
	bool placed;
};

/**
 * struct pks_bracket_call - one call inside a bracket, kept in ri->data
 * @w: the task window that holds the key open for the call
 */
struct pks_bracket_call {
	struct pks_task_window w;
};

static int pks_bracket_entry(struct kretprobe_instance *ri,
			     struct pt_regs *regs);
static int pks_bracket_return(struct kretprobe_instance *ri,
			      struct pt_regs *regs);

#define PKS_BRACKET(fn, was, who, how)					\
	{								\
		.rp = {							\
			.kp.symbol_name = fn,				\
			.entry_handler = pks_bracket_entry,		\
			.handler = pks_bracket_return,			\
			.data_size = sizeof(struct pks_bracket_call),	\
		},							\
		.names = { fn, was },					\
		.owner = who,						\
		.arg = how,						\
	}

static struct pks_bracket pks_brackets[] = {
	PKS_BRACKET("dax_copy_from_iter", NULL, "dax-layer", PKS_BRACKET_ADDR),
	PKS_BRACKET("dax_copy_to_iter", NULL, "dax-layer", PKS_BRACKET_ADDR),
	PKS_BRACKET("dax_zero_page_range", NULL, "dax-layer",
		    PKS_BRACKET_DAX_DEV),
	PKS_BRACKET("dax_recovery_write", NULL, "dax-layer",
		    PKS_BRACKET_DAX_DEV),
	PKS_BRACKET("dax_iomap_copy_around", "dax_iomap_cow_copy", "dax-layer",
		    PKS_BRACKET_DEST),
	PKS_BRACKET("dax_fault_iter", NULL, "dax-layer",
		    PKS_BRACKET_FAULT_COPY),
	PKS_BRACKET("pmem_submit_bio", NULL, "pmem-driver", PKS_BRACKET_BIO),
	PKS_BRACKET("pmem_rw_page", NULL, "pmem-driver", PKS_BRACKET_BDEV),
};

#define PKS_BRACKETS	ARRAY_SIZE(pks_brackets)

/* Calls that opened a key, per CPU and bracket. */
struct pks_bracket_opens {
	u64 n[PKS_BRACKET_MAX];
};

static DEFINE_PER_CPU(struct pks_bracket_opens, pks_bracket_opens);
/* Only the control of the ownercopy test turns them off (pks_testing.h). */
static bool pks_brackets_on = true;
static unsigned int pks_brackets_placed;
/*
 * Calls inside a bracket: each holds a task window whose notifier lives
 * in its kretprobe instance, so no bracket is unregistered (which would
 * skip the return handler that closes it) while one is inside. Counted
 * per CPU, not in one shared atomic that every bracketed call on every
 * CPU would bounce: a call may return on another CPU than it entered on,
 * so only the sum means anything, and it is read only when the brackets
 * are closing (pks_brackets_inside_now()).
 */
static DEFINE_PER_CPU(int, pks_brackets_inside);
/* Set while a release waits for them; its address is what it waits on. */
static bool pks_brackets_closing;

/*
 * After pks_brackets_closing was set and a grace period passed, no entry
 * handler counts a call in any more, and every count-in is visible here:
 * the sum can only overstate the calls inside (a count-out read before
 * its count-in), never read zero while one is inside.
 */
static int pks_brackets_inside_now(void)
{
	int cpu, n = 0;

	for_each_possible_cpu(cpu)
		n += per_cpu(pks_brackets_inside, cpu);
	return n;
}

/*
 * dax_fault_iter() copies only for a private mapping's copy-on-write (into
 * vmf->cow_page) or from a shared extent (IOMAP_F_SHARED); every other
 * DAX fault maps the page without touching it, and is let through.
 */
static struct pks_prot *pks_fault_copy_prot(const struct vm_fault *vmf,
					    const struct iomap_iter *iter)
{
	if (!vmf->cow_page && !(iter->iomap.flags & IOMAP_F_SHARED))
		return NULL;
	return pks_prot_of_owner(iter->iomap.dax_dev, NULL);
}

/* The key of the protected namespace the call works on, or -1; RCU. */
static int pks_bracket_key(const struct pks_bracket *b, struct pt_regs *regs)
{
	unsigned long a = regs_get_kernel_argument(regs, 0);
	struct pks_prot *p = NULL;

	switch (b->arg) {
	case PKS_BRACKET_ADDR:
	case PKS_BRACKET_DEST:
		a = regs_get_kernel_argument(regs,
					     b->arg == PKS_BRACKET_ADDR ? 2 : 4);
		if (virt_addr_valid(a))
			p = pks_prot_holding(__pa(a), 1);
		break;
	case PKS_BRACKET_DAX_DEV:
		p = pks_prot_of_owner((void *)a, NULL);
		break;
	case PKS_BRACKET_BIO:
		p = pks_prot_of_owner(NULL,
				      ((struct bio *)a)->bi_bdev->bd_disk);
		break;
	case PKS_BRACKET_BDEV:
		p = pks_prot_of_owner(NULL,
				      ((struct block_device *)a)->bd_disk);
		break;
	case PKS_BRACKET_FAULT_COPY:
		p = pks_fault_copy_prot((struct vm_fault *)a,
					(const struct iomap_iter *)
					regs_get_kernel_argument(regs, 1));
		break;
	}
	return p ? p->key : -1;
}

static int pks_bracket_entry(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	struct pks_bracket *b = container_of(get_kretprobe(ri),
					     struct pks_bracket, rp);
	struct pks_bracket_call *c = (void *)ri->data;
	int key;

	/*
	 * Task context only: an interrupt's rights end at its handler's
	 * exit, which this bracket cannot see; there the fault rule judges.
	 */
	if (!in_task() || !READ_ONCE(pks_brackets_on) ||
	    READ_ONCE(pks_brackets_closing))
		return 1;
	/*
	 * The key is opened inside the read-side section that found it: a
	 * release waits for it (synchronize_rcu()) before freeing the key,
	 * and the free closes the key at every level on every CPU, and in
	 * the task's window when it next runs (task.c).
	 */
	rcu_read_lock();
	key = pks_bracket_key(b, regs);
	if (key >= 0) {
		/*
		 * A task window, not the CPU's register alone: the stock
		 * kernel does not carry PKRS across a switch, and a kernel
		 * that preempts kernel code (PREEMPT_LAZY, 6.18 on, and
		 * preempt=full) switches a task out in the middle of a
		 * copy. The window's notifier closes the key as the task
		 * leaves the CPU and opens it again as it comes back, so
		 * the rest of the copy takes no fault.
		 */
		pks_bracket_window_open(key, &c->w);
		if (c->w.task) {
			this_cpu_inc(pks_brackets_inside);
			this_cpu_inc(pks_bracket_opens.n[b - pks_brackets]);
		} else {
			key = -1;
		}
	}
	rcu_read_unlock();
	return key < 0;
}

static int pks_bracket_return(struct kretprobe_instance *ri,
			      struct pt_regs *regs)
{
	struct pks_bracket_call *c = (void *)ri->data;

	/* The key gets back what the task had (closed if it was freed). */
	pks_task_window_close(&c->w);
	this_cpu_dec(pks_brackets_inside);
	/*
	 * Only a release waits (it set the flag before its grace period,
	 * which this handler, an RCU read side, either ended before or sees
	 * the flag after).
	 */
	if (unlikely(READ_ONCE(pks_brackets_closing))) {
		/* The count-out before wake_up_var()'s waiter check. */
		smp_mb();
		wake_up_var(&pks_brackets_closing);
	}
	return 0;
}

/* Register @b on its function under its current name or its old one. */
static int pks_bracket_register(struct pks_bracket *b)
{
	int rc = -ENOENT;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(b->names) && b->names[i]; i++) {
		b->rp.kp.symbol_name = b->names[i];
		b->rp.kp.addr = NULL;
		b->rp.kp.flags = 0;
		rc = register_kretprobe(&b->rp);
		if (rc != -ENOENT)
			break;
	}
	if (rc)
		b->rp.kp.symbol_name = b->names[0];
	return rc;
}

/*
 * Place the brackets whose function exists now; pks_lock held. Called at
 * each protection: nd_pmem may have come since the first (device-dax
 * alone needs no nd_pmem), or gone and come back, which leaves a probe on
 * it gone. A function that is missing (inlined, or its module not
 * loaded) is skipped: its accesses fault and the rule judges them.
 */
void pks_brackets_place(void)
{
	unsigned int max = max(64U, 4 * num_possible_cpus());
	unsigned int i;
	int rc;

	BUILD_BUG_ON(PKS_BRACKETS > PKS_BRACKET_MAX);
	lockdep_assert_held(&pks_lock);
	/* Brackets a stalled call kept placed open again. */
	WRITE_ONCE(pks_brackets_closing, false);
	for (i = 0; i < PKS_BRACKETS; i++) {
		struct pks_bracket *b = &pks_brackets[i];

		if (b->placed && !kprobe_gone(&b->rp.kp))
			continue;
		if (b->placed) {
			unregister_kretprobe(&b->rp);
			b->placed = false;
			pks_brackets_placed--;
			pks_acct_add(PKS_ACCT_PROBES, -1);
		}
		/*
		 * A call that finds no free instance is not bracketed: its
		 * accesses fault and are judged by the rule, which is safe.
		 * Sleeping calls (a copy that faults on the user buffer)
		 * hold theirs, hence more than one per CPU.
		 */
		b->rp.maxactive = max;
		rc = pks_bracket_register(b);
		if (rc) {
			pr_info("no bracket on %s (%d): its accesses are judged at the fault\n",
				b->rp.kp.symbol_name, rc);
			continue;
		}
		b->placed = true;
		pks_brackets_placed++;
		pks_acct_add(PKS_ACCT_PROBES, 1);
	}
}

/* Unregister every placed bracket; no call may be inside any. */
static void pks_brackets_unregister(void)
{
	unsigned int i;

	for (i = 0; i < PKS_BRACKETS; i++) {
		struct pks_bracket *b = &pks_brackets[i];

		if (!b->placed)
			continue;
		unregister_kretprobe(&b->rp);
		b->placed = false;
		pks_acct_add(PKS_ACCT_PROBES, -1);
	}
	pks_brackets_placed = 0;
	WRITE_ONCE(pks_brackets_closing, false);
}

/*
 * The last namespace was released: nothing left to bracket. No call
 * enters from here on; those inside are waited for: unregistered, a
 * bracket's return handler would not run, and its window's notifier
 * would stay on the task in freed memory. The handlers run with
 * preemption off, so after synchronize_rcu() none is between its check
 * of the flag and its count.
 *
 * The wait is bounded, since any user can hold a copy inside a bracket
 * for as long as it likes: a pwrite() to a protected DAX file from a
 * buffer mapped from its own FUSE server, which never answers the page
 * fault. Past the bound the brackets stay registered but closed (calls
 * pass through, those inside still get their return handler) and the
 * release goes on: it frees the key, which the windows of the calls
 * inside lose at their next switch or close (task.c). The next placement
 * opens them again; unload waits for the calls (pks_brackets_exit()).
 */
void pks_brackets_remove(void)
{
	lockdep_assert_held(&pks_lock);
	WRITE_ONCE(pks_brackets_closing, true);
	synchronize_rcu();
	if (!wait_var_event_timeout(&pks_brackets_closing,
				    !pks_brackets_inside_now(),
				    5 * HZ)) {
		pr_info("%d calls still inside the copy brackets: they stay placed, closed, until placed again or unload\n",
			pks_brackets_inside_now());
		return;
	}
	pks_brackets_unregister();
}

/*
 * Unload: every range is released. Brackets a stalled call kept placed
 * (pks_brackets_remove()) go now, once the calls are out: module text
 * is about to be freed, so this wait is not bounded (as the kernel's own
 * device removal waits for DAX readers).
 */
void pks_brackets_exit(void)
{
	WRITE_ONCE(pks_brackets_closing, true);
	synchronize_rcu();
	wait_var_event(&pks_brackets_closing,
		       !pks_brackets_inside_now());
	pks_brackets_unregister();
}

/* With @counts false (an unprivileged caller), names and placement only. */
void pks_brackets_fill(struct pks_brackets *out, bool counts)
{
	unsigned int i;
	int cpu;

	mutex_lock(&pks_lock);
	out->nr = PKS_BRACKETS;
	out->flags = READ_ONCE(pks_brackets_on) ? PKS_BRACKETS_F_ON : 0;
	if (counts)
		out->flags |= PKS_BRACKETS_F_COUNTS;
	for (i = 0; i < PKS_BRACKETS; i++) {
		struct pks_bracket_info *bi = &out->brackets[i];
		struct pks_bracket *b = &pks_brackets[i];

		memset(bi, 0, sizeof(*bi));
		strscpy(bi->function, b->rp.kp.symbol_name,
			sizeof(bi->function));
		strscpy(bi->owner, b->owner, sizeof(bi->owner));
		bi->placed = b->placed && !kprobe_gone(&b->rp.kp);
		if (!counts)
			continue;
		for_each_possible_cpu(cpu)
			bi->opens += per_cpu(pks_bracket_opens.n[i], cpu);
		bi->missed = b->rp.nmissed;
	}
	mutex_unlock(&pks_lock);
}

/* The control of the ownercopy test: every access faults again. */
void pks_brackets_enable(bool on)
{
	WRITE_ONCE(pks_brackets_on, on);
}
EXPORT_SYMBOL_NS_GPL(pks_brackets_enable, PKS_TEST_NS);
