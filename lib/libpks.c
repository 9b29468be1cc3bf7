// SPDX-License-Identifier: LGPL-2.1
/*
 * libpks: a thin, typed layer over the /dev/pks ioctls.
 */
#include <cpuid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
/* libndctl uses libuuid's uuid_t when told it has libuuid. */
#define HAVE_UUID
#include <uuid/uuid.h>
#include <ndctl/libndctl.h>
#include <daxctl/libdaxctl.h>
#include <cxl/libcxl.h>
#include <limits.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <poll.h>
#include <syslog.h>
#include <unistd.h>

#include "libpks.h"
#include "libpks-private.h"

#include <linux/pks_test.h>

/*
 * The driver ABI this library speaks: the uapi header's, unless a build
 * for the ABI-mismatch test (tests/vm/cases/abi.sh) sets another.
 */
#ifndef LIBPKS_ABI_VERSION
#define LIBPKS_ABI_VERSION PKS_ABI_VERSION
#endif

/*
 * What this file reads from the driver is ABI 7's meaning of the uapi
 * structs (grants judged by rule at fault time, not probed kernel paths):
 * a new PKS_ABI_VERSION is read through here before libpks builds with it.
 */
_Static_assert(PKS_ABI_VERSION == 7, "libpks.c speaks driver ABI 7");

struct pks_key {
	struct pks_ctx *ctx;
	struct pks_key_info info;
};

struct pks_cpu {
	struct pks_ctx *ctx;
	struct pks_cpu_info info;
};

struct pks_rule {
	struct pks_ctx *ctx;
	struct pks_rule_info info;
};

struct pks_record {
	struct pks_ctx *ctx;
	const struct pks_fault *f;
};

/* A CXL region interleaves at most 16 devices. */
#define PKS_CXL_MAX_MEMDEVS 16

/**
 * struct pks_backing - what backs an nvdimm region
 * @provider: its nvdimm bus's provider ("ACPI.NFIT", "CXL"), "" if unknown
 * @cxl_region: the CXL region it is, as cxl list -R names it, or ""
 * @cxl_memdevs: that region's memdevs by interleave position
 * @nr_cxl_memdevs: how many @cxl_memdevs hold a name
 */
struct pks_backing {
	char provider[32];
	char cxl_region[32];
	char cxl_memdevs[PKS_CXL_MAX_MEMDEVS][32];
	unsigned int nr_cxl_memdevs;
};

struct pks_ns {
	struct pks_ctx *ctx;
	struct pks_ns *next;
	char name[64];
	char region[64];
	struct pks_backing backing;
	char chardev[64];	/* "" unless devdax */
	char blockdev[64];	/* "" unless fsdax */
	char uuid[37];		/* "" when it has none */
	const char *mode;
	uint64_t size;		/* usable: what ndctl list -N calls size */
	uint64_t resource;
	uint64_t range_size;
	int key;		/* -1 when unprotected */
	int prot_mode;		/* enum pks_mode, -1 when unprotected */
	uint64_t faults;
};

struct pks_ctx {
	int refcount;
	int fd;
	int open_err;		/* -errno from open() or the ABI check */
	unsigned int driver_abi;	/* the driver's ABI, 0 until known */
	int log_priority;
	pks_log_fn log_fn;	/* NULL: the default, to stderr */
	const char *device;
	int test_fd;		/* the test module's device, -1 until opened */
	const char *test_device;
	struct pks_info info;
	struct pks_key keys[PKS_NR_KEYS];
	struct pks_grants grants;
	struct pks_rule rules[PKS_RULE_MAX];
	unsigned int nr_rules;
	struct pks_cpu *cpus;
	unsigned int nr_cpus;
	bool loaded;		/* info/keys/cpus hold a snapshot */
	struct pks_ns *namespaces;
	struct pks_fault *faults;	/* the last pks_faults_refresh() */
	struct pks_record *records;	/* one per faults[] entry */
	unsigned int nr_faults;
	uint64_t next_fault;
	uint64_t fault_instance;	/* the driver load the records came from */
	bool read_only;		/* opened read-only: queries only */
	struct pks_accounting acct;	/* from the last pks_refresh() */
	struct pks_holder *holders;	/* from the last pks_refresh() */
	unsigned int nr_holders;
};

static void pks_log(struct pks_ctx *ctx, int priority, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void pks_log(struct pks_ctx *ctx, int priority, const char *fmt, ...)
{
	va_list ap;

	if (priority > ctx->log_priority)
		return;
	va_start(ap, fmt);
	if (ctx->log_fn) {
		ctx->log_fn(ctx, priority, fmt, ap);
	} else {
		fprintf(stderr, "libpks: ");
		vfprintf(stderr, fmt, ap);
	}
	va_end(ap);
}

void pks_set_log_fn(struct pks_ctx *ctx, pks_log_fn log_fn)
{
	ctx->log_fn = log_fn;
}

int pks_get_log_priority(struct pks_ctx *ctx)
{
	return ctx->log_priority;
}

/* PKS_LOG: a syslog priority name or number, as ndctl's log_init(). */
static int pks_log_priority_from_env(void)
{
	static const char *const names[] = {
		[LOG_ERR] = "err", [LOG_INFO] = "info", [LOG_DEBUG] = "debug",
	};
	const char *env = getenv("PKS_LOG");
	char *end;
	long prio;
	size_t i;

	if (!env)
		return LOG_ERR;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i] && !strcmp(env, names[i]))
			return i;
	prio = strtol(env, &end, 10);
	return (*end || prio < 0) ? LOG_ERR : (int)prio;
}

static void pks_check_abi(struct pks_ctx *ctx);

static void pks_ns_free_all(struct pks_ctx *ctx)
{
	while (ctx->namespaces) {
		struct pks_ns *next = ctx->namespaces->next;

		free(ctx->namespaces);
		ctx->namespaces = next;
	}
}

