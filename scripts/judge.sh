#!/bin/bash
# judge.sh [MODE] LOG: turn a saved guest console (boot.sh) into results,
# without QEMU: the guest's results and times, each suite's host-side
# checker (tests/suites/NAME/host/check) on the files it sent, then the
# boot checks: the guest finished (or died in the panic it announced),
# the mode proved itself, and the kernel reported no WARN, BUG, lockdep,
# KASAN or UBSAN splat.  MODE and the kernel flavor come from the log's
# "TR-BOOT MODE FLAVOR" line (docs/harness.md, console protocol).
set -eu
. "$(dirname "$0")/lib.sh"

log=${2:-$1}
[ -f "$log" ] || die "no log $log"
read -r _ boot_mode flavor < <(grep -m1 '^TR-BOOT ' "$log" || echo "- - -")
mode=${2:+$1}
mode=${mode:-$boot_mode}
[ "$mode" != - ] || die "$log has no TR-BOOT line: give the mode"

# The guest's own timing lines: "TR-TIME KIND NAME SECONDS".
sed -n 's/^TR-TIME \([a-z]*\) \([^ ]*\) \([0-9.]*\)$/\1 \2 \3/p' "$log" |
	while read -r kind name secs; do timed "$kind" "$mode" "$name" "$secs"; done

# Guest results, prefixed with the mode.
grep '^TR-RESULT ' "$log" | while read -r _ r name; do
	result "$r" "$mode: $name"
done
# Whatever the guest printed around a failure helps; show it once, and
# what CI keeps of it: the last 30 lines of each failed kselftest harness
# test, from its "#  RUN" to its "#  FAIL" (dmesg lines included).
if grep -q '^TR-RESULT FAIL' "$log"; then
	say "guest log: $log"
	awk '/^ *# +RUN /	{ on = 1; n = 0 }
		on		{ buf[n++ % 30] = $0 }
		/^ *# +(OK|SKIP) / { on = 0 }
		/^ *# +FAIL / && on {
			for (i = n > 30 ? n - 30 : 0; i < n; i++) print "  | " buf[i % 30]
			on = 0
		}' "$log" >&2
fi

# The files the guest sent, then each suite's checker by the suite's name.
# They go beside the logs, or to JUDGE_DIR (judge-test.sh).
blobs=${JUDGE_DIR:-$LOGS}/$(basename "${log%.log}").blobs
rm -rf "$blobs"
for b in $("$TOP/scripts/blobs.sh" "$log" "$blobs"); do
	case $b in
	*.corrupt) result FAIL "$mode: blob ${b%.corrupt} does not decode (see $blobs/${b%.corrupt}.b64)" ;;
	esac
done
for s in $(sed -n 's/^TR-SUITE //p' "$log"); do
	check=$TOP/tests/suites/$s/host/check
	[ ! -x "$check" ] || "$check" "$mode: $s" "$log" "$blobs" "$OUT/$flavor"
done

# The suite hyp-panic ends the boot with a hypervisor panic on purpose,
# after this line; its checker looks at what follows.
panicked=$(grep -m1 -n '^TR-PANIC-EXPECT\(-LAST\)\? ' "$log" | cut -d: -f1 || true)
if [ -n "$panicked" ]; then
	result PASS "$mode: boot: guest ran every suite, the last up to its hypervisor panic"
elif grep -qx 'TR-DONE' "$log"; then
	result PASS "$mode: boot: guest ran every suite and powered off"
else
	result FAIL "$mode: boot: guest did not finish (see $log)"
	tail -n 30 "$log"
fi

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
	grep -E "$splat" > "$blobs.splat"; then
	result FAIL "$mode: boot: kernel splat: $(head -n 1 "$blobs.splat")"
	grep -E -B2 -A25 "$splat" "$log" | head -n 60
else
	result PASS "$mode: boot: no WARN, BUG, lockdep, KASAN or UBSAN report"
fi
rm -f "$blobs.splat"
