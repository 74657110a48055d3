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

mirror=${MAINLINE_MIRROR:-$(grep -h -o -E 'https?://[^ ]*/debian/?$' \
	/etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null | head -n 1 || true)}
[ -n "$mirror" ] || die "no Debian mirror in /etc/apt: set MAINLINE_MIRROR"
apt=$BUILD/apt
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $MAINLINE_SUITE main" \
	> "$apt/sources.list"
opts=(-q -o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
	-o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
	-o APT::Sandbox::User=root)
apt-get "${opts[@]}" update >&2
deb=$BUILD/mainline/${MAINLINE_PKG}_${MAINLINE_VERSION//:/%3a}_all.deb
mkdir -p "$BUILD/mainline"
if [ ! -f "$deb" ] || ! echo "$MAINLINE_SHA256  $deb" | sha256sum -c --quiet 2>/dev/null; then
	rm -f "$deb"
	(cd "$BUILD/mainline" && apt-get "${opts[@]}" download "$MAINLINE_PKG=$MAINLINE_VERSION" >&2) || {
		served=$(apt-cache "${opts[@]}" madison "$MAINLINE_PKG" 2>/dev/null | awk '{print $3}' | sort -u | head -n 3 | tr '\n' ' ')
		die "$MAINLINE_PKG $MAINLINE_VERSION is not served by $mirror $MAINLINE_SUITE" \
			"(served: ${served:-none}). Pin a version it serves: MAINLINE_VERSION and" \
			"MAINLINE_SHA256 in scripts/lib.sh (apt-cache show gives SHA256), or point" \
			"MAINLINE_MIRROR at an archive snapshot that still has it."
	}
fi
echo "$MAINLINE_SHA256  $deb" | sha256sum -c --quiet ||
	die "$deb: SHA-256 is not the pinned $MAINLINE_SHA256 (scripts/lib.sh)"

rm -rf "$MAINLINE_SRC"
mkdir -p "$MAINLINE_SRC"
# shellcheck disable=SC2046,SC2086
dpkg-deb --fsys-tarfile "$deb" |
	tar -xO ./usr/src/$MAINLINE_PKG.tar.xz |
	tar -xJ -C "$BUILD/mainline" ${PARTS:+$(printf "$MAINLINE_PKG/%s " $PARTS)}
echo "$want" > "$stamp"
say "mainline: $MAINLINE_PKG $MAINLINE_VERSION in $MAINLINE_SRC"
