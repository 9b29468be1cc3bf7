// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of task.c: task windows across context switches, migration,
 * fixed-up faults and interrupts.
 */
#include "test.h"

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/irq_work.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/smp.h>

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

/* What a thread holding @access (or none) must see, in PKRS and in use. */
static bool pks_switcher_ok(struct pks_switcher *sw, u32 *seen)
{
	u32 want = sw->access < 0 ? PKS_PKRS_AD : pks_access_bits(sw->access);
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

	/*
	 * Opened for the CPU's task level, with no window and no notifier:
	 * what a leak looks like. (The register alone would be reset by the
	 * next interrupt's exit, which gives the task level its rights.)
	 */
	preempt_disable();
	pks_set_access(sw->tp->key, PKS_READ_WRITE);
	preempt_enable();
	complete(sw->opened);
	wait_for_completion(sw->go);
	preempt_disable();
	pks_set_access(sw->tp->key, PKS_NO_ACCESS);
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
	if (other >= nr_cpu_ids) {
		result = pks_test_skip(ctx, "switch rounds passed; the migration check needs a second online CPU");
		goto out;
	}
	cpumask_copy(saved, current->cpus_ptr);
	if (set_cpus_allowed_ptr(current, cpumask_of(cpu))) {
		result = pks_test_skip(ctx, "switch rounds passed; cpu%u went offline before the migration check",
				       cpu);
		goto out;
	}
	pks_task_window_open(tp.key, PKS_READ_WRITE, &w);
	if (set_cpus_allowed_ptr(current, cpumask_of(other))) {
		result = pks_test_skip(ctx, "switch rounds passed; cpu%u went offline before the migration check",
				       other);
	} else {
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
 * interrupt taken inside the window runs with the default, not the
 * window's rights, and the window is back when it returns; and after the
 * task sleeps, its window is still what it opened.
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
		else if (probe.bits != PKS_PKRS_AD || pks_msr_key_bits(tp.key))
			result = pks_test_fail(ctx, "interrupt saw key bits %#x (the default is %#x), after it %#x (the window's 0)",
					       probe.bits, PKS_PKRS_AD,
					       pks_msr_key_bits(tp.key));
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

/**
 * struct pks_free_sleeper - the thread of the key-free-window case
 * @freed: the key freed while the thread sleeps
 * @kept: the key it keeps
 * @opened: completed once both windows are open
 * @go: waited on, asleep, while the test frees @freed
 * @done: completed when the thread has finished
 * @freed_bits: @freed's bits in PKRS once it ran again
 * @kept_bits: @kept's, the same
 * @closed_bits: @freed's after both windows closed
 * @freed_write: a store to @freed's page went through
 * @kept_write: a store to @kept's page went through
 */
struct pks_free_sleeper {
	struct pks_test_page *freed, *kept;
	struct completion opened, go, done;
	u32 freed_bits, kept_bits, closed_bits;
	bool freed_write, kept_write;
};

static int pks_free_sleeper_fn(void *data)
{
	struct pks_free_sleeper *fs = data;
	struct pks_task_window outer, inner;

	pks_task_window_open(fs->freed->key, PKS_READ_WRITE, &outer);
	pks_task_window_open(fs->kept->key, PKS_READ_WRITE, &inner);
	complete(&fs->opened);
	wait_for_completion(&fs->go);
	preempt_disable();
	fs->freed_bits = pks_msr_key_bits(fs->freed->key);
	fs->kept_bits = pks_msr_key_bits(fs->kept->key);
	fs->freed_write = pks_can_write(fs->freed->addr, 1);
	fs->kept_write = pks_can_write(fs->kept->addr, 1);
	preempt_enable();
	pks_task_window_close(&inner);
	pks_task_window_close(&outer);
	fs->closed_bits = pks_msr_key_bits(fs->freed->key);
	complete(&fs->done);
	return 0;
}

/*
 * key-free-window: a thread holds task windows on two keys and sleeps;
 * one key is freed meanwhile and allocated again to another owner. When
 * the thread runs again it must have no access to the freed key (its
 * pages refuse a store), not even after closing the window, which puts
 * back what it held before; the control: the kept key's window is still
 * open across the same sleep, so the rights were not simply all lost.
 */
static int pks_test_key_free_window(struct pks_test_ctx *ctx)
{
	struct pks_test_page freed, kept;
	struct pks_free_sleeper fs = { .freed = &freed, .kept = &kept };
	struct task_struct *t;
	int next = -1, rc, result;

	rc = pks_test_page_alloc(&freed, "test:key-free-window");
	if (rc)
		return rc;
	rc = pks_test_page_alloc(&kept, "test:key-free-window-kept");
	if (rc) {
		pks_test_page_free(&freed);
		return rc;
	}
	init_completion(&fs.opened);
	init_completion(&fs.go);
	init_completion(&fs.done);
	t = kthread_run(pks_free_sleeper_fn, &fs, "pks-free-sleeper");
	if (IS_ERR(t)) {
		result = PTR_ERR(t);
		goto out;
	}
	wait_for_completion(&fs.opened);
	/* The freed key's page stays keyed with it: the next owner's now. */
	pks_key_free(freed.key);
	next = pks_key_alloc("test:key-free-window-next", NULL, NULL);
	complete(&fs.go);
	wait_for_completion(&fs.done);
	if (fs.kept_bits || !fs.kept_write)
		result = pks_test_fail(ctx, "control: the kept window was lost across the sleep (bits %#x, store %s)",
				       fs.kept_bits,
				       fs.kept_write ? "went through" : "faulted");
	else if (fs.freed_bits != PKS_PKRS_AD || fs.freed_write)
		result = pks_test_fail(ctx, "the freed key came back open: bits %#x, store %s",
				       fs.freed_bits,
				       fs.freed_write ? "went through" : "faulted");
	else if (fs.closed_bits != PKS_PKRS_AD)
		result = pks_test_fail(ctx, "closing the window reopened the freed key: bits %#x",
				       fs.closed_bits);
	else
		result = PKS_RESULT_PASS;
out:
	if (next > 0)
		pks_key_free(next);
	/* Freed above once the thread ran. */
	if (!IS_ERR(t))
		freed.key = 0;
	pks_test_page_free(&kept);
	pks_test_page_free(&freed);
	return result;
}

static const struct pks_test task_tests[] = {
	{ PKS_TEST_CONTEXT_SWITCH, pks_test_context_switch },
	{ PKS_TEST_EXCEPTION, pks_test_exception },
	{ PKS_TEST_KEY_FREE_WINDOW, pks_test_key_free_window },
};

PKS_TEST_CATEGORY(pks_task_tests, task_tests);
