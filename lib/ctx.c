// SPDX-License-Identifier: LGPL-2.1
/*
 * libpks: the context: its device, its ABI check and its log.
 */
#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <syslog.h>
#include <unistd.h>

#include "libpks-private.h"

/*
 * The driver ABI this library speaks: the uapi header's, unless a build
 * for the ABI-mismatch test (tests/vm/cases/abi.sh) sets another.
 */
#ifndef LIBPKS_ABI_VERSION
#define LIBPKS_ABI_VERSION PKS_ABI_VERSION
#endif

/* PKS_LOG: a syslog priority name or number, as ndctl's log_init(). */
static int pks_log_priority_from_env(void)
{
	static const char *const names[] = {
		[LOG_ERR] = "err", [LOG_INFO] = "info", [LOG_DEBUG] = "debug",
	};
	const char *env = getenv("PKS_LOG");
	char *end;
	long prio;
	size_t i;

	if (!env)
		return LOG_ERR;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i] && !strcmp(env, names[i]))
			return i;
	prio = strtol(env, &end, 10);
	return (*end || prio < 0) ? LOG_ERR : (int)prio;
}

int pks_get_info(struct pks_ctx *ctx, struct pks_info *info,
		 struct pks_cpu_info *cpus, unsigned int nr_cpus)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	info->nr_cpus = nr_cpus;
	info->cpus = (uintptr_t)cpus;
	return pks_call(ctx, PKS_IOC_GET_INFO, info);
}

/*
 * At open: ask the driver for its ABI. A driver of another ABI answers
 * with its version, also when it refuses our struct's size; every call
 * on this context then fails with -EPROTO. Another error (a device that
 * is not the driver) is left for the calls to report.
 */
static void pks_check_abi(struct pks_ctx *ctx)
{
	struct pks_info info;
	int rc = pks_get_info(ctx, &info, NULL, 0);

	if (rc && rc != -EINVAL)
		return;
	ctx->driver_abi = info.abi_version;
	if (info.abi_version && info.abi_version != LIBPKS_ABI_VERSION) {
		pks_log(ctx, LOG_ERR, "%s: driver ABI %u, libpks needs %u\n",
			ctx->device, info.abi_version, LIBPKS_ABI_VERSION);
		ctx->open_err = -EPROTO;
	}
}

void pks_log(struct pks_ctx *ctx, int priority, const char *fmt, ...)
{
	va_list ap;

	if (priority > ctx->log_priority)
		return;
	va_start(ap, fmt);
	if (ctx->log_fn) {
		ctx->log_fn(ctx, priority, fmt, ap);
	} else {
		fprintf(stderr, "libpks: ");
		vfprintf(stderr, fmt, ap);
	}
	va_end(ap);
}

void pks_set_log_fn(struct pks_ctx *ctx, pks_log_fn log_fn)
{
	ctx->log_fn = log_fn;
}

int pks_get_log_priority(struct pks_ctx *ctx)
{
	return ctx->log_priority;
}

int pks_new(struct pks_ctx **out)
{
	struct pks_ctx *ctx = calloc(1, sizeof(*ctx));

	if (!ctx)
		return -ENOMEM;
	ctx->refcount = 1;
	ctx->log_priority = pks_log_priority_from_env();
	ctx->device = getenv("PKS_DEVICE");
	if (!ctx->device || !*ctx->device)
		ctx->device = PKS_DEFAULT_DEVICE;
	ctx->test_device = getenv("PKS_TEST_DEVICE");
	if (!ctx->test_device || !*ctx->test_device)
		ctx->test_device = PKS_DEFAULT_TEST_DEVICE;
	ctx->test_fd = -1;
	ctx->fd = open(ctx->device, O_RDWR | O_CLOEXEC);
	/* Not root: the device still answers queries on a read-only open. */
	if (ctx->fd < 0 && (errno == EACCES || errno == EPERM)) {
		ctx->fd = open(ctx->device, O_RDONLY | O_CLOEXEC);
		ctx->read_only = ctx->fd >= 0;
	}
	ctx->open_err = ctx->fd < 0 ? -errno : 0;
	pks_log(ctx, LOG_DEBUG, "open %s: %s\n", ctx->device,
		strerror(-ctx->open_err));
	if (!ctx->open_err)
		pks_check_abi(ctx);
	*out = ctx;
	return 0;
}

struct pks_ctx *pks_ref(struct pks_ctx *ctx)
{
	if (ctx)
		ctx->refcount++;
	return ctx;
}

void pks_unref(struct pks_ctx *ctx)
{
	if (!ctx || --ctx->refcount > 0)
		return;
	if (ctx->fd >= 0)
		close(ctx->fd);
	if (ctx->test_fd >= 0)
		close(ctx->test_fd);
	pks_ns_free_all(ctx);
	free(ctx->cpus);
	free(ctx->holders);
	free(ctx->faults);
	free(ctx->records);
	free(ctx);
}

void pks_set_log_priority(struct pks_ctx *ctx, int priority)
{
	ctx->log_priority = priority;
}

bool pks_cpu_has_pks(void)
{
	unsigned int eax, ebx, ecx, edx;

	if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx))
		return false;
	return ecx & (1u << 31);
}

const char *pks_device_path(struct pks_ctx *ctx)
{
	return ctx->device;
}

int pks_call(struct pks_ctx *ctx, unsigned long cmd, void *arg)
{
	if (ctx->open_err)
		return ctx->open_err;
	return ioctl(ctx->fd, cmd, arg) < 0 ? -errno : 0;
}

unsigned int pks_get_lib_abi_version(void)
{
	return LIBPKS_ABI_VERSION;
}

int pks_driver_status(struct pks_ctx *ctx)
{
	struct pks_info info;

	return pks_get_info(ctx, &info, NULL, 0);
}

bool pks_driver_is_read_only(struct pks_ctx *ctx)
{
	return ctx->read_only;
}

unsigned int pks_get_abi_version(struct pks_ctx *ctx)
{
	return ctx->driver_abi;
}

int pks_panic_on_warn(void)
{
	FILE *f = fopen("/proc/sys/kernel/panic_on_warn", "re");
	int val = 0, rc;

	if (!f)
		return -errno;
	rc = fscanf(f, "%d", &val) == 1 ? val != 0 : -EIO;
	fclose(f);
	return rc;
}
