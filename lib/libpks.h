/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libpks: userspace access to the pkstool driver (/dev/pks).
 *
 * Errors: every function that can fail returns 0 (or a count, where it
 * says so) on success and a negative errno on failure; none returns -1 or
 * sets errno. Getters of a value that may be absent say what they return
 * then (NULL, or -ENOENT for an int).
 *
 * Lifetimes: a context owns everything it hands out. Keys, CPUs and rules
 * stay valid until the next pks_refresh(), namespaces until the next
 * pks_ns_scan(), fault records until the next pks_faults_refresh(), and
 * all of them until the last pks_unref(). Strings returned are the
 * context's too; copy them to keep them.
 *
 * Threads: a context is not thread-safe. Use one per thread, or serialize
 * every call on it. Contexts share nothing, so separate ones may be used
 * from separate threads at once.
 */
#ifndef _LIBPKS_H_
#define _LIBPKS_H_

#include <stdarg.h>
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

/**
 * pks_new() - create a context
 * @ctx: where to store it, with one reference
 *
 * Opens the device named by $PKS_DEVICE, or /dev/pks, and checks the
 * driver's ABI (see pks_driver_status()). A missing or foreign device is
 * not an error here: the calls that need it report it.
 *
 * Return: 0, or -ENOMEM.
 */
int pks_new(struct pks_ctx **ctx);
/* pks_ref() - take a reference; returns @ctx (NULL stays NULL). */
struct pks_ctx *pks_ref(struct pks_ctx *ctx);
/* pks_unref() - drop one; the last frees the context and all it owns. */
void pks_unref(struct pks_ctx *ctx);

/**
 * typedef pks_log_fn - where a context's log messages go
 * @ctx: the context logging
 * @priority: a syslog priority (LOG_ERR, LOG_INFO, LOG_DEBUG)
 * @format: printf format of the message, ending in a newline
 * @args: its arguments
 */
typedef void (*pks_log_fn)(struct pks_ctx *ctx, int priority,
			   const char *format, va_list args);
/*
 * pks_set_log_fn() - send messages to @log_fn instead of stderr (NULL:
 * back to stderr), as ndctl_set_log_fn(). Messages above the priority
 * (default: $PKS_LOG, a name or number, else LOG_ERR) are not made.
 */
void pks_set_log_fn(struct pks_ctx *ctx, pks_log_fn log_fn);
void pks_set_log_priority(struct pks_ctx *ctx, int priority);
int pks_get_log_priority(struct pks_ctx *ctx);

/* CPUID.(EAX=7,ECX=0):ECX bit 31, read in userspace: needs no driver. */
bool pks_cpu_has_pks(void);

/* 0 when the driver answers; -ENOENT when the device is absent, -EACCES
 * when it cannot be opened, -EPROTO when the driver speaks another ABI
 * (see pks_get_abi_version()), or the error its first ioctl returned. */
int pks_driver_status(struct pks_ctx *ctx);
/*
 * Whether the device could only be opened read-only (not root): queries
 * work, and whatever changes protection fails with -EPERM.
 */
bool pks_driver_is_read_only(struct pks_ctx *ctx);
/* The driver ABI (PKS_ABI_VERSION) this libpks was built for. */
unsigned int pks_get_lib_abi_version(void);
/* This libpks's release, "1.0" (the VERSION pkstool is built from). */
const char *pks_get_lib_version(void);
/*
 * The loaded pks module's release (/sys/module/pks/version) into @buf:
 * 0, -ENOENT when no pks module is loaded, -ENODATA when it has no
 * version, -ERANGE when @len is too short, or another read error.
 */
int pks_get_driver_version(char *buf, size_t len);
const char *pks_device_path(struct pks_ctx *ctx);

/**
 * pks_refresh() - read the driver's state into the context
 * @ctx: the context
 *
 * The key, CPU and rule lists and the getters below read this snapshot;
 * each call replaces it (earlier key, CPU and rule pointers go stale).
 *
 * Return: 0, or the negative errno of pks_driver_status() or the ioctl.
 */
