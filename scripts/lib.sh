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

# Debian sid's user space for arm64 guests, beside Debian 12's: Perfetto
# (suite perfetto-debian) and trace-cmd 3.4 (suite trace-cmd) and the
# libraries they load, pinned (scripts/sid-fetch.sh: "PACKAGE VERSION
# SHA-256" a line), unpacked with sid's own dynamic loader into $SID_ROOT:
# the guest runs them from /opt/sid ($SID_RUN in tests/guest/lib.sh).
SID_SUITE=sid
SID_DEBS="perfetto 56.0-1 7bb627fbeb308b6bbf1853513c5184005391e76371cf5a04fb8a73d0e1e4144f
trace-cmd 3.4-2 c2ef2dc95d1441bec1f74458f9ad8a8634c412258702e04905ca382d719c9c0b
libtracefs1 1.8.3-1+b1 e309b37d1317894656f0dabc1cdf3fe889773cc77d325e21fdef22d2a2e1df4d
libtraceevent1 1:1.9.0-2 dad7dbb4f0d32715a9b65ddf8a093575c4254ec945a59389c80d6d2b59968a87
libtraceevent1-plugin 1:1.9.0-2 fc190fc388be7c0446066a2e3241eeba6725b2b2988934345194129d913505a3
libtracefs-dev 1.8.3-1+b1 1fc59098b4cc656c627040f5ed61c381cc9bdb9c53726b7f056690f2725ef267
libtraceevent-dev 1:1.9.0-2 f9d5bf3c86ceeaa40b2b18967d3df5285806dfb2432f335882d864379c20dd77
libzstd1 1.5.7+dfsg-4 e99e6e244d6c80f1c8e96cb68bb04bffc6848b12e3dcc5a35f6a775e4332e936
libc6 2.43-7 2315e75157bf67622bb435724de8be3c4c6f5bb33f3f26e8310842ea66093c74
libstdc++6 16.2.0-4 d7d0387468ffed2bc8aa32e16cd05bd9e4b9ea120863d69ee557d2d6dd663c39
libgcc-s1 16.2.0-4 385ea4394ef27e610dfa033ea422dd79b154d88255a9d945de86ece751578b9f
zlib1g 1:1.3.dfsg+really1.3.2-4 aaf9e8cfc7d86771144c660d544806c886a5ae406f97bd50b62588a0718229ab"
SID_ROOT=$BUILD/sid

