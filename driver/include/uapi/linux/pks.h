/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * pks.h - the ABI of /dev/pks, the pkstool protection-keys driver. The
 * test module's device, /dev/pks-test, speaks pks_test.h, which builds on
 * this one and is not installed.
 *
 * This header is the only definition of the ABI: the driver and libpks both
 * include it. Structures start with their size, which the caller sets to
 * sizeof() of the structure it was built with; the driver refuses sizes it
 * does not know with -EINVAL. Fields named rsvd must be zero.
 *
 * /dev/pks is readable by everyone (mode 0644): anyone may open it and
 * read state (PKS_IOC_GET_INFO, _LIST, _GRANTS, _ACCOUNTING, _BRACKETS,
 * the counts of _FAULTS and _HOLDERS, poll()). Changing anything and
 * touching namespace memory (_PROTECT, _UNPROTECT, _SET_MODE, _COPY) needs
 * CAP_SYS_ADMIN and a file opened for writing (-EPERM otherwise). What
 * tells about other users' processes needs an opener with CAP_SYS_ADMIN
 * (-EPERM otherwise): the event log's records (_FAULTS with @nr > 0: the
 * pid, name and code of what strayed, who protected what) and who has the
 * device open (_HOLDERS with @nr > 0). Physical addresses in _LIST are
 * 0 unless the opener had CAP_SYS_ADMIN, and kernel addresses in fault
 * records 0 unless it had CAP_SYSLOG, as kptr_restrict does.
 */
#ifndef _UAPI_LINUX_PKS_H
#define _UAPI_LINUX_PKS_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define PKS_ABI_VERSION		7
#define PKS_NR_KEYS		16
#define PKS_OWNER_LEN		32
#define PKS_MESSAGE_LEN		128

/* Two PKRS bits per key: access-disable and write-disable. */
#define PKS_PKRS_AD		0x1u
#define PKS_PKRS_WD		0x2u
#define PKS_PKRS_SHIFT(key)	((key) * 2)

/**
 * struct pks_key_info - one protection key
 * @key: key number, 0..PKS_NR_KEYS-1
 * @flags: PKS_KEY_F_* flags
 * @owner: NUL-terminated name of the consumer holding the key, or ""
 */
struct pks_key_info {
	__u32 key;
	__u32 flags;
	char owner[PKS_OWNER_LEN];
};

#define PKS_KEY_F_ALLOCATED	(1u << 0)
#define PKS_KEY_F_RESERVED	(1u << 1)	/* key 0: the kernel's default */

/**
 * struct pks_cpu_info - PKS state of one possible CPU
 * @cpu: CPU number
 * @flags: PKS_CPU_F_* flags
 * @pkrs: the PKRS MSR as read on that CPU (valid when online)
 * @pkrs_cached: the driver's copy of PKRS for that CPU
 * @pkrs_writes: PKRS MSR writes done on that CPU since the driver loaded
 * @pkrs_skipped: PKRS updates skipped because the value would not change
 */
struct pks_cpu_info {
	__u32 cpu;
	__u32 flags;
	__u32 pkrs;
	__u32 pkrs_cached;
	__u64 pkrs_writes;
	__u64 pkrs_skipped;
};

#define PKS_CPU_F_ONLINE	(1u << 0)
#define PKS_CPU_F_CR4_PKS	(1u << 1)	/* CR4.PKS set on that CPU */
/*
 * The registers and counters were read (on that CPU, by an IPI): only
 * for a caller with CAP_SYS_ADMIN. For anyone else @pkrs, @pkrs_cached
 * and the counters read 0 (they would tell what other users' accesses
 * do), CR4.PKS is the driver's own record, and no CPU is interrupted.
 */
#define PKS_CPU_F_LIVE		(1u << 2)

