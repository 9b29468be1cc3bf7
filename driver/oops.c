// SPDX-License-Identifier: GPL-2.0
/*
 * The faults nothing fixed up. page_fault_oops() is hooked (the stock
 * kernel has no hook for protection-key faults in kernel mode): there a
 * key owner's callback may take the fault, run as an exception handler
 * with the exception API below, and a relaxed range lets the access
 * complete: the key is granted to the faulting context as a legitimate
 * access's is (legit.c), or, in interrupt code whose end no hook sees,
 * the faulting instruction alone is single-stepped with the key open and
 * the debug trap that follows closes it again. The fixup hook (faults.c)
 * grants and steps through here too, and lets relaxed strays complete
 * before a fixup can fail them.
 *
 * Both fault hooks are this driver's own ftrace_ops, not kprobes, and they
 * are placed here. While the direct map is keyed, a hook that stops
 * running makes the next legitimate access to a protected namespace oops
 * (an ext4-dax write did, in __memcpy_flushcache). Kprobes at a function's
 * entry ride on ftrace, and two root knobs disarm them without telling
 * their owners: debugfs kprobes/enabled and the ftrace_enabled sysctl. An
 * ftrace_ops of our own is out of kprobes' reach, and FTRACE_OPS_FL_
 * PERMANENT makes ftrace refuse ftrace_enabled=0 (EBUSY) while it is
 * registered, as livepatch's are. If ftrace shuts itself down after it
 * failed to patch some function (ftrace_kill()), it leaves the call sites
 * it had patched as they are: these hooks keep running (kprobes on 6.12
 * are told to stop, which is what made them unsafe here), but they can no
 * longer be removed, see pks_hook_remove().
 */
#include "pks_internal.h"

#include <linux/ftrace.h>
#include <linux/kdebug.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <asm/debugreg.h>
#include <asm/ptrace.h>
#include <asm/trap_pf.h>

/**
 * struct pks_step - an access being single-stepped on this CPU
 * @active: the next debug trap is ours
 * @task: the task the stepping interrupt runs on; a trap in any other is
 *	not ours
 * @level: the stepping context's level
 * @mask: the PKRS bits of the keys opened for the step
 * @flags: TF and IF of the faulting context, restored after the step
 *
 * Only interrupt code outside a traced handler is stepped (a task, and a
 * traced handler, get a grant instead: pks_grant()). It cannot sleep or
 * leave the CPU, so a user page fault in the stepped instruction is
 * fixed up or oopses, never handled by mm code that may sleep; and with
 * IF clear for the one instruction no other context runs on the CPU
 * until the trap, so one step per CPU suffices. One instruction can
 * fault on several keys (a memcpy between two relaxed namespaces): each
 * fault during the step opens one more key.
 */
struct pks_step {
	bool active;
	struct task_struct *task;
	int level;
	u32 mask;
	unsigned long flags;
};

static DEFINE_PER_CPU(struct pks_step, pks_step);
static bool pks_oops_registered, pks_die_registered;

/*
 * A hooked fault-path function is replaced by this when the fault was
 * handled: the hook points the saved ip here (FTRACE_OPS_FL_IPMODIFY), so
 * the function returns at once (both hooked functions return void) and
 * the faulting instruction retries.
 */
static noinline void pks_fault_handled(void)
{
	barrier();
}

/*
 * Close the step's keys again. With @resumes, the stepped context goes
 * on: its keys get what its level holds now, read at the step's end (a
 * value saved at the step's start could be stale and re-open what was
 * closed since). Otherwise some other context runs (the step was left
 * behind by an interrupt that oopsed or slept, or an NMI-level context
 * came in between): the keys are closed, as the default has them. The
 * stepping level's rights would hand that context windows it does not
 * hold; a context that does hold them takes them back at its next fault
 * (the refill in faults.c). The other keys' bits stay as they are.
 */
static void pks_step_end(struct pks_step *st, bool resumes)
{
	u32 now = pks_read_pkrs_cache();
	u32 rights = resumes ? pks_level_pkrs(st->level) : PKS_DEFAULT_PKRS;

	pks_write_pkrs((now & ~st->mask) | (rights & st->mask));
	st->active = false;
}

