// SPDX-License-Identifier: LGPL-2.1
/*
 * libpks: protecting a namespace and the access path through a window.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "libpks-private.h"

/* The stray flags only: the stray itself is test.c's. */
#include <linux/pks_test.h>

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
	if (ns->fsdev) {
		/*
		 * fsdev_dax hands the memory to a file system (famfs) with no
		 * device to map, so the driver cannot check the range, and
		 * its accesses are no path the driver knows to grant.
		 */
		if (why && len)
			snprintf(why, len,
				 "%s is bound to fsdev_dax (memory for a file system, no device to map): not protectable; bind it to device_dax to protect it",
				 ns->chardev);
		return -EOPNOTSUPP;
	}
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
		rc = pks_test_stray(ns->ctx, &copy);
	else
		rc = pks_call(ns->ctx, PKS_IOC_COPY, &copy);
	if (done)
		*done = copy.done;
	return rc;
}
