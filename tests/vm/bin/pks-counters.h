/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The driver's counters the benchmark programs read around a measured
 * loop: PKRS writes summed over every CPU, one granted path's calls
 * (entry-probe hits) and grants, fault-probe hits, grants to the pmem
 * driver's block I/O, and this process's context switches.
 */
#ifndef PKS_COUNTERS_H
#define PKS_COUNTERS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <linux/pks.h>

#define PKS_COUNTERS_MAX_CPUS	64

struct pks_counters {
	uint64_t pkrs_writes;
	uint64_t calls;
	uint64_t grants;
	uint64_t fault_hits;
	uint64_t block_grants;
	long switches;
};

static inline void pks_read_counters(int fd, unsigned int path,
				     struct pks_counters *c)
{
	struct pks_cpu_info cpus[PKS_COUNTERS_MAX_CPUS];
	struct pks_info info = { .size = sizeof(info),
				 .nr_cpus = PKS_COUNTERS_MAX_CPUS,
				 .cpus = (uintptr_t)cpus };
	struct pks_grants g = { .size = sizeof(g) };
	struct rusage ru;
	unsigned int i;

	if (ioctl(fd, PKS_IOC_GET_INFO, &info) || ioctl(fd, PKS_IOC_GRANTS, &g)) {
		perror("/dev/pks");
		exit(1);
	}
	memset(c, 0, sizeof(*c));
	for (i = 0; i < info.nr_cpus && i < PKS_COUNTERS_MAX_CPUS; i++)
		c->pkrs_writes += cpus[i].pkrs_writes;
	c->calls = g.paths[path].calls;
	c->grants = g.paths[path].grants;
	c->fault_hits = g.fault_probe_hits;
	c->block_grants = g.paths[PKS_PATH_PMEM_BLOCK].grants;
	getrusage(RUSAGE_SELF, &ru);
	c->switches = ru.ru_nvcsw + ru.ru_nivcsw;
}

#endif /* PKS_COUNTERS_H */
