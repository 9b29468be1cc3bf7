// SPDX-License-Identifier: GPL-2.0
/*
 * Stray accesses: kernel reads and writes of namespace memory with no
 * window, as a bad pointer elsewhere in the kernel would make them. Only
 * the test module can make them, and only on device-dax or fsdax memory.
 */
#include "test.h"

#include <linux/memremap.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

/*
 * Copy one chunk with no window, as a stray pointer would: fault-safe, or
 * with @plain loads and stores that oops in strict mode.
 */
static int pks_stray_copy(void *va, void *buf, size_t n, bool write,
			  bool plain, size_t *done)
{
	size_t i;

	if (plain) {
		for (i = 0; i < n; i += sizeof(u64)) {
			if (write)
				WRITE_ONCE(*(u64 *)(va + i), *(u64 *)(buf + i));
			else
				*(u64 *)(buf + i) = READ_ONCE(*(u64 *)(va + i));
		}
		*done = n;
		return 0;
	}
	if (!write) {
		if (copy_from_kernel_nofault(buf, va, n))
			return -EFAULT;
		*done = n;
		return 0;
	}
	for (i = 0; i < n; i += sizeof(u64)) {
		if (!pks_can_write(va + i, *(u64 *)(buf + i))) {
			*done = i;
			return -EFAULT;
		}
	}
	*done = n;
	return 0;
}

/* One movsq from @src to @dst: a single instruction on two ranges. */
static int pks_stray_move(phys_addr_t dst, phys_addr_t src)
{
	void *d = __va(dst);
	const void *s = __va(src);

	if ((dst | src) & 7 || pks_dax_memory(dst, 8) ||
	    pks_dax_memory(src, 8))
		return -EINVAL;
	asm volatile("movsq" : "+D" (d), "+S" (s) : : "memory");
	return 0;
}

/* PKS_COPY_F_USER: one user copy straight to or from the namespace. */
static int pks_stray_user(struct pks_copy *a)
{
	void __user *ubuf = u64_to_user_ptr(a->buf);
	struct dev_pagemap *pgmap;
	void *va = __va(a->start);
	unsigned long left;

	if (!a->len || a->len > PKS_COPY_MAX || (a->start | a->len) & 7)
		return -EINVAL;
	pgmap = pks_test_dax_pagemap(a->start, a->len);
	if (!pgmap)
		return -ENOENT;
	if (a->flags & PKS_COPY_F_WRITE)
		left = copy_from_user(va, ubuf, a->len);
	else
		left = copy_to_user(ubuf, va, a->len);
	put_dev_pagemap(pgmap);
	a->done = a->len - left;
	return left ? -EFAULT : 0;
}

/**
 * pks_stray_access() - the PKS_TEST_IOC_STRAY access
 * @a: the request; @a->done is set to the bytes accessed
 *
 * Return: 0, or -errno as documented for PKS_TEST_IOC_STRAY.
 */
int pks_stray_access(struct pks_copy *a)
{
	bool write = a->flags & PKS_COPY_F_WRITE;
	bool plain = a->flags & PKS_COPY_F_PLAIN;
	char __user *ubuf = u64_to_user_ptr(a->buf);
	struct dev_pagemap *pgmap;
	size_t n, chunk_done;
	void *bounce;
	u64 word;
	int rc = 0;

	a->done = 0;
	if (a->flags == (PKS_COPY_F_PLAIN | PKS_COPY_F_MOVE) &&
	    a->len == sizeof(word)) {
		rc = pks_stray_move(a->start, a->buf);
		a->done = rc ? 0 : a->len;
		return rc;
	}
	if ((a->flags & ~PKS_COPY_F_WRITE) == PKS_COPY_F_USER)
		return pks_stray_user(a);
	if (a->flags & ~(PKS_COPY_F_WRITE | PKS_COPY_F_UNGUARDED |
			 PKS_COPY_F_PLAIN) ||
	    !(a->flags & (PKS_COPY_F_UNGUARDED | PKS_COPY_F_PLAIN)) ||
	    !a->len || a->len > PKS_COPY_MAX || (a->start | a->len) & 7 ||
	    (plain && a->len != sizeof(word)))
		return -EINVAL;
	/*
	 * Strays may also hit unprotected memory (the control case of a
	 * test), but only device-dax or fsdax memory, never any address.
	 * The pagemap is held across the access: a namespace torn down in
	 * between would take its direct map with it.
	 */
	pgmap = pks_test_dax_pagemap(a->start, a->len);
	if (!pgmap)
		return -ENOENT;
	/* A plain access may oops this task: nothing to leak then. */
	bounce = plain ? &word : kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!bounce) {
		put_dev_pagemap(pgmap);
		return -ENOMEM;
	}
	while (a->done < a->len) {
		n = min_t(u64, PAGE_SIZE, a->len - a->done);
		if (write && copy_from_user(bounce, ubuf + a->done, n)) {
			rc = -EFAULT;
			break;
		}
		chunk_done = 0;
		rc = pks_stray_copy(__va(a->start + a->done), bounce, n, write,
				    plain, &chunk_done);
		a->done += chunk_done;
		if (rc)
			break;
		if (!write && copy_to_user(ubuf + a->done - n, bounce, n)) {
			rc = -EFAULT;
			break;
		}
	}
	if (!plain)
		kfree(bounce);
	put_dev_pagemap(pgmap);
	return rc;
}
