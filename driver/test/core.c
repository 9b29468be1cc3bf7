// SPDX-License-Identifier: GPL-2.0
/*
 * pks_test: the test module. It holds what a production machine must not
 * load: the built-in test cases, stray-access injection, the crash case,
 * the benchmark (all on /dev/pks-test), and upstream's selftest interface
 * (run_pks). It uses only what pks.ko exports: the kernel API of
 * pks_api.h and the test-only symbols of pks_testing.h.
 */
#include "test.h"

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

static long pks_test_ioctl_run(struct pks_test_session *session,
			       void __user *argp)
{
	struct pks_test_run run;
	long rc;

	if (copy_from_user(&run, argp, sizeof(run)))
		return -EFAULT;
	if (run.size != sizeof(run) || run.rsvd)
		return -EINVAL;
	memset(run.message, 0, sizeof(run.message));
	rc = pks_test_run(session, &run);
	if (rc && rc != -EBUSY)
		return rc;
	/* -EBUSY still reports which key is held, in the message. */
	if (copy_to_user(argp, &run, sizeof(run)))
		return -EFAULT;
	return rc;
}

static long pks_test_ioctl_stray(void __user *argp)
{
	struct pks_copy acc;
	long rc;

	if (copy_from_user(&acc, argp, sizeof(acc)))
		return -EFAULT;
	if (acc.size != sizeof(acc))
		return -EINVAL;
	rc = pks_stray_access(&acc);
	if (copy_to_user(argp, &acc, sizeof(acc)))
		return -EFAULT;
	return rc;
}

/*
 * The requests that are one struct, in and out, led by its size: each is
 * read, its size checked, run, and written back (when the command reads).
 */
union pks_test_req {
	__u32 size;
	struct pks_bench bench;
	struct pks_irq_strays irq_strays;
	struct pks_v10_price v10_price;
	struct pks_fs_strays fs_strays;
	struct pks_ipmodify ipmodify;
	struct pks_grant_carry grant_carry;
};

static long pks_test_ioctl_req(unsigned int cmd, void __user *argp)
{
	union pks_test_req req;
	size_t len = _IOC_SIZE(cmd);
	long rc;

	if (len > sizeof(req))
		return -ENOTTY;
	if (copy_from_user(&req, argp, len))
		return -EFAULT;
	if (req.size != len)
		return -EINVAL;
	switch (cmd) {
	case PKS_TEST_IOC_BENCH:
		rc = pks_bench_run(&req.bench);
		break;
	case PKS_TEST_IOC_IRQ_STRAYS:
		rc = pks_irq_strays(&req.irq_strays);
		break;
	case PKS_TEST_IOC_V10_PRICE:
		rc = pks_v10_price(&req.v10_price);
		break;
	case PKS_TEST_IOC_FS_STRAYS:
		rc = pks_fs_strays(&req.fs_strays);
		break;
	case PKS_TEST_IOC_IPMODIFY:
		if (req.ipmodify.rsvd ||
		    !memchr(req.ipmodify.function, '\0',
			    sizeof(req.ipmodify.function)))
			return -EINVAL;
		rc = pks_ipmodify_try(&req.ipmodify);
		break;
	case PKS_TEST_IOC_GRANT_CARRY:
		rc = pks_grant_carry(&req.grant_carry);
		break;
	default:
		return -ENOTTY;
	}
	if (!rc && (_IOC_DIR(cmd) & _IOC_READ) && copy_to_user(argp, &req, len))
		rc = -EFAULT;
	return rc;
}

static long pks_test_ioctl(struct file *file, unsigned int cmd,
			   unsigned long arg)
{
	void __user *argp = (void __user *)arg;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;

	switch (cmd) {
	case PKS_TEST_IOC_RUN:
		return pks_test_ioctl_run(file->private_data, argp);
	case PKS_TEST_IOC_STRAY:
		return pks_test_ioctl_stray(argp);
	case PKS_TEST_IOC_BRACKETS:
		if (arg > 1)
			return -EINVAL;
		pks_brackets_enable(arg);
		return 0;
	case PKS_TEST_IOC_BENCH:
	case PKS_TEST_IOC_IRQ_STRAYS:
	case PKS_TEST_IOC_V10_PRICE:
	case PKS_TEST_IOC_FS_STRAYS:
	case PKS_TEST_IOC_IPMODIFY:
	case PKS_TEST_IOC_GRANT_CARRY:
		return pks_test_ioctl_req(cmd, argp);
	default:
		return -ENOTTY;
	}
}

static int pks_test_open(struct inode *inode, struct file *file)
{
	struct pks_test_session *session;

	session = kzalloc(sizeof(*session), GFP_KERNEL);
	if (!session)
		return -ENOMEM;
	file->private_data = session;
	return 0;
}

static int pks_test_release(struct inode *inode, struct file *file)
{
	struct pks_test_session *session = file->private_data;

	pks_test_page_free(&session->crash_page);
	kfree(session);
	return 0;
}

static const struct file_operations pks_test_fops = {
	.owner = THIS_MODULE,
	.open = pks_test_open,
	.release = pks_test_release,
	.unlocked_ioctl = pks_test_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice pks_test_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "pks-test",
	.fops = &pks_test_fops,
	.mode = 0600,
};

static int __init pks_test_init(void)
{
	int rc;

	pks_upstream_init();
	rc = misc_register(&pks_test_misc);
	if (rc) {
		pr_err("cannot register /dev/pks-test: %d\n", rc);
		pks_upstream_exit();
		return rc;
	}
	pr_warn("test module loaded: /dev/pks-test can write protected memory; do not load it in production\n");
	return 0;
}

static void __exit pks_test_exit(void)
{
	misc_deregister(&pks_test_misc);
	pks_v10_exit();
	pks_fs_strays_exit();
	pks_upstream_exit();
}

module_init(pks_test_init);
module_exit(pks_test_exit);

MODULE_DESCRIPTION("Tests for the pks driver: built-in cases, stray accesses, benchmark, upstream's run_pks");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(PKS_TEST_NS);
