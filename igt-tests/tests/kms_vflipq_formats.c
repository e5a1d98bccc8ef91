// SPDX-License-Identifier: MIT
/*
 * Pixel formats and modifiers per plane type: everything the spec lists is
 * accepted, everything else refused.
 */
/**
 * TEST: kms vflipq formats
 * Category: Display
 * Mega feature: General Display Features
 * Sub-category: planes
 * Functionality: pixel formats
 * Driver requirement: vflipq
 * Description: Pixel formats and modifiers per plane type: everything the
 *              driver documentation lists is accepted and scans out,
 *              everything else is refused.
 *
 * SUBTEST: plane-format-lists
 * Description: Format lists of primary, overlay and cursor planes
 *
 * SUBTEST: in-formats-linear
 * Description: IN_FORMATS: every format with the LINEAR modifier only
 *
 * SUBTEST: primary-formats
 * Description: Every primary format scans out on the primary plane
 *
 * SUBTEST: overlay-formats
 * Description: Every primary format and NV12 scan out on each overlay
 *
 * SUBTEST: cursor-formats
 * Description: The four 8888 formats scan out on the cursor plane
 *
 * SUBTEST: nv12-refused-on-primary
 * Description: NV12 is accepted by ADDFB2 but refused on the primary
 *
 * SUBTEST: cursor-refuses-other-formats
 * Description: Formats outside the cursor list are refused on cursors
 *
 * SUBTEST: unlisted-formats-refused
 * Description: Unlisted formats (YUYV, C8, RGB888) are refused
 *
 * SUBTEST: non-linear-modifier-refused
 * Description: Non-linear modifiers are refused; explicit LINEAR works
 */

#include "igt.h"
#include "vflipq_helpers.h"

IGT_TEST_DESCRIPTION("vflipq plane formats and modifiers");

static const uint32_t primary_formats[] = {
	DRM_FORMAT_XRGB8888, DRM_FORMAT_ARGB8888, DRM_FORMAT_XBGR8888,
	DRM_FORMAT_ABGR8888, DRM_FORMAT_XRGB2101010, DRM_FORMAT_ARGB2101010,
	DRM_FORMAT_XBGR2101010, DRM_FORMAT_ABGR2101010,
	DRM_FORMAT_XBGR16161616F, DRM_FORMAT_ABGR16161616F,
	DRM_FORMAT_XRGB16161616F, DRM_FORMAT_ARGB16161616F, DRM_FORMAT_RGB565,
};
static const uint32_t cursor_formats[] = {
	DRM_FORMAT_ARGB8888, DRM_FORMAT_XRGB8888, DRM_FORMAT_ABGR8888,
	DRM_FORMAT_XBGR8888,
};

#define W 640
#define H 480
#define SMALL 64

static struct vfq_dev dev;
static igt_display_t display;
static struct vfq_fb primary_fb;
static drmModeModeInfo mode;

static bool in_list(uint32_t f, const uint32_t *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == f)
			return true;
	return false;
}

/*
 * The format lists are read from the kernel, not from igt_plane_t: IGT
 * fills a plane's formats from IN_FORMATS itself, so checking one against
 * the other through IGT would be circular.
 */

/* The plane's format list equals @list (+ NV12 when @nv12). */
static void check_format_list(uint32_t plane, const uint32_t *list, size_t n,
			      bool nv12)
{
	drmModePlane *pl = drmModeGetPlane(dev.fd, plane);

	igt_assert(pl);
	for (uint32_t i = 0; i < pl->count_formats; i++)
		igt_assert_f(in_list(pl->formats[i], list, n) ||
			     (nv12 && pl->formats[i] == DRM_FORMAT_NV12),
			     "plane %u lists unexpected format %#x (%.4s)\n",
			     plane, pl->formats[i],
			     (const char *)&pl->formats[i]);
	for (size_t i = 0; i < n; i++) {
		bool found = false;

		for (uint32_t j = 0; j < pl->count_formats; j++)
			found |= pl->formats[j] == list[i];
		igt_assert_f(found, "plane %u lacks %s\n", plane,
			     vfq_format_name(list[i]));
	}
	igt_assert_eq(pl->count_formats, (uint32_t)n + nv12);
	drmModeFreePlane(pl);
}

