// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel paths that touch protected memory on a user's behalf. ptrace,
 * /proc/PID/mem, process_vm_*(), pipes fed by vmsplice(), core dumps,
 * io_uring fixed buffers and O_DIRECT to a CPU-copying block driver all
 * reach user pages through the direct map with no window: on a stock
 * kernel kmap_local_page() is page_address(). Upstream's series opened the
 * page's key in kmap; here, while a namespace is protected, a kretprobe on
 * each path's entry marks the calling task as inside that path, and a
 * protection-key fault the task takes on a protected namespace during the
 * call opens that namespace's key for the task alone (its per-task state)
 * and retries the access. The call's return closes what it opened.
 *
 * So a grant covers only the keys a call actually touches, only for the
 * task making it (an io_uring worker running the request is such a task),
 * and only until the call returns. Interrupts, other tasks and kernel
 * threads outside these calls are refused as before.
 */
#include "pks_internal.h"

#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/mutex.h>
#include <linux/ratelimit.h>

/**
 * struct pks_path - counters of one granted kernel path
 * @calls: entries into its functions while armed
 * @grants: keys opened for a task inside them
 * @late: of those, grants to a call whose entry was not seen, held by
 *	the task until it returns to user space (see pks_grant_late())
 */
struct pks_path {
	atomic64_t calls;
	atomic64_t grants;
	atomic64_t late;
};

#define ___PKS_P(id, name) name
static const char *const pks_path_names[] = PKS_GRANT_PATHS;
#undef ___PKS_P

static struct pks_path pks_paths[PKS_PATH_NR];

/**
 * struct pks_path_probe - one probed function
 * @krp: its kretprobe
 * @path: the enum pks_path_id it belongs to
 * @registered: register_kretprobe() succeeded
 * @warned: its absence was reported once
 * @start: the function's first byte, once registered
 * @end: the byte after its last
 */
struct pks_path_probe {
	struct kretprobe krp;
	int path;
	bool registered;
	bool warned;
	unsigned long start;
	unsigned long end;
};

/**
 * struct pks_path_call - one call in flight, in the kretprobe instance
 * @own: task state for a task that held none
 * @task: the task state in use
 * @pkrs: the task's PKRS at entry
 * @granted: its grant mask at entry
 * @gen: the revocation generation at entry
 * @path: the task's path at entry
 */
struct pks_path_call {
	struct pks_task own;
	struct pks_task *task;
	u32 pkrs;
	u32 granted;
	unsigned int gen;
	int path;
};

static int pks_path_entry(struct kretprobe_instance *ri, struct pt_regs *regs);
static int pks_path_return(struct kretprobe_instance *ri,
			   struct pt_regs *regs);

/* Blocking calls (a pipe read) hold an instance while they sleep. */
#define PKS_PATH_MAXACTIVE	256

#define PKS_PROBE(sym, id) {						\
	.krp = {							\
		.kp.symbol_name = sym,					\
		.entry_handler = pks_path_entry,			\
		.handler = pks_path_return,				\
		.data_size = sizeof(struct pks_path_call),		\
		.maxactive = PKS_PATH_MAXACTIVE,			\
	},								\
	.path = PKS_PATH_##id,						\
}

static struct pks_path_probe pks_path_probes[] = {
	PKS_PROBE("ptrace_access_vm", PTRACE),
	PKS_PROBE("access_remote_vm", REMOTE_VM),
	PKS_PROBE("access_process_vm", REMOTE_VM),
	PKS_PROBE("__x64_sys_process_vm_readv", PROCESS_VM),
	PKS_PROBE("__x64_sys_process_vm_writev", PROCESS_VM),
	PKS_PROBE("pipe_read", PIPE),
	PKS_PROBE("iter_file_splice_write", PIPE),
	PKS_PROBE("dump_user_range", COREDUMP),
	PKS_PROBE("io_read", IO_URING),
	PKS_PROBE("io_write", IO_URING),
	PKS_PROBE("blkdev_read_iter", BLOCK_DIRECT),
	PKS_PROBE("blkdev_write_iter", BLOCK_DIRECT),
	/* fs/dax.c: file data, page-fault copies, zeroing, flushes, reflink. */
	PKS_PROBE("dax_iomap_rw", FSDAX),
	PKS_PROBE("dax_iomap_fault", FSDAX),
	PKS_PROBE("dax_writeback_mapping_range", FSDAX),
	PKS_PROBE("dax_zero_range", FSDAX),
	PKS_PROBE("dax_truncate_page", FSDAX),
	PKS_PROBE("dax_remap_file_range_prep", FSDAX),
	/* The pmem driver's own block I/O (filesystem metadata, journals). */
	PKS_PROBE("pmem_submit_bio", PMEM_BLOCK),
	/* A loop device's worker copying its requests' pages to the file. */
	PKS_PROBE("loop_process_work", LOOP),
};

