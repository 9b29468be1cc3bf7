// SPDX-License-Identifier: GPL-2.0
/*
 * pkstool without a driver: argument handling, error messages, exit codes
 * and the shape of the JSON it prints.
 */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "libpks.h"
#include "run_cmd.h"

#define NO_DEVICE "/nonexistent/pks"
#define RUN(res, dev, ...) \
	run_pkstool(res, dev, (const char *const[]){ __VA_ARGS__, NULL })

static struct cmd_result res;

Test(cli, no_command_is_usage)
{
	run_pkstool(&res, NO_DEVICE, (const char *const[]){ NULL });
	cr_expect_eq(res.status, 2);
	cr_expect(strstr(res.out, "commands:"));
}

Test(cli, unknown_command)
{
	RUN(&res, NO_DEVICE, "frobnicate");
	cr_expect_eq(res.status, 2);
	cr_expect(strstr(res.err, "pkstool: unknown command 'frobnicate'"),
		  "%s", res.err);
	cr_expect_str_empty(res.out);
}

Test(cli, no_prefix_matching)
{
	RUN(&res, NO_DEVICE, "inf");
	cr_expect_eq(res.status, 2);
}

Test(cli, test_needs_a_name)
{
	RUN(&res, NO_DEVICE, "test");
	cr_expect_eq(res.status, 2);
	cr_expect(strstr(res.err, "name a test"), "%s", res.err);
}

Test(cli, unknown_test)
{
	RUN(&res, NO_DEVICE, "test", "single-keys");
	cr_expect_eq(res.status, 2);
	cr_expect(strstr(res.err, "pkstool test: unknown test 'single-keys'"),
		  "%s", res.err);
}

Test(cli, crash_needs_force)
{
	RUN(&res, NO_DEVICE, "test", "crash");
	cr_expect_eq(res.status, 2);
	cr_expect(strstr(res.err, "add --force"), "%s", res.err);
}

Test(cli, test_without_driver_is_unsupported)
{
	RUN(&res, NO_DEVICE, "test", "all");
	cr_expect_eq(res.status, 77);
	cr_expect(strstr(res.err, pks_cpu_has_pks() ?
			 "pks driver is not loaded" :
			 "this CPU does not support PKS"), "%s", res.err);
	cr_expect_str_empty(res.out);
}

Test(cli, wrong_device_fails)
{
	RUN(&res, "/dev/null", "test", "all");
	cr_expect_eq(res.status, 1);
	cr_expect(strstr(res.err, "pkstool: test: /dev/null is not the pks driver"),
		  "%s", res.err);
}

Test(cli, info_json_without_driver)
{
	struct json_object *root, *obj, *drv, *v;

	RUN(&res, NO_DEVICE, "info", "--json");
	cr_assert_eq(res.status, 0, "%s", res.err);
	root = json_tokener_parse(res.out);
	cr_assert(root && json_object_is_type(root, json_type_array),
		  "%s", res.out);
	cr_assert_eq(json_object_array_length(root), 1);
	obj = json_object_array_get_idx(root, 0);
	cr_assert(json_object_object_get_ex(obj, "cpu_supports_pks", &v));
	cr_expect_eq(json_object_get_boolean(v), pks_cpu_has_pks());
	cr_assert(json_object_object_get_ex(obj, "driver", &drv));
	cr_assert(json_object_object_get_ex(drv, "loaded", &v));
	cr_expect_not(json_object_get_boolean(v));
	cr_assert(json_object_object_get_ex(obj, "cpus", &v));
	cr_expect(json_object_is_type(v, json_type_array));
	cr_assert(json_object_object_get_ex(obj, "keys", &v));
	cr_expect_eq(json_object_array_length(v), 0);
	json_object_put(root);
}

Test(cli, test_list_json_is_an_array)
{
	struct json_object *root, *t, *v;

	RUN(&res, NO_DEVICE, "test", "--list", "--json");
	cr_assert_eq(res.status, 0, "%s", res.err);
	root = json_tokener_parse(res.out);
	cr_assert(root && json_object_is_type(root, json_type_array));
	cr_assert_eq(json_object_array_length(root), PKS_TEST_NR);
	t = json_object_array_get_idx(root, pks_test_lookup("crash"));
	cr_assert(json_object_object_get_ex(t, "crashes", &v));
	cr_expect(json_object_get_boolean(v));
	json_object_put(root);
}

Test(cli, list_cmds_matches_help)
{
	struct cmd_result help;
	char *line, *save = NULL;

	RUN(&res, NO_DEVICE, "--list-cmds");
	cr_assert_eq(res.status, 0);
	RUN(&help, NO_DEVICE, "help");
	for (line = strtok_r(res.out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char want[64];

		snprintf(want, sizeof(want), "  %s ", line);
		cr_expect(strstr(help.out, want), "help lacks %s", line);
	}
}

Test(cli, enable_needs_a_namespace)
{
	RUN(&res, NO_DEVICE, "enable");
	cr_expect_eq(res.status, 2);
	cr_expect(strstr(res.err, "name a namespace to enable, or --all"),
		  "%s", res.err);
}

Test(cli, disable_message_names_disable)
{
	RUN(&res, NO_DEVICE, "disable");
	cr_expect_eq(res.status, 2);
	cr_expect(strstr(res.err, "name a namespace to disable"), "%s", res.err);
}

Test(cli, names_and_all_conflict)
{
	RUN(&res, NO_DEVICE, "enable", "--all", "dax0.0");
	cr_expect_eq(res.status, 2);
}

Test(cli, force_is_for_enable_only)
{
	RUN(&res, NO_DEVICE, "disable", "--force", "dax0.0");
	cr_expect_eq(res.status, 2);
	cr_expect(strstr(res.err, "unrecognized option '--force'"),
		  "%s", res.err);
	/* disable's --help offers only what disable takes. */
	RUN(&res, NO_DEVICE, "disable", "--help");
	cr_expect_eq(res.status, 0);
	cr_expect(strstr(res.out, "--all"), "%s", res.out);
	cr_expect_null(strstr(res.out, "--force"), "%s", res.out);
	cr_expect_null(strstr(res.out, "--mode"), "%s", res.out);
}

Test(cli, enable_without_driver_is_unsupported)
{
	RUN(&res, NO_DEVICE, "enable", "dax0.0");
	cr_expect_eq(res.status, 77);
	cr_expect_str_empty(res.out);
}

Test(cli, list_without_driver_is_an_array)
{
	struct json_object *root;

	RUN(&res, NO_DEVICE, "list");
	cr_assert_eq(res.status, 0, "%s", res.err);
	root = json_tokener_parse(res.out);
	cr_assert(root && json_object_is_type(root, json_type_array),
		  "%s", res.out);
	json_object_put(root);
}

Test(cli, version_rejects_arguments)
{
	RUN(&res, NO_DEVICE, "version", "--bogus");
	cr_expect_eq(res.status, 2);
	cr_expect(strstr(res.err, "bogus"), "%s", res.err);
	cr_expect_str_empty(res.out);
	RUN(&res, NO_DEVICE, "version", "--json");
	cr_expect_eq(res.status, 0);
	cr_expect(res.out[0] == '[', "%s", res.out);
}

Test(cli, help_names_a_command)
{
	RUN(&res, NO_DEVICE, "help", "enable");
	cr_expect_eq(res.status, 0);
	cr_expect(strstr(res.out, "--mode"), "help enable: %s", res.out);
	RUN(&res, NO_DEVICE, "help", "bogus");
	cr_expect_eq(res.status, 2);
	cr_expect(strstr(res.err, "unknown command 'bogus'"), "%s", res.err);
}
