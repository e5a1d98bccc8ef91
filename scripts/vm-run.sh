#!/bin/bash
# Boot the vflipq test VM (QEMU/TCG, busybox initramfs) and run one job.
#
#   scripts/vm-run.sh [--kernel SERIES] [--job tests|demo|cmd] [--cmd 'sh command']
#
#   tests  run every subtest in build/igt/bin under IGT's igt_runner (guest:
#          vflipq-run-tests)
#   demo   modetest -M vflipq + vflipq-capture + present-demo; guest /out is
#          copied to out/
#   cmd    run the given shell command in the guest (after vgem/vflipq load)
#   clients  real Debian clients (drm_info, modetest, vbltest, proptest,
#          weston, kmscube) against vflipq (guest: vflipq-clients); their
#          files come from scripts/mkclients.sh, appended to the initramfs
#          for this job only; the PNGs are copied to out/clients/
#   igt    upstream IGT's igt_runner (scripts/igt.sh: run it through make igt)
#   mutants  several mutants of make mutate, each against its tests (guest:
#          vflipq-mutants); the mutants come in VM_EXTRA_CPIO
#          (scripts/mutate.py: run it through make mutate)
#
# Env: VM_TIMEOUT (hard limit for the whole VM run, s, default 900; 2400
#      for the tests and mutants jobs),
#      VFLIPQ_SUBTEST_TIMEOUT (default 120), VFLIPQ_TESTS (globs on
#      "binary@subtest"), VFLIPQ_SHARD (I/N: this VM's share of the subtests,
#      scripts/vm-shards.sh), VFLIPQ_REPEAT (runs of each subtest, default 1:
#      make repeat), VFLIPQ_ABORT_ON_OOPS (default 1), VM_MEM (default
#      2G), VM_SMP (default 2), VM_APPEND (extra kernel command line),
#      VM_STALL (MS:PERIOD: stop QEMU for MS ms every PERIOD s, host stalls on
#      purpose), LOAD (hogs:N[,stall:MS:PERIOD]: N CPU-bound processes on
#      the host beside QEMU, at its priority, for the whole run; the stall
#      part is VM_STALL), VM_SILENCE_TIMEOUT (stop the VM after that many seconds without
#      console output; tests job default: subtest timeout + 120, else off),
#      V=1 (show the whole console), VM_EXTRA_CPIO (archives appended to the
#      initramfs, space separated; the igt job's sysroot), VM_LOCK (default 1: wait for any other
#      VM run on this machine to end first), VM_LOCK_WAIT (s, default 3600).
#
# Kernels built without ACPI get one QEMU socket per CPU (lib.sh: vm_smp).
#
# --kernel debug: the debug kernel (scripts/source-kernel.sh: KASAN, KFENCE,
# lockdep, kmemleak, UBSAN, ...).  The command line gains "loglevel=5
# kasan.fault=panic vflipq_debug_kernel=1" (the first KASAN report ends the
# run: it would turn lockdep off), every job gets
# VFLIPQ_DEBUG_KERNEL=1 in its environment, the tests job runs
# vflipq-debug-job (scripts/guest/debug-job: the igt suite, then the
# fuzzer when built (FUZZ_ITER, FUZZ_SEED), module unload and two kmemleak
# scans), and the defaults become VFLIPQ_SUBTEST_TIMEOUT=300 and VM_TIMEOUT=2400,
# plus the fuzzer's FUZZ_TIMEOUT (default 300 s + 3 ms a call: ~0.8 ms a call
# measured on an idle machine, ~1.2 ms on a loaded one) when FUZZ_ITER > 0.
#
# Results: out/results/<date>-<kver>-<job>/{console.log,dmesg.log,results.txt,
# summary.txt,artifacts/} (the tests job adds igt/results.json, igt_runner's
# results), out/results/latest -> the newest one.  The run fails
# on: a failed subtest, a missing summary line, timeout/hang, guest panic,
# failure to load the modules, a non-zero job status, and kernel warnings in
# dmesg (WARNING:, BUG, Oops, Call Trace, refcount_t, KFENCE, UBSAN, kmemleak,
# lockdep reports).  The last line printed is "N passed, M failed, K skipped",
# where every such VM-level problem counts as one failure.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

