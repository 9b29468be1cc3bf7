// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of keys.c: the whole key table at once.
 */
#include "test.h"

#include <linux/mm.h>
#include <linux/preempt.h>

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

static const struct pks_test key_tests[] = {
	{ PKS_TEST_ALL_KEYS, pks_test_all_keys },
};

PKS_TEST_CATEGORY(pks_key_tests, key_tests);
