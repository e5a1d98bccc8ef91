// SPDX-License-Identifier: MIT
#include "png.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Largest payload of one stored deflate block (LEN is 16 bits). */
#define STORED_MAX 65535u

uint32_t png_crc32(uint32_t crc, const uint8_t *buf, size_t len)
{
	static uint32_t table[256];

	if (!table[1]) {
		for (uint32_t n = 0; n < 256; n++) {
			uint32_t c = n;

			for (int k = 0; k < 8; k++)
				c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
			table[n] = c;
		}
	}
	crc = ~crc;
	while (len--)
		crc = table[(crc ^ *buf++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

/*
 * IDAT is streamed: its length is known up front (stored blocks add a fixed
 * 5 bytes each), so the image never has to be buffered whole.
 */
struct png_out {
	FILE *f;
	uint32_t crc;		/* of the current chunk, type included */
	uint32_t adler_a, adler_b;
	uint64_t raw_left;	/* filtered image bytes still to come */
	uint32_t block_left;	/* bytes left in the current stored block */
	int err;
};

static void put(struct png_out *o, const void *p, size_t n)
{
	if (o->err || !n)
		return;
	if (fwrite(p, 1, n, o->f) != n)
		o->err = 1;
	o->crc = png_crc32(o->crc, p, n);
}

static void put_be32(struct png_out *o, uint32_t v)
{
	uint8_t b[4] = { v >> 24, v >> 16, v >> 8, v };

	put(o, b, 4);
}

static void chunk_begin(struct png_out *o, const char *type, uint32_t len)
{
	put_be32(o, len);
	o->crc = 0;
	put(o, type, 4);
}

static void chunk_end(struct png_out *o)
{
	put_be32(o, o->crc);
}

/* Feed filtered image bytes, opening stored blocks as needed. */
static void put_raw(struct png_out *o, const uint8_t *p, size_t n)
{
	while (n) {
		if (!o->block_left) {
			uint32_t len = o->raw_left > STORED_MAX ?
				       STORED_MAX : (uint32_t)o->raw_left;
			uint8_t hdr[5] = { len == o->raw_left, len, len >> 8,
					   ~len, (~len) >> 8 };

			put(o, hdr, 5);
			o->block_left = len;
		}
		size_t k = n < o->block_left ? n : o->block_left;

		put(o, p, k);
		/* Deferring the modulo is safe for 5552 bytes (zlib's NMAX). */
		for (size_t i = 0; i < k; i += 5552) {
			size_t end = i + 5552 < k ? i + 5552 : k;

			for (size_t j = i; j < end; j++) {
				o->adler_a += p[j];
				o->adler_b += o->adler_a;
			}
			o->adler_a %= 65521u;
			o->adler_b %= 65521u;
		}
		o->block_left -= k;
		o->raw_left -= k;
		p += k;
		n -= k;
	}
}

int png_write(const char *path, uint32_t width, uint32_t height,
	      unsigned int channels, const uint8_t *pixels, size_t stride)
{
	static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	struct png_out o = { .adler_a = 1 };
	uint64_t row = 1 + (uint64_t)width * channels;
	uint64_t raw = row * height;
	uint64_t blocks = (raw + STORED_MAX - 1) / STORED_MAX;
	uint64_t idat = 2 + raw + 5 * blocks + 4;
	uint8_t filter = 0;

	if (!width || !height || (channels != 3 && channels != 4) ||
	    width > 0x7fffffff || height > 0x7fffffff || idat > 0x7fffffff ||
	    stride < (uint64_t)width * channels) {
		errno = EINVAL;
		return -1;
	}
	o.f = fopen(path, "wb");
	if (!o.f)
		return -1;
	o.raw_left = raw;

	if (fwrite(sig, 1, sizeof(sig), o.f) != sizeof(sig))
		o.err = 1;

	chunk_begin(&o, "IHDR", 13);
	put_be32(&o, width);
	put_be32(&o, height);
	uint8_t ihdr[5] = { 8, channels == 4 ? 6 : 2, 0, 0, 0 };

	put(&o, ihdr, sizeof(ihdr));
	chunk_end(&o);

	chunk_begin(&o, "IDAT", (uint32_t)idat);
	/* CMF/FLG: deflate, 32K window, no dictionary, fastest; %31 == 0. */
	put(&o, "\x78\x01", 2);
	for (uint32_t y = 0; y < height; y++) {
		put_raw(&o, &filter, 1);
		put_raw(&o, pixels + (size_t)y * stride, row - 1);
	}
	put_be32(&o, o.adler_b << 16 | o.adler_a);
	chunk_end(&o);

	chunk_begin(&o, "IEND", 0);
	chunk_end(&o);

	if (fclose(o.f) != 0)
		o.err = 1;
	if (o.err) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}
