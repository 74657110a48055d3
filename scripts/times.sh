#!/bin/bash
# times.sh [TIMES]: print where the time of a check run went, from the lines
# that timed() collected (lib.sh): builds and other host steps with their
# wall time and CPU time (user and system of all their processes, so up to
# twice the wall time on two cores), then one column per mode with the
# wall and CPU time of its boot (QEMU and the tools around it), the
# guest's time to reach init, and every suite and ftracetest case (guest
# uptime, so the sum of a column is about its boot).  Modes in the order of
# tests/modes; rows boot, init, then cases and suites by name.
set -eu
. "$(dirname "$0")/lib.sh"

times=${1:-$TIMES}
[ -s "$times" ] || exit 0
echo "Where the time went (seconds):"
awk '$1 == "build" || $1 == "host" {
	if (!head++) printf "  %-58s %6s %6s\n", "", "wall", "cpu"
	printf "  %-5s %-52s %6.0f %6s\n", $1, $2 " " $3, $4, $5
}' "$times"
awk '$1 != "build" && $1 != "host" {
	print index("boot init case suite", $1), $0
}' "$times" | sort -s -k1,1n -k4,4 | cut -d' ' -f2- | awk -v order="$(modes_without nocheck)" '
	BEGIN { n = split(order, o); for (i = 1; i <= n; i++) rank[o[i]] = i }
	{ sub(/^ftracetest:/, "", $3) }
	{ seen[$2] = 1 }
	{ t[$1 " " $3, $2] += $4 }
	!(($1 " " $3) in row) { row[$1 " " $3] = ++nrows; name[nrows] = $1 " " $3 }
	END {
		# Columns: the modes of tests/modes first, in its order.
		ncols = 0
		for (i = 1; i <= n; i++) if (o[i] in seen) mode[++ncols] = o[i]
		for (m in seen) if (!(m in rank)) mode[++ncols] = m
		printf "  %-44s", ""
		for (c = 1; c <= ncols; c++) printf " %17.17s", mode[c]
		printf "\n"
		for (r = 1; r <= nrows; r++) {
			printf "  %-44.44s", name[r]
			for (c = 1; c <= ncols; c++)
				if ((name[r], mode[c]) in t) printf " %17.1f", t[name[r], mode[c]]; else printf " %17s", "-"
			printf "\n"
		}
	}'
