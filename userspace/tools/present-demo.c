// SPDX-License-Identifier: MIT
/*
 * present-demo: render an animated pattern and present it through a
 * libpresent swap chain for a few seconds on each path the machine offers
 * (direct flip, CASO one-copy, two-copy), then print a table: path and
 * reason, frames presented, on their target vblank, missed, cancelled,
 * copies and bytes copied per frame, wake-ups per frame.  Saves the
 * scanned-out frame through the writeback connector (present.png and
 * present-<path>.png), the table (present-table.txt) and the timing of
 * every frame (present-timing.csv, which the host turns into
 * present-timing.png with scripts/plot-present-timing.py).
 *
 *   present-demo [--seconds S] [--interval N] [--out DIR] [--display ADAPTER]
 *
 * --display runs only the direct path on that adapter (index, card node or
 * name: "vkms" shows the atomic page-flip fallback of a non-vflipq driver).
 */
#include <errno.h>
#include <getopt.h>
#include <linux/sync_file.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "kms.h"
#include "png.h"
#include "present.h"

#define MAX_RUNS 5
#define MAX_SAMPLES 4096

struct run {
	const char *label;
	struct present_adapter *render, *display;
	struct present_path path;
	struct present_counters ctr;
	uint64_t app_wakeups;
	uint64_t t0;
	int n;
	uint64_t target[MAX_SAMPLES], actual[MAX_SAMPLES];
	bool ok, captured;
	unsigned int batch;		/* frames per batch (0: interactive) */
	char err[256];
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* Animated pattern: gradient background, a moving bar, a frame counter
 * drawn as binary blocks. */
static void draw(const struct present_buffer *b, unsigned int frame)
{
	uint32_t bar = (frame * 8) % (b->width ? b->width : 1);
	bool rgba = b->format == DRM_FORMAT_XBGR8888 || b->format == DRM_FORMAT_ABGR8888;

	if (b->format != DRM_FORMAT_XRGB8888 && b->format != DRM_FORMAT_ARGB8888 && !rgba)
		return;
	for (uint32_t y = 0; y < b->height; y++) {
		uint32_t *row = (uint32_t *)((uint8_t *)b->map + (size_t)y * b->pitch);

		for (uint32_t x = 0; x < b->width; x++) {
			uint32_t r = x * 255 / b->width, g = y * 255 / b->height, bl = (frame * 3) & 255;

			if (x >= bar && x < bar + 32)
				r = g = bl = 255;
			if (y < 16 && x < 32 * 16 && ((frame >> (x / 32)) & 1))
				r = 255, g = bl = 0;
			row[x] = 0xff000000u | (rgba ? (bl << 16 | g << 8 | r) : (r << 16 | g << 8 | bl));
		}
	}
}

/* Writeback of the display adapter's CRTC into a PNG. */
static int capture(struct present_adapter *ad, const char *path)
{
	int fd = present_adapter_fd(ad);
	drmModeRes *res = drmModeGetResources(fd);
	uint32_t wb = 0, crtc = 0, C = DRM_MODE_OBJECT_CONNECTOR;
	drmModeCrtc *cr = NULL;
	struct kms_dumb d;
	drmModeAtomicReq *req;
	int32_t fence = -1;
	int ret = -1;

	if (!res)
		return -1;
	for (int i = 0; i < res->count_connectors && !wb; i++) {
		drmModeConnector *c = drmModeGetConnector(fd, res->connectors[i]);

		if (c && c->connector_type == DRM_MODE_CONNECTOR_WRITEBACK)
			wb = c->connector_id;
		drmModeFreeConnector(c);
	}
	for (int i = 0; i < res->count_crtcs && !crtc; i++) {
		cr = drmModeGetCrtc(fd, res->crtcs[i]);
		if (cr && cr->mode_valid)
			crtc = cr->crtc_id;
		else {
			drmModeFreeCrtc(cr);
			cr = NULL;
		}
	}
	drmModeFreeResources(res);
	if (!wb || !crtc) {
		drmModeFreeCrtc(cr);
		return -1;
	}
	if (kms_dumb_create(fd, cr->mode.hdisplay, cr->mode.vdisplay, DRM_FORMAT_XRGB8888, &d)) {
		drmModeFreeCrtc(cr);
		return -1;
	}
	drmModeFreeCrtc(cr);
	req = drmModeAtomicAlloc();
	if (!kms_set(req, fd, wb, C, "CRTC_ID", crtc, false) &&
	    !kms_set(req, fd, wb, C, "WRITEBACK_FB_ID", d.fb_id, false) &&
	    !kms_set(req, fd, wb, C, "WRITEBACK_OUT_FENCE_PTR", (uint64_t)(uintptr_t)&fence, false) &&
	    !drmModeAtomicCommit(fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL) && fence >= 0) {
		struct pollfd p = { .fd = fence, .events = POLLIN };

		if (poll(&p, 1, 2000) == 1) {
			/* XRGB8888 little-endian -> RGB */
			uint8_t *rgb = malloc((size_t)d.width * d.height * 3);

			for (uint32_t y = 0; rgb && y < d.height; y++)
				for (uint32_t x = 0; x < d.width; x++) {
					uint32_t v = ((uint32_t *)((uint8_t *)d.map + (size_t)y * d.pitch))[x];
					uint8_t *o = rgb + ((size_t)y * d.width + x) * 3;

					o[0] = v >> 16;
					o[1] = v >> 8;
					o[2] = v;
				}
			if (rgb)
				ret = png_write(path, d.width, d.height, 3, rgb, (size_t)d.width * 3);
			free(rgb);
		}
		close(fence);
	}
	drmModeAtomicFree(req);
	/* unroute the writeback connector again */
	req = drmModeAtomicAlloc();
	if (!kms_set(req, fd, wb, C, "CRTC_ID", 0, false))
		drmModeAtomicCommit(fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	drmModeAtomicFree(req);
	kms_dumb_destroy(fd, &d);
	return ret;
}

static void run_one(struct run *r, double seconds, unsigned int interval, const char *outdir,
		    bool *have_png)
{
	struct present_swapchain_desc desc = {
		.format = DRM_FORMAT_XRGB8888, .buffer_count = 3,
		.swap_effect = PRESENT_SWAP_FLIP_DISCARD, .samples = 1,
		.flags = PRESENT_SWAPCHAIN_FRAME_LATENCY_WAITABLE,
	};
	struct present_swapchain *sc;
	uint64_t end;
	unsigned int frame = 0;
	int ret, wfd;
	char png[512];

	if (r->batch)	/* frames ahead: latency and buffers to match */
		desc.buffer_count = r->batch + 2;

	ret = present_swapchain_create(r->render, r->display, -1, &desc, &sc);
	if (ret) {
		snprintf(r->err, sizeof(r->err), "create: %s (%s)", present_strerror(ret),
			 present_adapter_last_error(r->display));
		return;
	}
	present_swapchain_path(sc, &r->path);
	wfd = present_swapchain_waitable_fd(sc);
	if (r->batch)
		present_swapchain_set_max_frame_latency(sc, r->batch);
	r->t0 = now_ns();
	end = r->t0 + (uint64_t)(seconds * 1e9);
	while (r->batch && now_ns() < end) {
		/* video-like: a batch of frames ahead, then one sleep until the
		 * last one is on screen (one flip-queue interrupt per batch) */
		for (unsigned int k = 0; k < r->batch; k++) {
			struct present_buffer b;

			ret = present_swapchain_get_buffer(sc, present_swapchain_current_back_buffer(sc),
							   &b);
			if (ret)
				break;
			draw(&b, frame++);
			ret = present_swapchain_present(sc, interval ? interval : 1, PRESENT_DO_NOT_WAIT);
			if (ret)
				break;
		}
		if (ret && ret != PRESENT_E_WAS_STILL_DRAWING) {
			snprintf(r->err, sizeof(r->err), "present: %s (%s)", present_strerror(ret),
				 present_swapchain_last_error(sc));
			break;
		}
		ret = present_swapchain_wait_idle(sc, 2000);
		if (ret) {
			snprintf(r->err, sizeof(r->err), "wait_idle: %s", present_strerror(ret));
			break;
		}
	}
	while (!r->batch && now_ns() < end) {
		struct present_buffer b;
		struct pollfd p = { .fd = wfd, .events = POLLIN };

		/* the D3D9Ex/DXGI loop: wait on the waitable object */
		if (poll(&p, 1, 0) == 0) {
			r->app_wakeups++;
			while (poll(&p, 1, 0) == 0) {
				ret = present_swapchain_dispatch(sc, 100);
				if (ret < 0 && ret != PRESENT_E_TIMEOUT)
					break;
			}
		}
		ret = present_swapchain_get_buffer(sc, present_swapchain_current_back_buffer(sc), &b);
		if (ret)
			break;
		draw(&b, frame++);
		ret = present_swapchain_present(sc, interval, PRESENT_DO_NOT_WAIT);
		if (ret == PRESENT_E_WAS_STILL_DRAWING)
			continue;
		if (ret) {
			snprintf(r->err, sizeof(r->err), "present: %s (%s)", present_strerror(ret),
				 present_swapchain_last_error(sc));
			break;
		}
	}
	/* let the queue drain, then look at the screen */
	for (int i = 0; i < 20; i++)
		present_swapchain_dispatch(sc, 20);
	present_swapchain_counters(sc, &r->ctr);
	r->n = present_swapchain_timing(sc, r->target, r->actual, MAX_SAMPLES);
	snprintf(png, sizeof(png), "%s/present-%s.png", outdir, present_path_name(r->path.kind));
	r->captured = capture(r->display, png) == 0;
	if (r->captured && (!*have_png || r->path.kind == PRESENT_PATH_CASO_ONE_COPY)) {
		snprintf(png, sizeof(png), "%s/present.png", outdir);
		if (capture(r->display, png) == 0)
			*have_png = true;
	}
	present_swapchain_destroy(sc);
	r->ok = !r->err[0];
}

/* A run's name in the table and the CSV: the path, "/batch" when batched. */
static const char *run_name(const struct run *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", present_path_name(r->path.kind), r->batch ? "/batch" : "");
	return buf;
}

int main(int argc, char **argv)
{
	static struct run runs[MAX_RUNS];
	struct present_system *sys;
	struct present_adapter *render = NULL, *d3 = NULL, *dlow = NULL, *d0 = NULL;
	double seconds = 3;
	unsigned int interval = 1;
	const char *outdir = "out", *only = NULL;
	int nruns = 0, opt, n, failed = 0;
	bool have_png = false;
	double period_ms = 16.667;
	char path[512];
	FILE *tf;

	static const struct option lo[] = {
		{ "seconds", 1, NULL, 's' }, { "interval", 1, NULL, 'i' }, { "out", 1, NULL, 'o' },
		{ "display", 1, NULL, 'd' },
		{ NULL, 0, NULL, 0 } };
	while ((opt = getopt_long(argc, argv, "s:i:o:d:", lo, NULL)) != -1) {
		switch (opt) {
		case 's': seconds = atof(optarg); break;
		case 'i': interval = atoi(optarg); break;
		case 'o': outdir = optarg; break;
		case 'd': only = optarg; break;
		default:
			fprintf(stderr, "usage: %s [--seconds S] [--interval 0-4] [--out DIR] [--display ADAPTER]\n",
				argv[0]);
			return 2;
		}
	}
	mkdir(outdir, 0755);
	if (present_system_open(&sys)) {
		fprintf(stderr, "present-demo: cannot enumerate adapters\n");
		return 1;
	}
	n = present_system_count(sys);
	for (int i = 0; i < n; i++) {
		struct present_adapter *ad = present_system_adapter(sys, i);
		struct present_adapter_info info;

		present_adapter_info(ad, &info);
		printf("adapter %d: %-12s %-14s tier %u, flip-queue depth %u\n", i, info.name,
		       present_role_name(info.role), info.caso_tier, info.flipq_depth);
		if (!(info.role & PRESENT_ROLE_DISPLAY) || present_adapter_default_output(ad) < 0)
			continue;
		if (info.caso_tier == 3 && (!d3 || strcmp(info.name, "default")))
			d3 = ad;	/* prefer a configfs one over "default" */
		else if (info.caso_tier == 1 || info.caso_tier == 2) {
			if (!dlow)
				dlow = ad;
		} else if (info.caso_tier == 0 && !d0)
			d0 = ad;
	}
	/* the library's default render adapter (vflipq render-only first) */
	if (present_system_find(sys, NULL, PRESENT_ROLE_RENDER, &render) == 0) {
		struct present_adapter_info info;

		present_adapter_info(render, &info);
		if (info.role != PRESENT_ROLE_RENDER)
			render = NULL;
	}
	if (only) {
		struct present_adapter *ad;

		if (present_system_find(sys, only, PRESENT_ROLE_DISPLAY, &ad)) {
			fprintf(stderr, "present-demo: no display adapter %s\n", only);
			present_system_close(sys);
			return 1;
		}
		d3 = dlow = d0 = NULL;
		render = NULL;
		runs[nruns++] = (struct run){ .label = "direct", .display = ad };
	}
	if (!only && (d3 || dlow || d0))
		runs[nruns++] = (struct run){ .label = "direct", .display = d3 ? d3 : dlow ? dlow : d0 };
	if (render && d3)
		runs[nruns++] = (struct run){ .label = "one-copy", .render = render, .display = d3 };
	if (d3 && nruns < MAX_RUNS) {
		struct present_adapter_info info;

		present_adapter_info(d3, &info);
		if (info.flipq_depth > 2)
			runs[nruns++] = (struct run){ .label = "batch", .display = d3,
						      .batch = info.flipq_depth - 1 };
	}
	if (render && dlow)
		runs[nruns++] = (struct run){ .label = "two-copy", .render = render, .display = dlow };
	if (render && d0 && nruns < MAX_RUNS)
		runs[nruns++] = (struct run){ .label = "two-copy", .render = render, .display = d0 };
	if (!nruns) {
		fprintf(stderr, "present-demo: no display adapter with a connected output\n");
		present_system_close(sys);
		return 1;
	}
	for (int k = 0; k < nruns; k++) {
		printf("present-demo: %s run for %.1f s (interval %u)...\n", runs[k].label, seconds,
		       interval);
		fflush(stdout);
		run_one(&runs[k], seconds, interval, outdir, &have_png);
		if (!runs[k].ok) {
			printf("present-demo: %s run failed: %s\n", runs[k].label, runs[k].err);
			failed++;
		}
	}
	{
		const struct present_output *o;
		int oi = present_adapter_default_output(runs[0].display);

		if (oi >= 0 && !present_adapter_output(runs[0].display, oi, &o) && o->current.period_ns)
			period_ms = o->current.period_ns / 1e6;
	}

	snprintf(path, sizeof(path), "%s/present-table.txt", outdir);
	tf = fopen(path, "w");
	for (int pass = 0; pass < 2; pass++) {
		FILE *f = pass ? tf : stdout;

		if (!f)
			continue;
		fprintf(f, "%-21s %9s %9s %7s %9s %11s %12s %10s  %s\n", "path", "presented",
			"on-target", "missed", "cancelled", "copies/frm", "bytes/frm", "wakes/frm",
			"reason");
		for (int k = 0; k < nruns; k++) {
			struct run *r = &runs[k];
			double pf = r->ctr.presented ? (double)r->ctr.presented : 1;

			if (!r->path.reason[0]) {
				fprintf(f, "%-21s %s\n", r->label, r->err);
				continue;
			}
			char name[32];

			fprintf(f, "%-21s %9llu %9llu %7llu %9llu %11.2f %12.0f %10.2f  %s\n",
				run_name(r, name, sizeof(name)),
				(unsigned long long)r->ctr.presented,
				(unsigned long long)r->ctr.on_target,
				(unsigned long long)r->ctr.missed,
				(unsigned long long)r->ctr.cancelled,
				r->ctr.copies / pf, r->ctr.bytes_copied / pf,
				(r->ctr.wakeups + r->app_wakeups) / pf, r->path.reason);
		}
	}
	if (tf)
		fclose(tf);
	snprintf(path, sizeof(path), "%s/present-timing.csv", outdir);
	tf = fopen(path, "w");
	if (tf) {
		/* run: the table's name of the run; actual_ns 0: cancelled */
		fprintf(tf, "run,frame,start_ns,target_ns,actual_ns,period_ns\n");
		for (int k = 0; k < nruns; k++) {
			char name[32];

			if (!runs[k].path.reason[0])
				continue;
			run_name(&runs[k], name, sizeof(name));
			for (int i = 0; i < runs[k].n; i++)
				fprintf(tf, "%s,%d,%llu,%llu,%llu,%.0f\n", name, i,
					(unsigned long long)runs[k].t0,
					(unsigned long long)runs[k].target[i],
					(unsigned long long)runs[k].actual[i], period_ms * 1e6);
		}
		fclose(tf);
		printf("present-demo: timing of every frame in %s\n", path);
	}
	printf("present-demo: %s%s/present.png\n", have_png ? "" : "no writeback capture, no ", outdir);
	present_system_close(sys);
	return failed ? 1 : 0;
}
