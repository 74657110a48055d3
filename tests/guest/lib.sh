# Shared by the guest suites; sourced.
# shellcheck shell=bash
pass() { echo "TR-RESULT PASS $*"; }
fail() { echo "TR-RESULT FAIL $*"; }
skip() { echo "TR-RESULT SKIP $*"; }
T=/sys/kernel/tracing

# blob NAME: copy standard input to the console as base64 between markers;
# the host extracts it from the log (scripts/blobs.sh).
blob() {
	echo "TR-BLOB-BEGIN $1"
	base64
	echo "TR-BLOB-END $1"
}

# has_remote_test: the kernel has the test remote, built in or as a module.
has_remote_test() {
	[ -d "$T/remotes/test" ] || [ -n "$(find /lib/modules -name 'remote_test.ko*' 2>/dev/null)" ]
}

# generic_elsewhere: the mode runs only the hypervisor tests (flag
# "hyponly" in tests/modes); the generic ones run in another mode.
generic_elsewhere() {
	case $TR_EXPECT in *hyponly*) return 0 ;; esac
	return 1
}

# uptime_now: the guest's uptime in seconds (centisecond resolution);
# uptime_since T0: the seconds since uptime T0, for "TR-TIME" lines.
uptime_now() { cut -d' ' -f1 /proc/uptime; }
uptime_since() { awk -v t0="$1" '{ printf "%.1f\n", $1 - t0 }' /proc/uptime; }
