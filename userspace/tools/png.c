// SPDX-License-Identifier: MIT
#include "png.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>

/*
 * libpng's header spelled with its directory: wherever this directory is on
 * the include path, <png.h> would find our own png.h instead.
 */
#include <libpng16/png.h>

/* Longest side libpng accepts by default (PNG_USER_WIDTH_MAX). */
#define PNG_SIDE_MAX 1000000u

/* No local changes between setjmp() and a longjmp() from libpng. */
static int encode(FILE *f, uint32_t width, uint32_t height, unsigned int channels,
		  const uint8_t *pixels, size_t stride)
{
	png_structp png;
	png_infop info;

	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	if (!png)
		return -1;
	info = png_create_info_struct(png);
	if (!info) {
		png_destroy_write_struct(&png, NULL);
		return -1;
	}
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		return -1;
	}
	png_init_io(png, f);
	png_set_IHDR(png, info, width, height, 8,
		     channels == 4 ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
		     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (uint32_t y = 0; y < height; y++)
		png_write_row(png, pixels + (size_t)y * stride);
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	return 0;
}

int png_write(const char *path, uint32_t width, uint32_t height,
	      unsigned int channels, const uint8_t *pixels, size_t stride)
{
	FILE *f;
	int ret;

	if (!width || !height || width > PNG_SIDE_MAX || height > PNG_SIDE_MAX ||
	    (channels != 3 && channels != 4) || !pixels ||
	    stride < (uint64_t)width * channels) {
		errno = EINVAL;
		return -1;
	}
	f = fopen(path, "wb");
	if (!f)
		return -1;
	ret = encode(f, width, height, channels, pixels, stride);
	if (fclose(f) != 0)
		ret = -1;
	if (ret) {
		remove(path);
		errno = EIO;
	}
	return ret;
}
