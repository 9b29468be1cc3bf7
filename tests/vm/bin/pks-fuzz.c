// SPDX-License-Identifier: GPL-2.0
/*
 * pks-fuzz: random ioctls against /dev/pks and /dev/pks-test.
 *
 *   pks-fuzz CALLS SEED
 *
 * As root, CALLS random ioctls: command numbers from both devices' tables
 * (some with their direction or size changed, some wholly random), struct
 * sizes right half of the time, and pointers, inside the structs and as
 * the argument, drawn from NULL, kernel text and the direct map, an
 * unmapped page, a struct that runs into a PROT_NONE page, misaligned
 * scratch, and huge values. Then a child that has given up root (after
 * opening the devices) makes CALLS more: none may succeed except the
 * queries /dev/pks answers everyone (info, list, faults, grants,
 * accounting, holders), and every call of a command that changes state
 * or touches namespace memory must be refused with EPERM. The key table
 * and the protected ranges must be the same before and after. Two requests are never made: the crash test (it
 * oopses on purpose) and plain or single-instruction strays (not
 * fault-safe); the test-run command gets only test numbers past the last
 * one, and the benchmark only wrong sizes, so no call runs for minutes.
 *
 * With PKS_FUZZ_CONTROL=1 in the environment it proves its checks can
 * fail: it unprotects the first protected range between the snapshots,
 * and the child keeps root.
 *
 * PKS_FUZZ_TEST_DEVICE names another path for /dev/pks-test (the case's
 * control: a fuzzer that never reached the test device must be caught).
 *
 * Prints a summary line per part, then per part and device a tally of
 * what the kernel returned ("tally root pks-test: calls N ok N EINVAL N
 * ..."; errno names, each one seen): the case judges from those that the
 * calls reached each device and were decided there, not from the loop
 * count. Exits 0 when every rule held, 1 otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/pks.h>
#include <linux/pks_test.h>

#define SCRATCH_LEN	8192
#define NOBODY		65534
#define TALLY_ERRNOS	160	/* errnos counted by value; the rest as one */

static const unsigned long prod_cmds[] = {
	PKS_IOC_GET_INFO, PKS_IOC_PROTECT, PKS_IOC_UNPROTECT, PKS_IOC_LIST,
	PKS_IOC_COPY, PKS_IOC_FAULTS, PKS_IOC_SET_MODE, PKS_IOC_GRANTS,
	PKS_IOC_ACCOUNTING, PKS_IOC_HOLDERS, PKS_IOC_BRACKETS,
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* What /dev/pks answers without privilege: it changes nothing. */
static const unsigned long query_cmds[] = {
	PKS_IOC_GET_INFO, PKS_IOC_LIST, PKS_IOC_FAULTS, PKS_IOC_GRANTS,
	PKS_IOC_ACCOUNTING, PKS_IOC_HOLDERS, PKS_IOC_BRACKETS,
};

/* Not PKS_TEST_IOC_BRACKETS: a 0 would leave the brackets off. */
static const unsigned long test_cmds[] = {
	PKS_TEST_IOC_RUN, PKS_TEST_IOC_STRAY, PKS_TEST_IOC_BENCH,
};

struct fuzz {
	int fd[2];		/* /dev/pks, /dev/pks-test or -1 */
	unsigned char *scratch;	/* SCRATCH_LEN bytes, then a PROT_NONE page */
	uint64_t unmapped;	/* an address with nothing mapped */
	uint64_t pointers[10];
	unsigned long calls, refused, accepted, eperm;
	unsigned long last_cmd;	/* of the last call */
	int last_dev;
	/* What the kernel returned, per device: [0] success, else errno. */
	unsigned long tally[2][TALLY_ERRNOS + 1];
};

static uint64_t rnd64(void)
{
	return ((uint64_t)random() << 33) ^ ((uint64_t)random() << 11) ^
	       (uint64_t)random();
}

static uint64_t pick_pointer(struct fuzz *f)
{
	return f->pointers[random() % 10];
}

static void setup_pointers(struct fuzz *f)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *m;

	m = mmap(NULL, SCRATCH_LEN + 2 * page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED) {
		perror("pks-fuzz: mmap");
		exit(2);
	}
	mprotect(m + SCRATCH_LEN, page, PROT_NONE);
	munmap(m + SCRATCH_LEN + page, page);
	f->scratch = m;
	f->unmapped = (uint64_t)(uintptr_t)(m + SCRATCH_LEN + page);
	f->pointers[0] = 0;
	f->pointers[1] = 0xffffffff81000000ULL;	/* kernel text */
	f->pointers[2] = 0xffff888000000000ULL;	/* direct map */
	f->pointers[3] = f->unmapped;
	f->pointers[4] = (uint64_t)(uintptr_t)(m + SCRATCH_LEN - 8);
	f->pointers[5] = (uint64_t)(uintptr_t)(m + 1 + random() % 7);
	f->pointers[6] = (uint64_t)(uintptr_t)m;
	f->pointers[7] = ~0ULL - 7;
	f->pointers[8] = 0x7ffffffff000ULL;
	f->pointers[9] = (uint64_t)(uintptr_t)(m + 4096);
}

