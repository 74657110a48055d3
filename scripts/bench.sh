#!/bin/bash
# bench.sh: build the arm64 and x86_64 kernels (not debug), boot arm64 in
# modes protected and protected-icount and x86_64 in mode x86_64 with the
# guest suite "bench", and print markdown tables of what it measured:
#  - the write cost per event of simple_ring_buffer and of the kernel ring
#    buffer (module remote_bench, CONFIG_TRACE_REMOTE_BENCHMARK), median
#    over its rounds, and their ratio;
#  - the text read cost per line of remotes/test/trace_pipe and of the
#    top-level trace_pipe (tests/bin/bench-read), and their ratio;
#  - the raw read throughput (MB/s of page data) of
#    remotes/test/per_cpu/cpu0/trace_pipe_raw and of the top level's, with
#    read() and splice() (tests/bin/bench-raw), and their ratio;
#  - on arm64, the cost of a no-op host hypercall and of a guest MMIO exit
#    round trip with hypervisor tracing off, on with the events disabled,
#    and on with the events enabled, and their ratios to "off": in wall time
#    (protected) and in instructions (protected-icount, where the guest's
#    nanoseconds count instructions), and from the no-op hypercall the
#    cost of one event written at EL2;
#  - on arm64, the longest call of each tracing hypercall while buffers of
#    1 MiB and 64 MiB per CPU are loaded, written, reset, read and unloaded
#    (instructions in protected-icount: the goal is 200 000 at most).
#  - mainline beside the series: mainline 7.3.4's kernel (flavor
#    arm64-mainline, scripts/mainline-fetch.sh tree) and the series' arm64,
#    each booted in protected-icount with the guest suite bench-mainline,
#    which measures both through mainline's interface only (write_event
#    round trips, one event at EL2, trace and trace_pipe read per line, a
#    guest MMIO exit), in instructions; MAINLINE=0 leaves it out;
#  - on both, how soon a reader blocked in trace_pipe gets an event, and
#    what waiting costs an idle machine (guest suite reader-wake).
# Every guest runs under TCG: only ratios within one boot mean something.
# NOBUILD=1 skips the builds.  Logs: $OUT/logs/bench-<mode>-<flavor>.log.
set -eu
. "$(dirname "$0")/lib.sh"

# The modes flagged "bench" in tests/modes, on the normal kernels
# (BENCH_RUNS="MODE:FLAVOR ...", or empty for mainline beside the series alone)
runs=${BENCH_RUNS-$(for m in $(modes_with bench); do echo "$m:$(mode_flavor "$m" 0)"; done)}
mkdir -p "$LOGS"

# Mainline beside the series: the same mode, both kernels
anchor_mode=protected-icount anchor_runs=
[ "${MAINLINE:-1}" = 0 ] || anchor_runs="$(mode_flavor $anchor_mode 0) arm64-mainline"

if [ -z "${NOBUILD:-}" ]; then
	# shellcheck disable=SC2046
	for flavor in $(for run in $runs $anchor_runs; do echo "${run#*:}"; done | awk '!seen[$0]++'); do
		build_guest "$flavor"
	done
fi

