// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of enable.c: PKS on every CPU, and PKRS after a resume.
 */
#include "test.h"

#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/smp.h>
#include <asm/msr.h>

/*
 * check-defaults: every online CPU has CR4.PKS set and holds the default
 * PKRS value, in the register and in this driver's copy.
 */
static int pks_test_check_defaults(struct pks_test_ctx *ctx)
{
	struct pks_cpu_info info;
	unsigned int cpu, checked = 0;
	int result = PKS_RESULT_PASS;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		pks_fill_cpu_info(cpu, &info);
		checked++;
		if (!(info.flags & PKS_CPU_F_CR4_PKS)) {
			result = pks_test_fail(ctx, "cpu%u: CR4.PKS is clear",
					       cpu);
			break;
		}
		if (info.pkrs != PKS_DEFAULT_PKRS ||
		    info.pkrs_cached != PKS_DEFAULT_PKRS) {
			result = pks_test_fail(ctx,
					       "cpu%u: PKRS %#x (cached %#x), expected %#x",
					       cpu, info.pkrs, info.pkrs_cached,
					       PKS_DEFAULT_PKRS);
			break;
		}
	}
	cpus_read_unlock();
	if (result == PKS_RESULT_PASS)
		pr_info("check-defaults: %u CPUs hold PKRS %#x\n", checked,
			PKS_DEFAULT_PKRS);
	return result;
}

static void pks_lose_pkrs(void *unused)
{
	wrmsrq(MSR_IA32_PKRS, 0);
}

static void pks_check_lost(void *data)
{
	atomic_t *still_lost = data;
	u64 pkrs;

	/* The redundant-write skip must not hide the loss: try it. */
	pks_write_pkrs(PKS_DEFAULT_PKRS);
	rdmsrq(MSR_IA32_PKRS, pkrs);
	if (pkrs != PKS_DEFAULT_PKRS)
		atomic_inc(still_lost);
}

static void pks_resume_each(void *unused)
{
	pks_resume_cpu();
}

/*
 * resume: what a resume does to PKRS (the register cleared behind the
 * driver's copy) is done on every CPU, then each runs the driver's resume
 * hook, as the boot CPU does from syscore resume. The control shows the
 * loss is real: a plain write of the default is skipped and the register
 * stays 0. After the hook every CPU holds the default again. The suspend
 * case takes the VM through a real S3 and back.
 */
static int pks_test_resume(struct pks_test_ctx *ctx)
{
	atomic_t lost = ATOMIC_INIT(0);
	struct pks_cpu_info info;
	unsigned int cpu, n = 0;
	int result = PKS_RESULT_PASS;
	char why[PKS_MESSAGE_LEN];

	/* Every key is open on every CPU while it runs: not on live keys. */
	if (pks_keys_busy(why, sizeof(why)))
		return pks_test_skip(ctx, "would open every key on every CPU while it runs: %s",
				     why);
	cpus_read_lock();
	on_each_cpu(pks_lose_pkrs, NULL, 1);
	on_each_cpu(pks_check_lost, &lost, 1);
	n = atomic_read(&lost);
	on_each_cpu(pks_resume_each, NULL, 1);
	for_each_online_cpu(cpu) {
		pks_fill_cpu_info(cpu, &info);
		if (info.pkrs != PKS_DEFAULT_PKRS ||
		    info.pkrs_cached != PKS_DEFAULT_PKRS) {
			result = pks_test_fail(ctx, "cpu%u after the resume path: PKRS %#x, cached %#x",
					       cpu, info.pkrs, info.pkrs_cached);
			break;
		}
	}
	if (!result && n != num_online_cpus())
		result = pks_test_fail(ctx, "control: the loss showed on %u of %u CPUs",
				       n, num_online_cpus());
	cpus_read_unlock();
	return result;
}

static const struct pks_test enable_tests[] = {
	{ PKS_TEST_CHECK_DEFAULTS, pks_test_check_defaults },
	{ PKS_TEST_RESUME, pks_test_resume },
};

PKS_TEST_CATEGORY(pks_enable_tests, enable_tests);