/* Random words, with pointers and small numbers where fields may be. */
static void fill_struct(struct fuzz *f, unsigned char *p, size_t len,
			uint32_t size)
{
	size_t i;
	uint64_t w;

	for (i = 0; i + 8 <= len; i += 8) {
		switch (random() % 4) {
		case 0:
			w = rnd64();
			break;
		case 1:
			w = pick_pointer(f);
			break;
		case 2:
			w = random() % 64;
			break;
		default:
			w = 0;
		}
		memcpy(p + i, &w, 8);
	}
	if (len >= 4 && random() % 2)
		memcpy(p, &size, 4);
}

static bool is_test_cmd(unsigned long cmd)
{
	return cmd == PKS_TEST_IOC_RUN || cmd == PKS_TEST_IOC_STRAY ||
	       cmd == PKS_TEST_IOC_BENCH;
}

/* Keep out the two requests that are not fault-safe, and long runs. */
static void defang(unsigned long cmd, unsigned char *arg)
{
	struct pks_test_run *run = (void *)arg;
	struct pks_copy *copy = (void *)arg;
	struct pks_bench *bench = (void *)arg;

	if (cmd == PKS_TEST_IOC_RUN)
		run->test = PKS_TEST_NR + (uint32_t)(random() % 1000);
	else if (cmd == PKS_TEST_IOC_STRAY)
		copy->flags &= ~(PKS_COPY_F_PLAIN | PKS_COPY_F_MOVE);
	else if (cmd == PKS_TEST_IOC_BENCH)
		bench->size = sizeof(*bench) + 1 + random() % 64;
}

