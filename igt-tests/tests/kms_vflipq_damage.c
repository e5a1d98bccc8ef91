// SPDX-License-Identifier: MIT
/*
 * FB_DAMAGE_CLIPS: offered on every plane, validated, reduced to the damage
 * the driver records in the plane state (read back from debugfs "state"),
 * and a flip with clips shows exactly what the same flip without clips does.
 * The composer recomposes only what a damage-tracking client's commits
 * changed (Documentation/vflipq/driver.rst, "Damage"): the CRC of such
 * frames equals the reference CRC of the expected picture, and a change
 * that no commit announced stays off the CRC until one does.
 */
/**
 * TEST: kms vflipq damage
 * Category: Display
 * Mega feature: General Display Features
 * Sub-category: planes
 * Functionality: damage clips
 * Driver requirement: vflipq
 * Description: FB_DAMAGE_CLIPS: offered on every plane, validated, recorded in
 *              the plane state, and the composer recomposes only what a
 *              damage-tracking client's commits changed, the CRC equal to that
 *              of the reference picture.
 *
 * SUBTEST: property
 * Description: Every plane of every CRTC has FB_DAMAGE_CLIPS
 *
 * SUBTEST: invalid
 * Description: Clips outside the framebuffer, empty or inverted, and blobs
 *              that are not whole rectangles fail with EINVAL
 *
 * SUBTEST: recorded
 * Description: The plane state records the bounding box of the clips, cut to
 *              the visible source; no clips or a geometry change damage
 *              everything
 *
 * SUBTEST: screen-exact
 * Description: A flip whose clips cover what changed shows exactly the new
 *              framebuffer (CRC and writeback), as a commit without clips does
 *
 * SUBTEST: tracked-cursor-moves
 * Description: With the primary plane's content tracked (committed with
 *              clips), every cursor position shows exactly: the old and the
 *              new cursor rectangle are recomposed
 *
 * SUBTEST: tracked-content
 * Description: A primary plane committed with clips changes on screen only
 *              through commits: drawing into it without one stays off the CRC
 *              until a commit's clips cover it; committed without clips, the
 *              drawing shows at the next frame (front-buffer rendering)
 *
 * SUBTEST: tracked-odd-width
 * Description: On a mode whose width is not a multiple of the tile width (a
 *              configfs device at 1000x600), cursor moves over a tracked
 *              primary, also through the narrower last tile of each row, give
 *              the reference CRC
 */

#include <fcntl.h>
#include <unistd.h>

#include "igt.h"
#include "vflipq_helpers.h"
#include "vflipq_pxref.h"

IGT_TEST_DESCRIPTION("vflipq FB_DAMAGE_CLIPS");

#define W 640
#define H 480
#define OBJ_PLANE DRM_MODE_OBJECT_PLANE

static struct vfq_dev dev;
static igt_display_t display;
static drmModeModeInfo mode;
static struct vfq_fb fb_a, fb_b, fb_c;

static igt_plane_t *primary(void)
{
	return igt_pipe_get_plane_type(&display.pipes[0],
				       DRM_PLANE_TYPE_PRIMARY);
}

/*
 * Commit @fb on the primary plane, source (sx, sy) of the plane's w x h at
 * (cx, cy), with @n clips, without ALLOW_MODESET; 0 or -errno.  Every
 * property of the plane is in the commit, FB_DAMAGE_CLIPS too (0 for no
 * clips): what is recorded depends on what the commit says.
 */
static int commit_src(struct vfq_fb *fb, int sx, int sy, int cx, int cy,
		      int w, int h, const struct drm_mode_rect *r, int n,
		      uint32_t flags)
{
	igt_plane_t *plane = primary();

	/* property checks it: a failure here, not a commit of property 0 */
	igt_assert(igt_plane_has_prop(plane, IGT_PLANE_FB_DAMAGE_CLIPS));
	igt_plane_set_fb(plane, &fb->igt);
	igt_fb_set_position(&fb->igt, plane, sx, sy);
	igt_fb_set_size(&fb->igt, plane, w, h);
	igt_plane_set_position(plane, cx, cy);
	igt_plane_set_size(plane, w, h);
	igt_plane_replace_prop_blob(plane, IGT_PLANE_FB_DAMAGE_CLIPS, r,
				    n * sizeof(*r));
	return igt_display_try_commit_atomic(&display, flags, NULL);
}

