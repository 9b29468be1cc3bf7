// SPDX-License-Identifier: GPL-2.0
/*
 * What may be protected. The driver checks a request itself before
 * touching anything: a range must be page aligned, persistent memory,
 * owned by a device-dax pagemap (or, named by its block device, an fsdax
 * one), exactly what the caller's mapping of a dax device maps (so never
 * the namespace's metadata), and made of whole, untagged direct-map pages.
 * A refusal says why in the caller's message.
 */
#include "pks_internal.h"

#include <linux/blkdev.h>
#include <linux/cdev.h>
#include <linux/dax.h>
#include <linux/device.h>
#include <linux/file.h>
#include <linux/hugetlb.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/memremap.h>
#include <linux/mm.h>
#include <linux/module.h>
#ifdef PKS_HAS_PFN_T
#include <linux/pfn_t.h>
/* What dax_direct_access() hands back: a pfn_t, or a plain pfn (newer). */
#define pks_dax_pfn		pfn_t
#define pks_dax_pfn_phys(pfn)	pfn_t_to_phys(pfn)
#else
#define pks_dax_pfn		unsigned long
#define pks_dax_pfn_phys(pfn)	PFN_PHYS(pfn)
#endif

int pks_refuse(char *msg, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, PKS_MESSAGE_LEN, fmt, ap);
	va_end(ap);
	pr_warn("refused: %s\n", msg);
	return rc;
}

/*
 * Whether @dev still has its driver. An unbind sends the bus notifier
 * BUS_NOTIFY_UNBIND_DRIVER, then clears the pointer, then sends
 * BUS_NOTIFY_UNBOUND_DRIVER; the notifier waits for pks_lock. A protection
 * published between the first notice and the clearing passes this check,
 * so the notifier acts on both notices: a caller holding the lock sees
 * every unbind here or in one of them, never in neither.
 */
bool pks_dev_alive(struct device *dev)
{
	return READ_ONCE(dev->driver);
}

/* The dax device behind a file, or NULL when it is not a dax device. */
static struct device *pks_dax_device(struct file *file)
{
	struct inode *inode = file_inode(file);
	struct device *dev;

	if (!S_ISCHR(inode->i_mode) || !inode->i_cdev ||
	    !inode->i_cdev->kobj.parent)
		return NULL;
	dev = kobj_to_dev(inode->i_cdev->kobj.parent);
	if (!dev->bus || strcmp(dev->bus->name, "dax"))
		return NULL;
	return dev;
}

/*
 * The range must be persistent memory inside one pagemap of @type
 * (MEMORY_DEVICE_GENERIC for device-dax, MEMORY_DEVICE_FS_DAX for fsdax,
 * or -1 for either, as stray test copies may target).
 */
int pks_check_memory(const struct pks_range *r, int type, char *msg)
{
	unsigned long pfn = PHYS_PFN(r->start);
	struct dev_pagemap *pgmap;
	bool covered = false;
	int i, rc = 0;

	if (!r->len || r->start + r->len < r->start ||
	    !PAGE_ALIGNED(r->start) || !PAGE_ALIGNED(r->len))
		return pks_refuse(msg, -EINVAL,
				  "range %#llx+%#llx is empty or not page aligned",
				  r->start, r->len);
	switch (region_intersects(r->start, r->len, IORESOURCE_MEM,
				  IORES_DESC_PERSISTENT_MEMORY)) {
	case REGION_INTERSECTS:
		break;
	case REGION_MIXED:
		return pks_refuse(msg, -EINVAL,
				  "range %#llx+%#llx is only partly persistent memory",
				  r->start, r->len);
	default:
		return pks_refuse(msg, -EINVAL,
				  "range %#llx+%#llx is not persistent memory",
				  r->start, r->len);
	}

	pgmap = pks_get_dev_pagemap(pfn);
	if (!pgmap)
		return pks_refuse(msg, -ENODEV,
				  "no device-dax or fsdax instance owns %#llx (raw or sector namespace, or none enabled)",
				  r->start);
	if (type < 0 && (pgmap->type == MEMORY_DEVICE_GENERIC ||
			 pgmap->type == MEMORY_DEVICE_FS_DAX))
		type = pgmap->type;
	if (pgmap->type == MEMORY_DEVICE_FS_DAX && type != pgmap->type)
		rc = pks_refuse(msg, -EOPNOTSUPP,
				"%#llx is fsdax memory: protect it by its block device (pkstool enable pmemN)",
				r->start);
	else if (pgmap->type != type)
		rc = pks_refuse(msg, -EOPNOTSUPP,
				"%#llx is device memory of type %d, not %s",
				r->start, pgmap->type,
				type == MEMORY_DEVICE_FS_DAX ? "fsdax" : "device-dax");
	for (i = 0; !rc && i < pgmap->nr_range; i++)
		covered |= pgmap->ranges[i].start <= r->start &&
			   r->start + r->len - 1 <= pgmap->ranges[i].end;
	if (!rc && !covered)
		rc = pks_refuse(msg, -EINVAL,
				"range %#llx+%#llx crosses namespaces",
				r->start, r->len);
	put_dev_pagemap(pgmap);
	return rc;
}

