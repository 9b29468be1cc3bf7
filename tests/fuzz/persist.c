// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the record file of enable --persist (persist.c), read
 * and written through persist_format.c as pkstool does.
 *
 * The input is the file's text, then optionally a NUL and an edit: one
 * byte for what to record ('s' strict, 'r' relaxed, anything else: forget),
 * one byte choosing the UUID ('n': the next 16 bytes make a new one, else
 * the byte picks one of the file's [protect UUID] groups), then the name.
 * Properties:
 *  - every group reads as a record within bounds: a UUID only for a
 *    "protect " group, a mode that is strict, relaxed or -EINVAL;
 *  - the text pkstool writes back loads again, with the same records,
 *    and writing that gives the same text (a rewrite changes nothing;
 *    but see cr_drift());
 *  - after the edit, written and loaded again, the UUID has the mode and
 *    name recorded (or no record once forgotten) and every other record
 *    is as it was, in the same order;
 *  - GLib is never handed a bad group or key (no critical is logged).
 *
 * Built with -DFUZZ_CONTROL, pkstool_persist_set() is swapped for a copy
 * with a planted bug (the name written unescaped), which tests/fuzz/run.sh
 * requires libFuzzer to find before a run counts.
 */
#include <errno.h>
#include <string.h>

#include "fuzz.h"
#include "libpks.h"
#include "persist_format.h"

#define UUID_LEN 36

/* One group as pkstool reads it. */
struct record {
	char *group;
	const char *uuid; /* in group, or NULL */
	int mode;
	char *name; /* NULL without a readable name= */
};

struct records {
	struct record *rec;
	gsize nr;
};

#ifdef FUZZ_CONTROL
/* The planted bug: g_key_file_set_value() does not escape the name. */
static bool control_set(GKeyFile *kf, const char *uuid, int mode,
			const char *name)
{
	char *group = g_strconcat("protect ", uuid, NULL);
	bool changed = true;

	if (mode < 0) {
		changed = g_key_file_has_group(kf, group);
		if (changed)
			g_key_file_remove_group(kf, group, NULL);
	} else {
		g_key_file_set_string(kf, group, "mode", pks_mode_name(mode));
		g_key_file_set_value(kf, group, "name", name);
	}
	g_free(group);
	return changed;
}
#define pkstool_persist_set control_set
#endif

static void records_read(GKeyFile *kf, struct records *r)
{
	char **groups = g_key_file_get_groups(kf, &r->nr);
	gsize i;

	r->rec = g_new0(struct record, r->nr + 1);
	for (i = 0; i < r->nr; i++) {
		struct record *rec = &r->rec[i];

		rec->group = groups[i];
		rec->uuid = pkstool_persist_group_uuid(rec->group);
		rec->mode = pkstool_persist_group_mode(kf, rec->group);
		rec->name = g_key_file_get_string(kf, rec->group, "name", NULL);
		fuzz_check(!rec->uuid || (!strncmp(rec->group, "protect ", 8) &&
					  rec->uuid == rec->group + 8),
			   "[%s]", rec->group);
		fuzz_check(rec->uuid || strncmp(rec->group, "protect ", 8),
			   "[%s]", rec->group);
		fuzz_check(rec->mode == PKS_MODE_STRICT ||
			       rec->mode == PKS_MODE_RELAXED ||
			       rec->mode == -EINVAL,
			   "[%s] mode %d", rec->group, rec->mode);
	}
	g_free(groups); /* the strings live on in rec[] */
}

static void records_free(struct records *r)
{
	gsize i;

	for (i = 0; i < r->nr; i++) {
		g_free(r->rec[i].group);
		g_free(r->rec[i].name);
	}
	g_free(r->rec);
}

/* With @names false, the names are not compared (see cr_drift()). */
static bool record_eq(const struct record *a, const struct record *b,
		      bool names)
{
	return !strcmp(a->group, b->group) && a->mode == b->mode &&
	       !a->uuid == !b->uuid &&
	       (!names || (!a->name == !b->name &&
			   (!a->name || !strcmp(a->name, b->name))));
}

/* Records @a and @b, which must be equal but for the group @skip. */
static void records_check(const struct records *a, const struct records *b,
			  const char *skip, const char *what, bool names)
{
	gsize i = 0, j = 0;

	for (;;) {
		while (skip && i < a->nr && !strcmp(a->rec[i].group, skip))
			i++;
		while (skip && j < b->nr && !strcmp(b->rec[j].group, skip))
			j++;
		if (i == a->nr || j == b->nr)
			break;
		fuzz_check(record_eq(&a->rec[i], &b->rec[j], names),
			   "%s: [%s] became [%s]", what, a->rec[i].group,
			   b->rec[j].group);
		i++;
		j++;
	}
	fuzz_check(i == a->nr && j == b->nr, "%s: %zu records became %zu", what,
		   (size_t)a->nr, (size_t)b->nr);
}

/* pkstool_persist_close()'s text, loaded again: it must load. */
static GKeyFile *rewrite(GKeyFile *kf, char **text)
{
	GKeyFile *again = g_key_file_new();
	GError *err = NULL;
	gsize len;

	*text = g_key_file_to_data(kf, &len, NULL);
	fuzz_check(g_key_file_load_from_data(again, *text, len,
					     PKSTOOL_PERSIST_LOAD_FLAGS, &err),
		   "written text does not load: %s", err->message);
	return again;
}

/* The UUID of the edit, or NULL when the input names none. */
static char *edit_uuid(const struct records *r, const uint8_t *edit, size_t len,
		       size_t *used)
{
	uint8_t b[16] = {0};
	gsize i, nr_protect = 0, pick;

	for (i = 0; i < r->nr; i++)
		nr_protect += r->rec[i].uuid != NULL;
	if (len < 1)
		return NULL;
	if (edit[0] != 'n' && nr_protect) {
		*used = 1;
		pick = edit[0] % nr_protect;
		for (i = 0; i < r->nr; i++)
			if (r->rec[i].uuid && !pick--)
				return g_strdup(r->rec[i].uuid);
	}
	*used = len < 17 ? len : 17;
	memcpy(b, edit + 1, *used - 1);
	return g_strdup_printf("%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%"
			       "02x%02x%02x%02x%02x%02x",
			       b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
			       b[8], b[9], b[10], b[11], b[12], b[13], b[14],
			       b[15]);
}

static void check_edit(GKeyFile *kf, const struct records *before,
		       const uint8_t *edit, size_t len, bool names)
{
	struct records after;
	size_t used = 0;
	char *uuid, *name, *group, *text;
	GKeyFile *again;
	bool had, changed;
	int mode, now;

	if (len < 1)
		return;
	mode = edit[0] == 's'	? PKS_MODE_STRICT
	       : edit[0] == 'r' ? PKS_MODE_RELAXED
				: -1;
	uuid = edit_uuid(before, edit + 1, len - 1, &used);
	if (!uuid)
		return;
	/*
	 * A name is text: UTF-8, up to its first NUL. GLib escapes a leading
	 * space but not a leading form feed or vertical tab, which it strips
	 * when reading: such a name would not come back, but no device name
	 * the kernel gives starts with one.
	 */
	name = g_utf8_make_valid((const char *)edit + 1 + used, len - 1 - used);
	if (*name == '\f' || *name == '\v')
		*name = '_';
	group = g_strconcat("protect ", uuid, NULL);
	had = g_key_file_has_group(kf, group);

	changed = pkstool_persist_set(kf, uuid, mode, name);
	fuzz_check(changed == (mode >= 0 || had), "changed %d", changed);
	again = rewrite(kf, &text);
	records_read(again, &after);
	now = pkstool_persist_uuid_mode(again, uuid);
	if (mode < 0) {
		fuzz_check(now == -ENOENT, "forgotten %s has mode %d", uuid,
			   now);
	} else {
		char *got = g_key_file_get_string(again, group, "name", NULL);

		fuzz_check(now == mode, "%s recorded %d, reads %d", uuid, mode,
			   now);
		fuzz_check(got && !strcmp(got, name),
			   "name '%s' reads back as '%s'", name,
			   got ? got : "(none)");
		g_free(got);
	}
	records_check(before, &after, group, "edit", names);
	records_free(&after);
	g_key_file_free(again);
	g_free(text);
	g_free(group);
	g_free(name);
	g_free(uuid);
}

/*
 * A critical is GLib refusing a call (a bad group or key name): a
 * violation, reported as one so that libFuzzer keeps the input (GLib's
 * own fatal logs trap, which libFuzzer does not catch). Warnings pass:
 * GLib 2.74 warns of a GError "set over the top of a previous GError"
 * while reading a value such as "\q\", a bug of its own.
 */
static GLogWriterOutput fuzz_log_writer(GLogLevelFlags level,
					const GLogField *fields, gsize n,
					gpointer data)
{
	const char *message = "?";
	gsize i;

	for (i = 0; i < n; i++)
		if (!strcmp(fields[i].key, "MESSAGE"))
			message = fields[i].value;
	fuzz_check(!(level & (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_ERROR)),
		   "GLib: %s", message);
	return g_log_writer_default(level, fields, n, data);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	g_log_set_writer_func(fuzz_log_writer, NULL, NULL);
	return 0;
}

/*
 * GLib loses CRs it read in: a blank line loses one at each rewrite, and a
 * value ending in one at the end of a file without a newline loses it at
 * the first (it was written raw, and is then read as a CRLF). Neither
 * changes what pkstool reads (mode= is stripped of spaces, and name= is
 * only a reminder), so with a CR in the text only the text and the names
 * go unchecked.
 */
static bool cr_drift(const uint8_t *text, size_t len)
{
	return memchr(text, '\r', len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	size_t text_len = nul ? (size_t)(nul - data) : size;
	bool cr = cr_drift(data, text_len);
	struct records first, second;
	GKeyFile *kf = g_key_file_new(), *again;
	char *text, *text2;

	if (!g_key_file_load_from_data(kf, (const char *)data, text_len,
				       PKSTOOL_PERSIST_LOAD_FLAGS, NULL)) {
		g_key_file_free(kf);
		return 0;
	}
	records_read(kf, &first);

	again = rewrite(kf, &text);
	records_read(again, &second);
	records_check(&first, &second, NULL, "rewrite", !cr);
	records_free(&second);
	g_key_file_free(rewrite(again, &text2));
	fuzz_check(cr || !strcmp(text, text2),
		   "a second rewrite changed the text: '%s'", text2);
	g_free(text);
	g_free(text2);
	g_key_file_free(again);

	if (nul)
		check_edit(kf, &first, nul + 1, size - text_len - 1, !cr);
	records_free(&first);
	g_key_file_free(kf);
	return 0;
}
