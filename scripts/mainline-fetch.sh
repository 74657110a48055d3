#!/bin/bash
# mainline-fetch.sh [tree|tarball]: fetch Debian's linux-source-7.3
# (scripts/lib.sh: MAINLINE_*; its version as lib.sh says) with apt-get
# download against a sources list, lists and cache of the harness's own in
# build/apt (the machine's apt configuration is left alone), and unpack
# from it what the harness uses into $MAINLINE_SRC: the ftrace selftests,
# the test remote and the hypervisor's events; with "tree", the whole tree
# (make bench builds it); with "tarball", also keep the package's tarball
# (QUEUE=mainline's BASE_TARBALL, which scripts/tree.sh unpacks; another
# fetch drops it, as it may be of another build).  The mirror is the
# machine's Debian mirror, or MAINLINE_MIRROR.  Idempotent: the .deb is downloaded once; what was
# taken is in build/versions/mainline.
set -eu
. "$(dirname "$0")/lib.sh"

# What the harness takes from mainline's tree
PARTS="tools/testing/selftests/ftrace kernel/trace/remote_test.c
	kernel/trace/remote_test_events.h arch/arm64/include/asm/kvm_hypevents.h
	arch/arm64/include/asm/kvm_define_hypevents.h"
[ "${1:-}" != tree ] || PARTS=
tarball=$BUILD/mainline/$MAINLINE_PKG.tar.xz
[ "${1:-}" != tarball ] || [ -f "$tarball" ] || rm -f "$MAINLINE_SRC/.fetched"
stamp=$MAINLINE_SRC/.fetched
# shellcheck disable=SC2086
want="$MAINLINE_VERSION ${PARTS:-(tree)}"
# The whole tree holds the parts too.
for have in "$want" "$MAINLINE_VERSION (tree)"; do
	[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$have" ] && exit 0
done

dir=$BUILD/mainline
mkdir -p "$dir" "$VERSIONS"
apt_own "$BUILD/apt" "$MAINLINE_SUITE" "${MAINLINE_MIRROR:-}"
version=$(deb_version "$MAINLINE_PKG" "$MAINLINE_VERSION" \
	"Pin one it serves in MAINLINE_VERSION in scripts/lib.sh, or point MAINLINE_MIRROR at an archive snapshot that still serves it.")
deb=$(find "$dir" -maxdepth 1 -name "${MAINLINE_PKG}_${version//:/%3a}_*.deb" | head -n 1)
if [ -z "$deb" ]; then
	rm -f "$dir/${MAINLINE_PKG}_"*.deb
	(cd "$dir" && apt-get "${APT_OPTS[@]}" download "$MAINLINE_PKG=$version" >&2)
	deb=$(find "$dir" -maxdepth 1 -name "${MAINLINE_PKG}_*.deb" | head -n 1)
fi
echo "$MAINLINE_PKG $version" > "$VERSIONS/mainline"

rm -rf "$MAINLINE_SRC"
mkdir -p "$MAINLINE_SRC"
rm -f "$tarball"
if [ "${1:-}" = tarball ]; then
	dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$MAINLINE_PKG.tar.xz" > "$tarball.tmp"
	mv "$tarball.tmp" "$tarball"
	source_tarball() { cat "$tarball"; }
else
	source_tarball() { dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$MAINLINE_PKG.tar.xz"; }
fi
# shellcheck disable=SC2046,SC2086
source_tarball | tar -xJ -C "$dir" ${PARTS:+$(printf "$MAINLINE_PKG/%s " $PARTS)}
echo "$want" > "$stamp"
say "mainline: $MAINLINE_PKG $version in $MAINLINE_SRC"
