/* SPDX-License-Identifier: MIT */
#ifndef VFLIPQ_COMPOSE_H
#define VFLIPQ_COMPOSE_H

#include <stdbool.h>
#include <stdint.h>

/* Software reference of the driver's composer, to check a writeback. */

enum compose_blend { BLEND_NONE, BLEND_PREMULTI, BLEND_COVERAGE };

struct compose_layer {
	const void *map;	/* XRGB8888 / ARGB8888 */
	uint32_t pitch, w, h;
	int32_t x, y;		/* may be partly off-screen */
	bool has_alpha;		/* ARGB: use pixel alpha */
	uint16_t alpha;		/* plane alpha, 0xffff opaque */
	enum compose_blend blend;
};

/* Layers bottom to top over opaque black, into w x h 8-bit RGB. */
void compose_ref(const struct compose_layer *layers, int n, uint32_t w,
		 uint32_t h, uint8_t *rgb);

#endif
