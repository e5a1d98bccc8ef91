// SPDX-License-Identifier: MIT
/*
 * Flip-queue benchmarks (vflipq only, against its own classic path), on
 * the default device, CRTC 0, primary plane, 1920x1080@60:
 *
 *   flipq-events  events delivered per frame shown: a classic page-flip
 *                 loop (one event per flip) vs batches of 2, 4, 8 queued
 *                 flips, targets one period apart, interrupt target at each
 *                 batch's last PresentId (GET_COUNTERS flipq_events /
 *                 flips_shown, and the events actually read)
 *   flipq-ontime  3,600 queued flips, targets one period apart (half a
 *                 period before a vblank), queue kept 6-8 deep, woken every
 *                 2 frames: share shown on exactly the expected vblank (the
 *                 first at or after the target), checked from the log; flips
 *                 that the benchmark itself submitted after their expected
 *                 vblank (guest starved by the host) are counted separately
 *   submit-cost   us per FLIPQ_SUBMIT ioctl of one flip (a batch of one)
 *                 vs per nonblocking atomic page-flip commit ioctl on the
 *                 same device and plane; also per flip of one FLIPQ_SUBMIT
 *                 of 8
 *
 * Every uAPI struct is zero-initialised (members may be appended later).
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <drm_fourcc.h>

#include "bench.h"

#define NFB 4

struct fq {
	struct bench_dev dev;
	struct bench_fb fbs[NFB];
	drmModeModeInfo mode;
	uint64_t period;
	uint32_t crtc, plane;
	uint32_t log_handle, log_n;
	size_t log_size;
	const struct drm_vflipq_log_entry *log;
};

static void fq_setup(struct fq *q)
{
	if (bench_open(&q->dev, "vflipq", "default"))
		die("no vflipq device named \"default\"");
	if (!(q->dev.caps.caps & VFLIPQ_CAP_FLIP_QUEUE) ||
	    q->dev.caps.flipq_depth < 8)
		die("vflipq: no flip queue of depth >= 8 (depth %u)",
		    q->dev.caps.flipq_depth);
	bench_reset(&q->dev);
	bench_mode_1080p(&q->mode, 60);
	q->period = bench_mode_period_ns(&q->mode);
	for (int i = 0; i < NFB; i++) {
		bench_fb_create(q->dev.fd, 1920, 1080, DRM_FORMAT_XRGB8888,
				&q->fbs[i]);
		bench_fb_fill(&q->fbs[i], i + 1, false);
	}
	bench_pipe_on(&q->dev, 0, &q->mode, &q->fbs[0]);
	q->crtc = q->dev.pipe[0].crtc_id;
	q->plane = q->dev.pipe[0].primary;
}

static void fq_teardown(struct fq *q)
{
	if (q->log) {
		struct drm_gem_close gc;

		munmap((void *)q->log, q->log_size);
		memset(&gc, 0, sizeof(gc));
		gc.handle = q->log_handle;
		drmIoctl(q->dev.fd, DRM_IOCTL_GEM_CLOSE, &gc);
	}
	bench_reset(&q->dev);
	for (int i = 0; i < NFB; i++)
		bench_fb_destroy(q->dev.fd, &q->fbs[i]);
	bench_close(&q->dev);
}

static void fq_log_set(struct fq *q, uint32_t n)
{
	struct drm_mode_map_dumb map;
	uint64_t size;
	void *p;

	q->log_handle = fq_set_log(q->dev.fd, q->crtc, q->plane, n, &size);
	memset(&map, 0, sizeof(map));
	map.handle = q->log_handle;
	if (drmIoctl(q->dev.fd, DRM_IOCTL_MODE_MAP_DUMB, &map))
		die("MAP_DUMB of the log: %s", strerror(errno));
	p = mmap(NULL, size, PROT_READ, MAP_SHARED, q->dev.fd, map.offset);
	if (p == MAP_FAILED)
		die("mmap of the log: %s", strerror(errno));
	q->log = p;
	q->log_n = n;
	q->log_size = size;
}

static int fq_submit(struct fq *q, uint32_t fb, uint64_t id, uint64_t target)
{
	return fq_submit_plane(q->dev.fd, q->crtc, q->plane, fb, id, target);
}

static void fq_irq_target(struct fq *q, uint64_t target)
{
	fq_set_irq_target(q->dev.fd, q->crtc, q->plane, target);
}

static void fq_cancel(struct fq *q, uint64_t from)
{
	struct drm_vflipq_cancel_plane p;
	struct drm_vflipq_flip_cancel c;

	memset(&p, 0, sizeof(p));
	memset(&c, 0, sizeof(c));
	p.plane_id = q->plane;
	p.present_id_cancel_requested = from;
	c.crtc_id = q->crtc;
	c.num_planes = 1;
	c.planes_ptr = (uintptr_t)&p;
	c.plane_size = sizeof(p);
	if (drmIoctl(q->dev.fd, DRM_IOCTL_VFLIPQ_FLIPQ_CANCEL, &c))
		die("FLIPQ_CANCEL: %s", strerror(errno));
}

static struct drm_vflipq_update_log fq_update(struct fq *q)
{
	struct drm_vflipq_update_log u;

	memset(&u, 0, sizeof(u));
	u.crtc_id = q->crtc;
	u.plane_id = q->plane;
	if (drmIoctl(q->dev.fd, DRM_IOCTL_VFLIPQ_FLIPQ_UPDATE_LOG, &u))
		die("FLIPQ_UPDATE_LOG: %s", strerror(errno));
	return u;
}

static struct drm_vflipq_get_counters fq_counters(struct fq *q)
{
	return fq_get_counters(q->dev.fd, q->crtc);
}

/* Wait for a flip-queue event of our plane with present_id >= @id. */
static struct drm_vflipq_event_flipq fq_wait(struct fq *q, uint64_t id,
					     int *nevents)
{
	uint64_t end = now_ns() + 3000000000ull;

	for (;;) {
		struct bench_events ev = { 0 };

		if (now_ns() > end)
			die("no flip-queue event for PresentId %llu in 3 s",
			    (unsigned long long)id);
		if (!bench_read_events(q->dev.fd, 100, &ev))
			continue;
		if (nevents)
			*nevents += ev.flipq;
		if (ev.flipq && ev.last_flipq.plane_id == q->plane &&
		    ev.last_flipq.present_id >= id)
			return ev.last_flipq;
	}
}

