// SPDX-License-Identifier: GPL-2.0
/*
 * pkstool enable and pkstool disable: one implementation, told apart by an
 * action table, as daxctl's device.c does for its device commands.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "persist.h"

enum protect_action {
	ACTION_ENABLE,
	ACTION_DISABLE,
};

/* --help lists exactly what each command accepts (man pages agree). */
#define OPT_FROM_CONFIG 0x100
static const struct argp_option enable_options[] = {
	{ "all", 'a', NULL, 0, "Every device-dax namespace", 0 },
	{ "force", 'f', NULL, 0,
	  "Enable even though panic_on_warn is set", 0 },
	{ "mode", 'm', "MODE", 0,
	  "strict (default: stray accesses are refused) or relaxed (reported, "
	  "then allowed once); changes the mode of a protected namespace", 0 },
	{ "persist", 'p', NULL, 0,
	  "Also record it, to protect it again at boot and when it reappears", 0 },
	{ "from-config", OPT_FROM_CONFIG, NULL, 0,
	  "Protect the recorded namespaces (all, or those named) again", 0 },
	{ 0 }
};

static const struct argp_option disable_options[] = {
	{ "all", 'a', NULL, 0, "Every device-dax namespace", 0 },
	{ "persist", 'p', NULL, 0, "Also remove its record", 0 },
	{ 0 }
};

/**
 * struct protect_verb - what differs between enable and disable
 * @name: the command
 * @doc: its argp doc string
 * @done: past participle for the summary
 * @options: the options it takes
 */
static const struct protect_verb {
	const char *name;
	const char *doc;
	const char *done;
	const struct argp_option *options;
} verbs[] = {
	[ACTION_ENABLE] = {
		"enable",
		"Protect device-dax namespaces from stray kernel accesses.\v"
		"NAMESPACE is namespaceX.Y, daxX.Y or /dev/daxX.Y.",
		"enabled",
		enable_options,
	},
	[ACTION_DISABLE] = {
		"disable",
		"End protection of device-dax namespaces.\v"
		"NAMESPACE is namespaceX.Y, daxX.Y or /dev/daxX.Y.",
		"disabled",
		disable_options,
	},
};

struct protect_opts {
	struct pkstool_opts common;
	enum protect_action action;
	bool all;
	bool force;
	int mode;		/* -1: not given */
	bool persist;		/* record the change (persist.c) */
	bool from_config;	/* apply the records instead */
	char **names;
	int nr_names;
};

static error_t protect_parse(int key, char *arg, struct argp_state *state)
{
	struct protect_opts *opts = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &opts->common;
		return 0;
	case 'a':
		opts->all = true;
		return 0;
	case 'f':
		opts->force = true;
		return 0;
	case 'p':
		opts->persist = true;
		return 0;
	case OPT_FROM_CONFIG:
		opts->from_config = true;
		return 0;
	case 'm':
		opts->mode = pks_mode_lookup(arg);
		if (opts->mode < 0)
			argp_error(state, "unknown mode '%s': use strict or relaxed",
				   arg);
		return 0;
	case ARGP_KEY_ARGS:
		opts->names = state->argv + state->next;
		opts->nr_names = state->argc - state->next;
		return 0;
	case ARGP_KEY_END:
		if (opts->from_config) {
			if (opts->all || opts->persist || opts->mode >= 0)
				argp_error(state, "--from-config takes the modes from the records: no --all, --persist or --mode");
			return 0;
		}
		if (!opts->all && !opts->nr_names)
			argp_error(state, "name a namespace to %s, or --all",
				   verbs[opts->action].name);
		if (opts->all && opts->nr_names)
			argp_error(state, "give namespaces or --all, not both");
		return 0;
	default:
		(void)arg;
		return ARGP_ERR_UNKNOWN;
	}
}

/* Outcome of one namespace, for the JSON array and the summary. */
enum outcome { DONE, ALREADY, REFUSED };

static enum outcome protect_one(struct protect_opts *opts, struct pks_ns *ns,
				char *why, size_t len)
{
	bool enable = opts->action == ACTION_ENABLE;
	int rc;

	*why = '\0';
	if (!pks_ns_can_protect(ns)) {
		snprintf(why, len,
			 "%s is %s: only devdax and fsdax namespaces can be protected (%s memory has no DAX mapping in the kernel's direct map); reconfigure it with 'ndctl create-namespace -m fsdax' or '-m devdax'",
			 pks_ns_get_name(ns), pks_ns_get_mode(ns),
			 pks_ns_get_mode(ns));
		return REFUSED;
	}
	if (pks_ns_is_protected(ns) == enable) {
		if (!enable || opts->mode < 0 ||
		    opts->mode == pks_ns_get_protection_mode(ns))
			return ALREADY;
		rc = pks_ns_set_mode(ns, opts->mode);
		if (rc) {
			snprintf(why, len, "cannot change the mode: %s",
				 strerror(-rc));
			return REFUSED;
		}
		fprintf(stderr, "pkstool: enable: %s mode is now %s\n",
			pks_ns_get_name(ns), pks_mode_name(opts->mode));
		return ALREADY;
	}
	rc = enable ? pks_ns_protect(ns, opts->mode < 0 ? PKS_MODE_STRICT :
				     opts->mode, why, len) :
		      pks_ns_unprotect(ns);
	if (!rc)
		return DONE;
	if (!*why)
		snprintf(why, len, "%s", strerror(-rc));
	return REFUSED;
}

