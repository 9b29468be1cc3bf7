/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pks_test.ko's own declarations. The module sees pks.ko only through
 * pks_api.h and the test-only exports of pks_testing.h.
 */
#ifndef _PKS_TEST_H
#define _PKS_TEST_H

#include "pks_arch.h"
#include "pks_testing.h"

#include <linux/hrtimer.h>
#include <linux/mm_types.h>
#include <uapi/linux/pks_test.h>

/**
 * struct pks_test_page - one vmap()ed page tagged with a protection key
 * @key: the key, allocated for the test, or 0
 * @page: the backing page
 * @addr: its keyed kernel mapping
 */
struct pks_test_page {
	int key;
	struct page *page;
	void *addr;
};

/**
 * struct pks_test_session - state of one open /dev/pks-test
 * @crash_armed: bit 0: the crash test was requested once on this file
 *	(changed with atomic bit operations: no lock is held)
 * @crash_page: the page the crash test faults on, freed on release
 */
struct pks_test_session {
	unsigned long crash_armed;
	struct pks_test_page crash_page;
};

/**
 * struct pks_test_ctx - state of one test run
 * @session: the open file's state, for tests that outlive the call
 * @range: the device-dax range for PKS_TEST_F_NEEDS_DAX cases
 * @message: reason for a failure or skip, reported to userspace
 */
struct pks_test_ctx {
	struct pks_test_session *session;
	struct pks_range *range;
	char message[PKS_MESSAGE_LEN];
};

/**
 * struct pks_test - one built-in test case
 * @id: its enum pks_test_id
 * @run: returns an enum pks_test_result, or -errno when it could not run
 */
struct pks_test {
	enum pks_test_id id;
	int (*run)(struct pks_test_ctx *ctx);
};

/**
 * struct pks_test_category - the test cases one file owns
 * @name: the concern of pks.ko they test
 * @tests: its cases
 * @len: number of @tests
 */
struct pks_test_category {
	const char *name;
	const struct pks_test *tests;
	size_t len;
};

#define PKS_TEST_CATEGORY(cat, table)					\
	const struct pks_test_category cat = {				\
		.name = #cat, .tests = table, .len = ARRAY_SIZE(table) }

extern const struct pks_test_category pks_enable_tests;
extern const struct pks_test_category pks_cpuwindow_tests;
extern const struct pks_test_category pks_task_tests;
extern const struct pks_test_category pks_key_tests;
extern const struct pks_test_category pks_fault_tests;
extern const struct pks_test_category pks_protect_tests;
extern const struct pks_test_category pks_boundary_tests;

/* run.c */
int pks_test_fail(struct pks_test_ctx *ctx, const char *fmt, ...) __printf(2, 3);
int pks_test_skip(struct pks_test_ctx *ctx, const char *fmt, ...) __printf(2, 3);
int pks_test_page_alloc(struct pks_test_page *tp, const char *owner);
int pks_test_page_map(struct pks_test_page *tp, int key);
void pks_test_page_free(struct pks_test_page *tp);
struct dev_pagemap *pks_test_dax_pagemap(phys_addr_t start, u64 len);
bool pks_can_read(const void *addr, u64 *val);
bool pks_can_write(void *addr, u64 val);
int pks_test_run(struct pks_test_session *session, struct pks_test_run *run);
int pks_test_use_range(struct pks_test_ctx *ctx, struct pks_range *r,
		       int *key, bool *ours);

/* stray.c */
int pks_stray_access(struct pks_copy *a);

/* irqstray.c */
int pks_irq_strays(struct pks_irq_strays *req);
int pks_v10_price(struct pks_v10_price *req);
void pks_v10_exit(void);
int pks_fs_strays(struct pks_fs_strays *req);
void pks_fs_strays_exit(void);

/* ipmodify.c */
int pks_ipmodify_try(struct pks_ipmodify *req);

/* carry.c */
int pks_grant_carry(struct pks_grant_carry *req);

/* bench.c */
int pks_bench_run(struct pks_bench *b);

/* upstream.c */
void pks_upstream_init(void);
void pks_upstream_exit(void);

/* A timer and its callback: hrtimer_setup() where the kernel has it. */
static inline void pks_test_hrtimer_setup(struct hrtimer *timer,
		enum hrtimer_restart (*fn)(struct hrtimer *),
		clockid_t clock, enum hrtimer_mode mode)
{
#ifdef PKS_HAS_HRTIMER_SETUP
	hrtimer_setup(timer, fn, clock, mode);
#else
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
#endif
}

#endif /* _PKS_TEST_H */
