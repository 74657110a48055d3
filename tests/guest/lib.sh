# Shared by the guest suites; sourced.
# shellcheck shell=bash
pass() { echo "TR-RESULT PASS $*"; }
fail() { echo "TR-RESULT FAIL $*"; }
skip() { echo "TR-RESULT SKIP $*"; }
T=/sys/kernel/tracing
