// SPDX-License-Identifier: GPL-2.0
/*
 * format-check: parse a trace remote's events/ directory with libtraceevent,
 * the library trace-cmd and perf use, and fail on anything it would not
 * accept.
 *
 *   format-check [-v] [-l LONG_SIZE] [-f SYS/EVENT=FIELD[,FIELD...]]... DIR
 *
 * DIR holds a copy of a tracefs events/ directory: header_page,
 * header_event and SYSTEM/EVENT/format (and optionally SYSTEM/EVENT/id).
 * One line per item:
 *
 *   PASS header_page
 *   PASS header_event
 *   PASS format SYSTEM/EVENT
 *   FAIL format SYSTEM/EVENT: why
 *
 * Exit status: 0 when everything passed, 1 when something failed (or no
 * event was found), 2 on usage errors.
 *
 * Checks on each format: libtraceevent parses it without error or warning;
 * the event name matches its directory and the ID line its id file;
 * the common fields are the kernel's (common_type, common_flags,
 * common_preempt_count, common_pid, with the types, offsets, sizes and
 * signedness of struct trace_entry);
 * fields have a size, but for an array of variable length ("u64 args[]",
 * size 0) as the last field; they do not overlap and fixed-size types
 * (u8..u64, s8..s64, int, long, pid_t, ...) have their size and
 * signedness; every REC->field named by
 * the print fmt exists; printing a zeroed record succeeds; fields required
 * with -f exist; ftrace/print, where a remote has it, has ID 65536
 * and an empty char buf[] (after the common fields) only.
 *
 * Build: cc -O2 -Wall $(pkg-config --cflags libtraceevent) -o format-check
 *        format-check.c $(pkg-config --libs libtraceevent)
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-seq.h>

/* Library messages are collected here and turn the current item into a FAIL. */
static char lib_msg[1024];
static int lib_msgs;

/* Overrides the weak default in libtraceevent. */
int tep_vprint(const char *name, enum tep_loglevel level, bool print_err,
	       const char *fmt, va_list ap)
{
	size_t len = strlen(lib_msg);
	char *nl;

	if (level > TEP_LOG_WARNING)
		return 0;
	lib_msgs++;
	if (len < sizeof(lib_msg) - 4) {
		if (len)
			strcat(lib_msg, "; ");
		len = strlen(lib_msg);
		vsnprintf(lib_msg + len, sizeof(lib_msg) - len, fmt, ap);
		while ((nl = strchr(lib_msg, '\n')))
			*nl = ' ';
	}
	return 0;
}

static void lib_msg_reset(void)
{
	lib_msg[0] = '\0';
	lib_msgs = 0;
}

struct required {
	const char *event;	/* SYSTEM/EVENT */
	char *fields;		/* comma separated */
	bool seen;
};

static struct required *required;
static int nr_required;
static int long_size = 8;
static bool verbose;
static int failures;

/* Per-item verdict: the first problem is reported. */
static char why[2048];

/* The common fields of every kernel event, as its format files print them */
static const struct {
	const char *type, *name;
	int offset, size, is_signed;
} common[] = {
	{ "unsigned short", "common_type", 0, 2, 0 },
	{ "unsigned char", "common_flags", 2, 1, 0 },
	{ "unsigned char", "common_preempt_count", 3, 1, 0 },
	{ "int", "common_pid", 4, 4, 1 },
};

static void problem(const char *fmt, ...)
{
	va_list ap;

	if (why[0])
		return;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
}

static void verdict(const char *what)
{
	if (!why[0] && lib_msgs)
		problem("libtraceevent: %s", lib_msg);
	if (why[0]) {
		printf("FAIL %s: %s\n", what, why);
		failures++;
	} else {
		printf("PASS %s\n", what);
	}
	fflush(stdout);
	why[0] = '\0';
	lib_msg_reset();
}

static char *read_file(const char *path, size_t *sizep)
{
	size_t size = 0, alloc = 4096;
	char *buf = malloc(alloc + 1);
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f || !buf) {
		free(buf);
		if (f)
			fclose(f);
		return NULL;
	}
	while ((n = fread(buf + size, 1, alloc - size, f)) > 0) {
		size += n;
		if (size == alloc) {
			char *nbuf = realloc(buf, alloc * 2 + 1);

			if (!nbuf) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nbuf;
			alloc *= 2;
		}
	}
	fclose(f);
	buf[size] = '\0';
	*sizep = size;
	return buf;
}

