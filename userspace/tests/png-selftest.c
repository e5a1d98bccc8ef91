// SPDX-License-Identifier: MIT
/*
 * Writes PNGs of a known pattern for png_check.py to decode, and checks the
 * argument validation of png_write().  Prints "path width height channels"
 * per image.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "png.h"

/* Keep in sync with pattern() in png_check.py. */
static uint8_t pattern(uint32_t x, uint32_t y, uint32_t c)
{
	return (uint8_t)(x * (c + 1) * 37 + y * (c + 3) * 11 + c * 71 + x * y);
}

static const struct { uint32_t w, h, ch; } cases[] = {
	{ 1, 1, 3 },
	{ 17, 9, 4 },
	{ 300, 250, 3 },	/* several stored blocks */
	{ 1456, 15, 3 },	/* exactly one full 65535-byte block */
	{ 1456, 30, 3 },	/* exactly two full blocks */
	{ 5000, 7, 4 },		/* a row longer than a block */
};

static int write_case(const char *dir, uint32_t w, uint32_t h, uint32_t ch)
{
	/* Padded stride: rows must be read at pixels + y * stride. */
	size_t stride = (size_t)w * ch + 7;
	uint8_t *px = malloc(stride * h);
	char path[512];
	int ret;

	if (!px)
		return -1;
	memset(px, 0xee, stride * h);
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++)
			for (uint32_t c = 0; c < ch; c++)
				px[y * stride + x * ch + c] = pattern(x, y, c);
	snprintf(path, sizeof(path), "%s/%ux%u-%u.png", dir, w, h, ch);
	ret = png_write(path, w, h, ch, px, stride);
	if (ret)
		fprintf(stderr, "png_write %s: %s\n", path, strerror(errno));
	else
		printf("%s %u %u %u\n", path, w, h, ch);
	free(px);
	return ret;
}

static int expect_einval(const char *dir, uint32_t w, uint32_t h, uint32_t ch,
			 size_t stride)
{
	uint8_t px[64] = { 0 };
	char path[512];

	snprintf(path, sizeof(path), "%s/invalid.png", dir);
	errno = 0;
	if (png_write(path, w, h, ch, px, stride) == 0 || errno != EINVAL) {
		fprintf(stderr, "png_write(%u, %u, %u, stride %zu) not rejected\n",
			w, h, ch, stride);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int fails = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: png-selftest OUTDIR\n");
		return 2;
	}
	mkdir(argv[1], 0755);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		fails += !!write_case(argv[1], cases[i].w, cases[i].h, cases[i].ch);
	fails += !!expect_einval(argv[1], 0, 1, 3, 3);
	fails += !!expect_einval(argv[1], 1, 0, 3, 3);
	fails += !!expect_einval(argv[1], 1, 1, 2, 3);
	fails += !!expect_einval(argv[1], 4, 1, 3, 11);
	return fails ? 1 : 0;
}
