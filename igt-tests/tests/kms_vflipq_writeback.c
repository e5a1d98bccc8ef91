// SPDX-License-Identifier: MIT
/*
 * Writeback: captures compared pixel for pixel with what the spec says the
 * composer produces (formats, blending, rotation, clipping, input formats).
 * 640x480 keeps the software composer cheap under TCG.
 */
/**
 * TEST: kms vflipq writeback
 * Category: Display
 * Mega feature: General Display Features
 * Sub-category: writeback
 * Functionality: writeback and composition
 * Driver requirement: vflipq
 * Description: Writeback captures compared pixel for pixel with what the
 *              driver documentation says the composer produces: writeback
 *              formats, blending, rotation, clipping, zpos, input formats and
 *              framebuffer offsets.
 *
 * SUBTEST: wb-8bit-formats
 * Description: An 8-bit pattern comes back exactly in XRGB8888, ARGB8888 and
 *              ABGR8888 (alpha opaque)
 *
 * SUBTEST: wb-xrgb2101010
 * Description: XRGB2101010 writeback keeps 10-bit input exactly and expands
 *              8-bit input
 *
 * SUBTEST: wb-invalid
 * Description: Writeback jobs with a wrong size or format, or on an inactive
 *              CRTC, fail with EINVAL
 *
 * SUBTEST: flip-keeps-planes
 * Description: A page flip or a cursor move keeps every other plane in the
 *              composed output
 *
 * SUBTEST: wb-sequence
 * Description: Successive captures each hold the frame of their commit
 *
 * SUBTEST: wb-frame-of-its-vblank
 * Description: A writeback job riding on a flip captures the frame the flip's
 *              event says is on screen at its vblank, even with the next flip
 *              right behind it
 *
 * SUBTEST: clipping
 * Description: Planes partially off-screen are clipped; uncovered area is
 *              black
 *
 * SUBTEST: zpos-order
 * Description: zpos decides which overlay is on top
 *
 * SUBTEST: fb-offset-scanout
 * Description: A scanout fb with a non-zero offsets[0] shows the pixels from
 *              that offset
 *
 * SUBTEST: wb-fb-offset
 * Description: A writeback fb with a non-zero offsets[0] is written from that
 *              offset, and only inside the fb
 */

/**
 * SUBTEST: blend-%s
 * Description: ARGB8888 overlay with per-pixel and plane alpha over the
 * 	primary, blend mode "%arg[1]": blend formula of the spec
 *
 * arg[1]:
 *
 * @none:		None
 * @pre-multiplied:	Pre-multiplied
 * @coverage:	Coverage
 */

/**
 * SUBTEST: rotate-%s
 * Description: Overlay pixels with rotation %arg[1] land where
 * 	drm_rect_rotate() puts them
 *
 * arg[1]:
 *
 * @90:		rotate-90
 * @180:		rotate-180
 * @270:		rotate-270
 * @90-reflect-x:	rotate-90-reflect-x
 */

/**
 * SUBTEST: reflect-%s
 * Description: Overlay pixels with rotation %arg[1] land where
 * 	drm_rect_rotate() puts them
 *
 * arg[1]:
 *
 * @x:		reflect-x
 * @y:		reflect-y
 */

/**
 * SUBTEST: input-%s
 * Description: An overlay in %arg[1] composes to the expected colours
 *
 * arg[1]:
 *
 * @xrgb8888:	XRGB8888
 * @argb8888:	ARGB8888
 * @xbgr8888:	XBGR8888
 * @abgr8888:	ABGR8888
 * @xrgb2101010:	XRGB2101010
 * @argb2101010:	ARGB2101010
 * @xbgr2101010:	XBGR2101010
 * @abgr2101010:	ABGR2101010
 * @xbgr16161616f:	XBGR16161616F
 * @abgr16161616f:	ABGR16161616F
 * @xrgb16161616f:	XRGB16161616F
 * @argb16161616f:	ARGB16161616F
 * @rgb565:	RGB565
 * @nv12:		NV12
 */

#include <ctype.h>
#include <linux/sync_file.h>
#include <math.h>

#include "igt.h"
#include "vflipq_helpers.h"
#include "vflipq_pxref.h"

IGT_TEST_DESCRIPTION("vflipq writeback and composition");

#define W 640
#define H 480
#define OBJ_PLANE DRM_MODE_OBJECT_PLANE

static const uint32_t input_formats[] = {
	DRM_FORMAT_XRGB8888, DRM_FORMAT_ARGB8888, DRM_FORMAT_XBGR8888,
	DRM_FORMAT_ABGR8888, DRM_FORMAT_XRGB2101010, DRM_FORMAT_ARGB2101010,
	DRM_FORMAT_XBGR2101010, DRM_FORMAT_ABGR2101010,
	DRM_FORMAT_XBGR16161616F, DRM_FORMAT_ABGR16161616F,
	DRM_FORMAT_XRGB16161616F, DRM_FORMAT_ARGB16161616F, DRM_FORMAT_RGB565,
	DRM_FORMAT_NV12,
};