int pks_new(struct pks_ctx **out)
{
	struct pks_ctx *ctx = calloc(1, sizeof(*ctx));

	if (!ctx)
		return -ENOMEM;
	ctx->refcount = 1;
	ctx->log_priority = pks_log_priority_from_env();
	ctx->device = getenv("PKS_DEVICE");
	if (!ctx->device || !*ctx->device)
		ctx->device = PKS_DEFAULT_DEVICE;
	ctx->test_device = getenv("PKS_TEST_DEVICE");
	if (!ctx->test_device || !*ctx->test_device)
		ctx->test_device = PKS_DEFAULT_TEST_DEVICE;
	ctx->test_fd = -1;
	ctx->fd = open(ctx->device, O_RDWR | O_CLOEXEC);
	/* Not root: the device still answers queries on a read-only open. */
	if (ctx->fd < 0 && (errno == EACCES || errno == EPERM)) {
		ctx->fd = open(ctx->device, O_RDONLY | O_CLOEXEC);
		ctx->read_only = ctx->fd >= 0;
	}
	ctx->open_err = ctx->fd < 0 ? -errno : 0;
	pks_log(ctx, LOG_DEBUG, "open %s: %s\n", ctx->device,
		strerror(-ctx->open_err));
	if (!ctx->open_err)
		pks_check_abi(ctx);
	*out = ctx;
	return 0;
}

struct pks_ctx *pks_ref(struct pks_ctx *ctx)
{
	if (ctx)
		ctx->refcount++;
	return ctx;
}

void pks_unref(struct pks_ctx *ctx)
{
	if (!ctx || --ctx->refcount > 0)
		return;
	if (ctx->fd >= 0)
		close(ctx->fd);
	if (ctx->test_fd >= 0)
		close(ctx->test_fd);
	pks_ns_free_all(ctx);
	free(ctx->cpus);
	free(ctx->holders);
	free(ctx->faults);
	free(ctx->records);
	free(ctx);
}

void pks_set_log_priority(struct pks_ctx *ctx, int priority)
{
	ctx->log_priority = priority;
}

bool pks_cpu_has_pks(void)
{
	unsigned int eax, ebx, ecx, edx;

	if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx))
		return false;
	return ecx & (1u << 31);
}

const char *pks_device_path(struct pks_ctx *ctx)
{
	return ctx->device;
}

/* One ioctl on the device: 0, or why the device or the call failed. */
static int pks_call(struct pks_ctx *ctx, unsigned long cmd, void *arg)
{
	if (ctx->open_err)
		return ctx->open_err;
	return ioctl(ctx->fd, cmd, arg) < 0 ? -errno : 0;
}

const char *pks_test_device_path(struct pks_ctx *ctx)
{
	return ctx->test_device;
}

/* Opened on first use: most commands never need the test module. */
int pks_test_status(struct pks_ctx *ctx)
{
	if (ctx->test_fd >= 0)
		return 0;
	ctx->test_fd = open(ctx->test_device, O_RDWR | O_CLOEXEC);
	if (ctx->test_fd < 0)
		return -errno;
	return 0;
}

/* One ioctl on the test module's device. */
static int pks_test_call(struct pks_ctx *ctx, unsigned long cmd, void *arg)
{
	int rc = pks_test_status(ctx);

	if (rc)
		return rc;
	return ioctl(ctx->test_fd, cmd, arg) < 0 ? -errno : 0;
}

static int pks_get_info(struct pks_ctx *ctx, struct pks_info *info,
			struct pks_cpu_info *cpus, unsigned int nr_cpus)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	info->nr_cpus = nr_cpus;
	info->cpus = (uintptr_t)cpus;
	return pks_call(ctx, PKS_IOC_GET_INFO, info);
}

/*
 * At open: ask the driver for its ABI. A driver of another ABI answers
 * with its version, also when it refuses our struct's size; every call
 * on this context then fails with -EPROTO. Another error (a device that
 * is not the driver) is left for the calls to report.
 */
static void pks_check_abi(struct pks_ctx *ctx)
{
	struct pks_info info;
	int rc = pks_get_info(ctx, &info, NULL, 0);

	if (rc && rc != -EINVAL)
		return;
	ctx->driver_abi = info.abi_version;
	if (info.abi_version && info.abi_version != LIBPKS_ABI_VERSION) {
		pks_log(ctx, LOG_ERR, "%s: driver ABI %u, libpks needs %u\n",
			ctx->device, info.abi_version, LIBPKS_ABI_VERSION);
		ctx->open_err = -EPROTO;
	}
}

unsigned int pks_get_lib_abi_version(void)
{
	return LIBPKS_ABI_VERSION;
}

int pks_driver_status(struct pks_ctx *ctx)
{
	struct pks_info info;

	return pks_get_info(ctx, &info, NULL, 0);
}

static int pks_read_holders(struct pks_ctx *ctx);

