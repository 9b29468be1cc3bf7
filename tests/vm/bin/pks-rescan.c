// SPDX-License-Identifier: GPL-2.0
/*
 * pks-rescan: what one long-lived libpks context sees.
 *
 *   pks-rescan scan
 *	scan, print "scan1: NAME..." , wait for a line on stdin, scan
 *	again with the same context and print "scan2: NAME..."; a rescan
 *	must see namespaces created or destroyed in between
 *   pks-rescan protect NAMESPACE
 *	protect NAMESPACE (strict) and unprotect it with one context,
 *	printing its key and mode after each: after unprotect they must
 *	read -ENOENT, not the old values
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "libpks.h"

static int print_scan(struct pks_ctx *ctx, const char *tag)
{
	struct pks_ns *ns;
	int rc = pks_ns_scan(ctx);

	if (rc) {
		fprintf(stderr, "pks-rescan: scan: %s\n", strerror(-rc));
		return 1;
	}
	printf("%s:", tag);
	pks_ns_foreach(ctx, ns)
		printf(" %s", pks_ns_get_name(ns));
	printf("\n");
	fflush(stdout);
	return 0;
}

static void print_state(struct pks_ns *ns, const char *tag)
{
	printf("%s: protected %d key %d mode %d\n", tag,
	       pks_ns_is_protected(ns), pks_ns_get_key(ns),
	       pks_ns_get_protection_mode(ns));
}

int main(int argc, char **argv)
{
	struct pks_ctx *ctx;
	struct pks_ns *ns;
	char line[16];
	int rc;

	if (pks_new(&ctx))
		return 1;
	if (argc == 2 && !strcmp(argv[1], "scan")) {
		if (print_scan(ctx, "scan1"))
			return 1;
		if (!fgets(line, sizeof(line), stdin))
			return 1;
		return print_scan(ctx, "scan2");
	}
	if (argc != 3 || strcmp(argv[1], "protect")) {
		fprintf(stderr, "usage: pks-rescan scan | protect NAMESPACE\n");
		return 2;
	}
	if (pks_ns_scan(ctx))
		return 1;
	ns = pks_ns_find(ctx, argv[2]);
	if (!ns)
		return 1;
	rc = pks_ns_protect(ns, PKS_MODE_STRICT, NULL, 0);
	if (rc) {
		fprintf(stderr, "pks-rescan: protect: %s\n", strerror(-rc));
		return 1;
	}
	print_state(ns, "protected");
	rc = pks_ns_unprotect(ns);
	if (rc) {
		fprintf(stderr, "pks-rescan: unprotect: %s\n", strerror(-rc));
		return 1;
	}
	print_state(ns, "unprotected");
	pks_unref(ctx);
	return 0;
}
