# Common settings for the harness scripts; sourced, never run.
# shellcheck shell=bash

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
# The queue the harness works on: the series on 6.12 (QUEUE=series, the
# default: patches/, build/linux, build/out) or the queue on mainline 7.3
# (QUEUE=mainline: mainline/, build/linux-mainline, build/out-mainline,
# where the flavors ARCH-mainline are built from the queue's tree).
QUEUE=${QUEUE:-series}
case $QUEUE in
series) queue_dir=patches queue_build= ;;
mainline) queue_dir=mainline queue_build=-mainline ;;
*) echo "QUEUE=$QUEUE: the queues are series and mainline" >&2; exit 1 ;;
esac
# The generated kernel tree (base + queue) and its out-of-tree builds, one
# directory per flavor.  Both can point elsewhere, e.g. at a git worktree
# of build/linux and its own build directory.
TREE=${TREE:-$BUILD/linux$queue_build}
OUT=${OUT:-$BUILD/out$queue_build}
LOGS=$OUT/logs
PATCHES=$TOP/$queue_dir
# The record of the queue's last bisect (scripts/check-series.sh)
BISECTED=$TOP/tests/bisected$queue_build
# series_patches: the patch files patches/series lists, in order.
series_patches() { grep -v '^\s*\(#\|$\)' "$PATCHES/series" || true; }
# apply_series REPO [-B BRANCH]: check the base out in REPO (detached, or
# on BRANCH) and apply the series to it.  One git am for all the patches
# (4.3 s, one per patch took 10 s); where one does not apply, git am says
# which, and the repository is left at the base.
apply_series() {
	local repo=$1
	shift
	git -C "$repo" am --abort > /dev/null 2>&1 || true
	git -C "$repo" checkout -q -f "${@:---detach}" "$BASE_TAG"
	git -C "$repo" clean -q -f -d
	[ -n "$(series_patches)" ] || return 0
	# shellcheck disable=SC2046
	git -C "$repo" am -q --keep-cr $(series_patches | sed "s|^|$PATCHES/|") ||
		{ git -C "$repo" am --abort; return 1; }
}
CONFIGS=$TOP/configs

# The base kernel: Debian's linux-source-6.12 at the version we test.
BASE_PKG=linux-source-6.12
BASE_VERSION=6.12.117-1~deb12u1
BASE_TARBALL=/usr/src/linux-source-6.12.tar.xz
BASE_TAG=base

# Mainline, the anchor: Debian's linux-source-7.3 from trixie-backports
# (scripts/mainline-fetch.sh), unpacked in $MAINLINE_SRC: its remotes
# kselftests and its test remote run on the series.
MAINLINE_PKG=linux-source-7.3
MAINLINE_VERSION=7.3.4-1~bpo13+1
MAINLINE_SUITE=trixie-backports
MAINLINE_SRC=$BUILD/mainline/linux-source-7.3
# The queue on mainline applies to the whole tarball of that package,
# taken out of it by scripts/mainline-fetch.sh tarball.
if [ "$QUEUE" = mainline ]; then
	BASE_PKG=$MAINLINE_PKG
	BASE_VERSION=$MAINLINE_VERSION
	BASE_TARBALL=$BUILD/mainline/$MAINLINE_PKG.tar.xz
fi

# Debian sid's user space for arm64 guests, beside Debian 12's: Perfetto
# (suite perfetto-debian), trace-cmd 3.4 (suite trace-cmd) and libtracefs
# 1.8.3 (suite map-test), "PACKAGE VERSION" a line (scripts/sid-fetch.sh,
# with the libraries they load as apt resolves them in sid), unpacked with
# sid's own dynamic loader into $SID_ROOT: the guest runs them from
# /opt/sid ($SID_RUN in tests/guest/lib.sh).
SID_SUITE=sid
SID_PKGS="perfetto 56.0-1
trace-cmd 3.4-2
libtracefs1 1.8.3-1+b1
libtraceevent1 1:1.9.0-2
libtraceevent1-plugin 1:1.9.0-2
libtracefs-dev 1.8.3-1+b1
libtraceevent-dev 1:1.9.0-2"
SID_ROOT=$BUILD/sid

