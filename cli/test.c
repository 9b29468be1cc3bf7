// SPDX-License-Identifier: GPL-2.0
/*
 * pkstool test: run the driver's built-in test cases.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "builtin.h"

#include <linux/pks_test.h>

struct test_opts {
	struct pkstool_opts common;
	bool force;
	bool list;
	bool selected[PKS_TEST_NR];
	unsigned int nr_selected;
	const char *ns_name;
};

static const char test_doc[] =
	"Run built-in PKS test cases.\v"
	"TEST is a test name, 'all' (every case that is safe to run together) "
	"or 'all-keys'. 'crash' oopses the calling process on purpose and "
	"needs --force. NAMESPACE (namespaceX.Y, daxX.Y or /dev/daxX.Y) is the "
	"device-dax namespace that 'protect', 'stray-write' and 'boundary' write "
	"into; without it they are skipped: pkstool never writes into a "
	"namespace that was not named.";

static const struct argp_option test_options[] = {
	{ "force", 'f', NULL, 0, "Allow the crash test", 0 },
	{ "list", 'L', NULL, 0, "List the test cases and exit", 0 },
	{ 0 }
};

static void test_select(struct test_opts *opts, unsigned int id)
{
	if (!opts->selected[id])
		opts->nr_selected++;
	opts->selected[id] = true;
}

static error_t test_parse(int key, char *arg, struct argp_state *state)
{
	struct test_opts *opts = state->input;
	unsigned int id;
	int found;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &opts->common;
		return 0;
	case 'f':
		opts->force = true;
		return 0;
	case 'L':
		opts->list = true;
		return 0;
	case ARGP_KEY_ARG:
		if (!strcmp(arg, "all")) {
			for (id = 0; id < PKS_TEST_NR; id++)
				if (!(pks_test_get_flags(id) &
				      PKS_TEST_F_NOT_IN_ALL))
					test_select(opts, id);
			return 0;
		}
		found = pks_test_lookup(arg);
		if (found < 0 && !opts->ns_name && (!strncmp(arg, "dax", 3) ||
		    !strncmp(arg, "namespace", 9) || !strncmp(arg, "/dev/", 5))) {
			opts->ns_name = arg;
			return 0;
		}
		if (found < 0)
			return pkstool_usage(state,
					     "unknown test '%s': 'pkstool test --list' names them",
					     arg);
		test_select(opts, found);
		return 0;
	case ARGP_KEY_END:
		if (!opts->list && !opts->nr_selected)
			return pkstool_usage(state,
					     "name a test, 'all' or 'all-keys'");
		for (id = 0; id < PKS_TEST_NR; id++)
			if (opts->selected[id] && !opts->force &&
			    (pks_test_get_flags(id) & PKS_TEST_F_CRASHES))
				return pkstool_usage(state,
						     "'%s' kills this process with a kernel oops: add --force",
						     pks_test_get_name(id));
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp test_argp = {
	.options = test_options,
	.parser = test_parse,
	.args_doc = "TEST... [NAMESPACE]",
	.doc = test_doc,
	.children = pkstool_common_children,
};

static const char *const result_names[] = {
	[PKS_RESULT_PASS] = "pass",
	[PKS_RESULT_FAIL] = "fail",
	[PKS_RESULT_SKIP] = "skip",
	[PKS_RESULT_ARMED] = "armed",
};

static const char *const result_tags[] = {
	[PKS_RESULT_PASS] = "[OK]",
	[PKS_RESULT_FAIL] = "[FAIL]",
	[PKS_RESULT_SKIP] = "[SKIP]",
	[PKS_RESULT_ARMED] = "[ARMED]",
};

/* Run one case; the crash case is requested twice, as the driver asks. */
static int run_one(struct pks_ctx *ctx, unsigned int id, struct pks_ns *ns,
		   unsigned int *result, char *msg, size_t len)
{
	int rc;

	if ((pks_test_get_flags(id) & PKS_TEST_F_NEEDS_DAX) && !ns) {
		snprintf(msg, len, "it writes into a device-dax namespace, and none was named: name one whose data may be overwritten (pkstool test %s daxX.Y)",
			 pks_test_get_name(id));
		*result = PKS_RESULT_SKIP;
		return 0;
	}
	rc = pks_test_run(ctx, id, ns, result, msg, len);
	if (!rc && *result == PKS_RESULT_ARMED)
		rc = pks_test_run(ctx, id, ns, result, msg, len);
	return rc;
}

/*
 * The namespace for cases that need one: the named one only. The cases
 * write into it, so none is ever picked for the user: on a real machine
 * the first devdax namespace may be a live application's.
 */
static int test_namespace(struct pks_ctx *ctx, const struct test_opts *opts,
			  struct pks_ns **out)
{
	struct pks_ns *ns;
	int rc;

