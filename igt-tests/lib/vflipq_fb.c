// SPDX-License-Identifier: MIT
/*
 * vflipq helpers: framebuffers, pixel encode/decode for the formats of the
 * spec (plus a few unsupported ones for negative tests), deterministic
 * patterns and pixel-exact comparison.
 *
 * Framebuffers are IGT's (vfq_fb_create(): igt_create_fb()).  The pixel
 * encoders and decoders stay here: they are the tests' reference for what
 * the driver must scan out, written from the format definitions and not
 * from IGT's cairo/pixman conversions (not bit-exact for 10-bit and fp16).
 */
#include <math.h>
#include <sys/mman.h>

#include "fourcc.h"
#include "vflipq_helpers.h"
#include "vgem_drm.h"

/* Names, bytes per pixel, depth and alpha: userspace/common/fourcc.c. */
const char *vfq_format_name(uint32_t format)
{
	return fourcc_name(format);
}

int vfq_format_cpp_bits(uint32_t format)
{
	return (int)fourcc_cpp(format) * 8;
}

int vfq_format_depth(uint32_t format)
{
	const struct fourcc_info *f = fourcc_info(format);

	return f ? f->depth : 0;
}

bool vfq_format_has_alpha(uint32_t format)
{
	const struct fourcc_info *f = fourcc_info(format);

	return f && f->alpha;
}

/* ---- channel conversions ------------------------------------------ */

int vfq_chan(uint16_t v, int bits)
{
	uint32_t max = (1u << bits) - 1;

	return ((uint32_t)v * max + 32767) / 65535;
}

static uint16_t unchan(uint32_t v, int bits)
{
	uint32_t max = (1u << bits) - 1;

	return (v * 65535 + max / 2) / max;
}

struct vfq_color vfq_rgba10(int r, int g, int b, int a2)
{
	return (struct vfq_color){ unchan(r, 10), unchan(g, 10),
				   unchan(b, 10), unchan(a2, 2) };
}

static uint16_t float_to_half(float f)
{
	uint32_t x, sign, exp, mant, shift, h, rem, half;

	memcpy(&x, &f, sizeof(x));
	sign = (x >> 16) & 0x8000;
	exp = (x >> 23) & 0xff;
	mant = x & 0x7fffff;
	if (exp == 0xff)
		return sign | 0x7c00 | (mant ? 0x200 : 0);
	if (exp > 142)
		return sign | 0x7c00;
	if (exp < 102)
		return sign;
	if (exp < 113) {	/* subnormal half */
		mant |= 0x800000;
		shift = 126 - exp;
	} else {
		mant |= (exp - 112) << 23;
		shift = 13;
	}
	h = mant >> shift;
	rem = mant & ((1u << shift) - 1);
	half = 1u << (shift - 1);
	/* round to nearest, ties to even; a carry may reach the exponent */
	if (rem > half || (rem == half && (h & 1)))
		h++;
	return sign | h;
}

static float half_to_float(uint16_t h)
{
	int exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
	float v;

	if (exp == 0)
		v = ldexpf(mant, -24);
	else if (exp == 31)
		v = mant ? NAN : INFINITY;
	else
		v = ldexpf(mant | 0x400, exp - 25);
	return (h & 0x8000) ? -v : v;
}

static uint16_t f2u16(float f)
{
	if (!(f > 0))
		return 0;
	if (f >= 1)
		return 65535;
	return (uint16_t)lrintf(f * 65535.0f);
}

/* BT.601 limited range, R'G'B' in [0, 1] */
static void rgb_to_yuv601(struct vfq_color c, int *y, int *u, int *v)
{
	double r = c.r / 65535.0, g = c.g / 65535.0, b = c.b / 65535.0;

	*y = lround(16 + 219 * (0.299 * r + 0.587 * g + 0.114 * b));
	*u = lround(128 + 224 * (-0.168736 * r - 0.331264 * g + 0.5 * b));
	*v = lround(128 + 224 * (0.5 * r - 0.418688 * g - 0.081312 * b));
}

/* ---- buffers ------------------------------------------------------ */

uint32_t vfq_vgem_fence_write(int vgem, uint32_t handle)
{
	struct drm_vgem_fence_attach a = {
		.handle = handle, .flags = VGEM_FENCE_WRITE };

	do_ioctl(vgem, DRM_IOCTL_VGEM_FENCE_ATTACH, &a);
	return a.out_fence;
}

