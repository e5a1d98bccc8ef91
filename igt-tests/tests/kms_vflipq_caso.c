// SPDX-License-Identifier: MIT
/*
 * Cross-adapter scan-out with a render adapter and display adapters of each
 * tier in one VM: the superset rule, what each tier accepts and refuses,
 * one-copy scan-out pixel for pixel, the two-copy path through the copy
 * engine, the buffer rules, implicit fences, the NO_SCANOUT query, the
 * static check and the bandwidth budget.
 */
/**
 * TEST: kms vflipq caso
 * Category: Display
 * Mega feature: General Display Features
 * Sub-category: MultiGPU
 * Functionality: cross-adapter scan-out
 * Driver requirement: vflipq
 * Description: Cross-adapter scan-out between a render-only adapter and
 *              display adapters of each tier: the superset rule, what each
 *              tier accepts and refuses, one-copy scan-out pixel for pixel,
 *              two-copy through the copy engine, buffer rules, implicit
 *              fences, the NO_SCANOUT query, the static check and the
 *              bandwidth budget.
 *
 * SUBTEST: tier-superset
 * Description: Tiers must be supersets; hybrid integrated needs tier 3
 *
 * SUBTEST: render-only
 * Description: A render-only adapter: no CRTC, 128-byte pitches, PRIME
 *
 * SUBTEST: one-copy-formats
 * Description: Tier 3 scans 1080p cross-adapter buffers out exactly
 *
 * SUBTEST: bad-buffers
 * Description: Pitch, offset and size rules of cross-adapter buffers
 *
 * SUBTEST: scanout-query
 * Description: The NO_SCANOUT query follows the DXGI rules
 *
 * SUBTEST: static-check
 * Description: A TEST_ONLY static check leaves no trace
 *
 * SUBTEST: implicit-fence
 * Description: A queued flip waits for the exporter's implicit fence
 *
 * SUBTEST: implicit-fence-atomic
 * Description: An atomic flip waits for the exporter's implicit fence
 *
 * SUBTEST: copy-waits-fence
 * Description: The copy engine waits for the source's implicit fence
 *
 * SUBTEST: udmabuf-source
 * Description: udmabuf buffers are scanned out like any exporter's
 *
 * SUBTEST: bandwidth-budget
 * Description: The display bandwidth budget, rotation costing double
 */

/**
 * SUBTEST: tier%d
 * Description: A cross-adapter buffer on a display adapter of tier %arg[1]
 *
 * arg[1]:
 *
 * @0:	0: refused for scan-out (also TEST_ONLY) and by the copy engine
 * 	(EOPNOTSUPP)
 * @1:	1: refused for scan-out; the copy engine copies it into a local
 * 	XRGB8888 buffer that scans out exactly, counted in the counters and
 * 	debugfs, but refuses to convert it (EOPNOTSUPP)
 * @2:	2: refused for scan-out; the copy engine copies it, converts it to
 * 	ABGR16161616F and XRGB2101010 and stretches it, and the copy scans
 * 	out exactly
 * @3:	3: scanned out directly (one copy, counted as an imported scan-out)
 * 	and exactly, and copied, converted and stretched by the copy engine
 * 	as on tier 2
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <linux/udmabuf.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vflipq_helpers.h"

#define W 640
#define H 480

struct adapter {
	char name[32];
	int card;
	struct vfq_dev dev;
	igt_display_t display;	/* on dev.fd */
};

static int render_fd = -1;
static struct adapter disp[4];	/* tier 0..3 */

static void make_render(void)
{
	static const char *const attrs[] = { "crtcs", "0", NULL };
	int card = vfq_cfs_create("igt-render", attrs);

	render_fd = vfq_open_card(card);
	igt_assert(render_fd >= 0);
}

static const char *const tier_bits[4][7] = {
	{ "caso_copy", "0", "caso_texture", "0", "caso_scanout", "0", NULL },
	{ "caso_copy", "1", "caso_texture", "0", "caso_scanout", "0", NULL },
	{ "caso_copy", "1", "caso_texture", "1", "caso_scanout", "0", NULL },
	{ "caso_copy", "1", "caso_texture", "1", "caso_scanout", "1", NULL },
};

static struct adapter *display(int tier)
{
	struct adapter *a = &disp[tier];
	const char *attrs[16];
	int n = 0, k;

	if (a->card > 0)
		return a;
	snprintf(a->name, sizeof(a->name), "igt-disp%d", tier);
	for (k = 0; tier_bits[tier][k]; k++)
		attrs[n++] = tier_bits[tier][k];
	attrs[n++] = "modes";
	attrs[n++] = "640x480@60 1920x1080@60";
	attrs[n++] = "preferred_mode";
	attrs[n++] = "640x480@60";
	attrs[n] = NULL;
	a->card = vfq_cfs_create(a->name, attrs);
	vfq_dev_init(&a->dev, vfq_open_card(a->card));
	/* its first commit is a subtest's vfq_display_off() */
	vfq_display_init(&a->display, &a->dev);
	return a;
}

/* A buffer rendered on the render adapter: pattern @seed in @format. */
static void render_buffer(int w, int h, uint32_t format, uint32_t seed,
			  struct vfq_fb *bo)
{
	igt_assert_eq(vfq_bo_create(render_fd, w, h, format, bo), 0);
	igt_assert_eq(bo->pitch % VFLIPQ_CASO_PITCH_ALIGN, 0);
	vfq_fb_pattern(bo, seed);
}

