#!/bin/bash
# judge-test.sh [--update]: the judge's own tests, without QEMU.  Each
# stored guest log tests/fixtures/NAME.log is judged (judge.sh) and the
# verdicts it gives, its PASS, FAIL and SKIP lines, must be those of
# NAME.expect, line for line.  --update rewrites the .expect files (check
# them before committing).  One result per fixture.
set -eu
. "$(dirname "$0")/lib.sh"

dir=$TOP/tests/fixtures
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for log in "$dir"/*.log; do
	name=$(basename "$log" .log)
	JUDGE_DIR=$work RESULTS=$work/results TIMES=$work/times \
		"$TOP/scripts/judge.sh" "$log" 2> /dev/null |
		grep -E '^(PASS|FAIL|SKIP) ' | sed "s|$work|WORK|g; s|$TOP|TOP|g" > "$work/$name.got" || true
	if [ "${1:-}" = --update ]; then
		cp "$work/$name.got" "$dir/$name.expect"
	fi
	if diff -u "$dir/$name.expect" "$work/$name.got" > "$work/$name.diff"; then
		result PASS "judge: fixture $name: $(grep -c '^FAIL' "$work/$name.got" || true) failures, as expected"
	else
		result FAIL "judge: fixture $name: verdicts differ from $name.expect:"
		head -n 20 "$work/$name.diff"
	fi
done
