// SPDX-License-Identifier: GPL-2.0
/*
 * pks-ioctl: drive /dev/pks and /dev/pks-test with raw ioctls, to test
 * the drivers' own checks without libpks or pkstool deciding anything
 * first. Stray accesses need the test module, pks_test.ko; they go to
 * $PKS_TEST_DEVICE instead of /dev/pks-test when it is set (/dev/pks, to
 * see the production device refuse them).
 *
 *   pks-ioctl protect START LEN DAXDEV [MAPOFF]
 *	map DAXDEV, ask the driver to protect START+LEN with the mapping at
 *	MAPOFF; print the driver's answer; exit 0 if it protected, else the
 *	errno it returned (the range is unprotected again before exit)
 *   pks-ioctl protect-cost START LEN DAXDEV
 *	protect START+LEN and unprotect it again; print as JSON the time
 *	of each, the direct-map entries the protection keyed and their size
 *   pks-ioctl malformed
 *	send bad sizes, reserved bits, pointers and commands to both
 *	devices (the test device's part when it exists); exit 0 when each
 *	got the documented error
 *   pks-ioctl stray ADDR read|write|plain-read|plain-write [VALUE]
 *	one 8-byte kernel access at physical ADDR with no window; print the
 *	value read or written; exit 0 if it went through, else the errno
 *   pks-ioctl stray-edge ADDR read|write|plain-read|plain-write [VALUE]
 *	as stray, but the ioctl's syscall instruction is the first of a code
 *	page that follows an inaccessible one, so that a kernel report that
 *	dumps the caller's code bytes (the stock WARN on the first kernel
 *	protection-key fault of a boot does) itself faults reading them
 *   pks-ioctl guarded-read ADDR
 *	read 8 bytes at ADDR through an access window and print them
 *   pks-ioctl user-copy ADDR LEN read|write
 *	one stray copy_to_user() of LEN bytes at physical ADDR into a fresh
 *	anonymous mapping none of whose pages has been touched yet (read),
 *	or copy_from_user() into ADDR from a mapping filled with a pattern
 *	(write); then compare the two through an access window. Exit 0 if
 *	the copy went through and the data match, 3 if they differ, else
 *	the copy's errno
 *   pks-ioctl stray-move DST SRC
 *	move one word from physical SRC to DST with a single instruction
 *	and no window; exit 0 if it went through, else the errno
 *   pks-ioctl irq-strays ADDR CPU ROUNDS [control]
 *	ROUNDS fault-safe stray writes of STRAY_VALUE to physical ADDR from
 *	a hard interrupt (a pinned hrtimer) on CPU, each followed by one
 *	from a tasklet there (softirq); "control" runs them with pks.ko's
 *	context checks off. Print the counts as NAME=N words; exit 0 if
 *	they ran, else the errno
 *   pks-ioctl fs-strays-arm ADDR [control]
 *	arm fault-safe stray writes of STRAY_VALUE to physical ADDR from
 *	ext4's iomap_begin callback (a kprobe: each call in a task strays
 *	once); "control" judges them as pks.ko did before the review
 *   pks-ioctl fs-strays-disarm
 *	disarm them and print landed=N refused=N
 *   pks-ioctl grant-carry ADDR CPU ROUNDS hrtimer|timer|tasklet|work [control]
 *	ROUNDS pairs of callbacks of that kind run back to back on CPU; the
 *	first reads the word at physical ADDR (a page the test module holds:
 *	a legitimate access), the second checks whether that grant is still
 *	open as it begins; "control" runs them with pks.ko's callback end
 *	hooks off. Print the counts as NAME=N words; exit 0 if they ran,
 *	else the errno
 *   pks-ioctl storm ADDR N
 *	N fault-safe stray writes around ADDR; print how many were refused
 *   pks-ioctl accounting
 *	print the driver's own counts as NAME=N words (its own open file
 *	counts as one session)
 *   pks-ioctl brackets
 *	print the owner's copy brackets, one line each: FUNCTION OWNER
 *	placed=0|1 opens=N missed=N; then on=0|1 (the test knob)
 *   pks-ioctl brackets-on 0|1
 *	turn the brackets off or on again (the test module's knob)
 *   pks-ioctl ipmodify FUNCTION
 *	try to add an ip-modifying ftrace_ops (as a livepatch) on FUNCTION
 *	and remove it again; exit 0 if ftrace took it, else the errno
 *	(EBUSY: another ip-modifying user holds FUNCTION)
 *   pks-ioctl records SEQ
 *	read the log's record SEQ on a read-only open of /dev/pks; print
 *	its pid and comm; exit 0, or the errno (EPERM without CAP_SYS_ADMIN)
 *   pks-ioctl holders
 *	on a read-only open of /dev/pks: print count=N (how many have the
 *	device open), then one "PID COMM" line each; exit 0, or the errno of
 *	the fill (EPERM without CAP_SYS_ADMIN)
 *   pks-ioctl head
 *	print the sequence number the log's next record (a fault or a
 *	protection event) will get
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/pks.h>
#include <linux/pks_test.h>

static int open_or_exit(const char *path)
{
	int fd = open(path, O_RDWR);

	if (fd < 0) {
		fprintf(stderr, "pks-ioctl: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	return fd;
}

static int dev_fd(void)
{
	return open_or_exit("/dev/pks");
}

static int test_fd(void)
{
	const char *dev = getenv("PKS_TEST_DEVICE");

	return open_or_exit(dev ? dev : "/dev/pks-test");
}

/*
 * Map DAXDEV far enough to cover @prot's range from @mapoff on and ask the
 * driver to protect it; return 0 or the errno, with a message in @prot.
 */