void vfq_vgem_fence_signal(int vgem, uint32_t fence)
{
	struct drm_vgem_fence_signal sig = { .fence = fence };

	do_ioctl(vgem, DRM_IOCTL_VGEM_FENCE_SIGNAL, &sig);
}

/*
 * Raw dumb buffers and ADDFB2, outside IGT's igt_fb, for what it cannot
 * express: igt_create_fb() asserts that ADDFB2 succeeds (the refusal tests
 * of kms_vflipq_formats need the EINVAL), always sets
 * DRM_MODE_FB_MODIFIERS when the device has modifiers (non-linear-
 * modifier-refused adds LINEAR with and without it), cannot place plane 0
 * at an offset (kms_vflipq_writeback's *-offset), and allocates on the
 * fd it adds the fb on (the render adapter's vgem buffers of caso, prime,
 * syncobj, flipq, stress and present_share; vflipq_security's buffers of
 * one fd tried on another).  vfq_fb_wrap() adds an fb around a GEM handle
 * that someone else owns (an import, libpresent's surface), which igt_fb
 * would close on removal.
 */
int vfq_bo_create(int fd, int w, int h, uint32_t format, struct vfq_fb *fb)
{
	struct drm_mode_create_dumb create = {};
	struct drm_mode_map_dumb map = {};
	const struct fourcc_info *f = fourcc_info(format);
	void *ptr;

	igt_assert_f(f, "unknown format %#x\n", format);
	memset(fb, 0, sizeof(*fb));
	fb->fd = fd;
	fb->format = format;
	fb->width = w;
	fb->height = h;

	create.width = w;
	create.height = format == DRM_FORMAT_NV12 ? h + (h + 1) / 2 : h;
	create.bpp = f->cpp[0] * 8;
	if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create))
		return -errno;
	fb->handle = create.handle;
	fb->pitch = create.pitch;
	fb->size = create.size;

	map.handle = fb->handle;
	if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map))
		goto err;
	ptr = mmap(NULL, fb->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   map.offset);
	if (ptr == MAP_FAILED)
		goto err;
	fb->map = ptr;

	fb->n_planes = 1;
	fb->pitches[0] = fb->pitch;
	if (format == DRM_FORMAT_NV12) {
		fb->n_planes = 2;
		fb->pitches[1] = fb->pitch;
		fb->offsets[1] = fb->pitch * h;
	}
	return 0;
err:
	{
		int err = -errno;
		struct drm_mode_destroy_dumb d = { .handle = fb->handle };

		drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &d);
		fb->handle = 0;
		return err;
	}
}

int vfq_fb_wrap(struct vfq_fb *fb, int fd, uint32_t handle, uint32_t format,
		int w, int h, uint32_t pitch, uint64_t size)
{
	memset(fb, 0, sizeof(*fb));
	fb->fd = fd;
	fb->format = format;
	fb->width = w;
	fb->height = h;
	fb->handle = handle;
	fb->pitch = pitch;
	fb->size = size;
	fb->n_planes = 1;
	fb->pitches[0] = pitch;
	return vfq_fb_add(fb, DRM_FORMAT_MOD_LINEAR, false);
}

int vfq_fb_add(struct vfq_fb *fb, uint64_t modifier, bool with_modifier)
{
	uint32_t handles[4] = {}, pitches[4] = {}, offsets[4] = {};
	uint64_t mods[4] = {};
	int ret;

	for (int i = 0; i < fb->n_planes; i++) {
		handles[i] = fb->handle;
		pitches[i] = fb->pitches[i];
		offsets[i] = fb->offsets[i];
		mods[i] = modifier;
	}
	if (with_modifier)
		ret = drmModeAddFB2WithModifiers(fb->fd, fb->width, fb->height,
						 fb->format, handles, pitches,
						 offsets, mods, &fb->fb_id,
						 DRM_MODE_FB_MODIFIERS);
	else
		ret = drmModeAddFB2(fb->fd, fb->width, fb->height, fb->format,
				    handles, pitches, offsets, &fb->fb_id, 0);
	if (ret) {
		fb->fb_id = 0;
		return -errno;
	}
	fb->modifier = modifier;
	return 0;
}