/**
 * struct pks_info - driver state, filled by PKS_IOC_GET_INFO
 * @size: in: sizeof(struct pks_info)
 * @abi_version: out: PKS_ABI_VERSION of the driver; written even when @size
 *	is wrong (and covers @abi_version), so that a caller built for another
 *	ABI can tell a version mismatch from a bad call
 * @flags: out: PKS_INFO_F_* flags
 * @default_pkrs: out: the PKRS value every CPU holds outside access windows
 * @nr_cpus: in: entries at @cpus; out: number of possible CPUs. Call with
 *	0 to learn the count, then again with room for that many.
 * @rsvd: must be zero
 * @cpus: in: user pointer to an array of struct pks_cpu_info, or 0
 * @keys: out: the key table
 */
struct pks_info {
	__u32 size;
	__u32 abi_version;
	__u32 flags;
	__u32 default_pkrs;
	__u32 nr_cpus;
	__u32 rsvd;
	__u64 cpus;
	struct pks_key_info keys[PKS_NR_KEYS];
};

#define PKS_INFO_F_ENABLED	(1u << 0)	/* PKS enabled on all online CPUs */
#define PKS_INFO_F_FAULT_HOOK	(1u << 1)	/* callbacks, relaxed mode */
#define PKS_INFO_F_FAULT_LOG	(1u << 2)	/* faults are recorded */
/*
 * The stock kernel's WARN on a kernel-mode protection-key fault
 * (do_kern_addr_fault()) is held as reported: such faults neither WARN
 * nor taint, so panic_on_warn is safe. Clear: the first one of a boot
 * WARNs.
 */
#define PKS_INFO_F_PK_WARN_SILENCED (1u << 3)
/*
 * The fault hooks are ftrace_ops of the driver's own, pinned: kprobes'
 * switch (debugfs kprobes/enabled) does not reach them and ftrace refuses
 * ftrace_enabled=0 (EBUSY) while they are placed.
 */
#define PKS_INFO_F_FAULT_PINNED	(1u << 4)
/*
 * The dax guard (daxguard.c: a kprobe on device-dax's mmap method) could
 * not be placed when last tried: device-dax namespaces are refused
 * protection; the kernel log names the function and the error.
 */
#define PKS_INFO_F_DAX_GUARD_MISSING (1u << 5)

/**
 * struct pks_range - a device-dax range, as given to the driver
 * @addr: user address of a shared mapping of the dax device's range
 * @start: physical start of the range
 * @len: its length in bytes
 *
 * The driver does not trust @start and @len: it checks that they are
 * persistent memory of one device-dax instance and that @addr maps exactly
 * them, which also names the device.
 */
struct pks_range {
	__u64 addr;
	__u64 start;
	__u64 len;
};

#define PKS_NAME_LEN		32

/**
 * struct pks_protect - protect a device-dax range, PKS_IOC_PROTECT
 * @size: in: sizeof(struct pks_protect)
 * @flags: in: PKS_PROTECT_F_* flags
 * @range: in: the range and a mapping of it
 * @key: out: the key that now tags the range
 * @rsvd: must be zero
 * @name: out: the dax device the driver found behind the mapping
 * @message: out: why the range was refused
 */
struct pks_protect {
	__u32 size;
	__u32 flags;
	struct pks_range range;
	__u32 key;
	__u32 rsvd;
	char name[PKS_NAME_LEN];
	char message[PKS_MESSAGE_LEN];
};

/**
 * struct pks_unprotect - end protection, PKS_IOC_UNPROTECT
 * @size: in: sizeof(struct pks_unprotect)
 * @rsvd: must be zero
 * @start: in: physical start of a protected range
 */
struct pks_unprotect {
	__u32 size;
	__u32 rsvd;
	__u64 start;
};

/**
 * struct pks_range_info - one protected range
 * @start: physical start
 * @len: length in bytes
 * @key: its key
 * @leaf_size: size of the direct-map pages that map it
 * @mode: enum pks_mode
 * @rsvd: zero
 * @faults: stray accesses recorded on it since it was protected
 * @name: the dax device
 */
