// SPDX-License-Identifier: MIT
/*
 * Damage-proportional composition: microseconds per composed frame at
 * 1920x1080 with CRC capture on, for
 *   - full: the primary committed without FB_DAMAGE_CLIPS (its content may
 *     change at any time, so every frame recomposes all of it);
 *   - cursor64: the primary committed with clips (tracked), a 64x64
 *     ARGB8888 cursor moved every frame;
 *   - rect256: the primary flipped every frame between two buffers that
 *     differ in one 256x256 rectangle, the commit's clip that rectangle.
 * The time of a composition is the distance between the composer's
 * vflipq_compose_begin and vflipq_compose_end trace events (tracefs, the
 * kernel's trace clock).  That is wall time, and QEMU runs both vCPUs in
 * one host thread: the benchmark makes its next commit half a frame after
 * each vblank, once the composition is over, so that the commit's work on
 * the other vCPU is not counted as the composition's.  vkms has
 * no such events and recomposes every frame: the baseline of the damage
 * rows is the full frame of the same run.
 *
 *   vflipq-bench damage [--frames 120] [--reps 3] [--scene NAME]
 *
 * --scene (full, cursor64 or rect256) runs one scene alone, for profiling
 * it (perf in the guest); the damage rows then have no full-frame baseline.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "bench.h"

#define SKIP 5		/* frames of a scene's start left out */

static const char *tracefs(void)
{
	static const char *dirs[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char p[128];

		snprintf(p, sizeof(p), "%s/trace", dirs[i]);
		if (access(p, W_OK) == 0)
			return dirs[i];
	}
	return NULL;
}

static int put(const char *dir, const char *file, const char *val)
{
	char p[256];
	int fd, ok;

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	fd = open(p, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -errno;
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok ? 0 : -EIO;
}

static int crc_open(const struct bench_dev *dev)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "/sys/kernel/debug/dri/%d/crtc-%d/crc/control",
		 dev->card, dev->pipe[0].index);
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, "auto", 4) != 4)
		die("%s: %s", path, strerror(errno));
	close(fd);
	snprintf(path, sizeof(path), "/sys/kernel/debug/dri/%d/crtc-%d/crc/data",
		 dev->card, dev->pipe[0].index);
	fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	return fd;
}

static void crc_drain(int fd)
{
	char buf[4096];

	while (read(fd, buf, sizeof(buf)) > 0)
		;
}

/*
 * Durations (us) of the compositions of @crtc_id in the trace, in order,
 * and the tiles each recomposed; returns how many.
 */
static int read_trace(const char *dir, uint32_t crtc_id, double *us,
		      double *tiles, int max, unsigned int *total)
{
	char p[256], line[512];
	double begin = -1, t;
	unsigned int crtc, nt, tot;
	int n = 0;
	FILE *f;

	snprintf(p, sizeof(p), "%s/trace", dir);
	f = fopen(p, "r");
	if (!f)
		die("%s: %s", p, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char *ev = strstr(line, ": vflipq_compose_");
		char *ts = ev;

		if (!ev)
			continue;
		/* the timestamp ends where the event name's ": " starts */
		while (ts > line && ts[-1] != ' ')
			ts--;
		t = atof(ts);
		if (sscanf(ev, ": vflipq_compose_begin: crtc=%u tiles=%u of %u",
			   &crtc, &nt, &tot) == 3) {
			if (crtc == crtc_id) {
				begin = t;
				if (n < max)
					tiles[n] = nt;
				*total = tot;
			}
		} else if (sscanf(ev, ": vflipq_compose_end: crtc=%u", &crtc) == 1 &&
			   crtc == crtc_id && begin >= 0) {
			if (n < max)
				us[n] = (t - begin) * 1e6;
			n++;
			begin = -1;
		}
	}
	fclose(f);
	return n < max ? n : max;
}

static int wait_flip(int fd)
{
	struct bench_events ev = { 0 };
	int left = 1000;

	while (!ev.flips && left > 0) {
		bench_read_events(fd, 100, &ev);
		left -= 100;
	}
	return ev.flips ? 0 : -ETIMEDOUT;
}

static uint32_t clips_blob(int fd, int x, int y, int w, int h)
{
	struct drm_mode_rect r = { x, y, x + w, y + h };
	uint32_t id;

	if (drmModeCreatePropertyBlob(fd, &r, sizeof(r), &id))
		die("clips blob: %s", strerror(errno));
	return id;
}

enum scene { FULL, CURSOR64, RECT256, N_SCENES };
static const char *const scene_names[N_SCENES] = {
	"composer_us_per_frame_full_1080p",
	"composer_us_per_frame_damage_cursor64",
	"composer_us_per_frame_damage_rect256",
};

/* Compositions more than this over their run's fastest tenth are slow. */
#define SLOW_OVER_P10 1.25

