#!/bin/bash
# mainline-report.sh: the probes of the series' own suites, through
# mainline's interface, on the series, on mainline 7.3.4 and on 7.3.4 with
# the queue on mainline: a report, not a gate (docs/mainline.md keeps its
# table).  Builds the series' arm64 kernel, mainline's (flavor
# arm64-mainline, as make bench does) and the queue's (arm64-mainline
# under QUEUE=mainline), boots each in vhe (the test remote) and protected
# (the hypervisor's) with the guest suites for "report" in
# tests/suites/list (ftracetest: the series' kselftests, and the queue's
# for its kernel; mainline-probes), three guests at a time, and prints a
# markdown table, one row per case or probe: the verdicts of the series,
# the queue and mainline, with the first reason a case gave for failing
# on mainline.  NOBUILD=1 skips the builds, NOBOOT=1 the builds and the
# boots (the table from the logs there are).  Logs:
# $OUT/logs/report-<mode>-<flavor>.log, and report-<mode>-queue.log.
set -eu
. "$(dirname "$0")/lib.sh"

flavors="arm64 arm64-mainline" modes="vhe protected" suites=$(suites_for report)
# queue FUNCTION ARGS...: a function of lib.sh for the queue on mainline
queue() { QUEUE=mainline bash -c '. "$0"; "$@"' "$TOP/scripts/lib.sh" "$@"; }

[ -z "${NOBOOT:-}" ] || NOBUILD=1
if [ -z "${NOBUILD:-}" ]; then
	for flavor in $flavors; do
		build_guest "$flavor"
	done
	queue "$TOP/scripts/tree.sh"
	queue build_guest arm64-mainline
fi

mkdir -p "$LOGS"
for mode in $modes; do
	[ -z "${NOBOOT:-}" ] || break
	for flavor in $flavors; do
		say "booting $mode ($flavor): $LOGS/report-$mode-$flavor.log"
		boot_log "$mode" "$flavor" "$suites" "$LOGS/report-$mode-$flavor.log" &
	done
	say "booting $mode (the queue): $LOGS/report-$mode-queue.log"
	queue boot_log "$mode" arm64-mainline "$suites" "$LOGS/report-$mode-queue.log" &
	wait
done

# verdicts LOG: "NAME<TAB>VERDICT<TAB>REASON" per result line of LOG: NAME
# without ftracetest's trailing colon, REASON the rest of the result line,
# or else the first "FAIL: " line a failed case printed, or else its first
# line of a command that failed.
verdicts() {
	awk '
		function flush() {
			if (name != "") print name "\t" verdict "\t" (reason != "" ? reason : other)
			name = ""; other = ""
		}
		/^TR-DONE$/ { done = 1 }
		/^TR-RESULT / {
			flush()
			verdict = $2; name = $3; sub(/:$/, "", name)
			reason = $0; sub(/^TR-RESULT [A-Z]+ [^ ]+ ?/, "", reason)
			if (reason == "FAIL") reason = ""
			next
		}
		name == "" || verdict != "FAIL" || reason != "" { next }
		/^FAIL: / { reason = substr($0, 7, 160); next }
		# else the complaint of the command a case stopped on
		/^[^+[ \t].*(can.t|failed|No such|denied)/ && other == "" { other = substr($0, 1, 160) }
		END {
			flush()
			if (!done) print "(boot)\tFAIL\tthe guest did not finish"
		}' "$1"
}

echo "Mainline 7.3.4 ($MAINLINE_VERSION) against the series, and with the queue on mainline:"
echo "the kselftests (ftracetest, test.d/remotes: the series', the queue's on its kernel) and"
echo "mainline-probes, booted in vhe (test remote) and protected (hypervisor); a case that fails"
echo "on mainline gives its first reason; '-' is a case the kernel's tests do not have."
echo
echo "| mode | case or probe | series | 7.3.4 with the queue | mainline 7.3.4 | mainline's first reason |"
echo "|---|---|---|---|---|---|"
tab=$(printf '\t')
for mode in $modes; do
	join -t "$tab" -a 1 -a 2 -e '-' -o 0,1.2,1.3,2.2,2.3 \
		<(join -t "$tab" -a 1 -a 2 -e '-' -o 0,1.2,2.2 \
			<(verdicts "$LOGS/report-$mode-arm64.log" | sort -t "$tab" -k 1,1) \
			<(verdicts "$LOGS/report-$mode-queue.log" | sort -t "$tab" -k 1,1)) \
		<(verdicts "$LOGS/report-$mode-arm64-mainline.log" | sort -t "$tab" -k 1,1) |
		awk -F '\t' -v mode="$mode" '{ gsub(/\|/, "\\|", $5)
			printf "| %s | %s | %s | %s | %s | %s |\n", mode, $1, $2, $3, $4, $5 }'
done
