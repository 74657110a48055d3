#!/bin/bash
# check-perfetto.sh DIR TP: make check-perfetto.  Perfetto, which the
# developer built from its sources (docs/perfetto.md; nothing of it is in
# this repository): DIR holds perfetto, traced and traced_probes for arm64,
# TP is trace_processor_shell for this machine.  Builds the test kernel
# (flavor arm64, which has networking), boots the mode make run boots with
# the suites for "perfetto" (tests/suites/list: perfetto, and
# perfetto-debian, Debian's) and judges it: perfetto's host/check queries
# the recording with TP.  The recording stays in build/out/logs/MODE-arm64.blobs/.
set -eu
. "$(dirname "$0")/lib.sh"

dir=${1:-} tp=${2:-}
usage="usage: make check-perfetto DIR=<dir of arm64 perfetto, traced, traced_probes> TP=<trace_processor_shell>"
for b in perfetto traced traced_probes; do
	[ -n "$dir" ] && [ -x "$dir/$b" ] || die "$usage: no $dir/$b"
done
[ -n "$tp" ] && [ -x "$tp" ] || die "$usage: no trace_processor_shell '$tp'"
dir=$(cd "$dir" && pwd)
tp=$(cd "$(dirname "$tp")" && pwd)/$(basename "$tp")

flavor=arm64
mode=$(modes_with run | head -n 1)
results_reset
"$TOP/scripts/build-kernel.sh" "$flavor" > "$LOGS/build-$flavor.log" 2>&1 ||
	die "building $flavor failed: $LOGS/build-$flavor.log"
PERFETTO=$dir "$TOP/scripts/mkinitramfs.sh" "$flavor"
"$TOP/scripts/boot.sh" "$mode" "$flavor" "$(suites_for perfetto)" > /dev/null
PERFETTO_TP=$tp "$TOP/scripts/judge.sh" "$LOGS/$mode-$flavor.log"
summary