/* A vblank timestamp of the pipe (drmWaitVBlank: microseconds). */
static uint64_t fq_vblank_ns(struct fq *q)
{
	drmVBlank vbl;

	memset(&vbl, 0, sizeof(vbl));
	vbl.request.type = DRM_VBLANK_RELATIVE;
	vbl.request.sequence = 1;
	if (drmWaitVBlank(q->dev.fd, &vbl))
		die("drmWaitVBlank: %s", strerror(errno));
	return (uint64_t)vbl.reply.tval_sec * 1000000000ull +
	       (uint64_t)vbl.reply.tval_usec * 1000ull;
}

/* ---- events per frame ---------------------------------------------------- */

int bench_flipq_events(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "frames", required_argument, NULL, 'n' },
		{ "reps", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	static const int depths[] = { 1, 2, 4, 8 };
	int frames = 120, reps = 3, c;
	uint64_t id = 0;
	struct fq q;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'n': frames = atoi(optarg); break;
		case 'r': reps = atoi(optarg); break;
		default: return 2;
		}
	}
	if (reps < 1 || reps > 16 || frames < 8 || frames % 8)
		die("flipq-events: --reps 1-16, --frames a multiple of 8");
	memset(&q, 0, sizeof(q));
	fq_setup(&q);

	for (size_t d = 0; d < sizeof(depths) / sizeof(depths[0]); d++) {
		int depth = depths[d];
		double runs[16], read_pf[16], irq_pf[16];
		char name[64], extra[256];

		if (depth > 1 && !q.log)
			fq_log_set(&q, 256);
		for (int rep = 0; rep < reps; rep++) {
			struct drm_vflipq_get_counters c0, c1;
			int nread = 0;
			uint64_t shown;

			c0 = fq_counters(&q);
			if (depth == 1) {
				/* Classic: one nonblocking page flip per frame. */
				for (int i = 0; i < frames; i++) {
					struct bench_events ev = { 0 };
					struct bench_req r;
					int ret;

					req_init(&r);
					req_add(&r, q.dev.fd, q.plane,
						DRM_MODE_OBJECT_PLANE, "FB_ID",
						q.fbs[(i + 1) % NFB].fb_id);
					ret = req_commit(q.dev.fd, &r,
							 DRM_MODE_ATOMIC_NONBLOCK |
							 DRM_MODE_PAGE_FLIP_EVENT,
							 NULL);
					if (ret)
						die("page flip: %s", strerror(-ret));
					while (!ev.flips)
						if (!bench_read_events(q.dev.fd,
								       2000, &ev))
							die("no flip event");
					nread += ev.flips;
				}
				c1 = fq_counters(&q);
				shown = frames;	/* every flip is a new frame */
			} else {
				uint64_t base = now_ns() + q.period / 2;

				for (int b = 0; b < frames / depth; b++) {
					struct drm_vflipq_event_flipq ev;
					uint64_t last = id + depth;

					fq_irq_target(&q, last);
					for (int j = 0; j < depth; j++) {
						int ret;

						id++;
						ret = fq_submit(&q,
							q.fbs[id % NFB].fb_id, id,
							base + j * q.period);
						if (ret)
							die("FLIPQ_SUBMIT depth %d: %s",
							    depth, strerror(-ret));
					}
					ev = fq_wait(&q, last, &nread);
					base = ev.timestamp_ns + q.period / 2;
				}
				c1 = fq_counters(&q);
				shown = c1.flips_shown - c0.flips_shown;
				if (c1.flips_cancelled != c0.flips_cancelled)
					note("depth %d run %d: %llu flips "
					     "cancelled (late)", depth, rep + 1,
					     (unsigned long long)(c1.flips_cancelled -
								  c0.flips_cancelled));
			}
			if (!shown)
				die("depth %d: no frame shown", depth);
			if (depth == 1)
				runs[rep] = (double)nread / shown;
			else
				runs[rep] = (double)(c1.flipq_events -
						     c0.flipq_events) / shown;
			read_pf[rep] = (double)nread / shown;
			irq_pf[rep] = (double)(c1.vblank_irqs - c0.vblank_irqs +
					       c1.flipq_irqs - c0.flipq_irqs) /
				      shown;
			note("depth %d run %d: %.4f events/frame (%d events "
			     "read, %llu frames shown, %llu flip-queue events, "
			     "%llu timer expirations)", depth, rep + 1,
			     runs[rep], nread, (unsigned long long)shown,
			     (unsigned long long)(c1.flipq_events -
						  c0.flipq_events),
			     (unsigned long long)(c1.timer_expirations -
						  c0.timer_expirations));
		}
		snprintf(name, sizeof(name), "flipq_events_per_frame_depth%d",
			 depth);
		snprintf(extra, sizeof(extra),
			 "\"goal_max\": %.4f, \"events_read_per_frame\": %.4f, "
			 "\"frames_per_run\": %d",
			 depth == 1 ? 1.0 : 1.0 / depth + 0.01,
			 median(read_pf, reps), frames);
		(void)irq_pf;
		emit(name, depth == 1 ? "vflipq classic page-flip loop" :
		     "vflipq", "events/frame", "lower", runs, reps, extra);
	}
	fq_teardown(&q);
	return 0;
}

