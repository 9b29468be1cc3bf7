/* SPDX-License-Identifier: LGPL-2.1 */
#ifndef _LIBPKS_PRIVATE_H_
#define _LIBPKS_PRIVATE_H_

/*
 * libpks's private structs, and the functions its files share: one file
 * per object (ctx.c the context and its device, info.c the driver's
 * snapshot, namespace.c and cxl.c the namespaces and what backs them,
 * protect.c their protection, record.c the event log, test.c the test
 * module's device). libpks.sym leaves every function here local: they
 * are no part of the library's ABI.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <linux/pks.h>

#include "libpks.h"

/*
 * What libpks reads from the driver is ABI 7's meaning of the uapi
 * structs (grants judged by rule at fault time, not probed kernel paths):
 * a new PKS_ABI_VERSION is read through here before libpks builds with it.
 */
_Static_assert(PKS_ABI_VERSION == 7, "libpks speaks driver ABI 7");

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
	/*
	 * The dax device is bound to fsdev_dax (newer kernels: a dax device
	 * for a file system, with no character device to map): refused.
	 */
	int fsdev;
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

/* ctx.c */
void pks_log(struct pks_ctx *ctx, int priority, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* One ioctl on /dev/pks: 0, or why the device or the call failed. */
int pks_call(struct pks_ctx *ctx, unsigned long cmd, void *arg);
/* PKS_IOC_GET_INFO into @info, with room for @nr_cpus @cpus (may be 0). */
int pks_get_info(struct pks_ctx *ctx, struct pks_info *info,
		 struct pks_cpu_info *cpus, unsigned int nr_cpus);

/* The namespace list, freed by each scan and by the last pks_unref(). */
static inline void pks_ns_free_all(struct pks_ctx *ctx)
{
	while (ctx->namespaces) {
		struct pks_ns *next = ctx->namespaces->next;

		free(ctx->namespaces);
		ctx->namespaces = next;
	}
}

/* namespace.c */
/* Map a devdax namespace's device, to show the driver what it maps. */
int pks_ns_map(struct pks_ns *ns, struct pks_range *range, int *fd);
void pks_ns_unmap(struct pks_range *range, int fd);
/*
 * Whether @ident, a NAMESPACE argument (see man/namespace-arg.txt), names
 * the namespace called @name whose dax device is @chardev and block device
 * @blockdev, each "" when it has none. Needs no system: the fuzzers
 * (tests/fuzz) call it alone.
 */
bool pks_ns_name_matches(const char *ident, const char *name,
			 const char *chardev, const char *blockdev);

/* cxl.c */
struct cxl_ctx;
struct ndctl_bus;
struct ndctl_region;
int pks_read_backing(struct pks_ctx *ctx, struct cxl_ctx **cctx,
		     struct ndctl_bus *bus, struct ndctl_region *region,
		     struct pks_backing *backing);

/* test.c */
/* A stray access with no window (PKS_TEST_IOC_STRAY), on the test device. */
int pks_test_stray(struct pks_ctx *ctx, struct pks_copy *copy);

#endif /* _LIBPKS_PRIVATE_H_ */
