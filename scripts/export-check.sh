#!/bin/bash
# Fail, saying what, when build/linux holds work that patches/ lacks:
# uncommitted changes, or commits that export would change.
set -eu
. "$(dirname "$0")/lib.sh"

[ -e "$TREE/.git" ] || exit 0
dirty=$(git -C "$TREE" status --porcelain | head -n 20)
[ -z "$dirty" ] || die "uncommitted changes in $TREE (commit them, then 'make export'):
$dirty"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "$(git -C "$TREE" rev-list --count "$BASE_TAG"..HEAD)" = 0 ]; then
	[ -z "$(series_patches)" ] && exit 0
	die "$TREE has no commits on $BASE_TAG but patches/series lists patches ('make tree')"
fi
"$TOP/scripts/export.sh" "$tmp/p" 2>/dev/null
diff -r -q "$tmp/p" "$PATCHES" >/dev/null ||
	die "$TREE has commits that are not in patches/ ('make export'):
$(diff -r -q "$tmp/p" "$PATCHES" | sed "s|$tmp/p|tree|; s|$PATCHES|patches|" | head -n 20)"
