/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * pks_test.h - the ABI of /dev/pks-test, the device of pkstool's test
 * module pks_test.ko: the built-in test cases, stray accesses and the
 * benchmark. What a production machine does not load: this header is not
 * installed with pks.h, whose conventions it follows (size first, rsvd
 * zero) and whose structures it uses.
 */
#ifndef _UAPI_LINUX_PKS_TEST_H
#define _UAPI_LINUX_PKS_TEST_H

#include "pks.h"

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
	___PKS_T(PROTECT, "protect", PKS_TEST_F_NEEDS_DAX),		\
	___PKS_T(STRAY_WRITE, "stray-write", PKS_TEST_F_NEEDS_DAX),	\
	___PKS_T(UNCLAIMED, "unclaimed", 0),				\
	___PKS_T(RESUME, "resume", 0),					\
	___PKS_T(NMI, "nmi", 0),					\
	___PKS_T(KEY_FREE, "key-free", 0),				\
	___PKS_T(IPI_RACE, "ipi-race", 0),				\
	___PKS_T(BOUNDARY, "boundary", PKS_TEST_F_NEEDS_DAX),		\
	___PKS_T(KEY_FREE_WINDOW, "key-free-window", 0),		\
	___PKS_T(NR, "", 0)						\
}

#define PKS_TEST_F_NOT_IN_ALL	(1u << 0)	/* run only when named */
#define PKS_TEST_F_CRASHES	(1u << 1)	/* oopses the caller */
#define PKS_TEST_F_NEEDS_DAX	(1u << 2)	/* needs a device-dax range */

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
 * struct pks_test_run - run one built-in test, PKS_TEST_IOC_RUN
 * @size: in: sizeof(struct pks_test_run)
 * @test: in: enum pks_test_id
 * @result: out: enum pks_test_result
 * @rsvd: must be zero
 * @range: in: the device-dax range, for PKS_TEST_F_NEEDS_DAX cases
 * @message: out: NUL-terminated reason for a failure or skip
 */
struct pks_test_run {
	__u32 size;
	__u32 test;
	__u32 result;
	__u32 rsvd;
	struct pks_range range;
	char message[PKS_MESSAGE_LEN];
};

/*
 * PKS_TEST_IOC_STRAY's flags, beside PKS_COPY_F_WRITE, for a struct
 * pks_copy.
 * PKS_TEST_IOC_STRAY accesses the memory with no window, as a stray
 * pointer would: with PKS_COPY_F_UNGUARDED through fault-safe helpers
 * (on a protected range that fails with -EFAULT), with PKS_COPY_F_PLAIN
 * with plain loads and stores of one 8-byte word (in strict mode the
 * fault oopses the caller, in relaxed mode the access completes). Strays
 * may also target unprotected device-dax or fsdax memory, for control
 * runs, and nothing else; @start and @len are multiples of 8.
 */
#define PKS_COPY_F_UNGUARDED	(1u << 1)
#define PKS_COPY_F_PLAIN	(1u << 2)	/* unguarded, not fault-safe */
/*
 * With PKS_COPY_F_PLAIN: move one word from physical @buf to physical
 * @start with a single instruction (movsq), touching two ranges at once,
 * as a stray memcpy between two namespaces would.
 */
#define PKS_COPY_F_MOVE		(1u << 3)
/*
 * Alone or with PKS_COPY_F_WRITE: copy_to_user() from @start to @buf (a
 * read), or copy_from_user() from @buf to @start (a write), with no
 * window and no bounce buffer, as a stray user copy would: one call for
 * up to PKS_COPY_MAX bytes, the user pages faulted in by the copy itself.
 * A protected strict range fails it (EFAULT, the copy fixed up); a
 * relaxed one lets it complete.
 */
#define PKS_COPY_F_USER		(1u << 4)

/**
 * struct pks_bench_switch - one run of the context-switch figure: two
 *	kernel threads bound to one CPU hand a token back and forth
 * @ns: time for all the round trips
 * @switches: context switches on that CPU: both threads' switch-outs
 * @holder_switches: those of the first thread, the one that holds a task
 *	window in the granted run
 * @pkrs_writes: PKRS writes on that CPU meanwhile
 * @pkrs_skips: redundant PKRS writes skipped on it meanwhile
 */
struct pks_bench_switch {
	__u64 ns;
	__u64 switches;
	__u64 holder_switches;
	__u64 pkrs_writes;
	__u64 pkrs_skips;
};

