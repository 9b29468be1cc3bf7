/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pks_testing.h - what pks.ko exports for pks_test.ko alone, in the
 * PKS_TEST symbol namespace: driver state the tests must observe or set up
 * (registers, counters, the fault ring, range records) that no consumer of
 * pks_api.h has a use for. Nothing here writes protected memory: stray
 * accesses are made by the test module itself.
 */
#ifndef _PKS_TESTING_H
#define _PKS_TESTING_H

#include <linux/mutex.h>
#include <uapi/linux/pks.h>

/* enable.c */

/* One CPU's registers and counters, read on that CPU. */
void pks_fill_cpu_info(unsigned int cpu, struct pks_cpu_info *info);
/* This CPU's PKRS writes and skipped redundant writes; preemption off. */
void pks_counters(u64 *writes, u64 *skipped);
/* This CPU's PKRS writes at interrupt boundaries, and its handlers. */
void pks_boundary_counters(u64 *writes, u32 *handlers);
/* This CPU's cached PKRS, and a write of PKRS through the cache. */
u32 pks_read_pkrs_cache(void);
void pks_write_pkrs(u32 pkrs);
/* Set a key's two bits on this CPU, with no window. */
void pks_set_key_bits(int key, u32 bits);
/* The resume hook: rewrite this CPU's PKRS from the driver's copy. */
void pks_resume_cpu(void);

/* boundary.c: the boundary test's control turns the boundaries off. */
void pks_boundary_enforce(bool on);
/* What the task level's windows hold on this CPU (read from an IPI). */
u32 pks_task_level_pkrs(void);

/* keys.c: -EBUSY, naming the holder in @msg, while any key is held. */
int pks_keys_busy(char *msg, size_t len);

/* log.c: what fault capture placed, and the event log (its ring). */
bool pks_faults_active(void);
bool pks_faults_logging(void);
u64 pks_faults_head(void);
u64 pks_faults_lost(void);
/* Copy record @seq out of the ring: false once it was overwritten. */
bool pks_fault_get(u64 seq, struct pks_fault *f);
/* Hold the ring's lock, as a CPU recording a fault does. */
void pks_faults_ring_lock(unsigned long *flags);
void pks_faults_ring_unlock(unsigned long flags);

/*
 * protect.c. pks_lock serialises every change to the protected ranges;
 * the tests hold it for their whole run, and around __pks_protect() and
 * __pks_unprotect(), which need it.
 */
extern struct mutex pks_lock;
int __pks_protect(struct pks_range *r, u32 flags, char *name, int *key,
		  char *msg);
int __pks_unprotect(phys_addr_t start);
/* The key of the protected range holding [start, start + len), or -1. */
int pks_range_key(phys_addr_t start, u64 len);
/* 0 when [start, start + len) is device-dax or fsdax memory. */
int pks_dax_memory(phys_addr_t start, u64 len);

#endif /* _PKS_TESTING_H */