/* IN_FORMATS lists exactly the plane's formats, each with LINEAR only. */
static void check_in_formats(uint32_t plane)
{
	drmModePlane *pl = drmModeGetPlane(dev.fd, plane);
	uint64_t blob_id = vfq_prop_get(dev.fd, plane, DRM_MODE_OBJECT_PLANE,
					"IN_FORMATS");
	drmModePropertyBlobRes *blob = drmModeGetPropertyBlob(dev.fd, blob_id);
	const struct drm_format_modifier_blob *h;
	const struct drm_format_modifier *mods;
	const uint32_t *fmts;
	uint64_t linear_mask = 0;

	igt_assert(pl && blob);
	h = blob->data;
	igt_assert_eq_u32(h->version, FORMAT_BLOB_CURRENT);
	fmts = (const uint32_t *)((const char *)h + h->formats_offset);
	mods = (const void *)((const char *)h + h->modifiers_offset);
	igt_assert_eq_u32(h->count_formats, pl->count_formats);
	igt_assert_lte(h->count_formats, 64);
	for (uint32_t i = 0; i < h->count_formats; i++)
		igt_assert(in_list(fmts[i], pl->formats, pl->count_formats));
	for (uint32_t m = 0; m < h->count_modifiers; m++) {
		igt_assert_f(mods[m].modifier == DRM_FORMAT_MOD_LINEAR,
			     "plane %u advertises modifier %#llx\n", plane,
			     (unsigned long long)mods[m].modifier);
		igt_assert_eq_u32(mods[m].offset, 0);
		linear_mask |= mods[m].formats;
	}
	igt_assert_eq_u64(linear_mask, h->count_formats == 64 ? ~0ull :
			  (1ull << h->count_formats) - 1);
	drmModeFreePropertyBlob(blob);
	drmModeFreePlane(pl);
}

/* Pending: the whole of @fb (NULL: none) on @plane of pipe 0 at (x, y). */
static void plane_fb(uint32_t plane_id, struct vfq_fb *fb, int x, int y)
{
	igt_plane_t *plane = vfq_display_plane(&display, 0, plane_id);

	vfq_display_plane_fb(plane, fb);
	igt_plane_set_position(plane, x, y);
}

/* Pending: @plane as the fixture committed it (primary on primary_fb). */
static void unset_plane(uint32_t plane)
{
	plane_fb(plane, plane == dev.pipe[0].primary ? &primary_fb : NULL,
		 0, 0);
}

/*
 * TEST_ONLY then real commit of @fb on @plane at (x, y); 0 or -errno.
 * Neither allows a modeset.  What was not committed is taken back from
 * igt_display, so the next commit does not carry a refused plane.
 */
static int try_plane(uint32_t plane, struct vfq_fb *fb, int x, int y,
		     bool real)
{
	int ret;

	plane_fb(plane, fb, x, y);
	ret = igt_display_try_commit_atomic(&display,
					    DRM_MODE_ATOMIC_TEST_ONLY, NULL);
	if (!ret && real)
		ret = igt_display_try_commit_atomic(&display, 0, NULL);
	if (ret || !real)
		unset_plane(plane);
	return ret;
}

static void restore_plane(uint32_t plane)
{
	unset_plane(plane);
	igt_display_commit_atomic(&display, 0, NULL);
}

/* Every format of @list is accepted on @plane with a w x h fb. */
static void accept_all(uint32_t plane, const uint32_t *list, size_t n,
		       int w, int h, int x, int y)
{
	for (size_t i = 0; i < n; i++) {
		struct vfq_fb fb;
		int ret;

		vfq_fb_create(dev.fd, w, h, list[i], &fb);
		vfq_fb_pattern(&fb, i);
		ret = try_plane(plane, &fb, x, y, true);
		igt_assert_f(ret == 0, "%s refused on plane %u: %s\n",
			     vfq_format_name(list[i]), plane, strerror(-ret));
		restore_plane(plane);
		vfq_fb_destroy(&fb);
	}
}

