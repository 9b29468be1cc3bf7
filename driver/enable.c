// SPDX-License-Identifier: GPL-2.0
/*
 * PKS enablement: CPUID detection, CR4.PKS and PKRS on every CPU (hotplug
 * included), and the per-CPU copy of PKRS that lets redundant MSR writes be
 * skipped: pks_write_pkrs() writes a whole value through that copy,
 * pks_set_key_bits() one key's two bits.
 */
#include "pks_internal.h"

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/kernel_stat.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/syscore_ops.h>
#include <asm/hardirq.h>
#include <asm/msr.h>
#include <asm/processor.h>
#include <asm/tlbflush.h>

/**
 * struct pks_cpu_state - this driver's view of one CPU
 * @pkrs: the value last written to PKRS; only this CPU changes it
 * @enabled: CR4.PKS was set by this driver
 * @writes: PKRS writes done
 * @skipped: PKRS writes skipped because @pkrs already held the value
 * @went_down: this driver's teardown ran on the CPU, which is (or was) off
 * @events_down: pks_cpu_events() at that teardown
 * @lost: the register may differ from @pkrs (an NMI set the default):
 *	the next write is made whatever @pkrs says
 * @boundary: PKRS writes made at interrupt boundaries, not in @writes
 */
struct pks_cpu_state {
	u32 pkrs;
	bool enabled;
	bool lost;
	u64 boundary;
	u64 writes;
	u64 skipped;
	bool went_down;
	u32 events_down;
};

static DEFINE_PER_CPU(struct pks_cpu_state, pks_cpu);
static enum cpuhp_state pks_hp_state;
/* The online callback runs for the CPUs already up, at load. */
static bool pks_loading;

bool pks_cpu_supported(void)
{
	unsigned int eax, ebx, ecx, edx;

	if (cpuid_eax(0) < 7)
		return false;
	cpuid_count(7, 0, &eax, &ebx, &ecx, &edx);
	return ecx & BIT(PKS_CPUID_ECX_BIT);
}

/*
 * Write PKRS on this CPU unless it already holds @pkrs. Callers have
 * preemption disabled. Interrupts are off across the compare and the
 * write, so an IPI that changes PKRS (pks_key_free()) cannot fall between
 * them and leave the copy and the register apart.
 */
static void __pks_write_pkrs(u32 pkrs, u64 __percpu *counter)
{
	struct pks_cpu_state *st = this_cpu_ptr(&pks_cpu);
	unsigned long flags;

	local_irq_save(flags);
	if (st->pkrs == pkrs && !READ_ONCE(st->lost)) {
		st->skipped++;
	} else {
		st->pkrs = pkrs;
		WRITE_ONCE(st->lost, false);
		wrmsrq(MSR_IA32_PKRS, pkrs);
		(*this_cpu_ptr(counter))++;
	}
	local_irq_restore(flags);
}

void pks_write_pkrs(u32 pkrs)
{
	__pks_write_pkrs(pkrs, &pks_cpu.writes);
}
EXPORT_SYMBOL_NS_GPL(pks_write_pkrs, PKS_TEST_NS);

/*
 * Set @key's two PKRS bits on this CPU; preemption disabled. The read and
 * the write happen with interrupts off, so a PKRS change made from an
 * interrupt in between is not lost.
 */
void pks_set_key_bits(int key, u32 bits)
{
	u32 mask = (PKS_PKRS_AD | PKS_PKRS_WD) << PKS_PKRS_SHIFT(key);
	unsigned long flags;

	local_irq_save(flags);
	pks_write_pkrs((pks_read_pkrs_cache() & ~mask) |
		       (bits << PKS_PKRS_SHIFT(key)));
	local_irq_restore(flags);
}

/*
 * The same, from an interrupt boundary: counted apart, so that the
 * windows' and grants' own writes can be counted exactly while
 * interrupts come and go.
 */
void pks_write_pkrs_boundary(u32 pkrs)
{
	__pks_write_pkrs(pkrs, &pks_cpu.boundary);
}

/*
 * From an NMI that set the register to the default behind the copy (or
 * the fault path, which cannot trust it either): the next write goes to
 * the register. An NMI between a write's update of the copy and its
 * WRMSR leaves the register as the interrupted write sets it, and the
 * flag set, which costs one extra write.
 */
void pks_pkrs_lost(void)
{
	WRITE_ONCE(this_cpu_ptr(&pks_cpu)->lost, true);
}

u32 pks_read_pkrs_cache(void)
{
	return this_cpu_read(pks_cpu.pkrs);
}
EXPORT_SYMBOL_NS_GPL(pks_read_pkrs_cache, PKS_TEST_NS);

void pks_counters(u64 *writes, u64 *skipped)
{
	*writes = this_cpu_read(pks_cpu.writes);
	*skipped = this_cpu_read(pks_cpu.skipped);
}
EXPORT_SYMBOL_NS_GPL(pks_counters, PKS_TEST_NS);