# The pKVM modes' QEMU (tests/modes: qemu-system-aarch64-trixie): Debian
# trixie-backports' qemu-system-arm ("PACKAGE VERSION") with the libraries
# it loads as apt resolves them there (scripts/qemu-fetch.sh, amd64), run
# through trixie's own dynamic loader from $QEMU_TRIXIE.  Debian 12's QEMU
# 7.2 keeps EL2 translations of hVHE's stage 1 after a TLBI VALE2IS
# (docs/harness.md).
QEMU_TRIXIE_SUITES="trixie trixie-backports"
QEMU_TRIXIE_PKGS="qemu-system-arm 1:11.1.3+ds-2~bpo13+1"
QEMU_TRIXIE=$BUILD/qemu-trixie

# What each fetch took: $VERSIONS/NAME, "PACKAGE VERSION" a line, printed
# at the top of make check's log (scripts/versions.sh).
VERSIONS=$BUILD/versions

# How a fetch picks versions (docs/harness.md, "Fetches"): the pinned
# version where the archive serves it, else the newest served build of the
# same upstream version (a rebuild "+bN", a new Debian revision, a point
# release's "+debNuM", a backport's "~bpoN") with a warning that names it;
# no build of that upstream version served is an error that names those
# served.  apt checks every package it downloads against the archive's
# signed lists: a pinned hash would add reproducibility, not trust.

# apt_own DIR SUITES MIRROR [APT OPTION...]: apt of the harness's own in
# DIR: a sources list for Debian's SUITES (space separated, main) on
# MIRROR, or if empty the machine's Debian mirror, its lists, cache and an
# empty dpkg status, so that apt resolves dependencies as for an empty
# system and the machine's apt configuration is left alone.  Sets
# APT_OPTS (for apt-get and apt-cache: the options given too) and
# APT_SOURCE, and updates the lists: three tries, for a mirror caught
# syncing (once, an update of sid failed, then another kept no Packages
# file and found nothing).
apt_own() {
	local dir=$1 suites=$2 mirror=$3 suite try
	shift 3
	[ -n "$mirror" ] || mirror=$(grep -h -o -E 'https?://[^ ]*/debian/?$' \
		/etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null | head -n 1 || true)
	[ -n "$mirror" ] || die "no Debian mirror in /etc/apt: give one (MAINLINE_MIRROR, SID_MIRROR, QEMU_MIRROR)"
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
	: > "$dir/status"
	for suite in $suites; do
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main"
	done > "$dir/sources.list"
	APT_SOURCE="$mirror $suites"
	APT_OPTS=(-q -o "Dir::Etc::SourceList=$dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache"
		-o "Dir::State::status=$dir/status" -o "Dir::State::extended_states=$dir/extended_states"
		-o Debug::NoLocking=1 -o APT::Sandbox::User=root "$@")
	for try in 1 2 3; do
		if apt-get "${APT_OPTS[@]}" update >&2 &&
			[ "$(find "$dir/lists" -maxdepth 1 -name '*_Packages*' | wc -l)" -ge "$(echo $suites | wc -w)" ]; then
			return 0
		fi
		echo "apt_own: no Packages list of every suite of $APT_SOURCE after try $try" >&2
		rm -rf "$dir/lists"
		mkdir -p "$dir/lists/partial"
		[ $try = 3 ] || sleep 10
	done
	die "apt-get update of $APT_SOURCE gave no Packages list of every suite in 3 tries: the mirror may be syncing; try again, or give another mirror (MAINLINE_MIRROR, SID_MIRROR, QEMU_MIRROR)"
}

