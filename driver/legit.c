// SPDX-License-Identifier: GPL-2.0
/*
 * Which kernel accesses to protected pmem are legitimate, decided when
 * they fault, not by a list of kernel functions.
 *
 * On a stock kernel kmap_local_page() is page_address(), so the kernel
 * reaches protected pages through the keyed direct map in two ways only:
 *
 * - On someone's behalf, through a reference to the page: a GUP pin
 *   (ptrace, /proc/PID/mem, process_vm_*, O_DIRECT, io_uring, FUSE,
 *   MSG_ZEROCOPY), a pipe buffer (vmsplice, splice), a bio. Whoever copies
 *   holds a reference, so the page's count is above the one its pagemap
 *   keeps: fs/dax.c's dax_busy_page() calls such a page busy by the same
 *   test. The "held-page" rule.
 * - As the namespace's owner: the kernel's DAX code (fs/dax.c, the dax
 *   core) for file data, or the pmem block driver (nd_pmem) for block
 *   I/O, close to the faulting instruction on the stack. The "dax-layer"
 *   and "pmem-driver" rules.
 *
 * Anything else, a write through a stray pointer into a page nobody holds,
 * is refused. What the rules cannot tell apart: a stray into a page that
 * is held at that moment (pinned for I/O, or registered as an io_uring or
 * RDMA buffer), and a stray made by code that the owner calls within
 * PKS_OWNER_FRAMES frames (a bio's end_io under the pmem driver).
 *
 * A grant opens the key (read-only for a read) for the context that
 * faulted and no other: a task keeps it until it is interrupted, leaves
 * the CPU or returns to user space; a softirq or a hard interrupt handler
 * until its traced handler ends (boundary.c). Where no end can be hooked
 * (an NMI, interrupt code outside a traced handler) the faulting
 * instruction alone is single-stepped with the key open. Nothing is kept
 * per task: the next access after a boundary faults and is judged again.
 */
#include "pks_internal.h"

#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/kallsyms.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/user-return-notifier.h>

/* How close to the faulting instruction the owner's code must be. */
#define PKS_OWNER_FRAMES	8

#define ___PKS_P(id, name) name
static const char *const pks_rule_names[] = PKS_GRANT_RULES;
#undef ___PKS_P

/* Indexed by enum pks_rule_id and enum pks_grant_kind. */
static atomic64_t pks_rule_counts[PKS_RULE_NR][PKS_GRANT_KINDS];
static atomic64_t pks_refills = ATOMIC64_INIT(0);
static atomic64_t pks_spurious_count = ATOMIC64_INIT(0);
static bool pks_grants_armed, pks_grants_on;

/*
 * Whether the page of @address is held by a reference beyond the one its
 * pagemap keeps. A 2 MiB device-dax page counts as one, at its head.
 */
static bool pks_page_held(unsigned long address)
{
	struct page *page;

	if (!virt_addr_valid(address))
		return false;
	page = compound_head(virt_to_page((void *)address));
	return page_ref_count(page) > 1;
}

/* Which owner's code @addr lies in: a rule, or -1. */
static int pks_owner_of(unsigned long addr)
{
	char sym[KSYM_SYMBOL_LEN];
	const char *mod;

	sprint_symbol(sym, addr);
	mod = strchr(sym, '[');
	if (mod)
		return strncmp(mod, "[nd_pmem]", 9) ? -1 : PKS_RULE_PMEM;
	/* fs/dax.c and drivers/dax/super.c: built in, all named dax_*. */
	if (!strncmp(sym, "dax_", 4) || !strncmp(sym, "__dax_", 6))
		return PKS_RULE_DAX;
	return -1;
}

/**
 * pks_legit_rule() - why a fault on a protected page is legitimate
 * @address: the faulting address, in a protected namespace
 * @ip: the faulting instruction
 * @frames: the faulting context's callers, innermost first
 * @nr: how many
 *
 * Return: the enum pks_rule_id that admits the access, or -1 for a stray.
 */
int pks_legit_rule(unsigned long address, unsigned long ip,
		   const unsigned long *frames, unsigned int nr)
{
	unsigned int i;
	int rule;

	if (pks_page_held(address))
		return PKS_RULE_HELD;
	rule = pks_owner_of(ip);
	for (i = 0; rule < 0 && i < nr && i < PKS_OWNER_FRAMES; i++)
		rule = pks_owner_of(frames[i]);
	return rule;
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
void pks_grant_hold_task(void)
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
 * @rule: why, an enum pks_rule_id, or -1 for a key owner's callback
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
		 * the task leaves the CPU or returns to user space.
		 */
		if (rule < 0)
			pks_level_set_key(PKS_LEVEL_TASK, key, bits);
		kind = PKS_GRANT_TASK;
	} else if (rule >= 0 && level != PKS_LEVEL_NMI &&
		   pks_level_traced(level)) {
		kind = level == PKS_LEVEL_SOFTIRQ ? PKS_GRANT_SOFTIRQ :
						    PKS_GRANT_HARDIRQ;
	} else {
		if (rule >= 0)
			atomic64_inc(&pks_rule_counts[rule][PKS_GRANT_STEPPED]);
		return false;
	}
	pks_set_key_bits(key, bits);
	if (rule >= 0)
		atomic64_inc(&pks_rule_counts[rule][kind]);
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
	atomic64_inc(&pks_refills);
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
	atomic64_inc(&pks_spurious_count);
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

void pks_grants_init(void)
{
	WRITE_ONCE(pks_grants_on, true);
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
}

/* With @counts false (an unprivileged caller), names and hooks only. */
void pks_grants_fill(struct pks_grants *g, bool counts)
{
	int r;

	g->nr_rules = PKS_RULE_NR;
	g->flags = READ_ONCE(pks_grants_armed) ? PKS_GRANTS_F_ARMED : 0;
	pks_boundary_fill(g, counts);
	for (r = 0; r < PKS_RULE_NR; r++) {
		struct pks_rule_info *ri = &g->rules[r];

		memset(ri, 0, sizeof(*ri));
		strscpy(ri->name, pks_rule_names[r], sizeof(ri->name));
		if (!counts)
			continue;
		ri->task = atomic64_read(&pks_rule_counts[r][PKS_GRANT_TASK]);
		ri->softirq =
			atomic64_read(&pks_rule_counts[r][PKS_GRANT_SOFTIRQ]);
		ri->hardirq =
			atomic64_read(&pks_rule_counts[r][PKS_GRANT_HARDIRQ]);
		ri->stepped =
			atomic64_read(&pks_rule_counts[r][PKS_GRANT_STEPPED]);
	}
	if (!counts)
		return;
	g->flags |= PKS_GRANTS_F_COUNTS;
	/* The grant states are counted in accounting.c alone. */
	g->tasks_granted = pks_acct_count(PKS_ACCT_GRANT_STATES);
	g->refills = atomic64_read(&pks_refills);
	g->spurious = atomic64_read(&pks_spurious_count);
}
