// SPDX-License-Identifier: GPL-2.0
/*
 * pkstool version.
 */
#include <stdio.h>

#include "builtin.h"

#ifndef PKSTOOL_VERSION
#define PKSTOOL_VERSION "unknown"
#endif

int cmd_version(int argc, char **argv, struct pks_ctx *ctx)
{
	(void)argc;
	(void)argv;
	(void)ctx;
	printf("%s\n", PKSTOOL_VERSION);
	return 0;
}