static int protect_mapped(struct pks_protect *prot, const char *daxdev,
			  unsigned long long mapoff)
{
	size_t maplen;
	void *map;
	int dax;

	dax = open(daxdev, O_RDWR);
	if (dax < 0) {
		perror(daxdev);
		exit(2);
	}
	maplen = prot->range.len + mapoff;
	maplen = (maplen + (2 << 20) - 1) & ~((size_t)(2 << 20) - 1);
	map = mmap(NULL, maplen, PROT_READ, MAP_SHARED, dax, 0);
	if (map == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	prot->range.addr = (uintptr_t)map + mapoff;
	return ioctl(dev_fd(), PKS_IOC_PROTECT, prot) < 0 ? errno : 0;
}

static int unprotect(uint64_t start)
{
	struct pks_unprotect unprot = { .size = sizeof(unprot),
					.start = start };

	if (ioctl(dev_fd(), PKS_IOC_UNPROTECT, &unprot) < 0) {
		perror("unprotect");
		return errno;
	}
	return 0;
}

static int do_protect(int argc, char **argv)
{
	struct pks_protect prot = { .size = sizeof(prot) };
	int rc;

	if (argc < 5)
		return 2;
	prot.range.start = strtoull(argv[2], NULL, 0);
	prot.range.len = strtoull(argv[3], NULL, 0);
	rc = protect_mapped(&prot, argv[4],
			    argc > 5 ? strtoull(argv[5], NULL, 0) : 0);
	printf("protect %#llx+%#llx: %s: %s\n",
	       (unsigned long long)prot.range.start,
	       (unsigned long long)prot.range.len,
	       rc ? strerror(rc) : "ok", rc ? prot.message : prot.name);
	if (!rc)
		unprotect(prot.range.start);
	return rc;
}

/*
 * pks-ioctl protect-blockdev DEV: ask the driver itself to protect block
 * device DEV (the CLI's own checks left out), print its answer, and end
 * the protection if it was given. Exit 0 or the errno.
 */
static int do_protect_blockdev(char **argv)
{
	struct pks_protect prot = { .size = sizeof(prot),
				    .flags = PKS_PROTECT_F_BLOCKDEV };
	int fd = open(argv[2], O_RDONLY), rc;

	if (fd < 0) {
		perror(argv[2]);
		return 2;
	}
	prot.range.addr = fd;
	rc = ioctl(dev_fd(), PKS_IOC_PROTECT, &prot) < 0 ? errno : 0;
	printf("protect %s: %s: %s\n", argv[2], rc ? strerror(rc) : "ok",
	       rc ? prot.message : prot.name);
	if (!rc)
		unprotect(prot.range.start);
	close(fd);
	return rc;
}

static uint64_t keyed_entries(void)
{
	struct pks_accounting a = { .size = sizeof(a) };

	if (ioctl(dev_fd(), PKS_IOC_ACCOUNTING, &a)) {
		perror("pks-ioctl: accounting");
		exit(1);
	}
	return a.counts[PKS_ACCT_KEYED_ENTRIES];
}

/* The direct-map leaf size of the protected range that starts at @start. */
static uint64_t leaf_bytes(uint64_t start)
{
	struct pks_range_info r[PKS_NR_KEYS];
	struct pks_list list = { .size = sizeof(list), .nr = PKS_NR_KEYS,
				 .ranges = (uintptr_t)r };
	unsigned int i;

	if (ioctl(dev_fd(), PKS_IOC_LIST, &list)) {
		perror("pks-ioctl: list");
		exit(1);
	}
	for (i = 0; i < list.nr && i < PKS_NR_KEYS; i++)
		if (r[i].start == start)
			return r[i].leaf_size;
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ull + t.tv_nsec;
}

/*
 * What protecting and unprotecting START+LEN cost the driver: the time
 * of each ioctl and the direct-map entries it keyed, as one JSON object.
 */
static int do_protect_cost(char **argv)
{
	struct pks_protect prot = { .size = sizeof(prot) };
	uint64_t t0, t1, t2, before, keyed, leaf;
	int rc;

	prot.range.start = strtoull(argv[2], NULL, 0);
	prot.range.len = strtoull(argv[3], NULL, 0);
	before = keyed_entries();
	t0 = now_ns();
	rc = protect_mapped(&prot, argv[4], 0);
	t1 = now_ns();
	if (rc) {
		fprintf(stderr, "pks-ioctl: protect: %s: %s\n", strerror(rc),
			prot.message);
		return rc;
	}
	keyed = keyed_entries() - before;
	leaf = leaf_bytes(prot.range.start);
	rc = unprotect(prot.range.start);
	t2 = now_ns();
	printf("{\"bytes\": %llu, \"protect_ns\": %llu, \"unprotect_ns\": %llu, "
	       "\"keyed_entries\": %llu, \"leaf_bytes\": %llu, "
	       "\"keyed_after_unprotect\": %llu}\n",
	       (unsigned long long)prot.range.len,
	       (unsigned long long)(t1 - t0), (unsigned long long)(t2 - t1),
	       (unsigned long long)keyed, (unsigned long long)leaf,
	       (unsigned long long)(keyed_entries() - before));
	return rc;
}

static int failures;

static void expect(const char *what, int ret, int want)
{
	int got = ret < 0 ? errno : 0;

	if (got == want) {
		printf("ok: %s: %s\n", what, want ? strerror(want) : "0");
		return;
	}
	printf("FAIL: %s: got %s, expected %s\n", what,
	       got ? strerror(got) : "0", want ? strerror(want) : "0");
	failures++;
}

static int do_malformed(void)
{
	struct pks_info info = { .size = sizeof(info) };
	struct pks_test_run run = { .size = sizeof(run) };
	struct pks_copy copy = { .size = sizeof(copy) };
	struct pks_unprotect unprot = { .size = sizeof(unprot) };
	struct pks_list list = { .size = sizeof(list) };
	struct pks_bench bench = { .size = sizeof(bench), .iterations = 1 };
	char buf[64];
	int fd = dev_fd();

	expect("unknown ioctl", ioctl(fd, _IO(PKS_IOC_MAGIC, 0x7f)), ENOTTY);
	expect("foreign ioctl", ioctl(fd, _IO('T', 1)), ENOTTY);
	expect("info: bad pointer", ioctl(fd, PKS_IOC_GET_INFO, 16), EFAULT);
	info.size = 4;
	expect("info: wrong size", ioctl(fd, PKS_IOC_GET_INFO, &info), EINVAL);
	/* A size that covers abi_version: the driver still says its ABI. */
	info.size = sizeof(info) - 8;
	info.abi_version = 0;
	expect("info: other ABI's size", ioctl(fd, PKS_IOC_GET_INFO, &info),
	       EINVAL);
	if (info.abi_version != PKS_ABI_VERSION) {
		printf("FAIL: info: other ABI's size: abi_version %u, expected %u\n",
		       info.abi_version, PKS_ABI_VERSION);
		failures++;
	}
	info.size = 4;
	expect("accounting: wrong size", ioctl(fd, PKS_IOC_ACCOUNTING, &info),
	       EINVAL);
	expect("accounting: bad pointer", ioctl(fd, PKS_IOC_ACCOUNTING, 16),
	       EFAULT);
	expect("brackets: wrong size", ioctl(fd, PKS_IOC_BRACKETS, &info),
	       EINVAL);
	expect("brackets: bad pointer", ioctl(fd, PKS_IOC_BRACKETS, 16),
	       EFAULT);
	info.size = sizeof(info);
	info.rsvd = 1;
	expect("info: rsvd set", ioctl(fd, PKS_IOC_GET_INFO, &info), EINVAL);
	info.rsvd = 0;
	info.nr_cpus = 4;
	info.cpus = 16;
	expect("info: bad cpu array", ioctl(fd, PKS_IOC_GET_INFO, &info), EFAULT);
	/* Tests, strays and the benchmark are not on the production device. */
	expect("test on /dev/pks", ioctl(fd, PKS_TEST_IOC_RUN, &run), ENOTTY);
	expect("stray on /dev/pks", ioctl(fd, PKS_TEST_IOC_STRAY, &copy),
	       ENOTTY);
	expect("benchmark on /dev/pks", ioctl(fd, PKS_TEST_IOC_BENCH, &bench),
	       ENOTTY);
	expect("retired test number", ioctl(fd, _IOWR(PKS_IOC_MAGIC, 0x01,
						       struct pks_test_run),
					   &run), ENOTTY);
	unprot.start = 0x100000;
	expect("unprotect: not protected", ioctl(fd, PKS_IOC_UNPROTECT, &unprot),
	       ENOENT);
	copy.start = 0x100000;
	copy.len = sizeof(buf);
	copy.buf = (uintptr_t)buf;
	expect("copy: not protected", ioctl(fd, PKS_IOC_COPY, &copy), ENOENT);
	copy.flags = 1u << 7;
	expect("copy: unknown flag", ioctl(fd, PKS_IOC_COPY, &copy), EINVAL);
	copy.flags = PKS_COPY_F_UNGUARDED | PKS_COPY_F_WRITE;
	expect("copy: stray flag on /dev/pks", ioctl(fd, PKS_IOC_COPY, &copy),
	       EINVAL);
	copy.flags = PKS_COPY_F_PLAIN;
	expect("copy: plain flag on /dev/pks", ioctl(fd, PKS_IOC_COPY, &copy),
	       EINVAL);
	copy.flags = 0;
	copy.len = PKS_COPY_MAX + 1;
	expect("copy: too long", ioctl(fd, PKS_IOC_COPY, &copy), EINVAL);
	list.nr = 1;
	list.ranges = 16;
	expect("list: bad pointer, no ranges", ioctl(fd, PKS_IOC_LIST, &list), 0);
	list.size = 0;
	expect("list: wrong size", ioctl(fd, PKS_IOC_LIST, &list), EINVAL);
	close(fd);

	fd = open("/dev/pks-test", O_RDWR);
	if (fd < 0) {
		printf("no /dev/pks-test: its checks not run\n");
		return failures ? 1 : 0;
	}
	run.size = sizeof(run);
	run.test = PKS_TEST_NR;
	expect("test: unknown id", ioctl(fd, PKS_TEST_IOC_RUN, &run), ENOENT);
	run.test = 0;
	run.rsvd = 3;
	expect("test: rsvd set", ioctl(fd, PKS_TEST_IOC_RUN, &run), EINVAL);
	run.rsvd = 0;
	run.size = sizeof(run) + 8;
	expect("test: wrong size", ioctl(fd, PKS_TEST_IOC_RUN, &run), EINVAL);
	expect("test device: production ioctl",
	       ioctl(fd, PKS_IOC_GET_INFO, &info), ENOTTY);
	copy.len = 8;
	copy.flags = PKS_COPY_F_WRITE;
	expect("stray: no stray flag", ioctl(fd, PKS_TEST_IOC_STRAY, &copy),
	       EINVAL);
	copy.flags = PKS_COPY_F_UNGUARDED | PKS_COPY_F_WRITE;
	copy.len = 12;
	expect("stray: unaligned write", ioctl(fd, PKS_TEST_IOC_STRAY, &copy),
	       EINVAL);
	copy.flags = PKS_COPY_F_PLAIN | PKS_COPY_F_WRITE;
	copy.len = 16;
	expect("stray: plain copy of two words",
	       ioctl(fd, PKS_TEST_IOC_STRAY, &copy), EINVAL);
	copy.flags = PKS_COPY_F_UNGUARDED;
	copy.len = 8;
	expect("stray: not namespace memory",
	       ioctl(fd, PKS_TEST_IOC_STRAY, &copy), ENOENT);
	expect("bench: bad pointer", ioctl(fd, PKS_TEST_IOC_BENCH, 16), EFAULT);
	close(fd);
	return failures ? 1 : 0;
}

/*
 * ioctl() made from a stub at the start of a code page whose preceding
 * page is mapped PROT_NONE: the bytes a kernel report dumps from before
 * the user-mode instruction pointer (42 of them, on both kernels) lie in
 * the inaccessible page, so the report's own read of them faults.
 */
static int (*edge_ioctl)(int fd, unsigned long cmd, void *arg);

static int edge_setup(void)
{
	static const unsigned char stub[] = {
		0xb8, SYS_ioctl, 0x00, 0x00, 0x00,	/* mov $SYS_ioctl, %eax */
		0x0f, 0x05,				/* syscall */
		0xc3,					/* ret */
	};
	long pg = sysconf(_SC_PAGESIZE);
	unsigned char *m = mmap(NULL, 2 * pg, PROT_NONE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED || mprotect(m + pg, pg, PROT_READ | PROT_WRITE))
		return -1;
	memcpy(m + pg, stub, sizeof(stub));
	if (mprotect(m + pg, pg, PROT_READ | PROT_EXEC))
		return -1;
	edge_ioctl = (int (*)(int, unsigned long, void *))(m + pg);
	return 0;
}

/* A guarded copy on /dev/pks, or a stray on /dev/pks-test. */
static int copy8(int fd, uint64_t addr, uint32_t flags, uint64_t *val)
{
	struct pks_copy copy = {
		.size = sizeof(copy),
		.flags = flags,
		.start = addr,
		.len = 8,
		.buf = (uintptr_t)val,
	};

	unsigned long cmd = flags & (PKS_COPY_F_UNGUARDED | PKS_COPY_F_PLAIN) ?
			    PKS_TEST_IOC_STRAY : PKS_IOC_COPY;

	int rc;

	if (!edge_ioctl)
		return ioctl(fd, cmd, &copy) < 0 ? errno : 0;
	/* The stub returns the system call's own result: -errno. */
	rc = edge_ioctl(fd, cmd, &copy);
	return rc < 0 ? -rc : 0;
}

static int do_stray(int argc, char **argv)
{
	static const struct {
		const char *name;
		uint32_t flags;
	} kinds[] = {
		{ "read", PKS_COPY_F_UNGUARDED },
		{ "write", PKS_COPY_F_UNGUARDED | PKS_COPY_F_WRITE },
		{ "plain-read", PKS_COPY_F_PLAIN },
		{ "plain-write", PKS_COPY_F_PLAIN | PKS_COPY_F_WRITE },
	};
	uint64_t val = argc > 4 ? strtoull(argv[4], NULL, 0) :
				  0xbadbadbadbadbad0ULL;
	size_t i;
	int rc;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (strcmp(argv[3], kinds[i].name))
			continue;
		rc = copy8(test_fd(), strtoull(argv[2], NULL, 0),
			   kinds[i].flags, &val);
		printf("stray %s %s: %s, value %#llx\n", argv[3], argv[2],
		       rc ? strerror(rc) : "went through",
		       (unsigned long long)val);
		return rc;
	}
	return 2;
}