static const struct {
	const char *name;
	uint64_t rotation;
} rotations[] = {
	{ "rotate-90", DRM_MODE_ROTATE_90 },
	{ "rotate-180", DRM_MODE_ROTATE_180 },
	{ "rotate-270", DRM_MODE_ROTATE_270 },
	{ "reflect-x", DRM_MODE_ROTATE_0 | DRM_MODE_REFLECT_X },
	{ "reflect-y", DRM_MODE_ROTATE_0 | DRM_MODE_REFLECT_Y },
	{ "rotate-90-reflect-x", DRM_MODE_ROTATE_90 | DRM_MODE_REFLECT_X },
};

static const char *const blend_modes[] = {
	"None", "Pre-multiplied", "Coverage",
};

static struct vfq_dev dev;
static igt_display_t display;
static struct vfq_pipe *pipe0;
static drmModeModeInfo mode;
static struct vfq_fb bg;
static struct vfq_color expected[W * H];

static struct vfq_color expect_buf(int x, int y, void *data)
{
	(void)data;
	return expected[y * W + x];
}

static struct vfq_color expect_pattern8(int x, int y, void *data)
{
	return vfq_pattern8(x, y, *(uint32_t *)data);
}

static struct vfq_color expect_pattern10(int x, int y, void *data)
{
	return vfq_pattern10(x, y, *(uint32_t *)data);
}

static void lowercase(char *dst, const char *src, size_t len)
{
	size_t i;

	for (i = 0; src[i] && i < len - 1; i++)
		dst[i] = tolower((unsigned char)src[i]);
	dst[i] = '\0';
}

/* Capture the output of CRTC 0 into a new @format fb. */
static void capture(uint32_t format, struct vfq_fb *out)
{
	vfq_fb_create(dev.fd, W, H, format, out);
	/* poison: a capture that writes nothing must not pass */
	memset(out->map, 0x5a, out->size);
	/* vfq's: a deadline on the out-fence */
	vfq_wb_capture_ok(&dev, 0, out);
}

static void check_capture(uint32_t format, vfq_expect_fn fn, void *data,
			  int bits, int tol)
{
	struct vfq_fb out;
	int bad;

	capture(format, &out);
	bad = vfq_fb_check(&out, fn, data, bits, tol);
	igt_assert_f(bad == 0, "%d pixels differ in the %s capture\n", bad,
		     vfq_format_name(format));
	/* X channels are written as all ones */
	if (format == DRM_FORMAT_XRGB8888 || format == DRM_FORMAT_XRGB2101010) {
		const uint32_t xmask = format == DRM_FORMAT_XRGB8888 ?
				       0xff000000u : 0xc0000000u;

		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				uint32_t px;

				memcpy(&px, out.map + out.offsets[0] +
				       (size_t)y * out.pitch + x * 4, 4);
				igt_assert_f((px & xmask) == xmask,
					     "X bits not set at (%d,%d): "
					     "%08x\n", x, y, px);
			}
	}
	if (vfq_format_has_alpha(format)) {
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++)
				igt_assert_f(vfq_chan(vfq_fb_get(&out, x, y).a,
						      8) == 255,
					     "output alpha not opaque at "
					     "(%d,%d)\n", x, y);
	}
	vfq_fb_destroy(&out);
}

/* Expected image: the background fb everywhere. */
static void expect_bg(void)
{
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			expected[y * W + x] = vfq_fb_get(&bg, x, y);
}

/* Plane @id of pipe 0 in igt_display (asserted: IGT's lookups skip). */
static igt_plane_t *plane0(uint32_t id)
{
	return vfq_display_plane(&display, 0, id);
}

/*
 * Pending: the whole of @fb (NULL: none) on plane @id of pipe 0 at (x, y);
 * the *-offset subtests' fbs (plane 0 at an offset) are vfq_bo_create()'s.
 */
static void plane_at(uint32_t id, struct vfq_fb *fb, int x, int y)
{
	igt_plane_t *plane = plane0(id);

	vfq_display_plane_fb(plane, fb);
	if (fb)
		igt_plane_set_position(plane, x, y);
}

/*
 * A commit without DRM_MODE_ATOMIC_ALLOW_MODESET (igt_display_commit2()
 * allows one), as the plane changes here were always made.
 */
static void commit(void)
{
	igt_display_commit_atomic(&display, 0, NULL);
}

/* Blocking modeset of pipe 0 to the test's mode, the primary on @fb. */
static void pipe_on(struct vfq_fb *fb)
{
	vfq_display_pipe(&display, &dev, 0, &mode, NULL);
	plane_at(pipe0->primary, fb, 0, 0);
	igt_display_commit2(&display, COMMIT_ATOMIC);
}

