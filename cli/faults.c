// SPDX-License-Identifier: GPL-2.0
/*
 * pkstool faults: the driver's record of stray accesses.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "records.h"

struct faults_opts {
	struct pkstool_opts common;
	bool follow;
	uint64_t since;
	const char *ns_name;
	const char *chardev;	/* resolved from ns_name */
};

static const struct argp_option faults_options[] = {
	{ "follow", 'F', NULL, 0, "Wait for new faults and print them too", 0 },
	{ "since", 's', "SEQ", 0, "Start at sequence number SEQ", 0 },
	{ 0 }
};

static error_t faults_parse(int key, char *arg, struct argp_state *state)
{
	struct faults_opts *opts = state->input;
	char *end;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &opts->common;
		return 0;
	case 'F':
		opts->follow = true;
		return 0;
	case 's':
		errno = 0;
		opts->since = strtoull(arg, &end, 0);
		if (errno || *end || !*arg)
			return pkstool_usage(state,
					     "--since takes a sequence number, not '%s'",
					     arg);
		return 0;
	case ARGP_KEY_ARG:
		if (opts->ns_name)
			return pkstool_usage(state, "name one namespace");
		opts->ns_name = arg;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp faults_argp = {
	.options = faults_options,
	.parser = faults_parse,
	.args_doc = "[NAMESPACE]",
	.doc = "Show the stray accesses the driver recorded, oldest first.",
	.children = pkstool_common_children,
};

/*
 * Print one batch: text lines; with --json one array, or when following
 * one object per line (a stream has no end to close an array at).
 */
static void faults_print(struct pks_ctx *ctx, const struct faults_opts *opts,
			 struct json_object *array)
{
	struct pks_record *rec;
	struct json_object *jf;
	char line[512];

	pks_record_foreach(ctx, rec) {
		/* Protection records are the monitor's, not stray accesses. */
		if (!pks_record_is_fault(rec) ||
		    !util_record_matches(rec, opts->chardev))
			continue;
		if (!opts->common.json) {
			util_record_to_text(rec, NULL, line, sizeof(line));
			printf("%s\n", line);
			continue;
		}
		jf = util_record_to_json(rec);
		if (opts->follow) {
			display_json_line(stdout, jf);
			json_object_put(jf);
		} else {
			json_object_array_add(array, jf);
		}
	}
	fflush(stdout);
}

int cmd_faults(int argc, char **argv, struct pks_ctx *ctx)
{
	struct faults_opts opts = { .since = 1 };
	struct json_object *array;
	uint64_t dropped, next;
	bool more, stopping;
	int rc;

	if (!pkstool_parse(&faults_argp, argc, argv, &opts, &rc))
		return rc;
	rc = pkstool_open_records(ctx, &opts.common, "faults", opts.ns_name,
				  &opts.chardev);
	if (rc)
		return rc;
	pkstool_catch_stop_signals();
	array = json_object_new_array();
	next = opts.since;
	do {
		/* After a stop signal, --follow reads once more (as monitor). */
		stopping = pkstool_stop;
		rc = pks_faults_refresh(ctx, next, &dropped);
		if (rc) {
			p_err(&opts.common, "faults: reading the fault log: %s",
			      strerror(-rc));
			json_object_put(array);
			return PKSTOOL_FAILED;
		}
		if (dropped)
			fprintf(stderr, "pkstool: faults: %" PRIu64 " records before %" PRIu64 " were dropped (the ring holds %d)\n",
				dropped, next + dropped, PKS_FAULT_RING);
		faults_print(ctx, &opts, array);
		next = pks_faults_get_next_seq(ctx);
		/* A batch may have more behind it: read again first. */
		more = pks_record_get_first(ctx) != NULL;
		if (!more && opts.follow && !stopping)
			pks_faults_wait(ctx, 1000);
	} while (more || (opts.follow && !stopping));
	if (opts.common.json && !opts.follow)
		display_json_array(array);
	json_object_put(array);
	return PKSTOOL_DONE;
}
