// SPDX-License-Identifier: GPL-2.0
/*
 * pkstool: protect persistent memory from stray kernel accesses with
 * Protection Keys for Supervisor pages.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "builtin.h"

struct cmd_struct {
	const char *cmd;
	int (*fn)(int argc, char **argv, struct pks_ctx *ctx);
	const char *summary;
};

static const struct cmd_struct commands[] = {
	{ "info", cmd_info, "show PKS support, driver, CPU and key state" },
	{ "list", cmd_list, "list pmem namespaces and their protection" },
	{ "enable", cmd_enable, "protect devdax and fsdax namespaces" },
	{ "disable", cmd_disable, "end protection of namespaces" },
	{ "faults", cmd_faults, "show recorded stray accesses" },
	{ "monitor", cmd_monitor, "log stray accesses as they happen" },
	{ "metrics", cmd_metrics, "write metrics for Prometheus (node_exporter)" },
	{ "test", cmd_test, "run the built-in PKS test cases" },
	{ "version", cmd_version, "print the pkstool version" },
	{ "help", cmd_help, "list the commands, or describe one" },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct cmd_struct *find_cmd(const char *name)
{
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i].cmd, name))
			return &commands[i];
	return NULL;
}

struct help_opts {
	struct pkstool_opts common;
	const struct cmd_struct *cmd;
};

static error_t help_parse(int key, char *arg, struct argp_state *state)
{
	struct help_opts *opts = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &opts->common;
		return 0;
	case ARGP_KEY_ARG:
		if (opts->cmd)
			return pkstool_usage(state, "name one command");
		opts->cmd = find_cmd(arg);
		if (!opts->cmd)
			return pkstool_usage(state, "unknown command '%s'", arg);
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp help_argp = {
	.parser = help_parse,
	.args_doc = "[COMMAND]",
	.doc = "List the commands, or show COMMAND's options as "
	       "'pkstool COMMAND --help' does.",
	.children = pkstool_common_children,
};

static void help_print_commands(bool json)
{
	struct json_object *array, *jcmd;
	size_t i;

	if (!json) {
		printf("usage: pkstool <command> [options]\n\ncommands:\n");
		for (i = 0; i < NR_COMMANDS; i++)
			printf("  %-10s %s\n", commands[i].cmd,
			       commands[i].summary);
		printf("\n'pkstool <command> --help' describes a command; "
		       "man pkstool-<command> has the details.\n");
		return;
	}
	array = json_object_new_array();
	for (i = 0; i < NR_COMMANDS; i++) {
		jcmd = json_object_new_object();
		json_object_object_add(jcmd, "command",
				       json_object_new_string(commands[i].cmd));
		json_object_object_add(jcmd, "summary",
				       json_object_new_string(commands[i].summary));
		json_object_array_add(array, jcmd);
	}
	display_json_array(array);
	json_object_put(array);
}

/* help: the command list, or with a command name that command's --help. */
int cmd_help(int argc, char **argv, struct pks_ctx *ctx)
{
	struct help_opts opts = { 0 };
	char name[64], opt[] = "--help";
	char *args[3];
	int status;

	if (!pkstool_parse(&help_argp, argc, argv, &opts, &status))
		return status;
	if (!opts.cmd) {
		help_print_commands(opts.common.json);
		return PKSTOOL_DONE;
	}
	snprintf(name, sizeof(name), "pkstool %s", opts.cmd->cmd);
	args[0] = name;
	args[1] = opt;
	args[2] = NULL;
	pkstool_cmd = opts.cmd->cmd;
	return opts.cmd->fn(2, args, ctx);
}

/*
 * What a command printed has reached its file only once stdout is flushed
 * and closed: check that once, at exit, as ndctl's run_builtin() does, so
 * that "pkstool list --json > /dev/full" fails instead of exiting 0. A
 * write error turns success (and "unsupported", whose words went to
 * stdout too) into failure; a failure already decided keeps its code.
 * Pipes get no exemption: with SIGPIPE at its default a closed pipe ends
 * pkstool before this runs, and where SIGPIPE is ignored the lost output
 * is an error like any other.
 */
static int finish_stdout(const char *cmd, int status)
{
	const char *why = NULL;
	struct stat st;
	bool closed;

	/* Started with stdout closed: only a write that failed counts. */
	closed = fstat(fileno(stdout), &st) != 0;
	errno = 0;
	if (fflush(stdout))
		why = strerror(errno);
	else if (ferror(stdout))
		why = "output was lost";
	if (fclose(stdout) && !why && !closed)
		why = strerror(errno);
	if (!why)
		return status;
	if (cmd)
		fprintf(stderr, "pkstool: %s: write error: %s\n", cmd, why);
	else
		fprintf(stderr, "pkstool: write error: %s\n", why);
	if (status == PKSTOOL_DONE || status == PKSTOOL_UNSUPPORTED)
		return PKSTOOL_FAILED;
	return status;
}

static int run_builtin(const struct cmd_struct *cmd, int argc, char **argv)
{
	char name[64];
	struct pks_ctx *ctx;
	int rc, status;

	rc = pks_new(&ctx);
	if (rc) {
		fprintf(stderr, "pkstool: %s: %s\n", cmd->cmd, strerror(-rc));
		return PKSTOOL_FAILED;
	}
	/* argp's --help shows "Usage: pkstool test ...". */
	snprintf(name, sizeof(name), "pkstool %s", cmd->cmd);
	argv[0] = name;
	pkstool_cmd = cmd->cmd;
	status = cmd->fn(argc, argv, ctx);
	pks_unref(ctx);
	return status;
}

/* *name becomes the command given, for finish_stdout()'s message. */
static int run_main(int argc, char **argv, const char **name)
{
	const struct cmd_struct *cmd;
	size_t i;

	if (argc < 2) {
		help_print_commands(false);
		return PKSTOOL_USAGE;
	}
	if (!strcmp(argv[1], "--list-cmds")) {
		for (i = 0; i < NR_COMMANDS; i++)
			printf("%s\n", commands[i].cmd);
		return PKSTOOL_DONE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "-?")) {
		help_print_commands(false);
		return PKSTOOL_DONE;
	}
	if (!strcmp(argv[1], "--version"))
		cmd = find_cmd("version");
	else
		cmd = find_cmd(argv[1]);
	if (!cmd && argv[1][0] == '-') {
		fprintf(stderr, "pkstool: option '%s' before the command: options go after it, as in 'pkstool list %s'\n",
			argv[1], argv[1]);
		return PKSTOOL_USAGE;
	}
	if (!cmd) {
		fprintf(stderr, "pkstool: unknown command '%s': see 'pkstool help'\n",
			argv[1]);
		return PKSTOOL_USAGE;
	}
	*name = cmd->cmd;
	return run_builtin(cmd, argc - 1, argv + 1);
}

/* Every way out passes here, so stdout is checked on each of them. */
int main(int argc, char **argv)
{
	const char *name = NULL;
	int status = run_main(argc, argv, &name);

	return finish_stdout(name, status);
}
