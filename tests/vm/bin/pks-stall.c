// SPDX-License-Identifier: GPL-2.0
/*
 * pks-stall: hold a write inside the kernel's DAX copy, as any user can.
 *
 *   pks-stall FILE
 *	pwrite() 4 KiB to FILE (on a DAX file system) from a buffer whose
 *	page nobody has filled yet (userfaultfd, missing mode): the kernel's
 *	copy from the buffer waits on the page inside dax_copy_from_iter(),
 *	as it would on a mapping of a FUSE server that never answers. Once
 *	the fault is seen, print "stalled" and wait for a line on stdin;
 *	then fill the page with 'S' and print "written N" when the write
 *	returns N.
 *
 * Exit 0 when the write completed with 4096, 1 otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PAGE	4096

static int file_fd;
static char *buf;
static ssize_t written = -1;
static int write_errno;

static void *writer(void *arg)
{
	(void)arg;
	written = pwrite(file_fd, buf, PAGE, 0);
	write_errno = errno;
	return NULL;
}

static int die(const char *what)
{
	fprintf(stderr, "pks-stall: %s: %s\n", what, strerror(errno));
	return 1;
}

int main(int argc, char **argv)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	struct uffdio_copy copy = { .len = PAGE };
	struct pollfd pfd = { .events = POLLIN };
	struct uffd_msg msg;
	char line[16], *fill;
	pthread_t t;
	int uffd;

	if (argc != 2) {
		fprintf(stderr, "usage: pks-stall FILE\n");
		return 2;
	}
	file_fd = open(argv[1], O_RDWR | O_CREAT, 0644);
	if (file_fd < 0)
		return die(argv[1]);
	uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
	if (uffd < 0 || ioctl(uffd, UFFDIO_API, &api))
		return die("userfaultfd");
	buf = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	fill = aligned_alloc(PAGE, PAGE);
	if (buf == MAP_FAILED || !fill)
		return die("buffers");
	reg.range.start = (unsigned long)buf;
	reg.range.len = PAGE;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg))
		return die("UFFDIO_REGISTER");
	if (pthread_create(&t, NULL, writer, NULL))
		return die("pthread_create");
	/* The kernel's copy faulted on the page: it waits inside now. */
	pfd.fd = uffd;
	if (poll(&pfd, 1, 30000) != 1 ||
	    read(uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT)
		return die("no page fault from the write");
	printf("stalled\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return die("stdin");
	memset(fill, 'S', PAGE);
	copy.dst = (unsigned long)buf;
	copy.src = (unsigned long)fill;
	if (ioctl(uffd, UFFDIO_COPY, &copy))
		return die("UFFDIO_COPY");
	pthread_join(t, NULL);
	errno = write_errno;
	if (written != PAGE)
		return die("pwrite");
	printf("written %zd\n", written);
	return 0;
}
