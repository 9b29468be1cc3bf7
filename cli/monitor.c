// SPDX-License-Identifier: GPL-2.0
/*
 * pkstool monitor: a long-running watcher, like ndctl monitor. Each new
 * record of the driver's log becomes one line, on stdout, in a log file
 * or in syslog: text, or with --json one JSON object (JSON lines). The
 * log has stray accesses and protection starting and ending, so a
 * namespace that stops being protected is reported too.
 *
 * As a service: SIGHUP reopens the log file (logrotate), --cursor keeps
 * the next sequence number across restarts, and systemd is told when the
 * monitor is ready (Type=notify).
 */
#include <errno.h>
#include <glib.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>
#include <systemd/sd-daemon.h>

#include "builtin.h"
#include "records.h"

struct monitor_opts {
	struct pkstool_opts common;
	const char *log;
	const char *cursor;
	bool daemon;
	bool daemonized;	/* errors go to syslog from then on */
	const char *ns_name;
	const char *chardev;	/* resolved from ns_name */
	FILE *out;		/* NULL: syslog */
};

static const struct argp_option monitor_options[] = {
	{ "log", 'l', "FILE|syslog", 0,
	  "Append events to FILE, or send them to syslog (default: stdout); SIGHUP reopens FILE",
	  0 },
	{ "daemon", 'd', NULL, 0, "Run in the background (needs --log)", 0 },
	{ "cursor", 'c', "FILE", 0,
	  "Keep the next sequence number in FILE and resume from it, so that a restart loses no record",
	  0 },
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
	case 'c':
		opts->cursor = arg;
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
	.doc = "Watch for stray accesses and for protection starting and "
	       "ending, and log each on one line (with --json, one JSON "
	       "object per line), until SIGTERM or SIGINT.",
	.children = pkstool_common_children,
};

/* Before --daemon, errors go to stderr; after it, stderr is gone. */
static void monitor_err(const struct monitor_opts *opts, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void monitor_err(const struct monitor_opts *opts, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (opts->daemonized)
		syslog(LOG_ERR, "monitor: %s", msg);
	else
		p_err(&opts->common, "monitor: %s", msg);
}

/* Emit one event: a record (@rec), or the monitor's own @event. */
static void monitor_emit(const struct monitor_opts *opts,
			 struct pks_record *rec, const char *event,
			 uint64_t dropped)
{
	struct json_object *jev = NULL;
	char buf[512];
	const char *line = buf;

	if (opts->common.json) {
		jev = util_record_event_to_json(rec, event, dropped);
		line = json_object_to_json_string_ext(jev,
				JSON_C_TO_STRING_PLAIN |
				JSON_C_TO_STRING_NOSLASHESCAPE);
	} else if (rec) {
		util_record_to_text(rec, pks_record_is_fault(rec) ? "fault" :
				   NULL, buf, sizeof(buf));
	} else if (!strcmp(event, "dropped")) {
		snprintf(buf, sizeof(buf),
			 "dropped %" PRIu64 " records (the ring or a restart lost them)",
			 dropped);
	} else {
		snprintf(buf, sizeof(buf),
			 "capture-off: the driver places no fault probes, so strays are not recorded and no namespace can be protected (see pkstool info)");
	}
	if (opts->out) {
		fprintf(opts->out, "%s\n", line);
		fflush(opts->out);
	} else {
		syslog(rec && !pks_record_is_fault(rec) ? LOG_NOTICE :
		       LOG_WARNING, "%s", line);
	}
	json_object_put(jev);
}

static volatile sig_atomic_t monitor_reopen;

static void monitor_on_hup(int sig)
{
	(void)sig;
	monitor_reopen = 1;
}

static int monitor_open_log(struct monitor_opts *opts)
{
	FILE *out;

	if (!opts->log) {
		opts->out = stdout;
		return 0;
	}
	if (!strcmp(opts->log, "syslog")) {
		opts->out = NULL;
		openlog("pkstool", LOG_PID, LOG_DAEMON);
		return 0;
	}
	out = fopen(opts->log, "ae");
	if (!out) {
		monitor_err(opts, "opening %s: %s", opts->log, strerror(errno));
		return -errno;
	}
	if (opts->out && opts->out != stdout)
		fclose(opts->out);
	opts->out = out;
	return 0;
}

/*
 * The cursor: which load of the driver (its fault-log instance) and the
 * next sequence number of it not yet reported, as a key file:
 *	[cursor]
 *	instance=<decimal>
 *	next=<decimal>
 * Returns 0 with *@next set where the cursor belongs to @instance, 1
 * where there is none, 2 where it belongs to another load, or -errno.
 */
static int cursor_load(const char *path, uint64_t instance, uint64_t *next)
{
	GKeyFile *kf = g_key_file_new();
	GError *err = NULL;
	guint64 saved, seq;
	int rc = 1;

	if (!g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, &err)) {
		rc = g_error_matches(err, G_FILE_ERROR, G_FILE_ERROR_NOENT) ?
		     1 : -EINVAL;
		goto out;
	}
	saved = g_key_file_get_uint64(kf, "cursor", "instance", &err);
	if (!err)
		seq = g_key_file_get_uint64(kf, "cursor", "next", &err);
	if (err || !seq) {
		rc = -EINVAL;
		goto out;
	}
	rc = 2;
	if (saved == instance) {
		*next = seq;
		rc = 0;
	}
out:
	g_clear_error(&err);
	g_key_file_free(kf);
	return rc;
}

