// SPDX-License-Identifier: GPL-2.0
/*
 * Interrupt boundaries. The stock kernel keeps PKRS per CPU and never
 * switches it on interrupt entry, so a hard interrupt, a softirq or an NMI
 * would run with whatever the interrupted context had opened. Upstream's
 * series saved PKRS and set the default in the entry code; a module cannot
 * touch the entry code, but every interrupt handler the kernel dispatches
 * passes a tracepoint on its way in and out: irq_handler_entry/exit for
 * device interrupts, the x86 irq_vectors pairs for the system vectors
 * (timer, IPIs, irq_work, ...), softirq_entry/exit for each softirq, and an
 * NMI handler registered first in line.
 *
 * The rule is: PKRS holds the rights of the context that runs. Each
 * context level (task, softirq, hard interrupt, NMI) has the rights its
 * windows opened, kept here per CPU; grants (legit.c) are never kept, so
 * they end at every boundary. On entry to a handler the CPU gets the
 * default; on exit the rights of the context it returns to, without its
 * grant. A grant the interrupted context still needs is judged again by
 * its next fault; a window's rights come back on exit, or, after an NMI
 * (which has no exit hook), through the fault path's refill.
 *
 * One run of a handler can hold many callbacks, each a context of its
 * own: every expired hrtimer of one timer interrupt, every timer and
 * tasklet of one softirq run, every work item a kworker takes in a row.
 * Where the kernel marks the end of one callback with a tracepoint
 * (hrtimer_expire_exit, timer_expire_exit, tasklet_exit,
 * workqueue_execute_end, and csd_function_exit where the kernel has it:
 * 6.3 on), a grant ends there too: the CPU gets back its level's windows.
 * irq_work callbacks, RCU callbacks and the NET_RX and block softirqs'
 * per-packet and per-request work have no such mark: there a grant lasts
 * to the handler's end.
 *
 * A CPU with nothing open pays one compare per handler and no PKRS write.
 * What stays open: the kernel's entry code and generic interrupt code up
 * to the tracepoint (no driver code runs there), and vectors without a
 * tracepoint (IRQ move cleanup, reboot, hypervisor callbacks); NMI
 * handlers registered with NMI_FLAG_FIRST after this one.
 */
#include "pks_internal.h"

#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/timer.h>
#include <linux/preempt.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>
#include <asm/nmi.h>

/**
 * struct pks_levels - what each context level holds on this CPU
 * @win: PKRS of each level's windows: task, softirq, hardirq, NMI
 * @depth: traced handlers entered and not yet left at that level; above
 *	zero, the level's grants end with a handler's exit. Hard interrupt
 *	handlers nest: a demultiplexing handler (Intel VMD's vmd_irq, GPIO
 *	and other chained controllers) runs the handlers of the interrupts
 *	it dispatches inside its own, each with its own entry and exit.
 */
struct pks_levels {
	u32 win[PKS_LEVELS];
	unsigned int depth[PKS_LEVELS];
};

static DEFINE_PER_CPU(struct pks_levels, pks_levels) = {
	.win = { PKS_DEFAULT_PKRS, PKS_DEFAULT_PKRS, PKS_DEFAULT_PKRS,
		 PKS_DEFAULT_PKRS },
};

/* Only the control of the boundary test turns this off (pks_testing.h). */
static bool pks_boundary_enforced = true;
/* Only the control of the grant-scope test turns this off (pks_testing.h). */
static bool pks_callback_ends_enforced = true;
static atomic64_t pks_boundary_writes = ATOMIC64_INIT(0);
static unsigned int pks_boundary_hooks;

u32 pks_level_pkrs(int level)
{
	return this_cpu_read(pks_levels.win[level]);
}

/* For the tests: what the task level holds on this CPU, from an IPI. */
u32 pks_task_level_pkrs(void)
{
	return pks_level_pkrs(PKS_LEVEL_TASK);
}
EXPORT_SYMBOL_NS_GPL(pks_task_level_pkrs, PKS_TEST_NS);

/* Set @key's bits in @level's window rights; interrupts off. */
void pks_level_set_key(int level, int key, u32 bits)
{
	u32 mask = (PKS_PKRS_AD | PKS_PKRS_WD) << PKS_PKRS_SHIFT(key);
	u32 *win = this_cpu_ptr(&pks_levels.win[level]);

	*win = (*win & ~mask) | (bits << PKS_PKRS_SHIFT(key));
}

