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

const char *pkstool_cmd = "";

/*
 * argp runs with ARGP_NO_ERRS so that every usage message has pkstool's
 * one prefix: pkstool_usage() prints our own, and the word getopt refused
 * is kept here for pkstool_parse() to name.
 */
static bool usage_reported;
static const char *refused_word;

static const struct argp_option common_options[] = {
	{ "json", 'j', NULL, 0, "Print JSON on stdout (see pkstool-json(7))",
	  -1 },
	{ "help", 'h', NULL, 0, "Show this help and exit", -1 },
	{ NULL, '?', NULL, OPTION_ALIAS, NULL, -1 },
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
	case 'h':
	case '?':
		/*
		 * argp_state_help() is silent under ARGP_NO_ERRS: print it
		 * ourselves, without exiting; ECANCELED ends the parse.
		 */
		argp_help(state->root_argp, stdout, ARGP_HELP_STD_HELP &
			  ~(ARGP_HELP_EXIT_ERR | ARGP_HELP_EXIT_OK), state->name);
		return ECANCELED;
	case ARGP_KEY_ERROR:
		if (state->next > 0 && state->next <= state->argc)
			refused_word = state->argv[state->next - 1];
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
const struct argp_child pkstool_common_children[] = {
	{ &pkstool_common_argp, 0, NULL, 0 },
	{ 0 }
};

/*
 * A usage error found while parsing: say it with pkstool's prefix and
 * return the error that makes pkstool_parse() report PKSTOOL_USAGE.
 */
error_t pkstool_usage(struct argp_state *state, const char *fmt, ...)
{
	va_list ap;

	(void)state;
	fprintf(stderr, "pkstool: %s: ", pkstool_cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see 'pkstool %s --help')\n", pkstool_cmd);
	usage_reported = true;
	return EINVAL;
}

/*
 * Parse a command's arguments. Returns true when the command should go
 * on; else *status is how it ends: PKSTOOL_DONE after --help, or
 * PKSTOOL_USAGE after a usage error, which has been reported.
 */
bool pkstool_parse(const struct argp *argp, int argc, char **argv,
		   void *input, int *status)
{
	error_t err;

	usage_reported = false;
	refused_word = NULL;
	err = argp_parse(argp, argc, argv, ARGP_NO_ERRS | ARGP_NO_HELP, NULL,
			 input);
	if (!err)
		return true;
	if (err == ECANCELED) {
		*status = PKSTOOL_DONE;
		return false;
	}
	if (!usage_reported) {
		if (refused_word && *refused_word == '-')
			fprintf(stderr,
				"pkstool: %s: unknown option, or option without its value: '%s' (see 'pkstool %s --help')\n",
				pkstool_cmd, refused_word, pkstool_cmd);
		else
			fprintf(stderr,
				"pkstool: %s: invalid arguments (see 'pkstool %s --help')\n",
				pkstool_cmd, pkstool_cmd);
	}
	*status = PKSTOOL_USAGE;
	return false;
}

/* The parser of a command that takes the common options and nothing else. */
error_t pkstool_parse_no_args(int key, char *arg, struct argp_state *state)
{
	if (key == ARGP_KEY_INIT) {
		state->child_inputs[0] = state->input;
		return 0;
	}
	if (key == ARGP_KEY_ARG)
		return pkstool_usage(state, "unexpected argument '%s'", arg);
	return ARGP_ERR_UNKNOWN;
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
 * Check that the driver answers, explaining why not. Returns PKSTOOL_DONE,
 * or the status the command ends with.
 */
/* As pkstool_open_driver(), for commands that change something. */
int pkstool_open_driver_rw(struct pks_ctx *ctx,
			   const struct pkstool_opts *opts, const char *what)
{
	int rc = pkstool_open_driver(ctx, opts, what);

	if (rc || !pks_driver_is_read_only(ctx))
		return rc;
	p_err(opts, "%s: cannot change protection through %s opened read-only: %s: run as root",
	      what, pks_device_path(ctx), strerror(EPERM));
	return PKSTOOL_FAILED;
}

int pkstool_open_driver(struct pks_ctx *ctx, const struct pkstool_opts *opts,
			const char *what)
{
	int rc = pks_driver_status(ctx);
	char hint[512];

	switch (rc) {
	case 0:
		return PKSTOOL_DONE;
	case -ENOENT:
	case -ENODEV:
	case -ENXIO:
		if (!pks_cpu_has_pks()) {
			p_err(opts, "%s: this CPU does not support PKS (CPUID.7.0:ECX bit 31 is clear)",
			      what);
			return PKSTOOL_UNSUPPORTED;
		}
		p_err(opts, "%s: the pks driver is not loaded (%s is missing): %s",
		      what, pks_device_path(ctx),
		      pkstool_module_hint("pks", hint, sizeof(hint)));
		return PKSTOOL_UNSUPPORTED;
	case -EPROTO:
		p_err(opts, "%s: pkstool %s needs driver ABI %u, loaded driver has %u: install matching versions of pkstool and pks.ko",
		      what, PKSTOOL_VERSION, pks_get_lib_abi_version(),
		      pks_get_abi_version(ctx));
		return PKSTOOL_ABI_MISMATCH;
	case -EACCES:
	case -EPERM:
		p_err(opts, "%s: cannot use %s: %s: run as root",
		      what, pks_device_path(ctx), strerror(-rc));
		return PKSTOOL_FAILED;
	case -ENOTTY:
		p_err(opts, "%s: %s is not the pks driver (ioctl refused): check PKS_DEVICE",
		      what, pks_device_path(ctx));
		return PKSTOOL_FAILED;
	default:
		p_err(opts, "%s: %s: %s", what, pks_device_path(ctx),
		      strerror(-rc));
		return PKSTOOL_FAILED;
	}
}

/*
 * Check that the test module answers too; the caller checked the driver.
 * Returns PKSTOOL_DONE, or the status the command ends with.
 */
int pkstool_open_test(struct pks_ctx *ctx, const struct pkstool_opts *opts,
		      const char *what)
{
	int rc = pks_test_status(ctx);
	char hint[512];

	switch (rc) {
	case 0:
		return PKSTOOL_DONE;
	case -ENOENT:
	case -ENODEV:
	case -ENXIO:
		p_err(opts, "%s: the test module is not loaded (%s is missing): %s, never on a production machine",
		      what, pks_test_device_path(ctx),
		      pkstool_module_hint("pks_test", hint, sizeof(hint)));
		return PKSTOOL_UNSUPPORTED;
	case -EACCES:
	case -EPERM:
		p_err(opts, "%s: cannot use %s: %s: run as root", what,
		      pks_test_device_path(ctx), strerror(-rc));
		return PKSTOOL_FAILED;
	default:
		p_err(opts, "%s: %s: %s", what, pks_test_device_path(ctx),
		      strerror(-rc));
		return PKSTOOL_FAILED;
	}
}

void display_json_array(struct json_object *array)
{
	printf("%s\n", json_object_to_json_string_ext(array,
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			JSON_C_TO_STRING_NOSLASHESCAPE));
}

/* Stream commands: one object per line, flushed at once. */
void display_json_line(FILE *out, struct json_object *obj)
{
	fprintf(out, "%s\n", json_object_to_json_string_ext(obj,
			JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	fflush(out);
}
