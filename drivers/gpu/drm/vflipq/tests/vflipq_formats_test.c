// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite of the driver's pixel arithmetic: the format readers and
 * writers of ../vflipq_formats.c and the composer's blend
 * (../vflipq_blend.h), compared exactly with the reference of
 * vflipq_test_pxref.h (a copy of userspace/common/vflipq_pxref.h), which
 * states the rounding rule of Documentation/vflipq/driver.rst.  Exhaustive
 * over each channel's values.  References that are floating point in
 * userspace are exact integer arithmetic here (the kernel has no FPU to
 * offer), to the same values.
 */

#include <kunit/test.h>
#include <linux/iosys-map.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <drm/drm_blend.h>
#include <drm/drm_fourcc.h>

#include "../vflipq_blend.h"
#include "../vflipq_formats.h"
#include "../vflipq_hash.h"
#include "vflipq_test.h"
#include "vflipq_test_pxref.h"
#include "vflipq_test_ref.h"

/* The running case, for the helpers. */
static struct kunit *fmt_test;

static const struct vflipq_format_ops *ops(u32 format)
{
	const struct vflipq_format_ops *o = vflipq_format_ops(format);

	KUNIT_ASSERT_NOT_NULL_MSG(fmt_test, o, "format %08x unknown", format);
	return o;
}

/* Decode one pixel of @bytes bytes (little endian @v) of @format. */
static struct vflipq_px read1(u32 format, u64 v, unsigned int bytes)
{
	u8 buf[8];
	struct vflipq_src src = { .base = { buf }, .pitch = { bytes } };
	struct vflipq_px px;
	unsigned int i;

	for (i = 0; i < bytes; i++)
		buf[i] = v >> (8 * i);
	ops(format)->read_row(&src, 0, 0, 1, 0, 1, &px);
	return px;
}

static u64 write1(u32 format, struct vflipq_px px, unsigned int bytes)
{
	u8 buf[8] = { 0 };
	u64 v = 0;
	unsigned int i;

	ops(format)->write_row(buf, &px, 1);
	for (i = 0; i < bytes; i++)
		v |= (u64)buf[i] << (8 * i);
	return v;
}

/* Channel positions of the packed formats: shift of A, R, G, B. */
struct layout {
	u32 format;
	unsigned int bytes, bits, abits;
	int sa, sr, sg, sb;	/* -1: no alpha channel */
};

static const struct layout layouts[] = {
	{ DRM_FORMAT_XRGB8888, 4, 8, 8, -1, 16, 8, 0 },
	{ DRM_FORMAT_ARGB8888, 4, 8, 8, 24, 16, 8, 0 },
	{ DRM_FORMAT_XBGR8888, 4, 8, 8, -1, 0, 8, 16 },
	{ DRM_FORMAT_ABGR8888, 4, 8, 8, 24, 0, 8, 16 },
	{ DRM_FORMAT_XRGB2101010, 4, 10, 2, -1, 20, 10, 0 },
	{ DRM_FORMAT_ARGB2101010, 4, 10, 2, 30, 20, 10, 0 },
	{ DRM_FORMAT_XBGR2101010, 4, 10, 2, -1, 0, 10, 20 },
	{ DRM_FORMAT_ABGR2101010, 4, 10, 2, 30, 0, 10, 20 },
	{ DRM_FORMAT_XRGB16161616F, 8, 16, 16, -1, 32, 16, 0 },
	{ DRM_FORMAT_ARGB16161616F, 8, 16, 16, 48, 32, 16, 0 },
	{ DRM_FORMAT_XBGR16161616F, 8, 16, 16, -1, 0, 16, 32 },
	{ DRM_FORMAT_ABGR16161616F, 8, 16, 16, 48, 0, 16, 32 },
};

static bool is_f16(const struct layout *l)
{
	return l->bits == 16;
}

/*
 * The value of the finite positive half @h times 2^24, exactly: every half
 * is a multiple of 2^-24.
 */
static u64 half_x2p24(u16 h)
{
	unsigned int exp = (h >> 10) & 0x1f, man = h & 0x3ff;

	return exp ? (u64)(1024 + man) << (exp - 1) : man;
}

/*
 * driver.rst: clamp to [0, 1] (NaN to 0), then round to nearest, ties up:
 * floor(v * 65535 + 1/2) for v = x / 2^24.
 */
static u16 ref_half_to16(u16 h)
{
	u64 x;

	if (h & 0x8000)				/* negative, -0, -NaN */
		return 0;
	if (((h >> 10) & 0x1f) == 0x1f)		/* NaN, +inf */
		return h & 0x3ff ? 0 : 0xffff;
	x = half_x2p24(h);
	if (x >= 1ULL << 24)
		return 0xffff;
	return (2 * x * 65535 + (1ULL << 24)) >> 25;
}

/*
 * Nearest half to v / 65535 (no ties: see pxref's comment on 65535).  The
 * halves 0 .. 0x3c00 (1.0) are increasing: bisect for the first >= it,
 * comparing x / 2^24 with v / 65535 as x * 65535 with v * 2^24.
 */
static u16 ref_16_to_half(u16 v)
{
	u64 x = (u64)v << 24;
	unsigned int lo = 0, hi = 0x3c00;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (half_x2p24(mid) * 65535 < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && 2 * x < (half_x2p24(lo - 1) + half_x2p24(lo)) * 65535)
		lo--;
	return lo;
}

static u16 ref_to16(const struct layout *l, u32 v, unsigned int bits)
{
	if (is_f16(l))
		return ref_half_to16(v);
	if (bits == 8)
		return pxref_8to16(v);
	if (bits == 10)
		return pxref_10to16(v);
	return (v & 3) * 0x5555;	/* 2-bit alpha, exact */
}

/* One case per layout. */
static void layout_desc(const struct layout *l, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%p4cc", &l->format);
}

KUNIT_ARRAY_PARAM(layouts, layouts, layout_desc);

