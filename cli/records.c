// SPDX-License-Identifier: GPL-2.0
/*
 * The driver's event log as faults, monitor and metrics read it: the
 * namespace filter, which records it keeps, and a record as one line of
 * text.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "records.h"

/*
 * Open the driver for reading its records, and resolve an optional
 * namespace filter once, before waiting on faults, so that a typo fails at
 * once. *chardev becomes NULL without a filter, else the namespace's dax
 * device ("" when it has none, which matches no record). Returns a
 * pkstool_status; refused records (not root) fail with a clear error.
 */
int pkstool_open_records(struct pks_ctx *ctx, const struct pkstool_opts *opts,
			 const char *what, const char *ns_name,
			 const char **chardev)
{
	struct pks_ns *ns = NULL;
	uint64_t head;
	int rc;

	*chardev = NULL;
	rc = pkstool_open_driver(ctx, opts, what);
	if (rc)
		return rc;
	/*
	 * The records name other users' processes: the driver gives them to
	 * root only. Asking for those from the head on reads none, but is
	 * refused all the same: say so before waiting for any.
	 */
	rc = pks_faults_head(ctx, &head);
	if (!rc)
		rc = pks_faults_refresh(ctx, head, NULL);
	if (rc) {
		p_err(opts, "%s: reading the fault log: %s%s", what,
		      strerror(-rc), rc == -EPERM ?
		      ": its records name other users' processes: run as root" :
		      "");
		return PKSTOOL_FAILED;
	}
	if (!ns_name)
		return PKSTOOL_DONE;
	rc = pks_ns_scan(ctx);
	if (!rc) {
		ns = pks_ns_find(ctx, ns_name);
		rc = ns ? 0 : -ENOENT;
	}
	if (rc) {
		p_err(opts, "%s: no namespace '%s': see 'pkstool list'", what,
		      ns_name);
		return PKSTOOL_FAILED;
	}
	*chardev = pks_ns_get_device(ns) ? pks_ns_get_device(ns) : "";
	return PKSTOOL_DONE;
}

/*
 * Records of the dax device @chardev only, when it is not NULL. Protection
 * records name their namespace's device as faults in a namespace do.
 */
bool util_record_matches(struct pks_record *rec, const char *chardev)
{
	return !chardev || (pks_record_in_namespace(rec) &&
			    !strcmp(pks_record_get_owner(rec), chardev));
}

/*
 * One record on one line for people, starting with its time, then @kind
 * when it is not NULL (the monitor's "fault").
 */
int util_record_to_text(struct pks_record *rec, const char *kind, char *buf,
			size_t len)
{
	char when[48];

	util_time_to_text(pks_record_get_time_ns(rec), when, sizeof(when));
	if (!pks_record_is_fault(rec))
		return snprintf(buf, len, "%s %s %" PRIu64 " %s key %u%s by %s[%u]",
				when, pks_record_get_event(rec),
				pks_record_get_seq(rec),
				pks_record_get_owner(rec),
				pks_record_get_key(rec),
				strcmp(pks_record_get_event(rec), "protected") ? "" :
				pks_record_is_relaxed(rec) ? " relaxed" : " strict",
				pks_record_get_comm(rec),
				pks_record_get_pid(rec));
	return snprintf(buf, len,
			"%s%s%s %" PRIu64 " cpu%u %s[%u] %s %s+0x%" PRIx64 " key %u %s at %s",
			when, kind ? " " : "", kind ? kind : "",
			pks_record_get_seq(rec), pks_record_get_cpu(rec),
			pks_record_get_comm(rec), pks_record_get_pid(rec),
			pks_record_is_write(rec) ? "write" : "read",
			pks_record_get_owner(rec), pks_record_get_offset(rec),
			pks_record_get_key(rec), pks_record_get_outcome(rec),
			pks_record_get_ip(rec));
}
