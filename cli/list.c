// SPDX-License-Identifier: GPL-2.0
/*
 * pkstool list: pmem namespaces and their protection, as text or as a
 * JSON array (field names as in ndctl list where they mean the same).
 */
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "persist.h"

struct list_opts {
	struct pkstool_opts common;
	bool human;
	struct pkstool_filter filter;
	const char *namespace;
	const char *ns_mode;
};

static const struct argp_option list_options[] = {
	{ "human", 'u', NULL, 0, "Sizes in human units, as ndctl list -u", 0 },
	{ "namespace", 'n', "NAMESPACE", 0,
	  "Only NAMESPACE (namespaceX.Y, daxX.Y, pmemX)", 0 },
	{ "ns-mode", 'M', "MODE", 0,
	  "Only namespaces in MODE: devdax, fsdax, sector, raw or system-ram",
	  0 },
	{ 0 }
};

/* The modes ndctl gives a namespace: -M takes one of them, as ndctl's. */
static const char *const ns_modes[] = {
	"devdax", "fsdax", "sector", "raw", "system-ram",
};

static bool ns_mode_known(const char *mode)
{
	size_t i;

	for (i = 0; i < sizeof(ns_modes) / sizeof(ns_modes[0]); i++)
		if (!strcmp(mode, ns_modes[i]))
			return true;
	return false;
}

static error_t list_parse(int key, char *arg, struct argp_state *state)
{
	struct list_opts *opts = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &opts->common;
		state->child_inputs[1] = &opts->filter;
		return 0;
	case 'u':
		opts->human = true;
		return 0;
	case 'n':
		opts->namespace = arg;
		return 0;
	case 'M':
		if (!ns_mode_known(arg))
			return pkstool_usage(state,
					     "unknown namespace mode '%s': devdax, fsdax, sector, raw or system-ram",
					     arg);
		opts->ns_mode = arg;
		return 0;
	case ARGP_KEY_ARG:
		return pkstool_usage(state, "unexpected argument '%s'", arg);
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp list_argp = {
	.options = list_options,
	.parser = list_parse,
	.doc = "List pmem namespaces with their protection state.\v"
	       "Filters combine: a namespace is listed when it matches each "
	       "one given.",
	.children = pkstool_filter_children,
};

static bool list_wanted(struct pks_ctx *ctx, const struct list_opts *opts,
			struct pks_ns *ns)
{
	if (opts->namespace && pks_ns_find(ctx, opts->namespace) != ns)
		return false;
	if (opts->ns_mode && strcmp(pks_ns_get_mode(ns), opts->ns_mode))
		return false;
	return pkstool_filter_matches(&opts->filter, ns);
}

/*
 * What backs @ns as one word: its bus provider ("ACPI.NFIT"), or for a
 * CXL region "cxl/REGION:MEMDEV,..." (in -r's spelling), "CXL" when the
 * region is not known, "-" when nothing is.
 */
static void backing_to_text(struct pks_ns *ns, char *buf, size_t len)
{
	const char *provider = pks_ns_get_provider(ns);
	const char *cxl_region = pks_ns_get_cxl_region(ns), *memdev;
	unsigned int i;
	size_t n;

	if (!cxl_region) {
		snprintf(buf, len, "%s", provider ? provider : "-");
		return;
	}
	n = snprintf(buf, len, "cxl/%s", cxl_region);
	for (i = 0; n < len && (memdev = pks_ns_get_cxl_memdev(ns, i)); i++)
		n += snprintf(buf + n, len - n, "%c%s", i ? ',' : ':', memdev);
}

/* The text list's first line: what each column of list_print_text() is. */
static void list_print_header(void)
{
	printf("%-14s %-8s %-16s %-10s %-10s %-24s %s\n", "NAMESPACE",
	       "REGION", "BACKING", "MODE", "DEVICE", "SIZE", "PROTECTION");
}

/* One line per namespace; @jns says whether it is recorded to persist. */
static void list_print_text(struct pks_ns *ns, bool human,
			    struct json_object *jns)
{
	const char *dev = pks_ns_get_device(ns);
	struct json_object *persistent;
	char size[48], backing[640];

	if (human)
		util_size_to_human(pks_ns_get_size(ns), size, sizeof(size));
	else
		snprintf(size, sizeof(size), "%llu",
			 (unsigned long long)pks_ns_get_size(ns));
	backing_to_text(ns, backing, sizeof(backing));
	printf("%-14s %-8s %-16s %-10s %-10s %-24s ", pks_ns_get_name(ns),
	       pks_ns_get_region(ns), backing, pks_ns_get_mode(ns),
	       dev ? dev : "-", size);
	if (pks_ns_is_protected(ns))
		printf("protected key %d %s faults %llu", pks_ns_get_key(ns),
		       pks_mode_name(pks_ns_get_protection_mode(ns)),
		       (unsigned long long)pks_ns_get_faults(ns));
	else
		printf("unprotected");
	if (json_object_object_get_ex(jns, "persistent", &persistent) &&
	    json_object_get_boolean(persistent))
		printf(" persistent");
	printf("\n");
}

int cmd_list(int argc, char **argv, struct pks_ctx *ctx)
{
	struct list_opts opts = { 0 };
	struct json_object *array, *jns;
	struct pkstool_persist *persist;
	unsigned int listed = 0;
	struct pks_ns *ns;
	int rc;

	if (!pkstool_parse(&list_argp, argc, argv, &opts, &rc))
		return rc;
	/* Namespaces are listed without the driver too, all unprotected. */
	rc = pks_driver_status(ctx);
	if (rc && rc != -ENOENT)
		return pkstool_open_driver(ctx, &opts.common, "list");
	rc = pks_ns_scan(ctx);
	if (rc) {
		p_err(&opts.common, "list: reading namespaces: %s",
		      strerror(-rc));
		return PKSTOOL_FAILED;
	}
	if (opts.namespace && !pks_ns_find(ctx, opts.namespace)) {
		p_err(&opts.common,
		      "list: no namespace '%s': see 'pkstool list' or 'ndctl list -N'",
		      opts.namespace);
		return PKSTOOL_FAILED;
	}
	/* Unreadable records make "persistent" null, not the list fail. */
	if (pkstool_persist_open(&persist, false, &opts.common, "list"))
		persist = NULL;
	array = json_object_new_array();
	pks_ns_foreach(ctx, ns) {
		if (!list_wanted(ctx, &opts, ns))
			continue;
		if (!opts.common.json && !listed)
			list_print_header();
		listed++;
		jns = util_ns_to_json(ns, opts.human);
		util_ns_backing_to_json(ns, jns);
		pkstool_persist_to_json(persist, ns, jns);
		if (opts.common.json) {
			json_object_array_add(array, jns);
		} else {
			list_print_text(ns, opts.human, jns);
			json_object_put(jns);
		}
	}
	if (opts.common.json)
		display_json_array(array);
	else if (!listed)
		printf("no pmem namespaces%s\n",
		       opts.namespace || opts.ns_mode || opts.filter.region ||
		       opts.filter.memdev ? " match the filters" : "");
	json_object_put(array);
	pkstool_persist_close(persist, &opts.common, "list");
	return PKSTOOL_DONE;
}
