// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of keys.c: the whole key table at once.
 */
#include "test.h"

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

/*
 * all-keys: with every key allocated at once, each key guards its own page
 * independently, and one more allocation fails with -ENOSPC.
 */
static int pks_test_all_keys(struct pks_test_ctx *ctx)
{
	struct pks_test_page pages[PKS_NR_KEYS] = {};
	int i, j, rc, result = PKS_RESULT_PASS;
	unsigned int prev;
	u64 val;

	rc = pks_keys_busy(ctx->message, sizeof(ctx->message));
	if (rc)
		return rc;

	for (i = 1; i < PKS_NR_KEYS; i++) {
		rc = pks_test_page_alloc(&pages[i], "test:all-keys");
		if (rc) {
			result = pks_test_fail(ctx, "key %d: allocation: %d",
					       i, rc);
			goto out;
		}
	}
	rc = pks_key_alloc("test:all-keys", NULL, NULL);
	if (rc != -ENOSPC) {
		if (rc > 0)
			pks_key_free(rc);
		result = pks_test_fail(ctx, "16th key allocation gave %d, not -ENOSPC",
				       rc);
		goto out;
	}

	for (i = 1; i < PKS_NR_KEYS; i++) {
		preempt_disable();
		if (pks_can_write(pages[i].addr, i)) {
			preempt_enable();
			result = pks_test_fail(ctx, "key %d: write without a window",
					       pages[i].key);
			goto out;
		}
		prev = pks_window_open(pages[i].key, PKS_READ_WRITE);
		rc = pks_can_write(pages[i].addr, pages[i].key);
		for (j = 1; rc && j < PKS_NR_KEYS; j++)
			if (j != i && pks_can_read(pages[j].addr, &val))
				rc = false;
		pks_window_close(pages[i].key, prev);
		preempt_enable();
		if (!rc) {
			result = pks_test_fail(ctx, "key %d: its window failed or opened key %d",
					       pages[i].key, j - 1);
			goto out;
		}
	}
	for (i = 1; i < PKS_NR_KEYS; i++) {
		if (*(u64 *)page_address(pages[i].page) != pages[i].key) {
			result = pks_test_fail(ctx, "key %d: page holds wrong data",
					       pages[i].key);
			goto out;
		}
	}
out:
	for (i = 1; i < PKS_NR_KEYS; i++)
		pks_test_page_free(&pages[i]);
	return result;
}

#define PKS_KEY_FREE_MAGIC	0x6b657966726565ULL	/* "keyfree" */
#define PKS_KEY_FREE_PATTERN	0x5a5a0f0f5a5a0f0fULL

/**
 * struct pks_key_free_state - the key-free case's consumer
 * @addr: the keyed page the writer stores to
 * @magic: read by the callback through its @data: proves @data is alive
 * @seen: what the callback read there
 * @entered: the callback has started
 * @freeing: the test is about to free the key
 * @finished: the callback has returned
 * @written: the writer's store has landed (retried after the grant)
 */
struct pks_key_free_state {
	u64 *addr;
	u64 magic;
	u64 seen;
	bool entered;
	bool freeing;
	bool finished;
	struct completion written;
};

/* Busy-wait @ns by the clock: delay loops are not calibrated under TCG. */
static void pks_key_free_spin(struct pks_key_free_state *st, bool *until,
			      u64 ns)
{
	u64 t0 = ktime_get_mono_fast_ns();

	while ((!until || !READ_ONCE(*until)) &&
	       ktime_get_mono_fast_ns() - t0 < ns)
		cpu_relax();
}

/*
 * A slow consumer callback: it holds on until the test starts freeing the
 * key (10 s at most), then 20 ms more, so that the free runs under it.
 */
static bool pks_key_free_cb(int key, unsigned long address, bool write,
			    void *data)
{
	struct pks_key_free_state *st = data;

	WRITE_ONCE(st->entered, true);
	pks_key_free_spin(st, &st->freeing, 10 * NSEC_PER_SEC);
	pks_key_free_spin(st, NULL, 20 * NSEC_PER_MSEC);
	st->seen = READ_ONCE(st->magic);
	/* Publishes @seen to whoever sees @finished. */
	smp_store_release(&st->finished, true);
	return true;
}

