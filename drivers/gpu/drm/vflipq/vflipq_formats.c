// SPDX-License-Identifier: GPL-2.0-only
/*
 * Pixel format conversions.  The composer works on whole rows: one indirect
 * call per plane row, with the per-pixel decode inlined, which is what keeps
 * a software composer usable at 1080p.
 */

#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/iosys-map.h>
#include <linux/string.h>

#include <drm/drm_blend.h>
#include <drm/drm_fourcc.h>

#include "vflipq_blend.h"
#include "vflipq_compat.h"
#include "vflipq_formats.h"
#include "vflipq_hash.h"

const u32 vflipq_plane_formats[] = {
	DRM_FORMAT_XRGB8888,
	DRM_FORMAT_ARGB8888,
	DRM_FORMAT_XBGR8888,
	DRM_FORMAT_ABGR8888,
	DRM_FORMAT_XRGB2101010,
	DRM_FORMAT_ARGB2101010,
	DRM_FORMAT_XBGR2101010,
	DRM_FORMAT_ABGR2101010,
	DRM_FORMAT_XRGB16161616F,
	DRM_FORMAT_ARGB16161616F,
	DRM_FORMAT_XBGR16161616F,
	DRM_FORMAT_ABGR16161616F,
	DRM_FORMAT_RGB565,
};
EXPORT_SYMBOL_IF_KUNIT(vflipq_plane_formats);

const unsigned int vflipq_num_plane_formats = ARRAY_SIZE(vflipq_plane_formats);
EXPORT_SYMBOL_IF_KUNIT(vflipq_num_plane_formats);

const u32 vflipq_overlay_formats[] = {
	DRM_FORMAT_XRGB8888,
	DRM_FORMAT_ARGB8888,
	DRM_FORMAT_XBGR8888,
	DRM_FORMAT_ABGR8888,
	DRM_FORMAT_XRGB2101010,
	DRM_FORMAT_ARGB2101010,
	DRM_FORMAT_XBGR2101010,
	DRM_FORMAT_ABGR2101010,
	DRM_FORMAT_XRGB16161616F,
	DRM_FORMAT_ARGB16161616F,
	DRM_FORMAT_XBGR16161616F,
	DRM_FORMAT_ABGR16161616F,
	DRM_FORMAT_RGB565,
	DRM_FORMAT_NV12,
};
EXPORT_SYMBOL_IF_KUNIT(vflipq_overlay_formats);

const unsigned int vflipq_num_overlay_formats =
	ARRAY_SIZE(vflipq_overlay_formats);
EXPORT_SYMBOL_IF_KUNIT(vflipq_num_overlay_formats);

const u32 vflipq_cursor_formats[] = {
	DRM_FORMAT_ARGB8888,
	DRM_FORMAT_XRGB8888,
	DRM_FORMAT_ABGR8888,
	DRM_FORMAT_XBGR8888,
};
EXPORT_SYMBOL_IF_KUNIT(vflipq_cursor_formats);

const unsigned int vflipq_num_cursor_formats =
	ARRAY_SIZE(vflipq_cursor_formats);
EXPORT_SYMBOL_IF_KUNIT(vflipq_num_cursor_formats);

const u32 vflipq_wb_formats[] = {
	DRM_FORMAT_XRGB8888,
	DRM_FORMAT_ARGB8888,
	DRM_FORMAT_XRGB2101010,
	DRM_FORMAT_ABGR8888,
};
EXPORT_SYMBOL_IF_KUNIT(vflipq_wb_formats);

const unsigned int vflipq_num_wb_formats = ARRAY_SIZE(vflipq_wb_formats);
EXPORT_SYMBOL_IF_KUNIT(vflipq_num_wb_formats);

/*
 * Framebuffer pitches and offsets are only as aligned as userspace made
 * them: load and store through memcpy, which compiles to plain moves.
 */
static inline u16 load_le16(const u8 *p)
{
	__le16 v;

	memcpy(&v, p, sizeof(v));
	return le16_to_cpu(v);
}

static inline u32 load_le32(const u8 *p)
{
	__le32 v;

	memcpy(&v, p, sizeof(v));
	return le32_to_cpu(v);
}

static inline u64 load_le64(const u8 *p)
{
	__le64 v;

	memcpy(&v, p, sizeof(v));
	return le64_to_cpu(v);
}

static inline void store_le16(u16 v, u8 *p)
{
	__le16 le = cpu_to_le16(v);

	memcpy(p, &le, sizeof(le));
}

static inline void store_le32(u32 v, u8 *p)
{
	__le32 le = cpu_to_le32(v);

	memcpy(p, &le, sizeof(le));
}

static inline void store_le64(u64 v, u8 *p)
{
	__le64 le = cpu_to_le64(v);

	memcpy(p, &le, sizeof(le));
}

static inline u16 unorm8_to_16(u32 v)
{
	return (v & 0xff) * 257;
}

/*
 * Three 10-bit channels to 16 bits, (v << 6) | (v >> 4) each, in one go:
 * each value in its 16-bit lane of a composer pixel, shifted up within
 * its lane (10 + 6 bits, no spill) and its top six bits brought down
 * (the mask drops what the shift brings from the lane above).  Alpha, in
 * the format or opaque, is @a16 and goes in as it is.
 */
