// SPDX-License-Identifier: GPL-2.0
/*
 * The /dev/pks ioctl front end: copy in, check, act, copy out.
 */
#include "pks_internal.h"

#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

/*
 * Registers, PKRS counters and grant counts tell what other users'
 * accesses do, and reading the registers interrupts every CPU: both only
 * for an opener with CAP_SYS_ADMIN. So are who has the device open (pids
 * and names that hidepid may hide from the caller in /proc) and the event
 * log's records (the pid, name and code of whatever strayed, and who
 * protected what). Anyone may learn whether PKS is on, the keys in use,
 * the protected namespaces and how many strays and open files there are.
 * Judged on who opened the file, as for any credential on an fd.
 */
static bool pks_may_see_activity(struct file *file)
{
	return file_ns_capable(file, &init_user_ns, CAP_SYS_ADMIN);
}

static long pks_ioctl_get_info(struct file *file, void __user *argp)
{
	bool live = pks_may_see_activity(file);
	struct pks_info __user *uinfo = argp;
	struct pks_cpu_info __user *ucpus;
	struct pks_cpu_info cpu_info;
	struct pks_info *info;
	unsigned int cpu, n = 0;
	long rc = 0;
	u32 size;

	/*
	 * @size and @abi_version lead struct pks_info in every ABI: a caller
	 * built for another one still learns which ABI this driver speaks.
	 */
	if (get_user(size, &uinfo->size))
		return -EFAULT;
	if (size != sizeof(*info)) {
		if (size >= offsetofend(struct pks_info, abi_version) &&
		    put_user(PKS_ABI_VERSION, &uinfo->abi_version))
			return -EFAULT;
		return -EINVAL;
	}
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
			pks_fill_cpu_info_as(cpu, &cpu_info, live);
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
	if (pks_faults_logging())
		info->flags |= PKS_INFO_F_FAULT_LOG;
	if (pks_pk_warn_silenced())
		info->flags |= PKS_INFO_F_PK_WARN_SILENCED;
	if (pks_faults_pinned())
		info->flags |= PKS_INFO_F_FAULT_PINNED;
	if (pks_dax_guard_missing())
		info->flags |= PKS_INFO_F_DAX_GUARD_MISSING;
	info->default_pkrs = PKS_DEFAULT_PKRS;
	info->nr_cpus = num_possible_cpus();
	pks_fill_key_info(info->keys);
	if (copy_to_user(argp, info, sizeof(*info)))
		rc = -EFAULT;
out:
	kfree(info);
	return rc;
}

static long pks_ioctl_protect(void __user *argp)
{
	struct pks_protect prot;
	int key = 0;
	long rc;

	if (copy_from_user(&prot, argp, sizeof(prot)))
		return -EFAULT;
	if (prot.size != sizeof(prot) || prot.rsvd ||
	    prot.flags & ~(PKS_PROTECT_F_RELAXED | PKS_PROTECT_F_BLOCKDEV))
		return -EINVAL;
	memset(prot.name, 0, sizeof(prot.name));
	memset(prot.message, 0, sizeof(prot.message));
	mutex_lock(&pks_lock);
	rc = __pks_protect(&prot.range, prot.flags, prot.name, &key,
			   prot.message);
	mutex_unlock(&pks_lock);
	prot.key = rc ? 0 : key;
	/* A refusal still reports why, in the message. */
	if (copy_to_user(argp, &prot, sizeof(prot)))
		return -EFAULT;
	return rc;
}

static long pks_ioctl_unprotect(void __user *argp)
{
	struct pks_unprotect unprot;
	long rc;

	if (copy_from_user(&unprot, argp, sizeof(unprot)))
		return -EFAULT;
	if (unprot.size != sizeof(unprot) || unprot.rsvd)
		return -EINVAL;
	mutex_lock(&pks_lock);
	rc = __pks_unprotect(unprot.start);
	mutex_unlock(&pks_lock);
	return rc;
}

/*
 * The end of a count-then-fill call: copy what fits of @count items into
 * the caller's array at @uarray (room for @room), set *@nr to @count (so
 * that a caller short of room learns how much to ask for), and copy the
 * request of @size bytes at @req back to @argp.
 */