static int do_user_copy(char **argv)
{
	uint64_t addr = strtoull(argv[2], NULL, 0);
	size_t i, len = strtoull(argv[3], NULL, 0);
	int write = !strcmp(argv[4], "write");
	struct pks_copy copy = {
		.size = sizeof(copy),
		.flags = PKS_COPY_F_USER | (write ? PKS_COPY_F_WRITE : 0),
		.start = addr,
		.len = len,
	};
	unsigned char *user, *ref;
	int rc;

	user = mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ref = malloc(len);
	if (user == MAP_FAILED || !ref || !len) {
		perror("pks-ioctl: user-copy");
		return 2;
	}
	if (write)
		for (i = 0; i < len; i++)
			user[i] = (unsigned char)(i * 7 + 3);
	copy.buf = (uintptr_t)user;
	rc = ioctl(test_fd(), PKS_TEST_IOC_STRAY, &copy) < 0 ? errno : 0;
	printf("user-copy %s %s %zu: %s, %llu bytes\n", argv[4], argv[2], len,
	       rc ? strerror(rc) : "went through",
	       (unsigned long long)copy.done);
	if (rc)
		return rc;
	copy.flags = 0;
	copy.buf = (uintptr_t)ref;
	if (ioctl(dev_fd(), PKS_IOC_COPY, &copy)) {
		perror("pks-ioctl: user-copy: guarded read");
		return 2;
	}
	if (memcmp(user, ref, len)) {
		printf("user-copy: the data differ\n");
		return 3;
	}
	printf("user-copy: the data match\n");
	return 0;
}

