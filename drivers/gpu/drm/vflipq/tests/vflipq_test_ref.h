/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The reference the KUnit suites hold the driver's frame hash to, written
 * apart from the driver's code: plain modular arithmetic, a word at a time,
 * a full reduction per word (what the driver's folds and pairs of words
 * must agree with).  The kernel has no 128-bit division: a product
 * hi 2^64 + lo is reduced as hi * 8 + lo, 2^64 being 8 mod p, with 64-bit
 * remainders only (nothing of the driver's folding by 2^61).
 */
#ifndef _VFLIPQ_TEST_REF_H_
#define _VFLIPQ_TEST_REF_H_

#include <linux/types.h>

#define REF_HASH_P 0x1fffffffffffffffULL	/* 2^61 - 1 */
#define REF_HASH_K 0x016a09e667f3bcc9ULL

static inline u64 ref_mulmod(u64 a, u64 b)
{
	__uint128_t x = (__uint128_t)a * b;
	u64 hi = x >> 64, lo = x;

	return ((hi % REF_HASH_P) * 8 % REF_HASH_P + lo % REF_HASH_P) %
	       REF_HASH_P;
}

/*
 * H of the @n bytes at @p (a multiple of 4, read as little-endian words)
 * after the stream whose H is @h: h K^(n/4) + H(p) mod p, canonical.
 */
static inline u64 ref_hash(u64 h, const void *p, size_t n)
{
	const u8 *b = p;

	h %= REF_HASH_P;
	for (; n >= 4; n -= 4, b += 4) {
		u32 x = b[0] | b[1] << 8 | b[2] << 16 | (u32)b[3] << 24;

		h = (ref_mulmod(h, REF_HASH_K) + x) % REF_HASH_P;
	}
	return h;
}

/* K^n mod p, one multiply at a time. */
static inline u64 ref_pow(u64 n)
{
	u64 r = 1;

	while (n--)
		r = ref_mulmod(r, REF_HASH_K);
	return r;
}

/* The 32 bits of a CRC entry. */
static inline u32 ref_hash_fold(u64 h)
{
	return (u32)h ^ (u32)(h >> 32);
}

#endif /* _VFLIPQ_TEST_REF_H_ */