/* The task level's rights are the running task's: set on each switch. */
void pks_level_set_task(u32 pkrs)
{
	this_cpu_write(pks_levels.win[PKS_LEVEL_TASK], pkrs);
}

/* Whether a grant at @level ends with its handler's exit hook. */
bool pks_level_traced(int level)
{
	return READ_ONCE(pks_boundary_enforced) &&
	       this_cpu_read(pks_levels.depth[level]);
}

/* A key was freed: no level keeps rights to it. From its IPI. */
void pks_level_drop_key(int key)
{
	int level;

	for (level = 0; level < PKS_LEVELS; level++)
		pks_level_set_key(level, key, PKS_PKRS_AD);
}

/*
 * Give the CPU @level's rights. They are read with interrupts off: a
 * softirq hook runs with interrupts on, and a key-free IPI taken between
 * the read and the write would be undone by writing what it dropped.
 */
static void pks_boundary_write(int level)
{
	unsigned long flags;
	u32 pkrs;

	local_irq_save(flags);
	pkrs = pks_level_pkrs(level);
	if (pks_read_pkrs_cache() != pkrs) {
		pks_write_pkrs_boundary(pkrs);
		atomic64_inc(&pks_boundary_writes);
	}
	local_irq_restore(flags);
}

/*
 * A nested handler starts, like an outermost one, with its level's
 * windows and no grant: the grant of the handler it runs inside is not
 * its own (it is judged again at its next fault once the inner one
 * returns).
 */
static void pks_boundary_enter(int level)
{
	this_cpu_inc(pks_levels.depth[level]);
	if (READ_ONCE(pks_boundary_enforced))
		pks_boundary_write(level);
}

/*
 * Back to the interrupted context's windows. A hard interrupt returns to
 * the softirq it interrupted or to the task; a softirq to the task; a
 * nested handler to the handler it runs inside, whose windows are still
 * open (the inner one closed its own) and which keeps its level: the
 * interrupted context's rights come back only as the outermost handler
 * leaves. A depth already at zero (an exit whose entry came before the
 * hooks were placed) counts as the outermost.
 */
static void pks_boundary_exit(int level)
{
	unsigned int *depth = this_cpu_ptr(&pks_levels.depth[level]);
	int back = PKS_LEVEL_TASK;

	if (*depth > 1) {
		(*depth)--;
		if (READ_ONCE(pks_boundary_enforced))
			pks_boundary_write(level);
		return;
	}
	*depth = 0;
	/* The handler's windows are closed: nothing of it carries over. */
	this_cpu_write(pks_levels.win[level], PKS_DEFAULT_PKRS);
	if (!READ_ONCE(pks_boundary_enforced))
		return;
	if (level == PKS_LEVEL_HARDIRQ && in_serving_softirq())
		back = PKS_LEVEL_SOFTIRQ;
	pks_boundary_write(back);
}

static void pks_tp_irq_entry(void *data, int irq, struct irqaction *action)
{
	pks_boundary_enter(PKS_LEVEL_HARDIRQ);
}

static void pks_tp_irq_exit(void *data, int irq, struct irqaction *action,
			    int ret)
{
	pks_boundary_exit(PKS_LEVEL_HARDIRQ);
}

static void pks_tp_vector_entry(void *data, int vector)
{
	pks_boundary_enter(PKS_LEVEL_HARDIRQ);
}

static void pks_tp_vector_exit(void *data, int vector)
{
	pks_boundary_exit(PKS_LEVEL_HARDIRQ);
}

static void pks_tp_softirq_entry(void *data, unsigned int vec_nr)
{
	pks_boundary_enter(PKS_LEVEL_SOFTIRQ);
}

static void pks_tp_softirq_exit(void *data, unsigned int vec_nr)
{
	pks_boundary_exit(PKS_LEVEL_SOFTIRQ);
}

/*
 * A callback ended: its grant, if it took one, ends with it. The rights
 * the context's level keeps are its windows without any grant; when the
 * CPU holds just those, nothing was granted: one compare, no write. An
 * interrupt level whose handler is not traced keeps no rights of its own
 * here (the control of the boundary test): left alone.
 */
static void pks_callback_end(void)
{
	int level = interrupt_context_level();

	if (likely(pks_read_pkrs_cache() == pks_level_pkrs(level)))
		return;
	if (!READ_ONCE(pks_callback_ends_enforced) ||
	    (level != PKS_LEVEL_TASK && !pks_level_traced(level)))
		return;
	pks_boundary_write(level);
}