/* Import @bo into @fd and ADDFB2 it; 0 or -errno, fb id in *fb_id. */
static int import_fb(int fd, const struct vfq_fb *bo, uint32_t pitch,
		     uint32_t offset, uint32_t *fb_id)
{
	uint32_t handles[4] = { 0 }, pitches[4] = { pitch },
		 offsets[4] = { offset };
	int dmabuf, ret;

	igt_assert_eq(drmPrimeHandleToFD(bo->fd, bo->handle, DRM_CLOEXEC,
					 &dmabuf), 0);
	igt_assert_eq(drmPrimeFDToHandle(fd, dmabuf, &handles[0]), 0);
	close(dmabuf);
	ret = drmModeAddFB2(fd, bo->width, bo->height, bo->format, handles,
			    pitches, offsets, fb_id, 0) ? -errno : 0;
	/* The framebuffer keeps the object; the handle can go. */
	drmCloseBufferHandle(fd, handles[0]);
	return ret;
}

/*
 * Pipe 0 of @a lit with its @w x @h mode, @fb (@w x @h) the whole of its
 * primary: 0 or -errno of the commit, which allows a modeset.  Most fbs
 * here are other devices' buffers, ADDFB2'd without an igt_fb: the
 * primary's properties by vfq_display_plane_fb_id().  A refused request
 * stays pending in igt_display: the next commit, another
 * put_on_primary() or vfq_display_off(), sets all of it anew.
 */
static int put_on_primary(struct adapter *a, uint32_t fb, int w, int h,
			  uint32_t flags)
{
	igt_plane_t *primary = vfq_display_plane(&a->display, 0,
						 a->dev.pipe[0].primary);
	drmModeModeInfo mode;

	vfq_get_mode(a->dev.fd, a->dev.pipe[0].conn_id, w, h, 60, &mode);
	vfq_display_pipe(&a->display, &a->dev, 0, &mode, NULL);
	vfq_display_plane_fb_id(primary, fb, w, h);
	igt_plane_set_position(primary, 0, 0);
	return igt_display_try_commit_atomic(&a->display,
					     flags |
					     DRM_MODE_ATOMIC_ALLOW_MODESET,
					     NULL);
}

/*
 * The same request by hand, nonblocking with a page-flip event: the
 * commit of implicit-fence-atomic, whose event the test waits for itself
 * (none while the exporter's fence is unsignalled).
 */
