#!/bin/bash
# Build the kernel's own vkms.ko out of tree, as the benchmark baseline.
#
#   scripts/bench-vkms.sh SERIES
#
# Debian's kernels do not build vkms (CONFIG_DRM_VKMS is not set), but the
# linux-source-6.12 package holds its sources: copy drivers/gpu/drm/vkms from
# the tree unpacked by scripts/linux-source.sh into build/<kver>/vkms/ (only
# files whose content changed, so kbuild stays incremental) and run
#   make -C $KDIR M=build/<kver>/vkms CONFIG_DRM_VKMS=m modules
# against the same test-kernel headers as vflipq.  Prints the path of
# vkms.ko on stdout.  The sources are used unchanged.
# The kernels built from source (scripts/source-kernel.sh: debug, 7.2, 7.3)
# have vkms as a module of their own: that one is used as it is (7.2's vkms
# is the newest, with configfs).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

series=${1:-${KERNEL:-6.12}}
BUILD=${BUILD:-$VFLIPQ_TOP/build}
eval "$("$VFLIPQ_TOP/scripts/kernel.sh" env "$series")"

own=$KROOT/lib/modules/$KVER/kernel/drivers/gpu/drm/vkms/vkms.ko
if [ -f "$own" ]; then
	msg "vkms.ko of $KVER itself: $own"
	echo "$own"
	exit 0
fi
src=$("$VFLIPQ_TOP/scripts/linux-source.sh" 6.12)/drivers/gpu/drm/vkms
[ -f "$src/vkms_drv.c" ] || die "no vkms sources in $src"
out=$BUILD/$KVER/vkms
mkdir -p "$out"
exec 9>"$BUILD/$KVER/.vkms.lock"
flock -w 1800 9 || die "timed out waiting for $BUILD/$KVER/.vkms.lock"

for f in "$src"/*; do
	[ -f "$f" ] || continue
	cmp -s "$f" "$out/$(basename "$f")" || cp -p "$f" "$out/"
done

t0=$(now_s)
log=$out/build.log
set +e
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -j"$(nproc 2>/dev/null || echo 2)" \
	-C "$KDIR" M="$out" CONFIG_DRM_VKMS=m modules >"$log" 2>&1
rc=$?
set -e
[ $rc = 0 ] && [ -f "$out/vkms.ko" ] || { cat "$log" >&2; die "vkms build failed (log: $log)"; }
msg "vkms.ko for $KVER ($(elapsed "$t0")s): $out/vkms.ko"
echo "$out/vkms.ko"
