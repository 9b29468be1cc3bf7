/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PKS_INTERNAL_H
#define _PKS_INTERNAL_H

#include "pks_arch.h"
#include "pks_testing.h"

#include <linux/atomic.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/poll.h>

/* accounting.c */
void pks_acct_add(enum pks_acct kind, long delta);
long pks_acct_count(enum pks_acct kind);
void pks_acct_fill(struct pks_accounting *a);
void pks_acct_report(void);

/* daxguard.c */
int pks_dax_guard_arm(void);
bool pks_dax_guard_missing(void);
const char *pks_dax_guard_symbol(void);
void pks_dax_guard_exit(void);

/* cr4.c */
int pks_cr4_init(void);
void pks_cr4_exit(void);
void pks_cr4_update(bool on);

/* enable.c */
bool pks_cpu_supported(void);
void pks_set_key_bits(int key, u32 bits);
int pks_enable_all(void);
void pks_disable_all(void);

/* Context levels, as interrupt_context_level() numbers them. */
#define PKS_LEVEL_TASK		0
#define PKS_LEVEL_SOFTIRQ	1
#define PKS_LEVEL_HARDIRQ	2
#define PKS_LEVEL_NMI		3
#define PKS_LEVELS		4
/* The fault hooks' slots: one per level below NMI, then nested NMI-levels. */
#define PKS_NMI_SLOTS		3
#define PKS_HOOK_SLOTS		(PKS_LEVEL_NMI + PKS_NMI_SLOTS)

/* boundary.c */
u32 pks_level_pkrs(int level);
void pks_level_set_key(int level, int key, u32 bits);
void pks_level_set_task(u32 pkrs);
void pks_level_drop_key(int key);
bool pks_level_traced(int level);
int pks_boundary_init(void);
void pks_boundary_exit_all(void);
void pks_boundary_fill(struct pks_grants *g, bool counts);

/* enable.c: the register may differ from the copy (an NMI reset it). */
void pks_pkrs_lost(void);
void pks_fill_cpu_info_as(unsigned int cpu, struct pks_cpu_info *info,
			  bool live);
void pks_write_pkrs_boundary(u32 pkrs);

/* task.c */
u32 pks_key_frees(void);
bool pks_key_freed_since(int key, u32 frees);
u32 pks_close_freed_keys(u32 pkrs, u32 frees);
struct pks_task *pks_task_find(void);
struct pks_task *pks_task_get(struct pks_task *own, bool modref);
void pks_bracket_window_open(int key, struct pks_task_window *w);
void pks_task_put(struct pks_task *t);
void pks_task_set_key(struct pks_task *t, int key, u32 bits);
int pks_tasks_init(void);
void pks_tasks_exit(void);

/* legit.c */
struct pt_regs;

enum pks_grant_kind {
	PKS_GRANT_TASK,
	PKS_GRANT_SOFTIRQ,
	PKS_GRANT_HARDIRQ,
	PKS_GRANT_STEPPED,
	PKS_GRANT_KINDS
};

/* pks_grant()'s @rule beside an enum pks_rule_id: who else grants. */
#define PKS_GRANT_OWNER_CB	(-1)	/* a key owner's fault callback */
#define PKS_GRANT_RELAXED	(-2)	/* a stray in a relaxed namespace */

int pks_legit_rule(unsigned long address, struct pt_regs *fregs);
bool pks_grant(int key, u32 bits, int rule);
bool pks_refill(int key, bool write);
bool pks_spurious(unsigned long address, int key, bool write);
void pks_grants_arm(void);
void pks_grants_disarm(void);
int pks_grants_init(void);
void pks_grants_exit(void);
void pks_grants_cpu_down(void);
void pks_grants_fill(struct pks_grants *g, bool counts);

/* keys.c */
void pks_fill_key_info(struct pks_key_info *keys);
bool pks_key_fault_cb(int key, unsigned long address, bool write);
bool pks_key_has_callback(int key);
bool pks_key_owner(int key, char *owner, bool *has_cb);

/**
 * struct pks_prot - one protected range
 * @list: entry in pks_prots
 * @start: physical start
 * @len: length in bytes
 * @key: the key tagging it
 * @leaf_size: size of the direct-map pages mapping it
 * @keyed_leaves: direct-map leaves found keyed after its last retag
 * @dev: the dax device, referenced while protected
 * @dax_dev: for fsdax, the block device's dax_device, referenced
 * @disk: for fsdax, its gendisk, compared only (never followed) by the
 *	owner's copy brackets; it lives as long as @dev is bound
 * @fsdax: an fsdax namespace: @dev is its nd device
 * @mode: enum pks_mode, read locklessly by the fault path
 * @faults: stray accesses recorded on the range
 * @users: one for the list, one per task window on the range; the range
 *	is restored only once it drops to zero
 * @name: its name
 */
