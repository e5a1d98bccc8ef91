// SPDX-License-Identifier: MIT
/*
 * Async page flips (DRM_MODE_PAGE_FLIP_ASYNC): on the legacy page-flip
 * ioctl and on the atomic ioctl (kernels with
 * DRM_CAP_ATOMIC_ASYNC_PAGE_FLIP).  An async flip completes at once, with
 * the event of the last vblank, so that many flips fit in one frame where
 * synchronous flips need a vblank each (the DRM vblank counter shows it),
 * and the next composed frame shows the last one (CRC).
 */
#include "igt.h"
#include "vflipq_helpers.h"

IGT_TEST_DESCRIPTION("vflipq async page flips");

#define W 640
#define H 480
#define FLIPS 20
#define EVENT_MS 1000

#ifndef DRM_CAP_ATOMIC_ASYNC_PAGE_FLIP
#define DRM_CAP_ATOMIC_ASYNC_PAGE_FLIP 0x15
#endif

static struct vfq_dev dev;
static drmModeModeInfo mode;
static struct vfq_fb fbs[2];
static uint32_t crcs[2];

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

static uint32_t frame_crc(struct vfq_crc *crc, uint64_t after)
{
	uint32_t v;

	vfq_crc_collect(crc, after + 1, 1, &v);
	return v;
}

/*
 * FLIPS flips, each waiting for its event: returns the vblanks they took.
 * No event carries a vblank that has not happened yet, and a synchronous
 * flip's event carries a vblank after the flip was made.
 */
static uint64_t flip_loop(bool atomic, uint32_t async, struct vfq_crc *crc)
{
	uint64_t s0, s1, before, after;
	struct vfq_event ev;
	int i;

	vfq_drain_events(dev.fd, 50);
	s0 = vfq_crtc_sequence(dev.fd, dev.pipe[0].crtc_id);
	for (i = 0; i < FLIPS; i++) {
		before = vfq_crtc_sequence(dev.fd, dev.pipe[0].crtc_id);
		igt_assert_eq(flip(i & 1, atomic, async), 0);
		igt_assert_eq(vfq_read_event(dev.fd, EVENT_MS, &ev), 1);
		igt_assert_eq_u32(ev.type, DRM_EVENT_FLIP_COMPLETE);
		igt_assert_lte_u64(ev.ts_ns, vfq_now_ns());
		after = vfq_crtc_sequence(dev.fd, dev.pipe[0].crtc_id);
		/* never a vblank still to come; a synchronous one is new */
		igt_assert_lte_u64(ev.sequence, after);
		if (!async)
			igt_assert_f(ev.sequence > before,
				     "flip %d: event of vblank %llu, flip "
				     "made at %llu\n", i,
				     (unsigned long long)ev.sequence,
				     (unsigned long long)before);
	}
	s1 = vfq_crtc_sequence(dev.fd, dev.pipe[0].crtc_id);
	/* the last flip showed fbs[1]: the next composed frame has it */
	igt_assert_eq_u32(frame_crc(crc, s1), crcs[(FLIPS - 1) & 1]);
	return s1 - s0;
}

static void test_flips(bool atomic)
{
	struct vfq_crc crc;
	uint64_t sync_vblanks, async_vblanks;

	igt_assert_eq(vfq_crc_start(dev.fd, dev.pipe[0].index, &crc), 0);
	sync_vblanks = flip_loop(atomic, 0, &crc);
	async_vblanks = flip_loop(atomic, DRM_MODE_PAGE_FLIP_ASYNC, &crc);
	vfq_crc_stop(&crc);
	igt_info("%d %s flips: %llu vblanks synchronous, %llu async\n", FLIPS,
		 atomic ? "atomic" : "legacy",
		 (unsigned long long)sync_vblanks,
		 (unsigned long long)async_vblanks);
	/* each synchronous flip waits for its own vblank */
	igt_assert_lte_u64(FLIPS, sync_vblanks);
	/*
	 * Async flips wait for none: FLIPS of them in fewer vblanks than
	 * synchronous flips can possibly take.  (Each takes about a
	 * millisecond; only a host stalling the guest for a whole frame at
	 * every flip could make this fail.)
	 */
	igt_assert_f(async_vblanks < FLIPS, "%d async flips took %llu vblanks\n",
		     FLIPS, (unsigned long long)async_vblanks);
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
		struct vfq_crc crc;

		vfq_dev_init(&dev, vfq_open_default());
		igt_assert(dev.caps.caps & VFLIPQ_CAP_CRC);
		vfq_dev_reset(&dev);
		vfq_get_mode(dev.fd, dev.pipe[0].conn_id, W, H, 60, &mode);
		for (int i = 0; i < 2; i++) {
			vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888,
				      &fbs[i]);
			vfq_fb_pattern(&fbs[i], 21 + i);
		}
		/* the CRC of each fb, from synchronous commits */
		for (int i = 0; i < 2; i++) {
			vfq_pipe_on(&dev, 0, &mode, fbs[i].fb_id);
			igt_assert_eq(vfq_crc_start(dev.fd, dev.pipe[0].index,
						    &crc), 0);
			crcs[i] = frame_crc(&crc, vfq_crtc_sequence(dev.fd,
					    dev.pipe[0].crtc_id) + 1);
			vfq_crc_stop(&crc);
		}
		igt_assert_neq_u32(crcs[0], crcs[1]);
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

	igt_describe("Legacy async page flips complete without waiting for a "
		     "vblank and reach the next frame");
	igt_subtest("legacy") {
		require_async();
		vfq_pipe_on(&dev, 0, &mode, fbs[0].fb_id);
		test_flips(false);
	}

	igt_describe("Atomic async commits (FB_ID only) complete without "
		     "waiting for a vblank and reach the next frame");
	igt_subtest("atomic") {
		uint64_t v = 0;

		igt_require_f(drmGetCap(dev.fd, DRM_CAP_ATOMIC_ASYNC_PAGE_FLIP,
					&v) == 0 && v,
			      "no atomic async page flips on this kernel\n");
		vfq_pipe_on(&dev, 0, &mode, fbs[0].fb_id);
		test_flips(true);
	}

	igt_describe("An async flip cannot come with a mode set or other "
		     "changes, nor on a CRTC that is off");
	igt_subtest("invalid") {
		const struct vfq_pipe *p = &dev.pipe[0];
		drmModeAtomicReq *req;
		uint64_t v = 0;

		require_async();
		vfq_pipe_on(&dev, 0, &mode, fbs[0].fb_id);
		if (drmGetCap(dev.fd, DRM_CAP_ATOMIC_ASYNC_PAGE_FLIP, &v) == 0 &&
		    v) {
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
		vfq_pipe_off(&dev, 0);
		igt_assert_neq(drmModePageFlip(dev.fd, p->crtc_id,
					       fbs[1].fb_id,
					       DRM_MODE_PAGE_FLIP_ASYNC |
					       DRM_MODE_PAGE_FLIP_EVENT, NULL),
			       0);
	}

	igt_fixture {
		vfq_dev_reset(&dev);
		for (int i = 0; i < 2; i++)
			vfq_fb_destroy(&fbs[i]);
		vfq_dev_fini(&dev);
	}
}