/**
 * struct pks_bench_irq - one run of the interrupt figure: a kernel thread
 *	bound to one CPU queues an irq_work there and waits for it, round
 *	after round
 * @ns: time for all the rounds
 * @handlers: hard interrupts and softirqs handled on that CPU during the
 *	rounds: the irq_works, and whatever else came (timer ticks, the
 *	softirqs run on interrupt exit)
 * @pkrs_writes: PKRS writes at interrupt entry and exit on that CPU then
 * @leaked: irq_works that found PKRS other than the default
 */
struct pks_bench_irq {
	__u64 ns;
	__u64 handlers;
	__u64 pkrs_writes;
	__u64 leaked;
};

/**
 * struct pks_bench - a benchmark figure of /dev/pks-test, PKS_TEST_IOC_BENCH,
 *	run on the caller's current CPU
 * @size: in: sizeof(struct pks_bench)
 * @iterations: in: accesses per method, 1..1000000 (for
 *	PKS_BENCH_TASK_WINDOW, windows per loop; for PKS_BENCH_SWITCH, round
 *	trips per run, up to PKS_BENCH_MAX_ROUNDS; for PKS_BENCH_IRQ,
 *	rounds per run, up to PKS_BENCH_MAX_ROUNDS)
 * @window_ns: out: time for @iterations CPU windows: open, write, close
 * @window_pkrs_writes: out: PKRS writes those made
 * @redundant_pkrs_writes: out: PKS_BENCH_GUARD: PKRS writes made by
 *	@iterations opens of an already open key
 * @pte_ns: out: PKS_BENCH_GUARD: time for @iterations of the alternative
 *	without PKS: make the buffer writable (a PTE change per page, one TLB
 *	flush on every CPU, after which each CPU reads the buffer's first
 *	byte to check its flush), write, make it inaccessible again (the same
 *	again)
 * @pte_updates: out: PTEs those changed, as read back after each write
 * @tlb_flushes: out: TLB flushes they made (one per CPU per change), each
 *	counted only if, after it, that CPU could read the buffer exactly
 *	when its PTE was present
 * @access_bytes: in: PKS_BENCH_GUARD: bytes each access writes, a multiple
 *	of 8 up to PKS_BENCH_MAX_BYTES; 0 means 8. The buffer spans as many
 *	pages. @iterations times @access_bytes is at most PKS_BENCH_MAX_TOTAL.
 *	Other figures write 8 bytes and take 0 only.
 * @figure: in: enum pks_bench_figure
 * @sleep_us: in: PKS_BENCH_TASK_WINDOW: how long each sleeping window
 *	sleeps, up to PKS_BENCH_MAX_SLEEP_US; 0 means 50. @iterations times
 *	@sleep_us is at most PKS_BENCH_MAX_SLEEP_TOTAL_US. Others take 0.
 * @rsvd: in: 0
 * @task_ns: out: PKS_BENCH_TASK_WINDOW: time for @iterations task windows
 *	that do not sleep (open, write, close), on a kernel thread bound to
 *	the CPU
 * @task_pkrs_writes: out: PKRS writes on that CPU meanwhile
 * @task_switches: out: the thread's switch-outs inside those windows
 * @sleep_ns: out: time for @iterations sleeps of @sleep_us, no window
 * @sleep_pkrs_writes: out: PKRS writes on the CPU meanwhile
 * @sleep_window_ns: out: time for @iterations task windows that each sleep
 *	@sleep_us (open, write, sleep, close)
 * @sleep_window_pkrs_writes: out: PKRS writes on the CPU meanwhile
 * @sleep_window_switches: out: the thread's switch-outs inside them
 * @plain: out: PKS_BENCH_SWITCH with neither thread holding rights
 * @granted: out: PKS_BENCH_SWITCH with the first thread holding a task
 *	window open for the whole run
 * @irq_plain: out: PKS_BENCH_IRQ, the thread holding no rights
 * @irq_held: out: PKS_BENCH_IRQ, the thread holding a task window around
 *	each round
 */
struct pks_bench {
	__u32 size;
	__u32 iterations;
	__u64 window_ns;
	__u64 window_pkrs_writes;
	__u64 redundant_pkrs_writes;
	__u64 pte_ns;
	__u64 pte_updates;
	__u64 tlb_flushes;
	__u32 access_bytes;
	__u32 figure;
	__u32 sleep_us;
	__u32 rsvd;
	__u64 task_ns;
	__u64 task_pkrs_writes;
	__u64 task_switches;
	__u64 sleep_ns;
	__u64 sleep_pkrs_writes;
	__u64 sleep_window_ns;
	__u64 sleep_window_pkrs_writes;
	__u64 sleep_window_switches;
	struct pks_bench_switch plain;
	struct pks_bench_switch granted;
	struct pks_bench_irq irq_plain;
	struct pks_bench_irq irq_held;
};