# get LOG KEY: the value of "TR-BENCH KEY value" in LOG, or "?"
get() { awk -v k="$2" '$1 == "TR-BENCH" && $2 == k { v = $3 } END { print v == "" ? "?" : v }' "$1"; }
# per A B [D]: A / B with D decimals (1), "?" unless both are numbers
per() { awk -v a="$1" -v b="$2" -v d="${3:-1}" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.*f\n", d, a / b; else print "?" }'; }

rows=() raw=() hyp=() fns=() hcalls=() wakes=() clocks= events= funcs= patching=
# wake LOG REMOTE HOW: "median / p90 / worst" of reader-wake's delays
wake() { echo "$(get "$1" "wake_$2_$3_median_us") / $(get "$1" "wake_$2_$3_p90_us") / $(get "$1" "wake_$2_$3_worst_us")"; }
for run in $runs; do
	mode=${run%%:*} flavor=${run#*:}
	log=$LOGS/bench-$mode-$flavor.log
	say "booting $mode ($flavor): $log"
	boot_log "$mode" "$flavor" bench,reader-wake "$log"
	grep -E '^(TR-RESULT (FAIL|SKIP)|remote_bench: )' "$log" | sed 's/^/  /' >&2 || true
	if ! grep -qx TR-DONE "$log"; then
		say "$mode: the guest did not finish, see $log; it ends with:"
		tail -n 15 "$log" | sed 's/^/  /' >&2
	fi
	for what in "hyp:no-op hypercall" "exit:guest MMIO exit"; do
		k=${what%%:*}
		[ "$(get "$log" "${k}_off_ns")" = "?" ] ||
			hyp+=("| $mode | ${what#*:} | $(get "$log" "${k}_off_ns") | $(get "$log" "${k}_idle_ns") |\
 $(get "$log" "${k}_on_ns") | $(get "$log" "${k}_idle_ratio") | $(get "$log" "${k}_on_ratio") |")
		[ "$(get "$log" "${k}_fn_ns")" = "?" ] ||
			fns+=("| $mode | ${what#*:} | $(get "$log" "${k}_off_ns") | $(get "$log" "${k}_fn_ns") |\
 $(get "$log" "${k}_path_ns") | $(get "$log" "${k}_fn_ratio") | $(get "$log" "${k}_path_ratio") |")
	done
	[ "$(get "$log" hyp_func_ns)" = "?" ] ||
		funcs+=" $mode $(get "$log" hyp_func_ns),"
	[ "$(get "$log" hyp_ftrace_all_ns)" = "?" ] ||
		patching+=" $mode: $(get "$log" hyp_ftrace_sites) sites, $(get "$log" hyp_ftrace_all_ns) to trace all, $(get "$log" hyp_ftrace_none_ns) to trace none;"
	# TR-BENCH hcall_NAME_KB_calls N, hcall_NAME_KB_longest_ns L: a row per
	# hypercall, "calls / longest" per size, in the order of the log
	mapfile -t -O ${#hcalls[@]} hcalls < <(awk -v mode="$mode" '
		$1 == "TR-BENCH" && $2 ~ /^hcall_.*_[0-9]+_(calls|longest_ns)$/ {
			k = $2; sub(/^hcall_/, "", k)
			what = k ~ /_calls$/ ? "calls" : "longest"
			sub(/_(calls|longest_ns)$/, "", k)
			kb = k; sub(/.*_/, "", kb); name = k; sub(/_[0-9]+$/, "", name)
			if (!(name in seen)) { seen[name] = 1; names[++n] = name }
			if (!(kb in kbseen)) { kbseen[kb] = 1; kbs[++m] = kb }
			v[name, kb, what] = $3
		}
		END {
			for (i = 1; i <= n; i++) {
				row = "| " mode " | " names[i] " |"
				for (j = 1; j <= m; j++)
					row = row " " kbs[j] / 1024 " MiB: " v[names[i], kbs[j], "calls"] \
					      " calls, longest " v[names[i], kbs[j], "longest"] " |"
				print row
			}
		}' "$log")
	[ "$(get "$log" hyp_event_ns)" = "?" ] ||
		events+=" $mode $(get "$log" hyp_event_ns),"
	[ "$(get "$log" wake_test_read_median_us)" = "?" ] ||
		wakes+=("| $mode | $(wake "$log" test read) | $(wake "$log" test poll) |\
 $(wake "$log" hypervisor read) | $(wake "$log" hypervisor poll) |\
 $(get "$log" wake_hypervisor_idle_busy_pct) / $(get "$log" wake_hypervisor_idle_reader_busy_pct) |")
	clocks+=" $(flavor_arch "$flavor") ($mode) $(get "$log" write_median_clock_ns),"
	rows+=("| $(flavor_arch "$flavor") ($mode) | $(get "$log" write_median_simple_ns) |\
 $(get "$log" write_median_ring_buffer_ns) | $(get "$log" write_median_ratio) |\
 $(get "$log" read_remote_ns_per_line) vs $(get "$log" read_top_ns_per_line) |\
 $(get "$log" read_ratio) |")
	raw+=("| $(flavor_arch "$flavor") ($mode) |\
 $(per "$(get "$log" raw_read_remote_bytes)" "$(get "$log" raw_events)") vs\
 $(per "$(get "$log" raw_read_top_bytes)" "$(get "$log" raw_events)") |\
 $(get "$log" raw_read_remote_mb_s) vs $(get "$log" raw_read_top_mb_s) | $(get "$log" raw_read_ratio) |\
 $(get "$log" raw_splice_remote_mb_s) vs $(get "$log" raw_splice_top_mb_s) | $(get "$log" raw_splice_ratio) |\
 $(get "$log" raw_mmap_remote_mb_s) vs $(get "$log" raw_mmap_top_mb_s) | $(get "$log" raw_mmap_ratio) |")
done

if [ -n "$runs" ]; then
	echo
	echo "QEMU/TCG guests on a shared host: compare the ratios within one boot, never absolute times."
	echo "Write: ns/event of reserve+commit, median over the rounds of remote_bench."
	echo "Read: ns/line draining trace_pipe, remote (remotes/test) vs top-level, median of the repetitions."
	echo
	echo "| arch | simple_ring_buffer ns/event | ring_buffer ns/event | ratio | trace_pipe read ns/line remote vs top-level | ratio |"
	echo "|---|---|---|---|---|---|"
	printf '%s\n' "${rows[@]}"
	echo
	echo "Raw read: MB/s of page data draining per_cpu/cpu0/trace_pipe_raw (read(), splice(), or mapped: GET_READER a page), remote (remotes/test, selftest events)"
	echo "vs top-level (trace_marker_raw records of 8 bytes), the same number of events, median of the repetitions;"
	echo "ratio = remote / top-level (goal >= 0.9)."
	echo
	echo "| arch | bytes/event in the pages, remote vs top-level | read() MB/s remote vs top-level | ratio | splice() MB/s remote vs top-level | ratio | mmap MB/s remote vs top-level | ratio |"
	echo "|---|---|---|---|---|---|---|---|"
	printf '%s\n' "${raw[@]}"
	echo
	echo "trace_clock_local() alone, ns/call, included in both write costs:${clocks%,}"
	echo
	echo "Hypervisor round trips (arm64, pKVM hVHE), median ns over the repetitions; in protected-icount"
	echo "the guest's ns are instructions. No-op hypercall: /sys/kernel/debug/kvm/hyp_trace_bench, events"
	echo "enabled = hyp_enter, host_hcall and hyp_exit written on every call. Guest MMIO exit: KVM_RUN to"
	echo "KVM_RUN in tests/bin/kvm-guest, through EL2, the host's KVM and user space."
	echo
	echo "| mode | round trip | tracing off | on, events disabled | on, events enabled | ratio disabled/off | ratio enabled/off |"
	echo "|---|---|---|---|---|---|---|"
	printf '%s\n' "${hyp[@]}"
	echo
	echo "One event written at EL2 ((enabled - disabled) / 3 of the no-op hypercall; instructions in"
	echo "protected-icount):${events%,}"
	echo
	if [ ${#fns[@]} -gt 0 ]; then
		echo "Function tracing (CONFIG_NVHE_EL2_FTRACE): the same round trips with tracing off, with the"
		echo "handler of the no-op hypercall traced alone (func and func_ret, no other event), and with"
		echo "every event on and the host's hypercall path traced (set_ftrace_filter 'handle_trap handle___*')."
		echo
		echo "| mode | round trip | tracing off | one function traced | hypercall path traced | ratio one/off | ratio path/off |"
		echo "|---|---|---|---|---|---|---|"
		printf '%s\n' "${fns[@]}"
		echo
		echo "One traced function at EL2, entry and return with their two events ((one traced - disabled)"
		echo "of the no-op hypercall; instructions in protected-icount):${funcs%,}"
		echo
		echo "Writing '*' and then nothing to set_ftrace_filter, func on (ns; instructions in"
		echo "protected-icount, to the microsecond): every __tracing_ftrace_set call of the write and the"
		echo "host's work, a bound of the longest call (goal <= 200000):${patching%;}"
		echo
	fi
	echo "Tracing hypercalls: calls, and the longest call (ns, round trip included; instructions in"
	echo "protected-icount, goal <= 200000 whatever the size) while buffers of each size per CPU are"
	echo "loaded, written, reset, read and unloaded (/sys/kernel/debug/kvm/hyp_trace_calls)."
	echo
	echo "| mode | hypercall | smaller buffers | larger buffers |"
	echo "|---|---|---|---|"
	printf '%s\n' "${hcalls[@]}"
	echo
	echo "Reader wake-up (suite reader-wake): from write_event's write() to the return of the read() that"
	echo "gives the event, median / p90 / worst over 200 events 1-5 ms apart, guest us (thousands of"
	echo "instructions in protected-icount), the reader blocked in read() or poll() of trace_pipe; then"
	echo "the share of all CPUs busy on an idle machine for 5 s, without / with a reader blocked on the"
	echo "hypervisor's trace_pipe (%)."
	echo
	echo "| mode | test, read() | test, poll() | hypervisor, read() | hypervisor, poll() | idle busy %, no reader / reader |"
	echo "|---|---|---|---|---|---|"
	printf '%s\n' "${wakes[@]}"
fi
[ -n "$anchor_runs" ] || exit 0
# Mainline beside the series: row label, then the key of each number
anchor_rows=(
	"write_event, tracing off|write_off_ns"
	"write_event, selftest on|write_selftest_ns"
	"write_event, selftest, hyp_enter and hyp_exit on|write_entry_ns"
	"one event at EL2 ((previous - selftest on) / 2)|event_ns"
	"trace, read per line|read_trace_ns_per_line"
	"trace_pipe, read per line|read_trace_pipe_ns_per_line"
	"guest MMIO exit, tracing off|exit_none_ns"
	"guest MMIO exit, every event on|exit_all_ns"
	"what every event on adds to a guest MMIO exit|exit_added_ns"
	"trace_pipe reader woken after write_event, median, thousands (test remote)|wake_test_read_median_us"
	"the same, hypervisor|wake_hypervisor_read_median_us"
	"idle, a reader blocked on the hypervisor's trace_pipe: CPU busy (%)|wake_hypervisor_idle_reader_busy_pct"
	"the same without a reader (%)|wake_hypervisor_idle_busy_pct"
)
for flavor in $anchor_runs; do
	log=$LOGS/bench-mainline-$flavor.log
	say "booting $anchor_mode ($flavor): $log"
	boot_log $anchor_mode "$flavor" bench-mainline,reader-wake "$log"
	grep -E '^TR-RESULT (FAIL|SKIP)' "$log" | sed 's/^/  /' >&2 || true
	grep -qx TR-DONE "$log" || say "$flavor: the guest did not finish, see $log"
done
series=$LOGS/bench-mainline-${anchor_runs%% *}.log
mainline=$LOGS/bench-mainline-arm64-mainline.log
echo
echo "Mainline beside the series ($anchor_mode: instructions, the guest's ns under -icount), the"
echo "same guest suite (bench-mainline) through mainline's interface only, median of the repetitions:"
echo "the series' arm64 kernel against Debian's linux-source-7.3 ($MAINLINE_VERSION) with the same"
echo "fragments and CONFIG_NVHE_EL2_DEBUG (configs/mainline.config). Ratio = series / mainline."
echo
echo "| instructions | series | mainline 7.3.4 | ratio |"
echo "|---|---|---|---|"
for row in "${anchor_rows[@]}"; do
	a=$(get "$series" "${row#*|}") b=$(get "$mainline" "${row#*|}")
	echo "| ${row%%|*} | $a | $b | $(per "$a" "$b" 2) |"
done
