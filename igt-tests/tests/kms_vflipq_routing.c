// SPDX-License-Identifier: MIT
/*
 * Connector routing (Documentation/vflipq/driver.rst, "Routing"): any
 * Virtual connector on any CRTC of its device, one Virtual connector per
 * CRTC, a writeback connector only on its own CRTC.  What a routed
 * connector shows is judged by the CRC of the CRTC driving it against the
 * same framebuffer on the natural pairing (connector i on CRTC i), and its
 * vblanks and events by the DRM vblank counter of that CRTC.  640x480
 * keeps the software composer cheap under TCG.
 */
/**
 * TEST: kms vflipq routing
 * Category: Display
 * Mega feature: General Display Features
 * Sub-category: outputs
 * Functionality: connector routing
 * Driver requirement: vflipq
 * Description: Connector routing: any virtual connector on any CRTC of its
 *              device, one per CRTC, judged by the CRC, vblanks, events and
 *              writeback of the CRTC driving it.
 *
 * SUBTEST: connector-b-on-crtc-a
 * Description: Connector of output 2 on CRTC A: same CRC as on its own CRTC,
 *              vblanks, events and writeback from CRTC A, CRTC B off
 *
 * SUBTEST: connector-a-on-crtc-b
 * Description: Connector of output 1 on CRTC B: same CRC as on its own CRTC,
 *              vblanks, events and writeback from CRTC B, CRTC A off
 *
 * SUBTEST: swapped
 * Description: Both connectors swapped in one commit, both CRCs right
 *
 * SUBTEST: move-atomic
 * Description: A connector moves from CRTC B to CRTC A in one commit that
 *              turns B off
 *
 * SUBTEST: steal-legacy
 * Description: Legacy SETCRTC on CRTC A steals CRTC B's connector and turns B
 *              off
 *
 * SUBTEST: refused
 * Description: A connector claimed by a second CRTC while the first keeps
 *              running, and two connectors on one CRTC: EINVAL, nothing
 *              changed
 */

#include "igt.h"
#include "vflipq_helpers.h"

IGT_TEST_DESCRIPTION("vflipq connector routing: any connector on any CRTC");

#define W 640
#define H 480
#define SEED 7

static struct vfq_dev dev;
static igt_display_t display;
static drmModeModeInfo mode;
static struct vfq_fb fb;
static uint32_t ref_crc;	/* @fb full-screen, on the natural pairing */

/*
 * Pending in igt_display: output @conn's connector on CRTC @crtc with the
 * test's mode, showing @fb.  igt_output_set_pipe() turns off the CRTC the
 * output leaves when no other output is on it.
 */
static void set_route(int conn, int crtc)
{
	igt_output_t *output = vfq_output(&display, &dev, conn);

	igt_output_override_mode(output, &mode);
	igt_output_set_pipe(output, crtc);
	igt_plane_set_fb(igt_pipe_get_plane_type(&display.pipes[crtc],
						 DRM_PLANE_TYPE_PRIMARY),
			 &fb.igt);
}

/* Blocking modeset of set_route(@conn, @crtc); asserts. */
static void route(int conn, int crtc)
{
	set_route(conn, crtc);
	igt_display_commit2(&display, COMMIT_ATOMIC);
}

/*
 * Raw, for refused: a connector taken to another CRTC while the first
 * keeps running, and two connectors on one CRTC, are requests
 * igt_display cannot make (igt_output_set_pipe() turns the CRTC left
 * behind off; two outputs on one pipe fail igt_display's own check).
 * Modeset: connector of output @conn on CRTC @crtc showing @fb.
 */
