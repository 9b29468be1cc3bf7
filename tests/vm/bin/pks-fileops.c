// SPDX-License-Identifier: GPL-2.0
/*
 * pks-fileops: file operations on a DAX file system, each checked.
 *
 *   pks-fileops run DIR	write, read, O_DIRECT, copy_file_range,
 *				sendfile, fsync, mmap + msync, MAP_PRIVATE,
 *				MAP_SYNC, truncate, fallocate punch and zero,
 *				FICLONE (xfs), rename, unlink; then print
 *				"FILE HASH" lines for what is left
 *   pks-fileops hash DIR	print "FILE HASH" for the files in DIR
 *   pks-fileops phys FILE	print the device byte offset of FILE's
 *				first block (FIEMAP)
 *   pks-fileops pmem2 FILE	libpmem2 on a DAX file: map 4 MiB, store a
 *				pattern with pmem2 memcpy and persist, map
 *				again and check it
 *
 *   pks-fileops mapcow private|shared FILE N
 *				map FILE's first N pages and store one
 *				byte in each (a write fault per page that
 *				copies it: into an anonymous page, or out
 *				of a shared extent); the mapping holds the
 *				file's data around the bytes, and the file
 *				is unchanged (private) or holds the bytes
 *				(shared)
 *
 * PKS_FILEOPS_BIG_MIB (1 to 8; default 8) sizes the big file run writes
 * and moves by every path: smaller on CXL memory, which QEMU emulates
 * access by access.
 *
 * Exit 0 when every check held, 1 otherwise (the failing step is named).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libpmem2.h>
#include <linux/falloc.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "pks-env.h"

#ifndef MAP_SHARED_VALIDATE
#define MAP_SHARED_VALIDATE	0x03
#endif
#ifndef MAP_SYNC
#define MAP_SYNC		0x80000
#endif

static size_t big_len = 8UL << 20;	/* the big file */
#define CHUNK	(1UL << 20)

static char path_buf[4096];

static void __attribute__((noreturn)) fail(const char *step)
{
	fprintf(stderr, "pks-fileops: %s: %s\n", step, strerror(errno));
	exit(1);
}

static void check(int ok, const char *step)
{
	if (!ok) {
		fprintf(stderr, "pks-fileops: %s: wrong data\n", step);
		exit(1);
	}
	printf("ok: %s\n", step);
}

static const char *in(const char *dir, const char *name)
{
	snprintf(path_buf, sizeof(path_buf), "%s/%s", dir, name);
	return path_buf;
}

static void pattern(unsigned char *p, size_t len, unsigned int seed)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 1;
	size_t i;

	for (i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		p[i] = x;
	}
}

static uint64_t fnv(const unsigned char *p, size_t len, uint64_t h)
{
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

static void write_all(int fd, const void *p, size_t len, off_t off)
{
	if (pwrite(fd, p, len, off) != (ssize_t)len)
		fail("pwrite");
}

static void read_all(int fd, void *p, size_t len, off_t off)
{
	if (pread(fd, p, len, off) != (ssize_t)len)
		fail("pread");
}

static int do_hash(const char *dir)
{
	unsigned char *buf = malloc(CHUNK);
	struct dirent **names;
	int i, n;

	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0 || !buf)
		fail("scandir");
	for (i = 0; i < n; i++) {
		uint64_t h = 0xcbf29ce484222325ULL;
		ssize_t got;
		int fd;

		if (names[i]->d_type != DT_REG)
			continue;
		fd = open(in(dir, names[i]->d_name), O_RDONLY);
		if (fd < 0)
			fail(names[i]->d_name);
		while ((got = read(fd, buf, CHUNK)) > 0)
			h = fnv(buf, got, h);
		close(fd);
		printf("%s %016llx\n", names[i]->d_name, (unsigned long long)h);
	}
	return 0;
}

static int do_phys(const char *file)
{
	struct fiemap *fm = calloc(1, sizeof(*fm) +
				   sizeof(struct fiemap_extent));
	int fd = open(file, O_RDONLY);

	if (!fm || fd < 0)
		fail("FIEMAP");
	fm->fm_length = ~0ULL;
	fm->fm_flags = FIEMAP_FLAG_SYNC;
	fm->fm_extent_count = 1;
	if (ioctl(fd, FS_IOC_FIEMAP, fm) || !fm->fm_mapped_extents)
		fail("FIEMAP");
	printf("%llu\n", (unsigned long long)fm->fm_extents[0].fe_physical);
	free(fm);
	return 0;
}

