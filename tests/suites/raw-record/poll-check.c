// SPDX-License-Identifier: GPL-2.0
/*
 * poll-check READ_FILE WRITE_FILE
 *
 * With READ_FILE (a trace_pipe or trace_pipe_raw whose buffer is empty,
 * buffer_percent 0) opened O_NONBLOCK, check that poll(), select() and
 * epoll do not report it readable while nothing is written, that each
 * reports it readable within 2 s once "1" is written to WRITE_FILE, and that
 * a read() then returns data.  Exits 1 with a message at the first
 * departure.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <unistd.h>

static const char *rfile;

static void die(const char *what)
{
	fprintf(stderr, "poll-check: %s: %s\n", rfile, what);
	exit(1);
}

/* Readable within ms milliseconds, as told by poll(), select() or epoll */
static int readable(int fd, const char *how, int ms)
{
	if (!strcmp(how, "poll")) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int r = poll(&p, 1, ms);

		if (r < 0)
			die("poll() failed");
		return r == 1 && (p.revents & POLLIN);
	}
	if (!strcmp(how, "select")) {
		struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
		fd_set set;
		int r;

		FD_ZERO(&set);
		FD_SET(fd, &set);
		r = select(fd + 1, &set, NULL, NULL, &tv);
		if (r < 0)
			die("select() failed");
		return r == 1 && FD_ISSET(fd, &set);
	} else {
		struct epoll_event ev = { .events = EPOLLIN };
		int ep = epoll_create1(0), r;

		if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev))
			die("epoll set-up failed");
		r = epoll_wait(ep, &ev, 1, ms);
		close(ep);
		if (r < 0)
			die("epoll_wait() failed");
		return r == 1 && (ev.events & EPOLLIN);
	}
}

static void write_one(const char *wfile)
{
	int fd = open(wfile, O_WRONLY);

	if (fd < 0 || write(fd, "1\n", 2) != 2)
		die("cannot write an event");
	close(fd);
}

int main(int argc, char **argv)
{
	static const char * const hows[] = { "poll", "select", "epoll" };
	static char buf[1 << 16];
	unsigned int i;
	char msg[128];
	ssize_t r;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: %s READ_FILE WRITE_FILE\n", argv[0]);
		return 2;
	}
	rfile = argv[1];
	fd = open(rfile, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		die("cannot open");

	for (i = 0; i < sizeof(hows) / sizeof(hows[0]); i++) {
		if (readable(fd, hows[i], 300)) {
			snprintf(msg, sizeof(msg), "%s: readable with nothing written", hows[i]);
			die(msg);
		}
		write_one(argv[2]);
		if (!readable(fd, hows[i], 2000)) {
			snprintf(msg, sizeof(msg), "%s: not readable 2 s after an event", hows[i]);
			die(msg);
		}
		/* Consume what is there: the next round starts empty */
		r = read(fd, buf, sizeof(buf));
		if (r <= 0) {
			snprintf(msg, sizeof(msg), "%s: readable, but read() gave %zd (%s)",
				 hows[i], r, r < 0 ? strerror(errno) : "end of file");
			die(msg);
		}
		while (read(fd, buf, sizeof(buf)) > 0)
			;
		printf("%s: %s: not readable when empty, readable after an event\n",
		       rfile, hows[i]);
	}
	return 0;
}