static int put_on_primary_raw(struct adapter *a, uint32_t fb, int w, int h,
			      uint32_t flags)
{
	drmModeAtomicReq *req = vfq_req_new();
	drmModeModeInfo mode;
	uint32_t blob;
	int ret;

	vfq_get_mode(a->dev.fd, a->dev.pipe[0].conn_id, w, h, 60, &mode);
	blob = vfq_mode_blob(a->dev.fd, &mode);
	vfq_req_set(req, a->dev.fd, a->dev.pipe[0].conn_id,
		    DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", a->dev.pipe[0].crtc_id);
	vfq_req_set(req, a->dev.fd, a->dev.pipe[0].crtc_id,
		    DRM_MODE_OBJECT_CRTC, "MODE_ID", blob);
	vfq_req_set(req, a->dev.fd, a->dev.pipe[0].crtc_id,
		    DRM_MODE_OBJECT_CRTC, "ACTIVE", 1);
	vfq_req_plane(req, a->dev.fd, a->dev.pipe[0].primary,
		      a->dev.pipe[0].crtc_id, fb, 0, 0, w, h);
	ret = vfq_req_commit(a->dev.fd, req,
			     flags | DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	drmModeDestroyPropertyBlob(a->dev.fd, blob);
	return ret;
}

/* Writeback of pipe 0 must show what @src holds (8-bit, +-@tol). */
static void check_screen(struct adapter *a, const struct vfq_fb *src,
			 int tol)
{
	int w = src->width, h = src->height;
	struct vfq_fb wb;
	int x, y, bad = 0;

	vfq_fb_create(a->dev.fd, w, h, DRM_FORMAT_XRGB8888, &wb);
	vfq_wb_capture_ok(&a->dev, 0, &wb);
	for (y = 0; y < h; y += 3)
		for (x = 0; x < w; x += 3) {
			struct vfq_color e = vfq_fb_get(src, x, y);
			struct vfq_color g = vfq_fb_get(&wb, x, y);

			if (abs(vfq_chan(e.r, 8) - vfq_chan(g.r, 8)) > tol ||
			    abs(vfq_chan(e.g, 8) - vfq_chan(g.g, 8)) > tol ||
			    abs(vfq_chan(e.b, 8) - vfq_chan(g.b, 8)) > tol) {
				if (bad++ < 5)
					igt_info("(%d,%d) %02x%02x%02x != %02x%02x%02x\n",
						 x, y, vfq_chan(g.r, 8),
						 vfq_chan(g.g, 8),
						 vfq_chan(g.b, 8),
						 vfq_chan(e.r, 8),
						 vfq_chan(e.g, 8),
						 vfq_chan(e.b, 8));
			}
		}
	vfq_fb_destroy(&wb);
	igt_assert_eq(bad, 0);
}

static struct drm_vflipq_get_counters counters(struct adapter *a)
{
	struct drm_vflipq_get_counters c = { };

	do_ioctl(a->dev.fd, DRM_IOCTL_VFLIPQ_GET_COUNTERS, &c);
	return c;
}

static int copy(int fd, uint32_t src, uint32_t dst, int sw, int sh, int dw,
		int dh, int *fence)
{
	struct drm_vflipq_copy c = {
		.src_fb = src, .dst_fb = dst,
		.src_rect = { 0, 0, sw, sh }, .dst_rect = { 0, 0, dw, dh },
	};
	int ret = ioctl(fd, DRM_IOCTL_VFLIPQ_COPY, &c) ? -errno : 0;

	*fence = ret ? -1 : c.out_fence_fd;
	return ret;
}

static void wait_fence(int fd)
{
	vfq_wait_fence(fd, 10000);
	close(fd);
}

static void test_superset(void)
{
	static const char *const bad[][9] = {
		{ "caso_copy", "0", "caso_texture", "1", "caso_scanout", "0", NULL },
		{ "caso_copy", "1", "caso_texture", "0", "caso_scanout", "1", NULL },
		{ "caso_copy", "1", "caso_texture", "1", "caso_scanout", "0",
		  "hybrid_integrated", "1", NULL },
	};
	struct vfq_kmsg k;
	char buf[8192];
	unsigned int i;

	for (i = 0; i < VFQ_ARRAY_SIZE(bad); i++) {
		int fd, n, j;

		igt_assert_eq(vfq_cfs_mkdir("igt-bad"), 0);
		for (j = 0; bad[i][j]; j += 2)
			igt_assert(vfq_cfs_write("igt-bad", bad[i][j],
						 bad[i][j + 1]) > 0);
		fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
		lseek(fd, 0, SEEK_END);
		igt_assert_eq(vfq_cfs_write("igt-bad", "enabled", "1"), -EINVAL);
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		igt_assert(n > 0);
		buf[n] = 0;
		igt_assert_f(strstr(buf, "not created"), "%s", buf);
		igt_assert_eq(vfq_cfs_read_int("igt-bad", "card"), -1);
		igt_assert_eq(vfq_cfs_rmdir("igt-bad"), 0);
	}
	(void)k;
	/* Every proper tier is created and reported. */
	for (i = 0; i < 4; i++) {
		struct adapter *a = display(i);

		igt_assert_eq(a->dev.caps.caso_tier, i);
		igt_assert_eq(!!(a->dev.caps.caps & VFLIPQ_CAP_CASO_COPY), i >= 1);
		igt_assert_eq(!!(a->dev.caps.caps & VFLIPQ_CAP_CASO_TEXTURE),
			      i >= 2);
		igt_assert_eq(!!(a->dev.caps.caps & VFLIPQ_CAP_CASO_SCANOUT),
			      i >= 3);
	}
}

static void test_render_only(void)
{
	struct drm_vflipq_get_caps caps;
	drmModeRes *res;
	struct vfq_fb bo;
	int dmabuf;

	igt_assert_eq(vfq_get_caps(render_fd, &caps), 0);
	igt_assert(caps.caps & VFLIPQ_CAP_RENDER_ONLY);
	igt_assert(!(caps.caps & VFLIPQ_CAP_DISPLAY));
	igt_assert_eq(caps.num_crtcs, 0);
	res = drmModeGetResources(render_fd);
	igt_assert(!res || res->count_crtcs == 0);
	drmModeFreeResources(res);
	render_buffer(100, 30, DRM_FORMAT_XRGB8888, 1, &bo);
	igt_assert_eq(bo.pitch, 512);	/* 400 bytes, rounded to 128 */
	igt_assert_eq(drmPrimeHandleToFD(render_fd, bo.handle, DRM_CLOEXEC,
					 &dmabuf), 0);
	close(dmabuf);
	vfq_fb_destroy(&bo);
}

/* What each tier does with a cross-adapter buffer. */
static void test_tier(int tier)
{
	struct adapter *a = display(tier);
	struct drm_vflipq_get_counters c0, c1;
	struct vfq_fb bo, local, local16, local10;
	uint32_t xfb;
	int fence;

	vfq_display_off(&a->display);
	render_buffer(W, H, DRM_FORMAT_XRGB8888, 11, &bo);
	igt_assert_eq(import_fb(a->dev.fd, &bo, bo.pitch, 0, &xfb), 0);
	vfq_fb_create(a->dev.fd, W, H, DRM_FORMAT_XRGB8888, &local);
	vfq_fb_create(a->dev.fd, W, H, DRM_FORMAT_ABGR16161616F, &local16);
	vfq_fb_create(a->dev.fd, W, H, DRM_FORMAT_XRGB2101010, &local10);
	c0 = counters(a);

	/* One copy: scan the cross-adapter buffer out, tier 3 only. */
	if (tier == 3) {
		igt_assert_eq(put_on_primary(a, xfb, W, H, 0), 0);
		check_screen(a, &bo, 0);
		igt_assert_eq_u64(counters(a).imported_scanouts -
				  c0.imported_scanouts, 1);
	} else {
		igt_assert_eq(put_on_primary(a, xfb, W, H,
					     DRM_MODE_ATOMIC_TEST_ONLY),
			      -EINVAL);
		igt_assert_eq(put_on_primary(a, xfb, W, H, 0), -EINVAL);
	}

	/* Two copies: the copy engine brings it into a local buffer. */
	if (tier == 0) {
		igt_assert_eq(copy(a->dev.fd, xfb, local.fb_id, W, H, W, H,
				   &fence), -EOPNOTSUPP);
	} else {
		igt_assert_eq(copy(a->dev.fd, xfb, local.fb_id, W, H, W, H,
				   &fence), 0);
		wait_fence(fence);
		igt_assert_eq(put_on_primary(a, local.fb_id, W, H, 0), 0);
		check_screen(a, &bo, 0);
		c1 = counters(a);
		igt_assert_eq_u64(c1.copies - c0.copies, 1);
		igt_assert_eq_u64(c1.bytes_copied - c0.bytes_copied,
				  (uint64_t)W * H * 4);
		/* debugfs tells the same. */
		{
			char path[128], txt[256], want[64];

			snprintf(path, sizeof(path),
				 "/sys/kernel/debug/dri/%d/vflipq_caso", a->card);
			igt_assert(vfq_file_read(path, txt, sizeof(txt)) > 0);
			snprintf(want, sizeof(want), "bytes_copied=%" PRIu64,
				 (uint64_t)c1.bytes_copied);
			igt_assert_f(strstr(txt, want), "%s\n", txt);
		}
	}

	/* Conversion and stretch are texture reads: tier 2 and up. */
	if (tier >= 1) {
		int ret = copy(a->dev.fd, xfb, local16.fb_id, W, H, W, H,
			       &fence);

		if (tier == 1) {
			igt_assert_eq(ret, -EOPNOTSUPP);
		} else {
			struct vfq_color e = vfq_pattern8(7, 9, 11);
			struct vfq_color g;

			igt_assert_eq(ret, 0);
			wait_fence(fence);
			g = vfq_fb_get(&local16, 7, 9);
			igt_assert_lte(abs(vfq_chan(g.r, 8) - vfq_chan(e.r, 8)), 0);
			igt_assert_lte(abs(vfq_chan(g.b, 8) - vfq_chan(e.b, 8)), 0);
			/* 8 -> 10 bit: v * 1023 / 255, rounded. */
			igt_assert_eq(copy(a->dev.fd, xfb, local10.fb_id, W, H,
					   W, H, &fence), 0);
			wait_fence(fence);
			g = vfq_fb_get(&local10, 7, 9);
			igt_assert_eq(vfq_chan(g.g, 10),
				      (vfq_chan(e.g, 8) * 1023 + 127) / 255);
			/* Stretch the left half over the whole buffer. */
			igt_assert_eq(copy(a->dev.fd, xfb, local.fb_id, W / 2, H,
					   W, H, &fence), 0);
			wait_fence(fence);
			g = vfq_fb_get(&local, 2 * 101, 33);
			e = vfq_pattern8(101, 33, 11);
			igt_assert_eq(vfq_chan(g.g, 8), vfq_chan(e.g, 8));
		}
	}
	vfq_display_off(&a->display);
	igt_assert_eq(drmModeRmFB(a->dev.fd, xfb), 0);
	vfq_fb_destroy(&local10);
	vfq_fb_destroy(&local16);
	vfq_fb_destroy(&local);
	vfq_fb_destroy(&bo);
}

/* What test_tier() checks, per tier (the subtests' descriptions). */
static const char *const tier_rules[] = {
	"refused for scan-out (also TEST_ONLY) and by the copy engine "
	"(EOPNOTSUPP)",
	"refused for scan-out; the copy engine copies it into a local "
	"XRGB8888 buffer that scans out exactly, counted in the counters and "
	"debugfs, but refuses to convert it (EOPNOTSUPP)",
	"refused for scan-out; the copy engine copies it, converts it to "
	"ABGR16161616F and XRGB2101010 and stretches it, and the copy scans "
	"out exactly",
	"scanned out directly (one copy, counted as an imported scan-out) "
	"and exactly, and copied, converted and stretched by the copy engine "
	"as on tier 2",
};

/* Tier 3, 1920x1080, the DXGI scan-out formats, pixel for pixel. */
static void test_one_copy_formats(void)
{
	static const uint32_t formats[] = {
		DRM_FORMAT_ABGR16161616F, DRM_FORMAT_ABGR2101010,
		DRM_FORMAT_ABGR8888, DRM_FORMAT_ARGB8888,
	};
	struct adapter *a = display(3);
	unsigned int i;

	for (i = 0; i < VFQ_ARRAY_SIZE(formats); i++) {
		struct vfq_fb bo;
		uint32_t xfb;

		igt_info("format %s\n", vfq_format_name(formats[i]));
		vfq_display_off(&a->display);
		render_buffer(1920, 1080, formats[i], 20 + i, &bo);
		/* Opaque: the patterns are opaque, alpha must not matter. */
		igt_assert_eq(import_fb(a->dev.fd, &bo, bo.pitch, 0, &xfb), 0);
		igt_assert_eq(put_on_primary(a, xfb, 1920, 1080, 0), 0);
		check_screen(a, &bo,
			     formats[i] == DRM_FORMAT_ABGR8888 ||
			     formats[i] == DRM_FORMAT_ARGB8888 ? 0 : 1);
		vfq_display_off(&a->display);
		igt_assert_eq(drmModeRmFB(a->dev.fd, xfb), 0);
		vfq_fb_destroy(&bo);
	}
}

static void test_bad_buffers(void)
{
	struct adapter *a = display(3);
	int vgem = vfq_open_driver("vgem");
	struct vfq_fb bo, odd;
	uint32_t fb;

	render_buffer(W, H, DRM_FORMAT_XRGB8888, 3, &bo);
	/* Pitch not a multiple of 128. */
	igt_assert_eq(import_fb(a->dev.fd, &bo, bo.pitch - 4, 0, &fb), -EINVAL);
	/* Start not page-aligned. */
	igt_assert_eq(import_fb(a->dev.fd, &bo, bo.pitch, 128, &fb), -EINVAL);
	/* Larger than the buffer. */
	bo.height += 8;
	igt_assert_eq(import_fb(a->dev.fd, &bo, bo.pitch, 0, &fb), -EINVAL);
	bo.height -= 8;
	/* A vgem buffer of 100 pixels has a 400-byte pitch: refused. */
	igt_require(vgem >= 0);
	igt_assert_eq(vfq_bo_create(vgem, 100, 64, DRM_FORMAT_XRGB8888, &odd),
		      0);
	igt_assert_eq(import_fb(a->dev.fd, &odd, odd.pitch, 0, &fb), -EINVAL);
	vfq_fb_destroy(&odd);
	close(vgem);
	vfq_fb_destroy(&bo);
}

/*
 * One scan-out query; returns its reasons and leaves the answer in @q.  A
 * function, not a statement expression inside igt_assert_eq(), so that
 * do_ioctl()'s own assertion does not nest in the caller's.
 */
static uint32_t query(int fd, struct drm_vflipq_scanout_query *q,
		      uint32_t w, uint32_t h, uint32_t format, uint32_t flags,
		      uint32_t samples)
{
	memset(q, 0, sizeof(*q));
	q->width = w;
	q->height = h;
	q->format = format;
	q->flags = flags;
	q->samples = samples;
	q->modifier = DRM_FORMAT_MOD_LINEAR;
	do_ioctl(fd, DRM_IOCTL_VFLIPQ_SCANOUT_QUERY, q);
	return q->reasons;
}

static void test_query(void)
{
	struct drm_vflipq_scanout_query q;
	struct drm_vflipq_get_caps caps;
	struct adapter *a3 = display(3), *a2 = display(2);

	igt_assert_eq(query(a3->dev.fd, &q, 1920, 1080, DRM_FORMAT_ABGR8888,
			    VFLIPQ_SCANOUT_CROSS_ADAPTER |
			    VFLIPQ_SCANOUT_PRIMARY, 1), 0);
	igt_assert_eq(q.result, VFLIPQ_SCANOUT_OK);
	igt_assert_eq(query(a3->dev.fd, &q, 2560, 1440, DRM_FORMAT_ABGR8888,
			    VFLIPQ_SCANOUT_CROSS_ADAPTER, 1),
		      VFLIPQ_NO_SCANOUT_BEYOND_MIN);
	igt_assert_eq(q.result, VFLIPQ_SCANOUT_NO_SCANOUT);
	igt_assert_eq(query(a3->dev.fd, &q, 640, 480, DRM_FORMAT_RGB565,
			    VFLIPQ_SCANOUT_CROSS_ADAPTER, 1),
		      VFLIPQ_NO_SCANOUT_BEYOND_MIN);
	/* Local buffers may be larger. */
	igt_assert_eq(query(a3->dev.fd, &q, 2560, 1440,
			    DRM_FORMAT_ABGR8888, 0, 1), 0);
	igt_assert_eq(query(a3->dev.fd, &q, 640, 480,
			    DRM_FORMAT_ARGB8888, 0, 4),
		      VFLIPQ_NO_SCANOUT_MSAA);
	igt_assert_eq(query(a2->dev.fd, &q, 640, 480, DRM_FORMAT_ARGB8888,
			    VFLIPQ_SCANOUT_CROSS_ADAPTER, 1),
		      VFLIPQ_NO_SCANOUT_TIER);
	igt_assert_eq(query(render_fd, &q, 640, 480,
			    DRM_FORMAT_ARGB8888, 0, 1),
		      VFLIPQ_NO_SCANOUT_NO_DISPLAY);
	memset(&q, 0, sizeof(q));
	q.width = 64; q.height = 64; q.format = DRM_FORMAT_ARGB8888;
	q.modifier = 1;
	do_ioctl(a3->dev.fd, DRM_IOCTL_VFLIPQ_SCANOUT_QUERY, &q);
	igt_assert_eq(q.reasons, VFLIPQ_NO_SCANOUT_MODIFIER);
	/* Malformed: unknown flag, reserved, zero size, two rotations. */
	memset(&q, 0, sizeof(q));
	q.width = 64; q.height = 64; q.format = DRM_FORMAT_ARGB8888;
	q.flags = 1 << 7;
	do_ioctl_err(a3->dev.fd, DRM_IOCTL_VFLIPQ_SCANOUT_QUERY, &q, EINVAL);
	q.flags = 0;
	q.reserved[1] = 1;
	do_ioctl_err(a3->dev.fd, DRM_IOCTL_VFLIPQ_SCANOUT_QUERY, &q, EINVAL);
	q.reserved[1] = 0;
	q.rotation = DRM_MODE_ROTATE_90 | DRM_MODE_ROTATE_180;
	do_ioctl_err(a3->dev.fd, DRM_IOCTL_VFLIPQ_SCANOUT_QUERY, &q, EINVAL);
	q.rotation = 0;
	q.width = 0;
	do_ioctl_err(a3->dev.fd, DRM_IOCTL_VFLIPQ_SCANOUT_QUERY, &q, EINVAL);
	igt_assert_eq(vfq_get_caps(a3->dev.fd, &caps), 0);
}

/* The static check (TEST_ONLY, one plane) changes nothing. */
static void test_static_check(void)
{
	struct adapter *a = display(3);
	struct drm_vflipq_get_counters c0, c1;
	struct vfq_fb bo, local;
	igt_plane_t *primary;
	drmModePlane *pl;
	uint32_t xfb;

	vfq_display_off(&a->display);
	vfq_fb_create(a->dev.fd, W, H, DRM_FORMAT_XRGB8888, &local);
	igt_assert_eq(put_on_primary(a, local.fb_id, W, H, 0), 0);
	render_buffer(W, H, DRM_FORMAT_ARGB8888, 5, &bo);
	igt_assert_eq(import_fb(a->dev.fd, &bo, bo.pitch, 0, &xfb), 0);
	c0 = counters(a);
	/* the primary alone, no modeset: the check a compositor makes */
	primary = vfq_display_plane(&a->display, 0, a->dev.pipe[0].primary);
	vfq_display_plane_fb_id(primary, xfb, W, H);
	igt_assert_eq(igt_display_try_commit_atomic(&a->display,
						    DRM_MODE_ATOMIC_TEST_ONLY,
						    NULL), 0);
	/* taken back: igt_display keeps what the kernel shows */
	vfq_display_plane_fb_id(primary, local.fb_id, W, H);
	c1 = counters(a);
	pl = drmModeGetPlane(a->dev.fd, a->dev.pipe[0].primary);
	igt_assert_eq(pl->fb_id, local.fb_id);
	drmModeFreePlane(pl);
	igt_assert_eq_u64(c1.imported_scanouts, c0.imported_scanouts);
	/* Nothing cached: the screen still shows the local buffer. */
	check_screen(a, &local, 0);
	vfq_display_off(&a->display);
	igt_assert_eq(drmModeRmFB(a->dev.fd, xfb), 0);
	vfq_fb_destroy(&bo);
	vfq_fb_destroy(&local);
}

/* The screen of the first pipe; restores nothing. */
static void pipe_on_black(struct adapter *a, struct vfq_fb *black)
{
	vfq_display_off(&a->display);
	vfq_fb_create(a->dev.fd, W, H, DRM_FORMAT_XRGB8888, black);
	igt_assert_eq(put_on_primary(a, black->fb_id, W, H, 0), 0);
}

/*
 * A queued flip of a buffer another device is still rendering waits for
 * that device's fence: the old image stays until it signals.
 */
static void test_implicit_fence(void)
{
	struct adapter *a = display(3);
	int vgem = vfq_open_driver("vgem");
	uint32_t fence;
	struct drm_vflipq_set_log sl = { };
	struct drm_vflipq_flipq_submit it = { };
	struct drm_vflipq_update_log ul = { };
	struct drm_vflipq_flip_plane p = { };
	struct drm_vflipq_flip f = { };
	struct drm_vflipq_flipq_submit s = { };
	struct vfq_fb bo, black;
	char buf[256];
	uint64_t signalled;
	uint32_t xfb;

	igt_require(vgem >= 0);
	pipe_on_black(a, &black);
	igt_assert_eq(vfq_bo_create(vgem, W, H, DRM_FORMAT_XRGB8888, &bo), 0);
	vfq_fb_pattern(&bo, 31);
	igt_assert_eq(import_fb(a->dev.fd, &bo, bo.pitch, 0, &xfb), 0);

	sl = (struct drm_vflipq_set_log){ .crtc_id = a->dev.pipe[0].crtc_id,
		.plane_id = a->dev.pipe[0].primary, .num_entries = 8 };
	do_ioctl(a->dev.fd, DRM_IOCTL_VFLIPQ_FLIPQ_SET_LOG, &sl);
	it = (struct drm_vflipq_flipq_submit){ .crtc_id = sl.crtc_id,
		.flags = VFLIPQ_SUBMIT_IRQ_TARGET,
		.flip_size = sizeof(struct drm_vflipq_flip),
		.plane_size = sizeof(struct drm_vflipq_flip_plane),
		.irq_plane_id = sl.plane_id, .irq_target = 1 };
	do_ioctl(a->dev.fd, DRM_IOCTL_VFLIPQ_FLIPQ_SUBMIT, &it);

	fence = vfq_vgem_fence_write(vgem, bo.handle);
	p = (struct drm_vflipq_flip_plane){ .plane_id = sl.plane_id,
		.fb_id = xfb, .present_id = 1 };
	f = (struct drm_vflipq_flip){ .target_ns = vfq_now_ns(),
		.planes_ptr = (uintptr_t)&p, .num_planes = 1 };
	s = (struct drm_vflipq_flipq_submit){ .crtc_id = sl.crtc_id,
		.flips_ptr = (uintptr_t)&f, .num_flips = 1,
		.flip_size = sizeof(f), .plane_size = sizeof(p) };
	igt_assert_eq(ioctl(a->dev.fd, DRM_IOCTL_VFLIPQ_FLIPQ_SUBMIT, &s), 0);
	igt_assert_eq_u32(s.num_queued, 1);

	/* Due for a dozen frames, but still being rendered: not shown. */
	usleep(200000);
	ul = (struct drm_vflipq_update_log){ .crtc_id = sl.crtc_id,
					     .plane_id = sl.plane_id };
	do_ioctl(a->dev.fd, DRM_IOCTL_VFLIPQ_FLIPQ_UPDATE_LOG, &ul);
	igt_assert_eq(ul.first_free, 0);
	igt_assert_eq_u64(ul.present_id_shown, 0);
	check_screen(a, &black, 0);

	signalled = vfq_now_ns();
	vfq_vgem_fence_signal(vgem, fence);
	{
		struct pollfd pfd = { .fd = a->dev.fd, .events = POLLIN };

		igt_assert_eq(poll(&pfd, 1, 2000), 1);
		igt_assert(read(a->dev.fd, buf, sizeof(buf)) > 0);
	}
	ul = (struct drm_vflipq_update_log){ .crtc_id = sl.crtc_id,
					     .plane_id = sl.plane_id };
	do_ioctl(a->dev.fd, DRM_IOCTL_VFLIPQ_FLIPQ_UPDATE_LOG, &ul);
	igt_assert_eq(ul.first_free, 1);
	igt_assert_eq_u64(ul.present_id_shown, 1);
	igt_info("shown %" PRIu64 " us after the fence signalled\n",
		 (vfq_now_ns() - signalled) / 1000);
	check_screen(a, &bo, 0);

	vfq_display_off(&a->display);
	drmCloseBufferHandle(a->dev.fd, sl.handle);
	igt_assert_eq(drmModeRmFB(a->dev.fd, xfb), 0);
	vfq_fb_destroy(&bo);
	vfq_fb_destroy(&black);
	close(vgem);
}

/*
 * The same for a plain atomic page flip: the commit waits for the
 * exporter's fence, so no flip event and the old image's CRC until the
 * fence signals.  (A writeback capture would be a second commit stalling
 * behind this one: the CRC stream is the read-back that does not.)
 */
static void test_implicit_fence_atomic(void)
{
	struct adapter *a = display(3);
	int vgem = vfq_open_driver("vgem");
	uint32_t fence;
	struct vfq_event ev;
	struct vfq_fb bo, black;
	igt_pipe_crc_t *crc;
	uint32_t xfb, frame, v_black, v;
	int i;

	igt_require(vgem >= 0);
	pipe_on_black(a, &black);
	crc = vfq_crc_start(a->dev.fd, 0);
	vfq_crc_collect(crc, 0, 1, &v_black);

	igt_assert_eq(vfq_bo_create(vgem, W, H, DRM_FORMAT_XRGB8888, &bo), 0);
	vfq_fb_pattern(&bo, 47);
	igt_assert_eq(import_fb(a->dev.fd, &bo, bo.pitch, 0, &xfb), 0);
	fence = vfq_vgem_fence_write(vgem, bo.handle);
	vfq_drain_events(a->dev.fd, 0);
	igt_assert_eq(put_on_primary_raw(a, xfb, W, H,
					 DRM_MODE_ATOMIC_NONBLOCK |
					 DRM_MODE_PAGE_FLIP_EVENT), 0);

	/* A dozen frames due, none may show the unfinished buffer. */
	for (i = 0; i < 12; i++) {
		igt_assert_eq(vfq_crc_read(crc, 1000, &frame, &v), 1);
		igt_assert_eq_u32(v, v_black);
	}
	igt_assert_eq(vfq_read_event(a->dev.fd, 0, &ev), 0);

	vfq_vgem_fence_signal(vgem, fence);
	igt_assert_eq(vfq_read_event(a->dev.fd, 2000, &ev), 1);
	igt_pipe_crc_free(crc);
	check_screen(a, &bo, 0);

	vfq_display_off(&a->display);
	igt_assert_eq(drmModeRmFB(a->dev.fd, xfb), 0);
	vfq_fb_destroy(&bo);
	vfq_fb_destroy(&black);
	close(vgem);
}

/* The copy engine starts only when the source's producer is done. */
static void test_copy_waits(void)
{
	struct adapter *a = display(1);
	int vgem = vfq_open_driver("vgem");
	uint32_t fence;
	struct pollfd pfd = { .events = POLLIN };
	struct vfq_fb bo, local;
	uint32_t xfb;

	igt_require(vgem >= 0);
	igt_assert_eq(vfq_bo_create(vgem, W, H, DRM_FORMAT_XRGB8888, &bo), 0);
	vfq_fb_pattern(&bo, 51);
	igt_assert_eq(import_fb(a->dev.fd, &bo, bo.pitch, 0, &xfb), 0);
	vfq_fb_create(a->dev.fd, W, H, DRM_FORMAT_XRGB8888, &local);

	fence = vfq_vgem_fence_write(vgem, bo.handle);
	igt_assert_eq(copy(a->dev.fd, xfb, local.fb_id, W, H, W, H, &pfd.fd),
		      0);
	/* Not before the render adapter signals. */
	igt_assert_eq(poll(&pfd, 1, 300), 0);
	vfq_vgem_fence_signal(vgem, fence);
	wait_fence(pfd.fd);
	{
		struct vfq_color e = vfq_fb_get(&bo, 13, 17);
		struct vfq_color g = vfq_fb_get(&local, 13, 17);

		igt_assert_eq(g.r, e.r);
		igt_assert_eq(g.g, e.g);
		igt_assert_eq(g.b, e.b);
	}
	igt_assert_eq(drmModeRmFB(a->dev.fd, xfb), 0);
	vfq_fb_destroy(&local);
	vfq_fb_destroy(&bo);
	close(vgem);
}

/* udmabuf (memfd pages) works as a render source like any exporter. */
static void test_udmabuf(void)
{
	struct adapter *a = display(3);
	struct udmabuf_create c = { };
	struct vfq_fb ref, black;
	uint32_t handles[4] = { 0 }, pitches[4], offsets[4] = { 0 }, fb;
	int dev = open("/dev/udmabuf", O_RDWR), memfd, dmabuf;
	size_t size;
	void *map;

	igt_require_f(dev >= 0, "no /dev/udmabuf\n");
	/* The reference pattern, laid out as the cross-adapter buffer. */
	igt_assert_eq(vfq_bo_create(a->dev.fd, W, H, DRM_FORMAT_XRGB8888, &ref),
		      0);
	vfq_fb_pattern(&ref, 41);
	size = (ref.pitch * H + 4095) & ~4095ul;
	memfd = memfd_create("vflipq-udmabuf", MFD_ALLOW_SEALING);
	igt_assert(memfd >= 0);
	igt_assert_eq(ftruncate(memfd, size), 0);
	igt_assert_eq(fcntl(memfd, F_ADD_SEALS, F_SEAL_SHRINK), 0);
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
	igt_assert(map != MAP_FAILED);
	memcpy(map, ref.map, (size_t)ref.pitch * H);
	munmap(map, size);

	c.memfd = memfd;
	c.size = size;
	dmabuf = ioctl(dev, UDMABUF_CREATE, &c);
	igt_assert(dmabuf >= 0);
	igt_assert_eq(drmPrimeFDToHandle(a->dev.fd, dmabuf, &handles[0]), 0);
	pitches[0] = ref.pitch;
	igt_assert_eq(drmModeAddFB2(a->dev.fd, W, H, DRM_FORMAT_XRGB8888,
				    handles, pitches, offsets, &fb, 0), 0);
	pipe_on_black(a, &black);
	igt_assert_eq(put_on_primary(a, fb, W, H, 0), 0);
	check_screen(a, &ref, 0);

	vfq_display_off(&a->display);
	igt_assert_eq(drmModeRmFB(a->dev.fd, fb), 0);
	drmCloseBufferHandle(a->dev.fd, handles[0]);
	close(dmabuf);
	close(memfd);
	close(dev);
	vfq_fb_destroy(&black);
	vfq_fb_destroy(&ref);
}

/*
 * Raw, on a configfs device of its own, set up and removed in this one
 * subtest as kms_vflipq_damage's tracked-odd-width: the mode sets and
 * the TEST_ONLY requests, the second pipe's and the rotated plane's.
 */
static void test_bandwidth(void)
{
	static const char *const attrs[] = {
		"crtcs", "2", "modes", "640x480@60", "preferred_mode",
		"640x480@60", "bandwidth", "25000000", NULL,
	};
	struct vfq_dev d;
	struct vfq_fb fb;
	drmModeModeInfo mode;
	drmModeAtomicReq *req;
	uint32_t blobs[2];
	int card = vfq_cfs_create("igt-bw", attrs);

	/* 640x480@60 is 18.4 Mpx/s: one CRTC fits, two do not. */
	vfq_dev_init(&d, vfq_open_card(card));
	vfq_fb_create(d.fd, W, H, DRM_FORMAT_XRGB8888, &fb);
	vfq_get_mode(d.fd, d.pipe[0].conn_id, W, H, 60, &mode);
	req = vfq_req_new();
	vfq_req_pipe_on(req, &d, 0, &mode, fb.fb_id, &blobs[0]);
	igt_assert_eq(vfq_req_commit(d.fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET,
				     NULL), 0);
	req = vfq_req_new();
	vfq_req_pipe_on(req, &d, 1, &mode, fb.fb_id, &blobs[1]);
	igt_assert_eq(vfq_req_commit(d.fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET |
				     DRM_MODE_ATOMIC_TEST_ONLY, NULL),
		      -ENOSPC);
	/*
	 * A 480x480 plane: 13.8 Mpx/s upright fits; rotated by 90 degrees it
	 * costs twice, 27.6 Mpx/s, over the 25 Mpx/s budget.
	 */
	for (int rot = 0; rot < 2; rot++) {
		uint64_t bit = vfq_prop_enum_value(d.fd, d.pipe[0].primary,
						   DRM_MODE_OBJECT_PLANE,
						   "rotation", rot ? "rotate-90" :
						   "rotate-0");

		req = vfq_req_new();
		vfq_req_set(req, d.fd, d.pipe[0].primary, DRM_MODE_OBJECT_PLANE,
			    "rotation", 1ull << bit);
		vfq_req_plane(req, d.fd, d.pipe[0].primary, d.pipe[0].crtc_id,
			      fb.fb_id, 0, 0, H, H);
		vfq_req_set(req, d.fd, d.pipe[0].primary, DRM_MODE_OBJECT_PLANE,
			    "SRC_W", (uint64_t)H << 16);
		igt_assert_eq(vfq_req_commit(d.fd, req,
					     DRM_MODE_ATOMIC_TEST_ONLY, NULL),
			      rot ? -ENOSPC : 0);
	}
	vfq_dev_reset(&d);
	drmModeDestroyPropertyBlob(d.fd, blobs[0]);
	drmModeDestroyPropertyBlob(d.fd, blobs[1]);
	vfq_fb_destroy(&fb);
	vfq_dev_fini(&d);
}

igt_main
{
	igt_fixture {
		igt_require(vfq_cfs_available());
		vfq_cfs_cleanup();
		make_render();
	}

	igt_describe("Tiers must be supersets; hybrid integrated needs tier 3");
	igt_subtest("tier-superset")
		test_superset();
	igt_describe("A render-only adapter: no CRTC, 128-byte pitches, PRIME");
	igt_subtest("render-only")
		test_render_only();
	for (int t = 0; t < 4; t++) {
		igt_describe_f("A cross-adapter buffer on a display adapter of "
			       "tier %d: %s", t, tier_rules[t]);
		igt_subtest_f("tier%d", t)
			test_tier(t);
	}
	igt_describe("Tier 3 scans 1080p cross-adapter buffers out exactly");
	igt_subtest("one-copy-formats")
		test_one_copy_formats();
	igt_describe("Pitch, offset and size rules of cross-adapter buffers");
	igt_subtest("bad-buffers")
		test_bad_buffers();
	igt_describe("The NO_SCANOUT query follows the DXGI rules");
	igt_subtest("scanout-query")
		test_query();
	igt_describe("A TEST_ONLY static check leaves no trace");
	igt_subtest("static-check")
		test_static_check();
	igt_describe("A queued flip waits for the exporter's implicit fence");
	igt_subtest("implicit-fence")
		test_implicit_fence();

	igt_describe("An atomic flip waits for the exporter's implicit fence");
	igt_subtest("implicit-fence-atomic")
		test_implicit_fence_atomic();
	igt_describe("The copy engine waits for the source's implicit fence");
	igt_subtest("copy-waits-fence")
		test_copy_waits();
	igt_describe("udmabuf buffers are scanned out like any exporter's");
	igt_subtest("udmabuf-source")
		test_udmabuf();
	igt_describe("The display bandwidth budget, rotation costing double");
	igt_subtest("bandwidth-budget")
		test_bandwidth();

	igt_fixture {
		for (int t = 0; t < 4; t++)
			if (disp[t].card > 0) {
				igt_display_fini(&disp[t].display);
				vfq_dev_fini(&disp[t].dev);
			}
		if (render_fd >= 0)
			close(render_fd);
		vfq_cfs_cleanup();
	}
}
