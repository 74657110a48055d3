// SPDX-License-Identifier: GPL-2.0
/*
 * wake-latency WRITE_FILE READ_FILE N read|poll
 *
 * How long after an event is written its reader gets it. A thread reads
 * READ_FILE (a remote's trace_pipe: "selftest id=I" lines): "read" blocks
 * in read(), "poll" blocks in poll() and then reads with O_NONBLOCK. The
 * main thread writes the ids 1..N to WRITE_FILE (the remote's write_event),
 * one write() each, 1 to 5 ms apart so that the reader waits for each;
 * the delay of id I runs from just before its write() to the return of the
 * read() that gave it (the event's time stamp is taken inside that
 * write()). Prints, in microseconds of CLOCK_MONOTONIC:
 *
 *   events N seen S median_us M p90_us P worst_us W
 *
 * and exits 1 unless every id was read once within 2 s of the last write.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long n;
static unsigned long long *sent, *delay;
static long seen;
static int rfd, use_poll;

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Record the delay of every "id=I" of the I written */
static void account(const char *buf, unsigned long long t)
{
	const char *p = buf;
	long id;

	while ((p = strstr(p, "id="))) {
		id = strtol(p + 3, NULL, 10);
		p += 3;
		if (id < 1 || id > n || delay[id])
			continue;
		delay[id] = t - __atomic_load_n(&sent[id], __ATOMIC_ACQUIRE);
		__atomic_add_fetch(&seen, 1, __ATOMIC_RELEASE);
	}
}

static void *reader(void *arg)
{
	static char buf[1 << 16];
	struct pollfd pfd = { .fd = rfd, .events = POLLIN };
	ssize_t len;

	(void)arg;
	for (;;) {
		if (use_poll && poll(&pfd, 1, -1) < 0)
			break;
		len = read(rfd, buf, sizeof(buf) - 1);
		if (len < 0 && errno == EAGAIN)
			continue;
		if (len <= 0)
			break;
		buf[len] = '\0';
		account(buf, now_ns());
	}
	return NULL;
}

static int cmp(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	unsigned long long *sorted, t;
	pthread_t thread;
	char id[32];
	long i, m = 0;
	int wfd;

	if (argc != 5 || (n = atol(argv[3])) <= 0 ||
	    (strcmp(argv[4], "read") && strcmp(argv[4], "poll"))) {
		fprintf(stderr, "usage: %s WRITE_FILE READ_FILE N read|poll\n", argv[0]);
		return 2;
	}
	use_poll = !strcmp(argv[4], "poll");
	sent = calloc(n + 1, sizeof(*sent));
	delay = calloc(n + 1, sizeof(*delay));
	sorted = calloc(n + 1, sizeof(*sorted));
	wfd = open(argv[1], O_WRONLY);
	rfd = open(argv[2], O_RDONLY | (use_poll ? O_NONBLOCK : 0));
	if (!sent || !delay || !sorted || wfd < 0 || rfd < 0) {
		perror("wake-latency");
		return 2;
	}
	if (pthread_create(&thread, NULL, reader, NULL)) {
		perror("pthread_create");
		return 2;
	}
	srand(1);
	for (i = 1; i <= n; i++) {
		usleep(1000 + rand() % 4000);
		__atomic_store_n(&sent[i], now_ns(), __ATOMIC_RELEASE);
		snprintf(id, sizeof(id), "%ld", i);
		if (write(wfd, id, strlen(id)) < 0) {
			perror("write");
			return 2;
		}
	}
	t = now_ns();
	while (__atomic_load_n(&seen, __ATOMIC_ACQUIRE) < n && now_ns() - t < 2000000000ULL)
		usleep(10000);
	for (i = 1; i <= n; i++)
		if (delay[i])
			sorted[m++] = delay[i];
	qsort(sorted, m, sizeof(*sorted), cmp);
	printf("events %ld seen %ld median_us %llu p90_us %llu worst_us %llu\n", n, m,
	       m ? sorted[(m - 1) / 2] / 1000 : 0, m ? sorted[(m * 9 - 1) / 10] / 1000 : 0,
	       m ? sorted[m - 1] / 1000 : 0);
	return m == n ? 0 : 1;
}
