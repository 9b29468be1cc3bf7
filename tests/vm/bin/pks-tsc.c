// SPDX-License-Identifier: GPL-2.0
/*
 * pks-tsc: make the kernel rewrite CR4 on every CPU from its own shadow.
 *
 *   pks-tsc ROUNDS
 *
 * On each online CPU in turn, ROUNDS times: PR_SET_TSC to SIGSEGV (the
 * kernel sets CR4.TSD with cr4_update_irqsoff()), a short sleep (the
 * context switches toggle CR4.TSD from the kernel's CR4 shadow, away and
 * back), PR_SET_TSC to enable again. A CR4 bit set in the register but
 * not in the shadow is gone after the first round.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct timespec ts = { 0, 2000000 };
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	int rounds = argc > 1 ? atoi(argv[1]) : 10;
	cpu_set_t set;
	int cpu, i, done = 0;

	for (cpu = 0; cpu < cpus; cpu++) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			continue;	/* offline */
		for (i = 0; i < rounds; i++) {
			if (prctl(PR_SET_TSC, PR_TSC_SIGSEGV) ||
			    nanosleep(&ts, NULL) ||
			    prctl(PR_SET_TSC, PR_TSC_ENABLE)) {
				perror("pks-tsc");
				return 1;
			}
			nanosleep(&ts, NULL);
		}
		done++;
	}
	printf("pks-tsc: %d rounds on each of %d CPUs\n", rounds, done);
	return done ? 0 : 1;
}