# deb_version PKG VERSION [HOW TO PIN]: the version of PKG to take from
# the lists of APT_OPTS: VERSION where it is served, else the newest served
# build of its upstream version, with a warning; none is an error that
# names the upstream versions served and HOW TO PIN another.
deb_version() {
	local pkg=$1 want=$2 how=${3:-} served v best='' ups
	served=$(apt-cache "${APT_OPTS[@]}" madison "$pkg" 2>/dev/null |
		awk -F' *[|] *' '{ print $2 }' | sort -u)
	if grep -qxF -e "$want" <<<"$served"; then
		echo "$want"
		return 0
	fi
	for v in $served; do
		[ "${v%-*}" = "${want%-*}" ] || continue
		[ -z "$best" ] || dpkg --compare-versions "$v" gt "$best" || continue
		best=$v
	done
	if [ -z "$best" ]; then
		ups=$(for v in $served; do echo "${v%-*}"; done | sort -u | paste -s -d ' ')
		die "$pkg: no build of upstream version ${want%-*} (pinned: $want) is served by $APT_SOURCE, which serves ${ups:-none}${served:+ (builds: $(paste -s -d ' ' <<<"$served"))}. $how"
	fi
	say "WARNING: $pkg $want is not served by $APT_SOURCE; taking $best, its newest build of ${want%-*}"
	echo "$best"
}

# debs_fetch NAME DEBS ROOT PINS [HOW TO PIN [APT-GET OPTION...]]: the
# packages of PINS ("PACKAGE [VERSION]" a line; versions by deb_version,
# else apt's candidate) and what they depend on, as apt resolves it for an
# empty system with APT_OPTS (no recommends), downloaded into DEBS (kept:
# a package there is not downloaded again), unpacked into ROOT and
# recorded in $VERSIONS/NAME.  Fails on the first error, also where set -e
# is off.
debs_fetch() {
	local name=$1 debs=$2 root=$3 pins=$4 how=${5:-} pkg want v pkgs f
	local -a args=()
	shift $(($# < 5 ? $# : 5))
	while read -r pkg want; do
		if [ -n "$want" ]; then
			v=$(deb_version "$pkg" "$want" "$how") || return 1
			pkg=$pkg=$v
		fi
		args+=("$pkg")
	done <<< "$pins"
	mkdir -p "$debs/partial" "$root" "$VERSIONS"
	set -- "${APT_OPTS[@]}" -o "Dir::Cache::Archives=$debs" -y --no-install-recommends "$@" install "${args[@]}"
	pkgs=$(apt-get "$@" --simulate | sed -n 's/^Inst \([^ ]*\) (\([^ ]*\) .*/\1 \2/p')
	[ -n "$pkgs" ] || die "apt resolves nothing for ${args[*]}"
	apt-get "$@" --download-only >&2 || return 1
	while read -r pkg v; do
		f=$(find "$debs" -maxdepth 1 -name "${pkg}_${v//:/%3a}_*.deb" | head -n 1)
		[ -n "$f" ] || die "apt did not download $pkg $v"
		dpkg-deb -x "$f" "$root" || return 1
		echo "$pkg $v"
	done <<< "$pkgs" > "$VERSIONS/$name"
}

# libs_copy READELF LIBDIR DEST FILE...: copy into DEST, from LIBDIR, the
# shared libraries FILE... load (DT_NEEDED), and those they load, until
# none is missing; a library LIBDIR lacks is an error.
libs_copy() {
	local readelf=$1 libdir=$2 dest=$3 todo new lib
	shift 3
	needed() { "$readelf" -d "$@" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u; }
	todo=$(needed "$@")
	while [ -n "$todo" ]; do
		new=
		for lib in $todo; do
			[ -e "$dest/$lib" ] && continue
			[ -e "$libdir/$lib" ] || die "$lib: in none of the fetched packages"
			cp -L "$libdir/$lib" "$dest/"
			new="$new $dest/$lib"
		done
		todo=
		# shellcheck disable=SC2086
		[ -z "$new" ] || todo=$(needed $new)
	done
}

JOBS=${JOBS:-$(nproc)}

export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
export CCACHE_BASEDIR=$BUILD
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
export CCACHE_NOHASHDIR=1
# Depend mode: the compiler's own -MMD list (kbuild asks for it) names the
# headers, so a miss runs the compiler once instead of the preprocessor and
# then the compiler (a cold arm64-debug build takes about a sixth less CPU
# time).  A hit needs the same source, headers and
# flags: there is no fallback to comparing preprocessed output.
export CCACHE_DEPEND=1
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'
export KBUILD_BUILD_USER=trace-remotes KBUILD_BUILD_HOST=build

die() { printf '%s: error: %s\n' "${0##*/}" "$*" >&2; exit 1; }
say() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }

# flavor_arch FLAVOR: the kernel ARCH a build flavor is for.
flavor_arch() {
	case $1 in
	arm64*) echo arm64 ;;
	x86_64*) echo x86_64 ;;
	*) die "unknown flavor '$1'" ;;
	esac
}