/* One page of the caller's mapping at @addr; mmap_lock is held. */
static long pks_gup_locked(unsigned long addr, struct page **page)
{
#ifdef PKS_GUP_HAS_VMAS
	return get_user_pages(addr, 1, 0, page, NULL);
#else
	return get_user_pages(addr, 1, 0, page);
#endif
}

/*
 * The range must be what @r->addr maps, page for page, in a mapping of a
 * dax device: the namespace's metadata can never be mapped there.
 */
int pks_check_mapping(const struct pks_range *r, struct pks_prot *p,
		      char *msg)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	unsigned long addr = r->addr, step, off;
	struct device *dev = NULL;
	struct page *page;
	int rc = 0;

	mmap_read_lock(mm);
	vma = find_vma(mm, addr);
	if (!vma || vma->vm_start > addr || r->len > vma->vm_end - addr ||
	    !vma->vm_file) {
		mmap_read_unlock(mm);
		return pks_refuse(msg, -EINVAL,
				  "address %#lx does not map %#llx bytes of a file",
				  addr, r->len);
	}
	dev = pks_dax_device(vma->vm_file);
	if (dev && !pks_dev_alive(dev))
		dev = NULL;
	if (!dev) {
		mmap_read_unlock(mm);
		return pks_refuse(msg, -EINVAL,
				  "address %#lx is not a mapping of a live device-dax device",
				  addr);
	}
	/*
	 * fsdev_dax (newer kernels) lends a dax device's memory to a file
	 * system (famfs): its accesses are no path the rules know, and the
	 * memory is the file system's, not the mapping's.
	 */
	if (dev->driver && !strcmp(dev->driver->name, "fsdev_dax")) {
		mmap_read_unlock(mm);
		return pks_refuse(msg, -EOPNOTSUPP,
				  "%s is bound to fsdev_dax (memory for a file system): not protectable; bind it to device_dax",
				  dev_name(dev));
	}
	get_device(dev);
	step = vma_kernel_pagesize(vma);

	/*
	 * Still under mmap_lock, so that no other mapping can take the
	 * address between the check of the file above and the pages below.
	 * A dax mapping is contiguous within each page of its own size.
	 */
	for (off = 0; off < r->len && !rc; off += step) {
		if (pks_gup_locked(addr + off, &page) != 1) {
			rc = pks_refuse(msg, -EFAULT,
					"cannot read the mapping of %s at offset %#lx",
					dev_name(dev), off);
			break;
		}
		if (page_to_phys(page) != r->start + off)
			rc = pks_refuse(msg, -EINVAL,
					"%s maps %#llx at offset %#lx, not %#llx: the range is not that device's data",
					dev_name(dev), (u64)page_to_phys(page),
					off, r->start + off);
		put_page(page);
	}
	mmap_read_unlock(mm);
	if (rc) {
		put_device(dev);
		return rc;
	}
	p->dev = dev;
	strscpy(p->name, dev_name(dev), sizeof(p->name));
	return 0;
}

/*
 * An fsdax namespace, named by a file descriptor on its block device: its
 * DAX data area is what dax_direct_access() hands out from offset 0, in
 * the kernel direct map; the struct pages of a --map=dev namespace lie
 * before it and are never included.
 */