/* ---- on-time share ----------------------------------------------------------- */

int bench_flipq_ontime(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "flips", required_argument, NULL, 'n' },
		{ "segments", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	int n = 3600, segs = 3, c, nread = 0;
	const int depth = 8, wake_every = 2;
	uint64_t submitted = 0, shown = 0, irq = 0, t0, *target, *sub;
	struct drm_vflipq_get_counters c0, c1;
	struct drm_vflipq_update_log u;
	double runs[16];
	long on_time = 0, late = 0, early = 0, cancelled = 0, late_sub = 0;
	long late_sub_on_time = 0;
	char extra[512];
	struct fq q;
	FILE *f;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'n': n = atoi(optarg); break;
		case 's': segs = atoi(optarg); break;
		default: return 2;
		}
	}
	if (n < 8 || n > 60000 || segs < 1 || segs > 16 || n % segs)
		die("flipq-ontime: --flips 8-60000, a multiple of --segments");
	memset(&q, 0, sizeof(q));
	fq_setup(&q);
	fq_log_set(&q, (uint32_t)n + 16);
	target = calloc(n, sizeof(*target));
	sub = calloc(n, sizeof(*sub));
	if (!target || !sub)
		die("out of memory");

	t0 = fq_vblank_ns(&q);
	for (int k = 0; k < n; k++)
		target[k] = t0 + (uint64_t)(k + 3) * q.period - q.period / 2;
	c0 = fq_counters(&q);
	while (shown < (uint64_t)n) {
		uint64_t want;

		while (submitted < (uint64_t)n && submitted - shown < depth) {
			int ret = fq_submit(&q, q.fbs[(submitted + 1) % NFB].fb_id,
					    submitted + 1, target[submitted]);

			if (ret == -EAGAIN)
				break;
			if (ret)
				die("FLIPQ_SUBMIT %llu: %s",
				    (unsigned long long)submitted + 1,
				    strerror(-ret));
			sub[submitted] = now_ns();
			submitted++;
		}
		/* Wake up when depth - wake_every flips are left, or at the end. */
		want = submitted == (uint64_t)n ? (uint64_t)n
						 : submitted - (depth - wake_every);
		if (want <= shown)
			want = shown + 1;
		if (want != irq) {
			fq_irq_target(&q, want);
			irq = want;
		}
		shown = fq_wait(&q, want, &nread).present_id;
	}
	c1 = fq_counters(&q);
	u = fq_update(&q);
	if (u.first_free != (uint32_t)n)
		die("log: first_free %u after %d flips", u.first_free, n);

	f = data_file("ontime.txt");
	fprintf(f, "# k target_ns-t0 expected_ns-t0 actual_ns-t0 (0: cancelled) "
		"submitted_ns-t0 period_ns %llu\n", (unsigned long long)q.period);
	for (int s = 0; s < segs; s++) {
		long ok = 0;

		for (int k = s * (n / segs); k < (s + 1) * (n / segs); k++) {
			const struct drm_vflipq_log_entry *e = &q.log[k];
			uint64_t exp = t0 + (uint64_t)(k + 3) * q.period;
			int64_t d;

			if (e->present_id != (uint64_t)k + 1)
				die("log entry %d: PresentId %llu", k,
				    (unsigned long long)e->present_id);
			/* Submitted after its vblank: cannot be on time. */
			late_sub += sub[k] > exp;
			if (e->timestamp_ns == VFLIPQ_TIMESTAMP_CANCELLED) {
				cancelled++;
				fprintf(f, "%d %llu %llu 0 %llu\n", k,
					(unsigned long long)(target[k] - t0),
					(unsigned long long)(exp - t0),
					(unsigned long long)(sub[k] - t0));
				continue;
			}
			d = (int64_t)(e->timestamp_ns - exp);
			if (d > (int64_t)q.period / 2) {
				late++;
			} else if (d < -(int64_t)q.period / 2) {
				early++;
			} else {
				ok++;
				late_sub_on_time += sub[k] > exp;
			}
			fprintf(f, "%d %llu %llu %lld %llu\n", k,
				(unsigned long long)(target[k] - t0),
				(unsigned long long)(exp - t0),
				(long long)(e->timestamp_ns - t0),
				(unsigned long long)(sub[k] - t0));
		}
		on_time += ok;
		runs[s] = (double)ok / (n / segs);
	}
	fclose(f);
	note("on time: %ld of %d (%ld late, %ld early, %ld cancelled; %ld "
	     "submitted after their vblank by a starved benchmark), %d events "
	     "read, %llu flip-queue events", on_time, n, late, early, cancelled,
	     late_sub, nread,
	     (unsigned long long)(c1.flipq_events - c0.flipq_events));
	snprintf(extra, sizeof(extra),
		 "\"aggregate\": %.6f, \"flips\": %d, \"late\": %ld, "
		 "\"early\": %ld, \"cancelled\": %ld, "
		 "\"submitted_after_expected_vblank\": %ld, "
		 "\"share_of_flips_submitted_in_time\": %.6f, "
		 "\"goal_min\": 0.999, \"events_per_frame\": %.4f",
		 (double)on_time / n, n, late, early, cancelled, late_sub,
		 n > late_sub ? (double)(on_time - late_sub_on_time) /
				(n - late_sub) : 0.0,
		 (double)(c1.flipq_events - c0.flipq_events) / n);
	emit("flipq_on_time_share", "vflipq", "share", "higher", runs, segs,
	     extra);
	free(target);
	free(sub);
	fq_teardown(&q);
	return 0;
}

