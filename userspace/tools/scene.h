/* SPDX-License-Identifier: MIT */
#ifndef VFLIPQ_SCENE_H
#define VFLIPQ_SCENE_H

#include <stdbool.h>
#include <stdint.h>

/* Pixel layouts are XRGB8888/ARGB8888 (0xAARRGGBB), pitch in bytes. */

/* Top 2/3: seven 100% colour bars; bottom 1/3: grey, red, green, blue ramps. */
void scene_primary(void *map, uint32_t pitch, uint32_t w, uint32_t h);

/*
 * size x size disc with a soft (feathered) edge and a colour gradient.
 * Pre-multiplied pixels unless !premultiplied (for "Coverage" blending).
 */
void scene_disc(void *map, uint32_t pitch, uint32_t size, bool premultiplied);

/* Anti-aliased arrow pointer, pre-multiplied, in a size x size buffer. */
void scene_cursor(void *map, uint32_t pitch, uint32_t size);

#endif