series=${KERNEL:-6.12}
job=tests
cmd=""
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) series=$2; shift 2 ;;
	--job) job=$2; shift 2 ;;
	--cmd) cmd=$2; job=cmd; shift 2 ;;
	*) die "unknown argument $1" ;;
	esac
done
case $job in tests|demo|cmd|clients|igt|mutants) ;; *) die "unknown job $job" ;; esac
[ "$job" = cmd ] && [ -z "$cmd" ] && die "--job cmd needs --cmd"

BUILD=${BUILD:-$VFLIPQ_TOP/build}
OUT=${OUT:-$VFLIPQ_TOP/out}
eval "$("$VFLIPQ_TOP/scripts/kernel.sh" env "$series")"
debug=0
[ "${KSERIES:-}" = debug ] && debug=1
if [ $debug = 1 ]; then
	fuzz_iter=${FUZZ_ITER:-0}
	[[ $fuzz_iter =~ ^[0-9]+$ ]] || die "FUZZ_ITER=$fuzz_iter: not a number"
	FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-$((300 + fuzz_iter * 3 / 1000))}
	VM_TIMEOUT=${VM_TIMEOUT:-$((2400 + (fuzz_iter > 0 ? FUZZ_TIMEOUT : 0)))}
	VFLIPQ_SUBTEST_TIMEOUT=${VFLIPQ_SUBTEST_TIMEOUT:-300}
fi
# The whole suite takes 4-5 min of a quiet host and 15-20 beside a busy
# one: late is not a failure.  A wedged guest is caught by the console's
# silence (below) long before this limit.
case $job in tests|mutants) VM_TIMEOUT=${VM_TIMEOUT:-2400} ;; esac
VM_TIMEOUT=${VM_TIMEOUT:-900}

stamp=$(date +%Y%m%d-%H%M%S)
name=$stamp-$KVER-$job
[ -n "${VFLIPQ_SHARD:-}" ] && name+=-shard${VFLIPQ_SHARD%/*}of${VFLIPQ_SHARD#*/}
resdir=$OUT/results/$name
n=1
while [ -e "$resdir" ]; do resdir=$OUT/results/$name.$n; n=$((n + 1)); done
mkdir -p "$resdir"
ln -sfn "$(basename "$resdir")" "$OUT/results/latest"

work=$(mktemp -d "$BUILD/vm.XXXXXX" 2>/dev/null || { mkdir -p "$BUILD"; mktemp -d "$BUILD/vm.XXXXXX"; })
trap 'rm -rf "$work"' EXIT

