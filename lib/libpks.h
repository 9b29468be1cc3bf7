/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libpks: userspace access to the pkstool driver (/dev/pks).
 */
#ifndef _LIBPKS_H_
#define _LIBPKS_H_

#include <stdbool.h>
#include <stdint.h>
#include <linux/pks.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PKS_DEFAULT_DEVICE "/dev/pks"

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
bool pks_fault_hook_active(struct pks_ctx *ctx);

struct pks_key *pks_key_get_first(struct pks_ctx *ctx);
struct pks_key *pks_key_get_next(struct pks_key *key);
#define pks_key_foreach(ctx, key)					\
	for (key = pks_key_get_first(ctx); key; key = pks_key_get_next(key))
unsigned int pks_key_get_id(struct pks_key *key);
const char *pks_key_get_owner(struct pks_key *key);
bool pks_key_is_allocated(struct pks_key *key);
bool pks_key_is_reserved(struct pks_key *key);

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

/* Built-in tests. Names come from the uapi header's PKS_TEST_CASES. */
int pks_test_lookup(const char *name);		/* id, or -ENOENT */
const char *pks_test_get_name(unsigned int id);	/* NULL when unknown */
uint32_t pks_test_get_flags(unsigned int id);
int pks_test_run(struct pks_ctx *ctx, unsigned int id,
		 enum pks_test_result *result, char *message, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* _LIBPKS_H_ */
