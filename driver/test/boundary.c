// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of boundary.c: an interrupt never inherits what the task it
 * interrupted may access. A task holds a write grant, a read grant or a
 * task window on a protected namespace, and on its CPU a hard interrupt
 * (irq_work, a pinned hrtimer), a softirq (a tasklet) and an NMI each make
 * a stray access to another page of the namespace, one nobody holds. Each
 * must be refused and recorded; the holder keeps its access. One more
 * hard interrupt nests: the hrtimer handler dispatches a device interrupt
 * of the test's own (generic_handle_irq(), as Intel VMD's vmd_irq and
 * chained interrupt controllers do) and strays after that handler has
 * returned, while it still runs itself. The control turns the boundaries
 * off, and the same strays land.
 */
#include "test.h"

#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irq_work.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <asm/apic.h>
#include <asm/nmi.h>

enum pks_bnd_trigger {
	PKS_BND_IRQ_WORK,
	PKS_BND_HRTIMER,
	PKS_BND_TASKLET,
	PKS_BND_NMI,
	PKS_BND_NESTED,
	PKS_BND_TRIGGERS
};

static const char *const pks_bnd_trigger_names[] = {
	"irq_work", "hrtimer", "tasklet", "NMI", "nested interrupt",
};

enum pks_bnd_holder {
	PKS_BND_WRITE_GRANT,
	PKS_BND_READ_GRANT,
	PKS_BND_TASK_WINDOW,
	PKS_BND_HOLDERS
};

static const char *const pks_bnd_holder_names[] = {
	"a write grant", "a read grant", "a task window",
};

/**
 * struct pks_bnd - one stray made from interrupt context
 * @va: the page nobody holds
 * @write: a write (else a read)
 * @pattern: what a write stores
 * @cpu: the CPU the holder runs on
 * @done: the interrupt made its access
 * @landed: it went through
 * @work: the irq_work trigger
 * @timer: the hrtimer trigger
 * @tasklet: the tasklet trigger
 * @nmi: an NMI is expected on @cpu
 * @nest: the hrtimer dispatches @irq first, then strays
 * @irq: the test's own interrupt, dispatched by the hrtimer, or 0
 * @nested: its handler ran
 */
struct pks_bnd {
	void *va;
	bool write;
	u64 pattern;
	int cpu;
	bool done;
	bool landed;
	struct irq_work work;
	struct hrtimer timer;
	struct tasklet_struct tasklet;
	bool nmi;
	bool nest;
	unsigned int irq;
	bool nested;
};

static struct pks_bnd pks_bnd;

static void pks_bnd_stray(struct pks_bnd *b)
{
	u64 val;

	b->landed = b->write ? pks_can_write(b->va, b->pattern) :
			       pks_can_read(b->va, &val);
	/* Publishes @landed; pairs with the acquire in pks_bnd_fire(). */
	smp_store_release(&b->done, true);
}

static void pks_bnd_irq_work(struct irq_work *work)
{
	pks_bnd_stray(container_of(work, struct pks_bnd, work));
}

/* The nested handler: it passes irq_handler_entry and _exit, no more. */
static irqreturn_t pks_bnd_nested_irq(int irq, void *data)
{
	struct pks_bnd *b = data;

	b->nested = true;
	return IRQ_HANDLED;
}

static enum hrtimer_restart pks_bnd_timer(struct hrtimer *timer)
{
	struct pks_bnd *b = container_of(timer, struct pks_bnd, timer);

	/* Its handler returns before the stray: this one still runs. */
	if (b->nest)
		generic_handle_irq(b->irq);
	pks_bnd_stray(b);
	return HRTIMER_NORESTART;
}

static void pks_bnd_tasklet(struct tasklet_struct *t)
{
	pks_bnd_stray(container_of(t, struct pks_bnd, tasklet));
}

