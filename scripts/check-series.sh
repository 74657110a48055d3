#!/bin/bash
# check-series.sh: the slow checks of the series.  Every patch builds on its
# own for arm64 (bisectable; with BISECT=0 only the tip, and the check that
# tests/bisected names this series); the C files the series touches get no new W=1
# or sparse (C=2) warnings against the base; they build with clang (LLVM=1)
# and, those outside arch/, for x86_64 without warnings; the documentation
# checks of docs-check.sh pass.
# The bisect walks the series backwards from the tip in the configuration
# make check builds (BISECT_FLAVOR, default arm64-debug): the tip costs
# nothing once make check has built it (seed), else ccache hits, and every
# other patch what changed since the next one.  The
# base is not built whole, only the touched files for their warnings.
# clang, x86_64 and the documentation checks run beside the bisect, niced
# below it.
# A bisect in which every patch built writes tests/bisected: the series'
# hash (scripts/series-hash.sh) and the date.  With BISECT=0 (make check,
# where the bisect was 2 322-2 474 CPU-seconds of a cold run) only the tip
# is built, and tests/bisected must name this series: a series change is
# bisected by make check-full or make check-series and commits
# tests/bisected with it.
set -eu
. "$(dirname "$0")/lib.sh"

results_reset
"$TOP/scripts/tree.sh"
flavor=${BISECT_FLAVOR:-arm64-debug}
[ "$QUEUE" = series ] || flavor=${BISECT_FLAVOR:-arm64-mainline}
wt=$BUILD/bisect/${TREE##*/}
bout=$BUILD/bisect/out/$flavor	# same depth as build/out/FLAVOR: ccache hits
[ -d "$wt" ] || git -C "$TREE" worktree add -q --detach "$wt" "$BASE_TAG"
commits=$(git -C "$TREE" rev-list "$BASE_TAG"..series)	# newest first
bisect=${BISECT:-1}
stamp=$BISECTED
image=Image	# the bisect builds what a boot needs, and installs nothing

checkout() { git -C "$wt" checkout -q -f --detach "$1" && git -C "$wt" clean -q -f -d; }
# seed: when build/out/FLAVOR holds a whole build of the tip (its
# built-from, see build-kernel.sh), the bisect starts from a copy of it
# instead of building the tip again from ccache hits (about 45
# CPU-seconds).  kbuild's records name the source tree: they are pointed
# at the worktree, and every copied file is made newer than the
# worktree's checkout of the tip, which has the same content (and all of
# the same age, so that make finds every target up to date).
seed() {
	local from=$OUT/$flavor src
	[ "$(cat "$from/built-from" 2>/dev/null)" = "$(git -C "$TREE" rev-parse series)" ] || return 0
	checkout series
	rm -rf "$bout"
	mkdir -p "${bout%/*}"
	cp -a "$from" "$bout"
	rm -rf "$bout/modroot" "$bout/initramfs" "$bout/guest-bin" "$bout"/initramfs.cpio.gz*
	src=$(readlink "$from/source")	# the tree as kbuild wrote it
	grep -rlI --exclude='*.o' --exclude='*.ko' -e "$src" "$bout" | xargs -r sed -i "s|$src|$wt|g"
	ln -sfn "$wt" "$bout/source"
	find "$bout" -exec touch -h -d "@$(date +%s.%N)" {} +
	echo "bisect: the tip's objects are those of $from (built from the tip)"
}
build_at() {	# build_at REV NAME: check REV out in the worktree and build it
	local rc=0
	step_start
	checkout "$1" && KTARGETS="$image modules" \
		"$TOP/scripts/build-kernel.sh" "$flavor" "$wt" "$bout" > "$BUILD/bisect/build.log" 2>&1 || rc=1
	step_end
	timed build series "$2" "$STEP_WALL" "$STEP_CPU"
	return $rc
}
# unbuilt_at REV: the C files REV touches whose objects the build of its
# configuration left out (neither built-in.a nor modules.order names
# them: code behind a hidden symbol that only a later patch selects) are
# compiled on their own, so that each patch's own code builds at that
# patch.  Prints them; fails if one does not compile.  The hypervisor's
# files are always built with KVM.
unbuilt_at() {
	local f o built objs=""
	built=$(cd "$bout" && ar t built-in.a && cat modules.order)
	for f in $(git -C "$TREE" diff --name-only "$1^" "$1" -- '*.c' ':!tools/'); do
		case $f in arch/arm64/kvm/hyp/nvhe/*|arch/x86/*) continue ;; esac
		o=${f%.c}.o
		[ -f "$wt/$f" ] && ! grep -qxF "$o" <<<"$built" && objs="$objs $o"
	done
	[ -n "$objs" ] || return 0
	echo "$objs"
	# shellcheck disable=SC2086
	kmake "$wt" "$bout" "$flavor" $objs >> "$BUILD/bisect/build.log" 2>&1
}
# warnings_at NAME: W=1 and sparse warnings of the touched files built in
# the current checkout, without line numbers so that moved code compares
# equal, into warnings.NAME; the objects checked into objects.NAME.  The
# hypervisor's files build as FILE.nvhe.o in arch/arm64/kvm/hyp/nvhe.  A
# file counts as built in this configuration if the tip built its object.
warnings_at() {
	local objs="" srcs="" f o
	for f in $files; do
		[ -f "$wt/$f" ] || continue
		o=${f%.c}.o
		case $f in arch/arm64/kvm/hyp/nvhe/*) o=${f%.c}.nvhe.o ;; esac
		[ -f "$bout/$o" ] && objs="$objs $o" srcs="$srcs $wt/$f"
	done
	echo "$objs" > "$BUILD/bisect/objects.$1"
	: > "$BUILD/bisect/warnings.$1"
	[ -n "$objs" ] || return 0
	# shellcheck disable=SC2086
	touch -c $srcs
	# shellcheck disable=SC2086
	kmake "$wt" "$bout" "$flavor" W=1 C=2 $objs 2>&1 |
		grep -E 'warning|error' | sed -E 's/:[0-9]+(:[0-9]+)?:/:/' |
		sort -u > "$BUILD/bisect/warnings.$1"
}

# The kernel's C files: those under tools/ are user space, built by
# mkinitramfs.sh with -Wall -Werror.
files=$(git -C "$TREE" diff --name-only "$BASE_TAG"..series -- '*.c' ':!tools/')

# objects_check NAME FLAVOR OUT [VAR=VALUE...]: the objects of the touched
# files that FLAVOR's architecture builds (for x86_64 those outside arch/)
# and, if the hypervisor's are among them, its object kvm_nvhe.o (every
# EL2 file, linked and checked), build without warnings; a whole kernel
# costs as much as the rest of the series checks.  Run as clang (LLVM=1)
# and as x86_64, the architecture make check no longer boots.
objects_check() {
	local name=$1 flavor=$2 out=$3 targets log=$LOGS/build-$1.log rc
	shift 3
	targets=$(for f in $files; do
		case $flavor,$f in
		arm64*,arch/arm64/kvm/hyp/nvhe/*) echo arch/arm64/kvm/hyp/nvhe/kvm_nvhe.o ;;
		arm64*,*) echo "${f%.c}.o" ;;
		*,arch/*) ;;
		*) echo "${f%.c}.o" ;;
		esac
	done | sort -u | tr '\n' ' ')
	mkdir -p "$LOGS"
	step_start
	if [ -n "$targets" ]; then
		env "$@" KTARGETS="$targets" "$TOP/scripts/build-kernel.sh" "$flavor" "$TREE" "$out" > "$log" 2>&1 && rc=0 || rc=$?
	fi
	step_end
	timed build series "$name" "$STEP_WALL" "$STEP_CPU"
	if [ -z "$targets" ]; then
		result SKIP "$name: the series touches no C file $flavor builds yet"
	elif [ "$rc" = 0 ]; then
		if grep -F "$files" "$log" | grep -q warning; then
			result FAIL "$name: warnings in touched files (see $log)"
			grep -A3 warning "$log" | head -n 40
		else
			result PASS "$name: $(wc -w <<<"$targets") objects of the touched files build for $flavor${1:+ with $*}, no warning"
		fi
	else
		result FAIL "$name: the touched files do not build for $flavor${1:+ with $*} (see $log)"
		tail -n 20 "$log"
	fi
}
# bisected: after a bisect of every patch without a failure, record the
# series in tests/bisected; after the tip alone, check that it records
# this series.
bisected() {
	local hash have when
	hash=$("$TOP/scripts/series-hash.sh")
	if [ "$bisect" = 1 ]; then
		[ "$failed" = 1 ] || echo "$hash $(date -u +%Y-%m-%d)" > "$stamp"
		return 0
	fi
	read -r have when < "$stamp" 2> /dev/null || have=
	if [ "$have" = "$hash" ]; then
		result PASS "bisect: every patch of this series built on its own on $when (make check-full; ${stamp#"$TOP"/})"
	else
		result FAIL "bisect: ${stamp#"$TOP"/} does not name this series: build every patch (make check-full or make check-series) and commit ${stamp#"$TOP"/}"
	fi
}
# bisect_check: the bisect, then the base's warnings against the tip's.
bisect_check() {
	if [ -z "$commits" ]; then
		result SKIP "bisect: the series has no patch yet"
	else
		n=$(wc -w <<<"$commits")
		tip=$n
		seed
		newer='' newer_ok=0 failed=0
		[ "$bisect" = 1 ] || commits=$(head -n 1 <<<"$commits")
		for c in $commits; do
			subject=$(git -C "$TREE" log -1 --format=%s "$c")
			# Patch n + 1 changed nothing the kernel build reads: the
			# kernel here is the one that built at n + 1.
			if [ "$newer_ok" = 1 ] && ! git -C "$TREE" diff --name-only "$c" "$newer" |
				grep -q -v -e '^Documentation/' -e '^tools/testing/' -e '^MAINTAINERS$'; then
				result PASS "bisect: arm64 builds at patch $n: $subject (same kernel sources as patch $((n + 1)))"
			elif build_at "$c" "bisect-$n"; then
				result PASS "bisect: arm64 builds at patch $n: $subject"
				newer_ok=1
				step_start
				if own=$(unbuilt_at "$c"); then
					[ -z "$own" ] || result PASS "bisect: at patch $n, its files outside the configuration compile on their own:$own"
				else
					result FAIL "bisect: at patch $n, its files outside the configuration do not compile:$own"
					tail -n 20 "$BUILD/bisect/build.log"
					failed=1
				fi
				step_end
				[ -z "$own" ] || timed build series "bisect-own-$n" "$STEP_WALL" "$STEP_CPU"
			else
				result FAIL "bisect: arm64 does not build at patch $n: $subject"
				tail -n 20 "$BUILD/bisect/build.log"
				newer_ok=0 failed=1
			fi
			newer=$c
			if [ "$n" = "$tip" ] && [ -n "$files" ]; then
				step_start
				warnings_at tip
				step_end
				timed build series w1-sparse-tip "$STEP_WALL" "$STEP_CPU"
			fi
			n=$((n - 1))
		done
		bisected
	fi

	if [ -z "$files" ]; then
		result SKIP "W=1, sparse: the series touches no C file yet"
	else
		step_start
		checkout "$BASE_TAG"
		warnings_at base
		step_end
		timed build series w1-sparse-base "$STEP_WALL" "$STEP_CPU"
		new=$(comm -13 "$BUILD/bisect/warnings.base" "$BUILD/bisect/warnings.tip")
		built=$(wc -w < "$BUILD/bisect/objects.tip")
		if [ "$built" = 0 ]; then
			result FAIL "W=1, sparse: the tip built none of the $(wc -w <<<"$files") touched C files"
		elif [ -z "$new" ]; then
			result PASS "W=1, sparse: no new warning in the $built of $(wc -w <<<"$files") touched C files the tip builds"
		else
			result FAIL "W=1, sparse: new warnings"
			echo "$new" | head -n 40
		fi
	fi
}

# clang, x86_64 and the documentation need neither the worktree nor its objects:
# they run beside the bisect, 9 nice levels below it, in what its relinks
# leave idle.  Each runs in a subshell of its own, so that a step's CPU
# time counts its own processes.
mkdir -p "$BUILD/bisect"
{
	renice -n $(($(nice) + 9)) -p "$BASHPID" > /dev/null
	# Debian 12's clang (14) builds 6.12, not 7.x (17 at least)
	need=$("$TREE/scripts/min-tool-version.sh" llvm)
	have=$(clang -dumpversion)
	if [ "$(printf '%s\n' "$need" "$have" | sort -V | head -n 1)" = "$need" ]; then
		objects_check clang arm64 "$OUT/arm64-clang" LLVM=1
	else
		result SKIP "clang: the machine's clang $have is older than the $need this tree needs"
	fi
	objects_check x86_64 x86_64-debug "$OUT/x86_64-debug"
	"$TOP/scripts/docs-check.sh"
} > "$BUILD/bisect/side.out" 2>&1 &
side=$!
bisect_check &
rc=0
wait $! || rc=1
wait $side || rc=1
cat "$BUILD/bisect/side.out"
summary
exit $rc
