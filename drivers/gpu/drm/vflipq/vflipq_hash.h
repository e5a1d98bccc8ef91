/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The frame hash the composer reports as a frame's CRC.  Its input is the
 * composed frame at the output depth, row after row (Documentation/vflipq/
 * driver.rst, "CRC"), read as little-endian 32-bit words x_1 .. x_n; the
 * hash is the polynomial
 *
 *	H = x_1 K^(n-1) + x_2 K^(n-2) + ... + x_n  (mod p),  p = 2^61 - 1,
 *
 * computed by Horner's rule, two words a step.  A multiply a word runs on
 * the host's multiplier under QEMU's TCG, where a table-driven CRC costs a
 * table load, a softmmu lookup, per byte.  H is linear, so the composer
 * computes it in pieces (tiles of rows) and puts the pieces together
 * without reading the pixels again:
 *
 *	H(A || B) = H(A) K^|B| + H(B)  (mod p),  |B| in words.
 *
 * A running state is H up to a multiple of p, kept below 2^62 between
 * steps (folds, no full reduction); vflipq_hash_final() gives the
 * canonical value below p.  The same arithmetic as userspace's
 * userspace/common/vflipq_hash.h, bit for bit (the vflipq_hash KUnit
 * suite, tests/vflipq_tiles_test.c).
 */
#ifndef _VFLIPQ_HASH_H_
#define _VFLIPQ_HASH_H_

#include <linux/types.h>

#define VFLIPQ_HASH_P	((1ULL << 61) - 1)
/* The fractional bits of sqrt(2), below p: any fixed key will do. */
#define VFLIPQ_HASH_K	0x016a09e667f3bcc9ULL
/* K^2 mod p: Horner's rule two words at a time. */
#define VFLIPQ_HASH_K2	0x1ff76525aecdd5d0ULL

/* @x mod p, partly reduced: below 2^61 + 8. */
static __always_inline u64 vflipq_hash_fold61(u64 x)
{
	return (x & VFLIPQ_HASH_P) + (x >> 61);
}

/*
 * @a * @b folded once, for @a below 2^63 and @b below 2^61: the low 61
 * bits of the 128-bit product plus the rest, below 2^61 + 2^(n - 61) for
 * a product below 2^n.  Without 128-bit arithmetic the product is put
 * together from 32x32-bit partial products, to the same value.
 */
static __always_inline u64 vflipq_hash_mulfold(u64 a, u64 b)
{
#if defined(CONFIG_ARCH_SUPPORTS_INT128) && defined(__SIZEOF_INT128__)
	__uint128_t x = (__uint128_t)a * b;

	return ((u64)x & VFLIPQ_HASH_P) + (u64)(x >> 61);
#else
	u64 a0 = (u32)a, a1 = a >> 32, b0 = b & 0xffffffff, b1 = b >> 32;
	u64 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0;
	u64 mid = (p00 >> 32) + (u32)p01 + (u32)p10;
	u64 lo = mid << 32 | (u32)p00;
	u64 hi = a1 * b1 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);

	return (lo & VFLIPQ_HASH_P) + (hi << 3 | lo >> 61);
#endif
}

/* The same for a word @x: two partial products fewer without 128 bits. */
static __always_inline u64 vflipq_hash_mulfold32(u32 x, u64 b)
{
#if defined(CONFIG_ARCH_SUPPORTS_INT128) && defined(__SIZEOF_INT128__)
	return vflipq_hash_mulfold(x, b);
#else
	u64 p0 = (u64)x * (b & 0xffffffff), p1 = (u64)x * (b >> 32);
	u64 mid = (p0 >> 32) + (u32)p1;
	u64 lo = mid << 32 | (u32)p0;
	u64 hi = (p1 >> 32) + (mid >> 32);

	return (lo & VFLIPQ_HASH_P) + (hi << 3 | lo >> 61);
#endif
}

/* @a * @b mod p, partly reduced (below 2^61 + 8), @a below 2^63. */
static __always_inline u64 vflipq_hash_mulmod(u64 a, u64 b)
{
	return vflipq_hash_fold61(vflipq_hash_mulfold(a, b));
}

/*
 * The state after words @x0 and @x1 from state @h (below 2^63): h K^2 +
 * x0 K + x1, each product folded on its own (a fold is shifts and adds;
 * a 128-bit sum's add-with-carry costs more under TCG).  The sum stays
 * below 2^61 + 2^63 + 2^61 + 2^28 + 2^32 < 2^64; the result is below
 * 2^61 + 8.
 */
static __always_inline u64 vflipq_hash_step2(u64 h, u32 x0, u32 x1)
{
	return vflipq_hash_fold61(vflipq_hash_mulfold(h, VFLIPQ_HASH_K2) +
				  vflipq_hash_mulfold32(x0, VFLIPQ_HASH_K) +
				  x1);
}

/* The state after word @x from state @h (below 2^63): below 2^61 + 2^33. */
static __always_inline u64 vflipq_hash_step1(u64 h, u32 x)
{
	return vflipq_hash_mulmod(h, VFLIPQ_HASH_K) + x;
}

/* The canonical value, below p, of a state. */
static __always_inline u64 vflipq_hash_final(u64 h)
{
	h = vflipq_hash_fold61(h);
	return h >= VFLIPQ_HASH_P ? h - VFLIPQ_HASH_P : h;
}

/*
 * H(A || B), canonical, from @a = H(A) and @b = H(B), both below 2^62,
 * and @kb = K^|B| (vflipq_hash_pow()).
 */
static inline u64 vflipq_hash_cat(u64 a, u64 b, u64 kb)
{
	return vflipq_hash_final(vflipq_hash_mulmod(a, kb) + b);
}

/* The 32 bits a CRC entry reports of the canonical value @h. */
static inline u32 vflipq_hash_fold(u64 h)
{
	return (u32)(h ^ (h >> 32));
}

u64 vflipq_hash_pow(u64 n);

#endif /* _VFLIPQ_HASH_H_ */
