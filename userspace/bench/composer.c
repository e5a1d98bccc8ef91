// SPDX-License-Identifier: MIT
/*
 * Composer throughput: frames composed per second at 1920x1080 with CRC
 * capture on, while the primary plane is flipped as fast as the driver
 * accepts (nonblocking atomic page flips, one in flight).  A frame counts
 * as composed when its CRC differs from the previous one; to make every
 * composition distinct, a thread stamps a counter into the topmost plane
 * every millisecond.  vflipq's own frames_composed counter is reported as a
 * cross-check.
 *
 *   vflipq-bench composer --driver vflipq|vkms --scene primary|overlays|fp16
 *                         [--hz 60] [--seconds 3] [--reps 3]
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "bench.h"

#define RING 3

struct stamper {
	pthread_t thread;
	volatile bool stop;
	struct bench_fb *fbs[RING];
	int n;
	uint32_t counter;
};

static void *stamp_thread(void *arg)
{
	struct stamper *s = arg;

	while (!s->stop) {
		s->counter++;
		for (int i = 0; i < s->n; i++)
			bench_fb_stamp(s->fbs[i], s->counter);
		sleep_ns(1000000);
	}
	return NULL;
}

static bool plane_has_format(int fd, uint32_t plane, uint32_t format)
{
	drmModePlane *p = drmModeGetPlane(fd, plane);
	bool ok = false;

	for (uint32_t i = 0; p && i < p->count_formats; i++)
		ok |= p->formats[i] == format;
	drmModeFreePlane(p);
	return ok;
}

static int crc_open(const struct bench_dev *dev, int pipe)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "/sys/kernel/debug/dri/%d/crtc-%d/crc/control",
		 dev->card, dev->pipe[pipe].index);
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, "auto", 4) != 4)
		die("%s: %s: %s", dev->driver, path, strerror(errno));
	close(fd);
	snprintf(path, sizeof(path), "/sys/kernel/debug/dri/%d/crtc-%d/crc/data",
		 dev->card, dev->pipe[pipe].index);
	fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		die("%s: %s: %s", dev->driver, path, strerror(errno));
	return fd;
}

struct crc_state {
	bool have_prev;
	uint32_t prev_crc;
	uint64_t prev_frame;	/* frame of the previous distinct CRC */
	long entries, distinct;
	FILE *frame_times;	/* vblanks between distinct frames */
};

static void crc_drain(int fd, struct crc_state *st, bool counting)
{
	char line[128];
	ssize_t n;

	while ((n = read(fd, line, sizeof(line) - 1)) > 0) {
		unsigned long long frame;
		unsigned int crc;

		line[n] = 0;
		if (sscanf(line, "%llx %x", &frame, &crc) != 2)
			continue;
		if (counting)
			st->entries++;
		if (!st->have_prev || crc != st->prev_crc) {
			if (counting) {
				st->distinct++;
				if (st->frame_times && st->have_prev)
					fprintf(st->frame_times, "%llu\n",
						frame - st->prev_frame);
			}
			st->prev_frame = frame;
		}
		st->prev_crc = crc;
		st->have_prev = true;
	}
}

static uint64_t frames_composed(const struct bench_dev *dev, int pipe)
{
	struct drm_vflipq_get_counters c;

	if (!dev->is_vflipq)
		return 0;
	memset(&c, 0, sizeof(c));
	c.crtc_id = dev->pipe[pipe].crtc_id;
	if (drmIoctl(dev->fd, DRM_IOCTL_VFLIPQ_GET_COUNTERS, &c))
		return 0;
	return c.frames_composed;
}

