#!/bin/bash
# make trace: record the flip queue while the demo runs in the VM, then
# write out/vflipq-trace.systrace (ftrace text + atrace marks: open it in
# https://ui.perfetto.dev) and out/trace-timeline.png.
#
#   scripts/trace.sh [SERIES]
#
# The guest side is vflipq-trace-run (userspace/trace/guest-trace.sh), the
# host side userspace/trace/convert.py.  See Documentation/vflipq/tracing.rst.
# Env: PRESENT_DEMO_SECONDS (per present-demo run, default 2), V=1.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

series=${1:-${KERNEL:-6.12}}
BUILD=${BUILD:-$VFLIPQ_TOP/build}
OUT=${OUT:-$VFLIPQ_TOP/out}
t0=$(now_s)
[ -x "$BUILD/userspace/bin/vflipq-trace-run" ] || die "vflipq-trace-run not built (run: make userspace)"
mkdir -p "$OUT"
log=$BUILD/trace-vm.log
set +e
"$VFLIPQ_TOP/scripts/vm-run.sh" --kernel "$series" \
	--cmd "PRESENT_DEMO_SECONDS=${PRESENT_DEMO_SECONDS:-2} vflipq-trace-run" 2>&1 | tee "$log"
vrc=${PIPESTATUS[0]}
set -e
resdir=$(sed -n 's/^results: \([^ ]*\) .*/\1/p' "$log" | tail -n1)
[ -n "$resdir" ] && [ -f "$resdir/trace.txt" ] || die "the VM run left no trace.txt (log: $log)"
cp "$resdir/trace.txt" "$OUT/vflipq-trace.txt"
"$VFLIPQ_TOP/userspace/trace/convert.py" "$OUT/vflipq-trace.txt" \
	"$OUT/vflipq-trace.systrace" "$OUT/trace-timeline.png" || vrc=1
echo "trace: out/vflipq-trace.systrace, out/trace-timeline.png (raw: out/vflipq-trace.txt) [$(elapsed "$t0")s]"
exit "$vrc"
