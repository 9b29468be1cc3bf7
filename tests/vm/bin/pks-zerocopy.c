// SPDX-License-Identifier: GPL-2.0
/*
 * pks-zerocopy: send bytes of a file or device-dax mapping with
 * MSG_ZEROCOPY over a loopback TCP connection and check what arrives.
 *
 *   pks-zerocopy fill PATH OFFSET LEN SEED
 *   pks-zerocopy send PATH OFFSET LEN SEED [CHUNK]
 *
 * fill writes SEED's word pattern into LEN bytes of PATH from OFFSET,
 * through a shared writable mapping. send maps the same bytes shared and
 * read-only and sends them, CHUNK bytes (default 128 KiB) a send(), with
 * MSG_ZEROCOPY on a socket with SO_ZEROCOPY set, to a child process that
 * receives them into anonymous memory. The send pins the mapping's pages
 * and hands them to the network stack as they are; on loopback the
 * receive path deep-copies them with memcpy() in the NET_RX softirq
 * (skb_copy_ubufs()), a kernel access to the mapping's memory that no
 * system call of this process makes. The sender waits for the zerocopy
 * completion of every send on the socket's error queue, then checks that
 * the bytes received equal the mapping's bytes, byte for byte, and that
 * they hold SEED's pattern (and not a pattern never written).
 *
 * PATH is a regular file (OFFSET page aligned, within its size: a file on
 * an ext4 or xfs -o dax file system puts its pages in persistent memory)
 * or a device-dax device such as /dev/dax0.0 (OFFSET 2 MiB aligned; 2 MiB
 * units are mapped). Numbers take 0x and K/M suffixes.
 *
 * Exit 0 when every send completed (at least one) and the data matched,
 * 1 otherwise.
 */
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
/* After <time.h>: it uses struct timespec. */
#include <linux/errqueue.h>

#include "pks-mapping.h"

#ifndef SO_ZEROCOPY
#define SO_ZEROCOPY	60
#endif
#ifndef MSG_ZEROCOPY
#define MSG_ZEROCOPY	0x4000000
#endif
#ifndef SO_EE_ORIGIN_ZEROCOPY
#define SO_EE_ORIGIN_ZEROCOPY	5
#endif
#ifndef SO_EE_CODE_ZEROCOPY_COPIED
#define SO_EE_CODE_ZEROCOPY_COPIED	1
#endif

#define PROG		"pks-zerocopy"
/* How long the completions and the receiver may take, in seconds. */
#define WAIT_SECONDS	30

static void die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", PROG, what, strerror(errno));
	exit(1);
}

static unsigned long long number(const char *s, const char *what)
{
	return pks_number(PROG, s, what);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* What the error queue has reported so far. */
struct completions {
	uint64_t sends;		/* zerocopy send ids completed */
	unsigned int notes;	/* notifications read */
	unsigned int copied;	/* of them, with the kernel's copy flagged */
};

/*
 * Read every notification queued on @fd's error queue, waiting up to
 * @timeout_ms for the first. Returns how many were read.
 */
static int drain(int fd, struct completions *c, int timeout_ms)
{
	int n = 0;

	for (;;) {
		char control[256];
		struct msghdr msg = {
			.msg_control = control,
			.msg_controllen = sizeof(control),
		};
		struct sock_extended_err *ee = NULL;
		struct cmsghdr *cm;

		if (recvmsg(fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0) {
			struct pollfd pfd = { .fd = fd };

			if (errno != EAGAIN && errno != EWOULDBLOCK)
				die("recvmsg(MSG_ERRQUEUE)");
			if (n || timeout_ms <= 0)
				return n;
			/* The error queue shows as POLLERR, always polled. */
			if (poll(&pfd, 1, timeout_ms) < 0 && errno != EINTR)
				die("poll");
			timeout_ms = 0;
			continue;
		}
		for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm))
			if ((cm->cmsg_level == SOL_IP &&
			     cm->cmsg_type == IP_RECVERR) ||
			    (cm->cmsg_level == SOL_IPV6 &&
			     cm->cmsg_type == IPV6_RECVERR))
				ee = (struct sock_extended_err *)CMSG_DATA(cm);
		if (!ee || ee->ee_origin != SO_EE_ORIGIN_ZEROCOPY ||
		    ee->ee_errno) {
			fprintf(stderr,
				"%s: unexpected error-queue message (origin %d, errno %d)\n",
				PROG, ee ? ee->ee_origin : -1,
				ee ? (int)ee->ee_errno : -1);
			exit(1);
		}
		/* Sends ee_info..ee_data (inclusive, wrapping) completed. */
		c->sends += (uint32_t)(ee->ee_data - ee->ee_info) + 1;
		c->notes++;
		c->copied += !!(ee->ee_code & SO_EE_CODE_ZEROCOPY_COPIED);
		n++;
	}
}

/*
 * The receiver: connect to @port and read until end of stream into @buf
 * (@len bytes of shared memory); the count lands in *@got.
 */