/*
 * Interrupts (device, timer, IPIs, NMIs) and softirqs handled on @cpu so
 * far, as arch_irq_stat_cpu() counts them (TLB shootdowns are function
 * calls): counted across a hotplug cycle, they are the code that ran there
 * with keys unenforced, the measure of the windows described below. The
 * counters are 32-bit and wrap; so does the sum, and a difference of two
 * sums is right as long as fewer than 2^32 ran in between.
 */
static u32 pks_cpu_events(unsigned int cpu)
{
	const irq_cpustat_t *irqs = &per_cpu(irq_stat, cpu);
#ifdef PKS_IRQ_STAT_COUNTS
	/* Newer kernels keep the counters in one array. */
	const unsigned int *c = irqs->counts;
	u32 n = kstat_cpu_irqs_sum(cpu) + c[IRQ_COUNT_NMI] +
		c[IRQ_COUNT_APIC_TIMER] + c[IRQ_COUNT_X86_PLATFORM_IPI] +
		c[IRQ_COUNT_APIC_PERF] + c[IRQ_COUNT_IRQ_WORK] +
		c[IRQ_COUNT_RESCHEDULE] + c[IRQ_COUNT_CALL_FUNCTION];
#else
	u32 n = kstat_cpu_irqs_sum(cpu) + irqs->__nmi_count +
		irqs->apic_timer_irqs + irqs->x86_platform_ipis +
		irqs->apic_perf_irqs + irqs->apic_irq_work_irqs +
		irqs->irq_resched_count + irqs->irq_call_count;
#endif
	unsigned int i;

	for (i = 0; i < NR_SOFTIRQS; i++)
		n += kstat_softirqs_cpu(i, cpu);
	return n;
}

/*
 * This CPU's PKRS writes at interrupt entry and exit, and the interrupts
 * and softirqs handled on it so far; preemption off. The benchmark sets
 * one against the other: what a handler costs with and without rights.
 */
void pks_boundary_counters(u64 *writes, u32 *handlers)
{
	*writes = this_cpu_read(pks_cpu.boundary);
	*handlers = pks_cpu_events(smp_processor_id());
}
EXPORT_SYMBOL_NS_GPL(pks_boundary_counters, PKS_TEST_NS);

/*
 * Runs on the CPU coming up, at CPUHP_AP_ONLINE_DYN: the earliest state
 * open to a module on the CPU itself. Before it, the CPU already runs
 * interrupts and kthreads with CR4.PKS clear, so keys are not enforced
 * there (a documented limit); a CPU without PKS is not let online.
 */
static int pks_cpu_online(unsigned int cpu)
{
	struct pks_cpu_state *st = this_cpu_ptr(&pks_cpu);
	unsigned long flags;
	u32 unenforced;

	if (!pks_cpu_supported()) {
		if (pks_loading)
			pr_err("cpu%u has no PKS: take it offline (echo 0 > /sys/devices/system/cpu/cpu%u/online) before loading pks\n",
			       cpu, cpu);
		else
			pr_err("cpu%u has no PKS: it cannot come online while pks is loaded\n",
			       cpu);
		return -EOPNOTSUPP;
	}

	local_irq_save(flags);
	unenforced = pks_cpu_events(cpu) - st->events_down;
	wrmsrq(MSR_IA32_PKRS, PKS_DEFAULT_PKRS);
	st->pkrs = PKS_DEFAULT_PKRS;
	pks_cr4_update(true);
	st->enabled = true;
	local_irq_restore(flags);
	if (st->went_down)
		pr_info("cpu%u: PKS enabled; %u interrupts and softirqs ran there unenforced since its teardown\n",
			cpu, unenforced);
	st->went_down = false;
	return 0;
}

/*
 * Runs on the CPU going down: CPUHP_AP_ONLINE_DYN is an AP state, whose
 * teardown runs in that CPU's own hotplug thread.
 */
static int pks_cpu_offline(unsigned int cpu)
{
	struct pks_cpu_state *st = this_cpu_ptr(&pks_cpu);
	unsigned long flags;

	/*
	 * The register keeps the default, and so does the copy: whatever
	 * runs here until the CPU stops (and after it comes back, until
	 * pks_cpu_online()) has keys unenforced, but nothing may take the
	 * copy for rights (a zero would read as every key open).
	 */
	local_irq_save(flags);
	/* Before the module can go: no notifier of ours left on this CPU. */
	pks_grants_cpu_down();
	wrmsrq(MSR_IA32_PKRS, PKS_DEFAULT_PKRS);
	st->pkrs = PKS_DEFAULT_PKRS;
	pks_cr4_update(false);
	st->enabled = false;
	st->events_down = pks_cpu_events(cpu);
	st->went_down = true;
	local_irq_restore(flags);
	pr_debug("cpu%u: PKS disabled\n", cpu);
	return 0;
}