int pks_refresh(struct pks_ctx *ctx)
{
	struct pks_cpu_info *raw = NULL;
	unsigned int i, n;
	int rc;

	ctx->loaded = false;
	/* Count, then fill; retry if CPUs appeared in between. */
	rc = pks_get_info(ctx, &ctx->info, NULL, 0);
	while (!rc) {
		n = ctx->info.nr_cpus;
		free(raw);
		raw = calloc(n ? n : 1, sizeof(*raw));
		if (!raw)
			return -ENOMEM;
		rc = pks_get_info(ctx, &ctx->info, raw, n);
		if (!rc && ctx->info.nr_cpus <= n)
			break;
	}
	if (rc) {
		free(raw);
		return rc;
	}
	n = ctx->info.nr_cpus;
	free(ctx->cpus);
	ctx->cpus = calloc(n ? n : 1, sizeof(*ctx->cpus));
	if (!ctx->cpus) {
		free(raw);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		ctx->cpus[i].ctx = ctx;
		ctx->cpus[i].info = raw[i];
	}
	free(raw);
	ctx->nr_cpus = n;
	for (i = 0; i < PKS_NR_KEYS; i++) {
		ctx->keys[i].ctx = ctx;
		ctx->keys[i].info = ctx->info.keys[i];
		ctx->keys[i].info.owner[PKS_OWNER_LEN - 1] = '\0';
	}
	memset(&ctx->grants, 0, sizeof(ctx->grants));
	ctx->grants.size = sizeof(ctx->grants);
	rc = pks_call(ctx, PKS_IOC_GRANTS, &ctx->grants);
	if (rc)
		return rc;
	n = ctx->grants.nr_rules;
	ctx->nr_rules = n < PKS_RULE_MAX ? n : PKS_RULE_MAX;
	for (i = 0; i < ctx->nr_rules; i++) {
		ctx->rules[i].ctx = ctx;
		ctx->rules[i].info = ctx->grants.rules[i];
		ctx->rules[i].info.name[PKS_NAME_LEN - 1] = '\0';
	}
	memset(&ctx->acct, 0, sizeof(ctx->acct));
	ctx->acct.size = sizeof(ctx->acct);
	rc = pks_call(ctx, PKS_IOC_ACCOUNTING, &ctx->acct);
	if (rc)
		return rc;
	rc = pks_read_holders(ctx);
	if (rc)
		return rc;
	ctx->loaded = true;
	return 0;
}

/* Who has the device open: count, then fill, until the count holds. */
static int pks_read_holders(struct pks_ctx *ctx)
{
	struct pks_holders req = { .size = sizeof(req) };
	struct pks_holder *holders = NULL;
	unsigned int room = 0, i;
	int rc;

	for (;;) {
		req.nr = room;
		req.holders = (uintptr_t)holders;
		rc = pks_call(ctx, PKS_IOC_HOLDERS, &req);
		if (rc || req.nr <= room)
			break;
		room = req.nr + 4;
		free(holders);
		holders = calloc(room, sizeof(*holders));
		if (!holders)
			return -ENOMEM;
	}
	if (rc) {
		free(holders);
		return rc;
	}
	for (i = 0; i < req.nr; i++)
		holders[i].comm[PKS_COMM_LEN - 1] = '\0';
	free(ctx->holders);
	ctx->holders = holders;
	ctx->nr_holders = req.nr;
	return 0;
}

unsigned int pks_get_nr_counts(struct pks_ctx *ctx)
{
	if (!ctx->loaded)
		return 0;
	return ctx->acct.nr < PKS_ACCT_NR ? ctx->acct.nr : PKS_ACCT_NR;
}

const char *pks_count_get_name(struct pks_ctx *ctx, unsigned int i)
{
#define ___PKS_A(id, name) name
	static const char *const names[] = PKS_ACCT_KINDS;
#undef ___PKS_A

	return i < pks_get_nr_counts(ctx) ? names[i] : NULL;
}

uint64_t pks_count_get_value(struct pks_ctx *ctx, unsigned int i)
{
	return i < pks_get_nr_counts(ctx) ? ctx->acct.counts[i] : 0;
}

bool pks_driver_is_read_only(struct pks_ctx *ctx)
{
	return ctx->read_only;
}

unsigned int pks_get_nr_holders(struct pks_ctx *ctx)
{
	return ctx->loaded ? ctx->nr_holders : 0;
}

unsigned int pks_holder_get_pid(struct pks_ctx *ctx, unsigned int i)
{
	return i < pks_get_nr_holders(ctx) ? ctx->holders[i].pid : 0;
}

const char *pks_holder_get_comm(struct pks_ctx *ctx, unsigned int i)
{
	return i < pks_get_nr_holders(ctx) ? ctx->holders[i].comm : NULL;
}

bool pks_grants_armed(struct pks_ctx *ctx)
{
	return ctx->grants.flags & PKS_GRANTS_F_ARMED;
}

bool pks_grants_have_counts(struct pks_ctx *ctx)
{
	return ctx->grants.flags & PKS_GRANTS_F_COUNTS;
}

unsigned int pks_get_tasks_granted(struct pks_ctx *ctx)
{
	return ctx->grants.tasks_granted;
}

uint64_t pks_get_fault_probe_hits(struct pks_ctx *ctx)
{
	return ctx->grants.fault_probe_hits;
}

uint64_t pks_get_refills(struct pks_ctx *ctx)
{
	return ctx->grants.refills;
}

uint64_t pks_get_spurious(struct pks_ctx *ctx)
{
	return ctx->grants.spurious;
}

uint64_t pks_get_boundary_writes(struct pks_ctx *ctx)
{
	return ctx->grants.boundary_writes;
}

unsigned int pks_get_boundary_hooks(struct pks_ctx *ctx)
{
	return ctx->grants.boundary_hooks;
}

struct pks_rule *pks_rule_get_first(struct pks_ctx *ctx)
{
	return ctx->loaded && ctx->nr_rules ? &ctx->rules[0] : NULL;
}

struct pks_rule *pks_rule_get_next(struct pks_rule *rule)
{
	struct pks_ctx *ctx = rule->ctx;

	return rule + 1 < ctx->rules + ctx->nr_rules ? rule + 1 : NULL;
}

const char *pks_rule_get_name(struct pks_rule *rule)
{
	return rule->info.name;
}

uint64_t pks_rule_get_task(struct pks_rule *rule)
{
	return rule->info.task;
}

uint64_t pks_rule_get_softirq(struct pks_rule *rule)
{
	return rule->info.softirq;
}

uint64_t pks_rule_get_hardirq(struct pks_rule *rule)
{
	return rule->info.hardirq;
}

uint64_t pks_rule_get_stepped(struct pks_rule *rule)
{
	return rule->info.stepped;
}

unsigned int pks_get_abi_version(struct pks_ctx *ctx)
{
	return ctx->driver_abi;
}

