// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark: the cost of opening a key with a CPU window against the
 * correct alternative without PKS, a page-table change with a TLB flush on
 * every CPU, measured side by side over a buffer of the caller's size; the
 * cost of a task window, which may sleep, against a CPU window and
 * against the same sleep without one; and a context switch with and
 * without a task holding rights; and an interrupt with and without
 * rights held by the task it interrupts. All counted in events, since time ratios
 * under emulation do not predict hardware.
 */
#include "test.h"

#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/irq_work.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <asm/msr.h>
#include <asm/tlbflush.h>

/**
 * struct pks_bench_buf - pages vmap()ed as one buffer
 * @pages: the backing pages
 * @nr: how many
 * @addr: the mapping, tagged with the key it was made with
 */
struct pks_bench_buf {
	struct page **pages;
	unsigned int nr;
	void *addr;
};

static void pks_bench_buf_free(struct pks_bench_buf *b)
{
	unsigned int i;

	if (b->addr)
		vunmap(b->addr);
	for (i = 0; b->pages && i < b->nr; i++)
		if (b->pages[i])
			__free_page(b->pages[i]);
	kfree(b->pages);
	memset(b, 0, sizeof(*b));
}

static int pks_bench_buf_alloc(struct pks_bench_buf *b, size_t bytes, int key)
{
	unsigned int i;

	memset(b, 0, sizeof(*b));
	b->nr = DIV_ROUND_UP(bytes, PAGE_SIZE);
	b->pages = kcalloc(b->nr, sizeof(*b->pages), GFP_KERNEL);
	if (!b->pages)
		return -ENOMEM;
	for (i = 0; i < b->nr; i++) {
		b->pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!b->pages[i])
			goto nomem;
	}
	b->addr = vmap(b->pages, b->nr, VM_MAP, pks_pgprot(PAGE_KERNEL, key));
	if (b->addr)
		return 0;
nomem:
	pks_bench_buf_free(b);
	return -ENOMEM;
}

/**
 * struct pks_bench_flush - one change of the alternative, as the CPUs see it
 * @probe: the buffer's first byte
 * @open: whether the change made the buffer present
 * @check: read @probe after the flush (outside the timed loop only)
 * @flushes: CPUs that flushed; with @check, whose view of @probe after
 *	their flush matched its PTE
 */
struct pks_bench_flush {
	const void *probe;
	bool open;
	bool check;
	atomic64_t *flushes;
};

/*
 * On each CPU (by IPI; on the caller's by a direct call): flush its TLB.
 * With @check, then read the buffer's first byte without faulting, which
 * must succeed exactly when the change made it present, and only then
 * does the flush count: a CPU the IPI never reached, or whose stale TLB
 * entry still lets the closed buffer be read, does not. The check is not
 * made in the timed loop: reading a closed buffer faults, and a fault
 * (through the kernel's fault path and pks's probe) is no part of the
 * alternative it measures.
 */
static void pks_bench_flush_local(void *data)
{
	struct pks_bench_flush *f = data;
	char c;

	pks_flush_tlb_local();
	if (!f->check ||
	    !copy_from_kernel_nofault(&c, f->probe, 1) == f->open)
		atomic64_inc(f->flushes);
}

/*
 * The alternative's two states, present and writable or not present: one
 * PTE write per page of the buffer, then one TLB flush on every CPU.
 * Returns the PTEs it changed, as read back from the page table.
 */
static u64 pks_bench_set_ptes(struct pks_bench_buf *b, bool open,
			      bool check, atomic64_t *flushes)
{
	struct pks_bench_flush f = {
		.probe = b->addr, .open = open, .check = check,
		.flushes = flushes,
	};
	unsigned long addr = (unsigned long)b->addr;
	unsigned int i, level;
	pteval_t old, val;
	u64 changed = 0;
	pte_t *pte;

	for (i = 0; i < b->nr; i++, addr += PAGE_SIZE) {
		pte = lookup_address(addr, &level);
		old = pte_val(ptep_get(pte));
		val = open ? old | _PAGE_PRESENT : old & ~_PAGE_PRESENT;
		set_pte(pte, __pte(val));
		changed += val != old && pte_val(ptep_get(pte)) == val;
	}
	on_each_cpu(pks_bench_flush_local, &f, 1);
	return changed;
}

