// SPDX-License-Identifier: GPL-2.0
/*
 * The stock kernel's protection-key WARN. do_kern_addr_fault() opens with
 * WARN_ON_ONCE(hw_error_code & X86_PF_PK): upstream, keys exist only on
 * user pages. It runs before the fault probe (faults.c) sees the fault, so
 * the first protection-key fault of a boot would WARN and taint the kernel
 * W, legitimate accesses that pks grants included, and panic a machine
 * booted with panic_on_warn=1. A protection-key fault in kernel mode is
 * pks's to judge and report, so while pks is loaded that one WARN is
 * marked as already reported.
 *
 * The WARN is an entry of the kernel's bug table, whose flags report_bug()
 * reads and writes (BUGFLAG_DONE after the first report of a _ONCE entry):
 * setting BUGFLAG_DONE there is what the kernel itself does after the
 * first report. Neither the table nor find_bug() is exported, so the
 * table's bounds come from kallsyms, through the address register_kprobe()
 * looks up for a symbol.
 *
 * The entry is the one whose file is arch/x86/mm/fault.c, a WARN_ON_ONCE,
 * inside do_kern_addr_fault() (any .part/.constprop copy) or, where the
 * compiler inlined its start there, exc_page_fault(), and, among those,
 * the one with the lowest line: it is the function's first statement
 * (the other WARN_ON_ONCE there, on kprobe_page_fault(), comes later).
 * Every entry on that line is a copy of that one statement, each with its
 * own flags, and all are marked: 6.12 has two, the one inlined into
 * exc_page_fault() (the one that fires) and do_kern_addr_fault()'s own.
 * None (or more copies than expected), and nothing is touched.
 *
 * Writing 1 to /sys/kernel/debug/clear_warn_once clears BUGFLAG_DONE in
 * every entry (generic_bug_clear_once()); a return probe on that function
 * sets it again. Between the clearing and the return probe the WARN is
 * armed: a protection-key fault on another CPU in that window, a few
 * microseconds, still WARNs.
 */
#include "pks_internal.h"

#include <linux/bug.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>

static bool silence_pk_warn = true;
module_param(silence_pk_warn, bool, 0444);
MODULE_PARM_DESC(silence_pk_warn,
		 "Mark the stock kernel's protection-key fault WARN as reported while loaded (default: on)");

#define PKS_WARN_FILE	"arch/x86/mm/fault.c"
/* Copies of the one statement: 6.12 has an inlined one and the original. */
#define PKS_WARN_COPIES	4

static struct bug_entry *pks_warn_bugs[PKS_WARN_COPIES];
static unsigned int pks_warn_nr;
/* BUGFLAG_DONE was set before load: the kernel had WARNed there already. */
static bool pks_warn_was_done[PKS_WARN_COPIES];
static bool pks_warn_rearm_placed;

static unsigned long pks_bug_addr(const struct bug_entry *bug)
{
#ifdef CONFIG_GENERIC_BUG_RELATIVE_POINTERS
	return (unsigned long)&bug->bug_addr_disp + bug->bug_addr_disp;
#else
	return bug->bug_addr;
#endif
}

static const char *pks_bug_file(const struct bug_entry *bug)
{
#ifndef CONFIG_DEBUG_BUGVERBOSE
	return NULL;
#elif defined(CONFIG_GENERIC_BUG_RELATIVE_POINTERS)
	return (const char *)&bug->file_disp + bug->file_disp;
#else
	return bug->file;
#endif
}

static unsigned short pks_bug_line(const struct bug_entry *bug)
{
#ifdef CONFIG_DEBUG_BUGVERBOSE
	return bug->line;
#else
	return 0;
#endif
}

/*
 * A symbol's address, or 0. register_kprobe() looks the name up and
 * stores the address in the probe before it checks that it may probe
 * there, which it may not for data: the probe is never placed (and, were
 * it placed, removed at once). No function pointer is taken from kallsyms:
 * an indirect call to kallsyms_lookup_name() would fault on a CPU that
 * enforces indirect-branch tracking (the probe's address is past the
 * function's ENDBR, which the kernel may also have sealed).
 */
static unsigned long pks_lookup(const char *name)
{
	struct kprobe kp = { .symbol_name = name };

	if (!register_kprobe(&kp))
		unregister_kprobe(&kp);
	return (unsigned long)kp.addr;
}

/*
 * Whether the symbol text @sym ("name.part.0+0x85/0x90") names
 * do_kern_addr_fault or exc_page_fault, whatever the suffix.
 */
static bool pks_in_fault_fn(const char *sym)
{
	static const char * const names[] = {
		"do_kern_addr_fault", "exc_page_fault"
	};
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		n = strlen(names[i]);
		if (!strncmp(sym, names[i], n) &&
		    (sym[n] == '.' || sym[n] == '+'))
			return true;
	}
	return false;
}

/*
 * Fill pks_warn_bugs with the entries of the statement; returns how many
 * (0 when none fits, or when the lowest line has more copies than room).
 */
