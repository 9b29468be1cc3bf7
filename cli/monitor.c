// SPDX-License-Identifier: GPL-2.0
/*
 * pkstool monitor: a long-running watcher, like ndctl monitor. Each new
 * stray access becomes one line, on stdout, in a log file or in syslog:
 * text, or with --json one JSON object (JSON lines).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "builtin.h"

struct monitor_opts {
	struct pkstool_opts common;
	const char *log;
	bool daemon;
	const char *ns_name;
	const char *chardev;	/* resolved from ns_name */
};

static const struct argp_option monitor_options[] = {
	{ "log", 'l', "FILE|syslog", 0,
	  "Append events to FILE, or send them to syslog (default: stdout)", 0 },
	{ "daemon", 'd', NULL, 0, "Run in the background (needs --log)", 0 },
	{ 0 }
};

static error_t monitor_parse(int key, char *arg, struct argp_state *state)
{
	struct monitor_opts *opts = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &opts->common;
		return 0;
	case 'l':
		opts->log = arg;
		return 0;
	case 'd':
		opts->daemon = true;
		return 0;
	case ARGP_KEY_ARG:
		if (opts->ns_name)
			return pkstool_usage(state, "name one namespace");
		opts->ns_name = arg;
		return 0;
	case ARGP_KEY_END:
		if (opts->daemon && !opts->log)
			return pkstool_usage(state,
					     "--daemon needs --log FILE or --log syslog");
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp monitor_argp = {
	.options = monitor_options,
	.parser = monitor_parse,
	.args_doc = "[NAMESPACE]",
	.doc = "Watch for stray accesses and log each on one line (with "
	       "--json, one JSON object per line), until SIGTERM or SIGINT.",
	.children = pkstool_common_children,
};

static void monitor_emit(FILE *out, bool json, struct pks_record *rec,
			 uint64_t dropped)
{
	struct json_object *event = NULL;
	char buf[512];
	const char *line = buf;

	if (json) {
		event = pks_record_event_to_json(rec, dropped);
		line = json_object_to_json_string_ext(event,
				JSON_C_TO_STRING_PLAIN |
				JSON_C_TO_STRING_NOSLASHESCAPE);
	} else if (rec) {
		pks_record_to_text(rec, "fault", buf, sizeof(buf));
	} else {
		snprintf(buf, sizeof(buf),
			 "dropped %" PRIu64 " records (the ring was full)",
			 dropped);
	}
	if (out) {
		fprintf(out, "%s\n", line);
		fflush(out);
	} else {
		syslog(LOG_WARNING, "%s", line);
	}
	json_object_put(event);
}

int cmd_monitor(int argc, char **argv, struct pks_ctx *ctx)
{
	struct monitor_opts opts = { 0 };
	struct pks_record *rec;
	uint64_t next, dropped;
	FILE *out = stdout;
	int rc;

	if (!pkstool_parse(&monitor_argp, argc, argv, &opts, &rc))
		return rc;
	rc = pkstool_open_driver(ctx, &opts.common, "monitor");
	if (rc)
		return rc;
	rc = pkstool_check_ns_filter(ctx, &opts.common, "monitor", opts.ns_name,
				     &opts.chardev);
	if (rc)
		return rc;
	if (opts.log && !strcmp(opts.log, "syslog")) {
		out = NULL;
		openlog("pkstool", LOG_PID, LOG_DAEMON);
	} else if (opts.log) {
		out = fopen(opts.log, "ae");
		if (!out) {
			p_err(&opts.common, "monitor: opening %s: %s", opts.log,
			      strerror(errno));
			return PKSTOOL_FAILED;
		}
	}
	if (opts.daemon && daemon(0, 0)) {
		p_err(&opts.common, "monitor: daemon: %s", strerror(errno));
		return PKSTOOL_FAILED;
	}
	pkstool_catch_stop_signals();

	/* Only faults from now on. */
	rc = pks_faults_head(ctx, &next);
	while (!rc && !pkstool_stop) {
		rc = pks_faults_wait(ctx, -1);
		if (rc == -EINTR) {
			rc = 0;
			continue;
		}
		if (rc < 0)
			break;
		rc = pks_faults_refresh(ctx, next, &dropped);
		if (rc)
			break;
		if (dropped)
			monitor_emit(out, opts.common.json, NULL, dropped);
		pks_record_foreach(ctx, rec)
			if (pks_record_matches(rec, opts.chardev))
				monitor_emit(out, opts.common.json, rec, 0);
		next = pks_faults_get_next_seq(ctx);
	}
	if (rc)
		p_err(&opts.common, "monitor: reading the fault log: %s",
		      strerror(-rc));
	if (out && out != stdout)
		fclose(out);
	if (!out)
		closelog();
	fprintf(stderr, "pkstool: monitor: stopped\n");
	return rc ? PKSTOOL_FAILED : PKSTOOL_DONE;
}
