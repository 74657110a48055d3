#!/bin/bash
# boot-test.sh MODE FLAVOR SUITES: boot MODE with FLAVOR's kernel, run the
# guest SUITES and report their results, then check the boot log: the guest
# finished, the expected KVM mode initialised, and the kernel reported no
# warning, bug, lockdep, KASAN or UBSAN splat.
set -eu
. "$(dirname "$0")/lib.sh"

mode=$1 flavor=$2 suites=$3
log=$LOGS/$mode-$flavor.log
mkdir -p "$LOGS"
step_start
boot_log "$mode" "$flavor" "$suites" "$log"
step_end
timed boot "$mode" wall "$STEP_WALL"
timed boot "$mode" cpu "$STEP_CPU"
# The guest's own timing lines: "TR-TIME KIND NAME SECONDS".
sed -n 's/^TR-TIME \([a-z]*\) \([^ ]*\) \([0-9.]*\)$/\1 \2 \3/p' "$log" |
	while read -r kind name secs; do timed "$kind" "$mode" "$name" "$secs"; done

# Guest results, prefixed with the mode.
grep '^TR-RESULT ' "$log" | while read -r _ r name; do
	result "$r" "$mode: $name"
done
# Whatever the guest printed around a failure helps; show it once.
grep -q '^TR-RESULT FAIL' "$log" && say "guest log: $log"

# Blobs the guest printed: events/ copies go through format-check.
# The hypervisor's events must have the fields Perfetto reads (its
# hypervisor.proto and hyp.proto, HostFfaCallFtraceEvent for host_ffa_call).
perfetto_fields="hypervisor/host_hcall=id,invalid hypervisor/host_smc=id,forwarded
hypervisor/host_mem_abort=esr,addr
hypervisor/host_ffa_call=func_id,res_a1,res_a2,res_a3,res_a4,handled,err"
blobs=$LOGS/$mode-$flavor.blobs
rm -rf "$blobs"
for b in $("$TOP/scripts/blobs.sh" "$log" "$blobs"); do
	case $b in
	events-*.tgz)
		remote=${b#events-}
		remote=${remote%.tgz}
		mkdir -p "$blobs/$remote"
		tar -C "$blobs/$remote" -xzf "$blobs/$b"
		req=()
		if [ "$remote" = hypervisor ]; then
			for f in $perfetto_fields; do req+=(-f "$f"); done
		fi
		fc=$("$(host_tool format-check)" "${req[@]}" "$blobs/$remote/events" 2>&1) && rc=0 || rc=$?
		while read -r r what; do
			case $r in
			PASS|FAIL|SKIP) result "$r" "$mode: format-check: $remote: $what" ;;
			*) echo "  $r $what" ;;
			esac
		done <<<"$fc"
		grep -q '^FAIL' <<<"$fc" || [ $rc = 0 ] ||
			result FAIL "$mode: format-check: $remote: exit $rc"
		;;
	*.corrupt)
		result FAIL "$mode: blob ${b%.corrupt} does not decode (see $blobs/${b%.corrupt}.b64)"
		;;
	raw-*.tgz | tcmd-*.tgz)
		# raw-REMOTE.tgz from raw-record, tcmd-REMOTE.tgz from trace-cmd
		d=$blobs/${b%.tgz}
		remote=${d##*/}
		remote=${remote#*-}
		mkdir -p "$d"
		tar -C "$d" -xzf "$blobs/$b"
		case $b in
		raw-*) "$TOP/scripts/raw-compare.sh" "$mode: raw-record: $remote" "$d" ;;
		*) "$TOP/scripts/tcmd-compare.sh" "$mode: trace-cmd: $remote" "$d" ;;
		esac
		;;
	esac
done

# The suite hyp-panic ends the boot with a hypervisor panic on purpose,
# after this line: what follows is checked by panic-check.sh only.
panicked=$(grep -m1 -n '^TR-PANIC-EXPECT ' "$log" | cut -d: -f1 || true)
if [ -n "$panicked" ]; then
	"$TOP/scripts/panic-check.sh" "$mode: hyp-panic" "$log"
	result PASS "$mode: boot: guest ran every suite, the last up to its hypervisor panic"
elif grep -qx 'TR-DONE' "$log"; then
	result PASS "$mode: boot: guest ran every suite and powered off"
else
	result FAIL "$mode: boot: guest did not finish (see $log)"
	tail -n 30 "$log"
fi

# A production kernel: no test code in what was booted
! mode_has "$mode" prod || "$TOP/scripts/production-check.sh" "$mode: production" "$OUT/$flavor"

want=$(mode_field "$mode" 5)
if [ -n "$want" ]; then
	if grep -qF "$want" "$log"; then
		result PASS "$mode: boot: '$want'"
	else
		result FAIL "$mode: boot: no '$want' (got: $(grep -o 'kvm \[[0-9]*\]: .*mode.*' "$log" | head -n 1))"
	fi
fi

splat='WARNING:|BUG:|kernel BUG|Oops|Kernel panic|Unable to handle|Internal error|UBSAN:|INFO: |DEBUG_LOCKS_WARN_ON|hyp panic at|HYP panic|Call trace:|Call Trace:'
# Within a blob only the kernel's lines: base64 spells "Oops" now and then.
# Up to hyp-panic's announcement, if any: the panic is checked above.
if awk -v end="${panicked:-0}" 'end && NR >= end { exit }
	/^TR-BLOB-BEGIN/ { b = 1 }
	(!b || /^\[ *[0-9]+\.[0-9]+\]/) && !/Kernel command line:/
	/^TR-BLOB-END/ { b = 0 }' "$log" |
	grep -E "$splat" > "$log.splat"; then
	result FAIL "$mode: boot: kernel splat: $(head -n 1 "$log.splat")"
	grep -E -B2 -A25 "$splat" "$log" | head -n 60
else
	result PASS "$mode: boot: no WARN, BUG, lockdep, KASAN or UBSAN report"
fi
rm -f "$log.splat"