/*
 * A @format fb is refused: at ADDFB2 (EINVAL) or by the atomic check of
 * @plane (EINVAL).
 */
static void refuse(uint32_t plane, uint32_t format, uint64_t modifier,
		   bool with_modifier, int w, int h)
{
	struct vfq_fb fb;
	int ret = vfq_bo_create(dev.fd, w, h, format, &fb);

	igt_assert_f(ret == 0, "dumb buffer for %s: %s\n",
		     vfq_format_name(format), strerror(-ret));
	ret = vfq_fb_add(&fb, modifier, with_modifier);
	if (ret == 0) {
		ret = try_plane(plane, &fb, 0, 0, false);
		igt_info("%s mod %#llx: ADDFB2 accepted, atomic check: %s\n",
			 vfq_format_name(format),
			 (unsigned long long)modifier, strerror(-ret));
	} else {
		igt_info("%s mod %#llx: ADDFB2 refused: %s\n",
			 vfq_format_name(format),
			 (unsigned long long)modifier, strerror(-ret));
	}
	igt_assert_f(ret == -EINVAL, "%s (modifier %#llx) on plane %u: %s, "
		     "expected EINVAL\n", vfq_format_name(format),
		     (unsigned long long)modifier, plane,
		     ret ? strerror(-ret) : "accepted");
	vfq_fb_destroy(&fb);
}

