#!/bin/bash
# qemu.sh MODE FLAVOR SUITES [LOG]: boot FLAVOR's kernel and initramfs on
# MODE's machine (tests/modes) under TCG and run SUITES (comma separated, or
# "shell").  The serial console goes to the terminal and, if given, to LOG.
# This is the only place that starts QEMU.
set -eu
. "$(dirname "$0")/lib.sh"

mode=$1 flavor=$2 suites=$3 log=${4:-/dev/null}
out=$OUT/$flavor
[ "$(mode_field "$mode" 2)" = "$(flavor_arch "$flavor")" ] ||
	die "mode $mode does not run $flavor kernels"
# shellcheck disable=SC2207
machine=($(mode_field "$mode" 3))
# The pKVM modes' QEMU (scripts/qemu-fetch.sh)
PATH=$QEMU_TRIXIE/bin:$PATH
command -v "${machine[0]}" > /dev/null || die "${machine[0]}: not found; run 'make deps'"
expect=$(mode_field "$mode" 6)
append="$(mode_field "$mode" 4) tr.suites=$suites${ONLY:+ tr.only=$ONLY}${expect:+ tr.expect=$expect}"
append="$append panic=-1 oops=panic"
# Flag "boottrace": hypervisor tracing from boot on, every event but
# selftest, 1 MiB per CPU, and the function that takes the clock each
# second traced (checked by remotes/hypervisor/boot.tc).
case ",$expect," in
*,boottrace,*)
	append="$append kvm-arm.hyp_trace_buffer_kb=1024 kvm-arm.hyp_trace_events=hyp_enter,hyp_exit,host_hcall,host_smc,host_mem_abort,host_ffa_call,mem_share,mem_unshare,mem_donate,func,func_ret"
	append="$append kvm-arm.hyp_ftrace_filter=handle___tracing_update_clock"
	;;
esac
# Guests share the cores with builds: the longest guest of make check
# (protected) takes well under this, and a hang is caught well before
# CI's limit.
timeout=${QEMU_TIMEOUT:-2700}
[ "$suites" = shell ] && timeout=0
stdin=/dev/null
[ "$suites" = shell ] && stdin=/dev/stdin

# 3 GiB, not a power of two: past its end, EL2's kern_hyp_va() does not
# fold addresses back onto memory, which the hostile test needs.
# The first line of the log says what booted (docs/harness.md).
echo "TR-BOOT $mode $flavor" > "$log"
timeout --foreground -k 5 "$timeout" "${machine[@]}" \
	-smp 2 -m 3G -nographic -no-reboot \
	-kernel "$out/boot-image" -initrd "$out/initramfs.cpio.gz" -append "$append" \
	< "$stdin" 2>&1 | tee -a "$log"