static int do_grant_carry(int argc, char **argv)
{
	static const char *const kinds[] = { "hrtimer", "timer", "tasklet",
					     "work" };
	struct pks_grant_carry req = {
		.size = sizeof(req),
		.start = strtoull(argv[2], NULL, 0),
		.cpu = strtoul(argv[3], NULL, 0),
		.rounds = strtoul(argv[4], NULL, 0),
		.kind = PKS_CARRY_KINDS,
	};
	unsigned int i;

	for (i = 0; i < PKS_CARRY_KINDS; i++)
		if (!strcmp(argv[5], kinds[i]))
			req.kind = i;
	if (argc > 6 && !strcmp(argv[6], "control"))
		req.flags = PKS_GRANT_CARRY_F_CONTROL;
	if (ioctl(test_fd(), PKS_TEST_IOC_GRANT_CARRY, &req) < 0) {
		int rc = errno;

		perror("pks-ioctl: grant-carry");
		return rc;
	}
	printf("rounds_done=%llu first_read=%llu carried=%llu second_read=%llu\n",
	       (unsigned long long)req.rounds_done,
	       (unsigned long long)req.first_read,
	       (unsigned long long)req.carried,
	       (unsigned long long)req.second_read);
	return 0;
}

static int do_stray_move(char **argv)
{
	struct pks_copy copy = {
		.size = sizeof(copy),
		.flags = PKS_COPY_F_PLAIN | PKS_COPY_F_MOVE,
		.start = strtoull(argv[2], NULL, 0),
		.buf = strtoull(argv[3], NULL, 0),
		.len = 8,
	};
	int rc = ioctl(test_fd(), PKS_TEST_IOC_STRAY, &copy) < 0 ? errno : 0;

	printf("stray move %s <- %s: %s\n", argv[2], argv[3],
	       rc ? strerror(rc) : "went through");
	return rc;
}

