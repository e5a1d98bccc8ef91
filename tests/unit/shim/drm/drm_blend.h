/* SPDX-License-Identifier: GPL-2.0-only */
/* include/drm/drm_blend.h: the blend modes' values, the opaque plane alpha, rotations from uAPI. */
#ifndef _SHIM_DRM_BLEND_H
#define _SHIM_DRM_BLEND_H
#include <libdrm/drm_mode.h>
#define DRM_MODE_BLEND_PREMULTI		0
#define DRM_MODE_BLEND_COVERAGE		1
#define DRM_MODE_BLEND_PIXEL_NONE	2
#define DRM_BLEND_ALPHA_OPAQUE		0xffff
#endif