/**
 * enum pks_bench_figure - what PKS_TEST_IOC_BENCH measures
 * @PKS_BENCH_GUARD: a CPU window against a PTE change with a TLB flush
 *	on every CPU
 * @PKS_BENCH_TASK_WINDOW: a CPU window, a task window, a sleep, and a
 *	task window around a sleep, taking turns round by round
 * @PKS_BENCH_SWITCH: context switches between two threads on one CPU,
 *	with no rights held and with the first thread holding a task window,
 *	the two runs taking turns in blocks of round trips
 * @PKS_BENCH_IRQ: interrupts on a CPU whose task holds no rights, and on
 *	one whose task holds a task window, the two taking turns round by
 *	round
 */
enum pks_bench_figure {
	PKS_BENCH_GUARD,
	PKS_BENCH_TASK_WINDOW,
	PKS_BENCH_SWITCH,
	PKS_BENCH_IRQ,
	PKS_BENCH_NR
};

#define PKS_BENCH_MAX_BYTES	(2u << 20)
#define PKS_BENCH_MAX_TOTAL	(1ull << 30)
#define PKS_BENCH_MAX_ROUNDS	100000
#define PKS_BENCH_MAX_SLEEP_US	10000
#define PKS_BENCH_MAX_SLEEP_TOTAL_US	(30u * 1000 * 1000)

/**
 * struct pks_irq_strays - strays from interrupts on one CPU,
 *	PKS_TEST_IOC_IRQ_STRAYS: a hard interrupt (a pinned hrtimer) makes a
 *	fault-safe stray write of one word, then schedules a tasklet there,
 *	which makes the same write from softirq context; round after round,
 *	interrupting whatever the CPU runs
 * @size: in: sizeof(struct pks_irq_strays)
 * @cpu: in: the CPU
 * @rounds: in: timer expiries, 1..PKS_IRQ_STRAYS_MAX_ROUNDS
 * @interval_us: in: time between them, 1..10000; 0 means 500
 * @flags: in: PKS_IRQ_STRAYS_F_*
 * @rsvd: in: 0
 * @start: in: physical address of the word, 8-byte aligned, device-dax
 *	or fsdax memory
 * @value: in: what each stray writes
 * @hardirq_landed: out: the hrtimer's writes that went through
 * @hardirq_refused: out: those that faulted
 * @softirq_landed: out: the tasklet's writes that went through (a tasklet
 *	still pending when the next round schedules it runs once for both)
 * @softirq_refused: out: those that faulted
 * @hardirq_in_kernel: out: expiries that interrupted kernel code
 */
struct pks_irq_strays {
	__u32 size;
	__u32 cpu;
	__u32 rounds;
	__u32 interval_us;
	__u32 flags;
	__u32 rsvd;
	__u64 start;
	__u64 value;
	__u64 hardirq_landed;
	__u64 hardirq_refused;
	__u64 softirq_landed;
	__u64 softirq_refused;
	__u64 hardirq_in_kernel;
};

/*
 * The control: while the strays run, pks.ko judges interrupts as it did
 * before it told contexts apart (held pages granted to hard interrupts,
 * the interrupted context's frames counted for the owner rules).
 */
#define PKS_IRQ_STRAYS_F_CONTROL	(1u << 0)
#define PKS_IRQ_STRAYS_MAX_ROUNDS	100000

/**
 * struct pks_v10_price - upstream's two PKRS writes per copy, emulated
 * @size: in: sizeof(struct pks_v10_price)
 * @on: in: 1 to bracket the owner's file copies (dax_copy_to_iter,
 *	dax_copy_from_iter) with two writes of the register's own value,
 *	0 to remove the brackets
 * @rsvd: in: 0
 * @writes: out: the writes made since the last placement
 */
struct pks_v10_price {
	__u32 size;
	__u32 on;
	__u32 rsvd;
	__u32 pad;
	__u64 writes;
};

