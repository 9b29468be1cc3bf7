// SPDX-License-Identifier: GPL-2.0
/*
 * Access guards: change what a key allows on the current CPU. A window
 * opens a key, disables preemption so the task cannot be switched out with
 * the key open (the stock kernel does not carry PKRS across a switch), and
 * restores the key's previous state when it closes.
 */
#include "pks_internal.h"

#include <linux/mm.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/sched.h>

static const u32 pks_access_bits[] = {
	[PKS_NO_ACCESS] = PKS_PKRS_AD,
	[PKS_READ_ONLY] = PKS_PKRS_WD,
	[PKS_READ_WRITE] = 0,
};

/*
 * Set @key's two PKRS bits on this CPU; preemption disabled. The read and
 * the write happen with interrupts off, so a PKRS change made from an
 * interrupt in between is not lost.
 */
void pks_set_key_bits(int key, u32 bits)
{
	u32 mask = (PKS_PKRS_AD | PKS_PKRS_WD) << PKS_PKRS_SHIFT(key);
	unsigned long flags;

	local_irq_save(flags);
	pks_write_pkrs((pks_read_pkrs_cache() & ~mask) |
		       (bits << PKS_PKRS_SHIFT(key)));
	local_irq_restore(flags);
}

/**
 * pks_set_access() - set what @key allows on this CPU
 * @key: an allocated key
 * @access: the new access
 *
 * The caller must have preemption disabled and must restore the key
 * before enabling it; pks_window_open() does both.
 */
void pks_set_access(int key, enum pks_access access)
{
	if (WARN_ON_ONCE(!pks_key_valid(key) || access > PKS_READ_WRITE))
		return;
	WARN_ON_ONCE(preemptible());
	pks_set_key_bits(key, pks_access_bits[access]);
}
EXPORT_SYMBOL_GPL(pks_set_access);

/**
 * pks_window_open() - open a non-preemptible access window
 * @key: an allocated key
 * @access: what the window allows
 *
 * Windows nest: each close restores the state its open found.
 *
 * Return: the key's previous state, for pks_window_close().
 */
unsigned int pks_window_open(int key, enum pks_access access)
{
	unsigned int prev;

	preempt_disable();
	if (WARN_ON_ONCE(!pks_key_valid(key) || access > PKS_READ_WRITE))
		return PKS_PKRS_AD;
	prev = pks_key_bits(key, pks_read_pkrs_cache());
	pks_set_key_bits(key, pks_access_bits[access]);
	return prev;
}
EXPORT_SYMBOL_GPL(pks_window_open);

/**
 * pks_window_close() - close a window from pks_window_open()
 * @key: the key given to pks_window_open()
 * @prev: what pks_window_open() returned
 */
void pks_window_close(int key, unsigned int prev)
{
	if (!WARN_ON_ONCE(!pks_key_valid(key)))
		pks_set_key_bits(key, prev & (PKS_PKRS_AD | PKS_PKRS_WD));
	preempt_enable();
}
EXPORT_SYMBOL_GPL(pks_window_close);

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

static const struct pks_test guard_tests[] = {
	{ PKS_TEST_SINGLE_KEY, pks_test_single_key },
};

PKS_TEST_CATEGORY(pks_guard_tests, guard_tests);