static __always_inline u64 unorm10x3_to_16(u32 a16, u32 r, u32 g, u32 b)
{
	u64 x = vflipq_px_pack(0, r & 0x3ff, g & 0x3ff, b & 0x3ff);

	return x << 6 | (x >> 4 & 0x003f003f003f003fULL) |
	       vflipq_px_pack(a16, 0, 0, 0);
}

static inline u16 unorm2_to_16(u32 v)
{
	return (v & 0x3) * 0x5555;
}

static inline u32 unorm16_to_8(u16 v)
{
	/* round(v * 255 / 65535) == round(v / 257) */
	return (v + 128) / 257;
}

static inline u32 unorm16_to_10(u16 v)
{
	return ((u32)v * 1023 + 32767) / 65535;
}

/*
 * IEEE half to unorm16 without the FPU: negative and NaN clamp to 0,
 * values at or above 1.0 (and +inf) to 0xffff, the rest round to nearest.
 */
static u16 half_to_unorm16_calc(u16 h)
{
	unsigned int exp = (h >> 10) & 0x1f;
	unsigned int man = h & 0x3ff;
	unsigned int shift;
	u64 v;

	if (h & 0x8000)
		return 0;
	if (exp == 0x1f)
		return man ? 0 : 0xffff;
	if (exp >= 15)
		return 0xffff;
	if (exp == 0) {
		v = (u64)man * 65535;
		shift = 24;
	} else {
		v = (u64)(man | 0x400) * 65535;
		shift = 25 - exp;
	}
	return (v + (1ULL << (shift - 1))) >> shift;
}

/*
 * The same through a table (filled by vflipq_formats_init()) of every half
 * up to +inf and one entry past it, 0, for the NaNs and negative values
 * above it: the decode of an F16 channel is a clamp of its index and a
 * load, without a branch.  Under TCG a branch ends a translated block,
 * and the four channels of a pixel took one each; the table costs 31 KiB
 * more than one of the halves below 1.0 alone.
 */
#define HALF_INF 0x7c00
static u16 half_lut[HALF_INF + 2];

static inline u16 half_to_unorm16(u16 h)
{
	return half_lut[min_t(u32, h, HALF_INF + 1)];
}

/*
 * unorm16 to IEEE half, round to nearest, without the FPU: v / 65535 as a
 * 32.32 fixed-point fraction, then exponent and mantissa from its top bit.
 */
static u16 unorm16_to_half(u16 v)
{
	u64 q, full;
	int b, shift, exp;

	if (!v)
		return 0;
	if (v == 0xffff)
		return 0x3c00;
	q = div_u64((u64)v << 32, 65535);
	b = fls64(q) - 1;
	exp = b - 32;
	if (exp < -14)	/* subnormal: steps of 2^-24 */
		return (q + (1ULL << 7)) >> 8;
	shift = b - 10;
	full = (q + (1ULL << (shift - 1))) >> shift;
	if (full == 2048) {
		full = 1024;
		exp++;
	}
	return (exp + 15) << 10 | (full & 0x3ff);
}

static __always_inline void
read_row32(const struct vflipq_src *src, int x, int y, int ux, int uy,
	   unsigned int n, struct vflipq_px *out,
	   u64 (*decode)(u32 v))
{
	const struct vflipq_row row = vflipq_row_at(src, x, y, ux, uy, 4);
	const u8 *p = row.p;
	ptrdiff_t step = row.step;
	unsigned int i;

	for (i = 0; i < n; i++, p += step)
		vflipq_px_store(&out[i], decode(load_le32(p)));
}

static __always_inline void
read_row64(const struct vflipq_src *src, int x, int y, int ux, int uy,
	   unsigned int n, struct vflipq_px *out,
	   u64 (*decode)(u64 v))
{
	const struct vflipq_row row = vflipq_row_at(src, x, y, ux, uy, 8);
	const u8 *p = row.p;
	ptrdiff_t step = row.step;
	unsigned int i;

	for (i = 0; i < n; i++, p += step)
		vflipq_px_store(&out[i], decode(load_le64(p)));
}

/*
 * Four 8-bit channels to a composer pixel: each byte in its 16-bit lane,
 * then one multiply by 257 for all four (a lane's 255 * 257 is 0xffff, no
 * carry), instead of one per channel and the shifts to put each in place.
 */
static __always_inline u64 unorm8x4_to_16(u32 a, u32 r, u32 g, u32 b)
{
	return vflipq_px_pack(a & 0xff, r & 0xff, g & 0xff, b & 0xff) * 257;
}

static __always_inline u64 decode_xrgb8888(u32 v)
{
	return unorm8x4_to_16(0xff, v >> 16, v >> 8, v);
}

static __always_inline u64 decode_argb8888(u32 v)
{
	return unorm8x4_to_16(v >> 24, v >> 16, v >> 8, v);
}

static __always_inline u64 decode_xbgr8888(u32 v)
{
	return unorm8x4_to_16(0xff, v, v >> 8, v >> 16);
}

static __always_inline u64 decode_abgr8888(u32 v)
{
	return unorm8x4_to_16(v >> 24, v, v >> 8, v >> 16);
}

static __always_inline u64 decode_xrgb2101010(u32 v)
{
	return unorm10x3_to_16(0xffff, v >> 20, v >> 10, v);
}

