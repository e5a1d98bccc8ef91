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
 * With --baseline the two drivers take turns, one repetition each (A B A B
 * ...), so a change in the host's load (TCG runs on a shared machine) falls
 * on both alike instead of on whichever driver happened to run then.
 *
 *   vflipq-bench latency --driver vflipq|vkms [--baseline vkms]
 *                        [--flips 200] [--reps 3]
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <drm_fourcc.h>

#include "bench.h"

#define MAX_REPS 16

/* One driver's device, buffers and samples. */
struct side {
	const char *driver;
	struct bench_dev dev;
	struct bench_fb ring[2];
	unsigned int seed;
	double med[MAX_REPS], p99[MAX_REPS], wake[MAX_REPS], missed[MAX_REPS];
	double *lat, *wk, *all, *allw;
	int nall;
	FILE *f;
};

static void side_open(struct side *s, const char *driver, int flips,
		      int reps, const drmModeModeInfo *mode)
{
	char name[64];

	s->driver = driver;
	s->seed = 12345;
	if (bench_open(&s->dev, driver,
		       !strcmp(driver, "vflipq") ? "default" : NULL))
		die("no %s device", driver);
	bench_reset(&s->dev);
	for (int i = 0; i < 2; i++) {
		bench_fb_create(s->dev.fd, 1920, 1080, DRM_FORMAT_XRGB8888,
				&s->ring[i]);
		bench_fb_fill(&s->ring[i], i + 1, false);
	}
	bench_pipe_on(&s->dev, 0, mode, &s->ring[0]);
	s->lat = calloc(flips, sizeof(*s->lat));
	s->wk = calloc(flips, sizeof(*s->wk));
	s->all = calloc((size_t)flips * reps, sizeof(*s->all));
	s->allw = calloc((size_t)flips * reps, sizeof(*s->allw));
	if (!s->lat || !s->wk || !s->all || !s->allw)
		die("out of memory");
	snprintf(name, sizeof(name), "latency-%s.txt", driver);
	s->f = data_file(name);
	fprintf(s->f, "# commit->event us, vblank->event us\n");
}

/* Repetition @rep (-1: a short warm-up, not recorded) of @n flips. */
static void side_rep(struct side *s, int rep, int n, uint64_t period)
{
	int miss = 0;

	for (int i = 0; i < n; i++) {
		struct bench_events ev = { 0 };
		struct bench_req r;
		uint64_t t0, t1;
		int ret;

		sleep_ns((uint64_t)rand_r(&s->seed) % period);
		req_init(&r);
		req_add(&r, s->dev.fd, s->dev.pipe[0].primary,
			DRM_MODE_OBJECT_PLANE, "FB_ID",
			s->ring[(i + 1) & 1].fb_id);
		t0 = now_ns();
		ret = req_commit(s->dev.fd, &r, DRM_MODE_ATOMIC_NONBLOCK |
				 DRM_MODE_PAGE_FLIP_EVENT, NULL);
		if (ret)
			die("%s: flip: %s", s->driver, strerror(-ret));
		while (!ev.flips)
			if (!bench_read_events(s->dev.fd, 2000, &ev))
				die("%s: no flip event in 2 s", s->driver);
		t1 = now_ns();
		if (rep < 0)
			continue;
		s->lat[i] = (t1 - t0) / 1e3;
		s->wk[i] = ((int64_t)t1 - (int64_t)ev.flip_ts_ns) / 1e3;
		miss += s->lat[i] > period / 1e3 + 1000;
		s->all[s->nall] = s->lat[i];
		s->allw[s->nall++] = s->wk[i];
		fprintf(s->f, "%.1f %.1f\n", s->lat[i], s->wk[i]);
	}
	if (rep < 0)
		return;
	s->med[rep] = median(s->lat, n);
	s->p99[rep] = percentile(s->lat, n, 99);
	s->wake[rep] = median(s->wk, n);
	s->missed[rep] = 100.0 * miss / n;
	note("%s latency run %d: median %.0f us, p99 %.0f us, event %.0f us "
	     "after vblank, %.1f%% over a period + 1 ms", s->driver, rep + 1,
	     s->med[rep], s->p99[rep], s->wake[rep], s->missed[rep]);
}

static void side_emit(struct side *s, int reps, uint64_t period,
		      bool interleaved)
{
	char extra[256];

	snprintf(extra, sizeof(extra),
		 "\"pooled\": %.1f, \"samples\": %d, \"period_us\": %.1f, "
		 "\"interleaved\": %s", median(s->all, s->nall), s->nall,
		 period / 1e3, interleaved ? "true" : "false");
	emit("flip_latency_us_median", s->driver, "us", "lower", s->med, reps,
	     extra);
	snprintf(extra, sizeof(extra), "\"pooled\": %.1f, \"samples\": %d",
		 percentile(s->all, s->nall, 99), s->nall);
	emit("flip_latency_us_p99", s->driver, "us", "lower", s->p99, reps,
	     extra);
	snprintf(extra, sizeof(extra), "\"pooled\": %.1f",
		 median(s->allw, s->nall));
	emit("flip_event_after_vblank_us_median", s->driver, "us", "lower",
	     s->wake, reps, extra);
	emit("flip_latency_over_period_pct", s->driver, "%", "lower",
	     s->missed, reps, NULL);
}

static void side_close(struct side *s)
{
	fclose(s->f);
	bench_reset(&s->dev);
	for (int i = 0; i < 2; i++)
		bench_fb_destroy(s->dev.fd, &s->ring[i]);
	bench_close(&s->dev);
	free(s->lat);
	free(s->wk);
	free(s->all);
	free(s->allw);
}

int bench_latency(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "driver", required_argument, NULL, 'd' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "flips", required_argument, NULL, 'n' },
		{ "reps", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	const char *driver = "vflipq", *baseline = NULL;
	int flips = 200, reps = 3, nsides, c;
	struct side sides[2];
	drmModeModeInfo mode;
	uint64_t period;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'd': driver = optarg; break;
		case 'b': baseline = optarg; break;
		case 'n': flips = atoi(optarg); break;
		case 'r': reps = atoi(optarg); break;
		default: return 2;
		}
	}
	if (reps < 1 || reps > MAX_REPS || flips < 10)
		die("latency: --reps 1-%d, --flips >= 10", MAX_REPS);
	if (baseline && !strcmp(baseline, driver))
		die("latency: --baseline must name another driver");
	bench_mode_1080p(&mode, 60);
	period = bench_mode_period_ns(&mode);
	nsides = baseline ? 2 : 1;
	memset(sides, 0, sizeof(sides));
	side_open(&sides[0], driver, flips, reps, &mode);
	if (baseline)
		side_open(&sides[1], baseline, flips, reps, &mode);

	/* Both pipes stay lit throughout: each side's vblanks run alike. */
	for (int rep = -1; rep < reps; rep++)
		for (int k = 0; k < nsides; k++)
			side_rep(&sides[k], rep, rep < 0 ? 10 : flips, period);

	for (int k = 0; k < nsides; k++) {
		side_emit(&sides[k], reps, period, baseline != NULL);
		side_close(&sides[k]);
	}
	return 0;
}
