#!/bin/bash
# mainline-remote.sh FLAVOR: build mainline's test remote (remote_test.c
# and remote_test_events.h from Debian's package, make deps) as an
# out-of-tree module of FLAVOR's kernel, with nothing changed but what
# 6.12 lacks outside tracing (tests/suites/mainline-remote/module/
# compat.h), and the compile-only check of mainline's API (api-*.c:
# mainline's hypervisor events on the series' macros).  W=1, warnings are
# errors.  Prints the test remote's path:
# OUT/FLAVOR/mainline-remote/remote_test.ko.
set -eu
. "$(dirname "$0")/lib.sh"

flavor=$1
out=$OUT/$flavor
dir=$out/mainline-remote
suite=$TOP/tests/suites/mainline-remote/module
[ -f "$MAINLINE_SRC/kernel/trace/remote_test.c" ] || die "no mainline source: run 'make deps'"
rm -rf "$dir"
mkdir -p "$dir/include/trace" "$dir/kernel/trace" "$dir/arch/arm64/include/asm"
cp "$suite/Kbuild" "$suite/compat.h" "$suite"/api-*.c "$MAINLINE_SRC/kernel/trace/remote_test.c" "$dir/"
cp "$MAINLINE_SRC/kernel/trace/remote_test_events.h" "$dir/kernel/trace/"
cp "$MAINLINE_SRC"/arch/arm64/include/asm/kvm_{hypevents,define_hypevents}.h "$dir/arch/arm64/include/asm/"
cp "$TREE/include/trace/define_remote_events.h" "$dir/include/trace/"
kmake "$TREE" "$out" "$flavor" M="$dir" W=1 KCFLAGS=-Werror modules >&2
echo "$dir/remote_test.ko"
