#!/bin/bash
# config-check.sh SRC OUT: every option of OUT/fragment.config that SRC's
# Kconfig knows must have the requested value in OUT/.config; options the
# tree does not know yet (added by a later patch) are only reported.
set -eu
. "$(dirname "$0")/lib.sh"
src=$1 out=$2 bad=0
known=$(find "$src" -name 'Kconfig*' -exec sed -n 's/^\s*\(menu\)\?config \([A-Za-z0-9_]*\)\s*$/CONFIG_\2/p' {} + | sort -u)
while IFS= read -r line; do
	case $line in CONFIG_*=*) ;; *) continue ;; esac
	sym=${line%%=*} val=${line#*=}
	if ! grep -qx "$sym" <<<"$known"; then
		say "note: $sym is not in this tree's Kconfig"
		continue
	fi
	if [ "$val" = n ]; then
		grep -q "^$sym=" "$out/.config" || continue
	else
		grep -qxF "$line" "$out/.config" && continue
	fi
	say "$sym: asked for '$val', got '$(grep "^$sym=\|^# $sym is not set" "$out/.config" || echo unset)'"
	bad=1
done < "$out/fragment.config"
[ $bad = 0 ] || die "kernel config does not match configs/ (see above)"
