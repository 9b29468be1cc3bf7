// SPDX-License-Identifier: GPL-2.0
/*
 * Upstream V10's price on this test bed, for the ext4 -o dax figure of the
 * benchmark: two PKRS writes around each of the owner's copies, on an
 * unprotected namespace, so that nothing else changes.
 *
 * Under TCG every PKRS write flushes the whole emulated TLB (QEMU's
 * helper_wrmsr calls tlb_flush() for MSR_IA32_PKRS), and a 4 KiB DAX call
 * then spends most of its time refilling it: a cost that real PKS hardware
 * does not have and that any design writing PKRS per call pays here,
 * upstream's included. Writing the register's own value costs exactly
 * that and changes no right. The protected run is then compared with this
 * one as well as with the unprotected run: what protection costs beyond
 * the two writes is pks.ko's own price.
 */
#include "test.h"

#include <linux/kprobes.h>
#include <linux/mutex.h>
#include <linux/percpu.h>

static DEFINE_PER_CPU(u64, pks_v10_writes);
static DEFINE_MUTEX(pks_v10_lock);
static bool pks_v10_placed;

/* The register's own value back into it: one write, no right changed. */
static void pks_v10_write(void)
{
	unsigned long flags;
	u64 pkrs;

	local_irq_save(flags);
	rdmsrq(MSR_IA32_PKRS, pkrs);
	wrmsrq(MSR_IA32_PKRS, pkrs);
	this_cpu_inc(pks_v10_writes);
	local_irq_restore(flags);
}

static int pks_v10_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	/* Upstream opened the key in task context only, as the brackets do. */
	if (!in_task())
		return 1;
	pks_v10_write();
	return 0;
}

static int pks_v10_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	pks_v10_write();
	return 0;
}

/* The owner's copies a 4 KiB or 1 MiB ext4 -o dax read or write makes. */
static const char *const pks_v10_functions[] = {
	"dax_copy_to_iter", "dax_copy_from_iter",
};
static struct kretprobe pks_v10_probes[ARRAY_SIZE(pks_v10_functions)];

static void pks_v10_remove(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(pks_v10_probes); i++)
		unregister_kretprobe(&pks_v10_probes[i]);
	pks_v10_placed = false;
}

static int pks_v10_place(void)
{
	struct kretprobe *rp;
	int i, rc;

	for (i = 0; i < ARRAY_SIZE(pks_v10_probes); i++) {
		rp = &pks_v10_probes[i];
		/* A kretprobe is registered afresh, never twice. */
		memset(rp, 0, sizeof(*rp));
		rp->kp.symbol_name = pks_v10_functions[i];
		rp->entry_handler = pks_v10_entry;
		rp->handler = pks_v10_return;
		rp->maxactive = max(64U, 4 * num_possible_cpus());
		rc = register_kretprobe(rp);
		if (rc) {
			while (i--)
				unregister_kretprobe(&pks_v10_probes[i]);
			return rc;
		}
	}
	pks_v10_placed = true;
	return 0;
}

int pks_v10_price(struct pks_v10_price *req)
{
	int cpu, rc = 0;

	if (req->on > 1 || req->rsvd || req->pad)
		return -EINVAL;
	mutex_lock(&pks_v10_lock);
	if (req->on && !pks_v10_placed) {
		for_each_possible_cpu(cpu)
			per_cpu(pks_v10_writes, cpu) = 0;
		rc = pks_v10_place();
	} else if (!req->on && pks_v10_placed) {
		pks_v10_remove();
	}
	req->writes = 0;
	for_each_possible_cpu(cpu)
		req->writes += per_cpu(pks_v10_writes, cpu);
	mutex_unlock(&pks_v10_lock);
	return rc;
}

void pks_v10_exit(void)
{
	mutex_lock(&pks_v10_lock);
	if (pks_v10_placed)
		pks_v10_remove();
	mutex_unlock(&pks_v10_lock);
}