static int one_call(struct fuzz *f, int *err)
{
	int dev = f->fd[1] >= 0 ? random() % 2 : 0;
	unsigned long cmd, nr, size;
	unsigned char *arg;
	uint64_t argp = 0;
	int how = random() % 10, rc;

	if (how < 7) {
		/* A real command, mostly on its own device. */
		int test = random() % 3 == 0;

		cmd = test ? test_cmds[random() % ARRAY_SIZE(test_cmds)] :
			     prod_cmds[random() % ARRAY_SIZE(prod_cmds)];
		if (random() % 10 == 0)
			dev = !dev && f->fd[1] >= 0;
		else if (test && f->fd[1] >= 0)
			dev = 1;
		else if (!test)
			dev = 0;
	} else if (how < 9) {
		/* A real number with another direction or size. */
		nr = random() % 0x50;
		size = random() % 2 ? random() % 512 : random() % 16384;
		cmd = _IOC(random() % 4, PKS_IOC_MAGIC, nr, size & 0x3fff);
	} else {
		cmd = (unsigned long)(uint32_t)random();
	}
	/* The struct: at the start, at a misaligned spot, or at the end. */
	size = _IOC_SIZE(cmd);
	switch (random() % 6) {
	case 0:
		argp = pick_pointer(f);
		arg = NULL;
		break;
	case 1:
		arg = f->scratch + 1 + random() % 7;
		break;
	case 2:
		arg = f->scratch + SCRATCH_LEN - (size ? size / 2 + 1 : 4);
		break;
	default:
		arg = f->scratch;
	}
	if (arg) {
		size_t room = f->scratch + SCRATCH_LEN - arg;

		fill_struct(f, arg, size < room ? size : room, (uint32_t)size);
		if (size <= room)
			defang(cmd, arg);
		argp = (uint64_t)(uintptr_t)arg;
	}
	/* A struct the program could not defang never reaches the test device. */
	if (dev == 1 && is_test_cmd(cmd) &&
	    (!arg || (size_t)(f->scratch + SCRATCH_LEN - arg) < size))
		dev = 0;
	rc = ioctl(f->fd[dev], cmd, (unsigned long)argp);
	*err = rc < 0 ? errno : 0;
	f->tally[dev][*err < TALLY_ERRNOS ? *err : TALLY_ERRNOS]++;
	f->last_cmd = cmd;
	f->last_dev = dev;
	f->calls++;
	return rc;
}

/*
 * The key table's owners and the protected ranges' starts, as text; false
 * (said on stderr) when the driver would not say, which no comparison of
 * two snapshots may then pass for "unchanged".
 */
static bool snapshot(int fd, char *out, size_t len)
{
	struct pks_info info = { .size = sizeof(info) };
	struct pks_range_info ranges[64];
	struct pks_list list = { .size = sizeof(list), .nr = 64,
				 .ranges = (uint64_t)(uintptr_t)ranges };
	size_t n = 0;
	unsigned int i;

	out[0] = '\0';
	if (ioctl(fd, PKS_IOC_GET_INFO, &info) ||
	    ioctl(fd, PKS_IOC_LIST, &list)) {
		fprintf(stderr, "pks-fuzz: snapshot: %s\n", strerror(errno));
		return false;
	}
	for (i = 0; i < PKS_NR_KEYS; i++)
		n += snprintf(out + n, len - n, "%u:%x:%s ", i,
			      info.keys[i].flags, info.keys[i].owner);
	for (i = 0; i < list.nr && i < 64; i++)
		n += snprintf(out + n, len - n, "range %s %#llx+%#llx ",
			      ranges[i].name,
			      (unsigned long long)ranges[i].start,
			      (unsigned long long)ranges[i].len);
	return true;
}

/* The control: a real change the snapshots must see. */
static void unprotect_first(int fd)
{
	struct pks_range_info range;
	struct pks_list list = { .size = sizeof(list), .nr = 1,
				 .ranges = (uint64_t)(uintptr_t)&range };
	struct pks_unprotect unprot = { .size = sizeof(unprot) };

	if (ioctl(fd, PKS_IOC_LIST, &list) || !list.nr)
		return;
	unprot.start = range.start;
	if (ioctl(fd, PKS_IOC_UNPROTECT, &unprot))
		perror("pks-fuzz: control: unprotect");
}

/* One line per device of what the kernel returned to PART's calls. */
static void print_tally(struct fuzz *f, const char *part)
{
	static const char *const dev_names[2] = { "pks", "pks-test" };
	unsigned long calls;
	const char *name;
	int dev, e;

	for (dev = 0; dev < 2; dev++) {
		calls = 0;
		for (e = 0; e <= TALLY_ERRNOS; e++)
			calls += f->tally[dev][e];
		printf("tally %s %s: calls %lu ok %lu", part, dev_names[dev],
		       calls, f->tally[dev][0]);
		for (e = 1; e <= TALLY_ERRNOS; e++) {
			if (!f->tally[dev][e])
				continue;
			name = e < TALLY_ERRNOS ? strerrorname_np(e) : NULL;
			if (name)
				printf(" %s %lu", name, f->tally[dev][e]);
			else
				printf(" errno%d %lu", e, f->tally[dev][e]);
		}
		printf("\n");
	}
}