/*
 * End a step early: the fault goes on to an oops with no key left open.
 * @fregs are the registers of the context that oopses: only when that is
 * the stepping context itself are its flags put back; in any other (an
 * NMI's fault during the step, or no context at all) they are not its.
 */
static void pks_step_abort(struct pt_regs *fregs)
{
	struct pks_step *st = this_cpu_ptr(&pks_step);
	bool own = fregs && st->task == current &&
		   st->level == interrupt_context_level();

	if (!st->active)
		return;
	pks_step_end(st, own);
	if (own)
		fregs->flags = (fregs->flags &
				~(X86_EFLAGS_TF | X86_EFLAGS_IF)) | st->flags;
}

/**
 * pks_allow_once() - open @key for one instruction of the faulting context
 * @fregs: the fault's registers
 * @key: the key
 * @bits: its PKRS bits for the step
 *
 * For interrupt code whose end no hook sees (pks_grant() said no). A
 * second fault of the same instruction (another key) adds its key to the
 * same step. A task is never stepped: its grant ends where the task
 * leaves the CPU, and a step with interrupts off would run the page
 * fault of a user page touched by the same instruction (a copy_to_user())
 * with interrupts off, sleeping, and finish it on another CPU.
 *
 * Return: whether the instruction may be retried.
 */
bool pks_allow_once(struct pt_regs *fregs, int key, u32 bits)
{
	struct pks_step *st = this_cpu_ptr(&pks_step);

	if (in_task())
		return false;
	/* A step left by an interrupt that oopsed inside it is over. */
	if (st->active && st->task != current)
		pks_step_abort(NULL);
	if (!st->active) {
		st->flags = fregs->flags & (X86_EFLAGS_TF | X86_EFLAGS_IF);
		st->task = current;
		st->level = interrupt_context_level();
		st->mask = 0;
		st->active = true;
		/* No interrupt may run with the key open: IF off for the step. */
		fregs->flags = (fregs->flags | X86_EFLAGS_TF) & ~X86_EFLAGS_IF;
	}
	st->mask |= (PKS_PKRS_AD | PKS_PKRS_WD) << PKS_PKRS_SHIFT(key);
	pks_set_key_bits(key, bits);
	return true;
}

/* Make the probed function return at once: the access is retried. */
int pks_retry(struct pt_regs *regs)
{
	instruction_pointer_set(regs, (unsigned long)pks_fault_handled);
	return 1;
}

/**
 * struct pks_exc - the faulting context while a key owner's callback runs
 * @active: a callback is running on this CPU
 * @pkrs: the faulting context's PKRS, put back (with updates) afterwards
 * @updated: PKRS bits the callback changed with pks_update_exception()
 */
struct pks_exc {
	bool active;
	u32 pkrs;
	u32 updated;
};

static DEFINE_PER_CPU(struct pks_exc, pks_exc);

/**
 * pks_exception_access() - what the faulting context has for @key
 * @key: a key
 *
 * Only inside a fault callback: the callback itself runs with the default
 * PKRS, as an exception handler would, and this reports the rights of the
 * context that faulted.
 *
 * Return: PKS_NO_ACCESS, PKS_READ_ONLY or PKS_READ_WRITE.
 */
enum pks_access pks_exception_access(int key)
{
	struct pks_exc *e = this_cpu_ptr(&pks_exc);
	u32 bits;

	if (WARN_ON_ONCE(!e->active || !pks_key_valid(key)))
		return PKS_NO_ACCESS;
	bits = pks_key_bits(key, e->pkrs);
	return bits & PKS_PKRS_AD ? PKS_NO_ACCESS :
	       bits & PKS_PKRS_WD ? PKS_READ_ONLY : PKS_READ_WRITE;
}
EXPORT_SYMBOL_GPL(pks_exception_access);

/**
 * pks_update_exception() - change what the faulting context will have
 * @key: a key
 * @access: its new rights there
 *
 * Only inside a fault callback. Changing PKRS directly there changes the
 * callback's own rights, not the faulting context's; this changes the
 * latter, applied when the callback returns true. For the faulting key
 * the rights are the faulting task's, as a grant is.
 */
