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

static __always_inline void vflipq_blend_px(struct vflipq_px *d,
					    const struct vflipq_px *s,
					    u32 pa, u16 mode)
{
	u32 a, r, g, b, inv;

	switch (mode) {
	case DRM_MODE_BLEND_PIXEL_NONE:
		a = pa;
		r = vflipq_mul16(s->r, pa);
		g = vflipq_mul16(s->g, pa);
		b = vflipq_mul16(s->b, pa);
		break;
	case DRM_MODE_BLEND_COVERAGE:
		a = vflipq_mul16(s->a, pa);
		r = vflipq_mul16(s->r, a);
		g = vflipq_mul16(s->g, a);
		b = vflipq_mul16(s->b, a);
		break;
	default:
		a = vflipq_mul16(s->a, pa);
		r = vflipq_mul16(s->r, pa);
		g = vflipq_mul16(s->g, pa);
		b = vflipq_mul16(s->b, pa);
		break;
	}
	inv = 0xffff - a;
	/* Invalid premultiplied input (colour > alpha) saturates. */
	d->r = min_t(u32, r + vflipq_mul16(d->r, inv), 0xffff);
	d->g = min_t(u32, g + vflipq_mul16(d->g, inv), 0xffff);
	d->b = min_t(u32, b + vflipq_mul16(d->b, inv), 0xffff);
}

/*
 * vflipq_blend_px() in "Pre-multiplied" mode at plane alpha 0xffff, where
 * round(x * 65535 / 65535) is x: the same result with three products
 * instead of seven.
 */
static __always_inline void
vflipq_blend_premulti_opaque_px(struct vflipq_px *d, const struct vflipq_px *s)
{
	u32 inv = 0xffff - s->a;

	d->r = min_t(u32, s->r + vflipq_mul16(d->r, inv), 0xffff);
	d->g = min_t(u32, s->g + vflipq_mul16(d->g, inv), 0xffff);
	d->b = min_t(u32, s->b + vflipq_mul16(d->b, inv), 0xffff);
}

#endif /* _VFLIPQ_BLEND_H_ */
