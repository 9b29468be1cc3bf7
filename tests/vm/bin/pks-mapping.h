/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pks-mapping.h: what pks-zerocopy and pks-fuse share: a MAP_SHARED
 * mapping of part of a file or of a device-dax device, and the word
 * pattern they fill such a mapping with and check it against.
 */
#ifndef PKS_MAPPING_H
#define PKS_MAPPING_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* A device-dax mapping's alignment: the test VM's dax0.0 is 2 MiB aligned. */
#define PKS_DAX_ALIGN	(2UL << 20)
#define PKS_PAGE	4096UL

/**
 * struct pks_mapping - @len bytes of @path from @offset, mapped shared
 * @path: the file or device
 * @offset: where in it the bytes start
 * @len: how many bytes the test uses
 * @map_len: how many are mapped (@len rounded up to the alignment)
 * @p: the first byte
 * @dax: @path is a character device (device-dax)
 */
struct pks_mapping {
	const char *path;
	uint64_t offset;
	size_t len;
	size_t map_len;
	unsigned char *p;
	bool dax;
};

/*
 * pks_map: map @len bytes of @path from @offset, writable when @write.
 * A device-dax device needs @offset 2 MiB aligned and is mapped in 2 MiB
 * units; a regular file needs @offset page aligned and @offset + @len
 * within its size. Prints why and returns -1 when it cannot.
 */
static inline int pks_map(const char *prog, const char *path, uint64_t offset,
			  size_t len, bool write, struct pks_mapping *m)
{
	struct stat st;
	size_t align;
	int fd;

	memset(m, 0, sizeof(*m));
	m->path = path;
	m->offset = offset;
	m->len = len;
	fd = open(path, write ? O_RDWR : O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		return -1;
	}
	m->dax = S_ISCHR(st.st_mode);
	if (!m->dax && !S_ISREG(st.st_mode)) {
		fprintf(stderr, "%s: %s: neither a file nor a dax device\n",
			prog, path);
		return -1;
	}
	align = m->dax ? PKS_DAX_ALIGN : PKS_PAGE;
	if (!len || len % 8 || offset % align) {
		fprintf(stderr,
			"%s: %s: length %zu (a multiple of 8 wanted) or offset %#llx (aligned to %#zx wanted)\n",
			prog, path, len, (unsigned long long)offset, align);
		return -1;
	}
	if (!m->dax && (uint64_t)st.st_size < offset + len) {
		fprintf(stderr, "%s: %s: %lld bytes, %llu wanted\n", prog,
			path, (long long)st.st_size,
			(unsigned long long)(offset + len));
		return -1;
	}
	m->map_len = (len + align - 1) / align * align;
	m->p = mmap(NULL, m->map_len, PROT_READ | (write ? PROT_WRITE : 0),
		    MAP_SHARED, fd, (off_t)offset);
	if (m->p == MAP_FAILED) {
		fprintf(stderr, "%s: mmap %s: %s\n", prog, path,
			strerror(errno));
		return -1;
	}
	close(fd);
	return 0;
}

/* The pattern: word @i of the bytes that @seed fills. */
/* A number argument, with an optional K or M suffix; exit 1 on a bad one. */
static inline unsigned long long pks_number(const char *prog, const char *s,
					    const char *what)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (*end == 'K' || *end == 'k')
		v <<= 10, end++;
	else if (*end == 'M' || *end == 'm')
		v <<= 20, end++;
	if (errno || end == s || *end) {
		fprintf(stderr, "%s: bad %s '%s'\n", prog, what, s);
		exit(1);
	}
	return v;
}

static inline uint64_t pks_word(uint64_t seed, size_t i)
{
	return (seed ^ (i * 0x9e3779b97f4a7c15ULL)) * 0xff51afd7ed558ccdULL;
}

static inline void pks_fill(void *p, size_t len, uint64_t seed)
{
	uint64_t *w = p;
	size_t i;

	for (i = 0; i < len / 8; i++)
		w[i] = pks_word(seed, i);
}

/* How many of the words at @p differ from @seed's pattern. */
static inline size_t pks_mismatches(const void *p, size_t len, uint64_t seed)
{
	const uint64_t *w = p;
	size_t i, bad = 0;

	for (i = 0; i < len / 8; i++)
		bad += w[i] != pks_word(seed, i);
	return bad;
}

/*
 * pks_verify: the words at @p hold @seed's pattern, and (the control: a
 * check that cannot fail proves nothing) every one of them differs from
 * the pattern of a seed never written. Prints both counts; returns 0 when
 * both hold.
 */
static inline int pks_verify(const char *prog, const char *what, const void *p,
			     size_t len, uint64_t seed)
{
	size_t bad = pks_mismatches(p, len, seed);
	size_t ctl = pks_mismatches(p, len, seed ^ 0x5555);

	printf("%s: %s: %zu of %zu words wrong; control pattern: %zu wrong\n",
	       prog, what, bad, len / 8, ctl);
	return bad || ctl != len / 8;
}

/* FNV-1a, 64 bits: a checksum to print, so that runs can be compared. */
static inline uint64_t pks_fnv(const void *p, size_t len)
{
	const unsigned char *b = p;
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

#endif /* PKS_MAPPING_H */