# kmake TREE OUTDIR FLAVOR [make args...]: make in a kernel tree for a flavor.
# LLVM=1 in the environment switches to clang.
kmake() {
	local tree=$1 out=$2 arch
	arch=$(flavor_arch "$3")
	shift 3
	local cc=gcc cross=
	[ "$arch" = arm64 ] && cross=aarch64-linux-gnu-
	if [ -n "${LLVM:-}" ]; then
		set -- LLVM=1 CC="ccache clang" "$@"
	else
		set -- CROSS_COMPILE="$cross" CC="ccache ${cross}$cc" "$@"
	fi
	make -C "$tree" O="$out" ARCH="$arch" -j"$JOBS" -s "$@"
}

# mode_field MODE N: field N (1-5) of MODE's line in tests/modes.
mode_field() {
	local line
	line=$(grep -v '^#' "$TOP/tests/modes" | awk -F'|' -v m="$1" '{ f = $1; gsub(/ /, "", f); if (f == m) print }')
	[ -n "$line" ] || die "unknown mode '$1' (see tests/modes)"
	awk -F'|' -v n="$2" '{ f = $n; sub(/^ +/, "", f); sub(/ +$/, "", f); print f }' <<<"$line"
}

# mode_has MODE FLAG: MODE has FLAG among its flags in tests/modes.
mode_has() {
	case ",$(mode_field "$1" 6 | tr -d ' ')," in *,"$2",*) return 0 ;; esac
	return 1
}

# mode_flavor MODE DEBUG: the kernel flavor that boots MODE: its arch,
# with "-mainline" for the queue on mainline, else "-prod" where the mode
# is flagged "prod", else "-debug" if DEBUG is 1.
mode_flavor() {
	local flavor
	flavor=$(mode_field "$1" 2)
	if [ "$QUEUE" = mainline ]; then
		echo "$flavor-mainline"	# one flavor yet: mainline's test configuration
	elif mode_has "$1" prod; then
		echo "$flavor-prod"
	elif [ "$2" = 1 ]; then
		echo "$flavor-debug"
	else
		echo "$flavor"
	fi
}

# modes_with FLAG: the modes flagged FLAG in tests/modes, in its order;
# modes_without FLAG: the others.
modes_with() {
	grep -v '^#' "$TOP/tests/modes" |
		awk -F'|' -v f="$1" '{ gsub(/ /, "", $6); gsub(/ /, "", $1) }
			("," $6 ",") ~ ("," f ",") { print $1 }'
}
modes_without() {
	grep -v '^#' "$TOP/tests/modes" |
		awk -F'|' -v f="$1" '{ gsub(/ /, "", $6); gsub(/ /, "", $1) }
			("," $6 ",") !~ ("," f ",") { print $1 }'
}

# suites_for WHERE [SUITES]: the suites of tests/suites/list that run
# where WHERE (check, prod, ...) says, or, given SUITES (comma separated),
# those of them, in the list's order: the order of a boot.  An unknown
# suite is an error.
suites_for() {
	local list=$TOP/tests/suites/list pick=${2:-} s
	for s in ${pick//,/ }; do
		grep -q "^$s " "$list" || die "unknown suite '$s' (see tests/suites/list)"
	done
	grep -v '^#' "$list" | awk -F'|' -v where="$1" -v pick=",$pick," '
		{ gsub(/ /, "", $1); gsub(/ /, "", $2) }
		pick == ",," ? ("," $2 ",") ~ ("," where ",") : index(pick, "," $1 ",") { s = s sep $1; sep = "," }
		END { print s }'
}

# deb_arch ARCH: Debian's name for a kernel ARCH.
deb_arch() { case $1 in x86_64) echo amd64 ;; *) echo "$1" ;; esac; }