# --- initramfs: base + per-run /job.sh -----------------------------------------
t0=$(now_s)
"$VFLIPQ_TOP/scripts/mkinitramfs.sh" "$series" "$work/base.cpio"
mkdir -p "$work/job"
{
	echo '#!/bin/sh'
	[ $debug = 1 ] && echo 'export VFLIPQ_DEBUG_KERNEL=1'
	case $job in
	mutants)
		printf 'export VFLIPQ_SUBTEST_TIMEOUT=%q\n' "${VFLIPQ_SUBTEST_TIMEOUT:-120}"
		echo 'exec vflipq-mutants' ;;
	tests)
		printf 'export VFLIPQ_SUBTEST_TIMEOUT=%q\n' "${VFLIPQ_SUBTEST_TIMEOUT:-120}"
		printf 'export VFLIPQ_TESTS=%q\n' "${VFLIPQ_TESTS:-}"
		printf 'export VFLIPQ_SHARD=%q\n' "${VFLIPQ_SHARD:-}"
		printf 'export VFLIPQ_REPEAT=%q\n' "${VFLIPQ_REPEAT:-1}"
		printf 'export VFLIPQ_ABORT_ON_OOPS=%q\n' "${VFLIPQ_ABORT_ON_OOPS:-1}"
		if [ $debug = 1 ]; then
			printf 'export FUZZ_ITER=%q FUZZ_SEED=%q FUZZ_TIMEOUT=%q\n' \
				"$fuzz_iter" "${FUZZ_SEED:-1}" "$FUZZ_TIMEOUT"
			echo 'exec vflipq-debug-job'
		else
			echo 'exec vflipq-run-tests'
		fi ;;
	demo)
		echo 'exec vflipq-demo' ;;
	clients)
		echo 'exec vflipq-clients' ;;
	igt)
		printf 'export IGT_DRIVER=%q IGT_TIMEOUT=%q\n' "${IGT_DRIVER:-vflipq}" "${IGT_TIMEOUT:-120}"
		echo 'exec vflipq-igt' ;;
	cmd)
		printf '%s\n' "$cmd" ;;
	esac
} >"$work/job/job.sh"
chmod 755 "$work/job/job.sh"
(cd "$work/job" && echo job.sh | cpio -o -H newc -R 0:0 --quiet) >"$work/job.cpio"
clients_cpio=""
if [ "$job" = clients ]; then
	clients_cpio=$("$VFLIPQ_TOP/scripts/mkclients.sh")
	[ -f "$clients_cpio" ] || die "scripts/mkclients.sh printed '$clients_cpio', not a cpio"
fi
# shellcheck disable=SC2086 # VM_EXTRA_CPIO: a list of paths
cat "$work/base.cpio" $clients_cpio ${VM_EXTRA_CPIO:-} "$work/job.cpio" >"$work/initramfs.cpio"

[ "$job" = demo ] && rm -f "$OUT/modetest.txt" "$OUT/writeback.png" "$OUT"/present*
# Results disk: the guest writes a tar stream of its /out to it.
truncate -s "${VM_DISK_SIZE:-1G}" "$work/disk.img"

append=$VM_BASE_APPEND
# A wedged guest gets an NMI from the harness (vm_postmortem): it panics
# with the stack of what each CPU was doing instead of staying silent.
# nokaslr: the vCPUs' addresses then match the kernel's System.map.
append+=" unknown_nmi_panic panic_print=0x40 nokaslr"
[ $debug = 1 ] && append+=" loglevel=5 kasan.fault=panic vflipq_debug_kernel=1"
append+=" ${VM_APPEND:-}"
smp=$(vm_smp "$KROOT/boot/config-$KVER")
qemu=(qemu-system-x86_64 -accel "$(vm_accel)" -cpu "$(vm_cpu)" -nodefaults -display none
	-serial stdio -monitor "unix:$work/monitor.sock,server=on,wait=off" -no-reboot
	-m "${VM_MEM:-2G}" -smp "$smp"
	-kernel "$VMLINUZ" -initrd "$work/initramfs.cpio" -append "$append"
	-drive "file=$work/disk.img,format=raw,if=virtio")
echo "${qemu[*]}" >"$resdir/qemu-cmdline.txt"

