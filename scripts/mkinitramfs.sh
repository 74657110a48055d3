#!/bin/bash
# mkinitramfs.sh FLAVOR: build the guest programs for FLAVOR's architecture
# (the tree's map_test, remote_map_test and remote_fileops, each suite's
# tests/suites/NAME/*.c and NAME/ARCH/*.c) and pack
# build/out/FLAVOR/initramfs.cpio.gz: Debian user space, the kernel's
# modules, the ftrace selftests of the tree, tests/guest (init, lib.sh),
# each suite's guest script as /tests/suites/NAME, mainline's
# test.d/remotes and test remote (scripts/mainline-fetch.sh,
# mainline-remote.sh), for the series' arm64 kernels Debian sid's Perfetto
# and trace-cmd in /opt/sid (scripts/sid-fetch.sh) and $PERFETTO's
# binaries if set.  FLAVOR may be
# ARCH-mainline: mainline's kernel and modules, the programs of the
# series' ARCH build.
set -eu
. "$(dirname "$0")/lib.sh"

flavor=$1
out=$OUT/$flavor
arch=$(flavor_arch "$flavor")
userspace=$BUILD/guest-$(deb_arch "$arch")
[ -d "$userspace" ] || die "$userspace missing: run 'make deps'"
[ -d "$out/modroot" ] || die "$out not built: run scripts/build-kernel.sh $flavor"

# Guest programs, static, against the tree's uapi headers.  Mainline's
# kernel (flavor ARCH-mainline, with or without the queue) gets the
# programs of the series' ARCH flavor, or of ARCH-debug (what make check
# builds), built first.
bin=$out/guest-bin
st=$TREE/tools/testing/selftests
cc=gcc
[ "$arch" = arm64 ] && cc=aarch64-linux-gnu-gcc
case $flavor in
*-mainline)
	bin=$OUT/${flavor%-mainline}/guest-bin
	[ "$QUEUE" = series ] || bin=$BUILD/out/${flavor%-mainline}/guest-bin
	[ -d "$bin" ] || bin=${bin%/*}-debug/guest-bin
	[ -d "$bin" ] || die "$bin missing: build ${flavor%-mainline} first"
	;;
*)
	kmake "$TREE" "$out" "$flavor" headers >/dev/null
	mkdir -p "$bin"
	build_prog() {	# build_prog NAME SOURCE...
		local name=$1; shift
		$cc -static -O2 -Wall -D_GNU_SOURCE -isystem "$out/usr/include" -o "$bin/$name.tmp" "$@" &&
			mv "$bin/$name.tmp" "$bin/$name"
	}
	build_prog map_test -Wl,-no-as-needed "$st/ring-buffer/map_test.c"
	build_prog remote_map_test -Wl,-no-as-needed "$st/ring-buffer/remote_map_test.c"
	# ftracetest's helper, where its Makefile would put it
	build_prog remote_fileops -Werror "$st/ftrace/remote_fileops.c"
	for src in "$TOP"/tests/suites/*/*.c "$TOP"/tests/suites/*/"$arch"/*.c; do
		[ -e "$src" ] || continue
		name=${src##*/}
		build_prog "${name%.c}" -Werror "$src"
	done
	# Programs of sid's libtracefs and libtraceevent (tests/suites/*/sid/):
	# dynamic, against sid's headers and libraries (scripts/sid-fetch.sh),
	# run through sid's loader ($SID_RUN); glibc's newer symbols in them
	# are resolved there, not here.
	for src in "$TOP"/tests/suites/*/sid/*.c; do
		[ "$arch" = arm64 ] && [ -e "$src" ] || continue
		name=${src##*/}
		$cc -O2 -Wall -Werror -D_GNU_SOURCE -isystem "$SID_ROOT/include/tracefs" \
			-isystem "$SID_ROOT/include/traceevent" -o "$bin/${name%.c}" "$src" \
			"$SID_ROOT/opt/lib/libtracefs.so.1" "$SID_ROOT/opt/lib/libtraceevent.so.1" \
			-Wl,--allow-shlib-undefined
	done
	;;
esac

stage=$out/initramfs
rm -rf "$stage"
mkdir -p "$stage/tests/bin"
cp -a "$userspace/." "$stage/"
rm -rf "$stage/usr/share/doc" "$stage/usr/share/man" "$stage/usr/share/info" "$stage/usr/share/locale"
cp -a "$out/modroot/lib/modules" "$stage/lib/" 2>/dev/null || true
cp -a "$TOP/tests/guest/init" "$stage/init"
cp -a "$TOP/tests/guest/lib.sh" "$stage/tests/"
mkdir -p "$stage/tests/suites"
for guest in "$TOP"/tests/suites/*/guest; do
	s=${guest%/guest}
	cp -a "$guest" "$stage/tests/suites/${s##*/}"
done
# Mainline's remotes kselftests, from Debian's package (make deps)
mainline=$MAINLINE_SRC/tools/testing/selftests/ftrace
[ -d "$mainline/test.d/remotes" ] || die "$mainline missing: run 'make deps'"
mkdir -p "$stage/tests/mainline/test.d"
cp -a "$mainline/test.d/remotes" "$stage/tests/mainline/test.d/"
# and its test remote, built against this kernel (mainline's own kernel has
# it among its modules)
case $flavor in
*-mainline) ;;
*) cp "$("$TOP/scripts/mainline-remote.sh" "$flavor")" "$stage/tests/mainline/" ;;
esac
# PERFETTO: Perfetto's perfetto, traced and traced_probes (make
# check-perfetto DIR=...)
if [ -n "${PERFETTO:-}" ]; then
	mkdir -p "$stage/tests/perfetto"
	cp -a "$PERFETTO/perfetto" "$PERFETTO/traced" "$PERFETTO/traced_probes" \
		"$stage/tests/perfetto/"
fi
# Debian sid's user space, with its own loader and libraries (make deps,
# scripts/sid-fetch.sh), for the suites perfetto-debian and trace-cmd
# (13 MB unpacked); mainline's kernel (ARCH-mainline) runs neither, the
# queue on mainline both
if [ "$arch" = arm64 ] && { [ "$QUEUE" = mainline ] || [ "${flavor%-mainline}" = "$flavor" ]; }; then
	[ -d "$SID_ROOT/opt/bin" ] || die "$SID_ROOT/opt missing: run 'make deps'"
	mkdir -p "$stage/opt"
	cp -a "$SID_ROOT/opt" "$stage/opt/sid"
fi
cp -a "$bin/." "$stage/tests/bin/"
cp -a "$st/ftrace" "$stage/tests/ftrace"
mv "$stage/tests/bin/remote_fileops" "$stage/tests/ftrace/"
# and its poll helper (7.x: the queue on mainline), static
if [ -e "$st/ftrace/poll.c" ]; then
	$cc -static -O2 -Wall -Werror -o "$stage/tests/ftrace/poll" "$st/ftrace/poll.c"
fi
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) |
	gzip -1 > "$out/initramfs.cpio.gz.tmp"
mv "$out/initramfs.cpio.gz.tmp" "$out/initramfs.cpio.gz"