/**
 * struct pks_fs_strays - strays from ext4's own code under the DAX layer
 * @size: in: sizeof(struct pks_fs_strays)
 * @on: in: 1 to arm (a kprobe on ext4_iomap_begin makes one fault-safe
 *	stray write per call in a task), 0 to disarm and read the counts
 * @flags: in: PKS_FS_STRAYS_F_*, when arming
 * @rsvd: in: 0
 * @start: in: physical address of the word, 8-byte aligned, device-dax
 *	or fsdax memory
 * @value: in: what each stray writes
 * @landed: out: the writes that went through since arming
 * @refused: out: those that faulted
 */
struct pks_fs_strays {
	__u32 size;
	__u32 on;
	__u32 flags;
	__u32 rsvd;
	__u64 start;
	__u64 value;
	__u64 landed;
	__u64 refused;
};

/*
 * The control: while armed, pks.ko judges the owner rules as it did
 * before the review (any DAX or pmem code among the callers admits).
 */
#define PKS_FS_STRAYS_F_CONTROL		(1u << 0)

/**
 * struct pks_ipmodify - PKS_TEST_IOC_IPMODIFY: try to become another
 *	ip-modifying ftrace user of a function, as a livepatch would
 * @size: in: sizeof(struct pks_ipmodify)
 * @rsvd: in: 0
 * @function: in: the function's name (as in /proc/kallsyms), NUL-terminated
 */
struct pks_ipmodify {
	__u32 size;
	__u32 rsvd;
	char function[PKS_SYM_LEN];
};

/**
 * enum pks_carry_kind - the callbacks of PKS_TEST_IOC_GRANT_CARRY
 * @PKS_CARRY_HRTIMER: two soft hrtimers with one expiry (one softirq run)
 * @PKS_CARRY_TIMER: two timers with one expiry (one softirq run)
 * @PKS_CARRY_TASKLET: two tasklets (one softirq run)
 * @PKS_CARRY_WORK: two work items of a bound workqueue (one kworker)
 */
enum pks_carry_kind {
	PKS_CARRY_HRTIMER,
	PKS_CARRY_TIMER,
	PKS_CARRY_TASKLET,
	PKS_CARRY_WORK,
	PKS_CARRY_KINDS
};

/**
 * struct pks_grant_carry - does a grant outlive its callback: round after
 *	round, two callbacks of one kind armed together on one CPU run back
 *	to back; the first makes a legitimate access (a fault-safe read of a
 *	word of a page the test module holds a reference to, granted by the
 *	held-page rule), the second looks at the word's key in PKRS before
 *	it reads the word too
 * @size: in: sizeof(struct pks_grant_carry)
 * @cpu: in: the CPU
 * @rounds: in: 1..PKS_GRANT_CARRY_MAX_ROUNDS
 * @kind: in: enum pks_carry_kind
 * @flags: in: PKS_GRANT_CARRY_F_*
 * @rsvd: in: 0
 * @start: in: physical address of the word, 8-byte aligned, in a
 *	protected device-dax or fsdax namespace
 * @rounds_done: out: rounds whose second callback ran
 * @first_read: out: first callbacks whose read went through
 * @carried: out: second callbacks that found the key open as they began
 * @second_read: out: second callbacks whose read went through
 */
struct pks_grant_carry {
	__u32 size;
	__u32 cpu;
	__u32 rounds;
	__u32 kind;
	__u32 flags;
	__u32 rsvd;
	__u64 start;
	__u64 rounds_done;
	__u64 first_read;
	__u64 carried;
	__u64 second_read;
};

/* The control: pks.ko's callback end hooks off while the rounds run. */
#define PKS_GRANT_CARRY_F_CONTROL	(1u << 0)
#define PKS_GRANT_CARRY_MAX_ROUNDS	10000

/*
 * /dev/pks-test, the device of pks_test.ko: what a production machine
 * does not load. Every call needs CAP_SYS_ADMIN.
 */

/*
 * PKS_TEST_IOC_RUN: run a built-in test. The crash test must be requested
 * twice on the same open file: the first call arms it (PKS_RESULT_ARMED),
 * the second oopses the caller. Any other test disarms it.
 * Return 0 when the test ran (see @result), -ENOENT for an unknown test,
 * -EBUSY when a key the test needs is in use (@message says which),
 * -EINVAL on a bad size or non-zero rsvd, -EINTR if interrupted.
 */
#define PKS_TEST_IOC_RUN	_IOWR(PKS_IOC_MAGIC, 0x41, struct pks_test_run)