void pks_update_exception(int key, enum pks_access access)
{
	struct pks_exc *e = this_cpu_ptr(&pks_exc);
	u32 mask;

	if (WARN_ON_ONCE(!e->active || !pks_key_valid(key) ||
			 access > PKS_READ_WRITE))
		return;
	mask = (PKS_PKRS_AD | PKS_PKRS_WD) << PKS_PKRS_SHIFT(key);
	e->pkrs = (e->pkrs & ~mask) |
		  (pks_access_bits(access) << PKS_PKRS_SHIFT(key));
	e->updated |= mask;
}
EXPORT_SYMBOL_GPL(pks_update_exception);

/*
 * Run @key's owner callback as an exception handler: with the default
 * PKRS, the faulting context's saved aside. A true return grants the key
 * to the faulting task: read-write, or what pks_update_exception() set.
 * Where no task state can hold the grant (an interrupt, or no memory),
 * it lasts for the faulting instruction only, as a relaxed access does:
 * a grant left open on the CPU would go to whatever runs there next.
 */
static bool pks_run_callback(struct pt_regs *fregs, int key,
			     unsigned long address, bool write)
{
	u32 mask = (PKS_PKRS_AD | PKS_PKRS_WD) << PKS_PKRS_SHIFT(key);
	struct pks_exc *e = this_cpu_ptr(&pks_exc);
	bool granted;
	u32 bits;

	/* A callback that faults on a key itself is not called again. */
	if (e->active || !pks_key_has_callback(key))
		return false;
	e->pkrs = pks_read_pkrs_cache();
	e->updated = 0;
	e->active = true;
	pks_write_pkrs(PKS_DEFAULT_PKRS);
	granted = pks_key_fault_cb(key, address, write);
	e->active = false;
	pks_write_pkrs(e->pkrs);
	bits = e->updated & mask ? pks_key_bits(key, e->pkrs) : 0;
	return granted && (pks_grant(key, bits, PKS_GRANT_OWNER_CB) ||
			   pks_allow_once(fregs, key, bits));
}

/* Whether @address is in a protected range in relaxed mode. */
static bool pks_relaxed_at(unsigned long address)
{
	char name[PKS_NAME_LEN];
	u64 offset;
	int mode = -1;

	rcu_read_lock();
	pks_prot_at(address, name, &offset, &mode);
	rcu_read_unlock();
	return mode == PKS_MODE_RELAXED;
}

/**
 * pks_relaxed_allow() - let a stray into a relaxed namespace complete
 * @fregs: the fault's registers
 * @key: the key of the faulting page
 * @write: the access was a write
 *
 * A grant (legit.c) kept in the context's own rights, as a key owner's
 * is: the key is open for the faulting context until the task leaves
 * the CPU or returns to user space, or the handler returns, read-only
 * for a read; interrupts taken meanwhile run without it. A later stray
 * of the same context under the same key in that time is not seen.
 * Interrupt code with no end hook gets the faulting instruction alone.
 *
 * Return: whether the access may be retried.
 */
bool pks_relaxed_allow(struct pt_regs *fregs, int key, bool write)
{
	u32 bits = write ? 0 : PKS_PKRS_WD;

	return pks_grant(key, bits, PKS_GRANT_RELAXED) ||
	       pks_allow_once(fregs, key, bits);
}

/* page_fault_oops(struct pt_regs *regs, unsigned long error_code,
 *		   unsigned long address)
 */