/* Stores to the keyed page with no window: the callback grants it. */
static int pks_key_free_writer(void *arg)
{
	struct pks_key_free_state *st = arg;

	WRITE_ONCE(*st->addr, PKS_KEY_FREE_PATTERN);
	complete(&st->written);
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

/*
 * key-free: a consumer frees its key while its fault callback runs on
 * another CPU. pks_key_free() must return only after the callback has
 * finished, the callback must still see its data, and the faulting store
 * must land. The control: the callback is seen running when the free
 * starts, or the case proves nothing and fails.
 */
static int pks_test_key_free(struct pks_test_ctx *ctx)
{
	struct pks_key_free_state *st;
	bool running_at_free, finished_at_return;
	struct pks_test_page tp;
	struct task_struct *writer;
	unsigned long deadline;
	int key, cpu, result;

	if (num_online_cpus() < 2)
		return pks_test_skip(ctx, "needs two online CPUs");
	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	st->magic = PKS_KEY_FREE_MAGIC;
	init_completion(&st->written);
	key = pks_key_alloc("test:key-free", pks_key_free_cb, st);
	if (key < 0) {
		kfree(st);
		return key;
	}
	result = pks_test_page_map(&tp, key);
	if (result) {
		pks_key_free(key);
		kfree(st);
		return result;
	}
	st->addr = tp.addr;

	/* This task stays on its CPU; the writer faults on another. */
	migrate_disable();
	cpu = cpumask_any_but(cpu_online_mask, smp_processor_id());
	writer = kthread_create(pks_key_free_writer, st, "pks-key-free");
	if (IS_ERR(writer)) {
		migrate_enable();
		result = PTR_ERR(writer);
		goto out;
	}
	kthread_bind(writer, cpu);
	wake_up_process(writer);
	/*
	 * Freeing the key before the writer's fault would oops it (no
	 * callback left): wait by the clock, as long as a loaded machine
	 * needs, and never free before the callback has started.
	 */
	deadline = jiffies + 30 * HZ;
	while (!READ_ONCE(st->entered) && time_before(jiffies, deadline))
		usleep_range(100, 200);
	if (!READ_ONCE(st->entered)) {
		migrate_enable();
		/* The writer is stuck before its store: keep the key. */
		return pks_test_fail(ctx, "the writer did not fault within 30 s");
	}
	/* Pairs with the callback's release of @finished. */
	running_at_free = !smp_load_acquire(&st->finished);
	WRITE_ONCE(st->freeing, true);
	pks_key_free(key);
	/* Pairs with the callback's release of @finished, as above. */
	finished_at_return = smp_load_acquire(&st->finished);
	migrate_enable();

	if (!wait_for_completion_timeout(&st->written, 5 * HZ))
		result = pks_test_fail(ctx, "the writer's store never completed");
	else if (!running_at_free)
		result = pks_test_fail(ctx, "control: the callback was not running when the key was freed (entered %d)",
				       READ_ONCE(st->entered));
	else if (!finished_at_return)
		result = pks_test_fail(ctx, "pks_key_free() returned while the callback still ran");
	else if (st->seen != PKS_KEY_FREE_MAGIC)
		result = pks_test_fail(ctx, "the callback read %#llx from its data, not %#llx",
				       st->seen, PKS_KEY_FREE_MAGIC);
	else if (*(u64 *)page_address(tp.page) != PKS_KEY_FREE_PATTERN)
		result = pks_test_fail(ctx, "the granted store did not land: page holds %#llx",
				       *(u64 *)page_address(tp.page));
	else
		result = PKS_RESULT_PASS;
	kthread_stop(writer);
out:
	/* The key is freed already (or, on error, freed here). */
	if (IS_ERR(writer))
		pks_key_free(key);
	tp.key = 0;
	pks_test_page_free(&tp);
	kfree(st);
	return result;
}

static const struct pks_test key_tests[] = {
	{ PKS_TEST_ALL_KEYS, pks_test_all_keys },
	{ PKS_TEST_KEY_FREE, pks_test_key_free },
};

PKS_TEST_CATEGORY(pks_key_tests, key_tests);
