#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""present-timing.png from present-demo's present-timing.csv: when each
frame reached the screen, relative to the time it was presented for.

  present_timing.py out/present-timing.csv out/present-timing.png

CSV columns: run (the table's name of the run), frame, start_ns (the run's
start), target_ns, actual_ns (0: cancelled), period_ns (CLOCK_MONOTONIC).
"""
import csv
import sys

import plotstyle


def load(path):
    runs = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            r = runs.setdefault(row["run"], {"shown": [], "cancelled": []})
            start, target = int(row["start_ns"]), int(row["target_ns"])
            actual = int(row["actual_ns"])
            r["period_ms"] = int(row["period_ns"]) / 1e6
            t = (target - start) / 1e9
            if actual:
                r["shown"].append((t, (actual - target) / 1e6))
            else:
                r["cancelled"].append(t)
    return runs


def panel(ax, k, name, r, period, ymax):
    c = plotstyle.COLORS[k % len(plotstyle.COLORS)]
    on = sum(1 for _, d in r["shown"] if 0 <= d < period)
    # Cancelled frames were never shown: a row of their own below zero.
    cancel_y = -0.25 * period
    ax.scatter([t for t, _ in r["shown"]], [d for _, d in r["shown"]], s=9, color=c,
               label="frame shown (%d; %d within one period of its target)" % (
                   len(r["shown"]), on))
    ax.scatter(r["cancelled"], [cancel_y] * len(r["cancelled"]), s=30, color="black",
               marker="x", label="frame cancelled, never shown (%d), drawn at %.1f ms" % (
                   len(r["cancelled"]), cancel_y))
    plotstyle.hline(ax, 0, "target time")
    plotstyle.hline(ax, period, "target + one refresh period (%.1f ms): above = "
                    "missed its vblank" % period, color="#D55E00", style=":")
    ax.set_ylim(cancel_y - 0.2 * period, ymax)
    ax.set_title("%s run" % name)
    ax.set_ylabel("shown - target (ms)")
    ax.legend(loc="upper left", fontsize=8)


def main():
    src, dst = sys.argv[1], sys.argv[2]
    runs = load(src)
    if not runs:
        sys.exit("%s: no frames" % src)
    period = max(r["period_ms"] for r in runs.values())
    late = max([d for r in runs.values() for _, d in r["shown"]] + [period])
    # One panel per run: on-time frames of every path sit at the same
    # height and would hide each other on one axes.
    fig, axes = plotstyle.figure(10, 1.0 + 2.4 * len(runs), rows=len(runs),
                                 sharex=True)
    for k, (name, r) in enumerate(runs.items()):
        panel(axes[k][0], k, name, r, period, late * 1.25 + 0.6 * period)
    axes[-1][0].set_xlabel("time since the run started (s), at each frame's target time")
    fig.suptitle("present-demo: when each frame reached the screen, relative to the time "
                 "it was presented for")
    plotstyle.save(fig, dst)


if __name__ == "__main__":
    main()
