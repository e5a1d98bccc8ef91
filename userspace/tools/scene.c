// SPDX-License-Identifier: MIT
#include "scene.h"

#include <math.h>
#include <string.h>

static inline uint32_t argb(unsigned int a, unsigned int r, unsigned int g,
			    unsigned int b)
{
	return a << 24 | r << 16 | g << 8 | b;
}

static inline uint32_t *row(void *map, uint32_t pitch, uint32_t y)
{
	return (uint32_t *)((uint8_t *)map + (size_t)y * pitch);
}

void scene_primary(void *map, uint32_t pitch, uint32_t w, uint32_t h)
{
	static const uint32_t bars[] = {
		0xffffff, 0xffff00, 0x00ffff, 0x00ff00,
		0xff00ff, 0xff0000, 0x0000ff,
	};
	static const uint32_t ramps[] = { 0xffffff, 0xff0000, 0x00ff00, 0x0000ff };
	uint32_t bar_h = h * 2 / 3;

	for (uint32_t y = 0; y < h; y++) {
		uint32_t *p = row(map, pitch, y);

		for (uint32_t x = 0; x < w; x++) {
			uint32_t c;

			if (y < bar_h) {
				c = bars[(uint64_t)x * 7 / w];
			} else {
				uint32_t strip = (y - bar_h) * 4 / (h - bar_h);
				/* Full 0..255 range whatever the width. */
				uint32_t v = w > 1 ? x * 255 / (w - 1) : 255;

				c = ramps[strip] & (v << 16 | v << 8 | v);
			}
			p[x] = 0xff000000u | c;
		}
	}
}

static inline unsigned int to8(double v)
{
	return v <= 0 ? 0 : v >= 1 ? 255 : (unsigned int)lround(v * 255.0);
}

void scene_disc(void *map, uint32_t pitch, uint32_t size, bool premultiplied)
{
	double c = size / 2.0, r = size / 2.0 - 1, feather = size / 6.0;

	for (uint32_t y = 0; y < size; y++) {
		uint32_t *p = row(map, pitch, y);

		for (uint32_t x = 0; x < size; x++) {
			double dx = x + 0.5 - c, dy = y + 0.5 - c;
			double d = sqrt(dx * dx + dy * dy);
			double a = (r - d) / feather;
			unsigned int A = to8(a);
			/* Amber at the top fading to violet at the bottom. */
			double t = (double)y / size;
			double cr = 1.0 - 0.3 * t, cg = 0.6 * (1 - t) + 0.1 * t,
			       cb = 0.1 * (1 - t) + 0.9 * t;
			double k = premultiplied ? A / 255.0 : 1.0;

			if (!A) {
				p[x] = 0;
				continue;
			}
			p[x] = argb(A, to8(cr * k), to8(cg * k), to8(cb * k));
		}
	}
}

/* Twice the signed area of (a, b, p): >= 0 when p is left of a->b. */
static double edge(const double *a, const double *b, double px, double py)
{
	return (b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0]);
}

static bool in_tri(const double t[3][2], double x, double y)
{
	return edge(t[0], t[1], x, y) <= 0 && edge(t[1], t[2], x, y) <= 0 &&
	       edge(t[2], t[0], x, y) <= 0;
}

void scene_cursor(void *map, uint32_t pitch, uint32_t size)
{
	/* Scaled from a 32-unit design; black outline, white fill. */
	double s = size / 32.0;
	const double outer[3][2] = { { 1 * s, 1 * s }, { 1 * s, 24 * s },
				     { 17 * s, 17 * s } };
	const double inner[3][2] = { { 2.5 * s, 4.5 * s }, { 2.5 * s, 20.5 * s },
				     { 13.5 * s, 15.5 * s } };
	const int ss = 4;	/* 4x4 supersampling for the edges */

	for (uint32_t y = 0; y < size; y++) {
		uint32_t *p = row(map, pitch, y);

		for (uint32_t x = 0; x < size; x++) {
			int out = 0, in = 0;

			for (int j = 0; j < ss; j++) {
				for (int i = 0; i < ss; i++) {
					double sx = x + (i + 0.5) / ss;
					double sy = y + (j + 0.5) / ss;

					out += in_tri(outer, sx, sy);
					in += in_tri(inner, sx, sy);
				}
			}
			double n = ss * ss;

			/* White only where covered: pre-multiplied value = in. */
			p[x] = argb(to8(out / n), to8(in / n),
				    to8(in / n), to8(in / n));
		}
	}
}
