// SPDX-License-Identifier: GPL-2.0
/*
 * The sanitizer run's control, built with the same flags as the sanitized
 * unit tests: "control overflow|leak|ub" commits that error and must be
 * stopped with the sanitizer's report. The run only counts when all three
 * are, which proves the sanitizers work on this machine (LeakSanitizer
 * needs ptrace, for one).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	char *buf = malloc(8);
	int big = INT_MAX - 1;

	if (argc != 2 || !buf)
		return 2;
	if (!strcmp(argv[1], "overflow")) {
		/* strlen("overflow") is 8: one byte past the end. */
		memcpy(buf, argv[1], strlen(argv[1]) + 1);
	} else if (!strcmp(argv[1], "leak")) {
		buf = NULL;
	} else if (!strcmp(argv[1], "ub")) {
		big += argc;
	} else {
		return 2;
	}
	printf("%s %d\n", buf ? buf : "-", big);
	free(buf);
	return 0;
}
