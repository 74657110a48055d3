#!/bin/bash
# check-series.sh: the slow checks of the series.  Every patch builds on its
# own for arm64 (bisectable); the C files the series touches get no new W=1
# or sparse (C=2) warnings against the base; the tip builds with clang
# (LLVM=1) without warnings in those files.
set -eu
. "$(dirname "$0")/lib.sh"

results_reset
"$TOP/scripts/tree.sh"
wt=$BUILD/bisect/linux
bout=$BUILD/bisect/out/arm64	# same depth as build/out/arm64: ccache hits
[ -d "$wt" ] || git -C "$TREE" worktree add -q --detach "$wt" "$BASE_TAG"
commits=$(git -C "$TREE" rev-list --reverse "$BASE_TAG"..series)

build_at() {	# build_at REV: check REV out in the worktree and build it
	git -C "$wt" checkout -q -f --detach "$1" && git -C "$wt" clean -q -f -d &&
		"$TOP/scripts/build-kernel.sh" arm64 "$wt" "$bout" > "$BUILD/bisect/build.log" 2>&1
}
# warnings_at: W=1 and sparse warnings of the touched files built in the
# current checkout, without line numbers so that moved code compares equal.
# The hypervisor's files build as FILE.nvhe.o in arch/arm64/kvm/hyp/nvhe/.
warnings_at() {
	local objs= srcs= f o
	for f in $files; do
		[ -f "$wt/$f" ] || continue
		o=${f%.c}.o
		case $f in arch/arm64/kvm/hyp/nvhe/*) o=${f%.c}.nvhe.o ;; esac
		[ -f "$bout/$o" ] && objs="$objs $o" srcs="$srcs $wt/$f"
	done
	[ -n "$objs" ] || return 0
	# shellcheck disable=SC2086
	touch -c $srcs
	# shellcheck disable=SC2086
	kmake "$wt" "$bout" arm64 W=1 C=2 $objs 2>&1 |
		grep -E 'warning|error' | sed -E 's/:[0-9]+(:[0-9]+)?:/:/' | sort -u
}

files=$(git -C "$TREE" diff --name-only "$BASE_TAG"..series -- '*.c')
build_at "$BASE_TAG" || die "the base does not build: $(tail -n 20 "$BUILD/bisect/build.log")"
warnings_at > "$BUILD/bisect/warnings.base"

if [ -z "$commits" ]; then
	result SKIP "bisect: the series has no patch yet"
else
	n=0
	for c in $commits; do
		n=$((n + 1))
		subject=$(git -C "$TREE" log -1 --format=%s "$c")
		if build_at "$c"; then
			result PASS "bisect: arm64 builds at patch $n: $subject"
		else
			result FAIL "bisect: arm64 does not build at patch $n: $subject"
			tail -n 20 "$BUILD/bisect/build.log"
		fi
	done
fi

if [ -z "$files" ]; then
	result SKIP "W=1, sparse: the series touches no C file yet"
else
	warnings_at > "$BUILD/bisect/warnings.tip"
	new=$(comm -13 "$BUILD/bisect/warnings.base" "$BUILD/bisect/warnings.tip")
	if [ -z "$new" ]; then
		result PASS "W=1, sparse: no new warning in $(wc -w <<<"$files") touched C files"
	else
		result FAIL "W=1, sparse: new warnings"
		echo "$new" | head -n 40
	fi
fi

clog=$LOGS/build-arm64-clang.log
mkdir -p "$LOGS"
if LLVM=1 "$TOP/scripts/build-kernel.sh" arm64 "$TREE" "$OUT/arm64-clang" > "$clog" 2>&1; then
	if [ -n "$files" ] && grep -F "$files" "$clog" | grep -q warning; then
		result FAIL "clang: warnings in touched files (see $clog)"
		grep -A3 warning "$clog" | head -n 40
	else
		result PASS "clang: arm64 builds with LLVM=1, no warning in touched files"
	fi
else
	result FAIL "clang: arm64 does not build with LLVM=1 (see $clog)"
	tail -n 20 "$clog"
fi
summary
