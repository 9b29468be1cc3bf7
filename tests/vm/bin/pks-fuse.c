// SPDX-License-Identifier: GPL-2.0
/*
 * pks-fuse: O_DIRECT between a FUSE file and a buffer in a file or
 * device-dax mapping, checked for the right data both ways.
 *
 *   pks-fuse serve MOUNTPOINT SIZE SEED
 *   pks-fuse client FILE BUFPATH OFFSET LEN SEED [read|write]
 *
 * serve mounts a file system (libfuse3, foreground, one thread, mounted
 * with allow_other) holding one file, "data", of SIZE bytes that start as
 * SEED's word pattern and live in the daemon's memory: its read and write
 * handlers copy to and from the daemon's user space. Splicing is turned
 * off, so the daemon moves every request through read() and write() on
 * /dev/fuse. At unmount it prints how many reads and writes it served.
 *
 * client maps LEN bytes of BUFPATH from OFFSET shared and writable (a
 * file on an ext4 or xfs -o dax file system, OFFSET page aligned; or a
 * device-dax device, OFFSET 2 MiB aligned), opens FILE (the served
 * "data") with O_DIRECT and
 *   1. reads LEN bytes of it into the mapping (first filled with another
 *      pattern), which must then hold SEED's pattern;
 *   2. fills the mapping with the pattern of SEED + 1 and writes it to
 *      FILE from there, then reads FILE back into anonymous memory, which
 *      must hold that pattern.
 * ("read" or "write" does only the one step.)
 * O_DIRECT pins the mapping's pages (get_user_pages) and the FUSE kernel
 * side copies between them and the daemon's buffer in fuse_copy_page(),
 * with memcpy() in the daemon's write() (step 1) and read() (step 2) on
 * /dev/fuse: kernel accesses to the client's mapping made in another
 * task's system call.
 *
 * Exit 0 when every check held, 1 otherwise.
 */
#define FUSE_USE_VERSION 31

#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pks-mapping.h"

#define PROG	"pks-fuse"

static unsigned char *data;
static size_t data_len;
static unsigned long long reads, read_bytes, writes, write_bytes;

static unsigned long long number(const char *s, const char *what)
{
	return pks_number(PROG, s, what);
}

/* The daemon: one file, "/data", in memory. */

static void *fs_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	(void)cfg;
	/* Plain read() and write() on /dev/fuse: no pipes in between. */
	conn->want &= ~(FUSE_CAP_SPLICE_READ | FUSE_CAP_SPLICE_WRITE |
			FUSE_CAP_SPLICE_MOVE);
	return NULL;
}

static int fs_getattr(const char *path, struct stat *st,
		      struct fuse_file_info *fi)
{
	(void)fi;
	memset(st, 0, sizeof(*st));
	if (!strcmp(path, "/")) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
	} else if (!strcmp(path, "/data")) {
		st->st_mode = S_IFREG | 0666;
		st->st_nlink = 1;
		st->st_size = (off_t)data_len;
	} else {
		return -ENOENT;
	}
	return 0;
}

static int fs_readdir(const char *path, void *buf, fuse_fill_dir_t filler,
		      off_t off, struct fuse_file_info *fi,
		      enum fuse_readdir_flags flags)
{
	(void)off;
	(void)fi;
	(void)flags;
	if (strcmp(path, "/"))
		return -ENOENT;
	filler(buf, ".", NULL, 0, 0);
	filler(buf, "..", NULL, 0, 0);
	filler(buf, "data", NULL, 0, 0);
	return 0;
}

static int fs_open(const char *path, struct fuse_file_info *fi)
{
	(void)fi;
	return strcmp(path, "/data") ? -ENOENT : 0;
}

/* The part of [@off, @off + @size) inside the file. */
static size_t span(off_t off, size_t size)
{
	if (off < 0 || (size_t)off >= data_len)
		return 0;
	return size < data_len - (size_t)off ? size : data_len - (size_t)off;
}

static int fs_read(const char *path, char *buf, size_t size, off_t off,
		   struct fuse_file_info *fi)
{
	size_t n = span(off, size);

	(void)path;
	(void)fi;
	memcpy(buf, data + off, n);
	reads++;
	read_bytes += n;
	return (int)n;
}

static int fs_write(const char *path, const char *buf, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	size_t n = span(off, size);

	(void)path;
	(void)fi;
	if (n < size)
		return -EFBIG;
	memcpy(data + off, buf, n);
	writes++;
	write_bytes += n;
	return (int)n;
}

