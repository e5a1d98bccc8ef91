#!/bin/bash
# The tests job in N VMs at once, each on its share of the subtests.
#
#   scripts/vm-shards.sh N [vm-run.sh arguments]
#
# Shard I of N (VFLIPQ_SHARD=I/N, scripts/guest/run-tests) runs every Nth
# selected subtest from the Ith on, so the slow binaries are split evenly.
# Each shard is one TCG guest, which keeps one host core busy: on the debug
# kernel, whose suite is CPU-bound (KASAN, lockdep, kmemleak), two shards on
# two cores take about half the time of one VM.  Every shard runs its own
# debug steps too (module unload, kmemleak scans).  The release kernels'
# suites stay in one VM ("make check"): their paced subtests have no retry,
# and two guests on two cores delay each other's timers.
#
# A subtest that failed twice on an assertion alone (no kernel report) runs
# once more in one VM by itself afterwards (at most SHARD_RERUN_MAX, default
# 8), and that result replaces the shard's.
#
# Output: each shard's lines prefixed "[I/N] " (the run alone "[alone] "),
# then the sum of the summaries as the last line ("N passed, M failed, K
# skipped"; a shard that printed none counts as one failure).  Exit status 0
# when nothing failed.
# N=1 is exactly scripts/vm-run.sh.  Holds the VM lock (VM_LOCK) for the
# shards, which run with VM_LOCK=0.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

n=${1:-1}
shift || true
[[ $n =~ ^[1-9][0-9]*$ ]] || die "vm-shards.sh: N=$n is not a positive number"
[ "$n" = 1 ] && exec "$VFLIPQ_TOP/scripts/vm-run.sh" "$@"

vm_lock

t0=$(date +%s)
logs=$(mktemp -d "${TMPDIR:-/tmp}/vflipq-shards.XXXXXX")
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$logs"' EXIT
trap 'exit 130' INT TERM
for ((i = 0; i < n; i++)); do
	(VFLIPQ_SHARD=$i/$n VM_LOCK=0 "$VFLIPQ_TOP/scripts/vm-run.sh" "$@" 2>&1 |
		tee "$logs/$i.log" | sed -u "s|^|[$i/$n] |") &
	pids+=($!)
	sleep 2
done
for pid in "${pids[@]}"; do wait "$pid" || true; done
pids=()

p=0 f=0 s=0
# add LOG WHAT: add LOG's last summary line to p, f, s (none: one failure).
add() {
	local line a b c
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$1" | tail -n1 || true)
	if [ -z "$line" ]; then
		echo "FAIL $2: no summary line"
		f=$((f + 1))
		return 1
	fi
	read -r a _ b _ c _ <<<"${line//,/}"
	p=$((p + a)) f=$((f + b)) s=$((s + c))
}
for ((i = 0; i < n; i++)); do add "$logs/$i.log" "shard $i/$n" || true; done

# A paced subtest that failed its assertion twice while the kernel logged
# nothing ("[failed twice]": the debug job's retry) may only have been
# starved by the other guest: each TCG guest's main loop, which delivers
# its timer interrupts, then waits for a core behind the two vCPU threads.
# Those run once more in one VM alone, the condition their tolerances were
# measured in; a kernel report still fails them there.
mapfile -t again < <(cat "$logs"/[0-9]*.log |
	sed -nE 's/^FAIL ([^ ]+) \([0-9.]+s\) \[failed twice\]$/\1/p' | sort -u)
# What is left of VM_TIMEOUT, which bounds the whole sharded run.
left=$(( ${VM_TIMEOUT:-100000} - ($(date +%s) - t0) ))
if [ ${#again[@]} -gt 0 ] && [ ${#again[@]} -le "${SHARD_RERUN_MAX:-8}" ] && [ $left -ge 180 ]; then
	echo "running ${#again[@]} subtest(s) once more, alone: ${again[*]}"
	# (FUZZ_ITER=0: shard 0 did the long fuzzer pass, if any)
	(VFLIPQ_TESTS="${again[*]}" VM_LOCK=0 FUZZ_ITER=0 VM_TIMEOUT=$(( left < ${VM_TIMEOUT:-900} ? left : ${VM_TIMEOUT:-900} )) \
		"$VFLIPQ_TOP/scripts/vm-run.sh" "$@" 2>&1 |
		tee "$logs/again.log" | sed -u "s|^|[alone] |") || true
	# Its counts replace the shards' failures of these subtests.
	if add "$logs/again.log" "the run alone"; then
		f=$((f - ${#again[@]}))
		for t in "${again[@]}"; do
			grep -q "^PASS $t " "$logs/again.log" &&
				echo "PASS $t [flaky: failed twice beside another VM, passed alone]"
		done
	fi
elif [ ${#again[@]} -gt 0 ]; then
	echo "${#again[@]} subtests failed twice; none run again (SHARD_RERUN_MAX=${SHARD_RERUN_MAX:-8}, ${left}s left of VM_TIMEOUT)"
fi
# (vm-run.sh fails exactly when its summary counts a failure.)
rc=$((f > 0))
echo "$p passed, $f failed, $s skipped"
exit $rc
