// SPDX-License-Identifier: GPL-2.0
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run_cmd.h"

static void slurp(FILE *f, char *buf, size_t len)
{
	size_t n;

	rewind(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

void run_pkstool_to(struct cmd_result *res, const char *device,
		    const char *out_path, const char *const argv[])
{
	const char *prog = getenv("PKSTOOL");
	FILE *out = out_path ? fopen(out_path, "w") : tmpfile();
	FILE *err = tmpfile();
	const char *args[32] = { "pkstool" };
	pid_t pid;
	int i, status;

	cr_assert(prog, "set PKSTOOL to the pkstool binary");
	cr_assert(out && err, "%s", out_path ? out_path : "tmpfile");
	for (i = 0; argv[i] && i < 30; i++)
		args[i + 1] = argv[i];
	pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		dup2(fileno(out), 1);
		dup2(fileno(err), 2);
		setenv("PKS_DEVICE", device, 1);
		execv(prog, (char *const *)args);
		_exit(127);
	}
	cr_assert(waitpid(pid, &status, 0) == pid);
	res->status = WIFEXITED(status) ? WEXITSTATUS(status) :
					  128 + WTERMSIG(status);
	if (out_path) {
		fclose(out);
		res->out[0] = '\0';
	} else {
		slurp(out, res->out, sizeof(res->out));
	}
	slurp(err, res->err, sizeof(res->err));
}

void run_pkstool(struct cmd_result *res, const char *device,
		 const char *const argv[])
{
	run_pkstool_to(res, device, NULL, argv);
}
