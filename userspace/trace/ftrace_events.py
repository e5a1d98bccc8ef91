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


class Timeline:
    """vblanks: {pipe: [(t, seq)]}; presents: [dict(key, queued, end, how,
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
        for line, t, ev, f in parse(lines):
            self.lines.append((t, line))
            if ev == "drm_vblank_event":
                self.vblanks.setdefault(int(f["crtc"]), []).append((t, int(f["seq"])))
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
        self.lines.sort(key=lambda x: x[0])
        if self.lines:
            self.t0, self.t1 = self.lines[0][0], self.lines[-1][0]
        else:
            self.t0 = self.t1 = 0.0

    def summary(self):
        n = {h: sum(1 for p in self.presents if p["how"] == h)
             for h in ("shown", "cancelled", "open")}
        return ("%d vblanks on %d pipe(s), %d PresentIds (%d shown, %d cancelled, %d still "
                "queued at the end), %d copy jobs" % (
                    sum(len(v) for v in self.vblanks.values()), len(self.vblanks),
                    len(self.presents), n["shown"], n["cancelled"], n["open"],
                    len(self.copies)))
