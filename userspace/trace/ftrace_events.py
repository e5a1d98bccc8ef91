# SPDX-License-Identifier: MIT
"""Read an ftrace text trace (the guest's /sys/kernel/tracing/trace with
trace_clock mono) into what "make trace" shows: vblanks per CRTC, every
PresentId from queued to shown or cancelled, the copy engine's jobs."""
import re

LINE = re.compile(r"^\s*(?P<task>.+?)-(?P<pid>\d+)\s+(?:\(\s*[\d-]+\)\s+)?"
                  r"\[(?P<cpu>\d+)\]\s+(?:\S{4,6}\s+)?(?P<ts>\d+\.\d+):\s+"
                  r"(?P<event>\w+):\s+(?P<args>.*)$")
FIELD = re.compile(r"(\w+)=([^ ,]+)")
# ts of a vflipq_log_update for a PresentId that was cancelled
CANCELLED_TS = 2 ** 64 - 1


def parse(lines):
    """Yield (line, ts_seconds, event, fields) for each event line."""
    for line in lines:
        if line.startswith("#"):
            continue
        m = LINE.match(line.rstrip("\n"))
        if m:
            yield (line.rstrip("\n"), float(m.group("ts")), m.group("event"),
                   dict(FIELD.findall(m.group("args"))))


def crtc_vblanks(raw, shown_at):
    """{label: [(t, seq)]}, one entry per CRTC.  drm_vblank_event only names
    the CRTC's index on its device (pipe 0 of every device is "crtc=0"), so
    its events are split by vblank counter: each CRTC counts from when its
    vblanks were first enabled, and its counter never runs ahead of time=
    (at most one step per period; after the display engine slept it may
    count fewer: 3 steps for 5.4 periods were seen).  An event continues,
    among the counters of its pipe that are below it and not ahead of
    time (two periods of slack), the one that ticked last (a device
    created later can count through values an idle one stopped at); a counter is named after the CRTC whose
    vflipq_flip_show carried one of its timestamps (ts= is that vblank's
    timestamp, to the nanosecond)."""
    grids = []  # [pipe, [(t, seq, time_ns)], period_ns]
    for pipe, seq, tns, t in sorted(raw, key=lambda v: v[2]):
        best, best_dt = None, None
        for g in grids:
            gpipe, ev, period = g
            _, lseq, ltns = ev[-1]
            n, dt = seq - lseq, tns - ltns
            if gpipe != pipe or n < 1 or dt <= 0:
                continue
            if period is None:
                # A second event fixes the period: the next vblank.
                fits = n == 1 and 1000000 < dt < 200000000
            else:
                fits = n * period <= dt + 2 * period
            if fits and (best_dt is None or dt < best_dt):
                best, best_dt = g, dt
        if best is None:
            grids.append([pipe, [(t, seq, tns)], None])
            continue
        if best[2] is None:
            best[2] = tns - best[1][-1][2]
        best[1].append((t, seq, tns))
    out = {}
    for pipe, ev, _ in grids:
        crtcs = sorted({shown_at[tns] for _, _, tns in ev if tns in shown_at})
        label = ("CRTC %s" % "/".join(map(str, crtcs)) if crtcs
                 else "pipe %d (no flip-queue flip)" % pipe)
        # Object ids repeat across devices: the same name again is another
        # device's CRTC.
        n, base = 2, label
        while label in out:
            label = "%s, device %d" % (base, n)
            n += 1
        # At the vblank timestamp, not when the event was traced.
        out[label] = [(tns / 1e9, seq) for _, seq, tns in ev]
    return out


class Timeline:
    """vblanks: {CRTC label: [(t, seq)]}; presents: [dict(key, queued, end, how,
    target)], how = "shown" | "cancelled" | "open"; copies: [dict(key,
    queued, end)].  Times in seconds of CLOCK_MONOTONIC."""

    def __init__(self, lines):
        self.vblanks, self.presents, self.copies = {}, [], []
        self.lines = []
        self.errors = []
        open_p, open_c = {}, {}
        # vflipq_flip_queue is traced after the submission's lock drops: an
        # immediate flip can be shown (or a log entry written) before it.
        early = {}
        raw_vblanks, shown_at = [], {}
        for line, t, ev, f in parse(lines):
            self.lines.append((t, line))
            if ev == "drm_vblank_event":
                raw_vblanks.append((int(f["crtc"]), int(f["seq"]), int(f["time"]), t))
            elif ev == "vflipq_flip_queue":
                key = (int(f["crtc"]), int(f["plane"]), int(f["present_id"]))
                p = {"key": key, "queued": t, "end": None, "how": "open",
                     "target": int(f["target"]) / 1e9}
                self.presents.append(p)
                if key in early:
                    p["end"], p["how"] = early.pop(key)
                else:
                    open_p[key] = p
            elif ev == "vflipq_flip_show" or (ev == "vflipq_log_update" and
                                              int(f["ts"]) == CANCELLED_TS):
                key = (int(f["crtc"]), int(f["plane"]), int(f["present_id"]))
                end = ((int(f["ts"]) / 1e9, "shown") if ev == "vflipq_flip_show"
                       else (t, "cancelled"))
                if ev == "vflipq_flip_show":
                    shown_at[int(f["ts"])] = key[0]
                p = open_p.pop(key, None)
                if p:
                    p["end"], p["how"] = end
                else:
                    early[key] = end
            elif ev == "dma_fence_init":
                c = {"key": (int(f["context"]), int(f["seqno"])), "queued": t, "end": None}
                open_c[c["key"]] = c
                self.copies.append(c)
            elif ev == "dma_fence_signaled":
                c = open_c.pop((int(f["context"]), int(f["seqno"])), None)
                if c:
                    c["end"] = t
        self.vblanks = crtc_vblanks(raw_vblanks, shown_at)
        self.lines.sort(key=lambda x: x[0])
        if self.lines:
            self.t0, self.t1 = self.lines[0][0], self.lines[-1][0]
        else:
            self.t0 = self.t1 = 0.0

    def summary(self):
        n = {h: sum(1 for p in self.presents if p["how"] == h)
             for h in ("shown", "cancelled", "open")}
        return ("%d vblanks on %d CRTC(s), %d PresentIds (%d shown, %d cancelled, %d still "
                "queued at the end), %d copy jobs" % (
                    sum(len(v) for v in self.vblanks.values()), len(self.vblanks),
                    len(self.presents), n["shown"], n["cancelled"], n["open"],
                    len(self.copies)))