/* Collapse runs of blanks into one space and trim, in place. */
static void squeeze(char *s)
{
	char *d = s, *p = s;
	bool blank = false;

	while (*p == ' ' || *p == '\t')
		p++;
	for (; *p; p++) {
		if (*p == ' ' || *p == '\t') {
			blank = true;
			continue;
		}
		if (blank && d != s)
			*d++ = ' ';
		blank = false;
		*d++ = *p;
	}
	*d = '\0';
}

/* "field: TYPE NAME;\toffset:N;\tsize:N;..." in header_page: offset and size of NAME. */
static bool header_field(const char *buf, const char *name, int *offset, int *size)
{
	const char *p = buf;
	char pat[64];

	snprintf(pat, sizeof(pat), " %s;", name);
	while ((p = strstr(p, "field:"))) {
		const char *eol = strchr(p, '\n');
		const char *hit = strstr(p, pat);

		if (!eol)
			eol = p + strlen(p);
		if (hit && hit < eol) {
			const char *o = strstr(hit, "offset:");
			const char *s = strstr(hit, "size:");

			if (!o || !s || o > eol || s > eol)
				return false;
			*offset = atoi(o + 7);
			*size = atoi(s + 5);
			return true;
		}
		p = eol;
	}
	return false;
}

static void check_header_page(struct tep_handle *tep, const char *dir)
{
	char path[4096];
	size_t size;
	char *buf;
	int ts_off, ts_size, commit_off, commit_size, data_off, data_size;

	snprintf(path, sizeof(path), "%s/header_page", dir);
	buf = read_file(path, &size);
	if (!buf) {
		problem("cannot read %s: %s", path, strerror(errno));
		goto out;
	}
	if (!size) {
		problem("empty");
		goto out;
	}
	if (tep_parse_header_page(tep, buf, size, long_size)) {
		problem("tep_parse_header_page failed");
		goto out;
	}
	if (!header_field(buf, "timestamp", &ts_off, &ts_size))
		problem("no timestamp field");
	else if (!header_field(buf, "commit", &commit_off, &commit_size))
		problem("no commit field");
	else if (!header_field(buf, "data", &data_off, &data_size))
		problem("no data field");
	else if (ts_off != 0 || ts_size != 8)
		problem("timestamp at offset %d size %d, expected 0 and 8", ts_off, ts_size);
	else if (commit_off != 8 || commit_size != long_size)
		problem("commit at offset %d size %d, expected 8 and %d",
			commit_off, commit_size, long_size);
	else if (data_off != commit_off + commit_size)
		problem("data at offset %d, expected %d", data_off, commit_off + commit_size);
	else if (data_size <= 0)
		problem("data size %d", data_size);
	else if (tep_get_header_timestamp_size(tep) != ts_size ||
		 tep_get_header_page_size(tep) != commit_size)
		problem("libtraceevent read timestamp size %d, commit size %d",
			tep_get_header_timestamp_size(tep), tep_get_header_page_size(tep));
out:
	free(buf);
	verdict("header_page");
}

/* The ring-buffer event header encoding every reader (kbuffer, trace-cmd) assumes. */
static const char * const header_event_lines[] = {
	"type_len : 5 bits",
	"time_delta : 27 bits",
	"array : 32 bits",
	"padding : type == 29",
	"time_extend : type == 30",
	"time_stamp : type == 31",
	"data max type_len == 28",
};

static void check_header_event(const char *dir)
{
	bool seen[sizeof(header_event_lines) / sizeof(header_event_lines[0])] = { 0 };
	char path[4096];
	size_t size, i;
	char *buf, *line, *save;

	snprintf(path, sizeof(path), "%s/header_event", dir);
	buf = read_file(path, &size);
	if (!buf) {
		problem("cannot read %s: %s", path, strerror(errno));
		goto out;
	}
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		squeeze(line);
		for (i = 0; i < sizeof(seen); i++)
			if (!strcmp(line, header_event_lines[i]))
				seen[i] = true;
	}
	for (i = 0; i < sizeof(seen); i++)
		if (!seen[i])
			problem("no line '%s'", header_event_lines[i]);
out:
	free(buf);
	verdict("header_event");
}

