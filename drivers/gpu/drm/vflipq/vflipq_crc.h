/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * CRC arithmetic that lets the composer compute a frame's CRC in pieces
 * (tiles of rows) and put the pieces together without reading the pixels
 * again.  crc32_le() has no inversion, so it is linear over GF(2) in the
 * running CRC and the data together:
 *
 *	crc32_le(0, A || B) = Z(crc32_le(0, A)) ^ crc32_le(0, B)
 *
 * where Z, a 32x32 bit matrix, is what |B| zero bytes do to the CRC.
 * Kept free of other kernel interfaces for the host unit tests
 * (tests/unit/crc_test.c).
 */
#ifndef _VFLIPQ_CRC_H_
#define _VFLIPQ_CRC_H_

#include <linux/types.h>

/**
 * struct vflipq_crc_shift - Z for one length, as four byte-indexed tables
 * @len: the length in bytes
 * @t: @t[k][v] is Z applied to byte @v in position @k of the CRC
 */
struct vflipq_crc_shift {
	size_t len;
	u32 t[4][256];
};

void vflipq_crc_shift_init(struct vflipq_crc_shift *s, size_t len);

/* The CRC after @s->len more zero bytes. */
static inline u32 vflipq_crc_shift(const struct vflipq_crc_shift *s, u32 c)
{
	return s->t[0][c & 0xff] ^ s->t[1][(c >> 8) & 0xff] ^
	       s->t[2][(c >> 16) & 0xff] ^ s->t[3][c >> 24];
}

/*
 * crc32_le(0, A || B) from @a = crc32_le(0, A) and @b = crc32_le(0, B),
 * where B is @s->len bytes long.
 */
static inline u32 vflipq_crc_cat(const struct vflipq_crc_shift *s, u32 a,
				 u32 b)
{
	return vflipq_crc_shift(s, a) ^ b;
}

#endif /* _VFLIPQ_CRC_H_ */