static long pks_copy_out_counted(void __user *argp, void *req, size_t size,
				 __u32 *nr, u64 uarray, const void *items,
				 u32 room, int count, size_t item_size)
{
	if (room && copy_to_user(u64_to_user_ptr(uarray), items,
				 min_t(u32, room, count) * item_size))
		return -EFAULT;
	*nr = count;
	if (copy_to_user(argp, req, size))
		return -EFAULT;
	return 0;
}

static long pks_ioctl_list(struct file *file, void __user *argp)
{
	struct pks_range_info *info = NULL;
	struct pks_list list;
	unsigned int nr, i;
	long rc = 0;
	int count;

	if (copy_from_user(&list, argp, sizeof(list)))
		return -EFAULT;
	if (list.size != sizeof(list))
		return -EINVAL;
	/* There are at most PKS_NR_KEYS - 1 ranges, one per key. */
	nr = min_t(u32, list.ranges ? list.nr : 0, PKS_NR_KEYS);
	if (nr) {
		info = kcalloc(nr, sizeof(*info), GFP_KERNEL);
		if (!info)
			return -ENOMEM;
	}
	count = pks_list_ranges(info, nr);
	/* Physical addresses only for an admin opener, as in /proc/iomem. */
	if (!file_ns_capable(file, &init_user_ns, CAP_SYS_ADMIN))
		for (i = 0; i < min_t(u32, nr, count); i++)
			info[i].start = 0;
	rc = pks_copy_out_counted(argp, &list, sizeof(list), &list.nr,
				  list.ranges, info, nr, count, sizeof(*info));
	kfree(info);
	return rc;
}

static long pks_ioctl_copy(void __user *argp)
{
	struct pks_copy acc;
	long rc;

	if (copy_from_user(&acc, argp, sizeof(acc)))
		return -EFAULT;
	if (acc.size != sizeof(acc))
		return -EINVAL;
	rc = pks_range_copy(&acc);
	if (copy_to_user(argp, &acc, sizeof(acc)))
		return -EFAULT;
	return rc;
}

static long pks_ioctl_faults(struct file *file, void __user *argp)
{
	struct pks_session *session = file->private_data;
	struct pks_faults req;
	bool addresses;
	long rc;

	if (copy_from_user(&req, argp, sizeof(req)))
		return -EFAULT;
	if (req.size != sizeof(req))
		return -EINVAL;
	/* Where the next record goes is a count; the records are not. */
	if (req.nr && !pks_may_see_activity(file))
		return -EPERM;
	addresses = file_ns_capable(file, &init_user_ns, CAP_SYSLOG);
	rc = pks_faults_read(&req, u64_to_user_ptr(req.records), addresses);
	if (rc)
		return rc;
	WRITE_ONCE(session->fault_seen, req.next);
	if (copy_to_user(argp, &req, sizeof(req)))
		return -EFAULT;
	return 0;
}

static long pks_ioctl_set_mode(void __user *argp)
{
	struct pks_set_mode set;
	long rc;

	if (copy_from_user(&set, argp, sizeof(set)))
		return -EFAULT;
	if (set.size != sizeof(set))
		return -EINVAL;
	mutex_lock(&pks_lock);
	rc = __pks_set_mode(set.start, set.mode);
	mutex_unlock(&pks_lock);
	return rc;
}

/* The number PKS_IOC_GRANTS had before struct pks_grants grew. */
#define PKS_IOC_GRANTS_V1 \
	_IOC(_IOC_READ | _IOC_WRITE, PKS_IOC_MAGIC, 0x09, PKS_GRANTS_SIZE_V1)

static long pks_ioctl_grants(struct file *file, void __user *argp)
{
	struct pks_grants *g;
	long rc = 0;

	g = kzalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return -ENOMEM;
	if (copy_from_user(&g->size, argp, sizeof(g->size))) {
		rc = -EFAULT;
		goto out;
	}
	/* A caller built before the unwind counts passes the older size. */
	BUILD_BUG_ON(offsetof(struct pks_grants, frames_unwound) !=
		     PKS_GRANTS_SIZE_V1);
	if (g->size != sizeof(*g) && g->size != PKS_GRANTS_SIZE_V1) {
		rc = -EINVAL;
		goto out;
	}
	pks_grants_fill(g, pks_may_see_activity(file));
	if (pks_may_see_activity(file))
		g->fault_probe_hits = pks_fault_probe_hits();
	if (copy_to_user(argp, g, g->size))
		rc = -EFAULT;
out:
	kfree(g);
	return rc;
}

