/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PKSTOOL_PERSIST_H_
#define _PKSTOOL_PERSIST_H_

#include <stdbool.h>
#include <json-c/json.h>

#include "libpks.h"

struct pkstool_opts;
struct pkstool_persist;

/* persist.c: the records of enable --persist (see pkstool-enable(8)). */
const char *pkstool_persist_path(void);
int pkstool_persist_open(struct pkstool_persist **persist, bool write,
			 const struct pkstool_opts *opts, const char *what);
int pkstool_persist_check(struct pks_ns *ns, char *why, size_t len);
void pkstool_persist_note(struct pkstool_persist *persist, struct pks_ns *ns,
			  int mode);
bool pkstool_persist_forget(struct pkstool_persist *persist, const char *uuid);
int pkstool_persist_close(struct pkstool_persist *persist,
			  const struct pkstool_opts *opts, const char *what);
int pkstool_persist_lookup(struct pkstool_persist *persist, struct pks_ns *ns);
int pkstool_persist_lookup_uuid(struct pkstool_persist *persist,
				const char *uuid);
void pkstool_persist_to_json(struct pkstool_persist *persist,
			     struct pks_ns *ns, struct json_object *jns);
int pkstool_persist_count(const struct pkstool_opts *opts);
int pkstool_persist_apply(struct pks_ctx *ctx, const struct pkstool_opts *opts,
			  char **names, int nr_names);

#endif /* _PKSTOOL_PERSIST_H_ */