/*
 * Before the timed loop: one open and one close, each seen by every
 * online CPU after its flush, or the alternative is not what the loop
 * measures and the figure is refused.
 */
static int pks_bench_check_flushes(struct pks_bench_buf *alt)
{
	atomic64_t seen = ATOMIC64_INIT(0);
	unsigned int cpus;

	cpus_read_lock();
	cpus = num_online_cpus();
	pks_bench_set_ptes(alt, true, true, &seen);
	pks_bench_set_ptes(alt, false, true, &seen);
	cpus_read_unlock();
	if (atomic64_read(&seen) == 2 * cpus)
		return 0;
	pr_err("bench: %lld of %u CPUs saw the PTE change after their flush\n",
	       atomic64_read(&seen), 2 * cpus);
	return -EIO;
}

static int pks_bench_guard(struct pks_bench *b)
{
	size_t bytes = b->access_bytes ? b->access_bytes : sizeof(u64);
	struct pks_bench_buf tp, alt;
	atomic64_t flushes = ATOMIC64_INIT(0);
	u64 w0, s0, w1, s1, t0, i, ptes = 0;
	unsigned int prev, outer;
	int key, rc;

	/* The window loop runs with preemption off: bound what it writes. */
	if (bytes % sizeof(u64) || bytes > PKS_BENCH_MAX_BYTES ||
	    (u64)b->iterations * bytes > PKS_BENCH_MAX_TOTAL)
		return -EINVAL;
	key = pks_key_alloc("bench", NULL, NULL);
	if (key < 0)
		return key;
	rc = pks_bench_buf_alloc(&tp, bytes, key);
	if (rc)
		goto free_key;
	rc = pks_bench_buf_alloc(&alt, bytes, 0);
	if (rc)
		goto free_tp;

	preempt_disable();
	pks_counters(&w0, &s0);
	t0 = ktime_get_ns();
	for (i = 0; i < b->iterations; i++) {
		prev = pks_window_open(key, PKS_READ_WRITE);
		memset(tp.addr, i, bytes);
		pks_window_close(key, prev);
	}
	b->window_ns = ktime_get_ns() - t0;
	pks_counters(&w1, &s1);
	b->window_pkrs_writes = w1 - w0;

	outer = pks_window_open(key, PKS_READ_WRITE);
	pks_counters(&w0, &s0);
	for (i = 0; i < b->iterations; i++) {
		prev = pks_window_open(key, PKS_READ_WRITE);
		pks_window_close(key, prev);
	}
	pks_counters(&w1, &s1);
	pks_window_close(key, outer);
	b->redundant_pkrs_writes = w1 - w0;
	preempt_enable();

	/* The alternative starts closed, as a protected buffer would be. */
	rc = pks_bench_check_flushes(&alt);
	if (rc)
		goto open_alt;
	t0 = ktime_get_ns();
	for (i = 0; i < b->iterations; i++) {
		ptes += pks_bench_set_ptes(&alt, true, false, &flushes);
		memset(alt.addr, i, bytes);
		ptes += pks_bench_set_ptes(&alt, false, false, &flushes);
	}
	b->pte_ns = ktime_get_ns() - t0;
	b->pte_updates = ptes;
	b->tlb_flushes = atomic64_read(&flushes);
open_alt:
	pks_bench_set_ptes(&alt, true, false, &flushes);

	pks_bench_buf_free(&alt);
free_tp:
	pks_bench_buf_free(&tp);
free_key:
	pks_key_free(key);
	return rc;
}

/* Switch-outs @t has made, voluntary and involuntary. */
static u64 pks_bench_switches(struct task_struct *t)
{
	return READ_ONCE(t->nvcsw) + READ_ONCE(t->nivcsw);
}

/**
 * struct pks_bench_thread - the task-window figure, on a bound kernel thread
 * @b: the figure's in and out
 * @key: the key its windows open
 * @addr: a word mapped with @key
 * @done: completed when the thread has finished
 */
struct pks_bench_thread {
	struct pks_bench *b;
	int key;
	u64 *addr;
	struct completion done;
};

/*
 * One round of a task window around a write (@window) and a sleep of @us
 * (if non-zero), added to @ns, @writes and @switches. The thread is bound
 * to one CPU, whose counters see every PKRS write it causes; the counters,
 * the clock and its switch count are read with preemption off just before
 * the window opens and just after it closes, so @switches counts exactly
 * the switch-outs made with the window open: those, and only those, run
 * the task's preempt notifier.
 */
