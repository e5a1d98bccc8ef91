#!/bin/bash
# checkpatch.pl --strict on the driver sources (its KUnit suites in tests/
# too, and the files scripts/kunit-module.sh adds to kunit.ko) and the uapi
# header, using the script from the unpacked linux-source-6.12.  Fails on
# any ERROR, WARNING or CHECK.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tree=$("$VFLIPQ_TOP/scripts/linux-source.sh" 6.12)
cd "$VFLIPQ_TOP"
drv=$(ls drivers/gpu/drm/vflipq/*.[ch] drivers/gpu/drm/vflipq/tests/*.[ch] \
	scripts/kunit-module/*.[ch] 2>/dev/null || true)
uapi=$(ls uapi/drm/*.h 2>/dev/null || true)
files="$drv $uapi"
[ -n "${files// /}" ] || die "no driver sources to check"
cp=(perl "$tree/scripts/checkpatch.pl" --strict --no-tree --show-types --terse)
out=""
run_cp() { # checkpatch.pl exits 0 (clean) or 1 (problems); anything else: broken
	local o rc=0
	o=$("${cp[@]}" "$@" 2>&1) || rc=$?
	[ $rc -le 1 ] || { echo "$o" >&2; die "checkpatch.pl failed (status $rc)"; }
	out+=$o$'\n'
}
# shellcheck disable=SC2086
[ -z "$drv" ] || run_cp -f $drv
# uapi headers cannot use BIT()/BIT_ULL() (kernel-internal macros), so the
# BIT_MACRO suggestion does not apply to them.
# shellcheck disable=SC2086
[ -z "$uapi" ] || run_cp --ignore BIT_MACRO -f $uapi
echo "$out" | grep -Ev '^(.*: )?total: 0 errors, 0 warnings, 0 checks|^$' || true
n=$(echo "$out" | grep -Ec ': (ERROR|WARNING|CHECK):' || true)
nfiles=$(wc -w <<<"$files")
if [ "$n" -gt 0 ]; then
	die "checkpatch: $n problem(s) in $nfiles file(s)"
fi
msg "checkpatch: $nfiles file(s) clean"
# A merge that left its conflict markers in any tracked file (a README once
# shipped with three such blocks).
if git rev-parse --git-dir >/dev/null 2>&1; then
	if git grep -nE '^(<{7} |>{7} |={7}$)' -- . ':!*.rst' ':!*.md' >&2 ||
	   git grep -nE '^(<{7} |>{7} )' -- '*.rst' '*.md' >&2; then
		die "conflict markers left in the files above"
	fi
	msg "no conflict markers in tracked files"
fi