/*
 * IGT's layout on vflipq (lib/igt_fb.c of 2.2, a dumb buffer as on any
 * driver IGT has no allocator for):
 * - single-plane formats (8888, 2101010, 16161616F, RGB565 and their
 *   BGR/alpha variants): one CREATE_DUMB of the format's bpp; the pitch
 *   and size are the driver's (vflipq: rows rounded up to 128 bytes), so
 *   the same as vfq_bo_create()'s;
 * - NV12: one CREATE_DUMB of 12 bpp, planes laid out by IGT: Y pitch =
 *   width, CbCr at offset width * height with pitch 2 * ceil(width / 2)
 *   (vfq_bo_create()'s were the dumb pitch for both).  vflipq takes any
 *   pitch the core accepts for its own buffers (128-byte rows are only
 *   asked of imported ones), and every encoder here reads the pitches and
 *   offsets of the fb, so no test depends on that;
 * - ADDFB2 with DRM_MODE_FB_MODIFIERS and LINEAR, as the device has
 *   modifiers: the same fb as without the flag.
 * igt_create_fb() asserts on every failure (unknown format, CREATE_DUMB,
 * ADDFB2) and never skips, so a driver that refuses a format the spec
 * lists still fails the test.  IGT leaves a dumb buffer as the kernel
 * gives it (zeroed: transparent black for the alpha formats) and writes
 * YUV black into NV12; the fb is cleared to opaque black here, as the
 * tests' references expect of pixels they did not draw.
 */
void vfq_fb_create(int fd, int w, int h, uint32_t format, struct vfq_fb *fb)
{
	struct igt_fb *ifb = &fb->igt;

	memset(fb, 0, sizeof(*fb));
	igt_create_fb(fd, w, h, format, DRM_FORMAT_MOD_LINEAR, ifb);
	fb->fd = fd;
	fb->fb_id = ifb->fb_id;
	fb->format = ifb->drm_format;
	fb->modifier = ifb->modifier;
	fb->width = ifb->width;
	fb->height = ifb->height;
	fb->handle = ifb->gem_handle;
	fb->pitch = ifb->strides[0];
	fb->size = ifb->size;
	fb->n_planes = ifb->num_planes;
	for (unsigned int i = 0; i < ifb->num_planes; i++) {
		fb->pitches[i] = ifb->strides[i];
		fb->offsets[i] = ifb->offsets[i];
	}
	fb->map = igt_fb_map_buffer(fd, ifb);
	vfq_fb_fill(fb, vfq_rgb8(0, 0, 0));
}

/* vfq_fb_create()'s: IGT unmaps, removes the fb and closes the buffer. */
static void destroy_igt(struct vfq_fb *fb)
{
	struct igt_fb *ifb = &fb->igt;

	/*
	 * A test that removed the fb itself (RMFB of a queued or scanned-out
	 * fb) zeroed fb_id: IGT must not RMFB that id again (or DIRTYFB it
	 * on unmap), and igt_remove_fb() frees nothing of an fb without one,
	 * so the buffer is closed here.
	 */
	ifb->fb_id = fb->fb_id;
	if (fb->map)
		igt_fb_unmap_buffer(ifb, fb->map);
	if (ifb->fb_id) {
		igt_remove_fb(fb->fd, ifb);
	} else {
		cairo_surface_destroy(ifb->cairo_surface);
		kmstest_dumb_destroy(fb->fd, ifb->gem_handle);
	}
	memset(ifb, 0, sizeof(*ifb));
}

void vfq_fb_destroy(struct vfq_fb *fb)
{
	if (fb->igt.gem_handle) {
		destroy_igt(fb);
		fb->fb_id = 0;
		fb->map = NULL;
		fb->handle = 0;
		return;
	}
	if (fb->fb_id)
		drmModeRmFB(fb->fd, fb->fb_id);
	if (fb->map)
		munmap(fb->map, fb->size);
	if (fb->handle) {
		struct drm_mode_destroy_dumb d = { .handle = fb->handle };

		drmIoctl(fb->fd, DRM_IOCTL_MODE_DESTROY_DUMB, &d);
	}
	fb->fb_id = 0;
	fb->map = NULL;
	fb->handle = 0;
}

/* ---- pixels ------------------------------------------------------- */

static void *px(const struct vfq_fb *fb, int plane, int x, int y, int bpp)
{
	return fb->map + fb->offsets[plane] + (size_t)y * fb->pitches[plane] +
	       (size_t)x * bpp / 8;
}

