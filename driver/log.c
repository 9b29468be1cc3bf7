// SPDX-License-Identifier: GPL-2.0
/*
 * The event log: a ring of the newest records, stray faults (faults.c
 * builds them) and the start and end of each namespace's protection
 * (protect.c), read by PKS_IOC_FAULTS and waited for with poll(). It also
 * keeps what fault capture placed at load, which faults.c tells it, for
 * those that must know whether faults are seen (protect.c, ioctl.c).
 */
#include "pks_internal.h"

#include <linux/atomic.h>
#include <linux/irq_work.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/ratelimit.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

/*
 * The newest PKS_FAULT_RING records, by sequence number modulo the ring
 * size. pks_ring_lock guards the ring and pks_ring_head, the sequence
 * number the next record gets; it is taken in the fault path.
 */
static struct pks_fault pks_ring[PKS_FAULT_RING];
static u64 pks_ring_head = 1;
static DEFINE_RAW_SPINLOCK(pks_ring_lock);
static DECLARE_WAIT_QUEUE_HEAD(pks_fault_wq);
/* Readers are woken from an irq_work, never from the fault path itself. */
static struct irq_work pks_fault_wake;
/* At most 10 reports each 5 seconds, so a fault storm cannot flood. */
static DEFINE_RATELIMIT_STATE(pks_fault_rs, 5 * HZ, 10);
/* This load of the module: sequence numbers are only unique within it. */
static u64 pks_ring_instance;
/* Records lost because the ring was busy on this CPU (an NMI inside). */
static atomic64_t pks_ring_busy = ATOMIC64_INIT(0);

/* What fault capture placed (faults.c): see pks_log_set_capture(). */
static bool pks_capture_active, pks_capture_logging;

static const char *const pks_outcome_text[] = {
	[PKS_FAULT_REFUSED] = "refused",
	[PKS_FAULT_OOPS] = "refused, oops follows",
	[PKS_FAULT_ALLOWED] = "allowed once (relaxed)",
	[PKS_FAULT_CALLBACK] = "passed to the key owner",
};

static void pks_fault_report(const struct pks_fault *f)
{
	pr_warn("stray %s to %s+%#llx (key %u): %s, seq %llu\n",
		f->flags & PKS_FAULT_F_WRITE ? "write" : "read", f->owner,
		f->offset, f->key, pks_outcome_text[f->outcome], f->seq);
	/* %pK: the log shows the address as kptr_restrict allows. */
	pr_warn("  at %s by %s[%u] on cpu%u, address %pK\n", f->ip, f->comm,
		f->pid, f->cpu, (void *)(unsigned long)f->address);
	pr_warn("  stack: %s <- %s <- %s\n", f->stack[0], f->stack[1],
		f->stack[2]);
}

/*
 * Fill in and publish a record. Safe in any context, NMI included: the
 * clock is the NMI-safe one, the task name is copied without task_lock(),
 * and the ring lock is only tried, so a fault in an NMI that interrupted
 * a holder of the lock on this CPU is counted as lost, never waited for.
 */
static bool pks_ring_publish(struct pks_fault *f)
{
	unsigned long flags;

	f->time_ns = ktime_get_real_fast_ns();
	f->cpu = raw_smp_processor_id();
	f->pid = task_pid_nr(current);
	strscpy(f->comm, current->comm, sizeof(f->comm));
	if (!raw_spin_trylock_irqsave(&pks_ring_lock, flags)) {
		if (in_nmi()) {
			atomic64_inc(&pks_ring_busy);
			return false;
		}
		raw_spin_lock_irqsave(&pks_ring_lock, flags);
	}
	f->seq = pks_ring_head++;
	pks_ring[f->seq % PKS_FAULT_RING] = *f;
	raw_spin_unlock_irqrestore(&pks_ring_lock, flags);
	irq_work_queue(&pks_fault_wake);
	return true;
}

/*
 * Publish the stray fault @f, built by faults.c, and report it to the
 * kernel log, rate-limited. Any context, NMI included.
 */
void pks_log_fault(struct pks_fault *f)
{
	if (pks_ring_publish(f) && __ratelimit(&pks_fault_rs))
		pks_fault_report(f);
}

/*
 * Record that @name's protection (with @key) started or ended, for the
 * monitor. Always called with pks_lock held, which also guards the one
 * record it fills (a struct pks_fault is too big for the stack).
 */
void pks_log_event(enum pks_event event, const char *name, int key,
		   bool relaxed)
{
	static struct pks_fault f;

	lockdep_assert_held(&pks_lock);
	memset(&f, 0, sizeof(f));
	f.event = event;
	f.key = key;
	f.flags = PKS_FAULT_F_NAMESPACE | (relaxed ? PKS_FAULT_F_RELAXED : 0);
	strscpy(f.owner, name, sizeof(f.owner));
	pks_ring_publish(&f);
}