static __always_inline u64 decode_argb2101010(u32 v)
{
	return unorm10x3_to_16(unorm2_to_16(v >> 30), v >> 20, v >> 10, v);
}

static __always_inline u64 decode_xbgr2101010(u32 v)
{
	return unorm10x3_to_16(0xffff, v, v >> 10, v >> 20);
}

static __always_inline u64 decode_abgr2101010(u32 v)
{
	return unorm10x3_to_16(unorm2_to_16(v >> 30), v, v >> 10, v >> 20);
}

static __always_inline u64 decode_xrgb16f(u64 v)
{
	return vflipq_px_pack(0xffff, half_to_unorm16(v >> 32),
			      half_to_unorm16(v >> 16), half_to_unorm16(v));
}

static __always_inline u64 decode_argb16f(u64 v)
{
	return vflipq_px_pack(half_to_unorm16(v >> 48), half_to_unorm16(v >> 32),
			      half_to_unorm16(v >> 16), half_to_unorm16(v));
}

static __always_inline u64 decode_xbgr16f(u64 v)
{
	return vflipq_px_pack(0xffff, half_to_unorm16(v),
			      half_to_unorm16(v >> 16), half_to_unorm16(v >> 32));
}

static __always_inline u64 decode_abgr16f(u64 v)
{
	return vflipq_px_pack(half_to_unorm16(v >> 48), half_to_unorm16(v),
			      half_to_unorm16(v >> 16), half_to_unorm16(v >> 32));
}

#define VFLIPQ_READER(name, width)					\
static void read_##name(const struct vflipq_src *src, int x, int y,	\
			int ux, int uy, unsigned int n,			\
			struct vflipq_px *out)				\
{									\
	read_row##width(src, x, y, ux, uy, n, out, decode_##name);	\
}

VFLIPQ_READER(xrgb8888, 32)
VFLIPQ_READER(argb8888, 32)
VFLIPQ_READER(xbgr8888, 32)
VFLIPQ_READER(abgr8888, 32)
VFLIPQ_READER(xrgb2101010, 32)
VFLIPQ_READER(argb2101010, 32)
VFLIPQ_READER(xbgr2101010, 32)
VFLIPQ_READER(abgr2101010, 32)
VFLIPQ_READER(xrgb16f, 64)
VFLIPQ_READER(argb16f, 64)
VFLIPQ_READER(xbgr16f, 64)
VFLIPQ_READER(abgr16f, 64)

/*
 * Read and blend in one pass: the plane's pixels go from the framebuffer
 * into the blend (vflipq_blend_px()'s arithmetic, on a pixel held in
 * registers) without a stop in a staging row.  One loop per case, the mode
 * a constant in each; "Pre-multiplied" at plane alpha 0xffff, the usual
 * overlay or cursor, takes the three-product blend.
 */
static __always_inline void blend_px(struct vflipq_px *d, u64 fg, u32 pa,
				     u16 mode)
{
	struct vflipq_px s;

	vflipq_px_store(&s, fg);
	vflipq_blend_px(d, &s, pa, mode);
}

static __always_inline void blend_opaque_px(struct vflipq_px *d, u64 fg)
{
	vflipq_px_store(d, vflipq_blend_premulti_opaque(vflipq_px_load(d), fg));
}

/* @cpp 4 or 8, a constant once inlined. */
#define BLEND_LOOP(blend)						\
	for (i = 0; i < n; i++, p += step) {				\
		u64 fg = decode(cpp == 4 ? load_le32(p) : load_le64(p)); \
									\
		blend;							\
	}

static __always_inline void
blend_row_any(const struct vflipq_src *src, int x, int y, int ux, int uy,
	      unsigned int n, struct vflipq_px *out, u32 pa, u16 mode,
	      unsigned int cpp, u64 (*decode)(u64 v))
{
	const struct vflipq_row row = vflipq_row_at(src, x, y, ux, uy, cpp);
	const u8 *p = row.p;
	ptrdiff_t step = row.step;
	unsigned int i;

	switch (mode) {
	case DRM_MODE_BLEND_PIXEL_NONE:
		BLEND_LOOP(blend_px(&out[i], fg, pa,
				    DRM_MODE_BLEND_PIXEL_NONE));
		break;
	case DRM_MODE_BLEND_COVERAGE:
		BLEND_LOOP(blend_px(&out[i], fg, pa, DRM_MODE_BLEND_COVERAGE));
		break;
	default:
		if (pa == DRM_BLEND_ALPHA_OPAQUE)
			BLEND_LOOP(blend_opaque_px(&out[i], fg))
		else
			BLEND_LOOP(blend_px(&out[i], fg, pa,
					    DRM_MODE_BLEND_PREMULTI));
		break;
	}
}

/* The decoders of 32-bit formats take the low half of the loaded word. */
#define VFLIPQ_BLENDER(name, width)					\
static __always_inline u64 blend_decode_##name(u64 v)			\
{									\
	return decode_##name(v);					\
}									\
									\
