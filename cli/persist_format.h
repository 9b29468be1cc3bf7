/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PKSTOOL_PERSIST_FORMAT_H_
#define _PKSTOOL_PERSIST_FORMAT_H_

#include <glib.h>
#include <stdbool.h>

/*
 * persist_format.c: what the record file's groups and keys mean, apart
 * from files and namespaces (persist.c), so that the fuzzer
 * (tests/fuzz/persist.c) reads and writes records as pkstool does.
 */

/* Every load keeps comments, so that a rewrite keeps them too. */
#define PKSTOOL_PERSIST_LOAD_FLAGS G_KEY_FILE_KEEP_COMMENTS

const char *pkstool_persist_group_uuid(const char *group);
int pkstool_persist_group_mode(GKeyFile *kf, const char *group);
bool pkstool_persist_set(GKeyFile *kf, const char *uuid, int mode,
			 const char *name);
int pkstool_persist_uuid_mode(GKeyFile *kf, const char *uuid);

#endif /* _PKSTOOL_PERSIST_FORMAT_H_ */