static void put32(void *p, uint32_t v) { memcpy(p, &v, 4); }
static void put16(void *p, uint16_t v) { memcpy(p, &v, 2); }
static uint32_t get32(const void *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint16_t get16(const void *p) { uint16_t v; memcpy(&v, p, 2); return v; }

void vfq_fb_put(struct vfq_fb *fb, int x, int y, struct vfq_color c)
{
	const bool a = vfq_format_has_alpha(fb->format);
	uint32_t r8 = vfq_chan(c.r, 8), g8 = vfq_chan(c.g, 8),
		 b8 = vfq_chan(c.b, 8), a8 = a ? vfq_chan(c.a, 8) : 0xff;
	uint32_t r10 = vfq_chan(c.r, 10), g10 = vfq_chan(c.g, 10),
		 b10 = vfq_chan(c.b, 10), a2 = a ? vfq_chan(c.a, 2) : 3;
	uint64_t rh = float_to_half(c.r / 65535.0f),
		 gh = float_to_half(c.g / 65535.0f),
		 bh = float_to_half(c.b / 65535.0f),
		 ah = a ? float_to_half(c.a / 65535.0f) : 0x3c00;
	uint64_t q;
	int yy, u, v;

	igt_assert(x >= 0 && y >= 0 && x < fb->width && y < fb->height);
	switch (fb->format) {
	case DRM_FORMAT_XRGB8888:
	case DRM_FORMAT_ARGB8888:
		put32(px(fb, 0, x, y, 32), a8 << 24 | r8 << 16 | g8 << 8 | b8);
		break;
	case DRM_FORMAT_XBGR8888:
	case DRM_FORMAT_ABGR8888:
		put32(px(fb, 0, x, y, 32), a8 << 24 | b8 << 16 | g8 << 8 | r8);
		break;
	case DRM_FORMAT_XRGB2101010:
	case DRM_FORMAT_ARGB2101010:
		put32(px(fb, 0, x, y, 32),
		      a2 << 30 | r10 << 20 | g10 << 10 | b10);
		break;
	case DRM_FORMAT_XBGR2101010:
	case DRM_FORMAT_ABGR2101010:
		put32(px(fb, 0, x, y, 32),
		      a2 << 30 | b10 << 20 | g10 << 10 | r10);
		break;
	case DRM_FORMAT_XRGB16161616F:
	case DRM_FORMAT_ARGB16161616F:
		q = ah << 48 | rh << 32 | gh << 16 | bh;
		memcpy(px(fb, 0, x, y, 64), &q, 8);
		break;
	case DRM_FORMAT_XBGR16161616F:
	case DRM_FORMAT_ABGR16161616F:
		q = ah << 48 | bh << 32 | gh << 16 | rh;
		memcpy(px(fb, 0, x, y, 64), &q, 8);
		break;
	case DRM_FORMAT_RGB565:
		put16(px(fb, 0, x, y, 16), vfq_chan(c.r, 5) << 11 |
		      vfq_chan(c.g, 6) << 5 | vfq_chan(c.b, 5));
		break;
	case DRM_FORMAT_NV12:
		rgb_to_yuv601(c, &yy, &u, &v);
		*(uint8_t *)px(fb, 0, x, y, 8) = yy;
		*(uint8_t *)px(fb, 1, x & ~1, y / 2, 8) = u;
		*(uint8_t *)px(fb, 1, x | 1, y / 2, 8) = v;
		break;
	case DRM_FORMAT_YUYV:
		rgb_to_yuv601(c, &yy, &u, &v);
		*(uint8_t *)px(fb, 0, x, y, 16) = yy;
		*((uint8_t *)px(fb, 0, x, y, 16) + 1) = (x & 1) ? v : u;
		break;
	case DRM_FORMAT_C8:
		*(uint8_t *)px(fb, 0, x, y, 8) = r8;
		break;
	case DRM_FORMAT_RGB888:
		memcpy(px(fb, 0, x, y, 24), (uint8_t[]){ b8, g8, r8 }, 3);
		break;
	default:
		igt_assert_f(0, "cannot write %s\n",
			     vfq_format_name(fb->format));
	}
}

struct vfq_color vfq_fb_get(const struct vfq_fb *fb, int x, int y)
{
	uint32_t w;
	uint64_t q;
	uint16_t h;

	igt_assert(x >= 0 && y >= 0 && x < fb->width && y < fb->height);
	switch (fb->format) {
	case DRM_FORMAT_XRGB8888:
	case DRM_FORMAT_ARGB8888:
		w = get32(px(fb, 0, x, y, 32));
		return vfq_rgba8(w >> 16 & 0xff, w >> 8 & 0xff, w & 0xff,
				 fb->format == DRM_FORMAT_ARGB8888 ?
				 w >> 24 : 0xff);
	case DRM_FORMAT_XBGR8888:
	case DRM_FORMAT_ABGR8888:
		w = get32(px(fb, 0, x, y, 32));
		return vfq_rgba8(w & 0xff, w >> 8 & 0xff, w >> 16 & 0xff,
				 fb->format == DRM_FORMAT_ABGR8888 ?
				 w >> 24 : 0xff);
	case DRM_FORMAT_XRGB2101010:
	case DRM_FORMAT_ARGB2101010:
		w = get32(px(fb, 0, x, y, 32));
		return vfq_rgba10(w >> 20 & 0x3ff, w >> 10 & 0x3ff,
				  w & 0x3ff,
				  fb->format == DRM_FORMAT_ARGB2101010 ?
				  w >> 30 : 3);
	case DRM_FORMAT_XBGR2101010:
	case DRM_FORMAT_ABGR2101010:
		w = get32(px(fb, 0, x, y, 32));
		return vfq_rgba10(w & 0x3ff, w >> 10 & 0x3ff,
				  w >> 20 & 0x3ff,
				  fb->format == DRM_FORMAT_ABGR2101010 ?
				  w >> 30 : 3);
	case DRM_FORMAT_XRGB16161616F:
	case DRM_FORMAT_ARGB16161616F:
	case DRM_FORMAT_XBGR16161616F:
	case DRM_FORMAT_ABGR16161616F: {
		bool bgr = fb->format == DRM_FORMAT_XBGR16161616F ||
			   fb->format == DRM_FORMAT_ABGR16161616F;
		struct vfq_color c;

		memcpy(&q, px(fb, 0, x, y, 64), 8);
		c.r = f2u16(half_to_float(q >> (bgr ? 0 : 32)));
		c.g = f2u16(half_to_float(q >> 16));
		c.b = f2u16(half_to_float(q >> (bgr ? 32 : 0)));
		c.a = vfq_format_has_alpha(fb->format) ?
		      f2u16(half_to_float(q >> 48)) : 65535;
		return c;
	}
	case DRM_FORMAT_RGB565:
		h = get16(px(fb, 0, x, y, 16));
		return (struct vfq_color){ unchan(h >> 11, 5),
					   unchan(h >> 5 & 0x3f, 6),
					   unchan(h & 0x1f, 5), 65535 };
	default:
		igt_assert_f(0, "cannot read %s\n",
			     vfq_format_name(fb->format));
	}
	return (struct vfq_color){};
}

void vfq_fb_fill_rect(struct vfq_fb *fb, int x, int y, int w, int h,
		      struct vfq_color c)
{
	const int bpp = vfq_format_cpp_bits(fb->format);

	if (w <= 0 || h <= 0)
		return;
	if (fb->n_planes > 1 || bpp % 8 || fb->format == DRM_FORMAT_YUYV) {
		for (int j = y; j < y + h; j++)
			for (int i = x; i < x + w; i++)
				vfq_fb_put(fb, i, j, c);
		return;
	}
	/* encode one pixel, replicate it along the row, copy the row */
	vfq_fb_put(fb, x, y, c);
	for (int i = x + 1; i < x + w; i++)
		memcpy(px(fb, 0, i, y, bpp), px(fb, 0, x, y, bpp), bpp / 8);
	for (int j = y + 1; j < y + h; j++)
		memcpy(px(fb, 0, x, j, bpp), px(fb, 0, x, y, bpp),
		       (size_t)w * bpp / 8);
}

void vfq_fb_fill(struct vfq_fb *fb, struct vfq_color c)
{
	vfq_fb_fill_rect(fb, 0, 0, fb->width, fb->height, c);
}

static uint32_t hash32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352d;
	x ^= x >> 15;
	x *= 0x846ca68b;
	x ^= x >> 16;
	return x;
}

