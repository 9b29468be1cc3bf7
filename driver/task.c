// SPDX-License-Identifier: GPL-2.0
/*
 * Per-task access rights. The stock kernel keeps PKRS per CPU and never
 * saves it on a context switch, so a task that holds rights to a key
 * carries them itself: while it holds any, a preempt notifier on the task
 * writes its PKRS when it is switched in and the default when it is
 * switched out. A task that holds none has no notifier and costs nothing;
 * it always runs with the default PKRS.
 *
 * Everything here runs on the current task with preemption disabled, so
 * the task's state is only changed by the task itself, or by an interrupt
 * on its CPU (key revocation), which the irq-off sections exclude.
 */
#include "pks_internal.h"

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/irq_work.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/task_work.h>
#include <asm/msr.h>

/*
 * Bumped each time a key is freed: path grants made before it are
 * dropped when their task next runs, as the key may have a new owner.
 */
static atomic_t pks_revoke_gen = ATOMIC_INIT(0);
/* Tasks holding their notifier registered, for `pkstool info`. */
static atomic_t pks_tasks_attached = ATOMIC_INIT(0);
static bool pks_notifiers_on;

static struct preempt_ops pks_task_ops;

/**
 * struct pks_task_transient - task state for one fault-callback grant
 * @t: the state, registered on the faulting task
 * @rcu: for a kernel thread: frees it after the scheduler is done walking
 *	the notifier list
 * @work: for a user task: ends the grant on the way back to user space
 */
struct pks_task_transient {
	struct pks_task t;
	struct rcu_head rcu;
	struct callback_head work;
};

/* Drop @t's path grants if a key was freed since they were made. */
static void pks_task_revalidate(struct pks_task *t)
{
	unsigned int gen = atomic_read(&pks_revoke_gen);

	if (likely(t->gen == gen))
		return;
	t->pkrs = (t->pkrs & ~t->granted) | (PKS_DEFAULT_PKRS & t->granted);
	t->granted = 0;
	t->gen = gen;
}

static void pks_task_sched_in(struct preempt_notifier *pn, int cpu)
{
	struct pks_task *t = container_of(pn, struct pks_task, pn);
	unsigned long flags;

	local_irq_save(flags);
	pks_task_revalidate(t);
	pks_write_pkrs(t->pkrs);
	local_irq_restore(flags);
}

static void pks_task_sched_out(struct preempt_notifier *pn,
			       struct task_struct *next)
{
	struct pks_task *t = container_of(pn, struct pks_task, pn);

	pks_write_pkrs(PKS_DEFAULT_PKRS);
	if (t->transient != PKS_TRANSIENT_KTHREAD)
		return;
	/*
	 * A callback grant ends when its task leaves the CPU. The scheduler
	 * is walking this list: unlink without poisoning the next pointer,
	 * and free only after the walk (it runs with preemption off).
	 */
	__hlist_del(&pn->link);
	atomic_dec(&pks_tasks_attached);
	kfree_rcu(container_of(t, struct pks_task_transient, t), rcu);
	pks_acct_add(PKS_ACCT_GRANT_STATES, -1);
	module_put(THIS_MODULE);
}

static struct preempt_ops pks_task_ops = {
	.sched_in = pks_task_sched_in,
	.sched_out = pks_task_sched_out,
};

/**
 * pks_task_find() - the current task's access state, or NULL
 *
 * Lockless: only the task itself adds or removes its notifiers.
 */
struct pks_task *pks_task_find(void)
{
	struct preempt_notifier *pn;

	if (!in_task())
		return NULL;
	hlist_for_each_entry(pn, &current->preempt_notifiers, link)
		if (pn->ops == &pks_task_ops)
			return container_of(pn, struct pks_task, pn);
	return NULL;
}

/**
 * pks_task_get() - hold the current task's access state
 * @own: storage to register when the task has none yet
 *
 * The caller has preemption disabled and is in task context.
 *
 * Return: the task's state, or NULL when the driver is going away.
 */
struct pks_task *pks_task_get(struct pks_task *own)
{
	struct pks_task *t = pks_task_find();

