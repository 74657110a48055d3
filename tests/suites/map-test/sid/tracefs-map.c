// SPDX-License-Identifier: GPL-2.0
/*
 * tracefs-map DIR N: libtracefs' own mapped reader on the remote whose
 * tracefs directory is DIR, on the CPU the caller runs on (taskset).
 *
 * DIR is a libtracefs instance (tracefs_instance_alloc(DIR, NULL): its top
 * directory), read with tracefs_cpu_open_mapped(), which must map it
 * (tracefs_cpu_is_mapped()), and tracefs_cpu_read_buf(); its events are
 * decoded with libtraceevent from DIR/events (tracefs_local_events()).
 * The selftest ids 1..N, written to DIR/write_event in batches between
 * reads, must each come out exactly once and in order.
 *
 * Built against Debian sid's libtracefs 1.8.3 (12's 1.6.4 has no mapped
 * reader) and run through sid's loader.  Exits 1 with a message at the
 * first departure.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "../selftest-ids.h"

static const char *dir;

static void die(const char *what)
{
	fprintf(stderr, "tracefs-map %s: %s\n", dir, what);
	exit(1);
}

static void write_ids(unsigned long first, unsigned long n)
{
	if (selftest_ids(dir, first, n))
		die("write_event failed");
}

int main(int argc, char **argv)
{
	unsigned long total, batch = 40, done, next = 1;
	struct tracefs_instance *instance;
	struct tracefs_cpu *tcpu;
	struct tep_handle *tep;
	struct kbuffer *kbuf;
	char msg[128];
	int idle;

	if (argc != 3)
		die("usage: tracefs-map DIR N");
	dir = argv[1];
	total = strtoul(argv[2], NULL, 0);

	instance = tracefs_instance_alloc(dir, NULL);
	tep = tracefs_local_events(dir);
	if (!instance || !tep)
		die("no instance or no events");
	tracefs_instance_file_write(instance, "tracing_on", "0");
	tracefs_instance_file_clear(instance, "trace");
	tracefs_instance_file_write(instance, "tracing_on", "1");

	tcpu = tracefs_cpu_open_mapped(instance, sched_getcpu(), true);
	if (!tcpu)
		die("tracefs_cpu_open_mapped() failed");
	if (!tracefs_cpu_is_mapped(tcpu))
		die("tracefs_cpu_open_mapped() fell back to read()");

	for (done = 0; done < total; done += batch) {
		write_ids(done + 1, batch);
		/* Nothing new twice in a row: all read (as remote_map_test) */
		for (idle = 0; idle < 2;) {
			struct tep_record rec = { 0 };
			unsigned long long id;
			struct tep_event *ev;

			kbuf = tracefs_cpu_read_buf(tcpu, true);
			if (!kbuf) {
				idle++;
				continue;
			}
			idle = 0;
			while ((rec.data = kbuffer_read_event(kbuf, &rec.ts))) {
				rec.size = kbuffer_event_size(kbuf);
				ev = tep_find_event(tep, tep_data_type(tep, &rec));
				if (!ev || strcmp(ev->name, "selftest") ||
				    tep_get_field_val(NULL, ev, "id", &rec, &id, 0))
					die("an event that is not a selftest");
				if (id != next) {
					snprintf(msg, sizeof(msg), "id %llu where %lu was due", id, next);
					die(msg);
				}
				next++;
				kbuffer_next_event(kbuf, NULL);
			}
		}
		if (next != done + batch + 1) {
			snprintf(msg, sizeof(msg), "after ids up to %lu, read up to %lu",
				 done + batch, next - 1);
			die(msg);
		}
	}
	tracefs_cpu_close(tcpu);
	tracefs_instance_file_write(instance, "tracing_on", "0");
	tracefs_instance_free(instance);
	tep_free(tep);
	return 0;
}
