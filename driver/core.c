// SPDX-License-Identifier: GPL-2.0
/*
 * pks: Protection Keys for Supervisor pages for stock kernels.
 *
 * Module init and exit, PKS detection and the /dev/pks misc device.
 */
#include "pks_internal.h"

#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

/*
 * Every change to the protected ranges happens with pks_lock held: the
 * registry (protect.c: listing, keying and releasing a range, its mode,
 * the buses watched), and with it placing the dax guard's probe
 * (daxguard.c) and filling the one protection-event record (log.c). The
 * fault path never takes it: it reads the registry under RCU. pks_test.ko
 * runs its cases under it through pks_run_locked(), never by name.
 */
struct mutex pks_lock = __MUTEX_INITIALIZER(pks_lock);

/**
 * pks_run_locked() - run @fn with pks_lock held
 * @fn: called with @arg; may call __pks_protect() and __pks_unprotect()
 * @arg: its argument
 *
 * For pks_test.ko, whose cases protect and unprotect ranges and need the
 * ranges to hold still while they check them.
 *
 * Return: what @fn returns, or -EINTR when a signal came while waiting.
 */
int pks_run_locked(int (*fn)(void *arg), void *arg)
{
	int rc;

	if (mutex_lock_interruptible(&pks_lock))
		return -EINTR;
	rc = fn(arg);
	mutex_unlock(&pks_lock);
	return rc;
}
EXPORT_SYMBOL_NS_GPL(pks_run_locked, PKS_TEST_NS);

/* Open files, so that "rmmod: in use" can be answered with who. */
static LIST_HEAD(pks_sessions);
static DEFINE_SPINLOCK(pks_sessions_lock);

static int pks_open(struct inode *inode, struct file *file)
{
	struct pks_session *session;

	/* Anyone may open the device: charge the memory to the opener. */
	session = kzalloc(sizeof(*session), GFP_KERNEL_ACCOUNT);
	if (!session)
		return -ENOMEM;
	session->fault_seen = pks_faults_head();
	session->holder.pid = task_tgid_nr(current);
	get_task_comm(session->holder.comm, current);
	spin_lock(&pks_sessions_lock);
	list_add_tail(&session->list, &pks_sessions);
	spin_unlock(&pks_sessions_lock);
	file->private_data = session;
	pks_acct_add(PKS_ACCT_SESSIONS, 1);
	return 0;
}

static int pks_release(struct inode *inode, struct file *file)
{
	struct pks_session *session = file->private_data;

	spin_lock(&pks_sessions_lock);
	list_del(&session->list);
	spin_unlock(&pks_sessions_lock);
	kfree(session);
	pks_acct_add(PKS_ACCT_SESSIONS, -1);
	return 0;
}

/* Copy up to @nr holders into @out; return how many files are open. */
int pks_holders_fill(struct pks_holder *out, unsigned int nr)
{
	struct pks_session *session;
	int n = 0;

	spin_lock(&pks_sessions_lock);
	list_for_each_entry(session, &pks_sessions, list) {
		if (n < nr)
			out[n] = session->holder;
		n++;
	}
	spin_unlock(&pks_sessions_lock);
	return n;
}

static __poll_t pks_poll(struct file *file, poll_table *wait)
{
	struct pks_session *session = file->private_data;

	return pks_faults_poll(file, wait, READ_ONCE(session->fault_seen));
}

static const struct file_operations pks_fops = {
	.owner = THIS_MODULE,
	.open = pks_open,
	.release = pks_release,
	.unlocked_ioctl = pks_ioctl,
	.poll = pks_poll,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice pks_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "pks",
	.fops = &pks_fops,
	/* Reading state is for everyone; ioctl.c checks each change. */
	.mode = 0644,
};

static int __init pks_init(void)
{
	int rc;

	if (!pks_cpu_supported()) {
		pr_err("this CPU has no PKS (CPUID.(EAX=7,ECX=0):ECX bit 31 is clear); not loading\n");
		return -EOPNOTSUPP;
	}
	rc = pks_enable_all();
	if (rc) {
		pr_err("cannot enable PKS on the online CPUs: %d\n", rc);
		return rc;
	}
	pks_tasks_init();
	pks_boundary_init();
	rc = pks_grants_init();
	if (rc) {
		pr_err("cannot allocate the fault path's per-CPU state\n");
		pks_boundary_exit_all();
		pks_tasks_exit();
		pks_disable_all();
		return rc;
	}
	/* The event log, before anything that publishes to it. */
	pks_log_init();
	/* Without the probe, keys and guards still work; callbacks do not. */
	pks_faults_init();
	/* Before anything is keyed: no protection-key fault WARNs. */
	pks_warnonce_init();
	pks_protect_init();
	mutex_lock(&pks_lock);
	pks_dax_guard_arm();
	mutex_unlock(&pks_lock);
	rc = misc_register(&pks_misc);
	if (rc) {
		pr_err("cannot register /dev/pks: %d\n", rc);
		pks_protect_exit();
		pks_dax_guard_exit();
		pks_warnonce_exit();
		pks_faults_exit();
		pks_log_exit();
		pks_grants_exit();
		pks_boundary_exit_all();
		pks_tasks_exit();
		pks_disable_all();
		return rc;
	}
	pr_info("PKS enabled on %u CPUs, PKRS %#x, ABI %d\n",
		num_online_cpus(), PKS_DEFAULT_PKRS, PKS_ABI_VERSION);
	return 0;
}

static void __exit pks_exit(void)
{
	misc_deregister(&pks_misc);
	/*
	 * Ranges first, while their accesses are still judged and granted:
	 * nothing here takes a module reference, so a module that is
	 * already going keeps granting until no page is keyed any more.
	 */
	pks_protect_exit();
	pks_brackets_exit();
	pks_dax_guard_exit();
	/* Nothing is keyed any more: the stock WARN may be armed again. */
	pks_warnonce_exit();
	pks_faults_exit();
	/* After the probes and the ranges, the last to publish. */
	pks_log_exit();
	pks_grants_exit();
	pks_boundary_exit_all();
	pks_tasks_exit();
	pks_disable_all();
	pks_acct_report();
	pr_info("PKS disabled\n");
}

module_init(pks_init);
module_exit(pks_exit);

MODULE_DESCRIPTION("Protection Keys for Supervisor pages for stock kernels");
MODULE_LICENSE("GPL");
MODULE_VERSION(PKS_VERSION);
