#!/bin/bash
# make dkms-check: build vflipq with DKMS for one test kernel (scripts/dkms.sh
# build: dkms ldtarball/build/install in a private tree) and boot that kernel
# with the module DKMS built, not build-module.sh's, to drive it: the caps
# ioctl, a modeset, page flips, CRC, queued flips with their scanned-out
# content.
#
#   scripts/dkms-check.sh SERIES      (KDIR=/path/to/tree: any prepared tree;
#                                      the VM part needs SERIES' kernel image)
#
# The guest checks that the vflipq.ko it loaded is the DKMS one (sha256), then
# runs the DKMS_SMOKE subtests (exact names).  Every one of them must pass: a
# skip fails the check as well.  Last line: "N passed, M failed, K skipped".
set -euo pipefail
. "$(dirname "$0")/lib.sh"

series=${1:-${KERNEL:-6.12}}
BUILD=${BUILD:-$VFLIPQ_TOP/build}
DKMS_SMOKE=${DKMS_SMOKE:-"vflipq_caps@version vflipq_caps@matches-resources
kms_vflipq_atomic@modeset-on-off kms_vflipq_atomic@nonblocking-flip-events
kms_vflipq_crc@crc-follows-content kms_vflipq_flipq@batch-on-target
kms_vflipq_flipq@scanout-content"}
t0=$(now_s)

set +e
out=$("$VFLIPQ_TOP/scripts/dkms.sh" build "$series" | tee /dev/stderr)
rc=$?
set -e
ko=$(sed -n 's/^dkms-module: //p' <<<"$out")
if [ $rc != 0 ] || [ -z "$ko" ]; then
	echo "FAIL dkms@build ($series)"
	echo "0 passed, 1 failed, 0 skipped"
	exit 1
fi
echo "PASS dkms@build ($series: $ko)"
want=$(wc -w <<<"$DKMS_SMOKE")
sum=$(sha256sum "$ko" | cut -d' ' -f1)
# The only vflipq.ko in the guest is the one mkinitramfs.sh was given.
job="ko=/lib/modules/\$(uname -r)/extra/vflipq.ko
got=\$(sha256sum \$ko | cut -d' ' -f1)
if [ \"\$got\" != $sum ]; then echo \"dkms-check: \$ko is not the DKMS module (\$got)\"; exit 1; fi
echo \"dkms-check: loaded the DKMS module, sha256 \$got\"
export VFLIPQ_TESTS='$(tr '\n' ' ' <<<"$DKMS_SMOKE")'
vflipq-run-tests"
set +e
VFLIPQ_KO=$ko V=${V:-0} "$VFLIPQ_TOP/scripts/vm-run.sh" --kernel "$series" --cmd "$job" 2>&1 |
	tee "$BUILD/dkms-check-$series.log"
vrc=${PIPESTATUS[0]}
set -e
# (Not results/latest: another VM run of this tree may have moved it.)
res=$(sed -n 's/^results: \([^ ]*\) .*/\1/p' "$BUILD/dkms-check-$series.log" | tail -n1)
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$res/results.txt" 2>/dev/null | tail -n1 || true)
p=0 f=0 s=0
[ -n "$line" ] && read -r p _ f _ s _ <<<"${line//,/}"
grep -h '^dkms-check: ' "$res/console.log" || true
problems=0
[ "$vrc" = 0 ] || { echo "FAIL dkms@vm (the VM run failed, see $res)"; problems=1; }
if [ "$p" != "$want" ] || [ "$s" != 0 ]; then
	echo "FAIL dkms@smoke: $p of the $want smoke subtests passed ($f failed, $s skipped)"
	problems=1
fi
echo "dkms-check ($series): DKMS build + $p/$want smoke subtests [$(elapsed "$t0")s]"
echo "$((1 + p)) passed, $((f + problems)) failed, $s skipped"
[ $problems = 0 ] && [ "$f" = 0 ]
