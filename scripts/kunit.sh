#!/bin/bash
# The KUnit suites of vflipq's DRM-free parts (drivers/gpu/drm/vflipq/tests/)
# run by the kernel's kunit.py in a UML kernel built from linux-source-6.12.
#
#   scripts/kunit.sh [kunit.py run options...]   e.g. 'vflipq_fq_core.*'
#
# The tree is a copy of the cached linux-source-6.12 (scripts/linux-source.sh)
# made once into $VFLIPQ_CACHE/kunit-6.12/src with hard links (cp -al: no
# space, and the cached tree is never written: the two files the copy
# changes are replaced, not edited), with drivers/gpu/drm/vflipq and uapi/
# of this checkout copied in at every run (only the files whose content
# changed, so that the build in $VFLIPQ_CACHE/kunit-6.12/build stays
# incremental) and drivers/gpu/drm/Kconfig and Makefile hooked to them.
# $VFLIPQ_CACHE/kunit-6.12.lock keeps concurrent runs apart.  KUNIT_JOBS
# (default 2) is make's -j; the build and the run are niced.
# Prints kunit.py's results; exits non-zero when a case failed or the
# kernel did not build.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

SERIES=6.12
DIR=$VFLIPQ_CACHE/kunit-$SERIES
SRC=$DIR/src
OUT=$DIR/build
DRV=drivers/gpu/drm/vflipq

# The copy of linux-source, hooked to drivers/gpu/drm/vflipq: once per
# linux-source version (.complete holds the tree it was made from).
make_tree() {
	local linux t0
	linux=$("$VFLIPQ_TOP/scripts/linux-source.sh" "$SERIES")
	[ "$(cat "$DIR/.complete" 2>/dev/null)" = "$linux" ] && return 0
	t0=$(now_s)
	rm -rf "$SRC" "$OUT" "$DIR/.complete"
	mkdir -p "$DIR"
	msg "linking $linux into $SRC"
	cp -al "$linux" "$SRC"
	hook "$SRC/drivers/gpu/drm/Kconfig" 'source "drivers/gpu/drm/vkms/Kconfig"' \
		'source "drivers/gpu/drm/vflipq/Kconfig"'
	# shellcheck disable=SC2016 # make's $(...), not the shell's
	hook "$SRC/drivers/gpu/drm/Makefile" 'obj-$(CONFIG_DRM_VKMS)	+= vkms/' \
		'obj-$(CONFIG_DRM_VFLIPQ)	+= vflipq/'
	echo "$linux" >"$DIR/.complete"
	msg "tree ready in $(elapsed "$t0")s"
}

# hook FILE AFTER LINE: LINE after the line AFTER of FILE, in a new file
# (FILE is a hard link into the cache).
hook() {
	local file=$1 after=$2 line=$3
	grep -qxF "$after" "$file" || die "no line '$after' in $file"
	awk -v a="$after" -v l="$line" '{ print } $0 == a { print l }' "$file" >"$file.new"
	rm -f "$file"
	mv "$file.new" "$file"
}

# sync FROM TO: the source files of directory FROM (no build products of
# an out-of-tree build there) into TO, copying only those whose content
# differs (with a new mtime, so that make sees them, even when they went
# back to an older version) and removing those FROM lost.
sync_dir() {
	local from=$1 to=$2 f n=0
	mkdir -p "$to"
	while IFS= read -r -d '' f; do
		if ! cmp -s "$from/$f" "$to/$f"; then
			mkdir -p "$to/$(dirname "$f")"
			rm -f "$to/$f"
			cp "$from/$f" "$to/$f"
			n=$((n + 1))
		fi
	done < <(cd "$from" && find . -type f ! -name '*~' ! -name '.*.swp' \
		! -name '*.o' ! -name '*.ko' ! -name '*.a' ! -name '.*.cmd' \
		! -name '*.mod' ! -name '*.mod.c' ! -name '*.order' ! -name '*.symvers' \
		-print0)
	while IFS= read -r -d '' f; do
		[ -e "$from/$f" ] || { rm -f "$to/$f"; n=$((n + 1)); }
	done < <(cd "$to" && find . -type f -print0)
	[ $n = 0 ] || msg "$n file(s) of $from changed"
}

run() {
	local t0 rc=0
	make_tree
	sync_dir "$VFLIPQ_TOP/$DRV" "$SRC/$DRV"
	sync_dir "$VFLIPQ_TOP/uapi" "$SRC/uapi"
	t0=$(now_s)
	cd "$SRC"
	PYTHONDONTWRITEBYTECODE=1 nice -n 10 python3 tools/testing/kunit/kunit.py run \
		--arch=um --build_dir="$OUT" --jobs="${KUNIT_JOBS:-2}" \
		--kunitconfig="$DRV/tests/.kunitconfig" "$@" || rc=$?
	msg "kunit.py: build and run in $(elapsed "$t0")s, exit status $rc"
	return $rc
}

with_cache_lock "kunit-$SERIES" run "$@"
