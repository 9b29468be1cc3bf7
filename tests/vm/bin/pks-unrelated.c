// SPDX-License-Identifier: GPL-2.0
/*
 * pks-unrelated WORKLOAD N [PATH]: N operations of work that never touches
 * protected memory, and what the driver did meanwhile, as one JSON object:
 *
 *   pipe		N one-byte reads of a pipe a child process fills
 *   direct PATH	N 4 KiB O_DIRECT reads of block device PATH (brd)
 *   uring PATH		N 4 KiB io_uring reads of file PATH (in tmpfs)
 *
 * With namespaces protected the driver must not run at all for these:
 * no fault-probe hit, no grant, no task holding one, no module reference
 * (read from /sys/module/pks/refcnt), no PKRS write at an interrupt
 * boundary. The caller compares with the same run with none protected.
 */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pks-counters.h"

#define BLOCK	4096

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static long module_refs(void)
{
	FILE *f = fopen("/sys/module/pks/refcnt", "r");
	long n = -1;

	if (!f || fscanf(f, "%ld", &n) != 1)
		die("/sys/module/pks/refcnt");
	fclose(f);
	return n;
}

static unsigned int granted_tasks(int fd)
{
	struct pks_grants g = { .size = sizeof(g) };

	if (ioctl(fd, PKS_IOC_GRANTS, &g))
		die("PKS_IOC_GRANTS");
	return g.tasks_granted;
}

static void run_pipe(long n)
{
	int p[2];
	pid_t child;
	long i;
	char c;

	if (pipe(p))
		die("pipe");
	child = fork();
	if (child < 0)
		die("fork");
	if (!child) {
		close(p[0]);
		for (i = 0; i < n; i++)
			if (write(p[1], "x", 1) != 1)
				_exit(1);
		_exit(0);
	}
	close(p[1]);
	for (i = 0; i < n; i++)
		if (read(p[0], &c, 1) != 1)
			die("pipe read");
	close(p[0]);
	waitpid(child, NULL, 0);
}

static void *block_buffer(void)
{
	void *buf;

	if (posix_memalign(&buf, BLOCK, BLOCK))
		die("posix_memalign");
	return buf;
}

static void run_direct(const char *path, long n)
{
	int fd = open(path, O_RDONLY | O_DIRECT);
	void *buf = block_buffer();
	long i;

	if (fd < 0)
		die(path);
	for (i = 0; i < n; i++)
		if (pread(fd, buf, BLOCK, (i % 256) * BLOCK) != BLOCK)
			die("O_DIRECT read");
	close(fd);
	free(buf);
}

static void run_uring(const char *path, long n)
{
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	void *buf = block_buffer();
	int fd = open(path, O_RDONLY), rc;
	long i;

	if (fd < 0)
		die(path);
	rc = io_uring_queue_init(8, &ring, 0);
	if (rc) {
		errno = -rc;
		die("io_uring_queue_init");
	}
	for (i = 0; i < n; i++) {
		sqe = io_uring_get_sqe(&ring);
		io_uring_prep_read(sqe, fd, buf, BLOCK, (i % 256) * BLOCK);
		io_uring_submit(&ring);
		if (io_uring_wait_cqe(&ring, &cqe) || cqe->res != BLOCK)
			die("io_uring read");
		io_uring_cqe_seen(&ring, cqe);
	}
	io_uring_queue_exit(&ring);
	close(fd);
	free(buf);
}

int main(int argc, char **argv)
{
	struct pks_counters before, after;
	struct timespec t0, t1;
	long n, refs0, refs1;
	unsigned int tasks;
	int fd;

	if (argc < 3 || ((!strcmp(argv[1], "direct") ||
			  !strcmp(argv[1], "uring")) && argc < 4)) {
		fprintf(stderr, "usage: pks-unrelated pipe N | direct N DEV | uring N FILE\n");
		return 2;
	}
	n = atol(argv[2]);
	fd = open("/dev/pks", O_RDONLY);
	if (fd < 0)
		die("/dev/pks");
	refs0 = module_refs();
	pks_read_counters(fd, &before);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (!strcmp(argv[1], "pipe"))
		run_pipe(n);
	else if (!strcmp(argv[1], "direct"))
		run_direct(argv[3], n);
	else
		run_uring(argv[3], n);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	tasks = granted_tasks(fd);
	refs1 = module_refs();
	pks_read_counters(fd, &after);
	printf("{\"workload\": \"%s\", \"operations\": %ld, \"ns_per_op\": %.0f, ",
	       argv[1], n,
	       ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / n);
	pks_print_counters(&before, &after);
	printf(", \"tasks_granted\": %u, \"module_refs_added\": %ld}\n", tasks,
	       refs1 - refs0);
	close(fd);
	return 0;
}