int pks_refresh(struct pks_ctx *ctx);
/* The loaded driver's ABI, learnt at pks_new(); 0 when unknown. */
unsigned int pks_get_abi_version(struct pks_ctx *ctx);
uint32_t pks_get_default_pkrs(struct pks_ctx *ctx);
bool pks_fault_hook_active(struct pks_ctx *ctx);	/* callbacks, relaxed */
bool pks_fault_log_active(struct pks_ctx *ctx);		/* faults recorded */
/* The stock kernel's protection-key fault WARN is held as reported. */
bool pks_stock_pk_warn_silenced(struct pks_ctx *ctx);
/* The fault hooks are ftrace_ops no root knob can disarm. */
bool pks_fault_hooks_pinned(struct pks_ctx *ctx);
/*
 * The dax guard (a kprobe on device-dax's mmap method) could not be
 * placed: device-dax namespaces are refused protection.
 */
bool pks_dax_guard_missing(struct pks_ctx *ctx);

struct pks_key *pks_key_get_first(struct pks_ctx *ctx);
struct pks_key *pks_key_get_next(struct pks_key *key);
#define pks_key_foreach(ctx, key)					\
	for (key = pks_key_get_first(ctx); key; key = pks_key_get_next(key))
unsigned int pks_key_get_id(struct pks_key *key);
const char *pks_key_get_owner(struct pks_key *key);
bool pks_key_is_allocated(struct pks_key *key);
bool pks_key_is_reserved(struct pks_key *key);

/*
 * Grants: kernel accesses to protected namespaces the driver let through.
 * It judges each protection-key fault on a protected page when it
 * happens, by rule (PKS_GRANT_RULES: "held-page", a page held by a
 * reference such as a GUP pin; "dax-layer", the kernel's DAX code on the
 * stack; "pmem-driver", the namespace's own driver on the stack), and a
 * grant lasts only while the context that faulted runs uninterrupted:
 * interrupt entry and exit reset PKRS, and the next fault in the window
 * refills its rights. From the last pks_refresh().
 */
struct pks_rule;
/* Whether a namespace is protected, so that faults are judged at all. */
bool pks_grants_armed(struct pks_ctx *ctx);
/*
 * Whether the counts below were filled in: only for a context whose
 * device was opened with CAP_SYS_ADMIN, since they tell what other
 * users' accesses do. Otherwise the grant, probe-hit, refill, spurious
 * and boundary-write counts and every rule's counts read 0, meaning
 * "not shown", not "none"; pks_grants_armed(), pks_get_boundary_hooks()
 * and the rule names are filled either way.
 */
bool pks_grants_have_counts(struct pks_ctx *ctx);
/* Tasks holding a grant when the snapshot was taken. */
unsigned int pks_get_tasks_granted(struct pks_ctx *ctx);
/* Kernel protection-key faults the driver's fault probe saw. */
uint64_t pks_get_fault_probe_hits(struct pks_ctx *ctx);
/* Faults that gave a window its rights back after an interrupt boundary. */
uint64_t pks_get_refills(struct pks_ctx *ctx);
/* Faults on an entry the key already allowed (a stale TLB entry). */
uint64_t pks_get_spurious(struct pks_ctx *ctx);
/*
 * Return addresses the driver unwound to judge the owner rules (at most 8
 * per judged fault; none where the held-page rule decides), and code
 * addresses whose owner it looked up by symbol name, its verdict cache
 * having missed (none in a steady state).
 */
uint64_t pks_get_frames_unwound(struct pks_ctx *ctx);
uint64_t pks_get_symbol_lookups(struct pks_ctx *ctx);
/* PKRS writes made at interrupt entry and exit. */
uint64_t pks_get_boundary_writes(struct pks_ctx *ctx);
/* Interrupt entry and exit hooks in place. */
unsigned int pks_get_boundary_hooks(struct pks_ctx *ctx);
/*
 * The rules, in PKS_GRANT_RULES order, each with the accesses it let
 * through by context: a task (until it is interrupted, leaves the CPU or
 * returns to user space), a softirq, a hard interrupt handler, or
 * "stepped": a context with no end hook (an NMI, or interrupt code outside
 * a traced handler), let through for the faulting instruction alone.
 */
