// SPDX-License-Identifier: LGPL-2.1
/*
 * libpks: what backs a namespace's region: its nvdimm bus provider and,
 * on CXL, the CXL region and its memdevs (libcxl).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>
/* libndctl uses libuuid's uuid_t when told it has libuuid. */
#define HAVE_UUID
#include <uuid/uuid.h>
#include <ndctl/libndctl.h>
#include <cxl/libcxl.h>

#include "libpks-private.h"

/*
 * The CXL root an nvdimm bus of provider "CXL" belongs to, into @root:
 * cxl_pmem registers one bus per CXL root, under the root's nvdimm
 * bridge (.../root0/nvdimm-bridge0/ndbus0). False when the bus is not
 * laid out so.
 */
static bool pks_cxl_bus_root(struct ndctl_bus *bus, char *root, size_t len)
{
	char path[PATH_MAX], *real, *slash, *bridge;
	bool ok = false;

	snprintf(path, sizeof(path), "/sys/bus/nd/devices/%s",
		 ndctl_bus_get_devname(bus));
	real = realpath(path, NULL);
	if (!real)
		return false;
	slash = strrchr(real, '/');		/* /ndbusN */
	if (slash) {
		*slash = '\0';
		bridge = strrchr(real, '/');	/* /nvdimm-bridgeN */
		if (bridge && !strncmp(bridge + 1, "nvdimm-bridge", 13)) {
			*bridge = '\0';
			slash = strrchr(real, '/');	/* /rootN */
			if (slash) {
				snprintf(root, len, "%s", slash + 1);
				ok = true;
			}
		}
	}
	free(real);
	return ok;
}

/*
 * Whether CXL region @creg is enabled as persistent memory: cxl_pmem then
 * gives it a pmem_regionN child, under which it registers the nvdimm
 * region.
 */
static bool pks_cxl_region_is_pmem(struct cxl_region *creg)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/bus/cxl/devices/%s/pmem_region%d",
		 cxl_region_get_devname(creg), cxl_region_get_id(creg));
	return !access(path, F_OK);
}

/* @creg's memdevs in interleave position order, into @backing. */
static void pks_cxl_read_memdevs(struct pks_backing *backing,
				 struct cxl_region *creg)
{
	const char *by_pos[PKS_CXL_MAX_MEMDEVS] = { NULL };
	struct cxl_memdev_mapping *mapping;
	struct cxl_decoder *decoder;
	struct cxl_memdev *memdev;
	unsigned int pos, n = 0;

	cxl_mapping_foreach(creg, mapping) {
		pos = cxl_mapping_get_position(mapping);
		decoder = cxl_mapping_get_decoder(mapping);
		memdev = decoder ? cxl_decoder_get_memdev(decoder) : NULL;
		if (pos < PKS_CXL_MAX_MEMDEVS && memdev)
			by_pos[pos] = cxl_memdev_get_devname(memdev);
	}
	for (pos = 0; pos < PKS_CXL_MAX_MEMDEVS; pos++)
		if (by_pos[pos])
			snprintf(backing->cxl_memdevs[n++],
				 sizeof(backing->cxl_memdevs[0]), "%s",
				 by_pos[pos]);
	backing->nr_cxl_memdevs = n;
}

/*
 * The CXL region behind nvdimm region @region of a "CXL" bus. sysfs links
 * neither to the other (pmem_regionN has no link to the nvdimm region,
 * the nvdimm's "cxl" attributes are absent on 6.1), but both cover the
 * same host physical range: a candidate is an enabled pmem region under
 * the bus's CXL root with the region's size, and the match is by start
 * where the nvdimm region's start is readable (root only). Without it, a
 * lone candidate is taken and several (regions of one size under one
 * root) leave the CXL region unknown rather than guessed.
 */
static void pks_cxl_lookup(struct pks_ctx *ctx, struct cxl_ctx *cctx,
			   struct ndctl_bus *bus, struct ndctl_region *region,
			   struct pks_backing *backing)
{
	unsigned long long start = ndctl_region_get_resource(region);
	unsigned long long size = ndctl_region_get_size(region);
	struct cxl_region *creg, *found = NULL;
	struct cxl_decoder *decoder;
	struct cxl_bus *cbus;
	unsigned int n = 0;
	char root[64];

	if (!pks_cxl_bus_root(bus, root, sizeof(root)))
		return;
	cxl_bus_foreach(cctx, cbus) {
		if (strcmp(cxl_bus_get_devname(cbus), root))
			continue;
		cxl_decoder_foreach(cxl_bus_get_port(cbus), decoder)
			cxl_region_foreach(decoder, creg) {
				if (cxl_region_get_size(creg) != size ||
				    !pks_cxl_region_is_pmem(creg))
					continue;
				if (start != ULLONG_MAX &&
				    cxl_region_get_resource(creg) != start)
					continue;
				found = creg;
				n++;
			}
	}
	pks_log(ctx, LOG_DEBUG, "%s: %u CXL region(s) under %s match\n",
		ndctl_region_get_devname(region), n, root);
	if (n != 1)
		return;
	snprintf(backing->cxl_region, sizeof(backing->cxl_region), "%s",
		 cxl_region_get_devname(found));
	pks_cxl_read_memdevs(backing, found);
}

/*
 * What backs @region, into @backing. A libcxl context is made at the
 * first region of a CXL bus, into *@cctx, for the caller to release.
 */
int pks_read_backing(struct pks_ctx *ctx, struct cxl_ctx **cctx,
		     struct ndctl_bus *bus, struct ndctl_region *region,
		     struct pks_backing *backing)
{
	const char *provider = ndctl_bus_get_provider(bus);
	int rc;

	memset(backing, 0, sizeof(*backing));
	snprintf(backing->provider, sizeof(backing->provider), "%s",
		 provider ? provider : "");
	if (!provider || strcmp(provider, "CXL"))
		return 0;
	if (!*cctx) {
		rc = cxl_new(cctx);
		if (rc) {
			*cctx = NULL;
			return rc < 0 ? rc : -ENOMEM;
		}
	}
	pks_cxl_lookup(ctx, *cctx, bus, region, backing);
	return 0;
}