/*
 * Everything off, from igt_display's whole state: also after the raw
 * writeback jobs and flips, which igt_display does not see.  The commit
 * after igt_display_reset() drops unread events, as vfq_dev_reset() did.
 */
static void reset(void)
{
	vfq_display_off(&display);
}

static void planes_off(void)
{
	for (int k = 0; k < pipe0->n_overlays; k++)
		plane_at(pipe0->overlays[k], NULL, 0, 0);
	if (pipe0->cursor)
		plane_at(pipe0->cursor, NULL, 0, 0);
	plane_at(pipe0->primary, &bg, 0, 0);
	commit();
}

/* ---- expected pictures ---------------------------------------------- */

struct placed {
	struct vfq_fb *fb;
	int x, y;
};

static void paint(const struct placed *p)
{
	for (int y = 0; y < p->fb->height; y++) {
		for (int x = 0; x < p->fb->width; x++) {
			int dx = p->x + x, dy = p->y + y;

			if (dx >= 0 && dy >= 0 && dx < W && dy < H)
				expected[dy * W + dx] = vfq_fb_get(p->fb, x, y);
		}
	}
}

/* ---- blending ------------------------------------------------------ */

static void test_blend(const char *mode_name)
{
	static const uint16_t plane_alphas[] = { 0xffff, 0x8000, 0x3333 };
	const int ow = 256, oh = 96, ox = 120, oy = 200;
	const enum pxref_blend bmode = !strcmp(mode_name, "None") ? PXREF_NONE :
		!strcmp(mode_name, "Coverage") ? PXREF_COVERAGE : PXREF_PREMULTI;
	struct vfq_fb ov;

	igt_require(pipe0->n_overlays > 0);
	vfq_fb_create(dev.fd, ow, oh, DRM_FORMAT_ARGB8888, &ov);
	/* alpha = column, colour <= alpha (valid pre-multiplied too) */
	for (int y = 0; y < oh; y++) {
		for (int x = 0; x < ow; x++) {
			struct vfq_color c = vfq_pattern8(x, y, 61);
			int a = x;

			vfq_fb_put(&ov, x, y, vfq_rgba8(vfq_chan(c.r, 8) % (a + 1),
							vfq_chan(c.g, 8) % (a + 1),
							vfq_chan(c.b, 8) % (a + 1),
							a));
		}
	}

	for (size_t i = 0; i < VFQ_ARRAY_SIZE(plane_alphas); i++) {
		igt_plane_t *plane = plane0(pipe0->overlays[0]);

		igt_info("%s, plane alpha %#x\n", mode_name, plane_alphas[i]);
		plane_at(pipe0->overlays[0], &ov, ox, oy);
		/* a missing property or enum entry fails, as before */
		igt_plane_set_prop_value(plane, IGT_PLANE_ALPHA,
					 plane_alphas[i]);
		igt_plane_set_prop_enum(plane, IGT_PLANE_PIXEL_BLEND_MODE,
					mode_name);
		commit();

		/*
		 * The reference blend of driver.rst in 16-bit integers
		 * (vflipq_pxref.h): exact, so is the comparison.
		 */
		expect_bg();
		for (int y = 0; y < oh; y++) {
			for (int x = 0; x < ow; x++) {
				struct vfq_color f = vfq_fb_get(&ov, x, y);
				struct vfq_color *e =
					&expected[(oy + y) * W + ox + x];

#define CH(c) e->c = pxref_blend(e->c, f.c, f.a, plane_alphas[i], bmode)
				CH(r);
				CH(g);
				CH(b);
#undef CH
			}
		}
		check_capture(DRM_FORMAT_XRGB8888, expect_buf, NULL, 8, 0);
	}
	planes_off();
	reset();
	pipe_on(&bg);
	vfq_fb_destroy(&ov);
}

/* ---- rotation ------------------------------------------------------ */

static void test_rotation(uint64_t rot)
{
	const int fw = 64, fh = 32, ox = 200, oy = 100;
	const bool swap = rot & (DRM_MODE_ROTATE_90 | DRM_MODE_ROTATE_270);
	const int cw = swap ? fh : fw, ch = swap ? fw : fh;
	struct vfq_fb ov;
	igt_plane_t *plane;

	igt_require(pipe0->n_overlays > 0);
	plane = plane0(pipe0->overlays[0]);
	vfq_fb_create(dev.fd, fw, fh, DRM_FORMAT_XRGB8888, &ov);
	vfq_fb_pattern(&ov, 71);
	/* source fw x fh at 0,0 (igt_plane_set_fb()), cw x ch at (ox, oy) */
	plane_at(pipe0->overlays[0], &ov, ox, oy);
	igt_plane_set_size(plane, cw, ch);
	/* a missing "rotation" fails here, as the raw request did */
	igt_assert(igt_plane_has_prop(plane, IGT_PLANE_ROTATION));
	/* igt_rotation_t has DRM_MODE_ROTATE_* / _REFLECT_*'s bits */
	igt_plane_set_rotation(plane, (igt_rotation_t)rot);
	commit();

	expect_bg();
	for (int y = 0; y < fh; y++) {
		for (int x = 0; x < fw; x++) {
			int dx, dy;

			vfq_rotate_point(rot, fw, fh, x, y, &dx, &dy);
			igt_assert(dx >= 0 && dx < cw && dy >= 0 && dy < ch);
			expected[(oy + dy) * W + ox + dx] =
				vfq_pattern8(x, y, 71);
		}
	}
	check_capture(DRM_FORMAT_XRGB8888, expect_buf, NULL, 8, 0);
	reset();
	pipe_on(&bg);
	vfq_fb_destroy(&ov);
}

