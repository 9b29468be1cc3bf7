// SPDX-License-Identifier: GPL-2.0
/*
 * pkstool version: the releases of pkstool, libpks and the loaded pks
 * module, and the driver ABI each side speaks.
 */
#include <stdio.h>

#include "builtin.h"

#ifndef PKSTOOL_VERSION
#define PKSTOOL_VERSION "unknown"
#endif

static const struct argp version_argp = {
	.parser = pkstool_parse_no_args,
	.doc = "Print the versions of pkstool, libpks and the pks driver.",
	.children = pkstool_common_children,
};

int cmd_version(int argc, char **argv, struct pks_ctx *ctx)
{
	struct pkstool_opts opts = { 0 };
	struct json_object *array, *jver;
	unsigned int abi = pks_get_abi_version(ctx);
	char driver[64];
	int status, rc;

	if (!pkstool_parse(&version_argp, argc, argv, &opts, &status))
		return status;
	/* A module built without MODULE_VERSION still has an ABI. */
	rc = pks_get_driver_version(driver, sizeof(driver));
	if (rc && rc != -ENOENT)
		snprintf(driver, sizeof(driver), "unknown");
	if (!opts.json) {
		printf("pkstool %s\nlibpks %s (driver ABI %u)\n",
		       PKSTOOL_VERSION, pks_get_lib_version(),
		       pks_get_lib_abi_version());
		if (rc != -ENOENT)
			printf("driver %s (ABI %u)\n", driver, abi);
		else
			printf("driver not loaded\n");
		return PKSTOOL_DONE;
	}
	array = json_object_new_array();
	jver = json_object_new_object();
	json_object_object_add(jver, "version",
			       json_object_new_string(PKSTOOL_VERSION));
	json_object_object_add(jver, "abi_version",
			       json_object_new_int(pks_get_lib_abi_version()));
	json_object_object_add(jver, "lib_version",
			       json_object_new_string(pks_get_lib_version()));
	json_object_object_add(jver, "driver_version",
			       rc != -ENOENT ? json_object_new_string(driver) :
					       NULL);
	json_object_object_add(jver, "driver_abi_version",
			       abi ? json_object_new_int(abi) : NULL);
	json_object_array_add(array, jver);
	display_json_array(array);
	json_object_put(array);
	return PKSTOOL_DONE;
}
