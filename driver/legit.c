// SPDX-License-Identifier: GPL-2.0
/*
 * Which kernel accesses to protected pmem are legitimate, decided when
 * they fault, not by a list of kernel functions.
 *
 * On a stock kernel kmap_local_page() is page_address(), so the kernel
 * reaches protected pages through the keyed direct map in two ways only:
 * on someone's behalf, through a reference to the page, or as the
 * namespace's owner. The rules, in the order pks_legit_rule() applies
 * them (an NMI is granted by none):
 *
 * - "held-page": the page's count is above the one its pagemap keeps,
 *   beyond what its page-table mappings hold where they hold one (6.15
 *   on; fs/dax.c's dax_busy_page() calls such a page busy by the same
 *   test): a user mapping alone does not make a page held:
 *   a GUP pin (ptrace, /proc/PID/mem, process_vm_*, O_DIRECT, io_uring,
 *   FUSE, MSG_ZEROCOPY), a pipe buffer (vmsplice, splice), a bio. Only
 *   for task and softirq context, the contexts that copy on someone's
 *   behalf; a hard interrupt falls through to the owner rules. It is
 *   tested first, and when it admits nothing is unwound.
 * - "dax-layer", "pmem-driver": the kernel's DAX code (fs/dax.c and the
 *   dax core, built in, named dax_* or __dax_*) or the pmem block driver
 *   (module nd_pmem) made the access: it is the faulting instruction, or
 *   the caller of the copy routines (memcpy, copy_mc_*, the iov_iter
 *   copies) the instruction is in, found within PKS_OWNER_FRAMES callers
 *   with nothing but copy routines between; other code between (a file
 *   system's callbacks under dax_iomap_rw()) makes it a stray. The
 *   unwind starts from the fault's registers and stops at the context's
 *   entry (an interrupt's, an exception's or a system call's saved
 *   registers, or the softirq entry): an interrupt is judged by its own
 *   frames, never by those of the code it interrupted. Names are read
 *   once per code address and CPU, then kept in a per-CPU verdict cache
 *   until a module comes or goes.
 *
 * Anything else, a write through a stray pointer into a page nobody holds,
 * is refused. What the rules cannot tell apart: a stray from task or
 * softirq context into a page that is held at that moment (pinned for
 * I/O, or registered as an io_uring or RDMA buffer), a stray made by the
 * owner's own code or by a copy routine it called on a wrong pointer, and
 * one made by code the pmem driver calls that runs inside nd_pmem.
 *
 * A grant opens the key (read-only for a read) for the context that
 * faulted and no other: a task keeps it until it is interrupted, leaves
 * the CPU or returns to user space (a kworker: until its work item ends);
 * a softirq or a hard interrupt handler until the callback that faulted
 * ends, where the kernel marks that end, else until the traced handler
 * ends (boundary.c). Where no end can be hooked
 * (interrupt code outside a traced handler) the faulting instruction
 * alone is single-stepped with the key open. NMI-level contexts (an NMI,
 * and the #DB, #BP and #MC handlers the kernel runs like one) are granted
 * nothing: their faults are refused. Nothing is kept per task:
 * the next access after a boundary faults and is judged again. The counts
 * are per CPU, summed when PKS_IOC_GRANTS reads them.
 */
#include "pks_internal.h"

#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/hash.h>
#include <linux/kallsyms.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/stacktrace.h>
#include <linux/user-return-notifier.h>
#include <asm/unwind.h>

/* How close to the faulting instruction the owner's code must be. */
#define PKS_OWNER_FRAMES	8
/* The faulting instruction and its callers, in the test's control. */
#define PKS_JUDGED_MAX		(2 * (1 + PKS_OWNER_FRAMES))

#define ___PKS_P(id, name) name
static const char *const pks_rule_names[] = PKS_GRANT_RULES;
#undef ___PKS_P