/* ---- framebuffer offsets ------------------------------------------- */

/* A w x h fb whose pixels start @skip rows into its buffer (offsets[0]). */
static void create_offset_fb(int w, int h, uint32_t format, int skip,
			     uint8_t poison, struct vfq_fb *fb)
{
	igt_assert_eq(vfq_bo_create(dev.fd, w, h + skip, format, fb), 0);
	memset(fb->map, poison, fb->size);
	fb->height = h;
	fb->offsets[0] = skip * fb->pitch;
	igt_assert_eq(vfq_fb_add(fb, DRM_FORMAT_MOD_LINEAR, false), 0);
}

static void test_scanout_offset(void)
{
	struct vfq_fb fb;
	uint32_t seed = 101;

	create_offset_fb(W, H, DRM_FORMAT_XRGB8888, 16, 0xff, &fb);
	vfq_fb_pattern(&fb, seed);
	pipe_on(&fb);
	check_capture(DRM_FORMAT_XRGB8888, expect_pattern8, &seed, 8, 0);
	pipe_on(&bg);
	vfq_fb_destroy(&fb);
}

static void test_wb_offset(void)
{
	const int skip = 16;
	struct vfq_fb out;
	uint32_t seed = 41;
	size_t end;

	create_offset_fb(W, H, DRM_FORMAT_XRGB8888, skip, 0x5a, &out);
	vfq_wb_capture_ok(&dev, 0, &out);
	igt_assert_eq(vfq_fb_check(&out, expect_pattern8, &seed, 8, 0), 0);
	/* nothing written before the fb's first pixel or after its last */
	for (size_t i = 0; i < out.offsets[0]; i++)
		igt_assert_f(out.map[i] == 0x5a, "byte %zu before the fb "
			     "offset was written\n", i);
	end = out.offsets[0] + (size_t)out.pitch * (H - 1) + W * 4;
	for (size_t i = end; i < out.size; i++)
		igt_assert_f(out.map[i] == 0x5a, "byte %zu after the fb was "
			     "written\n", i);
	vfq_fb_destroy(&out);
}

/* ---- invalid jobs --------------------------------------------------- */

static void test_wb_invalid(void)
{
	static const struct { int w, h; uint32_t format; } bad[] = {
		{ W / 2, H / 2, DRM_FORMAT_XRGB8888 },
		{ W + 8, H, DRM_FORMAT_XRGB8888 },
		{ W, H, DRM_FORMAT_XBGR8888 },
		{ W, H, DRM_FORMAT_RGB565 },
		{ W, H, DRM_FORMAT_ARGB2101010 },
	};
	struct vfq_fb out;

	for (size_t i = 0; i < VFQ_ARRAY_SIZE(bad); i++) {
		vfq_fb_create(dev.fd, bad[i].w, bad[i].h, bad[i].format, &out);
		igt_assert_f(vfq_wb_capture(&dev, 0, &out, 1000) == -EINVAL,
			     "writeback into %dx%d %s accepted\n", bad[i].w,
			     bad[i].h, vfq_format_name(bad[i].format));
		vfq_fb_destroy(&out);
	}
	/* CRTC off */
	reset();
	vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &out);
	igt_assert_eq(vfq_wb_capture(&dev, 0, &out, 1000), -EINVAL);
	pipe_on(&bg);
	/* and a valid one still works */
	vfq_wb_capture_ok(&dev, 0, &out);
	vfq_fb_destroy(&out);
}

/* ---- unchanged planes of a commit ------------------------------------ */

