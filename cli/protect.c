// SPDX-License-Identifier: GPL-2.0
/*
 * pkstool enable and pkstool disable: one implementation, told apart by an
 * action table, as daxctl's device.c does for its device commands.
 *
 * Both are idempotent: each namespace asked for gets one result word, and
 * running the same command again gives a word that says nothing changed
 * ("already", "not-protected") with exit code 0.
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

/* What happened to one namespace: its "result" word. */
enum protect_result {
	RESULT_ENABLED,
	RESULT_ALREADY,
	RESULT_CHANGED,
	RESULT_DISABLED,
	RESULT_NOT_PROTECTED,
	RESULT_REFUSED,
	RESULT_FORGOTTEN,
	NR_RESULTS
};

static const char *const result_words[NR_RESULTS] = {
	[RESULT_ENABLED] = "enabled",
	[RESULT_ALREADY] = "already",
	[RESULT_CHANGED] = "changed",
	[RESULT_DISABLED] = "disabled",
	[RESULT_NOT_PROTECTED] = "not-protected",
	[RESULT_REFUSED] = "refused",
	[RESULT_FORGOTTEN] = "forgotten",
};

struct protect_opts {
	struct pkstool_opts common;
	struct pkstool_filter filter;
	enum protect_action action;
	bool all;
	bool force;
	int mode;		/* -1: not given */
	bool persist;
	bool from_config;
	char **names;
	int nr_names;
};

/* Each command offers only the options it honours. */
#define OPT_FROM_CONFIG 0x100
static const struct argp_option enable_options[] = {
	{ "all", 'a', NULL, 0, "Every devdax and fsdax namespace", 0 },
	{ "force", 'f', NULL, 0,
	  "Protect even though panic_on_warn is set and the stock protection-key WARN is active", 0 },
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
	{ "all", 'a', NULL, 0, "Every devdax and fsdax namespace", 0 },
	{ "persist", 'p', NULL, 0, "Also remove its record", 0 },
	{ 0 }
};