static unsigned int pks_warn_find(void)
{
	struct bug_entry *start, *stop, *bug;
	const unsigned short want = BUGFLAG_WARNING | BUGFLAG_ONCE;
	char sym[KSYM_SYMBOL_LEN];
	unsigned int nr = 0, line = 0;
	bool full = false;
	const char *file;

	start = (struct bug_entry *)pks_lookup("__start___bug_table");
	stop = (struct bug_entry *)pks_lookup("__stop___bug_table");
	/*
	 * Whole entries, or the bounds are wrong (on an ENDBR-like first
	 * word the probe's address lookup adds 4).
	 */
	if (!start || !stop || stop <= start ||
	    ((unsigned long)stop - (unsigned long)start) % sizeof(*start)) {
		pr_warn("cannot find the kernel's bug table\n");
		return 0;
	}
	for (bug = start; bug < stop; bug++) {
		file = pks_bug_file(bug);
		if (!file || strcmp(file, PKS_WARN_FILE))
			continue;
		sprint_symbol(sym, pks_bug_addr(bug));
		pr_debug("WARN candidate %s:%u %s flags %#x\n", file,
			 pks_bug_line(bug), sym, bug->flags);
		if ((bug->flags & want) != want || !pks_in_fault_fn(sym))
			continue;
		if (nr && pks_bug_line(bug) > line)
			continue;
		if (nr && pks_bug_line(bug) < line) {
			nr = 0;
			full = false;
		}
		line = pks_bug_line(bug);
		if (nr == PKS_WARN_COPIES) {
			full = true;
			continue;
		}
		pks_warn_bugs[nr++] = bug;
	}
	if (full) {
		pr_warn("more than %d WARNs at %s:%u\n", PKS_WARN_COPIES,
			PKS_WARN_FILE, line);
		return 0;
	}
	return nr;
}

/*
 * After clear_warn_once has cleared every entry's BUGFLAG_DONE, set ours
 * again. Until this runs, the WARN is armed (see the top of this file).
 */
static int pks_warn_rearm(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct bug_entry *bug;
	unsigned int i, nr;

	/* Pairs with pks_warnonce_init()'s release: the entries are filled. */
	nr = smp_load_acquire(&pks_warn_nr);
	for (i = 0; i < nr; i++) {
		bug = pks_warn_bugs[i];
		WRITE_ONCE(bug->flags, bug->flags | BUGFLAG_DONE);
	}
	return 0;
}

static struct kretprobe pks_warn_rearm_krp = {
	.kp.symbol_name = "generic_bug_clear_once",
	.handler = pks_warn_rearm,
};

/**
 * pks_pk_warn_silenced() - whether the stock protection-key WARN is marked
 *
 * Return: true while pks holds the stock kernel's first-fault WARN as
 * reported, so protection-key faults neither WARN nor taint.
 */
bool pks_pk_warn_silenced(void)
{
	return READ_ONCE(pks_warn_nr);
}

/* With fault capture up (faults.c): protection is pks's to report then. */
void pks_warnonce_init(void)
{
	struct bug_entry *bug;
	unsigned int i, nr;
	char *where;
	int len = 0;

	if (!silence_pk_warn) {
		pr_info("silence_pk_warn=0: protection-key faults will WARN in the stock fault handler\n");
		return;
	}
	if (!pks_faults_logging())
		return;
	nr = pks_warn_find();
	if (!nr) {
		pr_warn("cannot find the stock kernel's protection-key WARN in do_kern_addr_fault(): the first protection-key fault of a boot will WARN and taint the kernel (and panic it under panic_on_warn)\n");
		return;
	}
	where = kzalloc(PAGE_SIZE, GFP_KERNEL);
	for (i = 0; i < nr; i++) {
		bug = pks_warn_bugs[i];
		pks_warn_was_done[i] = bug->flags & BUGFLAG_DONE;
		WRITE_ONCE(bug->flags, bug->flags | BUGFLAG_DONE);
		if (where)
			len += scnprintf(where + len, PAGE_SIZE - len, "%s%pS",
					 i ? ", " : "",
					 (void *)pks_bug_addr(bug));
	}
	/* The entries before the count: pks_warn_rearm() reads them. */
	smp_store_release(&pks_warn_nr, nr);
	pks_warn_rearm_placed = !register_kretprobe(&pks_warn_rearm_krp);
	pks_acct_add(PKS_ACCT_PROBES, pks_warn_rearm_placed);
	if (!pks_warn_rearm_placed)
		pr_warn("cannot probe generic_bug_clear_once: clear_warn_once re-arms the stock protection-key WARN\n");
	pr_info("stock WARN at %s:%u (%s) marked reported: protection-key faults are pks's to report\n",
		PKS_WARN_FILE, pks_bug_line(pks_warn_bugs[0]),
		where ?: "?");
	kfree(where);
}

/* Once no page is keyed: give the entries back their flag from before. */
void pks_warnonce_exit(void)
{
	unsigned int i, nr = pks_warn_nr, kept = 0;
	struct bug_entry *bug;

	if (!nr)
		return;
	if (pks_warn_rearm_placed) {
		unregister_kretprobe(&pks_warn_rearm_krp);
		pks_acct_add(PKS_ACCT_PROBES, -1);
		pks_warn_rearm_placed = false;
	}
	WRITE_ONCE(pks_warn_nr, 0);
	for (i = 0; i < nr; i++) {
		bug = pks_warn_bugs[i];
		if (pks_warn_was_done[i])
			kept++;
		else
			WRITE_ONCE(bug->flags, bug->flags & ~BUGFLAG_DONE);
	}
	if (kept == nr)
		pr_info("stock WARN at %s:%u left marked reported: the kernel had reported it before pks loaded\n",
			PKS_WARN_FILE, pks_bug_line(pks_warn_bugs[0]));
	else if (!kept)
		pr_info("stock WARN at %s:%u armed again, as before pks loaded\n",
			PKS_WARN_FILE, pks_bug_line(pks_warn_bugs[0]));
	else
		pr_info("stock WARN at %s:%u armed again, as before pks loaded, but for %u of its %u copies, left marked reported: the kernel had reported them before pks loaded\n",
			PKS_WARN_FILE, pks_bug_line(pks_warn_bugs[0]), kept,
			nr);
}
