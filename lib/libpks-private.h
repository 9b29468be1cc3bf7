/* SPDX-License-Identifier: LGPL-2.1 */
#ifndef _LIBPKS_PRIVATE_H_
#define _LIBPKS_PRIVATE_H_

/*
 * libpks's own functions that need no system, kept out of static so that
 * the fuzzers (tests/fuzz) call them alone. libpks.sym leaves them local:
 * they are no part of the library's ABI.
 */
#include <stdbool.h>

/*
 * Whether @ident, a NAMESPACE argument (see man/namespace-arg.txt), names
 * the namespace called @name whose dax device is @chardev and block device
 * @blockdev, each "" when it has none.
 */
bool pks_ns_name_matches(const char *ident, const char *name,
			 const char *chardev, const char *blockdev);

#endif /* _LIBPKS_PRIVATE_H_ */