/**
 * struct pks_legit_stats - this CPU's counts, summed by PKS_IOC_GRANTS
 * @rules: grants, indexed by enum pks_rule_id and enum pks_grant_kind
 * @refills: windows' rights given back (pks_refill())
 * @spurious: stale TLB entries flushed (pks_spurious())
 * @frames: return addresses unwound to judge the owner rules
 * @lookups: verdict cache misses, each one symbol formatted
 *
 * Per CPU, so that the fault path writes no cache line another CPU
 * writes too; written with interrupts off (or by one instruction).
 */
struct pks_legit_stats {
	u64 rules[PKS_RULE_NR][PKS_GRANT_KINDS];
	u64 refills;
	u64 spurious;
	u64 frames;
	u64 lookups;
};

static DEFINE_PER_CPU(struct pks_legit_stats, pks_legit_stats);
static bool pks_grants_armed, pks_grants_on;

/* Only the control of the irq-strays test turns this off (pks_testing.h). */
static bool pks_legit_context_enforced = true;

/*
 * irq-strays: its control restores what this file did before the
 * contexts were told apart: the held rule for a hard interrupt too, and
 * no cut at the interrupt boundary (the interrupted context's frames
 * count, with room for them past the handler's own).
 */
void pks_legit_context_enforce(bool on)
{
	WRITE_ONCE(pks_legit_context_enforced, on);
}
EXPORT_SYMBOL_NS_GPL(pks_legit_context_enforce, PKS_TEST_NS);

/*
 * Whether the page of @address is held by a reference beyond the one its
 * pagemap keeps. A 2 MiB device-dax page counts as one, at its head.
 */
static bool pks_page_held(unsigned long address)
{
#ifdef PKS_DAX_MAPS_HOLD_REFS
	struct folio *folio;
	int refs;

	if (!virt_addr_valid(address))
		return false;
	folio = page_folio(virt_to_page((void *)address));
	/*
	 * Newer kernels (6.15 on) pair every page-table mapping of a DAX
	 * folio with a reference, and an idle fsdax folio holds none (an
	 * idle device-dax one still holds its pagemap's): what is held for
	 * I/O is what the mappings do not account for. fs/dax.c tells an
	 * idle page by its count the same way (dax_page_is_idle()).
	 */
	refs = folio_ref_count(folio) - folio_mapcount(folio);
	return refs > (folio_is_fsdax(folio) ? 0 : 1);
#else
	struct page *page;

	if (!virt_addr_valid(address))
		return false;
	page = compound_head(virt_to_page((void *)address));
	return page_ref_count(page) > 1;
#endif
}

/*
 * A verdict on code that is no owner's but copies or fills memory for its
 * caller (memcpy, copy_mc_to_kernel, the iov_iter copies, a cache
 * write-back): the owner rules look through it to the function that
 * called it, and stop at any other code.
 */
#define PKS_VERDICT_BRIDGE	(-2)

/*
 * The kernel's copy and fill routines, by name prefix (lib/, arch/x86/lib/
 * and lib/iov_iter.c name them so on both kernels); what they copy is
 * their caller's business, so a stray through one is judged by its
 * caller. Matching too wide here admits nothing by itself: the first
 * other function must still be the owner's.
 */
static const char *const pks_bridge_prefixes[] = {
	"mem", "__mem", "copy_", "_copy_", "__copy_", "rep_movs",
	"rep_stos", "arch_wb_cache_pmem", "clean_cache_range",
};

/*
 * Which owner's code @addr lies in, by its name: a rule, -1 or
 * PKS_VERDICT_BRIDGE.
 */
static int pks_owner_by_name(unsigned long addr, char *sym)
{
	const char *mod;
	int i;

	sprint_symbol(sym, addr);
	mod = strchr(sym, '[');
	if (mod)
		return strncmp(mod, "[nd_pmem]", 9) ? -1 : PKS_RULE_PMEM;
	/*
	 * fs/dax.c and drivers/dax/super.c: built in, named dax_*, but for
	 * the copy of a private write fault's page.
	 */
	if (!strncmp(sym, "dax_", 4) || !strncmp(sym, "__dax_", 6) ||
	    !strncmp(sym, "copy_cow_page_dax", 17))
		return PKS_RULE_DAX;
	for (i = 0; i < ARRAY_SIZE(pks_bridge_prefixes); i++)
		if (!strncmp(sym, pks_bridge_prefixes[i],
			     strlen(pks_bridge_prefixes[i])))
			return PKS_VERDICT_BRIDGE;
	return -1;
}

