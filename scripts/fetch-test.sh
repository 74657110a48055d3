#!/bin/bash
# fetch-test.sh: how fetches pick versions (scripts/lib.sh, deb_version and
# debs_fetch), against the real archive's lists for trixie and
# trixie-backports (build/apt-trixie, as scripts/qemu-fetch.sh): a pin
# whose Debian revision is not served takes the newest served build of its
# upstream version and says so; a pin whose upstream version is not served
# fails with a message that names the upstream versions served.  A
# look-up: the one fetch that unpacks takes its .debs from those
# qemu-fetch.sh downloaded.
set -eu
. "$(dirname "$0")/lib.sh"

results_reset
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
apt_own "$BUILD/apt-trixie" "$QEMU_TRIXIE_SUITES" "${QEMU_MIRROR:-}" \
	-o APT::Architecture=amd64 -o APT::Architectures=amd64 2> "$work/update" ||
	{ cat "$work/update"; die "cannot read the archive's lists"; }

# expect NAME OK|FAIL GREP COMMAND...: COMMAND succeeds (OK) or fails
# (FAIL), and what it says on stderr matches the extended regex GREP.
expect() {
	local name=$1 want=$2 re=$3 rc=0
	shift 3
	("$@") > "$work/out" 2> "$work/err" || rc=$?
	if { [ "$want" = OK ] && [ $rc = 0 ]; } || { [ "$want" = FAIL ] && [ $rc != 0 ]; }; then
		if grep -qE -e "$re" "$work/err"; then
			result PASS "fetch: $name"
			return 0
		fi
		result FAIL "fetch: $name: its message does not match /$re/:"
	else
		result FAIL "fetch: $name: exited $rc, expected $want:"
	fi
	cat "$work/out" "$work/err" | head -n 20
}

# A small library of QEMU's: its newest served build and upstream version,
# and a revision of that upstream version that no archive serves.
pkg=libfdt1
new=$(apt-cache "${APT_OPTS[@]}" policy "$pkg" | sed -n 's/^  Candidate: //p')
if [ -z "$new" ] || [ "$new" = "(none)" ]; then
	die "$pkg is not served: pick another package here"
fi
up=${new%-*}
gone=$up-0~notserved1
esc() { sed 's/[.+~^$*[]/\\&/g' <<<"$1"; }

expect "$pkg $gone, not served, gives the newest build of $up" OK \
	"WARNING: $pkg $(esc "$gone") is not served .*; taking .*, its newest build of $(esc "$up")" \
	deb_version "$pkg" "$gone"
v=$(cat "$work/out")
case $v in
"$up"-*) result PASS "fetch: it took $v, of upstream version $up" ;;
*) result FAIL "fetch: it took '$v', not a build of upstream version $up" ;;
esac
expect "$pkg 0.0.1~notserved-1, an upstream version not served, fails" FAIL \
	"no build of upstream version 0\.0\.1~notserved .* which serves .*$(esc "$up").*Pin one" \
	deb_version "$pkg" 0.0.1~notserved-1 "Pin one it serves."

# The whole fetch: downloaded (from qemu-fetch.sh's .debs), unpacked and
# recorded.
VERSIONS=$work/versions
expect "a fetch of $pkg $gone unpacks and records a build of $up" OK \
	"WARNING: $pkg $(esc "$gone") is not served" \
	debs_fetch test "$QEMU_TRIXIE/debs" "$work/root" "$pkg $gone" "" -t trixie-backports
if grep -qx "$pkg $up-.*" "$VERSIONS/test" 2> /dev/null &&
	[ -e "$work/root/usr/lib/x86_64-linux-gnu/libfdt.so.1" ]; then
	result PASS "fetch: $(grep "^$pkg " "$VERSIONS/test") unpacked with the $(($(wc -l < "$VERSIONS/test") - 1)) packages apt resolved for it"
else
	result FAIL "fetch: $pkg is not unpacked or not recorded as a build of $up"
	cat "$VERSIONS/test" 2> /dev/null || true
fi
expect "a fetch of an upstream version not served fails before downloading" FAIL \
	"no build of upstream version 0\.0\.1~notserved" \
	debs_fetch test "$work/none" "$work/root2" "$pkg 0.0.1~notserved-1"
[ ! -e "$work/none" ] || result FAIL "fetch: the failed fetch made $work/none"
summary
