// SPDX-License-Identifier: GPL-2.0
/*
 * The namespace filters list, enable and disable share, as daxctl's
 * filter.c: by region (nvdimm or CXL) and by CXL memdev.
 */
#include <stdio.h>
#include <string.h>

#include "builtin.h"

#define OPT_MEMDEV 0x200
static const struct argp_option filter_options[] = {
	{ "region", 'r', "REGION", 0,
	  "Only namespaces of REGION: an nvdimm region (regionX or X) or a "
	  "CXL region (cxl/regionX or cxl/X)", 0 },
	{ "memdev", OPT_MEMDEV, "MEMDEV", 0,
	  "Only namespaces on the CXL memdev MEMDEV (memX or X)", 0 },
	{ 0 }
};

static error_t filter_parse(int key, char *arg, struct argp_state *state)
{
	struct pkstool_filter *filter = state->input;

	switch (key) {
	case 'r':
		filter->region = arg;
		return 0;
	case OPT_MEMDEV:
		filter->memdev = arg;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp filter_argp = {
	.options = filter_options,
	.parser = filter_parse,
};

/*
 * The children of a command that takes the filters: the common options
 * (child_inputs[0]) and the filters (child_inputs[1], a struct
 * pkstool_filter).
 */
const struct argp_child pkstool_filter_children[] = {
	{ &pkstool_common_argp, 0, NULL, 0 },
	{ &filter_argp, 0, NULL, 0 },
	{ 0 }
};

/* Whether @arg names the region called @name: "regionX" or "X". */
static bool region_name_matches(const char *name, const char *arg)
{
	if (!name)
		return false;
	if (!strncmp(name, "region", 6) && !strcmp(name + 6, arg))
		return true;
	return !strcmp(name, arg);
}

/*
 * The nvdimm region, as for ndctl, or with "cxl/" the CXL region found
 * behind it (only namespaces on CXL match). The kernel gives a CXL
 * region's nvdimm region the CXL region's number, so the bare name the
 * cxl tool prints selects the same namespaces.
 */
static bool region_matches(struct pks_ns *ns, const char *region)
{
	if (!strncmp(region, "cxl/", 4))
		return region_name_matches(pks_ns_get_cxl_region(ns),
					   region + 4);
	return region_name_matches(pks_ns_get_region(ns), region);
}

/* Whether the CXL memdev @memdev ("memX" or "X") backs @ns. */
static bool memdev_matches(struct pks_ns *ns, const char *memdev)
{
	const char *name;
	unsigned int i;

	for (i = 0; (name = pks_ns_get_cxl_memdev(ns, i)); i++)
		if (!strcmp(name, memdev) ||
		    (!strncmp(name, "mem", 3) && !strcmp(name + 3, memdev)))
			return true;
	return false;
}

bool pkstool_filter_matches(const struct pkstool_filter *filter,
			    struct pks_ns *ns)
{
	if (filter->region && !region_matches(ns, filter->region))
		return false;
	return !filter->memdev || memdev_matches(ns, filter->memdev);
}

/* What the filters are, for messages: "region cxl/region1, memdev mem0". */
void pkstool_filter_to_text(const struct pkstool_filter *filter, char *buf,
			    size_t len)
{
	snprintf(buf, len, "%s%s%s%s%s", filter->region ? "region " : "",
		 filter->region ? filter->region : "",
		 filter->region && filter->memdev ? ", " : "",
		 filter->memdev ? "memdev " : "",
		 filter->memdev ? filter->memdev : "");
}
