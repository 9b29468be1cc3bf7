// SPDX-License-Identifier: GPL-2.0
/*
 * Namespace protection: tag the kernel direct-map pages of a device-dax
 * range with a key, so that the kernel can reach them only through access
 * windows. User mappings of the dax device use their own page tables and
 * keep working.
 *
 * The driver checks a range itself before touching anything: it must be
 * page aligned, persistent memory, owned by a device-dax (not fsdax)
 * pagemap, exactly what the caller's mapping of a dax device maps (so never
 * the namespace's metadata), and made of whole direct-map pages.
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
#include <linux/rculist.h>
#include <linux/memremap.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pfn_t.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/uaccess.h>
#include <linux/wait_bit.h>
#include <asm/barrier.h>
#include <asm/set_memory.h>
#include <asm/tlbflush.h>

/**
 * struct pks_prot - one protected range
 * @list: entry in pks_prots
 * @start: physical start
 * @len: length in bytes
 * @key: the key tagging it
 * @leaf_size: size of the direct-map pages mapping it
 * @keyed_leaves: direct-map leaves found keyed after its last retag
 * @dev: the dax device, referenced while protected
 * @dax_dev: for fsdax, the block device's dax_device, referenced
 * @fsdax: an fsdax namespace: @dev is its nd device
 * @mode: enum pks_mode, read locklessly by the fault path
 * @faults: stray accesses recorded on the range
 * @users: one for the list, one per task window on the range; the range
 *	is restored only once it drops to zero
 * @name: its name
 */
struct pks_prot {
	struct list_head list;
	phys_addr_t start;
	u64 len;
	int key;
	unsigned long leaf_size;
	long keyed_leaves;
	struct device *dev;
	struct dax_device *dax_dev;
	bool fsdax;
	u32 mode;
	atomic64_t faults;
	atomic_t users;
	char name[PKS_NAME_LEN];
};


/*
 * The protected ranges. Changed only with pks_lock held; an RCU list
 * because the fault path reads it with interrupts off.
 */
static LIST_HEAD(pks_prots);
/*
 * The buses watched for protected devices going away (dax, nd), once
 * known; struct device has the bus const from 6.2 on.
 */
static typeof_member(struct device, bus) pks_buses[2];
static struct notifier_block pks_bus_nb[2];

