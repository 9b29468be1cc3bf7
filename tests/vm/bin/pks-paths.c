// SPDX-License-Identifier: GPL-2.0
/*
 * pks-paths: the kernel's own legitimate paths into a process's mapping
 * of a dax device, each checked for the right data in both directions.
 *
 *   pks-paths DAXDEV PATH [BLOCKDEV]
 *
 * PKS_PATHS_MAP_MIB (even, 4 to 64; default 64) sizes the child's
 * mapping, which process-vm moves in one call each way and a core dump
 * holds: smaller on CXL memory, which QEMU emulates access by access.
 *
 * PATH is one of ptrace, proc-mem, process-vm, vmsplice, coredump,
 * io-uring, odirect or odirect-loop (which need BLOCKDEV, a brd, loop or
 * other CPU-copying block device). A child process maps DAXDEV and fills it with a pattern;
 * this process reaches the child's mapping through PATH, checks what it
 * reads, writes a second pattern the same way and checks it through its
 * own mapping of the device. Every comparison is also made once against
 * a pattern that was never written, which must fail: a checker that
 * cannot fail proves nothing.
 *
 * Exit 0 when every comparison matched, 1 when one did not or a call
 * failed, 77 when this kernel cannot do PATH even without protection.
 */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pks-env.h"

#define IO_LEN		(1UL << 20)	/* what most paths move */
#define PEEK_WORDS	512

static const char *path_name;
static size_t map_len = 64UL << 20;	/* the mapping the child holds */

static void die(const char *what)
{
	fprintf(stderr, "pks-paths: %s: %s: %s\n", path_name, what,
		strerror(errno));
	exit(1);
}

static uint64_t word(uint64_t seed, size_t i)
{
	return (seed ^ (i * 0x9e3779b97f4a7c15ULL)) * 0xff51afd7ed558ccdULL;
}

static void fill(void *p, size_t len, uint64_t seed)
{
	uint64_t *w = p;
	size_t i;

	for (i = 0; i < len / 8; i++)
		w[i] = word(seed, i);
}

/* Words of @p that differ from the pattern of @seed. */
static size_t mismatches(const void *p, size_t len, uint64_t seed)
{
	const uint64_t *w = p;
	size_t i, bad = 0;

	for (i = 0; i < len / 8; i++)
		bad += w[i] != word(seed, i);
	return bad;
}

/*
 * Check @len bytes at @p against @seed, and that the same bytes do not
 * match a seed never written (the control). Returns 0 when both hold.
 */
static int verify(const char *what, const void *p, size_t len, uint64_t seed)
{
	size_t bad = mismatches(p, len, seed);
	size_t ctl = mismatches(p, len, seed ^ 0x5555);

	printf("%s: %s: %zu of %zu words wrong; control pattern: %zu wrong\n",
	       path_name, what, bad, len / 8, ctl);
	return bad || ctl != len / 8;
}

static void *map_dax(const char *dev)
{
	int fd = open(dev, O_RDWR);
	void *p;

	if (fd < 0)
		die(dev);
	p = mmap(NULL, map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap of the dax device");
	close(fd);
	return p;
}

/*
 * The target: a child that maps the device, fills it, reports its address
 * on @fd and waits to be killed (or dumps core when asked).
 */
static pid_t spawn_target(const char *dev, uint64_t seed, bool dump,
			  uintptr_t *addr)
{
	int fds[2];
	pid_t pid;

	if (pipe(fds))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		void *p = map_dax(dev);
		uintptr_t a = (uintptr_t)p;

		fill(p, map_len, seed);
		if (dump) {
			struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
			FILE *f = fopen("/proc/self/coredump_filter", "w");

			if (!f || fprintf(f, "0x1ff\n") < 0 || fclose(f) ||
			    setrlimit(RLIMIT_CORE, &rl))
				_exit(2);
			prctl(PR_SET_DUMPABLE, 1);
		}
		if (write(fds[1], &a, sizeof(a)) != sizeof(a))
			_exit(2);
		if (dump)
			abort();
		for (;;)
			pause();
	}
	close(fds[1]);
	if (read(fds[0], addr, sizeof(*addr)) != sizeof(*addr))
		die("the target did not start");
	close(fds[0]);
	return pid;
}

