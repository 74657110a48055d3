#!/bin/bash
# bench.sh: build the arm64 and x86_64 kernels (not debug), boot arm64 in
# mode protected and x86_64 in mode x86_64 with the guest suite "bench",
# and print a markdown table of what it measured:
#  - the write cost per event of simple_ring_buffer and of the kernel ring
#    buffer (module remote_bench, CONFIG_TRACE_REMOTE_BENCHMARK), median
#    over its rounds, and their ratio;
#  - the text read cost per line of remotes/test/trace_pipe and of the
#    top-level trace_pipe (tests/bin/bench-read), and their ratio.
# Every guest runs under TCG: only ratios within one boot mean something.
# NOBUILD=1 skips the builds.  Logs: $OUT/logs/bench-<mode>-<flavor>.log.
set -eu
. "$(dirname "$0")/lib.sh"

runs="protected:arm64 x86_64:x86_64"
mkdir -p "$LOGS"

if [ -z "${NOBUILD:-}" ]; then
	for run in $runs; do
		flavor=${run#*:}
		say "building $flavor"
		"$TOP/scripts/build-kernel.sh" "$flavor"
		"$TOP/scripts/mkinitramfs.sh" "$flavor"
	done
fi

# get LOG KEY: the value of "TR-BENCH KEY value" in LOG, or "?"
get() { awk -v k="$2" '$1 == "TR-BENCH" && $2 == k { v = $3 } END { print v == "" ? "?" : v }' "$1"; }

rows=() clocks=
for run in $runs; do
	mode=${run%%:*} flavor=${run#*:}
	log=$LOGS/bench-$mode-$flavor.log
	say "booting $mode ($flavor): $log"
	boot_log "$mode" "$flavor" bench "$log"
	grep -E '^(TR-RESULT (FAIL|SKIP)|remote_bench: )' "$log" | sed 's/^/  /' >&2 || true
	if ! grep -qx TR-DONE "$log"; then
		say "$mode: the guest did not finish, see $log; it ends with:"
		tail -n 15 "$log" | sed 's/^/  /' >&2
	fi
	clocks+=" $(flavor_arch "$flavor") $(get "$log" write_median_clock_ns),"
	rows+=("| $(flavor_arch "$flavor") ($mode) | $(get "$log" write_median_simple_ns) |\
 $(get "$log" write_median_ring_buffer_ns) | $(get "$log" write_median_ratio) |\
 $(get "$log" read_remote_ns_per_line) vs $(get "$log" read_top_ns_per_line) |\
 $(get "$log" read_ratio) |")
done

echo
echo "QEMU/TCG guests on a shared host: compare the ratios within one boot, never absolute times."
echo "Write: ns/event of reserve+commit, median over the rounds of remote_bench."
echo "Read: ns/line draining trace_pipe, remote (remotes/test) vs top-level, median of the repetitions."
echo
echo "| arch | simple_ring_buffer ns/event | ring_buffer ns/event | ratio | trace_pipe read ns/line remote vs top-level | ratio |"
echo "|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "trace_clock_local() alone, ns/call, included in both write costs:${clocks%,}"