static int do_run(const char *dir)
{
	unsigned char *big, *buf, *d;
	struct statfs sfs;
	int fd, fd2, fd3;
	off_t off;
	void *m;

	big_len = pks_env_mib("pks-fileops", "PKS_FILEOPS_BIG_MIB", 1, 8, 1,
			      big_len);
	big = malloc(big_len);
	buf = malloc(big_len);
	if (!big || !buf || posix_memalign((void **)&d, 4096, CHUNK))
		fail("malloc");
	pattern(big, big_len, 1);

	/* write(), then read() and unaligned pwrite()/pread(). */
	fd = open(in(dir, "big"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		fail("create big");
	write_all(fd, big, big_len, 0);
	read_all(fd, buf, big_len, 0);
	check(!memcmp(big, buf, big_len), "write then read the big file");
	memcpy(big + 4097, "unaligned bytes", 15);
	write_all(fd, big + 4097, 15, 4097);
	memcpy(big + big_len - 3, "end", 3);
	write_all(fd, big + big_len - 3, 3, big_len - 3);
	read_all(fd, buf, 4096 * 3, 0);
	check(!memcmp(big, buf, 4096 * 3), "unaligned pwrite and pread");
	if (fsync(fd) || fdatasync(fd))
		fail("fsync");
	printf("ok: fsync and fdatasync\n");

	/* O_DIRECT both ways. */
	fd2 = open(in(dir, "direct"), O_RDWR | O_CREAT | O_TRUNC | O_DIRECT,
		   0644);
	if (fd2 < 0)
		fail("create direct");
	memcpy(d, big, CHUNK);
	write_all(fd2, d, CHUNK, 0);
	memset(d, 0, CHUNK);
	read_all(fd2, d, CHUNK, 0);
	check(!memcmp(d, big, CHUNK), "O_DIRECT write and read");
	close(fd2);

	/* copy_file_range() and sendfile() from a DAX file. */
	fd2 = open(in(dir, "copy"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	off = 0;
	if (fd2 < 0 || copy_file_range(fd, &off, fd2, NULL, big_len, 0) !=
	    (ssize_t)big_len)
		fail("copy_file_range");
	read_all(fd2, buf, big_len, 0);
	check(!memcmp(big, buf, big_len), "copy_file_range");
	close(fd2);
	fd2 = open(in(dir, "sent"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	off = 0;
	if (fd2 < 0 || sendfile(fd2, fd, &off, big_len) != (ssize_t)big_len)
		fail("sendfile");
	read_all(fd2, buf, big_len, 0);
	check(!memcmp(big, buf, big_len), "sendfile");
	close(fd2);

	/* mmap: stores, msync, read back; MAP_PRIVATE stays private. */
	m = mmap(NULL, big_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		fail("mmap");
	check(!memcmp(m, big, big_len), "loads through mmap");
	pattern(big, CHUNK, 2);
	memcpy(m, big, CHUNK);
	if (msync(m, CHUNK, MS_SYNC))
		fail("msync");
	munmap(m, big_len);
	read_all(fd, buf, CHUNK, 0);
	check(!memcmp(big, buf, CHUNK), "stores through mmap and msync");
	m = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED)
		fail("mmap private");
	memset(m, 0x77, 4096);
	read_all(fd, buf, 4096, 0);
	check(((unsigned char *)m)[0] == 0x77 && !memcmp(big, buf, 4096),
	      "MAP_PRIVATE copy-on-write leaves the file alone");
	munmap(m, CHUNK);
	m = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE,
		 MAP_SHARED_VALIDATE | MAP_SYNC, fd, 0);
	/* Both file systems take MAP_SYNC under DAX: a refusal is a failure. */
	if (m == MAP_FAILED)
		fail("mmap MAP_SYNC");
	memcpy(m, "map-sync", 8);
	munmap(m, CHUNK);
	read_all(fd, buf, 8, 0);
	check(!memcmp(buf, "map-sync", 8), "MAP_SYNC store");
	memcpy(big, "map-sync", 8);

	/* truncate, fallocate punch and zero. */
	fd3 = open(in(dir, "holes"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd3 < 0)
		fail("create holes");
	write_all(fd3, big, big_len, 0);
	if (ftruncate(fd3, big_len - 5000) || ftruncate(fd3, big_len))
		fail("ftruncate");
	read_all(fd3, buf, big_len, 0);
	memset(big + big_len - 5000, 0, 5000);
	check(!memcmp(big, buf, big_len), "truncate to an unaligned size and back");
	if (fallocate(fd3, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 10000,
		      70000))
		fail("FALLOC_FL_PUNCH_HOLE");
	memset(big + 10000, 0, 70000);
	if (fallocate(fd3, FALLOC_FL_ZERO_RANGE, 200000, 30000))
		fail("FALLOC_FL_ZERO_RANGE");
	memset(big + 200000, 0, 30000);
	read_all(fd3, buf, big_len, 0);
	check(!memcmp(big, buf, big_len), "punch hole and zero range");
	close(fd3);
	close(fd);

	/*
	 * Reflink: xfs (reflink=1 is mkfs.xfs's default) clones under DAX on
	 * every supported kernel; ext4 has no reflink, and only its
	 * EOPNOTSUPP is let pass.
	 */
	fd2 = open(in(dir, "clone"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	fd = open(in(dir, "big"), O_RDONLY);
	if (fd2 < 0 || fd < 0 || fstatfs(fd, &sfs))
		fail("open for FICLONE");
	if (ioctl(fd2, FICLONE, fd)) {
		if (sfs.f_type != EXT4_SUPER_MAGIC || errno != EOPNOTSUPP)
			fail("FICLONE");
		printf("ok: FICLONE: ext4 has no reflink (%s)\n",
		       strerror(errno));
		close(fd2);
		unlink(in(dir, "clone"));
	} else {
		read_all(fd2, buf, CHUNK, 0);
		read_all(fd, d, CHUNK, 0);
		check(!memcmp(buf, d, CHUNK), "FICLONE shares the data");
		memset(buf, 0x5c, 4096);
		write_all(fd2, buf, 4096, 0);
		read_all(fd, buf, 4096, 0);
		check(!memcmp(buf, d, 4096), "a write to the clone leaves the original");
		close(fd2);
	}
	close(fd);

	/* rename and unlink. */
	if (rename(in(dir, "sent"), "/tmp/.pks-x") == 0)
		fail("rename across file systems should fail");
	{
		char from[4096];

		snprintf(from, sizeof(from), "%s/sent", dir);
		if (rename(from, in(dir, "renamed")))
			fail("rename");
	}
	if (unlink(in(dir, "copy")))
		fail("unlink");
	printf("ok: rename and unlink\n");
	sync();
	return do_hash(dir);
}

static struct pmem2_map *pmem2_open(int fd, struct pmem2_config **cfg,
				     struct pmem2_source **src)
{
	struct pmem2_map *map;

	if (pmem2_source_from_fd(src, fd) || pmem2_config_new(cfg) ||
	    pmem2_config_set_required_store_granularity(*cfg,
							PMEM2_GRANULARITY_PAGE) ||
	    pmem2_map_new(&map, *cfg, *src)) {
		fprintf(stderr, "pks-fileops: libpmem2: %s\n", pmem2_errormsg());
		exit(1);
	}
	return map;
}

static void pmem2_close(struct pmem2_map *map, struct pmem2_config *cfg,
			struct pmem2_source *src)
{
	pmem2_map_delete(&map);
	pmem2_config_delete(&cfg);
	pmem2_source_delete(&src);
}

static int do_pmem2(const char *file)
{
	unsigned char *want = malloc(4 << 20);
	struct pmem2_config *cfg;
	struct pmem2_source *src;
	struct pmem2_map *map;
	int fd;

	fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (!want || fd < 0 || ftruncate(fd, 4 << 20))
		fail("pmem2 file");
	pattern(want, 4 << 20, 3);
	map = pmem2_open(fd, &cfg, &src);
	pmem2_get_memcpy_fn(map)(pmem2_map_get_address(map), want, 4 << 20, 0);
	pmem2_close(map, cfg, src);
	map = pmem2_open(fd, &cfg, &src);
	check(!memcmp(pmem2_map_get_address(map), want, 4 << 20),
	      "libpmem2 memcpy and persist on a DAX file");
	pmem2_close(map, cfg, src);
	close(fd);
	return 0;
}

static int do_mapcow(const char *how, const char *file, const char *pages)
{
	int shared = !strcmp(how, "shared");
	size_t n = strtoul(pages, NULL, 0), len = n * 4096, i;
	unsigned char *want = malloc(len), *after = malloc(len);
	unsigned char *m;
	int fd = open(file, shared ? O_RDWR : O_RDONLY);

	if ((!shared && strcmp(how, "private")) || !n || !want || !after ||
	    fd < 0)
		fail("mapcow: open the file");
	read_all(fd, want, len, 0);
	m = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 shared ? MAP_SHARED : MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED)
		fail("mapcow: mmap");
	/* A store first, so that the write fault is what copies the page. */
	for (i = 0; i < n; i++)
		m[i * 4096 + 1] = want[i * 4096 + 1] ^ 0xff;
	if (shared && msync(m, len, MS_SYNC))
		fail("mapcow: msync");
	for (i = 0; i < n; i++)
		want[i * 4096 + 1] ^= 0xff;
	check(!memcmp(m, want, len), "the mapping holds the file's data");
	read_all(fd, after, len, 0);
	if (!shared)
		for (i = 0; i < n; i++)
			want[i * 4096 + 1] ^= 0xff;
	check(!memcmp(after, want, len), shared ?
	      "the file holds the stores" : "the file is unchanged");
	munmap(m, len);
	close(fd);
	free(want);
	free(after);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "run"))
		return do_run(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "hash"))
		return do_hash(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "phys"))
		return do_phys(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "pmem2"))
		return do_pmem2(argv[2]);
	if (argc == 5 && !strcmp(argv[1], "mapcow"))
		return do_mapcow(argv[2], argv[3], argv[4]);
	fprintf(stderr,
		"usage: pks-fileops run|hash DIR | phys|pmem2 FILE |\n"
		"       mapcow private|shared FILE PAGES\n");
	return 2;
}
