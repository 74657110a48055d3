#!/bin/bash
# build-kernel.sh FLAVOR [SRC OUT [MAKE ARGS]]: configure (allnoconfig + configs/
# fragments) and build one kernel flavor out of tree with ccache, then
# install its modules into OUT/modroot.  Further arguments go to make.
# Flavors: arm64, arm64-debug, x86_64, x86_64-debug (with configs/test.config
# and ARCH-test.config; the arm64 ones with configs/net.config too) and
# arm64-prod (production: without them, with configs/net.config); and
# arm64-mainline: mainline 7.3.4's tree ($MAINLINE_SRC, scripts/
# mainline-fetch.sh tree), or with QUEUE=mainline the queue's ($TREE),
# with the arm64 test fragments and configs/mainline.config, for make
# bench.  LLVM=1
# builds with clang; KTARGETS="dir/ ..." builds only those make targets (and
# installs nothing).  A whole build of a tree without uncommitted changes
# leaves OUT/built-from: the commit.
set -eu
. "$(dirname "$0")/lib.sh"

flavor=$1
src=$TREE
case $flavor in *-mainline) [ "$QUEUE" = mainline ] || src=$MAINLINE_SRC ;; esac
src=${2:-$src}
out=${3:-$OUT/$flavor}
shift $(($# < 3 ? $# : 3))
arch=$(flavor_arch "$flavor")
mkdir -p "$out"
rm -f "$out/built-from"

frags="$CONFIGS/base.config $CONFIGS/$arch.config"
case $flavor in
*-prod) ;;	# production: no test or benchmark option
*)
	frags="$frags $CONFIGS/test.config"
	[ ! -e "$CONFIGS/$arch-test.config" ] || frags="$frags $CONFIGS/$arch-test.config"
	;;
esac
case $flavor in
*-prod|arm64*) frags="$frags $CONFIGS/net.config" ;;
esac
case $flavor in
*-debug) frags="$frags $CONFIGS/debug.config" ;;
*-mainline) frags="$frags $CONFIGS/mainline.config" ;;
esac
cat $frags > "$out/fragment.config"

# Reconfigure when a fragment or a Kconfig file changed.
if [ ! -f "$out/.config" ] || ! cmp -s "$out/fragment.config" "$out/.fragment.used" ||
   [ -n "$(find "$src" -name 'Kconfig*' -newer "$out/.config" -print -quit)" ]; then
	kmake "$src" "$out" "$flavor" KCONFIG_ALLCONFIG="$out/fragment.config" allnoconfig
	# Kconfig leaves an unchanged .config alone: without the touch, every
	# later build would reconfigure again (the bisect, after a patch
	# whose Kconfig change does not change the configuration).
	touch "$out/.config"
	cp "$out/fragment.config" "$out/.fragment.used"
	"$TOP/scripts/config-check.sh" "$src" "$out"
fi

case $arch in
arm64) image=Image ;;
x86_64) image=bzImage ;;
esac
if [ -n "${KTARGETS:-}" ]; then
	# shellcheck disable=SC2086
	kmake "$src" "$out" "$flavor" $KTARGETS "$@"
	exit 0
fi
kmake "$src" "$out" "$flavor" "$image" modules "$@"
rm -rf "$out/modroot"
kmake "$src" "$out" "$flavor" INSTALL_MOD_PATH="$out/modroot" INSTALL_MOD_STRIP=1 \
	DEPMOD=/sbin/depmod modules_install >/dev/null
ln -sf "arch/$arch/boot/$image" "$out/boot-image"
[ -n "$(git -C "$src" status --porcelain 2>&1)" ] || git -C "$src" rev-parse HEAD > "$out/built-from"
