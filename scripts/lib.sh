# shellcheck shell=bash
# Common helpers for the vflipq build/test scripts.  Source it; do not run it.

VFLIPQ_TOP=${VFLIPQ_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
VFLIPQ_CACHE=${VFLIPQ_CACHE:-${HOME:-/root}/.cache/vflipq}
export VFLIPQ_TOP VFLIPQ_CACHE

msg()  { printf '[vflipq] %s\n' "$*" >&2; }
warn() { printf '[vflipq] warning: %s\n' "$*" >&2; }
die()  { printf '[vflipq] error: %s\n' "$*" >&2; exit 1; }

# as_root CMD...: run CMD as root (sudo when not root).
as_root() {
	if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# now_s: seconds since the epoch with sub-second precision.
now_s() { date +%s.%N; }
# elapsed START: seconds since START (from now_s), one decimal.
elapsed() { awk -v s="$1" -v e="$(now_s)" 'BEGIN { printf "%.1f", e - s }'; }

# Run "$@" holding an exclusive lock on $VFLIPQ_CACHE/<name>.lock so that
# concurrent builds sharing the cache do not step on each other.
with_cache_lock() {
	local name=$1; shift
	mkdir -p "$VFLIPQ_CACHE"
	(
		flock -w 1800 9 || die "timed out waiting for $VFLIPQ_CACHE/$name.lock"
		"$@"
	) 9>"$VFLIPQ_CACHE/$name.lock"
}

# vm_lock: hold $VFLIPQ_CACHE/vm.lock (fd 7) for the rest of the script,
# unless VM_LOCK=0: one VM run at a time per machine (scripts/vm-run.sh).
vm_lock() {
	[ "${VM_LOCK:-1}" = 1 ] || return 0
	mkdir -p "$VFLIPQ_CACHE"
	exec 7>"$VFLIPQ_CACHE/vm.lock"
	if ! flock -n 7; then
		msg "waiting for another VM run ($VFLIPQ_CACHE/vm.lock)"
		flock -w "${VM_LOCK_WAIT:-3600}" 7 || die "timed out waiting for $VFLIPQ_CACHE/vm.lock"
	fi
}

# apt_ready: make sure apt's package lists exist (apt-get update once if the
# lists are empty).  Called before apt-cache look-ups.
apt_lists_present() {
	compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null
}
apt_update() {
	msg "apt-get update"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get -q -o DPkg::Lock::Timeout=600 update >&2
}
apt_ready() {
	apt_lists_present || apt_update
}

# QEMU's accelerator and CPU model for every test VM (scripts/vm-run.sh,
# scripts/boot-soak.sh).  TCG runs the vCPUs in one host thread
# (thread=single): with one thread per vCPU (MTTCG, QEMU 7.2's default for
# x86) a vCPU can go on executing a stale translation of kernel text that
# another vCPU has just patched (static keys, static calls: the kernel's int3
# protocol, text_poke_bp(), is correct on hardware), and the guest dies of
# "Oops: int3" at a patch site (Documentation/vflipq/testing.rst, "The test VM").  VM_TCG_THREAD=multi
# and VM_CPU=... override them (e.g. to reproduce that).
vm_accel() { echo "tcg,thread=${VM_TCG_THREAD:-single}"; }
vm_cpu() { echo "${VM_CPU:-max}"; }
# vm_smp CONFIG: QEMU's -smp for a kernel whose .config is CONFIG.  Kernels
# built without ACPI (scripts/source-kernel.sh: debug, 7.x) get one socket
# per CPU: their CPUs come from SeaBIOS' MP table, which lists one per package.
vm_smp() {
	local smp=${VM_SMP:-2}
	if [[ $smp =~ ^[0-9]+$ ]] && ! grep -qs '^CONFIG_ACPI=y' "$1"; then
		smp+=",sockets=$smp,cores=1,threads=1"
	fi
	echo "$smp"
}
# The guest kernel command line every test VM starts from.  no_timer_check:
# at boot the kernel checks that the PIT's interrupt reaches the CPU through
# the IO-APIC by counting more than 4 ticks within 40e9/HZ TSC cycles (about
# 60 ms of host time); under TCG the TSC is the host's, so a QEMU that the
# loaded host does not run for that long sees too few ticks on every route it
# tries and panics: "IO-APIC + timer doesn't work!"
# (Documentation/vflipq/testing.rst, "The test VM").  Guests of KVM,
# Hyper-V and VMware skip the check for that reason.
# shellcheck disable=SC2034 # used by the scripts that source this file
VM_BASE_APPEND="console=ttyS0 panic=-1 quiet loglevel=4 log_buf_len=16M printk.devkmsg=on no_timer_check"