/* What one run of a scene measured. */
struct scene_run {
	double median_us;	/* the row's value */
	double tiles_share;	/* tiles recomposed, of the frame's */
	double p10_us;		/* the fastest tenth */
	double slow_share;	/* compositions over SLOW_OVER_P10 x p10_us */
};

/*
 * One scene for @frames vblanks of @period ns.  Besides the median, the
 * fastest tenth and the share of slow compositions: under TCG on this
 * host the compositions of a run fall into two modes, the slower one
 * 1.4-1.6x and evenly so over a frame, far more often in the scenes that
 * commit every frame (README, "Latest results"); the median lands in
 * whichever holds most.
 */
static struct scene_run run_scene(struct bench_dev *dev, const char *tr,
				  enum scene s, struct bench_fb *a,
				  struct bench_fb *b, struct bench_fb *cur,
				  uint32_t whole, int frames, uint64_t period,
				  int crc_fd, FILE *data)
{
	struct bench_pipe *p = &dev->pipe[0];
	const uint32_t rx = 832, ry = 412;	/* the 256x256 rectangle */
	double *us = calloc(frames + 64, sizeof(double));
	double *tiles = calloc(frames + 64, sizeof(double));
	unsigned int total = 1;
	struct scene_run run;
	struct bench_req r;
	uint32_t rect;
	int n, slow = 0;

	if (!us || !tiles)
		die("out of memory");
	rect = clips_blob(dev->fd, rx, ry, 256, 256);
	/* The scene's starting state: blocking, before tracing starts. */
	req_init(&r);
	req_plane(&r, dev->fd, p->primary, p->crtc_id, a, 0, 0);
	req_add(&r, dev->fd, p->primary, DRM_MODE_OBJECT_PLANE,
		"FB_DAMAGE_CLIPS", s == FULL ? 0 : whole);
	if (s == CURSOR64)
		req_plane(&r, dev->fd, p->cursor, p->crtc_id, cur, 0, 0);
	else
		req_plane_off(&r, dev->fd, p->cursor);
	if (req_commit(dev->fd, &r, 0, NULL))
		die("scene %s: set-up commit failed", scene_names[s]);

	if (put(tr, "tracing_on", "0") || put(tr, "trace", "") ||
	    put(tr, "events/vflipq/vflipq_compose_begin/enable", "1") ||
	    put(tr, "events/vflipq/vflipq_compose_end/enable", "1") ||
	    put(tr, "tracing_on", "1"))
		die("%s: cannot enable the vflipq_compose events", tr);

	for (int i = 0; i < frames; i++) {
		struct bench_fb *fb = i & 1 ? a : b;

		req_init(&r);
		if (s == CURSOR64) {
			req_add(&r, dev->fd, p->cursor, DRM_MODE_OBJECT_PLANE,
				"CRTC_X", (i * 37) % (1920 - 64));
			req_add(&r, dev->fd, p->cursor, DRM_MODE_OBJECT_PLANE,
				"CRTC_Y", (i * 23) % (1080 - 64));
		} else if (s == RECT256) {
			req_add(&r, dev->fd, p->primary, DRM_MODE_OBJECT_PLANE,
				"FB_ID", fb->fb_id);
			req_add(&r, dev->fd, p->primary, DRM_MODE_OBJECT_PLANE,
				"FB_DAMAGE_CLIPS", rect);
		}
		if (s == FULL) {
			/* nothing to commit: wait a frame for the composer */
			drmVBlank vbl = { .request = {
				.type = DRM_VBLANK_RELATIVE, .sequence = 1 } };

			if (drmWaitVBlank(dev->fd, &vbl))
				die("vblank wait: %s", strerror(errno));
		} else {
			if (req_commit(dev->fd, &r, DRM_MODE_PAGE_FLIP_EVENT |
				       DRM_MODE_ATOMIC_NONBLOCK, NULL))
				die("scene %s: commit failed", scene_names[s]);
			if (wait_flip(dev->fd))
				die("scene %s: no flip event", scene_names[s]);
		}
		/*
		 * The next commit half a frame after this vblank, when its
		 * composition is over: QEMU runs both vCPUs in one host
		 * thread, so a commit made meanwhile on the other vCPU would
		 * be timed as part of the composition (the full scene commits
		 * nothing and waits the same).
		 */
		sleep_ns(period / 2);
		crc_drain(crc_fd);
	}
	put(tr, "tracing_on", "0");
	n = read_trace(tr, p->crtc_id, us, tiles, frames + 64, &total);
	put(tr, "events/vflipq/vflipq_compose_begin/enable", "0");
	put(tr, "events/vflipq/vflipq_compose_end/enable", "0");
	drmModeDestroyPropertyBlob(dev->fd, rect);
	if (n <= SKIP + 10)
		die("scene %s: only %d compositions traced", scene_names[s], n);
	for (int i = SKIP; i < n; i++)
		fprintf(data, "%s %g %g\n", scene_names[s], us[i], tiles[i]);
	run.median_us = median(us + SKIP, n - SKIP);
	run.p10_us = percentile(us + SKIP, n - SKIP, 10);
	for (int i = SKIP; i < n; i++)
		slow += us[i] > SLOW_OVER_P10 * run.p10_us;
	run.slow_share = (double)slow / (n - SKIP);
	run.tiles_share = median(tiles + SKIP, n - SKIP) / total;
	free(us);
	free(tiles);
	return run;
}

