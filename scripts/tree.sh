#!/bin/bash
# Make build/linux: the pinned base kernel as a git repository (tag "base"),
# with the series from patches/ applied by git am on branch "series"; with
# QUEUE=mainline, build/linux-mainline: 7.3.4 with the queue of mainline/.
# Rerunnable: it rebuilds the branch only when patches/ changed, and never
# throws away commits or edits that were not exported (FORCE=1 does).
set -eu
. "$(dirname "$0")/lib.sh"

# A git worktree of build/linux (TREE=...) is used as it is.
[ -f "$TREE/.git" ] && exit 0
[ "$QUEUE" = series ] || [ -f "$BASE_TARBALL" ] || "$TOP/scripts/mainline-fetch.sh" tarball
[ -f "$BASE_TARBALL" ] || die "$BASE_TARBALL missing: run 'make deps'"

if ! git -C "$TREE" rev-parse -q --verify "refs/tags/$BASE_TAG" >/dev/null 2>&1; then
	say "unpacking $BASE_TARBALL into $TREE"
	rm -rf "$TREE"
	mkdir -p "$TREE"
	# Debian's tarball is xz in 62 blocks: two threads unpack it in half
	# the time.
	tar -x -I "xz -T2" -f "$BASE_TARBALL" -C "$TREE" --strip-components=1
	git -C "$TREE" init -q -b series
	git -C "$TREE" config user.name "Trace Remotes"
	git -C "$TREE" config user.email "trace-remotes@example.org"
	git -C "$TREE" config core.abbrev 12
	# No automatic "git gc": after the 90k loose objects of the base, the
	# first "git am" started one in the background that repacked them for
	# 117 CPU-seconds beside the first kernel build.
	git -C "$TREE" config gc.auto 0
	# Uncompressed: 21 CPU-seconds instead of 35 for the 90k files, alone
	# on one core before anything else can start; 1.6 GB in .git.
	git -C "$TREE" -c core.looseCompression=0 add -A -f
	GIT_AUTHOR_DATE=2025-01-01T00:00:00Z GIT_COMMITTER_DATE=2025-01-01T00:00:00Z git -C "$TREE" commit -q \
		-m "Linux $(make -s -C "$TREE" kernelversion) ($BASE_PKG $BASE_VERSION)"
	git -C "$TREE" tag "$BASE_TAG"
fi
# Debian's .gitignore ends by ignoring everything at the top level, which
# makes every new kernel file need "git add -f": drop that block from the
# work tree copy only.
if grep -q '^# Debian packaging' "$TREE/.gitignore"; then
	sed -i '/^# Debian packaging/,$d' "$TREE/.gitignore"
	sed -i '${/^#$/d}' "$TREE/.gitignore"
	git -C "$TREE" update-index --skip-worktree .gitignore
fi

stamp=$TREE/.git/trace-remotes-applied
want=$("$TOP/scripts/series-hash.sh")
if [ -f "$stamp" ]; then
	read -r have_hash have_head < "$stamp"
	[ "$have_hash" = "$want" ] && exit 0
	if [ -z "${FORCE:-}" ]; then
		[ "$(git -C "$TREE" rev-parse HEAD)" = "$have_head" ] &&
			[ -z "$(git -C "$TREE" status --porcelain)" ] ||
			die "patches/ changed but $TREE holds unexported work; 'make export' it, or rerun with FORCE=1 to drop it"
	fi
fi

say "applying the series on $BASE_TAG"
apply_series "$TREE" -B series || die "the series does not apply"
echo "$want $(git -C "$TREE" rev-parse HEAD)" > "$stamp"
say "$TREE: $(git -C "$TREE" rev-list --count "$BASE_TAG"..HEAD) patches on $BASE_TAG"
