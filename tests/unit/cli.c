// SPDX-License-Identifier: GPL-2.0
/*
 * pkstool without a driver: argument handling, error messages, exit codes
 * and the shape of the JSON it prints.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "libpks.h"
#include <linux/pks_test.h>
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
	cr_expect(strstr(res.err, "pkstool: test: unknown test 'single-keys'"),
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
	RUN(&res, NO_DEVICE, "test", "-L", "-j");
	cr_assert_eq(res.status, 0, "%s", res.err);
	root = json_tokener_parse(res.out);
	cr_assert(root && json_object_is_type(root, json_type_array));
	cr_assert_eq(json_object_array_length(root), PKS_TEST_NR);
	t = json_object_array_get_idx(root, pks_test_lookup("crash"));
	cr_assert(json_object_object_get_ex(t, "crashes", &v));
	cr_expect(json_object_get_boolean(v));
	json_object_put(root);
}

/* The command set, written down here independently of the table. */
static const char *const all_cmds[] = {
	"info", "list", "enable", "disable", "faults", "monitor", "metrics",
	"test",
	"version", "help",
};
#define NR_CMDS (sizeof(all_cmds) / sizeof(all_cmds[0]))

Test(cli, list_cmds_is_the_command_set)
{
	char want[256] = "";
	size_t i;

	for (i = 0; i < NR_CMDS; i++) {
		strcat(want, all_cmds[i]);
		strcat(want, "\n");
	}
	RUN(&res, NO_DEVICE, "--list-cmds");
	cr_assert_eq(res.status, 0);
	cr_expect_str_eq(res.out, want);
}

/* -h, -? and --help on every command, and help COMMAND: usage, exit 0. */
Test(cli, every_command_has_help)
{
	const char *const flags[] = { "-h", "-?", "--help" };
	char usage[64];
	size_t i, f;

	for (i = 0; i < NR_CMDS; i++) {
		snprintf(usage, sizeof(usage), "Usage: pkstool %s ", all_cmds[i]);
		for (f = 0; f < 3; f++) {
			RUN(&res, NO_DEVICE, all_cmds[i], flags[f]);
			cr_expect_eq(res.status, 0, "%s %s", all_cmds[i], flags[f]);
			cr_expect(strstr(res.out, usage), "%s %s: %s",
				  all_cmds[i], flags[f], res.out);
			cr_expect_str_empty(res.err, "%s %s", all_cmds[i], flags[f]);
		}
		RUN(&res, NO_DEVICE, "help", all_cmds[i]);
		cr_expect_eq(res.status, 0, "help %s", all_cmds[i]);
		cr_expect(strstr(res.out, usage), "help %s: %s", all_cmds[i],
			  res.out);
	}
}

/* A usage error is exit 2 with one prefix, on every command. */
Test(cli, unknown_option_is_usage_everywhere)
{
	char prefix[64];
	size_t i;

	for (i = 0; i < NR_CMDS; i++) {
		snprintf(prefix, sizeof(prefix), "pkstool: %s: ", all_cmds[i]);
		RUN(&res, NO_DEVICE, all_cmds[i], "--bogus");
		cr_expect_eq(res.status, 2, "%s --bogus", all_cmds[i]);
		cr_expect(!strncmp(res.err, prefix, strlen(prefix)),
			  "%s --bogus: %s", all_cmds[i], res.err);
		cr_expect(strstr(res.err, "'--bogus'"), "%s", res.err);
		cr_expect_str_empty(res.out, "%s --bogus", all_cmds[i]);
	}
}

/* --verbose was parsed and ignored: it is gone. */
Test(cli, no_verbose_option)
{
	RUN(&res, NO_DEVICE, "info", "--verbose");
	cr_expect_eq(res.status, 2);
	RUN(&res, NO_DEVICE, "info", "-v");
	cr_expect_eq(res.status, 2);
}