static void blend_##name(const struct vflipq_src *src, int x, int y,	\
			 int ux, int uy, unsigned int n,		\
			 struct vflipq_px *out, u32 pa, u16 mode)	\
{									\
	blend_row_any(src, x, y, ux, uy, n, out, pa, mode, (width) / 8, \
		      blend_decode_##name);				\
}

VFLIPQ_BLENDER(xrgb8888, 32)
VFLIPQ_BLENDER(argb8888, 32)
VFLIPQ_BLENDER(xbgr8888, 32)
VFLIPQ_BLENDER(abgr8888, 32)
VFLIPQ_BLENDER(xrgb2101010, 32)
VFLIPQ_BLENDER(argb2101010, 32)
VFLIPQ_BLENDER(xbgr2101010, 32)
VFLIPQ_BLENDER(abgr2101010, 32)
VFLIPQ_BLENDER(xrgb16f, 64)
VFLIPQ_BLENDER(argb16f, 64)
VFLIPQ_BLENDER(xbgr16f, 64)
VFLIPQ_BLENDER(abgr16f, 64)

static void read_rgb565(const struct vflipq_src *src, int x, int y,
			int ux, int uy, unsigned int n, struct vflipq_px *out)
{
	const struct vflipq_row row = vflipq_row_at(src, x, y, ux, uy, 2);
	const u8 *p = row.p;
	ptrdiff_t step = row.step;
	unsigned int i;

	for (i = 0; i < n; i++, p += step) {
		u32 v = load_le16(p);
		u32 r = (v >> 11) & 0x1f, g = (v >> 5) & 0x3f, b = v & 0x1f;

		out[i].a = 0xffff;
		out[i].r = (r << 11) | (r << 6) | (r << 1) | (r >> 4);
		out[i].g = (g << 10) | (g << 4) | (g >> 2);
		out[i].b = (b << 11) | (b << 6) | (b << 1) | (b >> 4);
	}
}

/*
 * The hash input (Documentation/vflipq/driver.rst, "CRC") is each pixel at
 * the output depth: at 8 bits and below the four bytes b, g, r and an
 * opaque alpha, one 32-bit word; at 16 bits the composer pixel itself (a,
 * r, g, b as u16 in CPU order), two words.  The words go to the frame hash
 * (vflipq_hash.h) two at a time, a Horner step each: two pixels of 8 bits
 * or less, or one of 16 bits.  Under TCG a step is two host multiplies and
 * a few shifts and adds, where a table-driven CRC costs a table lookup, a
 * softmmu load, per byte.
 */

/* Fill the F16 decode's table.  Called once, before any device exists. */
void vflipq_formats_init(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(half_lut); i++)
		half_lut[i] = half_to_unorm16_calc(i);
}
EXPORT_SYMBOL_IF_KUNIT(vflipq_formats_init);

/* An opaque 8-bit pixel at 16 bits: the bytes ff ff r r g g b b. */
static __always_inline u64 hash_px8(u64 h, u32 r, u32 g, u32 b)
{
	u32 x0 = 0xffff | r * 0x1010000;
	u32 x1 = g * 0x101 | b * 0x1010000;

	return vflipq_hash_step2(h, x0, x1);
}

/* A pixel of 8 bits or less: @w is 0xAARRGGBB, little endian bytes. */
static __always_inline u64 hash_word(u64 h, u32 w)
{
	return vflipq_hash_step1(h, w);
}

/* Two pixels of 8 bits or less, @w0 first: one step. */
static __always_inline u64 hash_pair(u64 h, u32 w0, u32 w1)
{
	return vflipq_hash_step2(h, w0, w1);
}

/* Four pixels of 8 bits or less, @w0 first. */
static __always_inline u64 hash_quad(u64 h, u32 w0, u32 w1, u32 w2, u32 w3)
{
	return vflipq_hash_step2(vflipq_hash_step2(h, w0, w1), w2, w3);
}

/* Red and blue of an 8-bit pixel swapped: BGR to RGB order and back. */
static __always_inline u32 swap_rb(u32 v)
{
	return (v & 0xff00ff00) | (v >> 16 & 0xff) | (v & 0xff) << 16;
}

/* An 8-bit pixel in the hash's byte order (b, g, r), opaque. */
static __always_inline u32 opaque_rgb(u32 v, bool bgr)
{
	if (bgr)
		v = swap_rb(v);
	return v | 0xff000000;
}

static __always_inline u64
hash_row32(u64 h, const struct vflipq_src *src, int x, int y, int ux,
	   int uy, unsigned int n, unsigned int bpc, bool bgr)
{
	const struct vflipq_row row = vflipq_row_at(src, x, y, ux, uy, 4);
	const u8 *p = row.p;
	ptrdiff_t step = row.step;
	unsigned int i;

	/*
	 * At 8 bits the pixel goes to the hash as it is in memory, opaque; four
	 * at a time, in two loads where they are next to each other.
	 */
	if (bpc == 8) {
		for (i = 0; i + 4 <= n; i += 4, p += 4 * step) {
			u32 v0, v1, v2, v3;

			if (step == 4) {
				u64 a = load_le64(p), b = load_le64(p + 8);

				v0 = a;
				v1 = a >> 32;
				v2 = b;
				v3 = b >> 32;
			} else {
				v0 = load_le32(p);
				v1 = load_le32(p + step);
				v2 = load_le32(p + 2 * step);
				v3 = load_le32(p + 3 * step);
			}
			h = hash_quad(h, opaque_rgb(v0, bgr), opaque_rgb(v1, bgr),
				      opaque_rgb(v2, bgr), opaque_rgb(v3, bgr));
		}
		for (; i + 2 <= n; i += 2, p += 2 * step)
			h = hash_pair(h, opaque_rgb(load_le32(p), bgr),
				      opaque_rgb(load_le32(p + step), bgr));
		if (i < n)
			h = hash_word(h, opaque_rgb(load_le32(p), bgr));
		return h;
	}
	for (i = 0; i < n; i++, p += step) {
		u32 v = load_le32(p);
		u32 hi = (v >> 16) & 0xff, lo = v & 0xff;

		h = hash_px8(h, bgr ? lo : hi, (v >> 8) & 0xff, bgr ? hi : lo);
	}
	return h;
}

