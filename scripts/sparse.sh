#!/bin/bash
# Print the path of a sparse that the kernel tree KDIR accepts.
#
#   scripts/sparse.sh KDIR
#
# Kbuild runs the kernel's scripts/checker-valid.sh on the checker and, when
# it fails, only warns and builds without sparse.  Linux 7.x's check wants
# __typeof_unqual__, which bookworm's sparse 0.6.4 does not parse, so for
# those trees this builds the source package of sid's sparse (0.6.5~rc1 or
# newer, fetched with "apt-get source" through the private sid view of
# scripts/sid-apt.sh and its own deb-src list) with the host's gcc into
# $VFLIPQ_CACHE/sparse/<version>/ once.  Trees without checker-valid.sh
# (6.1, 6.12) get the host's sparse.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kdir=${1:?usage: $0 KDIR}
valid=""
for d in "$kdir/source/scripts" "$kdir/scripts"; do
	[ -f "$d/checker-valid.sh" ] && { valid=$d/checker-valid.sh; break; }
done
host=$(command -v sparse || true)
[ -n "$host" ] || die "sparse not installed (run: make deps)"
# accepted SPARSE: what checker-valid.sh says, with the flags Kbuild gives.
accepted() {
	[ -z "$valid" ] && return 0
	[ "$(sh "$valid" "$1" --arch=x86_64 -mlittle-endian -m64 2>/dev/null)" = 1 ]
}
if accepted "$host"; then
	echo "$host"
	exit 0
fi

base=$VFLIPQ_CACHE/sparse
src_list=$base/apt/sources.list
# sid_src apt-get|apt-cache ARGS...: in the private sid view, with deb-src
# lines only.
sid_src() {
	local tool=$1
	shift
	"$VFLIPQ_TOP/scripts/sid-apt.sh" "$tool" -q \
		-o "Dir::Etc::sourcelist=$src_list" -o "Dir::State::Lists=$base/apt/lists" "$@"
}
build_unlocked() {
	local ver dir t0
	mkdir -p "$base/apt/lists/partial"
	echo "deb-src [trusted=yes] ${SID_APT_MIRROR:-http://deb.debian.org/debian} sid main" >"$src_list"
	if ! compgen -G "$base/apt/lists/*_Sources*" >/dev/null ||
		[ -n "$(find "$base/apt/lists" -maxdepth 1 -name '*_Sources*' -mtime +1)" ]; then
		sid_src apt-get update >&2
	fi
	ver=$(sid_src apt-cache showsrc sparse 2>/dev/null | sed -n 's/^Version: //p' | sort -V | tail -n1)
	[ -n "$ver" ] || die "sid has no sparse source package"
	dir=$base/$ver
	if [ -x "$dir/sparse" ]; then
		echo "$dir/sparse"
		return 0
	fi
	t0=$(now_s)
	msg "building sparse $ver from sid's source package (the host's is too old for $kdir)"
	rm -rf "$dir" "$dir.tmp"
	mkdir -p "$dir.tmp"
	(cd "$dir.tmp" && sid_src apt-get source --download-only "sparse=$ver" >&2 &&
		dpkg-source -x --skip-patches ./*.dsc src >&2 &&
		env -u MAKEFLAGS make -C src -j"$(nproc)" CC=gcc sparse >build.log 2>&1) ||
		die "building sparse $ver failed (log: $dir.tmp/build.log)"
	mkdir -p "$dir"
	cp "$dir.tmp/src/sparse" "$dir/sparse"
	rm -rf "$dir.tmp"
	msg "sparse $ver built in $(elapsed "$t0")s: $dir/sparse"
	echo "$dir/sparse"
}
sp=$(with_cache_lock sparse build_unlocked)
accepted "$sp" || die "$sp does not pass $valid either"
echo "$sp"
