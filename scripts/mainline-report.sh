#!/bin/bash
# mainline-report.sh: the probes of the series' own suites, through
# mainline's interface, on the series and on mainline 7.3.4: a report, not a
# gate (docs/mainline.md keeps its table).  Builds the series' arm64 kernel
# and mainline's (flavor arm64-mainline, as make bench does), boots each in
# vhe (the test remote) and protected (the hypervisor's) with the guest
# suites for "report" in tests/suites/list (ftracetest, the series'
# kselftests, and mainline-probes), two guests at a time, and prints a
# markdown table, one row per case or probe: the series' verdict and
# mainline's, with the first reason a case gave for failing.  NOBUILD=1
# skips the builds.  Logs: $OUT/logs/report-<mode>-<flavor>.log.
set -eu
. "$(dirname "$0")/lib.sh"

flavors="arm64 arm64-mainline" modes="vhe protected" suites=$(suites_for report)
if [ -z "${NOBUILD:-}" ]; then
	for flavor in $flavors; do
		build_guest "$flavor"
	done
fi

mkdir -p "$LOGS"
for mode in $modes; do
	for flavor in $flavors; do
		say "booting $mode ($flavor): $LOGS/report-$mode-$flavor.log"
		boot_log "$mode" "$flavor" "$suites" "$LOGS/report-$mode-$flavor.log" &
	done
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

echo "Mainline 7.3.4 ($MAINLINE_VERSION) against the series: the series' kselftests"
echo "(ftracetest, test.d/remotes) and mainline-probes, booted in vhe (test remote) and protected"
echo "(hypervisor); a case that fails gives its first reason."
echo
echo "| mode | case or probe | series | mainline 7.3.4 | mainline's first reason |"
echo "|---|---|---|---|---|"
for mode in $modes; do
	join -t "$(printf '\t')" -a 1 -a 2 -e '-' -o 0,1.2,2.2,2.3 \
		<(verdicts "$LOGS/report-$mode-arm64.log" | sort -t "$(printf '\t')" -k 1,1) \
		<(verdicts "$LOGS/report-$mode-arm64-mainline.log" | sort -t "$(printf '\t')" -k 1,1) |
		awk -F '\t' -v mode="$mode" '{ gsub(/\|/, "\\|", $4); printf "| %s | %s | %s | %s | %s |\n", mode, $1, $2, $3, $4 }'
done