int bench_composer(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "driver", required_argument, NULL, 'd' },
		{ "scene", required_argument, NULL, 's' },
		{ "hz", required_argument, NULL, 'z' },
		{ "seconds", required_argument, NULL, 't' },
		{ "reps", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	const char *driver = "vflipq", *scene = "primary";
	double hz = 60, seconds = 3, runs[16], xcheck[16], flipsps[16];
	int reps = 3, c, crc_fd, pipe = 0;
	struct bench_fb ring[RING], ov[2], cur;
	struct stamper st = { 0 };
	struct bench_dev dev;
	struct bench_pipe *p;
	drmModeModeInfo mode;
	uint32_t pfmt = DRM_FORMAT_XRGB8888;
	const char *name;
	struct bench_req r;
	char extra[512], fname[128];
	uint64_t bytes_read = 0;
	int n_ov = 0, ret;
	bool with_cursor = false;
	FILE *ft;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'd': driver = optarg; break;
		case 's': scene = optarg; break;
		case 'z': hz = atof(optarg); break;
		case 't': seconds = atof(optarg); break;
		case 'r': reps = atoi(optarg); break;
		default: return 2;
		}
	}
	if (reps < 1 || reps > 16)
		die("--reps: 1-16");
	if (!strcmp(scene, "primary"))
		name = "composer_fps_primary_1080p";
	else if (!strcmp(scene, "overlays"))
		name = "composer_fps_overlays_cursor_1080p";
	else if (!strcmp(scene, "fp16"))
		name = "composer_fps_fp16_10bit_1080p";
	else
		die("unknown scene %s", scene);

	if (bench_open(&dev, driver, !strcmp(driver, "vflipq") ? "default" : NULL))
		die("no %s device", driver);
	p = &dev.pipe[pipe];

	if (!strcmp(scene, "fp16")) {
		pfmt = DRM_FORMAT_XRGB16161616F;
		if (!p->n_overlays ||
		    !plane_has_format(dev.fd, p->primary, pfmt) ||
		    !plane_has_format(dev.fd, p->overlays[0],
				      DRM_FORMAT_XRGB2101010)) {
			snprintf(extra, sizeof(extra),
				 "\"skipped\": \"%s has no XRGB16161616F or "
				 "XRGB2101010 plane format\"", driver);
			emit(name, driver, "fps", "higher", NULL, 0, extra);
			bench_close(&dev);
			return 0;
		}
	}
	if (!strcmp(scene, "overlays") && (p->n_overlays < 2 || !p->cursor))
		die("%s: needs 2 overlays and a cursor (vkms: enable_overlay=1 "
		    "enable_cursor=1)", driver);

	bench_reset(&dev);
	bench_mode_1080p(&mode, hz);
	for (int i = 0; i < RING; i++) {
		bench_fb_create(dev.fd, 1920, 1080, pfmt, &ring[i]);
		bench_fb_fill(&ring[i], i + 1, false);
	}
	bytes_read = 1920ull * 1080 * ring[0].cpp;
	bench_pipe_on(&dev, pipe, &mode, &ring[0]);

	req_init(&r);
	if (!strcmp(scene, "overlays")) {
		static const int pos[2][2] = { { 100, 80 }, { 540, 300 } };

		for (n_ov = 0; n_ov < 2; n_ov++) {
			bench_fb_create(dev.fd, 1280, 720, DRM_FORMAT_ARGB8888,
					&ov[n_ov]);
			bench_fb_fill(&ov[n_ov], 10 + n_ov, true);
			req_plane(&r, dev.fd, p->overlays[n_ov], p->crtc_id,
				  &ov[n_ov], pos[n_ov][0], pos[n_ov][1]);
			bytes_read += 1280ull * 720 * 4;
		}
		bench_fb_create(dev.fd, 64, 64, DRM_FORMAT_ARGB8888, &cur);
		bench_fb_fill(&cur, 20, true);
		req_plane(&r, dev.fd, p->cursor, p->crtc_id, &cur, 900, 500);
		bytes_read += 64 * 64 * 4;
		with_cursor = true;
		st.fbs[st.n++] = &cur;
	} else if (!strcmp(scene, "fp16")) {
		bench_fb_create(dev.fd, 1920, 1080, DRM_FORMAT_XRGB2101010,
				&ov[0]);
		bench_fb_fill(&ov[0], 30, false);
		n_ov = 1;
		req_plane(&r, dev.fd, p->overlays[0], p->crtc_id, &ov[0], 0, 0);
		if (bench_has_prop(dev.fd, p->overlays[0], DRM_MODE_OBJECT_PLANE,
				   "alpha"))
			req_add(&r, dev.fd, p->overlays[0],
				DRM_MODE_OBJECT_PLANE, "alpha", 0x8000);
		bytes_read += 1920ull * 1080 * 4;
		st.fbs[st.n++] = &ov[0];
	} else {
		for (int i = 0; i < RING; i++)
			st.fbs[st.n++] = &ring[i];
	}
	if (r.n_props) {
		ret = req_commit(dev.fd, &r, 0, NULL);
		if (ret)
			die("%s: %s planes: %s", driver, scene, strerror(-ret));
	}

	crc_fd = crc_open(&dev, pipe);
	if (pthread_create(&st.thread, NULL, stamp_thread, &st))
		die("pthread_create");

	snprintf(fname, sizeof(fname), "frametimes-%s-%s.txt", scene, driver);
	ft = data_file(fname);
	{
		struct crc_state cs = { 0 };
		uint64_t t_end, t_warm = now_ns() + 500000000ull;
		uint64_t composed0 = 0, flips = 0;
		int rep = -1, k = 0;
		bool in_flight = false;

		t_end = t_warm;
		for (;;) {
			struct pollfd pfd[2] = {
				{ .fd = dev.fd, .events = POLLIN },
				{ .fd = crc_fd, .events = POLLIN },
			};
			uint64_t now = now_ns();

			if (now >= t_end) {
				if (rep >= 0) {
					double dt = (now - (t_end - (uint64_t)
						(seconds * 1e9))) / 1e9;

					runs[rep] = cs.distinct / dt;
					flipsps[rep] = flips / dt;
					xcheck[rep] = (frames_composed(&dev, pipe) -
						       composed0) / dt;
					note("%s %s run %d: %.2f fps (%ld distinct "
					     "of %ld CRC entries, %llu flips, "
					     "%.2f compositions/s by counter)",
					     driver, scene, rep + 1, runs[rep],
					     cs.distinct, cs.entries,
					     (unsigned long long)flips,
					     xcheck[rep]);
				}
				if (++rep == reps)
					break;
				cs.entries = cs.distinct = 0;
				cs.frame_times = ft;
				flips = 0;
				composed0 = frames_composed(&dev, pipe);
				t_end = now + (uint64_t)(seconds * 1e9);
			}
			if (!in_flight) {
				req_init(&r);
				req_add(&r, dev.fd, p->primary,
					DRM_MODE_OBJECT_PLANE, "FB_ID",
					ring[++k % RING].fb_id);
				ret = req_commit(dev.fd, &r,
						 DRM_MODE_ATOMIC_NONBLOCK |
						 DRM_MODE_PAGE_FLIP_EVENT, NULL);
				if (ret == 0)
					in_flight = true;
				else if (ret != -EBUSY)
					die("%s: flip: %s", driver,
					    strerror(-ret));
			}
			if (poll(pfd, 2, 5) < 0 && errno != EINTR)
				die("poll: %s", strerror(errno));
			if (pfd[0].revents & POLLIN) {
				struct bench_events ev = { 0 };

				bench_read_events(dev.fd, 0, &ev);
				if (ev.flips) {
					in_flight = false;
					flips += ev.flips;
				}
			}
			if (pfd[1].revents & POLLIN)
				crc_drain(crc_fd, &cs, rep >= 0);
		}
		while (in_flight) {
			struct bench_events ev = { 0 };

			if (!bench_read_events(dev.fd, 1000, &ev))
				break;
			in_flight = !ev.flips;
		}
	}
	fclose(ft);
	st.stop = true;
	pthread_join(st.thread, NULL);
	close(crc_fd);

	{
		double xs[16];
		int n = 0;

		memcpy(xs, xcheck, sizeof(double) * reps);
		n = snprintf(extra, sizeof(extra),
			     "\"bytes_read_per_frame\": %llu, "
			     "\"bytes_written_per_frame\": %llu, \"hz\": %g, "
			     "\"flips_per_s_median\": %.3f",
			     (unsigned long long)bytes_read,
			     1920ull * 1080 * 8, hz, median(flipsps, reps));
		if (dev.is_vflipq)
			snprintf(extra + n, sizeof(extra) - n,
				 ", \"counter_fps_median\": %.3f",
				 median(xs, reps));
	}
	emit(name, driver, "fps", "higher", runs, reps, extra);

	bench_reset(&dev);
	for (int i = 0; i < RING; i++)
		bench_fb_destroy(dev.fd, &ring[i]);
	for (int i = 0; i < n_ov; i++)
		bench_fb_destroy(dev.fd, &ov[i]);
	if (with_cursor)
		bench_fb_destroy(dev.fd, &cur);
	bench_close(&dev);
	return 0;
}
