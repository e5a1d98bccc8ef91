/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _SHIM_DRM_FOURCC_H
#define _SHIM_DRM_FOURCC_H
#include <libdrm/drm_fourcc.h>
#endif
