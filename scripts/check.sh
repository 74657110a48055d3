#!/bin/bash
# check.sh [--quick] [MODE...]: the test command.  Host-side checks of the
# series (skipped with --quick), then for each MODE (default: every line of
# tests/modes) build its kernel flavor, boot it and run the guest suites;
# without --quick also the series checks of check-series.sh.  Kernel builds
# run niced in the background, guests start as soon as their kernel is
# there, GUESTS of them at once (one guest rarely keeps more than one core
# busy); each job's output is printed when it ends.  Closes with where the
# time went, how busy the cores were and "N passed, N failed, N skipped".
# Environment: DEBUG=1 uses the -debug flavors (the default without
# --quick); SUITES=a,b picks guest suites (tests/suites/list); ONLY=GLOB
# narrows ftracetest to matching test cases; SERIES=0|1 leaves out or adds
# the series checks, PATCHES_CHECK=0|1 those of the patches (checkpatch,
# git am); QUEUE=mainline checks the queue on mainline instead (make
# check-mainline), with the guest suites for "queue", which make check
# runs after the series' (MAINLINE=0 leaves it out); BISECT=1 (make
# check-full) builds every patch of the
# series on its own, where make check builds the tip and checks that
# tests/bisected names the series (scripts/check-series.sh).  First of
# all, in seconds, the Debian packages make deps took, the judge's own
# tests and, without --quick, how fetches pick versions (fetch-test.sh).
set -eu
. "$(dirname "$0")/lib.sh"

quick=0
[ "${1:-}" = --quick ] && { quick=1; shift; }
debug=${DEBUG:-$((1 - quick))}
series=${SERIES:-$((1 - quick))}
export BISECT=${BISECT:-0}
guests=${GUESTS:-2}
modes=${*:-$(modes_without nocheck)}
suites_for check "${SUITES:-}" > /dev/null	# dies on an unknown suite
jobs=$OUT/jobs

# job NAME COMMAND...: run COMMAND with its own results, times and output
# in $jobs; a command that fails without reporting a failure gets one.
job() {
	local name=$1
	shift
	RESULTS=$jobs/$name.results TIMES=$jobs/$name.times "$@" > "$jobs/$name.out" 2>&1 ||
		grep -qsx FAIL "$jobs/$name.results" || {
		echo "FAIL $name: $* exited without a result" >> "$jobs/$name.out"
		echo FAIL >> "$jobs/$name.results"
	}
}

results_reset
rm -rf "$jobs"
mkdir -p "$LOGS" "$jobs"
start=$(date +%s)
read -r _ u n sy idle _ < /proc/stat
busy0=$((u + n + sy)) all0=$((u + n + sy + idle))
"$TOP/scripts/versions.sh"
job judge "$TOP/scripts/judge-test.sh"
cat "$jobs/judge.out"
if [ $quick = 0 ]; then
	job fetch "$TOP/scripts/fetch-test.sh"
	cat "$jobs/fetch.out"
fi
"$TOP/scripts/tree.sh"
# The host-side checks of the patches (checkpatch, 70-100 CPU-seconds)
# at the lowest priority, in what the rest leaves idle: beside the first
# build at nice 0, they kept it to one core and the first guests waiting.
if [ "${PATCHES_CHECK:-$((1 - quick))}" = 1 ]; then
	(
		renice -n 19 -p "$BASHPID" > /dev/null
		step_start
		job patches "$TOP/scripts/check-patches.sh"
		step_end
		timed host series check-patches "$STEP_WALL" "$STEP_CPU"
	) &
fi

flavors=
for mode in $modes; do
	flavor=$(mode_flavor "$mode" "$debug")
	case " $flavors " in *" $flavor "*) ;; *) flavors="$flavors $flavor" ;; esac
done

# build FLAVOR: build a kernel flavor and its initramfs; its stamp,
# "ok|fail SECONDS CPU-SECONDS", is written then renamed: seen whole or
# not at all.
build() {
	local r=fail
	step_start
	"$TOP/scripts/build-kernel.sh" "$1" > "$LOGS/build-$1.log" 2>&1 &&
		"$TOP/scripts/mkinitramfs.sh" "$1" >> "$LOGS/build-$1.log" 2>&1 && r=ok
	step_end
	echo "$r $STEP_WALL $STEP_CPU" > "$jobs/$1.tmp"
	mv "$jobs/$1.tmp" "$jobs/$1.built"
}

