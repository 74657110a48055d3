// SPDX-License-Identifier: GPL-2.0
/*
 * raw-check: decode pages read from per_cpu/cpuN/trace_pipe_raw with
 * libtraceevent (kbuffer and the remote's format files), as trace-cmd and
 * Perfetto's host tools do, and print them in the format of a remote's
 * trace file, merged by time stamp:
 *
 *   raw-check [-n] -p PAGE_SIZE EVENTS_DIR CPU=FILE...
 *
 *   [CPU]\tSECS.USECS: EVENT INFO	(SECS.NSECS with -n)
 *   CPU:N [LOST M EVENTS]		(before the first event after a loss)
 *
 * EVENTS_DIR is a copy of the remote's events/ (header_page and
 * SYSTEM/EVENT/format). Fails (exit 1, a line "FAIL ...") on a page
 * kbuffer refuses, an event of no known format, or time going back on a CPU.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <kbuffer.h>
#include <trace-seq.h>

struct rec {
	unsigned long long ts;
	int cpu;
	long seq;
	long long lost;
	char *text;
};

static struct rec *recs;
static long nr_recs;
static int failed;

static char *slurp(const char *file, size_t *size)
{
	FILE *f = fopen(file, "r");
	char *buf = NULL;
	size_t len = 0, r;

	if (!f)
		return NULL;
	do {
		buf = realloc(buf, len + 65536 + 1);
		r = fread(buf + len, 1, 65536, f);
		len += r;
	} while (r > 0);
	fclose(f);
	buf[len] = '\0';
	*size = len;
	return buf;
}

static void parse_events(struct tep_handle *tep, const char *dir)
{
	char path[4096];
	struct dirent *s, *e;
	DIR *sd, *ed;
	size_t size;
	char *buf;

	snprintf(path, sizeof(path), "%s/header_page", dir);
	buf = slurp(path, &size);
	if (!buf || tep_parse_header_page(tep, buf, size, 8)) {
		printf("FAIL %s: cannot parse\n", path);
		exit(1);
	}
	free(buf);

	sd = opendir(dir);
	while (sd && (s = readdir(sd))) {
		snprintf(path, sizeof(path), "%s/%s", dir, s->d_name);
		ed = s->d_name[0] == '.' ? NULL : opendir(path);
		while (ed && (e = readdir(ed))) {
			snprintf(path, sizeof(path), "%s/%s/%s/format", dir, s->d_name, e->d_name);
			buf = slurp(path, &size);
			if (buf && tep_parse_event(tep, buf, size, s->d_name)) {
				printf("FAIL %s: cannot parse\n", path);
				failed = 1;
			}
			free(buf);
		}
		if (ed)
			closedir(ed);
	}
	if (sd)
		closedir(sd);
}

static void decode(struct tep_handle *tep, int cpu, const char *file, int page_size)
{
	struct kbuffer *kbuf = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_LITTLE);
	unsigned long long ts, last = 0;
	char *page = malloc(page_size);
	long long lost;
	FILE *f = fopen(file, "r");
	long nr_page = 0;
	void *data;

	if (!f || !kbuf || !page) {
		printf("FAIL %s: cannot open\n", file);
		exit(1);
	}
	while (fread(page, 1, page_size, f) == (size_t)page_size) {
		nr_page++;
		if (kbuffer_load_subbuffer(kbuf, page)) {
			printf("FAIL %s: page %ld refused by kbuffer\n", file, nr_page);
			failed = 1;
			continue;
		}
		lost = kbuffer_missed_events(kbuf);
		for (data = kbuffer_read_event(kbuf, &ts); data;
		     data = kbuffer_next_event(kbuf, &ts)) {
			struct tep_record r = {
				.ts = ts, .cpu = cpu, .data = data,
				.size = kbuffer_event_size(kbuf),
			};
			struct tep_event *ev = tep_find_event_by_record(tep, &r);
			struct trace_seq s;
			struct rec *rec;

			if (!ev) {
				printf("FAIL %s: page %ld: event of unknown type %d\n",
				       file, nr_page, tep_data_type(tep, &r));
				failed = 1;
				continue;
			}
			if (ts < last) {
				printf("FAIL %s: page %ld: time stamp %llu before %llu\n",
				       file, nr_page, ts, last);
				failed = 1;
			}
			last = ts;
			trace_seq_init(&s);
			trace_seq_printf(&s, "%s ", ev->name);
			tep_print_event(tep, &s, &r, "%s", TEP_PRINT_INFO);
			trace_seq_terminate(&s);
			recs = realloc(recs, (nr_recs + 1) * sizeof(*recs));
			rec = &recs[nr_recs];
			rec->ts = ts;
			rec->cpu = cpu;
			rec->seq = nr_recs++;
			rec->lost = lost;
			rec->text = strdup(s.buffer);
			trace_seq_destroy(&s);
			lost = 0;
		}
	}
	fclose(f);
	free(page);
	kbuffer_free(kbuf);
}

static int cmp(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu - y->cpu;
	return x->seq < y->seq ? -1 : 1;
}

int main(int argc, char **argv)
{
	struct tep_handle *tep = tep_alloc();
	int page_size, i, ns = 0;
	long n;

	if (argc > 1 && !strcmp(argv[1], "-n")) {
		ns = 1;
		argc--;
		argv++;
	}
	if (argc < 4 || strcmp(argv[1], "-p")) {
		fprintf(stderr, "usage: raw-check [-n] -p PAGE_SIZE EVENTS_DIR CPU=FILE...\n");
		return 2;
	}
	page_size = atoi(argv[2]);
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	parse_events(tep, argv[3]);
	for (i = 4; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (!eq) {
			fprintf(stderr, "raw-check: %s is not CPU=FILE\n", argv[i]);
			return 2;
		}
		decode(tep, atoi(argv[i]), eq + 1, page_size);
	}

	qsort(recs, nr_recs, sizeof(*recs), cmp);
	for (n = 0; n < nr_recs; n++) {
		if (recs[n].lost > 0)
			printf("CPU:%d [LOST %lld EVENTS]\n", recs[n].cpu, recs[n].lost);
		else if (recs[n].lost < 0)
			printf("CPU:%d [LOST EVENTS]\n", recs[n].cpu);
		if (ns)
			printf("[%03d]\t%5llu.%09llu: %s\n", recs[n].cpu, recs[n].ts / 1000000000,
			       recs[n].ts % 1000000000, recs[n].text);
		else
			printf("[%03d]\t%5llu.%06llu: %s\n", recs[n].cpu, recs[n].ts / 1000000000,
			       recs[n].ts % 1000000000 / 1000, recs[n].text);
	}
	tep_free(tep);
	return failed;
}