static int pks_oops_pre(struct pt_regs *regs)
{
	struct pt_regs *fregs = (struct pt_regs *)regs->di;
	unsigned long error_code = regs->si;
	unsigned long address = regs->dx;
	struct pks_step *st = this_cpu_ptr(&pks_step);
	int key;

	/*
	 * Any other fault of a stepped instruction ends in an oops: no key
	 * may stay open behind it.
	 */
	if (st->active && st->task == current &&
	    (!(error_code & X86_PF_PK) || address < TASK_SIZE_MAX))
		pks_step_abort(fregs);
	/* Nothing is let through in an NMI, not even once (see above). */
	if (!(error_code & X86_PF_PK) || user_mode(fregs) ||
	    address < TASK_SIZE_MAX || in_nmi())
		return 0;
	key = pks_addr_key(address);
	if (!pks_key_valid(key))
		return 0;
	if (pks_run_callback(fregs, key, address, error_code & X86_PF_WRITE)) {
		/* Retried with what the callback granted. */
	} else if (pks_relaxed_at(address) &&
		   pks_relaxed_allow(fregs, key, error_code & X86_PF_WRITE)) {
		/* Retried with the stray's key open (faults.c does it first). */
	} else {
		pks_step_abort(fregs);
		return 0;
	}
	return pks_retry(regs);
}

/* The trap after the single-stepped instruction: close the key again. */
static int pks_die_notify(struct notifier_block *nb, unsigned long val,
			  void *data)
{
	struct pks_step *st = this_cpu_ptr(&pks_step);
	struct die_args *args = data;
	unsigned long *dr6;

	if (val != DIE_DEBUG || !st->active)
		return NOTIFY_DONE;
	/* Not the stepping task: its step ended unseen (it slept, or died). */
	if (st->task != current) {
		pks_step_abort(NULL);
		return NOTIFY_DONE;
	}
	/* The debug trap passes a pointer to its DR6 copy as the error. */
	dr6 = (unsigned long *)args->err;
	if (!(*dr6 & DR_STEP))
		return NOTIFY_DONE;
	pks_step_end(st, true);
	args->regs->flags = (args->regs->flags &
			     ~(X86_EFLAGS_TF | X86_EFLAGS_IF)) | st->flags;
	*dr6 &= ~DR_STEP;
	return NOTIFY_STOP;
}

static struct notifier_block pks_die_nb = {
	.notifier_call = pks_die_notify,
};

/*
 * One hook at a time per CPU and context (task, softirq, hardirq, and
 * each NMI-level context), as kprobes ran one handler at a time: a fault
 * inside a hook (a key owner's callback that faults) is left to the
 * kernel, and faults.c's scratch record is never entered twice. The fault
 * path runs with interrupts off, so only an NMI-level fault can come in
 * between, and those nest: an NMI may arrive in a #DB, #BP or #MC handler
 * and a #MC in an NMI. Each takes the next free NMI slot, so a nested one
 * never writes over the record of the one it interrupted; they leave in
 * the reverse order, so the first free slot is always the right one. The
 * preempt count cannot tell them apart (7.3 keeps one NMI bit there).
 * Deeper nesting than PKS_NMI_SLOTS, or ftrace's own recursion guard
 * (FTRACE_OPS_FL_RECURSION, which also disables preemption for us), can
 * still refuse a nested hook: that fault then oopses unrecorded, as an
 * NMI-level stray, never granted, would oops anyway.
 */
static DEFINE_PER_CPU(bool, pks_hook_busy[PKS_HOOK_SLOTS]);

/* The slot of the hook now entered, or -1 when it may not run. */
int pks_hook_enter(void)
{
	bool *busy = this_cpu_ptr(pks_hook_busy);
	int slot = interrupt_context_level();

	if (slot == PKS_LEVEL_NMI)
		while (slot < PKS_HOOK_SLOTS - 1 && busy[slot])
			slot++;
	if (busy[slot])
		return -1;
	busy[slot] = true;
	barrier();
	return slot;
}

void pks_hook_exit(int slot)
{
	barrier();
	this_cpu_write(pks_hook_busy[slot], false);
}

/*
 * The address of the function named @name, or 0. kallsyms_lookup_name()
 * is not exported, and ftrace_set_filter() by name decodes the name of
 * every traceable function once per call: seconds each under TCG, and
 * the fixup hook tries nine names. kprobes look a name up directly; a
 * probe registered disabled is never armed, so nothing is patched, and
 * the kprobes switch does not matter here.
 */
static unsigned long pks_symbol_addr(const char *name)
{
	struct kprobe kp = {
		.symbol_name = name,
		.flags = KPROBE_FLAG_DISABLED,
	};
	unsigned long addr;

	if (register_kprobe(&kp))
		return 0;
	addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);
	return addr;
}