static void pks_tp_hrtimer_end(void *data, struct hrtimer *timer)
{
	pks_callback_end();
}

static void pks_tp_timer_end(void *data, struct timer_list *timer)
{
	pks_callback_end();
}

static void pks_tp_tasklet_end(void *data, struct tasklet_struct *t,
			       void *func)
{
	pks_callback_end();
}

static void pks_tp_work_end(void *data, struct work_struct *work,
			    work_func_t func)
{
	pks_callback_end();
}

static void pks_tp_csd_end(void *data, smp_call_func_t func,
			   call_single_data_t *csd)
{
	pks_callback_end();
}

/**
 * struct pks_tp - one tracepoint this file hooks
 * @name: the tracepoint's name
 * @probe: the function given to tracepoint_probe_register()
 * @tp: the tracepoint, once found
 * @registered: the probe is registered
 */
struct pks_tp {
	const char *name;
	void *probe;
	struct tracepoint *tp;
	bool registered;
};

#define PKS_TP(n, fn)		{ .name = n, .probe = fn }
#define PKS_TP_IN(v)		PKS_TP(v "_entry", pks_tp_vector_entry)
#define PKS_TP_OUT(v)		PKS_TP(v "_exit", pks_tp_vector_exit)

/* Each entry with its exit, the entry first (pks_boundary_init()). */
static struct pks_tp pks_tps[] = {
	PKS_TP("irq_handler_entry", pks_tp_irq_entry),
	PKS_TP("irq_handler_exit", pks_tp_irq_exit),
	PKS_TP("softirq_entry", pks_tp_softirq_entry),
	PKS_TP("softirq_exit", pks_tp_softirq_exit),
	/* arch/x86/include/asm/trace/irq_vectors.h: all take the vector. */
	PKS_TP_IN("local_timer"), PKS_TP_OUT("local_timer"),
	PKS_TP_IN("spurious_apic"), PKS_TP_OUT("spurious_apic"),
	PKS_TP_IN("error_apic"), PKS_TP_OUT("error_apic"),
	PKS_TP_IN("x86_platform_ipi"), PKS_TP_OUT("x86_platform_ipi"),
	PKS_TP_IN("irq_work"), PKS_TP_OUT("irq_work"),
	PKS_TP_IN("reschedule"), PKS_TP_OUT("reschedule"),
	PKS_TP_IN("call_function"), PKS_TP_OUT("call_function"),
	PKS_TP_IN("call_function_single"), PKS_TP_OUT("call_function_single"),
	PKS_TP_IN("threshold_apic"), PKS_TP_OUT("threshold_apic"),
	PKS_TP_IN("deferred_error_apic"), PKS_TP_OUT("deferred_error_apic"),
	PKS_TP_IN("thermal_apic"), PKS_TP_OUT("thermal_apic"),
};

/*
 * The ends of one callback (above). Built in, not exported for modules
 * on either kernel: found, as the others, by for_each_kernel_tracepoint().
 */
static struct pks_tp pks_end_tps[] = {
	PKS_TP("hrtimer_expire_exit", pks_tp_hrtimer_end),
	PKS_TP("timer_expire_exit", pks_tp_timer_end),
	PKS_TP("tasklet_exit", pks_tp_tasklet_end),
	PKS_TP("workqueue_execute_end", pks_tp_work_end),
	PKS_TP("csd_function_exit", pks_tp_csd_end),
};

/*
 * An NMI has no exit hook: it gets the default, and whatever it
 * interrupted gets its rights back at its next fault: the driver's copy
 * of PKRS still holds them, and the fault path writes it again. Faults in
 * an NMI are never granted.
 * The register is read, not the driver's copy: the NMI may have come
 * between a change of the copy and the write of the register.
 */
static int pks_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	u64 pkrs;

	if (!READ_ONCE(pks_boundary_enforced))
		return NMI_DONE;
	rdmsrq(MSR_IA32_PKRS, pkrs);
	if (pkrs != PKS_DEFAULT_PKRS) {
		wrmsrq(MSR_IA32_PKRS, PKS_DEFAULT_PKRS);
		pks_pkrs_lost();
		atomic64_inc(&pks_boundary_writes);
	}
	return NMI_DONE;
}

