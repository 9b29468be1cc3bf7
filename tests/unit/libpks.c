// SPDX-License-Identifier: GPL-2.0
/*
 * libpks without a driver: test-name lookups, and the errors a context
 * reports when the device or the test module's device is absent or is not
 * the pks driver.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include "libpks.h"
#include <linux/pks_test.h>

Test(libpks, test_names_round_trip)
{
	unsigned int id;

	for (id = 0; id < PKS_TEST_NR; id++) {
		const char *name = pks_test_get_name(id);

		cr_assert_not_null(name);
		cr_expect_eq(pks_test_lookup(name), (int)id, "%s", name);
	}
	cr_expect_null(pks_test_get_name(PKS_TEST_NR));
	cr_expect_eq(pks_test_lookup("no-such-test"), -ENOENT);
	cr_expect_eq(pks_test_lookup(""), -ENOENT);
}

Test(libpks, crash_is_never_in_all)
{
	int crash = pks_test_lookup("crash");
	int all_keys = pks_test_lookup("all-keys");

	cr_assert_geq(crash, 0);
	cr_expect(pks_test_get_flags(crash) & PKS_TEST_F_CRASHES);
	cr_expect(pks_test_get_flags(crash) & PKS_TEST_F_NOT_IN_ALL);
	cr_expect(pks_test_get_flags(all_keys) & PKS_TEST_F_NOT_IN_ALL);
	cr_expect_not(pks_test_get_flags(pks_test_lookup("single-key")) &
		      PKS_TEST_F_NOT_IN_ALL);
}

static struct pks_ctx *ctx_for2(const char *device, const char *test_device)
{
	struct pks_ctx *ctx;

	setenv("PKS_DEVICE", device, 1);
	setenv("PKS_TEST_DEVICE", test_device, 1);
	cr_assert_eq(pks_new(&ctx), 0);
	unsetenv("PKS_DEVICE");
	unsetenv("PKS_TEST_DEVICE");
	return ctx;
}

static struct pks_ctx *ctx_for(const char *device)
{
	return ctx_for2(device, device);
}

Test(libpks, absent_device)
{
	struct pks_ctx *ctx = ctx_for("/nonexistent/pks");
	unsigned int result;

	cr_expect_str_eq(pks_device_path(ctx), "/nonexistent/pks");
	cr_expect_eq(pks_driver_status(ctx), -ENOENT);
	cr_expect_eq(pks_refresh(ctx), -ENOENT);
	cr_expect_null(pks_key_get_first(ctx));
	cr_expect_null(pks_cpu_get_first(ctx));
	cr_expect_null(pks_rule_get_first(ctx));
	cr_expect_not(pks_grants_armed(ctx));
	cr_expect_not(pks_grants_have_counts(ctx));
	cr_expect_eq(pks_get_tasks_granted(ctx), 0);
	cr_expect_eq(pks_test_run(ctx, 0, NULL, &result, NULL, 0), -ENOENT);
	cr_expect_eq(pks_get_abi_version(ctx), 0);
	pks_unref(ctx);
}

Test(libpks, wrong_device)
{
	struct pks_ctx *ctx = ctx_for("/dev/null");
	unsigned int result;
	char msg[8] = "x";

	cr_expect_eq(pks_driver_status(ctx), -ENOTTY);
	cr_expect_eq(pks_refresh(ctx), -ENOTTY);
	cr_expect_eq(pks_test_run(ctx, 0, NULL, &result, msg, sizeof(msg)), -ENOTTY);
	cr_expect_str_empty(msg);
	pks_unref(ctx);
}

/* The driver answers, the test module does not: tests say so, alone. */
Test(libpks, absent_test_module)
{
	struct pks_ctx *ctx = ctx_for2("/dev/null", "/nonexistent/pks-test");
	unsigned int result;

	cr_expect_str_eq(pks_test_device_path(ctx), "/nonexistent/pks-test");
	cr_expect_eq(pks_test_status(ctx), -ENOENT);
	cr_expect_eq(pks_test_run(ctx, 0, NULL, &result, NULL, 0), -ENOENT);
	/* The production device is still the one other calls reach. */
	cr_expect_eq(pks_driver_status(ctx), -ENOTTY);
	pks_unref(ctx);
	ctx = ctx_for2("/dev/null", "/dev/null");
	cr_expect_eq(pks_test_status(ctx), 0);
	pks_unref(ctx);
}

Test(libpks, refcount)
{
	struct pks_ctx *ctx = ctx_for("/nonexistent/pks");

	cr_expect_eq(pks_ref(ctx), ctx);
	pks_unref(ctx);
	/* Still alive after one of two references is dropped. */
	cr_expect_eq(pks_driver_status(ctx), -ENOENT);
	pks_unref(ctx);
	cr_expect_null(pks_ref(NULL));
	pks_unref(NULL);
}

/*
 * UAPI_ABI_TEXT: the Makefile's reading of the uapi header's text, not the
 * macro the library and this test were both compiled with (which the same
 * wrong header or -D would make agree with itself).
 */
#ifndef UAPI_ABI_TEXT
#error "UAPI_ABI_TEXT: build with the Makefile"
#endif

Test(libpks, lib_abi_is_the_headers)
{
	cr_expect_eq(pks_get_lib_abi_version(), UAPI_ABI_TEXT);
	cr_expect_eq(PKS_ABI_VERSION, UAPI_ABI_TEXT);
	cr_expect_gt(pks_get_lib_abi_version(), 0);
}

static unsigned int logged;
static char last_message[256];

static void capture_log(struct pks_ctx *ctx, int priority, const char *format,
			va_list args)
{
	(void)ctx;
	cr_expect_leq(priority, LOG_DEBUG);
	vsnprintf(last_message, sizeof(last_message), format, args);
	logged++;
}

/* Messages go to the callback, and only up to the priority set. */
Test(libpks, log_callback)
{
	struct pks_ctx *ctx = ctx_for("/nonexistent/pks");

	pks_set_log_fn(ctx, capture_log);
	pks_set_log_priority(ctx, LOG_DEBUG);
	cr_expect_eq(pks_get_log_priority(ctx), LOG_DEBUG);
	logged = 0;
	cr_assert_eq(pks_ns_scan(ctx), 0);
	cr_expect_eq(logged, 1);
	cr_expect(strstr(last_message, "scan: "), "%s", last_message);
	/* Control: the same call above the priority logs nothing. */
	pks_set_log_priority(ctx, LOG_ERR);
	logged = 0;
	cr_assert_eq(pks_ns_scan(ctx), 0);
	cr_expect_eq(logged, 0);
	pks_unref(ctx);
}

/* No records before a refresh, and none when the refresh fails. */
Test(libpks, records_without_driver)
{
	struct pks_ctx *ctx = ctx_for("/nonexistent/pks");
	uint64_t dropped = 7;

	cr_expect_null(pks_record_get_first(ctx));
	cr_expect_eq(pks_faults_refresh(ctx, 1, &dropped), -ENOENT);
	cr_expect_eq(dropped, 7, "dropped written on failure");
	cr_expect_null(pks_record_get_first(ctx));
	pks_unref(ctx);
}
