# SPDX-License-Identifier: MIT
"""Write a trace Perfetto's UI (ui.perfetto.dev) opens: the guest's ftrace
text, with the flip queue's story added as atrace marks
(tracing_mark_write lines, which Perfetto's systrace importer turns into
tracks) under one pseudo process, "vflipq":

- "vblanks CRTC N": an instant per drm_vblank_event of that CRTC (see
  ftrace_events.crtc_vblanks() for how they are told apart);
- "flipq crtc C plane P": a slice per PresentId from FLIPQ_SUBMIT
  (vflipq_flip_queue) to the vblank that showed it (vflipq_flip_show's
  timestamp) or to its cancellation (a log entry with the cancelled mark);
- "copy engine": a slice per DRM_IOCTL_VFLIPQ_COPY job, from its fence's
  creation to its signal (dma_fence_init/_signaled on "copy-engine").

The original event lines stay in the file (Perfetto lists them in its
ftrace events table)."""

PID = 99999  # the pseudo process the marks belong to


def _mark(t, text):
    return (t, "          vflipq-%d   [000] .....  %.6f: tracing_mark_write: %s" % (
        PID, t, text))


def marks(tl):
    out = []
    for crtc, vbs in tl.vblanks.items():
        for t, seq in vbs:
            out.append(_mark(t, "N|%d|vblanks %s|vblank %d" % (PID, crtc, seq)))
    for cookie, p in enumerate(tl.presents, 1):
        crtc, plane, pid = p["key"]
        track = "flipq crtc %d plane %d" % (crtc, plane)
        out.append(_mark(p["queued"], "G|%d|%s|PresentId %d %s|%d" % (
            PID, track, pid, p["how"], cookie)))
        if p["end"] is not None:
            out.append(_mark(max(p["end"], p["queued"]), "H|%d|%s|%d" % (PID, track, cookie)))
    # Cookies unique in the whole file, not only per track.
    for cookie, c in enumerate(tl.copies, len(tl.presents) + 1):
        ctx, seqno = c["key"]
        out.append(_mark(c["queued"], "G|%d|copy engine|copy %d:%d|%d" % (
            PID, ctx, seqno, cookie)))
        if c["end"] is not None:
            out.append(_mark(c["end"], "H|%d|copy engine|%d" % (PID, cookie)))
    return out


def write(tl, header, path):
    """header: the trace's "#" lines; events sorted by time, marks added."""
    lines = sorted(tl.lines + marks(tl), key=lambda x: x[0])
    with open(path, "w") as f:
        f.write("".join(h if h.endswith("\n") else h + "\n" for h in header))
        for _, line in lines:
            f.write(line + "\n")
