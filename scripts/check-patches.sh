#!/bin/bash
# Host-side checks of patches/: the series applies with git am on the pinned
# base, and every patch is clean under checkpatch --strict.
set -eu
. "$(dirname "$0")/lib.sh"

"$TOP/scripts/tree.sh"
list=$(grep -v '^\s*\(#\|$\)' "$PATCHES/series" || true)
if [ -z "$list" ]; then
	result SKIP "series: patches/series lists no patch yet"
	exit 0
fi

wt=$BUILD/am-check
[ -d "$wt" ] || git -C "$TREE" worktree add -q --detach "$wt" "$BASE_TAG"
git -C "$wt" am --abort >/dev/null 2>&1 || true
git -C "$wt" checkout -q -f --detach "$BASE_TAG"
git -C "$wt" clean -q -f -d
applied=1
for p in $list; do
	if ! git -C "$wt" am -q "$PATCHES/$p" >/dev/null 2>&1; then
		git -C "$wt" am --abort
		result FAIL "series: $p does not apply with git am on $BASE_VERSION"
		applied=0
		break
	fi
done
[ $applied = 0 ] || result PASS "series: $(wc -w <<<"$list") patches apply with git am on $BASE_VERSION"

for p in $list; do
	if out=$(cd "$TREE" && scripts/checkpatch.pl --strict --quiet --no-summary "$PATCHES/$p" 2>&1) &&
	   [ -z "$out" ]; then
		result PASS "checkpatch --strict: $p"
	else
		result FAIL "checkpatch --strict: $p"
		echo "$out" | head -n 30
	fi
done