	*out = NULL;
	rc = pks_ns_scan(ctx);
	if (rc) {
		p_err(&opts->common, "test: reading namespaces: %s",
		      strerror(-rc));
		return PKSTOOL_FAILED;
	}
	if (!opts->ns_name)
		return 0;
	ns = pks_ns_find(ctx, opts->ns_name);
	if (!ns) {
		p_err(&opts->common, "test: no namespace '%s': see 'pkstool list'",
		      opts->ns_name);
		return PKSTOOL_FAILED;
	}
	if (!pks_ns_is_devdax(ns)) {
		p_err(&opts->common, "test: %s is %s, not devdax",
		      opts->ns_name, pks_ns_get_mode(ns));
		return PKSTOOL_FAILED;
	}
	*out = ns;
	return PKSTOOL_DONE;
}

static void test_list(const struct test_opts *opts)
{
	struct json_object *array = json_object_new_array();
	unsigned int id;

	for (id = 0; id < PKS_TEST_NR; id++) {
		uint32_t flags = pks_test_get_flags(id);
		struct json_object *jt;

		if (!opts->common.json) {
			printf("%s%s\n", pks_test_get_name(id),
			       flags & PKS_TEST_F_CRASHES ? " (crashes)" :
			       flags & PKS_TEST_F_NOT_IN_ALL ? " (not in all)" :
			       "");
			continue;
		}
		jt = json_object_new_object();
		json_object_object_add(jt, "test",
				       json_object_new_string(pks_test_get_name(id)));
		json_object_object_add(jt, "in_all", json_object_new_boolean(
				       !(flags & PKS_TEST_F_NOT_IN_ALL)));
		json_object_object_add(jt, "crashes", json_object_new_boolean(
				       flags & PKS_TEST_F_CRASHES));
		json_object_array_add(array, jt);
	}
	if (opts->common.json)
		display_json_array(array);
	json_object_put(array);
}

int cmd_test(int argc, char **argv, struct pks_ctx *ctx)
{
	struct test_opts opts = { 0 };
	unsigned int id, passed = 0, failed = 0, skipped = 0;
	struct json_object *array, *jt;
	struct pks_ns *ns = NULL;
	unsigned int result;
	char msg[PKS_MESSAGE_LEN];
	const char *name;
	int rc;

	if (!pkstool_parse(&test_argp, argc, argv, &opts, &rc))
		return rc;
	if (opts.list) {
		test_list(&opts);
		return PKSTOOL_DONE;
	}
	rc = pkstool_open_driver_rw(ctx, &opts.common, "test");
	if (!rc)
		rc = pkstool_open_test(ctx, &opts.common, "test");
	if (rc)
		return rc;
	for (id = 0; id < PKS_TEST_NR; id++)
		if (opts.selected[id] &&
		    (pks_test_get_flags(id) & PKS_TEST_F_NEEDS_DAX))
			break;
	if (id < PKS_TEST_NR || opts.ns_name) {
		rc = test_namespace(ctx, &opts, &ns);
		if (rc)
			return rc;
	}

	array = json_object_new_array();
	for (id = 0; id < PKS_TEST_NR; id++) {
		if (!opts.selected[id])
			continue;
		name = pks_test_get_name(id);
		if (!opts.common.json) {
			printf("[RUN] %s\n", name);
			fflush(stdout);
		}
		msg[0] = '\0';
		rc = run_one(ctx, id, ns, &result, msg, sizeof(msg));
		if (rc) {
			p_err(&opts.common, "test: %s: %s%s%s", name,
			      strerror(-rc), *msg ? ": " : "", msg);
			result = PKS_RESULT_FAIL;
			if (!*msg)
				snprintf(msg, sizeof(msg), "%s", strerror(-rc));
		}
		if (result == PKS_RESULT_PASS)
			passed++;
		else if (result == PKS_RESULT_SKIP)
			skipped++;
		else
			failed++;
		if (!opts.common.json) {
			printf("%s %s%s%s\n", result_tags[result], name,
			       *msg ? ": " : "", msg);
			fflush(stdout);
			continue;
		}
		jt = json_object_new_object();
		json_object_object_add(jt, "test", json_object_new_string(name));
		json_object_object_add(jt, "result",
				       json_object_new_string(result_names[result]));
		json_object_object_add(jt, "message", *msg ?
				       json_object_new_string(msg) : NULL);
		json_object_array_add(array, jt);
	}
	if (opts.common.json)
		display_json_array(array);
	json_object_put(array);
	fprintf(stderr, "pkstool: test: %u passed, %u failed, %u skipped\n",
		passed, failed, skipped);
	/*
	 * A run in which nothing passed tested nothing: every case was
	 * skipped, so it is unsupported here (77), as ndctl's tests say, not
	 * done. One pass and no failure is done.
	 */
	if (failed)
		return PKSTOOL_FAILED;
	return passed ? PKSTOOL_DONE : PKSTOOL_UNSUPPORTED;
}