static const struct fuse_operations ops = {
	.init = fs_init,
	.getattr = fs_getattr,
	.readdir = fs_readdir,
	.open = fs_open,
	.read = fs_read,
	.write = fs_write,
};

static int serve(const char *prog, const char *mnt, size_t size, uint64_t seed)
{
	char *args[] = {
		(char *)prog, "-f", "-s", "-o",
		"allow_other,fsname=pks-fuse,subtype=pks", (char *)mnt, NULL,
	};
	int rc;

	if (!size || size % 8) {
		fprintf(stderr, "%s: size %zu: a multiple of 8 wanted\n", PROG,
			size);
		return 1;
	}
	data = malloc(size);
	if (!data) {
		perror(PROG);
		return 1;
	}
	data_len = size;
	pks_fill(data, size, seed);
	rc = fuse_main(6, args, &ops, NULL);
	printf("%s: served %llu reads (%llu bytes) and %llu writes (%llu bytes); exit %d\n",
	       PROG, reads, read_bytes, writes, write_bytes, rc);
	return rc;
}

/* The client. */

/* The whole of @len bytes at @off, or a message and -1. */
static int full_io(int fd, void *buf, size_t len, bool write, const char *what)
{
	size_t done = 0;
	ssize_t r;

	while (done < len) {
		if (write)
			r = pwrite(fd, (char *)buf + done, len - done,
				   (off_t)done);
		else
			r = pread(fd, (char *)buf + done, len - done,
				  (off_t)done);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			fprintf(stderr, "%s: %s: %zu of %zu bytes, then %s\n",
				PROG, what, done, len,
				r ? strerror(errno) : "end of file");
			return -1;
		}
		done += r;
	}
	return 0;
}

static int client(const char *file, const char *bufpath, uint64_t off,
		  size_t len, uint64_t seed, const char *steps)
{
	bool rd = strcmp(steps, "write"), wr = strcmp(steps, "read");
	struct pks_mapping m;
	void *back;
	int fd, bad = 0;

	if (pks_map(PROG, bufpath, off, len, true, &m))
		return 1;
	fd = open(file, O_RDWR | O_DIRECT);
	if (fd < 0) {
		fprintf(stderr, "%s: open %s with O_DIRECT: %s\n", PROG, file,
			strerror(errno));
		return 1;
	}
	printf("%s: buffer %s+%#llx, %zu bytes; FUSE file %s\n", PROG,
	       bufpath, (unsigned long long)off, len, file);

	/* 1: the daemon's bytes land in the mapping. */
	if (rd) {
		pks_fill(m.p, len, seed + 2);
		if (full_io(fd, m.p, len, false,
			    "O_DIRECT read into the mapping"))
			return 1;
		bad |= pks_verify(PROG, "O_DIRECT read into the mapping", m.p,
				  len, seed);
	}
	if (!wr)
		goto out;

	/* 2: the mapping's bytes reach the daemon. */
	pks_fill(m.p, len, seed + 1);
	if (full_io(fd, m.p, len, true, "O_DIRECT write from the mapping"))
		return 1;
	bad |= pks_verify(PROG, "the mapping after the write", m.p, len,
			  seed + 1);
	back = aligned_alloc(PKS_PAGE, len);
	if (!back) {
		perror(PROG);
		return 1;
	}
	memset(back, 0, len);
	if (full_io(fd, back, len, false, "read back into anonymous memory"))
		return 1;
	bad |= pks_verify(PROG, "what the write stored, read back", back, len,
			  seed + 1);
	printf("%s: read back fnv64 %016llx\n", PROG,
	       (unsigned long long)pks_fnv(back, len));
out:
	printf("%s: mapping fnv64 %016llx\n", PROG,
	       (unsigned long long)pks_fnv(m.p, len));
	close(fd);
	return bad;
}

static void usage(void)
{
	fprintf(stderr, "usage: %s serve MOUNTPOINT SIZE SEED\n"
			"       %s client FILE BUFPATH OFFSET LEN SEED [read|write]\n",
		PROG, PROG);
	exit(1);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 5 && !strcmp(argv[1], "serve"))
		return serve(argv[0], argv[2], number(argv[3], "size"),
			     number(argv[4], "seed"));
	if ((argc == 7 || (argc == 8 && (!strcmp(argv[7], "read") ||
					 !strcmp(argv[7], "write")))) &&
	    !strcmp(argv[1], "client"))
		return client(argv[2], argv[3], number(argv[4], "offset"),
			      number(argv[5], "length"),
			      number(argv[6], "seed"),
			      argc == 8 ? argv[7] : "both");
	usage();
	return 1;
}
