// SPDX-License-Identifier: GPL-2.0
/*
 * pkstool list: every pmem namespace and its protection, as JSON (like
 * ndctl list, which it mirrors in field names).
 */
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "persist.h"

struct list_opts {
	struct pkstool_opts common;
	bool human;
};

static const struct argp_option list_options[] = {
	{ "human", 'u', NULL, 0, "Sizes in human units", 0 },
	{ 0 }
};

static error_t list_parse(int key, char *arg, struct argp_state *state)
{
	struct list_opts *opts = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &opts->common;
		return 0;
	case 'u':
		opts->human = true;
		return 0;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		return EINVAL;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp list_argp = {
	.options = list_options,
	.parser = list_parse,
	.doc = "List pmem namespaces with their protection state, as a JSON array.",
	.children = pkstool_common_children,
};

int cmd_list(int argc, char **argv, struct pks_ctx *ctx)
{
	struct list_opts opts = { 0 };
	struct json_object *array, *jns;
	struct pkstool_persist *persist;
	struct pks_ns *ns;
	int rc;

	if (argp_parse(&list_argp, argc, argv, 0, NULL, &opts))
		return -PKSTOOL_E_USAGE;
	/* Namespaces are listed without the driver too, all unprotected. */
	rc = pks_driver_status(ctx);
	if (rc && rc != -ENOENT)
		return pkstool_open_driver(ctx, &opts.common, "list");
	rc = pks_ns_scan(ctx);
	if (rc) {
		p_err(&opts.common, "list: reading namespaces: %s",
		      strerror(-rc));
		return rc;
	}
	/* Unreadable records make "persistent" null, not the list fail. */
	if (pkstool_persist_open(&persist, false, &opts.common, "list"))
		persist = NULL;
	array = json_object_new_array();
	pks_ns_foreach(ctx, ns) {
		jns = pks_ns_to_json(ns, opts.human);
		pkstool_persist_to_json(persist, ns, jns);
		json_object_array_add(array, jns);
	}
	display_json_array(array);
	json_object_put(array);
	pkstool_persist_close(persist, &opts.common, "list");
	return 0;
}
