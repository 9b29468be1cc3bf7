// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of faults.c and log.c: fault callbacks, the fault log, NMI
 * safety, and the crash case.
 */
#include "test.h"

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/irq_work.h>
#include <linux/mm.h>
#include <linux/preempt.h>
#include <linux/vmalloc.h>
#include <asm/apic.h>
#include <asm/msr.h>
#include <asm/nmi.h>


/**
 * struct pks_cb_record - what the fault-callback test's callback saw
 * @calls: number of calls
 * @address: the last faulting address
 * @write: the last access was a write
 */
struct pks_cb_record {
	unsigned int calls;
	unsigned long address;
	bool write;
};

static bool pks_test_grant(int key, unsigned long address, bool write,
			   void *data)
{
	struct pks_cb_record *rec = data;

	rec->calls++;
	rec->address = address;
	rec->write = write;
	return true;
}

/**
 * struct pks_cb_irq - the fault-callback test's write from a hard IRQ
 * @work: raised on the test's own CPU
 * @addr: where to write
 * @key: its key
 * @msr: PKRS read in the IRQ right after the write
 * @in_irq: the write ran in hard IRQ context
 */
struct pks_cb_irq {
	struct irq_work work;
	void *addr;
	int key;
	u64 msr;
	bool in_irq;
};

static void pks_test_irq_write(struct irq_work *work)
{
	struct pks_cb_irq *ci = container_of(work, struct pks_cb_irq, work);

	ci->in_irq = in_hardirq();
	WRITE_ONCE(*(u64 *)ci->addr, 0x1badd00dULL);
	rdmsrq(MSR_IA32_PKRS, ci->msr);
}

/*
 * A write from a hard IRQ (no task to hold a grant) is granted for that
 * instruction alone: the key is closed again in the IRQ right after it,
 * and the task the IRQ interrupted does not find it open. Before the
 * single step, such a grant stayed open on the CPU for whatever ran next.
 */
static int pks_test_irq_grant(struct pks_test_ctx *ctx,
			      struct pks_cb_record *rec,
			      struct pks_test_page *tp, int key)
{
	struct pks_cb_irq ci = { .addr = tp->addr, .key = key };
	u64 msr;

	init_irq_work(&ci.work, pks_test_irq_write);
	preempt_disable();
	irq_work_queue(&ci.work);
	irq_work_sync(&ci.work);
	rdmsrq(MSR_IA32_PKRS, msr);
	preempt_enable();
	if (!ci.in_irq)
		return pks_test_skip(ctx, "the irq_work did not run in hard IRQ context");
	if (rec->calls != 1)
		return pks_test_fail(ctx, "callback ran %u times for the IRQ's write",
				     rec->calls);
	if (*(u64 *)page_address(tp->page) != 0x1badd00dULL)
		return pks_test_fail(ctx, "the IRQ's retried write did not land");
	if (pks_key_bits(key, ci.msr) != pks_key_bits(key, PKS_DEFAULT_PKRS))
		return pks_test_fail(ctx, "key %d still open in the IRQ after its write (bits %#x)",
				     key, pks_key_bits(key, ci.msr));
	if (pks_key_bits(key, msr) != pks_key_bits(key, PKS_DEFAULT_PKRS))
		return pks_test_fail(ctx, "the interrupted task found key %d open (bits %#x)",
				     key, pks_key_bits(key, msr));
	return PKS_RESULT_PASS;
}

/*
 * fault-callback: a plain write to a key with no window open faults, the
 * owner's callback is told the address and access type, grants access,
 * and the write completes; the grant is the task's and is gone once the
 * task has left the CPU: its next write asks again. A write from a hard
 * IRQ is granted for that
 * instruction only (pks_test_irq_grant). Without the hook the write would
 * oops, so the test is skipped when the hook is missing.
 */
