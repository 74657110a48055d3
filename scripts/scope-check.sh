#!/bin/bash
# scope-check.sh REPO BASE: every commit of BASE..HEAD in REPO touches only
# the paths its subject prefix owns (tests/scopes), and removes no line
# that an earlier commit of the range added, unless its subject says it
# reworks them ("Fix", "Rework", "Move", "Rename", "Split" after the prefix)
# or its message names, by subject, each earlier commit whose lines it
# changes (a feature that extends them says so; a fix is a fixup).
set -eu
. "$(dirname "$0")/lib.sh"

repo=$1 base=$2
scopes=$(grep -v '^#' "$TOP/tests/scopes")
series=$(git -C "$repo" rev-list --reverse "$base..HEAD")

for c in $series; do
	subject=$(git -C "$repo" log -1 --format=%s "$c")
	prefix=${subject%: *}
	paths=$(awk -F'|' -v p="$prefix" '{ f = $1; sub(/ +$/, "", f) } f == p { print $2 }' <<<"$scopes")
	if [ -z "$paths" ]; then
		result FAIL "scope: '$subject': prefix '$prefix' is not in tests/scopes"
		continue
	fi
	bad=$(git -C "$repo" diff-tree --no-commit-id --name-only -r "$c" | while read -r f; do
		ok=0
		for p in MAINTAINERS $paths; do
			case $f in "$p"*) ok=1 ;; esac
		done
		[ $ok = 1 ] || echo "$f"
	done)
	# Lines this commit removes or changes, blamed in its parent: any that
	# an earlier commit of the range wrote.
	rework=0
	[[ ${subject#"$prefix": } =~ ^(Fix|Rework|Move|Rename|Split)\  ]] && rework=1
	body=$(git -C "$repo" log -1 --format=%b "$c" | tr '\n' ' ' | tr -s ' ')
	redone=$(git -C "$repo" diff -U0 "$c^" "$c" | awk '
		/^--- a\// { f = substr($0, 7) }
		/^@@ / { split($2, a, ","); s = substr(a[1], 2); n = (a[2] == "" ? 1 : a[2])
			 if (n > 0) print f, s, s + n - 1 }' | while read -r f s e; do
		git -C "$repo" blame -s -l -L "$s,$e" "$c^" -- "$f" | while read -r sha _; do
			grep -qx "$sha" <<<"$series" || continue
			named=$(git -C "$repo" log -1 --format=%s "$sha")
			grep -qF "\"$named\"" <<<"$body" || echo "$f:$s-$e ($named)"
		done
	done | sort -u)
	if [ -n "$bad" ]; then
		result FAIL "scope: '$subject' touches files outside '$prefix':" $bad
	elif [ -n "$redone" ] && [ $rework = 0 ]; then
		result FAIL "scope: '$subject' changes lines of an earlier patch:"
		echo "$redone" | head -n 20
	else
		result PASS "scope: '$subject'"
	fi
done
