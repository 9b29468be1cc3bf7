// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: NAMESPACE arguments (man/namespace-arg.txt), as
 * pks_ns_find() resolves them through pks_ns_name_matches().
 *
 * The input is text: one namespace a line, "NAME CHARDEV BLOCKDEV" with
 * "-" for a device it lacks, and last the argument to resolve, e.g.
 *
 *	namespace0.0 dax0.0 -
 *	namespace1.0 - pmem1
 *	/dev/pmem1
 *
 * Each name is cut to 63 bytes, as struct pks_ns holds it, and one with
 * a "/" is taken as "-": the kernel's device names never hold one.
 * Properties:
 *  - the argument resolves to the first namespace one of whose spellings
 *    it is, each spelling built here apart from the code under test: the
 *    name, the dax device and the block device, each also after "/dev/",
 *    a device the namespace lacks being no spelling;
 *  - every spelling of every namespace resolves back to that namespace,
 *    or to an earlier one it is also a spelling of (the first wins);
 *  - an argument that resolves is at most "/dev/" plus 63 bytes long.
 *
 * Built with -DFUZZ_CONTROL, the function under test is swapped for one
 * with a planted bug (a prefix of a name matches it), which tests/fuzz/
 * run.sh requires libFuzzer to find before a run counts.
 */
#include <stdbool.h>
#include <string.h>

#include "fuzz.h"
#include "libpks-private.h"

#define NAME_MAX_LEN 63 /* struct pks_ns: char name[64] and so on */
#define MAX_NS 16
#define DEV "/dev/"

struct fake_ns {
	char name[NAME_MAX_LEN + 1];
	char chardev[NAME_MAX_LEN + 1];
	char blockdev[NAME_MAX_LEN + 1];
};

#ifdef FUZZ_CONTROL
/* The planted bug: only as many bytes as the argument has are compared. */
static bool control_name_matches(const char *ident, const char *name,
				 const char *chardev, const char *blockdev)
{
	size_t n;

	if (!strncmp(ident, DEV, strlen(DEV)))
		ident += strlen(DEV);
	n = strlen(ident);
	return !strncmp(name, ident, n) ||
	       (*chardev && !strncmp(chardev, ident, n)) ||
	       (*blockdev && !strncmp(blockdev, ident, n));
}
#define pks_ns_name_matches control_name_matches
#endif

/* pks_ns_find(), over a table: the index found, or -1. */
static int find(const struct fake_ns *ns, int nr, const char *ident)
{
	int i;

	for (i = 0; i < nr; i++)
		if (pks_ns_name_matches(ident, ns[i].name, ns[i].chardev,
					ns[i].blockdev))
			return i;
	return -1;
}

/* Whether @ident is @dev or "/dev/" @dev; a missing device ("") is none. */
static bool spells(const char *ident, const char *dev, bool may_be_empty)
{
	char path[sizeof(DEV) + NAME_MAX_LEN];

	if (!*dev && !may_be_empty)
		return false;
	snprintf(path, sizeof(path), DEV "%s", dev);
	return !strcmp(ident, dev) || !strcmp(ident, path);
}

/* The oracle: is @ident one of the spellings of @ns? */
static bool is_spelling(const struct fake_ns *ns, const char *ident)
{
	/* A namespace always has a name; an empty one is compared too. */
	return spells(ident, ns->name, true) ||
	       spells(ident, ns->chardev, false) ||
	       spells(ident, ns->blockdev, false);
}

static int oracle_find(const struct fake_ns *ns, int nr, const char *ident)
{
	int i;

	for (i = 0; i < nr; i++)
		if (is_spelling(&ns[i], ident))
			return i;
	return -1;
}

/* Copy the next word of @line (at most 63 bytes kept); "-" is "". */
static const char *take_word(const char *line, char *out)
{
	size_t n = strcspn(line, " ");

	snprintf(out, NAME_MAX_LEN + 1, "%.*s", (int)n, line);
	if (!strcmp(out, "-") || strchr(out, '/'))
		*out = '\0';
	line += n;
	return *line ? line + 1 : line;
}

static void check_spelling(const struct fake_ns *ns, int nr, int i,
			   const char *dev)
{
	char ident[sizeof(DEV) + NAME_MAX_LEN];
	int found;

	snprintf(ident, sizeof(ident), DEV "%s", dev);
	found = find(ns, nr, dev);
	fuzz_check(found >= 0 && found <= i && is_spelling(&ns[found], dev),
		   "'%s' of namespace %d resolves to %d", dev, i, found);
	found = find(ns, nr, ident);
	fuzz_check(found >= 0 && found <= i && is_spelling(&ns[found], ident),
		   "'%s' of namespace %d resolves to %d", ident, i, found);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fake_ns ns[MAX_NS];
	char *text, *line, *next, *ident;
	int nr = 0, i, found, expect;

	/* A C string, as argv gives it: the input up to its first NUL. */
	text = strndup((const char *)data, size);
	if (!text)
		return 0;
	ident = text;
	for (line = text; (next = strchr(line, '\n')); line = next + 1) {
		*next = '\0';
		if (nr < MAX_NS) {
			const char *w = take_word(line, ns[nr].name);

			w = take_word(w, ns[nr].chardev);
			take_word(w, ns[nr].blockdev);
			nr++;
		}
		ident = next + 1;
	}

	found = find(ns, nr, ident);
	expect = oracle_find(ns, nr, ident);
	fuzz_check(found == expect, "'%s' resolves to %d, not %d", ident, found,
		   expect);
	fuzz_check(found < 0 || strlen(ident) <= strlen(DEV) + NAME_MAX_LEN,
		   "'%s' (%zu bytes) resolves", ident, strlen(ident));
	for (i = 0; i < nr; i++) {
		check_spelling(ns, nr, i, ns[i].name);
		if (*ns[i].chardev)
			check_spelling(ns, nr, i, ns[i].chardev);
		if (*ns[i].blockdev)
			check_spelling(ns, nr, i, ns[i].blockdev);
	}
	free(text);
	return 0;
}