static int pks_test_fault_callback(struct pks_test_ctx *ctx)
{
	const u64 pattern = 0xfeedfacecafef00dULL;
	struct pks_cb_record rec = {};
	struct pks_test_page tp = {};
	unsigned int bits;
	int key, rc;
	u64 msr;

	if (!pks_faults_active())
		return pks_test_skip(ctx, "the page_fault_oops probe is not registered");

	key = pks_key_alloc("test:fault-callback", pks_test_grant, &rec);
	if (key < 0)
		return key;
	rc = pks_test_page_map(&tp, key);
	if (rc) {
		pks_key_free(key);
		return rc;
	}
	rc = pks_test_irq_grant(ctx, &rec, &tp, key);
	if (rc != PKS_RESULT_PASS) {
		pks_test_page_free(&tp);
		return rc;
	}
	rec.calls = 0;

	preempt_disable();
	WRITE_ONCE(*(u64 *)tp.addr, pattern);
	bits = pks_key_bits(key, pks_read_pkrs_cache());
	preempt_enable();
	/*
	 * The grant is this task's while it runs: it ends when the task
	 * leaves the CPU, and the next write asks the owner again.
	 */
	/* A whole jiffy: a short sleep may end before the task leaves. */
	schedule_timeout_uninterruptible(1);
	preempt_disable();
	rdmsrq(MSR_IA32_PKRS, msr);
	WRITE_ONCE(*(u64 *)tp.addr, ~pattern);
	preempt_enable();

	if (rec.calls != 2)
		rc = pks_test_fail(ctx, "callback ran %u times for two writes a sleep apart, expected 2",
				   rec.calls);
	else if (rec.address != (unsigned long)tp.addr || !rec.write)
		rc = pks_test_fail(ctx, "callback saw a %s at the wrong address",
				   rec.write ? "write" : "read");
	else if (bits != 0)
		rc = pks_test_fail(ctx, "key %d not granted after callback (bits %#x)",
				   key, bits);
	else if (*(u64 *)page_address(tp.page) != ~pattern)
		rc = pks_test_fail(ctx, "the retried writes did not land");
	else if (pks_key_bits(key, msr) != PKS_PKRS_AD)
		rc = pks_test_fail(ctx, "the grant outlived the task's sleep (bits %#x)",
				   pks_key_bits(key, msr));
	else
		rc = PKS_RESULT_PASS;
	pks_test_page_free(&tp);
	return rc;
}

/*
 * unclaimed: a kernel fault that is not a protection-key fault on one of
 * this driver's keys (here, a read of a vmalloc guard page) is not
 * recorded, and a fault on a driver key is recorded exactly once with its
 * address, key and access type.
 */
static int pks_test_unclaimed(struct pks_test_ctx *ctx)
{
	struct pks_test_page tp;
	struct pks_fault f;
	u64 head, val;
	void *area;
	int rc;

	if (!pks_faults_logging())
		return pks_test_skip(ctx, "the fault log probe is not registered");
	area = vmalloc(PAGE_SIZE);
	if (!area)
		return -ENOMEM;
	head = pks_faults_head();
	rc = pks_can_read(area + PAGE_SIZE, &val);
	vfree(area);
	if (rc)
		return pks_test_fail(ctx, "the guard page was readable");
	if (pks_faults_head() != head)
		return pks_test_fail(ctx, "a fault outside this driver's keys was recorded");

	rc = pks_test_page_alloc(&tp, "test:unclaimed");
	if (rc)
		return rc;
	rc = pks_can_write(tp.addr, 1);
	if (rc)
		rc = pks_test_fail(ctx, "the write to key %d went through", tp.key);
	else if (pks_faults_head() != head + 1)
		rc = pks_test_fail(ctx, "%llu records for one fault",
				   pks_faults_head() - head);
	else if (!pks_fault_get(head, &f))
		rc = pks_test_fail(ctx, "record %llu is not in the log", head);
	else if (f.seq != head || f.address != (unsigned long)tp.addr ||
		 f.key != tp.key || !(f.flags & PKS_FAULT_F_WRITE) ||
		 f.outcome != PKS_FAULT_REFUSED ||
		 strcmp(f.owner, "test:unclaimed"))
		rc = pks_test_fail(ctx, "record %llu is wrong: key %u flags %#x outcome %u owner %s",
				   f.seq, f.key, f.flags, f.outcome, f.owner);
	else
		rc = PKS_RESULT_PASS;
	pks_test_page_free(&tp);
	return rc;
}

/*
 * crash: a plain write to an access-disabled key with no callback. The
 * kernel oopses with a protection-keys page fault and kills the caller;
 * the page and key are freed when the dying task's file is released.
 */
static int pks_test_crash(struct pks_test_ctx *ctx)
{
	struct pks_test_page *tp = &ctx->session->crash_page;
	int rc;

	rc = pks_test_page_alloc(tp, "test:crash");
	if (rc)
		return rc;
	pr_warn("crash test: writing to key %d at %p with no window; expect an oops\n",
		tp->key, tp->addr);
	WRITE_ONCE(*(u64 *)tp->addr, 1);
	pks_test_page_free(tp);
	return pks_test_fail(ctx, "the write to an access-disabled key succeeded");
}