static bool pks_nmi_registered;

static void pks_tp_find(struct tracepoint *tp, void *priv)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pks_tps); i++)
		if (!strcmp(tp->name, pks_tps[i].name))
			pks_tps[i].tp = tp;
	for (i = 0; i < ARRAY_SIZE(pks_end_tps); i++)
		if (!strcmp(tp->name, pks_end_tps[i].name))
			pks_end_tps[i].tp = tp;
}

/*
 * Place @t's probe; false, said, when it cannot be. Vectors a kernel was
 * built without have no tracepoint: said too, so that what stays open is
 * known (pkstool info counts the hooks placed).
 */
static bool pks_tp_register(struct pks_tp *t)
{
	int rc;

	if (!t->tp) {
		pr_info("no tracepoint %s in this kernel: not hooked\n",
			t->name);
		return false;
	}
	rc = tracepoint_probe_register(t->tp, t->probe, NULL);
	if (rc) {
		pr_warn("cannot hook tracepoint %s (%d): what it marks is not seen\n",
			t->name, rc);
		return false;
	}
	t->registered = true;
	pks_boundary_hooks++;
	return true;
}

int pks_boundary_init(void)
{
	size_t i;
	int rc;

	for_each_kernel_tracepoint(pks_tp_find, NULL);
	/*
	 * pks_tps[] holds entry and exit in pairs. The exit goes first, and
	 * the entry only with it: an entry seen without its exit would leave
	 * its level's depth above zero for good, and every later handler's
	 * exit would then take itself for a nested one's and not give the
	 * interrupted context its rights back. An exit seen without its
	 * entry (a handler running as the pair is placed) counts as the
	 * outermost.
	 */
	BUILD_BUG_ON(ARRAY_SIZE(pks_tps) % 2);
	for (i = 0; i < ARRAY_SIZE(pks_tps); i += 2)
		if (pks_tp_register(&pks_tps[i + 1]))
			pks_tp_register(&pks_tps[i]);
	for (i = 0; i < ARRAY_SIZE(pks_end_tps); i++)
		pks_tp_register(&pks_end_tps[i]);
	rc = register_nmi_handler(NMI_LOCAL, pks_nmi_handler, NMI_FLAG_FIRST,
				  "pks");
	if (rc)
		pr_warn("cannot register an NMI handler (%d): NMIs inherit PKRS\n",
			rc);
	pks_nmi_registered = !rc;
	pks_boundary_hooks += pks_nmi_registered;
	pks_acct_add(PKS_ACCT_PROBES, pks_boundary_hooks);
	pr_info("interrupt boundaries: %u hooks\n", pks_boundary_hooks);
	return 0;
}

static void pks_tp_unregister(struct pks_tp *t)
{
	if (t->registered)
		tracepoint_probe_unregister(t->tp, t->probe, NULL);
	t->registered = false;
}

void pks_boundary_exit_all(void)
{
	size_t i;

	if (pks_nmi_registered)
		unregister_nmi_handler(NMI_LOCAL, "pks");
	for (i = 0; i < ARRAY_SIZE(pks_tps); i++)
		pks_tp_unregister(&pks_tps[i]);
	for (i = 0; i < ARRAY_SIZE(pks_end_tps); i++)
		pks_tp_unregister(&pks_end_tps[i]);
	/* No probe may still be running when the module text goes. */
	tracepoint_synchronize_unregister();
	pks_acct_add(PKS_ACCT_PROBES, -(long)pks_boundary_hooks);
	pks_boundary_hooks = 0;
	pks_nmi_registered = false;
}

void pks_boundary_fill(struct pks_grants *g, bool counts)
{
	if (counts)
		g->boundary_writes = atomic64_read(&pks_boundary_writes);
	g->boundary_hooks = pks_boundary_hooks;
}

/* The control of the boundary test: interrupts inherit PKRS again. */
void pks_boundary_enforce(bool on)
{
	WRITE_ONCE(pks_boundary_enforced, on);
}
EXPORT_SYMBOL_NS_GPL(pks_boundary_enforce, PKS_TEST_NS);

/* The control of the grant-scope test: grants outlive their callback. */
void pks_callback_ends_enforce(bool on)
{
	WRITE_ONCE(pks_callback_ends_enforced, on);
}
EXPORT_SYMBOL_NS_GPL(pks_callback_ends_enforce, PKS_TEST_NS);
