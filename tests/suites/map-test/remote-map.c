// SPDX-License-Identifier: GPL-2.0
/*
 * remote-map DIR CASE: the trace_pipe_raw mmap ABI of the remote whose
 * tracefs directory is DIR, on the CPU the caller runs on (taskset), its
 * events written through DIR/write_event (one selftest event a write, its
 * id the number written) with only the selftest event enabled.  CASE:
 *
 *   once N   ids 1..N, written in batches while a mapping reads them
 *            (GET_READER, sub-buffers parsed in place), arrive exactly
 *            once and in order, and the meta-page counts N entries and N
 *            read, no overrun;
 *   reset    a reset while mapped publishes the writer's new reader page
 *            and zero counts, and the events written after it, and only
 *            those, are read;
 *   refuse   writable, private, oversized, offset and split mappings,
 *            mprotect() to writable and GET_READER without a mapping fail
 *            with their error codes, and nothing is lost by them;
 *   unload   the buffer stays with a live mapping whose file is closed,
 *            tracing off and the buffer reset, until the munmap();
 *   hostile  with DIR/scribble breaking the writer's pages, GET_READER and
 *            a defensive parse of the mapping go on (the kernel's checks
 *            are for its own readers; user space bounds what it reads);
 *   race     for 3 s, a mapping reads (GET_READER) while the CPU's events
 *            are written, read() from another descriptor, printed by
 *            trace_pipe and reset, other mappings come and go and the CPU
 *            goes offline and back (CPU must not be 0); then
 *            the meta-page counts no more events read than written (the
 *            boot's checks catch a splat);
 *   handover with DIR/lag_touched (the test remote), which shows the
 *            kernel the writer one page behind: GET_READER takes the page
 *            the writer is on, which the writer then fills and leaves
 *            before the next GET_READER; what it added is read all the
 *            same, each id once and in order;
 *   bounded  with DIR/empty_swaps (the test remote), a writer whose pages
 *            are empty when swapped while its counts say otherwise: one
 *            GET_READER (the kernel's reader lock held, interrupts off)
 *            asks for at most 4 swaps (DIR/swaps) whatever the ring holds;
 *   unmappable  the remote's pages are not to be mapped (the test remote
 *            loaded with tail_page=Y or mappable=N): mmap() of the
 *            meta-page fails with EOPNOTSUPP;
 *   hold     map, close the file, print "mapped" and sleep until killed.
 *
 * Exits 1 with a message at the first departure.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <linux/trace_mmap.h>

#include "selftest-ids.h"

#define PAGE_HDR	16	/* u64 time stamp, long commit (64-bit) */
#define TYPE_PADDING	29
#define TYPE_EXTEND	30

static const char *dir;
static const char *what;
static unsigned int id_offset;	/* of the selftest event's "id" field */

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "remote-map %s %s: ", dir, what);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void write_file(const char *name, const char *val, int flags)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | flags);
	if (fd < 0 || write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		die("write %s to %s: %s", val, name, strerror(errno));
	close(fd);
}

static void write_ids(unsigned long first, unsigned long n)
{
	if (selftest_ids(dir, first, n))
		die("write_event from %lu: %s", first, strerror(errno));
}

/* The offset of "id" in the selftest event, from its format file */
static void read_format(const char *format)
{
	char line[256];
	FILE *f = fopen(format, "r");

	if (!f)
		die("open %s: %s", format, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "field:u64 id;") &&
		    sscanf(strstr(line, "offset:"), "offset:%u", &id_offset) == 1) {
			fclose(f);
			return;
		}
	}
	die("no u64 id field in %s", format);
}

struct map {
	int fd;
	struct trace_buffer_meta *meta;
	char *data;
	size_t data_len;
	unsigned int id;	/* sub-buffer being read, and where */
	unsigned int pos;
};