/**
 * struct pks_nmi_probe - what the NMI case's handler did
 * @addr: the keyed address to read, or NULL when disarmed
 * @cpu: the CPU the handler acts on
 * @ran: NMIs it handled
 * @readable: the last read succeeded
 */
struct pks_nmi_probe {
	void *addr;
	int cpu;
	atomic_t ran;
	bool readable;
};

static struct pks_nmi_probe pks_nmi_probe;

static int pks_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	struct pks_nmi_probe *p = &pks_nmi_probe;
	void *addr = READ_ONCE(p->addr);
	u64 val;

	if (!addr || smp_processor_id() != READ_ONCE(p->cpu))
		return NMI_DONE;
	WRITE_ONCE(p->readable, pks_can_read(addr, &val));
	WRITE_ONCE(p->addr, NULL);
	atomic_inc(&p->ran);
	return NMI_HANDLED;
}

/* Send this CPU an NMI and wait for the handler; preemption is off. */
static bool pks_self_nmi(void *addr)
{
	int before = atomic_read(&pks_nmi_probe.ran);
	unsigned long spins = 0;

	WRITE_ONCE(pks_nmi_probe.cpu, smp_processor_id());
	WRITE_ONCE(pks_nmi_probe.addr, addr);
	apic->send_IPI_self(NMI_VECTOR);
	while (atomic_read(&pks_nmi_probe.ran) == before &&
	       spins++ < 100000000)
		cpu_relax();
	WRITE_ONCE(pks_nmi_probe.addr, NULL);
	return atomic_read(&pks_nmi_probe.ran) != before;
}

/*
 * nmi: a fault-safe read of a keyed address from an NMI (as perf or a BPF
 * probe_read does) is refused and does not deadlock, even when the NMI
 * lands on a CPU that holds the fault ring's lock: the record is counted
 * as lost instead. Without the lock held, the same NMI read is recorded.
 */
static int pks_test_nmi(struct pks_test_ctx *ctx)
{
	struct pks_test_page tp;
	u64 head, lost;
	bool ran;
	int rc;

	if (!pks_faults_logging())
		return pks_test_skip(ctx, "the fault log probe is not registered");
	rc = pks_test_page_alloc(&tp, "test:nmi");
	if (rc)
		return rc;
	rc = register_nmi_handler(NMI_LOCAL, pks_nmi_handler, 0, "pks_test");
	if (rc) {
		pks_test_page_free(&tp);
		return rc;
	}

	head = pks_faults_head();
	lost = pks_faults_lost();
	preempt_disable();
	ran = pks_faults_ring_held(pks_self_nmi, tp.addr);
	preempt_enable();
	if (!ran)
		rc = pks_test_skip(ctx, "no self-NMI arrived");
	else if (READ_ONCE(pks_nmi_probe.readable))
		rc = pks_test_fail(ctx, "the keyed page was readable from an NMI");
	else if (pks_faults_lost() != lost + 1 || pks_faults_head() != head)
		rc = pks_test_fail(ctx, "with the ring held: %llu lost, %llu recorded; expected 1 and 0",
				   pks_faults_lost() - lost,
				   pks_faults_head() - head);
	if (rc)
		goto out;

	preempt_disable();
	ran = pks_self_nmi(tp.addr);
	preempt_enable();
	if (!ran)
		rc = pks_test_skip(ctx, "no self-NMI arrived");
	else if (READ_ONCE(pks_nmi_probe.readable) ||
		 pks_faults_head() != head + 1)
		rc = pks_test_fail(ctx, "NMI read: readable %d, %llu records; expected 0 and 1",
				   READ_ONCE(pks_nmi_probe.readable),
				   pks_faults_head() - head);
	else
		rc = PKS_RESULT_PASS;
out:
	unregister_nmi_handler(NMI_LOCAL, "pks_test");
	pks_test_page_free(&tp);
	return rc;
}

static const struct pks_test fault_tests[] = {
	{ PKS_TEST_FAULT_CALLBACK, pks_test_fault_callback },
	{ PKS_TEST_UNCLAIMED, pks_test_unclaimed },
	{ PKS_TEST_NMI, pks_test_nmi },
	{ PKS_TEST_CRASH, pks_test_crash },
};

PKS_TEST_CATEGORY(pks_fault_tests, fault_tests);
