// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of protect.c: protecting a device-dax range, and stray writes
 * into it.
 */
#include "test.h"

#include <linux/mm.h>
#include <linux/string.h>

/* Offsets the tests probe: first, middle and last word of the range. */
static u64 pks_test_offset(const struct pks_range *r, int i)
{
	return i == 0 ? 0 : i == 1 ? (r->len / 2) & ~7ULL : r->len - 8;
}

/* Read a word of a protected range through a window. */
static bool pks_test_guarded_read(phys_addr_t pa, int key, u64 *val)
{
	unsigned int prev = pks_window_open(key, PKS_READ_ONLY);
	bool ok = pks_can_read(__va(pa), val);

	pks_window_close(key, prev);
	return ok;
}

/*
 * With every key taken, protecting fails with -ENOSPC, says so, and leaves
 * the range as it was.
 */
static int pks_test_keys_exhausted(struct pks_test_ctx *ctx,
				   struct pks_range *r)
{
	int held[PKS_NR_KEYS], n = 0, i, key, rc, result = PKS_RESULT_PASS;
	u64 val;

	while (n < PKS_NR_KEYS && (held[n] = pks_key_alloc("test:protect",
							   NULL, NULL)) > 0)
		n++;
	rc = __pks_protect(r, 0, NULL, &key, ctx->message);
	if (rc != -ENOSPC || !strstr(ctx->message, "no free protection key"))
		result = pks_test_fail(ctx, "with no key free, protect gave %d", rc);
	else if (pks_range_key(r->start, r->len) >= 0 ||
		 !pks_can_read(__va(r->start), &val))
		result = pks_test_fail(ctx, "a refused protect changed the range");
	if (!rc)
		__pks_unprotect(r->start);
	for (i = 0; i < n; i++)
		pks_key_free(held[i]);
	if (result == PKS_RESULT_PASS)
		memset(ctx->message, 0, sizeof(ctx->message));
	return result;
}

/*
 * protect: protecting the range blocks unguarded kernel reads and writes,
 * windows still reach it, and unprotecting restores plain access. Every
 * write puts back the value that was there.
 */
static int pks_test_protect(struct pks_test_ctx *ctx)
{
	struct pks_range *r = ctx->range;
	int i, key, rc, result = PKS_RESULT_PASS;
	unsigned int prev;
	u64 val, orig, off;
	void *va;

	if (pks_range_key(r->start, r->len) >= 0)
		return pks_test_skip(ctx, "the namespace is protected already; disable it to run this case");
	rc = pks_test_keys_exhausted(ctx, r);
	if (rc)
		return rc;
	rc = __pks_protect(r, 0, NULL, &key, ctx->message);
	if (rc)
		return rc;
	for (i = 0; i < 3 && !result; i++) {
		off = pks_test_offset(r, i);
		va = __va(r->start + off);
		if (!pks_test_guarded_read(r->start + off, key, &orig))
			result = pks_test_fail(ctx, "guarded read at offset %#llx faulted",
					       off);
		else if (pks_can_read(va, &val) || pks_can_write(va, orig))
			result = pks_test_fail(ctx, "unguarded access at offset %#llx worked",
					       off);
		if (result)
			break;
		prev = pks_window_open(key, PKS_READ_WRITE);
		if (!pks_can_write(va, orig))
			result = pks_test_fail(ctx, "guarded write at offset %#llx faulted",
					       off);
		pks_window_close(key, prev);
	}
	rc = __pks_unprotect(r->start);
	if (rc && !result)
		result = pks_test_fail(ctx, "unprotect failed: %d", rc);
	for (i = 0; i < 3 && !result; i++) {
		off = pks_test_offset(r, i);
		va = __va(r->start + off);
		if (!pks_can_read(va, &val) || !pks_can_write(va, val))
			result = pks_test_fail(ctx, "access at offset %#llx faults after unprotect",
					       off);
	}
	return result;
}

/*
 * stray-write: writes with no window into a protected range are refused
 * and leave its data as it was. Uses the range's existing protection if
 * it has one, and leaves it as found.
 */
static int pks_test_stray_write(struct pks_test_ctx *ctx)
{
	struct pks_range *r = ctx->range;
	int i, key, rc, result = PKS_RESULT_PASS;
	u64 before, after, off;
	unsigned int prev;
	bool ours;
	void *va;

	rc = pks_test_use_range(ctx, r, &key, &ours);
	if (rc)
		return rc;
	for (i = 0; i < 3 && !result; i++) {
		off = pks_test_offset(r, i);
		va = __va(r->start + off);
		if (!pks_test_guarded_read(r->start + off, key, &before)) {
			result = pks_test_fail(ctx, "guarded read at offset %#llx faulted",
					       off);
			break;
		}
		if (pks_can_write(va, ~before)) {
			result = pks_test_fail(ctx, "stray write at offset %#llx went through",
					       off);
			/* Put the data back: the protection failed. */
			prev = pks_window_open(key, PKS_READ_WRITE);
			pks_can_write(va, before);
			pks_window_close(key, prev);
			break;
		}
		if (!pks_test_guarded_read(r->start + off, key, &after) ||
		    after != before)
			result = pks_test_fail(ctx, "data at offset %#llx changed: %#llx -> %#llx",
					       off, before, after);
	}
	if (ours)
		__pks_unprotect(r->start);
	return result;
}

static const struct pks_test protect_tests[] = {
	{ PKS_TEST_PROTECT, pks_test_protect },
	{ PKS_TEST_STRAY_WRITE, pks_test_stray_write },
};

PKS_TEST_CATEGORY(pks_protect_tests, protect_tests);