static void pks_bench_task_round(struct pks_bench_thread *bt, bool window,
				 unsigned long us, u64 *ns, u64 *writes,
				 u64 *switches)
{
	u64 w0, s0, w1, s1, t0, in;
	struct pks_task_window w;

	preempt_disable();
	pks_counters(&w0, &s0);
	t0 = ktime_get_ns();
	if (window)
		pks_task_window_open(bt->key, PKS_READ_WRITE, &w);
	in = pks_bench_switches(current);
	preempt_enable();
	if (window)
		WRITE_ONCE(*bt->addr, t0);
	if (us)
		usleep_range(us, us);
	preempt_disable();
	*switches += pks_bench_switches(current) - in;
	if (window)
		pks_task_window_close(&w);
	*ns += ktime_get_ns() - t0;
	pks_counters(&w1, &s1);
	preempt_enable();
	*writes += w1 - w0;
}

/*
 * The four methods take turns, round by round, so that whatever else the
 * machine does meanwhile weighs on each alike.
 */
static int pks_bench_task_fn(void *data)
{
	struct pks_bench_thread *bt = data;
	struct pks_bench *b = bt->b;
	unsigned long us = b->sleep_us ? b->sleep_us : 50;
	u64 w0, s0, w1, s1, t0, i, sw = 0;
	unsigned int prev;

	for (i = 0; i < b->iterations; i++) {
		/* The plain CPU window, which may not sleep. */
		preempt_disable();
		pks_counters(&w0, &s0);
		t0 = ktime_get_ns();
		prev = pks_window_open(bt->key, PKS_READ_WRITE);
		WRITE_ONCE(*bt->addr, i);
		pks_window_close(bt->key, prev);
		b->window_ns += ktime_get_ns() - t0;
		pks_counters(&w1, &s1);
		preempt_enable();
		b->window_pkrs_writes += w1 - w0;

		pks_bench_task_round(bt, true, 0, &b->task_ns,
				     &b->task_pkrs_writes, &b->task_switches);
		pks_bench_task_round(bt, false, us, &b->sleep_ns,
				     &b->sleep_pkrs_writes, &sw);
		pks_bench_task_round(bt, true, us, &b->sleep_window_ns,
				     &b->sleep_window_pkrs_writes,
				     &b->sleep_window_switches);
	}
	complete(&bt->done);
	return 0;
}

static int pks_bench_task(struct pks_bench *b, unsigned int cpu)
{
	struct pks_bench_thread bt = { .b = b };
	struct pks_bench_buf buf;
	struct task_struct *t;
	int rc;

	bt.key = pks_key_alloc("bench", NULL, NULL);
	if (bt.key < 0)
		return bt.key;
	rc = pks_bench_buf_alloc(&buf, sizeof(u64), bt.key);
	if (rc)
		goto free_key;
	bt.addr = buf.addr;
	init_completion(&bt.done);
	t = kthread_create(pks_bench_task_fn, &bt, "pks-bench");
	if (IS_ERR(t)) {
		rc = PTR_ERR(t);
		goto free_buf;
	}
	kthread_bind(t, cpu);
	wake_up_process(t);
	wait_for_completion(&bt.done);
free_buf:
	pks_bench_buf_free(&buf);
free_key:
	pks_key_free(bt.key);
	return rc;
}

/**
 * struct pks_bench_pingpong - two threads on one CPU handing a token
 * @rounds: round trips to measure, after one more to warm up
 * @key: the key the first thread holds a task window on, or -1 for none
 * @ping: the token, to the second thread
 * @pong: the token, back to the first
 * @done: the first thread has finished
 * @peer_done: the second thread has finished
 * @peer: the second thread, held for the first to read its switch count
 * @out: what the first thread measured, added to
 */
struct pks_bench_pingpong {
	u32 rounds;
	int key;
	struct completion ping;
	struct completion pong;
	struct completion done;
	struct completion peer_done;
	struct task_struct *peer;
	struct pks_bench_switch *out;
};

static int pks_bench_pong_fn(void *data)
{
	struct pks_bench_pingpong *pp = data;
	u32 i;

	for (i = 0; i <= pp->rounds; i++) {
		wait_for_completion(&pp->ping);
		complete(&pp->pong);
	}
	complete(&pp->peer_done);
	return 0;
}

