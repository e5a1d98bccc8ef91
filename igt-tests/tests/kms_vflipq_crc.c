// SPDX-License-Identifier: MIT
/*
 * CRTC CRCs (debugfs, source "auto"): stable for a static frame, following
 * the content, identical for identical output, computed at the output
 * depth (the sink's depth bounded by "max bpc").  640x480 keeps the
 * software composer cheap under TCG.
 */
/**
 * TEST: kms vflipq crc
 * Category: Display
 * Mega feature: General Display Features
 * Sub-category: crc
 * Functionality: pipe crc
 * Driver requirement: vflipq
 * Description: CRTC CRC capture (debugfs, source "auto"): stable for a static
 *              frame, following the content, identical for identical output,
 *              equal to the CRC of the reference frame computed by the test,
 *              at the output depth (the sink's depth bounded by "max bpc").
 *
 * SUBTEST: crc-stable
 * Description: The CRC of a static frame is the same for 12 frames
 *
 * SUBTEST: crc-follows-content
 * Description: Changing the fb contents in place changes the CRC, restoring
 *              them restores it
 *
 * SUBTEST: crc-content-identity
 * Description: Two different patterns give different CRCs; identical content
 *              in two fbs gives the same CRC
 *
 * SUBTEST: crc-format-independent
 * Description: The same picture in other opaque 8-bit formats gives the same
 *              CRC
 *
 * SUBTEST: crc-follows-planes
 * Description: A plane moved over the picture changes the CRC
 *
 * SUBTEST: crc-matches-reference
 * Description: The CRC is the folded frame hash of the reference frame (exact
 *              blend of driver.rst) with an alpha overlay over part of the
 *              rows, at 8 and at 16 bits
 *
 * SUBTEST: crc-runs-match-reference
 * Description: The CRC of rows cut into runs of different planes (base only,
 *              opaque plane on top, one plane blended in 8 bits, two planes
 *              composed) is the reference frame's
 *
 * SUBTEST: depth-follows-sink-and-max-bpc
 * Description: The output depth is the sink's depth bounded by "max bpc",
 *              taken at a modeset; the CRC is of the frame at that depth
 *
 * SUBTEST: ctm-fraction-at-sink-depth
 * Description: A frame through a fractional CTM has the CRC of the XRGB8888
 *              frame of its rounded colours at 8 bits, not at 16
 *
 * SUBTEST: crc-two-crtcs
 * Description: CRCs of two CRTCs captured at once follow each one's content
 *
 * SUBTEST: crc-source-and-state
 * Description: Only source "auto" exists; capture needs an active CRTC (EIO)
 */

#include <fcntl.h>

#include "igt.h"
#include "igt_sysfs.h"
#include "vflipq_helpers.h"
#include "vflipq_pxref.h"

IGT_TEST_DESCRIPTION("vflipq CRTC CRC capture");

#define W 640
#define H 480

static struct vfq_dev dev;
static igt_display_t display;
static drmModeModeInfo mode;
static struct vfq_fb fb1, fb1_copy, fb2;
static struct vfq_color expected[W * H];

/* S31.32 sign-magnitude, as struct drm_color_ctm holds it */
#define FIX(num, den) ((uint64_t)(((__int128)(num) << 32) / (den)))
#define BANDS 4

/*
 * A commit without DRM_MODE_ATOMIC_ALLOW_MODESET (igt_display_commit2()
 * allows one): the flips and property changes here must not need one.
 */
static void commit_no_modeset(void)
{
	igt_display_commit_atomic(&display, 0, NULL);
}

/* Blocking modeset of @pipe to @m, its primary full-screen on @fb. */
static void pipe_on(int pipe, const drmModeModeInfo *m, struct vfq_fb *fb)
{
	vfq_display_pipe(&display, &dev, pipe, m, fb);
	igt_display_commit2(&display, COMMIT_ATOMIC);
}

/* Blocking flip of the primary of @pipe to @fb. */
static void flip_to(int pipe, struct vfq_fb *fb)
{
	igt_plane_set_fb(igt_pipe_get_plane_type(&display.pipes[pipe],
						 DRM_PLANE_TYPE_PRIMARY),
			 &fb->igt);
	commit_no_modeset();
}