/* One letter, one meaning: -f force, -F follow, -L list tests. */
Test(cli, letters_mean_one_thing)
{
	RUN(&res, NO_DEVICE, "faults", "-f");
	cr_expect_eq(res.status, 2, "faults -f: %s", res.err);
	RUN(&res, NO_DEVICE, "faults", "-F");
	cr_expect_eq(res.status, 77, "faults -F: %s", res.err);
	RUN(&res, NO_DEVICE, "test", "-l");
	cr_expect_eq(res.status, 2);
	RUN(&res, NO_DEVICE, "test", "-L");
	cr_expect_eq(res.status, 0);
	cr_expect(strstr(res.out, "single-key\n"), "%s", res.out);
	RUN(&res, NO_DEVICE, "help", "enable");
	cr_expect(strstr(res.out, "-f, --force"), "%s", res.out);
	RUN(&res, NO_DEVICE, "help", "test");
	cr_expect(strstr(res.out, "-f, --force"), "%s", res.out);
	RUN(&res, NO_DEVICE, "help", "faults");
	cr_expect(strstr(res.out, "-F, --follow"), "%s", res.out);
}

/* disable offers only what it honours. */
Test(cli, disable_offers_no_enable_options)
{
	RUN(&res, NO_DEVICE, "disable", "--help");
	cr_assert_eq(res.status, 0);
	cr_expect_not(strstr(res.out, "--force"), "%s", res.out);
	cr_expect_not(strstr(res.out, "--mode"), "%s", res.out);
	RUN(&res, NO_DEVICE, "disable", "--mode", "strict", "dax0.0");
	cr_expect_eq(res.status, 2);
}

