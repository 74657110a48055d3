#!/bin/bash
# mainline-fetch.sh [tree]: fetch Debian's pinned linux-source-7.3
# (scripts/lib.sh: MAINLINE_*) with apt-get download against a sources
# list, lists and cache of the harness's own in build/apt (the machine's apt
# configuration is left alone), check its SHA-256, and unpack from it what
# the harness uses into $MAINLINE_SRC: the ftrace selftests, the test remote
# and the hypervisor's events; with "tree", the whole tree (make bench
# builds it).  The mirror is the machine's Debian mirror, or
# MAINLINE_MIRROR.  Idempotent.
set -eu
. "$(dirname "$0")/lib.sh"

# What the harness takes from mainline's tree
PARTS="tools/testing/selftests/ftrace kernel/trace/remote_test.c
	kernel/trace/remote_test_events.h arch/arm64/include/asm/kvm_hypevents.h
	arch/arm64/include/asm/kvm_define_hypevents.h"
[ "${1:-}" != tree ] || PARTS=
stamp=$MAINLINE_SRC/.fetched
# shellcheck disable=SC2086
want="$MAINLINE_VERSION $MAINLINE_SHA256 ${PARTS:-(tree)}"
# The whole tree holds the parts too.
for have in "$want" "$MAINLINE_VERSION $MAINLINE_SHA256 (tree)"; do
	[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$have" ] && exit 0
done

mkdir -p "$BUILD/mainline"
apt_own "$BUILD/apt" "$MAINLINE_SUITE" "${MAINLINE_MIRROR:-}"
deb=$(apt_pinned "$BUILD/mainline" "$MAINLINE_PKG" "$MAINLINE_VERSION" "$MAINLINE_SHA256" \
	"Pin a version it serves: MAINLINE_VERSION and MAINLINE_SHA256 in scripts/lib.sh (apt-cache show gives SHA256), or point MAINLINE_MIRROR at an archive snapshot that still has it.")

rm -rf "$MAINLINE_SRC"
mkdir -p "$MAINLINE_SRC"
# shellcheck disable=SC2046,SC2086
dpkg-deb --fsys-tarfile "$deb" |
	tar -xO ./usr/src/$MAINLINE_PKG.tar.xz |
	tar -xJ -C "$BUILD/mainline" ${PARTS:+$(printf "$MAINLINE_PKG/%s " $PARTS)}
echo "$want" > "$stamp"
say "mainline: $MAINLINE_PKG $MAINLINE_VERSION in $MAINLINE_SRC"