static int cmd_protect(int argc, char **argv, struct pks_ctx *ctx,
		       enum protect_action action)
{
	static const char *const outcome_names[] = {
		[DONE] = NULL, [ALREADY] = "already", [REFUSED] = "refused",
	};
	const struct protect_verb *verb = &verbs[action];
	struct argp argp = {
		.options = verb->options,
		.parser = protect_parse,
		.args_doc = "NAMESPACE...",
		.doc = verb->doc,
		.children = pkstool_common_children,
	};
	struct protect_opts opts = { .action = action, .mode = -1 };
	struct pkstool_persist *persist = NULL;
	unsigned int count[REFUSED + 1] = { 0 };
	struct json_object *array, *jns;
	struct pks_ns *ns;
	enum outcome outcome;
	char why[PKS_MESSAGE_LEN + 256];
	int i, rc;

	if (argp_parse(&argp, argc, argv, 0, NULL, &opts))
		return -PKSTOOL_E_USAGE;
	rc = pkstool_open_driver(ctx, &opts.common, verb->name);
	if (rc)
		return rc;
	rc = pks_ns_scan(ctx);
	if (rc) {
		p_err(&opts.common, "%s: reading namespaces: %s", verb->name,
		      strerror(-rc));
		return rc;
	}
	if (action == ACTION_ENABLE && !opts.force && pks_panic_on_warn() > 0) {
		p_err(&opts.common,
		      "%s: panic_on_warn is set, and the first stray access of a boot WARNs in the kernel's fault handler, which would panic this machine: clear kernel.panic_on_warn or use --force",
		      verb->name);
		return -EPERM;
	}
	/* Resolve every name before changing anything. */
	for (i = 0; i < opts.nr_names; i++) {
		if (!pks_ns_find(ctx, opts.names[i])) {
			p_err(&opts.common,
			      "%s: no namespace '%s': see 'pkstool list' or 'ndctl list -N'",
			      verb->name, opts.names[i]);
			return -ENOENT;
		}
	}
	if (opts.from_config)
		return pkstool_persist_apply(ctx, &opts.common, opts.names,
					     opts.nr_names);
	/* Open the records first: a failure there changes nothing. */
	if (opts.persist) {
		rc = pkstool_persist_open(&persist, true, &opts.common,
					  verb->name);
		if (rc)
			return rc;
	}

	array = json_object_new_array();
	pks_ns_foreach(ctx, ns) {
		bool wanted = opts.all && pks_ns_can_protect(ns);

		for (i = 0; !wanted && i < opts.nr_names; i++)
			wanted = pks_ns_find(ctx, opts.names[i]) == ns;
		if (!wanted)
			continue;
		outcome = protect_one(&opts, ns, why, sizeof(why));
		if (persist && outcome != REFUSED &&
		    pkstool_persist_note(persist, ns, action == ACTION_ENABLE ?
					 pks_ns_get_protection_mode(ns) : -1,
					 why, sizeof(why)))
			outcome = REFUSED;
		count[outcome]++;
		if (outcome == REFUSED)
			p_err(&opts.common, "%s %s: %s", verb->name,
			      pks_ns_get_name(ns), why);
		else if (outcome == ALREADY)
			fprintf(stderr, "pkstool: %s: %s already %s\n",
				verb->name, pks_ns_get_name(ns), verb->done);
		jns = pks_ns_to_json(ns, false);
		json_object_object_add(jns, "result", json_object_new_string(
				       outcome == DONE ? verb->done :
				       outcome_names[outcome]));
		json_object_object_add(jns, "reason", *why ?
				       json_object_new_string(why) : NULL);
		json_object_array_add(array, jns);
	}
	if (opts.common.json)
		display_json_array(array);
	json_object_put(array);
	fprintf(stderr, "pkstool: %s %u namespace%s, %u already %s, %u refused\n",
		verb->done, count[DONE], count[DONE] == 1 ? "" : "s",
		count[ALREADY], verb->done, count[REFUSED]);
	rc = pkstool_persist_close(persist, &opts.common, verb->name);
	if (rc)
		return rc;
	return count[REFUSED] ? -EIO : 0;
}

int cmd_enable(int argc, char **argv, struct pks_ctx *ctx)
{
	return cmd_protect(argc, argv, ctx, ACTION_ENABLE);
}

int cmd_disable(int argc, char **argv, struct pks_ctx *ctx)
{
	return cmd_protect(argc, argv, ctx, ACTION_DISABLE);
}
