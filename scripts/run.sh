#!/bin/bash
# run.sh MODE FLAVOR: make run.  Boot MODE and run the guest suite "run"
# (hypervisor events streamed from trace_pipe, then a few seconds recorded
# by trace-cmd and its report); the console goes to the terminal without the
# blob of the recording, which lands in build/out/hypervisor.dat, read back
# here with the host's trace-cmd report.
set -eu
. "$(dirname "$0")/lib.sh"

mode=$1 flavor=$2
log=$LOGS/run-$mode-$flavor.log
mkdir -p "$LOGS"
"$TOP/scripts/qemu.sh" "$mode" "$flavor" run "$log" |
	awk '/^TR-BLOB-BEGIN/ { skip = 1; print "(" $2 ": sent to the host)"; next }
		/^TR-BLOB-END/ { skip = 0; next }
		!skip'
tr -d '\r' < "$log" > "$log.tmp" && mv "$log.tmp" "$log"
blobs=$LOGS/run-$mode-$flavor.blobs
rm -rf "$blobs"
for b in $("$TOP/scripts/blobs.sh" "$log" "$blobs"); do
	[ "$b" = hypervisor.dat.gz ] || continue
	gunzip -c "$blobs/$b" > "$OUT/hypervisor.dat"
	echo "=== host: trace-cmd report $OUT/hypervisor.dat (first 20 events)"
	trace-cmd report "$OUT/hypervisor.dat" 2>/dev/null | grep -m 20 ': hyp_\|: host_\|: selftest'
	echo "=== open it in KernelShark: kernelshark $OUT/hypervisor.dat"
done