uint32_t pks_get_default_pkrs(struct pks_ctx *ctx)
{
	return ctx->info.default_pkrs;
}

bool pks_fault_hook_active(struct pks_ctx *ctx)
{
	return ctx->info.flags & PKS_INFO_F_FAULT_HOOK;
}

bool pks_fault_log_active(struct pks_ctx *ctx)
{
	return ctx->info.flags & PKS_INFO_F_FAULT_LOG;
}

struct pks_key *pks_key_get_first(struct pks_ctx *ctx)
{
	return ctx->loaded ? &ctx->keys[0] : NULL;
}

struct pks_key *pks_key_get_next(struct pks_key *key)
{
	struct pks_ctx *ctx = key->ctx;

	return key + 1 < ctx->keys + PKS_NR_KEYS ? key + 1 : NULL;
}

unsigned int pks_key_get_id(struct pks_key *key)
{
	return key->info.key;
}

const char *pks_key_get_owner(struct pks_key *key)
{
	return key->info.owner;
}

bool pks_key_is_allocated(struct pks_key *key)
{
	return key->info.flags & PKS_KEY_F_ALLOCATED;
}

bool pks_key_is_reserved(struct pks_key *key)
{
	return key->info.flags & PKS_KEY_F_RESERVED;
}

struct pks_cpu *pks_cpu_get_first(struct pks_ctx *ctx)
{
	return ctx->loaded && ctx->nr_cpus ? &ctx->cpus[0] : NULL;
}

struct pks_cpu *pks_cpu_get_next(struct pks_cpu *cpu)
{
	struct pks_ctx *ctx = cpu->ctx;

	return cpu + 1 < ctx->cpus + ctx->nr_cpus ? cpu + 1 : NULL;
}

unsigned int pks_cpu_get_id(struct pks_cpu *cpu)
{
	return cpu->info.cpu;
}

bool pks_cpu_is_online(struct pks_cpu *cpu)
{
	return cpu->info.flags & PKS_CPU_F_ONLINE;
}

bool pks_cpu_get_cr4_pks(struct pks_cpu *cpu)
{
	return cpu->info.flags & PKS_CPU_F_CR4_PKS;
}

bool pks_cpu_is_live(struct pks_cpu *cpu)
{
	return cpu->info.flags & PKS_CPU_F_LIVE;
}

uint32_t pks_cpu_get_pkrs(struct pks_cpu *cpu)
{
	return cpu->info.pkrs;
}

uint32_t pks_cpu_get_pkrs_cached(struct pks_cpu *cpu)
{
	return cpu->info.pkrs_cached;
}

uint64_t pks_cpu_get_pkrs_writes(struct pks_cpu *cpu)
{
	return cpu->info.pkrs_writes;
}

uint64_t pks_cpu_get_pkrs_skipped(struct pks_cpu *cpu)
{
	return cpu->info.pkrs_skipped;
}

#define ___PKS_T(id, name, flags) { name, flags }
static const struct {
	const char *name;
	uint32_t flags;
} pks_tests[] = PKS_TEST_CASES;
#undef ___PKS_T

int pks_test_lookup(const char *name)
{
	unsigned int id;

	for (id = 0; id < PKS_TEST_NR; id++)
		if (!strcmp(pks_tests[id].name, name))
			return id;
	return -ENOENT;
}

const char *pks_test_get_name(unsigned int id)
{
	return id < PKS_TEST_NR ? pks_tests[id].name : NULL;
}

uint32_t pks_test_get_flags(unsigned int id)
{
	return id < PKS_TEST_NR ? pks_tests[id].flags : 0;
}

/* Map a devdax namespace's device, to show the driver what it maps. */
static int pks_ns_map(struct pks_ns *ns, struct pks_range *range, int *fd)
{
	char path[80];
	void *addr;

	snprintf(path, sizeof(path), "/dev/%s", ns->chardev);
	*fd = open(path, O_RDWR | O_CLOEXEC);
	if (*fd < 0)
		return -errno;
	addr = mmap(NULL, ns->range_size, PROT_READ, MAP_SHARED, *fd, 0);
	if (addr == MAP_FAILED) {
		int rc = -errno;

		close(*fd);
		return rc;
	}
	range->addr = (uintptr_t)addr;
	range->start = ns->resource;
	range->len = ns->range_size;
	return 0;
}

static void pks_ns_unmap(struct pks_range *range, int fd)
{
	munmap((void *)(uintptr_t)range->addr, range->len);
	close(fd);
}

int pks_test_run(struct pks_ctx *ctx, unsigned int id, struct pks_ns *ns,
		 unsigned int *result, char *message, size_t len)
{
	struct pks_test_run run = {
		.size = sizeof(run),
		.test = id,
	};
	int fd = -1, rc = 0;

	if (ctx->open_err)
		return ctx->open_err;
	if (ns && pks_ns_is_devdax(ns)) {
		rc = pks_ns_map(ns, &run.range, &fd);
		if (rc)
			return rc;
	}
	rc = pks_test_call(ctx, PKS_TEST_IOC_RUN, &run);
	if (fd >= 0)
		pks_ns_unmap(&run.range, fd);
	run.message[PKS_MESSAGE_LEN - 1] = '\0';
	if (message && len)
		snprintf(message, len, "%s", run.message);
	if (!rc)
		*result = run.result;
	pks_log(ctx, LOG_DEBUG, "test %u: rc %d result %u %s\n", id, rc,
		run.result, run.message);
	return rc;
}

static const char *pks_ns_mode_name(struct ndctl_namespace *ndns)
{
	switch (ndctl_namespace_get_mode(ndns)) {
	case NDCTL_NS_MODE_DEVDAX:
		return "devdax";
	case NDCTL_NS_MODE_FSDAX:
		return "fsdax";
	case NDCTL_NS_MODE_SECTOR:
		return "sector";
	case NDCTL_NS_MODE_RAW:
		return "raw";
	default:
		return "unknown";
	}
}

