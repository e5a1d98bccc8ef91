#!/bin/bash
# Unpack Debian's linux-source-SERIES tarball into the cache once per package
# version and print the tree's path:
#   $VFLIPQ_CACHE/linux-source/<deb version>/linux-source-SERIES
#
#   scripts/linux-source.sh [SERIES]            unpack if needed, print the tree
#   scripts/linux-source.sh --version [SERIES]  only the package version
#
# SERIES (default 6.12): when the host has linux-source-SERIES installed
# (bookworm's 6.12, scripts/deps.sh), its /usr/src tarball is used; otherwise
# the package comes from the host's own apt sources (bookworm's 6.1:
# "apt-get download") or from Debian sid or experimental through the private
# apt view of scripts/sid-apt.sh (7.2, 7.3): the candidate version is
# downloaded into $VFLIPQ_CACHE/debs and unpacked with dpkg -x, never
# installed.
# Used for scripts/checkpatch.pl, vkms as the bench baseline, the test
# kernels built from source (scripts/source-kernel.sh) and KUnit as a module
# of each test kernel (scripts/kunit-module.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

only_version=0
if [ "${1:-}" = --version ]; then only_version=1; shift; fi
SERIES=${1:-6.12}
PKG=linux-source-$SERIES
DEB_DIR=$VFLIPQ_CACHE/debs

# Where the package comes from: "host" (installed), "apt" (the host's apt
# sources) or "sid" (sid-apt: sid/experimental).
if ver=$(dpkg-query -W -f='${Version}' "$PKG" 2>/dev/null) && [ -n "$ver" ] &&
	[ -f "/usr/src/$PKG.tar.xz" ]; then
	origin=host
elif ver=$(apt-cache policy "$PKG" 2>/dev/null |
	awk '/^ +Candidate:/ && $2 != "(none)" { print $2 }') && [ -n "$ver" ]; then
	origin=apt
else
	origin=sid
	ver=$("$VFLIPQ_TOP/scripts/sid-apt.sh" policy "$PKG" 2>/dev/null |
		awk '/^ +Candidate:/ && $2 != "(none)" { print $2 }') || true
	if [ -z "$ver" ]; then
		# Offline, or sid moved on: the newest version already unpacked.
		ver=$(cd "$VFLIPQ_CACHE/linux-source" 2>/dev/null && for d in *; do
			[ -f "$d/.complete" ] && [ -d "$d/$PKG" ] && echo "$d"
		done | sort -V | tail -n1) || true
		[ -n "$ver" ] || die "$PKG: neither installed on the host nor known to sid/experimental"
		warn "sid-apt does not know $PKG; using the cached $ver"
	fi
fi
if [ $only_version = 1 ]; then
	echo "$ver"
	exit 0
fi
base=$VFLIPQ_CACHE/linux-source/$ver
tree=$base/$PKG

# tarball: path of the source tarball (downloads + unpacks the .deb for sid).
tarball() {
	if [ $origin = host ]; then
		echo "/usr/src/$PKG.tar.xz"
		return 0
	fi
	local deb
	deb=$(compgen -G "$DEB_DIR/${PKG}_${ver//:/%3a}_*.deb" | head -n1 || true)
	if [ -z "$deb" ] && [ $origin = apt ]; then
		msg "downloading $PKG=$ver"
		mkdir -p "$DEB_DIR"
		(cd "$DEB_DIR" && apt-get -q -o APT::Sandbox::User=root download "$PKG=$ver" >&2)
		deb=$(compgen -G "$DEB_DIR/${PKG}_${ver//:/%3a}_*.deb" | head -n1 || true)
		[ -n "$deb" ] || die "download of $PKG=$ver failed"
	elif [ -z "$deb" ]; then
		msg "downloading $PKG=$ver (sid/experimental)"
		"$VFLIPQ_TOP/scripts/sid-apt.sh" download "$DEB_DIR" "$PKG=$ver"
		deb=$(compgen -G "$DEB_DIR/${PKG}_${ver//:/%3a}_*.deb" | head -n1 || true)
		[ -n "$deb" ] || die "download of $PKG=$ver failed"
	fi
	dpkg -x "$deb" "$base/deb"
	[ -f "$base/deb/usr/src/$PKG.tar.xz" ] || die "no /usr/src/$PKG.tar.xz in $deb"
	echo "$base/deb/usr/src/$PKG.tar.xz"
}

unpack() {
	[ -f "$base/.complete" ] && return 0
	local t0 tb; t0=$(now_s)
	rm -rf "$base"
	mkdir -p "$base"
	tb=$(tarball)
	msg "unpacking $tb into $base"
	tar -xf "$tb" -C "$base"
	rm -rf "$base/deb"
	[ -f "$tree/scripts/checkpatch.pl" ] || die "no scripts/checkpatch.pl in $tb"
	touch "$base/.complete"
	msg "unpacked in $(elapsed "$t0")s"
}
[ -f "$base/.complete" ] || with_cache_lock linux-source unpack
echo "$tree"
