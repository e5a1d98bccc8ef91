#!/bin/bash
# make bench: vflipq against the kernel's vkms, in one boot of the test VM.
#
#   scripts/bench.sh [SERIES]
#
# Builds vkms.ko from linux-source-6.12 (scripts/bench-vkms.sh), boots the
# test kernel ONCE with vflipq, vgem and vkms loaded (the initramfs gets
# vkms.ko through mkinitramfs.sh's EXTRA_KO), runs every benchmark
# (userspace/bench/guest-run.sh), then writes out/bench.json, out/bench.md
# and out/bench-*.png (userspace/bench/report.py) and prints the table.
# Assumes "make all" was done, which builds vflipq-bench (make bench
# depends on it).
#
# Benchmarks are not tests: the numbers never fail the run; it fails when a
# benchmark could not run (or the VM did not finish).  Kernel warnings in
# the guest's dmesg are reported but do not fail it.
#
# Env: BENCH_QUICK=1 (short runs), BENCH_ONLY='composer latency flipq memory
#      memcpy' (subset; the JSON then lacks the others and the run fails),
#      VM_TIMEOUT (default 1200: the whole run takes 14-15 minutes, and 900 s
#      is not always enough), VM_SILENCE_TIMEOUT (default 360), VM_MEM, VM_SMP, V=1
#      (whole console).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

series=${1:-${KERNEL:-6.12}}
BUILD=${BUILD:-$VFLIPQ_TOP/build}
OUT=${OUT:-$VFLIPQ_TOP/out}
t0=$(now_s)

vkms_ko=$("$VFLIPQ_TOP/scripts/bench-vkms.sh" "$series")
# vflipq with its composer's code aligned for QEMU's TCG (Kbuild,
# VFLIPQ_TCG_ALIGN), in a build directory of its own: the tests keep the
# default build.
VFLIPQ_TCG_ALIGN=y "$VFLIPQ_TOP/scripts/build-module.sh" "$series" >&2
kver=$("$VFLIPQ_TOP/scripts/kernel.sh" get "$series" KVER)
bench_ko=$BUILD/$kver/module-tcg-align/drivers/gpu/drm/vflipq/vflipq.ko
[ -f "$bench_ko" ] || die "$bench_ko not built"
[ -x "$BUILD/userspace/bin/vflipq-bench" ] ||
	die "vflipq-bench not built (run: make userspace)"

guest_cmd="BENCH_QUICK=${BENCH_QUICK:-0}"
[ -n "${BENCH_ONLY:-}" ] && guest_cmd+=" BENCH_ONLY='$BENCH_ONLY'"
guest_cmd+=" vflipq-bench-run"

pgrep -f '^qemu-system' >/dev/null &&
	warn "another QEMU is running on this machine: the numbers will be disturbed"
[ -z "${LOAD:-}" ] || warn "LOAD=$LOAD: the numbers are disturbed on purpose"
mkdir -p "$OUT"
log=$BUILD/bench-vm.log
# Sample, every 5 s, how many other QEMUs run on this machine (ours has
# vflipq_bench=1 on its kernel command line): the numbers are only
# comparable between quiet runs.
contention=$BUILD/bench-contention.txt
: >"$contention"
(
	while :; do
		all=$(pgrep -fc '^qemu-system' || true)
		ours=$(pgrep -fc '^qemu-system.*vflipq_bench=1' || true)
		echo $((${all:-0} - ${ours:-0})) >>"$contention"
		sleep 5
	done
) &
monitor=$!
trap 'kill $monitor 2>/dev/null || true' EXIT
set +e
VFLIPQ_KO="$bench_ko" EXTRA_KO="$vkms_ko" VM_TIMEOUT=${VM_TIMEOUT:-1200} VM_SILENCE_TIMEOUT=${VM_SILENCE_TIMEOUT:-360} \
	VM_APPEND="${VM_APPEND:-} vflipq_bench=1" \
	"$VFLIPQ_TOP/scripts/vm-run.sh" --kernel "$series" --cmd "$guest_cmd" 2>&1 |
	tee "$log" | grep -Ev '^(PASS|FAIL|SKIP) vm$|^[0-9]+ passed, '
vrc=${PIPESTATUS[0]}
set -e
kill $monitor 2>/dev/null || true
busy=$(awk '$1 > 0 { b++ } END { printf "%d", NR ? 100 * b / NR : 0 }' "$contention")
[ "$busy" -gt 0 ] && warn "other QEMUs ran on this machine during ${busy}% of the run: the numbers are disturbed"
resdir=$(sed -n 's/^results: \([^ ]*\) .*/\1/p' "$log" | tail -n1)
[ -n "$resdir" ] && [ -d "$resdir" ] || die "no results directory from the VM run (log: $log)"
console=$resdir/console.log
# The benchmark lines of the console, for the record.
grep -E '^(vflipq-bench|bench): |^BENCH-FAIL' "$console" >"$resdir/bench-console.txt" || true
grep -E '^(vflipq-bench: |bench: .* done|BENCH-FAIL)' "$console" | sed 's/^/  /' || true

kernel_warnings=""
if [ -s "$resdir/dmesg-problems.txt" ]; then
	kernel_warnings=$resdir/dmesg-problems.txt
	warn "kernel warnings in the guest's dmesg during the bench run ($resdir/dmesg.log):"
	cut -f2- "$resdir/dmesg-problems.txt" | head -n 10 | sed 's/^/  /' >&2
fi

machine="$(nproc) x $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), QEMU TCG (-smp ${VM_SMP:-2}, ${VM_MEM:-2G})"
set +e
"$VFLIPQ_TOP/userspace/bench/report.py" \
	--raw "$resdir/bench-raw.txt" --data "$resdir/bench-data" --out "$OUT" \
	--console "$console" \
	--machine "$machine" --kernel "$(basename "$resdir" | sed 's/^[0-9]*-[0-9]*-//; s/-cmd.*$//')" \
	--results "$resdir" ${kernel_warnings:+--kernel-warnings "$kernel_warnings"} \
	--contention "$busy" \
	${BENCH_QUICK:+$( [ "${BENCH_QUICK}" = 1 ] && echo --quick)}
rrc=$?
set -e
[ -z "${LOAD:-}" ] || [ ! -f "$OUT/bench.md" ] ||
	printf '\nRun with LOAD=%s beside it: every number is disturbed on purpose.\n' \
		"$LOAD" >>"$OUT/bench.md"

fail=0
if [ $rrc != 0 ]; then
	echo "bench: some benchmarks did not run or produced no result (see above)"
	fail=1
fi
if ! grep -q '^VFLIPQ-DONE' "$console"; then
	echo "bench: the VM did not finish its job (see $console)"
	fail=1
fi
job_rc=$(sed -n 's/^VFLIPQ-JOB-END rc=//p' "$console" | tail -n1)
if [ "${job_rc:-1}" != 0 ]; then
	echo "bench: the guest bench runner exited with status ${job_rc:-?}"
	fail=1
fi
[ "$vrc" != 0 ] && [ $fail = 0 ] && [ -z "$kernel_warnings" ] &&
	echo "bench: note: the VM run reported problems (see $log)"
echo "bench: results $resdir; out/bench.json, out/bench.md [total $(elapsed "$t0")s]"
exit $fail