/* The alpha byte is ignored: only opaque rows take this path. */
static u64 hash_xrgb8888(u64 h, const struct vflipq_src *src, int x, int y,
			 int ux, int uy, unsigned int n, unsigned int bpc)
{
	return hash_row32(h, src, x, y, ux, uy, n, bpc, false);
}

static u64 hash_xbgr8888(u64 h, const struct vflipq_src *src, int x, int y,
			 int ux, int uy, unsigned int n, unsigned int bpc)
{
	return hash_row32(h, src, x, y, ux, uy, n, bpc, true);
}

/*
 * One call for a row's tiles: under TCG every call and return is a jump
 * through QEMU's translation lookup, and the guest kernel's indirect calls
 * are retpolines; a 1080p frame has 30 tiles a row.
 */
static __always_inline void hash_tiles32(const struct vflipq_src *src, int x,
					 int y, int ux, int uy, unsigned int n,
					 unsigned int tw, unsigned int bpc,
					 u64 *out, bool bgr)
{
	while (n) {
		unsigned int k = min(n, tw);

		*out++ = vflipq_hash_final(hash_row32(0, src, x, y, ux, uy, k,
						      bpc, bgr));
		x += (int)k * ux;
		y += (int)k * uy;
		n -= k;
	}
}

static void hash_tiles_xrgb8888(const struct vflipq_src *src, int x, int y,
				int ux, int uy, unsigned int n,
				unsigned int tw, unsigned int bpc, u64 *out)
{
	hash_tiles32(src, x, y, ux, uy, n, tw, bpc, out, false);
}

static void hash_tiles_xbgr8888(const struct vflipq_src *src, int x, int y,
				int ux, int uy, unsigned int n,
				unsigned int tw, unsigned int bpc, u64 *out)
{
	hash_tiles32(src, x, y, ux, uy, n, tw, bpc, out, true);
}

/* 0x..RRGGBB to blue, red and green in the 16-bit lanes at 0, 16, 32. */
static __always_inline u64 rgb8_lanes(u32 v)
{
	return (v & 0xff00ff) | (u64)(v & 0xff00) << 24;
}

/*
 * An 8-bit "Pre-multiplied" pixel @s (0xAARRGGBB) at plane alpha opaque
 * over an opaque 8-bit pixel @d: per channel min(s + round(d * (255 - a) /
 * 255), 255), all three channels in one 64-bit multiply (pixman's
 * rounding, exact for 8-bit factors, in 16-bit lanes).  That is the 16-bit
 * composition rounded to 8 bits: with s, d and a scaled by 257 the 16-bit
 * blend gives 257 * s + round(257 * q), q = d * (255 - a) / 255, and since
 * q lies at least 1/510 from any half-integer, round(round(257 * q) / 257)
 * is round(q) (Documentation/vflipq/driver.rst, "How the composer saves
 * work"; the vflipq_formats KUnit suite checks every s, d, a).  Returns
 * 0x00RRGGBB.
 *
 * A lane's product is at most 255 * 255 + 0x80 and its sum with the
 * product's high byte stays below 2^16, so no lane carries into the next:
 * one multiply and one rounding for the three channels instead of two of
 * each, and one saturation, under TCG where each instruction counts.
 */
static __always_inline u32 blend8_px(u32 s, u32 d)
{
	u32 inv = 255 - (s >> 24);
	u64 t = rgb8_lanes(d) * inv + 0x008000800080ULL;

	t = (t + (t >> 8 & 0x00ff00ff00ffULL)) >> 8 & 0x00ff00ff00ffULL;
	/* Invalid premultiplied input (colour > alpha) saturates. */
	t += rgb8_lanes(s);
	t |= 0x010001000100ULL - (t >> 8 & 0x000100010001ULL);
	return (t & 0xff00ff) | (t >> 24 & 0xff00);
}

/* The next pixel of @fg over @bg, blended, in the hash's byte order. */
static __always_inline u32 blend8_load(struct vflipq_row *fg,
				       struct vflipq_row *bg, bool bgr,
				       bool bg_bgr)
{
	u32 s = load_le32(fg->p), d = load_le32(bg->p);

	fg->p += fg->step;
	bg->p += bg->step;
	if (bgr)
		s = swap_rb(s);
	if (bg_bgr)
		d = swap_rb(d);
	return 0xff000000 | blend8_px(s, d);
}

static __always_inline u64 blend_hash8_row(u64 h, struct vflipq_row fg,
					   struct vflipq_row bg, bool bgr,
					   bool bg_bgr, unsigned int n)
{
	unsigned int i;

	for (i = 0; i + 2 <= n; i += 2) {
		u32 w0 = blend8_load(&fg, &bg, bgr, bg_bgr);

		h = hash_pair(h, w0, blend8_load(&fg, &bg, bgr, bg_bgr));
	}
	if (i < n)
		h = hash_word(h, blend8_load(&fg, &bg, bgr, bg_bgr));
	return h;
}