/*
 * The namespace's identity for a record that outlives its name: the UUID
 * 'ndctl list -N' shows, the one of its personality's info block (dax,
 * pfn or btt) when it has one, else the label's. It survives disable and
 * enable, reboots and renumbering; re-creating or reconfiguring the
 * namespace gives it a new one.
 */
static void pks_ns_read_uuid(struct pks_ns *ns, struct ndctl_namespace *ndns,
			     struct ndctl_dax *dax)
{
	struct ndctl_pfn *pfn = ndctl_namespace_get_pfn(ndns);
	struct ndctl_btt *btt = ndctl_namespace_get_btt(ndns);
	uuid_t uu;

	if (dax)
		ndctl_dax_get_uuid(dax, uu);
	else if (pfn)
		ndctl_pfn_get_uuid(pfn, uu);
	else if (btt)
		ndctl_btt_get_uuid(btt, uu);
	else
		ndctl_namespace_get_uuid(ndns, uu);
	if (!uuid_is_null(uu))
		uuid_unparse_lower(uu, ns->uuid);
}

/* Returns 0 or -ENOMEM: a namespace is never dropped silently. */
static int pks_ns_add(struct pks_ctx *ctx, struct ndctl_namespace *ndns,
		      const struct pks_backing *backing)
{
	struct daxctl_region *region;
	struct daxctl_dev *dev;
	struct ndctl_dax *dax;
	struct ndctl_pfn *pfn;
	struct pks_ns *ns, **tail;

	ns = calloc(1, sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	ns->ctx = ctx;
	ns->key = -1;
	ns->prot_mode = -1;
	snprintf(ns->name, sizeof(ns->name), "%s",
		 ndctl_namespace_get_devname(ndns));
	snprintf(ns->region, sizeof(ns->region), "%s",
		 ndctl_region_get_devname(ndctl_namespace_get_region(ndns)));
	ns->backing = *backing;
	ns->mode = pks_ns_mode_name(ndns);
	ns->size = ndctl_namespace_get_size(ndns);
	ns->resource = ndctl_namespace_get_resource(ndns);
	ns->range_size = ns->size;
	dax = ndctl_namespace_get_dax(ndns);
	if (dax && ndctl_dax_get_size(dax))
		ns->size = ndctl_dax_get_size(dax);
	region = dax ? ndctl_dax_get_daxctl_region(dax) : NULL;
	if (region) {
		daxctl_dev_foreach(region, dev) {
			if (!daxctl_dev_get_size(dev))
				continue;
			ns->resource = daxctl_dev_get_resource(dev);
			ns->range_size = daxctl_dev_get_size(dev);
			/*
			 * Reconfigured to system-ram (kmem): hotplugged
			 * memory, no dax device, nothing to protect.
			 */
			if (daxctl_dev_get_memory(dev)) {
				ns->mode = "system-ram";
				break;
			}
			snprintf(ns->chardev, sizeof(ns->chardev), "%s",
				 daxctl_dev_get_devname(dev));
			break;
		}
	}
	pks_ns_read_uuid(ns, ndns, dax);
	pfn = ndctl_namespace_get_pfn(ndns);
	if (pfn && ndctl_pfn_get_size(pfn))
		ns->size = ndctl_pfn_get_size(pfn);
	if (pfn && ndctl_pfn_get_block_device(pfn))
		snprintf(ns->blockdev, sizeof(ns->blockdev), "%s",
			 ndctl_pfn_get_block_device(pfn));
	for (tail = &ctx->namespaces; *tail; tail = &(*tail)->next)
		;
	*tail = ns;
	return 0;
}

/* Read protected ranges and mark the namespaces they belong to. */
static int pks_ns_read_keys(struct pks_ctx *ctx)
{
	struct pks_range_info ranges[PKS_NR_KEYS];
	struct pks_list list = {
		.size = sizeof(list),
		.nr = PKS_NR_KEYS,
		.ranges = (uintptr_t)ranges,
	};
	struct pks_ns *ns;
	unsigned int i;

	int rc;

	/* Without the driver, every namespace is simply unprotected. */
	if (ctx->open_err == -ENOENT)
		return 0;
	rc = pks_call(ctx, PKS_IOC_LIST, &list);
	if (rc)
		return rc;
	pks_ns_foreach(ctx, ns) {
		ns->key = -1;
		ns->prot_mode = -1;
		ns->faults = 0;
		for (i = 0; i < list.nr && i < PKS_NR_KEYS; i++) {
			ranges[i].name[PKS_NAME_LEN - 1] = '\0';
			/* fsdax: the driver found the data area itself. */
			if (*ns->blockdev &&
			    !strcmp(ranges[i].name, ns->blockdev)) {
				ns->resource = ranges[i].start;
				ns->range_size = ranges[i].len;
			}
			/*
			 * By name: the driver shows the start only to root,
			 * and sysfs the namespace's resource likewise.
			 */
			if (strcmp(ranges[i].name, *ns->chardev ?
				   ns->chardev : ns->blockdev))
				continue;
			ns->key = ranges[i].key;
			ns->prot_mode = ranges[i].mode;
			ns->faults = ranges[i].faults;
		}
	}
	return 0;
}

static unsigned int pks_ns_count(struct pks_ctx *ctx)
{
	struct pks_ns *ns;
	unsigned int n = 0;

	for (ns = ctx->namespaces; ns; ns = ns->next)
		n++;
	return n;
}

/*
 * The CXL root an nvdimm bus of provider "CXL" belongs to, into @root:
 * cxl_pmem registers one bus per CXL root, under the root's nvdimm
 * bridge (.../root0/nvdimm-bridge0/ndbus0). False when the bus is not
 * laid out so.
 */
static bool pks_cxl_bus_root(struct ndctl_bus *bus, char *root, size_t len)
{
	char path[PATH_MAX], *real, *slash, *bridge;
	bool ok = false;

	snprintf(path, sizeof(path), "/sys/bus/nd/devices/%s",
		 ndctl_bus_get_devname(bus));
	real = realpath(path, NULL);
	if (!real)
		return false;
	slash = strrchr(real, '/');		/* /ndbusN */
	if (slash) {
		*slash = '\0';
		bridge = strrchr(real, '/');	/* /nvdimm-bridgeN */
		if (bridge && !strncmp(bridge + 1, "nvdimm-bridge", 13)) {
			*bridge = '\0';
			slash = strrchr(real, '/');	/* /rootN */
			if (slash) {
				snprintf(root, len, "%s", slash + 1);
				ok = true;
			}
		}
	}
	free(real);
	return ok;
}

/*
 * Whether CXL region @creg is enabled as persistent memory: cxl_pmem then
 * gives it a pmem_regionN child, under which it registers the nvdimm
 * region.
 */
static bool pks_cxl_region_is_pmem(struct cxl_region *creg)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/bus/cxl/devices/%s/pmem_region%d",
		 cxl_region_get_devname(creg), cxl_region_get_id(creg));
	return !access(path, F_OK);
}