/*
 * The owner verdicts, per CPU: a cache keyed by code address, so that
 * the fault path formats no symbol once the paths that fault have been
 * seen (a symbol's name is what tells the owners apart: fs/dax.c has no
 * section or range of its own, and nd_pmem's text moves with each load).
 * Two ways per set, the newest first, so that two addresses of one path
 * that hash alike do not evict each other on every fault. An entry is
 * valid for the module generation it was filled in: a module coming or
 * going bumps it, since one unloaded may leave its addresses to the next
 * one loaded. The name buffer is per CPU too, not on the faulting stack:
 * the fault path runs with interrupts off, and an NMI never judges an
 * owner, so nothing else uses it meanwhile.
 */
#define PKS_VERDICT_BITS	7
#define PKS_VERDICT_WAYS	2

struct pks_verdict {
	unsigned long addr;
	unsigned int gen;
	int rule;
};

struct pks_verdicts {
	struct pks_verdict set[1 << PKS_VERDICT_BITS][PKS_VERDICT_WAYS];
	char sym[KSYM_SYMBOL_LEN];
};

/* Allocated at load: the static per-CPU room of modules is small. */
static struct pks_verdicts __percpu *pks_verdicts;
static atomic_t pks_code_gen = ATOMIC_INIT(1);
/* Without the module notifier, no verdict is kept: each one is looked up. */
static bool pks_verdicts_kept;

static int pks_module_event(struct notifier_block *nb, unsigned long state,
			    void *data)
{
	if (state == MODULE_STATE_COMING || state == MODULE_STATE_GOING)
		atomic_inc(&pks_code_gen);
	return NOTIFY_DONE;
}

static struct notifier_block pks_module_nb = {
	.notifier_call = pks_module_event,
};

static int pks_owner_of(unsigned long addr, struct pks_legit_stats *st)
{
	struct pks_verdicts *vs = this_cpu_ptr(pks_verdicts);
	struct pks_verdict *set = vs->set[hash_long(addr, PKS_VERDICT_BITS)];
	/* Read before the lookup: a module event during it voids the entry. */
	unsigned int gen = atomic_read(&pks_code_gen);
	bool kept = READ_ONCE(pks_verdicts_kept);
	int way, rule;

	for (way = 0; kept && way < PKS_VERDICT_WAYS; way++)
		if (set[way].addr == addr && set[way].gen == gen)
			return set[way].rule;
	st->lookups++;
	rule = pks_owner_by_name(addr, vs->sym);
	memmove(&set[1], &set[0], (PKS_VERDICT_WAYS - 1) * sizeof(*set));
	set[0].addr = addr;
	set[0].gen = gen;
	set[0].rule = rule;
	return rule;
}

/* Whether @addr is interrupt or softirq entry code (filter_irq_stacks()). */
static bool pks_irq_entry(unsigned long addr)
{
	unsigned long pair[2] = { addr, 0 };

	/* It cuts after the first entry address: 1 if @addr is one. */
	return filter_irq_stacks(pair, 2) == 1;
}

/*
 * The owner of the faulting context's code: the faulting instruction's,
 * or else its caller's when the instruction is in a copy routine (a
 * bridge), and so on up the callers, up to PKS_OWNER_FRAMES of them,
 * unwound one at a time. The first function that is neither a bridge nor
 * the owner's ends the search: a file system's block allocation, journal
 * or extent code that dax_iomap_rw() calls back is no owner, however
 * close it runs to the DAX layer. The unwind starts from the fault's
 * registers, so no frame of the fault handler's is read
 * (stack_trace_save_regs() would do the same, but neither kernel exports
 * it; __unwind_start() and unwind_next_frame() are exported on both). It
 * stops at the context's entry: an entry frame (pt_regs saved by an
 * interrupt, exception or system call: past it lie the frames of the
 * context it interrupted), or entry code, which filter_irq_stacks() knows
 * (hard interrupt entry, and __do_softirq(), which has no entry frame
 * when local_bh_enable() runs softirqs). With @strict false (the test's
 * control) it judges as before ba5b4f9's review: any owner among the
 * callers, past other code and the context's entry, twice as far.
 *
 * Return: an enum pks_rule_id, or -1.
 */
