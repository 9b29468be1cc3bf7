// SPDX-License-Identifier: GPL-2.0
/*
 * A program outside the tree, built by tests/install/run.sh against the
 * installed libpks only (its flags from pkg-config): the header, the uapi
 * header it includes, the .so symlink and the soname must all be where
 * libpks.pc says.
 */
/* setenv(); the header itself must need no feature macro. */
#define _POSIX_C_SOURCE 200809L

#include <libpks.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	struct pks_ctx *ctx;
	int rc;

	/* No driver here: the library must say so, not fail to load. */
	setenv("PKS_DEVICE", "/nonexistent/pks", 1);
	rc = pks_new(&ctx);
	if (rc) {
		fprintf(stderr, "consumer: pks_new: %d\n", rc);
		return 1;
	}
	printf("abi %d mode %s test0 %s status %d\n", PKS_ABI_VERSION,
	       pks_mode_name(PKS_MODE_STRICT), pks_test_get_name(0),
	       pks_driver_status(ctx));
	pks_unref(ctx);
	return 0;
}
