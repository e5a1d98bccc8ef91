#!/bin/bash
# make check: host tests, then the VM test run on one kernel.  The last
# line printed is the combined "N passed, M failed, K skipped".
#   scripts/check.sh SERIES
set -euo pipefail
. "$(dirname "$0")/lib.sh"

series=${1:-${KERNEL:-6.12}}
BUILD=${BUILD:-$VFLIPQ_TOP/build}
t0=$(now_s)
rc=0
"$VFLIPQ_TOP/scripts/host-tests.sh" || rc=1
read -r hp _ hf _ hs _ <<<"$(tr -d , <"$BUILD/host-tests.summary")"

set +e
"$VFLIPQ_TOP/scripts/vm-run.sh" --kernel "$series" --job tests 2>&1 | tee "$BUILD/vm-check.log"
vrc=${PIPESTATUS[0]}
set -e
[ "$vrc" = 0 ] || rc=1
vline=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$BUILD/vm-check.log" | tail -n1 || true)
if [ -n "$vline" ]; then
	read -r vp _ vf _ vs _ <<<"${vline//,/}"
else
	vp=0 vf=1 vs=0
fi
echo "check ($series): host $hp passed, $hf failed, $hs skipped; VM $vp passed, $vf failed, $vs skipped [$(elapsed "$t0")s]"
[ $rc = 0 ] && echo "check: OK" || echo "check: FAILED"
echo "$((hp + vp)) passed, $((hf + vf)) failed, $((hs + vs)) skipped"
exit $rc