static void req_route(drmModeAtomicReq *req, int conn, int crtc,
		      uint32_t *blob)
{
	const struct vfq_pipe *p = &dev.pipe[crtc];

	*blob = vfq_mode_blob(dev.fd, &mode);
	vfq_req_set(req, dev.fd, dev.pipe[conn].conn_id,
		    DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", p->crtc_id);
	vfq_req_set(req, dev.fd, p->crtc_id, DRM_MODE_OBJECT_CRTC, "MODE_ID",
		    *blob);
	vfq_req_set(req, dev.fd, p->crtc_id, DRM_MODE_OBJECT_CRTC, "ACTIVE", 1);
	vfq_req_plane(req, dev.fd, p->primary, p->crtc_id, fb.fb_id, 0, 0, W, H);
}

static int route_raw(int conn, int crtc, uint32_t flags)
{
	drmModeAtomicReq *req = vfq_req_new();
	uint32_t blob;
	int ret;

	req_route(req, conn, crtc, &blob);
	ret = vfq_req_commit(dev.fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET | flags,
			     NULL);
	drmModeDestroyPropertyBlob(dev.fd, blob);
	return ret;
}

/* The CRC of a frame of CRTC @crtc composed after everything so far. */
static uint32_t settled_crc(int crtc)
{
	igt_pipe_crc_t *crc;
	uint64_t now;
	uint32_t v;

	crc = vfq_crc_start(dev.fd, dev.pipe[crtc].index);
	now = vfq_crtc_sequence(dev.fd, dev.pipe[crtc].crtc_id);
	vfq_crc_collect(crc, now + 2, 1, &v);
	igt_pipe_crc_free(crc);
	return v;
}

/* The CRTC the kernel says connector @conn is on (0: none). */
static uint32_t crtc_of_connector(int conn)
{
	drmModeConnector *c = drmModeGetConnector(dev.fd,
						  dev.pipe[conn].conn_id);
	drmModeEncoder *e;
	uint32_t crtc;

	igt_assert(c);
	crtc = vfq_prop_get(dev.fd, c->connector_id, DRM_MODE_OBJECT_CONNECTOR,
			    "CRTC_ID");
	/* the legacy view agrees: the encoder is bound to that CRTC */
	e = c->encoder_id ? drmModeGetEncoder(dev.fd, c->encoder_id) : NULL;
	igt_assert_eq_u32(e ? e->crtc_id : 0, crtc);
	drmModeFreeEncoder(e);
	drmModeFreeConnector(c);
	return crtc;
}

static void check_stopped(int crtc)
{
	drmModeCrtc *c = drmModeGetCrtc(dev.fd, dev.pipe[crtc].crtc_id);

	igt_assert(c);
	igt_assert_eq(c->mode_valid, 0);
	drmModeFreeCrtc(c);
	vfq_assert_stopped(dev.fd, crtc);
}

/*
 * A page-flip event of a commit on CRTC @crtc carries that CRTC's id and a
 * vblank of its counter: after the counter before the commit, not after
 * the counter once the event is read.  A raw nonblocking request of FB_ID
 * alone: the event's timing is what is checked.
 */
static void check_flip_event(int crtc)
{
	const struct vfq_pipe *p = &dev.pipe[crtc];
	drmModeAtomicReq *req = vfq_req_new();
	struct vfq_event ev;
	uint64_t s0, s1;

	s0 = vfq_crtc_sequence(dev.fd, p->crtc_id);
	vfq_req_set(req, dev.fd, p->primary, DRM_MODE_OBJECT_PLANE, "FB_ID",
		    fb.fb_id);
	igt_assert_eq(vfq_req_commit(dev.fd, req, DRM_MODE_ATOMIC_NONBLOCK |
				     DRM_MODE_PAGE_FLIP_EVENT, NULL), 0);
	igt_assert_eq(vfq_read_event(dev.fd, 1000, &ev), 1);
	s1 = vfq_crtc_sequence(dev.fd, p->crtc_id);
	igt_assert_eq_u32(ev.type, DRM_EVENT_FLIP_COMPLETE);
	igt_assert_eq_u32(ev.crtc_id, p->crtc_id);
	igt_assert_lt_u64(s0, ev.sequence);
	igt_assert_lte_u64(ev.sequence, s1);
}

/* Writeback of @crtc while it drives another output's connector. */
static struct vfq_color expect_fb(int x, int y, void *data)
{
	(void)data;
	return vfq_pattern8(x, y, SEED);
}

static void check_writeback(int crtc)
{
	struct vfq_fb out;

	if (!dev.pipe[crtc].wb_conn_id)
		return;
	vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &out);
	/* poison: a capture that writes nothing must not pass */
	memset(out.map, 0x5a, out.size);
	/* vfq's: a deadline on the out-fence; vfq_display_off() detaches */
	vfq_wb_capture_ok(&dev, crtc, &out);
	igt_assert_eq(vfq_fb_check(&out, expect_fb, NULL, 8, 0), 0);
	vfq_fb_destroy(&out);
}

