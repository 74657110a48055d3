// SPDX-License-Identifier: GPL-2.0
/*
 * raw-record: record a tracefs instance the way Perfetto's traced_probes
 * does (Perfetto cannot be built here; this follows its ftrace reader).
 *
 *   raw-record setup DIR KB SYSTEM/EVENT...
 *	tracing_on off, clear with open(trace, O_TRUNC) (fatal if refused)
 *	and each per_cpu/cpuN/trace (errors ignored), buffer_size_kb written
 *	and read back (leading number), trace_clock: the first of boot,
 *	global, local it offers, events/header_page and each event's format
 *	and id read, the events enabled, tracing_on on.
 *   raw-record read DIR OUT SECONDS
 *	open every per_cpu/cpuN/trace_pipe_raw O_RDONLY|O_NONBLOCK (ENODEV:
 *	no buffer for that CPU), then every 100 ms or when poll() says so
 *	read() one page at a time until EAGAIN, appending to OUT/cpuN.raw;
 *	a read must return a whole page. SECONDS 0: one pass, a drain.
 *	Before each CPU's reads, one read into a buffer that faults half-way
 *	must fail with EFAULT (or find nothing) and lose nothing.
 *	Then per_cpu/cpuN/stats to OUT/cpuN.stats.
 *   raw-record splice DIR OUT SECONDS
 *	the same with splice() into a pipe, as trace-cmd record does, non-
 *	blocking: whole pages only, the rest left for a later read.
 *   raw-record stop DIR SYSTEM/EVENT...
 *	tracing_on off, the events disabled.
 *
 * Exits 1 with a message on the first departure from what Perfetto needs.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define MAX_CPUS 64

static const char *dir;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("raw-record: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static char *path(const char *fmt, ...)
{
	static char buf[4][512];
	static int n;
	char *p = buf[n++ % 4];
	int len;
	va_list ap;

	len = snprintf(p, sizeof(buf[0]), "%s/", dir);
	va_start(ap, fmt);
	vsnprintf(p + len, sizeof(buf[0]) - len, fmt, ap);
	va_end(ap);
	return p;
}

static int write_file(const char *file, const char *val)
{
	int fd = open(file, O_WRONLY), ret = -1;

	if (fd >= 0) {
		ret = write(fd, val, strlen(val)) == (ssize_t)strlen(val) ? 0 : -1;
		close(fd);
	}
	return ret;
}

static void must_write(const char *file, const char *val)
{
	if (write_file(file, val))
		die("write '%s' to %s: %s", val, file, strerror(errno));
}

/* The whole file, NUL-terminated; dies if it cannot be read or is empty */
static char *read_file(const char *file)
{
	static char buf[65536];
	ssize_t len = 0, r;
	int fd = open(file, O_RDONLY);

	if (fd < 0)
		die("open %s: %s", file, strerror(errno));
	while ((r = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += r;
	close(fd);
	if (r < 0 || !len)
		die("read %s: %s", file, r < 0 ? strerror(errno) : "empty");
	buf[len] = '\0';
	return buf;
}

static void setup(const char *kb, char **events, int nr)
{
	const char *clocks[] = { "boot", "global", "local" };
	char want[64], *s;
	int fd, cpu, i;

	must_write(path("tracing_on"), "0");

	/* Perfetto aborts if the instance cannot be cleared */
	fd = open(path("trace"), O_WRONLY | O_TRUNC);
	if (fd < 0)
		die("open trace O_TRUNC: %s", strerror(errno));
	close(fd);
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		fd = open(path("per_cpu/cpu%d/trace", cpu), O_WRONLY | O_TRUNC);
		if (fd >= 0)
			close(fd);
	}

	must_write(path("buffer_size_kb"), kb);
	s = read_file(path("buffer_size_kb"));
	if (strtoul(s, NULL, 10) != strtoul(kb, NULL, 10))
		die("buffer_size_kb reads '%s' after writing %s", s, kb);

	s = read_file(path("trace_clock"));
	for (i = 0; i < 3; i++) {
		snprintf(want, sizeof(want), "%s", clocks[i]);
		if (strstr(s, want))
			break;
	}
	if (i == 3)
		die("trace_clock offers none of boot, global, local: %s", s);
	must_write(path("trace_clock"), clocks[i]);
	printf("clock %s\n", clocks[i]);

	if (!strstr(read_file(path("events/header_page")), "field: u64 timestamp"))
		die("events/header_page has no time stamp field");
	for (i = 0; i < nr; i++) {
		read_file(path("events/%s/format", events[i]));
		if (strtol(read_file(path("events/%s/id", events[i])), NULL, 10) <= 0)
			die("events/%s/id is not an id", events[i]);
		must_write(path("events/%s/enable", events[i]), "1");
	}

	must_write(path("tracing_on"), "1");
}

static void stop(char **events, int nr)
{
	int i;

	must_write(path("tracing_on"), "0");
	for (i = 0; i < nr; i++)
		must_write(path("events/%s/enable", events[i]), "0");
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Move whole pages from @fd to @outfd through a pipe; returns the pages */
static long splice_pages(int fd, int outfd, int cpu, long page_size)
{
	static int pipefd[2] = { -1, -1 };
	long pages = 0;
	ssize_t r, w;

	if (pipefd[0] < 0 && pipe(pipefd))
		die("pipe: %s", strerror(errno));
	while ((r = splice(fd, NULL, pipefd[1], NULL, 16 * page_size,
			   SPLICE_F_NONBLOCK | SPLICE_F_MOVE)) > 0) {
		if (r % page_size)
			die("cpu%d: splice gave %zd bytes, not whole pages", cpu, r);
		pages += r / page_size;
		for (; r; r -= w) {
			w = splice(pipefd[0], NULL, outfd, NULL, r, SPLICE_F_MOVE);
			if (w <= 0)
				die("cpu%d: splice out: %s", cpu, strerror(errno));
		}
	}
	if (r < 0 && errno != EAGAIN)
		die("cpu%d: splice: %s", cpu, strerror(errno));
	return pages;
}

static void record(const char *out, double secs, int use_splice)
{
	long page_size = sysconf(_SC_PAGESIZE);
	struct pollfd pfd[MAX_CPUS];
	int outfd[MAX_CPUS], cpus[MAX_CPUS], nr = 0, i;
	char *page = malloc(page_size), *bad, file[600];
	double end = now() + secs;
	long pages = 0;
	FILE *f;

	for (i = 0; i < MAX_CPUS; i++) {
		int fd = open(path("per_cpu/cpu%d/trace_pipe_raw", i), O_RDONLY | O_NONBLOCK);

		if (fd < 0) {
			if (errno == ENOENT || errno == ENODEV)
				continue;
			die("open per_cpu/cpu%d/trace_pipe_raw: %s", i, strerror(errno));
		}
		snprintf(file, sizeof(file), "%s/cpu%d.raw", out, i);
		/* Not O_APPEND: splice() refuses to write to such files */
		outfd[nr] = open(file, O_WRONLY | O_CREAT, 0644);
		if (outfd[nr] < 0 || lseek(outfd[nr], 0, SEEK_END) < 0)
			die("open %s: %s", file, strerror(errno));
		pfd[nr].fd = fd;
		pfd[nr].events = POLLIN;
		cpus[nr++] = i;
	}
	if (!nr)
		die("no per_cpu/cpuN/trace_pipe_raw in %s", dir);

	/* A page, then one that faults */
	bad = mmap(NULL, 2 * page_size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (bad == MAP_FAILED || mprotect(bad + page_size, page_size, PROT_NONE))
		die("mmap: %s", strerror(errno));

	do {
		if (secs > 0 && poll(pfd, nr, 100) < 0)
			die("poll: %s", strerror(errno));
		for (i = 0; i < nr; i++) {
			ssize_t r;

			if (use_splice) {
				pages += splice_pages(pfd[i].fd, outfd[i], cpus[i], page_size);
				continue;
			}
			r = read(pfd[i].fd, bad + page_size / 2, page_size);
			if (r >= 0 || (errno != EFAULT && errno != EAGAIN &&
				       errno != EBUSY && errno != ENODEV))
				die("cpu%d: read into a faulting buffer: %s", cpus[i],
				    r < 0 ? strerror(errno) : "no error");
			while ((r = read(pfd[i].fd, page, page_size)) > 0) {
				if (r != page_size)
					die("cpu%d: read gave %zd bytes, not a page", cpus[i], r);
				if (write(outfd[i], page, r) != r)
					die("write: %s", strerror(errno));
				pages++;
			}
			if (r == 0)
				die("cpu%d: read returned 0, not EAGAIN", cpus[i]);
			if (errno != EAGAIN && errno != EBUSY && errno != ENODEV)
				die("cpu%d: read: %s", cpus[i], strerror(errno));
		}
	} while (now() < end);

	for (i = 0; i < nr; i++) {
		close(pfd[i].fd);
		close(outfd[i]);
		snprintf(file, sizeof(file), "%s/cpu%d.stats", out, cpus[i]);
		f = fopen(file, "w");
		if (!f)
			die("open %s: %s", file, strerror(errno));
		fputs(read_file(path("per_cpu/cpu%d/stats", cpus[i])), f);
		fclose(f);
	}
	snprintf(file, sizeof(file), "%s/page_size", out);
	f = fopen(file, "w");
	if (!f)
		die("open %s: %s", file, strerror(errno));
	fprintf(f, "%ld\n", page_size);
	fclose(f);
	printf("%ld pages from %d CPUs\n", pages, nr);
	munmap(bad, 2 * page_size);
	free(page);
}

int main(int argc, char **argv)
{
	if (argc < 3)
		die("usage: raw-record setup|read|splice|stop DIR ...");
	dir = argv[2];
	if (!strcmp(argv[1], "setup") && argc >= 4)
		setup(argv[3], argv + 4, argc - 4);
	else if (!strcmp(argv[1], "read") && argc == 5)
		record(argv[3], atof(argv[4]), 0);
	else if (!strcmp(argv[1], "splice") && argc == 5)
		record(argv[3], atof(argv[4]), 1);
	else if (!strcmp(argv[1], "stop"))
		stop(argv + 3, argc - 3);
	else
		die("usage: raw-record setup|read|splice|stop DIR ...");
	return 0;
}
