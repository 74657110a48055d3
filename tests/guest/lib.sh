# Shared by the guest suites; sourced.
# shellcheck shell=bash
pass() { echo "TR-RESULT PASS $*"; }
fail() { echo "TR-RESULT FAIL $*"; }
skip() { echo "TR-RESULT SKIP $*"; }
T=/sys/kernel/tracing

# blob NAME: copy standard input to the console as base64 between markers;
# the host extracts it from the log (scripts/blobs.sh).
blob() {
	echo "TR-BLOB-BEGIN $1"
	base64
	echo "TR-BLOB-END $1"
}

# has_remote_test: the kernel has the test remote, built in or as a module.
has_remote_test() {
	[ -d "$T/remotes/test" ] || [ -n "$(find /lib/modules -name 'remote_test.ko*' 2>/dev/null)" ]
}

# has_flag FLAG: the mode has FLAG in tests/modes (TR_EXPECT, the flags
# comma separated): "hyp" is not "hyponly".
has_flag() {
	case ",$TR_EXPECT," in *,"$1",*) return 0 ;; esac
	return 1
}

# generic_elsewhere: the mode runs only the hypervisor tests (flag
# "hyponly" in tests/modes); the generic ones run in another mode.
generic_elsewhere() { has_flag hyponly; }

# debug_kernel: the kernel is a -debug flavor (configs/debug.config: its
# lock prover gives /proc/lockdep).
debug_kernel() { [ -e /proc/lockdep ]; }

# uptime_now: the guest's uptime in seconds (centisecond resolution);
# uptime_since T0: the seconds since uptime T0, for "TR-TIME" lines.
uptime_now() { cut -d' ' -f1 /proc/uptime; }
uptime_since() { awk -v t0="$1" '{ printf "%.1f\n", $1 - t0 }' /proc/uptime; }

