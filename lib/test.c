// SPDX-License-Identifier: LGPL-2.1
/*
 * libpks: the test module's device (pks_test.ko, /dev/pks-test): the
 * built-in test cases and stray accesses. No other file of libpks makes
 * the test module's ioctls.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <syslog.h>
#include <unistd.h>

#include "libpks-private.h"

#include <linux/pks_test.h>

const char *pks_test_device_path(struct pks_ctx *ctx)
{
	return ctx->test_device;
}

/* Opened on first use: most commands never need the test module. */
int pks_test_status(struct pks_ctx *ctx)
{
	if (ctx->test_fd >= 0)
		return 0;
	ctx->test_fd = open(ctx->test_device, O_RDWR | O_CLOEXEC);
	if (ctx->test_fd < 0)
		return -errno;
	return 0;
}

/* One ioctl on the test module's device. */
static int pks_test_call(struct pks_ctx *ctx, unsigned long cmd, void *arg)
{
	int rc = pks_test_status(ctx);

	if (rc)
		return rc;
	return ioctl(ctx->test_fd, cmd, arg) < 0 ? -errno : 0;
}

int pks_test_stray(struct pks_ctx *ctx, struct pks_copy *copy)
{
	return pks_test_call(ctx, PKS_TEST_IOC_STRAY, copy);
}

#define ___PKS_T(id, name, flags) { name, flags }
static const struct {
	const char *name;
	uint32_t flags;
} pks_tests[] = PKS_TEST_CASES;
#undef ___PKS_T

int pks_test_lookup(const char *name)
{
	unsigned int id;

	for (id = 0; id < PKS_TEST_NR; id++)
		if (!strcmp(pks_tests[id].name, name))
			return id;
	return -ENOENT;
}

const char *pks_test_get_name(unsigned int id)
{
	return id < PKS_TEST_NR ? pks_tests[id].name : NULL;
}

uint32_t pks_test_get_flags(unsigned int id)
{
	return id < PKS_TEST_NR ? pks_tests[id].flags : 0;
}

int pks_test_run(struct pks_ctx *ctx, unsigned int id, struct pks_ns *ns,
		 unsigned int *result, char *message, size_t len)
{
	struct pks_test_run run = {
		.size = sizeof(run),
		.test = id,
	};
	int fd = -1, rc = 0;

	if (ctx->open_err)
		return ctx->open_err;
	if (ns && pks_ns_is_devdax(ns)) {
		rc = pks_ns_map(ns, &run.range, &fd);
		if (rc)
			return rc;
	}
	rc = pks_test_call(ctx, PKS_TEST_IOC_RUN, &run);
	if (fd >= 0)
		pks_ns_unmap(&run.range, fd);
	run.message[PKS_MESSAGE_LEN - 1] = '\0';
	if (message && len)
		snprintf(message, len, "%s", run.message);
	if (!rc)
		*result = run.result;
	pks_log(ctx, LOG_DEBUG, "test %u: rc %d result %u %s\n", id, rc,
		run.result, run.message);
	return rc;
}