struct pks_rule *pks_rule_get_first(struct pks_ctx *ctx);
struct pks_rule *pks_rule_get_next(struct pks_rule *rule);
#define pks_rule_foreach(ctx, rule)					\
	for (rule = pks_rule_get_first(ctx); rule;			\
	     rule = pks_rule_get_next(rule))
const char *pks_rule_get_name(struct pks_rule *rule);
uint64_t pks_rule_get_task(struct pks_rule *rule);
uint64_t pks_rule_get_softirq(struct pks_rule *rule);
uint64_t pks_rule_get_hardirq(struct pks_rule *rule);
uint64_t pks_rule_get_stepped(struct pks_rule *rule);

/*
 * The processes that have the device open (what keeps rmmod from
 * unloading the driver), the caller's own context included, as they were
 * at the last pks_refresh(): @i from 0 to pks_get_nr_holders() - 1. The
 * pid and name are those of the opener when it opened the device. Only
 * for CAP_SYS_ADMIN: for anyone else the driver tells how many, not who,
 * and pks_holder_get_comm() returns NULL (pid 0) for each.
 */
unsigned int pks_get_nr_holders(struct pks_ctx *ctx);
/*
 * The driver's own counts of what it holds (open files, protected ranges,
 * keyed direct-map entries, keys, per-task states, tasks holding a
 * grant, probes placed), from the last pks_refresh(): @i from 0 to
 * pks_get_nr_counts() - 1. All but the sessions and probes go back to
 * zero once nothing is protected; stock kernels have no kmemleak, so
 * these are how a leak shows.
 */
unsigned int pks_get_nr_counts(struct pks_ctx *ctx);
const char *pks_count_get_name(struct pks_ctx *ctx, unsigned int i);
uint64_t pks_count_get_value(struct pks_ctx *ctx, unsigned int i);
unsigned int pks_holder_get_pid(struct pks_ctx *ctx, unsigned int i);
const char *pks_holder_get_comm(struct pks_ctx *ctx, unsigned int i);

struct pks_cpu *pks_cpu_get_first(struct pks_ctx *ctx);
struct pks_cpu *pks_cpu_get_next(struct pks_cpu *cpu);
#define pks_cpu_foreach(ctx, cpu)					\
	for (cpu = pks_cpu_get_first(ctx); cpu; cpu = pks_cpu_get_next(cpu))
unsigned int pks_cpu_get_id(struct pks_cpu *cpu);
bool pks_cpu_is_online(struct pks_cpu *cpu);
/*
 * CR4.PKS as read on the CPU when pks_cpu_is_live(), else the driver's
 * record of having set it there.
 */
bool pks_cpu_get_cr4_pks(struct pks_cpu *cpu);
/*
 * Whether the registers and counters below were read: only for a
 * context whose device was opened with CAP_SYS_ADMIN. Reading them
 * interrupts every CPU (an IPI each), and they tell what other users'
 * accesses do; for anyone else the driver reads nothing and the four
 * getters below return 0, meaning "not shown", not a register value.
 */
bool pks_cpu_is_live(struct pks_cpu *cpu);
uint32_t pks_cpu_get_pkrs(struct pks_cpu *cpu);
uint32_t pks_cpu_get_pkrs_cached(struct pks_cpu *cpu);
uint64_t pks_cpu_get_pkrs_writes(struct pks_cpu *cpu);
uint64_t pks_cpu_get_pkrs_skipped(struct pks_cpu *cpu);

/*
 * pmem namespaces (from libndctl and libdaxctl) and their protection.
 * Identifiers: "namespace0.0", "dax0.0" or "/dev/dax0.0".
 */
struct pks_ns;
/**
 * pks_ns_scan() - list the pmem namespaces and their protection afresh
 * @ctx: the context
 *
 * Each call reads libndctl and the driver again, so namespaces created or
 * destroyed since the last scan appear or go; earlier pks_ns pointers go
 * stale. Without the driver (device absent) every namespace is listed
 * unprotected. On failure the list is empty.
 *
 * Return: 0, or a negative errno (-ENOMEM, or the driver's error).
 */