/* Replace the cursor file whole (write a copy, rename it over). */
static int cursor_save(const char *path, uint64_t instance, uint64_t next)
{
	GKeyFile *kf = g_key_file_new();
	GError *err = NULL;
	int rc = 0;

	g_key_file_set_comment(kf, NULL, NULL,
			       " pkstool monitor --cursor: where to resume",
			       NULL);
	g_key_file_set_uint64(kf, "cursor", "instance", instance);
	g_key_file_set_uint64(kf, "cursor", "next", next);
	if (!g_key_file_save_to_file(kf, path, &err)) {
		rc = -EIO;
		g_clear_error(&err);
	}
	g_key_file_free(kf);
	return rc;
}

/*
 * Where to start: with a cursor of this driver load, where it says (the
 * records in between are reported, a gap as dropped); with a cursor of an
 * earlier load, from this load's first record; else from now on.
 */
static int monitor_start(struct monitor_opts *opts, struct pks_ctx *ctx,
			 uint64_t *next)
{
	uint64_t head;
	int rc;

	rc = pks_faults_head(ctx, &head);
	if (rc)
		return rc;
	*next = head;
	if (!opts->cursor)
		return 0;
	rc = cursor_load(opts->cursor, pks_faults_get_instance(ctx), next);
	if (rc < 0) {
		monitor_err(opts, "%s: not a cursor file: move it away",
			    opts->cursor);
		return rc;
	}
	if (rc == 2)
		*next = 1;	/* the driver was reloaded: all of this load */
	if (*next > head)
		*next = head;	/* never wait for what was not logged */
	return 0;
}

int cmd_monitor(int argc, char **argv, struct pks_ctx *ctx)
{
	struct monitor_opts opts = { 0 };
	struct sigaction sa = { .sa_handler = monitor_on_hup };
	struct pks_record *rec;
	uint64_t next, dropped, saved = 0;
	int rc;

	if (!pkstool_parse(&monitor_argp, argc, argv, &opts, &rc))
		return rc;
	rc = pkstool_open_records(ctx, &opts.common, "monitor", opts.ns_name,
				  &opts.chardev);
	if (rc)
		return rc;
	if (monitor_open_log(&opts))
		return PKSTOOL_FAILED;
	if (monitor_start(&opts, ctx, &next))
		return PKSTOOL_FAILED;
	if (opts.daemon) {
		if (daemon(0, 0)) {
			monitor_err(&opts, "daemon: %s", strerror(errno));
			return PKSTOOL_FAILED;
		}
		opts.daemonized = true;
		openlog("pkstool", LOG_PID, LOG_DAEMON);
	}
	pkstool_catch_stop_signals();
	sigaction(SIGHUP, &sa, NULL);

	if (!pks_refresh(ctx) && !pks_fault_log_active(ctx))
		monitor_emit(&opts, NULL, "capture-off", 0);
	/* Ready: the device is open and the start is known. */
	sd_notify(0, "READY=1");
	rc = 0;
	while (!rc) {
		/*
		 * After a stop signal the log is read once more: every
		 * record made before it is emitted, and a service stopped
		 * right after a stray still logs it.
		 */
		bool stopping = pkstool_stop;

		if (monitor_reopen) {
			monitor_reopen = 0;
			if (opts.out != stdout && opts.out &&
			    monitor_open_log(&opts))
				break;
		}
		rc = pks_faults_refresh(ctx, next, &dropped);
		if (rc)
			break;
		if (dropped)
			monitor_emit(&opts, NULL, "dropped", dropped);
		pks_record_foreach(ctx, rec)
			if (util_record_matches(rec, opts.chardev))
				monitor_emit(&opts, rec, NULL, 0);
		next = pks_faults_get_next_seq(ctx);
		if (opts.cursor && next != saved) {
			if (cursor_save(opts.cursor,
					pks_faults_get_instance(ctx), next))
				monitor_err(&opts, "saving the cursor in %s failed",
					    opts.cursor);
			saved = next;
		}
		if (stopping)
			break;
		/*
		 * A stop signal that lands between the check and the poll
		 * would not end it: wait a second at most, then look.
		 */
		rc = pks_faults_wait(ctx, 1000);
		if (rc == -EINTR || rc >= 0)
			rc = 0;
	}
	sd_notify(0, "STOPPING=1");
	if (rc)
		monitor_err(&opts, "reading the fault log: %s", strerror(-rc));
	if (opts.out && opts.out != stdout)
		fclose(opts.out);
	if (!opts.out || opts.daemonized)
		closelog();
	if (!opts.daemonized)
		fprintf(stderr, "pkstool: monitor: stopped\n");
	return rc ? PKSTOOL_FAILED : PKSTOOL_DONE;
}