	if (t) {
		t->depth++;
		return t;
	}
	if (!try_module_get(THIS_MODULE))
		return NULL;
	own->pkrs = pks_read_pkrs_cache();
	own->granted = 0;
	own->gen = atomic_read(&pks_revoke_gen);
	own->depth = 1;
	own->path = -1;
	own->transient = 0;
	preempt_notifier_init(&own->pn, &pks_task_ops);
	preempt_notifier_register(&own->pn);
	atomic_inc(&pks_tasks_attached);
	return own;
}

/**
 * pks_task_put() - release what pks_task_get() held
 * @t: the task state it returned
 *
 * The caller has preemption disabled. The outermost holder unregisters
 * the notifier; the task then runs with whatever @t->pkrs was restored to,
 * which the holder has set back to the value it found.
 */
void pks_task_put(struct pks_task *t)
{
	if (--t->depth)
		return;
	/* Whatever a callback grant opened inside ends with the holder. */
	pks_write_pkrs(PKS_DEFAULT_PKRS);
	preempt_notifier_unregister(&t->pn);
	atomic_dec(&pks_tasks_attached);
	module_put(THIS_MODULE);
}

/* Set @key's bits in the task's PKRS and this CPU's; preemption off. */
void pks_task_set_key(struct pks_task *t, int key, u32 bits)
{
	u32 mask = (PKS_PKRS_AD | PKS_PKRS_WD) << PKS_PKRS_SHIFT(key);
	unsigned long flags;

	local_irq_save(flags);
	t->pkrs = (t->pkrs & ~mask) | (bits << PKS_PKRS_SHIFT(key));
	pks_write_pkrs(t->pkrs);
	local_irq_restore(flags);
}

/**
 * pks_task_restore() - close the grants made since a saved point
 * @t: the task's state
 * @pkrs: its PKRS at that point
 * @granted: its grant mask then
 * @gen: the revocation generation then
 *
 * Keys opened by grants since then go back to their saved state; grants
 * an outer holder had stay, unless a key was freed since (then they are
 * void too). Preemption disabled.
 */
void pks_task_restore(struct pks_task *t, u32 pkrs, u32 granted,
		      unsigned int gen)
{
	unsigned long flags;
	u32 opened;

	local_irq_save(flags);
	pks_task_revalidate(t);
	if (gen != t->gen) {
		pkrs = (pkrs & ~granted) | (PKS_DEFAULT_PKRS & granted);
		granted = 0;
	}
	opened = t->granted & ~granted;
	t->pkrs = (t->pkrs & ~opened) | (pkrs & opened);
	t->granted = granted;
	pks_write_pkrs(t->pkrs);
	local_irq_restore(flags);
}

/**
 * pks_task_grant() - open @key for the current task's kernel-path call
 * @t: the task's state
 * @key: the key of the faulting page
 * @write: the access was a write
 *
 * Called from the fault path. Reads are granted read-only, writes
 * read-write.
 *
 * Return: true when the rights changed, so that retrying the access can
 * succeed; false when the task had them already (the fault is not one a
 * grant can mend).
 */
bool pks_task_grant(struct pks_task *t, int key, bool write)
{
	u32 mask = (PKS_PKRS_AD | PKS_PKRS_WD) << PKS_PKRS_SHIFT(key);
	u32 cur, want;

	/* The fault path runs with interrupts off: no revocation races. */
	pks_task_revalidate(t);
	cur = pks_key_bits(key, t->pkrs);
	want = write || cur == 0 ? 0 : PKS_PKRS_WD;
	if (cur == want)
		return false;
	t->granted |= mask;
	pks_task_set_key(t, key, want);
	return true;
}

/* A user task's callback grant ends as it returns to user space. */
static void pks_transient_end(struct callback_head *work)
{
	struct pks_task_transient *tt =
		container_of(work, struct pks_task_transient, work);
	struct pks_task *t = &tt->t;

	preempt_disable();
	if (t->depth > 1) {
		/*
		 * A window opened since holds the state across the return:
		 * end the grant, leave the storage to it (a small leak).
		 */
		pks_task_restore(t, PKS_DEFAULT_PKRS, 0, t->gen);
		t->transient = 0;
		t->depth--;
		preempt_enable();
		return;
	}
	pks_task_put(t);
	preempt_enable();
	kfree(tt);
	pks_acct_add(PKS_ACCT_GRANT_STATES, -1);
}

