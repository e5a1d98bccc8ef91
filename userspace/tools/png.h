/* SPDX-License-Identifier: MIT */
#ifndef VFLIPQ_PNG_H
#define VFLIPQ_PNG_H

#include <stddef.h>
#include <stdint.h>

/*
 * Write an 8-bit RGB (channels = 3) or RGBA (channels = 4) PNG.  Row y starts
 * at pixels + y * stride.  No zlib: the image data goes out in stored
 * (uncompressed) deflate blocks, so files are large but the writer has no
 * dependencies.  Returns 0, or -1 with errno set.
 */
int png_write(const char *path, uint32_t width, uint32_t height,
	      unsigned int channels, const uint8_t *pixels, size_t stride);

uint32_t png_crc32(uint32_t crc, const uint8_t *buf, size_t len);

#endif
