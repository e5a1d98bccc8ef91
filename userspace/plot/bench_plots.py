# SPDX-License-Identifier: MIT
"""The plots of "make bench", drawn from the raw samples the guest leaves in
bench-data/ (userspace/bench/report.py calls plots()):

- bench-composer-frametimes.png: time between distinct composed frames,
  one panel per scene (frametimes-<scene>-<driver>.txt, in periods);
- bench-flip-latency.png: atomic commit to flip event (latency-<driver>.txt,
  microseconds);
- bench-flipq-ontime.png: shown minus target time of the queued flips
  (ontime.txt, nanoseconds since the run's t0);
- bench-idle-outputs.png: VM busy time against the number of lit CRTCs
  with queued flips running (idle-vflipq.txt, idle-vflipq-one-wake.txt,
  idle-vkms.txt).
"""
import os

import plotstyle

DRIVERS = ("vflipq", "vkms")
# 1920x1080 DMT timings: 60.00 Hz.
PERIOD_MS = 1000.0 / 60.0


def read_numbers(path, col=0):
    out = []
    if not os.path.exists(path):
        return out
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            out.append(float(line.split()[col]))
    return out


def pct_hist(ax, series, bins):
    """Side-by-side bars of each (label, values) series, in % of its own
    samples (the drivers deliver different numbers of frames)."""
    vals = [[min(max(v, bins[0]), bins[-1] - 1e-9) for v in s] for _, s in series]
    ax.hist(vals, bins=bins, rwidth=0.85, weights=[[100.0 / len(v)] * len(v) for v in vals],
            color=plotstyle.COLORS[:len(series)],
            label=["%s (%d samples)" % (name, len(s)) for name, s in series])


def frametimes(data, out):
    panels = []
    for scene, what in (("primary", "primary XRGB8888"),
                        ("overlays", "primary + 2 ARGB8888 overlays + cursor"),
                        ("fp16", "FP16 primary + 10-bit overlay")):
        series = []
        for drv in DRIVERS:
            v = read_numbers(os.path.join(data, "frametimes-%s-%s.txt" % (scene, drv)))
            if v:
                series.append((drv, [x * PERIOD_MS for x in v]))
        if series:
            panels.append((what, series))
    if not panels:
        return None
    hi = max(max(v) for _, ss in panels for _, v in ss)
    top = min(max(8, int(hi / PERIOD_MS) + 2), 24)
    # One bin per whole number of periods (a frame lasts whole vblanks).
    bins = [PERIOD_MS * (k + 0.5) for k in range(top)]
    fig, axes = plotstyle.figure(10, 3.4 * len(panels), rows=len(panels))
    for (what, series), row in zip(panels, axes):
        ax = row[0]
        pct_hist(ax, series, bins)
        plotstyle.vline(ax, PERIOD_MS, "one refresh period (%.1f ms): every vblank" % PERIOD_MS,
                        color="#009E73")
        ax.set_title("Composer, 1920x1080, CRC on: %s" % what)
        ax.set_xlabel("time between distinct composed frames (ms); one bin per whole "
                      "refresh period, the last one holds everything later")
        ax.set_ylabel("share of frames (%)")
        ax.set_xlim(bins[0], bins[-1])
        ax.legend(loc="upper right")
    path = os.path.join(out, "bench-composer-frametimes.png")
    plotstyle.save(fig, path)
    return path


