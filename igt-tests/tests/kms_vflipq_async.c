// SPDX-License-Identifier: MIT
/*
 * Async page flips (DRM_MODE_PAGE_FLIP_ASYNC): on the legacy page-flip
 * ioctl and on the atomic ioctl (kernels with
 * DRM_CAP_ATOMIC_ASYNC_PAGE_FLIP).  Each flip is judged by itself:
 *
 * - by its event, against the CRTC's vblank counter and clock
 *   (DRM_IOCTL_CRTC_GET_SEQUENCE before the flip and after its event):
 *   the event names a vblank that happened, with that vblank's own
 *   timestamp;
 * - by the screen (the CRC of each frame, numbered by the same counter):
 *   an async flip's event carries the last vblank before the flip was
 *   applied, so the frame of that vblank still shows the old image and the
 *   next frame the new one; a synchronous flip's event carries the vblank
 *   that latched it, whose frame already shows the new image.
 *
 * Every event also goes through the CRTC's truth checker (vflipq_truth.c):
 * on the mode's grid, read after its vblank; an async flip's may name the
 * vblank of the one before it again, a synchronous flip's names a later
 * vblank than any before, at or after the flip was asked for.
 *
 * A burst of flips, each waiting for its event, then shows the throughput:
 * synchronous flips are each applied after a vblank that came after the
 * flip was asked for; async flips are applied in the frame they were asked
 * in unless a vblank happens to fall inside the flip.
 */
/**
 * TEST: kms vflipq async
 * Category: Display
 * Mega feature: General Display Features
 * Sub-category: flips
 * Functionality: async page flips
 * Driver requirement: vflipq
 * Description: Async page flips (DRM_MODE_PAGE_FLIP_ASYNC) on the legacy and
 *              atomic ioctls, each judged by its event (vblank counter and
 *              clock) and by the CRC of each frame.
 *
 * SUBTEST: caps
 * Description: Async page flips are offered exactly where the primary plane
 *              has IN_FORMATS_ASYNC (kernels with the property):
 *              DRM_CAP_ASYNC_PAGE_FLIP, and DRM_CAP_ATOMIC_ASYNC_PAGE_FLIP
 *              where the kernel has it, say so
 *
 * SUBTEST: legacy
 * Description: Legacy async page flips: each event carries the last vblank
 *              before the flip, the next frame shows it, and back-to-back
 *              flips do not wait for vblanks
 *
 * SUBTEST: atomic
 * Description: Atomic async commits (FB_ID only): each event carries the last
 *              vblank before the flip, the next frame shows it, and
 *              back-to-back flips do not wait for vblanks
 *
 * SUBTEST: clobber-after-event
 * Description: Once an async flip's event came, the client may draw into the
 *              buffer it left: no frame shows that drawing (upstream
 *              kms_async_flips@crc)
 *
 * SUBTEST: invalid
 * Description: An async flip cannot come with a mode set or other changes, nor
 *              on a CRTC that is off
 */

#include "igt.h"
#include "vflipq_helpers.h"

IGT_TEST_DESCRIPTION("vflipq async page flips");

#define W 640
#define H 480
#define SPACED_FLIPS 8
#define BURST_FLIPS 20
#define EVENT_MS 1000

#ifndef DRM_CAP_ATOMIC_ASYNC_PAGE_FLIP
#define DRM_CAP_ATOMIC_ASYNC_PAGE_FLIP 0x15
#endif

static struct vfq_dev dev;
static igt_display_t display;
static drmModeModeInfo mode;
static struct vfq_fb fbs[2];

/* Blocking modeset of pipe 0 to @m, its primary full-screen on @fb. */
static void pipe_on(const drmModeModeInfo *m, struct vfq_fb *fb)
{
	vfq_display_pipe(&display, &dev, 0, m, fb);
	igt_display_commit2(&display, COMMIT_ATOMIC);
}

/* Blocking modeset turning pipe 0 off: no connector, mode or primary. */
static void pipe_off(void)
{
	igt_output_set_pipe(vfq_output(&display, &dev, 0), PIPE_NONE);
	igt_plane_set_fb(vfq_display_plane(&display, 0, dev.pipe[0].primary),
			 NULL);
	igt_display_commit2(&display, COMMIT_ATOMIC);
}

