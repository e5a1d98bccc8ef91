// SPDX-License-Identifier: MIT
/*
 * The page-flip event of a commit that turns a CRTC on, and of the commits
 * after it, carries the first emulated vblank after that commit
 * (Documentation/vflipq/driver.rst, "Page-flip events"): its sequence is
 * beyond every vblank the CRTC counted before, and its timestamp lies
 * between the start of the commit and the moment the event is read.
 * Compositors (weston) compute their repaint schedule from it.
 */
/**
 * TEST: kms vflipq enable event
 * Category: Display
 * Mega feature: General Display Features
 * Sub-category: vblank
 * Functionality: page-flip events
 * Driver requirement: vflipq
 * Description: The page-flip event of a commit that turns a CRTC on, and of
 *              the commits after it, carries the first vblank after that
 *              commit: a sequence beyond every vblank counted before and a
 *              timestamp not older than the commit.
 *
 * SUBTEST: blocking
 * Description: Blocking enabling commits and the flips after them get events
 *              of a vblank after the commit, also after a disable
 *
 * SUBTEST: nonblocking
 * Description: Nonblocking enabling commits and the flips after them get
 *              events of a vblank after the commit, also after a disable
 */

#include "igt.h"
#include "vflipq_helpers.h"

IGT_TEST_DESCRIPTION("vflipq: events of enabling commits carry a fresh vblank");

/* Time the pipe stays off: the stale timestamp would be this old. */
#define OFF_TIME_US 300000

static struct vfq_dev dev;
static drmModeModeInfo mode;
static struct vfq_fb fbs[2];

/*
 * Checks one event of a commit started at @t0 against everything seen
 * before on the CRTC (vflipq_truth.c) and returns it.  The grid restarts
 * at each mode set: the checker is made anew for each enabling commit.
 */
static struct vfq_event check_event(const char *what, uint64_t t0,
				    struct vfq_truth *truth, void *user_data)
{
	struct vfq_event ev;
	uint64_t t_read;

	igt_assert_f(vfq_read_event(dev.fd, 2000, &ev) == 1,
		     "%s: no flip event within 2 s\n", what);
	t_read = vfq_now_ns();
	igt_assert_eq_u32(ev.type, DRM_EVENT_FLIP_COMPLETE);
	igt_assert(ev.user_data == (uint64_t)(uintptr_t)user_data);
	igt_info("%s: sequence %llu (last %llu), timestamp %.3f ms after the "
		 "commit's start, read %.3f ms after it\n", what,
		 (unsigned long long)ev.sequence,
		 (unsigned long long)truth->seq,
		 ((double)ev.ts_ns - (double)t0) / 1e6,
		 ((double)t_read - (double)ev.ts_ns) / 1e6);
	vfq_truth_event(truth, what, t0, &ev, t_read);
	return ev;
}

/* Nonblocking or blocking commit of @req with an event; returns its start. */
static uint64_t commit_event(drmModeAtomicReq *req, uint32_t flags,
			     void *user_data)
{
	uint64_t t0 = vfq_now_ns();
	int ret = vfq_req_commit(dev.fd, req, flags |
				 DRM_MODE_PAGE_FLIP_EVENT, user_data);

	igt_assert_f(ret == 0, "commit (flags %#x) failed: %s\n", flags,
		     strerror(-ret));
	return t0;
}

static uint64_t enable_pipe(uint32_t flags, int fb)
{
	drmModeAtomicReq *req = vfq_req_new();
	uint32_t blob;
	uint64_t t0;

	vfq_req_pipe_on(req, &dev, 0, &mode, fbs[fb].fb_id, &blob);
	t0 = commit_event(req, flags | DRM_MODE_ATOMIC_ALLOW_MODESET,
			  (void *)(uintptr_t)(0xe0 + fb));
	drmModeDestroyPropertyBlob(dev.fd, blob);
	return t0;
}

static uint64_t flip_to(int fb)
{
	drmModeAtomicReq *req = vfq_req_new();

	vfq_req_set(req, dev.fd, dev.pipe[0].primary, DRM_MODE_OBJECT_PLANE,
		    "FB_ID", fbs[fb].fb_id);
	return commit_event(req, DRM_MODE_ATOMIC_NONBLOCK,
			    (void *)(uintptr_t)(0xf0 + fb));
}

/*
 * Turn the pipe on with an event, flip twice, turn it off and keep it off,
 * and again: every event is a vblank of its own commit.
 */
static void enable_cycles(uint32_t enable_flags)
{
	uint64_t period = vfq_mode_period(&mode), seq = 0, t0;
	struct vfq_truth truth;

	for (int cycle = 0; cycle < 2; cycle++) {
		const char *on = cycle ? "re-enabling commit" :
					 "enabling commit";

		/* A new mode set starts a new grid, but never a lower count. */
		vfq_truth_init(&truth, dev.pipe[0].crtc_id, 0,
			       VFQ_TRUTH_FLIPS);
		vfq_truth_vblank(&truth, seq, 0);
		t0 = enable_pipe(enable_flags, 0);
		check_event(on, t0, &truth, (void *)(uintptr_t)0xe0);
		truth.period = period;
		for (int i = 1; i <= 2; i++) {
			t0 = flip_to(i & 1);
			check_event(cycle ? "flip after re-enable" :
					    "flip after enable",
				    t0, &truth, (void *)(uintptr_t)(0xf0 + (i & 1)));
		}
		/* What the vblank counter says now is "before" for the next. */
		seq = vfq_crtc_sequence(dev.fd, dev.pipe[0].crtc_id);
		vfq_pipe_off(&dev, 0);
		usleep(OFF_TIME_US);
	}
}

igt_main
{
	igt_fixture {
		vfq_dev_init(&dev, vfq_open_default());
		vfq_dev_reset(&dev);
		vfq_get_mode(dev.fd, dev.pipe[0].conn_id, 1024, 768, 60, &mode);
		/*
		 * Two different pictures, never looked at (the events are
		 * judged by their timing): IGT draws them.
		 */
		for (int i = 0; i < 2; i++) {
			cairo_t *cr;

			vfq_fb_create(dev.fd, mode.hdisplay, mode.vdisplay,
				      DRM_FORMAT_XRGB8888, &fbs[i]);
			cr = igt_get_cairo_ctx(fbs[i].fd, &fbs[i].igt);
			igt_paint_color(cr, 0, 0, mode.hdisplay, mode.vdisplay,
					0.25 * i, 0.5, 0.75 - 0.25 * i);
			igt_paint_test_pattern(cr, mode.hdisplay,
					       mode.vdisplay);
			igt_put_cairo_ctx(cr);
		}
	}

	igt_describe("Blocking enabling commits and the flips after them get "
		     "events of a vblank after the commit, also after a "
		     "disable");
	igt_subtest("blocking") {
		enable_cycles(0);
	}

	igt_describe("Nonblocking enabling commits and the flips after them "
		     "get events of a vblank after the commit, also after a "
		     "disable");
	igt_subtest("nonblocking") {
		enable_cycles(DRM_MODE_ATOMIC_NONBLOCK);
	}

	igt_fixture {
		vfq_dev_reset(&dev);
		for (int i = 0; i < 2; i++)
			vfq_fb_destroy(&fbs[i]);
		vfq_dev_fini(&dev);
	}
}