struct dax_device;
struct gendisk;

struct pks_prot {
	struct list_head list;
	phys_addr_t start;
	u64 len;
	int key;
	unsigned long leaf_size;
	long keyed_leaves;
	struct device *dev;
	struct dax_device *dax_dev;
	const struct gendisk *disk;
	bool fsdax;
	u32 mode;
	atomic64_t faults;
	atomic_t users;
	char name[PKS_NAME_LEN];
};

/* rangecheck.c: each check fills in @msg when it refuses. */
__printf(3, 4) int pks_refuse(char *msg, int rc, const char *fmt, ...);
bool pks_dev_alive(struct device *dev);
int pks_check_memory(const struct pks_range *r, int type, char *msg);
int pks_check_mapping(const struct pks_range *r, struct pks_prot *p,
		      char *msg);
int pks_check_blockdev(struct pks_range *r, struct pks_prot *p, char *msg);
int pks_check_leaves(struct pks_prot *p, char *msg);

/* directmap.c */
int pks_addr_key(unsigned long address);
void __pks_set_range_key(struct pks_prot *p, int key);

/* protect.c; pks_lock is core.c's, which says what it guards. */
extern struct mutex pks_lock;
int __pks_set_mode(phys_addr_t start, u32 mode);
struct pks_prot *pks_prot_holding(phys_addr_t start, u64 len);
struct pks_prot *pks_prot_of_owner(const struct dax_device *dax_dev,
				   const struct gendisk *disk);
struct pks_prot *pks_prot_at(unsigned long address, char *name, u64 *offset,
			     int *mode);
void pks_prot_count_fault(struct pks_prot *p);
int pks_list_ranges(struct pks_range_info *info, unsigned int nr);
void pks_protect_init(void);
void pks_protect_exit(void);

/* ownercopy.c; pks_lock held for the first two. */
void pks_brackets_place(void);
void pks_brackets_remove(void);
void pks_brackets_exit(void);
void pks_brackets_fill(struct pks_brackets *out, bool counts);

/* access.c */
int pks_range_copy(struct pks_copy *a);

/* log.c */
void pks_log_init(void);
void pks_log_exit(void);
void pks_log_fault(struct pks_fault *f);
void pks_log_event(enum pks_event event, const char *name, int key,
		   bool relaxed);
void pks_log_set_capture(bool active, bool logging);
int pks_faults_read(struct pks_faults *req, struct pks_fault __user *out,
		    bool addresses);
__poll_t pks_faults_poll(struct file *file, poll_table *wait, u64 seen);

/*
 * oops.c: the page_fault_oops() hook; steps for the fixup hook too, and
 * places both as ftrace_ops.
 */
struct pt_regs;
struct ftrace_ops;
struct ftrace_regs;
int pks_hook_enter(void);
void pks_hook_exit(int slot);
int pks_hook_place(struct ftrace_ops *ops,
		   void (*func)(unsigned long ip, unsigned long parent_ip,
				struct ftrace_ops *op,
				struct ftrace_regs *fregs),
		   const char *name);
void pks_hook_remove(struct ftrace_ops *ops);
void pks_hooks_gone(void);
bool pks_oops_init(void);
void pks_oops_exit(void);
bool pks_allow_once(struct pt_regs *fregs, int key, u32 bits);
bool pks_relaxed_allow(struct pt_regs *fregs, int key, bool write);
int pks_retry(struct pt_regs *regs);

/* faults.c */
int pks_faults_init(void);
void pks_faults_exit(void);
u64 pks_fault_probe_hits(void);
bool pks_faults_pinned(void);

/**
 * struct pks_session - state of one open /dev/pks
 * @fault_seen: the next fault sequence number this reader has not read
 * @holder: who opened it, for PKS_IOC_HOLDERS
 * @list: in the list of open files (core.c)
 */
struct pks_session {
	u64 fault_seen;
	struct pks_holder holder;
	struct list_head list;
};

/* warnonce.c: after pks_faults_init(), undone once nothing is keyed. */
void pks_warnonce_init(void);
void pks_warnonce_exit(void);
bool pks_pk_warn_silenced(void);

/* core.c */
int pks_holders_fill(struct pks_holder *out, unsigned int nr);

/* ioctl.c */
long pks_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

#endif /* _PKS_INTERNAL_H */
