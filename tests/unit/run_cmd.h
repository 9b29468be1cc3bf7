/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PKSTOOL_TEST_RUN_CMD_H_
#define _PKSTOOL_TEST_RUN_CMD_H_

/**
 * struct cmd_result - what one pkstool run produced
 * @status: its exit code, or 128 + signal
 * @out: its stdout, NUL-terminated
 * @err: its stderr, NUL-terminated
 */
struct cmd_result {
	int status;
	char out[65536];
	char err[8192];
};

/* Run $PKSTOOL (build/pkstool) with @argv, PKS_DEVICE set to @device. */
void run_pkstool(struct cmd_result *res, const char *device,
		 const char *const argv[]);
/* The same with stdout opened on @out_path (res->out stays empty). */
void run_pkstool_to(struct cmd_result *res, const char *device,
		    const char *out_path, const char *const argv[]);

#endif
