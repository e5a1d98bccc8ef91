// SPDX-License-Identifier: GPL-2.0-only
/*
 * CRTC colour management: DEGAMMA_LUT, CTM and GAMMA_LUT, applied in that
 * order to every composed row before it feeds the CRC and writeback.  The
 * arithmetic is integer only and specified exactly in
 * Documentation/vflipq/driver.rst ("Colour management"), so that tests can
 * compute the expected output bit for bit.
 */

#include <linux/minmax.h>

#include <drm/drm_color_mgmt.h>
#include <drm/drm_crtc.h>
#include <drm/drm_print.h>
#include <drm/drm_property.h>

#include "vflipq_drv.h"

/*
 * CTM coefficients are clamped to a magnitude below 2^13 (S31.32 values
 * below 2^45): three products with a 16-bit channel then sum without
 * overflowing s64.  A larger gain saturates any non-zero input anyway.
 */
#define VFLIPQ_CTM_MAX_MAG	(BIT_ULL(45) - 1)

static int check_lut(struct drm_crtc *crtc, const struct drm_property_blob *b,
		     const char *name)
{
	if (!b || drm_color_lut_size(b) == VFLIPQ_LUT_SIZE)
		return 0;
	drm_dbg_atomic(crtc->dev, "%s has %d entries, not %d\n", name,
		       drm_color_lut_size(b), VFLIPQ_LUT_SIZE);
	return -EINVAL;
}

/**
 * vflipq_color_check - validate the colour management of a CRTC state
 * @st: new CRTC state
 *
 * The core already checked the blob types and the CTM's size; the LUTs
 * must have exactly the advertised number of entries.
 *
 * Return: 0 or -EINVAL.
 */
int vflipq_color_check(struct drm_crtc_state *st)
{
	int ret;

	ret = check_lut(st->crtc, st->degamma_lut, "DEGAMMA_LUT");
	if (ret)
		return ret;
	return check_lut(st->crtc, st->gamma_lut, "GAMMA_LUT");
}

static s64 ctm_coef(u64 v)
{
	u64 mag = min_t(u64, v & ~BIT_ULL(63), VFLIPQ_CTM_MAX_MAG);

	return v & BIT_ULL(63) ? -(s64)mag : (s64)mag;
}

/**
 * vflipq_color_init - what one frame of a CRTC state applies
 * @cm: filled in
 * @st: the CRTC state being composed (its blobs outlive the frame)
 */
void vflipq_color_init(struct vflipq_color *cm, const struct drm_crtc_state *st)
{
	unsigned int i;

	cm->degamma = st->degamma_lut ? st->degamma_lut->data : NULL;
	cm->gamma = st->gamma_lut ? st->gamma_lut->data : NULL;
	cm->has_ctm = st->ctm;
	if (st->ctm) {
		const struct drm_color_ctm *ctm = st->ctm->data;

		for (i = 0; i < ARRAY_SIZE(cm->ctm); i++)
			cm->ctm[i] = ctm_coef(ctm->matrix[i]);
	}
	cm->active = cm->degamma || cm->gamma || cm->has_ctm;
}

/*
 * Entry i of an n-entry LUT sits at input i * 65535 / (n - 1); between two
 * entries the output is interpolated linearly and rounded to nearest.  The
 * weighted sum stays below 2^32.
 */
struct lut_pos {
	u32 idx;
	u32 frac;
};

static __always_inline struct lut_pos lut_pos(u16 v)
{
	u32 pos = (u32)v * (VFLIPQ_LUT_SIZE - 1);
	struct lut_pos p = { .idx = pos / 0xffff };

	p.frac = pos - p.idx * 0xffff;
	return p;
}

static __always_inline u16 lerp(u16 a, u16 b, u32 frac)
{
	return ((u32)a * (0xffff - frac) + (u32)b * frac + 0x7fff) / 0xffff;
}

static __always_inline void lut_apply(const struct drm_color_lut *lut,
				      struct vflipq_px *px)
{
	struct lut_pos r = lut_pos(px->r), g = lut_pos(px->g),
		       b = lut_pos(px->b);

	/* frac is 0 at the last entry: lut[idx + 1] is never read there. */
	px->r = r.frac ? lerp(lut[r.idx].red, lut[r.idx + 1].red, r.frac) :
			 lut[r.idx].red;
	px->g = g.frac ? lerp(lut[g.idx].green, lut[g.idx + 1].green, g.frac) :
			 lut[g.idx].green;
	px->b = b.frac ? lerp(lut[b.idx].blue, lut[b.idx + 1].blue, b.frac) :
			 lut[b.idx].blue;
}

/* S31.32 times 16-bit, rounded half up (floor(x + 1/2)), clamped. */
static __always_inline u16 ctm_row(const s64 *m, s64 r, s64 g, s64 b)
{
	s64 v = (m[0] * r + m[1] * g + m[2] * b + (1LL << 31)) >> 32;

	return clamp_t(s64, v, 0, 0xffff);
}

static __always_inline void ctm_apply(const s64 *m, struct vflipq_px *px)
{
	s64 r = px->r, g = px->g, b = px->b;

	px->r = ctm_row(m, r, g, b);
	px->g = ctm_row(m + 3, r, g, b);
	px->b = ctm_row(m + 6, r, g, b);
}

/**
 * vflipq_color_apply_row - degamma, CTM, gamma on one composed row
 * @cm: the frame's colour management (active)
 * @row: pixels, modified in place
 * @n: number of pixels
 */
void vflipq_color_apply_row(const struct vflipq_color *cm,
			    struct vflipq_px *row, unsigned int n)
{
	unsigned int i;

	if (cm->degamma)
		for (i = 0; i < n; i++)
			lut_apply(cm->degamma, &row[i]);
	if (cm->has_ctm)
		for (i = 0; i < n; i++)
			ctm_apply(cm->ctm, &row[i]);
	if (cm->gamma)
		for (i = 0; i < n; i++)
			lut_apply(cm->gamma, &row[i]);
}

/**
 * vflipq_color_init_crtc - expose colour management on a CRTC
 * @crtc: the CRTC
 *
 * Also gives the legacy gamma ioctls a LUT of the same size (the core
 * implements them on top of GAMMA_LUT).
 *
 * Return: 0 or a negative errno.
 */
int vflipq_color_init_crtc(struct drm_crtc *crtc)
{
	int ret = drm_mode_crtc_set_gamma_size(crtc, VFLIPQ_LUT_SIZE);

	if (ret)
		return ret;
	drm_crtc_enable_color_mgmt(crtc, VFLIPQ_LUT_SIZE, true,
				   VFLIPQ_LUT_SIZE);
	return 0;
}
