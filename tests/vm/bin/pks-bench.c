// SPDX-License-Identifier: GPL-2.0
/*
 * pks-bench [ITERATIONS [ACCESS_BYTES]]: run PKS_TEST_IOC_BENCH
 * (pks_test.ko), each access writing ACCESS_BYTES (default 8), and print
 * what it measured as one JSON object, with the ratio of the two methods.
 *
 * pks-bench task-window [ITERATIONS [SLEEP_US]]: CPU windows, task
 * windows, sleeps of SLEEP_US (default 50) and task windows around such a
 * sleep, ITERATIONS (default 1000) of each, as one JSON object.
 *
 * pks-bench switch [ROUNDS]: ROUNDS (default 1000) round trips between two
 * kernel threads on one CPU, holding no rights, then with the first
 * holding a task window, as one JSON object.
 *
 * pks-bench irq [ROUNDS]: ROUNDS (default 1000) interrupts (an irq_work)
 * on a kernel thread's CPU while it holds no rights, and as many while it
 * holds a task window, taking turns, as one JSON object.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/pks.h>
#include <linux/pks_test.h>

static double per(unsigned long long n, unsigned long long d)
{
	return d ? (double)n / d : 0;
}

static void print_guard(const struct pks_bench *b)
{
	printf("{\"iterations\": %u, \"access_bytes\": %u, "
	       "\"window_ns_per_op\": %.0f, \"window_pkrs_writes_per_op\": %.2f, "
	       "\"redundant_open_pkrs_writes\": %llu, \"pte_flush_ns_per_op\": %.0f, "
	       "\"pte_updates_per_op\": %.2f, \"tlb_flushes_per_op\": %.2f, \"speedup\": %.1f}\n",
	       b->iterations, b->access_bytes,
	       per(b->window_ns, b->iterations),
	       per(b->window_pkrs_writes, b->iterations),
	       (unsigned long long)b->redundant_pkrs_writes,
	       per(b->pte_ns, b->iterations),
	       per(b->pte_updates, b->iterations),
	       per(b->tlb_flushes, b->iterations),
	       per(b->pte_ns, b->window_ns));
}

static void print_task(const struct pks_bench *b)
{
	unsigned int n = b->iterations;

	printf("{\"figure\": \"task window\", \"iterations\": %u, "
	       "\"sleep_us\": %u, "
	       "\"guard_ns_per_op\": %.0f, \"guard_pkrs_writes\": %llu, "
	       "\"task_ns_per_op\": %.0f, \"task_pkrs_writes\": %llu, "
	       "\"task_switches\": %llu, "
	       "\"sleep_ns_per_op\": %.0f, \"sleep_pkrs_writes\": %llu, "
	       "\"sleep_window_ns_per_op\": %.0f, "
	       "\"sleep_window_pkrs_writes\": %llu, "
	       "\"sleep_window_switches\": %llu}\n",
	       n, b->sleep_us ? b->sleep_us : 50,
	       per(b->window_ns, n),
	       (unsigned long long)b->window_pkrs_writes,
	       per(b->task_ns, n), (unsigned long long)b->task_pkrs_writes,
	       (unsigned long long)b->task_switches,
	       per(b->sleep_ns, n), (unsigned long long)b->sleep_pkrs_writes,
	       per(b->sleep_window_ns, n),
	       (unsigned long long)b->sleep_window_pkrs_writes,
	       (unsigned long long)b->sleep_window_switches);
}

static void print_run(const char *name, const struct pks_bench_switch *s)
{
	printf("\"%s\": {\"ns_per_switch\": %.0f, \"switches\": %llu, "
	       "\"holder_switches\": %llu, \"pkrs_writes\": %llu, "
	       "\"pkrs_skips\": %llu, \"pkrs_writes_per_switch\": %.2f}",
	       name, per(s->ns, s->switches),
	       (unsigned long long)s->switches,
	       (unsigned long long)s->holder_switches,
	       (unsigned long long)s->pkrs_writes,
	       (unsigned long long)s->pkrs_skips,
	       per(s->pkrs_writes, s->switches));
}

static void print_switch(const struct pks_bench *b)
{
	printf("{\"figure\": \"context switch\", \"rounds\": %u, ",
	       b->iterations);
	print_run("plain", &b->plain);
	printf(", ");
	print_run("granted", &b->granted);
	printf("}\n");
}

static void print_irq_run(const char *name, const struct pks_bench_irq *r,
			  unsigned int rounds)
{
	printf("\"%s\": {\"ns_per_round\": %.0f, \"handlers\": %llu, "
	       "\"pkrs_writes\": %llu, \"leaked\": %llu, "
	       "\"pkrs_writes_per_handler\": %.2f}",
	       name, per(r->ns, rounds),
	       (unsigned long long)r->handlers,
	       (unsigned long long)r->pkrs_writes,
	       (unsigned long long)r->leaked,
	       per(r->pkrs_writes, r->handlers));
}

static void print_irq(const struct pks_bench *b)
{
	printf("{\"figure\": \"interrupt\", \"rounds\": %u, ",
	       b->iterations);
	print_irq_run("plain", &b->irq_plain, b->iterations);
	printf(", ");
	print_irq_run("held", &b->irq_held, b->iterations);
	printf("}\n");
}

int main(int argc, char **argv)
{
	struct pks_bench b = { .size = sizeof(b) };
	int arg = 1, fd;

	if (argc > 1 && !strcmp(argv[1], "task-window")) {
		b.figure = PKS_BENCH_TASK_WINDOW;
		arg = 2;
	} else if (argc > 1 && !strcmp(argv[1], "switch")) {
		b.figure = PKS_BENCH_SWITCH;
		arg = 2;
	} else if (argc > 1 && !strcmp(argv[1], "irq")) {
		b.figure = PKS_BENCH_IRQ;
		arg = 2;
	}
	b.iterations = argc > arg ? atoi(argv[arg]) :
		       b.figure == PKS_BENCH_GUARD ? 10000 : 1000;
	if (b.figure == PKS_BENCH_GUARD)
		b.access_bytes = argc > arg + 1 ? atoi(argv[arg + 1]) : 8;
	else if (b.figure == PKS_BENCH_TASK_WINDOW && argc > arg + 1)
		b.sleep_us = atoi(argv[arg + 1]);

	fd = open("/dev/pks-test", O_RDWR);
	if (fd < 0 || ioctl(fd, PKS_TEST_IOC_BENCH, &b) < 0) {
		perror("pks-bench");
		return 1;
	}
	if (b.figure == PKS_BENCH_TASK_WINDOW)
		print_task(&b);
	else if (b.figure == PKS_BENCH_SWITCH)
		print_switch(&b);
	else if (b.figure == PKS_BENCH_IRQ)
		print_irq(&b);
	else
		print_guard(&b);
	close(fd);
	return 0;
}