/*
 * Hook @ops, with @func, on the function named @name. SAVE_REGS for the
 * arguments and the faulting context, IPMODIFY for pks_retry(), PERMANENT
 * so that ftrace_enabled=0 is refused while it is placed, and RECURSION
 * so that ftrace guards the call (and disables preemption) for us; the
 * same flags on 6.1 and 6.12. The filter is set first: an ops with an
 * empty filter would trace every function.
 */
int pks_hook_place(struct ftrace_ops *ops, ftrace_func_t func,
		   const char *name)
{
	unsigned long addr = pks_symbol_addr(name);
	int rc;

	if (!addr)
		return -ENOENT;
	memset(ops, 0, sizeof(*ops));
	ops->func = func;
	ops->flags = FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY |
		     FTRACE_OPS_FL_PERMANENT | FTRACE_OPS_FL_RECURSION;
	/* A function's start, or past its ENDBR: ftrace finds its call. */
	rc = ftrace_set_filter_ip(ops, addr, 0, 1);
	if (rc)
		return rc;
	rc = register_ftrace_function(ops);
	if (rc)
		ftrace_free_filter(ops);
	return rc;
}

/*
 * Remove a hook placed by pks_hook_place(). The caller then waits for
 * pks_hooks_gone() before the module text can go.
 *
 * After ftrace_kill() ftrace refuses to touch any call site, so the hook
 * cannot be taken out: the function still calls it, and freeing the
 * module's text would leave the fault path calling freed memory. The
 * unload then never finishes (rmmod stays asleep, the module stays in
 * memory and its hooks keep working) instead.
 */
void pks_hook_remove(struct ftrace_ops *ops)
{
	int rc = unregister_ftrace_function(ops);

	if (rc) {
		pr_crit("cannot remove a fault hook (%d, ftrace is shut down): pks.ko stays in memory, and this unload never ends\n",
			rc);
		for (;;)
			schedule_timeout_idle(MAX_SCHEDULE_TIMEOUT);
	}
	ftrace_free_filter(ops);
}

/*
 * After a hook that points a task's ip into this module's text
 * (pks_retry(), the dax guard) is removed: a task may still be on its
 * way through that text, preempted in pks_fault_handled() say, and
 * would resume in freed memory. Wait until every task has passed a
 * voluntary switch, as ftrace does before it frees a trampoline
 * (CONFIG_TASKS_RCU comes with ftrace and kprobes under preemption).
 */
void pks_hooks_gone(void)
{
	synchronize_rcu_tasks();
}

static struct ftrace_ops pks_oops_ops;

static void notrace pks_oops_hook(unsigned long ip, unsigned long parent_ip,
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
	pks_oops_pre(regs);
	pks_hook_exit(slot);
}

/*
 * Place the page_fault_oops() hook and the die notifier its single steps
 * need; returns whether the hook is placed (fault callbacks and relaxed
 * mode work).
 */
bool pks_oops_init(void)
{
	int rc;

	rc = register_die_notifier(&pks_die_nb);
	if (rc) {
		pr_warn("cannot register a die notifier (%d): relaxed mode is off\n",
			rc);
		return false;
	}
	pks_die_registered = true;
	rc = pks_hook_place(&pks_oops_ops, pks_oops_hook, "page_fault_oops");
	if (rc)
		pr_warn("cannot hook page_fault_oops (%d): fault callbacks and relaxed mode are off\n",
			rc);
	pks_oops_registered = !rc;
	pks_acct_add(PKS_ACCT_PROBES, pks_oops_registered);
	return pks_oops_registered;
}

/* The caller waits with pks_hooks_gone() before the text can go. */
void pks_oops_exit(void)
{
	if (pks_oops_registered) {
		pks_hook_remove(&pks_oops_ops);
		pks_acct_add(PKS_ACCT_PROBES, -1);
	}
	if (pks_die_registered)
		unregister_die_notifier(&pks_die_nb);
	pks_oops_registered = pks_die_registered = false;
}