static void test_flip_keeps_planes(void)
{
	struct vfq_fb bg2, ov, cur;
	struct placed pov = { &ov, 100, 100 }, pcur = { &cur, 300, 200 };
	struct vfq_event ev;

	igt_require(pipe0->n_overlays > 0 && pipe0->cursor);
	vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &bg2);
	vfq_fb_create(dev.fd, 64, 64, DRM_FORMAT_XRGB8888, &ov);
	vfq_fb_create(dev.fd, 64, 64, DRM_FORMAT_ARGB8888, &cur);
	vfq_fb_pattern(&bg2, 41);	/* same picture as bg */
	vfq_fb_fill(&ov, vfq_rgb8(255, 0, 0));
	vfq_fb_fill(&cur, vfq_rgb8(0, 0, 255));

	plane_at(pipe0->overlays[0], &ov, pov.x, pov.y);
	plane_at(pipe0->cursor, &cur, pcur.x, pcur.y);
	commit();
	expect_bg();
	paint(&pov);
	paint(&pcur);
	check_capture(DRM_FORMAT_XRGB8888, expect_buf, NULL, 8, 0);

	/*
	 * Legacy page flip of the primary only: the legacy ioctl is what is
	 * tested, and igt_display does not see it.
	 */
	igt_assert_eq(drmModePageFlip(dev.fd, pipe0->crtc_id, bg2.fb_id,
				      DRM_MODE_PAGE_FLIP_EVENT, NULL), 0);
	igt_assert_eq(vfq_read_event(dev.fd, 1000, &ev), 1);
	check_capture(DRM_FORMAT_XRGB8888, expect_buf, NULL, 8, 0);

	/*
	 * Cursor move only: nothing else of igt_display is pending, so the
	 * commit carries the cursor's position alone (CRTC_X, and CRTC_Y
	 * unchanged), none of the other planes.
	 */
	pcur.x = 400;
	igt_plane_set_position(plane0(pipe0->cursor), pcur.x, pcur.y);
	commit();
	expect_bg();
	paint(&pov);
	paint(&pcur);
	check_capture(DRM_FORMAT_XRGB8888, expect_buf, NULL, 8, 0);

	planes_off();
	vfq_fb_destroy(&bg2);
	vfq_fb_destroy(&ov);
	vfq_fb_destroy(&cur);
}

/* ---- a job's frame, against the events -------------------------------- */

#define WB_FRAMES 4
#define WB_FLIPS 12

/*
 * The nonblocking flip of the primary to @fb with a writeback job into
 * @out riding on it; the job's out-fence returned.  A raw request: the
 * test reads the flip's event and times it and the fence against the
 * vblank itself.
 */
static int flip_with_job(struct vfq_fb *fb, struct vfq_fb *out, uint64_t tag)
{
	const uint32_t conn = DRM_MODE_OBJECT_CONNECTOR;
	drmModeAtomicReq *req = vfq_req_new();
	int32_t fence = -1;

	vfq_req_set(req, dev.fd, pipe0->primary, OBJ_PLANE, "FB_ID", fb->fb_id);
	vfq_req_set(req, dev.fd, pipe0->wb_conn_id, conn, "WRITEBACK_FB_ID",
		    out->fb_id);
	vfq_req_set(req, dev.fd, pipe0->wb_conn_id, conn,
		    "WRITEBACK_OUT_FENCE_PTR", (uint64_t)(uintptr_t)&fence);
	igt_assert_eq(vfq_req_commit(dev.fd, req, DRM_MODE_ATOMIC_NONBLOCK |
				     DRM_MODE_PAGE_FLIP_EVENT,
				     (void *)(uintptr_t)tag), 0);
	igt_assert_fd(fence);
	return fence;
}

/* Pixels of @out that are not @xrgb (solid frames, XRGB8888). */
static int count_not(const struct vfq_fb *out, uint32_t xrgb)
{
	int bad = 0;

	for (int y = 0; y < H; y++) {
		const uint32_t *row = (const uint32_t *)(out->map +
							 (size_t)y * out->pitch);

		for (int x = 0; x < W; x++)
			bad += (row[x] | 0xff000000u) != xrgb;
	}
	return bad;
}

/*
 * WB_FLIPS flips through WB_FRAMES distinct solid frames, a writeback job
 * on each.  The flip's event names the vblank from which its frame is on
 * screen (the truth checker holds the events to the grid, at or after
 * their commit); the next flip is committed as soon as that event is read,
 * so the frame after it follows at the next vblank while the job's
 * composition may still run.  Each capture must be the frame of its
 * flip: not the one before (the state the flip replaced), not the one
 * after.  The job's out-fence signals once the frame is captured, which
 * is after its vblank, never before.
 */
