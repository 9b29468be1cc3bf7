// SPDX-License-Identifier: GPL-2.0
/*
 * The record file's format (see persist.c): one "[protect UUID]" group
 * per namespace, with mode= and name=. Only GLib and libpks's mode names
 * are used here, no file and no namespace.
 */
#include <errno.h>
#include <string.h>

#include "libpks.h"
#include "persist_format.h"

#define GROUP_PREFIX "protect "

/* The UUID a group records, or NULL when it is no [protect UUID] group. */
const char *pkstool_persist_group_uuid(const char *group)
{
	if (strncmp(group, GROUP_PREFIX, strlen(GROUP_PREFIX)))
		return NULL;
	return group + strlen(GROUP_PREFIX);
}

/*
 * The mode recorded in @group: a pks_mode, -ENOENT (no such group) or
 * -EINVAL (no mode=strict or mode=relaxed). Spaces around the value are
 * forgiven, as people edit the file. A value GLib cannot unescape is
 * invalid, whatever part of it GLib returns with the error. Otherwise a
 * rewrite could change a record's meaning: "mode=strict" with a
 * backslash and a CR after it, at the end of a file with no newline,
 * reads as not a mode ("\" then CR is no escape); once pkstool rewrites
 * the file the CR ends the line, and GLib returns "strict" for a value
 * whose escape is cut off (found by tests/fuzz/persist.c).
 */
int pkstool_persist_group_mode(GKeyFile *kf, const char *group)
{
	GError *err = NULL;
	char *value;
	int mode;

	if (!g_key_file_has_group(kf, group))
		return -ENOENT;
	value = g_key_file_get_string(kf, group, "mode", &err);
	mode = value && !err ? pks_mode_lookup(g_strstrip(value)) : -EINVAL;
	g_clear_error(&err);
	g_free(value);
	return mode < 0 ? -EINVAL : mode;
}

/* The mode recorded for @uuid: a pks_mode, -ENOENT or -EINVAL. */
int pkstool_persist_uuid_mode(GKeyFile *kf, const char *uuid)
{
	char *group = g_strconcat(GROUP_PREFIX, uuid, NULL);
	int mode = pkstool_persist_group_mode(kf, group);

	g_free(group);
	return mode;
}

/*
 * Record @uuid as protected in @mode under @name, or with @mode -1 forget
 * it. Returns whether the file changed. Values are escaped by GLib, so a
 * name never breaks a line or opens a group.
 */
bool pkstool_persist_set(GKeyFile *kf, const char *uuid, int mode,
			 const char *name)
{
	char *group = g_strconcat(GROUP_PREFIX, uuid, NULL);
	bool changed = true;

	if (mode < 0) {
		changed = g_key_file_has_group(kf, group);
		if (changed)
			g_key_file_remove_group(kf, group, NULL);
	} else {
		g_key_file_set_string(kf, group, "mode", pks_mode_name(mode));
		g_key_file_set_string(kf, group, "name", name);
	}
	g_free(group);
	return changed;
}