static u64 blend_hash8_argb8888(u64 h, struct vflipq_row fg,
				struct vflipq_row bg, enum vflipq_rgb8 bg_order,
				unsigned int n)
{
	if (bg_order == VFLIPQ_RGB8_BGR)
		return blend_hash8_row(h, fg, bg, false, true, n);
	return blend_hash8_row(h, fg, bg, false, false, n);
}

static u64 blend_hash8_abgr8888(u64 h, struct vflipq_row fg,
				struct vflipq_row bg, enum vflipq_rgb8 bg_order,
				unsigned int n)
{
	if (bg_order == VFLIPQ_RGB8_BGR)
		return blend_hash8_row(h, fg, bg, true, true, n);
	return blend_hash8_row(h, fg, bg, true, false, n);
}

/* round(v * (2^bpc - 1) / 65535), the documented conversion to bpc bits. */
static inline u32 unorm16_to_bpc(u16 v, unsigned int bpc)
{
	u32 m = (1u << bpc) - 1;

	return (v * m + 32767) / 65535;
}

/* Any depth but 8 and 16, pixel by pixel: only tests ask for those. */
static u64 hash_px_row_any(u64 h, const struct vflipq_px *px,
			   unsigned int n, unsigned int bpc)
{
	unsigned int i;
	u8 b[8];

	for (i = 0; i < n; i++) {
		u32 r = unorm16_to_bpc(px[i].r, bpc);
		u32 g = unorm16_to_bpc(px[i].g, bpc);
		u32 bl = unorm16_to_bpc(px[i].b, bpc);

		if (bpc <= 8) {
			b[0] = bl;
			b[1] = g;
			b[2] = r;
			b[3] = (1u << bpc) - 1;
			h = hash_word(h, load_le32(b));
		} else {
			const u16 c[4] = { (1u << bpc) - 1, r, g, bl };

			memcpy(b, c, sizeof(c));
			h = vflipq_hash_step2(h, load_le32(b), load_le32(b + 4));
		}
	}
	return h;
}

/* An opaque composer pixel rounded to 8 bits, in the hash's byte order. */
static __always_inline u32 px_to_rgb8(const struct vflipq_px *px)
{
	u64 v = vflipq_px_load(px);

	return 0xff000000 | unorm16_to_8(vflipq_px_ch(v, 1)) << 16 |
	       unorm16_to_8(vflipq_px_ch(v, 2)) << 8 |
	       unorm16_to_8(vflipq_px_ch(v, 3));
}

/**
 * vflipq_hash_px_row - feed composer pixels to the frame hash at an output
 *	depth
 * @h: running hash state (below 2^63)
 * @px: opaque composer pixels
 * @n: how many
 * @bpc: output depth, 6 to 16 (16 is the pixels' bytes as they are)
 *
 * Return: the state after the pixels, each rounded to @bpc bits per
 * channel and laid out as driver.rst "CRC" says.
 */
u64 vflipq_hash_px_row(u64 h, const struct vflipq_px *px, unsigned int n,
		       unsigned int bpc)
{
	unsigned int i;

	if (bpc == 16) {
		const u8 *p = (const u8 *)px;

		/* One pixel, two words, a step. */
		for (i = 0; i < n; i++, p += sizeof(*px))
			h = vflipq_hash_step2(h, load_le32(p), load_le32(p + 4));
		return h;
	}
	if (bpc != 8)
		return hash_px_row_any(h, px, n, bpc);
	for (i = 0; i + 4 <= n; i += 4)
		h = hash_quad(h, px_to_rgb8(&px[i]), px_to_rgb8(&px[i + 1]),
			      px_to_rgb8(&px[i + 2]), px_to_rgb8(&px[i + 3]));
	for (; i + 2 <= n; i += 2)
		h = hash_pair(h, px_to_rgb8(&px[i]), px_to_rgb8(&px[i + 1]));
	if (i < n)
		h = hash_word(h, px_to_rgb8(&px[i]));
	return h;
}
EXPORT_SYMBOL_IF_KUNIT(vflipq_hash_px_row);

static inline u16 clamp_yuv(int v)
{
	return unorm8_to_16(clamp(v, 0, 255));
}

/* BT.601 limited range, the default of the DRM COLOR_ENCODING/RANGE props. */
static void read_nv12(const struct vflipq_src *src, int x, int y,
		      int ux, int uy, unsigned int n, struct vflipq_px *out)
{
	unsigned int i;

	for (i = 0; i < n; i++, x += ux, y += uy) {
		const u8 *uv = src->base[1] + (ptrdiff_t)(y / 2) * src->pitch[1] +
			       (ptrdiff_t)(x / 2) * 2;
		int c = src->base[0][(ptrdiff_t)y * src->pitch[0] + x] - 16;
		int d = uv[0] - 128;
		int e = uv[1] - 128;

		out[i].a = 0xffff;
		out[i].r = clamp_yuv((298 * c + 409 * e + 128) >> 8);
		out[i].g = clamp_yuv((298 * c - 100 * d - 208 * e + 128) >> 8);
		out[i].b = clamp_yuv((298 * c + 516 * d + 128) >> 8);
	}
}

