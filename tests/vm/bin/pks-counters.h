/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The driver's counters the benchmark programs read around a measured
 * loop: PKRS writes summed over every CPU, kernel protection-key faults
 * the fault probe saw, grants to a task by rule (PKS_GRANT_RULES), grants
 * in any other context (softirq, hard interrupt, stepped) over all rules,
 * windows refilled after an interrupt boundary, spurious faults, PKRS
 * writes at interrupt entry and exit, calls of the owner's copy functions
 * that opened a key (brackets), and this process's context switches.
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
	uint64_t fault_hits;
	uint64_t task_grants[PKS_RULE_NR];	/* by enum pks_rule_id */
	uint64_t irq_grants;	/* softirq, hardirq and stepped, every rule */
	uint64_t refills;
	uint64_t spurious;
	uint64_t boundary_writes;
	uint64_t bracket_opens;
	uint64_t frames_unwound;
	uint64_t symbol_lookups;
	long switches;
};

static inline void pks_read_counters(int fd, struct pks_counters *c)
{
	struct pks_cpu_info cpus[PKS_COUNTERS_MAX_CPUS];
	struct pks_info info = { .size = sizeof(info),
				 .nr_cpus = PKS_COUNTERS_MAX_CPUS,
				 .cpus = (uintptr_t)cpus };
	struct pks_grants g = { .size = sizeof(g) };
	struct pks_brackets br = { .size = sizeof(br) };
	struct rusage ru;
	unsigned int i;

	if (ioctl(fd, PKS_IOC_GET_INFO, &info) || ioctl(fd, PKS_IOC_GRANTS, &g) ||
	    ioctl(fd, PKS_IOC_BRACKETS, &br)) {
		perror("/dev/pks");
		exit(1);
	}
	/* Without CAP_SYS_ADMIN the counters read 0: no measurement. */
	if (!(g.flags & PKS_GRANTS_F_COUNTS)) {
		fprintf(stderr, "/dev/pks: grant counts hidden (needs CAP_SYS_ADMIN)\n");
		exit(1);
	}
	memset(c, 0, sizeof(*c));
	for (i = 0; i < info.nr_cpus && i < PKS_COUNTERS_MAX_CPUS; i++) {
		if (!(cpus[i].flags & PKS_CPU_F_LIVE)) {
			fprintf(stderr, "/dev/pks: cpu%u counters hidden (needs CAP_SYS_ADMIN)\n",
				cpus[i].cpu);
			exit(1);
		}
		c->pkrs_writes += cpus[i].pkrs_writes;
	}
	c->fault_hits = g.fault_probe_hits;
	for (i = 0; i < g.nr_rules && i < PKS_RULE_NR; i++) {
		c->task_grants[i] = g.rules[i].task;
		c->irq_grants += g.rules[i].softirq + g.rules[i].hardirq +
				 g.rules[i].stepped;
	}
	c->refills = g.refills;
	c->spurious = g.spurious;
	c->boundary_writes = g.boundary_writes;
	c->frames_unwound = g.frames_unwound;
	c->symbol_lookups = g.symbol_lookups;
	for (i = 0; i < br.nr && i < PKS_BRACKET_MAX; i++)
		c->bracket_opens += br.brackets[i].opens;
	getrusage(RUSAGE_SELF, &ru);
	c->switches = ru.ru_nvcsw + ru.ru_nivcsw;
}

/*
 * What the counters grew by from @b to @a, as JSON members with no braces
 * around them, for the caller's object: "pkrs_writes", "fault_probe_hits",
 * one "<rule>_grants" per rule ("held_page_grants", ...: grants to a task),
 * "irq_grants", "refills", "spurious", "boundary_writes", "bracket_opens",
 * "frames_unwound", "symbol_lookups" and "context_switches".
 */
static inline void pks_print_counters(const struct pks_counters *b,
				      const struct pks_counters *a)
{
#define ___PKS_P(id, name) name
	static const char *const rules[] = PKS_GRANT_RULES;
#undef ___PKS_P
	unsigned int i;
	const char *s;

	printf("\"pkrs_writes\": %llu, \"fault_probe_hits\": %llu",
	       (unsigned long long)(a->pkrs_writes - b->pkrs_writes),
	       (unsigned long long)(a->fault_hits - b->fault_hits));
	for (i = 0; i < PKS_RULE_NR; i++) {
		printf(", \"");
		for (s = rules[i]; *s; s++)
			putchar(*s == '-' ? '_' : *s);
		printf("_grants\": %llu",
		       (unsigned long long)(a->task_grants[i] - b->task_grants[i]));
	}
	printf(", \"irq_grants\": %llu, \"refills\": %llu, \"spurious\": %llu, "
	       "\"boundary_writes\": %llu, \"bracket_opens\": %llu, "
	       "\"frames_unwound\": %llu, \"symbol_lookups\": %llu, "
	       "\"context_switches\": %ld",
	       (unsigned long long)(a->irq_grants - b->irq_grants),
	       (unsigned long long)(a->refills - b->refills),
	       (unsigned long long)(a->spurious - b->spurious),
	       (unsigned long long)(a->boundary_writes - b->boundary_writes),
	       (unsigned long long)(a->bracket_opens - b->bracket_opens),
	       (unsigned long long)(a->frames_unwound - b->frames_unwound),
	       (unsigned long long)(a->symbol_lookups - b->symbol_lookups),
	       a->switches - b->switches);
}

#endif /* PKS_COUNTERS_H */
