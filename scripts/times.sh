#!/bin/bash
# times.sh [TIMES]: print where the time of a check run went, from the lines
# that timed() collected (lib.sh): builds and other host steps with their
# wall time, then one column per mode with the wall time of its boot, the
# guest's time to reach init, and every suite and ftracetest case (guest
# uptime, so the sum of a column is about its boot).
set -eu
. "$(dirname "$0")/lib.sh"

times=${1:-$TIMES}
[ -s "$times" ] || exit 0
echo "Where the time went (seconds):"
awk '$1 == "build" || $1 == "host" { printf "  %-5s %-52s %6.0f\n", $1, $2 " " $3, $4 }' "$times"
awk '
	$1 == "build" || $1 == "host" { next }
	{ sub(/^ftracetest:/, "", $3) }
	!($2 in col) { col[$2] = ++ncols; mode[ncols] = $2 }
	!(($1 " " $3) in row) { row[$1 " " $3] = ++nrows; name[nrows] = $1 " " $3 }
	{ t[row[$1 " " $3], col[$2]] += $4 }
	END {
		printf "  %-44s", ""
		for (c = 1; c <= ncols; c++) printf " %14.14s", mode[c]
		printf "\n"
		for (r = 1; r <= nrows; r++) {
			printf "  %-44.44s", name[r]
			for (c = 1; c <= ncols; c++)
				if ((r, c) in t) printf " %14.1f", t[r, c]; else printf " %14s", "-"
			printf "\n"
		}
	}' "$times"
