# SPDX-License-Identifier: MIT
"""trace-timeline.png of "make trace": the vblanks of each CRTC, each
PresentId from queued to shown or cancelled, and the copy engine's jobs, on
one time axis.  Top: the whole recording; bottom: a 250 ms window where the
most happens (copies first: the two-copy path uses every row)."""
import plotstyle

WINDOW = 0.25  # seconds in the zoomed panel
SHOWN, CANCELLED, OPEN, COPY = "#009E73", "#D55E00", "#999999", "#0072B2"


def lanes(items):
    """Spread overlapping [start, end) intervals over sub-rows."""
    ends, out = [], []
    for s, e, what, label in sorted(items, key=lambda x: x[0]):
        for i, last in enumerate(ends):
            if last <= s:
                ends[i] = e
                out.append((i, s, e, what, label))
                break
        else:
            ends.append(e)
            out.append((len(ends) - 1, s, e, what, label))
    return out, max(len(ends), 1)


def rows(tl, t_from, t_to):
    """[(label, kind, data)] for the window, top to bottom."""
    out = []
    for crtc in sorted(tl.vblanks):
        out.append(("vblanks, %s" % crtc, "ticks",
                    [t for t, _ in tl.vblanks[crtc] if t_from <= t <= t_to]))
    tracks = {}
    for p in tl.presents:
        end = p["end"] if p["end"] is not None else tl.t1
        if end >= t_from and p["queued"] <= t_to:
            crtc, plane, _ = p["key"]
            tracks.setdefault((crtc, plane), []).append((p["queued"], end, p["how"],
                                                          p["key"][2]))
    for (crtc, plane), items in sorted(tracks.items()):
        out.append(("PresentIds, CRTC %d plane %d" % (crtc, plane), "bars", items))
    copies = [(c["queued"], c["end"] if c["end"] is not None else tl.t1, "copy", None)
              for c in tl.copies if c["queued"] <= t_to and (c["end"] or tl.t1) >= t_from]
    out.append(("copy engine jobs", "bars", copies))
    return out


def draw(ax, tl, t_from, t_to, zero, scale, ids=False):
    """One row per track; ids: write each PresentId on its bar."""
    y, ticks, labels = 0, [], []
    colors = {"shown": SHOWN, "cancelled": CANCELLED, "open": OPEN, "copy": COPY}
    for label, kind, data in reversed(rows(tl, t_from, t_to)):
        if kind == "ticks":
            ax.vlines([(t - zero) * scale for t in data], y + 0.1, y + 0.9,
                      color="black", linewidth=0.8)
            h = 1
        else:
            placed, h = lanes(data)
            lh = 0.8 / h
            for lane, s, e, what, pid in placed:
                x0 = (max(s, t_from) - zero) * scale
                ax.broken_barh([((s - zero) * scale, max((e - s) * scale, 1e-3 * scale))],
                               (y + 0.1 + lane * lh, lh * 0.9), color=colors[what])
                if ids and pid is not None:
                    ax.text(x0 + 0.5, y + 0.1 + (lane + 0.45) * lh, str(pid % 1000), fontsize=7,
                            va="center", color="white", clip_on=True)
        ticks.append(y + 0.5)
        labels.append(label)
        y += 1
    ax.set_yticks(ticks)
    ax.set_yticklabels(labels)
    ax.set_ylim(0, y)
    ax.set_xlim((t_from - zero) * scale, (t_to - zero) * scale)
    ax.grid(axis="y", alpha=0)


def busiest(tl):
    """Start of the WINDOW with the most copy jobs, else PresentIds."""
    starts = [c["queued"] for c in tl.copies] or [p["queued"] for p in tl.presents]
    if not starts:
        return tl.t0
    starts.sort()
    best, j, t_best = 0, 0, starts[0]
    for i, s in enumerate(starts):
        while starts[j] < s - WINDOW:
            j += 1
        if i - j + 1 > best:
            best, t_best = i - j + 1, starts[j]
    return max(tl.t0, t_best - 0.02)


def plot(tl, path):
    fig, axes = plotstyle.figure(12, 8.5, rows=2)
    top, zoom = axes[0][0], axes[1][0]
    draw(top, tl, tl.t0, tl.t1, tl.t0, 1.0)
    top.set_xlabel("time since the recording started (s)")
    top.set_title("The whole recording: %s" % tl.summary(), fontsize=10)
    w0 = busiest(tl)
    draw(zoom, tl, w0, w0 + WINDOW, w0, 1000.0, ids=True)
    zoom.set_xlabel("time (ms) from %.3f s of CLOCK_MONOTONIC" % w0)
    zoom.set_title("Zoom on the %d ms with the most copy-engine jobs: each bar a PresentId "
                   "(its last 3 digits on it) from FLIPQ_SUBMIT to its vblank" % (WINDOW * 1000),
                   fontsize=10)
    # One legend for both panels: proxies for the bar colours.
    for color, label in ((SHOWN, "PresentId queued -> shown (ends at its vblank)"),
                         (CANCELLED, "PresentId queued -> cancelled"),
                         (OPEN, "PresentId still queued when the recording stopped"),
                         (COPY, "copy job: fence created -> signalled"),
                         ("black", "vblank (drm_vblank_event)")):
        zoom.plot([], [], color=color, linewidth=6 if color != "black" else 1.2, label=label)
    zoom.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=3)
    fig.suptitle("make trace: vflipq's flip queues during present-demo "
                 "(ftrace: vflipq, drm_vblank_event, dma_fence)")
    plotstyle.save(fig, path)