/* ---- submit cost --------------------------------------------------------------- */

int bench_submit_cost(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "count", required_argument, NULL, 'n' },
		{ "reps", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	int count = 200, reps = 3, c;
	double fq_med[16], at_med[16], fq_p90[16], at_p90[16], many_med[16];
	double *t;
	uint64_t id = 0;
	struct fq q;
	char extra[192];
	FILE *f;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'n': count = atoi(optarg); break;
		case 'r': reps = atoi(optarg); break;
		default: return 2;
		}
	}
	if (reps < 1 || reps > 16 || count < 8 || count % 8)
		die("submit-cost: --reps 1-16, --count a multiple of 8");
	memset(&q, 0, sizeof(q));
	fq_setup(&q);
	fq_log_set(&q, 64);
	t = calloc(count, sizeof(*t));
	if (!t)
		die("out of memory");
	f = data_file("submit-cost.txt");
	fprintf(f, "# run kind(0 FLIPQ_SUBMIT of 1 flip, 1 atomic page flip, "
		"2 FLIPQ_SUBMIT of 8 flips, per flip) us\n");

	for (int rep = 0; rep < reps; rep++) {
		int at_n = count / 2;

		/*
		 * Queued flips far in the future, 8 deep, each in a
		 * FLIPQ_SUBMIT of its own (a batch of one), then cancelled.
		 */
		for (int b = 0; b < count / 8; b++) {
			uint64_t far = now_ns() + 10000000000ull;
			uint64_t first = id + 1;

			for (int j = 0; j < 8; j++) {
				uint64_t t0;
				int ret;

				id++;
				t0 = now_ns();
				ret = fq_submit(&q, q.fbs[id % NFB].fb_id, id,
						far + j);
				t[b * 8 + j] = (now_ns() - t0) / 1e3;
				if (ret)
					die("FLIPQ_SUBMIT of 1: %s",
					    strerror(-ret));
			}
			fq_cancel(&q, first);
		}
		for (int i = 0; i < count; i++)
			fprintf(f, "%d 0 %.1f\n", rep, t[i]);
		fq_med[rep] = median(t, count);
		fq_p90[rep] = percentile(t, count, 90);

		/*
		 * The same 8 flips in one FLIPQ_SUBMIT, a batch of 8 (the NFB
		 * buffers recurring, as a swap chain's do), per flip.
		 */
		for (int b = 0; b < count / 8; b++) {
			uint64_t far = now_ns() + 10000000000ull;
			uint32_t fbs[8];
			uint64_t t0;
			int ret;

			for (int j = 0; j < 8; j++)
				fbs[j] = q.fbs[(id + 1 + j) % NFB].fb_id;
			t0 = now_ns();
			ret = fq_submit_plane_many(q.dev.fd, q.crtc, q.plane,
						   fbs, id + 1, far, 1, 8);
			t[b] = (now_ns() - t0) / 1e3 / 8;
			if (ret)
				die("FLIPQ_SUBMIT of 8: %s", strerror(-ret));
			fq_cancel(&q, id + 1);
			id += 8;
		}
		for (int i = 0; i < count / 8; i++)
			fprintf(f, "%d 2 %.2f\n", rep, t[i]);
		many_med[rep] = median(t, count / 8);

		/* Plain nonblocking page flips of the same plane. */
		for (int i = 0; i < at_n; i++) {
			struct bench_events ev = { 0 };
			struct bench_req r;
			uint64_t t0;
			int ret;

			req_init(&r);
			req_add(&r, q.dev.fd, q.plane, DRM_MODE_OBJECT_PLANE,
				"FB_ID", q.fbs[(i + 1) % NFB].fb_id);
			t0 = now_ns();
			ret = req_commit(q.dev.fd, &r, DRM_MODE_ATOMIC_NONBLOCK |
					 DRM_MODE_PAGE_FLIP_EVENT, NULL);
			t[i] = (now_ns() - t0) / 1e3;
			if (ret)
				die("atomic page flip: %s", strerror(-ret));
			while (!ev.flips)
				if (!bench_read_events(q.dev.fd, 2000, &ev))
					die("no flip event");
		}
		for (int i = 0; i < at_n; i++)
			fprintf(f, "%d 1 %.1f\n", rep, t[i]);
		at_med[rep] = median(t, at_n);
		at_p90[rep] = percentile(t, at_n, 90);
		note("submit cost run %d: FLIPQ_SUBMIT of 1 flip %.1f us, "
		     "of 8 flips %.1f us a flip, atomic page flip "
		     "%.1f us (medians of %d, %d and %d)", rep + 1,
		     fq_med[rep], many_med[rep], at_med[rep], count, count / 8,
		     at_n);
	}
	/* The batch-of-8 key keeps its 1.x name: earlier results compare. */
	snprintf(extra, sizeof(extra), "\"calls_per_run\": %d, "
		 "\"p90_us\": %.1f, \"submit_many_of_8_us_per_flip\": %.2f",
		 count, median(fq_p90, reps), median(many_med, reps));
	emit("flipq_submit_cost_vs_atomic_flip", "vflipq", "us", "lower",
	     fq_med, reps, extra);
	snprintf(extra, sizeof(extra), "\"calls_per_run\": %d, "
		 "\"p90_us\": %.1f", count / 2, median(at_p90, reps));
	emit("flipq_submit_cost_vs_atomic_flip",
	     "vflipq nonblocking atomic page flip", "us", "lower", at_med,
	     reps, extra);
	fclose(f);
	free(t);
	fq_teardown(&q);
	return 0;
}
