/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PKSTOOL_BUILTIN_H_
#define _PKSTOOL_BUILTIN_H_

#include <argp.h>
#include <signal.h>
#include <stdbool.h>
#include <json-c/json.h>

#include "libpks.h"

/* Exit codes, set in exactly one place: pkstool_exit_code(). */
#define PKSTOOL_EXIT_OK		0
#define PKSTOOL_EXIT_FAIL	1
#define PKSTOOL_EXIT_USAGE	2
#define PKSTOOL_EXIT_UNSUPPORTED 77

/*
 * Commands return 0 or -errno. These two mean "cannot run here" and become
 * exit code 77: no PKS in this CPU, or no driver to talk to.
 */
#define PKSTOOL_E_NOPKS		EOPNOTSUPP
#define PKSTOOL_E_NODRIVER	ENODEV
/* A usage error the command already explained: exit code 2. */
#define PKSTOOL_E_USAGE		EINVAL

/**
 * struct pkstool_opts - options every command takes (common.c)
 * @json: print a JSON array on stdout instead of text
 * @verbose: say more on stderr
 */
struct pkstool_opts {
	bool json;
	bool verbose;
};

extern const struct argp pkstool_common_argp;
extern const struct argp_child pkstool_common_children[];
error_t pkstool_parse_no_args(int key, char *arg, struct argp_state *state);

int cmd_info(int argc, char **argv, struct pks_ctx *ctx);
int cmd_enable(int argc, char **argv, struct pks_ctx *ctx);
int cmd_disable(int argc, char **argv, struct pks_ctx *ctx);
int cmd_list(int argc, char **argv, struct pks_ctx *ctx);
int cmd_faults(int argc, char **argv, struct pks_ctx *ctx);
int cmd_monitor(int argc, char **argv, struct pks_ctx *ctx);
int cmd_test(int argc, char **argv, struct pks_ctx *ctx);
int cmd_metrics(int argc, char **argv, struct pks_ctx *ctx);
int cmd_help(int argc, char **argv, struct pks_ctx *ctx);
int cmd_version(int argc, char **argv, struct pks_ctx *ctx);

/* common.c */
void p_err(const struct pkstool_opts *opts, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int pkstool_open_driver(struct pks_ctx *ctx, const struct pkstool_opts *opts,
			const char *what);
int pkstool_open_test(struct pks_ctx *ctx, const struct pkstool_opts *opts,
		      const char *what);
int pkstool_exit_code(int rc);
/* Set by SIGTERM or SIGINT once pkstool_catch_stop_signals() ran. */
extern volatile sig_atomic_t pkstool_stop;
void pkstool_catch_stop_signals(void);
int pkstool_check_ns_filter(struct pks_ctx *ctx,
			    const struct pkstool_opts *opts, const char *what,
			    const char *ns_name, const char **chardev);
bool pks_fault_matches(const struct pks_fault *f, const char *chardev);
void display_json_array(struct json_object *array);

/* modhint.c: how to load @module, true for this machine, into @buf. */
const char *pkstool_module_hint(const char *module, char *buf, size_t len);

/* json.c */
struct json_object *pks_cpu_to_json(struct pks_cpu *cpu);
struct json_object *pks_key_to_json(struct pks_key *key);
struct json_object *pks_path_to_json(struct pks_path *path);
struct json_object *pks_hex_to_json(uint32_t value);
struct json_object *pks_ns_to_json(struct pks_ns *ns, bool human);
struct json_object *pks_fault_to_json(const struct pks_fault *f);

#endif /* _PKSTOOL_BUILTIN_H_ */