static void test_wb_frame_of_vblank(void)
{
	static const uint32_t xrgb[WB_FRAMES] = {
		0xffc02010, 0xff10c020, 0xff2010c0, 0xffc0c0c0,
	};
	struct vfq_fb frames[WB_FRAMES], out[2];
	uint64_t t_start[2], seq, ts;
	struct vfq_truth truth;
	int fence[2];

	for (int i = 0; i < WB_FRAMES; i++) {
		vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &frames[i]);
		vfq_fb_fill(&frames[i], vfq_rgb8(xrgb[i] >> 16 & 0xff,
						 xrgb[i] >> 8 & 0xff,
						 xrgb[i] & 0xff));
	}
	for (int i = 0; i < 2; i++)
		vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &out[i]);
	pipe_on(&frames[0]);
	/* connects the writeback connector: the jobs below are no mode set */
	vfq_wb_capture_ok(&dev, 0, &out[0]);
	vfq_drain_events(dev.fd, 50);
	vfq_truth_init(&truth, pipe0->crtc_id, vfq_mode_period(&mode),
		       VFQ_TRUTH_FLIPS);
	vfq_vblank_grid(dev.fd, pipe0->crtc_id, &seq, &ts);
	vfq_truth_vblank(&truth, seq, ts);

	memset(out[1].map, 0x5a, out[1].size);
	t_start[1] = vfq_now_ns();
	fence[1] = flip_with_job(&frames[1], &out[1], 1);
	for (int i = 1; i <= WB_FLIPS; i++) {
		struct sync_fence_info fi = {};
		struct sync_file_info info = {
			.num_fences = 1,
			.sync_fence_info = (uint64_t)(uintptr_t)&fi,
		};
		struct vfq_event ev;
		uint64_t t_read;
		char what[32];
		int bad;

		igt_assert_eq(vfq_read_event(dev.fd, 1000, &ev), 1);
		t_read = vfq_now_ns();
		igt_assert_eq_u32(ev.type, DRM_EVENT_FLIP_COMPLETE);
		igt_assert_eq_u64(ev.user_data, i);
		snprintf(what, sizeof(what), "flip %d", i);
		vfq_truth_event(&truth, what, t_start[i & 1], &ev, t_read);
		if (i < WB_FLIPS) {
			struct vfq_fb *o = &out[(i + 1) & 1];

			memset(o->map, 0x5a, o->size);
			t_start[(i + 1) & 1] = vfq_now_ns();
			fence[(i + 1) & 1] =
				flip_with_job(&frames[(i + 1) % WB_FRAMES], o,
					      i + 1);
		}
		vfq_wait_fence(fence[i & 1], 10000);
		do_ioctl(fence[i & 1], SYNC_IOC_FILE_INFO, &info);
		close(fence[i & 1]);
		igt_assert_eq(fi.status, 1);
		/* the event's time is the vblank's, cut to microseconds */
		igt_assert_f(fi.timestamp_ns >= ev.ts_ns,
			     "flip %d: writeback fence signalled %.3f ms "
			     "before the vblank of its frame\n", i,
			     ((double)ev.ts_ns - fi.timestamp_ns) / 1e6);
		bad = count_not(&out[i & 1], xrgb[i % WB_FRAMES]);
		if (bad)
			for (int k = 0; k < WB_FRAMES; k++)
				if (!count_not(&out[i & 1], xrgb[k]))
					igt_info("flip %d: the capture is frame "
						 "%d\n", i, k);
		igt_assert_f(!bad, "flip %d: %d pixels of the capture of "
			     "vblank %llu are not its frame %d\n", i, bad,
			     (unsigned long long)ev.sequence, i % WB_FRAMES);
	}
	reset();
	pipe_on(&bg);
	for (int i = 0; i < WB_FRAMES; i++)
		vfq_fb_destroy(&frames[i]);
	for (int i = 0; i < 2; i++)
		vfq_fb_destroy(&out[i]);
}

/* ---- input formats ------------------------------------------------- */

static void test_input_format(uint32_t format)
{
	const int ow = 128, oh = 96, ox = 100, oy = 80;
	const int depth = vfq_format_depth(format);
	struct vfq_fb ov;
	int tol;

	igt_require(pipe0->n_overlays > 0);
	vfq_fb_create(dev.fd, ow, oh, format, &ov);
	expect_bg();
	if (format == DRM_FORMAT_NV12) {
		/* random luma per pixel, random chroma per 2x2 block; no
		 * chroma interpolation and an exact integer decode
		 * (driver.rst, "NV12") */
		for (int y = 0; y < oh; y += 2) {
			for (int x = 0; x < ow; x += 2) {
				struct vfq_color h = vfq_pattern8(x, y, 81);
				int U = 16 + vfq_chan(h.g, 8) * 224 / 255,
				    V = 16 + vfq_chan(h.b, 8) * 224 / 255;

				for (int k = 0; k < 4; k++) {
					int px = x + (k & 1), py = y + k / 2;
					struct vfq_color l =
						vfq_pattern8(px, py, 82);
					int Y = 16 + vfq_chan(l.r, 8) * 219 / 255;

					vfq_fb_put_yuv(&ov, px, py, Y, U, V);
					expected[(oy + py) * W + ox + px] =
						vfq_yuv601_to_rgb(Y, U, V);
				}
			}
		}
		tol = 0;
	} else {
		vfq_fb_pattern(&ov, 83);
		for (int y = 0; y < oh; y++)
			for (int x = 0; x < ow; x++)
				expected[(oy + y) * W + ox + x] =
					vfq_fb_get(&ov, x, y);
		/*
		 * Exact for 8-bit formats.  For the others the expected colour
		 * comes from vfq_fb_get(), which reads 10-bit and F16 with its
		 * own rounding (round(v * 65535 / 1023), float) rather than
		 * driver.rst's bit replication and integer F16 rounding: the
		 * two 16-bit values differ by at most 1, which can move the
		 * 8-bit result by one step.  The driver's own conversions are
		 * checked exactly, for every value, by its KUnit suites.
		 */
		tol = depth == 8 ? 0 : 1;
	}

	plane_at(pipe0->overlays[0], &ov, ox, oy);
	commit();
	check_capture(DRM_FORMAT_XRGB8888, expect_buf, NULL, 8, tol);
	planes_off();
	vfq_fb_destroy(&ov);
}

