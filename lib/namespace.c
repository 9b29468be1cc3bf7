// SPDX-License-Identifier: LGPL-2.1
/*
 * libpks: the pmem namespaces, from libndctl and libdaxctl, with the
 * driver's protection of each.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <syslog.h>
#include <sys/mman.h>
#include <unistd.h>
/* libndctl uses libuuid's uuid_t when told it has libuuid. */
#define HAVE_UUID
#include <uuid/uuid.h>
#include <ndctl/libndctl.h>
#include <daxctl/libdaxctl.h>
#include <cxl/libcxl.h>

#include "libpks-private.h"

static const char *pks_ns_mode_name(struct ndctl_namespace *ndns)
{
	switch (ndctl_namespace_get_mode(ndns)) {
	case NDCTL_NS_MODE_DEVDAX:
		return "devdax";
	case NDCTL_NS_MODE_FSDAX:
		return "fsdax";
	case NDCTL_NS_MODE_SECTOR:
		return "sector";
	case NDCTL_NS_MODE_RAW:
		return "raw";
	default:
		return "unknown";
	}
}

/*
 * The namespace's identity for a record that outlives its name: the UUID
 * 'ndctl list -N' shows, the one of its personality's info block (dax,
 * pfn or btt) when it has one, else the label's. It survives disable and
 * enable, reboots and renumbering; re-creating or reconfiguring the
 * namespace gives it a new one.
 */
static void pks_ns_read_uuid(struct pks_ns *ns, struct ndctl_namespace *ndns,
			     struct ndctl_dax *dax)
{
	struct ndctl_pfn *pfn = ndctl_namespace_get_pfn(ndns);
	struct ndctl_btt *btt = ndctl_namespace_get_btt(ndns);
	uuid_t uu;

	if (dax)
		ndctl_dax_get_uuid(dax, uu);
	else if (pfn)
		ndctl_pfn_get_uuid(pfn, uu);
	else if (btt)
		ndctl_btt_get_uuid(btt, uu);
	else
		ndctl_namespace_get_uuid(ndns, uu);
	if (!uuid_is_null(uu))
		uuid_unparse_lower(uu, ns->uuid);
}

/* Whether the dax device @dev is bound to the driver @drv (sysfs). */
static int pks_dax_bound_to(const char *dev, const char *drv)
{
	char path[128], link[256];
	const char *name;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/bus/dax/devices/%s/driver", dev);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return 0;
	link[n] = '\0';
	name = strrchr(link, '/');
	return !strcmp(name ? name + 1 : link, drv);
}