/*
 * The flip under test, raw: the legacy ioctl, or a nonblocking atomic
 * commit of FB_ID alone (all an async commit may carry); either way the
 * test reads its event and judges it against the CRTC's vblanks itself.
 * igt_display does not see it: the next pipe_on() sets the primary anew.
 */
static int flip(int i, bool atomic, uint32_t async)
{
	const struct vfq_pipe *p = &dev.pipe[0];
	drmModeAtomicReq *req;

	if (!atomic)
		return drmModePageFlip(dev.fd, p->crtc_id, fbs[i].fb_id,
				       DRM_MODE_PAGE_FLIP_EVENT | async,
				       NULL) ? -errno : 0;
	req = vfq_req_new();
	vfq_req_set(req, dev.fd, p->primary, DRM_MODE_OBJECT_PLANE, "FB_ID",
		    fbs[i].fb_id);
	return vfq_req_commit(dev.fd, req, DRM_MODE_ATOMIC_NONBLOCK |
			      DRM_MODE_PAGE_FLIP_EVENT | async, NULL);
}

/* One flip as the client saw it; times are CLOCK_MONOTONIC. */
struct flip_obs {
	uint64_t seq0, ts0;	/* CRTC_GET_SEQUENCE just before the flip */
	uint64_t t_call, t_recv;	/* flip asked / its event read */
	uint64_t seq1, ts1;	/* CRTC_GET_SEQUENCE after the event */
	struct vfq_event ev;
};

/*
 * The event's timestamp has microseconds (struct drm_event_vblank), its
 * sequence 32 bits: the kernel truncates both.
 */
static bool ev_is_vblank(const struct vfq_event *ev, uint64_t seq, uint64_t ts)
{
	return ev->sequence == (uint32_t)seq && ev->ts_ns == ts - ts % 1000;
}

/*
 * A checker for a run of flips of one kind on CRTC 0, from its last vblank
 * on: async flips report the last vblank before them (VFQ_TRUTH_ASYNC),
 * synchronous ones the vblank that latched them.  No mode set happens in a
 * run: the grid is that of @m.
 */
static void truth_start(struct vfq_truth *t, const drmModeModeInfo *m,
			uint32_t async)
{
	uint32_t crtc_id = dev.pipe[0].crtc_id;
	uint64_t seq, ts;

	vfq_truth_init(t, crtc_id, vfq_mode_period(m),
		       async ? VFQ_TRUTH_ASYNC : VFQ_TRUTH_FLIPS);
	vfq_vblank_grid(dev.fd, crtc_id, &seq, &ts);
	vfq_truth_vblank(t, seq, ts);
}

/*
 * Flip to fbs[fb] and wait for the event; checks what holds for any flip:
 * the event is the flip's, names a vblank between the two counter readings,
 * carries that vblank's own timestamp (exactly the one the counter gave),
 * and no time in the future; and @t's rules.
 */
static void flip_observe(struct vfq_truth *t, int fb, bool atomic,
			 uint32_t async, struct flip_obs *o)
{
	uint32_t crtc_id = dev.pipe[0].crtc_id;
	uint32_t s;

	vfq_vblank_grid(dev.fd, crtc_id, &o->seq0, &o->ts0);
	o->t_call = vfq_now_ns();
	igt_assert_eq(flip(fb, atomic, async), 0);
	igt_assert_eq(vfq_read_event(dev.fd, EVENT_MS, &o->ev), 1);
	o->t_recv = vfq_now_ns();
	vfq_vblank_grid(dev.fd, crtc_id, &o->seq1, &o->ts1);

	igt_assert_eq_u32(o->ev.type, DRM_EVENT_FLIP_COMPLETE);
	vfq_truth_event(t, async ? "async flip" : "flip", o->t_call, &o->ev,
			o->t_recv);
	igt_assert_eq_u32(o->ev.crtc_id, crtc_id);
	s = (uint32_t)o->ev.sequence;
	igt_assert_f((int32_t)(s - (uint32_t)o->seq0) >= 0 &&
		     (int32_t)((uint32_t)o->seq1 - s) >= 0,
		     "event of vblank %u, counter %llu before the flip and "
		     "%llu after its event\n", s,
		     (unsigned long long)o->seq0, (unsigned long long)o->seq1);
	if (s == (uint32_t)o->seq0)
		igt_assert_f(ev_is_vblank(&o->ev, o->seq0, o->ts0),
			     "event of vblank %u at %llu ns, the counter says "
			     "%llu ns\n", s, (unsigned long long)o->ev.ts_ns,
			     (unsigned long long)o->ts0);
	if (s == (uint32_t)o->seq1)
		igt_assert_f(ev_is_vblank(&o->ev, o->seq1, o->ts1),
			     "event of vblank %u at %llu ns, the counter says "
			     "%llu ns\n", s, (unsigned long long)o->ev.ts_ns,
			     (unsigned long long)o->ts1);
	igt_assert_lte_u64(o->ev.ts_ns, o->t_recv);
}

