/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PKSTOOL_BUILTIN_H_
#define _PKSTOOL_BUILTIN_H_

#include <argp.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <json-c/json.h>

#include "libpks.h"

/**
 * enum pkstool_status - how a command ended; the value is pkstool's exit code
 * @PKSTOOL_DONE: the command did what was asked (or found it done already)
 * @PKSTOOL_FAILED: something failed; stderr says what and why
 * @PKSTOOL_USAGE: the arguments were wrong, as the parser found
 * @PKSTOOL_ABI_MISMATCH: the loaded driver speaks another ABI than libpks
 * @PKSTOOL_UNSUPPORTED: cannot run here: no PKS in the CPU, or no driver
 *
 * Commands return one of these, decided where the cause is known (the
 * parser, the driver check), never guessed back from an errno value.
 */
enum pkstool_status {
	PKSTOOL_DONE = 0,
	PKSTOOL_FAILED = 1,
	PKSTOOL_USAGE = 2,
	PKSTOOL_ABI_MISMATCH = 3,
	PKSTOOL_UNSUPPORTED = 77,
};

/**
 * struct pkstool_opts - options every command takes (common.c)
 * @json: print JSON on stdout instead of text
 */
struct pkstool_opts {
	bool json;
};

extern const struct argp pkstool_common_argp;
extern const struct argp_child pkstool_common_children[];
error_t pkstool_parse_no_args(int key, char *arg, struct argp_state *state);
bool pkstool_parse(const struct argp *argp, int argc, char **argv,
		   void *input, int *status);
error_t pkstool_usage(struct argp_state *state, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The command running, for messages: set by run_builtin() and help. */
extern const char *pkstool_cmd;

/**
 * struct pkstool_filter - which namespaces a command acts on (filter.c)
 * @region: -r: an nvdimm region (regionX, X) or a CXL one (cxl/regionX)
 * @memdev: --memdev: a CXL memdev (memX, X) backing the namespace
 *
 * NULL members do not filter.
 */
struct pkstool_filter {
	const char *region;
	const char *memdev;
};

extern const struct argp_child pkstool_filter_children[];
bool pkstool_filter_matches(const struct pkstool_filter *filter,
			    struct pks_ns *ns);
void pkstool_filter_to_text(const struct pkstool_filter *filter, char *buf,
			    size_t len);

/* Each returns an enum pkstool_status, which main() exits with. */
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
int pkstool_open_driver_rw(struct pks_ctx *ctx,
			   const struct pkstool_opts *opts, const char *what);
int pkstool_open_test(struct pks_ctx *ctx, const struct pkstool_opts *opts,
		      const char *what);
/* Set by SIGTERM or SIGINT once pkstool_catch_stop_signals() ran. */
extern volatile sig_atomic_t pkstool_stop;
void pkstool_catch_stop_signals(void);
void display_json_array(struct json_object *array);
void display_json_line(FILE *out, struct json_object *obj);

/* modhint.c: how to load @module, true for this machine, into @buf. */
const char *pkstool_module_hint(const char *module, char *buf, size_t len);

/* json.c */
struct json_object *util_cpu_to_json(struct pks_cpu *cpu);
struct json_object *util_key_to_json(struct pks_key *key);
/* @counts: pks_grants_have_counts(); else the counters are null. */
struct json_object *util_rule_to_json(struct pks_rule *rule, bool counts);
struct json_object *util_hex_to_json(uint32_t value);
/* A counter, or null where the driver did not show it (not root). */
struct json_object *util_count_to_json(bool shown, uint64_t value);
struct json_object *util_ns_to_json(struct pks_ns *ns, bool human);
/*
 * What backs @ns, into @jns (list): "provider", "cxl_region" (null unless
 * known) and "cxl_memdevs" (an array on CXL, else null).
 */
void util_ns_backing_to_json(struct pks_ns *ns, struct json_object *jns);
struct json_object *util_record_to_json(struct pks_record *rec);
struct json_object *util_record_event_to_json(struct pks_record *rec,
					      const char *event,
					      uint64_t dropped);
size_t util_size_to_human(uint64_t bytes, char *buf, size_t len);
void util_time_to_text(uint64_t ns, char *buf, size_t len);

#endif /* _PKSTOOL_BUILTIN_H_ */
