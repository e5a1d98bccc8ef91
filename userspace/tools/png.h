/* SPDX-License-Identifier: MIT */
#ifndef VFLIPQ_PNG_H
#define VFLIPQ_PNG_H

#include <stddef.h>
#include <stdint.h>

/*
 * Write an 8-bit RGB (channels = 3) or RGBA (channels = 4) PNG through
 * libpng (zlib-compressed, adaptive row filters).  Row y starts at
 * pixels + y * stride.  Returns 0, or -1 with errno set (EINVAL for bad
 * arguments, EIO when libpng fails, fopen()'s errno otherwise); a file that
 * could not be written whole is removed.
 */
int png_write(const char *path, uint32_t width, uint32_t height,
	      unsigned int channels, const uint8_t *pixels, size_t stride);

#endif
