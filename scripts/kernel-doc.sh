#!/bin/bash
# scripts/kernel-doc -Wall on the driver sources and its KUnit suites
# (tests/), using the script from the unpacked linux-source-6.12 (the tree
# checkpatch.sh uses).  Fails on any warning: an undescribed member or
# parameter, a missing return section, a comment that opens with /** and is
# not kernel-doc.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tree=$("$VFLIPQ_TOP/scripts/linux-source.sh" 6.12)
cd "$VFLIPQ_TOP"
files=$(ls drivers/gpu/drm/vflipq/*.[ch] drivers/gpu/drm/vflipq/tests/*.[ch] 2>/dev/null || true)
[ -n "$files" ] || die "no driver sources to check"
rc=0
# shellcheck disable=SC2086
out=$(perl "$tree/scripts/kernel-doc" -Wall -none $files 2>&1) || rc=$?
n=$(grep -c . <<<"$out" || true)
[ -z "$out" ] || echo "$out"
nfiles=$(wc -w <<<"$files")
if [ "$rc" != 0 ] || [ "$n" -gt 0 ]; then
	die "kernel-doc: $n warning(s) in $nfiles file(s) (status $rc)"
fi
msg "kernel-doc: $nfiles file(s) clean"
