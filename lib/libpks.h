/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libpks: userspace access to the pkstool driver (/dev/pks).
 */
#ifndef _LIBPKS_H_
#define _LIBPKS_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/pks.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PKS_DEFAULT_DEVICE "/dev/pks"
#define PKS_DEFAULT_TEST_DEVICE "/dev/pks-test"

struct pks_ctx;
struct pks_key;
struct pks_cpu;

/* Context: opens the device named by $PKS_DEVICE or /dev/pks, if present. */
int pks_new(struct pks_ctx **ctx);
struct pks_ctx *pks_ref(struct pks_ctx *ctx);
void pks_unref(struct pks_ctx *ctx);
void pks_set_log_priority(struct pks_ctx *ctx, int priority);

/* CPUID.(EAX=7,ECX=0):ECX bit 31, read in userspace: needs no driver. */
bool pks_cpu_has_pks(void);

/* 0 when the driver answers; -ENOENT when the device is absent, -EACCES
 * when it cannot be opened, or the error its first ioctl returned. */
int pks_driver_status(struct pks_ctx *ctx);
const char *pks_device_path(struct pks_ctx *ctx);

/* Snapshot of the driver's state; the key and cpu lists read from it. */
int pks_refresh(struct pks_ctx *ctx);
unsigned int pks_get_abi_version(struct pks_ctx *ctx);
uint32_t pks_get_default_pkrs(struct pks_ctx *ctx);
bool pks_fault_hook_active(struct pks_ctx *ctx);	/* callbacks, relaxed */
bool pks_fault_log_active(struct pks_ctx *ctx);		/* faults recorded */

struct pks_key *pks_key_get_first(struct pks_ctx *ctx);
struct pks_key *pks_key_get_next(struct pks_key *key);
#define pks_key_foreach(ctx, key)					\
	for (key = pks_key_get_first(ctx); key; key = pks_key_get_next(key))
unsigned int pks_key_get_id(struct pks_key *key);
const char *pks_key_get_owner(struct pks_key *key);
bool pks_key_is_allocated(struct pks_key *key);
bool pks_key_is_reserved(struct pks_key *key);

/*
 * Kernel paths granted access to protected namespaces (ptrace, pipes, core
 * dumps, ...): whether they are probed now, and per path how many calls
 * were seen and how many keys were granted inside them. From the last
 * pks_refresh().
 */
struct pks_path;
bool pks_grants_armed(struct pks_ctx *ctx);
unsigned int pks_get_tasks_attached(struct pks_ctx *ctx);
uint64_t pks_get_fault_probe_hits(struct pks_ctx *ctx);
struct pks_path *pks_path_get_first(struct pks_ctx *ctx);
struct pks_path *pks_path_get_next(struct pks_path *path);
#define pks_path_foreach(ctx, path)					\
	for (path = pks_path_get_first(ctx); path;			\
	     path = pks_path_get_next(path))
const char *pks_path_get_name(struct pks_path *path);
unsigned int pks_path_get_functions(struct pks_path *path);
unsigned int pks_path_get_probed(struct pks_path *path);
uint64_t pks_path_get_calls(struct pks_path *path);
uint64_t pks_path_get_grants(struct pks_path *path);
uint64_t pks_path_get_missed(struct pks_path *path);

struct pks_cpu *pks_cpu_get_first(struct pks_ctx *ctx);
struct pks_cpu *pks_cpu_get_next(struct pks_cpu *cpu);
#define pks_cpu_foreach(ctx, cpu)					\
	for (cpu = pks_cpu_get_first(ctx); cpu; cpu = pks_cpu_get_next(cpu))
unsigned int pks_cpu_get_id(struct pks_cpu *cpu);
bool pks_cpu_is_online(struct pks_cpu *cpu);
bool pks_cpu_get_cr4_pks(struct pks_cpu *cpu);
uint32_t pks_cpu_get_pkrs(struct pks_cpu *cpu);
uint32_t pks_cpu_get_pkrs_cached(struct pks_cpu *cpu);
uint64_t pks_cpu_get_pkrs_writes(struct pks_cpu *cpu);
uint64_t pks_cpu_get_pkrs_skipped(struct pks_cpu *cpu);

/*
 * pmem namespaces (from libndctl and libdaxctl) and their protection.
 * Identifiers: "namespace0.0", "dax0.0" or "/dev/dax0.0".
 */
struct pks_ns;
int pks_ns_scan(struct pks_ctx *ctx);
struct pks_ns *pks_ns_get_first(struct pks_ctx *ctx);
struct pks_ns *pks_ns_get_next(struct pks_ns *ns);
#define pks_ns_foreach(ctx, ns)						\
	for (ns = pks_ns_get_first(ctx); ns; ns = pks_ns_get_next(ns))
