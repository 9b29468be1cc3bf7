// SPDX-License-Identifier: LGPL-2.1
/*
 * libpks: the release of this library and of the loaded pks module.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "libpks.h"

#ifndef PKSTOOL_VERSION
#define PKSTOOL_VERSION "unknown"
#endif

/* MODULE_VERSION() of a loaded module, as the kernel shows it. */
#define PKS_MODULE_VERSION_PATH "/sys/module/pks/version"

const char *pks_get_lib_version(void)
{
	return PKSTOOL_VERSION;
}

int pks_get_driver_version(char *buf, size_t len)
{
	ssize_t n;
	int fd, rc = 0;

	if (!len)
		return -ERANGE;
	fd = open(PKS_MODULE_VERSION_PATH, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return access("/sys/module/pks", F_OK) ? -ENOENT : -ENODATA;
	n = read(fd, buf, len);
	if (n < 0)
		rc = -errno;
	else if ((size_t)n == len)
		rc = -ERANGE;
	close(fd);
	if (rc)
		return rc;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}