static int map_open(struct map *m, int cpu)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw", dir, cpu);
	m->fd = open(path, O_RDONLY | O_NONBLOCK);
	if (m->fd < 0)
		die("open %s: %s", path, strerror(errno));
	m->meta = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, m->fd, 0);
	if (m->meta == MAP_FAILED)
		return -errno;
	m->data_len = (size_t)m->meta->subbuf_size * m->meta->nr_subbufs;
	m->data = mmap(NULL, m->data_len, PROT_READ, MAP_SHARED, m->fd,
		       m->meta->meta_page_size);
	if (m->data == MAP_FAILED)
		die("mmap of the sub-buffers: %s", strerror(errno));
	m->id = m->meta->reader.id;
	m->pos = m->meta->reader.read;
	return 0;
}

static void map_or_die(struct map *m, int cpu)
{
	if (map_open(m, cpu))
		die("mmap: %s", strerror(errno));
}

static void map_close(struct map *m)
{
	munmap(m->data, m->data_len);
	munmap(m->meta, getpagesize());
	if (m->fd >= 0)
		close(m->fd);
}

/*
 * Parse sub-buffer m->id from m->pos up to its commit, as user space must:
 * the commit bounded by the sub-buffer, each event by the commit. Calls
 * fn(id) for each selftest event; returns how many events it saw, -1 if
 * the page broke the format (then the rest of it is skipped).
 */
static long parse(struct map *m, void (*fn)(uint64_t id))
{
	const char *page = m->data + (size_t)m->id * m->meta->subbuf_size;
	uint64_t commit = *(volatile uint64_t *)(page + 8);
	unsigned int size = m->meta->subbuf_size - PAGE_HDR;
	const char *d = page + PAGE_HDR;
	long n = 0;

	if (m->id >= m->meta->nr_subbufs)
		die("reader.id %u of %u sub-buffers", m->id, m->meta->nr_subbufs);
	if (commit > size)
		return m->pos = size, -1;
	while (m->pos + 8 <= commit) {
		uint32_t hdr = *(volatile uint32_t *)(d + m->pos);
		uint32_t arg = *(volatile uint32_t *)(d + m->pos + 4);
		unsigned int type = hdr & 31, len, off = 4;

		if (type == TYPE_PADDING) {
			if (!(hdr >> 5))
				break;
			len = arg + 4;
		} else if (type >= TYPE_EXTEND) {
			len = 8;
		} else if (!type) {
			len = arg + 4;
			off = 8;
		} else {
			len = type * 4 + 4;
		}
		if (len < 8 || len > commit - m->pos || len % 4)
			return m->pos = size, -1;
		if (type < TYPE_PADDING) {	/* a data event */
			if (len < off + id_offset + 8)
				return m->pos = size, -1;
			fn(*(uint64_t *)(d + m->pos + off + id_offset));
			n++;
		}
		m->pos += len;
	}
	return n;
}

/*
 * Read what the mapping has, as libtracefs does: the reader page, then
 * GET_READER; a new reader page is read from its start, the same one from
 * where the last parse left it. A GET_READER that gives nothing new may
 * only have caught up with events user space read ahead of it on the
 * reader page (the kernel's own buffers do the same): the next one swaps.
 * Two in a row that give nothing new: all is read.
 */
static int writer_busy;	/* a writer that never stops: drain() need not end */

static void drain(struct map *m, void (*fn)(uint64_t id))
{
	unsigned int pos, i, idle = 0;

	for (i = 0; i < 100000; i++) {
		parse(m, fn);
		pos = m->pos;
		if (ioctl(m->fd, TRACE_MMAP_IOCTL_GET_READER) < 0)
			die("GET_READER: %s", strerror(errno));
		if (m->meta->reader.id != m->id) {
			m->id = m->meta->reader.id;
			m->pos = 0;
			idle = 0;
			continue;
		}
		parse(m, fn);
		if (m->pos != pos)
			idle = 0;
		else if (++idle == 2)
			return;
	}
	if (!writer_busy)
		die("GET_READER gave pages without end");
}

static uint64_t next_id;

static void expect_next(uint64_t id)
{
	if (id != next_id)
		die("event id %llu where %llu was due", (unsigned long long)id,
		    (unsigned long long)next_id);
	next_id++;
}

static void ignore(uint64_t id)
{
}