/* Overlay 0 (by default zpos) or the cursor of pipe 0 at (x, y) with @fb. */
static void plane_at(uint32_t plane_id, struct vfq_fb *fb, int x, int y)
{
	igt_plane_t *plane = vfq_display_plane(&display, 0, plane_id);

	igt_plane_set_fb(plane, fb ? &fb->igt : NULL);
	if (fb)
		igt_plane_set_position(plane, x, y);
}

/* A CRC of a frame composed after everything done so far. */
static uint32_t settled_crc(int pipe, igt_pipe_crc_t *crc)
{
	uint32_t v;
	uint64_t now = vfq_crtc_sequence(dev.fd, dev.pipe[pipe].crtc_id);

	vfq_crc_collect(crc, now + 2, 1, &v);
	return v;
}

/* "max bpc" of the connector of pipe 0 (a modeset when it changes). */
static void set_max_bpc(int bpc)
{
	igt_output_t *output = vfq_output(&display, &dev, 0);

	/* vflipq has it: a failure, not a skip, as the raw request was */
	igt_assert(igt_output_has_prop(output, IGT_CONNECTOR_MAX_BPC));
	igt_output_set_prop_value(output, IGT_CONNECTOR_MAX_BPC, bpc);
	igt_display_commit2(&display, COMMIT_ATOMIC);
}

/* Pipe 0 lit anew on @fb with a @sink bit sink and "max bpc" @max. */
static void light_at(int sink, int max, struct vfq_fb *fb)
{
	vfq_display_off(&display);
	vfq_sink_bpc(dev.fd, sink);
	set_max_bpc(max);
	pipe_on(0, &mode, fb);
}

/* CRTC 0's CTM: @m, 9 coefficients, or none. */
static void set_ctm(const uint64_t *m)
{
	igt_assert(igt_pipe_obj_has_prop(&display.pipes[0], IGT_CRTC_CTM));
	igt_pipe_replace_prop_blob(&display, 0, IGT_CRTC_CTM, m,
				   m ? 9 * sizeof(*m) : 0);
	commit_no_modeset();
}

/*
 * Pipe 0, lit on the reference frame: its CRC (@ref), then the CRC of
 * @src through the CTM @m (@ctm); the CTM is cleared again.
 */
static void ctm_crcs(struct vfq_fb *src, const uint64_t *m, uint32_t *ref,
		     uint32_t *ctm)
{
	igt_pipe_crc_t *crc;

	crc = vfq_crc_start(dev.fd, dev.pipe[0].index);
	*ref = settled_crc(0, crc);
	flip_to(0, src);
	set_ctm(m);
	*ctm = settled_crc(0, crc);
	set_ctm(NULL);
	igt_pipe_crc_free(crc);
}

/* @fb in BANDS horizontal bands of @c; @rows: the frame's rows. */
static void paint_bands(struct vfq_fb *fb, const struct vfq_color *c,
			struct vfq_color *rows)
{
	for (int i = 0; i < BANDS; i++)
		vfq_fb_fill_rect(fb, 0, i * H / BANDS, W, H / BANDS, c[i]);
	for (int y = 0; y < H; y++)
		rows[y] = c[y / (H / BANDS)];
}

