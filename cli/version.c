// SPDX-License-Identifier: GPL-2.0
/*
 * pkstool version.
 */
#include <stdio.h>

#include "builtin.h"

#ifndef PKSTOOL_VERSION
#define PKSTOOL_VERSION "unknown"
#endif

static const struct argp version_argp = {
	.parser = pkstool_parse_no_args,
	.doc = "Print pkstool's version.",
	.children = pkstool_common_children,
};

int cmd_version(int argc, char **argv, struct pks_ctx *ctx)
{
	struct pkstool_opts opts = { 0 };
	struct json_object *array;

	(void)ctx;
	if (argp_parse(&version_argp, argc, argv, 0, NULL, &opts))
		return -PKSTOOL_E_USAGE;
	if (!opts.json) {
		printf("%s\n", PKSTOOL_VERSION);
		return 0;
	}
	array = json_object_new_array();
	json_object_array_add(array, json_object_new_string(PKSTOOL_VERSION));
	display_json_array(array);
	json_object_put(array);
	return 0;
}