struct fixed_type {
	const char *name;
	int size;	/* 0: long_size */
	int is_signed;	/* -1: not checked */
};

static const struct fixed_type fixed_types[] = {
	{ "u8", 1, 0 }, { "u16", 2, 0 }, { "u32", 4, 0 }, { "u64", 8, 0 },
	{ "s8", 1, 1 }, { "s16", 2, 1 }, { "s32", 4, 1 }, { "s64", 8, 1 },
	{ "__u8", 1, 0 }, { "__u16", 2, 0 }, { "__u32", 4, 0 }, { "__u64", 8, 0 },
	{ "__s8", 1, 1 }, { "__s16", 2, 1 }, { "__s32", 4, 1 }, { "__s64", 8, 1 },
	{ "unsigned char", 1, 0 }, { "signed char", 1, 1 }, { "bool", 1, 0 },
	{ "short", 2, 1 }, { "unsigned short", 2, 0 },
	{ "int", 4, 1 }, { "unsigned int", 4, 0 }, { "pid_t", 4, 1 },
	{ "long", 0, 1 }, { "unsigned long", 0, 0 },
	{ "long long", 8, 1 }, { "unsigned long long", 8, 0 },
	{ "char", 1, -1 },
};

static void check_field_type(struct tep_format_field *f)
{
	size_t i;

	if (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_POINTER | TEP_FIELD_IS_DYNAMIC))
		return;
	for (i = 0; i < sizeof(fixed_types) / sizeof(fixed_types[0]); i++) {
		const struct fixed_type *t = &fixed_types[i];
		int size = t->size ? t->size : long_size;
		int is_signed = !!(f->flags & TEP_FIELD_IS_SIGNED);

		if (strcmp(f->type, t->name))
			continue;
		if (f->size != size)
			problem("field %s: type '%s' with size %d, expected %d",
				f->name, f->type, f->size, size);
		else if (t->is_signed >= 0 && is_signed != t->is_signed)
			problem("field %s: type '%s' with signed:%d, expected %d",
				f->name, f->type, is_signed, t->is_signed);
		return;
	}
}

/* Walk the parsed print arguments: every REC->name must be a field. */
static void check_print_args(struct tep_event *ev, struct tep_print_arg *arg)
{
	for (; arg; arg = arg->next) {
		switch (arg->type) {
		case TEP_PRINT_FIELD:
			if (!arg->field.field &&
			    !(arg->field.field = tep_find_any_field(ev, arg->field.name)))
				problem("print fmt uses REC->%s, no such field", arg->field.name);
			break;
		case TEP_PRINT_TYPE:
			check_print_args(ev, arg->typecast.item);
			break;
		case TEP_PRINT_OP:
			check_print_args(ev, arg->op.left);
			check_print_args(ev, arg->op.right);
			break;
		case TEP_PRINT_FLAGS:
			check_print_args(ev, arg->flags.field);
			break;
		case TEP_PRINT_SYMBOL:
			check_print_args(ev, arg->symbol.field);
			break;
		case TEP_PRINT_HEX:
		case TEP_PRINT_HEX_STR:
			check_print_args(ev, arg->hex.field);
			check_print_args(ev, arg->hex.size);
			break;
		case TEP_PRINT_INT_ARRAY:
			check_print_args(ev, arg->int_array.field);
			check_print_args(ev, arg->int_array.count);
			check_print_args(ev, arg->int_array.el_size);
			break;
		case TEP_PRINT_FUNC:
			check_print_args(ev, arg->func.args);
			break;
		default:
			break;
		}
	}
}

static void check_required(struct tep_event *ev, const char *what)
{
	int i;

	for (i = 0; i < nr_required; i++) {
		char *list, *name, *save;

		if (strcmp(required[i].event, what))
			continue;
		required[i].seen = true;
		list = strdup(required[i].fields);
		for (name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save))
			if (!tep_find_field(ev, name))
				problem("required field '%s' missing", name);
		free(list);
	}
}

