// SPDX-License-Identifier: MIT
#include "pixfmt.h"

#include <strings.h>
#include <drm_fourcc.h>

static const struct {
	const char *name;
	uint32_t fourcc;
} formats[] = {
	{ "xrgb8888", DRM_FORMAT_XRGB8888 },
	{ "argb8888", DRM_FORMAT_ARGB8888 },
	{ "abgr8888", DRM_FORMAT_ABGR8888 },
	{ "xrgb2101010", DRM_FORMAT_XRGB2101010 },
};

int pixfmt_from_name(const char *name, uint32_t *fourcc)
{
	for (unsigned int i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		if (!strcasecmp(name, formats[i].name)) {
			*fourcc = formats[i].fourcc;
			return 0;
		}
	}
	return -1;
}

const char *pixfmt_names(void)
{
	return "xrgb8888, argb8888, abgr8888, xrgb2101010";
}

/* Round to nearest: 1023 -> 255, 512 -> 128. */
static inline uint8_t ten_to_8(uint32_t v)
{
	return (uint8_t)((v * 255 + 511) / 1023);
}

int pixfmt_row_to_rgb8(uint32_t fourcc, const void *src, uint32_t w,
		       uint8_t *rgb)
{
	/* All supported formats are 32-bit little-endian words. */
	const uint32_t *p = src;

	for (uint32_t x = 0; x < w; x++, rgb += 3) {
		uint32_t v = p[x];

		switch (fourcc) {
		case DRM_FORMAT_XRGB8888:
		case DRM_FORMAT_ARGB8888:
			rgb[0] = v >> 16;
			rgb[1] = v >> 8;
			rgb[2] = v;
			break;
		case DRM_FORMAT_ABGR8888:
			rgb[0] = v;
			rgb[1] = v >> 8;
			rgb[2] = v >> 16;
			break;
		case DRM_FORMAT_XRGB2101010:
			rgb[0] = ten_to_8(v >> 20 & 0x3ff);
			rgb[1] = ten_to_8(v >> 10 & 0x3ff);
			rgb[2] = ten_to_8(v & 0x3ff);
			break;
		default:
			return -1;
		}
	}
	return 0;
}