static int pks_bnd_nmi(unsigned int type, struct pt_regs *regs)
{
	struct pks_bnd *b = &pks_bnd;

	if (!READ_ONCE(b->nmi) || b->cpu != smp_processor_id())
		return NMI_DONE;
	WRITE_ONCE(b->nmi, false);
	pks_bnd_stray(b);
	return NMI_HANDLED;
}

/*
 * Have @trigger's interrupt make the stray on this CPU, and wait for it.
 * Preemption is off, interrupts on: the holder stays on the CPU.
 */
static bool pks_bnd_fire(struct pks_bnd *b, enum pks_bnd_trigger trigger)
{
	ktime_t end = ktime_add_ms(ktime_get(), 2000);

	b->done = false;
	b->nested = false;
	b->nest = trigger == PKS_BND_NESTED;
	b->cpu = smp_processor_id();
	switch (trigger) {
	case PKS_BND_IRQ_WORK:
		irq_work_queue(&b->work);
		break;
	case PKS_BND_NESTED:
	case PKS_BND_HRTIMER:
		hrtimer_start(&b->timer, ns_to_ktime(20 * NSEC_PER_USEC),
			      HRTIMER_MODE_REL_PINNED_HARD);
		break;
	case PKS_BND_TASKLET:
		/* Run at local_bh_enable(), in this task's context. */
		local_bh_disable();
		tasklet_schedule(&b->tasklet);
		local_bh_enable();
		break;
	default:
		WRITE_ONCE(b->nmi, true);
		apic->send_IPI_self(NMI_VECTOR);
		break;
	}
	/* Pairs with the release in pks_bnd_stray(): @landed is seen. */
	while (!smp_load_acquire(&b->done) && ktime_before(ktime_get(), end))
		cpu_relax();
	WRITE_ONCE(b->nmi, false);
	/* As above; the nested handler ran before the stray. */
	return smp_load_acquire(&b->done) && (!b->nest || b->nested);
}

/*
 * Take @holder's rights to the held page @held (key @key). Returns the
 * key's PKRS bits it must give, or -1 when it did not get them.
 */
static int pks_bnd_hold(enum pks_bnd_holder holder, void *held, int key,
			struct pks_task_window *w)
{
	u32 want;

	switch (holder) {
	case PKS_BND_WRITE_GRANT:
		/* Plain: the fault is judged, and the page is held. */
		WRITE_ONCE(*(u64 *)held, READ_ONCE(*(u64 *)held));
		want = 0;
		break;
	case PKS_BND_READ_GRANT:
		(void)READ_ONCE(*(u64 *)held);
		want = PKS_PKRS_WD;
		break;
	default:
		/*
		 * Opened before preemption went off (it may sleep); an access
		 * gives it back should an NMI have reset the register.
		 */
		WRITE_ONCE(*(u64 *)held, READ_ONCE(*(u64 *)held));
		want = pks_key_bits(key, w->task ? w->task->pkrs : ~0u);
		break;
	}
	return pks_msr_key_bits(key) == want ? (int)want : -1;
}

/*
 * The same, a few times: any interrupt between the access and the read of
 * the register (a timer tick, often under emulation) rightly ends a grant
 * and resets a window's rights, and the next access takes them again.
 */
#define PKS_BND_HOLD_TRIES	10

static int pks_bnd_hold_again(enum pks_bnd_holder holder, void *held,
			      int key, struct pks_task_window *w)
{
	int tries, bits = -1;

	for (tries = 0; bits < 0 && tries < PKS_BND_HOLD_TRIES; tries++)
		bits = pks_bnd_hold(holder, held, key, w);
	return bits;
}

/**
 * pks_bnd_case() - one holder, one interrupt, one stray
 * @ctx: the test
 * @key: the namespace's key
 * @held: a page the test holds a reference to
 * @holder: what the task holds
 * @trigger: which interrupt strays
 * @landed: set to whether the stray went through
 *
 * Return: 0, or a test result when the case could not be set up.
 */
