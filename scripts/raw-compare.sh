#!/bin/bash
# raw-compare.sh NAME DIR: check what tests/guest/suites/raw-record sent
# from one remote (DIR: live/ and drain/ pages, events/, trace.txt,
# written).  The pages are decoded with libtraceevent (tests/host/raw-check):
# those read after trace was copied must print as trace did, event for event
# (CPU, time stamp, fields); all of them together must hold the selftest
# ids 1..written once each, with no loss.
set -eu
. "$(dirname "$0")/lib.sh"

name=$1 dir=$2
check=$(host_tool raw-check)
psize=$(cat "$dir/drain/page_size")
pages() {	# pages SUBDIR...: CPU=FILE for each non-empty cpuN.raw
	local f cpu
	for f in $(for d; do ls "$dir/$d"/cpu*.raw; done); do
		[ -s "$f" ] || continue
		cpu=${f##*/cpu}
		echo "${cpu%.raw}=$f"
	done
}

# shellcheck disable=SC2046
if "$check" -p "$psize" "$dir/events" $(pages drain) > "$dir/drain.txt" &&
	diff -u "$dir/trace.txt" "$dir/drain.txt" > "$dir/drain.diff"; then
	result PASS "$name: $(wc -l < "$dir/drain.txt") events decoded from the drained pages equal trace"
else
	result FAIL "$name: the drained pages do not decode to trace (see $dir/drain.diff)"
	head -n 20 "$dir/drain.diff"
fi

# shellcheck disable=SC2046
if ! "$check" -p "$psize" "$dir/events" $(pages live drain) > "$dir/all.txt"; then
	result FAIL "$name: raw-check: $(grep -m1 '^FAIL' "$dir/all.txt")"
elif grep -q 'LOST' "$dir/all.txt"; then
	result FAIL "$name: events lost: $(grep -m1 LOST "$dir/all.txt")"
elif ! diff <(seq 1 "$(cat "$dir/written")") \
	<(sed -n 's/.*: selftest id=\([0-9]*\)$/\1/p' "$dir/all.txt" | sort -n) > /dev/null; then
	result FAIL "$name: the selftest ids decoded are not 1..$(cat "$dir/written") once each"
else
	result PASS "$name: $(grep -c . "$dir/all.txt") events in $(cat "$dir"/live/cpu*.raw | wc -c) + $(cat "$dir"/drain/cpu*.raw | wc -c) bytes of pages (live + drained), ids 1..$(cat "$dir/written") once each"
fi