int pks_ns_scan(struct pks_ctx *ctx);
struct pks_ns *pks_ns_get_first(struct pks_ctx *ctx);
struct pks_ns *pks_ns_get_next(struct pks_ns *ns);
#define pks_ns_foreach(ctx, ns)						\
	for (ns = pks_ns_get_first(ctx); ns; ns = pks_ns_get_next(ns))
struct pks_ns *pks_ns_find(struct pks_ctx *ctx, const char *ident);
const char *pks_ns_get_name(struct pks_ns *ns);
/* devdax, fsdax, sector, raw, system-ram (a devdax namespace given to
 * the kernel as memory with daxctl reconfigure-device) or unknown */
const char *pks_ns_get_mode(struct pks_ns *ns);
const char *pks_ns_get_region(struct pks_ns *ns);	/* "region0" */
/*
 * What backs it: its region's nvdimm bus provider ("ACPI.NFIT"
 * for an NVDIMM, "CXL" for a CXL region), NULL if unknown; for CXL, the
 * CXL region as 'cxl list -R' names it (NULL when not CXL or not found)
 * and its memdevs in interleave order, the i-th or NULL past the last.
 */
const char *pks_ns_get_provider(struct pks_ns *ns);
const char *pks_ns_get_cxl_region(struct pks_ns *ns);
const char *pks_ns_get_cxl_memdev(struct pks_ns *ns, unsigned int i);
/* The UUID 'ndctl list -N' shows, lower case; NULL when it has none. */
const char *pks_ns_get_uuid(struct pks_ns *ns);
struct pks_ns *pks_ns_find_by_uuid(struct pks_ctx *ctx, const char *uuid);
bool pks_ns_is_devdax(struct pks_ns *ns);
const char *pks_ns_get_chardev(struct pks_ns *ns);	/* NULL unless devdax */
const char *pks_ns_get_blockdev(struct pks_ns *ns);	/* NULL unless fsdax */
/* The device a protection is named after: chardev or blockdev, or NULL. */
const char *pks_ns_get_device(struct pks_ns *ns);
bool pks_ns_can_protect(struct pks_ns *ns);		/* devdax or fsdax */
/* The usable size, as ndctl list -N shows it (after metadata). */
uint64_t pks_ns_get_size(struct pks_ns *ns);
/*
 * The physical range: the dax device's for devdax, the protected data
 * area for a protected fsdax namespace, else the namespace's.
 */
uint64_t pks_ns_get_resource(struct pks_ns *ns);
uint64_t pks_ns_get_range_size(struct pks_ns *ns);
bool pks_ns_is_protected(struct pks_ns *ns);
/* The namespace's protection key, or -ENOENT when it is unprotected. */
int pks_ns_get_key(struct pks_ns *ns);
/**
 * pks_ns_protect() - protect a devdax or fsdax namespace
 * @ns: the namespace
 * @mode: PKS_MODE_STRICT or PKS_MODE_RELAXED
 * @why: filled with the driver's reason when it refuses (may be NULL)
 * @len: size of @why
 *
 * Return: 0 (and @ns reads protected), -EOPNOTSUPP for a namespace that
 * cannot be protected, or the driver's negative errno.
 */
int pks_ns_protect(struct pks_ns *ns, enum pks_mode mode, char *why,
		   size_t len);
/*
 * pks_ns_set_protection_mode() - change the protection mode of a
 * protected namespace; pks_ns_get_protection_mode() reads it back.
 * Return: 0, or a negative errno (-ENOENT: it is not protected).
 */
int pks_ns_set_protection_mode(struct pks_ns *ns, enum pks_mode mode);
/*
 * The protection mode (enum pks_mode) of a protected namespace, or
 * -ENOENT when it is unprotected. pks_ns_get_mode() is something else:
 * the namespace's ndctl mode (devdax, fsdax, ...).
 */
int pks_ns_get_protection_mode(struct pks_ns *ns);
uint64_t pks_ns_get_faults(struct pks_ns *ns);
const char *pks_mode_name(int mode);			/* NULL when unknown */
int pks_mode_lookup(const char *name);			/* or -EINVAL */
/*
 * pks_ns_unprotect() - end protection. Return: 0 (and @ns reads
 * unprotected, with no key or mode), or a negative errno.
 */
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
/*
 * Which load of the driver the last read came from: a random number that
 * changes when the driver is reloaded, when sequence numbers start again
 * from 1. A reader that keeps a sequence number across restarts keeps
 * this with it.
 */