static int pks_bnd_case(struct pks_test_ctx *ctx, int key, void *held,
			enum pks_bnd_holder holder,
			enum pks_bnd_trigger trigger, bool *landed)
{
	struct pks_bnd *b = &pks_bnd;
	struct pks_task_window w = { .task = NULL };
	int result = 0, bits;

	/*
	 * The last case's grant ends when this task leaves the CPU: a whole
	 * jiffy, as a short sleep may end before the task leaves.
	 */
	schedule_timeout_uninterruptible(1);
	if (holder == PKS_BND_TASK_WINDOW) {
		pks_task_window_open(key, PKS_READ_WRITE, &w);
		if (!w.task)
			return pks_test_fail(ctx, "no task window");
	}
	/* A read grant allows reads: stray with a read, as it would. */
	b->write = holder != PKS_BND_READ_GRANT;
	preempt_disable();
	bits = pks_bnd_hold_again(holder, held, key, &w);
	if (bits < 0) {
		result = pks_test_fail(ctx, "%s: the task did not get it (PKRS %#x)",
				       pks_bnd_holder_names[holder],
				       pks_read_pkrs_cache());
	} else if (!pks_bnd_fire(b, trigger)) {
		result = pks_test_fail(ctx, "the %s never ran",
				       pks_bnd_trigger_names[trigger]);
	} else {
		*landed = b->landed;
		/* The holder is judged again at its next access. */
		if (pks_bnd_hold_again(holder, held, key, &w) != bits)
			result = pks_test_fail(ctx, "%s was lost after the %s (PKRS %#x)",
					       pks_bnd_holder_names[holder],
					       pks_bnd_trigger_names[trigger],
					       pks_read_pkrs_cache());
	}
	preempt_enable();
	pks_task_window_close(&w);
	return result;
}

/* A word of the page nobody holds, through a window. */
static void pks_bnd_word(int key, void *va, u64 *val, bool write)
{
	unsigned int prev = pks_window_open(key, PKS_READ_WRITE);

	if (write)
		pks_can_write(va, *val);
	else
		pks_can_read(va, val);
	pks_window_close(key, prev);
}

static int pks_bnd_run(struct pks_test_ctx *ctx, int key, void *held)
{
	struct pks_bnd *b = &pks_bnd;
	int result = 0, landed_ctl = 0;
	u64 head, before, after;
	int h, t;

	pks_bnd_word(key, b->va, &before, false);
	b->pattern = ~before;
	head = pks_faults_head() + pks_faults_lost();
	for (h = 0; h < PKS_BND_HOLDERS && !result; h++) {
		for (t = 0; t < PKS_BND_TRIGGERS && !result; t++) {
			bool landed = true;

			result = pks_bnd_case(ctx, key, held, h, t, &landed);
			if (!result && landed)
				result = pks_test_fail(ctx, "a stray %s from the %s went through while the task held %s",
						       b->write ? "write" : "read",
						       pks_bnd_trigger_names[t],
						       pks_bnd_holder_names[h]);
		}
	}
	pks_bnd_word(key, b->va, &after, false);
	if (!result && after != before)
		result = pks_test_fail(ctx, "the stray page changed: %#llx -> %#llx",
				       before, after);
	/* Every refused stray is in the log (an NMI's may be counted lost). */
	if (!result && pks_faults_head() + pks_faults_lost() - head <
	    PKS_BND_HOLDERS * PKS_BND_TRIGGERS)
		result = pks_test_fail(ctx, "%llu of %d refused strays recorded",
				       pks_faults_head() + pks_faults_lost() -
				       head, PKS_BND_HOLDERS * PKS_BND_TRIGGERS);
	if (result)
		return result;

	/* The control: without the boundaries each stray lands. */
	pks_boundary_enforce(false);
	for (t = 0; t < PKS_BND_TRIGGERS && !result; t++) {
		bool landed = false;

		result = pks_bnd_case(ctx, key, held, PKS_BND_WRITE_GRANT, t,
				      &landed);
		landed_ctl += landed;
		if (!result && !landed)
			result = pks_test_fail(ctx, "control: with no boundaries the stray from the %s was still refused: the check cannot fail",
					       pks_bnd_trigger_names[t]);
	}
	pks_boundary_enforce(true);
	pks_bnd_word(key, b->va, &before, true);
	if (!result)
		pr_info("boundary: %d strays from interrupts refused; %d of %d landed with the boundaries off\n",
			PKS_BND_HOLDERS * PKS_BND_TRIGGERS, landed_ctl,
			PKS_BND_TRIGGERS);
	return result;
}

