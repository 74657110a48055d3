#!/bin/bash
# export.sh [DIR]: write the tree's commits since base as the series:
# git format-patch output with a cover letter, plus the series file, into
# DIR (default patches/).  The output is stable: unchanged commits give
# byte-identical patches.  The cover letter keeps its hand-written subject
# and blurb; shortlog and diffstat are regenerated.
set -eu
. "$(dirname "$0")/lib.sh"

dest=${1:-$PATCHES}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=$(git -C "$TREE" rev-list --count "$BASE_TAG"..HEAD)
[ "$n" -gt 0 ] || die "no commits on $BASE_TAG in $TREE"
git -C "$TREE" -c core.abbrev=12 -c diff.renames=true format-patch -q \
	--zero-commit --no-signature --cover-letter --no-thread \
	--subject-prefix=PATCH -o "$tmp" "$BASE_TAG"..HEAD

# Carry subject and blurb over from the current cover letter.
cover=$(ls "$tmp"/0000-*.patch)
old=$PATCHES/0000-cover-letter.patch
subject="trace-remotes: read ring buffers written outside the kernel"
blurb=$tmp/blurb
echo "(describe the series here)" > "$blurb"
if [ -f "$old" ]; then
	subject=$(sed -n 's/^Subject: \[PATCH[^]]*\] //p' "$old")
	# The blurb runs from the first blank line to the shortlog header.
	awk 'b && /^[^ ].* \([0-9]+\):$/ { exit } b { print } /^$/ && !b { b = 1 }' "$old" > "$blurb"
	sed -i -e :a -e '/^\n*$/{$d;N;ba' -e '}' "$blurb"	# drop trailing blank lines
fi
date=$(git -C "$TREE" log -1 --format=%aD HEAD)
awk -v subject="$subject" -v date="$date" -v blurbfile="$blurb" '
	/^Date: / { print "Date: " date; next }
	/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subject) }
	/^\*\*\* BLURB HERE \*\*\*$/ { while ((getline l < blurbfile) > 0) print l; next }
	{ print }' "$cover" > "$tmp/cover" && mv "$tmp/cover" "$cover"

mkdir -p "$dest"
rm -f "$dest"/*.patch
cp "$tmp"/*.patch "$dest/"
# The series file: the patches in order, under the comment lines that
# stood before the same patch in the current series file (the group
# headers, written by hand), which are kept.  A patch is known by its name
# without its number, which inserting a patch shifts; a patch whose name
# is new (its subject changed) takes, by its number, the header of an old
# patch that is gone, so that no header is printed twice.
old_series=$PATCHES/series
[ -f "$old_series" ] || old_series=/dev/null
(cd "$dest" && ls [0-9]*.patch | grep -v '^0000-') |
	awk -v old="$old_series" '
	function name(f) { sub(/^[0-9]+-/, "", f); return f }
	BEGIN {
		n = 0
		while ((getline l < old) > 0) {
			if (l ~ /^[0-9]+-.*\.patch$/) {
				n++
				oldname[n] = name(l); byname[name(l)] = h; hdr[n] = h; h = ""
				continue
			}
			if (l ~ /^#/ || l == "") h = h l "\n"
		}
		if (n == 0) hdr[1] = "# The trace-remotes series, in the order git am applies it.\n"
	}
	{ new[++m] = $0; kept[name($0)] = 1 }
	END {
		for (i = 1; i <= m; i++) {
			f = name(new[i])
			if (f in byname)
				printf "%s", byname[f]
			else if ((i in hdr) && !(oldname[i] in kept))
				printf "%s", hdr[i]
			print new[i]
		}
	}' > "$tmp/series"
mv "$tmp/series" "$dest/series"
if [ "$dest" = "$PATCHES" ]; then
	# The tree now is what patches/ describes: tree.sh need not reapply.
	[ -d "$TREE/.git" ] && echo "$("$TOP/scripts/series-hash.sh") $(git -C "$TREE" rev-parse HEAD)" \
		> "$TREE/.git/trace-remotes-applied"
	say "exported $n patches to ${dest#"$TOP"/}/"
fi
