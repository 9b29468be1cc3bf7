// SPDX-License-Identifier: GPL-2.0
/*
 * pks-maphold: a device-dax page mapped by a process, and held for I/O
 * or not.
 *
 *   pks-maphold DAXDEV READY [pin]
 *
 * Maps the first 2 MiB of DAXDEV shared and writes through the mapping
 * (the page is mapped in this process's page tables from then on).
 * With "pin", also moves its first 64 KiB into a pipe nobody reads with
 * vmsplice(): the pipe buffers hold the page for I/O (a reference beyond
 * the mapping's). Then creates the file READY and sleeps until killed.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#define MAP_LEN		(2UL << 20)	/* one device-dax page */
#define PIN_LEN		(64UL << 10)	/* what fits in a pipe at once */

int main(int argc, char **argv)
{
	struct iovec iov;
	int fd, p[2];
	char *m;

	if (argc < 3 || (argc == 4 && strcmp(argv[3], "pin"))) {
		fprintf(stderr, "usage: pks-maphold DAXDEV READY [pin]\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		perror("pks-maphold: open");
		return 1;
	}
	m = mmap(NULL, MAP_LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		perror("pks-maphold: mmap");
		return 1;
	}
	memset(m, 0x5a, PIN_LEN);
	if (argc == 4) {
		if (pipe(p)) {
			perror("pks-maphold: pipe");
			return 1;
		}
		iov.iov_base = m;
		iov.iov_len = PIN_LEN;
		if (vmsplice(p[1], &iov, 1, 0) != (ssize_t)PIN_LEN) {
			perror("pks-maphold: vmsplice");
			return 1;
		}
	}
	fd = open(argv[2], O_WRONLY | O_CREAT, 0644);
	if (fd < 0) {
		perror("pks-maphold: ready file");
		return 1;
	}
	close(fd);
	for (;;)
		pause();
}