/* ---- clipping ------------------------------------------------------ */

static void test_clipping(void)
{
	struct vfq_fb prim, ov0, ov1;
	uint32_t top = pipe0->n_overlays > 1 ? pipe0->overlays[1] :
					       pipe0->cursor;
	struct placed pl[3] = {
		{ &prim, -100, -50 }, { &ov0, -20, -10 }, { &ov1, 600, 440 },
	};

	igt_require(pipe0->n_overlays > 0 && top);
	vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &prim);
	vfq_fb_create(dev.fd, 64, 64, DRM_FORMAT_XRGB8888, &ov0);
	vfq_fb_create(dev.fd, 64, 64, DRM_FORMAT_ARGB8888, &ov1);
	vfq_fb_pattern(&prim, 91);
	vfq_fb_pattern(&ov0, 92);
	vfq_fb_pattern(&ov1, 93);

	plane_at(pipe0->primary, &prim, pl[0].x, pl[0].y);
	plane_at(pipe0->overlays[0], &ov0, pl[1].x, pl[1].y);
	plane_at(top, &ov1, pl[2].x, pl[2].y);
	commit();

	/* uncovered: opaque black background */
	for (int i = 0; i < W * H; i++)
		expected[i] = vfq_rgb8(0, 0, 0);
	for (int i = 0; i < 3; i++)
		paint(&pl[i]);
	check_capture(DRM_FORMAT_XRGB8888, expect_buf, NULL, 8, 0);

	planes_off();
	vfq_fb_destroy(&prim);
	vfq_fb_destroy(&ov0);
	vfq_fb_destroy(&ov1);
}

/* ---- zpos ---------------------------------------------------------- */

static void test_zpos(void)
{
	struct vfq_fb a, b;
	uint32_t o0, o1;

	igt_require(pipe0->n_overlays > 1);
	o0 = pipe0->overlays[0];
	o1 = pipe0->overlays[1];
	vfq_fb_create(dev.fd, 100, 100, DRM_FORMAT_XRGB8888, &a);
	vfq_fb_create(dev.fd, 100, 100, DRM_FORMAT_XRGB8888, &b);
	vfq_fb_fill(&a, vfq_rgb8(255, 0, 0));
	vfq_fb_fill(&b, vfq_rgb8(0, 0, 255));

	for (int swap = 0; swap < 2; swap++) {
		struct placed pa = { &a, 50, 50 }, pb = { &b, 100, 100 };

		plane_at(o0, &a, 50, 50);
		plane_at(o1, &b, 100, 100);
		/* a missing "zpos" fails the commit, as before */
		igt_plane_set_prop_value(plane0(o0), IGT_PLANE_ZPOS,
					 swap ? 2 : 1);
		igt_plane_set_prop_value(plane0(o1), IGT_PLANE_ZPOS,
					 swap ? 1 : 2);
		commit();
		expect_bg();
		paint(swap ? &pb : &pa);
		paint(swap ? &pa : &pb);
		check_capture(DRM_FORMAT_XRGB8888, expect_buf, NULL, 8, 0);
	}
	/*
	 * Raw: zpos goes back too, which igt_display_reset() leaves.
	 * igt_display follows with a reset of its own state (everything
	 * off, as the kernel's now), committed whole by pipe_on().
	 */
	vfq_dev_reset(&dev);
	igt_display_reset(&display);
	pipe_on(&bg);
	vfq_fb_destroy(&a);
	vfq_fb_destroy(&b);
}

