// SPDX-License-Identifier: GPL-2.0
/*
 * pkstool: protect persistent memory from stray kernel accesses with
 * Protection Keys for Supervisor pages.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "builtin.h"

struct cmd_struct {
	const char *cmd;
	int (*fn)(int argc, char **argv, struct pks_ctx *ctx);
	const char *summary;
};

static const struct cmd_struct commands[] = {
	{ "info", cmd_info, "show PKS support, driver, CPU and key state" },
	{ "list", cmd_list, "list pmem namespaces and their protection" },
	{ "enable", cmd_enable, "protect device-dax namespaces" },
	{ "disable", cmd_disable, "end protection of namespaces" },
	{ "faults", cmd_faults, "show recorded stray accesses" },
	{ "monitor", cmd_monitor, "log stray accesses as they happen" },
	{ "metrics", cmd_metrics, "write metrics for Prometheus (node_exporter)" },
	{ "test", cmd_test, "run the built-in PKS test cases" },
	{ "version", cmd_version, "print the pkstool version" },
	{ "help", cmd_help, "list the commands" },
};

static const struct cmd_struct *find_cmd(const char *name);

/* help: the command list, or with a command name that command's --help. */
int cmd_help(int argc, char **argv, struct pks_ctx *ctx)
{
	const struct cmd_struct *cmd;
	char name[64], opt[] = "--help";
	char *args[3];
	size_t i;

	if (argc > 2) {
		fprintf(stderr, "pkstool: help: name one command\n");
		return -PKSTOOL_E_USAGE;
	}
	if (argc == 2) {
		cmd = find_cmd(argv[1]);
		if (!cmd || cmd->fn == cmd_help) {
			fprintf(stderr, "pkstool: help: unknown command '%s': see 'pkstool help'\n",
				argv[1]);
			return -PKSTOOL_E_USAGE;
		}
		snprintf(name, sizeof(name), "pkstool %s", cmd->cmd);
		args[0] = name;
		args[1] = opt;
		args[2] = NULL;
		return cmd->fn(2, args, ctx);
	}
	printf("usage: pkstool <command> [options]\n\ncommands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		printf("  %-10s %s\n", commands[i].cmd, commands[i].summary);
	printf("\n'pkstool <command> --help' describes a command; "
	       "man pkstool-<command> has the details.\n");
	return 0;
}

static const struct cmd_struct *find_cmd(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].cmd, name))
			return &commands[i];
	return NULL;
}

static int run_builtin(const struct cmd_struct *cmd, int argc, char **argv)
{
	char name[64];
	struct pks_ctx *ctx;
	int rc;

	rc = pks_new(&ctx);
	if (rc) {
		fprintf(stderr, "pkstool: %s: %s\n", cmd->cmd, strerror(-rc));
		return pkstool_exit_code(rc);
	}
	/* argp names the command in its messages: "pkstool test: ...". */
	snprintf(name, sizeof(name), "pkstool %s", cmd->cmd);
	argv[0] = name;
	rc = cmd->fn(argc, argv, ctx);
	pks_unref(ctx);
	return pkstool_exit_code(rc);
}

int main(int argc, char **argv)
{
	const struct cmd_struct *cmd;
	size_t i;

	argp_err_exit_status = PKSTOOL_EXIT_USAGE;
	if (argc < 2) {
		cmd_help(0, NULL, NULL);
		return PKSTOOL_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--list-cmds")) {
		for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
			printf("%s\n", commands[i].cmd);
		return PKSTOOL_EXIT_OK;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return cmd_help(0, NULL, NULL);
	if (!strcmp(argv[1], "--version"))
		return cmd_version(0, NULL, NULL);

	cmd = find_cmd(argv[1]);
	if (!cmd) {
		fprintf(stderr, "pkstool: unknown command '%s': see 'pkstool help'\n",
			argv[1]);
		return PKSTOOL_EXIT_USAGE;
	}
	return run_builtin(cmd, argc - 1, argv + 1);
}