# Test results: every check prints "PASS|FAIL|SKIP name [why]" through
# result() and summary() closes with "N passed, N failed, N skipped".
# Jobs that run side by side each get their own RESULTS and TIMES files.
RESULTS=${RESULTS:-$OUT/results}
results_reset() { mkdir -p "$OUT"; : > "$RESULTS"; : > "$TIMES"; }
result() {
	local r=$1; shift
	printf '%-4s %s\n' "$r" "$*"
	echo "$r" >> "$RESULTS"
}
# Where the time goes: timed KIND WHERE NAME SECONDS [CPU] adds a line to
# TIMES, which scripts/times.sh turns into the breakdown.  KIND is build,
# boot, suite or case; WHERE is a flavor or a mode; CPU the CPU seconds
# (user and system, every process) of a build step or a boot.
TIMES=${TIMES:-$OUT/times}
timed() { echo "$*" >> "$TIMES"; }
# step_start ... step_end: STEP_WALL and STEP_CPU = the seconds of wall
# time and of CPU time (user and system of every process this shell waited
# for, and theirs) in between.  Both in the same shell, not in a $(...).
step_start() {
	STEP_T0=$(date +%s)
	cpu_ticks
	STEP_C0=$CPU_TICKS
}
step_end() {
	cpu_ticks
	STEP_WALL=$(($(date +%s) - STEP_T0))
	STEP_CPU=$(((CPU_TICKS - STEP_C0) / CLK_TCK))
}
cpu_ticks() {	# CPU_TICKS: children's user + system time, in clock ticks
	local f
	read -r -a f < "/proc/$BASHPID/stat"
	CPU_TICKS=$((f[15] + f[16]))
}
CLK_TCK=$(getconf CLK_TCK)
summary() {
	local p f s
	p=$(grep -cx PASS "$RESULTS" || true)
	f=$(grep -cx FAIL "$RESULTS" || true)
	s=$(grep -cx SKIP "$RESULTS" || true)
	printf '%d passed, %d failed, %d skipped\n' "$p" "$f" "$s"
	[ "$f" = 0 ] && [ "$p" -gt 0 ]
}

# host_tool SRC: build the host-side program SRC (a suite's host/NAME.c,
# against libtraceevent) into build/host/NAME when it is missing or older
# than its source; print its path.
host_tool() {
	local src=$1 bin
	bin=$BUILD/host/$(basename "$src" .c)
	mkdir -p "$BUILD/host"
	if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ]; then
		# shellcheck disable=SC2046
		cc -O2 -Wall -Werror $(pkg-config --cflags libtraceevent) -o "$bin" "$src" \
			$(pkg-config --libs libtraceevent) >&2 || die "cannot build $src"
	fi
	echo "$bin"
}

# build_guest FLAVOR: build FLAVOR's kernel and initramfs; for
# ARCH-mainline, mainline's whole tree first (its initramfs takes the
# programs of the series' ARCH build: build that before).
build_guest() {
	say "building $1"
	case $QUEUE/$1 in series/*-mainline) "$TOP/scripts/mainline-fetch.sh" tree ;; esac
	"$TOP/scripts/build-kernel.sh" "$1"
	"$TOP/scripts/mkinitramfs.sh" "$1"
}

# boot_log MODE FLAVOR SUITES LOG: boot and run SUITES in the guest, with
# the console in LOG (carriage returns dropped) and not on the terminal.
boot_log() {
	"$TOP/scripts/qemu.sh" "$1" "$2" "$3" "$4" > /dev/null || true
	tr -d '\r' < "$4" > "$4.tmp" && mv "$4.tmp" "$4"
}
