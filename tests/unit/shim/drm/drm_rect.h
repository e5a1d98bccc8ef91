/* SPDX-License-Identifier: GPL-2.0-only */
/* Host build of kernel code: what vflipq_tiles.c uses of drm_rect.h. */
#ifndef _SHIM_DRM_RECT_H
#define _SHIM_DRM_RECT_H
#include <stdbool.h>

struct drm_rect {
	int x1, y1, x2, y2;
};

static inline bool drm_rect_equals(const struct drm_rect *a,
				   const struct drm_rect *b)
{
	return a->x1 == b->x1 && a->x2 == b->x2 && a->y1 == b->y1 &&
	       a->y2 == b->y2;
}
#endif
