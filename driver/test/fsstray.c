// SPDX-License-Identifier: GPL-2.0
/*
 * Strays from a file system's own code under the DAX layer
 * (PKS_TEST_IOC_FS_STRAYS): a kprobe on ext4's iomap_begin callback, which
 * dax_iomap_rw() calls for every read and write of a file on ext4 -o dax,
 * makes a fault-safe stray write into the namespace each time it runs in
 * a task. That is what a bad pointer in the file system's block mapping,
 * extent or journal code does: it runs a few frames under dax_iomap_rw(),
 * yet is not the DAX layer, and must be refused (issue 30 item 7a).
 */
#include "test.h"

#include <linux/atomic.h>
#include <linux/kprobes.h>
#include <linux/memremap.h>
#include <linux/mutex.h>

static DEFINE_MUTEX(pks_fs_strays_lock);
static struct kprobe pks_fs_strays_probe;
static struct dev_pagemap *pks_fs_strays_pgmap;
static bool pks_fs_strays_control;
static void *pks_fs_strays_va;
static u64 pks_fs_strays_value;
static atomic64_t pks_fs_strays_landed, pks_fs_strays_refused;

static int pks_fs_strays_pre(struct kprobe *p, struct pt_regs *regs)
{
	if (!in_task())
		return 0;
	if (pks_can_write(pks_fs_strays_va, pks_fs_strays_value))
		atomic64_inc(&pks_fs_strays_landed);
	else
		atomic64_inc(&pks_fs_strays_refused);
	return 0;
}

static void pks_fs_strays_remove(void)
{
	unregister_kprobe(&pks_fs_strays_probe);
	if (pks_fs_strays_control)
		pks_legit_context_enforce(true);
	put_dev_pagemap(pks_fs_strays_pgmap);
	pks_fs_strays_pgmap = NULL;
}

static int pks_fs_strays_place(struct pks_fs_strays *req)
{
	struct dev_pagemap *pgmap;
	int rc;

	/* As stray.c: dax memory only, its pagemap held while armed. */
	pgmap = pks_test_dax_pagemap(req->start, 8);
	if (!pgmap)
		return -ENOENT;
	pks_fs_strays_va = __va(req->start);
	pks_fs_strays_value = req->value;
	atomic64_set(&pks_fs_strays_landed, 0);
	atomic64_set(&pks_fs_strays_refused, 0);
	pks_fs_strays_control = req->flags & PKS_FS_STRAYS_F_CONTROL;
	if (pks_fs_strays_control)
		pks_legit_context_enforce(false);
	memset(&pks_fs_strays_probe, 0, sizeof(pks_fs_strays_probe));
	pks_fs_strays_probe.symbol_name = "ext4_iomap_begin";
	pks_fs_strays_probe.pre_handler = pks_fs_strays_pre;
	rc = register_kprobe(&pks_fs_strays_probe);
	if (rc) {
		if (pks_fs_strays_control)
			pks_legit_context_enforce(true);
		put_dev_pagemap(pgmap);
		return rc;
	}
	pks_fs_strays_pgmap = pgmap;
	return 0;
}

/**
 * pks_fs_strays() - the PKS_TEST_IOC_FS_STRAYS call
 * @req: the request; the counts are filled in
 *
 * Return: 0, or -errno as documented for PKS_TEST_IOC_FS_STRAYS.
 */
int pks_fs_strays(struct pks_fs_strays *req)
{
	int rc = 0;

	if (req->on > 1 || req->rsvd || req->start & 7 ||
	    req->flags & ~PKS_FS_STRAYS_F_CONTROL)
		return -EINVAL;
	mutex_lock(&pks_fs_strays_lock);
	if (req->on && !pks_fs_strays_pgmap)
		rc = pks_fs_strays_place(req);
	else if (req->on)
		rc = -EBUSY;
	else if (pks_fs_strays_pgmap)
		pks_fs_strays_remove();
	req->landed = atomic64_read(&pks_fs_strays_landed);
	req->refused = atomic64_read(&pks_fs_strays_refused);
	mutex_unlock(&pks_fs_strays_lock);
	return rc;
}

void pks_fs_strays_exit(void)
{
	mutex_lock(&pks_fs_strays_lock);
	if (pks_fs_strays_pgmap)
		pks_fs_strays_remove();
	mutex_unlock(&pks_fs_strays_lock);
}
