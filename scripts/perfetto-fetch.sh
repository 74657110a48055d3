#!/bin/bash
# perfetto-fetch.sh: fetch Debian sid's perfetto for arm64 and the
# libraries it loads, at the versions and SHA-256 pinned in scripts/lib.sh
# (PERFETTO_SID_DEBS), with apt-get download against a sources list, lists
# and cache of the harness's own in build/apt-sid (the machine's apt
# configuration is left alone), and lay them out in $PERFETTO_SID/opt:
# bin/ (perfetto, traced, traced_probes) and lib/ (sid's dynamic loader,
# libperfetto.so and the libraries they need), which mkinitramfs.sh puts
# at /opt/perfetto-sid in arm64 guests.  The guest runs them through that
# loader: /opt/perfetto-sid/lib/ld-linux-aarch64.so.1 --library-path
# /opt/perfetto-sid/lib /opt/perfetto-sid/bin/traced.  The mirror is the
# machine's Debian mirror, or PERFETTO_MIRROR.  Idempotent: the .debs are
# downloaded once into $PERFETTO_SID/debs.
set -eu
. "$(dirname "$0")/lib.sh"

stamp=$PERFETTO_SID/.fetched
[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$PERFETTO_SID_DEBS" ] && exit 0

apt_own "$BUILD/apt-sid" "$PERFETTO_SID_SUITE" "${PERFETTO_MIRROR:-}" \
	-o APT::Architecture=arm64 -o APT::Architectures=arm64
root=$PERFETTO_SID/root
rm -rf "$root" "$PERFETTO_SID/opt"
debs_unpack "$PERFETTO_SID/debs" "$root" "$PERFETTO_SID_DEBS" \
	"Pin versions it serves in PERFETTO_SID_DEBS in scripts/lib.sh (apt-cache show gives SHA256; the libraries from the same suite), or point PERFETTO_MIRROR at an archive snapshot that still has them."

# The programs, and from the libraries what they load (ld.so reads their
# DT_NEEDED; the loader and libperfetto.so are found by name)
opt=$PERFETTO_SID/opt
mkdir -p "$opt/bin" "$opt/lib"
cp "$root/usr/bin/perfetto" "$root/usr/sbin/traced" "$root/usr/sbin/traced_probes" "$opt/bin/"
cp "$root/usr/lib/perfetto/libperfetto.so" "$opt/lib/"
cp -L "$root/usr/lib/aarch64-linux-gnu/ld-linux-aarch64.so.1" "$opt/lib/"
libs_copy aarch64-linux-gnu-readelf "$root/usr/lib/aarch64-linux-gnu" "$opt/lib" \
	"$opt"/bin/* "$opt/lib/libperfetto.so"
rm -rf "$root"
echo "$PERFETTO_SID_DEBS" > "$stamp"
say "Debian's perfetto for arm64: $(du -sh "$opt" | cut -f1) in $opt"