/* Write ids first..first+n-1 and read them through @m, each once, in order */
static void expect_ids(struct map *m, unsigned long first, unsigned long n,
		       const char *when)
{
	write_ids(first, n);
	next_id = first;
	drain(m, expect_next);
	if (next_id != first + n)
		die("%s: read ids %lu to %llu of %lu to %lu", when, first,
		    (unsigned long long)next_id - 1, first, first + n - 1);
}

static void start(void)
{
	write_file("tracing_on", "0", 0);
	write_file("trace", "", O_TRUNC);
	write_file("tracing_on", "1", 0);
}

static unsigned long total = 2000;	/* once's N */

static void case_once(int cpu)
{
	unsigned long batch = 40, done;
	struct map m;

	start();
	map_or_die(&m, cpu);
	for (done = 0; done < total; done += batch)
		expect_ids(&m, done + 1, batch, "a batch");
	if (m.meta->entries != total || m.meta->read != total || m.meta->overrun)
		die("meta-page: entries %llu read %llu overrun %llu, want %lu %lu 0",
		    (unsigned long long)m.meta->entries, (unsigned long long)m.meta->read,
		    (unsigned long long)m.meta->overrun, total, total);
	map_close(&m);
}

static void case_reset(int cpu)
{
	struct map m;

	start();
	map_or_die(&m, cpu);
	write_ids(1, 10);
	drain(&m, ignore);
	write_ids(11, 10);
	write_file("trace", "", O_TRUNC);
	if (m.meta->entries || m.meta->read || m.meta->reader.read)
		die("after the reset: entries %llu read %llu reader.read %u",
		    (unsigned long long)m.meta->entries,
		    (unsigned long long)m.meta->read, m.meta->reader.read);
	m.id = m.meta->reader.id;
	m.pos = 0;
	expect_ids(&m, 21, 5, "after the reset");
	map_close(&m);
}

static void refused(const char *how, void *ret, int err)
{
	if (ret != MAP_FAILED || errno != err)
		die("%s: %s, want %s", how, ret == MAP_FAILED ? strerror(errno) : "mapped",
		    strerror(err));
}

static void case_refuse(int cpu)
{
	size_t psz = getpagesize(), len;
	char path[512];
	struct map m;
	int fdw;
	void *p;

	start();
	map_or_die(&m, cpu);
	len = m.data_len;
	/* root opens it for writing too: the ring buffer refuses, not the VFS */
	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw", dir, cpu);
	fdw = open(path, O_RDWR);
	if (fdw < 0)
		die("open %s O_RDWR: %s", path, strerror(errno));
	refused("PROT_WRITE", mmap(NULL, psz, PROT_READ | PROT_WRITE, MAP_SHARED, fdw, 0), EPERM);
	p = mmap(NULL, psz, PROT_READ, MAP_SHARED, fdw, 0);
	if (p == MAP_FAILED)
		die("mmap of a file open for writing: %s", strerror(errno));
	if (!mprotect(p, psz, PROT_READ | PROT_WRITE) || errno != EACCES)
		die("mprotect to writable: %s", strerror(errno));
	munmap(p, psz);
	close(fdw);
	refused("MAP_PRIVATE", mmap(NULL, psz, PROT_READ, MAP_PRIVATE, m.fd, 0), EPERM);
	refused("PROT_EXEC", mmap(NULL, psz, PROT_READ | PROT_EXEC, MAP_SHARED, m.fd, 0), EPERM);
	refused("one sub-buffer too many", mmap(NULL, len + psz, PROT_READ, MAP_SHARED, m.fd, psz), EINVAL);
	refused("offset past the end", mmap(NULL, psz, PROT_READ, MAP_SHARED, m.fd, len + psz), EINVAL);
	if (!munmap(m.data + psz, psz) || errno != EINVAL)
		die("munmap of a part: %s", strerror(errno));
	expect_ids(&m, 1, 10, "after the refusals");
	map_close(&m);

	/* A file that is not mapped has no reader page to give */
	map_or_die(&m, cpu);
	p = m.meta;
	munmap(m.data, m.data_len);
	munmap(p, psz);
	if (ioctl(m.fd, TRACE_MMAP_IOCTL_GET_READER) != -1 || errno != ENODEV)
		die("GET_READER without a mapping: %s, want ENODEV", strerror(errno));
	close(m.fd);
}