static int commit(struct vfq_fb *fb, const struct drm_mode_rect *r, int n)
{
	return commit_src(fb, 0, 0, 0, 0, W, H, r, n, 0);
}

/* The "vflipq.damage=" value of @plane in debugfs dri/<card>/state. */
static void recorded(uint32_t plane, char *out, size_t len)
{
	char path[128], *buf = malloc(1 << 20), tag[32], *at, *end, *d;
	int fd, n = 0, r;

	igt_assert(buf);
	snprintf(path, sizeof(path), "/sys/kernel/debug/dri/%d/state",
		 vfq_card_index(dev.fd));
	fd = open(path, O_RDONLY);
	igt_assert_f(fd >= 0, "%s: %m\n", path);
	while ((r = read(fd, buf + n, (1 << 20) - 1 - n)) > 0)
		n += r;
	close(fd);
	buf[n] = '\0';
	snprintf(tag, sizeof(tag), "plane[%u]:", plane);
	at = strstr(buf, tag);
	igt_assert_f(at, "no %s in %s\n", tag, path);
	end = strstr(at + 1, "plane[");
	d = strstr(at, "vflipq.damage=");
	igt_assert_f(d && (!end || d < end), "no damage for %s\n", tag);
	d += strlen("vflipq.damage=");
	snprintf(out, len, "%.*s", (int)strcspn(d, "\n"), d);
	free(buf);
}

static void assert_damage(const char *want, const char *why)
{
	char got[64];

	recorded(dev.pipe[0].primary, got, sizeof(got));
	igt_assert_f(strcmp(got, want) == 0, "%s: damage %s, expected %s\n",
		     why, got, want);
}

static const struct drm_mode_rect whole = { 0, 0, W, H };

/* The CRC of the frame after the next vblank (what is committed now). */
static uint32_t settled_crc(igt_pipe_crc_t *crc)
{
	uint32_t v;

	vfq_crc_collect(crc, vfq_crtc_sequence(dev.fd, dev.pipe[0].crtc_id) +
			2, 1, &v);
	return v;
}

/*
 * Reference CRC of @fb under an ARGB8888 @cur (pre-multiplied) at (cx, cy),
 * cut to the screen; @cur NULL: @fb alone.  At 8 bits, the depth of a new
 * device's sinks (the tests here run at it): the depth whose tile CRCs the
 * composer benchmark keeps.
 */
static uint32_t expected_crc(const struct vfq_fb *fb, const struct vfq_fb *cur,
			     int cx, int cy)
{
	const int fw = fb->width, fh = fb->height;	/* the screen's size */
	struct vfq_color *px = malloc(sizeof(*px) * fw * fh);
	uint32_t crc;

	igt_assert(px);
	for (int y = 0; y < fh; y++)
		for (int x = 0; x < fw; x++) {
			px[y * fw + x] = vfq_fb_get(fb, x, y);
			px[y * fw + x].a = 0xffff;
		}
	for (int y = 0; cur && y < cur->height; y++)
		for (int x = 0; x < cur->width; x++) {
			struct vfq_color f = vfq_fb_get(cur, x, y);
			struct vfq_color *e;

			if (cx + x < 0 || cx + x >= fw || cy + y < 0 ||
			    cy + y >= fh)
				continue;
			e = &px[(cy + y) * fw + cx + x];
#define CH(c) e->c = pxref_blend(e->c, f.c, f.a, 0xffff, PXREF_PREMULTI)
			CH(r);
			CH(g);
			CH(b);
#undef CH
		}
	crc = vfq_frame_crc(px, fw, fh, 8);
	free(px);
	return crc;
}