static __printf(3, 4) int pks_refuse(char *msg, int rc, const char *fmt, ...)
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
static bool pks_dev_alive(struct device *dev)
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
static int pks_check_memory(const struct pks_range *r, int type, char *msg)
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

	pgmap = get_dev_pagemap(pfn, NULL);
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
static int pks_check_mapping(const struct pks_range *r, struct pks_prot *p,
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
static int pks_check_blockdev(struct pks_range *r, struct pks_prot *p,
			      char *msg)
{
	struct block_device *bdev;
	struct dax_device *dax_dev;
	struct file *file;
	void *kaddr = NULL;
	u64 start_off = 0;
	long nr;
	pfn_t pfn;
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
	if (nr <= 0 || kaddr != __va(pfn_t_to_phys(pfn))) {
		fs_put_dax(dax_dev, NULL);
		rc = pks_refuse(msg, -EINVAL,
				"%s: its DAX memory is not in the kernel direct map (raw namespace?)",
				bdev->bd_disk->disk_name);
		goto out;
	}
	r->start = pfn_t_to_phys(pfn);
	r->len = (u64)nr << PAGE_SHIFT;
	p->dax_dev = dax_dev;
	p->fsdax = true;
	p->dev = get_device(disk_to_dev(bdev->bd_disk)->parent);
	strscpy(p->name, bdev->bd_disk->disk_name, sizeof(p->name));
out:
	fput(file);
	return rc;
}

/* Every direct-map page of the range lies wholly inside it, untagged. */
static int pks_check_leaves(struct pks_prot *p, char *msg)
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

static void pks_flush_tlb_local(void *unused)
{
	__flush_tlb_all();
}

/* A large entry that keeps turning into a table under us is a bug. */
#define PKS_RETAG_TRIES	16

/*
 * Give the direct-map leaf that maps @va the key @key; *@level becomes its
 * size. The entry is swapped with cmpxchg, so that a concurrent change to
 * its other bits is never undone. A leaf that is not present (a page
 * unmapped after a memory failure) is keyed too: the page-attribute code
 * rebuilds it from its old bits when it maps it again. Returns whether the
 * leaf now carries a key, or -ENOENT when @va is no longer mapped.
 */
static int pks_retag_leaf(unsigned long va, int key, unsigned int *level)
{
	unsigned int tries = 0;
	pteval_t old, new;
	pte_t *pte;

retry:
	pte = lookup_address(va, level);
	if (!pte)
		return -ENOENT;
	old = pte_val(READ_ONCE(*pte));
	do {
		/*
		 * A present large entry without PSE points to a table: it
		 * was split since the lookup, so retag the new leaf.
		 */
		if (*level != PG_LEVEL_4K && (old & _PAGE_PRESENT) &&
		    !(old & _PAGE_PSE)) {
			if (WARN_ON_ONCE(++tries > PKS_RETAG_TRIES))
				return -ENOENT;
			goto retry;
		}
		new = (old & ~PKS_PTE_KEY_MASK) |
		      ((u64)key << PKS_PTE_KEY_SHIFT);
	} while (!try_cmpxchg64((u64 *)&pte->pte, (u64 *)&old, new));
	return !!(new & PKS_PTE_KEY_MASK);
}

/* One pass over @p's leaves; returns how many now carry a key. */
static long pks_retag_pass(struct pks_prot *p, int key, bool report)
{
	phys_addr_t pa, end = p->start + p->len;
	unsigned int level;
	long keyed = 0;
	int rc;

	for (pa = p->start; pa < end; pa += page_level_size(level)) {
		rc = pks_retag_leaf((unsigned long)__va(pa), key, &level);
		if (rc == -ENOENT) {
			if (report)
				pr_err("%s: %#llx left the direct map; not retagged\n",
				       p->name, (u64)pa);
			level = PG_LEVEL_4K;
			continue;
		}
		keyed += rc;
		/* A namespace of many GiB in 4 KiB pages is a long walk. */
		cond_resched();
	}
	return keyed;
}

/*
 * Retag every direct-map page of the range. The page-attribute code can
 * rewrite an entry from a copy it read earlier: splitting a large entry
 * (set_mce_nospec() after a memory failure) under pgd_lock, copying its
 * key into the small ones, or changing a 4 KiB entry under cpa_lock. A
 * module can take neither lock, so such a rewrite that read the entry
 * before the first pass would bring back the old key. Both locks are
 * spinlocks held with preemption off, so after a grace period every such
 * rewrite is complete, and a second pass retags what it left.
 *
 * The keyed-entries count follows what the second pass finds, so a split
 * between protect and release keeps it balanced.
 */
static void __pks_set_range_key(struct pks_prot *p, int key)
{
	long keyed;

	lockdep_assert_held(&pks_lock);
	pks_retag_pass(p, key, true);
	/*
	 * A TLB entry keeps the key it was loaded with, and no PKRS write
	 * flushes it: flush after each pass, so that no CPU goes on using
	 * the old key for a grace period (faults on one that remains are
	 * flushed and retried by the fault path: pks_spurious()).
	 */
	on_each_cpu(pks_flush_tlb_local, NULL, 1);
	synchronize_rcu();
	keyed = pks_retag_pass(p, key, false);
	pks_acct_add(PKS_ACCT_KEYED_ENTRIES, keyed - p->keyed_leaves);
	p->keyed_leaves = keyed;
	on_each_cpu(pks_flush_tlb_local, NULL, 1);
}

static struct pks_prot *__pks_find(phys_addr_t start, u64 len)
{
	struct pks_prot *p;

	lockdep_assert_held(&pks_lock);
	list_for_each_entry(p, &pks_prots, list)
		if (start < p->start + p->len && p->start < start + len)
			return p;
	return NULL;
}

/* Drop what the checks took on @p. */
static void pks_prot_free(struct pks_prot *p)
{
	if (p->fsdax)
		fs_put_dax(p->dax_dev, NULL);
	put_device(p->dev);
	kfree(p);
	pks_acct_add(PKS_ACCT_RANGES, -1);
}

/* End @p's protection; @why goes to the fault log for the monitor. */
static void __pks_release(struct pks_prot *p, enum pks_event why)
{
	lockdep_assert_held(&pks_lock);
	__pks_set_range_key(p, 0);
	list_del_rcu(&p->list);
	if (list_empty(&pks_prots))
		pks_grants_disarm();
	/*
	 * The fault path and non-preemptible windows may still be looking at
	 * it; task windows hold a reference until they close.
	 */
	synchronize_rcu();
	if (!atomic_dec_and_test(&p->users))
		wait_var_event(&p->users, !atomic_read(&p->users));
	pks_key_free(p->key);
	pr_info("%s: protection off, key %d freed\n", p->name, p->key);
	pks_log_event(why, p->name, p->key, false);
	pks_prot_free(p);
}

/* A protected device that loses its driver is released first. */
static int pks_bus_notify(struct notifier_block *nb, unsigned long action,
			  void *data)
{
	struct pks_prot *p, *tmp;

	if (action != BUS_NOTIFY_UNBIND_DRIVER &&
	    action != BUS_NOTIFY_UNBOUND_DRIVER &&
	    action != BUS_NOTIFY_DEL_DEVICE)
		return NOTIFY_DONE;
	mutex_lock(&pks_lock);
	list_for_each_entry_safe(p, tmp, &pks_prots, list) {
		if (p->dev != data)
			continue;
		pr_warn("%s is going away while protected: releasing it\n",
			p->name);
		__pks_release(p, PKS_EVENT_DEVICE_GONE);
	}
	mutex_unlock(&pks_lock);
	return NOTIFY_OK;
}

static struct notifier_block pks_bus_nb[2] = {
	{ .notifier_call = pks_bus_notify },
	{ .notifier_call = pks_bus_notify },
};

/*
 * The nd bus belongs to libnvdimm, a module: when it goes, the bus and
 * its notifier chain go with it (bus_unregister() runs in its exit, before
 * this notice), so the bus is forgotten, not unregistered from; a bus
 * registered again later, even at the same address, is watched anew.
 */
static int pks_module_notify(struct notifier_block *nb, unsigned long action,
			     void *data)
{
	struct module *mod = data;
	int i;

	if (action != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(&pks_lock);
	for (i = 0; i < ARRAY_SIZE(pks_buses); i++) {
		if (!pks_buses[i] ||
		    !within_module((unsigned long)pks_buses[i], mod))
			continue;
		pr_info("%s unloaded: its bus %s is no longer watched\n",
			mod->name, pks_buses[i]->name);
		pks_buses[i] = NULL;
	}
	mutex_unlock(&pks_lock);
	return NOTIFY_OK;
}

static struct notifier_block pks_module_nb = {
	.notifier_call = pks_module_notify,
};

void pks_protect_init(void)
{
	register_module_notifier(&pks_module_nb);
}

/*
 * Watch @bus for the protected device going away: the dax bus for
 * device-dax, the nd bus for fsdax. Registered once per bus, on the first
 * protection that needs it.
 */
static int pks_watch_bus(typeof_member(struct device, bus) bus)
{
	int i, rc;

	for (i = 0; i < ARRAY_SIZE(pks_buses); i++) {
		if (pks_buses[i] == bus)
			return 0;
		if (pks_buses[i])
			continue;
		rc = bus_register_notifier(bus, &pks_bus_nb[i]);
		if (!rc)
			pks_buses[i] = bus;
		return rc;
	}
	return -ENOSPC;
}

/*
 * Protect a range (or, with PKS_PROTECT_F_BLOCKDEV, an fsdax block
 * device's data area, returned in @r); on failure @msg says why and
 * nothing changed.
 */
int __pks_protect(struct pks_range *r, u32 flags, char *name, int *key,
		  char *msg)
{
	struct pks_prot *p, *other;
	int rc;

	lockdep_assert_held(&pks_lock);
	/* For the next enable's mmap, should device_dax have come since. */
	pks_dax_guard_arm();
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	pks_acct_add(PKS_ACCT_RANGES, 1);
	if (flags & PKS_PROTECT_F_BLOCKDEV) {
		rc = pks_check_blockdev(r, p, msg);
		if (rc)
			goto unchecked;
		rc = pks_check_memory(r, MEMORY_DEVICE_FS_DAX, msg);
	} else {
		rc = pks_check_memory(r, MEMORY_DEVICE_GENERIC, msg);
		if (!rc)
			rc = pks_check_mapping(r, p, msg);
		if (rc)
			goto unchecked;
	}
	p->start = r->start;
	p->len = r->len;
	p->mode = flags & PKS_PROTECT_F_RELAXED ? PKS_MODE_RELAXED :
						  PKS_MODE_STRICT;
	/*
	 * The fault probe is what lets the kernel's own accesses (ptrace,
	 * core dumps, fsdax) through: without it they would oops.
	 */
	if (!rc && !pks_faults_logging())
		rc = pks_refuse(msg, -EOPNOTSUPP,
				"fault capture is off (fault_capture=0, or its probe could not be placed): the kernel's own accesses could not be granted");
	if (!rc && p->mode == PKS_MODE_RELAXED && !pks_faults_active())
		rc = pks_refuse(msg, -EOPNOTSUPP,
				"relaxed mode needs the page_fault_oops probe, which could not be placed");
	other = rc ? NULL : __pks_find(r->start, r->len);
	if (other)
		rc = pks_refuse(msg, -EBUSY,
				"range %#llx+%#llx overlaps protected %s",
				r->start, r->len, other->name);
	if (!rc)
		rc = pks_check_leaves(p, msg);
	if (!rc)
		rc = pks_watch_bus(p->dev->bus);
	if (!rc) {
		p->key = pks_key_alloc(p->name, NULL, NULL);
		if (p->key < 0)
			rc = pks_refuse(msg, p->key,
					"no free protection key for %s: all %d are in use",
					p->name, PKS_NR_KEYS - 1);
	}
	if (rc) {
		pks_prot_free(p);
		return rc;
	}
	atomic_set(&p->users, 1);
	/* Kernel paths that touch user pages need their grants first. */
	pks_grants_arm();
	list_add_tail_rcu(&p->list, &pks_prots);
	__pks_set_range_key(p, p->key);
	pks_log_event(PKS_EVENT_PROTECTED, p->name, p->key,
		      p->mode == PKS_MODE_RELAXED);
	/*
	 * The unbind notifier sees every unbind from the moment the range is
	 * listed (it waits for pks_lock); one that came before is seen here.
	 */
	if (!pks_dev_alive(p->dev)) {
		__pks_release(p, PKS_EVENT_DEVICE_GONE);
		return pks_refuse(msg, -ENODEV,
				  "the device went away while being protected");
	}
	pr_info("%s: %#llx+%#llx protected with key %d (%lu KiB pages), %s\n",
		p->name, (u64)p->start, p->len, p->key, p->leaf_size >> 10,
		p->mode == PKS_MODE_RELAXED ? "relaxed" : "strict");
	*key = p->key;
	if (name)
		strscpy(name, p->name, PKS_NAME_LEN);
	return 0;

unchecked:
	/* The checks failed before they took anything on @p. */
	kfree(p);
	pks_acct_add(PKS_ACCT_RANGES, -1);
	return rc;
}
EXPORT_SYMBOL_NS_GPL(__pks_protect, PKS_TEST);

/* The protected range that starts at @start, or NULL. */
static struct pks_prot *__pks_find_start(phys_addr_t start)
{
	struct pks_prot *p;

	lockdep_assert_held(&pks_lock);
	list_for_each_entry(p, &pks_prots, list)
		if (p->start == start)
			return p;
	return NULL;
}

int __pks_unprotect(phys_addr_t start)
{
	struct pks_prot *p = __pks_find_start(start);

	if (!p)
		return -ENOENT;
	__pks_release(p, PKS_EVENT_UNPROTECTED);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(__pks_unprotect, PKS_TEST);

int __pks_set_mode(phys_addr_t start, u32 mode)
{
	struct pks_prot *p;

	if (mode != PKS_MODE_STRICT && mode != PKS_MODE_RELAXED)
		return -EINVAL;
	p = __pks_find_start(start);
	if (!p)
		return -ENOENT;
	/* Relaxed works through the fault probes; without them, refuse. */
	if (mode == PKS_MODE_RELAXED && !pks_faults_active())
		return -EOPNOTSUPP;
	WRITE_ONCE(p->mode, mode);
	pr_info("%s: now %s\n", p->name,
		mode == PKS_MODE_RELAXED ? "relaxed" : "strict");
	return 0;
}

/*
 * The protected range that holds all of [start, start + len), or NULL.
 * Lockless: the caller holds rcu_read_lock(), and may run in any context.
 */
static struct pks_prot *pks_prot_holding(phys_addr_t start, u64 len)
{
	struct pks_prot *p;

	list_for_each_entry_rcu(p, &pks_prots, list)
		if (p->start <= start && len <= p->len &&
		    start - p->start <= p->len - len)
			return p;
	return NULL;
}

/*
 * For the fault path, inside an RCU read-side section that also covers the
 * use of the result: if @address is in a protected range's direct map,
 * name the range and the offset, put its mode in @mode and return it; else
 * return NULL. One lookup per fault, so what the fault path decides (grant,
 * relaxed step, record) and what it counts is about one range.
 */
struct pks_prot *pks_prot_at(unsigned long address, char *name, u64 *offset,
			     int *mode)
{
	struct pks_prot *p;
	phys_addr_t pa;

	if (!virt_addr_valid(address))
		return NULL;
	pa = __pa(address);
	p = pks_prot_holding(pa, 1);
	if (p) {
		memcpy(name, p->name, PKS_NAME_LEN);
		*offset = pa - p->start;
		*mode = READ_ONCE(p->mode);
	}
	return p;
}

/* A stray fault on @p, from pks_prot_at() in the same RCU section. */
void pks_prot_count_fault(struct pks_prot *p)
{
	atomic64_inc(&p->faults);
}

/* Count, and fill up to @nr of, the protected ranges. */
int pks_list_ranges(struct pks_range_info *info, unsigned int nr)
{
	struct pks_prot *p;
	int n = 0;

	mutex_lock(&pks_lock);
	list_for_each_entry(p, &pks_prots, list) {
		if (n < nr) {
			memset(&info[n], 0, sizeof(info[n]));
			info[n].start = p->start;
			info[n].len = p->len;
			info[n].key = p->key;
			info[n].leaf_size = p->leaf_size;
			info[n].mode = p->mode;
			info[n].faults = atomic64_read(&p->faults);
			strscpy(info[n].name, p->name, PKS_NAME_LEN);
		}
		n++;
	}
	mutex_unlock(&pks_lock);
	return n;
}

/* The key of the protected range holding [start, start + len), or -1. */
int pks_range_key(phys_addr_t start, u64 len)
{
	struct pks_prot *p;
	int key;

	rcu_read_lock();
	p = pks_prot_holding(start, len);
	key = p ? p->key : -1;
	rcu_read_unlock();
	return key;
}
EXPORT_SYMBOL_NS_GPL(pks_range_key, PKS_TEST);

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
EXPORT_SYMBOL_NS_GPL(pks_dax_memory, PKS_TEST);

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

void pks_protect_exit(void)
{
	struct pks_prot *p, *tmp;
	int i;

	mutex_lock(&pks_lock);
	list_for_each_entry_safe(p, tmp, &pks_prots, list)
		__pks_release(p, PKS_EVENT_UNPROTECTED);
	for (i = 0; i < ARRAY_SIZE(pks_buses); i++)
		if (pks_buses[i])
			bus_unregister_notifier(pks_buses[i], &pks_bus_nb[i]);
	memset(pks_buses, 0, sizeof(pks_buses));
	mutex_unlock(&pks_lock);
	unregister_module_notifier(&pks_module_nb);
}
