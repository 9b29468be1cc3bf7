// SPDX-License-Identifier: GPL-2.0
/*
 * pks-late: a kernel path that began before protection did.
 *
 *   pks-late DAXDEV READY GO
 *
 * Maps DAXDEV, writes a pattern through the mapping, and forks a reader
 * that blocks in read() on an empty pipe: it is inside pipe_read() from
 * then on. Then it creates the file READY and waits for GO to appear
 * (the test protects the namespace in between), and moves the pattern's
 * pages into the pipe with vmsplice(). The reader's pipe_read() copies
 * them from the direct map: a call the driver's entry probe never saw.
 *
 * Exit 0 when the reader got the pattern, 1 when it got other data or
 * failed, 2 when it was killed (an oops in its copy kills it).
 */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAP_LEN		(2UL << 20)	/* one device-dax page */
#define IO_LEN		(64UL << 10)	/* what fits in a pipe at once */

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* The reader: all of IO_LEN from the pipe, compared with @want. */
static int reader(int fd, const unsigned char *want)
{
	static unsigned char got[IO_LEN];
	size_t have = 0;
	ssize_t n;

	while (have < IO_LEN) {
		n = read(fd, got + have, IO_LEN - have);
		if (n <= 0)
			die("pks-late: read");
		have += n;
	}
	if (memcmp(got, want, IO_LEN)) {
		fprintf(stderr, "pks-late: the reader got other data\n");
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static unsigned char want[IO_LEN];
	struct iovec iov;
	struct stat st;
	int fd, p[2], status, waited = 0;
	unsigned char *map;
	size_t i;
	pid_t pid;

	if (argc != 4) {
		fprintf(stderr, "usage: pks-late DAXDEV READY GO\n");
		return 1;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0)
		die(argv[1]);
	map = mmap(NULL, MAP_LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		die("pks-late: mmap");
	for (i = 0; i < IO_LEN; i++)
		want[i] = (unsigned char)(i * 7 + (i >> 9));
	memcpy(map, want, IO_LEN);
	if (pipe(p))
		die("pks-late: pipe");
	pid = fork();
	if (pid < 0)
		die("pks-late: fork");
	if (!pid) {
		close(p[1]);
		exit(reader(p[0], want));
	}
	close(p[0]);
	/* Let the reader reach its wait inside pipe_read(). */
	pause_ms(500);
	if (close(open(argv[2], O_WRONLY | O_CREAT, 0644)))
		die(argv[2]);
	while (stat(argv[3], &st)) {
		if (++waited > 6000) {
			fprintf(stderr, "pks-late: %s never appeared\n", argv[3]);
			kill(pid, SIGKILL);
			return 1;
		}
		pause_ms(10);
	}
	iov.iov_base = map;
	iov.iov_len = IO_LEN;
	while (iov.iov_len) {
		ssize_t n = vmsplice(p[1], &iov, 1, 0);

		if (n <= 0)
			die("pks-late: vmsplice");
		iov.iov_base = (char *)iov.iov_base + n;
		iov.iov_len -= n;
	}
	if (waitpid(pid, &status, 0) != pid)
		die("pks-late: waitpid");
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "pks-late: the reader was killed by signal %d\n",
			WTERMSIG(status));
		return 2;
	}
	return WEXITSTATUS(status);
}
