// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of cpuwindow.c: non-preemptible access windows on one key.
 */
#include "test.h"

#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <asm/msr.h>

/* Check the access a key gives through @addr on this CPU. */
static int pks_expect(struct pks_test_ctx *ctx, void *addr, bool readable,
		      bool writable, const char *state)
{
	u64 val;

	if (pks_can_read(addr, &val) != readable)
		return pks_test_fail(ctx, "%s: read %s", state,
				     readable ? "faulted" : "succeeded");
	if (pks_can_write(addr, val) != writable)
		return pks_test_fail(ctx, "%s: write %s", state,
				     writable ? "faulted" : "succeeded");
	return PKS_RESULT_PASS;
}

/*
 * single-key: one key blocks, allows reads only, or allows everything as
 * set; windows nest; and only real changes reach the PKRS MSR.
 */
static int pks_single_key(struct pks_test_ctx *ctx, struct pks_test_page *tp)
{
	u64 w0, s0, w1, s1, val = 0;
	unsigned int outer, inner;
	int rc;

	rc = pks_expect(ctx, tp->addr, false, false, "access-disabled");
	if (rc)
		return rc;

	outer = pks_window_open(tp->key, PKS_READ_ONLY);
	rc = pks_expect(ctx, tp->addr, true, false, "read-only window");
	pks_window_close(tp->key, outer);
	if (rc)
		return rc;

	outer = pks_window_open(tp->key, PKS_READ_WRITE);
	rc = pks_expect(ctx, tp->addr, true, true, "read-write window");
	if (!rc && (!pks_can_write(tp->addr, 0x5a5a5a5a5a5a5a5aULL) ||
		    !pks_can_read(tp->addr, &val) ||
		    val != 0x5a5a5a5a5a5a5a5aULL))
		rc = pks_test_fail(ctx, "read-write window: read back %#llx",
				   val);
	/* A nested read-only window, then back to read-write. */
	inner = pks_window_open(tp->key, PKS_READ_ONLY);
	if (!rc)
		rc = pks_expect(ctx, tp->addr, true, false, "nested window");
	pks_window_close(tp->key, inner);
	if (!rc)
		rc = pks_expect(ctx, tp->addr, true, true, "after nested close");
	pks_window_close(tp->key, outer);
	if (rc)
		return rc;

	rc = pks_expect(ctx, tp->addr, false, false, "after close");
	if (rc)
		return rc;

	/* Exact MSR write counts, on one CPU with preemption off. */
	preempt_disable();
	pks_counters(&w0, &s0);
	outer = pks_window_open(tp->key, PKS_READ_WRITE);
	inner = pks_window_open(tp->key, PKS_READ_WRITE);
	pks_window_close(tp->key, inner);
	pks_window_close(tp->key, outer);
	pks_counters(&w1, &s1);
	preempt_enable();
	if (w1 - w0 != 2 || s1 - s0 != 2)
		return pks_test_fail(ctx,
				     "open+redundant open+2 closes: %llu writes, %llu skipped; expected 2 and 2",
				     w1 - w0, s1 - s0);
	return PKS_RESULT_PASS;
}

static int pks_test_single_key(struct pks_test_ctx *ctx)
{
	struct pks_test_page tp;
	int rc;

	rc = pks_test_page_alloc(&tp, "test:single-key");
	if (rc)
		return rc;
	preempt_disable();
	rc = pks_single_key(ctx, &tp);
	preempt_enable();
	if (!rc && *(u64 *)page_address(tp.page) != 0x5a5a5a5a5a5a5a5aULL)
		rc = pks_test_fail(ctx, "data written in the window is lost");
	pks_test_page_free(&tp);
	return rc;
}

#define PKS_IPI_RACE_ROUNDS	100

/**
 * struct pks_ipi_race - the ipi-race case's shared state
 * @page: the page of the key every worker keeps opening and closing
 * @key: the round's key, opened by every worker, then freed by the case
 * @round: bumped (release) once @key is published
 * @opened: workers that opened this round's @key
 * @bad_cpus: CPUs whose check failed this round
 * @stop: tells the workers to end
 * @windows: windows the workers opened and closed, for the report
 */
struct pks_ipi_race {
	struct pks_test_page page;
	int key;
	atomic_t round;
	atomic_t opened;
	atomic_t bad_cpus;
	bool stop;
	atomic_long_t windows;
};

/*
 * A worker, one per CPU: opens each round's key on its CPU, as a grant
 * outside any window, then keeps running windows on another key, whose
 * read-modify-write of PKRS the key's reset IPI must not be lost in.
 */
