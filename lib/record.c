// SPDX-License-Identifier: LGPL-2.1
/*
 * libpks: the driver's event log: fault records and protection events.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "libpks-private.h"

int pks_faults_head(struct pks_ctx *ctx, uint64_t *head)
{
	struct pks_faults req = { .size = sizeof(req), .nr = 0 };
	int rc = pks_call(ctx, PKS_IOC_FAULTS, &req);

	if (!rc) {
		*head = req.next;
		ctx->next_fault = req.next;
		ctx->fault_instance = req.instance;
	}
	return rc;
}

int pks_faults_refresh(struct pks_ctx *ctx, uint64_t since, uint64_t *dropped)
{
	struct pks_faults req = {
		.size = sizeof(req),
		.nr = PKS_FAULT_RING,
		.since = since,
	};
	unsigned int i, j;
	int rc;

	if (!ctx->faults) {
		ctx->faults = calloc(PKS_FAULT_RING, sizeof(*ctx->faults));
		ctx->records = calloc(PKS_FAULT_RING, sizeof(*ctx->records));
		if (!ctx->faults || !ctx->records) {
			free(ctx->faults);
			free(ctx->records);
			ctx->faults = NULL;
			ctx->records = NULL;
			return -ENOMEM;
		}
	}
	req.records = (uintptr_t)ctx->faults;
	ctx->nr_faults = 0;
	rc = pks_call(ctx, PKS_IOC_FAULTS, &req);
	if (rc)
		return rc;
	ctx->nr_faults = req.nr < PKS_FAULT_RING ? req.nr : PKS_FAULT_RING;
	for (i = 0; i < ctx->nr_faults; i++) {
		struct pks_fault *f = &ctx->faults[i];

		f->comm[PKS_COMM_LEN - 1] = '\0';
		f->owner[PKS_NAME_LEN - 1] = '\0';
		f->ip[PKS_SYM_LEN - 1] = '\0';
		for (j = 0; j < PKS_FAULT_STACK; j++)
			f->stack[j][PKS_SYM_LEN - 1] = '\0';
		ctx->records[i].ctx = ctx;
		ctx->records[i].f = f;
	}
	ctx->next_fault = req.next;
	ctx->fault_instance = req.instance;
	if (dropped)
		*dropped = req.dropped;
	return 0;
}

uint64_t pks_faults_get_next_seq(struct pks_ctx *ctx)
{
	return ctx->next_fault;
}

uint64_t pks_faults_get_instance(struct pks_ctx *ctx)
{
	return ctx->fault_instance;
}

int pks_faults_wait(struct pks_ctx *ctx, int timeout_ms)
{
	struct pollfd pfd = { .fd = ctx->fd, .events = POLLIN };
	int rc;

	if (ctx->open_err)
		return ctx->open_err;
	rc = poll(&pfd, 1, timeout_ms);
	if (rc < 0)
		return -errno;
	return rc;	/* 1: a record is waiting, 0: timed out */
}

struct pks_record *pks_record_get_first(struct pks_ctx *ctx)
{
	return ctx->nr_faults ? &ctx->records[0] : NULL;
}

struct pks_record *pks_record_get_next(struct pks_record *rec)
{
	struct pks_ctx *ctx = rec->ctx;

	return rec + 1 < ctx->records + ctx->nr_faults ? rec + 1 : NULL;
}

uint64_t pks_record_get_seq(struct pks_record *rec)
{
	return rec->f->seq;
}

uint64_t pks_record_get_time_ns(struct pks_record *rec)
{
	return rec->f->time_ns;
}

uint64_t pks_record_get_address(struct pks_record *rec)
{
	return rec->f->address;
}

uint64_t pks_record_get_offset(struct pks_record *rec)
{
	return rec->f->offset;
}

unsigned int pks_record_get_cpu(struct pks_record *rec)
{
	return rec->f->cpu;
}

unsigned int pks_record_get_pid(struct pks_record *rec)
{
	return rec->f->pid;
}

unsigned int pks_record_get_key(struct pks_record *rec)
{
	return rec->f->key;
}

bool pks_record_is_write(struct pks_record *rec)
{
	return rec->f->flags & PKS_FAULT_F_WRITE;
}

bool pks_record_in_namespace(struct pks_record *rec)
{
	return rec->f->flags & PKS_FAULT_F_NAMESPACE;
}

const char *pks_record_get_outcome(struct pks_record *rec)
{
	return pks_fault_outcome_name(rec->f->outcome);
}

const char *pks_record_get_owner(struct pks_record *rec)
{
	return rec->f->owner;
}

const char *pks_record_get_comm(struct pks_record *rec)
{
	return rec->f->comm;
}

const char *pks_record_get_ip(struct pks_record *rec)
{
	return rec->f->ip;
}

const char *pks_record_get_stack(struct pks_record *rec, unsigned int i)
{
	return i < PKS_FAULT_STACK && rec->f->stack[i][0] ? rec->f->stack[i] :
							    NULL;
}

bool pks_record_is_fault(struct pks_record *rec)
{
	return rec->f->event == PKS_EVENT_FAULT;
}

const char *pks_record_get_event(struct pks_record *rec)
{
	static const char *const names[] = {
		[PKS_EVENT_FAULT] = "fault",
		[PKS_EVENT_PROTECTED] = "protected",
		[PKS_EVENT_UNPROTECTED] = "unprotected",
		[PKS_EVENT_DEVICE_GONE] = "device-gone",
	};
	uint32_t event = rec->f->event;

	return event < sizeof(names) / sizeof(names[0]) ? names[event] :
							  "unknown";
}

bool pks_record_is_relaxed(struct pks_record *rec)
{
	return rec->f->flags & PKS_FAULT_F_RELAXED;
}

const char *pks_fault_outcome_name(uint32_t outcome)
{
	static const char *const names[] = {
		[PKS_FAULT_REFUSED] = "refused",
		[PKS_FAULT_OOPS] = "oops",
		[PKS_FAULT_ALLOWED] = "allowed",
		[PKS_FAULT_CALLBACK] = "callback",
	};

	return outcome < sizeof(names) / sizeof(names[0]) ? names[outcome] :
							    "unknown";
}