struct pks_range_info {
	__u64 start;
	__u64 len;
	__u32 key;
	__u32 leaf_size;
	__u32 mode;
	__u32 rsvd;
	__u64 faults;
	char name[PKS_NAME_LEN];
};

/**
 * struct pks_list - list protected ranges, PKS_IOC_LIST
 * @size: in: sizeof(struct pks_list)
 * @nr: in: entries at @ranges; out: number of protected ranges. Call with
 *	0 to learn the count.
 * @ranges: in: user pointer to struct pks_range_info[@nr], or 0
 */
struct pks_list {
	__u32 size;
	__u32 nr;
	__u64 ranges;
};

/**
 * struct pks_copy - an access to namespace memory, PKS_IOC_COPY (and
 *	pks_test.h's PKS_TEST_IOC_STRAY)
 * @size: in: sizeof(struct pks_copy)
 * @flags: in: PKS_COPY_F_* flags
 * @start: in: physical address inside one protected range
 * @len: in: bytes to copy, at most PKS_COPY_MAX
 * @buf: in: user buffer
 * @done: out: bytes copied before the access stopped
 *
 * PKS_IOC_COPY opens an access window, as a legitimate user would.
 */
struct pks_copy {
	__u32 size;
	__u32 flags;
	__u64 start;
	__u64 len;
	__u64 buf;
	__u64 done;
};

/**
 * enum pks_mode - what happens to a stray access to a protected range
 * @PKS_MODE_STRICT: refused; a plain (not fault-safe) access oopses its
 *	task as any unhandled kernel fault does, and the data is untouched
 * @PKS_MODE_RELAXED: reported, then allowed to complete once, for
 *	debugging a consumer before turning strict on
 */
enum pks_mode {
	PKS_MODE_STRICT = 0,
	PKS_MODE_RELAXED = 1,
};

#define PKS_PROTECT_F_RELAXED	(1u << 0)	/* start in PKS_MODE_RELAXED */
/*
 * An fsdax namespace: @range.addr is a file descriptor open on its block
 * device (/dev/pmemN), @range.start and @range.len are 0 on input. The
 * driver protects the device's whole DAX data area and returns it in
 * @range.start and @range.len.
 */
#define PKS_PROTECT_F_BLOCKDEV	(1u << 1)
#define PKS_COPY_F_WRITE	(1u << 0)
/* Bits 1 to 3 are pks_test.h's, for PKS_TEST_IOC_STRAY. */
#define PKS_COPY_MAX		(1u << 20)

#define PKS_FAULT_STACK		6
#define PKS_SYM_LEN		64
#define PKS_COMM_LEN		16

enum pks_fault_outcome {
	PKS_FAULT_REFUSED = 0,	/* a fault-safe accessor got -EFAULT */
	PKS_FAULT_OOPS = 1,	/* strict: the kernel oopsed the task */
	PKS_FAULT_ALLOWED = 2,	/* relaxed: the access completed once */
	PKS_FAULT_CALLBACK = 3,	/* the key owner's callback took it */
};

#define PKS_FAULT_F_WRITE	(1u << 0)
#define PKS_FAULT_F_NAMESPACE	(1u << 1)	/* in a protected range */
#define PKS_FAULT_F_RELAXED	(1u << 2)	/* PROTECTED: in relaxed mode */

/*
 * What a record of the fault log is. A stray access is PKS_EVENT_FAULT;
 * the others record a protection starting or ending, so that a monitor
 * learns when a namespace it watches is no longer protected. They carry
 * @time_ns, @pid and @comm of the task that caused them, @key and @owner;
 * @address and @offset are zero.
 */
enum pks_event {
	PKS_EVENT_FAULT = 0,
	PKS_EVENT_PROTECTED = 1,	/* a namespace became protected */
	PKS_EVENT_UNPROTECTED = 2,	/* its protection was ended on request */
	PKS_EVENT_DEVICE_GONE = 3,	/* its device went away: dropped */
};

