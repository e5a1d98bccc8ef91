// SPDX-License-Identifier: MIT
/*
 * Flip latency: time from a nonblocking atomic page-flip commit (primary
 * FB_ID only, PAGE_FLIP_EVENT) to reading its event, 1920x1080@60, CRC off.
 * Each commit is issued at a random point of the frame (uniform delay after
 * the previous event), as a compositor would, so the numbers include the
 * wait for the next vblank (about half a period on average) plus the
 * driver's overhead.  The event's own timestamp gives the wake-up delay
 * after the vblank separately.
 *
 *   vflipq-bench latency --driver vflipq|vkms [--flips 200] [--reps 3]
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <drm_fourcc.h>

#include "bench.h"

int bench_latency(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "driver", required_argument, NULL, 'd' },
		{ "flips", required_argument, NULL, 'n' },
		{ "reps", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	const char *driver = "vflipq";
	int flips = 200, reps = 3, c;
	double med[16], p99[16], wake[16], missed[16];
	double *lat, *wk, *all, *allw;
	struct bench_fb ring[2];
	struct bench_dev dev;
	drmModeModeInfo mode;
	unsigned int seed = 12345;
	uint64_t period;
	char name[64], extra[256];
	FILE *f;
	int nall = 0;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'd': driver = optarg; break;
		case 'n': flips = atoi(optarg); break;
		case 'r': reps = atoi(optarg); break;
		default: return 2;
		}
	}
	if (reps < 1 || reps > 16 || flips < 10)
		die("latency: --reps 1-16, --flips >= 10");
	if (bench_open(&dev, driver, !strcmp(driver, "vflipq") ? "default" : NULL))
		die("no %s device", driver);
	bench_reset(&dev);
	bench_mode_1080p(&mode, 60);
	period = bench_mode_period_ns(&mode);
	for (int i = 0; i < 2; i++) {
		bench_fb_create(dev.fd, 1920, 1080, DRM_FORMAT_XRGB8888, &ring[i]);
		bench_fb_fill(&ring[i], i + 1, false);
	}
	bench_pipe_on(&dev, 0, &mode, &ring[0]);

	lat = calloc(flips, sizeof(*lat));
	wk = calloc(flips, sizeof(*wk));
	all = calloc((size_t)flips * reps, sizeof(*all));
	allw = calloc((size_t)flips * reps, sizeof(*allw));
	if (!lat || !wk || !all || !allw)
		die("out of memory");
	snprintf(name, sizeof(name), "latency-%s.txt", driver);
	f = data_file(name);
	fprintf(f, "# commit->event us, vblank->event us\n");

	for (int rep = -1; rep < reps; rep++) {
		int n = rep < 0 ? 10 : flips;	/* rep -1: warm-up */
		int miss = 0;

		for (int i = 0; i < n; i++) {
			struct bench_events ev = { 0 };
			struct bench_req r;
			uint64_t t0, t1;
			int ret;

			sleep_ns((uint64_t)rand_r(&seed) % period);
			req_init(&r);
			req_add(&r, dev.fd, dev.pipe[0].primary,
				DRM_MODE_OBJECT_PLANE, "FB_ID",
				ring[(i + 1) & 1].fb_id);
			t0 = now_ns();
			ret = req_commit(dev.fd, &r, DRM_MODE_ATOMIC_NONBLOCK |
					 DRM_MODE_PAGE_FLIP_EVENT, NULL);
			if (ret)
				die("%s: flip: %s", driver, strerror(-ret));
			while (!ev.flips)
				if (!bench_read_events(dev.fd, 2000, &ev))
					die("%s: no flip event in 2 s", driver);
			t1 = now_ns();
			if (rep < 0)
				continue;
			lat[i] = (t1 - t0) / 1e3;
			wk[i] = ((int64_t)t1 - (int64_t)ev.flip_ts_ns) / 1e3;
			miss += lat[i] > period / 1e3 + 1000;
			all[nall] = lat[i];
			allw[nall++] = wk[i];
			fprintf(f, "%.1f %.1f\n", lat[i], wk[i]);
		}
		if (rep < 0)
			continue;
		med[rep] = median(lat, flips);
		p99[rep] = percentile(lat, flips, 99);
		wake[rep] = median(wk, flips);
		missed[rep] = 100.0 * miss / flips;
		note("%s latency run %d: median %.0f us, p99 %.0f us, event "
		     "%.0f us after vblank, %.1f%% over a period + 1 ms",
		     driver, rep + 1, med[rep], p99[rep], wake[rep],
		     missed[rep]);
	}
	fclose(f);
	snprintf(extra, sizeof(extra),
		 "\"pooled\": %.1f, \"samples\": %d, \"period_us\": %.1f",
		 median(all, nall), nall, period / 1e3);
	emit("flip_latency_us_median", driver, "us", "lower", med, reps, extra);
	snprintf(extra, sizeof(extra), "\"pooled\": %.1f, \"samples\": %d",
		 percentile(all, nall, 99), nall);
	emit("flip_latency_us_p99", driver, "us", "lower", p99, reps, extra);
	snprintf(extra, sizeof(extra), "\"pooled\": %.1f",
		 median(allw, nall));
	emit("flip_event_after_vblank_us_median", driver, "us", "lower", wake,
	     reps, extra);
	emit("flip_latency_over_period_pct", driver, "%", "lower", missed,
	     reps, NULL);

	bench_reset(&dev);
	for (int i = 0; i < 2; i++)
		bench_fb_destroy(dev.fd, &ring[i]);
	bench_close(&dev);
	free(lat);
	free(wk);
	free(all);
	free(allw);
	return 0;
}
