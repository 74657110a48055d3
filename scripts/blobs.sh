#!/bin/bash
# blobs.sh LOG DIR: extract the blobs a guest printed (tests/guest/lib.sh
# blob()) from LOG into DIR/NAME, and list their names.  Kernel messages
# printed on the console in the middle of a blob are left out; a blob that
# still does not decode is listed as NAME.corrupt.
set -eu
log=$1 dir=$2
mkdir -p "$dir"
awk -v dir="$dir" '
	/^TR-BLOB-BEGIN / { name = $2; file = dir "/" name ".b64"; printf "" > file; next }
	/^TR-BLOB-END / { close(file); print name; name = ""; next }
	name != "" && !/^\[ *[0-9]+\.[0-9]+\] / { print > file }' "$log" |
while read -r name; do
	if base64 -d "$dir/$name.b64" > "$dir/$name" 2>/dev/null; then
		rm "$dir/$name.b64"
		echo "$name"
	else
		echo "$name.corrupt"
	fi
done