/* @creg's memdevs in interleave position order, into @backing. */
static void pks_cxl_read_memdevs(struct pks_backing *backing,
				 struct cxl_region *creg)
{
	const char *by_pos[PKS_CXL_MAX_MEMDEVS] = { NULL };
	struct cxl_memdev_mapping *mapping;
	struct cxl_decoder *decoder;
	struct cxl_memdev *memdev;
	unsigned int pos, n = 0;

	cxl_mapping_foreach(creg, mapping) {
		pos = cxl_mapping_get_position(mapping);
		decoder = cxl_mapping_get_decoder(mapping);
		memdev = decoder ? cxl_decoder_get_memdev(decoder) : NULL;
		if (pos < PKS_CXL_MAX_MEMDEVS && memdev)
			by_pos[pos] = cxl_memdev_get_devname(memdev);
	}
	for (pos = 0; pos < PKS_CXL_MAX_MEMDEVS; pos++)
		if (by_pos[pos])
			snprintf(backing->cxl_memdevs[n++],
				 sizeof(backing->cxl_memdevs[0]), "%s",
				 by_pos[pos]);
	backing->nr_cxl_memdevs = n;
}

/*
 * The CXL region behind nvdimm region @region of a "CXL" bus. sysfs links
 * neither to the other (pmem_regionN has no link to the nvdimm region,
 * the nvdimm's "cxl" attributes are absent on 6.1), but both cover the
 * same host physical range: a candidate is an enabled pmem region under
 * the bus's CXL root with the region's size, and the match is by start
 * where the nvdimm region's start is readable (root only). Without it, a
 * lone candidate is taken and several (regions of one size under one
 * root) leave the CXL region unknown rather than guessed.
 */
static void pks_cxl_lookup(struct pks_ctx *ctx, struct cxl_ctx *cctx,
			   struct ndctl_bus *bus, struct ndctl_region *region,
			   struct pks_backing *backing)
{
	unsigned long long start = ndctl_region_get_resource(region);
	unsigned long long size = ndctl_region_get_size(region);
	struct cxl_region *creg, *found = NULL;
	struct cxl_decoder *decoder;
	struct cxl_bus *cbus;
	unsigned int n = 0;
	char root[64];

	if (!pks_cxl_bus_root(bus, root, sizeof(root)))
		return;
	cxl_bus_foreach(cctx, cbus) {
		if (strcmp(cxl_bus_get_devname(cbus), root))
			continue;
		cxl_decoder_foreach(cxl_bus_get_port(cbus), decoder)
			cxl_region_foreach(decoder, creg) {
				if (cxl_region_get_size(creg) != size ||
				    !pks_cxl_region_is_pmem(creg))
					continue;
				if (start != ULLONG_MAX &&
				    cxl_region_get_resource(creg) != start)
					continue;
				found = creg;
				n++;
			}
	}
	pks_log(ctx, LOG_DEBUG, "%s: %u CXL region(s) under %s match\n",
		ndctl_region_get_devname(region), n, root);
	if (n != 1)
		return;
	snprintf(backing->cxl_region, sizeof(backing->cxl_region), "%s",
		 cxl_region_get_devname(found));
	pks_cxl_read_memdevs(backing, found);
}

/*
 * What backs @region, into @backing. A libcxl context is made at the
 * first region of a CXL bus, into *@cctx, for the caller to release.
 */
static int pks_read_backing(struct pks_ctx *ctx, struct cxl_ctx **cctx,
			    struct ndctl_bus *bus, struct ndctl_region *region,
			    struct pks_backing *backing)
{
	const char *provider = ndctl_bus_get_provider(bus);
	int rc;

	memset(backing, 0, sizeof(*backing));
	snprintf(backing->provider, sizeof(backing->provider), "%s",
		 provider ? provider : "");
	if (!provider || strcmp(provider, "CXL"))
		return 0;
	if (!*cctx) {
		rc = cxl_new(cctx);
		if (rc) {
			*cctx = NULL;
			return rc < 0 ? rc : -ENOMEM;
		}
	}
	pks_cxl_lookup(ctx, *cctx, bus, region, backing);
	return 0;
}

/*
 * Every scan starts afresh, from a new libndctl context (whose own
 * sysfs cache would hide namespaces created or destroyed since), and a
 * new libcxl one where a region is on CXL.
 */