# vm_postmortem: what a guest that went silent (or stalled) was doing, from
# outside it: QEMU's monitor dumps every vCPU's registers a few times
# ($resdir/vcpus.txt), each vCPU's RIP is named from the kernel's
# System.map or, inside vflipq, from vflipq.ko's debug information (the
# guest prints where the module's .text lies), and the code addresses
# found on a vCPU's kernel stack are listed the same way, as the kernel's
# own unreliable ("?") trace entries are.  Then an NMI asks the guest
# itself for its stacks (unknown_nmi_panic).  A vCPU that never answers
# the monitor is reported as such.
vm_postmortem() {
	python3 - "$work/monitor.sock" "$KROOT/boot/System.map-$KVER" \
		"$resdir/vcpus.txt" "$resdir/console.log" \
		"$(find "$BUILD/$KVER/module" -name vflipq.ko 2>/dev/null | head -n1)" <<'PY'
import bisect, re, socket, subprocess, sys, time

sock, smap, dump, console, ko = sys.argv[1:6]
SAMPLES, STACK_WORDS = 5, 96

def hmp(s, cmd, wait):
    s.sendall(cmd.encode() + b'\n')
    out, end = b'', time.time() + wait
    while time.time() < end:
        try:
            d = s.recv(65536)
        except socket.timeout:
            break
        if not d:
            break
        out += d
    return re.sub(r'\x1b\[[0-9;]*[A-Za-z]', '', out.decode(errors='replace'))

syms = []
try:
    for line in open(smap):
        a, t, n = line.split()[:3]
        if t in 'tTwW':
            syms.append((int(a, 16), n))
except OSError:
    pass
syms.sort()
addrs = [a for a, _ in syms]
mod_base = None
try:
    m = re.findall(r'VFLIPQ-INIT: vflipq \.text at (0x[0-9a-f]+)',
                   open(console, errors='replace').read())
    mod_base = int(m[-1], 16) if m else None
except OSError:
    pass
MOD_SPAN = 1 << 24   # far more than vflipq's .text

def in_module(a):
    return ko and mod_base is not None and mod_base <= a < mod_base + MOD_SPAN

def name(a, cache={}):
    if a in cache:
        return cache[a]
    if in_module(a):
        off = a - mod_base
        try:
            out = subprocess.run(['addr2line', '-f', '-i', '-s', '-j', '.text',
                                  '-e', ko, '%#x' % off], capture_output=True,
                                 text=True, timeout=60).stdout.split('\n')
            pairs = [f'{out[i]} ({out[i + 1]})' for i in range(0, len(out) - 1, 2)]
            n = f'vflipq+{off:#x} ' + ' < '.join(pairs)
        except (OSError, subprocess.SubprocessError):
            n = f'vflipq+{off:#x}'
    else:
        i = bisect.bisect_right(addrs, a) - 1
        if 0 <= i < len(syms) - 1 and a - syms[i][0] < 1 << 20:
            n = f'{syms[i][1]}+{a - syms[i][0]:#x}'
        else:
            n = None
    cache[a] = n
    return n

try:
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(2)
    s.connect(sock)
    hmp(s, '', 1)
    text = hmp(s, 'info cpus', 3)
    samples = []
    for k in range(SAMPLES):
        regs = hmp(s, 'info registers -a', 5)
        text += regs
        samples.append(re.findall(r'RIP=([0-9a-f]{16}) .*?RFL=([0-9a-f]+).*?CPL=(\d).*?HLT=(\d)',
                                  regs, re.S))
        time.sleep(0.3)
    rsps = re.findall(r'RSP=([0-9a-f]{16})', regs)
    stacks = []
    for cpu, rsp in enumerate(rsps):
        hmp(s, f'cpu {cpu}', 1)
        st = hmp(s, f'x /{STACK_WORDS}xg 0x{rsp}', 3)
        text += st
        stacks.append([int(w, 16) for w in re.findall(r'0x([0-9a-f]{16})', st)])
    hmp(s, 'nmi', 1)
except OSError as e:
    print(f'[vflipq] post-mortem: QEMU monitor: {e}')
    sys.exit(0)
open(dump, 'w').write(text)
if not samples or not samples[0]:
    print('[vflipq] post-mortem: no vCPU answered the monitor (QEMU itself stuck?)')
    sys.exit(0)
for cpu in range(len(samples[0])):
    seen = []
    for smp in samples:
        if cpu >= len(smp):
            continue
        rip, rfl, cpl, hlt = smp[cpu]
        if cpl != '0':
            n = 'user space'
        else:
            n = name(int(rip, 16)) or 'kernel, no symbols'
        if hlt == '1':
            n += ', halted'
        elif cpl == '0' and not int(rfl, 16) & 0x200:
            n += ', interrupts off'
        if n not in seen:
            seen.append(n)
    rip = samples[-1][cpu][0] if cpu < len(samples[-1]) else '?'
    print(f'[vflipq] post-mortem: vCPU {cpu} at {rip} ({"; ".join(seen)})')
    if cpu < len(stacks) and samples[-1][cpu][2] == '0' and samples[-1][cpu][3] != '1':
        for w in stacks[cpu]:
            if w >> 47 == 0x1ffff and (n := name(w)):
                print(f'[vflipq] post-mortem:   ? {n}')
print(f'[vflipq] post-mortem: registers ({SAMPLES} samples) and stacks in {dump}; NMI sent')
PY
}

