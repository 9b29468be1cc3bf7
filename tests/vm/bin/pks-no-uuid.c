// SPDX-License-Identifier: GPL-2.0
/*
 * pks-no-uuid.so, an LD_PRELOAD shim for the persist case: every UUID
 * libndctl reports (namespace, pfn, dax and btt info blocks) reads as
 * null, as a namespace without labels or info block would, which the
 * test VM cannot create (its devdax and fsdax namespaces always carry an
 * info block UUID). libpks reaches libndctl through its PLT, so these
 * definitions win.
 */
#include <string.h>
/* libndctl uses libuuid's uuid_t when told it has libuuid. */
#define HAVE_UUID
#include <uuid/uuid.h>
#include <ndctl/libndctl.h>

void ndctl_namespace_get_uuid(struct ndctl_namespace *ndns, uuid_t uu)
{
	(void)ndns;
	memset(uu, 0, sizeof(uuid_t));
}

void ndctl_btt_get_uuid(struct ndctl_btt *btt, uuid_t uu)
{
	(void)btt;
	memset(uu, 0, sizeof(uuid_t));
}

void ndctl_pfn_get_uuid(struct ndctl_pfn *pfn, uuid_t uu)
{
	(void)pfn;
	memset(uu, 0, sizeof(uuid_t));
}

void ndctl_dax_get_uuid(struct ndctl_dax *dax, uuid_t uu)
{
	(void)dax;
	memset(uu, 0, sizeof(uuid_t));
}
