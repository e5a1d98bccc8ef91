#!/bin/bash
# Boot the test kernel N times to a minimal /init and power off; report every
# boot that did not get there cleanly, with its console log.
#
#   scripts/boot-soak.sh [--kernel SERIES] N
#
# The VM is the test VM of scripts/vm-run.sh (same QEMU CPU model, memory,
# CPUs and kernel command line) with a busybox-only initramfs whose /init
# (scripts/guest/soak-init) waits until the guest's uptime reaches
# SOAK_UPTIME (s, default 4: past the late boot work), checks dmesg with the
# harness' patterns and powers off.  SOAK_TOGGLES=N (default 0) makes /init
# first patch kernel text under a running CPU: N rounds of static-key flips
# while CPU 1 forks nonstop (the cross-modifying-code test: red within a few
# hundred rounds with VM_TCG_THREAD=multi, see scripts/lib.sh).  A boot fails on: no VFLIPQ-SOAK-DONE on
# the console, a kernel problem in dmesg or on the console (panic, Oops,
# double fault, WARNING, ...), QEMU exiting non-zero, or BOOT_TIMEOUT (s,
# default 180).  No boot is retried.
#
# Env: SOAK_VMLINUZ (boot this kernel image instead of SERIES'),
# VM_CPU (QEMU -cpu, default: scripts/lib.sh's vm_cpu), VM_MEM, VM_SMP,
# VM_APPEND, VM_LOCK (default 1: each boot waits for other VM runs, like
# vm-run.sh, so that a soak interleaves with them instead of starving them).
# Output: out/boot-soak/<date>-<kver>/{boots.txt,fail-NNN.log,summary.txt};
# the last line is "N passed, M failed, 0 skipped" (one test per boot).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

series=${KERNEL:-6.12}
while [ $# -gt 1 ]; do
	case $1 in
	--kernel) series=$2; shift 2 ;;
	*) die "unknown argument $1" ;;
	esac
done
n=${1:?usage: $0 [--kernel SERIES] N}
[[ $n =~ ^[0-9]+$ ]] && [ "$n" -gt 0 ] || die "N=$n: not a positive number"
BUILD=${BUILD:-$VFLIPQ_TOP/build}
OUT=${OUT:-$VFLIPQ_TOP/out}
BOOT_TIMEOUT=${BOOT_TIMEOUT:-180}
SOAK_UPTIME=${SOAK_UPTIME:-4}
SOAK_TOGGLES=${SOAK_TOGGLES:-0}
[[ $SOAK_TOGGLES =~ ^[0-9]+$ ]] || die "SOAK_TOGGLES=$SOAK_TOGGLES: not a number"
if [ -n "${SOAK_VMLINUZ:-}" ]; then
	# Any kernel image (the initramfs needs no module of it).
	[ -f "$SOAK_VMLINUZ" ] || die "SOAK_VMLINUZ=$SOAK_VMLINUZ not found"
	VMLINUZ=$SOAK_VMLINUZ KVER=$(basename "$SOAK_VMLINUZ" | sed 's/^vmlinuz-//') KSERIES=
	KCONFIG=$(dirname "$SOAK_VMLINUZ")/config-$KVER
else
	eval "$("$VFLIPQ_TOP/scripts/kernel.sh" env "$series")"
	KCONFIG=$KROOT/boot/config-$KVER
fi

resdir=$OUT/boot-soak/$(date +%Y%m%d-%H%M%S)-$KVER
mkdir -p "$resdir" "$BUILD"
work=$(mktemp -d "$BUILD/soak.XXXXXX")
trap 'rm -rf "$work"' EXIT