/*
 * A resume from S3, or the restore of a hibernation image, brings the boot
 * CPU back with CR4 from its saved state but PKRS at its reset value, 0:
 * every key open, and this driver's copy still holding the old value, so
 * later writes of it would be skipped. syscore resume is the earliest hook
 * a module has: the boot CPU alone, interrupts off, before any device
 * resumes or task thaws. The other CPUs come back through hotplug, where
 * pks_cpu_online() writes PKRS.
 */
void pks_resume_cpu(void)
{
	struct pks_cpu_state *st = this_cpu_ptr(&pks_cpu);
	u64 found;

	/*
	 * The restored CR4 holds PKS. Should it not, the shadow copy still
	 * does and a plain set would be skipped: clear, then set.
	 */
	if (!(__read_cr4() & X86_CR4_PKS)) {
		pks_cr4_update(false);
		pks_cr4_update(true);
	}
	rdmsrq(MSR_IA32_PKRS, found);
	wrmsrq(MSR_IA32_PKRS, st->pkrs);
	st->writes++;
	if (found != st->pkrs)
		pr_info("cpu%d: PKRS was 0x%llx after resume: restored 0x%x\n",
			smp_processor_id(), found, st->pkrs);
}
EXPORT_SYMBOL_NS_GPL(pks_resume_cpu, PKS_TEST_NS);

/* Newer kernels (Debian's 6.12 among them) pass the ops a cookie. */
#ifdef PKS_HAS_STRUCT_SYSCORE
static void pks_syscore_resume(void *unused)
{
	pks_resume_cpu();
}

static const struct syscore_ops pks_syscore_ops = {
	.resume = pks_syscore_resume,
};

static struct syscore pks_syscore = {
	.ops = &pks_syscore_ops,
};

static void pks_syscore_register(void)
{
	register_syscore(&pks_syscore);
}

static void pks_syscore_unregister(void)
{
	unregister_syscore(&pks_syscore);
}
#else
static struct syscore_ops pks_syscore_ops = {
	.resume = pks_resume_cpu,
};

static void pks_syscore_register(void)
{
	register_syscore_ops(&pks_syscore_ops);
}

static void pks_syscore_unregister(void)
{
	unregister_syscore_ops(&pks_syscore_ops);
}
#endif

int pks_enable_all(void)
{
	int rc;

	rc = pks_cr4_init();
	if (rc)
		return rc;
	pks_loading = true;
	rc = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "pks:online",
			       pks_cpu_online, pks_cpu_offline);
	pks_loading = false;
	if (rc < 0) {
		pks_cr4_exit();
		return rc;
	}
	pks_hp_state = rc;
	pks_syscore_register();
	return 0;
}

void pks_disable_all(void)
{
	pks_syscore_unregister();
	cpuhp_remove_state(pks_hp_state);
	pks_cr4_exit();
}

static void pks_read_cpu_regs(void *data)
{
	struct pks_cpu_info *info = data;
	u64 pkrs;

	rdmsrq(MSR_IA32_PKRS, pkrs);
	info->pkrs = pkrs;
	if (__read_cr4() & X86_CR4_PKS)
		info->flags |= PKS_CPU_F_CR4_PKS;
}

/* Also for the test module: the registers as read on @cpu itself. */
void pks_fill_cpu_info(unsigned int cpu, struct pks_cpu_info *info)
{
	pks_fill_cpu_info_as(cpu, info, true);
}
EXPORT_SYMBOL_NS_GPL(pks_fill_cpu_info, PKS_TEST_NS);

/*
 * @live: read the registers on @cpu (an IPI) and report the counters;
 * else only what PKS_CPU_F_LIVE says an unprivileged caller sees.
 */
void pks_fill_cpu_info_as(unsigned int cpu, struct pks_cpu_info *info,
			  bool live)
{
	struct pks_cpu_state *st = per_cpu_ptr(&pks_cpu, cpu);

	memset(info, 0, sizeof(*info));
	info->cpu = cpu;
	if (cpu_online(cpu))
		info->flags |= PKS_CPU_F_ONLINE;
	if (!live) {
		if (READ_ONCE(st->enabled))
			info->flags |= PKS_CPU_F_CR4_PKS;
		return;
	}
	info->flags |= PKS_CPU_F_LIVE;
	info->pkrs_cached = READ_ONCE(st->pkrs);
	info->pkrs_writes = READ_ONCE(st->writes);
	info->pkrs_skipped = READ_ONCE(st->skipped);
	if (!cpu_online(cpu))
		return;
	/* Read the registers themselves, not this driver's beliefs. */
	smp_call_function_single(cpu, pks_read_cpu_regs, info, 1);
}
