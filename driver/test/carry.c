// SPDX-License-Identifier: GPL-2.0
/*
 * Does a grant carry from one callback to the next (PKS_TEST_IOC_GRANT_CARRY)
 * A grant is the faulting context's, and one run of a softirq or of a
 * kworker runs many callbacks in a row. Round after round, two callbacks
 * of one kind are armed together on one CPU from an IPI there (so that
 * neither can run before both are queued): two soft hrtimers with the
 * same expiry, two timers with the same expiry, two tasklets, or two work
 * items. The first makes a legitimate access (a fault-safe read of a
 * page this module holds a reference to: the held-page rule grants it);
 * the second looks at the key in PKRS before its own read. The caller
 * picks the CPU and the kind; this only counts.
 */
#include "test.h"

#include <linux/completion.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/memremap.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/smp.h>
#include <linux/timer.h>
#include <linux/workqueue.h>

/**
 * struct pks_carry - one run
 * @req: the request, whose counts the callbacks fill in
 * @va: the word read
 * @key: its key
 * @ran: callbacks of the round that ran
 * @done: the second callback of the round ran
 * @hrtimer: the soft hrtimers
 * @timer: the timers
 * @tasklet: the tasklets
 * @work: the work items
 */
struct pks_carry {
	struct pks_grant_carry *req;
	void *va;
	int key;
	unsigned int ran;
	struct completion done;
	struct hrtimer hrtimer[2];
	struct timer_list timer[2];
	struct tasklet_struct tasklet[2];
	struct work_struct work[2];
};

static DEFINE_MUTEX(pks_carry_lock);
static struct pks_carry pks_carry;

/*
 * The first of the round to run reads, whichever of the two it is (the
 * timer wheel runs timers of one expiry newest first); the other one is
 * the second.
 */
static void pks_carry_cb(struct pks_carry *c)
{
	u64 val;

	if (!c->ran++) {
		c->req->first_read += pks_can_read(c->va, &val);
		return;
	}
	/* Before its own read: what the first one's grant left open. */
	if (!(pks_msr_key_bits(c->key) & PKS_PKRS_AD))
		c->req->carried++;
	c->req->second_read += pks_can_read(c->va, &val);
	complete(&c->done);
}

static enum hrtimer_restart pks_carry_hrtimer(struct hrtimer *t)
{
	pks_carry_cb(&pks_carry);
	return HRTIMER_NORESTART;
}

static void pks_carry_timer(struct timer_list *t)
{
	pks_carry_cb(&pks_carry);
}

static void pks_carry_tasklet(struct tasklet_struct *t)
{
	pks_carry_cb(&pks_carry);
}

static void pks_carry_work(struct work_struct *w)
{
	pks_carry_cb(&pks_carry);
}

/* On the CPU, interrupts off: both are queued before either can run. */
static void pks_carry_arm(void *arg)
{
	struct pks_carry *c = arg;
	int cpu = smp_processor_id();
	unsigned long expires = jiffies + 1;
	ktime_t at = ktime_add_us(ktime_get(), 100);
	int i;

	for (i = 0; i < 2; i++) {
		switch (c->req->kind) {
		case PKS_CARRY_HRTIMER:
			hrtimer_start(&c->hrtimer[i], at,
				      HRTIMER_MODE_ABS_PINNED_SOFT);
			break;
		case PKS_CARRY_TIMER:
			c->timer[i].expires = expires;
			add_timer_on(&c->timer[i], cpu);
			break;
		case PKS_CARRY_TASKLET:
			tasklet_schedule(&c->tasklet[i]);
			break;
		default:
			queue_work_on(cpu, system_highpri_wq, &c->work[i]);
			break;
		}
	}
}

static int pks_carry_run(struct pks_carry *c)
{
	int i, rc = 0;
	u32 round;

	for (i = 0; i < 2; i++) {
		pks_test_hrtimer_setup(&c->hrtimer[i], pks_carry_hrtimer,
				       CLOCK_MONOTONIC,
				       HRTIMER_MODE_ABS_PINNED_SOFT);
		timer_setup(&c->timer[i], pks_carry_timer, TIMER_PINNED);
		tasklet_setup(&c->tasklet[i], pks_carry_tasklet);
		INIT_WORK(&c->work[i], pks_carry_work);
	}
	for (round = 0; !rc && round < c->req->rounds; round++) {
		reinit_completion(&c->done);
		c->ran = 0;
		rc = smp_call_function_single(c->req->cpu, pks_carry_arm, c, 1);
		if (!rc && !wait_for_completion_timeout(&c->done, 2 * HZ))
			rc = -ETIMEDOUT;
		if (!rc)
			c->req->rounds_done++;
		/* The first callback has run too before the next round. */
		for (i = 0; i < 2; i++) {
			hrtimer_cancel(&c->hrtimer[i]);
			timer_delete_sync(&c->timer[i]);
			tasklet_kill(&c->tasklet[i]);
			flush_work(&c->work[i]);
		}
	}
	return rc;
}

/**
 * pks_grant_carry() - the PKS_TEST_IOC_GRANT_CARRY run
 * @req: the request; its counts are filled in
 *
 * Return: 0, or -errno as documented for PKS_TEST_IOC_GRANT_CARRY.
 */
int pks_grant_carry(struct pks_grant_carry *req)
{
	bool control = req->flags & PKS_GRANT_CARRY_F_CONTROL;
	struct pks_carry *c = &pks_carry;
	struct dev_pagemap *pgmap;
	struct page *page;
	int key, rc;

	if (req->rsvd || req->flags & ~PKS_GRANT_CARRY_F_CONTROL ||
	    req->kind >= PKS_CARRY_KINDS || !req->rounds ||
	    req->rounds > PKS_GRANT_CARRY_MAX_ROUNDS || req->start & 7 ||
	    req->cpu >= nr_cpu_ids || !cpu_online(req->cpu))
		return -EINVAL;
	req->rounds_done = req->carried = 0;
	req->first_read = req->second_read = 0;
	/* As stray.c: dax memory only, its pagemap held across the run. */
	pgmap = pks_test_dax_pagemap(req->start, 8);
	if (!pgmap)
		return -ENOENT;
	key = pks_range_key(req->start, 8);
	if (!pks_key_valid(key)) {
		put_dev_pagemap(pgmap);
		return -ENOENT;
	}
	if (!mutex_trylock(&pks_carry_lock)) {
		put_dev_pagemap(pgmap);
		return -EBUSY;
	}
	memset(c, 0, sizeof(*c));
	c->req = req;
	c->va = __va(req->start);
	c->key = key;
	init_completion(&c->done);
	/* Held: the held-page rule grants the reads. */
	page = virt_to_page(c->va);
	get_page(page);
	if (control)
		pks_callback_ends_enforce(false);
	rc = pks_carry_run(c);
	if (control)
		pks_callback_ends_enforce(true);
	put_page(page);
	mutex_unlock(&pks_carry_lock);
	put_dev_pagemap(pgmap);
	return rc;
}
