// SPDX-License-Identifier: GPL-2.0
/*
 * pks-userbench DAXDEV PASSES: what protection costs a program that uses
 * the memory the way it is meant to be used, through its own mapping.
 * Maps 64 MiB of DAXDEV with libpmem2 and copies a buffer into it with
 * pmem2's memcpy (non-temporal stores plus persist), PASSES times, then
 * reads it back. Prints one JSON object with the throughput and the
 * driver's counters over the loop (pks-counters.h): user-space stores to
 * a protected namespace go through user page tables, which carry no
 * supervisor key, so the driver writes PKRS zero times, takes zero faults
 * and grants nothing.
 */
#include <fcntl.h>
#include <libpmem2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pks-counters.h"

#define MAP_LEN		(64UL << 20)

static double elapsed_ns(const struct timespec *t0, const struct timespec *t1)
{
	return (t1->tv_sec - t0->tv_sec) * 1e9 + (t1->tv_nsec - t0->tv_nsec);
}

int main(int argc, char **argv)
{
	struct pks_counters before, after;
	struct pmem2_config *cfg = NULL;
	struct pmem2_source *src = NULL;
	struct pmem2_map *map = NULL;
	struct timespec t0, t1, t2;
	pmem2_memcpy_fn copy;
	int fd, dax, i, passes;
	unsigned long sum = 0;
	char *dst, *buf;
	size_t off;

	if (argc < 3 || (passes = atoi(argv[2])) < 1) {
		fprintf(stderr, "usage: pks-userbench DAXDEV PASSES\n");
		return 2;
	}
	fd = open("/dev/pks", O_RDWR);
	dax = open(argv[1], O_RDWR);
	buf = malloc(MAP_LEN);
	if (fd < 0 || dax < 0 || !buf) {
		perror("pks-userbench");
		return 1;
	}
	memset(buf, 0xa5, MAP_LEN);
	if (pmem2_source_from_fd(&src, dax) || pmem2_config_new(&cfg) ||
	    pmem2_config_set_required_store_granularity(cfg,
						PMEM2_GRANULARITY_PAGE) ||
	    pmem2_config_set_length(cfg, MAP_LEN) ||
	    pmem2_map_new(&map, cfg, src)) {
		pmem2_perror("pks-userbench: pmem2");
		return 1;
	}
	dst = pmem2_map_get_address(map);
	copy = pmem2_get_memcpy_fn(map);

	pks_read_counters(fd, &before);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < passes; i++)
		copy(dst, buf, MAP_LEN, 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	for (i = 0; i < passes; i++)
		for (off = 0; off < MAP_LEN; off += 64)
			sum += ((volatile unsigned char *)dst)[off];
	clock_gettime(CLOCK_MONOTONIC, &t2);
	pks_read_counters(fd, &after);

	if (memcmp(dst, buf, MAP_LEN)) {
		fprintf(stderr, "pks-userbench: the mapping does not hold what was copied\n");
		return 1;
	}
	printf("{\"bytes_per_pass\": %lu, \"passes\": %d, "
	       "\"write_mb_per_s\": %.0f, \"read_mb_per_s\": %.0f, "
	       "\"checksum\": %lu, ",
	       MAP_LEN, passes,
	       MAP_LEN * (double)passes / 1e6 / (elapsed_ns(&t0, &t1) / 1e9),
	       MAP_LEN * (double)passes / 1e6 / (elapsed_ns(&t1, &t2) / 1e9),
	       sum);
	pks_print_counters(&before, &after);
	printf("}\n");
	pmem2_map_delete(&map);
	pmem2_config_delete(&cfg);
	pmem2_source_delete(&src);
	return 0;
}