static int pks_context_owner(struct pt_regs *fregs, bool strict,
			     struct pks_legit_stats *st)
{
	unsigned int nr = 0, max = strict ? PKS_OWNER_FRAMES :
					     PKS_JUDGED_MAX - 1;
	struct unwind_state state;
	unsigned long ret;
	bool partial;
	int verdict;

	verdict = pks_owner_of(fregs->ip, st);
	for (unwind_start(&state, current, fregs, NULL);
	     (verdict == PKS_VERDICT_BRIDGE || (!strict && verdict < 0)) &&
	     !unwind_done(&state) && nr < max;
	     unwind_next_frame(&state)) {
		if (strict && unwind_get_entry_regs(&state, &partial))
			break;
		ret = unwind_get_return_address(&state);
		if (!ret)
			break;
		nr++;
		if (strict && pks_irq_entry(ret))
			break;
		verdict = pks_owner_of(ret, st);
	}
	st->frames += nr;
	return verdict >= 0 ? verdict : -1;
}

/**
 * pks_legit_rule() - why a fault on a protected page is legitimate
 * @address: the faulting address, in a protected namespace
 * @fregs: the fault's registers
 *
 * From the fault path, interrupts off, not in an NMI.
 *
 * Return: the enum pks_rule_id that admits the access, or -1 for a stray.
 */
int pks_legit_rule(unsigned long address, struct pt_regs *fregs)
{
	bool enforced = READ_ONCE(pks_legit_context_enforced);
	int level = interrupt_context_level();

	if (level == PKS_LEVEL_NMI)
		return -1;
	/*
	 * Who copies a held page on someone's behalf runs in a task (the
	 * system call that pinned it, a kernel thread serving a request) or
	 * in a softirq (completing a network buffer or a bio); a hard
	 * interrupt handler acknowledges its device and leaves the copying
	 * to those. So a hard interrupt's access to a held page is a stray
	 * that happened to hit a page someone else was copying (a timer's,
	 * into the page a task copies with process_vm_readv()), and is
	 * judged by the owner rules alone.
	 */
	if ((level <= PKS_LEVEL_SOFTIRQ || !enforced) &&
	    pks_page_held(address))
		return PKS_RULE_HELD;
	return pks_context_owner(fregs, enforced,
				 this_cpu_ptr(&pks_legit_stats));
}

/**
 * struct pks_grant_cpu - the task holding a grant on this CPU
 * @pn: on the task while it holds one: its switch-out ends the grant
 * @urn: on this CPU while a user task holds one: the return to user space
 *	ends it
 * @task: the task @pn is registered on, or NULL
 * @urn_on: @urn is registered
 *
 * Per CPU, not per task: a grant is only ever held by the task running on
 * the CPU, and ends before any other runs there.
 */
struct pks_grant_cpu {
	struct preempt_notifier pn;
	struct user_return_notifier urn;
	struct task_struct *task;
	bool urn_on;
};

static DEFINE_PER_CPU(struct pks_grant_cpu, pks_grant_cpu);

/*
 * Every grant on this CPU ends, a key owner's too; the task level keeps
 * @pkrs, its windows: the default as a task leaves (the next one's
 * notifier loads its own), the running task's as it returns to user
 * space (a window may stay open across system calls).
 */
static void pks_grant_end(u32 pkrs)
{
	pks_level_set_task(pkrs);
	pks_write_pkrs(pkrs);
}

