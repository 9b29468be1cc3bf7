/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * pks.h - the ABI of /dev/pks, the pkstool protection-keys driver.
 *
 * This header is the only definition of the ABI: the driver and libpks both
 * include it. Structures start with their size, which the caller sets to
 * sizeof() of the structure it was built with; the driver refuses sizes it
 * does not know with -EINVAL. Fields named rsvd must be zero.
 */
#ifndef _UAPI_LINUX_PKS_H
#define _UAPI_LINUX_PKS_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define PKS_ABI_VERSION		1
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

/**
 * struct pks_info - driver state, filled by PKS_IOC_GET_INFO
 * @size: in: sizeof(struct pks_info)
 * @abi_version: out: PKS_ABI_VERSION of the driver
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
#define PKS_INFO_F_FAULT_HOOK	(1u << 1)	/* fault capture is active */

/*
 * Built-in test cases, as in cxl_mem.h: each user defines ___PKS_T(id,
 * name, flags) to pick what it needs, and PKS_TEST_CASES expands to a
 * braced list of it, usable as an enum body or an array initializer.
 * Add new cases just before NR, which stays last: the numbers are ABI.
 */
#define PKS_TEST_CASES {						\
	___PKS_T(CHECK_DEFAULTS, "check-defaults", 0),			\
	___PKS_T(SINGLE_KEY, "single-key", 0),				\
	___PKS_T(CONTEXT_SWITCH, "context-switch", 0),			\
	___PKS_T(EXCEPTION, "exception", 0),				\
	___PKS_T(FAULT_CALLBACK, "fault-callback", 0),			\
	___PKS_T(ALL_KEYS, "all-keys", PKS_TEST_F_NOT_IN_ALL),		\
	___PKS_T(CRASH, "crash", PKS_TEST_F_NOT_IN_ALL | PKS_TEST_F_CRASHES), \
	___PKS_T(NR, "", 0)						\
}

#define PKS_TEST_F_NOT_IN_ALL	(1u << 0)	/* run only when named */
#define PKS_TEST_F_CRASHES	(1u << 1)	/* oopses the caller */

#define ___PKS_T(id, name, flags) PKS_TEST_##id
enum pks_test_id PKS_TEST_CASES;
#undef ___PKS_T

enum pks_test_result {
	PKS_RESULT_PASS = 0,
	PKS_RESULT_FAIL = 1,
	PKS_RESULT_SKIP = 2,
	PKS_RESULT_ARMED = 3,	/* crash test armed; run it again to crash */
};

/**
 * struct pks_test_run - run one built-in test, PKS_IOC_RUN_TEST
 * @size: in: sizeof(struct pks_test_run)
 * @test: in: enum pks_test_id
 * @result: out: enum pks_test_result
 * @rsvd: must be zero
 * @message: out: NUL-terminated reason for a failure or skip
 */
struct pks_test_run {
	__u32 size;
	__u32 test;
	__u32 result;
	__u32 rsvd;
	char message[PKS_MESSAGE_LEN];
};

#define PKS_IOC_MAGIC		0xB7

/*
 * PKS_IOC_GET_INFO: fill struct pks_info.
 * Return 0 on success, -EFAULT on a bad pointer, -EINVAL on a bad size or
 * non-zero rsvd.
 */
#define PKS_IOC_GET_INFO	_IOWR(PKS_IOC_MAGIC, 0x00, struct pks_info)

/*
 * PKS_IOC_RUN_TEST: run a built-in test. The crash test must be requested
 * twice on the same open file: the first call arms it (PKS_RESULT_ARMED),
 * the second oopses the caller. Any other test disarms it.
 * Return 0 when the test ran (see @result), -ENOENT for an unknown test,
 * -EBUSY when a key the test needs is in use (@message says which),
 * -EINVAL on a bad size or non-zero rsvd, -EINTR if interrupted.
 */
#define PKS_IOC_RUN_TEST	_IOWR(PKS_IOC_MAGIC, 0x01, struct pks_test_run)

#endif /* _UAPI_LINUX_PKS_H */
