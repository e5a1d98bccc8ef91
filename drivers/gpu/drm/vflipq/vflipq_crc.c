// SPDX-License-Identifier: GPL-2.0-only
/*
 * The zero-bytes operator of crc32_le() (see vflipq_crc.h), built by
 * squaring: log2(len) products of 32x32 bit matrices instead of running
 * the CRC over len zero bytes 32 times.
 */

#include <linux/string.h>
#include <linux/types.h>

#include "vflipq_crc.h"

/* A matrix as its columns: m[i] is the image of bit i. */
static u32 mat_apply(const u32 *m, u32 v)
{
	u32 r = 0;
	unsigned int i;

	for (i = 0; v; i++, v >>= 1)
		if (v & 1)
			r ^= m[i];
	return r;
}

/* @r = @a * @b; @r may be either operand. */
static void mat_mul(u32 *r, const u32 *a, const u32 *b)
{
	u32 t[32];
	unsigned int i;

	for (i = 0; i < 32; i++)
		t[i] = mat_apply(a, b[i]);
	memcpy(r, t, sizeof(t));
}

/**
 * vflipq_crc_shift_init - fill the operator for @len zero bytes
 * @s: the operator
 * @len: length in bytes
 */
void vflipq_crc_shift_init(struct vflipq_crc_shift *s, size_t len)
{
	u32 z[32], m[32];
	unsigned int i, k, v, bit;
	size_t n = len;

	/* z: one zero byte, eight steps of the reflected polynomial. */
	for (i = 0; i < 32; i++) {
		u32 c = 1u << i;

		for (bit = 0; bit < 8; bit++)
			c = c & 1 ? (c >> 1) ^ 0xedb88320 : c >> 1;
		z[i] = c;
		m[i] = 1u << i;
	}
	for (; n; n >>= 1) {
		if (n & 1)
			mat_mul(m, z, m);
		mat_mul(z, z, z);
	}

	s->len = len;
	for (k = 0; k < 4; k++) {
		s->t[k][0] = 0;
		for (v = 1; v < 256; v++) {
			for (bit = 0; !(v & (1u << bit)); bit++)
				;
			s->t[k][v] = s->t[k][v & (v - 1)] ^ m[8 * k + bit];
		}
	}
}