/**
 * struct pks_fault - one recorded stray access
 * @seq: sequence number, from 1, one per record, never reused
 * @time_ns: CLOCK_REALTIME of the fault
 * @address: the faulting kernel address; 0 for a reader without CAP_SYSLOG
 * @offset: offset in the protected range (or in its page, for a key that
 *	protects no range)
 * @cpu: CPU it happened on
 * @pid: task that was running
 * @key: protection key of the page
 * @flags: PKS_FAULT_F_* flags
 * @outcome: enum pks_fault_outcome
 * @event: enum pks_event
 * @comm: that task's name
 * @owner: the dax device, or the key's owner
 * @ip: the faulting instruction, as "function+off/len [module]"
 * @stack: the callers, innermost first; unused entries are ""
 */
struct pks_fault {
	__u64 seq;
	__u64 time_ns;
	__u64 address;
	__u64 offset;
	__u32 cpu;
	__u32 pid;
	__u32 key;
	__u32 flags;
	__u32 outcome;
	__u32 event;
	char comm[PKS_COMM_LEN];
	char owner[PKS_NAME_LEN];
	char ip[PKS_SYM_LEN];
	char stack[PKS_FAULT_STACK][PKS_SYM_LEN];
};

/**
 * struct pks_faults - read the fault ring, PKS_IOC_FAULTS
 * @size: in: sizeof(struct pks_faults)
 * @nr: in: room at @records; out: records filled
 * @since: in: first sequence number wanted (0 or 1: the oldest kept)
 * @records: in: user pointer to struct pks_fault[@nr]
 * @next: out: the sequence number to ask for next time
 * @dropped: out: records from @since on that the ring no longer holds
 * @instance: out: this load of the driver, a random number; sequence
 *	numbers start again from 1 when it changes
 *
 * The ring keeps the newest PKS_FAULT_RING records. With @nr 0 nothing is
 * copied and @next is the sequence number the next fault will get. After
 * this call, poll() on the same file reports POLLIN once a record at or
 * past @next exists.
 */
struct pks_faults {
	__u32 size;
	__u32 nr;
	__u64 since;
	__u64 records;
	__u64 next;
	__u64 dropped;
	__u64 instance;
};

#define PKS_FAULT_RING		256

/**
 * struct pks_set_mode - change a protected range's mode, PKS_IOC_SET_MODE
 * @size: in: sizeof(struct pks_set_mode)
 * @mode: in: enum pks_mode
 * @start: in: physical start of a protected range
 */
struct pks_set_mode {
	__u32 size;
	__u32 mode;
	__u64 start;
};

/*
 * Why a kernel access to a protected namespace was let through. There is
 * no list of kernel functions: a protection-key fault on a protected page
 * is judged when it happens (see legit.c), and a grant lasts only as long
 * as the context that faulted runs uninterrupted. An X-macro, as in
 * cxl_mem.h: each user defines ___PKS_P(id, name) to pick what it needs,
 * and PKS_GRANT_RULES expands to a braced list of it, usable as an enum
 * body or an array initializer; the numbers are ABI, append before NR only.
 */
#define PKS_GRANT_RULES {						\
	___PKS_P(HELD, "held-page"),	/* pinned: GUP, pipe, bio, skb */ \
	___PKS_P(DAX, "dax-layer"),	/* the kernel's DAX code */	\
	___PKS_P(PMEM, "pmem-driver"),	/* the namespace's driver */	\
	___PKS_P(NR, ""),						\
}

#define ___PKS_P(id, name) PKS_RULE_##id
enum pks_rule_id PKS_GRANT_RULES;
#undef ___PKS_P

#define PKS_RULE_MAX		8

/**
 * struct pks_rule_info - accesses one rule let through
 * @name: NUL-terminated rule name, from PKS_GRANT_RULES
 * @task: grants to a task: its key stays open until the task is
 *	interrupted, leaves the CPU or returns to user space
 * @softirq: grants in a softirq, until it ends or is interrupted
 * @hardirq: grants in a hard interrupt handler, until it returns
 * @stepped: accesses from a context with no end hook (an NMI, or
 *	interrupt code outside a traced handler), let through for the
 *	faulting instruction alone
 */