static uint32_t pattern_bits(int x, int y, uint32_t seed)
{
	return hash32(hash32(seed * 0x9e3779b9u + y) ^ (uint32_t)x);
}

struct vfq_color vfq_pattern8(int x, int y, uint32_t seed)
{
	uint32_t h = pattern_bits(x, y, seed);

	return vfq_rgb8(h & 0xff, h >> 8 & 0xff, h >> 16 & 0xff);
}

struct vfq_color vfq_pattern10(int x, int y, uint32_t seed)
{
	uint32_t h = pattern_bits(x, y, seed);

	return vfq_rgba10(h & 0x3ff, h >> 10 & 0x3ff, h >> 20 & 0x3ff, 3);
}

void vfq_rotate_point(uint32_t rot, int w, int h, int x, int y, int *dx,
		      int *dy)
{
	if (rot & DRM_MODE_REFLECT_X)
		x = w - 1 - x;
	if (rot & DRM_MODE_REFLECT_Y)
		y = h - 1 - y;
	switch (rot & DRM_MODE_ROTATE_MASK) {
	case DRM_MODE_ROTATE_90:
		*dx = y;
		*dy = w - 1 - x;
		break;
	case DRM_MODE_ROTATE_180:
		*dx = w - 1 - x;
		*dy = h - 1 - y;
		break;
	case DRM_MODE_ROTATE_270:
		*dx = h - 1 - y;
		*dy = x;
		break;
	default:
		*dx = x;
		*dy = y;
	}
}

