#!/bin/bash
# Host-side checks of patches/: the series applies with git am on the pinned
# base, each patch stays in the scope of its subject (scope-check.sh), and
# checkpatch --strict reports nothing for every patch but warnings
# or checks whose type the commit message names and justifies.
set -eu
. "$(dirname "$0")/lib.sh"

"$TOP/scripts/tree.sh"
list=$(series_patches)
if [ -z "$list" ]; then
	result SKIP "series: patches/series lists no patch yet"
	exit 0
fi

wt=$BUILD/am-check$queue_build	# one per queue
[ -d "$wt" ] || git -C "$TREE" worktree add -q --detach "$wt" "$BASE_TAG"
if out=$(apply_series "$wt" 2>&1); then
	result PASS "series: $(wc -w <<<"$list") patches apply with git am on $BASE_VERSION"
	"$TOP/scripts/scope-check.sh" "$wt" "$BASE_TAG"
else
	result FAIL "series: does not apply with git am on $BASE_VERSION:" \
		"$(grep -m1 '^Patch failed at' <<<"$out" || echo "$out" | tail -n 1)"
fi

# checkpatch's SPDX check runs Debian's python3 (python3-ply, python3-git).
# The queue on mainline's tree is Debian's tarball, without mainline's
# history: checkpatch cannot find the commits its Fixes: tags name.
ignore=
[ "$QUEUE" = series ] || ignore="--ignore UNKNOWN_COMMIT_ID"
for p in $list; do
	# shellcheck disable=SC2086
	out=$(cd "$TREE" && PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict --quiet \
		--no-summary --show-types --terse $ignore "$PATCHES/$p" 2>&1) || true
	# checkpatch exempts "#define TRACE_INCLUDE_PATH ../../dir" from its
	# macro checks; REMOTE_EVENT_INCLUDE_FILE is the same kind of path
	# (mainline's contract), so it gets the same exemption here.
	out=$(echo "$out" | while IFS= read -r line; do
		n=$(sed -n 's/^[^:]*:\([0-9]*\): .*/\1/p' <<<"$line")
		[ -n "$n" ] && sed -n "${n}p" "$PATCHES/$p" | grep -q '^+#define REMOTE_EVENT_INCLUDE_FILE ' ||
			echo "$line"
	done)
	if [ -z "$out" ]; then
		result PASS "checkpatch --strict: $p"
		continue
	fi
	# A warning or check stays only where the commit message names its
	# type and says why; errors never do.
	msg=$(sed -n '/^Subject:/,/^---$/p' "$PATCHES/$p")
	unjustified=$(echo "$out" | while IFS= read -r line; do
		type=$(sed -n 's/^[^ ]*: \(WARNING\|CHECK\):\([A-Z_0-9]*\):.*/\2/p' <<<"$line")
		[ -n "$type" ] && grep -qw "$type" <<<"$msg" || echo "$line"
	done)
	if [ -z "$unjustified" ]; then
		result PASS "checkpatch --strict: $p (justified in the message: $(echo "$out" |
			sed -n 's/^[^ ]*: [A-Z]*:\([A-Z_0-9]*\):.*/\1/p' | sort -u | tr '\n' ' '))"
	else
		result FAIL "checkpatch --strict: $p"
		echo "$unjustified" | head -n 30
	fi
done
