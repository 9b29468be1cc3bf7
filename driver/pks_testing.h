/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pks_testing.h - what pks.ko exports for pks_test.ko alone, in the
 * PKS_TEST symbol namespace: driver state the tests must observe or set up
 * (registers, counters, the fault ring, range records) that no consumer of
 * pks_api.h has a use for, each with the reason the tests need it. No
 * lock of the driver's is exported: the tests run under pks_lock through
 * pks_run_locked(), and hold the ring's lock through
 * pks_faults_ring_held(). Nothing here writes protected memory: stray
 * accesses are made by the test module itself.
 */
#ifndef _PKS_TESTING_H
#define _PKS_TESTING_H

#include <linux/types.h>
#include <uapi/linux/pks.h>

/* enable.c */

/* check-defaults, upstream: each CPU's registers, read on that CPU. */
void pks_fill_cpu_info(unsigned int cpu, struct pks_cpu_info *info);
/* The guard and bench figures: this CPU's PKRS writes and skipped ones. */
void pks_counters(u64 *writes, u64 *skipped);
/* The irq bench figure: PKRS writes at interrupt boundaries, handlers. */
void pks_boundary_counters(u64 *writes, u32 *handlers);
/* Cases that check what a window left in this CPU's PKRS copy. */
u32 pks_read_pkrs_cache(void);
/* resume: clobber this CPU's PKRS, as a lost register would be... */
void pks_write_pkrs(u32 pkrs);
/* A full TLB flush on this CPU, global entries included (cr4.c). */
void pks_flush_tlb_local(void);
/* ...and the resume hook that must rewrite it from the driver's copy. */
void pks_resume_cpu(void);

/* boundary.c */

/* boundary: its control turns the interrupt boundaries off. */
void pks_boundary_enforce(bool on);
/* ipi-race: what the task level's windows hold on a CPU (from an IPI). */
u32 pks_task_level_pkrs(void);
/* grant-scope: its control lets grants outlive their callback. */
void pks_callback_ends_enforce(bool on);

/* ownercopy.c */

/* ownercopy: its control turns the owner's copy brackets off. */
void pks_brackets_enable(bool on);

/* legit.c */

/*
 * irq-strays: its control gives hard interrupts the held-page rule and
 * lets the interrupted context's frames count, as before the contexts
 * were told apart.
 */
void pks_legit_context_enforce(bool on);

/* keys.c */

/* all-keys, resume: -EBUSY, naming the holder, while any key is held. */
int pks_keys_busy(char *msg, size_t len);

/* log.c */

/* Cases that need a fault probe placed skip without one. */
bool pks_faults_active(void);
bool pks_faults_logging(void);
/* Cases that count the records their stray accesses made, and lost ones. */
u64 pks_faults_head(void);
u64 pks_faults_lost(void);
/* ...and read one back: false once it was overwritten. */
bool pks_fault_get(u64 seq, struct pks_fault *f);
/* nmi: an NMI on a CPU holding the ring's lock must not deadlock. */
bool pks_faults_ring_held(bool (*fn)(void *arg), void *arg);

/* core.c */

/* Cases run with the ranges held still: pks_lock, which protect needs. */
int pks_run_locked(int (*fn)(void *arg), void *arg);

/* protect.c */

/* protect, stray-write, boundary: protect their range; pks_lock held. */
int __pks_protect(struct pks_range *r, u32 flags, char *name, int *key,
		  char *msg);
int __pks_unprotect(phys_addr_t start);
/* Whether the test's range is protected already, and with which key. */
int pks_range_key(phys_addr_t start, u64 len);

/* rangecheck.c */

/* Stray accesses target device-dax or fsdax memory and nothing else. */
int pks_dax_memory(phys_addr_t start, u64 len);

#endif /* _PKS_TESTING_H */
