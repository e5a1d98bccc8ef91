#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The host side of "make trace": the guest's ftrace text -> a trace
Perfetto's UI opens and the timeline picture.

  convert.py TRACE.txt OUT.systrace OUT.png

Exit status 1 when the trace lacks what it must show (flip-queue events,
vblanks, a PresentId that was shown)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "plot"))
import ftrace_events  # noqa: E402
import perfetto  # noqa: E402
import trace_timeline  # noqa: E402


def main():
    src, systrace, png = sys.argv[1:4]
    with open(src, errors="replace") as f:
        text = f.readlines()
    tl = ftrace_events.Timeline(text)
    print("trace: %s" % tl.summary())
    perfetto.write(tl, [h for h in text if h.startswith("#")], systrace)
    print("trace: %s (open it in https://ui.perfetto.dev)" % systrace)
    trace_timeline.plot(tl, png)
    shown = sum(1 for p in tl.presents if p["how"] == "shown")
    if not tl.vblanks or not shown:
        print("trace: no vblank or no shown PresentId recorded", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
