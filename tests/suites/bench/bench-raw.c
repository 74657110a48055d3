// SPDX-License-Identifier: GPL-2.0
/*
 * bench-raw fill FILE N text|raw
 * bench-raw read|splice|mmap FILE PAGE_SIZE
 *
 * fill: write N events to FILE, one write() each: the decimal numbers 1..N
 * ("text", remotes/test/write_event), or trace_marker_raw records of a
 * 4-byte id and a 4-byte number ("raw").
 *
 * read, splice: drain the trace_pipe_raw FILE, opened O_NONBLOCK, a page at
 * a time until it has nothing more, with read() into a buffer, or with
 * splice() into a pipe and read() from the pipe (as trace-cmd moves pages;
 * the read from the pipe gets the page header, the same copy on both
 * sides), or mapped, a TRACE_MMAP_IOCTL_GET_READER a page, the page read
 * where it is (as libtracefs' mapped reader does), and print
 *
 *   raw <how> <pages> pages <bytes> bytes <ns> ns/page
 *
 * where bytes counts the data of the pages (their commit, flags masked).
 * Used on the same events in the top-level buffer and in a remote to
 * compare raw read throughput on the same boot.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include <linux/trace_mmap.h>

#define COMMIT_SIZE_MASK	((1ULL << 30) - 1)	/* below RB_MISSED_* */

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* The result line of a drain, or an error if it got nothing */
static int report(const char *how, const char *file, unsigned long long pages,
		  unsigned long long bytes, unsigned long long ns)
{
	if (!pages) {
		fprintf(stderr, "%s: nothing to read\n", file);
		return 1;
	}
	printf("raw %s %llu pages %llu bytes %llu ns/page\n", how, pages, bytes, ns / pages);
	return 0;
}

static int fill(const char *file, long n, int raw)
{
	char buf[32];
	long i;
	int fd;

	fd = open(file, O_WRONLY);
	if (fd < 0) {
		perror(file);
		return 1;
	}
	for (i = 1; i <= n; i++) {
		uint32_t rec[2] = { 1, (uint32_t)i };
		const void *p = rec;
		int len = sizeof(rec);

		if (!raw) {
			len = snprintf(buf, sizeof(buf), "%ld\n", i);
			p = buf;
		}
		if (write(fd, p, len) != len) {
			fprintf(stderr, "%s: write %ld: %s\n", file, i, strerror(errno));
			return 1;
		}
	}
	close(fd);
	return 0;
}

/* One page from fd into buf: its size, 0 when there is none, -1 on error. */
static ssize_t get_page(int fd, int splice_it, int *pipefd, char *buf, size_t page)
{
	ssize_t r, got = 0;

	if (!splice_it) {
		r = read(fd, buf, page);
		if (r < 0 && errno == EAGAIN)
			return 0;
		return r;
	}
	r = splice(fd, NULL, pipefd[1], NULL, page, SPLICE_F_NONBLOCK);
	if (r < 0 && errno == EAGAIN)
		return 0;
	if (r <= 0)
		return r;
	while (got < r) {
		ssize_t m = read(pipefd[0], buf + got, r - got);

		if (m <= 0)
			return -1;
		got += m;
	}
	return got;
}

static int drain(const char *how, const char *file, size_t page)
{
	unsigned long long t0, pages = 0, bytes = 0;
	int splice_it = !strcmp(how, "splice");
	int pipefd[2];
	char *buf;
	int fd;

	buf = malloc(page);
	if (!buf || (splice_it && pipe(pipefd))) {
		perror("bench-raw");
		return 1;
	}
	fd = open(file, O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		perror(file);
		return 1;
	}
	t0 = now_ns();
	for (;;) {
		ssize_t r = get_page(fd, splice_it, pipefd, buf, page);
		uint64_t commit;

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			fprintf(stderr, "%s: %s: %s\n", file, how, strerror(errno));
			return 1;
		}
		if (!r)
			break;
		if ((size_t)r != page) {
			fprintf(stderr, "%s: %s gave %zd bytes, not a page\n", file, how, r);
			return 1;
		}
		memcpy(&commit, buf + 8, sizeof(commit));
		bytes += commit & COMMIT_SIZE_MASK;
		pages++;
	}
	/*
	 * The clock stops before the close: the last close of a drained
	 * remote with tracing off frees its buffer (an RCU grace period),
	 * which is no part of reading.
	 */
	t0 = now_ns() - t0;
	close(fd);
	return report(how, file, pages, bytes, t0);
}

/*
 * The mapped reader: GET_READER until two in a row give no new reader page
 * (tracing is stopped). A page is delivered once it is the reader page;
 * as with read(), what a parser then does with it is not timed.
 */
static int drain_mapped(const char *file)
{
	unsigned long long t0, pages = 0, bytes = 0;
	struct trace_buffer_meta *meta;
	unsigned int id = -1, idle = 0;
	const char *data;
	int fd;

	fd = open(file, O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		perror(file);
		return 1;
	}
	meta = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, fd, 0);
	if (meta == MAP_FAILED) {
		fprintf(stderr, "%s: mmap: %s\n", file, strerror(errno));
		return 1;
	}
	data = mmap(NULL, (size_t)meta->subbuf_size * meta->nr_subbufs, PROT_READ,
		    MAP_SHARED, fd, meta->meta_page_size);
	if (data == MAP_FAILED) {
		fprintf(stderr, "%s: mmap of the sub-buffers: %s\n", file, strerror(errno));
		return 1;
	}
	t0 = now_ns();
	while (idle < 2) {
		const char *page;
		uint64_t commit;

		if (ioctl(fd, TRACE_MMAP_IOCTL_GET_READER) < 0) {
			fprintf(stderr, "%s: GET_READER: %s\n", file, strerror(errno));
			return 1;
		}
		if (meta->reader.id == id) {
			idle++;
			continue;
		}
		idle = 0;
		id = meta->reader.id;
		page = data + (size_t)id * meta->subbuf_size;
		memcpy(&commit, page + 8, sizeof(commit));
		commit &= COMMIT_SIZE_MASK;
		if (!commit || commit > meta->subbuf_size - 16)
			continue;
		bytes += commit;
		pages++;
	}
	t0 = now_ns() - t0;	/* before the close, as in drain() */
	close(fd);
	return report("mmap", file, pages, bytes, t0);
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "fill") && atol(argv[3]) > 0 &&
	    (!strcmp(argv[4], "text") || !strcmp(argv[4], "raw")))
		return fill(argv[2], atol(argv[3]), !strcmp(argv[4], "raw"));
	if (argc == 4 && !strcmp(argv[1], "mmap"))
		return drain_mapped(argv[2]);
	if (argc == 4 && (!strcmp(argv[1], "read") || !strcmp(argv[1], "splice")) &&
	    atol(argv[3]) > 16)
		return drain(argv[1], argv[2], atol(argv[3]));
	fprintf(stderr, "usage: %s fill FILE N text|raw\n"
		"       %s read|splice|mmap FILE PAGE_SIZE\n", argv[0], argv[0]);
	return 2;
}