static int do_storm(int argc, char **argv)
{
	uint64_t addr = strtoull(argv[2], NULL, 0), val = 0;
	unsigned long i, n = argc > 3 ? strtoul(argv[3], NULL, 0) : 10000;
	unsigned long refused = 0;
	int fd = test_fd();

	for (i = 0; i < n; i++)
		refused += copy8(fd, addr + (i % 512) * 8,
				 PKS_COPY_F_UNGUARDED | PKS_COPY_F_WRITE,
				 &val) == EFAULT;
	printf("%lu of %lu refused\n", refused, n);
	return 0;
}

static int do_irq_strays(int argc, char **argv)
{
	struct pks_irq_strays req = {
		.size = sizeof(req),
		.start = strtoull(argv[2], NULL, 0),
		.cpu = strtoul(argv[3], NULL, 0),
		.rounds = strtoul(argv[4], NULL, 0),
		.value = 0xbadbadbadbadbad0ULL,
	};

	if (argc > 5 && !strcmp(argv[5], "control"))
		req.flags = PKS_IRQ_STRAYS_F_CONTROL;
	else if (argc > 5)
		return 2;
	if (ioctl(test_fd(), PKS_TEST_IOC_IRQ_STRAYS, &req) < 0) {
		fprintf(stderr, "pks-ioctl: irq-strays: %s\n", strerror(errno));
		return errno;
	}
	printf("hardirq_landed=%llu hardirq_refused=%llu softirq_landed=%llu softirq_refused=%llu hardirq_in_kernel=%llu\n",
	       (unsigned long long)req.hardirq_landed,
	       (unsigned long long)req.hardirq_refused,
	       (unsigned long long)req.softirq_landed,
	       (unsigned long long)req.softirq_refused,
	       (unsigned long long)req.hardirq_in_kernel);
	return 0;
}