struct pks_rule_info {
	char name[PKS_NAME_LEN];
	__u64 task;
	__u64 softirq;
	__u64 hardirq;
	__u64 stepped;
};

/**
 * struct pks_grants - grants and the interrupt boundaries, PKS_IOC_GRANTS
 * @size: in: sizeof(struct pks_grants)
 * @flags: out: PKS_GRANTS_F_* flags
 * @nr_rules: out: entries used in @rules (PKS_RULE_NR)
 * @tasks_granted: out: tasks holding a grant right now
 * @fault_probe_hits: out: kernel protection-key faults the fault probe saw
 * @refills: out: faults that gave a window its rights back after an
 *	interrupt boundary had reset them
 * @spurious: out: faults on an entry whose key the CPU already allowed (a
 *	stale TLB entry), flushed and retried
 * @boundary_writes: out: PKRS writes made at interrupt entry and exit
 * @boundary_hooks: out: interrupt entry and exit hooks in place
 * @rules: out: per rule, indexed by enum pks_rule_id
 * @frames_unwound: out: return addresses the fault path unwound to judge
 *	the owner rules (at most 8 per judged fault, none where the
 *	held-page rule decides)
 * @symbol_lookups: out: code addresses whose owner was looked up by
 *	symbol name (the driver's verdict cache missed): none in a steady
 *	state
 *
 * The last two were added later: a caller may still pass @size
 * PKS_GRANTS_SIZE_V1, and gets back the bytes before them alone.
 */
struct pks_grants {
	__u32 size;
	__u32 flags;
	__u32 nr_rules;
	__u32 tasks_granted;
	__u64 fault_probe_hits;
	__u64 refills;
	__u64 spurious;
	__u64 boundary_writes;
	__u32 boundary_hooks;
	__u32 reserved;
	struct pks_rule_info rules[PKS_RULE_MAX];
	__u64 frames_unwound;
	__u64 symbol_lookups;
};

/* The size of struct pks_grants before @frames_unwound. */
#define PKS_GRANTS_SIZE_V1	(56 + PKS_RULE_MAX * (PKS_NAME_LEN + 4 * 8))

#define PKS_GRANTS_F_ARMED	(1u << 0)	/* a namespace is protected */
/*
 * The counts are filled in: only for a caller with CAP_SYS_ADMIN (they
 * tell what other users' accesses do); for anyone else they read 0.
 */
#define PKS_GRANTS_F_COUNTS	(1u << 1)

/*
 * What pks.ko holds right now, counted by the driver itself (stock
 * kernels have no kmemleak): each must be back to zero once every
 * namespace is unprotected and no file or task uses the driver (probes
 * stay placed until unload). As with PKS_GRANT_RULES, each user defines
 * ___PKS_A(id, name); add new kinds just before NR. GRANT_STATES reads 0
 * for a caller without CAP_SYS_ADMIN, as struct pks_grants's counts do.
 */
#define PKS_ACCT_KINDS {						\
	___PKS_A(SESSIONS, "sessions"),		/* open /dev/pks files */ \
	___PKS_A(RANGES, "ranges"),		/* protected ranges */	\
	___PKS_A(KEYED_ENTRIES, "keyed_entries"), /* keyed direct map */ \
	___PKS_A(KEYS, "keys"),			/* allocated, by anyone */ \
	___PKS_A(TASK_STATES, "task_states"),	/* per-task access */	\
	___PKS_A(GRANT_STATES, "grant_states"),	/* tasks holding a grant */ \
	___PKS_A(PROBES, "probes"),		/* hooks placed */	\
	___PKS_A(NR, "")						\
}

#define ___PKS_A(id, name) PKS_ACCT_##id
enum pks_acct PKS_ACCT_KINDS;
#undef ___PKS_A

#define PKS_ACCT_MAX		16