int pks_check_blockdev(struct pks_range *r, struct pks_prot *p,
		       char *msg)
{
	struct block_device *bdev;
	struct dax_device *dax_dev;
	struct file *file;
	void *kaddr = NULL;
	u64 start_off = 0;
	long nr;
	pks_dax_pfn pfn;
	int id, rc = 0;

	if (r->start || r->len)
		return pks_refuse(msg, -EINVAL,
				  "start and length must be 0 for a block device: the driver finds them");
	file = r->addr <= INT_MAX ? fget(r->addr) : NULL;
	if (!file)
		return pks_refuse(msg, -EBADF, "%llu is not an open file descriptor",
				  r->addr);
	if (!S_ISBLK(file_inode(file)->i_mode)) {
		rc = pks_refuse(msg, -EINVAL, "descriptor %llu is not a block device",
				r->addr);
		goto out;
	}
	bdev = I_BDEV(file->f_mapping->host);
	/*
	 * Only a pmem namespace's own disk: a stacked device with DAX (a
	 * dm-linear over pmem) has no namespace behind it to watch, and its
	 * memory belongs to the device underneath.
	 */
	if (!bdev->bd_disk->fops->owner ||
	    strcmp(module_name(bdev->bd_disk->fops->owner), "nd_pmem")) {
		rc = pks_refuse(msg, -EOPNOTSUPP,
				"%s is not a pmem namespace's disk (a stacked device?): protect the pmem device underneath",
				bdev->bd_disk->disk_name);
		goto out;
	}
	dax_dev = fs_dax_get_by_bdev(bdev, &start_off, NULL, NULL);
	if (!dax_dev) {
		rc = pks_refuse(msg, -EOPNOTSUPP,
				"%s has no DAX support (a sector namespace?): only fsdax block devices can be protected",
				bdev->bd_disk->disk_name);
		goto out;
	}
	if (start_off || bdev_is_partition(bdev)) {
		fs_put_dax(dax_dev, NULL);
		rc = pks_refuse(msg, -EINVAL,
				"%s is a partition: protect the whole device",
				bdev->bd_disk->disk_name);
		goto out;
	}
	id = dax_read_lock();
	nr = dax_direct_access(dax_dev, 0, LONG_MAX / PAGE_SIZE, DAX_ACCESS,
			       &kaddr, &pfn);
	dax_read_unlock(id);
	if (nr <= 0 || kaddr != __va(pks_dax_pfn_phys(pfn))) {
		fs_put_dax(dax_dev, NULL);
		rc = pks_refuse(msg, -EINVAL,
				"%s: its DAX memory is not in the kernel direct map (raw namespace?)",
				bdev->bd_disk->disk_name);
		goto out;
	}
	r->start = pks_dax_pfn_phys(pfn);
	r->len = (u64)nr << PAGE_SHIFT;
	p->dax_dev = dax_dev;
	p->disk = bdev->bd_disk;
	p->fsdax = true;
	p->dev = get_device(disk_to_dev(bdev->bd_disk)->parent);
	strscpy(p->name, bdev->bd_disk->disk_name, sizeof(p->name));
out:
	fput(file);
	return rc;
}

/* Every direct-map page of the range lies wholly inside it, untagged. */
int pks_check_leaves(struct pks_prot *p, char *msg)
{
	phys_addr_t pa, end = p->start + p->len;
	unsigned long size;
	unsigned int level;
	pte_t *pte;

	for (pa = p->start; pa < end; pa += size) {
		pte = lookup_address((unsigned long)__va(pa), &level);
		if (!pte || !pte_present(*pte))
			return pks_refuse(msg, -EINVAL,
					  "%#llx is not in the kernel direct map",
					  (u64)pa);
		size = page_level_size(level);
		if (!IS_ALIGNED(pa, size) || pa + size > end)
			return pks_refuse(msg, -EINVAL,
					  "range %#llx+%#llx is not aligned to the %lu KiB direct-map pages at %#llx",
					  (u64)p->start, p->len, size >> 10,
					  (u64)pa);
		if (pte_val(*pte) & PKS_PTE_KEY_MASK)
			return pks_refuse(msg, -EBUSY,
					  "%#llx already carries a protection key",
					  (u64)pa);
		if (pa == p->start)
			p->leaf_size = size;
	}
	return 0;
}

/* Device-dax or fsdax memory, protected or not: what tests may target. */
int pks_dax_memory(phys_addr_t start, u64 len)
{
	struct pks_range r = {
		.start = PAGE_ALIGN_DOWN(start),
		.len = PAGE_ALIGN(start + len) - PAGE_ALIGN_DOWN(start),
	};
	char msg[PKS_MESSAGE_LEN];

	return pks_check_memory(&r, -1, msg);
}
EXPORT_SYMBOL_NS_GPL(pks_dax_memory, PKS_TEST_NS);