# The post-mortem's one-line summary for the verdict.
vcpu_summary() {
	local l
	l=$(sed -n 's/^\[vflipq\] post-mortem: vCPU \([0-9]*\) at [0-9a-f]* (\(.*\))$/\1: \2/p' \
		"$resdir/console.log" 2>/dev/null | paste -sd ' ' -)
	[ -z "$l" ] || echo " (vCPUs $l)"
}

# Console silence limit: the guest runner prints at least every subtest
# timeout (+ kill grace), so a longer silence means the guest is wedged.
if [ "$job" = tests ] || [ "$job" = mutants ]; then
	silence=${VM_SILENCE_TIMEOUT:-$(( ${VFLIPQ_SUBTEST_TIMEOUT:-120} + 120 ))}
elif [ "$job" = igt ]; then
	silence=${VM_SILENCE_TIMEOUT:-$(( ${IGT_TIMEOUT:-120} + 120 ))}
else
	silence=${VM_SILENCE_TIMEOUT:-0}
fi
# One VM at a time per machine (VM_LOCK=0 to skip): two TCG guests on two
# cores starve each other's emulated timers and make paced tests miss vblanks.
# LOAD=hogs:N[,stall:MS:PERIOD]: what a busy CI runner does to the VM, on
# purpose.  The hogs are plain busy loops at QEMU's own priority, started
# with it and stopped with it.
hogs=0
if [ -n "${LOAD:-}" ]; then
	IFS=, read -ra load_parts <<<"$LOAD"
	for part in "${load_parts[@]}"; do
		case $part in
		hogs:*)
			hogs=${part#hogs:}
			[[ $hogs =~ ^[0-9]+$ ]] || die "LOAD=$LOAD: want hogs:N" ;;
		stall:*)
			VM_STALL=${part#stall:} ;;
		*)
			die "LOAD=$LOAD: want hogs:N[,stall:MS:PERIOD]" ;;
		esac
	done
