#!/bin/bash
# Host test of scripts/dmesg-problems.sh, the VM harness's reading of the
# guest's kernel log: real reports are found and attributed to the running
# subtest; a task dump asked for through sysrq (igt_runner's, when a test
# exceeds its time) is not a report.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
expect() { # NAME WANT: the classifier's output for $tmp/log must be WANT
	local got
	got=$("$top/scripts/dmesg-problems.sh" "$tmp/log")
	if [ "$got" = "$2" ]; then
		pass=$((pass + 1))
	else
		echo "FAIL dmesg-problems: $1: got"; echo "$got"; echo "want"; echo "$2"
		fail=$((fail + 1))
	fi
}
T=$(printf '\t')

cat >"$tmp/log" <<'L'
[    4.36] vflipq-run-tests: starting kms_x@a
[    4.37] WARNING: CPU: 0 PID: 12 at drivers/gpu/drm/drm_framebuffer.c:1173 drm_framebuffer_remove+0x4ae/0x540 [drm]
[    4.38] Call Trace:
[    4.39] vflipq-run-tests: finished kms_x@a
[    5.00] BUG: kernel NULL pointer dereference, address: 0000000000000000
L
expect "a WARN in a subtest, a BUG outside" "kms_x@a${T}[    4.37] WARNING: CPU: 0 PID: 12 at drivers/gpu/drm/drm_framebuffer.c:1173 drm_framebuffer_remove+0x4ae/0x540 [drm]
kms_x@a${T}[    4.38] Call Trace:
-${T}[    5.00] BUG: kernel NULL pointer dereference, address: 0000000000000000"

cat >"$tmp/log" <<'L'
[ 1641.55] [IGT] Per-test timeout exceeded. Killing the current test with SIGQUIT.
[ 1641.56] sysrq: Show State
[ 1641.57] task:init            state:S stack:0     pid:1     tgid:1     ppid:0
[ 1641.58] Call Trace:
[ 1641.59]  <TASK>
[ 1641.60] task:kworker/u8:2    state:D stack:0     pid:34    tgid:34    ppid:2
[ 1641.61] Workqueue: events_unbound commit_work [drm_kms_helper]
[ 1641.62] Call Trace:
[ 1641.63] sysrq: Show backtrace of all active CPUs
[ 1641.64] NMI backtrace for cpu 1
[ 1641.65] CPU: 1 UID: 0 PID: 0 Comm: swapper/1
[ 1641.66] Call Trace:
L
expect "a requested sysrq dump" ""

cat >"$tmp/log" <<'L'
[  100.00] sysrq: Show Blocked State
[  200.00] INFO: task kworker/0:1:12 blocked for more than 120 seconds.
[  200.01] task:kworker/0:1     state:D stack:0     pid:12
[  200.02] Call Trace:
[  300.00] WARNING: CPU: 1 PID: 40 at lib/refcount.c:28 refcount_warn_saturate+0x9a/0x120
[  300.01] Call Trace:
L
expect "reports after a dump still count" "-${T}[  200.00] INFO: task kworker/0:1:12 blocked for more than 120 seconds.
-${T}[  200.02] Call Trace:
-${T}[  300.00] WARNING: CPU: 1 PID: 40 at lib/refcount.c:28 refcount_warn_saturate+0x9a/0x120
-${T}[  300.01] Call Trace:"

cat >"$tmp/log" <<'L'
[    0.50] KFENCE: initialized - using 2097152 bytes for 255 objects
[    0.60] task:init            state:S stack:0     pid:1
[    0.61] Call Trace:
L
expect "a Call Trace without a requested dump" "-${T}[    0.61] Call Trace:"

cat >"$tmp/log" <<'L'
[  256.96] vflipq-run-tests: starting vflipq_fuzz@short
[  279.34] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:
[  279.35] rcu: 	1-...0: (1 GPs behind) idle=928c/1/0x4000000000000000 softirq=33320/33321 fqs=1002
[  300.00] watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [kworker/1:2:57]
L
expect "a CPU that stalls RCU or locks up" "vflipq_fuzz@short${T}[  279.34] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:
vflipq_fuzz@short${T}[  300.00] watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [kworker/1:2:57]"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