def latency(data, out):
    series = []
    for drv in DRIVERS:
        v = read_numbers(os.path.join(data, "latency-%s.txt" % drv))
        if v:
            series.append((drv, [x / 1000.0 for x in v]))
    if not series:
        return None
    hi = max(max(v) for _, v in series)
    top = max(20, min(int(hi) + 2, 50))
    fig, axes = plotstyle.figure(10, 5)
    ax = axes[0][0]
    pct_hist(ax, series, list(range(0, top + 1)))
    plotstyle.vline(ax, PERIOD_MS, "one refresh period (%.1f ms)" % PERIOD_MS,
                    color="#009E73")
    for k, (drv, v) in enumerate(series):
        m = sorted(v)[len(v) // 2]
        plotstyle.vline(ax, m, "%s median %.1f ms" % (drv, m),
                        color=plotstyle.COLORS[k], style=":")
    ax.set_title("Flip latency: nonblocking atomic commit to flip event, 1080p60, "
                 "commit at a random point of the frame")
    ax.set_xlabel("latency (ms, 1 ms bins; the last bin holds everything later)")
    ax.set_ylabel("share of flips (%)")
    ax.set_xlim(0, top)
    ax.legend(loc="upper right")
    path = os.path.join(out, "bench-flip-latency.png")
    plotstyle.save(fig, path)
    return path


def ontime(data, out):
    path = os.path.join(data, "ontime.txt")
    if not os.path.exists(path):
        return None
    rows, period = [], None
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                period = float(line.split()[-1])
                continue
            v = [int(x) for x in line.split()]
            rows.append((v[0], v[1], v[2], v[3], v[4] if len(v) > 4 else 0))
    if not rows or not period:
        return None
    pms = period / 1e6
    on, other, cancelled, starved = [], [], [], []
    for k, t, e, a, sub in rows:
        if sub and sub > e:
            starved.append(k)
        if not a:
            cancelled.append(k)
        elif abs(a - e) <= period / 2:
            on.append((k, (a - t) / 1e6))
        else:
            other.append((k, (a - t) / 1e6))
    fig, axes = plotstyle.figure(10, 5.2)
    ax = axes[0][0]
    c = plotstyle.COLORS
    ax.scatter([k for k, _ in on], [d for _, d in on], s=6, color=c[0],
               label="shown on the expected vblank (%d)" % len(on))
    ax.scatter([k for k, _ in other], [d for _, d in other], s=30, color=c[1], marker="D",
               label="shown on another vblank (%d)" % len(other))
    ax.scatter(cancelled, [0] * len(cancelled), s=30, color="black", marker="x",
               label="cancelled, drawn at 0 (%d)" % len(cancelled))
    low = -0.3 * pms
    ax.scatter(starved, [low * 0.8] * len(starved), s=30, color=c[4], marker="|",
               label="submitted only after its expected vblank (%d)" % len(starved))
    plotstyle.hline(ax, pms / 2, "expected: target + period/2 (targets lie half a "
                    "period before a vblank)", color=c[2])
    plotstyle.hline(ax, 0, "target time", color="grey", style=":")
    ys = [d for _, d in on + other]
    ax.set_ylim(low, max(ys + [pms * 1.5]) + 0.5 * pms)
    ax.set_xlim(0, len(rows))
    ax.set_title("Queued flips: shown time minus target time (%d flips, targets %.1f ms "
                 "apart)" % (len(rows), pms))
    ax.set_xlabel("flip number (PresentId - 1)")
    ax.set_ylabel("shown time minus target time (ms)")
    ax.legend(loc="upper right", markerscale=1.5)
    path = os.path.join(out, "bench-flipq-ontime.png")
    plotstyle.save(fig, path)
    return path


def read_rows(path):
    rows = []
    if os.path.exists(path):
        with open(path) as f:
            rows = [[float(x) for x in line.split()] for line in f
                    if line.strip() and not line.startswith("#")]
    return rows


def idle_outputs(data, out):
    rows = read_rows(os.path.join(data, "idle-vflipq.txt"))
    if not rows:
        return None
    base = read_rows(os.path.join(data, "idle-vkms.txt"))
    c = plotstyle.COLORS
    fig, axes = plotstyle.figure(9, 5.2)
    ax = axes[0][0]
    xs, ys = [r[0] for r in rows], [r[2] for r in rows]
    ax.scatter(xs, ys, s=18, color=c[0], label="vflipq, queued flips (every run)")
    ax.scatter(xs, [r[3] for r in rows], s=14, color=c[2], marker="^",
               label="of which the benchmark process")
    n = len(xs)
    sx, sy = sum(xs), sum(ys)
    sxx, sxy = sum(x * x for x in xs), sum(x * y for x, y in zip(xs, ys))
    if n > 1 and n * sxx != sx * sx:
        a = (n * sxy - sx * sy) / (n * sxx - sx * sx)
        b = (sy - a * sx) / n
        top = max(xs)
        ax.plot([0, top], [b, b + a * top], color=c[0], linewidth=1.2,
                label="least squares: %.2f%% + %.3f%% per CRTC" % (b, a))
    one = read_rows(os.path.join(data, "idle-vflipq-one-wake.txt"))
    if one:
        ax.scatter([r[0] for r in one], [r[2] for r in one], s=18, color=c[3],
                   marker="s", label="vflipq, one client wake-up for all outputs")
    if base:
        ax.scatter([r[0] for r in base], [r[2] for r in base], s=30, color=c[1],
                   marker="D", label="vkms, classic page-flip loop (1 CRTC)")
    plotstyle.hline(ax, 5, "goal for 32 CRTCs: 5% of one vCPU", color="grey", style=":")
    ax.set_xlim(-0.5, max(xs) + 1)
    ax.set_ylim(0, max(ys + [r[2] for r in base] + [6]) * 1.15)
    ax.set_title("Cost of lit outputs: 1080p60 CRTCs showing queued flips, CRC off")
    ax.set_xlabel("CRTCs lit (8 devices x 4 CRTCs at most)")
    ax.set_ylabel("guest CPU busy (% of one vCPU)")
    ax.legend(loc="upper left")
    path = os.path.join(out, "bench-idle-outputs.png")
    plotstyle.save(fig, path)
    return path


def plots(data, out):
    return [p for p in (frametimes(data, out), latency(data, out), ontime(data, out),
                        idle_outputs(data, out)) if p]
