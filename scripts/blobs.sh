#!/bin/bash
# blobs.sh LOG DIR: extract the blobs a guest printed (tests/guest/lib.sh
# blob()) from LOG into DIR/NAME, and list their names.
set -eu
log=$1 dir=$2
mkdir -p "$dir"
awk -v dir="$dir" '
	/^TR-BLOB-BEGIN / { name = $2; file = dir "/" name ".b64"; printf "" > file; next }
	/^TR-BLOB-END / { close(file); print name; name = ""; next }
	name != "" { print > file }' "$log" |
while read -r name; do
	base64 -d "$dir/$name.b64" > "$dir/$name" && rm "$dir/$name.b64" && echo "$name"
done