static error_t protect_parse(int key, char *arg, struct argp_state *state)
{
	struct protect_opts *opts = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &opts->common;
		state->child_inputs[1] = &opts->filter;
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
			return pkstool_usage(state,
					     "unknown mode '%s': use strict or relaxed",
					     arg);
		return 0;
	case ARGP_KEY_ARGS:
		opts->names = state->argv + state->next;
		opts->nr_names = state->argc - state->next;
		return 0;
	case ARGP_KEY_END:
		if (opts->from_config) {
			if (opts->all || opts->persist || opts->mode >= 0 ||
			    opts->filter.region || opts->filter.memdev)
				return pkstool_usage(state,
						     "--from-config takes the modes from the records: no --all, --persist, --mode, --region or --memdev");
			return 0;
		}
		if (!opts->all && !opts->nr_names)
			return pkstool_usage(state,
					     "name a namespace to %s, or --all",
					     pkstool_cmd);
		if (opts->all && opts->nr_names)
			return pkstool_usage(state,
					     "give namespaces or --all, not both");
		return 0;
	default:
		(void)arg;
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp enable_argp = {
	.options = enable_options,
	.parser = protect_parse,
	.args_doc = "NAMESPACE...",
	.doc = "Protect devdax and fsdax namespaces from stray kernel "
	       "accesses.\v"
	       "NAMESPACE is namespaceX.Y, daxX.Y, /dev/daxX.Y, pmemX or the "
	       "namespace's UUID; --region and --memdev narrow --all, or "
	       "check that each NAMESPACE is there. Each "
	       "namespace gets one result: enabled, already, changed or "
	       "refused (see pkstool-json(7)).",
	.children = pkstool_filter_children,
};

static const struct argp disable_argp = {
	.options = disable_options,
	.parser = protect_parse,
	.args_doc = "NAMESPACE...",
	.doc = "End protection of namespaces.\v"
	       "NAMESPACE is namespaceX.Y, daxX.Y, /dev/daxX.Y, pmemX or the "
	       "namespace's UUID; --region and --memdev narrow --all, or "
	       "check that each NAMESPACE is there. Each "
	       "namespace gets one result: disabled, not-protected or refused "
	       "(see pkstool-json(7)).",
	.children = pkstool_filter_children,
};

/*
 * Enable one namespace. Whether anything needs doing is decided first, so
 * that a re-run of an applied command says "already" even where a new
 * protection would be refused (panic_on_warn). With --persist, one that
 * cannot be recorded is refused before anything changes: "refused" always
 * means it is as it was.
 */
static enum protect_result enable_one(const struct protect_opts *opts,
				      struct pks_ns *ns, bool refuse_new,
				      char *why, size_t len)
{
	enum pks_mode mode = opts->mode < 0 ? PKS_MODE_STRICT : opts->mode;
	int rc;

	if (!pks_ns_can_protect(ns)) {
		snprintf(why, len,
			 "%s is %s: only devdax and fsdax namespaces can be protected (%s memory has no DAX mapping in the kernel's direct map); reconfigure it with 'ndctl create-namespace -m fsdax' or '-m devdax'",
			 pks_ns_get_name(ns), pks_ns_get_mode(ns),
			 pks_ns_get_mode(ns));
		return RESULT_REFUSED;
	}
	if (opts->persist && pkstool_persist_check(ns, why, len))
		return RESULT_REFUSED;
	if (pks_ns_is_protected(ns)) {
		if (opts->mode < 0 ||
		    opts->mode == pks_ns_get_protection_mode(ns))
			return RESULT_ALREADY;
		rc = pks_ns_set_protection_mode(ns, opts->mode);
		if (rc) {
			snprintf(why, len, "cannot change the mode: %s",
				 strerror(-rc));
			return RESULT_REFUSED;
		}
		return RESULT_CHANGED;
	}
	if (refuse_new) {
		snprintf(why, len,
			 "panic_on_warn is set, and the driver reports the stock kernel's WARN on the first protection-key fault of a boot active (pkstool info: stock pk warn), which would panic this machine: clear kernel.panic_on_warn or use --force");
		return RESULT_REFUSED;
	}
	rc = pks_ns_protect(ns, mode, why, len);
	if (!rc)
		return RESULT_ENABLED;
	if (!*why)
		snprintf(why, len, "%s", strerror(-rc));
	return RESULT_REFUSED;
}

static enum protect_result disable_one(struct pks_ns *ns, char *why,
				       size_t len)
{
	int rc;

	if (!pks_ns_is_protected(ns))
		return RESULT_NOT_PROTECTED;
	rc = pks_ns_unprotect(ns);
	if (!rc)
		return RESULT_DISABLED;
	snprintf(why, len, "%s", strerror(-rc));
	return RESULT_REFUSED;
}

static void result_print_text(struct pks_ns *ns, enum protect_result result,
			      const char *why)
{
	printf("%s: %s", pks_ns_get_name(ns), result_words[result]);
	if (pks_ns_is_protected(ns))
		printf(" (key %d, %s)", pks_ns_get_key(ns),
		       pks_mode_name(pks_ns_get_protection_mode(ns)));
	if (*why)
		printf(": %s", why);
	printf("\n");
}

static bool protect_wanted(struct pks_ctx *ctx, const struct protect_opts *opts,
			   struct pks_ns *ns)
{
	int i;

	if (!pkstool_filter_matches(&opts->filter, ns))
		return false;
	if (opts->all)
		return pks_ns_can_protect(ns);
	for (i = 0; i < opts->nr_names; i++)
		if (pks_ns_find(ctx, opts->names[i]) == ns)
			return true;
	return false;
}

/*
 * Whether @name, which no namespace has, is the UUID of a record disable
 * --persist may forget: the namespace it protected is gone (destroyed,
 * or its region not assembled), and only its record is left.
 */
static bool forgettable(const struct protect_opts *opts,
			struct pkstool_persist *persist, const char *name)
{
	return opts->action == ACTION_DISABLE && persist &&
	       pkstool_persist_lookup_uuid(persist, name) != -ENOENT;
}

/* Forget the record of the gone namespace @uuid and say so. */
static void forget_record(const struct protect_opts *opts,
			  struct pkstool_persist *persist, const char *uuid,
			  struct json_object *array)
{
	static const char why[] =
		"no namespace has this UUID now: its record is forgotten";
	struct json_object *jr;

	pkstool_persist_forget(persist, uuid);
	if (!opts->common.json) {
		printf("%s: %s (%s)\n", uuid, result_words[RESULT_FORGOTTEN],
		       why);
		return;
	}
	jr = json_object_new_object();
	json_object_object_add(jr, "uuid", json_object_new_string(uuid));
	json_object_object_add(jr, "result", json_object_new_string(
			       result_words[RESULT_FORGOTTEN]));
	json_object_object_add(jr, "reason", json_object_new_string(why));
	json_object_array_add(array, jr);
}

static int cmd_protect(int argc, char **argv, struct pks_ctx *ctx,
		       enum protect_action action)
{
	struct protect_opts opts = { .action = action, .mode = -1 };
	unsigned int count[NR_RESULTS] = { 0 };
	struct pkstool_persist *persist = NULL;
	struct json_object *array, *jns;
	enum protect_result result;
	bool refuse_new = false;
	char why[PKS_MESSAGE_LEN + 256];
	struct pks_ns *ns;
	int i, rc;

	if (!pkstool_parse(action == ACTION_ENABLE ? &enable_argp :
			   &disable_argp, argc, argv, &opts, &rc))
		return rc;
	/*
	 * Nothing recorded, nothing to do: the boot's unit then succeeds on
	 * a host without PKS or without the driver, saying so in the
	 * journal; with records, it fails where they cannot be applied.
	 */
	if (opts.from_config) {
		rc = pkstool_persist_count(&opts.common);
		if (rc < 0)
			return PKSTOOL_FAILED;
		if (!rc) {
			fprintf(stderr,
				"pkstool: enable --from-config %s: no records: nothing to protect\n",
				pkstool_persist_path());
			return PKSTOOL_DONE;
		}
	}
	/*
	 * Without the driver nothing is protected: disable has nothing to
	 * do and says so per namespace. Enable needs the driver.
	 */
	rc = pks_driver_status(ctx);
	if (!(action == ACTION_DISABLE && rc == -ENOENT)) {
		rc = pkstool_open_driver_rw(ctx, &opts.common, pkstool_cmd);
		if (rc)
			return rc;
	}
	/*
	 * The udev-started unit names every dax device and pmem disk that
	 * appears, a raw namespace's too: a device pkstool cannot protect
	 * has no record, which is nothing to do, not an error. It reads the
	 * namespaces itself, once it holds the records' lock.
	 */
	if (opts.from_config)
		return pkstool_persist_apply(ctx, &opts.common, opts.names,
					     opts.nr_names) ?
		       PKSTOOL_FAILED : PKSTOOL_DONE;
	rc = pks_ns_scan(ctx);
	if (rc) {
		p_err(&opts.common, "%s: reading namespaces: %s", pkstool_cmd,
		      strerror(-rc));
		return PKSTOOL_FAILED;
	}
	/* Resolve every name before changing anything. */
	/*
	 * Open the records first: a failure there changes nothing. disable
	 * --persist also takes the UUID of a record whose namespace is gone.
	 */
	if (opts.persist &&
	    pkstool_persist_open(&persist, true, &opts.common, pkstool_cmd))
		return PKSTOOL_FAILED;
	for (i = 0; i < opts.nr_names; i++) {
		ns = pks_ns_find(ctx, opts.names[i]);
		if (!ns && !forgettable(&opts, persist, opts.names[i])) {
			p_err(&opts.common,
			      "%s: no namespace '%s'%s: see 'pkstool list' or 'ndctl list -N'",
			      pkstool_cmd, opts.names[i],
			      action == ACTION_DISABLE && opts.persist ?
			      ", and no record with that UUID" : "");
			pkstool_persist_close(persist, &opts.common,
					      pkstool_cmd);
			return PKSTOOL_FAILED;
		}
		if (!ns)
			continue;
		if (!pkstool_filter_matches(&opts.filter, ns)) {
			pkstool_filter_to_text(&opts.filter, why, sizeof(why));
			p_err(&opts.common,
			      "%s: %s is not on %s: see 'pkstool list'",
			      pkstool_cmd, opts.names[i], why);
			pkstool_persist_close(persist, &opts.common,
					      pkstool_cmd);
			return PKSTOOL_FAILED;
		}
	}
	/*
	 * Under panic_on_warn, the stock kernel's WARN on the boot's first
	 * protection-key fault would panic the machine, unless the driver
	 * holds it as reported (PKS_INFO_F_PK_WARN_SILENCED).
	 */
	if (action == ACTION_ENABLE && !opts.force)
		refuse_new = pks_panic_on_warn() > 0 &&
			     (pks_refresh(ctx) ||
			      !pks_stock_pk_warn_silenced(ctx));

	array = json_object_new_array();
	for (i = 0; i < opts.nr_names; i++)
		if (!pks_ns_find(ctx, opts.names[i])) {
			forget_record(&opts, persist, opts.names[i], array);
			count[RESULT_FORGOTTEN]++;
		}
	pks_ns_foreach(ctx, ns) {
		if (!protect_wanted(ctx, &opts, ns))
			continue;
		*why = '\0';
		result = action == ACTION_ENABLE ?
			 enable_one(&opts, ns, refuse_new, why, sizeof(why)) :
			 disable_one(ns, why, sizeof(why));
		if (persist && result != RESULT_REFUSED)
			pkstool_persist_note(persist, ns, action == ACTION_ENABLE ?
					     pks_ns_get_protection_mode(ns) : -1);
		count[result]++;
		if (result == RESULT_REFUSED)
			p_err(&opts.common, "%s: %s: %s", pkstool_cmd,
			      pks_ns_get_name(ns), why);
		if (!opts.common.json) {
			result_print_text(ns, result, why);
			continue;
		}
		jns = util_ns_to_json(ns, false);
		json_object_object_add(jns, "result",
				       json_object_new_string(result_words[result]));
		json_object_object_add(jns, "reason", *why ?
				       json_object_new_string(why) : NULL);
		json_object_array_add(array, jns);
	}
	if (opts.common.json)
		display_json_array(array);
	json_object_put(array);
	if (action == ACTION_ENABLE)
		fprintf(stderr, "pkstool: enable: %u enabled, %u already, %u changed, %u refused\n",
			count[RESULT_ENABLED], count[RESULT_ALREADY],
			count[RESULT_CHANGED], count[RESULT_REFUSED]);
	else
		fprintf(stderr, "pkstool: disable: %u disabled, %u not-protected, %u refused, %u forgotten\n",
			count[RESULT_DISABLED], count[RESULT_NOT_PROTECTED],
			count[RESULT_REFUSED], count[RESULT_FORGOTTEN]);
	if (pkstool_persist_close(persist, &opts.common, pkstool_cmd))
		return PKSTOOL_FAILED;
	return count[RESULT_REFUSED] ? PKSTOOL_FAILED : PKSTOOL_DONE;
}

int cmd_enable(int argc, char **argv, struct pks_ctx *ctx)
{
	return cmd_protect(argc, argv, ctx, ACTION_ENABLE);
}

int cmd_disable(int argc, char **argv, struct pks_ctx *ctx)
{
	return cmd_protect(argc, argv, ctx, ACTION_DISABLE);
}