static int do_fs_strays(int argc, char **argv, int on)
{
	struct pks_fs_strays req = {
		.size = sizeof(req),
		.on = on,
		.start = on ? strtoull(argv[2], NULL, 0) : 0,
		.value = 0xbadbadbadbadbad0ULL,
	};

	if (on && argc > 3 && !strcmp(argv[3], "control"))
		req.flags = PKS_FS_STRAYS_F_CONTROL;
	else if (on && argc > 3)
		return 2;
	if (ioctl(test_fd(), PKS_TEST_IOC_FS_STRAYS, &req) < 0) {
		fprintf(stderr, "pks-ioctl: fs-strays: %s\n", strerror(errno));
		return errno;
	}
	if (!on)
		printf("landed=%llu refused=%llu\n",
		       (unsigned long long)req.landed,
		       (unsigned long long)req.refused);
	return 0;
}

static int do_accounting(void)
{
#define ___PKS_A(id, name) name
	static const char *const names[] = PKS_ACCT_KINDS;
#undef ___PKS_A
	struct pks_accounting a = { .size = sizeof(a) };
	unsigned int i;

	if (ioctl(dev_fd(), PKS_IOC_ACCOUNTING, &a)) {
		perror("pks-ioctl: accounting");
		return 1;
	}
	for (i = 0; i < a.nr && i < PKS_ACCT_NR; i++)
		printf("%s%s=%llu", i ? " " : "", names[i],
		       (unsigned long long)a.counts[i]);
	printf("\n");
	return 0;
}