/*
 * pks_grants_lock guards arming: probes are registered the first time a
 * namespace is protected, disabled when none is, enabled again later, and
 * unregistered at unload. A disabled kretprobe still runs the return
 * handler of calls in flight, so no task is left holding a grant.
 */
static DEFINE_MUTEX(pks_grants_lock);
static bool pks_grants_armed, pks_grants_placed;

static int pks_path_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct pks_path_probe *pp = container_of(get_kretprobe(ri),
						 struct pks_path_probe, krp);
	struct pks_path_call *c = (struct pks_path_call *)ri->data;
	struct pks_task *t;

	if (!in_task())
		return 1;
	t = pks_task_get(&c->own);
	if (!t)
		return 1;
	c->task = t;
	c->pkrs = t->pkrs;
	c->granted = t->granted;
	c->gen = t->gen;
	c->path = t->path;
	/* A nested call stays credited to the outermost path. */
	if (t->path < 0)
		t->path = pp->path;
	atomic64_inc(&pks_paths[pp->path].calls);
	return 0;
}

static int pks_path_return(struct kretprobe_instance *ri,
			   struct pt_regs *regs)
{
	struct pks_path_call *c = (struct pks_path_call *)ri->data;
	struct pks_task *t = c->task;

	t->path = c->path;
	/* Close what this call opened; keep what an outer holder had. */
	pks_task_restore(t, c->pkrs, c->granted, c->gen);
	pks_task_put(t);
	return 0;
}

/**
 * pks_grant_fault() - grant a protection-key fault on a protected namespace
 * @key: the namespace's key
 * @write: the access was a write
 *
 * Called by the fault path, in the faulting context.
 *
 * Return: true when the current task is inside a granted path and now
 * holds @key, so the access may be retried.
 */
bool pks_grant_fault(int key, bool write)
{
	struct pks_task *t = pks_task_find();

	if (!t || t->path < 0 || !pks_task_grant(t, key, write))
		return false;
	atomic64_inc(&pks_paths[t->path].grants);
	return true;
}

/* Where @pp's function lies, from its symbol's size ("name+0x0/0x1f0"). */
static void pks_path_probe_span(struct pks_path_probe *pp)
{
	unsigned long start = (unsigned long)pp->krp.kp.addr, size = 0;
	char sym[KSYM_SYMBOL_LEN];
	const char *slash;

	sprint_symbol(sym, start);
	slash = strchr(sym, '/');
	if (!slash || sscanf(slash + 1, "%lx", &size) != 1)
		size = 0;
	WRITE_ONCE(pp->start, start);
	WRITE_ONCE(pp->end, start + size);
}

/**
 * pks_grant_late() - whether a fault comes from inside a granted path
 *	whose entry the probes did not see
 * @ip: the faulting instruction
 * @frames: the faulting context's return addresses, innermost first
 * @nr: how many
 *
 * A call already running when the probes were armed (a pipe read asleep
 * since before the first protection, a block write in flight while it was
 * keyed), or one that found every probe instance busy, holds no grant:
 * its fault would oops a legitimate access. Its stack still says where it
 * is, so the caller grants the key to the task, as a fault callback's
 * grant: until it returns to user space, or for a kernel thread until it
 * next leaves the CPU (a later fault in the same call is granted again).
 *
 * Return: true when @ip or a frame lies in a probed function.
 */