/*
 * The first thread: with a key, it holds a task window on it from before
 * the first count to after the last, so each of its switch-outs runs its
 * preempt notifier (out, then in again before the last count).
 */
static int pks_bench_ping_fn(void *data)
{
	struct pks_bench_pingpong *pp = data;
	struct pks_bench_switch *out = pp->out;
	u64 w0, s0, w1, s1, a0, p0, t0;
	struct pks_task_window w;
	u32 i;

	if (pp->key >= 0)
		pks_task_window_open(pp->key, PKS_READ_WRITE, &w);
	complete(&pp->ping);
	wait_for_completion(&pp->pong);
	preempt_disable();
	pks_counters(&w0, &s0);
	a0 = pks_bench_switches(current);
	p0 = pks_bench_switches(pp->peer);
	preempt_enable();
	t0 = ktime_get_ns();
	for (i = 0; i < pp->rounds; i++) {
		complete(&pp->ping);
		wait_for_completion(&pp->pong);
	}
	out->ns += ktime_get_ns() - t0;
	preempt_disable();
	pks_counters(&w1, &s1);
	a0 = pks_bench_switches(current) - a0;
	p0 = pks_bench_switches(pp->peer) - p0;
	preempt_enable();
	if (pp->key >= 0)
		pks_task_window_close(&w);
	out->holder_switches += a0;
	out->switches += a0 + p0;
	out->pkrs_writes += w1 - w0;
	out->pkrs_skips += s1 - s0;
	complete(&pp->done);
	return 0;
}

static int pks_bench_pingpong(u32 rounds, int key, unsigned int cpu,
			      struct pks_bench_switch *out)
{
	struct pks_bench_pingpong pp = {
		.rounds = rounds, .key = key, .out = out,
	};
	struct task_struct *ping;

	init_completion(&pp.ping);
	init_completion(&pp.pong);
	init_completion(&pp.done);
	init_completion(&pp.peer_done);
	pp.peer = kthread_create(pks_bench_pong_fn, &pp, "pks-bench-pong");
	if (IS_ERR(pp.peer))
		return PTR_ERR(pp.peer);
	ping = kthread_create(pks_bench_ping_fn, &pp, "pks-bench-ping");
	if (IS_ERR(ping)) {
		kthread_stop(pp.peer);
		return PTR_ERR(ping);
	}
	get_task_struct(pp.peer);
	kthread_bind(pp.peer, cpu);
	kthread_bind(ping, cpu);
	wake_up_process(pp.peer);
	wake_up_process(ping);
	wait_for_completion(&pp.done);
	wait_for_completion(&pp.peer_done);
	put_task_struct(pp.peer);
	return 0;
}

/* Blocks of round trips, the two runs taking turns block by block. */
#define PKS_BENCH_SWITCH_BLOCKS	10

static int pks_bench_switch(struct pks_bench *b, unsigned int cpu)
{
	int i, key, rc = 0;
	u32 n;

	key = pks_key_alloc("bench", NULL, NULL);
	if (key < 0)
		return key;
	for (i = 0; !rc && i < PKS_BENCH_SWITCH_BLOCKS; i++) {
		n = b->iterations / PKS_BENCH_SWITCH_BLOCKS +
		    (i < b->iterations % PKS_BENCH_SWITCH_BLOCKS);
		if (!n)
			continue;
		rc = pks_bench_pingpong(n, -1, cpu, &b->plain);
		if (!rc)
			rc = pks_bench_pingpong(n, key, cpu, &b->granted);
	}
	pks_key_free(key);
	return rc;
}

/**
 * struct pks_bench_irqs - the interrupt figure, on a bound kernel thread
 * @b: the figure's in and out
 * @key: the key the thread's task window opens
 * @work: the interrupt: an irq_work queued on the thread's CPU
 * @leaked: irq_works so far that found PKRS other than the default
 * @done: completed when the thread has finished
 */
struct pks_bench_irqs {
	struct pks_bench *b;
	int key;
	struct irq_work work;
	u64 leaked;
	struct completion done;
};