# --- initramfs: busybox and /init ---------------------------------------------
r=$work/root
mkdir -p "$r"/{bin,dev,proc,sys,tmp}
BUSYBOX=/bin/busybox
[ -x $BUSYBOX ] || BUSYBOX=$(command -v busybox) || die "busybox not found (apt install busybox-static)"
cp "$BUSYBOX" "$r/bin/busybox"
for a in sh mount cat cut sed grep sleep dmesg poweroff reboot nproc taskset kill true; do ln -s busybox "$r/bin/$a"; done
install -m 755 "$VFLIPQ_TOP/scripts/guest/soak-init" "$r/init"
install -D -m 644 "$VFLIPQ_TOP/scripts/guest/dmesg-patterns" "$r/etc/vflipq/dmesg-patterns"
mknod -m 600 "$r/dev/console" c 5 1
(cd "$r" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$work/initramfs.cpio"

append="$VM_BASE_APPEND vflipq_soak_uptime=$SOAK_UPTIME vflipq_soak_toggles=$SOAK_TOGGLES"
smp=$(vm_smp "$KCONFIG")
[ "${KSERIES:-}" = debug ] && append+=" loglevel=5 kasan.fault=panic vflipq_debug_kernel=1"
append+=" ${VM_APPEND:-}"
qemu=(qemu-system-x86_64 -accel "$(vm_accel)" -cpu "$(vm_cpu)" -nodefaults -display none
	-serial stdio -monitor none -no-reboot -m "${VM_MEM:-2G}" -smp "$smp"
	-kernel "$VMLINUZ" -initrd "$work/initramfs.cpio" -append "$append")
echo "${qemu[*]}" >"$resdir/qemu-cmdline.txt"
msg "boot-soak: $n boots of $KVER, -accel $(vm_accel) -cpu $(vm_cpu); results in $resdir"

problem_re='Kernel panic|Oops|double fault|(^|[^A-Za-z_])BUG([^A-Za-z_]|$)|WARNING:|Call Trace|general protection fault|VFLIPQ-SOAK-DMESG-BEGIN'
fails=0 total=0 t0=$(now_s)
if [ "${VM_LOCK:-1}" = 1 ]; then exec 7>"$VFLIPQ_CACHE/vm.lock"; fi
for i in $(seq 1 "$n"); do
	log=$work/console.log
	if [ "${VM_LOCK:-1}" = 1 ]; then
		flock -w "${VM_LOCK_WAIT:-3600}" 7 || die "timed out waiting for $VFLIPQ_CACHE/vm.lock"
	fi
	tb=$(now_s)
	set +e
	timeout -k 10 "$BOOT_TIMEOUT" "${qemu[@]}" </dev/null >"$log" 2>&1
	qrc=$?
	set -e
	secs=$(elapsed "$tb")
	[ "${VM_LOCK:-1}" = 1 ] && flock -u 7
	why=""
	if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
		why="timeout after ${BOOT_TIMEOUT}s"
	elif [ "$qrc" != 0 ]; then
		why="qemu exited with status $qrc"
	fi
	p=$(tr -d '\r' <"$log" | grep -E -m1 "$problem_re" || true)
	[ -n "$p" ] && why="${why:+$why; }$p"
	grep -q '^VFLIPQ-SOAK-DONE' "$log" || why="${why:+$why; }no VFLIPQ-SOAK-DONE"
	init=$(sed -n 's/^VFLIPQ-SOAK-INIT \([0-9.]*\).*/\1/p' "$log" | head -n1)
	total=$((total + 1))
	if [ -n "$why" ]; then
		fails=$((fails + 1))
		f=$(printf 'fail-%03d.log' "$i")
		tr -d '\r' <"$log" >"$resdir/$f"
		printf '%d FAIL %ss init@%s %s (%s)\n' "$i" "$secs" "${init:--}" "$f" "$why" | tee -a "$resdir/boots.txt"
	else
		printf '%d ok %ss init@%s\n' "$i" "$secs" "${init:--}" >>"$resdir/boots.txt"
		[ $((i % 10)) = 0 ] && msg "boot $i/$n: $fails failed so far ($(elapsed "$t0")s)"
	fi
done
# Numbers, not strings ("9.9" sorts after "16.1").
times=$(awk '{ sub(/s$/, "", $3); v = $3 + 0; s += v; if (v > m) m = v }
	END { if (NR) printf "%.1f s a boot (at most %.1f s)", s / NR, m }' "$resdir/boots.txt")
summary="boot-soak: $total boots of $KVER (-accel $(vm_accel) -cpu $(vm_cpu)), $fails failed; $times, $(elapsed "$t0") s in all"
echo "$summary" | tee "$resdir/summary.txt"
[ $fails = 0 ] || echo "failed boots: $resdir/fail-*.log"
echo "$((total - fails)) passed, $fails failed, 0 skipped"
[ $fails = 0 ]
