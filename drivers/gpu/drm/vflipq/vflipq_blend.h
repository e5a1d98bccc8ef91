/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The composer's per-pixel blend, in a header of its own so that the host
 * unit tests (tests/unit/blend_test.c) check the driver's arithmetic itself
 * against a reference (Documentation/vflipq/driver.rst, "Precision").
 */
#ifndef _VFLIPQ_BLEND_H_
#define _VFLIPQ_BLEND_H_

#include <linux/minmax.h>
#include <drm/drm_blend.h>

#include "vflipq_formats.h"

/*
 * a * b / 65535 for @a and @b up to 65535, rounded to nearest (no ties:
 * 65535 is odd), which is (a * b + 32767) / 65535.  With t = a * b + 32768
 * that is (t + (t >> 16)) >> 16 for every product (checked exhaustively;
 * tests/unit/formats_test.c compares the two): compilers turn the
 * division into a multiply by a reciprocal that x86 builds spell as five
 * shifts and adds, two more than this, and the blend does it per pixel.
 * Neither sum leaves 32 bits: t + (t >> 16) is below 2^32 - 2^15.
 */
static inline u32 vflipq_mul16(u32 a, u32 b)
{
	u32 t = a * b + 32768;

	return (t + (t >> 16)) >> 16;
}

/*
 * vflipq_mul16() of both lanes of @v (vflipq_px_rb(), vflipq_px_ag()) by
 * @b in one 64-bit multiply: half the multiplies of the blend, whose cost
 * under TCG follows instruction count.  Each product is below 2^32, so
 * the lanes never carry into each other; and with t = x + 32768,
 * (t + (t >> 16)) >> 16 is (x + 32767) / 65535 for every x up to 65535^2
 * (tests/unit/formats_test.c compares the two), which trades the
 * division's multiply by a reciprocal for a shift and an add per word.
 */
static __always_inline u64 vflipq_mul16x2(u64 v, u32 b)
{
	u64 t = v * b + 0x0000800000008000ULL;

	return (t + (t >> 16 & VFLIPQ_PX_LANES)) >> 16 & VFLIPQ_PX_LANES;
}

/*
 * The background @dv under a plane pixel already scaled by its alpha: red
 * and blue @rb as a lane pair (vflipq_px_rb()), green @g, and @inv the
 * plane pixel's 0xffff - alpha.  The background's alpha stays: the output
 * is always opaque.
 */
static __always_inline u64 vflipq_blend_out(u64 dv, u64 rb, u32 g, u32 inv)
{
	rb += vflipq_mul16x2(vflipq_px_rb(dv), inv);
	/*
	 * Invalid premultiplied input (colour > alpha) saturates: a lane at
	 * 0x10000 or above (bit 16 set) becomes 0xffff, in both lanes at once.
	 */
	rb |= 0x0001000000010000ULL - (rb >> 16 & 0x0000000100000001ULL);
	g = min_t(u32, g + vflipq_mul16(vflipq_px_ch(dv, 2), inv), 0xffff);
	return (dv & 0xffffULL << VFLIPQ_PX_SHIFT(0)) |
	       (rb & VFLIPQ_PX_LANES) << VFLIPQ_PX_RB_SHIFT |
	       (u64)g << VFLIPQ_PX_SHIFT(2);
}

/* Pixels move as 64-bit words (vflipq_px_load()): fewer memory accesses. */
static __always_inline void vflipq_blend_px(struct vflipq_px *d,
					    const struct vflipq_px *s,
					    u32 pa, u16 mode)
{
	u64 sv = vflipq_px_load(s);
	u64 rb, ag;
	u32 a, g;

	switch (mode) {
	case DRM_MODE_BLEND_PIXEL_NONE:
		a = pa;
		rb = vflipq_mul16x2(vflipq_px_rb(sv), pa);
		g = vflipq_mul16(vflipq_px_ch(sv, 2), pa);
		break;
	case DRM_MODE_BLEND_COVERAGE:
		a = vflipq_mul16(vflipq_px_ch(sv, 0), pa);
		rb = vflipq_mul16x2(vflipq_px_rb(sv), a);
		g = vflipq_mul16(vflipq_px_ch(sv, 2), a);
		break;
	default:
		/* Alpha and green both scale by @pa: one multiply. */
		ag = vflipq_mul16x2(vflipq_px_ag(sv), pa);
		a = vflipq_px_lane(ag, 0);
		g = vflipq_px_lane(ag, 2);
		rb = vflipq_mul16x2(vflipq_px_rb(sv), pa);
		break;
	}
	vflipq_px_store(d, vflipq_blend_out(vflipq_px_load(d), rb, g,
					    0xffff - a));
}

/*
 * vflipq_blend_px() in "Pre-multiplied" mode at plane alpha 0xffff, where
 * round(x * 65535 / 65535) is x: the same result with two products
 * instead of five.  On packed pixels: background @dv, plane pixel @sv.
 */
static __always_inline u64 vflipq_blend_premulti_opaque(u64 dv, u64 sv)
{
	return vflipq_blend_out(dv, vflipq_px_rb(sv), vflipq_px_ch(sv, 2),
				0xffff - vflipq_px_ch(sv, 0));
}

static __always_inline void
vflipq_blend_premulti_opaque_px(struct vflipq_px *d, const struct vflipq_px *s)
{
	vflipq_px_store(d, vflipq_blend_premulti_opaque(vflipq_px_load(d),
							vflipq_px_load(s)));
}

#endif /* _VFLIPQ_BLEND_H_ */
