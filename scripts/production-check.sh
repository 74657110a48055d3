#!/bin/bash
# production-check.sh LABEL OUT: the production kernel built in OUT (a
# -prod flavor) holds none of the series' test or benchmark code, neither at
# EL2 (the hypervisor's objects, linked into vmlinux as __kvm_nvhe_*) nor in
# the kernel or its modules.  One result line.
set -eu
. "$(dirname "$0")/lib.sh"

label=$1 out=$2
# Symbols that exist only with CONFIG_NVHE_EL2_TRACING_SELFTEST,
# _HOSTILE_TEST, _BENCHMARK, CONFIG_TRACE_REMOTE_TEST or _BENCHMARK.
test_syms='__tracing_write_event|__tracing_test_panic|hyp_trace_write_event|hyp_trace_bench|hyp_trace_test_|hostile_|remote_test_|remote_bench_'
[ -f "$out/vmlinux" ] || die "$out/vmlinux missing"
found=$(nm "$out/vmlinux" | awk '{ print $NF }' | grep -E "$test_syms" || true)
mods=$(find "$out/modroot" -name 'remote_test.ko*' -o -name 'remote_bench.ko*' 2>/dev/null || true)
if [ -z "$found$mods" ]; then
	result PASS "$label: no test or benchmark symbol at EL2 or in the kernel, no test module"
else
	result FAIL "$label: test code in a production kernel: $(echo $found $mods | head -c 300)"
fi
