// SPDX-License-Identifier: GPL-2.0
/*
 * What every pkstool command shares: the common options, the one error
 * path, driver checks and the exit-code mapping.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "builtin.h"

static const struct argp_option common_options[] = {
	{ "json", 'j', NULL, 0, "Print a JSON array on stdout", -1 },
	{ "verbose", 'v', NULL, 0, "Say more on stderr", -1 },
	{ 0 }
};

static error_t common_parse(int key, char *arg, struct argp_state *state)
{
	struct pkstool_opts *opts = state->input;

	(void)arg;
	switch (key) {
	case 'j':
		opts->json = true;
		return 0;
	case 'v':
		opts->verbose = true;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

const struct argp pkstool_common_argp = {
	.options = common_options,
	.parser = common_parse,
};

/* Every command's argp takes the common options as its first child. */
/* The parser of a command that takes the common options and nothing else. */
error_t pkstool_parse_no_args(int key, char *arg, struct argp_state *state)
{
	if (key == ARGP_KEY_INIT) {
		state->child_inputs[0] = state->input;
		return 0;
	}
	if (key == ARGP_KEY_ARG) {
		argp_error(state, "unexpected argument '%s'", arg);
		return EINVAL;
	}
	return ARGP_ERR_UNKNOWN;
}

const struct argp_child pkstool_common_children[] = {
	{ &pkstool_common_argp, 0, NULL, 0 },
	{ 0 }
};

/*
 * Resolve an optional namespace filter once, before waiting on faults, so
 * that a typo fails at once. *chardev becomes NULL without a filter, else
 * the namespace's dax device ("" when it has none, which matches no
 * record). Returns 0 or -errno.
 */
int pkstool_check_ns_filter(struct pks_ctx *ctx,
			    const struct pkstool_opts *opts, const char *what,
			    const char *ns_name, const char **chardev)
{
	struct pks_ns *ns = NULL;
	int rc;

	*chardev = NULL;
	if (!ns_name)
		return 0;
	rc = pks_ns_scan(ctx);
	if (!rc) {
		ns = pks_ns_find(ctx, ns_name);
		rc = ns ? 0 : -ENOENT;
	}
	if (rc) {
		p_err(opts, "%s: no namespace '%s': see 'pkstool list'", what,
		      ns_name);
		return rc;
	}
	*chardev = pks_ns_get_device(ns) ? pks_ns_get_device(ns) : "";
	return 0;
}

/* Records of the dax device @chardev only, when it is not NULL. */
bool pks_fault_matches(const struct pks_fault *f, const char *chardev)
{
	return !chardev || ((f->flags & PKS_FAULT_F_NAMESPACE) &&
			    !strcmp(f->owner, chardev));
}

volatile sig_atomic_t pkstool_stop;

static void pkstool_on_stop_signal(int sig)
{
	(void)sig;
	pkstool_stop = 1;
}

/*
 * Long-running commands end cleanly on SIGTERM or SIGINT. No SA_RESTART,
 * so a signal also ends a wait in poll() at once.
 */
void pkstool_catch_stop_signals(void)
{
	struct sigaction sa = { .sa_handler = pkstool_on_stop_signal };

	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
}

/* Errors go to stderr, prefixed, one line, whatever the output mode. */
void p_err(const struct pkstool_opts *opts, const char *fmt, ...)
{
	va_list ap;

	(void)opts;
	fprintf(stderr, "pkstool: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * Check that the driver answers, explaining why not. Returns 0, or the
 * -errno a command should return.
 */
int pkstool_open_driver(struct pks_ctx *ctx, const struct pkstool_opts *opts,
			const char *what)
{
	int rc = pks_driver_status(ctx);
	char hint[512];

	switch (rc) {
	case 0:
		return 0;
	case -ENOENT:
	case -ENODEV:
	case -ENXIO:
		if (!pks_cpu_has_pks()) {
			p_err(opts, "%s: this CPU does not support PKS (CPUID.7.0:ECX bit 31 is clear)",
			      what);
			return -PKSTOOL_E_NOPKS;
		}
		p_err(opts, "%s: the pks driver is not loaded (%s is missing): %s",
		      what, pks_device_path(ctx),
		      pkstool_module_hint("pks", hint, sizeof(hint)));
		return -PKSTOOL_E_NODRIVER;
	case -EACCES:
	case -EPERM:
		p_err(opts, "%s: cannot use %s: %s: run as root",
		      what, pks_device_path(ctx), strerror(-rc));
		return rc;
	case -ENOTTY:
		p_err(opts, "%s: %s is not the pks driver (ioctl refused): check PKS_DEVICE",
		      what, pks_device_path(ctx));
		return rc;
	default:
		p_err(opts, "%s: %s: %s", what, pks_device_path(ctx),
		      strerror(-rc));
		return rc;
	}
}

/*
 * Check that the test module answers too; the caller checked the driver.
 * Returns 0, or the -errno a command should return.
 */
int pkstool_open_test(struct pks_ctx *ctx, const struct pkstool_opts *opts,
		      const char *what)
{
	int rc = pks_test_status(ctx);
	char hint[512];

	switch (rc) {
	case 0:
		return 0;
	case -ENOENT:
	case -ENODEV:
	case -ENXIO:
		p_err(opts, "%s: the test module is not loaded (%s is missing): %s, never on a production machine",
		      what, pks_test_device_path(ctx),
		      pkstool_module_hint("pks_test", hint, sizeof(hint)));
		return -PKSTOOL_E_NODRIVER;
	case -EACCES:
	case -EPERM:
		p_err(opts, "%s: cannot use %s: %s: run as root", what,
		      pks_test_device_path(ctx), strerror(-rc));
		return rc;
	default:
		p_err(opts, "%s: %s: %s", what, pks_test_device_path(ctx),
		      strerror(-rc));
		return rc;
	}
}

int pkstool_exit_code(int rc)
{
	switch (-rc) {
	case 0:
		return PKSTOOL_EXIT_OK;
	case PKSTOOL_E_NOPKS:
	case PKSTOOL_E_NODRIVER:
		return PKSTOOL_EXIT_UNSUPPORTED;
	case PKSTOOL_E_USAGE:
		return PKSTOOL_EXIT_USAGE;
	default:
		return PKSTOOL_EXIT_FAIL;
	}
}

void display_json_array(struct json_object *array)
{
	printf("%s\n", json_object_to_json_string_ext(array,
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			JSON_C_TO_STRING_NOSLASHESCAPE));
}