/* The back to the defaults of a new device: an 8-bit sink, "max bpc" 16. */
static void depth_defaults(void)
{
	vfq_display_off(&display);
	vfq_sink_bpc(dev.fd, 8);
	set_max_bpc(16);
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
		vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &fb1);
		vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &fb1_copy);
		vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &fb2);
		vfq_fb_pattern(&fb1, 1);
		vfq_fb_pattern(&fb1_copy, 1);
		vfq_fb_pattern(&fb2, 2);
		depth_defaults();
	}

	igt_describe("The CRC of a static frame is the same for 12 frames");
	igt_subtest("crc-stable") {
		igt_pipe_crc_t *crc;
		uint32_t v[12];
		uint64_t s0, s1;

		pipe_on(0, &mode, &fb1);
		crc = vfq_crc_start(dev.fd, dev.pipe[0].index);
		s0 = vfq_crtc_sequence(dev.fd, dev.pipe[0].crtc_id);
		vfq_crc_collect(crc, s0 + 2, 12, v);
		s1 = vfq_crtc_sequence(dev.fd, dev.pipe[0].crtc_id);
		for (int i = 1; i < 12; i++)
			igt_assert_eq_u32(v[i], v[0]);
		/* one CRC per frame: 12 CRCs took at least 12 frames */
		igt_assert_lte_u64(s0 + 12, s1 + 2);
		igt_pipe_crc_free(crc);
		vfq_display_off(&display);
	}

	igt_describe("Changing the fb contents in place changes the CRC, "
		     "restoring them restores it");
	igt_subtest("crc-follows-content") {
		igt_pipe_crc_t *crc;
		uint32_t a, b, b2[3];
		cairo_t *cr;

		pipe_on(0, &mode, &fb1);
		crc = vfq_crc_start(dev.fd, dev.pipe[0].index);
		a = settled_crc(0, crc);

		/* compared with the test's own frames only: IGT paints it */
		cr = igt_get_cairo_ctx(fb1.fd, &fb1.igt);
		igt_paint_color(cr, 100, 100, 50, 40, 1.0, 0.0, 0.0);
		igt_put_cairo_ctx(cr);
		b = settled_crc(0, crc);
		igt_assert_neq_u32(a, b);
		vfq_crc_collect(crc, 0, 3, b2);
		for (int i = 0; i < 3; i++)
			igt_assert_eq_u32(b2[i], b);

		/* a single pixel is enough */
		vfq_fb_pattern(&fb1, 1);
		igt_assert_eq_u32(settled_crc(0, crc), a);
		vfq_fb_put(&fb1, W - 1, H - 1, vfq_rgb8(1, 2, 3));
		igt_assert_neq_u32(settled_crc(0, crc), a);
		vfq_fb_pattern(&fb1, 1);
		igt_assert_eq_u32(settled_crc(0, crc), a);

		igt_pipe_crc_free(crc);
		vfq_display_off(&display);
	}

	igt_describe("Two different patterns give different CRCs; identical "
		     "content in two fbs gives the same CRC");
	igt_subtest("crc-content-identity") {
		igt_pipe_crc_t *crc;
		uint32_t c1, c1_copy, c2;

		pipe_on(0, &mode, &fb1);
		crc = vfq_crc_start(dev.fd, dev.pipe[0].index);
		c1 = settled_crc(0, crc);
		flip_to(0, &fb2);
		c2 = settled_crc(0, crc);
		flip_to(0, &fb1_copy);
		c1_copy = settled_crc(0, crc);
		flip_to(0, &fb1);
		igt_info("CRCs: pattern 1 %08x, copy %08x, pattern 2 %08x\n",
			 c1, c1_copy, c2);
		igt_assert_neq_u32(c1, c2);
		igt_assert_eq_u32(c1, c1_copy);
		igt_assert_eq_u32(settled_crc(0, crc), c1);
		igt_pipe_crc_free(crc);
		vfq_display_off(&display);
	}

	igt_describe("The same picture in other opaque 8-bit formats gives the "
		     "same CRC");
	igt_subtest("crc-format-independent") {
		static const uint32_t formats[] = {
			DRM_FORMAT_XBGR8888, DRM_FORMAT_ARGB8888,
			DRM_FORMAT_ABGR8888,
		};
		igt_pipe_crc_t *crc;
		uint32_t ref;

		pipe_on(0, &mode, &fb1);
		crc = vfq_crc_start(dev.fd, dev.pipe[0].index);
		ref = settled_crc(0, crc);
		for (size_t i = 0; i < VFQ_ARRAY_SIZE(formats); i++) {
			struct vfq_fb fb;

			vfq_fb_create(dev.fd, W, H, formats[i], &fb);
			vfq_fb_pattern(&fb, 1);
			flip_to(0, &fb);
			igt_assert_f(settled_crc(0, crc) == ref,
				     "%s gives another CRC than XRGB8888\n",
				     vfq_format_name(formats[i]));
			flip_to(0, &fb1);
			vfq_fb_destroy(&fb);
		}
		igt_pipe_crc_free(crc);
		vfq_display_off(&display);
	}

	igt_describe("A plane moved over the picture changes the CRC");
	igt_subtest("crc-follows-planes") {
		struct vfq_pipe *p = &dev.pipe[0];
		igt_pipe_crc_t *crc;
		struct vfq_fb ov;
		uint32_t base, at1, at2;
		cairo_t *cr;

		igt_require(p->n_overlays > 0);
		vfq_fb_create(dev.fd, 64, 64, DRM_FORMAT_XRGB8888, &ov);
		/* compared with the test's own frames only: IGT paints it */
		cr = igt_get_cairo_ctx(ov.fd, &ov.igt);
		igt_paint_color(cr, 0, 0, 64, 64, 0.0, 1.0, 0.0);
		igt_put_cairo_ctx(cr);
		pipe_on(0, &mode, &fb1);
		crc = vfq_crc_start(dev.fd, dev.pipe[0].index);
		base = settled_crc(0, crc);
		plane_at(p->overlays[0], &ov, 10, 10);
		commit_no_modeset();
		at1 = settled_crc(0, crc);
		plane_at(p->overlays[0], &ov, 300, 200);
		commit_no_modeset();
		at2 = settled_crc(0, crc);
		igt_assert_neq_u32(base, at1);
		igt_assert_neq_u32(base, at2);
		igt_assert_neq_u32(at1, at2);
		plane_at(p->overlays[0], NULL, 0, 0);
		commit_no_modeset();
		igt_assert_eq_u32(settled_crc(0, crc), base);
		igt_pipe_crc_free(crc);
		vfq_display_off(&display);
		vfq_fb_destroy(&ov);
	}

	/*
	 * The composer feeds the CRC from an opaque 8-bit plane's framebuffer
	 * directly where nothing covers it and composes only the columns
	 * under the planes above (vflipq_composer.c): rows here are split
	 * into plane-only / blended / plane-only pieces, and the CRC must be
	 * that of the whole 16-bit frame of the reference blend, exactly.
	 */
	igt_describe("The CRC is the folded frame hash of the reference frame "
		     "(exact blend of driver.rst) with an alpha overlay over "
		     "part of the rows, at 8 and at 16 bits");
	igt_subtest("crc-matches-reference") {
		const int ow = 256, oh = 96, ox = 120, oy = 200;
		static const int depths[] = { 8, 16 };
		struct vfq_pipe *p = &dev.pipe[0];
		igt_pipe_crc_t *crc;
		struct vfq_fb ov;
		uint32_t got, want[2], plain[2];

		igt_require(p->n_overlays > 0);
		vfq_fb_create(dev.fd, ow, oh, DRM_FORMAT_ARGB8888, &ov);
		/* alpha = column, colour <= alpha (valid pre-multiplied) */
		for (int y = 0; y < oh; y++)
			for (int x = 0; x < ow; x++) {
				struct vfq_color c = vfq_pattern8(x, y, 61);
				int a = x;

				vfq_fb_put(&ov, x, y,
					   vfq_rgba8(vfq_chan(c.r, 8) % (a + 1),
						     vfq_chan(c.g, 8) % (a + 1),
						     vfq_chan(c.b, 8) % (a + 1),
						     a));
			}
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				expected[y * W + x] = vfq_fb_get(&fb1, x, y);
				expected[y * W + x].a = 0xffff;
			}
		for (int d = 0; d < 2; d++)
			plain[d] = vfq_frame_crc(expected, W, H, depths[d]);
		for (int y = 0; y < oh; y++)
			for (int x = 0; x < ow; x++) {
				struct vfq_color f = vfq_fb_get(&ov, x, y);
				struct vfq_color *e =
					&expected[(oy + y) * W + ox + x];

#define CH(c) e->c = pxref_blend(e->c, f.c, f.a, 0xffff, PXREF_PREMULTI)
				CH(r);
				CH(g);
				CH(b);
#undef CH
			}
		for (int d = 0; d < 2; d++)
			want[d] = vfq_frame_crc(expected, W, H, depths[d]);

		for (int d = 0; d < 2; d++) {
			light_at(depths[d], 16, &fb1);
			crc = vfq_crc_start(dev.fd, dev.pipe[0].index);
			got = settled_crc(0, crc);
			igt_assert_f(got == plain[d], "%d bits, primary alone: "
				     "CRC %08x, reference %08x\n", depths[d],
				     got, plain[d]);
			plane_at(p->overlays[0], &ov, ox, oy);
			commit_no_modeset();
			got = settled_crc(0, crc);
			igt_assert_f(got == want[d], "%d bits, with the "
				     "overlay: CRC %08x, reference %08x\n",
				     depths[d], got, want[d]);
			igt_pipe_crc_free(crc);
		}
		depth_defaults();
		vfq_fb_destroy(&ov);
	}

	/*
	 * The composer cuts each row at the planes' edges and feeds each run
	 * to the CRC its own way (driver.rst, "How the composer saves work"):
	 * from the base or from an opaque plane on top, blended in 8 bits
	 * (one 8-bit plane over the 8-bit base at 8 bits), or composed in 16
	 * bits (two planes over the base).  Whatever the run, the CRC must be
	 * the reference frame's: planes of both channel orders, an overlay
	 * with per-pixel alpha (colours above alpha in some columns, which
	 * saturate) or opaque, a cursor across its edge, at 8 and 16 bits.
	 */
	igt_describe("The CRC of rows cut into runs of different planes (base "
		     "only, opaque plane on top, one plane blended in 8 bits, "
		     "two planes composed) is the reference frame's");
	igt_subtest("crc-runs-match-reference") {
		enum { OX = 100, OY = 100, OW = 200, OH = 120 };
		enum { CX = 260, CY = 150, CW = 64, CH = 64 };
		static const int depths[] = { 8, 16 };
		static const uint32_t ovfmt[] = { DRM_FORMAT_ABGR8888,
						  DRM_FORMAT_XRGB8888 };
		struct vfq_pipe *p = &dev.pipe[0];
		struct vfq_fb base, ov, cur;
		igt_pipe_crc_t *crc;
		uint32_t got, want;

		igt_require(p->n_overlays > 0 && p->cursor);
		vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XBGR8888, &base);
		vfq_fb_pattern(&base, 5);
		vfq_fb_create(dev.fd, CW, CH, DRM_FORMAT_ARGB8888, &cur);
		for (int y = 0; y < CH; y++)
			for (int x = 0; x < CW; x++) {
				struct vfq_color c = vfq_pattern8(x, y, 17);
				int a = (x * 4 + y) & 255;

				/* Valid pre-multiplied but in one row. */
				vfq_fb_put(&cur, x, y,
					   vfq_rgba8(vfq_chan(c.r, 8) %
						     (y == 9 ? 256 : a + 1),
						     vfq_chan(c.g, 8) % (a + 1),
						     vfq_chan(c.b, 8) % (a + 1),
						     a));
			}

		for (unsigned int o = 0; o < VFQ_ARRAY_SIZE(ovfmt); o++) {
			vfq_fb_create(dev.fd, OW, OH, ovfmt[o], &ov);
			for (int y = 0; y < OH; y++)
				for (int x = 0; x < OW; x++) {
					struct vfq_color c =
						vfq_pattern8(x, y, 29);
					int a = (x + 3 * y) & 255;
					/* Colours above alpha: 8 columns. */
					int m = x % 25 == 0 ? 256 : a + 1;

					vfq_fb_put(&ov, x, y,
						   vfq_rgba8(vfq_chan(c.r, 8) % m,
							     vfq_chan(c.g, 8) % m,
							     vfq_chan(c.b, 8) % m,
							     a));
				}
			for (int y = 0; y < H; y++)
				for (int x = 0; x < W; x++) {
					expected[y * W + x] =
						vfq_fb_get(&base, x, y);
					expected[y * W + x].a = 0xffff;
				}
			/* The overlay, then the cursor above it. */
			for (int k = 0; k < 2; k++) {
				struct vfq_fb *fb = k ? &cur : &ov;
				int x0 = k ? CX : OX, y0 = k ? CY : OY;

				for (int y = 0; y < fb->height; y++)
					for (int x = 0; x < fb->width; x++) {
						struct vfq_color f =
							vfq_fb_get(fb, x, y);
						struct vfq_color *e =
							&expected[(y0 + y) * W +
								  x0 + x];

						if (fb->format ==
						    DRM_FORMAT_XRGB8888) {
							*e = f;
							continue;
						}
#define BL(c) e->c = pxref_blend(e->c, f.c, f.a, 0xffff, PXREF_PREMULTI)
						BL(r);
						BL(g);
						BL(b);
#undef BL
					}
			}
			for (int d = 0; d < 2; d++) {
				want = vfq_frame_crc(expected, W, H,
						     depths[d]);
				light_at(depths[d], 16, &base);
				crc = vfq_crc_start(dev.fd, dev.pipe[0].index);
				plane_at(p->overlays[0], &ov, OX, OY);
				plane_at(p->cursor, &cur, CX, CY);
				commit_no_modeset();
				got = settled_crc(0, crc);
				igt_assert_f(got == want,
					     "%d bits, %s overlay and cursor: "
					     "CRC %08x, reference %08x\n",
					     depths[d],
					     o ? "opaque XRGB8888" :
						 "ABGR8888 alpha",
					     got, want);
				igt_pipe_crc_free(crc);
			}
			vfq_fb_destroy(&ov);
		}
		depth_defaults();
		vfq_fb_destroy(&cur);
		vfq_fb_destroy(&base);
	}

	igt_describe("The output depth is the sink's depth bounded by \"max "
		     "bpc\", taken at a modeset; the CRC is of the frame at "
		     "that depth");
	igt_subtest("depth-follows-sink-and-max-bpc") {
		static const int cases[][3] = {	/* sink, max bpc, depth */
			{ 8, 16, 8 }, { 16, 16, 16 }, { 16, 10, 10 },
			{ 10, 12, 10 }, { 12, 16, 12 }, { 6, 16, 6 },
			{ 16, 8, 8 },
		};
		static const struct vfq_color c[BANDS] = {
			{ 0x1212, 0xfefe, 0x8080, 0xffff },
			{ 0x0101, 0x0202, 0x0303, 0xffff },
			{ 0xffff, 0xffff, 0xffff, 0xffff },
			{ 0x7f7f, 0x0000, 0xc0c0, 0xffff },
		};
		struct vfq_color rows[H];
		struct vfq_fb fb;
		igt_pipe_crc_t *crc;
		uint32_t got, want;

		vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &fb);
		paint_bands(&fb, c, rows);
		for (size_t i = 0; i < VFQ_ARRAY_SIZE(cases); i++) {
			const int *k = cases[i];

			light_at(k[0], k[1], &fb);
			igt_assert_f(vfq_crtc_bpc(dev.fd, dev.pipe[0].crtc_id) ==
				     k[2], "sink %d, max bpc %d: depth %d, "
				     "expected %d\n", k[0], k[1],
				     vfq_crtc_bpc(dev.fd, dev.pipe[0].crtc_id),
				     k[2]);
			crc = vfq_crc_start(dev.fd, dev.pipe[0].index);
			got = settled_crc(0, crc);
			want = vfq_frame_crc_rows(rows, W, H, k[2]);
			igt_assert_f(got == want, "%d bits: CRC %08x, reference "
				     "%08x\n", k[2], got, want);
			igt_pipe_crc_free(crc);
		}

		/*
		 * A black frame's CRC is not 0 (the hash of zeros), which
		 * IGT's CRC sanity check would warn about: the CRC input
		 * carries an opaque alpha at every depth.
		 */
		for (int i = 0; i < H; i++)
			rows[i] = vfq_rgb8(0, 0, 0);
		vfq_fb_fill(&fb, rows[0]);
		for (int d = 6; d <= 16; d += 2) {
			light_at(d, 16, &fb);
			crc = vfq_crc_start(dev.fd, dev.pipe[0].index);
			got = settled_crc(0, crc);
			igt_pipe_crc_free(crc);
			igt_assert_f(got != 0, "%d bits: a black frame's CRC is "
				     "0\n", d);
			igt_assert_eq_u32(got, vfq_frame_crc_rows(rows, W, H, d));
		}
		paint_bands(&fb, c, rows);

		/* Without a modeset the depth stays: a flip keeps 8 bits. */
		light_at(8, 16, &fb);
		crc = vfq_crc_start(dev.fd, dev.pipe[0].index);
		want = settled_crc(0, crc);
		vfq_sink_bpc(dev.fd, 16);
		flip_to(0, &fb1);
		flip_to(0, &fb);
		igt_assert_eq(vfq_crtc_bpc(dev.fd, dev.pipe[0].crtc_id), 8);
		igt_assert_eq_u32(settled_crc(0, crc), want);
		igt_pipe_crc_free(crc);
		depth_defaults();
		vfq_fb_destroy(&fb);
	}

	/*
	 * IGT's kms_color ctm-0-25 and the like: a fractional CTM gives
	 * 16-bit values between two 8-bit colours (0.25 * 0xffff = 0x4000,
	 * not 0x4040), and the test compares the CRC with that of the colour
	 * painted in XRGB8888.  At 8 bits the sink gets the same pixels.
	 */
	igt_describe("A frame through a fractional CTM has the CRC of the "
		     "XRGB8888 frame of its rounded colours at 8 bits, not at "
		     "16");
	igt_subtest("ctm-fraction-at-sink-depth") {
		static const uint64_t ctm[9] = {
			FIX(1, 4), 0, 0,
			0, FIX(1, 2), 0,
			0, 0, FIX(3, 4),
		};
		/* white, red, grey 0x80, black through the CTM */
		static const struct vfq_color in[BANDS] = {
			{ 0xffff, 0xffff, 0xffff, 0xffff },
			{ 0xffff, 0, 0, 0xffff },
			{ 0x8080, 0x8080, 0x8080, 0xffff },
			{ 0, 0, 0, 0xffff },
		};
		/*
		 * The composer's values (kms-features.rst, the CTM rounds to
		 * nearest, ties up):
		 * 0.25 * 0xffff = 16383.75, 0.5 * 0xffff = 32767.5 (ties up),
		 * 0.75 * 0xffff = 49151.25; 0x8080 gives 8224, 16448, 24672.
		 */
		static const struct vfq_color out16[BANDS] = {
			{ 16384, 32768, 49151, 0xffff },
			{ 16384, 0, 0, 0xffff },
			{ 8224, 16448, 24672, 0xffff },
			{ 0, 0, 0, 0xffff },
		};
		struct vfq_color out8[BANDS], rows_in[H], rows16[H], rows8[H];
		struct vfq_fb src, ref;
		uint32_t crc_ctm, crc_ref;

		for (int i = 0; i < BANDS; i++)
			out8[i] = vfq_rgb8(vfq_chan(out16[i].r, 8),
					   vfq_chan(out16[i].g, 8),
					   vfq_chan(out16[i].b, 8));
		/* 64, 128, 191: none a multiple of 257 in 16 bits */
		igt_assert(out8[0].r == 0x4040 && out8[0].g == 0x8080 &&
			   out8[0].b == 0xbfbf);
		vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &src);
		vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &ref);
		paint_bands(&src, in, rows_in);
		paint_bands(&ref, out8, rows8);
		for (int y = 0; y < H; y++)
			rows16[y] = out16[y / (H / BANDS)];

		/* A new device's 8-bit sink; then a 16-bit sink at max bpc 8. */
		for (int pass = 0; pass < 2; pass++) {
			light_at(pass ? 16 : 8, pass ? 8 : 16, &ref);
			igt_assert_eq(vfq_crtc_bpc(dev.fd,
						   dev.pipe[0].crtc_id), 8);
			ctm_crcs(&src, ctm, &crc_ref, &crc_ctm);
			igt_assert_eq_u32(crc_ref,
					  vfq_frame_crc_rows(rows8, W, H, 8));
			igt_assert_f(crc_ctm == crc_ref, "8 bits: CTM frame "
				     "%08x, XRGB8888 reference %08x\n",
				     crc_ctm, crc_ref);
		}

		/* A 16-bit sink at max bpc 16 tells 0x4000 from 0x4040. */
		light_at(16, 16, &ref);
		ctm_crcs(&src, ctm, &crc_ref, &crc_ctm);
		igt_assert_eq_u32(crc_ref, vfq_frame_crc_rows(rows8, W, H, 16));
		igt_assert_eq_u32(crc_ctm, vfq_frame_crc_rows(rows16, W, H, 16));
		igt_assert_neq_u32(crc_ctm, crc_ref);

		depth_defaults();
		vfq_fb_destroy(&src);
		vfq_fb_destroy(&ref);
	}

	igt_describe("CRCs of two CRTCs captured at once follow each one's "
		     "content");
	igt_subtest("crc-two-crtcs") {
		igt_pipe_crc_t *c0, *c1;
		drmModeModeInfo m1;
		uint32_t a0, a1;

		igt_require(dev.n_pipes >= 2);
		vfq_get_mode(dev.fd, dev.pipe[1].conn_id, W, H, 60, &m1);
		pipe_on(0, &mode, &fb1);
		pipe_on(1, &m1, &fb1_copy);
		c0 = vfq_crc_start(dev.fd, dev.pipe[0].index);
		c1 = vfq_crc_start(dev.fd, dev.pipe[1].index);
		a0 = settled_crc(0, c0);
		a1 = settled_crc(1, c1);
		igt_assert_eq_u32(a0, a1);
		flip_to(1, &fb2);
		a1 = settled_crc(1, c1);
		igt_assert_neq_u32(a0, a1);
		igt_assert_eq_u32(settled_crc(0, c0), a0);
		igt_pipe_crc_free(c0);
		igt_pipe_crc_free(c1);
		vfq_display_off(&display);
	}

	igt_describe("Only source \"auto\" exists; capture needs an active "
		     "CRTC (EIO)");
	igt_subtest("crc-source-and-state") {
		const char *ctl = "crtc-0/crc/control";
		int dir = igt_debugfs_dir(dev.fd), fd;
		igt_pipe_crc_t *crc;

		igt_assert_lte(0, dir);
		/* CRTC off: opening data fails with EIO */
		igt_assert_eq(igt_sysfs_write(dir, ctl, "auto", 4), 4);
		fd = openat(dir, "crtc-0/crc/data", O_RDONLY);
		igt_assert_f(fd < 0 && errno == EIO,
			     "crc/data of a CRTC that is off: %s\n",
			     fd < 0 ? strerror(errno) : "opened");
		igt_assert_eq(igt_sysfs_write(dir, ctl, "bogus", 5), -EINVAL);
		igt_assert_eq(igt_sysfs_write(dir, ctl, "auto", 4), 4);

		pipe_on(0, &mode, &fb1);
		crc = vfq_crc_start(dev.fd, dev.pipe[0].index);
		/* lines are "0x<vblank sequence> 0x<crc>" */
		{
			uint32_t frame, v;
			uint64_t seq = vfq_crtc_sequence(dev.fd,
							 dev.pipe[0].crtc_id);

			igt_assert_eq(vfq_crc_read(crc, 3000, &frame, &v), 1);
			igt_assert_neq_u32(frame, UINT32_MAX);
			igt_assert_f((uint32_t)seq - frame < 200 ||
				     frame - (uint32_t)seq < 200,
				     "CRC frame %u far from vblank %llu\n",
				     frame, (unsigned long long)seq);
		}
		/* one reader at a time */
		fd = openat(dir, "crtc-0/crc/data", O_RDONLY);
		igt_assert_f(fd < 0, "a second open of crc/data worked\n");
		igt_pipe_crc_free(crc);
		close(dir);
		vfq_display_off(&display);
	}

	igt_fixture {
		vfq_display_off(&display);
		igt_display_fini(&display);
		vfq_fb_destroy(&fb1);
		vfq_fb_destroy(&fb1_copy);
		vfq_fb_destroy(&fb2);
		vfq_dev_fini(&dev);
	}
}
