// SPDX-License-Identifier: GPL-2.0
/*
 * Strays from interrupts while a CPU does real work (PKS_TEST_IOC_IRQ_STRAYS):
 * a pinned hrtimer makes a fault-safe stray write from hard interrupt
 * context, round after round, and schedules a tasklet that makes the same
 * write from softirq context. Whatever the CPU was running (a task copying
 * file data through the DAX layer, say) is interrupted: its right to the
 * namespace, and its frames, must not become the interrupt's. The caller
 * picks the CPU and what runs there; this only strays and counts.
 */
#include "test.h"

#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/ktime.h>
#include <linux/memremap.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/smp.h>
#include <asm/irq_regs.h>
#include <asm/ptrace.h>

/**
 * struct pks_irqs - one run
 * @req: the request, whose counts the handlers fill in
 * @va: the word strayed to
 * @interval: time between rounds
 * @left: rounds the timer has still to make
 * @timer_done: the timer made its last round
 * @timer: the hard interrupt
 * @tasklet: the softirq
 */
struct pks_irqs {
	struct pks_irq_strays *req;
	void *va;
	ktime_t interval;
	u32 left;
	bool timer_done;
	struct hrtimer timer;
	struct tasklet_struct tasklet;
};

static DEFINE_MUTEX(pks_irqs_lock);
static struct pks_irqs pks_irqs;

static void pks_irqs_tasklet(struct tasklet_struct *t)
{
	struct pks_irqs *s = container_of(t, struct pks_irqs, tasklet);

	if (pks_can_write(s->va, s->req->value))
		s->req->softirq_landed++;
	else
		s->req->softirq_refused++;
}

static enum hrtimer_restart pks_irqs_timer(struct hrtimer *timer)
{
	struct pks_irqs *s = container_of(timer, struct pks_irqs, timer);
	struct pt_regs *regs = get_irq_regs();

	if (regs && !user_mode(regs))
		s->req->hardirq_in_kernel++;
	if (pks_can_write(s->va, s->req->value))
		s->req->hardirq_landed++;
	else
		s->req->hardirq_refused++;
	/* Queued on this CPU: it runs as this interrupt returns. */
	tasklet_schedule(&s->tasklet);
	if (--s->left) {
		hrtimer_forward_now(timer, s->interval);
		return HRTIMER_RESTART;
	}
	/* Pairs with the acquire in pks_irq_strays(). */
	smp_store_release(&s->timer_done, true);
	return HRTIMER_NORESTART;
}

/* On the CPU the strays are for: a pinned timer stays there. */
static void pks_irqs_start(void *arg)
{
	struct pks_irqs *s = arg;

	hrtimer_start(&s->timer, s->interval, HRTIMER_MODE_REL_PINNED_HARD);
}

static int pks_irqs_run(struct pks_irqs *s)
{
	ktime_t end = ktime_add_ms(ktime_get(), 60 * MSEC_PER_SEC);
	bool control = s->req->flags & PKS_IRQ_STRAYS_F_CONTROL;
	int rc = 0;

	pks_test_hrtimer_setup(&s->timer, pks_irqs_timer, CLOCK_MONOTONIC,
			       HRTIMER_MODE_REL_PINNED_HARD);
	tasklet_setup(&s->tasklet, pks_irqs_tasklet);
	if (control)
		pks_legit_context_enforce(false);
	rc = smp_call_function_single(s->req->cpu, pks_irqs_start, s, 1);
	/* Pairs with the release in pks_irqs_timer(). */
	while (!rc && !smp_load_acquire(&s->timer_done)) {
		if (ktime_after(ktime_get(), end))
			rc = -ETIMEDOUT;
		else
			msleep(20);
	}
	hrtimer_cancel(&s->timer);
	/* The last round's tasklet has run once this returns. */
	tasklet_kill(&s->tasklet);
	if (control)
		pks_legit_context_enforce(true);
	return rc;
}

/**
 * pks_irq_strays() - the PKS_TEST_IOC_IRQ_STRAYS run
 * @req: the request; its counts are filled in
 *
 * Return: 0, or -errno as documented for PKS_TEST_IOC_IRQ_STRAYS.
 */
int pks_irq_strays(struct pks_irq_strays *req)
{
	u32 interval_us = req->interval_us ? req->interval_us : 500;
	struct pks_irqs *s = &pks_irqs;
	struct dev_pagemap *pgmap;
	int rc;

	if (req->rsvd || req->flags & ~PKS_IRQ_STRAYS_F_CONTROL ||
	    !req->rounds || req->rounds > PKS_IRQ_STRAYS_MAX_ROUNDS ||
	    interval_us > 10000 || req->start & 7 ||
	    req->cpu >= nr_cpu_ids || !cpu_online(req->cpu))
		return -EINVAL;
	req->hardirq_landed = req->hardirq_refused = 0;
	req->softirq_landed = req->softirq_refused = 0;
	req->hardirq_in_kernel = 0;
	/* As stray.c: dax memory only, its pagemap held across the run. */
	pgmap = pks_test_dax_pagemap(req->start, 8);
	if (!pgmap)
		return -ENOENT;
	if (!mutex_trylock(&pks_irqs_lock)) {
		put_dev_pagemap(pgmap);
		return -EBUSY;
	}
	memset(s, 0, sizeof(*s));
	s->req = req;
	s->va = __va(req->start);
	s->interval = ns_to_ktime((u64)interval_us * NSEC_PER_USEC);
	s->left = req->rounds;
	rc = pks_irqs_run(s);
	mutex_unlock(&pks_irqs_lock);
	put_dev_pagemap(pgmap);
	return rc;
}