static __always_inline void
write_row32(u8 *dst, const struct vflipq_px *in, unsigned int n,
	    u32 (*pack)(const struct vflipq_px *px))
{
	unsigned int i;

	for (i = 0; i < n; i++, dst += 4)
		store_le32(pack(&in[i]), dst);
}

static __always_inline void
write_row64(u8 *dst, const struct vflipq_px *in, unsigned int n,
	    u64 (*pack)(const struct vflipq_px *px))
{
	unsigned int i;

	for (i = 0; i < n; i++, dst += 8)
		store_le64(pack(&in[i]), dst);
}

static inline u32 pack8888(u32 a, u32 hi, u32 mid, u32 lo)
{
	return unorm16_to_8(a) << 24 | unorm16_to_8(hi) << 16 |
	       unorm16_to_8(mid) << 8 | unorm16_to_8(lo);
}

/* 2-bit alpha: round(a * 3 / 65535). */
static inline u32 pack2101010(u32 a, u32 hi, u32 mid, u32 lo)
{
	return ((a + 0x2aaa) / 0x5555) << 30 | unorm16_to_10(hi) << 20 |
	       unorm16_to_10(mid) << 10 | unorm16_to_10(lo);
}

static inline u64 pack16f(u16 a, u16 hi, u16 mid, u16 lo)
{
	return (u64)unorm16_to_half(a) << 48 | (u64)unorm16_to_half(hi) << 32 |
	       (u64)unorm16_to_half(mid) << 16 | unorm16_to_half(lo);
}

/* X formats write opaque padding: what their A twins would. */
static __always_inline u32 pack_xrgb8888(const struct vflipq_px *p)
{
	return pack8888(0xffff, p->r, p->g, p->b);
}

static __always_inline u32 pack_argb8888(const struct vflipq_px *p)
{
	return pack8888(p->a, p->r, p->g, p->b);
}

static __always_inline u32 pack_xbgr8888(const struct vflipq_px *p)
{
	return pack8888(0xffff, p->b, p->g, p->r);
}

static __always_inline u32 pack_abgr8888(const struct vflipq_px *p)
{
	return pack8888(p->a, p->b, p->g, p->r);
}

static __always_inline u32 pack_xrgb2101010(const struct vflipq_px *p)
{
	return pack2101010(0xffff, p->r, p->g, p->b);
}

static __always_inline u32 pack_argb2101010(const struct vflipq_px *p)
{
	return pack2101010(p->a, p->r, p->g, p->b);
}

static __always_inline u32 pack_xbgr2101010(const struct vflipq_px *p)
{
	return pack2101010(0xffff, p->b, p->g, p->r);
}

static __always_inline u32 pack_abgr2101010(const struct vflipq_px *p)
{
	return pack2101010(p->a, p->b, p->g, p->r);
}

static __always_inline u64 pack_xrgb16f(const struct vflipq_px *p)
{
	return pack16f(0xffff, p->r, p->g, p->b);
}

static __always_inline u64 pack_argb16f(const struct vflipq_px *p)
{
	return pack16f(p->a, p->r, p->g, p->b);
}

static __always_inline u64 pack_xbgr16f(const struct vflipq_px *p)
{
	return pack16f(0xffff, p->b, p->g, p->r);
}

static __always_inline u64 pack_abgr16f(const struct vflipq_px *p)
{
	return pack16f(p->a, p->b, p->g, p->r);
}

#define VFLIPQ_WRITER(name, width)					\
static void write_##name(u8 *dst, const struct vflipq_px *in,		\
			 unsigned int n)				\
{									\
	write_row##width(dst, in, n, pack_##name);			\
}

VFLIPQ_WRITER(xrgb8888, 32)
VFLIPQ_WRITER(argb8888, 32)
VFLIPQ_WRITER(xbgr8888, 32)
VFLIPQ_WRITER(abgr8888, 32)
VFLIPQ_WRITER(xrgb2101010, 32)
VFLIPQ_WRITER(argb2101010, 32)
VFLIPQ_WRITER(xbgr2101010, 32)
VFLIPQ_WRITER(abgr2101010, 32)
VFLIPQ_WRITER(xrgb16f, 64)
VFLIPQ_WRITER(argb16f, 64)
VFLIPQ_WRITER(xbgr16f, 64)
VFLIPQ_WRITER(abgr16f, 64)

static void write_rgb565(u8 *dst, const struct vflipq_px *in, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++, dst += 2)
		store_le16(((in[i].r * 31u + 32767) / 65535) << 11 |
			   ((in[i].g * 63u + 32767) / 65535) << 5 |
			   ((in[i].b * 31u + 32767) / 65535), dst);
}

/* @data comes from drm_gem_fb_vmap(): it already points at fb->offsets. */
void vflipq_src_init(struct vflipq_src *src, const struct iosys_map *data,
		     const u32 *pitches, unsigned int num_planes)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(src->base); i++) {
		bool used = i < num_planes;

		src->base[i] = used ? data[i].vaddr : NULL;
		src->pitch[i] = used ? pitches[i] : 0;
	}
}
EXPORT_SYMBOL_IF_KUNIT(vflipq_src_init);

