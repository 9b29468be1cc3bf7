// SPDX-License-Identifier: GPL-2.0
/*
 * Task windows: access rights that belong to a task and may sleep. The
 * stock kernel keeps PKRS per CPU and never saves it on a context switch,
 * so a task that holds a window carries its rights itself: while it holds
 * any, a preempt notifier on the task writes its PKRS when it is switched
 * in and the default when it is switched out, and tells the interrupt
 * boundaries (boundary.c) what the task level holds. A task that holds no
 * window has no notifier and costs nothing.
 *
 * Everything here runs on the current task with preemption disabled, so
 * the task's state is only changed by the task itself.
 */
#include "pks_internal.h"

#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <asm/msr.h>

static bool pks_notifiers_on;

/* Write @pkrs as the task level's rights and this CPU's register. */
static void pks_task_load(u32 pkrs)
{
	unsigned long flags;

	local_irq_save(flags);
	pks_level_set_task(pkrs);
	pks_write_pkrs(pkrs);
	local_irq_restore(flags);
}

/*
 * A key freed while the task slept (or ran elsewhere) loses its rights
 * here, before they are loaded: pks_key_free() reaches CPUs, not tasks.
 */
static void pks_task_drop_freed(struct pks_task *t)
{
	u32 frees = pks_key_frees();

	if (likely(t->frees == frees))
		return;
	t->pkrs = pks_close_freed_keys(t->pkrs, t->frees);
	t->frees = frees;
}

static void pks_task_sched_in(struct preempt_notifier *pn, int cpu)
{
	struct pks_task *t = container_of(pn, struct pks_task, pn);

	pks_task_drop_freed(t);
	pks_task_load(t->pkrs);
}

static void pks_task_sched_out(struct preempt_notifier *pn,
			       struct task_struct *next)
{
	pks_task_load(PKS_DEFAULT_PKRS);
}

static struct preempt_ops pks_task_ops = {
	.sched_in = pks_task_sched_in,
	.sched_out = pks_task_sched_out,
};

/**
 * pks_task_find() - the current task's window state, or NULL
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
 * pks_task_get() - hold the current task's window state
 * @own: storage to register when the task has none yet
 * @modref: take a module reference for a new state (everyone but the
 *	owner's copy brackets, which pks_brackets_remove() waits for)
 *
 * The caller has preemption disabled and is in task context. A new state
 * starts from the default, whatever the CPU's register holds (a grant of
 * the moment is not the task's to keep).
 *
 * Return: the task's state, or NULL when the driver is going away.
 */
struct pks_task *pks_task_get(struct pks_task *own, bool modref)
{
	struct pks_task *t = pks_task_find();

	if (t) {
		t->depth++;
		return t;
	}
	if (modref && !try_module_get(THIS_MODULE))
		return NULL;
	own->modref = modref;
	own->pkrs = PKS_DEFAULT_PKRS;
	own->depth = 1;
	own->frees = pks_key_frees();
	preempt_notifier_init(&own->pn, &pks_task_ops);
	preempt_notifier_register(&own->pn);
	pks_acct_add(PKS_ACCT_TASK_STATES, 1);
	return own;
}

/**
 * pks_task_put() - release what pks_task_get() held
 * @t: the task state it returned
 *
 * The caller has preemption disabled. The outermost holder unregisters
 * the notifier, and the task runs with the default from then on.
 */
void pks_task_put(struct pks_task *t)
{
	if (--t->depth)
		return;
	pks_task_load(PKS_DEFAULT_PKRS);
	preempt_notifier_unregister(&t->pn);
	pks_acct_add(PKS_ACCT_TASK_STATES, -1);
	if (t->modref)
		module_put(THIS_MODULE);
}

/* Set @key's bits in the task's PKRS and this CPU's; preemption off. */
void pks_task_set_key(struct pks_task *t, int key, u32 bits)
{
	u32 mask = (PKS_PKRS_AD | PKS_PKRS_WD) << PKS_PKRS_SHIFT(key);
	unsigned long flags;

	local_irq_save(flags);
	pks_task_drop_freed(t);
	t->pkrs = (t->pkrs & ~mask) | (bits << PKS_PKRS_SHIFT(key));
	pks_level_set_task(t->pkrs);
	pks_set_key_bits(key, bits);
	local_irq_restore(flags);
}

static void __pks_task_window_open(int key, enum pks_access access,
				   struct pks_task_window *w, bool modref)
{
	w->task = NULL;
	if (WARN_ON_ONCE(!pks_key_valid(key) || access > PKS_READ_WRITE ||
			 !in_task()))
		return;
	preempt_disable();
	w->task = pks_task_get(&w->own, modref);
	if (w->task) {
		w->key = key;
		w->frees = pks_key_frees();
		w->saved = pks_key_bits(key, w->task->pkrs);
		pks_task_set_key(w->task, key, pks_access_bits(access));
	}
	preempt_enable();
}

/**
 * pks_task_window_open() - open a window that belongs to the current task
 * @key: an allocated key
 * @access: what the window allows
 * @w: the window, kept by the caller until pks_task_window_close()
 *
 * Unlike pks_window_open(), the window may sleep and migrate: the rights
 * are the task's own, restored whenever it runs and absent whenever any
 * other task, or any interrupt, runs. Windows nest, and must close in
 * reverse order of opening. Task context only.
 */
void pks_task_window_open(int key, enum pks_access access,
			  struct pks_task_window *w)
{
	__pks_task_window_open(key, access, w, true);
}
EXPORT_SYMBOL_GPL(pks_task_window_open);

/*
 * The owner's copy brackets' window (ownercopy.c): read-write, and no
 * module reference, since pks_brackets_remove() waits for every call
 * inside a bracket before the last range, so the driver, can go.
 */
void pks_bracket_window_open(int key, struct pks_task_window *w)
{
	__pks_task_window_open(key, PKS_READ_WRITE, w, false);
}

/**
 * pks_task_window_close() - close a window from pks_task_window_open()
 * @w: the window
 *
 * Restores @w's key to what it was when the window opened, or closes it
 * when the key was freed since: an outer window's rights are not given
 * back to whoever holds the key now.
 */
void pks_task_window_close(struct pks_task_window *w)
{
	if (!w->task)
		return;
	WARN_ON_ONCE(pks_task_find() != w->task);
	preempt_disable();
	pks_task_set_key(w->task, w->key,
			 pks_key_freed_since(w->key, w->frees) ?
			 PKS_PKRS_AD : w->saved);
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

/* Every holder took a module reference, so none is left at unload. */
void pks_tasks_exit(void)
{
	if (pks_notifiers_on)
		preempt_notifier_dec();
	pks_notifiers_on = false;
}