/*
 * An interrupt of the test's own, on no device: a descriptor with the
 * dummy chip and the simple flow handler, which generic_handle_irq() runs
 * in the caller's hard interrupt with the tracepoints of any device's.
 */
static int pks_bnd_irq_get(struct pks_bnd *b)
{
	int irq = irq_alloc_desc(NUMA_NO_NODE);
	int rc;

	if (irq < 0)
		return irq;
	irq_set_chip_and_handler(irq, &dummy_irq_chip, handle_simple_irq);
	irq_clear_status_flags(irq, IRQ_NOREQUEST | IRQ_NOPROBE);
	rc = request_irq(irq, pks_bnd_nested_irq, 0, "pks_test_nested", b);
	if (rc) {
		irq_free_desc(irq);
		return rc;
	}
	b->irq = irq;
	return 0;
}

static void pks_bnd_irq_put(struct pks_bnd *b)
{
	if (!b->irq)
		return;
	free_irq(b->irq, b);
	irq_free_desc(b->irq);
	b->irq = 0;
}

/*
 * boundary: strays from a hard interrupt, a softirq and an NMI on the CPU
 * of a task holding rights to a protected namespace are refused, recorded,
 * and leave the data alone; with the boundaries off (the control) they
 * land. The namespace needs two 2 MiB pages: one the test holds a
 * reference to (a grant's page), one nobody holds (the stray's).
 */
static int pks_test_boundary(struct pks_test_ctx *ctx)
{
	struct pks_range *r = ctx->range;
	struct pks_bnd *b = &pks_bnd;
	int key, rc, result;
	struct page *page;
	bool ours;
	void *held;

	if (r->len < 2 * PMD_SIZE)
		return pks_test_skip(ctx, "the namespace is smaller than 4 MiB");
	rc = pks_test_use_range(ctx, r, &key, &ours);
	if (rc)
		return rc;
	held = __va(r->start);
	b->va = __va(r->start + r->len - PMD_SIZE);
	page = virt_to_page(held);
	get_page(page);
	init_irq_work(&b->work, pks_bnd_irq_work);
	pks_test_hrtimer_setup(&b->timer, pks_bnd_timer, CLOCK_MONOTONIC,
			       HRTIMER_MODE_REL_PINNED_HARD);
	tasklet_setup(&b->tasklet, pks_bnd_tasklet);
	rc = pks_bnd_irq_get(b);
	if (rc) {
		result = pks_test_skip(ctx, "cannot set up an interrupt to nest (%d)",
				       rc);
		goto out;
	}
	rc = register_nmi_handler(NMI_LOCAL, pks_bnd_nmi, 0, "pks_test_bnd");
	if (rc) {
		result = pks_test_skip(ctx, "cannot register an NMI handler (%d)",
				       rc);
	} else {
		result = pks_bnd_run(ctx, key, held);
		unregister_nmi_handler(NMI_LOCAL, "pks_test_bnd");
	}
out:
	pks_boundary_enforce(true);
	hrtimer_cancel(&b->timer);
	tasklet_kill(&b->tasklet);
	irq_work_sync(&b->work);
	pks_bnd_irq_put(b);
	put_page(page);
	if (ours)
		__pks_unprotect(r->start);
	return result;
}

static const struct pks_test boundary_tests[] = {
	{ PKS_TEST_BOUNDARY, pks_test_boundary },
};

PKS_TEST_CATEGORY(pks_boundary_tests, boundary_tests);