/* The windows of the task that runs, without any grant. */
static u32 pks_task_windows(void)
{
	struct pks_task *t = pks_task_find();

	return t ? t->pkrs : PKS_DEFAULT_PKRS;
}

static void pks_grant_sched_in(struct preempt_notifier *pn, int cpu)
{
}

static void pks_grant_sched_out(struct preempt_notifier *pn,
				struct task_struct *next)
{
	struct pks_grant_cpu *g = container_of(pn, struct pks_grant_cpu, pn);

	pks_grant_end(PKS_DEFAULT_PKRS);
	/*
	 * The scheduler is walking this list: unlink without poisoning the
	 * next pointer. The storage is this CPU's, reused only after the
	 * switch.
	 */
	__hlist_del(&pn->link);
	g->task = NULL;
	pks_acct_add(PKS_ACCT_GRANT_STATES, -1);
}

static struct preempt_ops pks_grant_ops = {
	.sched_in = pks_grant_sched_in,
	.sched_out = pks_grant_sched_out,
};

static void pks_grant_user_return(struct user_return_notifier *urn)
{
	struct pks_grant_cpu *g = container_of(urn, struct pks_grant_cpu, urn);

	pks_grant_end(pks_task_windows());
	user_return_notifier_unregister(urn);
	g->urn_on = false;
}

/* Make the current task's grant end where it must; interrupts off. */
static void pks_grant_hold_task(void)
{
	struct pks_grant_cpu *g = this_cpu_ptr(&pks_grant_cpu);

	if (!READ_ONCE(pks_grants_on))
		return;
	if (g->task != current) {
		WARN_ON_ONCE(g->task);
		preempt_notifier_init(&g->pn, &pks_grant_ops);
		preempt_notifier_register(&g->pn);
		g->task = current;
		pks_acct_add(PKS_ACCT_GRANT_STATES, 1);
	}
	if (!(current->flags & PF_KTHREAD) && !g->urn_on) {
		g->urn.on_user_return = pks_grant_user_return;
		user_return_notifier_register(&g->urn);
		g->urn_on = true;
	}
}

/**
 * pks_grant() - open @key for the faulting context
 * @key: the key of the faulting page
 * @bits: its PKRS bits from now on (0: read-write, PKS_PKRS_WD: read)
 * @rule: why, an enum pks_rule_id, PKS_GRANT_OWNER_CB for a key owner's
 *	callback, or PKS_GRANT_RELAXED for a stray in a relaxed namespace
 *	(counted with the stray; kept, as a key owner's, until the task
 *	leaves the CPU or returns to user space, or the handler returns)
 *
 * From the fault path, interrupts off.
 *
 * Return: true when the key is open until the context's end can be seen;
 * false when the context has no end hook, or a key owner granted an
 * interrupt: then nothing was opened, and the caller lets the faulting
 * instruction alone through.
 */
bool pks_grant(int key, u32 bits, int rule)
{
	int level = interrupt_context_level();
	int kind;

	if (!READ_ONCE(pks_grants_on))
		return false;
	if (level == PKS_LEVEL_TASK) {
		pks_grant_hold_task();
		/*
		 * A key owner's grant is the task's, as upstream's callback
		 * changed the task's saved PKRS: kept across interrupts, until
		 * the task leaves the CPU or returns to user space. So is a
		 * relaxed stray's: its record wakes the log's readers through
		 * an interrupt (printk's too), whose end would end a grant not
		 * kept before the access retries, record it again, and so on.
		 */
		if (rule < 0)
			pks_level_set_key(PKS_LEVEL_TASK, key, bits);
		kind = PKS_GRANT_TASK;
	} else if (rule != PKS_GRANT_OWNER_CB && level != PKS_LEVEL_NMI &&
		   pks_level_traced(level)) {
		/* For the same reason, to the handler's end. */
		if (rule == PKS_GRANT_RELAXED)
			pks_level_set_key(level, key, bits);
		kind = level == PKS_LEVEL_SOFTIRQ ? PKS_GRANT_SOFTIRQ :
						    PKS_GRANT_HARDIRQ;
	} else {
		if (rule >= 0)
			this_cpu_inc(pks_legit_stats.rules[rule][PKS_GRANT_STEPPED]);
		return false;
	}
	pks_set_key_bits(key, bits);
	if (rule >= 0)
		this_cpu_inc(pks_legit_stats.rules[rule][kind]);
	return true;
}