static void case_unload(int cpu)
{
	struct map m;

	start();
	map_or_die(&m, cpu);
	write_ids(1, 10);
	close(m.fd);
	m.fd = -1;
	write_file("tracing_on", "0", 0);
	write_file("trace", "", O_TRUNC);
	/* The pages are still the buffer's: ids written from now on show */
	write_file("tracing_on", "1", 0);
	write_ids(11, 3);
	write_file("tracing_on", "0", 0);
	if (m.meta->nr_subbufs < 3 || m.meta->reader.id >= m.meta->nr_subbufs)
		die("meta-page after the close: %u sub-buffers, reader %u",
		    m.meta->nr_subbufs, m.meta->reader.id);
	map_close(&m);
	write_file("trace", "", O_TRUNC);
}

static void case_hostile(int cpu)
{
	struct map m;
	int i;

	start();
	map_or_die(&m, cpu);
	for (i = 0; i < 200; i++) {
		write_ids(i * 8 + 1, 8);
		write_file("scribble", "1", 0);
		drain(&m, ignore);
	}
	map_close(&m);
	write_file("trace", "", O_TRUNC);
}

/* A child that runs fn() until the parent kills it */
static pid_t child(void (*fn)(int cpu), int cpu)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		for (;;)
			fn(cpu);
	}
	return pid;
}

static void race_write(int cpu)
{
	write_ids(1, 50);
}

/* Consume what per_cpu/cpuCPU/NAME has, without blocking */
static void race_consume(int cpu, const char *name)
{
	char path[512], buf[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/%s", dir, cpu, name);
	fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		die("open %s: %s", path, strerror(errno));
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
}

static void race_read(int cpu)
{
	race_consume(cpu, "trace_pipe_raw");
}

static void race_pipe(int cpu)
{
	race_consume(cpu, "trace_pipe");
}

static void race_reset(int cpu)
{
	char name[64];

	snprintf(name, sizeof(name), "per_cpu/cpu%d/trace", cpu);
	write_file(name, "", O_TRUNC);
	usleep(20000);
}

/* Take CPU offline (online 0) or bring it back (1) */
static void cpu_online(int cpu, const char *online)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, online, 1) != 1)
		die("%s to %s: %s", online, path, strerror(errno));
	close(fd);
}

static void race_hotplug(int cpu)
{
	cpu_online(cpu, "0");
	usleep(50000);
	cpu_online(cpu, "1");
	usleep(50000);
}

static void race_remap(int cpu)
{
	struct map m;

	map_or_die(&m, cpu);
	drain(&m, ignore);
	map_close(&m);
}

static void case_race(int cpu)
{
	void (*fns[])(int) = {
		race_write, race_read, race_pipe, race_reset, race_remap, race_hotplug,
	};
	pid_t pids[sizeof(fns) / sizeof(fns[0])];
	unsigned int i;
	struct map m;
	time_t end;

	start();
	map_or_die(&m, cpu);
	writer_busy = 1;
	for (i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
		pids[i] = child(fns[i], cpu);
	for (end = time(NULL) + 3; time(NULL) < end;)
		drain(&m, ignore);
	for (i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		int status;

		kill(pids[i], SIGKILL);
		waitpid(pids[i], &status, 0);
		/* Each ran until killed: none failed on its way */
		if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL)
			die("racer %u stopped before the end (status %#x)", i, status);
	}
	/* The hotplug racer may have been killed with the CPU offline */
	cpu_online(cpu, "1");
	drain(&m, ignore);
	if (m.meta->read > m.meta->entries)
		die("meta-page: %llu read of %llu entries",
		    (unsigned long long)m.meta->read, (unsigned long long)m.meta->entries);
	map_close(&m);
	write_file("trace", "", O_TRUNC);
}

static unsigned long read_ulong(const char *name)
{
	char path[512];
	unsigned long v;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%lu", &v) != 1)
		die("read %s: %s", name, strerror(errno));
	fclose(f);
	return v;
}