/**
 * struct pks_accounting - the driver's own counts, PKS_IOC_ACCOUNTING
 * @size: in: sizeof(struct pks_accounting)
 * @nr: out: entries used in @counts (PKS_ACCT_NR)
 * @counts: out: indexed by enum pks_acct
 */
struct pks_accounting {
	__u32 size;
	__u32 nr;
	__u64 counts[PKS_ACCT_MAX];
};

/**
 * struct pks_holder - a task that has /dev/pks open
 * @pid: its thread-group id when it opened the device
 * @rsvd: zero
 * @comm: its name then
 */
struct pks_holder {
	__u32 pid;
	__u32 rsvd;
	char comm[PKS_COMM_LEN];
};

/**
 * struct pks_holders - who keeps the module in use, PKS_IOC_HOLDERS
 * @size: in: sizeof(struct pks_holders)
 * @nr: in: room at @holders; out: open files of /dev/pks, the caller's
 *	own included (more than fit is possible: call again)
 * @holders: in: user pointer to struct pks_holder[@nr], or 0
 */
struct pks_holders {
	__u32 size;
	__u32 nr;
	__u64 holders;
};

#define PKS_IOC_MAGIC		0xB7

/*
 * PKS_IOC_GET_INFO: fill struct pks_info.
 * Return 0 on success, -EFAULT on a bad pointer, -EINVAL on a bad size or
 * non-zero rsvd.
 */
#define PKS_IOC_GET_INFO	_IOWR(PKS_IOC_MAGIC, 0x00, struct pks_info)

/*
 * 0x01 and 0x06 were the built-in tests and the benchmark (ABI 2); 0x40
 * and up are /dev/pks-test's (pks_test.h).
 */

/*
 * PKS_IOC_PROTECT: tag a device-dax range's direct-map pages with a new
 * key, access-disabled on every CPU.
 * Return 0 on success; -EINVAL for a range that is not page aligned, not
 * (or only partly) persistent memory, crosses namespaces, is not what the
 * mapping maps, or is not aligned to the direct-map pages; -ENODEV when
 * no device-dax instance owns it; -EOPNOTSUPP for fsdax memory; -EBUSY
 * when it overlaps a protected range; -ENOSPC when no key is free;
 * -EOPNOTSUPP while fault capture is off (PKS_INFO_F_FAULT_LOG clear:
 * the kernel's own accesses could not be granted), and for
 * PKS_PROTECT_F_RELAXED without PKS_INFO_F_FAULT_HOOK.
 * @message says which check failed.
 */
#define PKS_IOC_PROTECT		_IOWR(PKS_IOC_MAGIC, 0x02, struct pks_protect)

/*
 * PKS_IOC_UNPROTECT: restore a range's direct-map pages and free its key.
 * Return 0 on success, -ENOENT when no protected range starts there.
 */
#define PKS_IOC_UNPROTECT	_IOW(PKS_IOC_MAGIC, 0x03, struct pks_unprotect)

/*
 * PKS_IOC_LIST: count, then fill, the protected ranges.
 * Return 0 on success, -EFAULT on a bad pointer, -EINVAL on a bad size.
 */
#define PKS_IOC_LIST		_IOWR(PKS_IOC_MAGIC, 0x04, struct pks_list)

/*
 * PKS_IOC_COPY: copy between a user buffer and a protected range, through
 * an access window. The only flag taken is PKS_COPY_F_WRITE.
 * Return 0 on success; -ENOENT when the span is not inside one protected
 * range; -EFAULT when @buf is bad; -EIO when a read hit poisoned memory;
 * -EINVAL for other flags or a bad size.
 */
#define PKS_IOC_COPY		_IOWR(PKS_IOC_MAGIC, 0x05, struct pks_copy)

/*
 * PKS_IOC_FAULTS: copy out recorded faults from @since on.
 * Return 0 on success, -EFAULT on a bad pointer, -EINVAL on a bad size,
 * -EPERM for @nr > 0 unless the opener had CAP_SYS_ADMIN.
 */
