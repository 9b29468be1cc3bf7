// SPDX-License-Identifier: GPL-2.0
/*
 * The built-in test cases' dispatcher, and helpers the cases share.
 */
#include "test.h"

#include <linux/bitops.h>
#include <linux/gfp.h>
#include <linux/memremap.h>
#include <linux/mm.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

static const struct pks_test_category *pks_test_categories[] = {
	&pks_enable_tests,
	&pks_cpuwindow_tests,
	&pks_task_tests,
	&pks_key_tests,
	&pks_fault_tests,
	&pks_protect_tests,
	&pks_boundary_tests,
};

#define ___PKS_T(id, name, flags) name
static const char *const pks_test_names[] = PKS_TEST_CASES;
#undef ___PKS_T

#define ___PKS_T(id, name, flags) flags
static const u32 pks_test_flags[] = PKS_TEST_CASES;
#undef ___PKS_T

static __printf(3, 0) int pks_test_message(struct pks_test_ctx *ctx,
					    int result, const char *fmt,
					    va_list ap)
{
	vsnprintf(ctx->message, sizeof(ctx->message), fmt, ap);
	return result;
}

int pks_test_fail(struct pks_test_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = pks_test_message(ctx, PKS_RESULT_FAIL, fmt, ap);
	va_end(ap);
	return rc;
}

int pks_test_skip(struct pks_test_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = pks_test_message(ctx, PKS_RESULT_SKIP, fmt, ap);
	va_end(ap);
	return rc;
}

/* Map a zeroed page through a second, keyed mapping (key 0 frees none). */
int pks_test_page_map(struct pks_test_page *tp, int key)
{
	memset(tp, 0, sizeof(*tp));
	tp->page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (!tp->page)
		return -ENOMEM;
	tp->addr = vmap(&tp->page, 1, VM_MAP, pks_pgprot(PAGE_KERNEL, key));
	if (!tp->addr) {
		__free_page(tp->page);
		tp->page = NULL;
		return -ENOMEM;
	}
	tp->key = key;
	return 0;
}

int pks_test_page_alloc(struct pks_test_page *tp, const char *owner)
{
	int key, rc;

	memset(tp, 0, sizeof(*tp));
	key = pks_key_alloc(owner, NULL, NULL);
	if (key < 0)
		return key;
	rc = pks_test_page_map(tp, key);
	if (rc)
		pks_key_free(key);
	return rc;
}

void pks_test_page_free(struct pks_test_page *tp)
{
	if (tp->addr)
		vunmap(tp->addr);
	if (tp->page)
		__free_page(tp->page);
	if (tp->key > 0)
		pks_key_free(tp->key);
	memset(tp, 0, sizeof(*tp));
}

/*
 * The pagemap of device-dax or fsdax memory at [@start, @start + @len),
 * held: strays and test accesses go only there, never to any address,
 * and a namespace torn down meanwhile would take its direct map with it.
 * NULL for any other memory. The caller puts it.
 */
struct dev_pagemap *pks_test_dax_pagemap(phys_addr_t start, u64 len)
{
	struct dev_pagemap *pgmap = pks_get_dev_pagemap(PHYS_PFN(start));

	if (pgmap && pks_dax_memory(start, len)) {
		put_dev_pagemap(pgmap);
		return NULL;
	}
	return pgmap;
}

bool pks_can_read(const void *addr, u64 *val)
{
	return copy_from_kernel_nofault(val, addr, sizeof(*val)) == 0;
}

bool pks_can_write(void *addr, u64 val)
{
	pagefault_disable();
	__put_kernel_nofault(addr, &val, u64, fault);
	pagefault_enable();
	return true;
fault:
	pagefault_enable();
	return false;
}

static const struct pks_test *pks_test_find(enum pks_test_id id)
{
	size_t c, i;

	for (c = 0; c < ARRAY_SIZE(pks_test_categories); c++)
		for (i = 0; i < pks_test_categories[c]->len; i++)
			if (pks_test_categories[c]->tests[i].id == id)
				return &pks_test_categories[c]->tests[i];
	return NULL;
}

static int pks_test_fire_crash(struct pks_test_session *session,
			       struct pks_test_run *run,
			       const struct pks_test *test)
{
	struct pks_test_ctx ctx = { .session = session };
	bool armed;

	armed = test_and_change_bit(0, &session->crash_armed);
	if (!armed) {
		run->result = PKS_RESULT_ARMED;
		strscpy(run->message, "armed: request it again to crash",
			sizeof(run->message));
		return 0;
	}
	/* Runs without pks_lock, which the dying task would keep. */
	run->result = test->run(&ctx);
	memcpy(run->message, ctx.message, sizeof(run->message));
	return 0;
}

/* A case and its context, run under pks_lock by pks_run_locked(). */
struct pks_test_call {
	const struct pks_test *test;
	struct pks_test_ctx *ctx;
};

static int pks_test_call(void *arg)
{
	struct pks_test_call *call = arg;

	return call->test->run(call->ctx);
}

int pks_test_run(struct pks_test_session *session, struct pks_test_run *run)
{
	struct pks_test_ctx ctx = { .session = session, .range = &run->range };
	struct pks_test_call call = { .ctx = &ctx };
	const struct pks_test *test;
	int rc;

	if (run->test >= PKS_TEST_NR)
		return -ENOENT;
	test = pks_test_find(run->test);
	if (!test)
		return -ENOENT;
	call.test = test;
	if ((pks_test_flags[run->test] & PKS_TEST_F_NEEDS_DAX) &&
	    !run->range.len) {
		run->result = PKS_RESULT_SKIP;
		strscpy(run->message, "needs a device-dax namespace",
			sizeof(run->message));
		return 0;
	}
	if (pks_test_flags[run->test] & PKS_TEST_F_CRASHES)
		return pks_test_fire_crash(session, run, test);

	clear_bit(0, &session->crash_armed);
	pr_info("test %s: start\n", pks_test_names[run->test]);
	rc = pks_run_locked(pks_test_call, &call);

	memcpy(run->message, ctx.message, sizeof(run->message));
	if (rc < 0) {
		pr_info("test %s: cannot run: %d %s\n",
			pks_test_names[run->test], rc, ctx.message);
		return rc;
	}
	run->result = rc;
	pr_info("test %s: %s%s%s\n", pks_test_names[run->test],
		rc == PKS_RESULT_PASS ? "pass" :
		rc == PKS_RESULT_SKIP ? "skip" : "FAIL",
		ctx.message[0] ? ": " : "", ctx.message);
	return 0;
}

/**
 * pks_test_use_range() - the key protecting @r, protecting it if need be
 * @ctx: the test, whose message says why protecting failed
 * @r: the test's device-dax range
 * @key: set to the range's key
 * @ours: set when the case protected it, and must end that
 *
 * Return: 0, or -errno from protecting it.
 */
int pks_test_use_range(struct pks_test_ctx *ctx, struct pks_range *r,
		       int *key, bool *ours)
{
	*ours = false;
	*key = pks_range_key(r->start, r->len);
	if (*key >= 0)
		return 0;
	*ours = true;
	return __pks_protect(r, 0, NULL, key, ctx->message);
}