static void receiver(uint16_t port, unsigned char *buf, size_t len,
		     size_t *got)
{
	struct sockaddr_in sa = {
		.sin_family = AF_INET,
		.sin_port = port,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	unsigned char extra;
	size_t n = 0;
	ssize_t r;

	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
		die("receiver: connect");
	while (n < len) {
		r = recv(fd, buf + n, len - n, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			die("receiver: recv");
		if (!r)
			break;
		n += r;
	}
	*got = n;
	/* Anything past @len is a fault too: count it, then expect the end. */
	while ((r = recv(fd, &extra, 1, 0)) > 0)
		(*got)++;
	if (r < 0)
		die("receiver: recv at the end");
	close(fd);
	_exit(0);
}

static int do_send(const char *path, uint64_t off, size_t len, uint64_t seed,
		   size_t chunk)
{
	struct sockaddr_in sa = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	socklen_t salen = sizeof(sa);
	struct completions c = { 0 };
	struct pollfd lpfd = { .events = POLLIN };
	struct pks_mapping m;
	unsigned char *rbuf;
	size_t *got, sent = 0;
	uint64_t sends = 0;
	int lfd, fd, one = 1, status, bad = 0;
	double deadline;
	pid_t pid;

	if (pks_map(PROG, path, off, len, false, &m))
		return 1;
	/* What the child receives, and its count, shared with this process. */
	rbuf = mmap(NULL, len + PKS_PAGE, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (rbuf == MAP_FAILED)
		die("mmap of the receive buffer");
	got = (size_t *)(rbuf + len + PKS_PAGE - sizeof(*got));
	memset(rbuf, 0xa5, len);
	*got = 0;

	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(lfd, 1) || getsockname(lfd, (struct sockaddr *)&sa, &salen))
		die("listen on loopback");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		close(lfd);
		receiver(sa.sin_port, rbuf, len, got);
	}
	/* A receiver that failed to connect must not leave us waiting. */
	lpfd.fd = lfd;
	if (poll(&lpfd, 1, WAIT_SECONDS * 1000) != 1) {
		fprintf(stderr, "%s: the receiver did not connect\n", PROG);
		return 1;
	}
	fd = accept(lfd, NULL, NULL);
	if (fd < 0)
		die("accept");
	close(lfd);
	if (setsockopt(fd, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one)))
		die("setsockopt(SO_ZEROCOPY)");

	deadline = now() + WAIT_SECONDS;
	while (sent < len) {
		size_t n = len - sent < chunk ? len - sent : chunk;
		ssize_t r = send(fd, m.p + sent, n, MSG_ZEROCOPY);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == ENOBUFS) {
			/*
			 * Pinned pages beyond RLIMIT_MEMLOCK, or the error
			 * queue's memory full: wait for completions.
			 */
			if (now() > deadline) {
				fprintf(stderr,
					"%s: ENOBUFS for %d s with %llu of %llu sends completed\n",
					PROG, WAIT_SECONDS,
					(unsigned long long)c.sends,
					(unsigned long long)sends);
				return 1;
			}
			drain(fd, &c, 100);
			continue;
		}
		if (r <= 0)
			die("send(MSG_ZEROCOPY)");
		sent += r;
		sends++;
		drain(fd, &c, 0);
	}
	if (shutdown(fd, SHUT_WR))
		die("shutdown");
	while (c.sends < sends && now() < deadline)
		drain(fd, &c, 100);
	close(fd);
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");

	printf("%s: %s+%#llx: sent %zu bytes in %llu MSG_ZEROCOPY sends of up to %zu\n",
	       PROG, path, (unsigned long long)off, sent,
	       (unsigned long long)sends, chunk);
	printf("%s: completions: %llu of %llu sends in %u notifications, %u of them flagged as copied by the kernel\n",
	       PROG, (unsigned long long)c.sends, (unsigned long long)sends,
	       c.notes, c.copied);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "%s: the receiver failed (status %#x)\n", PROG,
			status);
		return 1;
	}
	if (!sends || c.sends != sends) {
		fprintf(stderr, "%s: %llu of %llu sends completed\n", PROG,
			(unsigned long long)c.sends, (unsigned long long)sends);
		bad = 1;
	}
	printf("%s: received %zu bytes, fnv64 %016llx; the mapping's %zu bytes, fnv64 %016llx\n",
	       PROG, *got, (unsigned long long)pks_fnv(rbuf, len), len,
	       (unsigned long long)pks_fnv(m.p, len));
	if (*got != len) {
		fprintf(stderr, "%s: received %zu bytes, sent %zu\n", PROG,
			*got, len);
		return 1;
	}
	if (memcmp(rbuf, m.p, len)) {
		fprintf(stderr, "%s: the bytes received differ from the mapping's\n",
			PROG);
		bad = 1;
	} else {
		printf("%s: received bytes = the mapping's bytes\n", PROG);
	}
	bad |= pks_verify(PROG, "received vs pattern", rbuf, len, seed);
	return bad;
}

static int do_fill(const char *path, uint64_t off, size_t len, uint64_t seed)
{
	struct pks_mapping m;

	if (pks_map(PROG, path, off, len, true, &m))
		return 1;
	pks_fill(m.p, len, seed);
	/* A file's data to its blocks; device-dax has no fsync (EINVAL). */
	if (!m.dax && msync(m.p, m.map_len, MS_SYNC))
		die("msync");
	printf("%s: %s+%#llx: %zu bytes filled, fnv64 %016llx\n", PROG, path,
	       (unsigned long long)off, len,
	       (unsigned long long)pks_fnv(m.p, len));
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: %s fill PATH OFFSET LEN SEED\n"
			"       %s send PATH OFFSET LEN SEED [CHUNK]\n",
		PROG, PROG);
	exit(1);
}

int main(int argc, char **argv)
{
	uint64_t off, seed;
	size_t len, chunk = 128 << 10;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 6)
		usage();
	off = number(argv[3], "offset");
	len = number(argv[4], "length");
	seed = number(argv[5], "seed");
	if (!strcmp(argv[1], "fill") && argc == 6)
		return do_fill(argv[2], off, len, seed);
	if (!strcmp(argv[1], "send") && argc <= 7) {
		if (argc == 7)
			chunk = number(argv[6], "chunk");
		if (!chunk)
			usage();
		return do_send(argv[2], off, len, seed, chunk);
	}
	usage();
	return 1;
}