int pks_ns_scan(struct pks_ctx *ctx)
{
	struct cxl_ctx *cctx = NULL;
	struct pks_backing backing;
	struct ndctl_ctx *nctx;
	struct ndctl_bus *bus;
	struct ndctl_region *region;
	struct ndctl_namespace *ndns;
	int rc;

	pks_ns_free_all(ctx);
	rc = ndctl_new(&nctx);
	if (rc)
		return rc < 0 ? rc : -ENOMEM;
	ndctl_bus_foreach(nctx, bus)
		ndctl_region_foreach(bus, region) {
			rc = pks_read_backing(ctx, &cctx, bus, region, &backing);
			if (rc)
				goto out;
			ndctl_namespace_foreach(region, ndns) {
				if (!ndctl_namespace_get_size(ndns))
					continue;
				rc = pks_ns_add(ctx, ndns, &backing);
				if (rc)
					goto out;
			}
		}
out:
	if (cctx)
		cxl_unref(cctx);
	ndctl_unref(nctx);
	if (rc) {
		pks_ns_free_all(ctx);
		return rc;
	}
	rc = pks_ns_read_keys(ctx);
	if (rc)
		pks_ns_free_all(ctx);
	pks_log(ctx, LOG_DEBUG, "scan: %u namespaces: %s\n",
		pks_ns_count(ctx), strerror(-rc));
	return rc;
}

struct pks_ns *pks_ns_get_first(struct pks_ctx *ctx)
{
	return ctx->namespaces;
}

struct pks_ns *pks_ns_get_next(struct pks_ns *ns)
{
	return ns->next;
}

/*
 * "/dev/" is dropped from any name, so that a device path and the device's
 * name are one. A device the namespace lacks ("") matches nothing.
 */
bool pks_ns_name_matches(const char *ident, const char *name,
			 const char *chardev, const char *blockdev)
{
	if (!strncmp(ident, "/dev/", 5))
		ident += 5;
	return !strcmp(name, ident) ||
	       (*chardev && !strcmp(chardev, ident)) ||
	       (*blockdev && !strcmp(blockdev, ident));
}

struct pks_ns *pks_ns_find(struct pks_ctx *ctx, const char *ident)
{
	struct pks_ns *ns;

	pks_ns_foreach(ctx, ns)
		if (pks_ns_name_matches(ident, ns->name, ns->chardev,
					ns->blockdev))
			return ns;
	/* The UUID ndctl list -N shows, which survives reboots. */
	return pks_ns_find_by_uuid(ctx, ident);
}

const char *pks_ns_get_name(struct pks_ns *ns)
{
	return ns->name;
}

const char *pks_ns_get_uuid(struct pks_ns *ns)
{
	return *ns->uuid ? ns->uuid : NULL;
}

struct pks_ns *pks_ns_find_by_uuid(struct pks_ctx *ctx, const char *uuid)
{
	struct pks_ns *ns;

	pks_ns_foreach(ctx, ns)
		if (*ns->uuid && !strcasecmp(ns->uuid, uuid))
			return ns;
	return NULL;
}

const char *pks_ns_get_mode(struct pks_ns *ns)
{
	return ns->mode;
}

const char *pks_ns_get_region(struct pks_ns *ns)
{
	return ns->region;
}

const char *pks_ns_get_provider(struct pks_ns *ns)
{
	return *ns->backing.provider ? ns->backing.provider : NULL;
}

const char *pks_ns_get_cxl_region(struct pks_ns *ns)
{
	return *ns->backing.cxl_region ? ns->backing.cxl_region : NULL;
}

const char *pks_ns_get_cxl_memdev(struct pks_ns *ns, unsigned int i)
{
	return i < ns->backing.nr_cxl_memdevs ? ns->backing.cxl_memdevs[i] :
						NULL;
}

bool pks_ns_is_devdax(struct pks_ns *ns)
{
	return *ns->chardev;
}

const char *pks_ns_get_blockdev(struct pks_ns *ns)
{
	return *ns->blockdev ? ns->blockdev : NULL;
}

bool pks_ns_can_protect(struct pks_ns *ns)
{
	return *ns->chardev || *ns->blockdev;
}

const char *pks_ns_get_device(struct pks_ns *ns)
{
	return *ns->chardev ? ns->chardev :
	       *ns->blockdev ? ns->blockdev : NULL;
}

const char *pks_ns_get_chardev(struct pks_ns *ns)
{
	return *ns->chardev ? ns->chardev : NULL;
}

uint64_t pks_ns_get_size(struct pks_ns *ns)
{
	return ns->size;
}

uint64_t pks_ns_get_resource(struct pks_ns *ns)
{
	return ns->resource;
}

uint64_t pks_ns_get_range_size(struct pks_ns *ns)
{
	return ns->range_size;
}

bool pks_ns_is_protected(struct pks_ns *ns)
{
	return ns->key >= 0;
}

int pks_ns_get_key(struct pks_ns *ns)
{
	return ns->key >= 0 ? ns->key : -ENOENT;
}

int pks_range_protect(struct pks_ctx *ctx, const struct pks_range *range,
		      uint32_t flags, int *key, char *why, size_t len)
{
	struct pks_protect prot = {
		.size = sizeof(prot),
		.flags = flags,
		.range = *range,
	};
	int rc = pks_call(ctx, PKS_IOC_PROTECT, &prot);

	prot.message[PKS_MESSAGE_LEN - 1] = '\0';
	if (why && len)
		snprintf(why, len, "%s", prot.message);
	if (!rc && key)
		*key = prot.key;
	return rc;
}