#define PKS_IOC_FAULTS		_IOWR(PKS_IOC_MAGIC, 0x07, struct pks_faults)

/*
 * PKS_IOC_SET_MODE: set a protected range's enum pks_mode.
 * Return 0 on success, -ENOENT when no protected range starts there,
 * -EINVAL for an unknown mode or a bad size, -EOPNOTSUPP for relaxed
 * without PKS_INFO_F_FAULT_HOOK.
 */
#define PKS_IOC_SET_MODE	_IOW(PKS_IOC_MAGIC, 0x08, struct pks_set_mode)

/*
 * PKS_IOC_GRANTS: fill struct pks_grants. The number a caller built
 * with the older, PKS_GRANTS_SIZE_V1 struct uses is accepted as well.
 * Return 0 on success, -EFAULT on a bad pointer, -EINVAL on a bad size.
 */
#define PKS_IOC_GRANTS		_IOWR(PKS_IOC_MAGIC, 0x09, struct pks_grants)

/*
 * PKS_IOC_ACCOUNTING: fill struct pks_accounting.
 * Return 0 on success, -EFAULT on a bad pointer, -EINVAL on a bad size.
 */
#define PKS_IOC_ACCOUNTING	_IOWR(PKS_IOC_MAGIC, 0x0a, struct pks_accounting)

/*
 * PKS_IOC_HOLDERS: count, then fill, the tasks that have /dev/pks open:
 * what keeps rmmod from unloading the module.
 * Return 0 on success, -EFAULT on a bad pointer, -EINVAL on a bad size,
 * -EPERM for a fill (@nr > 0 and @holders set) unless the opener had
 * CAP_SYS_ADMIN.
 */
#define PKS_IOC_HOLDERS		_IOWR(PKS_IOC_MAGIC, 0x0b, struct pks_holders)

/*
 * The owner's copy brackets (ownercopy.c): functions of the dax core and
 * the pmem driver that run with a protected namespace's key open, so that
 * its owner's copies take no fault.
 */
#define PKS_BRACKET_MAX		8
#define PKS_FUNC_LEN		32

/**
 * struct pks_bracket_info - one bracketed function
 * @function: its name
 * @owner: whose code it is, named as the rules name it (dax-layer,
 *	pmem-driver)
 * @placed: 1 while its probe is placed (a namespace is protected and the
 *	function exists on this kernel, its module loaded)
 * @rsvd: zero
 * @opens: calls that opened a namespace's key
 * @missed: calls that found no free return instance since it was last
 *	placed: not bracketed, judged at the fault
 */
struct pks_bracket_info {
	char function[PKS_FUNC_LEN];
	char owner[PKS_NAME_LEN];
	__u32 placed;
	__u32 rsvd;
	__u64 opens;
	__u64 missed;
};

/**
 * struct pks_brackets - the owner's copy brackets, PKS_IOC_BRACKETS
 * @size: in: sizeof(struct pks_brackets)
 * @nr: out: entries used in @brackets
 * @flags: out: PKS_BRACKETS_F_* flags
 * @rsvd: zero
 * @brackets: out: one per function
 */
struct pks_brackets {
	__u32 size;
	__u32 nr;
	__u32 flags;
	__u32 rsvd;
	struct pks_bracket_info brackets[PKS_BRACKET_MAX];
};

#define PKS_BRACKETS_F_ON	(1u << 0)	/* not turned off (tests) */
/* The counts are filled in: as for struct pks_grants, root only. */
#define PKS_BRACKETS_F_COUNTS	(1u << 1)

/*
 * PKS_IOC_BRACKETS: fill struct pks_brackets.
 * Return 0 on success, -EFAULT on a bad pointer, -EINVAL on a bad size.
 */
#define PKS_IOC_BRACKETS	_IOWR(PKS_IOC_MAGIC, 0x0c, struct pks_brackets)

#endif /* _UAPI_LINUX_PKS_H */
