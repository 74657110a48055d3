#!/bin/bash
# boot.sh MODE FLAVOR SUITES: boot MODE with FLAVOR's kernel, run the guest
# SUITES and save the console in build/out/logs/MODE-FLAVOR.log (judged by
# judge.sh).  Records the boot's wall and CPU time.
set -eu
. "$(dirname "$0")/lib.sh"

mode=$1 flavor=$2 suites=$3
log=$LOGS/$mode-$flavor.log
mkdir -p "$LOGS"
step_start
boot_log "$mode" "$flavor" "$suites" "$log"
step_end
timed boot "$mode" wall "$STEP_WALL"
timed boot "$mode" cpu "$STEP_CPU"
echo "$log"
