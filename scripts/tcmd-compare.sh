#!/bin/bash
# tcmd-compare.sh NAME DIR: check what tests/guest/suites/trace-cmd sent from
# one remote, with the host's (Debian's amd64) trace-cmd report: the file of
# "trace-cmd extract" must print as the remote's trace did, event for event
# (CPU, time stamp, fields); each file of "trace-cmd record" (splice(),
# --nosplice, and the few events read when it stops) must hold the
# selftest ids written (1..N, 1..FEW) once each, each on the CPU that wrote
# it, in time order per CPU, with nothing lost.
set -eu
. "$(dirname "$0")/lib.sh"

name=$1 dir=$2
read -r cpus n few < "$dir/written"

# report FILE: trace-cmd report -t, as the remote's trace prints:
# "[CPU]<TAB>SECONDS.MICROSECONDS: EVENT FIELDS"; lost events as
# "LOST ...".  trace-cmd prints seconds with 9 decimals for the clocks it
# knows are in ns, and raw ns for the others (in 3.1.6, "boot" among them).
report() {
	trace-cmd report -t -i "$1" 2> "$1.err" | awk '
	/DROPPED|LOST/ { print "LOST " $0; next }
	match($0, /\[[0-9]+\] *[0-9.]+: +[A-Za-z0-9_]+: */) {
		split(substr($0, RSTART, RLENGTH), a, /[][ :]+/)
		rest = substr($0, RSTART + RLENGTH)
		sub(/ +$/, "", rest)
		ns = a[3]
		sub(/\./, "", ns)
		while (length(ns) < 10)
			ns = "0" ns
		printf "[%03d]\t%5d.%s: %s %s\n", a[2], substr(ns, 1, length(ns) - 9) + 0,
			substr(ns, length(ns) - 8, 6), a[4], rest
	}'
}

if ! report "$dir/extract.dat" > "$dir/extract.txt"; then
	result FAIL "$name: trace-cmd report of the extract failed: $(head -n 3 "$dir/extract.dat.err")"
elif [ ! -s "$dir/trace.txt" ]; then
	result FAIL "$name: the remote's trace was empty"
elif diff -u "$dir/trace.txt" "$dir/extract.txt" > "$dir/extract.diff"; then
	result PASS "$name: extract: trace-cmd report prints the $(wc -l < "$dir/trace.txt") events of trace"
else
	result FAIL "$name: extract: trace-cmd report differs from trace (see $dir/extract.diff)"
	head -n 20 "$dir/extract.diff"
fi

for how in splice:$n nosplice:$n few:$few; do
	n=${how#*:} how=${how%:*}
	f=$dir/$how.dat
	if ! report "$f" > "$dir/$how.txt"; then
		result FAIL "$name: record $how: trace-cmd report failed: $(head -n 3 "$f.err")"
		continue
	fi
	# ids in order, each with its CPU; time going back on a CPU; losses
	bad=$(awk -v cpus="$cpus" '
	/^LOST/ { print "lost: " $0; exit }
	{
		cpu = substr($1, 2) + 0
		ts = $2 + 0
		if (cpu in last && ts < last[cpu]) { print "time goes back on CPU " cpu ": " $0; exit }
		last[cpu] = ts
	}
	$3 == "selftest" && $4 ~ /^id=/ {
		id = substr($4, 4) + 0
		if ((id - 1) % cpus != cpu) { print "id " id " on CPU " cpu; exit }
	}' "$dir/$how.txt")
	if [ -n "$bad" ]; then
		result FAIL "$name: record $how: $bad"
	elif ! diff <(seq 1 "$n") <(sed -n 's/.*: selftest id=\([0-9]*\)$/\1/p' "$dir/$how.txt" | sort -n) > /dev/null; then
		result FAIL "$name: record $how: the selftest ids are not 1..$n once each"
	else
		result PASS "$name: record $how: $(wc -l < "$dir/$how.txt") events, ids 1..$n once each on their CPUs, in time order"
	fi
done