/* Connector of output @conn on CRTC @crtc, nothing else lit. */
static void test_crossed(int conn, int crtc)
{
	route(conn, crtc);
	igt_assert_eq_u32(crtc_of_connector(conn), dev.pipe[crtc].crtc_id);
	igt_assert_eq_u32(crtc_of_connector(crtc), 0);
	igt_assert_eq_u32(settled_crc(crtc), ref_crc);
	vfq_assert_running(dev.fd, crtc);
	check_stopped(conn);
	check_flip_event(crtc);
	check_writeback(crtc);
	vfq_display_off(&display);
}

/* Both connectors swapped in one commit. */
static void test_swapped(void)
{
	set_route(1, 0);
	set_route(0, 1);
	igt_display_commit2(&display, COMMIT_ATOMIC);
	igt_assert_eq_u32(crtc_of_connector(1), dev.pipe[0].crtc_id);
	igt_assert_eq_u32(crtc_of_connector(0), dev.pipe[1].crtc_id);
	igt_assert_eq_u32(settled_crc(0), ref_crc);
	igt_assert_eq_u32(settled_crc(1), ref_crc);
	check_flip_event(0);
	check_flip_event(1);
	vfq_display_off(&display);
}

/*
 * Connector 1, which CRTC B drove, now on CRTC A: the same picture there,
 * A running, B stopped.
 */
static void check_moved_to_a(void)
{
	igt_assert_eq_u32(crtc_of_connector(1), dev.pipe[0].crtc_id);
	igt_assert_eq_u32(settled_crc(0), ref_crc);
	vfq_assert_running(dev.fd, 0);
	check_stopped(1);
	vfq_display_off(&display);
}

/* Connector 1 from CRTC B to CRTC A in one atomic commit: B off, A on. */
static void test_move_atomic(void)
{
	route(1, 1);
	igt_assert_eq_u32(crtc_of_connector(1), dev.pipe[1].crtc_id);

	/* B's MODE_ID 0 and ACTIVE 0 come with igt_output_set_pipe() */
	set_route(1, 0);
	igt_plane_set_fb(igt_pipe_get_plane_type(&display.pipes[1],
						 DRM_PLANE_TYPE_PRIMARY), NULL);
	igt_display_commit2(&display, COMMIT_ATOMIC);

	check_moved_to_a();
}

/*
 * The legacy SETCRTC of CRTC A with connector 1 while CRTC B drives it
 * steals it: the core turns B off, which has no connector left
 * (kms_setmode@invalid-clone-single-crtc-stealing does this).
 */
static void test_steal_legacy(void)
{
	uint32_t conn = dev.pipe[1].conn_id;

	route(1, 1);
	/* the legacy ioctl is what is tested; check_moved_to_a() resets all */
	igt_assert_eq(drmModeSetCrtc(dev.fd, dev.pipe[0].crtc_id, fb.fb_id, 0,
				     0, &conn, 1, &mode), 0);
	check_moved_to_a();
}

/*
 * Refusals, each with EINVAL and nothing changed: connector 1 claimed by
 * CRTC A while CRTC B keeps running without it (B enabled with no
 * connector), and two Virtual connectors on one CRTC (their encoders do
 * not clone: no mirroring).
 */
