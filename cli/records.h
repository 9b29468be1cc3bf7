/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PKSTOOL_RECORDS_H_
#define _PKSTOOL_RECORDS_H_

#include <stdbool.h>
#include <stddef.h>

#include "libpks.h"

struct pkstool_opts;

/* records.c: the event log's records, for faults, monitor and metrics. */
int pkstool_open_records(struct pks_ctx *ctx, const struct pkstool_opts *opts,
			 const char *what, const char *ns_name,
			 const char **chardev);
bool util_record_matches(struct pks_record *rec, const char *chardev);
int util_record_to_text(struct pks_record *rec, const char *kind, char *buf,
			size_t len);

#endif /* _PKSTOOL_RECORDS_H_ */