fi
vm_lock
msg "booting $KVER ($job job, timeout ${VM_TIMEOUT}s); console: $resdir/console.log"
# (igt_runner's progress "[time] [n/N] binary (subtest)", and what it says
# when it kills a test or gives up.)
show_re='^(PASS|FAIL|SKIP|ABORT:?|REPEAT) |^VFLIPQ-MUTANT|^[0-9]+ passed, |^VFLIPQ-INIT|^(demo|igt): |^(\[ *[0-9.]+\] )?\[[0-9]+/[0-9]+\] |^(\[ *[0-9.]+\] )?(Per-test timeout exceeded|Inactivity timeout exceeded|Timeout\. Killing|Killing the test|Child refuses to die|Aborting)|Kernel panic|^run-tests: (timeout|kernel oops|\(re\)loading|reloading|modprobe)'
tboot=$(now_s)
# QEMU runs in the background writing into a FIFO, so that we know its pid and
# can stop it when interrupted or when the console goes silent
# (timeout --foreground: same process group, so Ctrl-C reaches QEMU too).
mkfifo "$work/console.fifo"
timeout --foreground -k 10 "$VM_TIMEOUT" "${qemu[@]}" </dev/null >"$work/console.fifo" 2>&1 &
qpid=$!
stall_pid="" hog_pids=""
# VM_STALL=MS:PERIOD: stop QEMU for MS milliseconds every PERIOD seconds, the
# way a busy host deschedules it.  The guest's clock runs on through the stop,
# so its timers fire late all at once: what a slower or shared CI machine
# does now and then, made to happen on purpose (igt/README.md, "Host stalls").
if [ -n "${VM_STALL:-}" ]; then
	[[ $VM_STALL =~ ^[0-9]+:[0-9.]+$ ]] || die "VM_STALL=$VM_STALL: want MS:PERIOD"
	(
		ms=${VM_STALL%%:*} period=${VM_STALL#*:} q=""
		while kill -0 $qpid 2>/dev/null; do
			[ -n "$q" ] || q=$(pgrep -P $qpid -x qemu-system-x86 || true)
			sleep "$period"
			[ -n "$q" ] || continue
			kill -STOP "$q" 2>/dev/null || break
			sleep "$(awk -v ms="$ms" 'BEGIN { print ms / 1000 }')"
			kill -CONT "$q" 2>/dev/null || break
		done
	) &
	stall_pid=$!
	msg "VM_STALL: QEMU stopped for ${VM_STALL%%:*} ms every ${VM_STALL#*:} s"
fi
# shellcheck disable=SC2086 # hog_pids: a list
trap 'kill $qpid $stall_pid $hog_pids 2>/dev/null || true; rm -rf "$work"' EXIT
# shellcheck disable=SC2086
trap 'kill $qpid $stall_pid $hog_pids 2>/dev/null || true; exit 130' INT TERM
for ((i = 0; i < hogs; i++)); do
	(exec bash -c 'while :; do :; done') &
	hog_pids+=" $!"
done
[ "$hogs" = 0 ] || msg "LOAD: $hogs CPU hog(s) beside the VM"
# postmortem WHY: vm_postmortem() into the console log and on stderr, then
# 20 s more of console for the guest's answer to the NMI.
postmortem() {
	local pm="[vflipq] $1: dumping the vCPUs, NMI to the guest"

	pm+=$'\n'$(vm_postmortem)
	printf '%s\n' "$pm" >&8
	printf '%s\n' "$pm" >&2
	silence=20
}
silent=0 silence0=$silence stall_line=""
stall_re='(rcu: INFO: .*detected stalls|watchdog: BUG: soft lockup|Watchdog detected hard LOCKUP)'
exec 8>"$resdir/console.log"
while :; do
	r=0
	if [ "$silence" -gt 0 ]; then
		IFS= read -r -t "$silence" line || r=$?
	else
		IFS= read -r line || r=$?
	fi
	if [ $r -gt 128 ] && [ $silent = 0 ]; then
		silent=1
		postmortem "no console output for ${silence}s"
		continue
	fi
	# After a stall report, 20 s of console for the NMI's answer, then off.
	if [ $r -gt 128 ] || { [ $silent = 2 ] && [ $((SECONDS - stall_t)) -ge 20 ]; }; then
		echo "[vflipq] stopping the VM" >&8
		echo "[vflipq] stopping the VM" >&2
		kill $qpid 2>/dev/null
		cat >/dev/null # drain until QEMU is gone
		break
	fi
	[ $r = 0 ] || [ -n "$line" ] || break
	line=${line%$'\r'}
	printf '%s\n' "$line" >&8
	# A CPU that stopped scheduling leaves the rest of the guest talking:
	# the kernel's own stall report starts the post-mortem at once.
	if [ $silent = 0 ] && [[ $line =~ $stall_re ]]; then
		silent=2
		postmortem "the guest reports a stalled CPU"
		stall_line=$line stall_t=$SECONDS
		continue
	fi
	if [ "${V:-0}" = 1 ] || [[ $line =~ $show_re ]]; then printf '%s\n' "$line"; fi
	[ $r = 0 ] || break
done <"$work/console.fifo"
exec 8>&-
set +e
wait $qpid
qrc=$?
[ -z "$stall_pid" ] || { kill "$stall_pid" 2>/dev/null; wait "$stall_pid" 2>/dev/null; }
set -e
[ $silent != 0 ] && qrc=124
vm_secs=$(elapsed "$tboot")
console=$resdir/console.log

# --- collect --------------------------------------------------------------------
gdir=$resdir
[ "$job" = demo ] && gdir=$OUT
mkdir -p "$gdir"
got_disk=0
if tar -tf "$work/disk.img" >/dev/null 2>&1 && [ -n "$(tar -tf "$work/disk.img" 2>/dev/null)" ]; then
	tar -xf "$work/disk.img" -C "$gdir" --no-same-owner && got_disk=1
fi
if [ $got_disk = 1 ] && [ -f "$gdir/dmesg.log" ]; then
	[ "$gdir" != "$resdir" ] && mv "$gdir/dmesg.log" "$resdir/dmesg.log"
else
	# Fall back to the console: dmesg between the markers, or every line when
	# the guest never got that far (quiet console: errors/oopses only).
	if grep -q '^VFLIPQ-DMESG-BEGIN' "$console"; then
		sed -n '/^VFLIPQ-DMESG-BEGIN/,/^VFLIPQ-DMESG-END/p' "$console" | sed '1d;/^VFLIPQ-DMESG-END/d' >"$resdir/dmesg.log"
	else
		cp "$console" "$resdir/dmesg.log"
	fi
fi
if [ "$gdir" != "$resdir" ] && [ -f "$gdir/job-rc" ]; then mv "$gdir/job-rc" "$resdir/job-rc"; fi

# The clients job's captures and logs, also under out/clients/.
if [ "$job" = clients ] && [ -d "$resdir/artifacts/clients" ]; then
	rm -rf "$OUT/clients"
	cp -r "$resdir/artifacts/clients" "$OUT/clients"
fi

# --- verdict --------------------------------------------------------------------
problems=()
if grep -q '^ABORT: ' "$console"; then
	echo "guest runner aborted: $(grep -m1 '^ABORT: ' "$console" | sed 's/^ABORT: //')"
fi
if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
	if [ $silent = 1 ]; then
		problems+=("hang: no console output for ${silence0}s$(vcpu_summary)")
	elif [ $silent = 2 ]; then
		problems+=("stall: ${stall_line#*] }$(vcpu_summary)")
	else
		problems+=("timeout: the VM did not finish within ${VM_TIMEOUT}s (hang?)")
	fi
elif [ "$qrc" != 0 ]; then
	problems+=("qemu exited with status $qrc")
fi
if grep -q 'Kernel panic' "$console"; then
	problems+=("guest kernel panic: $(grep -m1 'Kernel panic' "$console")")
fi
if ! grep -q '^VFLIPQ-DONE' "$console" && [ "$qrc" != 124 ]; then
	problems+=("the guest did not finish its job (no VFLIPQ-DONE on the console)")
fi
if grep -q '^VFLIPQ-INIT: failed to load' "$console"; then
	problems+=("$(grep -m1 '^VFLIPQ-INIT: failed to load' "$console" | sed 's/^VFLIPQ-INIT: //')")
fi
job_rc=$(sed -n 's/^VFLIPQ-JOB-END rc=//p' "$console" | tail -n1)
if [ "$job" != tests ] && [ -n "$job_rc" ] && [ "$job_rc" != 0 ]; then
	problems+=("the $job job exited with status $job_rc")
fi
# Kernel problems in dmesg, attributed to the subtest that was running
# (scripts/dmesg-problems.sh).
"$VFLIPQ_TOP/scripts/dmesg-problems.sh" "$resdir/dmesg.log" >"$resdir/dmesg-problems.txt"
# Problems inside a subtest already failed it ([dmesg-warn]) in the guest;
# anything else (boot, module load, between tests, other jobs) fails the run.
if [ "$job" = tests ] && grep -q '^VFLIPQ-DONE' "$console"; then
	outside=$(awk -F'\t' '$1 == "-" { print $2 }' "$resdir/dmesg-problems.txt")
else
	outside=$(cut -f2- "$resdir/dmesg-problems.txt")
fi
if [ -n "$outside" ]; then
	problems+=("kernel warnings in dmesg outside of subtests ($(wc -l <<<"$outside") lines, first: $(head -n1 <<<"$outside"))")
fi

pass=0 fail=0 skip=0
if [ "$job" = tests ] || [ "$job" = clients ]; then
	sumline=""
	# (|| true: no summary at all, e.g. after a guest panic, is reported below.)
	[ -f "$resdir/results.txt" ] && sumline=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$resdir/results.txt" | tail -n1 || true)
	[ -z "$sumline" ] && sumline=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$console" | tail -n1 || true)
	if [ -z "$sumline" ]; then
		problems+=("no summary line from the guest test runner")
		# Count whatever subtests did report.
		pass=$(grep -c '^PASS ' "$console" || true)
		fail=$(grep -c '^FAIL ' "$console" || true)
		skip=$(grep -c '^SKIP ' "$console" || true)
	else
		read -r pass _ fail _ skip _ <<<"${sumline//,/}"
	fi
	if [ $((pass + fail + skip)) = 0 ] && [ -z "${VFLIPQ_TESTS:-}" ]; then
		warn "no test binaries ran (build/igt/bin empty?)"
	fi
	if grep -q '^PASS .*\[flaky:' "$resdir/results.txt" 2>/dev/null; then
		echo "passed only on the retry (debug kernel, VFLIPQ_RETRY_FAILED):"
		grep -h '^PASS .*\[flaky:' "$resdir/results.txt"
	fi
	if [ "$fail" -gt 0 ]; then
		echo "failed subtests:"
		grep -h '^FAIL ' "$resdir/results.txt" 2>/dev/null || grep '^FAIL ' "$console" || true
		# Why, from the console (the last attempt's assertion lines: the
		# guest prints a failed subtest's stderr before its FAIL line).
		awk '/^run-tests: (starting|failure of) / { n = 0; next }
		     /CRITICAL: / && !/Test assertion failure function/ && n < 3 {
			sub(/^.*CRITICAL: /, ""); why[n++] = $0; next }
		     /^run-tests: .* failed; running it once more/ { n = 0; next }
		     /^FAIL / { for (i = 0; i < n; i++) print "  | " $2 ": " why[i]; n = 0 }' \
			"$console" | head -n 30
	fi
else
	[ ${#problems[@]} = 0 ] && pass=1
fi
for p in "${problems[@]}"; do
	echo "FAIL vm: $p"
	fail=$((fail + 1))
done
if [ -s "$resdir/dmesg-problems.txt" ]; then
	echo "kernel warnings (see $resdir/dmesg.log):"
	awk -F'\t' '{ print "  dmesg [" ($1 == "-" ? "no subtest" : $1) "]: " $2 }' "$resdir/dmesg-problems.txt" | head -n 20
fi

summary="$pass passed, $fail failed, $skip skipped"
echo "$summary" >"$resdir/summary.txt"
echo "results: $resdir (console.log, dmesg.log) [VM ${vm_secs}s, total $(elapsed "$t0")s]"
[ "$job" = clients ] && echo "clients output: $OUT/clients/ (PNGs, logs)"
if [ "$job" = demo ]; then
	echo "demo output:"
	for f in "$OUT/modetest.txt" "$OUT/writeback.png" "$OUT"/present*; do
		[ -f "$f" ] && echo "  $f"
	done
fi
echo "$summary"
[ "$fail" = 0 ]
