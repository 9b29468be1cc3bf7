// SPDX-License-Identifier: GPL-2.0
/*
 * The /dev/pks ioctl front end: copy in, check, act, copy out.
 */
#include "pks_internal.h"

#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

static long pks_ioctl_get_info(void __user *argp)
{
	struct pks_cpu_info __user *ucpus;
	struct pks_cpu_info cpu_info;
	struct pks_info *info;
	unsigned int cpu, n = 0;
	long rc = 0;

	info = kzalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return -ENOMEM;
	if (copy_from_user(info, argp, sizeof(*info))) {
		rc = -EFAULT;
		goto out;
	}
	if (info->size != sizeof(*info) || info->rsvd) {
		rc = -EINVAL;
		goto out;
	}

	ucpus = u64_to_user_ptr(info->cpus);
	if (info->nr_cpus && ucpus) {
		for_each_possible_cpu(cpu) {
			if (n == info->nr_cpus)
				break;
			pks_fill_cpu_info(cpu, &cpu_info);
			if (copy_to_user(&ucpus[n++], &cpu_info,
					 sizeof(cpu_info))) {
				rc = -EFAULT;
				goto out;
			}
		}
	}
	info->abi_version = PKS_ABI_VERSION;
	info->flags = PKS_INFO_F_ENABLED;
	if (pks_faults_active())
		info->flags |= PKS_INFO_F_FAULT_HOOK;
	info->default_pkrs = PKS_DEFAULT_PKRS;
	info->nr_cpus = num_possible_cpus();
	pks_fill_key_info(info->keys);
	if (copy_to_user(argp, info, sizeof(*info)))
		rc = -EFAULT;
out:
	kfree(info);
	return rc;
}

static long pks_ioctl_run_test(struct pks_session *session,
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

long pks_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	void __user *argp = (void __user *)arg;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;

	switch (cmd) {
	case PKS_IOC_GET_INFO:
		return pks_ioctl_get_info(argp);
	case PKS_IOC_RUN_TEST:
		return pks_ioctl_run_test(file->private_data, argp);
	default:
		return -ENOTTY;
	}
}