# The pKVM modes' QEMU (tests/modes: qemu-system-aarch64-trixie): Debian
# trixie-backports' qemu-system-arm and, from trixie, every library it
# loads, pinned (scripts/qemu-fetch.sh: "PACKAGE VERSION SHA-256" a line,
# amd64), run through trixie's own dynamic loader from $QEMU_TRIXIE.
# Debian 12's QEMU 7.2 keeps EL2 translations of hVHE's stage 1 after a
# TLBI VALE2IS (docs/harness.md).
QEMU_TRIXIE_SUITES="trixie trixie-backports"
QEMU_TRIXIE_DEBS="qemu-system-arm 1:11.1.3+ds-1~bpo13+1 2a8c7a365052cfe0f3a73c60e4bddca2e7182ab56a57248b6243b8758c3fae8a
libaio1t64 0.3.113-8+b1 490c8a2d116001a5f3b0a6d7a7aabf6a7b629366590dc5c3f75b078e931dd129
libatomic1 14.2.0-19 212b399aae2f7299203d261a57e49372e09565a9a5ea971905f94a3960366c05
libblkid1 2.41.5-0+deb13u1 81535f3c2c0efc732965907c8749103a0a26377c761622c9ce39b4c92dcde52f
libbpf1 1:1.5.0-3 04c96ead3024888d80d08c8d08cc8cf4589f4614627acc69519f87ffb5adc1c2
libc6 2.41-12+deb13u5 b59b0625cd1a791375d40dab23a4d5d3d0641e3d0a773501becdc3725b7f99cf
libcap2 1:2.75-10+deb13u1+b3 89fc4d34fc7a28ad6f0fcd0c561ab253b9dedf6f77f5a000b47c276c8295bf67
libcapstone5 5.0.7-1~deb13u1 775187a7be26bb0b076d1979a02163b943dbc13eb4adb0efc503223a03c75422
libdaxctl1 81-1 6296eb5c976743ba0defb7a061ef081238ca072cf569c6bb96fd3f9095c58a30
libelf1t64 0.196-1~bpo13+2 ffcc8ca0db9530597aa4ee4feebf1e3fb3b30c6f38f0d14ed5d9fe593ae5c8ce
libfdt1 1.7.2-2+b1 8e37034d7864807ae2063efcc82fc79aad59069546212e6e0908ed67f9f7e107
libffi8 3.4.8-2 0ebdc340de33333639c3c63874cd4b15ac2e83dfa1ef3053b7eefaf4919f4f68
libfuse3-4 3.17.2-3 92e2d521ff872755a13aa69dba7b24025a7dc0f0f5aa708c9a86cd3565f570da
libglib2.0-0t64 2.84.4-3~deb13u5 e2baf92c57d1db1753e5781a61450d9a01e7833c7bd2dfe87776a6811c11ecc2
libgmp10 2:6.3.0+dfsg-3 d0d0265eb01770f17afd0f7c8c0622f80479dcfbbe13653a0debeec61464e622
libgnutls30t64 3.8.9-3+deb13u4 18a8bdfd91c7e3bcb01719d55a2b56849c7160b34f1f52b1c4fdfdd41bf1352b
libhogweed6t64 3.10.1-1 b059ed155115ac09da295322de48ee1ed58ef5fa45edcc9e12ff0e94636ef25f
libibverbs1 56.1-1 4c3b889607586e6328964a5f98e01ef01daa415be24334d743d6654aab4c47a4
libidn2-0 2.3.8-2 90b039bcdc4578f8e1c4935adf8dbb525e36a164deefdbbb8c45bac347d48278
libjpeg62-turbo 1:2.1.5-4 5504299ad0e3c0a9ca9f962a68a650a040db52f9f416a109e74df48d55601d3f
libkmod2 34.2-2 ee6c50ebac79aa9795e8bf9aa01d94c99984d09d22598c66be0f8ba917b62179
libmount1 2.41.5-0+deb13u1 6d00f45f2e80e078e906e3eedecd3ba6913e39fef49bff361ee583f17f00ec05
libndctl6 81-1 fe60a05d42e61cb9f49a90b872aa5ca569363b13459ee0d405243c37a7de7c93
libnettle8t64 3.10.1-1 1b03d4a9cd9c8143ba50fe6396f36937e901a317d492d179f4596862c1731cfe
libnl-3-200 3.7.0-2 ce5c153953016be42def7b105f37d55eae07a9608d1dfe6bcb03cc017fc384cb
libnl-route-3-200 3.7.0-2 1c8c95542688996cff8e954583642b10a3bd78b69954f565fda62144c2bc3897
libnuma1 2.0.19-1 e578583f73f8208564e5035b18aa729c441fc7ecb389c666923552e123f4d655
libp11-kit0 0.25.5-3 784bf2063e166c8bc851a32623b74ebd85c499043a9d57c5bbd64fa63447f45a
libpcre2-8-0 10.46-1~deb13u3 e226f661d918f04daf38cdbc4806b7ed7d6ef95c7eb0ade692fc350e31970040
libpixman-1-0 0.44.0-3 3862c87596f6b4b60fc916395fd69aa10af28a875a8e5c081a8cf30ddd120bd6
libpmem1 1.13.1-1.1+b1 7d972d6958e915ce602e4b90debc6b4b91a01dfea1fe003d0b013756e7d9d863
libpng16-16t64 1.6.48-1+deb13u6 0f8034d1c2547760430c81e8d87e5d6acd533a3493c80cf76dbecd0343b6773c
librdmacm1t64 56.1-1 5b56911725905b8e2a8389c99416ca078395c4ca8ce0d516bc758d5be0134687
libsasl2-2 2.1.28+dfsg1-9 66e49d7ae026811b49a0050f18b0325960a2625ffd1ff60d91b7844a815fa9d2
libseccomp2 2.6.0-2 89d5138e05fb6a86b9afd8b54dc0fb4b14f4c27c05e6c5f767c2132bdf808531
libselinux1 3.8.1-1 68bb8d32bd8d6d7d2f5952a169db03d1484b46ae1e52abccdec42a19dccea5d5
libslirp0 4.8.0-1+deb13u1 6125698173f8be0d0de01ff897a0df3c5e50fb09f70238b26dd6574aaa0934e1
libssl3t64 3.5.9-1~deb13u1 ffefb9af363e0e4592251b2533eb06453c8e470f7772e40263c4b2129251a6d5
libtasn1-6 4.20.0-2+deb13u1 23fec6e06583ce2bad9b2c04c9b485e90440e259b1abf8677cd80d3ce60831ad
libudev1 257.13-1~deb13u1 5d41c284f5a93b05bc7d648b61a02dd2bb9ff05b2261ad1a8b7d96044a0cfa88
libunistring5 1.3-2 6dd3490bef06ea1096f32d10766b7e016cf579bfae8451d1b7df15ce05b8aa46
liburing2 2.9-1 4b589c00c7a51172aace2cb2fb3d3ff32daf86c644023126dcfcaa840cc941ea
libuuid1 2.41.5-0+deb13u1 c1bf4c4c3ff48c57fabf93307dfb56996b60cfa33927afc4158b5db36fb2721e
libvdeplug2t64 4.0.1-5.1+b1 01291e2c8e28e91eac6b59c983a3a44e29ad0ddb8622699fbb84cbd5f26334a4
libzstd1 1.5.7+dfsg-1 2f6a2aeacfc925eba8b00ac9139bc4bfccf8cacb09eb93de067074b26948eef9
zlib1g 1:1.3.dfsg+really1.3.1-1+deb13u1 8c27c342230503b73dfde629642c3b352e87b554e06d60cf58772f236a305ceb"
QEMU_TRIXIE=$BUILD/qemu-trixie

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
	[ -n "$mirror" ] || die "no Debian mirror in /etc/apt: give one (MAINLINE_MIRROR, SID_MIRROR)"
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
