// SPDX-License-Identifier: GPL-2.0
/*
 * pks-pvm-bench DAXDEV CALLS [LEN]: CALLS process_vm_readv() calls, each of
 * the first LEN bytes (default, and at most, the whole 64 MiB) of the
 * mapping a child holds of DAXDEV, with the driver's counters
 * read before and after (pks-counters.h): PKRS writes on every CPU,
 * fault-probe hits, grants to a task by rule (here the pages
 * process_vm_readv() pins: held-page), grants in interrupts, refills,
 * boundary PKRS writes and this process's context switches. Prints one
 * JSON object; the caller decides what to assert.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/pks.h>

#include "pks-counters.h"

#define MAP_LEN		(64UL << 20)
int main(int argc, char **argv)
{
	struct pks_counters before, after;
	struct timespec t0, t1;
	int pipefd[2], fd, dax, i, calls;
	uintptr_t addr;
	size_t len;
	double ns;
	void *buf;
	pid_t pid;

	if (argc < 3) {
		fprintf(stderr, "usage: pks-pvm-bench DAXDEV CALLS [LEN]\n");
		return 2;
	}
	calls = atoi(argv[2]);
	len = argc > 3 ? strtoul(argv[3], NULL, 0) : MAP_LEN;
	if (!len || len > MAP_LEN) {
		fprintf(stderr, "pks-pvm-bench: LEN is 1..%lu\n", MAP_LEN);
		return 2;
	}
	fd = open("/dev/pks", O_RDWR);
	dax = open(argv[1], O_RDWR);
	buf = malloc(MAP_LEN);
	if (fd < 0 || dax < 0 || !buf || pipe(pipefd)) {
		perror("pks-pvm-bench");
		return 1;
	}
	pid = fork();
	if (pid == 0) {
		char *p = mmap(NULL, MAP_LEN, PROT_READ | PROT_WRITE,
			       MAP_SHARED, dax, 0);

		/* Killed with its parent (irqstray-held kills it early). */
		if (p == MAP_FAILED || prctl(PR_SET_PDEATHSIG, SIGKILL) ||
		    getppid() == 1)
			_exit(1);
		memset(p, 0x5a, MAP_LEN);
		addr = (uintptr_t)p;
		if (write(pipefd[1], &addr, sizeof(addr)) != sizeof(addr))
			_exit(1);
		for (;;)
			pause();
	}
	if (read(pipefd[0], &addr, sizeof(addr)) != sizeof(addr)) {
		fprintf(stderr, "pks-pvm-bench: the target did not start\n");
		return 1;
	}

	/* Warm the target's page tables and this buffer once. */
	{
		struct iovec l = { buf, MAP_LEN }, r = { (void *)addr, MAP_LEN };

		if (process_vm_readv(pid, &l, 1, &r, 1, 0) != (ssize_t)MAP_LEN) {
			perror("process_vm_readv");
			return 1;
		}
	}
	pks_read_counters(fd, &before);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < calls; i++) {
		struct iovec l = { buf, len }, r = { (void *)addr, len };

		if (process_vm_readv(pid, &l, 1, &r, 1, 0) != (ssize_t)len) {
			perror("process_vm_readv");
			return 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	pks_read_counters(fd, &after);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);

	ns = (t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec);
	printf("{\"calls\": %d, \"bytes_per_call\": %lu, \"ns_per_call\": %.0f, "
	       "\"mb_per_s\": %.1f, ",
	       calls, len, ns / calls, (double)len * calls / ns * 1e3);
	pks_print_counters(&before, &after);
	printf("}\n");
	return 0;
}