static void vflipq_formats_test_read_packed(struct kunit *test)
{
	const struct layout *l = test->param_value;
	unsigned int n = 1u << l->bits, na = 1u << l->abits;
	u64 mask = l->bits == 16 ? 0xffff : n - 1;
	unsigned int v;

	for (v = 0; v < n; v++) {
		u64 other = is_f16(l) ? 0x3c00 : mask; /* 1.0 */
		u64 in;
		struct vflipq_px px;

		/* v in R, the others at 1.0 */
		in = (u64)v << l->sr | other << l->sg | other << l->sb;
		px = read1(l->format, in, l->bytes);
		VFLIPQ_EXPECT_EQ(test, px.r, ref_to16(l, v, l->bits));
		VFLIPQ_EXPECT_EQ(test, px.g, 0xffff);
		VFLIPQ_EXPECT_EQ(test, px.b, 0xffff);
		/* v in G, then B */
		px = read1(l->format, (u64)v << l->sg, l->bytes);
		VFLIPQ_EXPECT_EQ(test, px.g, ref_to16(l, v, l->bits));
		VFLIPQ_EXPECT_EQ(test, px.r, 0);
		px = read1(l->format, (u64)v << l->sb, l->bytes);
		VFLIPQ_EXPECT_EQ(test, px.b, ref_to16(l, v, l->bits));
		if (l->sa < 0)
			VFLIPQ_EXPECT_EQ(test, px.a, 0xffff);	/* X: opaque */
	}
	if (l->sa < 0)
		return;
	for (v = 0; v < na; v++) {
		struct vflipq_px px = read1(l->format, (u64)v << l->sa,
					    l->bytes);

		VFLIPQ_EXPECT_EQ(test, px.a, ref_to16(l, v, l->abits));
	}
}

static void vflipq_formats_test_read_rgb565(struct kunit *test)
{
	unsigned int v;

	for (v = 0; v < 0x10000; v++) {
		struct vflipq_px px = read1(DRM_FORMAT_RGB565, v, 2);

		VFLIPQ_EXPECT_EQ(test, px.r, pxref_rep16(v >> 11, 5));
		VFLIPQ_EXPECT_EQ(test, px.g, pxref_rep16(v >> 5, 6));
		VFLIPQ_EXPECT_EQ(test, px.b, pxref_rep16(v, 5));
		VFLIPQ_EXPECT_EQ(test, px.a, 0xffff);
	}
}

/*
 * The F16 decode as it was before its table covered every half up to
 * +inf (a table below 1.0, branches for the rest), kept as a second
 * reference: vflipq_formats.c's half_to_unorm16_calc() and its clamps.
 */
