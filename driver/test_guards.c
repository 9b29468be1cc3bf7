// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of guards.c: non-preemptible access windows on one key.
 */
#include "test.h"

#include <linux/mm.h>
#include <linux/preempt.h>

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
