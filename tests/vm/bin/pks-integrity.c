// SPDX-License-Identifier: GPL-2.0
/*
 * pks-integrity NAMESPACE [STRAYS]: the data-integrity proof.
 *
 * Maps the namespace's dax device with libpmem2 and fills it with a known
 * pattern (pmem2 memcpy + persist). Then, twice:
 *   protected: enable protection, drive STRAYS unguarded kernel writes at
 *	random offsets through PKS_TEST_IOC_STRAY (pks_test.ko); every one must be refused, the
 *	pattern must be intact, and user-space writes through the mapping
 *	must still work.
 *   control: protection off, the same stray writes; they must land and
 *	the corruption must be detected, which shows the check can fail.
 * Prints a summary line per phase; exits 0 when both phases came out as
 * required, 1 otherwise, 77 when the namespace is not there.
 */
#include <errno.h>
#include <fcntl.h>
#include <libpmem2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libpks.h"
#include <linux/pks_test.h>

#define SPAN (64ULL << 20)	/* bytes of the device the pattern covers */

static uint64_t pattern_at(uint64_t off)
{
	return (off * 0x9e3779b97f4a7c15ULL) ^ 0x5a5aa5a5c3c33c3cULL;
}

/* Words of the span that differ from the pattern. */
static uint64_t count_damage(const uint64_t *words)
{
	uint64_t i, bad = 0;

	for (i = 0; i < SPAN / 8; i++)
		bad += words[i] != pattern_at(i * 8);
	return bad;
}

static void fill(struct pmem2_map *map, uint64_t *words)
{
	pmem2_memcpy_fn memcpy_fn = pmem2_get_memcpy_fn(map);
	uint64_t chunk[512];
	uint64_t off, i;

	for (off = 0; off < SPAN; off += sizeof(chunk)) {
		for (i = 0; i < 512; i++)
			chunk[i] = pattern_at(off + i * 8);
		memcpy_fn((char *)words + off, chunk, sizeof(chunk), 0);
	}
}

/* STRAYS stray writes; returns how many the driver refused. */
static unsigned int strays(struct pks_ns *ns, unsigned int n, unsigned int seed)
{
	unsigned int i, refused = 0, errors = 0;
	uint64_t garbage = 0xdeaddeaddeaddeadULL, done;
	int rc;

	srand(seed);
	for (i = 0; i < n; i++) {
		uint64_t off = ((uint64_t)rand() * 4096 + rand()) % (SPAN / 8) * 8;

		rc = pks_ns_copy(ns, off, &garbage, 8,
				 PKS_COPY_F_WRITE | PKS_COPY_F_UNGUARDED, &done);
		if (rc == -EFAULT && done == 0)
			refused++;
		else if (rc && !errors++)
			fprintf(stderr, "stray write at %#llx: %s\n",
				(unsigned long long)off, strerror(-rc));
	}
	return refused;
}

int main(int argc, char **argv)
{
	unsigned int n = argc > 2 ? atoi(argv[2]) : 1000, refused;
	struct pmem2_config *cfg;
	struct pmem2_source *src;
	struct pmem2_map *map;
	struct pks_ctx *ctx;
	struct pks_ns *ns;
	uint64_t *words, damage, probe = 0, done;
	char path[80], why[256];
	int fd, rc, ok = 1;

	if (argc < 2 || pks_new(&ctx) || pks_ns_scan(ctx))
		return 77;
	ns = pks_ns_find(ctx, argv[1]);
	if (!ns || !pks_ns_is_devdax(ns) || pks_ns_get_range_size(ns) < SPAN)
		return 77;
	snprintf(path, sizeof(path), "/dev/%s", pks_ns_get_chardev(ns));
	fd = open(path, O_RDWR);
	if (fd < 0 || pmem2_source_from_fd(&src, fd) ||
	    pmem2_config_new(&cfg) ||
	    pmem2_config_set_required_store_granularity(cfg,
					PMEM2_GRANULARITY_PAGE) ||
	    pmem2_map_new(&map, cfg, src)) {
		fprintf(stderr, "pks-integrity: mapping %s: %s\n", path,
			pmem2_errormsg());
		return 1;
	}
	words = pmem2_map_get_address(map);
	fill(map, words);

	/* Protected phase. */
	if (pks_ns_is_protected(ns) || (rc = pks_ns_protect(ns, PKS_MODE_STRICT, why, sizeof(why)))) {
		fprintf(stderr, "pks-integrity: cannot protect %s: %s\n",
			argv[1], pks_ns_is_protected(ns) ? "already protected" : why);
		return 1;
	}
	refused = strays(ns, n, 1);
	damage = count_damage(words);
	/*
	 * User space keeps full access while protected (a fault would kill
	 * this program), and the kernel's sanctioned path sees its write.
	 */
	words[SPAN / 16] = ~pattern_at(SPAN / 2);
	pmem2_get_persist_fn(map)(&words[SPAN / 16], 8);
	rc = pks_ns_copy(ns, SPAN / 2, &probe, 8, 0, &done);
	ok &= !rc && probe == ~pattern_at(SPAN / 2);
	words[SPAN / 16] = pattern_at(SPAN / 2);
	pmem2_get_persist_fn(map)(&words[SPAN / 16], 8);
	printf("protected: %u of %u stray writes refused, %llu words damaged, user write %s, guarded read %s\n",
	       refused, n, (unsigned long long)damage,
	       ok ? "ok" : "FAILED", !rc && probe == ~pattern_at(SPAN / 2) ?
	       "ok" : "FAILED");
	ok &= refused == n && damage == 0;
	if (pks_ns_unprotect(ns)) {
		fprintf(stderr, "pks-integrity: cannot unprotect %s\n", argv[1]);
		return 1;
	}

	/* Control phase: the same strays without protection must corrupt. */
	refused = strays(ns, n, 1);
	damage = count_damage(words);
	printf("control: %u of %u stray writes refused, %llu words damaged\n",
	       refused, n, (unsigned long long)damage);
	ok &= refused == 0 && damage > 0;
	fill(map, words);

	pmem2_map_delete(&map);
	pmem2_config_delete(&cfg);
	pmem2_source_delete(&src);
	close(fd);
	pks_unref(ctx);
	printf("%s\n", ok ? "integrity: PASS" : "integrity: FAIL");
	return ok ? 0 : 1;
}