/* Returns 0 or -ENOMEM: a namespace is never dropped silently. */
static int pks_ns_add(struct pks_ctx *ctx, struct ndctl_namespace *ndns,
		      const struct pks_backing *backing)
{
	struct daxctl_region *region;
	struct daxctl_dev *dev;
	struct ndctl_dax *dax;
	struct ndctl_pfn *pfn;
	struct pks_ns *ns, **tail;

	ns = calloc(1, sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	ns->ctx = ctx;
	ns->key = -1;
	ns->prot_mode = -1;
	snprintf(ns->name, sizeof(ns->name), "%s",
		 ndctl_namespace_get_devname(ndns));
	snprintf(ns->region, sizeof(ns->region), "%s",
		 ndctl_region_get_devname(ndctl_namespace_get_region(ndns)));
	ns->backing = *backing;
	ns->mode = pks_ns_mode_name(ndns);
	ns->size = ndctl_namespace_get_size(ndns);
	ns->resource = ndctl_namespace_get_resource(ndns);
	ns->range_size = ns->size;
	dax = ndctl_namespace_get_dax(ndns);
	if (dax && ndctl_dax_get_size(dax))
		ns->size = ndctl_dax_get_size(dax);
	region = dax ? ndctl_dax_get_daxctl_region(dax) : NULL;
	if (region) {
		daxctl_dev_foreach(region, dev) {
			if (!daxctl_dev_get_size(dev))
				continue;
			ns->resource = daxctl_dev_get_resource(dev);
			ns->range_size = daxctl_dev_get_size(dev);
			/*
			 * Reconfigured to system-ram (kmem): hotplugged
			 * memory, no dax device, nothing to protect.
			 */
			if (daxctl_dev_get_memory(dev)) {
				ns->mode = "system-ram";
				break;
			}
			snprintf(ns->chardev, sizeof(ns->chardev), "%s",
				 daxctl_dev_get_devname(dev));
			ns->fsdev = pks_dax_bound_to(ns->chardev, "fsdev_dax");
			break;
		}
	}
	pks_ns_read_uuid(ns, ndns, dax);
	pfn = ndctl_namespace_get_pfn(ndns);
	if (pfn && ndctl_pfn_get_size(pfn))
		ns->size = ndctl_pfn_get_size(pfn);
	if (pfn && ndctl_pfn_get_block_device(pfn))
		snprintf(ns->blockdev, sizeof(ns->blockdev), "%s",
			 ndctl_pfn_get_block_device(pfn));
	for (tail = &ctx->namespaces; *tail; tail = &(*tail)->next)
		;
	*tail = ns;
	return 0;
}

/* Read protected ranges and mark the namespaces they belong to. */
static int pks_ns_read_keys(struct pks_ctx *ctx)
{
	struct pks_range_info ranges[PKS_NR_KEYS];
	struct pks_list list = {
		.size = sizeof(list),
		.nr = PKS_NR_KEYS,
		.ranges = (uintptr_t)ranges,
	};
	struct pks_ns *ns;
	unsigned int i;

	int rc;

	/* Without the driver, every namespace is simply unprotected. */
	if (ctx->open_err == -ENOENT)
		return 0;
	rc = pks_call(ctx, PKS_IOC_LIST, &list);
	if (rc)
		return rc;
	pks_ns_foreach(ctx, ns) {
		ns->key = -1;
		ns->prot_mode = -1;
		ns->faults = 0;
		for (i = 0; i < list.nr && i < PKS_NR_KEYS; i++) {
			ranges[i].name[PKS_NAME_LEN - 1] = '\0';
			/* fsdax: the driver found the data area itself. */
			if (*ns->blockdev &&
			    !strcmp(ranges[i].name, ns->blockdev)) {
				ns->resource = ranges[i].start;
				ns->range_size = ranges[i].len;
			}
			/*
			 * By name: the driver shows the start only to root,
			 * and sysfs the namespace's resource likewise.
			 */
			if (strcmp(ranges[i].name, *ns->chardev ?
				   ns->chardev : ns->blockdev))
				continue;
			ns->key = ranges[i].key;
			ns->prot_mode = ranges[i].mode;
			ns->faults = ranges[i].faults;
		}
	}
	return 0;
}

static unsigned int pks_ns_count(struct pks_ctx *ctx)
{
	struct pks_ns *ns;
	unsigned int n = 0;

	for (ns = ctx->namespaces; ns; ns = ns->next)
		n++;
	return n;
}

/*
 * Every scan starts afresh, from a new libndctl context (whose own
 * sysfs cache would hide namespaces created or destroyed since), and a
 * new libcxl one where a region is on CXL.
 */
int pks_ns_scan(struct pks_ctx *ctx)
{
	struct cxl_ctx *cctx = NULL;
	struct pks_backing backing;
	struct ndctl_ctx *nctx;
	struct ndctl_bus *bus;
	struct ndctl_region *region;
	struct ndctl_namespace *ndns;
	int rc;

	pks_ns_free_all(ctx);
	rc = ndctl_new(&nctx);
	if (rc)
		return rc < 0 ? rc : -ENOMEM;
	ndctl_bus_foreach(nctx, bus)
		ndctl_region_foreach(bus, region) {
			rc = pks_read_backing(ctx, &cctx, bus, region, &backing);
			if (rc)
				goto out;
			ndctl_namespace_foreach(region, ndns) {
				if (!ndctl_namespace_get_size(ndns))
					continue;
				rc = pks_ns_add(ctx, ndns, &backing);
				if (rc)
					goto out;
			}
		}
out:
	if (cctx)
		cxl_unref(cctx);
	ndctl_unref(nctx);
	if (rc) {
		pks_ns_free_all(ctx);
		return rc;
	}
	rc = pks_ns_read_keys(ctx);
	if (rc)
		pks_ns_free_all(ctx);
	pks_log(ctx, LOG_DEBUG, "scan: %u namespaces: %s\n",
		pks_ns_count(ctx), strerror(-rc));
	return rc;
}

struct pks_ns *pks_ns_get_first(struct pks_ctx *ctx)
{
	return ctx->namespaces;
}

struct pks_ns *pks_ns_get_next(struct pks_ns *ns)
{
	return ns->next;
}

/*
 * "/dev/" is dropped from any name, so that a device path and the device's
 * name are one. A device the namespace lacks ("") matches nothing.
 */
bool pks_ns_name_matches(const char *ident, const char *name,
			 const char *chardev, const char *blockdev)
{
	if (!strncmp(ident, "/dev/", 5))
		ident += 5;
	return !strcmp(name, ident) ||
	       (*chardev && !strcmp(chardev, ident)) ||
	       (*blockdev && !strcmp(blockdev, ident));
}

struct pks_ns *pks_ns_find(struct pks_ctx *ctx, const char *ident)
{
	struct pks_ns *ns;

	pks_ns_foreach(ctx, ns)
		if (pks_ns_name_matches(ident, ns->name, ns->chardev,
					ns->blockdev))
			return ns;
	/* The UUID ndctl list -N shows, which survives reboots. */
	return pks_ns_find_by_uuid(ctx, ident);
}

const char *pks_ns_get_name(struct pks_ns *ns)
{
	return ns->name;
}

const char *pks_ns_get_uuid(struct pks_ns *ns)
{
	return *ns->uuid ? ns->uuid : NULL;
}

struct pks_ns *pks_ns_find_by_uuid(struct pks_ctx *ctx, const char *uuid)
{
	struct pks_ns *ns;

	pks_ns_foreach(ctx, ns)
		if (*ns->uuid && !strcasecmp(ns->uuid, uuid))
			return ns;
	return NULL;
}

const char *pks_ns_get_mode(struct pks_ns *ns)
{
	return ns->mode;
}

const char *pks_ns_get_region(struct pks_ns *ns)
{
	return ns->region;
}

const char *pks_ns_get_provider(struct pks_ns *ns)
{
	return *ns->backing.provider ? ns->backing.provider : NULL;
}

const char *pks_ns_get_cxl_region(struct pks_ns *ns)
{
	return *ns->backing.cxl_region ? ns->backing.cxl_region : NULL;
}

const char *pks_ns_get_cxl_memdev(struct pks_ns *ns, unsigned int i)
{
	return i < ns->backing.nr_cxl_memdevs ? ns->backing.cxl_memdevs[i] :
						NULL;
}

bool pks_ns_is_devdax(struct pks_ns *ns)
{
	return *ns->chardev;
}

const char *pks_ns_get_blockdev(struct pks_ns *ns)
{
	return *ns->blockdev ? ns->blockdev : NULL;
}

bool pks_ns_can_protect(struct pks_ns *ns)
{
	return *ns->chardev || *ns->blockdev;
}

const char *pks_ns_get_device(struct pks_ns *ns)
{
	return *ns->chardev ? ns->chardev :
	       *ns->blockdev ? ns->blockdev : NULL;
}

const char *pks_ns_get_chardev(struct pks_ns *ns)
{
	return *ns->chardev ? ns->chardev : NULL;
}

uint64_t pks_ns_get_size(struct pks_ns *ns)
{
	return ns->size;
}

uint64_t pks_ns_get_resource(struct pks_ns *ns)
{
	return ns->resource;
}

uint64_t pks_ns_get_range_size(struct pks_ns *ns)
{
	return ns->range_size;
}

int pks_ns_map(struct pks_ns *ns, struct pks_range *range, int *fd)
{
	char path[80];
	void *addr;

	snprintf(path, sizeof(path), "/dev/%s", ns->chardev);
	*fd = open(path, O_RDWR | O_CLOEXEC);
	if (*fd < 0)
		return -errno;
	addr = mmap(NULL, ns->range_size, PROT_READ, MAP_SHARED, *fd, 0);
	if (addr == MAP_FAILED) {
		int rc = -errno;

		close(*fd);
		return rc;
	}
	range->addr = (uintptr_t)addr;
	range->start = ns->resource;
	range->len = ns->range_size;
	return 0;
}

void pks_ns_unmap(struct pks_range *range, int fd)
{
	munmap((void *)(uintptr_t)range->addr, range->len);
	close(fd);
}