igt_main
{
	igt_fixture {
		vfq_dev_init(&dev, vfq_open_default());
		igt_require_f(dev.caps.caps & VFLIPQ_CAP_WRITEBACK,
			      "device without writeback\n");
		pipe0 = &dev.pipe[0];
		igt_assert(pipe0->wb_conn_id);
		/* raw: also zpos, which igt_display_reset() leaves */
		vfq_dev_reset(&dev);
		vfq_display_init(&display, &dev);
		vfq_get_mode(dev.fd, pipe0->conn_id, W, H, 60, &mode);
		vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &bg);
		vfq_fb_pattern(&bg, 41);
		pipe_on(&bg);
	}

	igt_describe("An 8-bit pattern comes back exactly in XRGB8888, "
		     "ARGB8888 and ABGR8888 (alpha opaque)");
	igt_subtest("wb-8bit-formats") {
		static const uint32_t f[] = {
			DRM_FORMAT_XRGB8888, DRM_FORMAT_ARGB8888,
			DRM_FORMAT_ABGR8888,
		};
		uint32_t seed = 41;

		for (size_t i = 0; i < VFQ_ARRAY_SIZE(f); i++)
			check_capture(f[i], expect_pattern8, &seed, 8, 0);
	}

	/*
	 * Exact (driver.rst, "Precision"): 10-bit input replicated to 16 bits
	 * and rounded back gives every 10-bit value back (checked for all
	 * 1024 by the vflipq_formats KUnit suite), 8-bit input v * 257 rounds to
	 * what vfq_chan() computes.
	 */
	igt_describe("XRGB2101010 writeback keeps 10-bit input exactly and "
		     "expands 8-bit input");
	igt_subtest("wb-xrgb2101010") {
		struct vfq_fb src10;
		uint32_t seed8 = 41, seed10 = 42;

		check_capture(DRM_FORMAT_XRGB2101010, expect_pattern8, &seed8,
			      10, 0);
		vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB2101010, &src10);
		vfq_fb_pattern(&src10, seed10);
		pipe_on(&src10);
		check_capture(DRM_FORMAT_XRGB2101010, expect_pattern10,
			      &seed10, 10, 0);
		pipe_on(&bg);
		vfq_fb_destroy(&src10);
	}

	igt_describe("Writeback jobs with a wrong size or format, or on an "
		     "inactive CRTC, fail with EINVAL");
	igt_subtest("wb-invalid")
		test_wb_invalid();

	igt_describe("A page flip or a cursor move keeps every other plane in "
		     "the composed output");
	igt_subtest("flip-keeps-planes")
		test_flip_keeps_planes();

	igt_describe("Successive captures each hold the frame of their commit");
	igt_subtest("wb-sequence") {
		for (uint32_t seed = 51; seed < 54; seed++) {
			vfq_fb_pattern(&bg, seed);
			check_capture(DRM_FORMAT_XRGB8888, expect_pattern8,
				      &seed, 8, 0);
		}
		vfq_fb_pattern(&bg, 41);
	}

	igt_describe("A writeback job riding on a flip captures the frame "
		     "the flip's event says is on screen at its vblank, even "
		     "with the next flip right behind it");
	igt_subtest("wb-frame-of-its-vblank")
		test_wb_frame_of_vblank();

	for (size_t i = 0; i < VFQ_ARRAY_SIZE(blend_modes); i++) {
		char name[32];

		lowercase(name, blend_modes[i], sizeof(name));
		igt_describe_f("ARGB8888 overlay with per-pixel and plane "
			       "alpha over the primary, blend mode \"%s\": "
			       "blend formula of the spec", blend_modes[i]);
		igt_subtest_f("blend-%s", name)
			test_blend(blend_modes[i]);
	}

	for (size_t i = 0; i < VFQ_ARRAY_SIZE(rotations); i++) {
		igt_describe_f("Overlay pixels with rotation %s land where "
			       "drm_rect_rotate() puts them", rotations[i].name);
		igt_subtest_f("%s", rotations[i].name)
			test_rotation(rotations[i].rotation);
	}

	igt_describe("Planes partially off-screen are clipped; uncovered "
		     "area is black");
	igt_subtest("clipping")
		test_clipping();

	igt_describe("zpos decides which overlay is on top");
	igt_subtest("zpos-order")
		test_zpos();

	for (size_t i = 0; i < VFQ_ARRAY_SIZE(input_formats); i++) {
		char name[32];

		lowercase(name, vfq_format_name(input_formats[i]), sizeof(name));
		igt_describe_f("An overlay in %s composes to the expected "
			       "colours", vfq_format_name(input_formats[i]));
		igt_subtest_f("input-%s", name)
			test_input_format(input_formats[i]);
	}

	igt_describe("A scanout fb with a non-zero offsets[0] shows the pixels "
		     "from that offset");
	igt_subtest("fb-offset-scanout")
		test_scanout_offset();

	igt_describe("A writeback fb with a non-zero offsets[0] is written "
		     "from that offset, and only inside the fb");
	igt_subtest("wb-fb-offset")
		test_wb_offset();

	igt_fixture {
		reset();
		igt_display_fini(&display);
		vfq_fb_destroy(&bg);
		vfq_dev_fini(&dev);
	}
}
