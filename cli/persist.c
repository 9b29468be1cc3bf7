// SPDX-License-Identifier: GPL-2.0
/*
 * Protection that persists. enable --persist and disable --persist record
 * namespaces by UUID, with their mode, in $PKSTOOL_CONFIG (default
 * /etc/pkstool/protect.conf); enable --from-config protects them again
 * (at boot and whenever a namespace's device appears, from the udev rule
 * and pkstool-protect@.service); list shows which are recorded.
 *
 * The file is a GLib key file with one group per namespace:
 *
 *	[protect 3f0e8c2a-...]
 *	mode=strict
 *	name=namespace0.0
 *
 * keyed by UUID because names are handed out in probe order and change;
 * name is only a reminder for people. GLib keeps comments and unknown
 * keys when it writes the file again, so it can be edited by hand.
 */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "builtin.h"
#include "persist.h"
#include "persist_format.h"

#ifndef PKSTOOL_SYSCONFDIR
#define PKSTOOL_SYSCONFDIR "/etc"
#endif

/**
 * struct pkstool_persist - the record file, loaded
 * @kf: its contents, comments included
 * @path: where it lives
 * @lock_fd: its directory, flock()ed from load to save when writing, so
 *	two writers never lose each other's records; -1 when read-only
 * @dirty: a record changed since the load
 */
struct pkstool_persist {
	GKeyFile *kf;
	char *path;
	int lock_fd;
	bool dirty;
};

static const char file_header[] =
	" pkstool: namespaces protected again at every boot and whenever\n"
	" their device appears ('pkstool enable --from-config'). Written by\n"
	" 'pkstool enable --persist' and 'pkstool disable --persist'; you may\n"
	" edit it (comments are kept). One group per namespace, by the UUID\n"
	" 'ndctl list -N' shows:\n"
	"   [protect UUID]\n"
	"   mode=strict|relaxed\n"
	"   name=NAME   (what it was called when recorded; not used)\n"
	" See pkstool-enable(8).";

const char *pkstool_persist_path(void)
{
	const char *path = getenv("PKSTOOL_CONFIG");

	return path && *path ? path : PKSTOOL_SYSCONFDIR "/pkstool/protect.conf";
}

static int gerror_to_errno(const GError *err)
{
	if (err->domain != G_FILE_ERROR)
		return EINVAL;		/* a syntax error in the file */
	switch (err->code) {
	case G_FILE_ERROR_NOENT:
		return ENOENT;
	case G_FILE_ERROR_ACCES:
	case G_FILE_ERROR_PERM:
		return EACCES;
	default:
		return EIO;
	}
}

static void persist_free(struct pkstool_persist *p)
{
	if (p->lock_fd >= 0)
		close(p->lock_fd);
	g_key_file_free(p->kf);
	g_free(p->path);
	g_free(p);
}