static void check_event(struct tep_handle *tep, const char *dir, const char *sys,
			const char *name)
{
	struct tep_format_field *ct;
	struct tep_event *ev = NULL;
	char path[4096], what[600], err[256];
	struct tep_record rec = { 0 };
	struct trace_seq s;
	enum tep_errno ret;
	int i, end = 0, prev_end = 0;
	size_t size;
	char *buf, *idbuf;
	unsigned char *data = NULL;

	snprintf(what, sizeof(what), "format %s/%s", sys, name);
	snprintf(path, sizeof(path), "%s/%s/%s/format", dir, sys, name);
	buf = read_file(path, &size);
	if (!buf) {
		problem("cannot read %s: %s", path, strerror(errno));
		goto out;
	}
	ret = tep_parse_format(tep, &ev, buf, size, sys);
	if (ret) {
		tep_strerror(tep, ret, err, sizeof(err));
		problem("tep_parse_format: %s", err);
		goto out;
	}
	if (!ev) {
		problem("tep_parse_format returned no event");
		goto out;
	}
	if (ev->flags & TEP_EVENT_FL_FAILED) {
		problem("libtraceevent marked the event as failed%s%s",
			lib_msgs ? ": " : "", lib_msg);
		goto out;
	}
	if (strcmp(ev->name, name)) {
		problem("name '%s' in a directory named '%s'", ev->name, name);
		goto out;
	}

	snprintf(path, sizeof(path), "%s/%s/%s/id", dir, sys, name);
	idbuf = read_file(path, &size);
	if (idbuf) {
		if (atoi(idbuf) != ev->id)
			problem("ID %d in format, %d in id", ev->id, atoi(idbuf));
		free(idbuf);
	}

	/* The common fields of the kernel's own events (struct trace_entry) */
	ct = ev->format.common_fields;
	for (i = 0; i < (int)(sizeof(common) / sizeof(common[0])); i++, ct = ct ? ct->next : NULL) {
		if (!ct || strcmp(ct->name, common[i].name)) {
			problem("common field %d is %s, expected %s", i,
				ct ? ct->name : "missing", common[i].name);
			break;
		}
		if (strcmp(ct->type, common[i].type) || ct->offset != common[i].offset ||
		    ct->size != common[i].size ||
		    !!(ct->flags & TEP_FIELD_IS_SIGNED) != common[i].is_signed) {
			problem("%s: %s at offset %d size %d signed %d, expected %s, %d, %d, %d",
				ct->name, ct->type, ct->offset, ct->size,
				!!(ct->flags & TEP_FIELD_IS_SIGNED), common[i].type,
				common[i].offset, common[i].size, common[i].is_signed);
			break;
		}
	}
	if (!why[0] && ct)
		problem("more common fields than the kernel's: %s", ct->name);

	/*
	 * ftrace/print stands in for the tracing core's events, which a
	 * remote has none of (Documentation/trace/remotes.rst): an id no
	 * record can carry, and an empty flexible array as its one field.
	 */
	if (!strcmp(sys, "ftrace") && !strcmp(name, "print")) {
		struct tep_format_field *f = ev->format.fields;

		if (ev->id != 65536 || ev->format.nr_fields != 1 || !f ||
		    strcmp(f->name, "buf") || f->offset != 8 || f->size != 0 ||
		    !(f->flags & TEP_FIELD_IS_ARRAY))
			problem("placeholder with ID %d and %d fields, expected 65536 and buf[] at 8",
				ev->id, ev->format.nr_fields);
		goto out;
	}

	/* Common fields then event fields, in offset order, without overlap. */
	for (i = 0; i < 2; i++) {
		struct tep_format_field *f = i ? ev->format.fields : ev->format.common_fields;

		for (; f; f = f->next) {
			/* The last event field may be an array of variable length */
			bool tail = i && !f->next && (f->flags & TEP_FIELD_IS_ARRAY) &&
				    !f->arraylen;

			if (f->size < 0 || (!f->size && !tail) || f->offset < 0)
				problem("field %s: offset %d size %d", f->name, f->offset, f->size);
			else if (f->offset < prev_end)
				problem("field %s at offset %d overlaps the previous field (ends at %d)",
					f->name, f->offset, prev_end);
			check_field_type(f);
			prev_end = f->offset + f->size;
			if (prev_end > end)
				end = prev_end;
		}
	}
	if (!ev->format.nr_fields && !ev->format.fields)
		problem("no fields besides the common ones");
	if (!ev->print_fmt.format)
		problem("no print fmt");
	check_print_args(ev, ev->print_fmt.args);
	check_required(ev, what + strlen("format "));
	if (why[0])
		goto out;

	/* Print a zeroed record of this event: the print fmt must be usable. */
	data = calloc(1, end + 64);
	if (!data) {
		problem("out of memory");
		goto out;
	}
	data[0] = ev->id & 0xff;	/* little endian, like the data the test reads */
	data[1] = ev->id >> 8;
	rec.data = data;
	rec.size = end;
	rec.record_size = end;
	trace_seq_init(&s);
	tep_print_event(tep, &s, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	if (strstr(s.buffer, "FAILED TO PARSE") || strstr(s.buffer, "[UNKNOWN"))
		problem("printing a zeroed record gave '%s'", s.buffer);
	else if (verbose)
		printf("     zeroed record: %s\n", s.buffer);
	trace_seq_destroy(&s);
out:
	free(data);
	free(buf);
	verdict(what);
}

static int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static int name_sort(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int check_dir(struct tep_handle *tep, const char *dir)
{
	struct dirent **sys_ents, **ev_ents;
	int nr_sys, nr_ev, i, j, events = 0;
	char path[4096];

	nr_sys = scandir(dir, &sys_ents, NULL, name_sort);
	if (nr_sys < 0) {
		printf("FAIL %s: %s\n", dir, strerror(errno));
		return 0;
	}
	for (i = 0; i < nr_sys; i++) {
		const char *sys = sys_ents[i]->d_name;

		snprintf(path, sizeof(path), "%s/%s", dir, sys);
		if (sys[0] == '.' || !is_dir(path))
			goto next_sys;
		nr_ev = scandir(path, &ev_ents, NULL, name_sort);
		for (j = 0; j < nr_ev; j++) {
			const char *name = ev_ents[j]->d_name;

			snprintf(path, sizeof(path), "%s/%s/%s/format", dir, sys, name);
			if (name[0] != '.' && !access(path, F_OK)) {
				check_event(tep, dir, sys, name);
				events++;
			}
			free(ev_ents[j]);
		}
		if (nr_ev >= 0)
			free(ev_ents);
next_sys:
		free(sys_ents[i]);
	}
	free(sys_ents);
	return events;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: format-check [-v] [-l LONG_SIZE] [-f SYS/EVENT=FIELD[,FIELD...]]... DIR\n"
		"  DIR: a copy of an events/ directory (header_page, header_event,\n"
		"  SYSTEM/EVENT/format); one PASS or FAIL line per item.\n"
		"  -v: also print each event's zeroed record as libtraceevent prints it\n"
		"  -l: the traced kernel's sizeof(long) (default 8)\n"
		"  -f: fail unless SYS/EVENT exists with these fields (repeatable)\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct tep_handle *tep;
	int opt, i, events;

	while ((opt = getopt(argc, argv, "l:f:vh")) != -1) {
		switch (opt) {
		case 'l':
			long_size = atoi(optarg);
			if (long_size != 4 && long_size != 8)
				usage();
			break;
		case 'v':
			verbose = true;
			break;
		case 'f': {
			char *eq = strchr(optarg, '=');

			if (!eq || eq == optarg || !eq[1])
				usage();
			*eq = '\0';
			required = realloc(required, (nr_required + 1) * sizeof(*required));
			if (!required)
				return 2;
			required[nr_required].event = optarg;
			required[nr_required].fields = eq + 1;
			required[nr_required].seen = false;
			nr_required++;
			break;
		}
		default:
			usage();
		}
	}
	if (optind != argc - 1)
		usage();

	tep = tep_alloc();
	if (!tep) {
		fprintf(stderr, "format-check: tep_alloc failed\n");
		return 2;
	}
	tep_set_long_size(tep, long_size);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_loglevel(TEP_LOG_WARNING);

	check_header_page(tep, argv[optind]);
	check_header_event(argv[optind]);
	events = check_dir(tep, argv[optind]);
	if (!events) {
		printf("FAIL %s: no SYSTEM/EVENT/format found\n", argv[optind]);
		failures++;
	}
	for (i = 0; i < nr_required; i++) {
		if (!required[i].seen) {
			printf("FAIL format %s: required event missing\n", required[i].event);
			failures++;
		}
	}
	printf("%d events, %d failures\n", events, failures);
	tep_free(tep);
	free(required);
	return failures ? 1 : 0;
}
