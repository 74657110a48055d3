// SPDX-License-Identifier: GPL-2.0
/*
 * bench-read WRITE_FILE READ_FILE N
 *
 * Write the decimal numbers 1..N to WRITE_FILE, one write() each, then read
 * READ_FILE with O_NONBLOCK until it has nothing more or has given N lines
 * (comment lines, '#', not counted: the header of "trace"), and print the
 * cost per event of both sides:
 *
 *   write <N> events <ns/event> ns/event
 *   read <bytes> bytes <lines> lines <ns/line> ns/line
 *
 * "-" for either file leaves that side out.  Stopping at N lines lets it
 * read a trace_pipe whose O_NONBLOCK read blocks when empty (mainline's).
 *
 * Used with trace_marker/trace_pipe, remotes/test/{write_event,trace_pipe}
 * and remotes/hypervisor/{write_event,trace,trace_pipe} to compare write
 * and text read costs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long long t0, t1, bytes = 0, lines = 0;
	static char buf[1 << 16];
	int fd, bol = 1, comment = 0;
	long n, i;

	if (argc != 4 || (n = atol(argv[3])) <= 0) {
		fprintf(stderr, "usage: %s WRITE_FILE|- READ_FILE|- N\n", argv[0]);
		return 2;
	}
	if (!strcmp(argv[1], "-"))
		goto read;

	fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	t0 = now_ns();
	for (i = 1; i <= n; i++) {
		int len = snprintf(buf, sizeof(buf), "%ld\n", i);

		if (write(fd, buf, len) != len) {
			fprintf(stderr, "%s: write %ld: %s\n", argv[1], i, strerror(errno));
			return 1;
		}
	}
	t1 = now_ns();
	close(fd);
	printf("write %ld events %llu ns/event\n", n, (t1 - t0) / n);

read:
	if (!strcmp(argv[2], "-"))
		return 0;
	fd = open(argv[2], O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		perror(argv[2]);
		return 1;
	}
	t0 = now_ns();
	while (lines < (unsigned long long)n) {
		ssize_t r = read(fd, buf, sizeof(buf));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno != EAGAIN) {
			perror(argv[2]);
			return 1;
		}
		if (r <= 0)
			break;
		bytes += r;
		for (i = 0; i < r; i++) {
			if (bol)
				comment = buf[i] == '#';
			bol = buf[i] == '\n';
			lines += bol && !comment;
		}
	}
	t1 = now_ns();
	close(fd);
	if (!lines) {
		fprintf(stderr, "%s: nothing to read\n", argv[2]);
		return 1;
	}
	printf("read %llu bytes %llu lines %llu ns/line\n", bytes, lines, (t1 - t0) / lines);
	return 0;
}
