#!/bin/sh
# vflipq-trace-run: the guest side of "make trace" (busybox sh, in the VM).
# Records, with ftrace on the CLOCK_MONOTONIC clock (the clock of the
# flip queue's target and vblank times): vflipq's flip-queue events, the
# DRM core's drm_vblank_event, and the dma_fence events of the copy
# engine's jobs (timeline "copy-engine"), while the demo job
# (vflipq-demo: modetest, vflipq-capture, present-demo on a hybrid pair)
# runs.  The trace, in ftrace's text format, goes to /out/trace.txt; the
# host converts it (userspace/trace/).
#
# Env: PRESENT_DEMO_SECONDS (seconds per present-demo run, default 2),
#      TRACE_BUFFER_KB (ring buffer per CPU, default 32768).
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs tracefs $T || exit 1
echo 0 >$T/tracing_on
echo nop >$T/current_tracer
echo mono >$T/trace_clock || exit 1
echo "${TRACE_BUFFER_KB:-32768}" >$T/buffer_size_kb
: >$T/trace
enable() { # event-dir [filter]
	[ -d "$T/events/$1" ] || { echo "trace: no event $1 in this kernel"; return 1; }
	[ -n "${2:-}" ] && { echo "$2" >"$T/events/$1/filter" || return 1; }
	echo 1 >"$T/events/$1/enable"
}
rc=0
enable vflipq || rc=1
enable drm/drm_vblank_event || rc=1
for e in dma_fence_init dma_fence_signaled; do
	enable dma_fence/$e 'timeline == "copy-engine"' || rc=1
done
[ $rc = 0 ] || exit 1
echo 1 >$T/tracing_on
PRESENT_DEMO_SECONDS=${PRESENT_DEMO_SECONDS:-2} vflipq-demo
drc=$?
echo 0 >$T/tracing_on
cat $T/trace >/out/trace.txt
# Lost events would leave PresentIds without an end.
lost=$(awk '/entries-in-buffer/ { print $0 }' /out/trace.txt)
echo "trace: $(grep -c ': vflipq_' /out/trace.txt) vflipq events, $(grep -c drm_vblank_event /out/trace.txt) vblank events, $(grep -c dma_fence_ /out/trace.txt) copy-engine fence events; $lost"
grep -q 'overrun: [1-9]' $T/per_cpu/cpu*/stats && { echo "trace: ring buffer overrun"; rc=1; }
[ $drc = 0 ] || rc=1
exit $rc
