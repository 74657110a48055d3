// SPDX-License-Identifier: GPL-2.0
/*
 * wake-check FILE
 *
 * FILE is a trace_pipe_raw whose buffer is empty, with tracing on.  As
 * libtracefs stops a recorder (tracefs_cpu_stop(), trace-cmd on Ctrl-C):
 * a splice() of FILE blocked in another thread must return 0 within 2 s of
 * an ioctl(fd, 0); a blocked read() must fail with EAGAIN within 2 s of
 * the file being made O_NONBLOCK and an ioctl(fd, 0).  Exits 1 with a
 * message at the first departure.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static const char *file;
static int fd, pipefd[2];
static volatile int done;
static ssize_t result;
static int result_errno;
static char buf[1 << 16];

static void die(const char *what)
{
	fprintf(stderr, "wake-check: %s: %s\n", file, what);
	exit(1);
}

static void *do_splice(void *arg)
{
	result = splice(fd, NULL, pipefd[1], NULL, sizeof(buf), 0);
	result_errno = errno;
	done = 1;
	return NULL;
}

static void *do_read(void *arg)
{
	result = read(fd, buf, sizeof(buf));
	result_errno = errno;
	done = 1;
	return NULL;
}

/*
 * Start fn, check that it blocks, wake it with wake(), expect it back with
 * want (0, or -1 and EAGAIN)
 */
static void check(const char *what, void *(*fn)(void *), void (*wake)(void), int want)
{
	char msg[160];
	pthread_t t;
	int i;

	done = 0;
	if (pthread_create(&t, NULL, fn, NULL))
		die("pthread_create");
	usleep(300000);
	if (done) {
		snprintf(msg, sizeof(msg), "%s did not wait on an empty buffer (%zd)", what, result);
		die(msg);
	}
	wake();
	for (i = 0; i < 200 && !done; i++)
		usleep(10000);
	if (!done) {
		snprintf(msg, sizeof(msg), "%s still waits 2 s after the wake-up", what);
		die(msg);
	}
	pthread_join(t, NULL);
	if (result != want || (want < 0 && result_errno != EAGAIN)) {
		snprintf(msg, sizeof(msg), "%s woken returned %zd (%s), not %s", what, result,
			 result < 0 ? strerror(result_errno) : "data", want ? "EAGAIN" : "0");
		die(msg);
	}
	printf("%s: %s: woken, returned %s\n", file, what, want ? "EAGAIN" : "0");
}

static void wake_ioctl(void)
{
	if (ioctl(fd, 0))
		die("ioctl(fd, 0) failed");
}

static void wake_nonblock(void)
{
	if (fcntl(fd, F_SETFL, O_RDONLY | O_NONBLOCK))
		die("fcntl() failed");
	wake_ioctl();
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s TRACE_PIPE_RAW\n", argv[0]);
		return 2;
	}
	file = argv[1];
	fd = open(file, O_RDONLY);
	if (fd < 0 || pipe(pipefd))
		die("cannot open");
	check("splice() and ioctl(fd, 0)", do_splice, wake_ioctl, 0);
	check("read(), O_NONBLOCK and ioctl(fd, 0)", do_read, wake_nonblock, -1);
	return 0;
}