static int do_brackets(void)
{
	struct pks_brackets b = { .size = sizeof(b) };
	unsigned int i;

	if (ioctl(dev_fd(), PKS_IOC_BRACKETS, &b)) {
		perror("pks-ioctl: brackets");
		return 1;
	}
	for (i = 0; i < b.nr && i < PKS_BRACKET_MAX; i++)
		printf("%.*s %.*s placed=%u opens=%llu missed=%llu\n",
		       PKS_FUNC_LEN, b.brackets[i].function,
		       PKS_NAME_LEN, b.brackets[i].owner, b.brackets[i].placed,
		       (unsigned long long)b.brackets[i].opens,
		       (unsigned long long)b.brackets[i].missed);
	printf("on=%d\n", !!(b.flags & PKS_BRACKETS_F_ON));
	return 0;
}

static int do_brackets_on(const char *arg)
{
	if (ioctl(test_fd(), PKS_TEST_IOC_BRACKETS, strtoul(arg, NULL, 0))) {
		perror("pks-ioctl: brackets-on");
		return 1;
	}
	return 0;
}

static int do_ipmodify(const char *function)
{
	struct pks_ipmodify req = { .size = sizeof(req) };

	snprintf(req.function, sizeof(req.function), "%s", function);
	if (ioctl(test_fd(), PKS_TEST_IOC_IPMODIFY, &req) < 0) {
		printf("ipmodify %s: %s\n", function, strerror(errno));
		return errno;
	}
	printf("ipmodify %s: taken\n", function);
	return 0;
}

/* A read-only open: what any user may do with the 0644 device. */
static int dev_fd_ro(void)
{
	int fd = open("/dev/pks", O_RDONLY);

	if (fd < 0) {
		fprintf(stderr, "pks-ioctl: /dev/pks: %s\n", strerror(errno));
		exit(2);
	}
	return fd;
}

static int do_records(const char *seq)
{
	struct pks_fault f;
	struct pks_faults req = {
		.size = sizeof(req),
		.nr = 1,
		.since = strtoull(seq, NULL, 0),
		.records = (uintptr_t)&f,
	};

	if (ioctl(dev_fd_ro(), PKS_IOC_FAULTS, &req) < 0) {
		printf("records: %s\n", strerror(errno));
		return errno;
	}
	if (!req.nr) {
		printf("records: none\n");
		return 0;
	}
	printf("seq=%llu pid=%u comm=%.*s\n", (unsigned long long)f.seq,
	       f.pid, PKS_COMM_LEN, f.comm);
	return 0;
}

