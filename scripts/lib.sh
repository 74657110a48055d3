# Common settings for the harness scripts; sourced, never run.
# shellcheck shell=bash

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
# The generated kernel tree (base + series) and its out-of-tree builds, one
# directory per flavor.  Both can point elsewhere, e.g. at a git worktree
# of build/linux and its own build directory.
TREE=${TREE:-$BUILD/linux}
OUT=${OUT:-$BUILD/out}
LOGS=$OUT/logs
PATCHES=$TOP/patches
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

# Mainline, the anchor: Debian's linux-source-7.3 from trixie-backports,
# pinned (scripts/mainline-fetch.sh), unpacked in $MAINLINE_SRC: its
# remotes kselftests and its test remote run on the series.
MAINLINE_PKG=linux-source-7.3
MAINLINE_VERSION=7.3.4-1~bpo13+1
MAINLINE_SUITE=trixie-backports
MAINLINE_SHA256=703e369ddd4cce971452f5a593ee55df3a5c10c83caf0fa0df039633ed181ee3
MAINLINE_SRC=$BUILD/mainline/linux-source-7.3

# Debian's Perfetto for arm64 guests: sid's perfetto and the libraries it
# loads, pinned (scripts/perfetto-fetch.sh: "PACKAGE VERSION SHA-256" a
# line), unpacked with sid's own dynamic loader into $PERFETTO_SID: the
# guest runs them from /opt/perfetto-sid (suite perfetto-debian).
PERFETTO_SID_SUITE=sid
PERFETTO_SID_DEBS="perfetto 56.0-1 7bb627fbeb308b6bbf1853513c5184005391e76371cf5a04fb8a73d0e1e4144f
libc6 2.43-7 2315e75157bf67622bb435724de8be3c4c6f5bb33f3f26e8310842ea66093c74
libstdc++6 16.2.0-4 d7d0387468ffed2bc8aa32e16cd05bd9e4b9ea120863d69ee557d2d6dd663c39
libgcc-s1 16.2.0-4 385ea4394ef27e610dfa033ea422dd79b154d88255a9d945de86ece751578b9f
zlib1g 1:1.3.dfsg+really1.3.2-4 aaf9e8cfc7d86771144c660d544806c886a5ae406f97bd50b62588a0718229ab"
PERFETTO_SID=$BUILD/perfetto-sid

# apt_own DIR SUITES MIRROR [APT OPTION...]: apt lists and cache of the
# harness's own in DIR, for Debian's SUITES (space separated, main) on
# MIRROR, or if empty the machine's Debian mirror: the machine's apt
# configuration is left alone.  Sets APT_OPTS (for apt-get and apt-cache:
# the options given too) and APT_SOURCE, and updates the lists.
apt_own() {
	local dir=$1 suites=$2 mirror=$3 suite
	shift 3
	[ -n "$mirror" ] || mirror=$(grep -h -o -E 'https?://[^ ]*/debian/?$' \
		/etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null | head -n 1 || true)
	[ -n "$mirror" ] || die "no Debian mirror in /etc/apt: give one (MAINLINE_MIRROR, PERFETTO_MIRROR)"
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
	for suite in $suites; do
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main"
	done > "$dir/sources.list"
	APT_SOURCE="$mirror $suites"
	APT_OPTS=(-q -o "Dir::Etc::SourceList=$dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache"
		-o APT::Sandbox::User=root "$@")
	apt-get "${APT_OPTS[@]}" update >&2
}

# apt_pinned DIR PKG VERSION SHA256 [HOW TO PIN]: PKG's .deb at VERSION in
# DIR, downloaded with apt_own's APT_OPTS unless there with SHA256, whose
# SHA-256 must be SHA256; prints its path.  When the archive no longer
# serves VERSION, the error says which it serves and HOW TO PIN another.
apt_pinned() {
	local dir=$1 pkg=$2 version=$3 sha=$4 how=${5:-} deb served
	deb=$(find "$dir" -maxdepth 1 -name "${pkg}_${version//:/%3a}_*.deb" | head -n 1)
	if [ -z "$deb" ] || ! echo "$sha  $deb" | sha256sum -c --quiet 2>/dev/null; then
		rm -f "$dir/${pkg}_"*.deb
		(cd "$dir" && apt-get "${APT_OPTS[@]}" download "$pkg=$version" >&2) || {
			served=$(apt-cache "${APT_OPTS[@]}" madison "$pkg" 2>/dev/null | awk '{print $3}' | sort -u | head -n 3 | tr '\n' ' ')
			die "$pkg $version is not served by $APT_SOURCE (served: ${served:-none}). $how"
		}
		deb=$(find "$dir" -maxdepth 1 -name "${pkg}_*.deb" | head -n 1)
	fi
	echo "$sha  $deb" | sha256sum -c --quiet ||
		die "$deb: SHA-256 is not the pinned $sha (scripts/lib.sh)"
	echo "$deb"
}

# debs_unpack DEBS ROOT PINS [HOW TO PIN]: every "PACKAGE VERSION SHA-256"
# line of PINS fetched with apt_pinned into DEBS and unpacked into ROOT.
debs_unpack() {
	local debs=$1 root=$2 pins=$3 how=${4:-} pkg version sha deb
	mkdir -p "$debs" "$root"
	while read -r pkg version sha; do
		deb=$(apt_pinned "$debs" "$pkg" "$version" "$sha" "$how")
		dpkg-deb -x "$deb" "$root"
	done <<< "$pins"
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
			[ -e "$libdir/$lib" ] || die "$lib: in none of the pinned packages"
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
# with "-prod" where the mode is flagged "prod", else "-debug" if DEBUG
# is 1.
mode_flavor() {
	local flavor
	flavor=$(mode_field "$1" 2)
	if mode_has "$1" prod; then
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
	case $1 in *-mainline) "$TOP/scripts/mainline-fetch.sh" tree ;; esac
	"$TOP/scripts/build-kernel.sh" "$1"
	"$TOP/scripts/mkinitramfs.sh" "$1"
}

# boot_log MODE FLAVOR SUITES LOG: boot and run SUITES in the guest, with
# the console in LOG (carriage returns dropped) and not on the terminal.
boot_log() {
	"$TOP/scripts/qemu.sh" "$1" "$2" "$3" "$4" > /dev/null || true
	tr -d '\r' < "$4" > "$4.tmp" && mv "$4.tmp" "$4"
}