static void case_handover(int cpu)
{
	unsigned long per;
	struct map m;

	start();
	write_file("lag_touched", "1", 0);
	map_or_die(&m, cpu);
	/* More than a sub-buffer of events: each takes 16 bytes or more */
	per = m.meta->subbuf_size / 16;
	expect_ids(&m, 1, 1, "the first page");
	expect_ids(&m, 2, per, "onto the next page");
	/*
	 * The writer fills the page it is on, the reader's, and moves on: no
	 * parse before the GET_READER, as if it wrote between the two.
	 */
	write_ids(per + 2, per + 5);
	next_id = per + 2;
	if (ioctl(m.fd, TRACE_MMAP_IOCTL_GET_READER) < 0)
		die("GET_READER: %s", strerror(errno));
	if (m.meta->reader.id != m.id) {
		m.id = m.meta->reader.id;
		m.pos = 0;
	}
	drain(&m, expect_next);
	write_file("lag_touched", "0", 0);
	if (next_id != 2 * per + 7)
		die("read ids %lu to %llu of %lu to %lu", per + 2,
		    (unsigned long long)next_id - 1, per + 2, 2 * per + 6);
	map_close(&m);
	write_file("trace", "", O_TRUNC);
}

#define TAKE_TRIES	4

static void case_bounded(int cpu)
{
	unsigned long swaps, kb = read_ulong("buffer_size_kb");
	char val[24];
	struct map m;

	write_file("tracing_on", "0", 0);
	write_file("trace", "", O_TRUNC);
	write_file("buffer_size_kb", "64", 0);
	start();
	map_or_die(&m, cpu);
	/* Twelve sub-buffers or more of events, each emptied when taken */
	write_ids(1, 12 * m.meta->subbuf_size / 16);
	write_file("empty_swaps", "1000", 0);
	swaps = read_ulong("swaps");
	if (ioctl(m.fd, TRACE_MMAP_IOCTL_GET_READER) < 0 && errno != EAGAIN)
		die("GET_READER: %s", strerror(errno));
	swaps = read_ulong("swaps") - swaps;
	write_file("empty_swaps", "0", 0);
	map_close(&m);
	write_file("tracing_on", "0", 0);
	write_file("trace", "", O_TRUNC);
	snprintf(val, sizeof(val), "%lu", kb);
	write_file("buffer_size_kb", val, 0);
	if (swaps > TAKE_TRIES)
		die("one GET_READER asked for %lu swaps, want %d at most", swaps, TAKE_TRIES);
	printf("one GET_READER: %lu swaps\n", swaps);
}

static void case_unmappable(int cpu)
{
	struct map m;
	int ret;

	start();
	ret = map_open(&m, cpu);
	if (!ret) {
		map_close(&m);
		die("mapped, want EOPNOTSUPP");
	}
	close(m.fd);
	if (ret != -EOPNOTSUPP)
		die("mmap: %s, want %s", strerror(-ret), strerror(EOPNOTSUPP));
	write_file("tracing_on", "0", 0);
	write_file("trace", "", O_TRUNC);
}

static void case_hold(int cpu)
{
	struct map m;

	map_or_die(&m, cpu);
	close(m.fd);
	printf("mapped\n");
	fflush(stdout);
	for (;;)
		pause();
}

static const struct {
	const char *name;
	void (*fn)(int cpu);
} cases[] = {
	{ "once", case_once },
	{ "reset", case_reset },
	{ "refuse", case_refuse },
	{ "unload", case_unload },
	{ "hostile", case_hostile },
	{ "race", case_race },
	{ "handover", case_handover },
	{ "bounded", case_bounded },
	{ "unmappable", case_unmappable },
	{ "hold", case_hold },
};

int main(int argc, char **argv)
{
	unsigned int i;

	if (argc < 4)
		die("usage: remote-map DIR FORMAT CASE [N]");
	dir = argv[1];
	what = argv[3];
	read_format(argv[2]);
	if (argc > 4)
		total = strtoul(argv[4], NULL, 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (!strcmp(what, cases[i].name)) {
			cases[i].fn(sched_getcpu());
			return 0;
		}
	}
	die("unknown case");
	return 1;
}