/* Whether @pkrs lets @key be accessed as @write says. */
static bool pks_pkrs_allows(u32 pkrs, int key, bool write)
{
	u32 bits = pks_key_bits(key, pkrs);

	return write ? !bits : !(bits & PKS_PKRS_AD);
}

/**
 * pks_refill() - give the faulting context its windows' rights back
 * @key: the faulting key
 * @write: the access was a write
 *
 * After an NMI (which has no exit hook) a window's rights are gone from
 * the register, not from the context. Interrupts off.
 *
 * Return: true when the context's windows allow the access.
 */
bool pks_refill(int key, bool write)
{
	u32 win = pks_level_pkrs(interrupt_context_level());

	if (!pks_pkrs_allows(win, key, write))
		return false;
	pks_set_key_bits(key, pks_key_bits(key, win));
	this_cpu_inc(pks_legit_stats.refills);
	return true;
}

static DEFINE_PER_CPU(unsigned long, pks_last_spurious);

/**
 * pks_spurious() - whether a fault came from a stale TLB entry
 * @address: the faulting address
 * @key: the key its page-table entry holds now
 * @write: the access was a write
 *
 * A TLB entry carries the key it was loaded with, and a PKRS write does
 * not flush it: after a key change (protect, release) a CPU may fault on
 * the old key although the entry and PKRS now allow the access. Such a
 * fault is flushed and retried, as the kernel does for a stale read-only
 * entry. The register is written again too: an NMI may have reset it
 * behind the driver's copy. A second fault at the same address in a row
 * is not spurious.
 *
 * Return: true when the access may be retried.
 */
bool pks_spurious(unsigned long address, int key, bool write)
{
	unsigned long *last = this_cpu_ptr(&pks_last_spurious);

	if (key < 0 || !pks_pkrs_allows(pks_read_pkrs_cache(), key, write) ||
	    *last == address) {
		*last = 0;
		return false;
	}
	*last = address;
	asm volatile("invlpg (%0)" : : "r" (address) : "memory");
	pks_pkrs_lost();
	pks_write_pkrs(pks_read_pkrs_cache());
	this_cpu_inc(pks_legit_stats.spurious);
	return true;
}

/* A namespace is protected (pks_lock held): reported by PKS_IOC_GRANTS. */
void pks_grants_arm(void)
{
	WRITE_ONCE(pks_grants_armed, true);
}

void pks_grants_disarm(void)
{
	WRITE_ONCE(pks_grants_armed, false);
}

int pks_grants_init(void)
{
	pks_verdicts = alloc_percpu(struct pks_verdicts);
	if (!pks_verdicts)
		return -ENOMEM;
	/* Registration only fails on a double one: then look each one up. */
	WRITE_ONCE(pks_verdicts_kept, !register_module_notifier(&pks_module_nb));
	WRITE_ONCE(pks_grants_on, true);
	return 0;
}

/* From the IPI of pks_grants_exit(): no notifier of ours stays behind. */
static void pks_grant_drop_local(void *unused)
{
	struct pks_grant_cpu *g = this_cpu_ptr(&pks_grant_cpu);

	if (g->task) {
		preempt_notifier_unregister(&g->pn);
		g->task = NULL;
		pks_acct_add(PKS_ACCT_GRANT_STATES, -1);
	}
	if (g->urn_on) {
		user_return_notifier_unregister(&g->urn);
		g->urn_on = false;
	}
	pks_grant_end(pks_task_windows());
}

