#!/bin/bash
# docs-check.sh: the series' documentation.  Every function the series
# exports has kernel-doc, and scripts/kernel-doc -Wall finds nothing to say
# about it nor about any file the series adds; Documentation/trace builds
# with Sphinx with no warning that points at a file the series touches.
set -eu
. "$(dirname "$0")/lib.sh"

cd "$TREE"
touched=$(git diff --name-only "$BASE_TAG"..series)
added=$(git diff --name-only --diff-filter=A "$BASE_TAG"..series -- '*.c' '*.h')
# The series adds each of its exports to a C file it touches: only those
# are searched (a "git grep" of the whole tree took 4-6 CPU-seconds per
# export).
touched_c=$(grep '\.c$' <<<"$touched" || true)

bad=""
for sym in $(git diff "$BASE_TAG"..series | sed -n 's/^+EXPORT_SYMBOL[_A-Z]*(\(.*\));/\1/p'); do
	# shellcheck disable=SC2086
	file=$(git grep -l "^EXPORT_SYMBOL[_A-Z]*($sym);" -- $touched_c)
	if ! scripts/kernel-doc -rst -function "$sym" "$file" 2>/dev/null | grep -q '^\.\. c:function::'; then
		bad="$bad $sym(no kernel-doc)"
	elif scripts/kernel-doc -none -Wall "$file" 2>&1 | grep -q "'$sym'"; then
		bad="$bad $sym"
	fi
done
warn=
# shellcheck disable=SC2086
[ -z "$added" ] || warn=$(scripts/kernel-doc -none -Wall $added 2>&1 || true)
if [ -z "$bad$warn" ]; then
	result PASS "kernel-doc -Wall: every exported function documented, no warning in the $(wc -w <<<"$added") added files"
else
	result FAIL "kernel-doc -Wall:$bad"
	echo "$warn" | head -n 20
fi

step_start
log=$LOGS/htmldocs.log
mkdir -p "$LOGS"
# From scratch (15 s): Sphinx does not see that a header its kernel-doc
# directives read has changed, and would keep the old warnings' absence.
rm -rf "$OUT/docs"
if make O="$OUT/docs" SPHINXDIRS=trace htmldocs > "$log" 2>&1; then
	ours=$(grep -iE 'warning|error' "$log" | grep -F "$touched" || true)
	if [ -z "$ours" ]; then
		result PASS "htmldocs: Documentation/trace builds, no warning from the series' files"
	else
		result FAIL "htmldocs: warnings from the series' files"
		echo "$ours" | head -n 20
	fi
else
	result FAIL "htmldocs: Documentation/trace does not build (see $log)"
	tail -n 20 "$log"
fi
step_end
timed build series htmldocs "$STEP_WALL" "$STEP_CPU"
