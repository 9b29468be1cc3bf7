// SPDX-License-Identifier: GPL-2.0
/*
 * pks-fsbench FILE: reads and writes of a file on a DAX file system,
 * sequential and random, 4 KiB and 1 MiB, with the driver's counters read
 * around each pattern (pks-counters.h): PKRS writes on every CPU,
 * fault-probe hits, grants to a task by rule (the file system's I/O
 * through the kernel's DAX layer, the journal's block I/O through the
 * pmem driver, from its own thread), grants in interrupts, refills,
 * boundary PKRS writes and this process's context switches. One JSON
 * object per pattern; the caller asserts.
 *
 * pks-fsbench FILE OPS v10: the same with pks_test.ko's emulation of
 * upstream V10's price (two PKRS writes of the register's own value
 * around each of the owner's copies) in place for each pattern, whose
 * writes are reported as v10_writes.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <linux/pks.h>
#include <linux/pks_test.h>

#include "pks-counters.h"

#define FILE_LEN	(32UL << 20)

/* Place (@on) or remove the V10 emulation; the writes it made, or -1. */
static long long v10_price(int test, unsigned int on)
{
	struct pks_v10_price req = { .size = sizeof(req), .on = on };

	if (test < 0)
		return 0;
	if (ioctl(test, PKS_TEST_IOC_V10_PRICE, &req)) {
		perror("pks-fsbench: PKS_TEST_IOC_V10_PRICE");
		return -1;
	}
	return (long long)req.writes;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		size_t size;
		int random, write;
	} patterns[] = {
		{ "seq-read-4k", 4096, 0, 0 },
		{ "seq-write-4k", 4096, 0, 1 },
		{ "rand-read-4k", 4096, 1, 0 },
		{ "rand-write-4k", 4096, 1, 1 },
		{ "seq-read-1m", 1 << 20, 0, 0 },
		{ "seq-write-1m", 1 << 20, 0, 1 },
		{ "rand-read-1m", 1 << 20, 1, 0 },
		{ "rand-write-1m", 1 << 20, 1, 1 },
	};
	struct pks_counters before, after;
	struct timespec t0, t1;
	unsigned int p, i, ops = argc > 2 ? atoi(argv[2]) : 256;
	char *buf = malloc(1 << 20);
	int pks, fd, test = -1;
	long long v10_writes;

	if (argc < 2 || !buf) {
		fprintf(stderr, "usage: pks-fsbench FILE [OPS]\n");
		return 2;
	}
	pks = open("/dev/pks", O_RDWR);
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (pks < 0 || fd < 0) {
		perror("pks-fsbench");
		return 1;
	}
	if (argc > 3 && !strcmp(argv[3], "v10")) {
		test = open("/dev/pks-test", O_RDWR);
		if (test < 0) {
			perror("pks-fsbench: /dev/pks-test (load pks_test.ko)");
			return 1;
		}
	}
	memset(buf, 0xa5, 1 << 20);
	for (i = 0; i < FILE_LEN >> 20; i++)
		if (pwrite(fd, buf, 1 << 20, (off_t)i << 20) != 1 << 20) {
			perror("pks-fsbench: fill");
			return 1;
		}
	fsync(fd);
	srand(1);
	for (p = 0; p < sizeof(patterns) / sizeof(patterns[0]); p++) {
		size_t sz = patterns[p].size, slots = FILE_LEN / sz;
		double ns;

		if (v10_price(test, 1) < 0)
			return 1;
		pks_read_counters(pks, &before);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (i = 0; i < ops; i++) {
			off_t off = (off_t)(patterns[p].random ?
					    (size_t)rand() % slots :
					    i % slots) * sz;
			ssize_t n = patterns[p].write ?
				    pwrite(fd, buf, sz, off) :
				    pread(fd, buf, sz, off);

			if (n != (ssize_t)sz) {
				perror("pks-fsbench: I/O");
				return 1;
			}
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		pks_read_counters(pks, &after);
		v10_writes = v10_price(test, 0);
		if (v10_writes < 0)
			return 1;
		ns = (t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec);
		printf("{\"pattern\": \"%s\", \"ops\": %u, \"bytes_per_op\": %zu, "
		       "\"ns_per_op\": %.0f, \"mb_per_s\": %.1f, ",
		       patterns[p].name, ops, sz, ns / ops,
		       (double)sz * ops / ns * 1e3);
		pks_print_counters(&before, &after);
		if (test >= 0)
			printf(", \"v10_writes\": %lld", v10_writes);
		printf("}\n");
	}
	close(fd);
	return 0;
}