/*
 * From enable.c's CPU teardown, on the CPU going down, interrupts off,
 * just before it clears CR4.PKS there. The user-return notifier is on a
 * list of this CPU's own, left registered when the task that held the
 * grant switched out before returning to user space (the next task to
 * return to user space here fires it). Left on the list of a CPU that
 * goes offline, nothing fires it there; pks_grants_exit() would not
 * reach it either, and the CPU, back online after the module is gone,
 * would walk into freed module memory on its first return to user
 * space. No new grant can come here after this: grants answer
 * protection-key faults, and with CR4.PKS clear there are none. The
 * preempt notifier cannot be left: every task switches out of a CPU
 * that goes down, and the switch-out ends its grant.
 */
void pks_grants_cpu_down(void)
{
	pks_grant_drop_local(NULL);
}

/*
 * At unload, after every range is released (no access can need a grant
 * any more): no new grant, and none left registered on any task, on any
 * possible CPU.
 */
void pks_grants_exit(void)
{
	int cpu;

	WRITE_ONCE(pks_grants_on, false);
	/* The fault path runs with interrupts off. */
	synchronize_rcu();
	/* No CPU comes or goes in between. */
	cpus_read_lock();
	on_each_cpu(pks_grant_drop_local, NULL, 1);
	/*
	 * An offline CPU dropped its state in its teardown
	 * (pks_grants_cpu_down()). Should a notifier be there all the same,
	 * nothing walks that CPU's list while it is held offline: unlink it
	 * from here.
	 */
	for_each_possible_cpu(cpu) {
		struct pks_grant_cpu *g = per_cpu_ptr(&pks_grant_cpu, cpu);

		if (cpu_online(cpu) || !g->urn_on)
			continue;
		hlist_del(&g->urn.link);
		g->urn_on = false;
		pr_warn("cpu%u: a grant's return notifier was left while offline; removed\n",
			cpu);
	}
	cpus_read_unlock();
	if (pks_verdicts_kept)
		unregister_module_notifier(&pks_module_nb);
	WRITE_ONCE(pks_verdicts_kept, false);
	/* The probes are gone and no range is protected: nothing judges. */
	free_percpu(pks_verdicts);
	pks_verdicts = NULL;
}

/* The counts of all CPUs, into @sum. */
static void pks_legit_stats_sum(struct pks_legit_stats *sum)
{
	const u64 *c;
	u64 *t = (u64 *)sum;
	unsigned int cpu, i;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		c = (const u64 *)per_cpu_ptr(&pks_legit_stats, cpu);
		for (i = 0; i < sizeof(*sum) / sizeof(u64); i++)
			t[i] += READ_ONCE(c[i]);
	}
}

/* With @counts false (an unprivileged caller), names and hooks only. */
void pks_grants_fill(struct pks_grants *g, bool counts)
{
	struct pks_legit_stats sum;
	int r;

	g->nr_rules = PKS_RULE_NR;
	g->flags = READ_ONCE(pks_grants_armed) ? PKS_GRANTS_F_ARMED : 0;
	pks_boundary_fill(g, counts);
	if (counts)
		pks_legit_stats_sum(&sum);
	for (r = 0; r < PKS_RULE_NR; r++) {
		struct pks_rule_info *ri = &g->rules[r];

		memset(ri, 0, sizeof(*ri));
		strscpy(ri->name, pks_rule_names[r], sizeof(ri->name));
		if (!counts)
			continue;
		ri->task = sum.rules[r][PKS_GRANT_TASK];
		ri->softirq = sum.rules[r][PKS_GRANT_SOFTIRQ];
		ri->hardirq = sum.rules[r][PKS_GRANT_HARDIRQ];
		ri->stepped = sum.rules[r][PKS_GRANT_STEPPED];
	}
	if (!counts)
		return;
	g->flags |= PKS_GRANTS_F_COUNTS;
	/* The grant states are counted in accounting.c alone. */
	g->tasks_granted = pks_acct_count(PKS_ACCT_GRANT_STATES);
	g->refills = sum.refills;
	g->spurious = sum.spurious;
	g->frames_unwound = sum.frames;
	g->symbol_lookups = sum.lookups;
}
