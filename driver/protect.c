// SPDX-License-Identifier: GPL-2.0
/*
 * Namespace protection: the registry of protected ranges and their
 * lifecycle. A request that passes the checks (rangecheck.c) gets a key,
 * is listed, and has its direct map keyed (directmap.c), so that the
 * kernel reaches it only through access windows (access.c); it is released
 * on request, when its device goes away, or at unload.
 */
#include "pks_internal.h"

#include <linux/dax.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>

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
	if (list_empty(&pks_prots)) {
		pks_grants_disarm();
		/* Unrelated I/O runs no driver code again. */
		pks_brackets_remove();
	}
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
	/*
	 * For the next enable's mmap, should device_dax have come since. A
	 * device-dax range is refused while the guard cannot be placed:
	 * pkstool enable maps the device, the mmap the guard is for.
	 */
	rc = pks_dax_guard_arm();
	if (rc && !(flags & PKS_PROTECT_F_BLOCKDEV))
		return pks_refuse(msg, -EOPNOTSUPP,
				  "the dax guard cannot probe %s (%d): device-dax namespaces are not protected without it",
				  pks_dax_guard_symbol(), rc);
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
	/*
	 * The owner's copies open the key themselves (ownercopy.c): placed
	 * before the range is keyed, so its I/O takes no fault from the start.
	 */
	pks_brackets_place();
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
EXPORT_SYMBOL_NS_GPL(__pks_protect, PKS_TEST_NS);

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
EXPORT_SYMBOL_NS_GPL(__pks_unprotect, PKS_TEST_NS);

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
struct pks_prot *pks_prot_holding(phys_addr_t start, u64 len)
{
	struct pks_prot *p;

	list_for_each_entry_rcu(p, &pks_prots, list)
		if (p->start <= start && len <= p->len &&
		    start - p->start <= p->len - len)
			return p;
	return NULL;
}

/*
 * The protected fsdax namespace whose dax_device is @dax_dev or whose
 * gendisk is @disk, or NULL. Lockless, as pks_prot_holding(): for the
 * owner's copy brackets, which compare the pointers and follow neither.
 */
struct pks_prot *pks_prot_of_owner(const struct dax_device *dax_dev,
				   const struct gendisk *disk)
{
	struct pks_prot *p;

	list_for_each_entry_rcu(p, &pks_prots, list)
		if (p->fsdax && ((dax_dev && p->dax_dev == dax_dev) ||
				 (disk && p->disk == disk)))
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
EXPORT_SYMBOL_NS_GPL(pks_range_key, PKS_TEST_NS);

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
