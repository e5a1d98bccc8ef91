// SPDX-License-Identifier: MIT
#include "compose.h"

#include <math.h>
#include <stdlib.h>

static void blend_px(float *bg, uint32_t px, const struct compose_layer *l)
{
	float pa = l->alpha / 65535.0f;
	float a = l->has_alpha ? (px >> 24) / 255.0f : 1.0f;
	float fg[3] = { (px >> 16 & 0xff) / 255.0f, (px >> 8 & 0xff) / 255.0f,
			(px & 0xff) / 255.0f };

	/* The three equations of the DRM "pixel blend mode" documentation. */
	for (int c = 0; c < 3; c++) {
		switch (l->blend) {
		case BLEND_NONE:
			bg[c] = pa * fg[c] + (1 - pa) * bg[c];
			break;
		case BLEND_PREMULTI:
			bg[c] = pa * fg[c] + (1 - pa * a) * bg[c];
			break;
		case BLEND_COVERAGE:
			bg[c] = pa * a * fg[c] + (1 - pa * a) * bg[c];
			break;
		}
	}
}

void compose_ref(const struct compose_layer *layers, int n, uint32_t w,
		 uint32_t h, uint8_t *rgb)
{
	float *acc = calloc((size_t)w * 3, sizeof(*acc));

	if (!acc)
		abort();
	for (uint32_t y = 0; y < h; y++) {
		for (size_t i = 0; i < (size_t)w * 3; i++)
			acc[i] = 0;
		for (int i = 0; i < n; i++) {
			const struct compose_layer *l = &layers[i];
			int64_t ly = (int64_t)y - l->y;
			const uint32_t *src;

			if (ly < 0 || ly >= l->h)
				continue;
			src = (const uint32_t *)((const uint8_t *)l->map +
						 ly * l->pitch);
			for (int64_t lx = 0; lx < l->w; lx++) {
				int64_t x = l->x + lx;

				if (x >= 0 && x < w)
					blend_px(&acc[x * 3], src[lx], l);
			}
		}
		for (size_t i = 0; i < (size_t)w * 3; i++) {
			float v = acc[i] < 0 ? 0 : acc[i] > 1 ? 1 : acc[i];

			rgb[(size_t)y * w * 3 + i] = (uint8_t)lrintf(v * 255);
		}
	}
	free(acc);
}