static u16 old_half_to16(u16 h)
{
	unsigned int exp = (h >> 10) & 0x1f, man = h & 0x3ff, shift;
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

/* Every half in every channel of ARGB16161616F: the old decode's bits. */
static void vflipq_formats_test_read_f16_old(struct kunit *test)
{
	unsigned int v;

	for (v = 0; v < 0x10000; v++) {
		u16 w = v * 0x9e37 + 0x79b9;	/* another half in each channel */
		struct vflipq_px px = read1(DRM_FORMAT_ARGB16161616F,
					    (u64)v << 48 | (u64)w << 32 |
					    (u64)(u16)~v << 16 | (u16)~w, 8);

		VFLIPQ_EXPECT_EQ(test, px.a, old_half_to16(v));
		VFLIPQ_EXPECT_EQ(test, px.r, old_half_to16(w));
		VFLIPQ_EXPECT_EQ(test, px.g, old_half_to16(~v));
		VFLIPQ_EXPECT_EQ(test, px.b, old_half_to16(~w));
	}
}

static void vflipq_formats_test_write_packed(struct kunit *test)
{
	static u16 half_of[0x10000];
	static bool half_of_done;
	const struct layout *l = test->param_value;
	u64 mask = l->bits == 16 ? 0xffff : (1u << l->bits) - 1;
	u64 amask = l->abits == 16 ? 0xffff : (1u << l->abits) - 1;
	unsigned int v;

	for (v = 0; v < 0x10000 && !half_of_done; v++)
		half_of[v] = ref_16_to_half(v);
	half_of_done = true;
	/* vflipq writes back XRGB8888, ARGB8888, ABGR8888 and
	 * XRGB2101010; every packed format has a writer.
	 */
	if (!ops(l->format)->write_row)
		return;
	for (v = 0; v < 0x10000; v++) {
		struct vflipq_px px = { .a = v, .r = v, .g = 0, .b = 0xffff };
		u64 out = write1(l->format, px, l->bytes);
		u64 want = is_f16(l) ? half_of[v] : pxref_from16(v, l->bits);
		u64 one = is_f16(l) ? 0x3c00 : mask;

		VFLIPQ_EXPECT_EQ(test, out >> l->sr & mask, want);
		VFLIPQ_EXPECT_EQ(test, out >> l->sg & mask, 0);
		VFLIPQ_EXPECT_EQ(test, out >> l->sb & mask, one);
		if (l->sa >= 0)
			VFLIPQ_EXPECT_EQ(test, out >> l->sa & amask,
					 is_f16(l) ? half_of[v] :
					 pxref_from16(v, l->abits));
		else	/* X formats write opaque padding */
			VFLIPQ_EXPECT_EQ(test,
					 out >> (l->bytes * 8 - l->abits) & amask,
					 is_f16(l) ? 0x3c00 : amask);
	}
}

static void vflipq_formats_test_write_rgb565(struct kunit *test)
{
	unsigned int v;

	for (v = 0; v < 0x10000; v++) {
		struct vflipq_px px = { .a = 0xffff, .r = v, .g = v,
					.b = 0xffff - v };
		u64 out = write1(DRM_FORMAT_RGB565, px, 2);

		VFLIPQ_EXPECT_EQ(test, out >> 11, pxref_from16(v, 5));
		VFLIPQ_EXPECT_EQ(test, out >> 5 & 0x3f, pxref_from16(v, 6));
		VFLIPQ_EXPECT_EQ(test, out & 0x1f, pxref_from16(0xffff - v, 5));
	}
}

/* 8- and 10-bit values survive the trip through the composer exactly. */
static void vflipq_formats_test_round_trip(struct kunit *test)
{
	unsigned int v;

	for (v = 0; v < 256; v++) {
		u64 in = 0xff000000u | v << 16 | (255 - v) << 8 | v;

		VFLIPQ_EXPECT_EQ(test,
				 write1(DRM_FORMAT_ARGB8888,
					read1(DRM_FORMAT_XRGB8888, in, 4), 4),
				 in);
		VFLIPQ_EXPECT_EQ(test,
				 write1(DRM_FORMAT_ABGR8888,
					read1(DRM_FORMAT_ABGR8888, in, 4), 4),
				 in);
	}
	for (v = 0; v < 1024; v++) {
		u64 in = 3u << 30 | v << 20 | (1023 - v) << 10 | v;

		VFLIPQ_EXPECT_EQ(test,
				 write1(DRM_FORMAT_XRGB2101010,
					read1(DRM_FORMAT_XRGB2101010, in, 4), 4),
				 in);
	}
}

/* BT.601 limited range, driver.rst: integer coefficients / 256, rounded. */
static void vflipq_formats_test_read_nv12(struct kunit *test)
{
	u8 y[4], uv[2];
	struct vflipq_src src = { .base = { y, uv }, .pitch = { 2, 2 } };
	int Y, U, V;

	for (Y = 0; Y < 256; Y += 5)
		for (U = 0; U < 256; U += 3)
			for (V = 0; V < 256; V += 7) {
				struct vflipq_px px[2];
				int c = Y - 16, d = U - 128, e = V - 128;
				int r = (298 * c + 409 * e + 128) >> 8;
				int g = (298 * c - 100 * d - 208 * e + 128) >> 8;
				int b = (298 * c + 516 * d + 128) >> 8;

				memset(y, Y, sizeof(y));
				uv[0] = U;
				uv[1] = V;
				ops(DRM_FORMAT_NV12)->read_row(&src, 0, 0, 1, 0,
							       2, px);
				VFLIPQ_EXPECT_EQ(test, px[1].r, pxref_8to16(clamp(r, 0, 255)));
				VFLIPQ_EXPECT_EQ(test, px[1].g, pxref_8to16(clamp(g, 0, 255)));
				VFLIPQ_EXPECT_EQ(test, px[1].b, pxref_8to16(clamp(b, 0, 255)));
				VFLIPQ_EXPECT_EQ(test, px[1].a, 0xffff);
			}
}

/*
 * The cases draw from one sequence, in a fixed order: reset by the suite's
 * init.
 */
static u32 rng;

static u16 rnd16(void)
{
	rng = rng * 1103515245 + 12345;
	return rng >> 8;
}

/* Two of them, the first in the top half (left to right, as gcc does it). */
static u32 rnd32(void)
{
	u32 hi = rnd16();

	return hi << 16 | rnd16();
}

/* A running hash state, as the composer holds them: below 2^62. */
static u64 rnd_state(void)
{
	u64 v = (u64)rnd32() << 32;

	v |= rnd32();
	return v >> 2;
}

static const u16 edges[] = { 0, 1, 2, 127, 128, 255, 256, 257, 32767, 32768,
			     65278, 65279, 65534, 65535 };

static u16 pick(int i)
{
	return i < (int)ARRAY_SIZE(edges) ? edges[i] : rnd16();
}

/*
 * The 8-bit decoders as they were before one multiply by 257 took all
 * four channels: a multiply per channel, kept as a second reference.
 */
struct fmt8888 {
	u32 format;
	int sa, sr, sb;	/* alpha's shift, -1 for X; red's, blue's */
};

static const struct fmt8888 fmts8888[] = {
	{ DRM_FORMAT_XRGB8888, -1, 16, 0 },
	{ DRM_FORMAT_ARGB8888, 24, 16, 0 },
	{ DRM_FORMAT_XBGR8888, -1, 0, 16 },
	{ DRM_FORMAT_ABGR8888, 24, 0, 16 },
};

static void fmt8888_desc(const struct fmt8888 *f, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%p4cc", &f->format);
}

KUNIT_ARRAY_PARAM(fmts8888, fmts8888, fmt8888_desc);

static void vflipq_formats_test_read_8888_old(struct kunit *test)
{
	const struct fmt8888 *f = test->param_value;
	unsigned int i;

	for (i = 0; i < 200000; i++) {
		u32 v = rnd32();
		struct vflipq_px px = read1(f->format, v, 4);
		u32 a = f->sa < 0 ? 0xff : v >> f->sa & 0xff;

		VFLIPQ_EXPECT_EQ(test, px.a, a * 257);
		VFLIPQ_EXPECT_EQ(test, px.r, (v >> f->sr & 0xff) * 257);
		VFLIPQ_EXPECT_EQ(test, px.g, (v >> 8 & 0xff) * 257);
		VFLIPQ_EXPECT_EQ(test, px.b, (v >> f->sb & 0xff) * 257);
	}
}

/* The 10-bit widening as it was, a channel at a time: a second reference. */
static u16 old_unorm10_to_16(u32 v)
{
	v &= 0x3ff;
	return (v << 6) | (v >> 4);
}

struct fmt2101010 {
	u32 format;
	bool alpha, bgr;
};

static const struct fmt2101010 fmts2101010[] = {
	{ DRM_FORMAT_XRGB2101010, false, false },
	{ DRM_FORMAT_ARGB2101010, true, false },
	{ DRM_FORMAT_XBGR2101010, false, true },
	{ DRM_FORMAT_ABGR2101010, true, true },
};

static void fmt2101010_desc(const struct fmt2101010 *f, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%p4cc", &f->format);
}

KUNIT_ARRAY_PARAM(fmts2101010, fmts2101010, fmt2101010_desc);

static void vflipq_formats_test_read_2101010_old(struct kunit *test)
{
	const struct fmt2101010 *f = test->param_value;
	unsigned int i;

	for (i = 0; i < 200000; i++) {
		u32 v = rnd32();
		struct vflipq_px px = read1(f->format, v, 4);
		u32 hi = old_unorm10_to_16(v >> 20);
		u32 lo = old_unorm10_to_16(v);

		VFLIPQ_EXPECT_EQ(test, px.a, f->alpha ? (v >> 30) * 0x5555 : 0xffff);
		VFLIPQ_EXPECT_EQ(test, px.r, f->bgr ? lo : hi);
		VFLIPQ_EXPECT_EQ(test, px.g, old_unorm10_to_16(v >> 10));
		VFLIPQ_EXPECT_EQ(test, px.b, f->bgr ? hi : lo);
	}
}

/* The blend is the reference, exactly, in every mode. */
struct blend_mode {
	u16 drm;
	enum pxref_blend ref;
	const char *name;
};

static const struct blend_mode blend_modes[] = {
	{ DRM_MODE_BLEND_PREMULTI, PXREF_PREMULTI, "Pre-multiplied" },
	{ DRM_MODE_BLEND_COVERAGE, PXREF_COVERAGE, "Coverage" },
	{ DRM_MODE_BLEND_PIXEL_NONE, PXREF_NONE, "None" },
};

static void blend_mode_desc(const struct blend_mode *m, char *desc)
{
	strscpy(desc, m->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(blend_modes, blend_modes, blend_mode_desc);

static void vflipq_formats_test_blend_exact(struct kunit *test)
{
	const struct blend_mode *m = test->param_value;
	int i, j;

	for (i = 0; i < 2000; i++)
		for (j = 0; j < 100; j++) {
			struct vflipq_px d = { 0xffff, pick(i), rnd16(), pick(j) };
			struct vflipq_px s = { pick(j), rnd16(), pick(i), rnd16() };
			struct vflipq_px bg = d;
			u16 pa = j & 1 ? pick(j) : rnd16();

			vflipq_blend_px(&d, &s, pa, m->drm);
			VFLIPQ_EXPECT_EQ(test, d.r,
					 pxref_blend(bg.r, s.r, s.a, pa, m->ref));
			VFLIPQ_EXPECT_EQ(test, d.g,
					 pxref_blend(bg.g, s.g, s.a, pa, m->ref));
			VFLIPQ_EXPECT_EQ(test, d.b,
					 pxref_blend(bg.b, s.b, s.a, pa, m->ref));
		}
}

/* The shortcut for plane alpha 0xffff is the reference too, exactly. */
static void vflipq_formats_test_blend_premulti_opaque(struct kunit *test)
{
	int i, j;

	for (i = 0; i < 2000; i++)
		for (j = 0; j < 200; j++) {
			struct vflipq_px d = { 0xffff, pick(i), rnd16(),
					       pick(j) };
			struct vflipq_px s = { pick(j), rnd16(), pick(i),
					       rnd16() };
			struct vflipq_px bg = d;

			vflipq_blend_premulti_opaque_px(&d, &s);
			VFLIPQ_EXPECT_EQ(test, d.a, 0xffff);
			VFLIPQ_EXPECT_EQ(test, d.r,
					 pxref_blend(bg.r, s.r, s.a, 0xffff,
						     PXREF_PREMULTI));
			VFLIPQ_EXPECT_EQ(test, d.g,
					 pxref_blend(bg.g, s.g, s.a, 0xffff,
						     PXREF_PREMULTI));
			VFLIPQ_EXPECT_EQ(test, d.b,
					 pxref_blend(bg.b, s.b, s.a, 0xffff,
						     PXREF_PREMULTI));
		}
}

/*
 * blend_row() is read_row() followed by vflipq_blend_px() at the plane
 * alpha and in the mode given (0xffff "Pre-multiplied" being its
 * three-product path), pixel for pixel, forwards and reversed; every 8-,
 * 10- and 16-bit RGB format has one.
 */
static void vflipq_formats_test_blend_row(struct kunit *test)
{
	enum { N = 300 };
	static const u32 alphas[] = { 0, 1, 0x4000, 0x8000, 0xfffe, 0xffff };
	static const u16 modes[] = { DRM_MODE_BLEND_PIXEL_NONE,
				     DRM_MODE_BLEND_COVERAGE,
				     DRM_MODE_BLEND_PREMULTI };
	static u8 fb[N * 8];
	struct vflipq_src src = { .base = { fb }, .pitch = { N * 8 } };
	static struct vflipq_px bg[N], want[N], got[N], px[N];
	unsigned int f, i, a, m, with = 0;

	for (f = 0; f < vflipq_num_overlay_formats; f++) {
		const struct vflipq_format_ops *o =
			ops(vflipq_overlay_formats[f]);

		VFLIPQ_EXPECT_EQ(test, !!o->blend_row,
				 o->format == DRM_FORMAT_ARGB8888 ||
				 o->format == DRM_FORMAT_ABGR8888 ||
				 o->format == DRM_FORMAT_ARGB2101010 ||
				 o->format == DRM_FORMAT_ABGR2101010 ||
				 o->format == DRM_FORMAT_ARGB16161616F ||
				 o->format == DRM_FORMAT_ABGR16161616F ||
				 o->format == DRM_FORMAT_XRGB8888 ||
				 o->format == DRM_FORMAT_XBGR8888 ||
				 o->format == DRM_FORMAT_XRGB2101010 ||
				 o->format == DRM_FORMAT_XBGR2101010 ||
				 o->format == DRM_FORMAT_XRGB16161616F ||
				 o->format == DRM_FORMAT_XBGR16161616F);
		if (!o->blend_row)
			continue;
		with++;
		for (i = 0; i < sizeof(fb); i++)
			fb[i] = rnd16();
		for (i = 0; i < 16; i++)	/* edge alphas: 0 and opaque */
			fb[i] = i & 8 ? 0xff : 0;
		for (i = 0; i < N; i++)
			bg[i] = (struct vflipq_px){ 0xffff, pick(i), rnd16(),
						    pick(N - i) };
		for (a = 0; a < ARRAY_SIZE(alphas); a++)
			for (m = 0; m < ARRAY_SIZE(modes); m++) {
				int dir;

				for (dir = 0; dir < 2; dir++) {
					int x = dir ? N - 1 : 3, ux = dir ? -1 : 1;
					unsigned int n = dir ? N / 2 : N - 3;

					o->read_row(&src, x, 0, ux, 0, n, px);
					memcpy(want, bg, sizeof(bg));
					for (i = 0; i < n; i++)
						vflipq_blend_px(&want[i], &px[i],
								alphas[a],
								modes[m]);
					memcpy(got, bg, sizeof(bg));
					o->blend_row(&src, x, 0, ux, 0, n, got,
						     alphas[a], modes[m]);
					for (i = 0; i < N; i++)
						VFLIPQ_EXPECT(test,
							      !memcmp(&got[i], &want[i],
								      sizeof(got[i])));
				}
			}
	}
	VFLIPQ_EXPECT_EQ(test, with, 12);
}

/*
 * blend_hash8_row() gives the hash that the 16-bit path gives for the same
 * pixels: the base read (its alpha ignored: an opaque base), the plane
 * blended onto it by blend_row() ("Pre-multiplied", plane alpha 0xffff),
 * the result rounded to 8 bits by vflipq_hash_px_row().  For ARGB8888 over
 * XRGB8888 every (alpha, colour, background) triple of every channel, in
 * rows of 256 backgrounds; for every other pair of orders every 15th
 * alpha and colour; and along reversed and column walks.  Exactly ARGB8888
 * and ABGR8888 have the shortcut; exactly the four 8-bit RGB formats can be
 * its base.
 */
static void vflipq_formats_test_blend_hash8_row(struct kunit *test)
{
	static const u32 fgs[] = { DRM_FORMAT_ARGB8888, DRM_FORMAT_ABGR8888 };
	static const u32 bgs[] = { DRM_FORMAT_XRGB8888, DRM_FORMAT_ARGB8888,
				   DRM_FORMAT_XBGR8888, DRM_FORMAT_ABGR8888 };
	static u8 fgfb[256 * 4], bgfb[256 * 4];
	struct vflipq_src fsrc = { .base = { fgfb }, .pitch = { 16 * 4 } };
	struct vflipq_src bsrc = { .base = { bgfb }, .pitch = { 16 * 4 } };
	static struct vflipq_px px[256];
	struct vflipq_row fr, br;
	unsigned int f, b, a, c, i, n, with = 0;

	for (f = 0; f < vflipq_num_overlay_formats; f++) {
		const struct vflipq_format_ops *o =
			ops(vflipq_overlay_formats[f]);
		bool eight = o->format == DRM_FORMAT_XRGB8888 ||
			     o->format == DRM_FORMAT_ARGB8888 ||
			     o->format == DRM_FORMAT_XBGR8888 ||
			     o->format == DRM_FORMAT_ABGR8888;
		bool bgr = o->format == DRM_FORMAT_XBGR8888 ||
			   o->format == DRM_FORMAT_ABGR8888;

		VFLIPQ_EXPECT_EQ(test, !!o->blend_hash8_row,
				 o->format == DRM_FORMAT_ARGB8888 ||
				 o->format == DRM_FORMAT_ABGR8888);
		VFLIPQ_EXPECT_EQ(test, o->rgb8, !eight ? VFLIPQ_RGB8_NONE :
				 bgr ? VFLIPQ_RGB8_BGR : VFLIPQ_RGB8_RGB);
		with += !!o->blend_hash8_row;
	}
	VFLIPQ_EXPECT_EQ(test, with, 2);

	for (f = 0; f < ARRAY_SIZE(fgs); f++)
		for (b = 0; b < ARRAY_SIZE(bgs); b++) {
			const struct vflipq_format_ops *fo = ops(fgs[f]);
			const struct vflipq_format_ops *bo = ops(bgs[b]);
			unsigned int step = f || b ? 15 : 1;

			/* Background d in one channel, bijections of it in the others. */
			for (i = 0; i < 256; i++) {
				u32 v = (u32)rnd16() << 24 | i << 16 |
					(255 - i) << 8 | ((i * 7 + 3) & 0xff);

				memcpy(&bgfb[i * 4], &v, 4);
			}
			for (a = 0; a < 256; a += step)
				for (c = 0; c < 256; c += step) {
					u32 v = a << 24 | c << 16 |
						((c * 3 + 1) & 0xff) << 8 |
						(255 - c);
					u64 seed = rnd_state();

					for (i = 0; i < 256; i++)
						memcpy(&fgfb[i * 4], &v, 4);
					bo->read_row(&bsrc, 0, 0, 1, 0, 256, px);
					for (i = 0; i < 256; i++)
						px[i].a = 0xffff;
					fo->blend_row(&fsrc, 0, 0, 1, 0, 256, px,
						      0xffff,
						      DRM_MODE_BLEND_PREMULTI);
					fr = vflipq_row_at(&fsrc, 0, 0, 1, 0, 4);
					br = vflipq_row_at(&bsrc, 0, 0, 1, 0, 4);
					VFLIPQ_EXPECT_EQ(test,
							 fo->blend_hash8_row(seed, fr, br,
									     bo->rgb8, 256),
							 vflipq_hash_px_row(seed, px, 256, 8));
				}
			/* Random pixels, a reversed walk over a column walk. */
			for (i = 0; i < sizeof(fgfb); i++) {
				fgfb[i] = rnd16();
				bgfb[i] = rnd16();
			}
			for (i = 0; i < 16; i++)
				fgfb[i * 4 + 3] = i & 1 ? 0xff : 0;
			/* every length: pixels go to the hash up to four at a time */
			for (n = 1; n <= 16; n++) {
				bo->read_row(&bsrc, 3, 15, 0, -1, n, px);
				for (i = 0; i < n; i++)
					px[i].a = 0xffff;
				fo->blend_row(&fsrc, 15, 2, -1, 0, n, px,
					      0xffff, DRM_MODE_BLEND_PREMULTI);
				fr = vflipq_row_at(&fsrc, 15, 2, -1, 0, 4);
				br = vflipq_row_at(&bsrc, 3, 15, 0, -1, 4);
				VFLIPQ_EXPECT_EQ(test,
						 fo->blend_hash8_row(7, fr, br, bo->rgb8, n),
						 vflipq_hash_px_row(7, px, n, 8));
			}
		}
}

/*
 * The 8-bit blend of blend_hash8_row() as it was before it took the three
 * channels in 16-bit lanes of one word (red and blue in one 32-bit
 * multiply, green in another), kept as a second reference.  Returns the
 * hash word: 0xffRRGGBB.
 */
static u32 old_blend8_px(u32 s, u32 d)
{
	u32 inv = 255 - (s >> 24);
	u32 rb = (d & 0xff00ff) * inv + 0x800080;
	u32 g = (d >> 8 & 0xff) * inv + 0x80;

	rb = (rb + (rb >> 8 & 0xff00ff)) >> 8 & 0xff00ff;
	g = (g + (g >> 8)) >> 8;
	rb += s & 0xff00ff;
	rb |= 0x1000100 - (rb >> 8 & 0x10001);
	g += s >> 8 & 0xff;
	g |= 0x100 - (g >> 8);
	return 0xff000000 | (rb & 0xff00ff) | (g & 0xff) << 8;
}

static u32 swap_rb8(u32 v)
{
	return (v & 0xff00ff00) | (v >> 16 & 0xff) | (v & 0xff) << 16;
}

/*
 * blend_hash8_row() is the old arithmetic's hash, bit for bit, on random
 * rows of any content (invalid premultiplied pixels included), every pair
 * of orders, every length up to 33.
 */
static void vflipq_formats_test_blend_hash8_old(struct kunit *test)
{
	static const u32 fgs[] = { DRM_FORMAT_ARGB8888, DRM_FORMAT_ABGR8888 };
	enum { N = 33 };
	u32 fg[N], bg[N], w[N + 1];
	struct vflipq_row fr, br;
	unsigned int f, o, n, i, r;

	for (r = 0; r < 3000; r++)
		for (f = 0; f < ARRAY_SIZE(fgs); f++)
			for (o = 0; o < 2; o++) {
				enum vflipq_rgb8 order = o ? VFLIPQ_RGB8_BGR :
							     VFLIPQ_RGB8_RGB;
				u64 h = rnd_state() >> 2, want = h;

				n = 1 + r % N;
				for (i = 0; i < n; i++) {
					fg[i] = rnd32();
					bg[i] = rnd32();
					if (i % 5 == 1)
						fg[i] |= 0xff000000;
					if (i % 7 == 2)
						fg[i] &= 0x00ffffff;
					w[i] = old_blend8_px(f ? swap_rb8(fg[i]) :
							     fg[i],
							     o ? swap_rb8(bg[i]) :
							     bg[i]);
				}
				for (i = 0; i + 2 <= n; i += 2)
					want = vflipq_hash_step2(want, w[i],
								 w[i + 1]);
				if (i < n)
					want = vflipq_hash_step1(want, w[i]);
				fr = (struct vflipq_row){ (u8 *)fg, 4 };
				br = (struct vflipq_row){ (u8 *)bg, 4 };
				VFLIPQ_EXPECT_EQ(test,
						 ops(fgs[f])->blend_hash8_row(h, fr, br,
									      order, n),
						 want);
			}
}

/*
 * The frame hash of @n opaque pixels at depth @bpc after state @h, as
 * driver.rst says: canonical, by plain modular arithmetic.
 */
static u64 ref_hash_px(u64 h, const struct vflipq_px *px, unsigned int n,
		       unsigned int bpc)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		const u16 c[4] = { px[i].a, px[i].r, px[i].g, px[i].b };
		u8 b[8];

		h = ref_hash(h, b, pxref_crc_bytes(c, bpc, b));
	}
	return h % REF_HASH_P;
}

/*
 * hash_row() is the hash of what read_row() gives with the alpha made
 * opaque (the composer's opaque path) at 8 and 16 bits, along every walk a
 * rotation makes, from any running state; exactly the 8-bit RGB formats
 * have one, and hash_tiles(), the same cut into tiles.  At 16 bits that is
 * the hash of the composer pixels' bytes themselves.
 */
static void vflipq_formats_test_hash_row(struct kunit *test)
{
	enum { W = 37, H = 23 };
	static const int walks[][6] = {	/* x, y, ux, uy, n */
		{ 0, 0, 1, 0, W }, { 5, 3, 1, 0, 20 }, { W - 1, 7, -1, 0, W },
		{ 4, 0, 0, 1, H }, { 9, H - 1, 0, -1, H }, { 2, 2, 1, 0, 1 },
	};
	static const unsigned int depths[] = { 8, 16 };
	static u8 fb[H][W * 4];
	struct vflipq_src src = { .base = { &fb[0][0] }, .pitch = { W * 4 } };
	struct vflipq_px px[W + H];
	unsigned int f, x, y, k, d;
	u64 h;

	VFLIPQ_EXPECT(test, vflipq_hash_row_ok(8) && vflipq_hash_row_ok(16));
	for (d = 6; d <= 16; d++)
		VFLIPQ_EXPECT_EQ(test, vflipq_hash_row_ok(d), d == 8 || d == 16);
	for (y = 0; y < H; y++)
		for (x = 0; x < W * 4; x++)
			fb[y][x] = rnd16();
	for (f = 0; f < vflipq_num_plane_formats; f++) {
		const struct vflipq_format_ops *o =
			ops(vflipq_plane_formats[f]);
		bool eight = o->format == DRM_FORMAT_XRGB8888 ||
			     o->format == DRM_FORMAT_ARGB8888 ||
			     o->format == DRM_FORMAT_XBGR8888 ||
			     o->format == DRM_FORMAT_ABGR8888;

		VFLIPQ_EXPECT_EQ(test, !!o->hash_row, eight);
		VFLIPQ_EXPECT_EQ(test, !!o->hash_tiles, eight);
		if (!o->hash_row)
			continue;
		/* hash_tiles(): hash_row() from 0 piece by piece, on each walk. */
		for (k = 0; k < ARRAY_SIZE(walks) * ARRAY_SIZE(depths); k++) {
			static const unsigned int tws[] = { 1, 3, 4, 5, 16, 64 };
			const int *wk = walks[k / ARRAY_SIZE(depths)];
			unsigned int bpc = depths[k % ARRAY_SIZE(depths)];
			u64 got[W + H];

			for (unsigned int j = 0; j < ARRAY_SIZE(tws); j++) {
				unsigned int tw = tws[j], n = wk[4], i;

				o->hash_tiles(&src, wk[0], wk[1], wk[2], wk[3], n,
					      tw, bpc, got);
				for (i = 0; i * tw < n; i++) {
					int x = wk[0] + (int)(i * tw) * wk[2];
					int y = wk[1] + (int)(i * tw) * wk[3];
					unsigned int len = n - i * tw < tw ?
							   n - i * tw : tw;
					u64 h = o->hash_row(0, &src, x, y, wk[2],
							    wk[3], len, bpc);

					VFLIPQ_EXPECT_EQ(test, got[i],
							 vflipq_hash_final(h));
				}
			}
		}
		for (k = 0; k < ARRAY_SIZE(walks) * ARRAY_SIZE(depths); k++) {
			const int *wk = walks[k / ARRAY_SIZE(depths)];
			unsigned int bpc = depths[k % ARRAY_SIZE(depths)];
			u64 seed = rnd_state();
			unsigned int i;

			o->read_row(&src, wk[0], wk[1], wk[2], wk[3], wk[4],
				    px);
			for (i = 0; i < (unsigned int)wk[4]; i++)
				px[i].a = 0xffff;
			h = o->hash_row(seed, &src, wk[0], wk[1], wk[2], wk[3],
					wk[4], bpc);
			VFLIPQ_EXPECT_EQ(test, vflipq_hash_final(h),
					 ref_hash_px(seed, px, wk[4], bpc));
			if (bpc == 16)
				VFLIPQ_EXPECT_EQ(test,
						 ref_hash_px(seed, px, wk[4], bpc),
						 ref_hash(seed, (const u8 *)px,
							  wk[4] * sizeof(*px)));
		}
		/*
		 * Every length at 8 bits, along a row and down a column:
		 * pixels go to the hash four, two and one at a time.
		 */
		for (k = 1; k <= 2 * H; k++) {
			const int *wk = walks[k & 1 ? 0 : 3];
			unsigned int n = (k + 1) / 2;
			u64 seed = rnd_state();
			unsigned int i;

			o->read_row(&src, wk[0], wk[1], wk[2], wk[3], n, px);
			for (i = 0; i < n; i++)
				px[i].a = 0xffff;
			h = o->hash_row(seed, &src, wk[0], wk[1], wk[2], wk[3],
					n, 8);
			VFLIPQ_EXPECT_EQ(test, vflipq_hash_final(h),
					 ref_hash_px(seed, px, n, 8));
		}
	}
}

/*
 * vflipq_hash_px_row(), the hash of composed pixels, equals the reference
 * for every depth, on values around each rounding step and random ones;
 * at 8 bits a composed 8-bit colour (v * 257) gives the bytes of an opaque
 * ARGB8888 pixel, so that black is not all zeros.
 */
static void vflipq_formats_test_hash_px_row(struct kunit *test)
{
	enum { N = 300 };
	static struct vflipq_px px[N];
	unsigned int bpc, i;

	for (bpc = 6; bpc <= 16; bpc++) {
		for (i = 0; i < N; i++) {
			px[i] = (struct vflipq_px){ 0xffff, pick(i), rnd16(),
						    pick(N - 1 - i) };
			/* The steps of the rounding: (k + 1/2) * 65535 / m. */
			if (i % 3 == 0) {
				u32 m = (1u << bpc) - 1, k = rnd16() % m;
				u32 half = (u32)((2ull * k + 1) * 65535 /
						 (2 * m));

				px[i].g = half + (i & 1);
			}
		}
		for (i = 0; i < 8; i++) {
			u64 seed = rnd_state();
			unsigned int a = i * 37 % N, n = (i * 61) % (N - a);

			u64 h = vflipq_hash_px_row(seed, px + a, n, bpc);

			VFLIPQ_EXPECT_EQ(test, vflipq_hash_final(h),
					 ref_hash_px(seed, px + a, n, bpc));
		}
	}
	/* Every length at 8 bits: four, two and one pixel at a time. */
	for (i = 0; i <= 17; i++)
		VFLIPQ_EXPECT_EQ(test,
				 vflipq_hash_final(vflipq_hash_px_row(i, px + 3, i, 8)),
				 ref_hash_px(i, px + 3, i, 8));
	for (i = 0; i < 256; i++) {
		const struct vflipq_px p = { 0xffff, i * 257, (255 - i) * 257,
					     (i * 7 & 0xff) * 257 };
		const u8 b[4] = { i * 7 & 0xff, 255 - i, i, 0xff };

		VFLIPQ_EXPECT_EQ(test,
				 vflipq_hash_final(vflipq_hash_px_row(i, &p, 1, 8)),
				 ref_hash(i, b, sizeof(b)));
	}
}

/*
 * ... and within 1.5 of the exact equation (two rounded products of at most
 * 1/2 each, plus the rounded coverage once more: driver.rst's bound).
 */
static void vflipq_formats_test_blend_bound(struct kunit *test)
{
	int i;

	for (i = 0; i < 200000; i++) {
		struct vflipq_px s = { rnd16(), rnd16(), 0, 0 };
		struct vflipq_px d = { 0xffff, rnd16(), 0, 0 };
		u16 pa = rnd16(), bg = d.r;
		s64 exact, dist;

		if (s.r > s.a)
			s.r = s.a;	/* valid premultiplied input */
		vflipq_blend_px(&d, &s, pa, DRM_MODE_BLEND_PREMULTI);
		/* |d - (fa s + (1 - fa a) bg)| <= 1.5, fa = pa / 65535, times 65535^2 */
		exact = (s64)pa * s.r * 65535 + (65535LL * 65535 - (s64)pa * s.a) * bg;
		dist = abs((s64)d.r * 65535 * 65535 - exact);
		VFLIPQ_EXPECT(test, 2 * dist <= 3LL * 65535 * 65535);
	}
}

/*
 * The blend as it was before vflipq_mul16x2() (one division by 65535 per
 * channel, min_t() saturation per channel), kept as a second reference:
 * the two-lane arithmetic must give the same bits for any input, valid
 * premultiplied or not.
 */
static u32 old_mul16(u32 a, u32 b)
{
	return (a * b + 32767) / 65535;
}

static struct vflipq_px old_blend_out(struct vflipq_px d, u32 r, u32 g,
				      u32 b, u32 inv)
{
	d.r = min_t(u32, r + old_mul16(d.r, inv), 0xffff);
	d.g = min_t(u32, g + old_mul16(d.g, inv), 0xffff);
	d.b = min_t(u32, b + old_mul16(d.b, inv), 0xffff);
	return d;
}

static struct vflipq_px old_blend_px(struct vflipq_px d, struct vflipq_px s,
				     u32 pa, u16 mode)
{
	u32 a;

	switch (mode) {
	case DRM_MODE_BLEND_PIXEL_NONE:
		return old_blend_out(d, old_mul16(s.r, pa), old_mul16(s.g, pa),
				     old_mul16(s.b, pa), 0xffff - pa);
	case DRM_MODE_BLEND_COVERAGE:
		a = old_mul16(s.a, pa);
		return old_blend_out(d, old_mul16(s.r, a), old_mul16(s.g, a),
				     old_mul16(s.b, a), 0xffff - a);
	default:
		a = old_mul16(s.a, pa);
		return old_blend_out(d, old_mul16(s.r, pa), old_mul16(s.g, pa),
				     old_mul16(s.b, pa), 0xffff - a);
	}
}

static bool px_eq(struct vflipq_px x, struct vflipq_px y)
{
	return x.a == y.a && x.r == y.r && x.g == y.g && x.b == y.b;
}

/*
 * Both lanes of vflipq_mul16x2(), and vflipq_mul16(), are the division by
 * 65535 they replace, for every 16-bit value against a spread of factors.
 */
static void vflipq_formats_test_mul16x2(struct kunit *test)
{
	u32 v, k;

	for (v = 0; v <= 0xffff; v++)
		for (k = 0; k < 40; k++) {
			u32 b = pick(k), w = rnd16();
			u64 x = vflipq_mul16x2((u64)w << 32 | v, b);

			VFLIPQ_EXPECT_EQ(test, x, (u64)old_mul16(w, b) << 32 | old_mul16(v, b));
			VFLIPQ_EXPECT_EQ(test, vflipq_mul16(v, b), old_mul16(v, b));
		}
}

/* The blend, every mode and the 0xffff shortcut, bit for bit the old one. */
static void vflipq_formats_test_blend_old(struct kunit *test)
{
	static const u16 modes[] = { DRM_MODE_BLEND_PIXEL_NONE,
				     DRM_MODE_BLEND_COVERAGE,
				     DRM_MODE_BLEND_PREMULTI };
	unsigned int m;
	int i;

	for (i = 0; i < 400000; i++) {
		struct vflipq_px d = { pick(i % 20), rnd16(), pick(i % 17),
				       rnd16() };
		struct vflipq_px s = { pick(i % 19), pick(i % 23), rnd16(),
				       pick(i % 29) };
		u16 pa = i & 1 ? pick(i % 31) : rnd16();
		struct vflipq_px got = d;

		for (m = 0; m < ARRAY_SIZE(modes); m++) {
			got = d;
			vflipq_blend_px(&got, &s, pa, modes[m]);
			VFLIPQ_EXPECT(test, px_eq(got, old_blend_px(d, s, pa, modes[m])));
		}
		got = d;
		vflipq_blend_premulti_opaque_px(&got, &s);
		VFLIPQ_EXPECT(test,
			      px_eq(got, old_blend_px(d, s, 0xffff,
						      DRM_MODE_BLEND_PREMULTI)));
	}
}

/* Every format a plane or writeback lists has a reader or writer. */
static void vflipq_formats_test_format_lists(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < vflipq_num_overlay_formats; i++)
		VFLIPQ_EXPECT(test,
			      vflipq_format_ops(vflipq_overlay_formats[i]) &&
			      vflipq_format_ops(vflipq_overlay_formats[i])->read_row);
	for (i = 0; i < vflipq_num_plane_formats; i++)
		VFLIPQ_EXPECT(test, vflipq_format_ops(vflipq_plane_formats[i]));
	for (i = 0; i < vflipq_num_cursor_formats; i++)
		VFLIPQ_EXPECT(test, vflipq_format_ops(vflipq_cursor_formats[i]));
	for (i = 0; i < vflipq_num_wb_formats; i++)
		VFLIPQ_EXPECT(test,
			      vflipq_format_ops(vflipq_wb_formats[i]) &&
			      vflipq_format_ops(vflipq_wb_formats[i])->write_row);
	VFLIPQ_EXPECT(test, !vflipq_format_ops(DRM_FORMAT_YUYV));
}