/* An error from a command's work is 1, never 2, whatever the errno. */
Test(cli, failures_are_not_usage)
{
	RUN(&res, "/dev/null", "enable", "dax0.0");
	cr_expect_eq(res.status, 1, "%s", res.err);
	RUN(&res, "/dev/null", "faults");
	cr_expect_eq(res.status, 1, "%s", res.err);
	RUN(&res, "/dev/null", "info");
	cr_expect_eq(res.status, 1, "%s", res.err);
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

/*
 * The filters are list's, enable's and disable's; --from-config takes the
 * records as they are, so a filter there is a usage error. The control:
 * the same filters without --from-config parse (the driver is missing).
 */
Test(cli, filters_where_they_apply)
{
	RUN(&res, NO_DEVICE, "enable", "--from-config", "-r", "region0");
	cr_expect_eq(res.status, 2, "%s", res.err);
	cr_expect(strstr(res.err, "no --all, --persist, --mode, --region or --memdev"),
		  "%s", res.err);
	RUN(&res, NO_DEVICE, "enable", "--from-config", "--memdev", "mem0");
	cr_expect_eq(res.status, 2, "%s", res.err);
	RUN(&res, NO_DEVICE, "enable", "--all", "-r", "cxl/region0",
	    "--memdev", "mem0");
	cr_expect_eq(res.status, 77, "%s", res.err);
	RUN(&res, NO_DEVICE, "disable", "--all", "--memdev", "mem0");
	cr_expect_eq(res.status, 0, "%s", res.err);
	RUN(&res, NO_DEVICE, "faults", "--memdev", "mem0");
	cr_expect_eq(res.status, 2, "%s", res.err);
}

Test(cli, force_is_for_enable_only)
{
	RUN(&res, NO_DEVICE, "disable", "--force", "dax0.0");
	cr_expect_eq(res.status, 2);
	cr_expect(strstr(res.err, "pkstool: disable: unknown option"),
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

/* Parse stdout as JSON: an array whose every element is an object. */
static struct json_object *array_of_objects(const struct cmd_result *r)
{
	struct json_object *root = json_tokener_parse(r->out);
	size_t i;

	cr_assert(root && json_object_is_type(root, json_type_array),
		  "not an array: %s", r->out);
	for (i = 0; i < json_object_array_length(root); i++)
		cr_assert(json_object_is_type(json_object_array_get_idx(root, i),
					      json_type_object),
			  "element %zu is not an object: %s", i, r->out);
	return root;
}

/* Namespaces are listed without the driver: text by default, -j JSON. */
Test(cli, list_without_driver)
{
	struct json_object *root;

	RUN(&res, NO_DEVICE, "list");
	cr_assert_eq(res.status, 0, "%s", res.err);
	cr_expect_neq(res.out[0], '[', "text by default: %s", res.out);
	/* No namespace on the host: a sentence, not an empty output. */
	cr_expect(strstr(res.out, "no pmem namespaces"), "%s", res.out);
	RUN(&res, NO_DEVICE, "list", "-j");
	cr_assert_eq(res.status, 0, "%s", res.err);
	root = array_of_objects(&res);
	json_object_put(root);
	RUN(&res, NO_DEVICE, "list", "-n", "no-such-ns");
	cr_expect_eq(res.status, 1, "%s", res.err);
	cr_expect(strstr(res.err, "pkstool: list: no namespace 'no-such-ns'"),
		  "%s", res.err);
}

/* Without the driver nothing is protected: disable --all is done. */
Test(cli, disable_all_without_driver_is_done)
{
	struct json_object *root;

	RUN(&res, NO_DEVICE, "disable", "--all", "--json");
	cr_assert_eq(res.status, 0, "%s", res.err);
	root = array_of_objects(&res);
	json_object_put(root);
	RUN(&res, NO_DEVICE, "enable", "--all", "--json");
	cr_expect_eq(res.status, 77, "%s", res.err);
	cr_expect_str_empty(res.out);
}

/* version and help: arrays of objects with fixed keys. */
Test(cli, version_and_help_json)
{
	struct json_object *root, *obj, *v;
	size_t i;

	RUN(&res, NO_DEVICE, "version", "--json");
	cr_assert_eq(res.status, 0, "%s", res.err);
	root = array_of_objects(&res);
	cr_assert_eq(json_object_array_length(root), 1);
	obj = json_object_array_get_idx(root, 0);
	cr_assert(json_object_object_get_ex(obj, "version", &v));
	cr_expect(json_object_is_type(v, json_type_string));
	cr_assert(json_object_object_get_ex(obj, "abi_version", &v));
	cr_expect_eq(json_object_get_int(v), PKS_ABI_VERSION);
	cr_assert(json_object_object_get_ex(obj, "lib_version", &v));
	cr_expect_str_eq(json_object_get_string(v), pks_get_lib_version());
	json_object_put(root);
	RUN(&res, NO_DEVICE, "version");
	cr_expect_neq(res.out[0], '[', "%s", res.out);
	cr_expect(strstr(res.out, "libpks "), "%s", res.out);
	cr_expect(strstr(res.out, "\ndriver "), "%s", res.out);

	RUN(&res, NO_DEVICE, "help", "-j");
	cr_assert_eq(res.status, 0, "%s", res.err);
	root = array_of_objects(&res);
	cr_assert_eq(json_object_array_length(root), NR_CMDS);
	for (i = 0; i < NR_CMDS; i++) {
		obj = json_object_array_get_idx(root, i);
		cr_assert(json_object_object_get_ex(obj, "command", &v));
		cr_expect_str_eq(json_object_get_string(v), all_cmds[i]);
		cr_expect(json_object_object_get_ex(obj, "summary", &v));
	}
	json_object_put(root);
}

/* Usage errors print nothing on stdout, in JSON mode too. */
Test(cli, usage_error_in_json_mode)
{
	RUN(&res, NO_DEVICE, "enable", "--json");
	cr_expect_eq(res.status, 2);
	cr_expect_str_empty(res.out);
	RUN(&res, NO_DEVICE, "enable", "--mode", "lax", "dax0.0");
	cr_expect_eq(res.status, 2);
	cr_expect(strstr(res.err, "pkstool: enable: unknown mode 'lax'"),
		  "%s", res.err);
}

Test(cli, version_rejects_arguments)
{
	RUN(&res, NO_DEVICE, "version", "--bogus");
	cr_expect_eq(res.status, 2);
	cr_expect(strstr(res.err, "bogus"), "%s", res.err);
	cr_expect_str_empty(res.out);
	RUN(&res, NO_DEVICE, "help", "--bogus");
	cr_expect_eq(res.status, 2);
	RUN(&res, NO_DEVICE, "help", "info", "list");
	cr_expect_eq(res.status, 2);
}

Test(cli, help_names_a_command)
{
	RUN(&res, NO_DEVICE, "help", "enable");
	cr_expect_eq(res.status, 0);
	cr_expect(strstr(res.out, "--mode"), "help enable: %s", res.out);
	RUN(&res, NO_DEVICE, "help", "faults");
	cr_expect_not(strstr(res.out, "--mode"), "help faults: %s", res.out);
	RUN(&res, NO_DEVICE, "help", "bogus");
	cr_expect_eq(res.status, 2);
	cr_expect(strstr(res.err, "unknown command 'bogus'"), "%s", res.err);
}

/*
 * Output that cannot be written is a failure: stdout on /dev/full (every
 * write fails with ENOSPC) gives exit 1 and one message naming the
 * command, for the JSON and text of each command that prints, for help
 * and --list-cmds, and for argp's --help; a failure already decided
 * keeps its code.
 */
Test(cli, write_error_fails)
{
	static const char *const cmds[][4] = {
		{ "list", "--json" }, { "version" }, { "version", "-j" },
		{ "help" }, { "help", "-j" }, { "help", "enable" },
		{ "info", "--json" }, { "info" }, { "test", "-L" },
		{ "test", "-L", "-j" }, { "disable", "--all", "--json" },
		{ "enable", "--help" }, { "metrics" },
	};
	char want[64];
	size_t i;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		run_pkstool_to(&res, NO_DEVICE, "/dev/full", cmds[i]);
		snprintf(want, sizeof(want), "pkstool: %s: write error: %s\n",
			 cmds[i][0], strerror(ENOSPC));
		cr_expect_eq(res.status, 1, "%s %s: exit %d", cmds[i][0],
			     cmds[i][1] ? cmds[i][1] : "", res.status);
		cr_expect(strstr(res.err, want), "%s %s: %s", cmds[i][0],
			  cmds[i][1] ? cmds[i][1] : "", res.err);
	}
	run_pkstool_to(&res, NO_DEVICE, "/dev/full",
		       (const char *const[]){ "--list-cmds", NULL });
	cr_expect_eq(res.status, 1);
	cr_expect(strstr(res.err, "pkstool: write error: "), "%s", res.err);
	/* Usage stays usage; nothing printed on stdout, nothing to lose. */
	run_pkstool_to(&res, NO_DEVICE, "/dev/full",
		       (const char *const[]){ "list", "--bogus", NULL });
	cr_expect_eq(res.status, 2);
	cr_expect_not(strstr(res.err, "write error"), "%s", res.err);
	/* The control: the same commands to a file that takes the output. */
	run_pkstool_to(&res, NO_DEVICE, "/dev/null",
		       (const char *const[]){ "version", "-j", NULL });
	cr_expect_eq(res.status, 0, "%s", res.err);
	cr_expect_str_empty(res.err);
}

Test(cli, option_before_command_names_the_order)
{
	RUN(&res, NO_DEVICE, "--json", "list");
	cr_expect_eq(res.status, 2);
	cr_expect(strstr(res.err, "options go after it"), "%s", res.err);
	cr_expect_str_empty(res.out);
}

Test(cli, list_unknown_mode_is_usage)
{
	RUN(&res, NO_DEVICE, "list", "-M", "bogus");
	cr_expect_eq(res.status, 2);
	cr_expect(strstr(res.err, "unknown namespace mode 'bogus'"), "%s",
		  res.err);
	cr_expect_str_empty(res.out);
	RUN(&res, NO_DEVICE, "list", "--ns-mode", "fsdax");
	cr_expect_eq(res.status, 0, "%s", res.err);
}

Test(cli, metrics_refuses_json)
{
	RUN(&res, NO_DEVICE, "metrics", "--json");
	cr_expect_eq(res.status, 2);
	cr_expect(strstr(res.err, "--json is not accepted"), "%s", res.err);
	cr_expect_str_empty(res.out);
}