# ftracetest_select SUITE: set RUN to the test cases of the ftracetest tree
# in the current directory (test.d/remotes/**/*.tc) that run in this mode,
# remotes/hypervisor/boot.tc first.
# Where the mode must have the hypervisor remote (TR_EXPECT has "hyp") its
# cases run; elsewhere they do not, and remotes/hypervisor may not exist.
# In a "hyponly" mode only they run.
# TR_ONLY (a glob on the path below test.d/) narrows the list.  Result
# lines are named "SUITE: ...".  Returns 1 when nothing is left to run.
ftracetest_select() {
	local suite=$1 cases tc
	RUN=
	# remotes/hypervisor/boot.tc reads what was traced since boot, which
	# every other case of the remote throws away: it comes first.
	cases=$(find test.d/remotes -name '*.tc' 2>/dev/null |
		awk '{ print ($0 ~ /\/hypervisor\/boot\.tc$/ ? 0 : 1), $0 }' | sort | cut -d' ' -f2)
	if [ -z "$cases" ]; then
		skip "$suite: no test.d/remotes in this tree"
		return 1
	fi
	# Where the mode has no nVHE hypervisor (vhe, x86_64) the hypervisor
	# cases could only report "unsupported": run them only where it must
	# be there, and check here that it is not where it cannot work.
	if ! has_flag hyp; then
		cases=$(echo "$cases" | grep -v '^test.d/remotes/hypervisor/')
		if [ -d "$T/remotes/hypervisor" ]; then
			fail "$suite: remotes/hypervisor exists in a mode without an nVHE hypervisor"
		else
			skip "$suite: remotes/hypervisor/*: no nVHE hypervisor in this mode"
		fi
	fi
	if generic_elsewhere; then
		cases=$(echo "$cases" | grep '^test.d/remotes/hypervisor/')
	fi
	for tc in $cases; do
		# shellcheck disable=SC2254
		case ${tc#test.d/} in ${TR_ONLY:-*}) RUN="$RUN $tc" ;; esac
	done
	[ -n "$RUN" ]
}

# ftracetest_verdict SUITE CASE RESULT N LOGDIR: one result line for case N,
# "SUITE:remotes/...", from ftracetest's word for it.  Where the hypervisor
# remote is expected its cases may not be unsupported; nor may the generic
# ones because the test remote is missing from a kernel that built it.
ftracetest_verdict() {
	local name=$1:${2#test.d/}
	case $3 in
	PASS) pass "$name" ;;
	UNSUPPORTED)
		case ${2#test.d/},$(has_flag hyp && echo hyp) in
		remotes/hypervisor/*,hyp) fail "$name unsupported where the hypervisor remote is expected" ;;
		remotes/hypervisor/*) skip "$name unsupported" ;;
		*)
			if has_remote_test && [ ! -d "$T/remotes/test" ]; then
				fail "$name unsupported: remote_test is built but remotes/test is missing"
			else
				skip "$name unsupported"
			fi
			;;
		esac
		;;
	*)
		fail "$name: $3"
		cat "$5/$4"-*-log.* 2>/dev/null | tail -n 60
		;;
	esac
}

# ftracetest_run SUITE TAG CASE...: run the ftracetest of the current
# directory once on the CASEs (one start-up and final reset instead of one
# per case).  The Nth result line is case N; its time is that of the line,
# printed as "TR-TIME case TAG<path below test.d/>".
ftracetest_run() {
	local suite=$1 tag=$2 logs=/tmp/$1.logs out=/tmp/$1.out t0
	shift 2
	t0=$(uptime_now)
	./ftracetest -l "$logs" "$@" 2>&1 | tee "$out" | {
		n=0
		while IFS= read -r line; do
			case $line in
			# "[N] description<TAB>[RESULT]"; a case's own output on the
			# console can come between the two.
			*"	["[A-Z]*"]")
				if [ $# = 0 ]; then
					fail "$suite: a result beyond the $n cases run: $line"
					continue
				fi
				n=$((n + 1))
				word=${line##*[}
				echo "TR-TIME case $tag${1#test.d/} $(uptime_since "$t0")"
				t0=$(uptime_now)
				ftracetest_verdict "$suite" "$1" "${word%]}" "$n" "$logs"
				shift
				;;
			esac
		done
		for tc; do
			fail "$suite:${tc#test.d/}: no result (ftracetest ended early)"
		done
		[ $# = 0 ] || tail -n 30 "$out"
	}
	rm -rf "$logs"
}

# mainline_ftrace SUITE DIR: make DIR a copy of the tree's ftracetest
# (/tests/ftrace) whose test.d/remotes is mainline's (/tests/mainline, from
# Debian's package) and cd there; fails with a result line if it cannot.
mainline_ftrace() {
	if [ ! -d /tests/mainline/test.d/remotes ]; then
		fail "$1: no mainline kselftests in this initramfs (make deps)"
		return 1
	fi
	rm -rf "$2"
	if ! cp -a /tests/ftrace "$2" || ! rm -rf "$2/test.d/remotes" ||
		! cp -a /tests/mainline/test.d/remotes "$2/test.d/remotes" || ! cd "$2"; then
		fail "$1: cannot make $2 from /tests/ftrace and /tests/mainline"
		return 1
	fi
}

# ftracetest_rounds SUITE ROUNDS CASE: run CASE ROUNDS times in one
# ftracetest run of the current directory; one result line, "SUITE:<path
# below test.d/>: N of ROUNDS rounds", passed only if every round passed.
ftracetest_rounds() {
	local suite=$1 rounds=$2 tc=$3 t0 n
	t0=$(uptime_now)
	# shellcheck disable=SC2046
	n=$(./ftracetest $(for _ in $(seq "$rounds"); do echo "$tc"; done) 2>&1 |
		grep -c '	\[PASS\]$')
	echo "TR-TIME case $suite-rounds:${tc#test.d/} $(uptime_since "$t0")"
	if [ "$n" = "$rounds" ]; then
		pass "$suite:${tc#test.d/}: $n of $rounds rounds"
	else
		fail "$suite:${tc#test.d/}: $n of $rounds rounds passed"
	fi
}

# copy_events REMOTE_DIR DEST: copy REMOTE_DIR/events (header_page,
# header_event, each event's format and id) to DEST/events.  tracefs files
# report size 0: they are copied by reading them, not with tar or cp.
copy_events() {
	(cd "$1" && find events -type d) | while read -r d; do mkdir -p "$2/$d"; done
	(cd "$1" && find events -type f \( -name format -o -name id -o -name 'header_*' \)) |
		while read -r f; do cat "$1/$f" > "$2/$f"; done
}

# write_ids FILE FIRST LAST: write the ids FIRST..LAST to FILE, spread over
# the CPUs (CPU c writes FIRST+c, FIRST+c+ncpus, ...), one write() per id
# through one open file per CPU, and wait for them.
write_ids() {
	local cpus c
	cpus=$(nproc)
	(
		for c in $(seq 0 $((cpus - 1))); do
			taskset -c "$c" sh -c "exec 3> $1; for i in \$(seq $(($2 + c)) $cpus $3); do echo \$i >&3; done" &
		done
		wait
	)
}

# tracecmd_in DIR ARGS...: run trace-cmd ARGS with the remote DIR as its
# tracing directory.  libtracefs takes the first tracefs mount in
# /proc/mounts, so DIR is bind-mounted over /sys/kernel/tracing in a private
# mount namespace (Documentation/trace/remotes.rst, "trace-cmd").  The
# trace-cmd run is $TRACECMD: Debian 12's unless set (sid's: $SID_RUN
# $SID/bin/trace-cmd).
tracecmd_in() {
	TRACECMD=${TRACECMD:-trace-cmd} unshare -m \
		sh -c 'mount -o bind "$0" /sys/kernel/tracing && exec $TRACECMD "$@"' "$@"
}

# Debian sid's user space in arm64 guests (make deps,
# scripts/sid-fetch.sh): $SID_RUN $SID/bin/PROG ARGS... runs sid's
# PROG through sid's own dynamic loader and libraries (sid's glibc is newer
# than the guest's), its libtraceevent with sid's plugins (it loads those
# of its compiled-in /usr/lib/aarch64-linux-gnu/traceevent/plugins,
# Debian 12's here, then TRACEEVENT_PLUGIN_DIR's, which replace them).
SID=/opt/sid
SID_RUN="env TRACEEVENT_PLUGIN_DIR=$SID/lib/traceevent/plugins $SID/lib/ld-linux-aarch64.so.1 --library-path $SID/lib"

# selftests_per_cpu N FILE: from each CPU c in turn, write the selftest
# ids c*N+1 .. c*N+N to the remote's write_event FILE, one open file per
# CPU.
selftests_per_cpu() {
	local cpu
	for cpu in $(seq 0 $(($(nproc) - 1))); do
		taskset -c "$cpu" sh -c "for i in \$(seq $((cpu * $1 + 1)) $((cpu * $1 + $1))); do echo \$i; done > $2"
	done
}

# perfetto_record SUITE OUT WORKLOAD: record the hypervisor with Perfetto as
# a user would, into OUT/trace.pftrace: traced and traced_probes in the
# background, then perfetto with the data source "linux.ftrace" on the
# instance "hypervisor" (the remote's alias at the root of tracefs), every
# event of the group "hypervisor", while the command WORKLOAD runs (a
# shell function); SIGINT ends the recording (duration_ms only bounds it).
# The suite defines perfetto_bin NAME ARGS..., which execs Perfetto's
# program NAME.  Their output is in OUT/*.log.  Reports a failure of
# SUITE and returns 1 when Perfetto fails.
perfetto_record() {
	local suite=$1 out=$2 workload=$3 H=$T/hypervisor daemons pid rc _
	# Sockets of their own: no system daemon in the way
	export PERFETTO_CONSUMER_SOCK_NAME=$out/consumer.sock
	export PERFETTO_PRODUCER_SOCK_NAME=$out/producer.sock
	echo 0 > "$H/tracing_on"
	echo > "$H/trace"
	(cd "$out" && perfetto_bin traced) > "$out/traced.log" 2>&1 &
	daemons=$!
	for _ in $(seq 100); do [ -S "$PERFETTO_PRODUCER_SOCK_NAME" ] && break; sleep 0.1; done
	(cd "$out" && perfetto_bin traced_probes) > "$out/traced_probes.log" 2>&1 &
	daemons="$daemons $!"
	cat > "$out/config.pbtx" <<'CFG'
buffers { size_kb: 16384 fill_policy: DISCARD }
data_sources {
	config {
		name: "linux.ftrace"
		ftrace_config {
			instance_name: "hypervisor"
			ftrace_events: "hypervisor/*"
			buffer_size_kb: 1024
		}
	}
}
duration_ms: 20000
CFG
	(cd "$out" && perfetto_bin perfetto --txt -c config.pbtx -o trace.pftrace) > "$out/perfetto.log" 2>&1 &
	pid=$!
	# perfetto switches tracing on once traced_probes set the instance up
	for _ in $(seq 100); do
		[ "$(cat "$H/tracing_on")" = 1 ] && break
		sleep 0.1
	done
	if [ "$(cat "$H/tracing_on")" != 1 ]; then
		fail "$suite: tracing never started: $(cat "$out"/*.log)"
		kill $pid $daemons
		return 1
	fi
	$workload
	kill -INT $pid
	wait $pid
	rc=$?
	tail -n 5 "$out/perfetto.log"
	# shellcheck disable=SC2086
	kill $daemons 2>/dev/null
	# shellcheck disable=SC2086
	wait $daemons 2>/dev/null
	if [ $rc != 0 ] || [ ! -s "$out/trace.pftrace" ]; then
		fail "$suite: perfetto exited with $rc, trace of $(stat -c %s "$out/trace.pftrace" 2>/dev/null) bytes: $(tail -n 3 "$out"/*.log)"
		return 1
	fi
}
