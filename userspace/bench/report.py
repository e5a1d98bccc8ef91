#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Turn the "BENCH {json}" lines of a bench VM run into out/bench.json,
out/bench.md and PNG plots (userspace/plot/bench_plots.py, matplotlib).

  report.py --raw bench-raw.txt --data bench-data/ --out out/
            [--console console.log] [--machine TEXT] [--kernel KVER]
            [--results DIR]
            [--kernel-warnings FILE] [--quick]

Exit status 1 when a benchmark did not run (a BENCH-FAIL line, or a
mandatory name without a value); the numbers themselves never fail it.
"""
import argparse
import datetime
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "plot"))
import bench_plots  # noqa: E402

MANDATORY = [
    "composer_fps_primary_1080p",
    "composer_fps_overlays_cursor_1080p",
    "composer_fps_fp16_10bit_1080p",
    "flip_latency_us_median",
    "flip_latency_us_p99",
    "flipq_events_per_frame_depth1",
    "flipq_events_per_frame_depth2",
    "flipq_events_per_frame_depth4",
    "flipq_events_per_frame_depth8",
    "flipq_on_time_share",
    "flipq_submit_cost_vs_atomic_flip",
    "caso_bytes_per_frame_one_copy",
    "caso_bytes_per_frame_two_copy",
    "caso_cpu_per_present_one_vs_two_copy",
    "driver_kernel_memory_kib",
]
EXTRA = [
    "composer_us_per_frame_full_1080p",
    "composer_us_per_frame_damage_cursor64",
    "composer_us_per_frame_damage_rect256",
    "idle_outputs_cpu_pct_all",
    "idle_outputs_cpu_pct_per_crtc",
    "idle_outputs_cpu_pct_all_batch16",
    "idle_outputs_cpu_pct_per_crtc_batch16",
    "idle_outputs_cpu_pct_all_one_wake",
    "idle_outputs_cpu_pct_per_crtc_one_wake",
    "flip_event_after_vblank_us_median",
    "flip_latency_over_period_pct",
    "driver_kernel_memory_overhead_kib",
    "driver_kernel_memory_kib_1crtc",
    "driver_kernel_memory_overhead_kib_1crtc",
    "memcpy_bandwidth",
    "crc32_bandwidth",
    "frame_hash_bandwidth",
    "composer_share_of_memory_bound_primary_1080p",
    "composer_share_of_memory_bound_overlays_cursor_1080p",
    "composer_share_of_memory_bound_fp16_10bit_1080p",
]

NOTES = {
    "composer_fps_primary_1080p":
        "1920x1080@240 (the refresh does not cap it), primary XRGB8888, CRC on, primary "
        "flipped as fast as accepted",
    "composer_fps_overlays_cursor_1080p":
        "+ 2 ARGB8888 1280x720 overlays (per-pixel alpha) + 64x64 ARGB8888 cursor",
    "composer_fps_fp16_10bit_1080p":
        "primary XRGB16161616F + full-screen XRGB2101010 overlay at 50% plane alpha",
    "flip_latency_us_median":
        "nonblocking atomic flip commit -> event read, commit at a random point of the frame; "
        "vflipq and vkms take turns, one repetition each",
    "flip_latency_us_p99": "same samples, 99th percentile",
    "flipq_events_per_frame_depth1": "classic page-flip loop: one event per flip",
    "flipq_events_per_frame_depth2": "batches of 2 queued flips, IRQ target = batch end (goal <= 0.51)",
    "flipq_events_per_frame_depth4": "batches of 4 (goal <= 0.26)",
    "flipq_events_per_frame_depth8": "batches of 8 (goal <= 0.135)",
    "flipq_on_time_share": "3,600 queued flips (targets one period apart, queue kept 6-8 deep) "
        "shown on exactly the expected vblank, from the log (goal >= 0.999)",
    "flipq_submit_cost_vs_atomic_flip":
        "us per FLIPQ_SUBMIT ioctl of one flip (a batch of one) vs per nonblocking atomic "
        "page-flip ioctl",
    "caso_bytes_per_frame_one_copy":
        "bytes copied per presented 1920x1080 ARGB8888 frame on the one-copy path (render-only "
        "vflipq device -> shared dma-buf -> tier-3 display scans it out): the render step's "
        "writes into the cross-adapter buffer + the display's bytes_copied (GET_COUNTERS, "
        "checked against debugfs); baseline: the two-copy path of the same run (goal 1x vs 2x "
        "the frame size exactly, ratio 0.5)",
    "caso_bytes_per_frame_two_copy":
        "the same on the two-copy path (+ DRM_IOCTL_VFLIPQ_COPY of the cross-adapter buffer "
        "into a display-local buffer, which is flipped); baseline: one frame, 8294400 bytes "
        "(goal ratio 2)",
    "caso_cpu_per_present_one_vs_two_copy":
        "CPU time per present that the guest's scheduler charged to the bench process "
        "(render step + ioctls) and the kernel's kworker threads (the copy engine, the "
        "commits): per-task run time, not whole-VM busy time; presents paced at 30/s, each "
        "waiting for its flip event, the two paths alternated in one run; no number when, in "
        "a segment, more than 10% of the render step's CPU time was gaps in its own CPU clock "
        "(charged while QEMU's vCPU thread did not run it: host preemption, the other vCPU); "
        "baseline: the two-copy path (goal <= 0.6)",
    "driver_kernel_memory_kib":
        "slab objects + VmallocUsed + Shmem growth, 4 CRTCs x 3 1080p XRGB8888 buffers, all "
        "lit (slab counted in objects after shrinking every cache, not in meminfo's slab pages)",
    "composer_us_per_frame_full_1080p":
        "us per composition (vflipq_compose_begin -> _end trace events), 1920x1080 XRGB8888 "
        "primary committed without clips, CRC on: every frame recomposed; the next commit or "
        "vblank wait half a frame after each vblank (TCG runs both vCPUs in one thread)",
    "composer_us_per_frame_damage_cursor64":
        "the same with the primary committed with FB_DAMAGE_CLIPS and a 64x64 ARGB8888 cursor "
        "moved every frame; baseline: the full frame (goal <= 0.05)",
    "composer_us_per_frame_damage_rect256":
        "the primary flipped every frame between two buffers differing in a 256x256 rectangle, "
        "that rectangle as the clip; baseline: the full frame (goal <= 0.05)",
    "idle_outputs_cpu_pct_all":
        "whole-VM busy time (wall x CPUs minus /proc/stat idle + iowait) in % of one vCPU "
        "with 8 devices x 4 CRTCs lit at 1080p60, each showing queued flips one frame apart "
        "(2 batches of 4 queued, each with one FLIPQ_SUBMIT that also sets the interrupt "
        "target, woken at a batch's end), "
        "CRC off, every CRTC's vblanks on the multiples of the frame duration (vblank_align, "
        "the default); baseline: the same devices with vblank_align 0, each CRTC's grid from "
        "its own mode set, 32 lit (goal < 5)",
    "idle_outputs_cpu_pct_per_crtc":
        "the slope of that busy time against the number of lit CRTCs (0, 1, 2, 4, ... 32, "
        "least squares): one more lit CRTC; baseline: vkms's one CRTC lit with a classic "
        "page-flip loop (busy time lit minus unlit)",
    "idle_outputs_cpu_pct_all_batch16":
        "the same with the flip queue 32 deep and batches of 16 (the client wakes every 16 "
        "frames per CRTC instead of every 4)",
    "idle_outputs_cpu_pct_per_crtc_batch16":
        "the slope of the batch-16 busy time against the number of lit CRTCs",
    "idle_outputs_cpu_pct_all_one_wake":
        "the same flips (batches of 4, queue 8 deep) from a client that wakes once per batch "
        "for all 32 outputs, on the first lit CRTC's interrupt, and tops every queue up to the "
        "flips due 6 periods ahead: the driver's cost without a wake-up per CRTC",
    "idle_outputs_cpu_pct_per_crtc_one_wake":
        "the slope of the one-wake busy time against the number of lit CRTCs",
    "flip_event_after_vblank_us_median": "event read time minus the vblank timestamp it carries",
    "flip_latency_over_period_pct": "flips whose event came more than a period + 1 ms after the commit",
    "driver_kernel_memory_overhead_kib": "the same minus the buffers' own pages (12 x 8100 KiB)",
    "driver_kernel_memory_kib_1crtc": "the same on one CRTC (3 buffers), both drivers measured, unscaled",
    "driver_kernel_memory_overhead_kib_1crtc": "one CRTC, minus the buffers' own pages (3 x 8100 KiB)",
    "memcpy_bandwidth": "glibc memcpy of 64 MiB in the guest (bytes copied per second)",
    "crc32_bandwidth":
        "a table-driven CRC in the guest, for comparison: crc32_le's polynomial, slice by "
        "16 (one table lookup a byte), over 16 MiB (bytes per second)",
    "composer_share_of_memory_bound_primary_1080p":
        "composer_fps_primary_1080p over its physical limit (bytes read and written per "
        "frame at the guest's memcpy rate): the share of the memory bound reached, 0 to 1",
    "composer_share_of_memory_bound_overlays_cursor_1080p":
        "the same for composer_fps_overlays_cursor_1080p",
    "composer_share_of_memory_bound_fp16_10bit_1080p":
        "the same for composer_fps_fp16_10bit_1080p",
    "frame_hash_bandwidth":
        "the composer's CRC arithmetic alone in the guest, the frame hash over 16 MiB: a "
        "polynomial mod 2^61 - 1, one multiply a 32-bit word (common/vflipq_hash.h; bytes "
        "per second)",
}


# ---- parsing -----------------------------------------------------------------

def load(raw, console=None):
    recs, fails = {}, []
    if not os.path.exists(raw):
        # The VM did not finish (no results disk): the console has the lines.
        if not console or not os.path.exists(console):
            return recs, ["no %s (the guest runner did not start?)" % raw]
        raw = console
    with open(raw, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("BENCH "):
                try:
                    r = json.loads(line[6:])
                except ValueError as e:
                    fails.append("unparsable line %r: %s" % (line, e))
                    continue
                recs.setdefault(r["name"], []).append(r)
            elif line.startswith("BENCH-FAIL"):
                fails.append(line[len("BENCH-FAIL "):])
    return recs, fails


def med(v):
    return statistics.median(v) if v else None


def rnd(x, nd=4):
    if x is None:
        return None
    if isinstance(x, float):
        if abs(x) >= 1000:
            return round(x, 1)
        return float("%.*g" % (nd + 1, x))
    return x


def put_runs(e, rec, value_key, prefix):
    """Record @rec's runs in entry @e: the aggregate under @value_key, the
    count, extremes and values under @prefix keys.  False if it has none."""
    runs = [float(x) for x in rec.get("runs") or []]
    if not runs:
        return False
    e[value_key] = rec.get("aggregate", med(runs))
    e[prefix + "runs"] = len(runs)
    e[prefix + "min"], e[prefix + "max"] = min(runs), max(runs)
    e[prefix + "run_values"] = runs
    return True


def extra_fields(rec):
    """What a record says beyond its identity and runs (its details)."""
    return {k: v for k, v in rec.items()
            if k not in ("name", "driver", "unit", "better", "runs")}


def build(recs):
    entries = {}
    memcpy = recs.get("memcpy_bandwidth", [{}])[0].get("runs") or []
    memcpy_mbps = med(memcpy)
    for name in MANDATORY + EXTRA + sorted(set(recs) - set(MANDATORY) - set(EXTRA)):
        rs = recs.get(name, [])
        e = {"name": name, "unit": None, "value": None, "baseline": None,
             "baseline_name": None, "ratio": None, "runs": 0, "min": None,
             "max": None}
        if not rs:
            e["note"] = "did not run"
            entries[name] = e
            continue
        main = next((r for r in rs if r["driver"] == "vflipq"), rs[0])
        base = next((r for r in rs if r is not main), None)
        e["unit"] = main["unit"]
        e["better"] = main.get("better")
        e["driver"] = main["driver"]
        if not put_runs(e, main, "value", "") and main.get("skipped"):
            e["note"] = "skipped: " + main["skipped"]
        details = extra_fields(main)
        if base is not None:
            e["baseline_name"] = base["driver"]
            if not put_runs(e, base, "baseline", "baseline_") and base.get("skipped"):
                e["baseline_note"] = base["skipped"]
            sc = base.get("scaled_from_crtcs")
            if sc is not None and sc != base.get("crtcs"):
                e["baseline_name"] = "%s (%d CRTC measured, x%g)" % (
                    base["driver"], sc, base["crtcs"] / sc)
            bd = extra_fields(base)
            if bd:
                details["baseline"] = bd
        if name.startswith("composer_fps_") and memcpy_mbps and "bytes_read_per_frame" in main:
            per_frame = main["bytes_read_per_frame"] + main["bytes_written_per_frame"]
            # A memcpy moves each byte twice (read + write).
            e["physical_limit_fps"] = rnd(2 * memcpy_mbps * 1e6 / per_frame)
            details["bytes_per_frame"] = per_frame
        if details:
            e["details"] = details
        entries[name] = e

    # The composer rows as shares of their memory bound (issue: the
    # composer's floor), vkms's at the same bound as the baseline.
    for scene in ("primary", "overlays_cursor", "fp16_10bit"):
        c = entries.get("composer_fps_%s_1080p" % scene, {})
        limit = c.get("physical_limit_fps")
        if not limit or c.get("value") is None:
            continue
        e = entries["composer_share_of_memory_bound_%s_1080p" % scene]
        e.update(unit="share", value=c["value"] / limit, runs=c["runs"],
                 min=c["min"] / limit, max=c["max"] / limit)
        e.pop("note", None)
        if c.get("baseline") is not None:
            e["baseline"] = c["baseline"] / limit
            e["baseline_name"] = c["baseline_name"]

    # Depth 2/4/8 against the classic loop (depth 1) of the same device.
    d1 = entries.get("flipq_events_per_frame_depth1")
    for d in (2, 4, 8):
        e = entries.get("flipq_events_per_frame_depth%d" % d)
        if e and d1 and d1["value"] is not None and e["baseline"] is None:
            e["baseline"] = d1["value"]
            e["baseline_name"] = "vflipq classic page-flip loop (depth 1)"
    for e in entries.values():
        if e["value"] is not None and e["baseline"]:
            e["ratio"] = e["value"] / e["baseline"]
        for k in ("value", "baseline", "ratio", "min", "max", "baseline_min",
                  "baseline_max"):
            if isinstance(e.get(k), float):
                e[k] = rnd(e[k])
    return entries


# ---- output ----------------------------------------------------------------------

def fmt(v, unit=None):
    if v is None:
        return "-"
    if isinstance(v, (int,)) and not isinstance(v, bool):
        return str(v)
    if unit == "share":
        return "%.4f" % v
    if abs(v) >= 100:
        return "%.0f" % v
    if abs(v) >= 10:
        return "%.1f" % v
    return "%.3g" % v


def markdown(entries, args, made, fails):
    date = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    lines = ["# vflipq benchmarks", "",
             "Taken %s on %s, guest kernel %s, `make bench`%s." % (
                 date, args.machine or "?", args.kernel or "?",
                 " (BENCH_QUICK=1: short runs)" if args.quick else ""),
             "Value: vflipq; baseline: vkms (the kernel's own driver, same VM run) "
             "or vflipq's classic path; ratio = value / baseline; "
             "runs = repetitions, min/max over them.", ""]
    if args.contention:
        lines += ["**Other QEMU VMs ran on the host during %d%% of this run: the "
                  "timings are disturbed.**" % args.contention, ""]
    lines += [
             "| benchmark | unit | vflipq | baseline | ratio | runs | min | max | baseline is |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for name in MANDATORY + EXTRA:
        e = entries.get(name)
        if not e:
            continue
        bname = e.get("baseline_name") or "-"
        if e["baseline"] is None and e.get("baseline_note"):
            bname += ": " + e["baseline_note"]
        val = fmt(e["value"], e["unit"])
        if e["value"] is None and e.get("note"):
            val = "- (%s)" % e["note"]
        ratio = "-" if e["ratio"] is None else "%.3g" % e["ratio"]
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            name, e["unit"] or "-", val, fmt(e["baseline"], e["unit"]), ratio,
            e["runs"], fmt(e["min"], e["unit"]), fmt(e["max"], e["unit"]), bname))
    lines += ["", "What the rows measure:", ""]
    for name in MANDATORY + EXTRA:
        if name in entries and name in NOTES:
            lines.append("- `%s`: %s" % (name, NOTES[name]))
    comp = [entries[n] for n in MANDATORY[:3] if entries.get(n, {}).get("physical_limit_fps")]
    if comp:
        lines += ["", "Composer physical limit (bytes read + written per frame, the 16-bit "
                  "ARGB intermediate frame counted as written, over twice the guest's "
                  "memcpy rate since a copy reads and writes every byte):", ""]
        for e in comp:
            d = e.get("details", {})
            lines.append("- `%s`: %.1f MB/frame -> %s fps at most; vflipq reaches %s%%" % (
                e["name"], d.get("bytes_per_frame", 0) / 1e6, fmt(e["physical_limit_fps"]),
                "-" if not e["value"] else "%.0f" % (100 * e["value"] / e["physical_limit_fps"])))
    crc = entries.get("frame_hash_bandwidth", {}).get("value")
    comp = [entries[n] for n in MANDATORY[:3] if entries.get(n, {}).get("value")]
    if crc and comp:
        # The sinks' default 8 bits: 4 bytes of CRC input a pixel.
        crc_fps = crc * 1e6 / (1920 * 1080 * 4)
        lines += ["", "Composer hash floor: a frame's CRC input is 8.29 MB (4 bytes a pixel "
                  "at the sinks' 8 bits); the frame hash alone, at the guest's %s MB/s "
                  "(`frame_hash_bandwidth`), allows %s fps at most, whatever the planes: %s." % (
                      fmt(crc), fmt(crc_fps), ", ".join(
                          "`%s` reaches %.0f%%" % (e["name"], 100 * e["value"] / crc_fps)
                          for e in comp))]
    comp = [entries[n] for n in MANDATORY[:3] if entries.get(n, {}).get("details")]
    if comp:
        lines += ["", "Page flips accepted per second during the composer runs (one "
                  "in flight, CRC capture on):", ""]
        for e in comp:
            d = e["details"]
            b = d.get("baseline", {})
            lines.append("- `%s`: vflipq %s/s%s" % (
                e["name"], fmt(d.get("flips_per_s_median")),
                ", vkms %s/s" % fmt(b["flips_per_s_median"]) if "flips_per_s_median" in b else ""))
    cb1 = entries.get("caso_bytes_per_frame_one_copy", {})
    cb2 = entries.get("caso_bytes_per_frame_two_copy", {})
    cc = entries.get("caso_cpu_per_present_one_vs_two_copy", {})
    if cb1.get("value") is not None and cb2.get("value") is not None:
        d = cb1.get("details", {})
        frame = d.get("frame_bytes") or 8294400
        lines += ["", "CASO: one-copy %.4f frames copied per present, two-copy %.4f (frame = %d "
                  "bytes)." % (cb1["value"] / frame, cb2["value"] / frame, frame)]
        d = cc.get("details", {})
        b = d.get("baseline", {})
        pct = lambda x: "-" if x is None else "%.1f%%" % (100 * x)
        beyond = lambda x: (None if x.get("cpu_ms_median") is None or
                            x.get("render_ms_median") is None else
                            x["cpu_ms_median"] - x["render_ms_median"])
        b1, b2 = beyond(d), beyond(b)
        raw = ("bench process (render step + ioctls) %s vs %s ms, kworkers %s vs %s ms; "
               "beyond the render step (the render stands in for the render adapter's "
               "work, the same on both paths: this is the presenting itself, the ioctls "
               "and the copy and commit workers; medians) %s vs %s ms%s; "
               "the render step's CPU clock showed %s / %s of its time as gaps (medians; at "
               "most %s in a segment, limit %s); cross-check, whole-VM busy time (interrupts "
               "and the idle VM included) %s vs %s ms; an idle VM with the CRTC lit is busy "
               "%s ms per present slot; %s of the presents started late%s." % (
                   fmt(d.get("process_ms_median")), fmt(b.get("process_ms_median")),
                   fmt(d.get("kworker_ms_median")), fmt(b.get("kworker_ms_median")),
                   fmt(b1), fmt(b2),
                   " (ratio %.2f)" % (b1 / b2) if b1 is not None and b2 else "",
                   pct(d.get("stolen_median")), pct(b.get("stolen_median")),
                   pct(max(d.get("stolen_max", 0), b.get("stolen_max", 0))),
                   pct(d.get("stolen_limit")),
                   fmt(d.get("whole_vm_ms_median")), fmt(b.get("whole_vm_ms_median")),
                   fmt(d.get("idle_vm_ms_per_slot")), d.get("late_presents", "?"),
                   "" if not d.get("kworkers_exited", 0) + b.get("kworkers_exited", 0) else
                   "; %s kworkers exited during a segment (their time is missing)" %
                   (d.get("kworkers_exited", 0) + b.get("kworkers_exited", 0))))
        if cc.get("value") is not None and cc.get("baseline") is not None:
            lines[-1] += (" CPU per present (process + kworkers, per-task run time): one-copy "
                          "%s ms, two-copy %s ms (ratio %.2f); of which %s" % (
                              fmt(cc["value"]), fmt(cc["baseline"]),
                              cc["value"] / cc["baseline"], raw))
        elif d.get("skipped"):
            one, two = d.get("cpu_ms_median"), b.get("cpu_ms_median")
            lines[-1] += (" CPU per present **%s**: the guest charged its tasks for time "
                          "QEMU's vCPU thread did not run. Raw figures, not comparable: "
                          "one-copy %s ms, two-copy %s ms (ratio %s); %s" % (
                              d["skipped"], fmt(one), fmt(two),
                              "%.2f" % (one / two) if one and two else "-", raw))
    io = entries.get("idle_outputs_cpu_pct_all", {})
    if io.get("value") is not None:
        d = io.get("details", {})
        pc = entries.get("idle_outputs_cpu_pct_per_crtc", {})
        lines += ["", "Lit outputs: %s CRTCs on %s devices with queued flips running cost %s%% "
                  "of one vCPU (the unlit VM: %s%%; this benchmark's own process: %s%%), %s "
                  "per more CRTC; %s flips/s shown per CRTC; in the guest %s local timer "
                  "interrupts/s and %s context switches/s; %s flips submitted after their "
                  "target (starved)." % (
                      d.get("crtcs", "?"), d.get("devices", "?"), fmt(io["value"]),
                      fmt(d.get("floor_pct_median")), fmt(d.get("process_pct")),
                      fmt(pc.get("value")), fmt(d.get("flips_per_s_per_crtc")),
                      fmt(d.get("timer_irqs_per_s")), fmt(d.get("context_switches_per_s")),
                      d.get("resyncs", "?"))]
    # Other clients of the same outputs, appended to the lit-outputs line.
    for name, what, process_note in (
            ("idle_outputs_cpu_pct_all_one_wake",
             "The same flips from one client wake-up per batch for all outputs", ""),
            ("idle_outputs_cpu_pct_all_batch16",
             "With the queue 32 deep and batches of 16 (the process wakes every 16 frames "
             "per CRTC)", "; its FLIPQ_SUBMIT ioctls, one per batch, count there")):
        e = entries.get(name, {})
        if e.get("value") is None or not lines or not lines[-1].startswith("Lit outputs"):
            continue
        d = e.get("details", {})
        lines[-1] += (" %s: %s%% (this benchmark's own process: %s%%%s), %s local timer "
                      "interrupts/s, %s context switches/s." % (
                          what, fmt(e["value"]), fmt(d.get("process_pct")), process_note,
                          fmt(d.get("timer_irqs_per_s")),
                          fmt(d.get("context_switches_per_s"))))
    bd = io.get("details", {}).get("baseline")
    if bd and lines and lines[-1].startswith("Lit outputs"):
        lines[-1] += (" With each CRTC's vblanks from its own mode set (vblank_align 0): "
                      "%s%% (this benchmark's own process: %s%%), %s local timer "
                      "interrupts/s, %s context switches/s." % (
                          fmt(io.get("baseline")), fmt(bd.get("process_pct")),
                          fmt(bd.get("timer_irqs_per_s")),
                          fmt(bd.get("context_switches_per_s"))))
    sc = entries.get("flipq_submit_cost_vs_atomic_flip", {})
    if sc.get("details", {}).get("submit_many_of_8_us_per_flip") is not None:
        lines += ["", "Submitting: a FLIPQ_SUBMIT of one flip costs %s us; the same flips 8 to "
                  "a FLIPQ_SUBMIT cost %s us each (4 framebuffers recurring, as a swap "
                  "chain's do)." % (fmt(sc.get("value")),
                                   fmt(sc["details"]["submit_many_of_8_us_per_flip"]))]
    dmg = [entries.get("composer_us_per_frame_" + k, {}).get("details", {})
           for k in ("full_1080p", "damage_cursor64", "damage_rect256")]
    if all(d.get("p10_us") for d in dmg):
        full = dmg[0]["p10_us"]
        lines += ["", "Damage, the fastest tenth of each run's compositions: full frame %s us, "
                  "cursor64 %s us (%s of it), rect256 %s us (%s). Compositions more than "
                  "1.25x their run's fastest tenth (the slower of the two modes the host "
                  "puts compositions in, README \"Latest results\"): full frame %s%%, "
                  "cursor64 %s%%, rect256 %s%%." % (
                      fmt(full), fmt(dmg[1]["p10_us"]), fmt(dmg[1]["p10_us"] / full),
                      fmt(dmg[2]["p10_us"]), fmt(dmg[2]["p10_us"] / full),
                      fmt(100 * dmg[0]["slow_share"]), fmt(100 * dmg[1]["slow_share"]),
                      fmt(100 * dmg[2]["slow_share"]))]
    ot = entries.get("flipq_on_time_share", {}).get("details")
    if ot:
        lines += ["", "On-time run: %s of %s flips on the expected vblank; %s late, %s early, "
                  "%s cancelled (collapsed behind a later due flip); %s were submitted by "
                  "the benchmark only after their expected vblank (guest starved by the "
                  "host); share among the flips submitted in time: %.4f." % (
                      round(ot["aggregate"] * ot["flips"]), ot["flips"], ot["late"],
                      ot["early"], ot["cancelled"], ot.get("submitted_after_expected_vblank", "?"),
                      ot.get("share_of_flips_submitted_in_time", float("nan")))]
    if made:
        lines += ["", "Plots: " + ", ".join("`out/%s`" % os.path.basename(p) for p in made)]
    if args.kernel_warnings:
        lines += ["", "**Kernel warnings in the guest's dmesg during this run** (see %s):" %
                  args.kernel_warnings, "", "```"]
        with open(args.kernel_warnings) as f:
            lines += [l.rstrip("\n").split("\t", 1)[-1] for l in f][:10]
        lines.append("```")
    if fails:
        lines += ["", "**Benchmarks that did not run:** " + "; ".join(fails)]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--raw", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--machine")
    ap.add_argument("--kernel")
    ap.add_argument("--results")
    ap.add_argument("--console")
    ap.add_argument("--contention", type=int, default=0,
                    help="%% of the run during which other QEMUs ran")
    ap.add_argument("--kernel-warnings")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()

    recs, fails = load(args.raw, args.console)
    entries = build(recs)
    missing = [n for n in MANDATORY if entries[n]["value"] is None and
               not entries[n].get("note", "").startswith("skipped")]
    os.makedirs(args.out, exist_ok=True)
    for p in ("bench-composer-frametimes.png", "bench-flip-latency.png", "bench-flipq-ontime.png",
              "bench-idle-outputs.png"):
        if os.path.exists(os.path.join(args.out, p)):
            os.remove(os.path.join(args.out, p))
    made = bench_plots.plots(args.data, args.out)
    order = MANDATORY + EXTRA + sorted(set(entries) - set(MANDATORY) - set(EXTRA))
    with open(os.path.join(args.out, "bench.json"), "w") as f:
        json.dump([entries[n] for n in order], f, indent=1)
        f.write("\n")
    md = markdown(entries, args, made, fails + ["%s: no value" % n for n in missing])
    with open(os.path.join(args.out, "bench.md"), "w") as f:
        f.write(md)
    print()
    print(md)
    if fails or missing:
        for x in fails:
            print("bench: did not run: %s" % x, file=sys.stderr)
        for n in missing:
            print("bench: no value for %s" % n, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