/* The handler reads the register itself, not the driver's copy. */
static void pks_bench_irq_work(struct irq_work *work)
{
	struct pks_bench_irqs *bi = container_of(work, struct pks_bench_irqs,
						 work);
	u64 pkrs;

	rdmsrq(MSR_IA32_PKRS, pkrs);
	if (pkrs != PKS_DEFAULT_PKRS)
		bi->leaked++;
}

/*
 * One round: an interrupt on this CPU, with or without a task window
 * open around it, added to @out. Preemption stays off, so the CPU's
 * counters see only this round's handlers and the task never switches
 * out (a switch-out's writes would not be the boundary's anyway).
 */
static void pks_bench_irq_round(struct pks_bench_irqs *bi, bool window,
				struct pks_bench_irq *out)
{
	u64 w0, w1, t0, leaked0 = bi->leaked;
	struct pks_task_window w;
	u32 h0, h1;

	preempt_disable();
	if (window)
		pks_task_window_open(bi->key, PKS_READ_WRITE, &w);
	pks_boundary_counters(&w0, &h0);
	t0 = ktime_get_ns();
	irq_work_queue(&bi->work);
	/* irq_work_sync() may sleep: wait the way it does without sleeping. */
	while (irq_work_is_busy(&bi->work))
		cpu_relax();
	out->ns += ktime_get_ns() - t0;
	pks_boundary_counters(&w1, &h1);
	if (window)
		pks_task_window_close(&w);
	preempt_enable();
	out->pkrs_writes += w1 - w0;
	out->handlers += h1 - h0;
	out->leaked += bi->leaked - leaked0;
}

static int pks_bench_irq_fn(void *data)
{
	struct pks_bench_irqs *bi = data;
	u32 i;

	for (i = 0; i < bi->b->iterations; i++) {
		pks_bench_irq_round(bi, false, &bi->b->irq_plain);
		pks_bench_irq_round(bi, true, &bi->b->irq_held);
	}
	complete(&bi->done);
	return 0;
}

static int pks_bench_irq(struct pks_bench *b, unsigned int cpu)
{
	struct pks_bench_irqs bi = { .b = b };
	struct task_struct *t;
	int rc = 0;

	bi.key = pks_key_alloc("bench", NULL, NULL);
	if (bi.key < 0)
		return bi.key;
	init_irq_work(&bi.work, pks_bench_irq_work);
	init_completion(&bi.done);
	t = kthread_create(pks_bench_irq_fn, &bi, "pks-bench-irq");
	if (IS_ERR(t)) {
		rc = PTR_ERR(t);
		goto free_key;
	}
	kthread_bind(t, cpu);
	wake_up_process(t);
	wait_for_completion(&bi.done);
free_key:
	pks_key_free(bi.key);
	return rc;
}

int pks_bench_run(struct pks_bench *b)
{
	unsigned long us = b->sleep_us ? b->sleep_us : 50;
	struct pks_bench in = *b;
	unsigned int cpu;

	/* The figures add to their outputs: start those from zero. */
	memset(b, 0, sizeof(*b));
	b->size = in.size;
	b->iterations = in.iterations;
	b->access_bytes = in.access_bytes;
	b->figure = in.figure;
	b->sleep_us = in.sleep_us;
	if (in.rsvd)
		return -EINVAL;

	if (!b->iterations || b->iterations > 1000000 ||
	    b->figure >= PKS_BENCH_NR)
		return -EINVAL;
	if (b->figure == PKS_BENCH_GUARD)
		return b->sleep_us ? -EINVAL : pks_bench_guard(b);
	if (b->access_bytes)
		return -EINVAL;
	if (b->figure == PKS_BENCH_TASK_WINDOW &&
	    (us > PKS_BENCH_MAX_SLEEP_US ||
	     (u64)b->iterations * us > PKS_BENCH_MAX_SLEEP_TOTAL_US))
		return -EINVAL;
	if ((b->figure == PKS_BENCH_SWITCH || b->figure == PKS_BENCH_IRQ) &&
	    (b->sleep_us || b->iterations > PKS_BENCH_MAX_ROUNDS))
		return -EINVAL;

	/* The figure's threads are bound to the CPU the caller was on. */
	cpu = raw_smp_processor_id();
	if (b->figure == PKS_BENCH_TASK_WINDOW)
		return pks_bench_task(b, cpu);
	if (b->figure == PKS_BENCH_IRQ)
		return pks_bench_irq(b, cpu);
	return pks_bench_switch(b, cpu);
}
