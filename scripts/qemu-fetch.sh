#!/bin/bash
# qemu-fetch.sh: fetch Debian trixie-backports' QEMU for the pKVM modes
# (QEMU_TRIXIE_PKGS in scripts/lib.sh; its versions as lib.sh says) and
# the libraries it loads as apt resolves them, backports first, with a
# sources list, lists and cache of the harness's own in build/apt-trixie
# (the machine's apt configuration is left alone), and lay them out in
# $QEMU_TRIXIE: libexec/qemu-system-aarch64, lib/ (trixie's dynamic loader
# and the libraries) and bin/qemu-system-aarch64-trixie, which runs the
# first through the second; scripts/qemu.sh finds it on its PATH.  The
# mirror is the machine's Debian mirror, or QEMU_MIRROR.  Idempotent: the
# .debs are downloaded once into $QEMU_TRIXIE/debs; what was taken is in
# build/versions/qemu-trixie.
set -eu
. "$(dirname "$0")/lib.sh"

stamp=$QEMU_TRIXIE/.fetched
[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$QEMU_TRIXIE_PKGS" ] && exit 0
[ "$(dpkg --print-architecture)" = amd64 ] ||
	die "the trixie QEMU is fetched for amd64 only; this machine is $(dpkg --print-architecture)"

apt_own "$BUILD/apt-trixie" "$QEMU_TRIXIE_SUITES" "${QEMU_MIRROR:-}" \
	-o APT::Architecture=amd64 -o APT::Architectures=amd64
root=$QEMU_TRIXIE/root
rm -rf "$root" "${QEMU_TRIXIE:?}"/{bin,lib,libexec}
debs_fetch qemu-trixie "$QEMU_TRIXIE/debs" "$root" "$QEMU_TRIXIE_PKGS" \
	"Pin one it serves in QEMU_TRIXIE_PKGS in scripts/lib.sh (and check the pKVM modes with it), or point QEMU_MIRROR at an archive snapshot that still serves it." \
	-t trixie-backports

mkdir -p "$QEMU_TRIXIE"/{bin,lib,libexec}
cp "$root/usr/bin/qemu-system-aarch64" "$QEMU_TRIXIE/libexec/"
cp -L "$root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" "$QEMU_TRIXIE/lib/"
libs_copy readelf "$root/usr/lib/x86_64-linux-gnu" "$QEMU_TRIXIE/lib" \
	"$QEMU_TRIXIE/libexec/qemu-system-aarch64"
cat > "$QEMU_TRIXIE/bin/qemu-system-aarch64-trixie" <<'WRAPPER'
#!/bin/sh
# Made by scripts/qemu-fetch.sh: trixie-backports' QEMU, trixie's loader.
d=$(dirname "$(readlink -f "$0")")/..
exec "$d/lib/ld-linux-x86-64.so.2" --library-path "$d/lib" \
	"$d/libexec/qemu-system-aarch64" "$@"
WRAPPER
chmod +x "$QEMU_TRIXIE/bin/qemu-system-aarch64-trixie"
rm -rf "$root"
"$QEMU_TRIXIE/bin/qemu-system-aarch64-trixie" --version | head -n 1 > /dev/null ||
	die "trixie's QEMU does not run here"
echo "$QEMU_TRIXIE_PKGS" > "$stamp"
say "trixie-backports' QEMU: $(du -shc "$QEMU_TRIXIE/lib" "$QEMU_TRIXIE/libexec" | tail -n 1 | cut -f1) in $QEMU_TRIXIE"