static bool in_list(unsigned long cmd, const unsigned long *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (cmd == list[i])
			return true;
	return false;
}

/*
 * Whether an unprivileged call went wrong: a query of /dev/pks may do
 * anything but crash; any other call must fail, and one of a command the
 * device it went to knows must fail with EPERM, before its argument is
 * looked at.
 */
static bool unprivileged_wrong(struct fuzz *f, int rc, int err)
{
	bool query = !f->last_dev &&
		     in_list(f->last_cmd, query_cmds, ARRAY_SIZE(query_cmds));
	bool known = f->last_dev ?
		     in_list(f->last_cmd, test_cmds, ARRAY_SIZE(test_cmds)) :
		     in_list(f->last_cmd, prod_cmds, ARRAY_SIZE(prod_cmds));

	if (query)
		return false;
	return rc >= 0 || (known && err != EPERM);
}

static int unprivileged(struct fuzz *f, unsigned long calls, bool control)
{
	unsigned long i, other = 0;
	int err, rc;

	if (!control && (setgid(NOBODY) || setuid(NOBODY))) {
		perror("pks-fuzz: setuid");
		return 2;
	}
	for (i = 0; i < calls; i++) {
		rc = one_call(f, &err);
		if (unprivileged_wrong(f, rc, err)) {
			if (!other++)
				fprintf(stderr, "pks-fuzz: unprivileged call %lu: rc %s\n",
					i, err ? strerror(err) : "0");
		}
	}
	printf("unprivileged: %lu calls, %lu not refused\n",
	       calls, other);
	print_tally(f, "unprivileged");
	return other ? 1 : 0;
}

int main(int argc, char **argv)
{
	static char before[8192], after[8192];
	bool control = getenv("PKS_FUZZ_CONTROL");
	const char *test_dev = getenv("PKS_FUZZ_TEST_DEVICE");
	unsigned long calls, i;
	struct fuzz f = { 0 };
	int err, status, bad = 0;
	pid_t pid;

	if (argc != 3) {
		fprintf(stderr, "usage: pks-fuzz CALLS SEED\n");
		return 2;
	}
	calls = strtoul(argv[1], NULL, 0);
	srandom(strtoul(argv[2], NULL, 0));
	f.fd[0] = open("/dev/pks", O_RDWR);
	f.fd[1] = open(test_dev ? test_dev : "/dev/pks-test", O_RDWR);
	if (f.fd[0] < 0) {
		perror("pks-fuzz: /dev/pks");
		return 2;
	}
	setup_pointers(&f);
	if (!snapshot(f.fd[0], before, sizeof(before)))
		return 1;

	for (i = 0; i < calls; i++) {
		if (one_call(&f, &err) < 0)
			f.refused++;
		else
			f.accepted++;
		if (err == EPERM)
			f.eperm++;
	}
	if (control)
		unprotect_first(f.fd[0]);
	if (!snapshot(f.fd[0], after, sizeof(after)))
		return 1;
	printf("root: %lu calls (%lu accepted, %lu refused, %lu EPERM), test device %s\n",
	       f.calls, f.accepted, f.refused, f.eperm,
	       f.fd[1] >= 0 ? "open" : "absent");
	print_tally(&f, "root");
	/* The child starts its own tally. */
	memset(f.tally, 0, sizeof(f.tally));
	if (strcmp(before, after)) {
		printf("state changed:\n before: %s\n after:  %s\n", before,
		       after);
		bad = 1;
	}
	/* As root nothing is refused for want of privilege. */
	if (f.eperm) {
		printf("root got EPERM %lu times\n", f.eperm);
		bad = 1;
	}

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		exit(unprivileged(&f, calls, control));
	if (pid < 0 || waitpid(pid, &status, 0) != pid ||
	    !WIFEXITED(status) || WEXITSTATUS(status))
		bad = 1;
	return bad;
}