void vfq_fb_pattern(struct vfq_fb *fb, uint32_t seed)
{
	bool ten = vfq_format_depth(fb->format) == 10;

	for (int y = 0; y < fb->height; y++)
		for (int x = 0; x < fb->width; x++)
			vfq_fb_put(fb, x, y, ten ? vfq_pattern10(x, y, seed) :
					   vfq_pattern8(x, y, seed));
}

int vfq_fb_check(const struct vfq_fb *fb, vfq_expect_fn expect, void *data,
		 int bits, int tol)
{
	int bad = 0;

	for (int y = 0; y < fb->height; y++) {
		for (int x = 0; x < fb->width; x++) {
			struct vfq_color got = vfq_fb_get(fb, x, y);
			struct vfq_color want = expect(x, y, data);
			int d[3];

			if (want.a == 0)
				continue;
			d[0] = vfq_chan(got.r, bits) - vfq_chan(want.r, bits);
			d[1] = vfq_chan(got.g, bits) - vfq_chan(want.g, bits);
			d[2] = vfq_chan(got.b, bits) - vfq_chan(want.b, bits);
			if (abs(d[0]) <= tol && abs(d[1]) <= tol &&
			    abs(d[2]) <= tol)
				continue;
			if (bad++ < 8)
				igt_info("pixel (%d,%d): got %d,%d,%d expected %d,%d,%d (%d-bit, tolerance %d)\n",
					 x, y, vfq_chan(got.r, bits),
					 vfq_chan(got.g, bits),
					 vfq_chan(got.b, bits),
					 vfq_chan(want.r, bits),
					 vfq_chan(want.g, bits),
					 vfq_chan(want.b, bits), bits, tol);
		}
	}
	if (bad)
		igt_info("%d of %d pixels differ\n", bad,
			 fb->width * fb->height);
	return bad;
}

void vfq_fb_put_yuv(struct vfq_fb *fb, int x, int y, int Y, int U, int V)
{
	igt_assert(fb->format == DRM_FORMAT_NV12);
	igt_assert(x >= 0 && y >= 0 && x < fb->width && y < fb->height);
	*(uint8_t *)px(fb, 0, x, y, 8) = Y;
	*(uint8_t *)px(fb, 1, x & ~1, y / 2, 8) = U;
	*(uint8_t *)px(fb, 1, x | 1, y / 2, 8) = V;
}

static int clamp8(int v)
{
	return v < 0 ? 0 : v > 255 ? 255 : v;
}

struct vfq_color vfq_yuv601_to_rgb(int Y, int U, int V)
{
	/* the integer BT.601 limited-range decode of driver.rst, "NV12" */
	int c = Y - 16, d = U - 128, e = V - 128;

	return vfq_rgb8(clamp8((298 * c + 409 * e + 128) >> 8),
			clamp8((298 * c - 100 * d - 208 * e + 128) >> 8),
			clamp8((298 * c + 516 * d + 128) >> 8));
}
