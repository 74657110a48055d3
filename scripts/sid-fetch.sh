#!/bin/bash
# sid-fetch.sh: fetch Debian sid's user space for the arm64 guests,
# beside their Debian 12: perfetto (suite perfetto-debian), trace-cmd 3.4
# (suite trace-cmd), libtracefs 1.8.3 for its mapped reader (suite
# map-test; its headers and libtraceevent's in $SID_ROOT/include)
# (SID_PKGS in scripts/lib.sh; their versions as lib.sh says) and the
# libraries they load as apt resolves them, with a sources list, lists and
# cache of the harness's own in build/apt-sid (the machine's apt
# configuration is left alone), and lay
# them out in $SID_ROOT/opt: bin/ (perfetto, traced, traced_probes,
# trace-cmd), lib/ (sid's dynamic loader, libperfetto.so and the libraries
# they need) and lib/traceevent/plugins (libtraceevent's plugins, found
# through TRACEEVENT_PLUGIN_DIR), which mkinitramfs.sh puts at /opt/sid in
# arm64 guests.  The guest runs them through that loader (sid_run in
# tests/guest/lib.sh): /opt/sid/lib/ld-linux-aarch64.so.1 --library-path
# /opt/sid/lib /opt/sid/bin/traced.  The mirror is the machine's Debian
# mirror, or SID_MIRROR.  Idempotent: the .debs are downloaded once into
# $SID_ROOT/debs; what was taken is in build/versions/sid.
set -eu
. "$(dirname "$0")/lib.sh"

stamp=$SID_ROOT/.fetched
[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$SID_PKGS" ] && exit 0

apt_own "$BUILD/apt-sid" "$SID_SUITE" "${SID_MIRROR:-}" \
	-o APT::Architecture=arm64 -o APT::Architectures=arm64
root=$SID_ROOT/root
rm -rf "$root" "$SID_ROOT/opt"
debs_fetch sid "$SID_ROOT/debs" "$root" "$SID_PKGS" \
	"Pin one it serves in SID_PKGS in scripts/lib.sh (and run the suites that use it), or point SID_MIRROR at an archive snapshot that still serves it."

# The programs, and from the libraries what they load (ld.so reads their
# DT_NEEDED; the loader and libperfetto.so are found by name, the plugins
# by libtraceevent)
opt=$SID_ROOT/opt
lib=$root/usr/lib/aarch64-linux-gnu
mkdir -p "$opt/bin" "$opt/lib/traceevent"
cp "$root/usr/bin/perfetto" "$root/usr/sbin/traced" "$root/usr/sbin/traced_probes" \
	"$root/usr/bin/trace-cmd" "$opt/bin/"
cp "$root/usr/lib/perfetto/libperfetto.so" "$opt/lib/"
cp -L "$lib/ld-linux-aarch64.so.1" "$opt/lib/"
# The headers of libtracefs and libtraceevent, for the test programs built
# against them (mkinitramfs.sh), not for the guest
rm -rf "$SID_ROOT/include"
mkdir -p "$SID_ROOT/include"
cp -a "$root/usr/include/tracefs" "$root/usr/include/traceevent" "$SID_ROOT/include/"
cp -a "$lib/traceevent/plugins" "$opt/lib/traceevent/"
libs_copy aarch64-linux-gnu-readelf "$lib" "$opt/lib" \
	"$opt"/bin/* "$opt/lib/libperfetto.so" "$opt"/lib/traceevent/plugins/*.so
rm -rf "$root"
echo "$SID_PKGS" > "$stamp"
say "Debian sid's user space for arm64: $(du -sh "$opt" | cut -f1) in $opt"
