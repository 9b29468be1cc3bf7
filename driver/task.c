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
 * to user space, or when a kernel thread next leaves the CPU. Outside task context, or when no state can be had, the key is
 * opened on this CPU only, until the consumer closes it.
 */
void pks_callback_grant(int key, u32 bits)
{
	u32 mask = (PKS_PKRS_AD | PKS_PKRS_WD) << PKS_PKRS_SHIFT(key);
	struct pks_task_transient *tt;
	struct pks_task *t = pks_task_find();

	if (!t && in_task()) {
		tt = kmalloc(sizeof(*tt), GFP_ATOMIC | __GFP_NOWARN);
		t = tt ? pks_task_get(&tt->t) : NULL;
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
	if (!t) {
		pks_set_key_bits(key, bits);
		return;
	}
	t->granted |= mask;
	pks_task_set_key(t, key, bits);
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
	static const u32 bits[] = {
		[PKS_NO_ACCESS] = PKS_PKRS_AD,
		[PKS_READ_ONLY] = PKS_PKRS_WD,
		[PKS_READ_WRITE] = 0,
	};

	w->task = NULL;
	if (WARN_ON_ONCE(!pks_key_valid(key) || access > PKS_READ_WRITE ||
			 !in_task()))
		return;
	preempt_disable();
	w->task = pks_task_get(&w->own);
	if (w->task) {
		w->key = key;
		w->saved = pks_key_bits(key, w->task->pkrs);
		pks_task_set_key(w->task, key, bits[access]);
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

/* The key's bits in this CPU's PKRS register, read from the register. */
static u32 pks_msr_key_bits(int key)
{
	u64 msr;

	rdmsrl(MSR_IA32_PKRS, msr);
	return pks_key_bits(key, msr);
}

/* What another CPU's PKRS register holds for a key. */
struct pks_remote_bits {
	int key;
	u32 bits;
};

static void pks_read_key_remote(void *data)
{
	struct pks_remote_bits *rb = data;

	rb->bits = pks_msr_key_bits(rb->key);
}

/**
 * struct pks_switcher - one thread of the context-switch case
 * @tp: the shared keyed page
 * @access: the task window it holds, or -1 for none
 * @raw: hold the key open with a per-CPU write instead (the control)
 * @rounds: switches to go through
 * @bad_round: the first round that saw the wrong state, or -1
 * @seen: the key bits it saw then
 * @done: completed when the thread has finished
 * @opened: for @raw, completed once the key is open on the CPU
 * @go: for the observer of the control, waited on before looking
 */
struct pks_switcher {
	struct pks_test_page *tp;
	int access;
	bool raw;
	int rounds;
	int bad_round;
	u32 seen;
	struct completion done;
	struct completion *opened;
	struct completion *go;
};

static const u32 pks_window_bits[] = {
	[PKS_NO_ACCESS] = PKS_PKRS_AD,
	[PKS_READ_ONLY] = PKS_PKRS_WD,
	[PKS_READ_WRITE] = 0,
};

/* What a thread holding @access (or none) must see, in PKRS and in use. */
static bool pks_switcher_ok(struct pks_switcher *sw, u32 *seen)
{
	u32 want = sw->access < 0 ? PKS_PKRS_AD : pks_window_bits[sw->access];
	bool r, w;
	u64 val;

	preempt_disable();
	*seen = pks_msr_key_bits(sw->tp->key);
	r = pks_can_read(sw->tp->addr, &val);
	w = r && pks_can_write(sw->tp->addr, val);
	preempt_enable();
	return *seen == want && r == !(want & PKS_PKRS_AD) &&
	       w == !want;
}

static int pks_switcher_fn(void *data)
{
	struct pks_switcher *sw = data;
	struct pks_task_window w;
	int i;

	if (sw->access >= 0)
		pks_task_window_open(sw->tp->key, sw->access, &w);
	for (i = 0; i < sw->rounds && sw->bad_round < 0; i++) {
		if (!pks_switcher_ok(sw, &sw->seen))
			sw->bad_round = i;
		/* Short and long sleeps, so peers run in between. */
		if (i & 1)
			usleep_range(20, 50);
		else
			usleep_range(1, 2);
	}
	if (sw->access >= 0)
		pks_task_window_close(&w);
	complete(&sw->done);
	return 0;
}

/* The control: a key opened per CPU, then the task sleeps. */
static int pks_raw_opener_fn(void *data)
{
	struct pks_switcher *sw = data;

	preempt_disable();
	pks_set_key_bits(sw->tp->key, 0);
	preempt_enable();
	complete(sw->opened);
	wait_for_completion(sw->go);
	preempt_disable();
	pks_set_key_bits(sw->tp->key, PKS_PKRS_AD);
	preempt_enable();
	complete(&sw->done);
	return 0;
}

static int pks_raw_observer_fn(void *data)
{
	struct pks_switcher *sw = data;

	wait_for_completion(sw->opened);
	preempt_disable();
	sw->seen = pks_msr_key_bits(sw->tp->key);
	preempt_enable();
	complete(sw->go);
	complete(&sw->done);
	return 0;
}

static int pks_run_switchers(struct pks_switcher *sw, int n, unsigned int cpu,
			     int (*fn[])(void *))
{
	struct task_struct *t[4];
	int i;

	for (i = 0; i < n; i++) {
		init_completion(&sw[i].done);
		sw[i].bad_round = -1;
		t[i] = kthread_create(fn[i], &sw[i], "pks-switch/%d", i);
		if (IS_ERR(t[i])) {
			while (i--)
				kthread_stop(t[i]);
			return PTR_ERR(t[i]);
		}
		kthread_bind(t[i], cpu);
	}
	for (i = 0; i < n; i++)
		wake_up_process(t[i]);
	for (i = 0; i < n; i++)
		wait_for_completion(&sw[i].done);
	return 0;
}

/*
 * context-switch, upstream's case: two threads pinned to one CPU hold
 * different rights to the same key in task windows and a third holds
 * none; each checks, in the PKRS register and by access, what it sees
 * after every switch to a peer and every sleep inside its window. Then a
 * window migrates to another CPU, and the CPU it left is back at the
 * default. A control run first shows the check catches a leak: a key
 * opened per CPU by a thread that then sleeps is seen by its successor.
 */
static int pks_test_context_switch(struct pks_test_ctx *ctx)
{
	int (*fns[3])(void *) = { pks_switcher_fn, pks_switcher_fn,
				  pks_switcher_fn };
	int (*raw_fns[2])(void *) = { pks_raw_opener_fn, pks_raw_observer_fn };
	static const char *const who[] = { "read-write", "read-only", "none" };
	struct pks_switcher sw[3] = {}, ctl[2] = {};
	DECLARE_COMPLETION_ONSTACK(opened);
	DECLARE_COMPLETION_ONSTACK(go);
	struct pks_remote_bits rb;
	struct pks_task_window w;
	struct pks_test_page tp;
	unsigned int cpu, other;
	cpumask_var_t saved;
	int i, rc, result = PKS_RESULT_PASS;
	u64 val;

	if (!alloc_cpumask_var(&saved, GFP_KERNEL))
		return -ENOMEM;
	rc = pks_test_page_alloc(&tp, "test:context-switch");
	if (rc)
		goto out_mask;
	cpu = cpumask_first(cpu_online_mask);

	for (i = 0; i < 2; i++) {
		ctl[i].tp = &tp;
		ctl[i].opened = &opened;
		ctl[i].go = &go;
	}
	rc = pks_run_switchers(ctl, 2, cpu, raw_fns);
	if (rc)
		goto out;
	if (ctl[1].seen != 0) {
		result = pks_test_fail(ctx, "control: a per-CPU grant did not leak to the next task (bits %#x): the check cannot fail",
				       ctl[1].seen);
		goto out;
	}

	for (i = 0; i < 3; i++) {
		sw[i].tp = &tp;
		sw[i].rounds = 400;
		sw[i].access = i == 0 ? PKS_READ_WRITE :
			       i == 1 ? PKS_READ_ONLY : -1;
	}
	rc = pks_run_switchers(sw, 3, cpu, fns);
	if (rc)
		goto out;
	for (i = 0; i < 3 && !result; i++)
		if (sw[i].bad_round >= 0)
			result = pks_test_fail(ctx, "thread holding %s saw key bits %#x in round %d",
					       who[i], sw[i].seen,
					       sw[i].bad_round);
	if (result)
		goto out;

	/* A window that sleeps and migrates keeps its rights; none stay. */
	other = cpumask_next(cpu, cpu_online_mask);
	if (other >= nr_cpu_ids)
		goto out;
	cpumask_copy(saved, current->cpus_ptr);
	if (set_cpus_allowed_ptr(current, cpumask_of(cpu)))
		goto out;
	pks_task_window_open(tp.key, PKS_READ_WRITE, &w);
	if (!set_cpus_allowed_ptr(current, cpumask_of(other))) {
		usleep_range(100, 200);
		if (!pks_can_read(tp.addr, &val) || !pks_can_write(tp.addr, val))
			result = pks_test_fail(ctx, "window lost after migrating to cpu%u",
					       other);
		rb.key = tp.key;
		if (!result && (smp_call_function_single(cpu,
							 pks_read_key_remote,
							 &rb, 1) ||
				rb.bits != PKS_PKRS_AD))
			result = pks_test_fail(ctx, "cpu%u kept the migrated window's key (bits %#x)",
					       cpu, rb.bits);
	}
	pks_task_window_close(&w);
	set_cpus_allowed_ptr(current, saved);
out:
	pks_test_page_free(&tp);
out_mask:
	free_cpumask_var(saved);
	return result;
}

struct pks_irq_probe {
	struct irq_work work;
	u32 bits;
	bool done;
};

static int pks_irq_probe_key;

static void pks_irq_probe_fn(struct irq_work *work)
{
	struct pks_irq_probe *p = container_of(work, struct pks_irq_probe,
					       work);

	p->bits = pks_msr_key_bits(pks_irq_probe_key);
	/* Publish bits before done; pairs with the acquire in the test. */
	smp_store_release(&p->done, true);
}

/*
 * exception: inside a task window, a fault on another key that a
 * fault-safe accessor fixes up leaves the task's state as it was; an
 * interrupt taken inside the window sees the window's rights (a stock
 * kernel does not switch PKRS on interrupt entry: a documented limit);
 * and after the task sleeps, its window is still what it opened.
 */
static int pks_test_exception(struct pks_test_ctx *ctx)
{
	struct pks_irq_probe probe = {};
	struct pks_test_page tp, other;
	struct pks_task_window w;
	unsigned long spins = 0;
	int rc, result = PKS_RESULT_PASS;
	u32 bits;
	u64 val;

	rc = pks_test_page_alloc(&tp, "test:exception");
	if (rc)
		return rc;
	rc = pks_test_page_alloc(&other, "test:exception");
	if (rc) {
		pks_test_page_free(&tp);
		return rc;
	}
	init_irq_work(&probe.work, pks_irq_probe_fn);
	pks_irq_probe_key = tp.key;

	pks_task_window_open(tp.key, PKS_READ_WRITE, &w);
	if (pks_can_read(other.addr, &val))
		result = pks_test_fail(ctx, "other key readable in the window");
	preempt_disable();
	bits = pks_msr_key_bits(tp.key);
	if (!result && (bits || !pks_can_write(tp.addr, 1)))
		result = pks_test_fail(ctx, "after a fixed-up fault: key bits %#x",
				       bits);
	/* A self-interrupt; preemption is off so it lands on this CPU. */
	if (!result && irq_work_queue(&probe.work)) {
		/* Acquire pairs with the handler's release of done. */
		while (!smp_load_acquire(&probe.done) && spins++ < 100000000)
			cpu_relax();
		if (!probe.done)
			result = pks_test_fail(ctx, "self-interrupt never ran");
		else if (probe.bits || pks_msr_key_bits(tp.key))
			result = pks_test_fail(ctx, "interrupt saw key bits %#x, after it %#x; window 0",
					       probe.bits, pks_msr_key_bits(tp.key));
	}
	preempt_enable();
	irq_work_sync(&probe.work);
	if (!result) {
		usleep_range(2000, 3000);
		if (!pks_can_write(tp.addr, 2) ||
		    *(u64 *)page_address(tp.page) != 2)
			result = pks_test_fail(ctx, "window lost across a sleep");
	}
	pks_task_window_close(&w);
	if (!result && pks_can_read(tp.addr, &val))
		result = pks_test_fail(ctx, "key still open after the window closed");

	pks_test_page_free(&other);
	pks_test_page_free(&tp);
	return result;
}

static const struct pks_test task_tests[] = {
	{ PKS_TEST_CONTEXT_SWITCH, pks_test_context_switch },
	{ PKS_TEST_EXCEPTION, pks_test_exception },
};

PKS_TEST_CATEGORY(pks_task_tests, task_tests);