u64 pks_faults_lost(void)
{
	return atomic64_read(&pks_ring_busy);
}
EXPORT_SYMBOL_NS_GPL(pks_faults_lost, PKS_TEST_NS);

/*
 * From faults.c, once its probes are placed and again once they are gone:
 * @active, page_fault_oops() is probed (fault callbacks and relaxed mode
 * work); @logging, a kernelmode_fixup_or_oops() is (faults are seen,
 * judged and recorded).
 */
void pks_log_set_capture(bool active, bool logging)
{
	WRITE_ONCE(pks_capture_active, active);
	WRITE_ONCE(pks_capture_logging, logging);
}

bool pks_faults_active(void)
{
	return READ_ONCE(pks_capture_active);
}
EXPORT_SYMBOL_NS_GPL(pks_faults_active, PKS_TEST_NS);

bool pks_faults_logging(void)
{
	return READ_ONCE(pks_capture_logging);
}
EXPORT_SYMBOL_NS_GPL(pks_faults_logging, PKS_TEST_NS);

u64 pks_faults_head(void)
{
	unsigned long flags;
	u64 head;

	raw_spin_lock_irqsave(&pks_ring_lock, flags);
	head = pks_ring_head;
	raw_spin_unlock_irqrestore(&pks_ring_lock, flags);
	return head;
}
EXPORT_SYMBOL_NS_GPL(pks_faults_head, PKS_TEST_NS);

/* Record @seq, unless the ring has moved past it. */
bool pks_fault_get(u64 seq, struct pks_fault *f)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&pks_ring_lock, flags);
	*f = pks_ring[seq % PKS_FAULT_RING];
	raw_spin_unlock_irqrestore(&pks_ring_lock, flags);
	return f->seq == seq;
}
EXPORT_SYMBOL_NS_GPL(pks_fault_get, PKS_TEST_NS);

/* Run @fn(@arg) holding the ring's lock, as a CPU recording a fault does. */
bool pks_faults_ring_held(bool (*fn)(void *arg), void *arg)
{
	unsigned long flags;
	bool ret;

	raw_spin_lock_irqsave(&pks_ring_lock, flags);
	ret = fn(arg);
	raw_spin_unlock_irqrestore(&pks_ring_lock, flags);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(pks_faults_ring_held, PKS_TEST_NS);

__poll_t pks_faults_poll(struct file *file, poll_table *wait, u64 seen)
{
	poll_wait(file, &pks_fault_wq, wait);
	return pks_faults_head() > seen ? EPOLLIN | EPOLLRDNORM : 0;
}

/*
 * Copy records from @req->since on into @out, one at a time so that no
 * lock is held across a copy to user space. A record overwritten while
 * this runs counts as dropped. Without @addresses, the kernel address of
 * each record reads as zero.
 */
int pks_faults_read(struct pks_faults *req, struct pks_fault __user *out,
		    bool addresses)
{
	struct pks_fault *f;
	u64 seq, head, oldest;
	u32 n = 0;
	int rc = 0;

	f = kmalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	head = pks_faults_head();
	req->instance = pks_ring_instance;
	if (!req->nr) {
		/* Nothing wanted: say where the next record will go. */
		req->next = head;
		req->dropped = 0;
		kfree(f);
		return 0;
	}
	oldest = head > PKS_FAULT_RING ? head - PKS_FAULT_RING : 1;
	seq = max_t(u64, req->since, 1);
	req->dropped = 0;
	if (seq < oldest) {
		req->dropped = oldest - seq;
		seq = oldest;
	}
	for (; seq < head && n < req->nr; seq++) {
		if (!pks_fault_get(seq, f)) {
			req->dropped++;
			continue;
		}
		/* As kptr_restrict does: no kernel address without CAP_SYSLOG. */
		if (!addresses)
			f->address = 0;
		if (copy_to_user(&out[n], f, sizeof(*f))) {
			rc = -EFAULT;
			break;
		}
		n++;
	}
	req->nr = n;
	req->next = seq;
	kfree(f);
	return rc;
}

static void pks_fault_wake_fn(struct irq_work *work)
{
	wake_up_interruptible(&pks_fault_wq);
}

/* Before anything can publish: the fault probes, protect.c's events. */
void pks_log_init(void)
{
	init_irq_work(&pks_fault_wake, pks_fault_wake_fn);
	pks_ring_instance = get_random_u64();
}

/* After the last publisher is gone: no wake-up may run after unload. */
void pks_log_exit(void)
{
	irq_work_sync(&pks_fault_wake);
}