/* Readers and writers; the shortcuts where a format has them. */
static const struct vflipq_format_ops vflipq_ops[] = {
	{ .format = DRM_FORMAT_XRGB8888, .read_row = read_xrgb8888,
	  .write_row = write_xrgb8888, .hash_row = hash_xrgb8888,
	  .hash_tiles = hash_tiles_xrgb8888,
	  .blend_row = blend_xrgb8888, .rgb8 = VFLIPQ_RGB8_RGB },
	{ .format = DRM_FORMAT_ARGB8888, .read_row = read_argb8888,
	  .write_row = write_argb8888, .hash_row = hash_xrgb8888,
	  .hash_tiles = hash_tiles_xrgb8888,
	  .blend_row = blend_argb8888, .blend_hash8_row = blend_hash8_argb8888,
	  .rgb8 = VFLIPQ_RGB8_RGB },
	{ .format = DRM_FORMAT_XBGR8888, .read_row = read_xbgr8888,
	  .write_row = write_xbgr8888, .hash_row = hash_xbgr8888,
	  .hash_tiles = hash_tiles_xbgr8888,
	  .blend_row = blend_xbgr8888, .rgb8 = VFLIPQ_RGB8_BGR },
	{ .format = DRM_FORMAT_ABGR8888, .read_row = read_abgr8888,
	  .write_row = write_abgr8888, .hash_row = hash_xbgr8888,
	  .hash_tiles = hash_tiles_xbgr8888,
	  .blend_row = blend_abgr8888, .blend_hash8_row = blend_hash8_abgr8888,
	  .rgb8 = VFLIPQ_RGB8_BGR },
	{ .format = DRM_FORMAT_XRGB2101010, .read_row = read_xrgb2101010,
	  .write_row = write_xrgb2101010,
	  .blend_row = blend_xrgb2101010 },
	{ .format = DRM_FORMAT_ARGB2101010, .read_row = read_argb2101010,
	  .write_row = write_argb2101010,
	  .blend_row = blend_argb2101010 },
	{ .format = DRM_FORMAT_XBGR2101010, .read_row = read_xbgr2101010,
	  .write_row = write_xbgr2101010,
	  .blend_row = blend_xbgr2101010 },
	{ .format = DRM_FORMAT_ABGR2101010, .read_row = read_abgr2101010,
	  .write_row = write_abgr2101010,
	  .blend_row = blend_abgr2101010 },
	{ .format = DRM_FORMAT_XRGB16161616F, .read_row = read_xrgb16f,
	  .write_row = write_xrgb16f,
	  .blend_row = blend_xrgb16f },
	{ .format = DRM_FORMAT_ARGB16161616F, .read_row = read_argb16f,
	  .write_row = write_argb16f,
	  .blend_row = blend_argb16f },
	{ .format = DRM_FORMAT_XBGR16161616F, .read_row = read_xbgr16f,
	  .write_row = write_xbgr16f,
	  .blend_row = blend_xbgr16f },
	{ .format = DRM_FORMAT_ABGR16161616F, .read_row = read_abgr16f,
	  .write_row = write_abgr16f,
	  .blend_row = blend_abgr16f },
	{ .format = DRM_FORMAT_RGB565, .read_row = read_rgb565,
	  .write_row = write_rgb565 },
	{ .format = DRM_FORMAT_NV12, .read_row = read_nv12, },
};

const struct vflipq_format_ops *vflipq_format_ops(u32 format)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(vflipq_ops); i++)
		if (vflipq_ops[i].format == format)
			return &vflipq_ops[i];
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(vflipq_format_ops);

/*
 * Inverse of drm_rect_rotate() for one pixel: destination pixel (X, Y) of a
 * w x h source maps, before reflection, to
 *   rotate-0:   (X, Y)             rotate-90:  (w - 1 - Y, X)
 *   rotate-180: (w - 1 - X, h - 1 - Y)
 *   rotate-270: (Y, h - 1 - X)
 * and reflect-x/y then mirror that point inside the source rectangle.
 */
void vflipq_xform_init(struct vflipq_xform *xf, int src_x, int src_y,
		       int src_w, int src_h, unsigned int rotation)
{
	int x0 = 0, y0 = 0, xx = 1, xy = 0, yx = 0, yy = 1;

	switch (rotation & DRM_MODE_ROTATE_MASK) {
	case DRM_MODE_ROTATE_90:
		x0 = src_w - 1;
		xx = 0;
		xy = -1;
		yx = 1;
		yy = 0;
		break;
	case DRM_MODE_ROTATE_180:
		x0 = src_w - 1;
		y0 = src_h - 1;
		xx = -1;
		yy = -1;
		break;
	case DRM_MODE_ROTATE_270:
		y0 = src_h - 1;
		xx = 0;
		xy = 1;
		yx = -1;
		yy = 0;
		break;
	default:
		break;
	}
	if (rotation & DRM_MODE_REFLECT_X) {
		x0 = src_w - 1 - x0;
		xx = -xx;
		xy = -xy;
	}
	if (rotation & DRM_MODE_REFLECT_Y) {
		y0 = src_h - 1 - y0;
		yx = -yx;
		yy = -yy;
	}
	xf->ox = src_x + x0;
	xf->oy = src_y + y0;
	xf->ux = xx;
	xf->uy = yx;
	xf->vx = xy;
	xf->vy = yy;
}
EXPORT_SYMBOL_IF_KUNIT(vflipq_xform_init);
