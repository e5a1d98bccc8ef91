/* SPDX-License-Identifier: MIT */
/*
 * A copy of userspace/common/vflipq_pxref.h for the KUnit suites, in kernel
 * types.  Keep it in step with the original.
 *
 * Reference pixel arithmetic of vflipq's composer, written from
 * Documentation/vflipq/driver.rst ("Precision") and independently of the
 * driver's code, in 16-bit integer arithmetic (intermediates in 64 bits).
 *
 * The rounding rule: every conversion to fewer bits and every product of
 * two unorm values rounds to nearest, ties away from zero, i.e.
 * floor(x + 1/2), written here as (2 * num + den) / (2 * den).  Products of
 * unorm16 values never tie (65535 is odd), so for them the rule is exact.
 *
 * Used by the KUnit suites against the driver's own functions and by the
 * igt tests against writeback and CRCs.
 */
#ifndef _VFLIPQ_TEST_PXREF_H_
#define _VFLIPQ_TEST_PXREF_H_

#include <linux/types.h>

/* round(num / den) for num, den >= 0, ties up */
static inline u64 pxref_div_round(u64 num, u64 den)
{
	return (2 * num + den) / (2 * den);
}

/* unorm16 product: round(a * b / 65535) */
static inline u16 pxref_mul16(u16 a, u16 b)
{
	return pxref_div_round((u64)a * b, 65535);
}

/* unorm16 to n bits: round(v * (2^n - 1) / 65535) */
static inline u32 pxref_from16(u16 v, unsigned int bits)
{
	return pxref_div_round((u64)v * ((1u << bits) - 1), 65535);
}

/* 8 bits to 16: exact, v * 65535 / 255 */
static inline u16 pxref_8to16(u32 v)
{
	return (v & 0xff) * (65535 / 255);
}

/* 10 bits to 16: bit replication (driver.rst), v * 64 + v / 16 */
static inline u16 pxref_10to16(u32 v)
{
	v &= 0x3ff;
	return v * 64 + v / 16;
}

/* 5 or 6 bits to 16: bit replication, repeating the n bits from the top */
static inline u16 pxref_rep16(u32 v, unsigned int bits)
{
	u32 out = 0;
	int shift = 16 - (int)bits;

	v &= (1u << bits) - 1;
	for (; shift > -(int)bits; shift -= bits)
		out |= shift >= 0 ? v << shift : v >> -shift;
	return out;
}

enum pxref_blend { PXREF_PREMULTI, PXREF_COVERAGE, PXREF_NONE };

/*
 * One channel of the blend equations of driver.rst, each product rounded:
 *   None:           round(pa * fg) + round((1 - pa) * bg)
 *   Pre-multiplied: round(pa * fg) + round((1 - round(pa * a)) * bg)
 *   Coverage:       round(round(pa * a) * fg) + round((1 - round(pa * a)) * bg)
 * saturating at 65535 (invalid premultiplied input).
 */
static inline u16 pxref_blend(u16 bg, u16 fg, u16 a, u16 pa,
			      enum pxref_blend mode)
{
	u32 cover, out;

	switch (mode) {
	case PXREF_NONE:
		cover = pa;
		out = pxref_mul16(fg, pa);
		break;
	case PXREF_COVERAGE:
		cover = pxref_mul16(a, pa);
		out = pxref_mul16(fg, cover);
		break;
	default:
		cover = pxref_mul16(a, pa);
		out = pxref_mul16(fg, pa);
		break;
	}
	out += pxref_mul16(bg, 65535 - cover);
	return out > 65535 ? 65535 : out;
}

/*
 * The CRC input of one opaque composed pixel (a, r, g, b in unorm16) at
 * output depth @bpc (driver.rst, "CRC"): each colour channel rounded to
 * @bpc bits, with an opaque alpha 2^bpc - 1; at 8 bits or less the bytes
 * b, g, r, alpha, above the 16-bit words alpha, r, g, b in CPU byte
 * order.  Fills @out, returns the
 * number of bytes (4 or 8).
 */
static inline unsigned int pxref_crc_bytes(const u16 px[4],
					   unsigned int bpc, u8 out[8])
{
	u32 r = pxref_from16(px[1], bpc), g = pxref_from16(px[2], bpc);
	u32 b = pxref_from16(px[3], bpc);
	const u16 w[4] = { (u16)((1u << bpc) - 1), (u16)r, (u16)g, (u16)b };

	if (bpc <= 8) {
		out[0] = b;
		out[1] = g;
		out[2] = r;
		out[3] = (1u << bpc) - 1;
		return 4;
	}
	__builtin_memcpy(out, w, sizeof(w));
	return 8;
}

#endif /* _VFLIPQ_TEST_PXREF_H_ */
