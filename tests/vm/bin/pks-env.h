/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pks-env.h: a size in MiB that a case sets for a test program through
 * the environment (pks-paths, pks-fileops: less data on CXL memory).
 */
#ifndef PKS_ENV_H
#define PKS_ENV_H

#include <stdio.h>
#include <stdlib.h>

/*
 * pks_env_mib() - $@name in bytes, or @dflt when it is unset. A value
 * that is not a whole number of MiB from @min to @max, a multiple of
 * @step (1, or 2 for a device-dax mapping's 2 MiB pages), ends the
 * program with status 2 and says what is allowed.
 */
static inline size_t pks_env_mib(const char *prog, const char *name,
				 unsigned long min, unsigned long max,
				 unsigned long step, size_t dflt)
{
	const char *s = getenv(name);
	unsigned long mib;
	char *end;

	if (!s)
		return dflt;
	mib = strtoul(s, &end, 10);
	if (end == s || *end || mib < min || mib > max || mib % step) {
		fprintf(stderr, "%s: %s=%s: give MiB from %lu to %lu in steps of %lu\n",
			prog, name, s, min, max, step);
		exit(2);
	}
	return mib << 20;
}

#endif /* PKS_ENV_H */