static void end_target(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static int do_ptrace(pid_t pid, uintptr_t addr, void *mine)
{
	uint64_t buf[PEEK_WORDS];
	int i, rc;

	if (ptrace(PTRACE_ATTACH, pid, 0, 0) || waitpid(pid, NULL, 0) != pid)
		die("PTRACE_ATTACH");
	for (i = 0; i < PEEK_WORDS; i++) {
		errno = 0;
		buf[i] = ptrace(PTRACE_PEEKDATA, pid, addr + 8 * i, 0);
		if (errno)
			die("PTRACE_PEEKDATA");
	}
	rc = verify("PEEKDATA", buf, sizeof(buf), 1);
	for (i = 0; i < PEEK_WORDS; i++)
		if (ptrace(PTRACE_POKEDATA, pid, addr + 8 * i,
			   (void *)(uintptr_t)word(2, i)))
			die("PTRACE_POKEDATA");
	rc |= verify("POKEDATA", mine, sizeof(buf), 2);
	ptrace(PTRACE_DETACH, pid, 0, 0);
	return rc;
}

static int do_proc_mem(pid_t pid, uintptr_t addr, void *mine, void *buf)
{
	char name[64];
	int fd, rc;

	snprintf(name, sizeof(name), "/proc/%d/mem", pid);
	fd = open(name, O_RDWR);
	if (fd < 0)
		die(name);
	if (pread(fd, buf, IO_LEN, addr) != (ssize_t)IO_LEN)
		die("read of /proc/PID/mem");
	rc = verify("read", buf, IO_LEN, 1);
	fill(buf, IO_LEN, 2);
	if (pwrite(fd, buf, IO_LEN, addr) != (ssize_t)IO_LEN)
		die("write of /proc/PID/mem");
	rc |= verify("write", mine, IO_LEN, 2);
	close(fd);
	return rc;
}

/* One call covering the whole mapping, each way. */
static int do_process_vm(pid_t pid, uintptr_t addr, void *mine)
{
	void *buf = malloc(map_len);
	struct iovec local = { buf, map_len };
	struct iovec remote = { (void *)addr, map_len };
	int rc;

	if (!buf)
		die("malloc");
	if (process_vm_readv(pid, &local, 1, &remote, 1, 0) !=
	    (ssize_t)map_len)
		die("process_vm_readv");
	rc = verify("process_vm_readv", buf, map_len, 1);
	fill(buf, map_len, 2);
	if (process_vm_writev(pid, &local, 1, &remote, 1, 0) !=
	    (ssize_t)map_len)
		die("process_vm_writev");
	rc |= verify("process_vm_writev", mine, map_len, 2);
	free(buf);
	return rc;
}

/* Move IO_LEN bytes of @mine through a pipe with vmsplice(). */
static void vmsplice_all(int pipe_w, void *mine, size_t off, size_t len)
{
	struct iovec iov = { (char *)mine + off, len };

	while (iov.iov_len) {
		ssize_t n = vmsplice(pipe_w, &iov, 1, 0);

		if (n <= 0)
			die("vmsplice");
		iov.iov_base = (char *)iov.iov_base + n;
		iov.iov_len -= n;
	}
}

static int do_vmsplice(void *mine, void *buf)
{
	const size_t chunk = 64 << 10;
	int p[2], file, rc;
	size_t off;

	fill(mine, IO_LEN, 1);
	if (pipe(p))
		die("pipe");
	/* vmsplice() then read(): the pipe hands over the pages themselves. */
	for (off = 0; off < IO_LEN; off += chunk) {
		vmsplice_all(p[1], mine, off, chunk);
		if (read(p[0], (char *)buf + off, chunk) != (ssize_t)chunk)
			die("read from the pipe");
	}
	rc = verify("vmsplice+read", buf, IO_LEN, 1);

	/* vmsplice() then splice() to a file. */
	file = open("/tmp/pks-paths.splice", O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (file < 0)
		die("/tmp/pks-paths.splice");
	for (off = 0; off < IO_LEN; off += chunk) {
		vmsplice_all(p[1], mine, off, chunk);
		if (splice(p[0], NULL, file, NULL, chunk, 0) != (ssize_t)chunk)
			die("splice to a file");
	}
	if (pread(file, buf, IO_LEN, 0) != (ssize_t)IO_LEN)
		die("read back the spliced file");
	rc |= verify("vmsplice+splice", buf, IO_LEN, 1);
	close(file);
	unlink("/tmp/pks-paths.splice");
	close(p[0]);
	close(p[1]);
	return rc;
}

/* The core must hold the mapping's data: look for whole pages of it. */
static int do_coredump(const char *dev)
{
	const size_t probes[] = { 0, IO_LEN, map_len - 4096 };
	char name[64];
	uintptr_t addr;
	int status, rc = 0;
	size_t i, len;
	char *core, *page = malloc(4096);
	FILE *f;
	pid_t pid;

	if (!page)
		die("malloc");
	pid = spawn_target(dev, 1, true, &addr);
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	if (!WIFSIGNALED(status) || !WCOREDUMP(status)) {
		fprintf(stderr, "pks-paths: coredump: the target left no core (status %#x)\n",
			status);
		return 1;
	}
	snprintf(name, sizeof(name), "/tmp/core.%d", pid);
	f = fopen(name, "r");
	if (!f)
		die(name);
	core = malloc(map_len + (16 << 20));
	if (!core)
		die("malloc");
	len = fread(core, 1, map_len + (16 << 20), f);
	fclose(f);
	unlink(name);
	printf("coredump: core of %zu bytes\n", len);
	for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		uint64_t *w = (uint64_t *)page;
		size_t j, first = probes[i] / 8;

		for (j = 0; j < 512; j++)
			w[j] = word(1, first + j);
		rc |= !memmem(core, len, page, 4096);
		printf("coredump: page at offset %#zx %s in the core\n",
		       probes[i], memmem(core, len, page, 4096) ? "found" :
		       "NOT found");
		w[0] ^= 1;
		if (memmem(core, len, page, 4096)) {
			printf("coredump: control page found: the search cannot fail\n");
			rc = 1;
		}
	}
	free(core);
	free(page);
	return rc;
}

/* READ_FIXED from a file into the mapping, WRITE_FIXED back out. */
static int do_io_uring(void *mine, void *buf)
{
	struct iovec reg = { mine, IO_LEN };
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	int file, rc;

	file = open("/tmp/pks-paths.uring", O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (file < 0)
		die("/tmp/pks-paths.uring");
	fill(buf, IO_LEN, 1);
	if (pwrite(file, buf, IO_LEN, 0) != (ssize_t)IO_LEN)
		die("write the source file");
	memset(mine, 0, IO_LEN);
	rc = io_uring_queue_init(4, &ring, 0);
	if (rc) {
		errno = -rc;
		die("io_uring_queue_init");
	}
	rc = io_uring_register_buffers(&ring, &reg, 1);
	if (rc == -EOPNOTSUPP) {
		printf("io-uring: unsupported: registering buffers in a dax mapping: %s\n",
		       strerror(-rc));
		exit(77);
	}
	if (rc) {
		errno = -rc;
		die("io_uring_register_buffers");
	}

	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read_fixed(sqe, file, mine, IO_LEN, 0, 0);
	io_uring_submit(&ring);
	if (io_uring_wait_cqe(&ring, &cqe) || cqe->res != (int)IO_LEN) {
		errno = cqe ? -cqe->res : EIO;
		die("READ_FIXED");
	}
	io_uring_cqe_seen(&ring, cqe);
	rc = verify("READ_FIXED", mine, IO_LEN, 1);

	fill(mine, IO_LEN, 2);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_write_fixed(sqe, file, mine, IO_LEN, 0, 0);
	io_uring_submit(&ring);
	if (io_uring_wait_cqe(&ring, &cqe) || cqe->res != (int)IO_LEN) {
		errno = cqe ? -cqe->res : EIO;
		die("WRITE_FIXED");
	}
	io_uring_cqe_seen(&ring, cqe);
	if (pread(file, buf, IO_LEN, 0) != (ssize_t)IO_LEN)
		die("read back the file");
	rc |= verify("WRITE_FIXED", buf, IO_LEN, 2);
	io_uring_queue_exit(&ring);
	close(file);
	unlink("/tmp/pks-paths.uring");
	return rc;
}

/* O_DIRECT between the mapping and a block device that copies with the CPU. */
static int do_odirect(const char *blk, void *mine, void *buf)
{
	int fd = open(blk, O_RDWR | O_DIRECT), rc;

	if (fd < 0)
		die(blk);
	fill(mine, IO_LEN, 1);
	if (pwrite(fd, mine, IO_LEN, 0) != (ssize_t)IO_LEN)
		die("O_DIRECT write from the mapping");
	if (pread(fd, buf, IO_LEN, 0) != (ssize_t)IO_LEN)
		die("O_DIRECT read into memory");
	rc = verify("O_DIRECT write", buf, IO_LEN, 1);
	fill(buf, IO_LEN, 2);
	if (pwrite(fd, buf, IO_LEN, IO_LEN) != (ssize_t)IO_LEN)
		die("O_DIRECT write from memory");
	memset(mine, 0, IO_LEN);
	if (pread(fd, mine, IO_LEN, IO_LEN) != (ssize_t)IO_LEN)
		die("O_DIRECT read into the mapping");
	rc |= verify("O_DIRECT read", mine, IO_LEN, 2);
	close(fd);
	return rc;
}

int main(int argc, char **argv)
{
	void *mine, *buf;
	uintptr_t addr;
	pid_t pid;
	int rc;

	if (argc < 3) {
		fprintf(stderr, "usage: pks-paths DAXDEV PATH [BLOCKDEV]\n");
		return 2;
	}
	path_name = argv[2];
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* A device-dax mapping is whole 2 MiB pages. */
	map_len = pks_env_mib("pks-paths", "PKS_PATHS_MAP_MIB", 4, 64, 2,
			      map_len);
	mine = map_dax(argv[1]);
	/* O_DIRECT wants an aligned buffer; so does nothing else harm. */
	if (posix_memalign(&buf, 4096, IO_LEN))
		die("posix_memalign");

	if (!strcmp(path_name, "vmsplice"))
		return do_vmsplice(mine, buf);
	if (!strcmp(path_name, "coredump"))
		return do_coredump(argv[1]);
	if (!strcmp(path_name, "io-uring"))
		return do_io_uring(mine, buf);
	if (!strncmp(path_name, "odirect", 7)) {
		if (argc < 4) {
			fprintf(stderr, "pks-paths: odirect needs BLOCKDEV\n");
			return 2;
		}
		return do_odirect(argv[3], mine, buf);
	}

	pid = spawn_target(argv[1], 1, false, &addr);
	if (!strcmp(path_name, "ptrace"))
		rc = do_ptrace(pid, addr, mine);
	else if (!strcmp(path_name, "proc-mem"))
		rc = do_proc_mem(pid, addr, mine, buf);
	else if (!strcmp(path_name, "process-vm"))
		rc = do_process_vm(pid, addr, mine);
	else {
		fprintf(stderr, "pks-paths: unknown path '%s'\n", path_name);
		rc = 2;
	}
	end_target(pid);
	return rc;
}
