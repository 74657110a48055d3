#!/bin/bash
# Print one hash over the series file and every patch it lists.
set -eu
. "$(dirname "$0")/lib.sh"
cd "$PATCHES"
{ cat series; grep -v '^\s*\(#\|$\)' series | xargs -r cat; } | sha256sum | cut -d' ' -f1
