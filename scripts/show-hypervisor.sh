#!/bin/bash
# show-hypervisor.sh MODE FLAVOR: make run.  Boot MODE and run the guest
# suite of the same name: what the hypervisor does, from trace_pipe and from Debian's
# trace-cmd.  The boot log is shown only when the guest fails; the
# recording lands in build/out/hypervisor.dat, and the lines after it say
# how to read it, and how Perfetto's trace processor names the functions
# of a Perfetto recording (scripts/perfetto-hyp-functions.sh).
set -eu
. "$(dirname "$0")/lib.sh"

mode=$1 flavor=$2
log=$LOGS/show-hypervisor-$mode-$flavor.log
mkdir -p "$LOGS"
say "booting $mode ($flavor) under QEMU/TCG; the console goes to $log"
"$TOP/scripts/qemu.sh" "$mode" "$flavor" show-hypervisor "$log" > /dev/null
tr -d '\r' < "$log" > "$log.tmp" && mv "$log.tmp" "$log"
if ! grep -qx TR-DONE "$log"; then
	say "the guest did not finish; its console:"
	cat "$log" >&2
	exit 1
fi
# The suite's own lines: from its start, without kernel messages and blobs.
awk '/^TR-SUITE show-hypervisor$/ { on = 1; next } /^TR-/ { if ($1 == "TR-BLOB-BEGIN") b = 1
	if ($1 == "TR-BLOB-END") b = 0; next } on && !b && !/^\[ *[0-9]+\.[0-9]+\]/' "$log"
blobs=$LOGS/show-hypervisor-$mode-$flavor.blobs
rm -rf "$blobs"
for b in $("$TOP/scripts/blobs.sh" "$log" "$blobs"); do
	[ "$b" = hypervisor.dat.gz ] || continue
	gunzip -c "$blobs/$b" > "$OUT/hypervisor.dat"
	echo "=== the recording: $OUT/hypervisor.dat"
	echo "    trace-cmd report $OUT/hypervisor.dat    # $(trace-cmd report "$OUT/hypervisor.dat" 2>/dev/null | grep -c ': [a-z_]*:') events"
	echo "    kernelshark $OUT/hypervisor.dat"
	echo "    # a Perfetto trace's func/func_ret named by the traced kernel's /proc/kallsyms (docs/perfetto.md):"
	echo "    trace_processor_shell query TRACE \"\$(scripts/perfetto-hyp-functions.sh KALLSYMS) select * from hyp_func\""
done
