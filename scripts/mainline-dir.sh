#!/bin/bash
# mainline-dir.sh DIR: print the ftrace selftests directory (the one with
# test.d/remotes) of DIR, a mainline kernel tree or that directory itself,
# fetched by the developer (make check-mainline DIR=...).
set -eu
. "$(dirname "$0")/lib.sh"

dir=${1:-}
[ -n "$dir" ] || die "usage: make check-mainline DIR=<mainline tree or its tools/testing/selftests/ftrace>"
for d in "$dir/tools/testing/selftests/ftrace" "$dir"; do
	if [ -d "$d/test.d/remotes" ]; then
		cd "$d" && pwd
		exit 0
	fi
done
die "$dir has no test.d/remotes (nor tools/testing/selftests/ftrace/test.d/remotes)"
