// SPDX-License-Identifier: GPL-2.0
/*
 * PKS enablement: CPUID detection, CR4.PKS and PKRS on every CPU (hotplug
 * included), and the per-CPU copy of PKRS that lets redundant MSR writes be
 * skipped.
 */
#include "pks_internal.h"

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/percpu.h>
#include <linux/suspend.h>
#include <linux/smp.h>
#include <asm/msr.h>
#include <asm/processor.h>
#include <asm/tlbflush.h>

/**
 * struct pks_cpu_state - this driver's view of one CPU
 * @pkrs: the value last written to PKRS; only this CPU changes it
 * @enabled: CR4.PKS was set by this driver
 * @writes: PKRS writes done
 * @skipped: PKRS writes skipped because @pkrs already held the value
 */
struct pks_cpu_state {
	u32 pkrs;
	bool enabled;
	u64 writes;
	u64 skipped;
};

static DEFINE_PER_CPU(struct pks_cpu_state, pks_cpu);
static enum cpuhp_state pks_hp_state;

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
void pks_write_pkrs(u32 pkrs)
{
	struct pks_cpu_state *st = this_cpu_ptr(&pks_cpu);
	unsigned long flags;

	local_irq_save(flags);
	if (st->pkrs == pkrs) {
		st->skipped++;
	} else {
		st->pkrs = pkrs;
		wrmsrl(MSR_IA32_PKRS, pkrs);
		st->writes++;
	}
	local_irq_restore(flags);
}
EXPORT_SYMBOL_NS_GPL(pks_write_pkrs, PKS_TEST);

u32 pks_read_pkrs_cache(void)
{
	return this_cpu_read(pks_cpu.pkrs);
}
EXPORT_SYMBOL_NS_GPL(pks_read_pkrs_cache, PKS_TEST);

void pks_counters(u64 *writes, u64 *skipped)
{
	*writes = this_cpu_read(pks_cpu.writes);
	*skipped = this_cpu_read(pks_cpu.skipped);
}
EXPORT_SYMBOL_NS_GPL(pks_counters, PKS_TEST);

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

	if (!pks_cpu_supported()) {
		pr_err("cpu%u has no PKS: it cannot come online while pks is loaded\n",
		       cpu);
		return -EOPNOTSUPP;
	}

	local_irq_save(flags);
	wrmsrl(MSR_IA32_PKRS, PKS_DEFAULT_PKRS);
	st->pkrs = PKS_DEFAULT_PKRS;
	cr4_update_irqsoff(X86_CR4_PKS, 0);
	st->enabled = true;
	local_irq_restore(flags);
	pr_debug("cpu%u: PKS enabled, PKRS %#x\n", cpu, PKS_DEFAULT_PKRS);
	return 0;
}

static int pks_cpu_offline(unsigned int cpu)
{
	struct pks_cpu_state *st = this_cpu_ptr(&pks_cpu);
	unsigned long flags;

	local_irq_save(flags);
	cr4_update_irqsoff(0, X86_CR4_PKS);
	wrmsrl(MSR_IA32_PKRS, 0);
	st->pkrs = 0;
	st->enabled = false;
	local_irq_restore(flags);
	pr_debug("cpu%u: PKS disabled\n", cpu);
	return 0;
}

/*
 * After a resume every CPU holds CR4.PKS again (the boot CPU from its
 * saved state, the others through hotplug), but PKRS itself is not
 * restored: write it again on every CPU from this driver's copy, the
 * value it must hold, without the redundant-write skip.
 */
static void pks_cpu_resync(void *unused)
{
	struct pks_cpu_state *st = this_cpu_ptr(&pks_cpu);
	unsigned long flags;

	local_irq_save(flags);
	if (!(__read_cr4() & X86_CR4_PKS))
		cr4_update_irqsoff(X86_CR4_PKS, 0);
	wrmsrl(MSR_IA32_PKRS, st->pkrs);
	st->writes++;
	local_irq_restore(flags);
}

void pks_resync_all(void)
{
	cpus_read_lock();
	on_each_cpu(pks_cpu_resync, NULL, 1);
	cpus_read_unlock();
}
EXPORT_SYMBOL_NS_GPL(pks_resync_all, PKS_TEST);

static int pks_pm_notify(struct notifier_block *nb, unsigned long action,
			 void *data)
{
	switch (action) {
	case PM_POST_SUSPEND:
	case PM_POST_HIBERNATION:
	case PM_POST_RESTORE:
		pks_resync_all();
		pr_info("PKRS restored on every CPU after resume\n");
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block pks_pm_nb = {
	.notifier_call = pks_pm_notify,
};

int pks_enable_all(void)
{
	int rc;

	rc = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "pks:online",
			       pks_cpu_online, pks_cpu_offline);
	if (rc < 0)
		return rc;
	pks_hp_state = rc;
	rc = register_pm_notifier(&pks_pm_nb);
	if (rc) {
		cpuhp_remove_state(pks_hp_state);
		return rc;
	}
	return 0;
}

void pks_disable_all(void)
{
	unregister_pm_notifier(&pks_pm_nb);
	cpuhp_remove_state(pks_hp_state);
}

static void pks_read_cpu_regs(void *data)
{
	struct pks_cpu_info *info = data;
	u64 pkrs;

	rdmsrl(MSR_IA32_PKRS, pkrs);
	info->pkrs = pkrs;
	if (__read_cr4() & X86_CR4_PKS)
		info->flags |= PKS_CPU_F_CR4_PKS;
}

/* Also for the test module: the registers as read on @cpu itself. */
void pks_fill_cpu_info(unsigned int cpu, struct pks_cpu_info *info)
{
	struct pks_cpu_state *st = per_cpu_ptr(&pks_cpu, cpu);

	memset(info, 0, sizeof(*info));
	info->cpu = cpu;
	info->pkrs_cached = READ_ONCE(st->pkrs);
	info->pkrs_writes = READ_ONCE(st->writes);
	info->pkrs_skipped = READ_ONCE(st->skipped);
	if (!cpu_online(cpu))
		return;
	info->flags |= PKS_CPU_F_ONLINE;
	/* Read the registers themselves, not this driver's beliefs. */
	smp_call_function_single(cpu, pks_read_cpu_regs, info, 1);
}
EXPORT_SYMBOL_NS_GPL(pks_fill_cpu_info, PKS_TEST);