uint64_t pks_faults_get_instance(struct pks_ctx *ctx);
int pks_faults_wait(struct pks_ctx *ctx, int timeout_ms);

/**
 * struct pks_record - one fault record read by pks_faults_refresh()
 *
 * Opaque, read through the getters below, so that a change in the
 * driver's struct pks_fault changes no program built against libpks.
 * Valid until the next pks_faults_refresh() on its context.
 */
struct pks_record;
struct pks_record *pks_record_get_first(struct pks_ctx *ctx);
struct pks_record *pks_record_get_next(struct pks_record *rec);
#define pks_record_foreach(ctx, rec)					\
	for (rec = pks_record_get_first(ctx); rec;			\
	     rec = pks_record_get_next(rec))
uint64_t pks_record_get_seq(struct pks_record *rec);
uint64_t pks_record_get_time_ns(struct pks_record *rec);	/* UTC */
/* The kernel address; 0 where the device was opened without CAP_SYSLOG. */
uint64_t pks_record_get_address(struct pks_record *rec);
/* Offset into the namespace, or into the key owner's range. */
uint64_t pks_record_get_offset(struct pks_record *rec);
unsigned int pks_record_get_cpu(struct pks_record *rec);
unsigned int pks_record_get_pid(struct pks_record *rec);
unsigned int pks_record_get_key(struct pks_record *rec);
bool pks_record_is_write(struct pks_record *rec);
/* Whether the access hit a protected namespace (then owner names it). */
bool pks_record_in_namespace(struct pks_record *rec);
/* refused, oops, allowed, callback (or unknown). */
const char *pks_record_get_outcome(struct pks_record *rec);
/* The name pks_record_get_outcome() gives enum pks_fault_outcome @outcome. */
const char *pks_fault_outcome_name(uint32_t outcome);
const char *pks_record_get_owner(struct pks_record *rec);
const char *pks_record_get_comm(struct pks_record *rec);
const char *pks_record_get_ip(struct pks_record *rec);
/* The @i-th caller (0: the nearest), or NULL past the last. */
const char *pks_record_get_stack(struct pks_record *rec, unsigned int i);
/*
 * The log also records protection starting and ending, so that a monitor
 * learns when a namespace is no longer protected: "fault" for a stray
 * access, "protected", "unprotected" (on request or at unload) or
 * "device-gone" (the driver dropped it). Those carry the time, pid and
 * name of the task that caused them, the key and the owner (the
 * namespace's device); their address, offset, outcome and stack are
 * empty. pks_record_is_relaxed() tells a "protected" record's mode.
 */
bool pks_record_is_fault(struct pks_record *rec);
const char *pks_record_get_event(struct pks_record *rec);
bool pks_record_is_relaxed(struct pks_record *rec);

/* /proc/sys/kernel/panic_on_warn: 1, 0, or -errno. */
int pks_panic_on_warn(void);

/*
 * Built-in tests, in the test module pks_test.ko: its device is named by
 * $PKS_TEST_DEVICE or /dev/pks-test, opened at the first call that needs
 * it. pks_test_status() is 0 when it answers, -ENOENT when it is absent
 * (the module is not loaded), or why it cannot be opened. Ids, names,
 * flags and results are those of the test module's uapi header,
 * linux/pks_test.h, which is not installed: these calls are for pkstool
 * and the project's own tests.
 */
int pks_test_status(struct pks_ctx *ctx);
const char *pks_test_device_path(struct pks_ctx *ctx);
int pks_test_lookup(const char *name);		/* id, or -ENOENT */
const char *pks_test_get_name(unsigned int id);	/* NULL when unknown */
uint32_t pks_test_get_flags(unsigned int id);
/* @ns may be NULL; cases that need a devdax namespace then skip. */
int pks_test_run(struct pks_ctx *ctx, unsigned int id, struct pks_ns *ns,
		 unsigned int *result, char *message, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* _LIBPKS_H_ */