bool pks_grant_late(unsigned long ip, const unsigned long *frames,
		    unsigned int nr)
{
	static DEFINE_RATELIMIT_STATE(rs, 5 * HZ, 1);
	unsigned int i, j;

	if (!in_task() || !READ_ONCE(pks_grants_armed))
		return false;
	for (i = 0; i <= nr; i++) {
		unsigned long a = i ? frames[i - 1] : ip;

		for (j = 0; j < ARRAY_SIZE(pks_path_probes); j++) {
			struct pks_path_probe *pp = &pks_path_probes[j];

			if (!READ_ONCE(pp->registered) ||
			    kprobe_gone(&pp->krp.kp) ||
			    a < READ_ONCE(pp->start) || a >= READ_ONCE(pp->end))
				continue;
			atomic64_inc(&pks_paths[pp->path].grants);
			atomic64_inc(&pks_paths[pp->path].late);
			if (__ratelimit(&rs))
				pr_info("%s: a call already inside %s when protection started was let through\n",
					pks_path_names[pp->path],
					pp->krp.kp.symbol_name);
			return true;
		}
	}
	return false;
}

/*
 * Place or enable the probes; called with pks_lock held on every protect.
 * A probe whose function was missing (in a module not loaded yet, such as
 * loop) is tried again each time.
 */
void pks_grants_arm(void)
{
	size_t i;
	int rc;

	mutex_lock(&pks_grants_lock);
	for (i = 0; i < ARRAY_SIZE(pks_path_probes); i++) {
		struct pks_path_probe *pp = &pks_path_probes[i];

		if (pp->registered) {
			if (!pks_grants_armed)
				enable_kretprobe(&pp->krp);
			continue;
		}
		rc = register_kretprobe(&pp->krp);
		if (!rc)
			pks_path_probe_span(pp);
		pp->registered = !rc;
		pks_acct_add(PKS_ACCT_PROBES, pp->registered);
		if (rc && !pp->warned)
			pr_warn("cannot probe %s (%d): %s accesses to protected namespaces will fault\n",
				pp->krp.kp.symbol_name, rc,
				pks_path_names[pp->path]);
		pp->warned |= !!rc;
		/* A new probe starts enabled; match the others if disarmed. */
		if (!rc && pks_grants_placed && !pks_grants_armed)
			enable_kretprobe(&pp->krp);
	}
	pks_grants_placed = true;
	pks_grants_armed = true;
	mutex_unlock(&pks_grants_lock);
}

/* No namespace is protected: stop probing. */
void pks_grants_disarm(void)
{
	size_t i;

	mutex_lock(&pks_grants_lock);
	for (i = 0; pks_grants_armed && i < ARRAY_SIZE(pks_path_probes); i++)
		if (pks_path_probes[i].registered)
			disable_kretprobe(&pks_path_probes[i].krp);
	pks_grants_armed = false;
	mutex_unlock(&pks_grants_lock);
}

void pks_grants_exit(void)
{
	size_t i;

	mutex_lock(&pks_grants_lock);
	for (i = 0; i < ARRAY_SIZE(pks_path_probes); i++) {
		if (pks_path_probes[i].registered) {
			unregister_kretprobe(&pks_path_probes[i].krp);
			pks_acct_add(PKS_ACCT_PROBES, -1);
		}
		pks_path_probes[i].registered = false;
	}
	pks_grants_armed = pks_grants_placed = false;
	mutex_unlock(&pks_grants_lock);
}

void pks_grants_fill(struct pks_grants *g)
{
	size_t i;
	int p;

	mutex_lock(&pks_grants_lock);
	g->nr_paths = PKS_PATH_NR;
	g->flags = pks_grants_armed ? PKS_GRANTS_F_ARMED : 0;
	g->tasks_attached = pks_tasks_attached_count();
	for (p = 0; p < PKS_PATH_NR; p++) {
		struct pks_path_info *pi = &g->paths[p];

		memset(pi, 0, sizeof(*pi));
		strscpy(pi->name, pks_path_names[p], sizeof(pi->name));
		pi->calls = atomic64_read(&pks_paths[p].calls);
		pi->grants = atomic64_read(&pks_paths[p].grants);
		pi->late = atomic64_read(&pks_paths[p].late);
	}
	for (i = 0; i < ARRAY_SIZE(pks_path_probes); i++) {
		struct pks_path_probe *pp = &pks_path_probes[i];
		struct pks_path_info *pi = &g->paths[pp->path];

		pi->functions++;
		if (pp->registered) {
			pi->probed++;
			pi->missed += pp->krp.nmissed;
		}
	}
	mutex_unlock(&pks_grants_lock);
}
