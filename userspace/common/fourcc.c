// SPDX-License-Identifier: MIT
/*
 * The pixel-format table of fourcc.h.  The formats vflipq scans out or
 * writes back, the ones libpresent shares, plus a few only the negative
 * tests and the fuzzer use (C8, RGB888, YUYV: vflipq refuses them).
 */
#include <drm_fourcc.h>

#include "fourcc.h"

#define RGB(f, bytes, d, a) { DRM_FORMAT_##f, #f, 1, { bytes }, 1, 1, d, a }

static const struct fourcc_info table[] = {
	RGB(XRGB8888, 4, 8, false),
	RGB(ARGB8888, 4, 8, true),
	RGB(XBGR8888, 4, 8, false),
	RGB(ABGR8888, 4, 8, true),
	RGB(RGBX8888, 4, 8, false),
	RGB(RGBA8888, 4, 8, true),
	RGB(BGRX8888, 4, 8, false),
	RGB(BGRA8888, 4, 8, true),
	RGB(XRGB2101010, 4, 10, false),
	RGB(ARGB2101010, 4, 10, true),
	RGB(XBGR2101010, 4, 10, false),
	RGB(ABGR2101010, 4, 10, true),
	RGB(XRGB16161616F, 8, 16, false),
	RGB(ARGB16161616F, 8, 16, true),
	RGB(XBGR16161616F, 8, 16, false),
	RGB(ABGR16161616F, 8, 16, true),
	RGB(XBGR16161616, 8, 16, false),
	RGB(ABGR16161616, 8, 16, true),
	RGB(RGB565, 2, 5, false),
	RGB(BGR565, 2, 5, false),
	RGB(RGB888, 3, 8, false),
	RGB(R8, 1, 8, false),
	RGB(C8, 1, 8, false),
	{ DRM_FORMAT_NV12, "NV12", 2, { 1, 2 }, 2, 2, 8, false },
	{ DRM_FORMAT_YUYV, "YUYV", 1, { 2 }, 2, 1, 8, false },
};

const struct fourcc_info *fourcc_info(uint32_t fourcc)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (table[i].fourcc == fourcc)
			return &table[i];
	return NULL;
}

uint32_t fourcc_cpp(uint32_t fourcc)
{
	const struct fourcc_info *f = fourcc_info(fourcc);

	return f ? f->cpp[0] : 0;
}

const char *fourcc_name(uint32_t fourcc)
{
	const struct fourcc_info *f = fourcc_info(fourcc);

	return f ? f->name : "unknown";
}

const struct fourcc_info *fourcc_table(size_t *n)
{
	*n = sizeof(table) / sizeof(table[0]);
	return table;
}
