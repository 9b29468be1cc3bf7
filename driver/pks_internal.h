/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PKS_INTERNAL_H
#define _PKS_INTERNAL_H

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/types.h>
#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/pgtable.h>
#include <uapi/linux/pks.h>
#include <linux/pks_api.h>

/* Not defined by 6.1 headers; the values are architectural. */
#ifndef MSR_IA32_PKRS
#define MSR_IA32_PKRS		0x000006e1
#endif
#ifndef X86_CR4_PKS
#define X86_CR4_PKS		_BITUL(24)
#endif
#define PKS_CPUID_ECX_BIT	31	/* CPUID.(EAX=7,ECX=0):ECX */

/* Bits 59..62 of a leaf page-table entry hold its protection key. */
#define PKS_PTE_KEY_SHIFT	59
#define PKS_PTE_KEY_MASK	(0xfULL << PKS_PTE_KEY_SHIFT)

/* Key 0 read-write (untagged memory), every other key access-disabled. */
#define PKS_DEFAULT_PKRS	0x55555554u

static inline u32 pks_key_bits(int key, u32 pkrs)
{
	return (pkrs >> PKS_PKRS_SHIFT(key)) & (PKS_PKRS_AD | PKS_PKRS_WD);
}

static inline pgprot_t pks_pgprot(pgprot_t prot, int key)
{
	return __pgprot((pgprot_val(prot) & ~PKS_PTE_KEY_MASK) |
			((u64)key << PKS_PTE_KEY_SHIFT));
}

/* enable.c */
bool pks_cpu_supported(void);
int pks_enable_all(void);
void pks_disable_all(void);
void pks_write_pkrs(u32 pkrs);
void pks_resync_all(void);
u32 pks_read_pkrs_cache(void);
void pks_fill_cpu_info(unsigned int cpu, struct pks_cpu_info *info);
void pks_counters(u64 *writes, u64 *skipped);

/* task.c */
struct pks_task *pks_task_find(void);
struct pks_task *pks_task_get(struct pks_task *own);
void pks_task_put(struct pks_task *t);
void pks_task_set_key(struct pks_task *t, int key, u32 bits);
void pks_task_restore(struct pks_task *t, u32 pkrs, u32 granted,
		      unsigned int gen);
bool pks_task_grant(struct pks_task *t, int key, bool write);
void pks_callback_grant(int key, u32 bits);
void pks_task_revoke(void);
void pks_task_revoke_local(void);
unsigned int pks_tasks_attached_count(void);
int pks_tasks_init(void);
void pks_tasks_exit(void);

/* grants.c */
bool pks_grant_fault(int key, bool write);
void pks_grants_arm(void);
void pks_grants_disarm(void);
void pks_grants_exit(void);
void pks_grants_fill(struct pks_grants *g);

/* guards.c */
void pks_set_key_bits(int key, u32 bits);

/* keys.c */
bool pks_key_valid(int key);
void pks_fill_key_info(struct pks_key_info *keys);
bool pks_key_fault_cb(int key, unsigned long address, bool write);
bool pks_key_has_callback(int key);
bool pks_key_owner(int key, char *owner, bool *has_cb);
int pks_keys_busy(char *msg, size_t len);

/*
 * pks_lock serialises the built-in tests and every change to the protected
 * ranges, so that a test that needs every key, or a range, sees a stable
 * state. Nothing sleeps inside a PKRS window while holding it.
 */
extern struct mutex pks_lock;

/* protect.c */
int __pks_protect(struct pks_range *r, u32 flags, char *name, int *key,
		  char *msg);
int __pks_unprotect(phys_addr_t start);
int __pks_set_mode(phys_addr_t start, u32 mode);
int pks_prot_fault(unsigned long address, char *name, u64 *offset,
		   bool count);
int pks_list_ranges(struct pks_range_info *info, unsigned int nr);
int pks_range_copy(struct pks_copy *a);
void pks_protect_exit(void);

/* bench.c */
int pks_bench_run(struct pks_bench *b);

/* faults.c */
int pks_faults_init(void);
void pks_faults_exit(void);
bool pks_faults_active(void);
bool pks_faults_logging(void);
u64 pks_fault_probe_hits(void);
u64 pks_faults_lost(void);
int pks_faults_read(struct pks_faults *req, struct pks_fault __user *out);
u64 pks_faults_head(void);
__poll_t pks_faults_poll(struct file *file, poll_table *wait, u64 seen);

/* tests.c */

/**
 * struct pks_test_ctx - state of one test run
 * @session: the open file's state, for tests that outlive the call
 * @range: the device-dax range for PKS_TEST_F_NEEDS_DAX cases
 * @message: reason for a failure or skip, reported to userspace
 */
struct pks_test_ctx {
	struct pks_session *session;
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
 * @name: the owning concern
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
extern const struct pks_test_category pks_guard_tests;
extern const struct pks_test_category pks_task_tests;
extern const struct pks_test_category pks_key_tests;
extern const struct pks_test_category pks_fault_tests;
extern const struct pks_test_category pks_protect_tests;

/**
 * struct pks_test_page - one vmap()ed page tagged with a protection key
 * @key: the key, allocated for the test
 * @page: the backing page
 * @addr: its keyed kernel mapping
 */
struct pks_test_page {
	int key;
	struct page *page;
	void *addr;
};

int pks_test_fail(struct pks_test_ctx *ctx, const char *fmt, ...) __printf(2, 3);
int pks_test_skip(struct pks_test_ctx *ctx, const char *fmt, ...) __printf(2, 3);
int pks_test_page_alloc(struct pks_test_page *tp, const char *owner);
int pks_test_page_map(struct pks_test_page *tp, int key);
void pks_test_page_free(struct pks_test_page *tp);
bool pks_can_read(const void *addr, u64 *val);
bool pks_can_write(void *addr, u64 val);
int pks_test_run(struct pks_session *session, struct pks_test_run *run);

/**
 * struct pks_session - state of one open /dev/pks
 * @crash_armed: the crash test was requested once on this file
 * @crash_page: the page the crash test faults on, freed on release
 * @fault_seen: the next fault sequence number this reader has not read
 */
struct pks_session {
	bool crash_armed;
	struct pks_test_page crash_page;
	u64 fault_seen;
};

void pks_session_release(struct pks_session *session);

/* ioctl.c */
long pks_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

#endif /* _PKS_INTERNAL_H */