/* The cursor of pipe 0 at (x, y) with @cur (NULL: off), no modeset. */
static void move_cursor(struct vfq_fb *cur, int x, int y)
{
	/* vfq's cursor (asserted): igt_pipe_get_plane_type() would skip */
	igt_plane_t *plane = vfq_display_plane(&display, 0,
					       dev.pipe[0].cursor);

	igt_plane_set_fb(plane, cur ? &cur->igt : NULL);
	if (cur)
		igt_plane_set_position(plane, x, y);
	igt_display_commit_atomic(&display, 0, NULL);
}

/*
 * The same on the configfs device of tracked-odd-width, which keeps vfq's
 * raw helpers: a second device for one subtest, set up and torn down
 * there (vflipq_sys.c's configfs helpers).
 */
static void move_cursor_on(struct vfq_dev *d, uint32_t fb, int x, int y)
{
	const struct vfq_pipe *p = &d->pipe[0];
	drmModeAtomicReq *req = vfq_req_new();

	vfq_req_plane(req, d->fd, p->cursor, p->crtc_id, fb, x, y, 64, 64);
	igt_assert_eq(vfq_req_commit(d->fd, req, 0, NULL), 0);
}

static struct vfq_color expect_fb_c(int x, int y, void *data)
{
	(void)data;
	return vfq_fb_get(&fb_c, x, y);
}