static int do_holders(void)
{
	struct pks_holder h[64];
	struct pks_holders req = { .size = sizeof(req) };
	int fd = dev_fd_ro();
	unsigned int i;

	if (ioctl(fd, PKS_IOC_HOLDERS, &req) < 0) {
		printf("holders: count: %s\n", strerror(errno));
		return errno;
	}
	printf("count=%u\n", req.nr);
	req.nr = 64;
	req.holders = (uintptr_t)h;
	if (ioctl(fd, PKS_IOC_HOLDERS, &req) < 0) {
		printf("holders: %s\n", strerror(errno));
		return errno;
	}
	for (i = 0; i < req.nr && i < 64; i++)
		printf("%u %.*s\n", h[i].pid, PKS_COMM_LEN, h[i].comm);
	return 0;
}

static int do_head(void)
{
	struct pks_faults req = { .size = sizeof(req) };

	if (ioctl(dev_fd_ro(), PKS_IOC_FAULTS, &req)) {
		perror("pks-ioctl: head");
		return 1;
	}
	printf("%llu\n", (unsigned long long)req.next);
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t val;
	int rc;

	if (argc >= 4 && !strcmp(argv[1], "stray"))
		return do_stray(argc, argv);
	if (argc >= 4 && !strcmp(argv[1], "stray-edge")) {
		if (edge_setup()) {
			perror("pks-ioctl: stray-edge");
			return 2;
		}
		return do_stray(argc, argv);
	}
	if (argc >= 6 && !strcmp(argv[1], "grant-carry"))
		return do_grant_carry(argc, argv);
	if (argc >= 5 && !strcmp(argv[1], "user-copy"))
		return do_user_copy(argv);
	if (argc >= 4 && !strcmp(argv[1], "stray-move"))
		return do_stray_move(argv);
	if (argc >= 5 && !strcmp(argv[1], "irq-strays"))
		return do_irq_strays(argc, argv);
	if (argc >= 3 && !strcmp(argv[1], "fs-strays-arm"))
		return do_fs_strays(argc, argv, 1);
	if (argc >= 2 && !strcmp(argv[1], "fs-strays-disarm"))
		return do_fs_strays(argc, argv, 0);
	if (argc >= 3 && !strcmp(argv[1], "records"))
		return do_records(argv[2]);
	if (argc >= 2 && !strcmp(argv[1], "holders"))
		return do_holders();
	if (argc >= 3 && !strcmp(argv[1], "ipmodify"))
		return do_ipmodify(argv[2]);
	if (argc >= 3 && !strcmp(argv[1], "storm"))
		return do_storm(argc, argv);
	if (argc >= 3 && !strcmp(argv[1], "guarded-read")) {
		rc = copy8(dev_fd(), strtoull(argv[2], NULL, 0), 0, &val);
		if (rc)
			printf("guarded read: %s\n", strerror(rc));
		else
			printf("%#llx\n", (unsigned long long)val);
		return rc;
	}
	if (argc >= 2 && !strcmp(argv[1], "protect"))
		return do_protect(argc, argv);
	if (argc >= 3 && !strcmp(argv[1], "protect-blockdev"))
		return do_protect_blockdev(argv);
	if (argc >= 5 && !strcmp(argv[1], "protect-cost"))
		return do_protect_cost(argv);
	if (argc >= 2 && !strcmp(argv[1], "malformed"))
		return do_malformed();
	if (argc >= 2 && !strcmp(argv[1], "accounting"))
		return do_accounting();
	if (argc >= 2 && !strcmp(argv[1], "head"))
		return do_head();
	if (argc >= 2 && !strcmp(argv[1], "brackets"))
		return do_brackets();
	if (argc >= 3 && !strcmp(argv[1], "brackets-on"))
		return do_brackets_on(argv[2]);
	fprintf(stderr, "usage: pks-ioctl protect START LEN DAXDEV [MAPOFF] | malformed |\n"
		"       protect-blockdev DEV |\n"
		"       protect-cost START LEN DAXDEV |\n"
		"       stray ADDR KIND [VALUE] | stray-edge ADDR KIND [VALUE] |\n"
		"       stray-move DST SRC | irq-strays ADDR CPU ROUNDS [control] |\n"
		"       fs-strays-arm ADDR [control] | fs-strays-disarm |\n"
		"       user-copy ADDR LEN read|write |\n"
		"       grant-carry ADDR CPU ROUNDS KIND [control] |\n"
		"       guarded-read ADDR | storm ADDR N | accounting | head |\n"
		"       brackets | brackets-on 0|1\n");
	return 2;
}
