#!/bin/bash
# panic-check.sh NAME LOG: the guest suite hyp-panic made the hypervisor
# panic on purpose after announcing, on "TR-PANIC-EXPECT CPU ID..." lines,
# the selftest ids that each CPU's part of the dump must show, in order.
# Check that the hypervisor panicked, that the kernel's panic printed the
# dump of remotes/hypervisor, and that each CPU's events in it are exactly
# those, with time stamps that never go back.
set -eu
. "$(dirname "$0")/lib.sh"

name=$1 log=$2
# After the last announcement: the console, without printk's time stamps
after=$(awk '/^TR-PANIC-EXPECT / { n = NR } END { print n + 1 }' "$log")
tail -n "+$after" "$log" | sed 's/^\[ *[0-9]*\.[0-9]*\] //' > "$log.panic"

if ! grep -qE '^(kvm \[[0-9]+\]: )?nVHE hyp (BUG|panic)' "$log.panic"; then
	result FAIL "$name: no hypervisor panic after the announcement"
	exit 0
fi
result PASS "$name: the hypervisor panicked"

dump=$(sed -n '/^trace remote hypervisor: the last [0-9]* events of each CPU$/,/^trace remote hypervisor: end of the dump$/p' "$log.panic")
if ! grep -q 'end of the dump$' <<<"$dump"; then
	result FAIL "$name: no complete dump of remotes/hypervisor in the panic"
	exit 0
fi

grep '^TR-PANIC-EXPECT ' "$log" | while read -r _ cpu ids; do
	want=$(echo $ids)
	got=$(awk -F'\t' -v cpu="$(printf '[%03d]' "$cpu")" '$1 == cpu {
		split($2, t, ":")
		if (n++ && t[1] + 0 < last) print "BACK"
		last = t[1] + 0
		if (sub(/^ *[0-9.]+: selftest id=/, "", $2)) print $2
		else print "OTHER"
	}' <<<"$dump" | tr '\n' ' ')
	got=${got% }
	if [ "$got" = "$want" ]; then
		result PASS "$name: dump of CPU $cpu: selftest ids $want, in time order"
	else
		result FAIL "$name: dump of CPU $cpu: '$got', expected '$want'"
	fi
done
rm -f "$log.panic"