igt_main
{
	igt_fixture {
		vfq_dev_init(&dev, vfq_open_default());
		/* raw: also zpos, which igt_display_reset() leaves */
		vfq_dev_reset(&dev);
		vfq_display_init(&display, &dev);
		vfq_get_mode(dev.fd, dev.pipe[0].conn_id, W, H, 60, &mode);
		vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &fb_a);
		vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &fb_b);
		vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &fb_c);
		vfq_fb_pattern(&fb_a, 11);
		vfq_fb_pattern(&fb_b, 12);
		vfq_sink_bpc(dev.fd, 8);
		vfq_display_pipe(&display, &dev, 0, &mode, &fb_a);
		igt_display_commit2(&display, COMMIT_ATOMIC);
	}

	igt_describe("Every plane of every CRTC has FB_DAMAGE_CLIPS");
	igt_subtest("property") {
		for (int i = 0; i < dev.n_pipes; i++) {
			const struct vfq_pipe *p = &dev.pipe[i];
			uint32_t planes[VFQ_MAX_OVERLAYS + 2];
			int n = 0;

			planes[n++] = p->primary;
			if (p->cursor)
				planes[n++] = p->cursor;
			for (int k = 0; k < p->n_overlays; k++)
				planes[n++] = p->overlays[k];
			for (int k = 0; k < n; k++) {
				igt_plane_t *pl = vfq_display_plane(&display, i,
								    planes[k]);

				igt_assert_f(igt_plane_has_prop(pl,
						IGT_PLANE_FB_DAMAGE_CLIPS),
					     "plane %u has no FB_DAMAGE_CLIPS\n",
					     planes[k]);
			}
		}
	}

	igt_describe("Clips outside the framebuffer, empty or inverted, and "
		     "blobs that are not whole rectangles fail with EINVAL");
	igt_subtest("invalid") {
		static const struct drm_mode_rect bad[] = {
			{ 0, 0, W + 1, 10 },	/* past the right edge */
			{ 0, H - 1, 10, H + 1 },	/* past the bottom */
			{ -1, 0, 10, 10 },	/* negative */
			{ 10, 10, 10, 20 },	/* empty */
			{ 20, 10, 10, 20 },	/* inverted */
		};
		static const struct drm_mode_rect ok = { 0, 0, W, H };
		const uint32_t t = DRM_MODE_ATOMIC_TEST_ONLY;

		for (size_t i = 0; i < VFQ_ARRAY_SIZE(bad); i++)
			igt_assert_eq(commit_src(&fb_b, 0, 0, 0, 0, W, H,
						 &bad[i], 1, t), -EINVAL);
		igt_assert_eq(commit_src(&fb_b, 0, 0, 0, 0, W, H, &ok, 1, t),
			      0);
		/*
		 * 1.5 rectangles, with the rest of the plane as the TEST_ONLY
		 * just accepted (still pending in igt_display): only the
		 * blob's size can be refused.
		 */
		igt_plane_replace_prop_blob(primary(),
					    IGT_PLANE_FB_DAMAGE_CLIPS, bad, 24);
		igt_assert_eq(igt_display_try_commit_atomic(&display, t, NULL),
			      -EINVAL);
	}

	igt_describe("The plane state records the bounding box of the clips, "
		     "cut to the visible source; no clips or a geometry change "
		     "damage everything");
	igt_subtest("recorded") {
		static const struct drm_mode_rect two[] = {
			{ 10, 20, 30, 40 }, { 100, 5, 120, 25 },
		};
		static const struct drm_mode_rect edge = { 600, 400, 640, 480 };
		static const struct drm_mode_rect outside = { 0, 0, 8, 8 };
		char full[32];

		snprintf(full, sizeof(full), "%dx%d+0+0", W, H);
		igt_assert_eq(commit(&fb_b, two, 2), 0);
		assert_damage("110x35+10+5", "two clips");
		igt_assert_eq(commit(&fb_a, NULL, 0), 0);
		assert_damage(full, "no clips");
		igt_assert_eq(commit(&fb_b, &edge, 1), 0);
		assert_damage("40x80+600+400", "one clip");

		/* a 320x240 window of the fb at (16, 16): clips are cut */
		igt_assert_eq(commit_src(&fb_a, 16, 16, 0, 0, 320, 240, NULL, 0,
					 0), 0);
		assert_damage("320x240+16+16", "new source rectangle");
		igt_assert_eq(commit_src(&fb_b, 16, 16, 0, 0, 320, 240, two, 2,
					 0), 0);
		assert_damage("104x24+16+16", "clips cut to the source");
		igt_assert_eq(commit_src(&fb_a, 16, 16, 0, 0, 320, 240,
					 &outside, 1, 0), 0);
		assert_damage("none", "clip outside the source");
		/* moving the plane damages all of it, clips or not */
		igt_assert_eq(commit_src(&fb_a, 16, 16, 8, 8, 320, 240,
					 &outside, 1, 0), 0);
		assert_damage("320x240+16+16", "plane moved");
		igt_assert_eq(commit(&fb_a, NULL, 0), 0);
	}

	igt_describe("A flip whose clips cover what changed shows exactly "
		     "the new framebuffer (CRC and writeback), as a commit "
		     "without clips does");
	igt_subtest("screen-exact") {
		static const struct drm_mode_rect changed = {
			100, 100, 164, 148,
		};
		igt_pipe_crc_t *crc;
		uint32_t with, without;
		struct vfq_fb out;

		igt_require(dev.caps.caps & VFLIPQ_CAP_WRITEBACK);
		/* fb_c: fb_a with one rectangle changed */
		vfq_fb_pattern(&fb_c, 11);
		vfq_fb_fill_rect(&fb_c, 100, 100, 64, 48, vfq_rgb8(255, 0, 0));
		igt_assert_eq(commit(&fb_c, NULL, 0), 0);
		crc = vfq_crc_start(dev.fd, dev.pipe[0].index);
		vfq_crc_collect(crc, vfq_crtc_sequence(dev.fd,
				dev.pipe[0].crtc_id) + 2, 1, &without);
		igt_assert_eq(commit(&fb_a, NULL, 0), 0);
		igt_assert_eq(commit(&fb_c, &changed, 1), 0);
		assert_damage("64x48+100+100", "the changed rectangle");
		vfq_crc_collect(crc, vfq_crtc_sequence(dev.fd,
				dev.pipe[0].crtc_id) + 2, 1, &with);
		igt_pipe_crc_free(crc);
		igt_assert_eq_u32(with, without);
		vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &out);
		memset(out.map, 0x5a, out.size);
		/* vfq's: a deadline on the out-fence */
		vfq_wb_capture_ok(&dev, 0, &out);
		igt_assert_eq(vfq_fb_check(&out, expect_fb_c, NULL, 8, 0), 0);
		vfq_fb_destroy(&out);
		igt_assert_eq(commit(&fb_a, NULL, 0), 0);
	}

	igt_describe("With the primary plane's content tracked (committed "
		     "with clips), every cursor position shows exactly: the "
		     "old and the new cursor rectangle are recomposed");
	igt_subtest("tracked-cursor-moves") {
		/* overlapping, off every edge, next to the last one */
		static const int pos[][2] = {
			{ 10, 10 }, { 40, 20 }, { W - 32, H - 20 },
			{ 300, 200 }, { -20, -10 }, { 300, 264 },
			{ 301, 263 }, { W - 64, 0 }, { 0, H - 64 },
		};
		struct vfq_fb cur;
		igt_pipe_crc_t *crc;
		uint32_t got, want;

		igt_require(dev.pipe[0].cursor);
		vfq_fb_create(dev.fd, 64, 64, DRM_FORMAT_ARGB8888, &cur);
		vfq_fb_pattern(&cur, 21);
		igt_assert_eq(commit(&fb_a, &whole, 1), 0);
		crc = vfq_crc_start(dev.fd, dev.pipe[0].index);
		for (size_t i = 0; i < VFQ_ARRAY_SIZE(pos); i++) {
			move_cursor(&cur, pos[i][0], pos[i][1]);
			got = settled_crc(crc);
			want = expected_crc(&fb_a, &cur, pos[i][0], pos[i][1]);
			igt_assert_f(got == want, "cursor at %d,%d: CRC %08x, "
				     "reference %08x\n", pos[i][0], pos[i][1],
				     got, want);
		}
		move_cursor(NULL, 0, 0);
		got = settled_crc(crc);
		want = expected_crc(&fb_a, NULL, 0, 0);
		igt_assert_f(got == want, "cursor off: CRC %08x, reference "
			     "%08x\n", got, want);
		igt_pipe_crc_free(crc);
		vfq_fb_destroy(&cur);
	}

	igt_describe("A primary plane committed with clips changes on screen "
		     "only through commits: drawing into it without one stays "
		     "off the CRC until a commit's clips cover it; committed "
		     "without clips, the drawing shows at the next frame "
		     "(front-buffer rendering)");
	igt_subtest("tracked-content") {
		static const struct drm_mode_rect drawn = {
			200, 300, 264, 340,
		};
		igt_pipe_crc_t *crc;
		uint32_t got, before, after;

		vfq_fb_pattern(&fb_c, 11);
		igt_assert_eq(commit(&fb_c, &whole, 1), 0);
		crc = vfq_crc_start(dev.fd, dev.pipe[0].index);
		before = expected_crc(&fb_c, NULL, 0, 0);
		got = settled_crc(crc);
		igt_assert_f(got == before, "committed: CRC %08x, reference "
			     "%08x\n", got, before);

		/* rows 300..339: no clip of the commit touches them */
		vfq_fb_fill_rect(&fb_c, drawn.x1, drawn.y1,
				 drawn.x2 - drawn.x1, drawn.y2 - drawn.y1,
				 vfq_rgb8(0, 255, 0));
		after = expected_crc(&fb_c, NULL, 0, 0);
		igt_assert_neq_u32(after, before);
		got = settled_crc(crc);
		igt_assert_f(got == before, "drawn, no commit: CRC %08x, "
			     "expected the old %08x\n", got, before);

		igt_assert_eq(commit(&fb_c, &drawn, 1), 0);
		got = settled_crc(crc);
		igt_assert_f(got == after, "commit with the clip: CRC %08x, "
			     "reference %08x\n", got, after);

		/* without clips: every frame shows what is in the buffer */
		igt_assert_eq(commit(&fb_c, NULL, 0), 0);
		vfq_fb_pattern(&fb_c, 11);
		got = settled_crc(crc);
		igt_assert_f(got == before, "untracked, redrawn: CRC %08x, "
			     "reference %08x\n", got, before);
		igt_pipe_crc_free(crc);
		igt_assert_eq(commit(&fb_a, NULL, 0), 0);
	}

	igt_describe("On a mode whose width is not a multiple of the tile "
		     "width (a configfs device at 1000x600), cursor moves over a "
		     "tracked primary, also through the narrower last tile of "
		     "each row, give the reference CRC");
	igt_subtest("tracked-odd-width") {
		static const char *const attrs[] = {
			"crtcs", "1", "modes", "1000x600@60", NULL,
		};
		static const int pos[][2] = {
			{ 0, 0 }, { 940, 100 }, { 970, 536 }, { 500, 300 },
			{ 960, -30 },
		};
		const struct drm_mode_rect all = { 0, 0, 1000, 600 };
		struct vfq_fb fb, cur;
		drmModeModeInfo m;
		drmModeAtomicReq *req;
		igt_pipe_crc_t *crc;
		struct vfq_dev d;
		uint32_t blob, got, want, v;

		igt_require(vfq_cfs_available());
		vfq_cfs_cleanup();
		vfq_dev_init(&d, vfq_open_card(vfq_cfs_create("igt-damage",
							      attrs)));
		igt_require(d.pipe[0].cursor);
		vfq_dev_reset(&d);
		vfq_get_mode(d.fd, d.pipe[0].conn_id, 1000, 600, 60, &m);
		vfq_fb_create(d.fd, 1000, 600, DRM_FORMAT_XRGB8888, &fb);
		vfq_fb_create(d.fd, 64, 64, DRM_FORMAT_ARGB8888, &cur);
		vfq_fb_pattern(&fb, 31);
		vfq_fb_pattern(&cur, 32);
		vfq_pipe_on(&d, 0, &m, fb.fb_id);
		igt_assert_eq(drmModeCreatePropertyBlob(d.fd, &all, sizeof(all),
							&blob), 0);
		req = vfq_req_new();
		vfq_req_plane(req, d.fd, d.pipe[0].primary, d.pipe[0].crtc_id,
			      fb.fb_id, 0, 0, 1000, 600);
		vfq_req_set(req, d.fd, d.pipe[0].primary, OBJ_PLANE,
			    "FB_DAMAGE_CLIPS", blob);
		igt_assert_eq(vfq_req_commit(d.fd, req, 0, NULL), 0);
		drmModeDestroyPropertyBlob(d.fd, blob);
		crc = vfq_crc_start(d.fd, d.pipe[0].index);
		for (size_t i = 0; i < VFQ_ARRAY_SIZE(pos); i++) {
			move_cursor_on(&d, cur.fb_id, pos[i][0], pos[i][1]);
			vfq_crc_collect(crc, vfq_crtc_sequence(d.fd,
					d.pipe[0].crtc_id) + 2, 1, &v);
			got = v;
			want = expected_crc(&fb, &cur, pos[i][0], pos[i][1]);
			igt_assert_f(got == want, "cursor at %d,%d: CRC %08x, "
				     "reference %08x\n", pos[i][0], pos[i][1],
				     got, want);
		}
		igt_pipe_crc_free(crc);
		vfq_dev_reset(&d);
		vfq_fb_destroy(&fb);
		vfq_fb_destroy(&cur);
		vfq_dev_fini(&d);
		vfq_cfs_cleanup();
	}

	igt_fixture {
		vfq_display_off(&display);
		igt_display_fini(&display);
		vfq_fb_destroy(&fb_a);
		vfq_fb_destroy(&fb_b);
		vfq_fb_destroy(&fb_c);
		vfq_dev_fini(&dev);
	}
}
