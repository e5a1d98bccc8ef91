#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Host test of the "make trace" converter on a hand-written ftrace text:
PresentIds matched from queue to show or cancel (an immediate flip shown
before its queue event included), copy jobs from fence init to signal,
vblanks per pipe, and the atrace marks Perfetto reads."""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ftrace_events  # noqa: E402
import perfetto  # noqa: E402

TRACE = """\
# tracer: nop
#
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
          <idle>-0       [000] d.h2.   10.000000: drm_vblank_event: crtc=0, seq=100, time=10000000000, high-prec=true
    present-demo-321     [001] .....   10.001000: vflipq_flip_queue: crtc=51 plane=33 present_id=1 target=10010000000 mode=0
    present-demo-321     [001] .....   10.002000: vflipq_flip_queue: crtc=51 plane=33 present_id=2 target=10026000000 mode=0
    present-demo-321     [001] .....   10.003000: dma_fence_init: driver=vflipq timeline=copy-engine context=7 seqno=1
   kworker/u4:1-55       [000] .....   10.004000: dma_fence_signaled: driver=vflipq timeline=copy-engine context=7 seqno=1
    present-demo-321     [001] .....   10.005000: sched_switch: prev_comm=x prev_pid=1 next_comm=y next_pid=2
          <idle>-0       [000] d.h2.   10.016667: vflipq_flip_show: crtc=51 plane=33 present_id=1 ts=10016667000 seq=101
          <idle>-0       [000] d.h2.   10.016668: drm_vblank_event: crtc=0, seq=101, time=10016667000, high-prec=true
    present-demo-321     [001] .....   10.017000: vflipq_log_update: crtc=51 plane=33 [1] present_id=2 ts=18446744073709551615 (cancelled)
    present-demo-321     [001] d..1.   10.020000: vflipq_flip_show: crtc=52 plane=40 present_id=5 ts=10019000000 seq=7
    present-demo-321     [001] .....   10.020100: vflipq_flip_queue: crtc=52 plane=40 present_id=5 target=0 mode=1
    present-demo-321     [001] .....   10.021000: vflipq_flip_queue: crtc=52 plane=40 present_id=6 target=0 mode=0
          <idle>-0       [001] d.h2.   10.033334: drm_vblank_event: crtc=1, seq=5, time=10033334000, high-prec=true
"""

passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL %s" % what, file=sys.stderr)


def main():
    tl = ftrace_events.Timeline(TRACE.splitlines(True))
    # Pipe 0's time= 10016667000 is the vblank that showed CRTC 51's flip.
    check(sorted(tl.vblanks) == ["CRTC 51", "pipe 1 (no flip-queue flip)"],
          "vblank rows %r" % sorted(tl.vblanks))
    check([s for _, s in tl.vblanks.get("CRTC 51", [])] == [100, 101], "CRTC 51 seqs")
    got = {p["key"]: (p["how"], p["end"]) for p in tl.presents}
    check(len(tl.presents) == 4, "%d PresentIds" % len(tl.presents))
    check(got.get((51, 33, 1)) == ("shown", 10.016667), "id 1: %r" % (got.get((51, 33, 1)),))
    check(got.get((51, 33, 2)) == ("cancelled", 10.017), "id 2: %r" % (got.get((51, 33, 2)),))
    # Shown before its queue event was traced: still one shown PresentId.
    check(got.get((52, 40, 5)) == ("shown", 10.019), "id 5: %r" % (got.get((52, 40, 5)),))
    check(got.get((52, 40, 6)) == ("open", None), "id 6: %r" % (got.get((52, 40, 6)),))
    check([(c["key"], c["queued"], c["end"]) for c in tl.copies] ==
          [((7, 1), 10.003, 10.004)], "copies %r" % tl.copies)

    # Two devices' pipe 0: B is created while A is idle and counts through
    # values A stopped at; A ticks again 29 counts later after a pause.
    vb = [(20.0, 20), (20.016667, 21), (20.5, 19), (20.516667, 20), (20.533334, 21),
          (20.55, 22), (20.6, 50), (20.616667, 51)]
    two = ftrace_events.Timeline(
        ["  <idle>-0  [000] d.h2.  %.6f: drm_vblank_event: crtc=0, seq=%d, time=%d, "
         "high-prec=true\n" % (t, q, round(t * 1e9)) for t, q in sorted(vb)])
    check(sorted(len(v) for v in two.vblanks.values()) == [4, 4] and
          sorted([q for _, q in v] for v in two.vblanks.values()) ==
          [[19, 20, 21, 22], [20, 21, 50, 51]], "two devices' counters %r" % two.vblanks)

    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "t.systrace")
        perfetto.write(tl, [l for l in TRACE.splitlines(True) if l.startswith("#")], path)
        out = open(path).read().splitlines()
    marks = [l.split("tracing_mark_write: ", 1)[1] for l in out if "tracing_mark_write" in l]
    check(out[0] == "# tracer: nop", "header kept")
    check(sum(1 for l in out if "tracing_mark_write" not in l and not l.startswith("#")) == 13,
          "every original event kept")
    ts = [float(re.search(r"\s(\d+\.\d+):", l).group(1)) for l in out if not l.startswith("#")]
    check(ts == sorted(ts), "lines in time order")
    check(sum(m.startswith("N|99999|vblanks ") for m in marks) == 3, "vblank instants")
    begins = {m.split("|")[-1]: m for m in marks if m.startswith("G|")}
    ends = {m.split("|")[-1]: m for m in marks if m.startswith("H|")}
    check(len(begins) == 5 and len(ends) == 4, "G/H %d/%d" % (len(begins), len(ends)))
    check(all(begins[c].split("|")[2] == e.split("|")[2] for c, e in ends.items()),
          "every slice ends on its own track")
    check("G|99999|flipq crtc 51 plane 33|PresentId 2 cancelled|2" in marks, "cancel slice")
    check("G|99999|copy engine|copy 7:1|5" in marks, "copy slice")
    print("trace: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