struct pks_ns *pks_ns_find(struct pks_ctx *ctx, const char *ident);
const char *pks_ns_get_name(struct pks_ns *ns);
const char *pks_ns_get_mode(struct pks_ns *ns);	/* devdax, fsdax, ... */
/* The UUID 'ndctl list -N' shows, lower case; NULL when it has none. */
const char *pks_ns_get_uuid(struct pks_ns *ns);
struct pks_ns *pks_ns_find_by_uuid(struct pks_ctx *ctx, const char *uuid);
bool pks_ns_is_devdax(struct pks_ns *ns);
const char *pks_ns_get_chardev(struct pks_ns *ns);	/* NULL unless devdax */
const char *pks_ns_get_blockdev(struct pks_ns *ns);	/* NULL unless fsdax */
/* The device a protection is named after: chardev or blockdev, or NULL. */
const char *pks_ns_get_device(struct pks_ns *ns);
bool pks_ns_can_protect(struct pks_ns *ns);		/* devdax or fsdax */
uint64_t pks_ns_get_size(struct pks_ns *ns);
/*
 * The physical range: the dax device's for devdax, the protected data
 * area for a protected fsdax namespace, else the namespace's.
 */
uint64_t pks_ns_get_resource(struct pks_ns *ns);
uint64_t pks_ns_get_range_size(struct pks_ns *ns);
bool pks_ns_is_protected(struct pks_ns *ns);
int pks_ns_get_key(struct pks_ns *ns);		/* -1 when unprotected */
int pks_ns_protect(struct pks_ns *ns, enum pks_mode mode, char *why,
		   size_t len);
int pks_ns_set_mode(struct pks_ns *ns, enum pks_mode mode);
int pks_ns_get_protection_mode(struct pks_ns *ns);	/* -1 unprotected */
uint64_t pks_ns_get_faults(struct pks_ns *ns);
const char *pks_mode_name(int mode);			/* NULL when unknown */
int pks_mode_lookup(const char *name);			/* or -EINVAL */
int pks_ns_unprotect(struct pks_ns *ns);
/*
 * A copy through an access window (flags 0 or PKS_COPY_F_WRITE), on
 * /dev/pks; with PKS_COPY_F_UNGUARDED or PKS_COPY_F_PLAIN a stray access
 * with no window, on the test module's device (see pks_test_status()).
 */
int pks_ns_copy(struct pks_ns *ns, uint64_t offset, void *buf, size_t len,
		uint32_t flags, uint64_t *done);

/* Raw range calls, for tools that test the driver's own checks. */
int pks_range_protect(struct pks_ctx *ctx, const struct pks_range *range,
		      uint32_t flags, int *key, char *why, size_t len);

/*
 * The fault log. pks_faults_refresh() reads the records from @since on
 * (1: the oldest kept) into the context and says how many the ring had
 * already dropped; pks_faults_head() is where the next record will go;
 * pks_faults_wait() polls for a record not read yet.
 */
int pks_faults_refresh(struct pks_ctx *ctx, uint64_t since, uint64_t *dropped);
int pks_faults_head(struct pks_ctx *ctx, uint64_t *head);
uint64_t pks_faults_get_next_seq(struct pks_ctx *ctx);
int pks_faults_wait(struct pks_ctx *ctx, int timeout_ms);
const struct pks_fault *pks_fault_get_first(struct pks_ctx *ctx);
const struct pks_fault *pks_fault_get_next(struct pks_ctx *ctx,
					   const struct pks_fault *f);
#define pks_fault_foreach(ctx, f)					\
	for (f = pks_fault_get_first(ctx); f; f = pks_fault_get_next(ctx, f))
const char *pks_fault_outcome_name(uint32_t outcome);

/* /proc/sys/kernel/panic_on_warn: 1, 0, or -errno. */
int pks_panic_on_warn(void);

/*
 * Built-in tests, in the test module pks_test.ko: its device is named by
 * $PKS_TEST_DEVICE or /dev/pks-test, opened at the first call that needs
 * it. pks_test_status() is 0 when it answers, -ENOENT when it is absent
 * (the module is not loaded), or why it cannot be opened. Names come from
 * the uapi header's PKS_TEST_CASES.
 */
int pks_test_status(struct pks_ctx *ctx);
const char *pks_test_device_path(struct pks_ctx *ctx);
int pks_test_lookup(const char *name);		/* id, or -ENOENT */
const char *pks_test_get_name(unsigned int id);	/* NULL when unknown */
uint32_t pks_test_get_flags(unsigned int id);
/* @ns may be NULL; cases that need a devdax namespace then skip. */
int pks_test_run(struct pks_ctx *ctx, unsigned int id, struct pks_ns *ns,
		 enum pks_test_result *result, char *message, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* _LIBPKS_H_ */