/*
 * PKS_TEST_IOC_STRAY: a stray kernel access to namespace memory, with no
 * window: PKS_COPY_F_UNGUARDED (fault-safe) or PKS_COPY_F_PLAIN, with
 * PKS_COPY_F_WRITE for a write, or PKS_COPY_F_PLAIN | PKS_COPY_F_MOVE.
 * Return 0 when the access completed; -EFAULT when it faulted (what
 * protection should do) or @buf is bad; -ENOENT when the span is not
 * device-dax or fsdax memory; -EINVAL for bad flags, sizes or alignment.
 */
#define PKS_TEST_IOC_STRAY	_IOWR(PKS_IOC_MAGIC, 0x42, struct pks_copy)

/*
 * PKS_TEST_IOC_BENCH: measure the figure struct pks_bench names.
 * Return 0 on success, -EINVAL on a bad size, figure, iteration count,
 * access size, sleep or non-zero rsvd, -ENOSPC when no key is free,
 * -ENOMEM, or an error from creating the figure's kernel threads.
 */
#define PKS_TEST_IOC_BENCH	_IOWR(PKS_IOC_MAGIC, 0x43, struct pks_bench)

/*
 * PKS_TEST_IOC_BRACKETS: turn pks.ko's owner's copy brackets on (argument
 * 1) or off (0), for the control run of the ownercopy case: with them off,
 * the owner's accesses fault and are judged by the rules again.
 * Return 0, or -EINVAL for any other value.
 */
#define PKS_TEST_IOC_BRACKETS	_IO(PKS_IOC_MAGIC, 0x44)

/*
 * PKS_TEST_IOC_IRQ_STRAYS: the strays struct pks_irq_strays describes.
 * Return 0 when they ran (see the counts); -ENOENT when @start is not
 * device-dax or fsdax memory; -EINVAL on a bad size, CPU, count, interval,
 * flags, alignment or non-zero rsvd; -EBUSY while another run is going on;
 * -ETIMEDOUT when the rounds did not finish within a minute.
 */
#define PKS_TEST_IOC_IRQ_STRAYS	_IOWR(PKS_IOC_MAGIC, 0x45, struct pks_irq_strays)

/*
 * PKS_TEST_IOC_V10_PRICE: what struct pks_v10_price says, for the
 * benchmark's ext4 figure (what a design writing PKRS twice per call
 * costs on this machine, with no right changed).
 * Return 0; -EINVAL on a bad size, @on or non-zero @rsvd; an error from
 * register_kretprobe() when a function cannot be probed.
 */
#define PKS_TEST_IOC_V10_PRICE	_IOWR(PKS_IOC_MAGIC, 0x48, struct pks_v10_price)

/*
 * PKS_TEST_IOC_FS_STRAYS: what struct pks_fs_strays says.
 * Return 0; -ENOENT when @start is not device-dax or fsdax memory;
 * -EBUSY when armed already; -EINVAL on a bad size, @on, flags, alignment
 * or non-zero @rsvd; an error from register_kprobe() (no ext4).
 */
#define PKS_TEST_IOC_FS_STRAYS	_IOWR(PKS_IOC_MAGIC, 0x49, struct pks_fs_strays)

/*
 * PKS_TEST_IOC_IPMODIFY: register an ftrace_ops with FTRACE_OPS_FL_
 * IPMODIFY and SAVE_REGS (a callback that changes nothing) on the
 * function struct pks_ipmodify names, and remove it again at once.
 * Return 0 when ftrace took it; -EBUSY when another ip-modifying user
 * holds the function (a kprobe with a post-handler, pks.ko's fault
 * hooks, a livepatch); -ENOENT when no such function exists; -EINVAL on
 * a bad size, non-zero rsvd or a name without its NUL; another error of
 * ftrace's (a function it cannot trace).
 */
#define PKS_TEST_IOC_IPMODIFY	_IOW(PKS_IOC_MAGIC, 0x46, struct pks_ipmodify)

/*
 * PKS_TEST_IOC_GRANT_CARRY: the rounds struct pks_grant_carry describes.
 * Return 0 when they ran (see the counts); -ENOENT when @start is not in
 * a protected device-dax or fsdax namespace; -EINVAL on a bad size, CPU,
 * kind, count, flags, alignment or non-zero rsvd; -EBUSY while another
 * run is going on; -ETIMEDOUT when a round did not end within 2 seconds.
 */
#define PKS_TEST_IOC_GRANT_CARRY	_IOWR(PKS_IOC_MAGIC, 0x47, struct pks_grant_carry)

#endif /* _UAPI_LINUX_PKS_TEST_H */