int bench_damage(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "frames", required_argument, NULL, 'f' },
		{ "reps", required_argument, NULL, 'r' },
		{ "scene", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const short_names[N_SCENES] = {
		"full", "cursor64", "rect256",
	};
	int only = -1;
	double runs[N_SCENES][16], share[N_SCENES][16];
	double p10[N_SCENES][16], slow[N_SCENES][16];
	struct bench_fb a, b, cur;
	int frames = 120, reps = 3, c, crc_fd;
	struct bench_dev dev;
	drmModeModeInfo mode;
	const char *tr;
	char extra[512];
	uint32_t whole;
	FILE *data;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'f': frames = atoi(optarg); break;
		case 'r': reps = atoi(optarg); break;
		case 's':
			for (int k = 0; k < N_SCENES; k++)
				if (!strcmp(optarg, short_names[k]))
					only = k;
			if (only < 0)
				die("--scene full, cursor64 or rect256");
			break;
		default: return 2;
		}
	}
	if (reps < 1 || reps > 16 || frames < 20)
		die("--reps 1-16, --frames >= 20");
	tr = tracefs();
	if (!tr) {
		/* No number rather than a wrong one. */
		for (int s = 0; s < N_SCENES; s++)
			emit(scene_names[s], "vflipq", "us", "lower", NULL, 0,
			     "\"skipped\": \"no tracefs in this kernel: the "
			     "composer's trace events cannot be timed\"");
		return 0;
	}
	if (bench_open(&dev, "vflipq", "default"))
		die("no vflipq device");
	if (!dev.pipe[0].cursor)
		die("vflipq CRTC 0 has no cursor plane");
	bench_reset(&dev);
	bench_mode_1080p(&mode, 60);
	bench_fb_create(dev.fd, 1920, 1080, DRM_FORMAT_XRGB8888, &a);
	bench_fb_create(dev.fd, 1920, 1080, DRM_FORMAT_XRGB8888, &b);
	bench_fb_create(dev.fd, 64, 64, DRM_FORMAT_ARGB8888, &cur);
	bench_fb_fill(&a, 1, false);
	/* b: a with the 256x256 rectangle of the rect256 scene redrawn */
	memcpy(b.map, a.map, a.size);
	for (int y = 412; y < 412 + 256; y++)
		memset(b.map + (size_t)y * b.pitch + 832 * 4, 0x5a, 256 * 4);
	bench_fb_fill(&cur, 3, true);
	bench_pipe_on(&dev, 0, &mode, &a);
	whole = clips_blob(dev.fd, 0, 0, 1920, 1080);
	crc_fd = crc_open(&dev);
	data = data_file("damage-frametimes.txt");

	for (int i = 0; i < reps; i++)
		for (int s = 0; s < N_SCENES; s++) {
			struct scene_run run;

			if (only >= 0 && s != only)
				continue;
			run = run_scene(&dev, tr, s, &a, &b, &cur, whole,
					frames, bench_mode_period_ns(&mode),
					crc_fd, data);
			runs[s][i] = run.median_us;
			share[s][i] = run.tiles_share;
			p10[s][i] = run.p10_us;
			slow[s][i] = run.slow_share;
		}

	for (int s = 0; s < N_SCENES; s++) {
		if (only >= 0 && s != only)
			continue;
		snprintf(extra, sizeof(extra), "\"tiles_share\": %.5f, "
			 "\"p10_us\": %.1f, \"slow_share\": %.3f",
			 median(share[s], reps), median(p10[s], reps),
			 median(slow[s], reps));
		emit(scene_names[s], "vflipq", "us", "lower", runs[s], reps,
		     extra);
		if (s != FULL && only < 0)
			emit(scene_names[s], "vflipq full frame (same run)",
			     "us", "lower", runs[FULL], reps, NULL);
	}
	if (data)
		fclose(data);
	close(crc_fd);
	drmModeDestroyPropertyBlob(dev.fd, whole);
	bench_reset(&dev);
	bench_fb_destroy(dev.fd, &a);
	bench_fb_destroy(dev.fd, &b);
	bench_fb_destroy(dev.fd, &cur);
	bench_close(&dev);
	return 0;
}
