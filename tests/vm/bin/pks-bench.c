// SPDX-License-Identifier: GPL-2.0
/*
 * pks-bench [ITERATIONS [ACCESS_BYTES]]: run PKS_TEST_IOC_BENCH
 * (pks_test.ko), each access writing ACCESS_BYTES (default 8), and print
 * what it measured as one JSON object, with the ratio of the two methods.
 */
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/pks.h>

int main(int argc, char **argv)
{
	struct pks_bench b = {
		.size = sizeof(b),
		.iterations = argc > 1 ? atoi(argv[1]) : 10000,
		.access_bytes = argc > 2 ? atoi(argv[2]) : 8,
	};
	int fd = open("/dev/pks-test", O_RDWR);

	if (fd < 0 || ioctl(fd, PKS_TEST_IOC_BENCH, &b) < 0) {
		perror("pks-bench");
		return 1;
	}
	printf("{\"iterations\": %u, \"access_bytes\": %u, "
	       "\"window_ns_per_op\": %.0f, \"window_pkrs_writes_per_op\": %.2f, "
	       "\"redundant_open_pkrs_writes\": %llu, \"pte_flush_ns_per_op\": %.0f, "
	       "\"pte_updates_per_op\": %.2f, \"tlb_flushes_per_op\": %.2f, \"speedup\": %.1f}\n",
	       b.iterations, b.access_bytes,
	       (double)b.window_ns / b.iterations,
	       (double)b.window_pkrs_writes / b.iterations,
	       (unsigned long long)b.redundant_pkrs_writes,
	       (double)b.pte_ns / b.iterations,
	       (double)b.pte_updates / b.iterations,
	       (double)b.tlb_flushes / b.iterations,
	       b.window_ns ? (double)b.pte_ns / b.window_ns : 0);
	close(fd);
	return 0;
}
