/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PKS_INTERNAL_H
#define _PKS_INTERNAL_H

#include "pks_arch.h"
#include "pks_testing.h"

#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/poll.h>

/* accounting.c */
void pks_acct_add(enum pks_acct kind, long delta);
long pks_acct_count(enum pks_acct kind);
void pks_acct_fill(struct pks_accounting *a);
void pks_acct_report(void);

/* daxguard.c */
void pks_dax_guard_arm(void);
void pks_dax_guard_exit(void);

/* enable.c */
bool pks_cpu_supported(void);
int pks_enable_all(void);
void pks_disable_all(void);

/* Context levels, as interrupt_context_level() numbers them. */
#define PKS_LEVEL_TASK		0
#define PKS_LEVEL_SOFTIRQ	1
#define PKS_LEVEL_HARDIRQ	2
#define PKS_LEVEL_NMI		3
#define PKS_LEVELS		4

/* boundary.c */
u32 pks_win_pkrs(int level);
void pks_win_set_key(int level, int key, u32 bits);
void pks_win_set_task(u32 pkrs);
void pks_win_drop_key(int key);
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
struct pks_task *pks_task_find(void);
struct pks_task *pks_task_get(struct pks_task *own);
void pks_task_put(struct pks_task *t);
void pks_task_set_key(struct pks_task *t, int key, u32 bits);
int pks_tasks_init(void);
void pks_tasks_exit(void);

/* legit.c */
enum pks_grant_kind {
	PKS_GRANT_TASK,
	PKS_GRANT_SOFTIRQ,
	PKS_GRANT_HARDIRQ,
	PKS_GRANT_STEPPED,
	PKS_GRANT_KINDS
};

int pks_legit_rule(unsigned long address, unsigned long ip,
		   const unsigned long *frames, unsigned int nr);
void pks_grant_hold_task(void);
bool pks_grant(int key, u32 bits, int rule);
bool pks_refill(int key, bool write);
bool pks_spurious(unsigned long address, int key, bool write);
void pks_grants_arm(void);
void pks_grants_disarm(void);
void pks_grants_init(void);
void pks_grants_exit(void);
void pks_grants_fill(struct pks_grants *g, bool counts);

/* keys.c */
void pks_fill_key_info(struct pks_key_info *keys);
bool pks_key_fault_cb(int key, unsigned long address, bool write);
bool pks_key_has_callback(int key);
bool pks_key_owner(int key, char *owner, bool *has_cb);

/* protect.c */
int __pks_set_mode(phys_addr_t start, u32 mode);
struct pks_prot;
struct pks_prot *pks_prot_at(unsigned long address, char *name, u64 *offset,
			     int *mode);
void pks_prot_count_fault(struct pks_prot *p);
int pks_list_ranges(struct pks_range_info *info, unsigned int nr);
int pks_range_copy(struct pks_copy *a);
void pks_protect_init(void);
void pks_protect_exit(void);

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

/* faults.c */
int pks_faults_init(void);
void pks_faults_exit(void);
u64 pks_fault_probe_hits(void);

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

/* core.c */
int pks_holders_fill(struct pks_holder *out, unsigned int nr);

/* ioctl.c */
long pks_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

#endif /* _PKS_INTERNAL_H */
