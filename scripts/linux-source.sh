#!/bin/bash
# Unpack Debian's linux-source-6.12 tarball (/usr/src/linux-source-6.12.tar.xz)
# into the cache once per package version and print the tree's path:
#   $VFLIPQ_CACHE/linux-source/<deb version>/linux-source-6.12
# Used for scripts/checkpatch.pl (and later for vkms as a reference).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

SERIES=${1:-6.12}
PKG=linux-source-$SERIES
TARBALL=/usr/src/$PKG.tar.xz
[ -f "$TARBALL" ] || die "$TARBALL missing (run: make deps)"
ver=$(dpkg-query -W -f='${Version}' "$PKG" 2>/dev/null) || die "$PKG not installed"
base=$VFLIPQ_CACHE/linux-source/$ver
tree=$base/$PKG

unpack() {
	[ -f "$base/.complete" ] && return 0
	local t0; t0=$(now_s)
	msg "unpacking $TARBALL into $base"
	rm -rf "$base"
	mkdir -p "$base"
	tar -xf "$TARBALL" -C "$base"
	[ -f "$tree/scripts/checkpatch.pl" ] || die "no scripts/checkpatch.pl in $TARBALL"
	touch "$base/.complete"
	msg "unpacked in $(elapsed "$t0")s"
}
[ -f "$base/.complete" ] || with_cache_lock linux-source unpack
echo "$tree"
