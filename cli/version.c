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
	struct json_object *array, *jver;
	int status;

	(void)ctx;
	if (!pkstool_parse(&version_argp, argc, argv, &opts, &status))
		return status;
	if (!opts.json) {
		printf("%s\n", PKSTOOL_VERSION);
		return PKSTOOL_DONE;
	}
	array = json_object_new_array();
	jver = json_object_new_object();
	json_object_object_add(jver, "version",
			       json_object_new_string(PKSTOOL_VERSION));
	json_object_object_add(jver, "abi_version",
			       json_object_new_int(pks_get_lib_abi_version()));
	json_object_array_add(array, jver);
	display_json_array(array);
	json_object_put(array);
	return PKSTOOL_DONE;
}