int pkstool_persist_open(struct pkstool_persist **persist, bool write,
			 const struct pkstool_opts *opts, const char *what)
{
	struct pkstool_persist *p = g_new0(struct pkstool_persist, 1);
	GError *err = NULL;
	char *dir;
	int rc = 0;

	p->kf = g_key_file_new();
	p->path = g_strdup(pkstool_persist_path());
	p->lock_fd = -1;
	if (write) {
		dir = g_path_get_dirname(p->path);
		if (g_mkdir_with_parents(dir, 0755) ||
		    (p->lock_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 ||
		    flock(p->lock_fd, LOCK_EX))
			rc = -errno;
		if (rc)
			p_err(opts, "%s: %s: %s", what, dir, strerror(-rc));
		g_free(dir);
		if (rc)
			goto fail;
	}
	if (!g_key_file_load_from_file(p->kf, p->path,
				       PKSTOOL_PERSIST_LOAD_FLAGS, &err)) {
		rc = -gerror_to_errno(err);
		if (rc != -ENOENT) {
			p_err(opts, "%s: reading %s: %s", what, p->path,
			      err->message);
			g_error_free(err);
			goto fail;
		}
		g_error_free(err);
		rc = 0;
		g_key_file_set_comment(p->kf, NULL, NULL, file_header, NULL);
	}
	*persist = p;
	return 0;
fail:
	persist_free(p);
	return rc;
}

/*
 * Whether @ns can be recorded: 0, or -EINVAL with the reason in @why.
 * enable --persist asks before it changes anything, so that a namespace
 * it cannot record is refused and left as it was, never protected with
 * its result saying "refused".
 */
int pkstool_persist_check(struct pks_ns *ns, char *why, size_t len)
{
	if (pks_ns_get_uuid(ns))
		return 0;
	snprintf(why, len,
		 "%s has no UUID to record it by (a namespace without labels or info block): nothing changed",
		 pks_ns_get_name(ns));
	return -EINVAL;
}

/*
 * Record @ns as protected in @mode, or with @mode -1 forget it. A
 * namespace without a UUID is left out: enable refused it already
 * (pkstool_persist_check()), and no record can name it to forget.
 */
void pkstool_persist_note(struct pkstool_persist *p, struct pks_ns *ns,
			  int mode)
{
	const char *uuid = pks_ns_get_uuid(ns);

	if (uuid && pkstool_persist_set(p->kf, uuid, mode, pks_ns_get_name(ns)))
		p->dirty = true;
}

/*
 * Forget the record of @uuid, a namespace that is gone (disable --persist
 * names it by the UUID its record has). Returns whether there was one.
 */
bool pkstool_persist_forget(struct pkstool_persist *p, const char *uuid)
{
	if (pkstool_persist_lookup_uuid(p, uuid) == -ENOENT ||
	    !pkstool_persist_set(p->kf, uuid, -1, NULL))
		return false;
	p->dirty = true;
	return true;
}

/* Save what changed (atomically: a new file renamed over the old). */
int pkstool_persist_close(struct pkstool_persist *p,
			  const struct pkstool_opts *opts, const char *what)
{
	GError *err = NULL;
	char *data;
	gsize len;
	int rc = 0;

	if (!p)
		return 0;
	if (p->dirty && p->lock_fd >= 0) {
		data = g_key_file_to_data(p->kf, &len, NULL);
		if (!g_file_set_contents_full(p->path, data, len,
					      G_FILE_SET_CONTENTS_CONSISTENT,
					      0644, &err)) {
			rc = -gerror_to_errno(err);
			p_err(opts, "%s: writing %s: %s", what, p->path,
			      err->message);
			g_error_free(err);
		}
		g_free(data);
	}
	persist_free(p);
	return rc;
}

/* The recorded mode of @uuid: a pks_mode, -ENOENT (no record) or -EINVAL. */
int pkstool_persist_lookup_uuid(struct pkstool_persist *p, const char *uuid)
{
	return pkstool_persist_uuid_mode(p->kf, uuid);
}

/* The recorded mode of @ns: a pks_mode, -ENOENT (no record) or -EINVAL. */
int pkstool_persist_lookup(struct pkstool_persist *p, struct pks_ns *ns)
{
	const char *uuid = pks_ns_get_uuid(ns);

	return uuid ? pkstool_persist_uuid_mode(p->kf, uuid) : -ENOENT;
}

/* list: "persistent" and "persistent_mode", null when the file is unreadable. */
void pkstool_persist_to_json(struct pkstool_persist *p, struct pks_ns *ns,
			     struct json_object *jns)
{
	const char *uuid = pks_ns_get_uuid(ns);
	int mode = p ? pkstool_persist_lookup(p, ns) : -ENOENT;
	json_object_object_add(jns, "uuid",
			       uuid ? json_object_new_string(uuid) : NULL);
	json_object_object_add(jns, "persistent",
			       p ? json_object_new_boolean(mode != -ENOENT) : NULL);
	json_object_object_add(jns, "persistent_mode", mode >= 0 ?
			       json_object_new_string(pks_mode_name(mode)) : NULL);
}

enum apply_result {
	APPLY_ENABLED, APPLY_ALREADY, APPLY_MISSING, APPLY_DRIFTED,
	APPLY_REFUSED, APPLY_NR
};

static const char *const apply_names[APPLY_NR] = {
	[APPLY_ENABLED] = "enabled", [APPLY_ALREADY] = "already",
	[APPLY_MISSING] = "missing", [APPLY_DRIFTED] = "drifted",
	[APPLY_REFUSED] = "refused",
};

/*
 * One record: protect its namespace in the recorded mode. What cannot be
 * done as recorded is reported and left alone, never guessed at: a
 * namespace that is gone (or was re-created, with a new UUID), one that
 * can no longer be protected, or one protected in another mode (drifted:
 * not enable's "changed", which says the mode was set).
 */
static enum apply_result apply_one(struct pkstool_persist *p,
				   struct pks_ctx *ctx, const char *group,
				   struct pks_ns **found, char *why, size_t len)
{
	const char *uuid = pkstool_persist_group_uuid(group);
	struct pks_ns *ns;
	int mode, now, rc;

	*found = NULL;
	*why = '\0';
	if (!uuid) {
		snprintf(why, len, "[%s] is not a [protect UUID] group", group);
		return APPLY_REFUSED;
	}
	mode = pkstool_persist_group_mode(p->kf, group);
	if (mode < 0) {
		snprintf(why, len, "[%s] has no mode=strict or mode=relaxed",
			 group);
		return APPLY_REFUSED;
	}
	ns = pks_ns_find_by_uuid(ctx, uuid);
	*found = ns;
	if (!ns) {
		char *name = g_key_file_get_value(p->kf, group, "name", NULL);

		snprintf(why, len,
			 "no namespace has UUID %s (recorded as %s): it is disabled, destroyed or was re-created",
			 uuid, name ? name : "?");
		g_free(name);
		return APPLY_MISSING;
	}
	if (!pks_ns_can_protect(ns)) {
		snprintf(why, len, "%s is %s now, which cannot be protected",
			 pks_ns_get_name(ns), pks_ns_get_mode(ns));
		return APPLY_DRIFTED;
	}
	if (pks_ns_is_protected(ns)) {
		now = pks_ns_get_protection_mode(ns);
		if (now == mode)
			return APPLY_ALREADY;
		snprintf(why, len,
			 "%s is protected %s, recorded %s: left as it is ('pkstool enable --persist --mode=...' sets both)",
			 pks_ns_get_name(ns),
			 pks_mode_name(now) ? pks_mode_name(now) : "?",
			 pks_mode_name(mode));
		return APPLY_DRIFTED;
	}
	rc = pks_ns_protect(ns, mode, why, len);
	if (rc) {
		if (!*why)
			snprintf(why, len, "%s", strerror(-rc));
		return APPLY_REFUSED;
	}
	return APPLY_ENABLED;
}

/*
 * How many records there are: 0 also when there is no file; -errno (said
 * on stderr) when it cannot be read. The boot's unit asks first, so that
 * a host with nothing recorded needs no driver and no PKS.
 */
int pkstool_persist_count(const struct pkstool_opts *opts)
{
	struct pkstool_persist *p;
	gsize nr = 0;
	int rc;

	rc = pkstool_persist_open(&p, false, opts, "enable");
	if (rc)
		return rc;
	g_strfreev(g_key_file_get_groups(p->kf, &nr));
	persist_free(p);
	return nr;
}

/*
 * enable --from-config [NAMESPACE...]: apply every record, or with names
 * only the records of those namespaces (the udev-started unit names the
 * device that appeared; one without a record is no error). Returns 0 when
 * every record applied applies as recorded.
 */
int pkstool_persist_apply(struct pks_ctx *ctx, const struct pkstool_opts *opts,
			  char **names, int nr_names)
{
	unsigned int count[APPLY_NR] = { 0 };
	struct pkstool_persist *p;
	struct json_object *array, *jrec;
	char why[PKS_MESSAGE_LEN + 256];
	enum apply_result res;
	struct pks_ns *ns;
	char **groups;
	gsize i, nr;
	int j, rc;

	/*
	 * Under the records' lock, as a writer: at boot pkstool-protect and
	 * the udev-started instances apply the same records at once, and
	 * the second to protect a namespace would be refused ("overlaps
	 * protected") and fail its unit (seen in the real boot on 6.12). So
	 * one applies at a time, and each reads the protections afresh
	 * once it holds the lock: what another applied is "already".
	 */
	rc = pkstool_persist_open(&p, true, opts, "enable");
	if (rc)
		return rc;
	rc = pks_ns_scan(ctx);
	if (rc) {
		p_err(opts, "enable --from-config: reading namespaces: %s",
		      strerror(-rc));
		persist_free(p);
		return rc;
	}
	array = json_object_new_array();
	groups = g_key_file_get_groups(p->kf, &nr);
	for (i = 0; i < nr; i++) {
		if (nr_names) {
			const char *uuid = pkstool_persist_group_uuid(groups[i]);
			bool wanted = false;

			for (j = 0; uuid && j < nr_names && !wanted; j++) {
				ns = pks_ns_find(ctx, names[j]);
				wanted = ns && pks_ns_get_uuid(ns) &&
					 !strcasecmp(uuid, pks_ns_get_uuid(ns));
			}
			if (!wanted)
				continue;
		}
		res = apply_one(p, ctx, groups[i], &ns, why, sizeof(why));
		count[res]++;
		if (*why)
			p_err(opts, "enable --from-config: %s: %s",
			      apply_names[res], why);
		jrec = json_object_new_object();
		json_object_object_add(jrec, "record",
				       json_object_new_string(groups[i]));
		json_object_object_add(jrec, "dev", ns ?
				       json_object_new_string(pks_ns_get_name(ns)) : NULL);
		json_object_object_add(jrec, "result",
				       json_object_new_string(apply_names[res]));
		json_object_object_add(jrec, "reason", *why ?
				       json_object_new_string(why) : NULL);
		json_object_array_add(array, jrec);
		/* For people: what each record came to, as enable prints. */
		if (!opts->json)
			printf("%s: %s%s%s%s\n",
			       ns ? pks_ns_get_name(ns) : groups[i],
			       apply_names[res], *why ? " (" : "", why,
			       *why ? ")" : "");
	}
	g_strfreev(groups);
	if (opts->json)
		display_json_array(array);
	json_object_put(array);
	fprintf(stderr,
		"pkstool: enable --from-config %s: %u enabled, %u already, %u missing, %u drifted, %u refused\n",
		p->path, count[APPLY_ENABLED], count[APPLY_ALREADY],
		count[APPLY_MISSING], count[APPLY_DRIFTED],
		count[APPLY_REFUSED]);
	pkstool_persist_close(p, opts, "enable");
	return count[APPLY_MISSING] + count[APPLY_DRIFTED] +
	       count[APPLY_REFUSED] ? -EIO : 0;
}
