// SPDX-License-Identifier: GPL-2.0
/*
 * Fault capture. The stock kernel has no hook for protection-key faults in
 * kernel mode, so a kprobe on page_fault_oops() sees every kernel fault
 * that no exception-table fixup handled (the nofault helpers' faults never
 * get there). A fault on a key whose owner registered a callback is offered
 * to that callback, which may grant access and have the access retried.
 */
#include "pks_internal.h"

#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/preempt.h>
#include <asm/pgtable_types.h>
#include <asm/ptrace.h>
#include <asm/trap_pf.h>

static bool pks_faults_registered;

/* The key of the kernel page mapping @address, or -1 when unmapped. */
static int pks_addr_key(unsigned long address)
{
	unsigned int level;
	pte_t *pte = lookup_address(address, &level);

	if (!pte || !pte_present(*pte))
		return -1;
	return (pte_val(*pte) & PKS_PTE_KEY_MASK) >> PKS_PTE_KEY_SHIFT;
}

/*
 * page_fault_oops() is replaced by this when a fault was handled: the
 * kprobe points the saved ip here, so the oops path returns at once and
 * the faulting instruction retries.
 */
static noinline void pks_fault_handled(void)
{
	barrier();
}

/* page_fault_oops(struct pt_regs *regs, unsigned long error_code,
 *		   unsigned long address)
 */
static int pks_oops_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct pt_regs *fregs = (struct pt_regs *)regs->di;
	unsigned long error_code = regs->si;
	unsigned long address = regs->dx;
	int key;

	if (!(error_code & X86_PF_PK) || user_mode(fregs))
		return 0;
	key = pks_addr_key(address);
	if (!pks_key_valid(key))
		return 0;
	if (!pks_key_fault_cb(key, address, error_code & X86_PF_WRITE))
		return 0;
	pks_set_access(key, PKS_READ_WRITE);
	instruction_pointer_set(regs, (unsigned long)pks_fault_handled);
	return 1;
}

static struct kprobe pks_oops_kp = {
	.symbol_name = "page_fault_oops",
	.pre_handler = pks_oops_pre,
};

int pks_faults_init(void)
{
	int rc = register_kprobe(&pks_oops_kp);

	if (rc) {
		pr_warn("cannot probe page_fault_oops (%d): fault callbacks are off\n",
			rc);
		return rc;
	}
	pks_faults_registered = true;
	return 0;
}

void pks_faults_exit(void)
{
	if (pks_faults_registered)
		unregister_kprobe(&pks_oops_kp);
	pks_faults_registered = false;
}

bool pks_faults_active(void)
{
	return pks_faults_registered;
}

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

/*
 * fault-callback: a plain write to a key with no window open faults, the
 * owner's callback is told the address and access type, grants access,
 * and the write completes. Without the hook the write would oops, so the
 * test is skipped when the hook is missing.
 */
static int pks_test_fault_callback(struct pks_test_ctx *ctx)
{
	const u64 pattern = 0xfeedfacecafef00dULL;
	struct pks_cb_record rec = {};
	struct pks_test_page tp = {};
	unsigned int bits;
	int key, rc;

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

	preempt_disable();
	WRITE_ONCE(*(u64 *)tp.addr, pattern);
	bits = pks_key_bits(key, pks_read_pkrs_cache());
	pks_set_access(key, PKS_NO_ACCESS);
	preempt_enable();

	if (rec.calls != 1)
		rc = pks_test_fail(ctx, "callback ran %u times, expected 1",
				   rec.calls);
	else if (rec.address != (unsigned long)tp.addr || !rec.write)
		rc = pks_test_fail(ctx, "callback saw a %s at the wrong address",
				   rec.write ? "write" : "read");
	else if (bits != 0)
		rc = pks_test_fail(ctx, "key %d not granted after callback (bits %#x)",
				   key, bits);
	else if (*(u64 *)page_address(tp.page) != pattern)
		rc = pks_test_fail(ctx, "the retried write did not land");
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

static const struct pks_test fault_tests[] = {
	{ PKS_TEST_FAULT_CALLBACK, pks_test_fault_callback },
	{ PKS_TEST_CRASH, pks_test_crash },
};

PKS_TEST_CATEGORY(pks_fault_tests, fault_tests);
