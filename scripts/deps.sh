#!/bin/bash
# Install everything the harness needs from Debian's packages, and fetch the
# guests' user space (arm64 and amd64) as .debs.  Idempotent: with everything present it
# only checks and returns.
set -eu
. "$(dirname "$0")/lib.sh"

HOST_PKGS="gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm qemu-system-x86
	ccache sparse clang lld llvm make bc bison flex libssl-dev libelf-dev
	cpio kmod rsync xz-utils gzip python3 python3-ply python3-git perl git pkg-config
	libtraceevent-dev libtracefs-dev trace-cmd python3-sphinx python3-sphinx-rtd-theme
	protobuf-compiler"
# The guest's user space; their arm64 dependencies come along.
GUEST_PKGS="busybox-static bash bc trace-cmd"
GUEST_SKIP="dpkg tar install-info original-awk gawk base-files"

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

# 1. The base kernel, pinned.
if [ "$(dpkg-query -W -f='${Version}' "$BASE_PKG" 2>/dev/null)" != "$BASE_VERSION" ]; then
	apt_update
	if apt-cache madison "$BASE_PKG" | grep -qF " $BASE_VERSION "; then
		$sudo apt-get install -y -q "$BASE_PKG=$BASE_VERSION"
	else
		say "WARNING: $BASE_PKG $BASE_VERSION is gone; installing the newest 6.12"
		$sudo apt-get install -y -q "$BASE_PKG"
	fi
fi

# 2. Host tools.
# shellcheck disable=SC2086
todo=$(missing $HOST_PKGS)
if [ -n "$todo" ]; then
	apt_update
	# shellcheck disable=SC2086
	$sudo apt-get install -y -q --no-install-recommends $todo
fi

# 3. Guest user space for each guest architecture, unpacked into
#    build/guest-<debian arch>.
for arch in arm64 amd64; do
	root=$BUILD/guest-$arch
	stamp=$root/.pkgs
	want="$GUEST_PKGS | $GUEST_SKIP"
	[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && continue
	dpkg --print-foreign-architectures | grep -qx "$arch" ||
		[ "$(dpkg --print-architecture)" = "$arch" ] || {
		$sudo dpkg --add-architecture "$arch"
		updated=
	}
	apt_update
	suffix=":$arch"	# apt-cache names foreign packages with their arch
	[ "$(dpkg --print-architecture)" = "$arch" ] && suffix=
	# shellcheck disable=SC2086
	pkgs=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
		--no-breaks --no-replaces --no-enhances $(printf "%s:$arch " $GUEST_PKGS) |
		sed -n "s/^\([a-z0-9][^ <:]*\)$suffix$/\1/p" | sort -u)
	for s in $GUEST_SKIP; do pkgs=$(grep -vx "$s" <<<"$pkgs"); done
	debs=$BUILD/debs-$arch
	rm -rf "$root" "$debs"
	mkdir -p "$root" "$debs"
	# shellcheck disable=SC2046
	(cd "$debs" && apt-get download -q -o APT::Sandbox::User=root $(printf "%s:$arch " $pkgs))
	for d in "$debs"/*.deb; do dpkg-deb -x "$d" "$root"; done
	echo "$want" > "$stamp"
	say "guest user space: $(wc -w <<<"$pkgs") $arch packages in $root"
done
# 4. Mainline, pinned: its kselftests and test remote run on the series.
"$TOP/scripts/mainline-fetch.sh"
# 5. Debian sid's Perfetto and trace-cmd 3.4 for the arm64 guests, pinned.
"$TOP/scripts/sid-fetch.sh"
# 6. Debian trixie-backports' QEMU for the pKVM modes, pinned (tests/modes).
"$TOP/scripts/qemu-fetch.sh"
say "all dependencies present"
