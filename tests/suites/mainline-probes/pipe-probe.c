// SPDX-License-Identifier: GPL-2.0
/*
 * pipe-probe TRACE_PIPE: what an empty trace_pipe tells a reader that does
 * not want to block. Prints one line each:
 *
 *   poll <n> <revents>       poll() for POLLIN, timeout 0
 *   read <ret> <errno name>  read() of an O_NONBLOCK open, given up after
 *                            2 s (EINTR: it blocked)
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void on_alarm(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct pollfd pfd = { .events = POLLIN };
	static char buf[4096];
	ssize_t r;
	int n;

	if (argc != 2) {
		fprintf(stderr, "usage: %s TRACE_PIPE\n", argv[0]);
		return 2;
	}
	pfd.fd = open(argv[1], O_RDONLY | O_NONBLOCK);
	if (pfd.fd < 0) {
		perror(argv[1]);
		return 1;
	}
	n = poll(&pfd, 1, 0);
	printf("poll %d %#x\n", n, pfd.revents);

	sigaction(SIGALRM, &sa, NULL);
	alarm(2);
	r = read(pfd.fd, buf, sizeof(buf));
	printf("read %zd %s\n", r, r < 0 ? strerrorname_np(errno) : "-");
	return 0;
}
