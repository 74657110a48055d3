/* SPDX-License-Identifier: GPL-2.0 */
/*
 * selftest_ids(DIR, FIRST, N): write the selftest ids FIRST..FIRST+N-1 to
 * DIR/write_event, one write each (one event each, on the current CPU).
 * Returns 0, or -1 with errno set.  Shared by map-test's programs.
 */
#ifndef SELFTEST_IDS_H
#define SELFTEST_IDS_H

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

static inline int selftest_ids(const char *dir, unsigned long first, unsigned long n)
{
	char path[512], buf[32];
	int fd, len, ret = 0;

	snprintf(path, sizeof(path), "%s/write_event", dir);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	for (; n && !ret; n--, first++) {
		len = snprintf(buf, sizeof(buf), "%lu", first);
		if (write(fd, buf, len) != len)
			ret = -1;
	}
	close(fd);
	return ret;
}

#endif
