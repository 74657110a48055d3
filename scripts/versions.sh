#!/bin/bash
# versions.sh: what make deps took from Debian, as its fetches recorded it
# in build/versions/NAME ("PACKAGE VERSION" a line): a paragraph a fetch.
set -eu
. "$(dirname "$0")/lib.sh"

[ -d "$VERSIONS" ] || exit 0
echo "Debian packages used (build/versions/):"
for f in "$VERSIONS"/*; do
	[ -s "$f" ] || continue
	printf '%s (%d): %s\n' "${f##*/}" "$(wc -l < "$f")" "$(awk '{ printf "%s%s=%s", s, $1, $2; s = " " }' "$f")" |
		fold -s -w 100 | sed '2,$s/^/    /'
done
