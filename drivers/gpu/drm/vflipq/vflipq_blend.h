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

/* a * b / 65535, rounded to nearest (no ties: 65535 is odd). */
static inline u32 vflipq_mul16(u32 a, u32 b)
{
	return (a * b + 32767) / 65535;
}

/* The background's alpha stays: the output is always opaque. */
static __always_inline u64 vflipq_blend_out(u64 dv, u32 r, u32 g, u32 b,
					    u32 inv)
{
	/* Invalid premultiplied input (colour > alpha) saturates. */
	r = min_t(u32, r + vflipq_mul16(vflipq_px_ch(dv, 1), inv), 0xffff);
	g = min_t(u32, g + vflipq_mul16(vflipq_px_ch(dv, 2), inv), 0xffff);
	b = min_t(u32, b + vflipq_mul16(vflipq_px_ch(dv, 3), inv), 0xffff);
	return vflipq_px_pack(vflipq_px_ch(dv, 0), r, g, b);
}

/* Pixels move as 64-bit words (vflipq_px_load()): fewer memory accesses. */
static __always_inline void vflipq_blend_px(struct vflipq_px *d,
					    const struct vflipq_px *s,
					    u32 pa, u16 mode)
{
	u64 sv = vflipq_px_load(s);
	u32 a, r, g, b;

	switch (mode) {
	case DRM_MODE_BLEND_PIXEL_NONE:
		a = pa;
		r = vflipq_mul16(vflipq_px_ch(sv, 1), pa);
		g = vflipq_mul16(vflipq_px_ch(sv, 2), pa);
		b = vflipq_mul16(vflipq_px_ch(sv, 3), pa);
		break;
	case DRM_MODE_BLEND_COVERAGE:
		a = vflipq_mul16(vflipq_px_ch(sv, 0), pa);
		r = vflipq_mul16(vflipq_px_ch(sv, 1), a);
		g = vflipq_mul16(vflipq_px_ch(sv, 2), a);
		b = vflipq_mul16(vflipq_px_ch(sv, 3), a);
		break;
	default:
		a = vflipq_mul16(vflipq_px_ch(sv, 0), pa);
		r = vflipq_mul16(vflipq_px_ch(sv, 1), pa);
		g = vflipq_mul16(vflipq_px_ch(sv, 2), pa);
		b = vflipq_mul16(vflipq_px_ch(sv, 3), pa);
		break;
	}
	vflipq_px_store(d, vflipq_blend_out(vflipq_px_load(d), r, g, b,
					    0xffff - a));
}

/*
 * vflipq_blend_px() in "Pre-multiplied" mode at plane alpha 0xffff, where
 * round(x * 65535 / 65535) is x: the same result with three products
 * instead of seven.  On packed pixels: background @dv, plane pixel @sv.
 */
static __always_inline u64 vflipq_blend_premulti_opaque(u64 dv, u64 sv)
{
	return vflipq_blend_out(dv, vflipq_px_ch(sv, 1), vflipq_px_ch(sv, 2),
				vflipq_px_ch(sv, 3),
				0xffff - vflipq_px_ch(sv, 0));
}

static __always_inline void
vflipq_blend_premulti_opaque_px(struct vflipq_px *d, const struct vflipq_px *s)
{
	vflipq_px_store(d, vflipq_blend_premulti_opaque(vflipq_px_load(d),
							vflipq_px_load(s)));
}

#endif /* _VFLIPQ_BLEND_H_ */