igt_main
{
	igt_fixture {
		vfq_dev_init(&dev, vfq_open_default());
		/* raw: also zpos, which igt_display_reset() leaves */
		vfq_dev_reset(&dev);
		vfq_display_init(&display, &dev);
		vfq_get_mode(dev.fd, dev.pipe[0].conn_id, W, H, 60, &mode);
		vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &primary_fb);
		vfq_display_pipe(&display, &dev, 0, &mode, &primary_fb);
		igt_display_commit2(&display, COMMIT_ATOMIC);
	}

	igt_describe("Format lists of primary, overlay and cursor planes");
	igt_subtest("plane-format-lists") {
		for (int i = 0; i < dev.n_pipes; i++) {
			struct vfq_pipe *p = &dev.pipe[i];

			check_format_list(p->primary, primary_formats,
					  VFQ_ARRAY_SIZE(primary_formats),
					  false);
			for (int k = 0; k < p->n_overlays; k++)
				check_format_list(p->overlays[k],
						  primary_formats,
						  VFQ_ARRAY_SIZE(primary_formats),
						  true);
			if (p->cursor)
				check_format_list(p->cursor, cursor_formats,
						  VFQ_ARRAY_SIZE(cursor_formats),
						  false);
		}
	}

	igt_describe("IN_FORMATS: every format with the LINEAR modifier only");
	igt_subtest("in-formats-linear") {
		for (int i = 0; i < dev.n_pipes; i++) {
			struct vfq_pipe *p = &dev.pipe[i];

			check_in_formats(p->primary);
			for (int k = 0; k < p->n_overlays; k++)
				check_in_formats(p->overlays[k]);
			if (p->cursor)
				check_in_formats(p->cursor);
		}
	}

	igt_describe("Every primary format scans out on the primary plane");
	igt_subtest("primary-formats")
		accept_all(dev.pipe[0].primary, primary_formats,
			   VFQ_ARRAY_SIZE(primary_formats), W, H, 0, 0);

	igt_describe("Every primary format and NV12 scan out on each overlay");
	igt_subtest("overlay-formats") {
		igt_require(dev.pipe[0].n_overlays > 0);
		for (int k = 0; k < dev.pipe[0].n_overlays; k++) {
			uint32_t ov = dev.pipe[0].overlays[k];

			accept_all(ov, primary_formats,
				   VFQ_ARRAY_SIZE(primary_formats),
				   SMALL, SMALL, 32, 48);
			accept_all(ov, (const uint32_t[]){ DRM_FORMAT_NV12 },
				   1, SMALL, SMALL, 32, 48);
		}
	}

	igt_describe("The four 8888 formats scan out on the cursor plane");
	igt_subtest("cursor-formats") {
		igt_require(dev.pipe[0].cursor);
		accept_all(dev.pipe[0].cursor, cursor_formats,
			   VFQ_ARRAY_SIZE(cursor_formats), SMALL, SMALL,
			   100, 100);
	}

	igt_describe("NV12 is accepted by ADDFB2 but refused on the primary");
	igt_subtest("nv12-refused-on-primary") {
		struct vfq_fb fb;

		/* ADDFB2 must work: the overlays support NV12 */
		vfq_fb_create(dev.fd, W, H, DRM_FORMAT_NV12, &fb);
		igt_assert_eq(try_plane(dev.pipe[0].primary, &fb, 0, 0, false),
			      -EINVAL);
		vfq_fb_destroy(&fb);
	}

	igt_describe("Formats outside the cursor list are refused on cursors");
	igt_subtest("cursor-refuses-other-formats") {
		static const uint32_t bad[] = {
			DRM_FORMAT_NV12, DRM_FORMAT_XRGB2101010,
			DRM_FORMAT_ARGB16161616F, DRM_FORMAT_RGB565,
		};

		igt_require(dev.pipe[0].cursor);
		for (size_t i = 0; i < VFQ_ARRAY_SIZE(bad); i++) {
			struct vfq_fb fb;

			vfq_fb_create(dev.fd, SMALL, SMALL, bad[i], &fb);
			igt_assert_f(try_plane(dev.pipe[0].cursor, &fb, 0, 0,
					       false) == -EINVAL,
				     "%s accepted on the cursor\n",
				     vfq_format_name(bad[i]));
			vfq_fb_destroy(&fb);
		}
	}

	igt_describe("Unlisted formats (YUYV, C8, RGB888) are refused");
	igt_subtest("unlisted-formats-refused") {
		static const uint32_t bad[] = {
			DRM_FORMAT_YUYV, DRM_FORMAT_C8, DRM_FORMAT_RGB888,
		};

		for (size_t i = 0; i < VFQ_ARRAY_SIZE(bad); i++) {
			refuse(dev.pipe[0].primary, bad[i],
			       DRM_FORMAT_MOD_LINEAR, false, W, H);
			if (dev.pipe[0].n_overlays)
				refuse(dev.pipe[0].overlays[0], bad[i],
				       DRM_FORMAT_MOD_LINEAR, false,
				       SMALL, SMALL);
		}
	}

	igt_describe("Non-linear modifiers are refused; explicit LINEAR works");
	igt_subtest("non-linear-modifier-refused") {
		static const uint64_t bad[] = {
			I915_FORMAT_MOD_X_TILED,
			DRM_FORMAT_MOD_BROADCOM_VC4_T_TILED,
			DRM_FORMAT_MOD_ARM_AFBC(AFBC_FORMAT_MOD_BLOCK_SIZE_16x16),
		};
		struct vfq_fb fb;

		for (size_t i = 0; i < VFQ_ARRAY_SIZE(bad); i++)
			refuse(dev.pipe[0].primary, DRM_FORMAT_XRGB8888,
			       bad[i], true, W, H);

		igt_assert_eq(vfq_bo_create(dev.fd, W, H, DRM_FORMAT_XRGB8888,
					    &fb), 0);
		igt_assert_eq(vfq_fb_add(&fb, DRM_FORMAT_MOD_LINEAR, true), 0);
		igt_assert_eq(try_plane(dev.pipe[0].primary, &fb, 0, 0, true),
			      0);
		restore_plane(dev.pipe[0].primary);
		vfq_fb_destroy(&fb);
	}

	igt_fixture {
		vfq_display_off(&display);
		igt_display_fini(&display);
		vfq_fb_destroy(&primary_fb);
		vfq_dev_fini(&dev);
	}
}