/* The walk of each rotation, against drm_rect_rotate()'s inverse. */
struct rotation {
	unsigned int r;
	const char *name;
};

static const struct rotation rotations[] = {
	{ DRM_MODE_ROTATE_0, "0" },
	{ DRM_MODE_ROTATE_90, "90" },
	{ DRM_MODE_ROTATE_180, "180" },
	{ DRM_MODE_ROTATE_270, "270" },
	{ DRM_MODE_ROTATE_0 | DRM_MODE_REFLECT_X, "0, reflect-x" },
	{ DRM_MODE_ROTATE_0 | DRM_MODE_REFLECT_Y, "0, reflect-y" },
	{ DRM_MODE_ROTATE_90 | DRM_MODE_REFLECT_X, "90, reflect-x" },
	{ DRM_MODE_ROTATE_270 | DRM_MODE_REFLECT_Y, "270, reflect-y" },
};

static void rotation_desc(const struct rotation *r, char *desc)
{
	strscpy(desc, r->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rotations, rotations, rotation_desc);

static void vflipq_formats_test_xform(struct kunit *test)
{
	unsigned int r = ((const struct rotation *)test->param_value)->r;
	bool swap = r & (DRM_MODE_ROTATE_90 | DRM_MODE_ROTATE_270);
	const int sx = 3, sy = 5, w = 7, h = 4;
	int dw = swap ? h : w, dh = swap ? w : h, dx, dy;
	struct vflipq_xform xf;

	vflipq_xform_init(&xf, sx, sy, w, h, r);
	for (dy = 0; dy < dh; dy++)
		for (dx = 0; dx < dw; dx++) {
			int x, y;

			switch (r & DRM_MODE_ROTATE_MASK) {
			case DRM_MODE_ROTATE_90:
				x = w - 1 - dy;
				y = dx;
				break;
			case DRM_MODE_ROTATE_180:
				x = w - 1 - dx;
				y = h - 1 - dy;
				break;
			case DRM_MODE_ROTATE_270:
				x = dy;
				y = h - 1 - dx;
				break;
			default:
				x = dx;
				y = dy;
				break;
			}
			if (r & DRM_MODE_REFLECT_X)
				x = w - 1 - x;
			if (r & DRM_MODE_REFLECT_Y)
				y = h - 1 - y;
			VFLIPQ_EXPECT_EQ(test, xf.ox + dx * xf.ux + dy * xf.vx, sx + x);
			VFLIPQ_EXPECT_EQ(test, xf.oy + dx * xf.uy + dy * xf.vy, sy + y);
		}
}

static void vflipq_formats_test_src_init(struct kunit *test)
{
	u8 a[4], b[4];
	struct iosys_map map[2] = { { .vaddr = a }, { .vaddr = b } };
	u32 pitches[2] = { 64, 32 };
	struct vflipq_src src;

	vflipq_src_init(&src, map, pitches, 1);
	VFLIPQ_EXPECT(test, src.base[0] == a && src.pitch[0] == 64);
	VFLIPQ_EXPECT(test, !src.base[1] && !src.pitch[1]);
	vflipq_src_init(&src, map, pitches, 2);
	VFLIPQ_EXPECT(test, src.base[1] == b && src.pitch[1] == 32);
}

/* The cases draw from one sequence, in this order. */
static int vflipq_formats_test_suite_init(struct kunit_suite *suite)
{
	rng = 12345;
	vflipq_formats_init();	/* what module init does */
	return 0;
}

static int vflipq_formats_test_init(struct kunit *test)
{
	fmt_test = test;
	return vflipq_test_init(test);
}

static struct kunit_case vflipq_formats_test_cases[] = {
	KUNIT_CASE_PARAM(vflipq_formats_test_read_packed, layouts_gen_params),
	KUNIT_CASE(vflipq_formats_test_read_rgb565),
	KUNIT_CASE(vflipq_formats_test_read_nv12),
	KUNIT_CASE_PARAM(vflipq_formats_test_read_8888_old, fmts8888_gen_params),
	KUNIT_CASE_PARAM(vflipq_formats_test_read_2101010_old,
			 fmts2101010_gen_params),
	KUNIT_CASE(vflipq_formats_test_read_f16_old),
	KUNIT_CASE_PARAM(vflipq_formats_test_write_packed, layouts_gen_params),
	KUNIT_CASE(vflipq_formats_test_write_rgb565),
	KUNIT_CASE(vflipq_formats_test_round_trip),
	KUNIT_CASE_PARAM(vflipq_formats_test_blend_exact, blend_modes_gen_params),
	KUNIT_CASE(vflipq_formats_test_blend_bound),
	KUNIT_CASE(vflipq_formats_test_blend_premulti_opaque),
	KUNIT_CASE(vflipq_formats_test_mul16x2),
	KUNIT_CASE(vflipq_formats_test_blend_old),
	KUNIT_CASE(vflipq_formats_test_hash_row),
	KUNIT_CASE(vflipq_formats_test_hash_px_row),
	KUNIT_CASE(vflipq_formats_test_blend_hash8_row),
	KUNIT_CASE(vflipq_formats_test_blend_hash8_old),
	KUNIT_CASE(vflipq_formats_test_blend_row),
	KUNIT_CASE(vflipq_formats_test_format_lists),
	KUNIT_CASE_PARAM(vflipq_formats_test_xform, rotations_gen_params),
	KUNIT_CASE(vflipq_formats_test_src_init),
	{}
};

struct kunit_suite vflipq_formats_test_suite = {
	.name = "vflipq_formats",
	.suite_init = vflipq_formats_test_suite_init,
	.init = vflipq_formats_test_init,
	.exit = vflipq_test_exit,
	.test_cases = vflipq_formats_test_cases,
};