/* fsdax: the driver finds the data area from the block device itself. */
static int pks_ns_protect_blockdev(struct pks_ns *ns, enum pks_mode mode,
				   char *why, size_t len)
{
	struct pks_protect prot = {
		.size = sizeof(prot),
		.flags = PKS_PROTECT_F_BLOCKDEV |
			 (mode == PKS_MODE_RELAXED ? PKS_PROTECT_F_RELAXED : 0),
	};
	char path[128];
	struct dirent *de;
	DIR *holders;
	int fd, rc;

	/*
	 * A device-mapper target on the device (dm-writecache) reaches the
	 * memory through its own DAX mapping, in kernel threads no grant
	 * covers: refuse rather than let it fault.
	 */
	snprintf(path, sizeof(path), "/sys/block/%s/holders", ns->blockdev);
	holders = opendir(path);
	while (holders && (de = readdir(holders))) {
		if (de->d_name[0] == '.')
			continue;
		if (why && len)
			snprintf(why, len,
				 "%s is in use by %s (a device-mapper target such as dm-writecache, which the driver cannot grant); remove it first",
				 ns->blockdev, de->d_name);
		closedir(holders);
		return -EBUSY;
	}
	if (holders)
		closedir(holders);
	snprintf(path, sizeof(path), "/dev/%s", ns->blockdev);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	prot.range.addr = fd;
	rc = pks_call(ns->ctx, PKS_IOC_PROTECT, &prot);
	close(fd);
	prot.message[PKS_MESSAGE_LEN - 1] = '\0';
	if (why && len)
		snprintf(why, len, "%s", prot.message);
	if (rc)
		return rc;
	ns->key = prot.key;
	ns->prot_mode = mode;
	ns->resource = prot.range.start;
	ns->range_size = prot.range.len;
	return 0;
}

int pks_ns_protect(struct pks_ns *ns, enum pks_mode mode, char *why,
		   size_t len)
{
	struct pks_range range;
	int fd, rc;

	if (why && len)
		*why = '\0';
	if (*ns->blockdev)
		return pks_ns_protect_blockdev(ns, mode, why, len);
	if (!pks_ns_is_devdax(ns))
		return -EOPNOTSUPP;
	rc = pks_ns_map(ns, &range, &fd);
	if (rc)
		return rc;
	rc = pks_range_protect(ns->ctx, &range,
			       mode == PKS_MODE_RELAXED ? PKS_PROTECT_F_RELAXED : 0,
			       &ns->key, why, len);
	ns->prot_mode = rc ? -1 : (int)mode;
	if (rc)
		ns->key = -1;
	pks_ns_unmap(&range, fd);
	return rc;
}

int pks_ns_set_mode(struct pks_ns *ns, enum pks_mode mode)
{
	return pks_ns_set_protection_mode(ns, mode);
}

int pks_ns_set_protection_mode(struct pks_ns *ns, enum pks_mode mode)
{
	struct pks_set_mode set = {
		.size = sizeof(set),
		.mode = mode,
		.start = ns->resource,
	};

	int rc = pks_call(ns->ctx, PKS_IOC_SET_MODE, &set);

	if (rc)
		return rc;
	ns->prot_mode = mode;
	return 0;
}

int pks_ns_get_protection_mode(struct pks_ns *ns)
{
	return ns->key >= 0 ? ns->prot_mode : -ENOENT;
}

uint64_t pks_ns_get_faults(struct pks_ns *ns)
{
	return ns->faults;
}

static const char *const pks_mode_names[] = {
	[PKS_MODE_STRICT] = "strict",
	[PKS_MODE_RELAXED] = "relaxed",
};

const char *pks_mode_name(int mode)
{
	return mode == PKS_MODE_STRICT || mode == PKS_MODE_RELAXED ?
	       pks_mode_names[mode] : NULL;
}

int pks_mode_lookup(const char *name)
{
	if (!strcmp(name, "strict"))
		return PKS_MODE_STRICT;
	if (!strcmp(name, "relaxed"))
		return PKS_MODE_RELAXED;
	return -EINVAL;
}

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

/* The first fault record at @f or after it: events are not faults. */
static const struct pks_fault *pks_fault_skip_events(struct pks_ctx *ctx,
						     const struct pks_fault *f)
{
	for (; f < ctx->faults + ctx->nr_faults; f++)
		if (f->event == PKS_EVENT_FAULT)
			return f;
	return NULL;
}

const struct pks_fault *pks_fault_get_first(struct pks_ctx *ctx)
{
	return ctx->nr_faults ? pks_fault_skip_events(ctx, ctx->faults) : NULL;
}

const struct pks_fault *pks_fault_get_next(struct pks_ctx *ctx,
					   const struct pks_fault *f)
{
	return pks_fault_skip_events(ctx, f + 1);
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

int pks_ns_unprotect(struct pks_ns *ns)
{
	struct pks_unprotect unprot = {
		.size = sizeof(unprot),
		.start = ns->resource,
	};

	int rc = pks_call(ns->ctx, PKS_IOC_UNPROTECT, &unprot);

	if (rc)
		return rc;
	ns->key = -1;
	ns->prot_mode = -1;
	ns->faults = 0;
	return 0;
}

int pks_ns_copy(struct pks_ns *ns, uint64_t offset, void *buf, size_t len,
		uint32_t flags, uint64_t *done)
{
	struct pks_copy copy = {
		.size = sizeof(copy),
		.flags = flags,
		.start = ns->resource + offset,
		.len = len,
		.buf = (uintptr_t)buf,
	};
	int rc;

	/* No driver is the first thing to report, as for every other call. */
	if (ns->ctx->open_err)
		return ns->ctx->open_err;
	if (offset >= ns->range_size || len > ns->range_size - offset)
		return -ERANGE;
	if (flags & (PKS_COPY_F_UNGUARDED | PKS_COPY_F_PLAIN))
		rc = pks_test_call(ns->ctx, PKS_TEST_IOC_STRAY, &copy);
	else
		rc = pks_call(ns->ctx, PKS_IOC_COPY, &copy);
	if (done)
		*done = copy.done;
	return rc;
}

int pks_panic_on_warn(void)
{
	FILE *f = fopen("/proc/sys/kernel/panic_on_warn", "re");
	int val = 0, rc;

	if (!f)
		return -errno;
	rc = fscanf(f, "%d", &val) == 1 ? val != 0 : -EIO;
	fclose(f);
	return rc;
}