/**
 * pks_callback_grant() - grant @key after its owner's callback accepted
 *	a fault
 * @key: the key
 * @bits: its PKRS bits from now on (0: read-write)
 *
 * From the fault path, interrupts off. In task context the grant is the
 * task's: held by its current task state if it has one (ending with that
 * holder), else by a state of its own that ends when a user task returns
 * to user space, or when a kernel thread next leaves the CPU.
 *
 * Return: true when a task state holds the grant; false outside task
 * context or when no state can be had: then nothing was opened, and the
 * caller grants the faulting instruction alone.
 */
bool pks_callback_grant(int key, u32 bits)
{
	u32 mask = (PKS_PKRS_AD | PKS_PKRS_WD) << PKS_PKRS_SHIFT(key);
	struct pks_task_transient *tt;
	struct pks_task *t = pks_task_find();

	if (!t && in_task()) {
		tt = kmalloc(sizeof(*tt), GFP_ATOMIC | __GFP_NOWARN);
		t = tt ? pks_task_get(&tt->t) : NULL;
		if (t)
			pks_acct_add(PKS_ACCT_GRANT_STATES, 1);
		if (!t) {
			kfree(tt);
		} else if (current->flags & PF_KTHREAD) {
			t->transient = PKS_TRANSIENT_KTHREAD;
		} else {
			init_task_work(&tt->work, pks_transient_end);
			t->transient = PKS_TRANSIENT_USER;
			if (task_work_add(current, &tt->work, TWA_RESUME))
				t->transient = PKS_TRANSIENT_KTHREAD;
		}
	}
	if (!t)
		return false;
	t->granted |= mask;
	pks_task_set_key(t, key, bits);
	return true;
}

/* A key was freed: path grants made before now are void. */
void pks_task_revoke(void)
{
	atomic_inc(&pks_revoke_gen);
}

/* From the IPI of pks_key_free(): the task running here drops its grants. */
void pks_task_revoke_local(void)
{
	struct pks_task *t = pks_task_find();

	if (t) {
		pks_task_revalidate(t);
		pks_write_pkrs(t->pkrs);
	}
}

unsigned int pks_tasks_attached_count(void)
{
	return atomic_read(&pks_tasks_attached);
}

/**
 * pks_task_window_open() - open a window that belongs to the current task
 * @key: an allocated key
 * @access: what the window allows
 * @w: the window, kept by the caller until pks_task_window_close()
 *
 * Unlike pks_window_open(), the window may sleep and migrate: the rights
 * are the task's own, restored whenever it runs and absent whenever any
 * other task runs. Windows nest, and must close in reverse order of
 * opening. Task context only.
 */
void pks_task_window_open(int key, enum pks_access access,
			  struct pks_task_window *w)
{
	w->task = NULL;
	if (WARN_ON_ONCE(!pks_key_valid(key) || access > PKS_READ_WRITE ||
			 !in_task()))
		return;
	preempt_disable();
	w->task = pks_task_get(&w->own);
	if (w->task) {
		w->key = key;
		w->saved = pks_key_bits(key, w->task->pkrs);
		pks_task_set_key(w->task, key, pks_access_bits(access));
	}
	preempt_enable();
}
EXPORT_SYMBOL_GPL(pks_task_window_open);

/**
 * pks_task_window_close() - close a window from pks_task_window_open()
 * @w: the window
 *
 * Restores @w's key to what it was when the window opened.
 */
void pks_task_window_close(struct pks_task_window *w)
{
	if (!w->task)
		return;
	WARN_ON_ONCE(pks_task_find() != w->task);
	preempt_disable();
	pks_task_set_key(w->task, w->key, w->saved);
	pks_task_put(w->task);
	preempt_enable();
	w->task = NULL;
}
EXPORT_SYMBOL_GPL(pks_task_window_close);

int pks_tasks_init(void)
{
	preempt_notifier_inc();
	pks_notifiers_on = true;
	return 0;
}

/*
 * Every holder took a module reference, so none is left at unload; the
 * last transient one may still be inside its sched_out walk.
 */
void pks_tasks_exit(void)
{
	synchronize_rcu();
	rcu_barrier();
	if (pks_notifiers_on)
		preempt_notifier_dec();
	pks_notifiers_on = false;
}
