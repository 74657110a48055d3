#!/bin/bash
# Install everything the harness needs from Debian's packages, and fetch the
# guests' user space (arm64 and amd64) as .debs.  Idempotent: with everything present it
# only checks and returns.
set -eu
# The series' base is installed; the queue on mainline's comes with
# mainline's package (mainline-fetch.sh), whatever QUEUE says.
QUEUE=series
. "$(dirname "$0")/lib.sh"

HOST_PKGS="gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm qemu-system-x86
	ccache sparse clang lld llvm make bc bison flex libssl-dev libelf-dev
	cpio kmod rsync xz-utils gzip python3 python3-ply python3-git perl git pkg-config
	libtraceevent-dev libtracefs-dev trace-cmd python3-sphinx python3-sphinx-rtd-theme
	protobuf-compiler"
# The guest's user space, from Debian 12; what they load comes along.
GUEST_PKGS="busybox-static bash bc trace-cmd"
GUEST_SUITES="bookworm bookworm-updates"

sudo=
[ "$(id -u)" = 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
updated=
apt_update() { [ -n "$updated" ] || $sudo apt-get update -q; updated=1; }

missing() {	# print the packages of "$@" that are not installed
	for p; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' || echo "$p"
	done
}

# 1. The base kernel: BASE_VERSION, or the newest served build of its
#    upstream version (deb_version); recorded in build/versions/base.
if [ "$(dpkg-query -W -f='${Version}' "$BASE_PKG" 2>/dev/null)" != "$BASE_VERSION" ]; then
	apt_update
	APT_OPTS=(-q) APT_SOURCE="the machine's apt sources"
	v=$(deb_version "$BASE_PKG" "$BASE_VERSION" \
		"Pin one it serves in BASE_VERSION in scripts/lib.sh and check the series on it (make tree FORCE=1, make check-full).")
	[ "$(dpkg-query -W -f='${Version}' "$BASE_PKG" 2>/dev/null)" = "$v" ] ||
		$sudo apt-get install -y -q "$BASE_PKG=$v"
fi
mkdir -p "$VERSIONS"
dpkg-query -W -f='${Package} ${Version}\n' "$BASE_PKG" > "$VERSIONS/base"

# 2. Host tools.
# shellcheck disable=SC2086
todo=$(missing $HOST_PKGS)
if [ -n "$todo" ]; then
	apt_update
	# shellcheck disable=SC2086
	$sudo apt-get install -y -q --no-install-recommends $todo
fi

# 3. Guest user space for each guest architecture: Debian 12's GUEST_PKGS
#    and what apt resolves for them, with apt of the harness's own, unpacked
#    into build/guest-<debian arch>; what was taken is in
#    build/versions/guest-<debian arch>.
for arch in arm64 amd64; do
	root=$BUILD/guest-$arch
	stamp=$root/.pkgs
	[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$GUEST_PKGS" ] && continue
	apt_own "$BUILD/apt-guest-$arch" "$GUEST_SUITES" "" \
		-o APT::Architecture="$arch" -o APT::Architectures="$arch"
	rm -rf "$root"
	# shellcheck disable=SC2086
	debs_fetch "guest-$arch" "$BUILD/debs-$arch" "$root" "$(printf '%s\n' $GUEST_PKGS)"
	echo "$GUEST_PKGS" > "$stamp"
	say "guest user space: $(wc -l < "$VERSIONS/guest-$arch") $arch packages in $root"
done
# 4. Mainline, pinned: its kselftests and test remote run on the series.
"$TOP/scripts/mainline-fetch.sh"
# 5. Debian sid's Perfetto and trace-cmd 3.4 for the arm64 guests, pinned.
"$TOP/scripts/sid-fetch.sh"
# 6. Debian trixie-backports' QEMU for the pKVM modes, pinned (tests/modes).
"$TOP/scripts/qemu-fetch.sh"
say "all dependencies present"
