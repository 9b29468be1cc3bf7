/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PKSTOOL_FUZZ_H_
#define _PKSTOOL_FUZZ_H_

/*
 * What the libFuzzer targets share. A property that does not hold aborts
 * with one "property violated" line, which libFuzzer reports as a crash
 * and saves the input of; tests/fuzz/run.sh looks for that line when it
 * checks that the control build is caught.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define fuzz_check(cond, fmt, ...)                                             \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr,                                        \
				"fuzz: property violated: %s: " fmt "\n",      \
				#cond, ##__VA_ARGS__);                         \
			abort();                                               \
		}                                                              \
	} while (0)

#endif /* _PKSTOOL_FUZZ_H_ */