static int pks_ipi_race_worker(void *arg)
{
	struct pks_ipi_race *r = arg;
	int seen = 0, round;
	unsigned long n = 0;
	unsigned int prev;

	while (!READ_ONCE(r->stop)) {
		round = atomic_read_acquire(&r->round);
		if (round != seen) {
			preempt_disable();
			pks_set_access(READ_ONCE(r->key), PKS_READ_WRITE);
			preempt_enable();
			seen = round;
			atomic_inc(&r->opened);
		}
		prev = pks_window_open(r->page.key, PKS_READ_WRITE);
		WRITE_ONCE(*(u64 *)r->page.addr, n);
		pks_window_close(r->page.key, prev);
		if (!(++n & 63))
			cond_resched();
	}
	atomic_long_add(n, &r->windows);
	return 0;
}

/*
 * On each CPU: the register matches the copy, and @key is closed for the
 * task level (the IPI itself runs with the default).
 */
static void pks_ipi_race_check(void *arg)
{
	struct pks_ipi_race *r = arg;
	u32 cache = pks_read_pkrs_cache();
	u64 msr;

	rdmsrq(MSR_IA32_PKRS, msr);
	if (msr != cache ||
	    pks_key_bits(r->key, pks_task_level_pkrs()) != PKS_PKRS_AD)
		atomic_inc(&r->bad_cpus);
}

/* Publish a new key for the workers and wait until all opened it. */
static int pks_ipi_race_round(struct pks_ipi_race *r, unsigned int workers)
{
	unsigned long end = jiffies + 10 * HZ;
	int key = pks_key_alloc("test:ipi-race", NULL, NULL);

	if (key < 0)
		return key;
	WRITE_ONCE(r->key, key);
	atomic_set(&r->opened, 0);
	atomic_inc_return_release(&r->round);
	while (atomic_read(&r->opened) < workers) {
		if (time_after(jiffies, end)) {
			pks_key_free(key);
			return -ETIMEDOUT;
		}
		schedule_timeout_uninterruptible(1);
	}
	return key;
}

/*
 * ipi-race: pks_key_free() resets the freed key on every CPU from an IPI
 * while each CPU runs windows on another key. Every reset must stick and
 * each CPU's PKRS copy must match its register, round after round. The
 * control: one round with the key left open must be seen on every CPU.
 */
static int pks_test_ipi_race(struct pks_test_ctx *ctx)
{
	unsigned int cpu, workers = 0, control;
	struct task_struct **tasks;
	struct pks_ipi_race *r;
	int i, key, result = PKS_RESULT_PASS;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	tasks = kcalloc(nr_cpu_ids, sizeof(*tasks), GFP_KERNEL);
	key = r && tasks ? pks_test_page_alloc(&r->page,
					       "test:ipi-race-window") : -ENOMEM;
	if (key) {
		kfree(tasks);
		kfree(r);
		return key;
	}
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		tasks[cpu] = kthread_create(pks_ipi_race_worker, r,
					    "pks-ipi-race/%u", cpu);
		if (IS_ERR(tasks[cpu])) {
			result = PTR_ERR(tasks[cpu]);
			tasks[cpu] = NULL;
			goto stop;
		}
		kthread_bind(tasks[cpu], cpu);
		wake_up_process(tasks[cpu]);
		workers++;
	}

	/* The control: a key opened on every CPU and not reset is seen. */
	key = pks_ipi_race_round(r, workers);
	if (key < 0) {
		result = key;
		goto stop;
	}
	on_each_cpu(pks_ipi_race_check, r, 1);
	control = atomic_xchg(&r->bad_cpus, 0);
	pks_key_free(key);
	if (control != workers) {
		result = pks_test_fail(ctx, "control: an open key was seen on %u of %u CPUs",
				       control, workers);
		goto stop;
	}

	for (i = 0; i < PKS_IPI_RACE_ROUNDS; i++) {
		key = pks_ipi_race_round(r, workers);
		if (key < 0) {
			result = key;
			goto stop;
		}
		pks_key_free(key);
		on_each_cpu(pks_ipi_race_check, r, 1);
		if (atomic_read(&r->bad_cpus)) {
			result = pks_test_fail(ctx, "round %d: key %d still open or PKRS copy stale on %d CPUs",
					       i, key, atomic_read(&r->bad_cpus));
			goto stop;
		}
	}
stop:
	WRITE_ONCE(r->stop, true);
	for_each_online_cpu(cpu)
		if (tasks[cpu])
			kthread_stop(tasks[cpu]);
	cpus_read_unlock();
	if (result == PKS_RESULT_PASS)
		pr_info("ipi-race: %d key resets on %u CPUs across %ld windows held\n",
			PKS_IPI_RACE_ROUNDS, workers,
			atomic_long_read(&r->windows));
	pks_test_page_free(&r->page);
	kfree(tasks);
	kfree(r);
	return result;
}

static const struct pks_test cpuwindow_tests[] = {
	{ PKS_TEST_SINGLE_KEY, pks_test_single_key },
	{ PKS_TEST_IPI_RACE, pks_test_ipi_race },
};

PKS_TEST_CATEGORY(pks_cpuwindow_tests, cpuwindow_tests);