# The builds, niced so that the guests (which time out) keep their pace:
# the first flavor alone, then the other flavors one after the other and,
# beside them at the same nice level, the series checks (whose bisect
# starts from the first flavor's objects in ccache).  With the other
# flavors at nice 15, a cold run ended with the x86_64 guest alone on one
# core for 220 s; at the same level its kernel is there while the bisect
# still has work for the other core.  Not higher: in a warm run at nice 5
# the guests took 12% more CPU for the same work, and the run was slower
# (more than the spread of identical warm runs).
(
	renice -n 10 -p "$BASHPID" > /dev/null
	# shellcheck disable=SC2086
	set -- $flavors
	build "$1"
	shift
	for flavor; do build "$flavor"; done &
	[ "$series" = 0 ] || job series "$TOP/scripts/check-series.sh"
	wait
	touch "$jobs/builds.done"
) &
started="" printed=""
flush() {	# print the output of the guests that ended, once
	local m
	for m in $started; do
		case " $printed " in *" $m "*) continue ;; esac
		[ -e "$jobs/$m.done" ] || continue
		cat "$jobs/$m.out"
		printed="$printed $m"
	done
}
running() {	# the number of guests still running
	local m n=0
	for m in $started; do [ -e "$jobs/$m.done" ] || n=$((n + 1)); done
	echo $n
}
built=
for mode in $modes; do
	flavor=$(mode_flavor "$mode" "$debug")
	until [ -e "$jobs/$flavor.built" ]; do flush; sleep 2; done
	read -r r secs cpu < "$jobs/$flavor.built"
	case " $built " in
	*" $flavor "*) ;;
	*)
		built="$built $flavor"
		timed build "$flavor" kernel "$secs" "$cpu"
		if [ "$r" = ok ]; then
			result PASS "build: $flavor ($secs s)"
		else
			result FAIL "build: $flavor (see $LOGS/build-$flavor.log)"
			tail -n 30 "$LOGS/build-$flavor.log"
		fi
		;;
	esac
	if [ "$r" != ok ]; then
		result SKIP "$mode: $flavor did not build"
		continue
	fi
	while [ "$(running)" -ge "$guests" ]; do flush; sleep 2; done
	# A production kernel has none of the test options the other suites
	# need: there the suites for "prod" run.
	if mode_has "$mode" prod; then
		msuites=$(suites_for prod)
	elif [ "$QUEUE" = mainline ]; then
		msuites=$(suites_for queue "${SUITES:-}")
	else
		msuites=$(suites_for check "${SUITES:-}")
	fi
	(
		ONLY=${ONLY:-} job "$mode" "$TOP/scripts/boot.sh" "$mode" "$flavor" "$msuites"
		job "$mode" "$TOP/scripts/judge.sh" "$mode" "$LOGS/$mode-$flavor.log"
		touch "$jobs/$mode.done"
	) &
	started="$started $mode"
done
while [ "$(running)" -gt 0 ]; do flush; sleep 2; done
flush
wait
# The queue on mainline (make check-mainline) once the series is done: its
# guests take the series' guest programs.  MAINLINE=0 leaves it out.
if [ "$QUEUE" = series ] && [ "${MAINLINE:-$((1 - quick))}" = 1 ]; then
	job mainline env QUEUE=mainline PATCHES_CHECK=1 SUITES= "$TOP/scripts/check.sh" --quick \
		$(modes_with quick)
	cat "$jobs/mainline.out"
fi
for f in patches series; do
	[ ! -e "$jobs/$f.out" ] || cat "$jobs/$f.out"
done
cat "$jobs"/*.results >> "$RESULTS" 2>/dev/null || true
cat "$jobs"/*.times >> "$TIMES" 2>/dev/null || true
timed host check total $(($(date +%s) - start))
read -r _ u n sy idle _ < /proc/stat
"$TOP/scripts/times.sh"
echo "Cores busy: $((100 * (u + n + sy - busy0) / (u + n + sy + idle - all0)))% of $(nproc)," \
	"$(((u + n + sy - busy0) / CLK_TCK)) CPU-seconds"
summary
