// SPDX-License-Identifier: GPL-2.0
/*
 * The sanctioned access path to protected memory: dax access windows
 * (pks_dax_access_*()), which find the range and open its key in a CPU
 * window (cpuwindow.c) or a task window (task.c), and the PKS_IOC_COPY copy
 * made through them.
 */
#include "pks_internal.h"

#include <linux/err.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/wait_bit.h>
#include <asm/barrier.h>

/**
 * pks_dax_access_begin() - open a non-preemptible window on protected pmem
 * @start: physical address inside a protected range
 * @len: bytes to access, all inside that range
 * @access: PKS_READ_ONLY or PKS_READ_WRITE
 * @window: filled in for pks_dax_access_end()
 *
 * Disables preemption until pks_dax_access_end(): the access between the
 * two must not sleep. The range is looked up inside the window, so it
 * cannot be released (nor its direct map torn down) before the window
 * closes. Takes no lock: callable in any context.
 *
 * Return: the kernel address of @start, or an ERR_PTR: -ENOENT when the
 * span is not inside one protected range.
 */
void *pks_dax_access_begin(phys_addr_t start, size_t len,
			   enum pks_access access, struct pks_dax_window *window)
{
	struct pks_prot *p;

	/* Preemption off holds off the release's synchronize_rcu(). */
	preempt_disable();
	rcu_read_lock();
	p = pks_prot_holding(start, len);
	if (p) {
		window->key = p->key;
		window->range = NULL;
		window->prev = pks_window_open(p->key, access);
	}
	rcu_read_unlock();
	preempt_enable();
	return p ? __va(start) : ERR_PTR(-ENOENT);
}
EXPORT_SYMBOL_GPL(pks_dax_access_begin);

/**
 * pks_dax_access_begin_task() - open a window on protected pmem that may
 *	sleep
 * @start: physical address inside a protected range
 * @len: bytes to access, all inside that range
 * @access: PKS_READ_ONLY or PKS_READ_WRITE
 * @window: filled in for pks_dax_access_end()
 *
 * For copies that take page faults on user buffers or sleep: the access
 * belongs to the calling task (see pks_task_window_open()) and holds the
 * range, so disabling its protection waits for the window to close. Task
 * context only.
 *
 * Return: the kernel address of @start, or an ERR_PTR: -ENOENT when the
 * span is not inside one protected range.
 */
void *pks_dax_access_begin_task(phys_addr_t start, size_t len,
				enum pks_access access,
				struct pks_dax_window *window)
{
	struct pks_prot *p;

	might_sleep();
	rcu_read_lock();
	p = pks_prot_holding(start, len);
	if (p && !atomic_inc_not_zero(&p->users))
		p = NULL;
	rcu_read_unlock();
	if (!p)
		return ERR_PTR(-ENOENT);
	window->key = p->key;
	window->range = p;
	pks_task_window_open(p->key, access, &window->task);
	return __va(start);
}
EXPORT_SYMBOL_GPL(pks_dax_access_begin_task);

/**
 * pks_dax_access_end() - close a window from pks_dax_access_begin() or
 *	pks_dax_access_begin_task()
 * @window: what the begin call filled in
 */
void pks_dax_access_end(struct pks_dax_window *window)
{
	struct pks_prot *p = window->range;

	if (!p) {
		pks_window_close(window->key, window->prev);
		return;
	}
	pks_task_window_close(&window->task);
	if (atomic_dec_and_test(&p->users))
		wake_up_var(&p->users);
}
EXPORT_SYMBOL_GPL(pks_dax_access_end);

/**
 * pks_range_copy() - the PKS_IOC_COPY copy, through a window
 * @a: the request; @a->done is set to the bytes copied
 *
 * The sanctioned way for a tool to reach protected memory: one window per
 * page-sized chunk, machine-check safe reads, durable writes.
 *
 * Return: 0, or -errno as documented for PKS_IOC_COPY.
 */
int pks_range_copy(struct pks_copy *a)
{
	bool write = a->flags & PKS_COPY_F_WRITE;
	char __user *ubuf = u64_to_user_ptr(a->buf);
	struct pks_dax_window w;
	void *bounce, *va;
	size_t n;
	int rc = 0;

	a->done = 0;
	if (a->flags & ~PKS_COPY_F_WRITE || !a->len || a->len > PKS_COPY_MAX)
		return -EINVAL;
	bounce = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!bounce)
		return -ENOMEM;
	while (a->done < a->len) {
		n = min_t(u64, PAGE_SIZE, a->len - a->done);
		if (write && copy_from_user(bounce, ubuf + a->done, n)) {
			rc = -EFAULT;
			break;
		}
		va = pks_dax_access_begin(a->start + a->done, n,
					  write ? PKS_READ_WRITE : PKS_READ_ONLY,
					  &w);
		if (IS_ERR(va)) {
			rc = PTR_ERR(va);
			break;
		}
		/* Reads survive a media error, as fs/dax.c's do. */
		if (write)
			memcpy_flushcache(va, bounce, n);
		else if (copy_mc_to_kernel(bounce, va, n))
			rc = -EIO;
		pks_dax_access_end(&w);
		if (rc)
			break;
		if (!write && copy_to_user(ubuf + a->done, bounce, n)) {
			rc = -EFAULT;
			break;
		}
		a->done += n;
	}
	/* Written data is durable before the call says so. */
	if (write)
		pmem_wmb();
	kfree(bounce);
	return rc;
}