static void test_refused(void)
{
	const struct vfq_pipe *a = &dev.pipe[0], *b = &dev.pipe[1];
	drmModeAtomicReq *req;
	uint32_t blob;

	route(1, 1);
	for (int test_only = 0; test_only < 2; test_only++)
		igt_assert_eq(route_raw(1, 0, test_only ?
				    DRM_MODE_ATOMIC_TEST_ONLY : 0), -EINVAL);

	req = vfq_req_new();
	req_route(req, 1, 0, &blob);
	vfq_req_set(req, dev.fd, a->conn_id, DRM_MODE_OBJECT_CONNECTOR,
		    "CRTC_ID", a->crtc_id);
	/* B off, so that only the clone rule is left to refuse it */
	vfq_req_plane_off(req, dev.fd, b->primary);
	vfq_req_set(req, dev.fd, b->crtc_id, DRM_MODE_OBJECT_CRTC, "ACTIVE", 0);
	vfq_req_set(req, dev.fd, b->crtc_id, DRM_MODE_OBJECT_CRTC, "MODE_ID", 0);
	igt_assert_eq(vfq_req_commit(dev.fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET,
				     NULL), -EINVAL);
	drmModeDestroyPropertyBlob(dev.fd, blob);
	/* legacy: both connectors on CRTC A */
	{
		uint32_t conns[2] = { a->conn_id, b->conn_id };

		/* libdrm returns -errno */
		igt_assert_eq(drmModeSetCrtc(dev.fd, a->crtc_id, fb.fb_id, 0, 0,
					     conns, 2, &mode), -EINVAL);
	}

	igt_assert_eq_u32(crtc_of_connector(1), b->crtc_id);
	igt_assert_eq_u32(crtc_of_connector(0), 0);
	igt_assert_eq_u32(settled_crc(1), ref_crc);
	check_stopped(0);
	vfq_display_off(&display);
}

igt_main
{
	igt_fixture {
		vfq_dev_init(&dev, vfq_open_default());
		igt_require_f(dev.n_pipes >= 2, "needs two CRTCs\n");
		igt_assert(dev.caps.caps & VFLIPQ_CAP_CRC);
		/* raw: also zpos, which igt_display_reset() leaves */
		vfq_dev_reset(&dev);
		vfq_display_init(&display, &dev);
		vfq_get_mode(dev.fd, dev.pipe[0].conn_id, W, H, 60, &mode);
		vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &fb);
		vfq_fb_pattern(&fb, SEED);
		/* the reference: the same fb on the natural pairing */
		route(0, 0);
		ref_crc = settled_crc(0);
		vfq_display_off(&display);
		route(1, 1);
		igt_assert_eq_u32(settled_crc(1), ref_crc);
		vfq_display_off(&display);
	}

	igt_describe("Connector of output 2 on CRTC A: same CRC as on its own "
		     "CRTC, vblanks, events and writeback from CRTC A, CRTC B "
		     "off");
	igt_subtest("connector-b-on-crtc-a")
		test_crossed(1, 0);

	igt_describe("Connector of output 1 on CRTC B: same CRC as on its own "
		     "CRTC, vblanks, events and writeback from CRTC B, CRTC A "
		     "off");
	igt_subtest("connector-a-on-crtc-b")
		test_crossed(0, 1);

	igt_describe("Both connectors swapped in one commit, both CRCs right");
	igt_subtest("swapped")
		test_swapped();

	igt_describe("A connector moves from CRTC B to CRTC A in one commit "
		     "that turns B off");
	igt_subtest("move-atomic")
		test_move_atomic();

	igt_describe("Legacy SETCRTC on CRTC A steals CRTC B's connector and "
		     "turns B off");
	igt_subtest("steal-legacy")
		test_steal_legacy();

	igt_describe("A connector claimed by a second CRTC while the first "
		     "keeps running, and two connectors on one CRTC: EINVAL, "
		     "nothing changed");
	igt_subtest("refused")
		test_refused();

	igt_fixture {
		vfq_display_off(&display);
		igt_display_fini(&display);
		vfq_fb_destroy(&fb);
		vfq_dev_fini(&dev);
	}
}
