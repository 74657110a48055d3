#!/bin/bash
# check.sh [--quick] [MODE...]: the test command.  Host-side checks of the
# series (skipped with --quick), then for each MODE (default: every line of
# tests/modes) build its kernel flavor, boot it and run the guest suites.
# Environment: DEBUG=1 uses the -debug flavors (the default without
# --quick); SUITES=a,b picks guest suites; ONLY=GLOB narrows ftracetest
# to matching test cases.
set -eu
. "$(dirname "$0")/lib.sh"

quick=0
[ "${1:-}" = --quick ] && { quick=1; shift; }
debug=${DEBUG:-$((1 - quick))}
suites=${SUITES:-ftracetest,map-test,events-dump,hyp-kvm,hyp-hostile}
modes=${*:-$(all_modes)}

results_reset
mkdir -p "$LOGS"
[ $quick = 1 ] || "$TOP/scripts/check-patches.sh"
"$TOP/scripts/tree.sh"

built=
for mode in $modes; do
	flavor=$(mode_field "$mode" 2)
	[ "$debug" = 1 ] && flavor=$flavor-debug
	case " $built " in
	*" $flavor "*) ;;
	*" !$flavor "*) result SKIP "$mode: $flavor did not build"; continue ;;
	*)
		start=$(date +%s)
		if "$TOP/scripts/build-kernel.sh" "$flavor" > "$LOGS/build-$flavor.log" 2>&1 &&
		   "$TOP/scripts/mkinitramfs.sh" "$flavor" >> "$LOGS/build-$flavor.log" 2>&1; then
			result PASS "build: $flavor ($(($(date +%s) - start)) s)"
			built="$built $flavor"
		else
			result FAIL "build: $flavor (see $LOGS/build-$flavor.log)"
			tail -n 30 "$LOGS/build-$flavor.log"
			built="$built !$flavor"
			continue
		fi
		;;
	esac
	ONLY=${ONLY:-} "$TOP/scripts/boot-test.sh" "$mode" "$flavor" "$suites"
done
summary