static long pks_ioctl_brackets(struct file *file, void __user *argp)
{
	struct pks_brackets *b;
	long rc = 0;

	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	if (copy_from_user(&b->size, argp, sizeof(b->size)))
		rc = -EFAULT;
	else if (b->size != sizeof(*b))
		rc = -EINVAL;
	if (!rc) {
		pks_brackets_fill(b, pks_may_see_activity(file));
		if (copy_to_user(argp, b, sizeof(*b)))
			rc = -EFAULT;
	}
	kfree(b);
	return rc;
}

static long pks_ioctl_accounting(struct file *file, void __user *argp)
{
	struct pks_accounting a = {};

	if (copy_from_user(&a.size, argp, sizeof(a.size)))
		return -EFAULT;
	if (a.size != sizeof(a))
		return -EINVAL;
	pks_acct_fill(&a);
	/*
	 * Whether anyone is being granted now is other users' activity,
	 * judged on the opener as every read here is.
	 */
	if (!pks_may_see_activity(file))
		a.counts[PKS_ACCT_GRANT_STATES] = 0;
	if (copy_to_user(argp, &a, sizeof(a)))
		return -EFAULT;
	return 0;
}

static long pks_ioctl_holders(struct file *file, void __user *argp)
{
	struct pks_holder *holders = NULL;
	struct pks_holders req;
	unsigned int nr;
	long rc = 0;
	int count;

	if (copy_from_user(&req, argp, sizeof(req)))
		return -EFAULT;
	if (req.size != sizeof(req))
		return -EINVAL;
	/* Bounded by what one call may allocate; call again for more. */
	nr = min_t(u32, req.holders ? req.nr : 0, 256);
	/* How many is for anyone; who, for an admin only. */
	if (nr && !pks_may_see_activity(file))
		return -EPERM;
	if (nr) {
		holders = kcalloc(nr, sizeof(*holders), GFP_KERNEL);
		if (!holders)
			return -ENOMEM;
	}
	count = pks_holders_fill(holders, nr);
	rc = pks_copy_out_counted(argp, &req, sizeof(req), &req.nr,
				  req.holders, holders, nr, count,
				  sizeof(*holders));
	kfree(holders);
	return rc;
}

/*
 * Whatever changes protection or touches namespace memory is for root,
 * through a file opened for writing: a read-only descriptor handed to a
 * less trusted program stays read-only.
 */
static long pks_ioctl_admin(struct file *file, unsigned int cmd,
			    void __user *argp)
{
	if (!(file->f_mode & FMODE_WRITE) || !capable(CAP_SYS_ADMIN))
		return -EPERM;
	switch (cmd) {
	case PKS_IOC_PROTECT:
		return pks_ioctl_protect(argp);
	case PKS_IOC_UNPROTECT:
		return pks_ioctl_unprotect(argp);
	case PKS_IOC_COPY:
		return pks_ioctl_copy(argp);
	case PKS_IOC_SET_MODE:
		return pks_ioctl_set_mode(argp);
	}
	return -ENOTTY;
}

long pks_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	void __user *argp = (void __user *)arg;

	switch (cmd) {
	case PKS_IOC_GET_INFO:
		return pks_ioctl_get_info(file, argp);
	case PKS_IOC_LIST:
		return pks_ioctl_list(file, argp);
	case PKS_IOC_FAULTS:
		return pks_ioctl_faults(file, argp);
	case PKS_IOC_GRANTS:
	case PKS_IOC_GRANTS_V1:
		return pks_ioctl_grants(file, argp);
	case PKS_IOC_ACCOUNTING:
		return pks_ioctl_accounting(file, argp);
	case PKS_IOC_BRACKETS:
		return pks_ioctl_brackets(file, argp);
	case PKS_IOC_HOLDERS:
		return pks_ioctl_holders(file, argp);
	case PKS_IOC_PROTECT:
	case PKS_IOC_UNPROTECT:
	case PKS_IOC_COPY:
	case PKS_IOC_SET_MODE:
		return pks_ioctl_admin(file, cmd, argp);
	default:
		return -ENOTTY;
	}
}