/* The event carries a vblank after the one current when the flip was asked. */
static bool flip_late(const struct flip_obs *o)
{
	return (uint32_t)o->ev.sequence != (uint32_t)o->seq0;
}

/*
 * SPACED_FLIPS flips, each at the start of a frame, each judged on screen:
 * the frames of the event's vblank and of the next one.  The composer may
 * merge frames when it falls behind (then a frame has no CRC, see "CRC" in
 * Documentation/vflipq/driver.rst): such a frame judges nothing, every CRC
 * reported must agree, and at least one flip must be judged on both frames.
 */
static void spaced_flips(bool atomic, uint32_t async)
{
	const uint32_t ids[2] = { fbs[0].fb_id, fbs[1].fb_id };
	int i, judged = 0, marker[2];
	struct vfq_screen scr;
	struct vfq_truth t;
	struct flip_obs o;

	vfq_screen_learn(&scr, &dev, 0, ids, 2, W, H);	/* fbs[0] shown */
	vfq_drain_events(dev.fd, 50);
	truth_start(&t, &mode, async);
	for (i = 0; i < SPACED_FLIPS; i++) {
		int old = i & 1, new = !old;

		igt_assert_eq(vfq_wait_vblank(dev.fd, dev.pipe[0].index,
					      DRM_VBLANK_RELATIVE, 1, 0,
					      NULL, NULL), 0);
		/*
		 * An async flip that overtakes the composition of its
		 * vblank drops that frame's CRC (kms-features.rst, "Async
		 * page flips"): flip half a frame in, once the composition
		 * of this 640x480 frame is normally over.
		 */
		if (async)
			usleep(8000);
		flip_observe(&t, new, atomic, async, &o);
		if (!async)
			igt_assert_f(flip_late(&o), "synchronous flip %d: event "
				     "of vblank %llu, made at %llu\n", i,
				     (unsigned long long)o.ev.sequence,
				     (unsigned long long)o.seq0);
		vfq_screen_record(&scr, o.seq0 + (uint32_t)(o.ev.sequence -
							    (uint32_t)o.seq0),
				  2, marker);
		igt_debug("flip %d (%s): event vblank %llu, screen %d %d\n",
			  i, async ? "async" : "sync",
			  (unsigned long long)o.ev.sequence, marker[0],
			  marker[1]);
		/* sync: the event's frame is the first with the new image */
		igt_assert_f(marker[0] == VFQ_SCREEN_NO_CRC ||
			     marker[0] == (async ? old : new),
			     "%s flip %d to fb %d: the frame of its event "
			     "(vblank %llu) shows fb %d\n",
			     async ? "async" : "synchronous", i, new,
			     (unsigned long long)o.ev.sequence, marker[0]);
		igt_assert_f(marker[1] == VFQ_SCREEN_NO_CRC || marker[1] == new,
			     "flip %d to fb %d: the frame after its event "
			     "(vblank %llu) shows fb %d\n", i, new,
			     (unsigned long long)o.ev.sequence + 1, marker[1]);
		judged += marker[0] != VFQ_SCREEN_NO_CRC &&
			  marker[1] != VFQ_SCREEN_NO_CRC;
	}
	vfq_screen_stop(&scr);
	igt_info("%d %s %s flips judged on screen, %d of them on both frames\n",
		 SPACED_FLIPS, atomic ? "atomic" : "legacy",
		 async ? "async" : "synchronous", judged);
	igt_assert_f(judged > 0, "no flip had CRCs of both frames\n");
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * BURST_FLIPS flips back to back, each waiting for its event, with CRC
 * capture on (the composer busy at every vblank): returns how many were
 * late (applied after a vblank that came after the flip was asked for).
 */
static int burst_flips(bool atomic, uint32_t async)
{
	uint64_t lat[BURST_FLIPS];
	struct vfq_truth t;
	struct flip_obs o;
	igt_pipe_crc_t *crc;
	int i, late = 0;

	crc = vfq_crc_start(dev.fd, dev.pipe[0].index);
	vfq_drain_events(dev.fd, 50);
	truth_start(&t, &mode, async);
	for (i = 0; i < BURST_FLIPS; i++) {
		flip_observe(&t, i & 1, atomic, async, &o);
		lat[i] = o.t_recv - o.t_call;
		late += flip_late(&o);
		if (!async)
			igt_assert_f(flip_late(&o), "synchronous flip %d: event "
				     "of vblank %llu, made at %llu\n", i,
				     (unsigned long long)o.ev.sequence,
				     (unsigned long long)o.seq0);
	}
	igt_pipe_crc_free(crc);
	qsort(lat, BURST_FLIPS, sizeof(lat[0]), cmp_u64);
	igt_info("%d %s %s flips back to back: %d late, flip to event "
		 "median %.2f ms, max %.2f ms\n", BURST_FLIPS,
		 atomic ? "atomic" : "legacy", async ? "async" : "synchronous",
		 late, lat[BURST_FLIPS / 2] / 1e6, lat[BURST_FLIPS - 1] / 1e6);
	return late;
}

static void test_flips(bool atomic)
{
	int late;

	pipe_on(&mode, &fbs[0]);
	spaced_flips(atomic, 0);
	spaced_flips(atomic, DRM_MODE_PAGE_FLIP_ASYNC);
	igt_assert_eq(burst_flips(atomic, 0), BURST_FLIPS);
	late = burst_flips(atomic, DRM_MODE_PAGE_FLIP_ASYNC);
	/*
	 * An async flip is late only when a vblank falls between the call
	 * and the commit: with flips of about a millisecond (printed above)
	 * that is one flip in ten or so.  Half of them late means the flips
	 * took half a frame each, i.e. they waited for something paced by
	 * the frames (a vblank or the composer), not that they were unlucky.
	 */
	igt_assert_f(late * 2 < BURST_FLIPS, "%d of %d async flips applied "
		     "after a later vblank than the one they were made in\n",
		     late, BURST_FLIPS);
}

/* Column 0 of @fb in one colour: what the test writes into a buffer. */
static void paint_column(struct vfq_fb *fb, uint32_t xrgb)
{
	for (int y = 0; y < fb->height; y++)
		*(uint32_t *)(fb->map + (size_t)y * fb->pitch) = xrgb;
}

/*
 * The client owns the outgoing buffer once an async flip's event came (as
 * upstream IGT's kms_async_flips@crc assumes): it draws into it at once,
 * here a column in another colour.  Every CRC must still be of the
 * reference picture, with both buffers showing it.  Rounds of flips, each
 * drawing into the buffer it flipped away from, then a wait for the next
 * CRC: the flips run while compositions do (1080p under TCG: one takes
 * milliseconds), and the wait lets one composition finish untouched, so
 * that every round judges at least one frame.
 */
#define CLOBBER_ROUNDS 30
#define CLOBBER_ROUND_NS 40000000ull	/* over two frames of flipping */
#define REF_XRGB 0x000040c0u

static void test_clobber_after_event(void)
{
	const struct vfq_pipe *p = &dev.pipe[0];
	uint32_t ref, value, frame;
	struct vfq_fb big[2];
	drmModeModeInfo m;
	igt_pipe_crc_t *crc;
	int cur = 0, flips = 0, judged = 0, bad = 0;
	struct vfq_truth truth;
	struct vfq_event ev;
	uint64_t t0, t_read;

	vfq_get_mode(dev.fd, p->conn_id, 1920, 1080, 60, &m);
	for (int i = 0; i < 2; i++) {
		vfq_fb_create(dev.fd, 1920, 1080, DRM_FORMAT_XRGB8888, &big[i]);
		vfq_fb_fill(&big[i], vfq_rgb8(0x00, 0x40, 0xc0));	/* REF_XRGB */
	}
	pipe_on(&m, &big[0]);
	crc = vfq_crc_start(dev.fd, p->index);
	/* the reference: two frames in a row alike */
	igt_assert_eq(vfq_crc_read(crc, 1000, &frame, &ref), 1);
	do {
		value = ref;
		igt_assert_eq(vfq_crc_read(crc, 1000, &frame, &ref), 1);
	} while (value != ref);
	vfq_drain_events(dev.fd, 50);
	truth_start(&truth, &m, DRM_MODE_PAGE_FLIP_ASYNC);

	for (int r = 0; r < CLOBBER_ROUNDS; r++) {
		uint64_t end = vfq_now_ns() + CLOBBER_ROUND_NS;

		while (vfq_now_ns() < end) {
			int next = !cur;

			paint_column(&big[next], REF_XRGB);
			/* raw legacy async flip, its event timed (flip()) */
			t0 = vfq_now_ns();
			igt_assert_eq(drmModePageFlip(dev.fd, p->crtc_id,
						      big[next].fb_id,
						      DRM_MODE_PAGE_FLIP_ASYNC |
						      DRM_MODE_PAGE_FLIP_EVENT,
						      NULL), 0);
			igt_assert_eq(vfq_read_event(dev.fd, EVENT_MS, &ev), 1);
			t_read = vfq_now_ns();
			igt_assert_eq_u32(ev.type, DRM_EVENT_FLIP_COMPLETE);
			vfq_truth_event(&truth, "async flip", t0, &ev, t_read);
			paint_column(&big[cur], 0x00ff0000u ^ (uint32_t)flips);
			cur = next;
			flips++;
			/* the CRCs that came meanwhile */
			while (vfq_crc_read(crc, 0, &frame, &value) == 1) {
				judged++;
				bad += value != ref;
			}
		}
		igt_assert_f(vfq_crc_read(crc, 1000, &frame, &value) == 1,
			     "round %d: no CRC within 1 s of the last flip\n", r);
		judged++;
		if (value != ref)
			igt_info("round %d: frame %u has CRC 0x%08x, the "
				 "picture is 0x%08x\n", r, frame, value, ref);
		bad += value != ref;
	}
	igt_pipe_crc_free(crc);
	igt_info("%d async flips, each drawing into the buffer it left; %d "
		 "frames judged, %d not of the picture\n", flips, judged, bad);
	igt_assert_eq(bad, 0);
	/* also drops unread events, as vfq_dev_reset() did */
	vfq_display_off(&display);
	for (int i = 0; i < 2; i++)
		vfq_fb_destroy(&big[i]);
}

/* Async flips exist only on kernels with IN_FORMATS_ASYNC (vflipq_compat.h). */
static void require_async(void)
{
	uint64_t v = 0;

	igt_require_f(drmGetCap(dev.fd, DRM_CAP_ASYNC_PAGE_FLIP, &v) == 0 && v,
		      "no async page flips on this kernel (no IN_FORMATS_ASYNC)\n");
}

igt_main
{
	igt_fixture {
		vfq_dev_init(&dev, vfq_open_default());
		igt_assert(dev.caps.caps & VFLIPQ_CAP_CRC);
		/* raw: also zpos, which igt_display_reset() leaves */
		vfq_dev_reset(&dev);
		vfq_display_init(&display, &dev);
		vfq_get_mode(dev.fd, dev.pipe[0].conn_id, W, H, 60, &mode);
		for (int i = 0; i < 2; i++) {
			vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888,
				      &fbs[i]);
			vfq_fb_pattern(&fbs[i], 21 + i);
		}
	}

	igt_describe("Async page flips are offered exactly where the primary "
		     "plane has IN_FORMATS_ASYNC (kernels with the property): "
		     "DRM_CAP_ASYNC_PAGE_FLIP, and DRM_CAP_ATOMIC_ASYNC_PAGE_FLIP "
		     "where the kernel has it, say so");
	igt_subtest("caps") {
		bool in_formats_async;
		uint32_t prop;
		uint64_t v = 0, blob;

		in_formats_async = vfq_prop_lookup(dev.fd, dev.pipe[0].primary,
						   DRM_MODE_OBJECT_PLANE,
						   "IN_FORMATS_ASYNC", &prop,
						   &blob);
		igt_assert_eq(drmGetCap(dev.fd, DRM_CAP_ASYNC_PAGE_FLIP, &v), 0);
		igt_assert_eq_u64(v, in_formats_async);
		v = 0;
		if (drmGetCap(dev.fd, DRM_CAP_ATOMIC_ASYNC_PAGE_FLIP, &v) == 0)
			igt_assert_eq_u64(v, in_formats_async);
		else
			igt_info("kernel without DRM_CAP_ATOMIC_ASYNC_PAGE_FLIP\n");
		if (!in_formats_async)
			igt_info("kernel without IN_FORMATS_ASYNC: no async flips\n");
	}

	igt_describe("Legacy async page flips: each event carries the last "
		     "vblank before the flip, the next frame shows it, and "
		     "back-to-back flips do not wait for vblanks");
	igt_subtest("legacy") {
		require_async();
		test_flips(false);
	}

	igt_describe("Atomic async commits (FB_ID only): each event carries "
		     "the last vblank before the flip, the next frame shows "
		     "it, and back-to-back flips do not wait for vblanks");
	igt_subtest("atomic") {
		uint64_t v = 0;

		igt_require_f(drmGetCap(dev.fd, DRM_CAP_ATOMIC_ASYNC_PAGE_FLIP,
					&v) == 0 && v,
			      "no atomic async page flips on this kernel\n");
		test_flips(true);
	}

	igt_describe("Once an async flip's event came, the client may draw "
		     "into the buffer it left: no frame shows that drawing "
		     "(upstream kms_async_flips@crc)");
	igt_subtest("clobber-after-event") {
		require_async();
		test_clobber_after_event();
	}

	igt_describe("An async flip cannot come with a mode set or other "
		     "changes, nor on a CRTC that is off");
	igt_subtest("invalid") {
		const struct vfq_pipe *p = &dev.pipe[0];
		drmModeAtomicReq *req;
		uint64_t v = 0;

		require_async();
		pipe_on(&mode, &fbs[0]);
		if (drmGetCap(dev.fd, DRM_CAP_ATOMIC_ASYNC_PAGE_FLIP, &v) == 0 &&
		    v) {
			/*
			 * Raw: exactly FB_ID and CRTC_X with the async flag,
			 * so that CRTC_X is what is refused; igt_plane_set_fb()
			 * would add the plane's other properties.
			 */
			req = vfq_req_new();
			vfq_req_set(req, dev.fd, p->primary,
				    DRM_MODE_OBJECT_PLANE, "FB_ID",
				    fbs[1].fb_id);
			vfq_req_set(req, dev.fd, p->primary,
				    DRM_MODE_OBJECT_PLANE, "CRTC_X", 8);
			igt_assert_eq(vfq_req_commit(dev.fd, req,
						     DRM_MODE_PAGE_FLIP_ASYNC,
						     NULL), -EINVAL);
		}
		pipe_off();
		/* the legacy ioctl under test */
		igt_assert_neq(drmModePageFlip(dev.fd, p->crtc_id,
					       fbs[1].fb_id,
					       DRM_MODE_PAGE_FLIP_ASYNC |
					       DRM_MODE_PAGE_FLIP_EVENT, NULL),
			       0);
	}

	igt_fixture {
		vfq_display_off(&display);
		igt_display_fini(&display);
		for (int i = 0; i < 2; i++)
			vfq_fb_destroy(&fbs[i]);
		vfq_dev_fini(&dev);
	}
}
