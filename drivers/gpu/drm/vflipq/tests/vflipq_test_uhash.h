/* SPDX-License-Identifier: MIT */
/*
 * A copy of userspace/common/vflipq_hash.h for the KUnit suites, in kernel
 * types: userspace's implementation of the frame hash, written
 * independently of the driver's ../vflipq_hash.h, one of the references
 * the suites hold the driver to.  Keep it in step with the original.
 *
 * The composer's frame hash, the value vflipq's CRC entries report
 * (folded to 32 bits, vfq_hash_fold()), written for userspace
 * independently of the driver's drivers/gpu/drm/vflipq/vflipq_hash.h.
 * The input is the CRC input of Documentation/vflipq/driver.rst, "CRC"
 * (the composed frame at the output depth), read as little-endian 32-bit
 * words x_1 .. x_n; the hash is the polynomial
 *
 *	H = x_1 K^(n-1) + x_2 K^(n-2) + ... + x_n  (mod p),  p = 2^61 - 1
 *
 * computed by Horner's rule, one 64x64-bit multiply a word.  Under TCG a
 * multiply is one host instruction, where a table-driven CRC costs a
 * table load (a softmmu lookup) per byte.  H is linear, so pieces combine
 * without the pixels:
 *
 *	H(A || B) = H(A) K^|B| + H(B)  (mod p),  |B| in words,
 *
 * and equal streams give equal values, whatever the pieces.  Words are
 * below 2^32 < p, so no two streams of one length differ by a multiple of
 * p word by word; two different frames of equal length collide only where
 * the polynomial of their difference, of degree below n, has K as a root:
 * at most n - 1 of the p - 1 nonzero keys.
 */
#ifndef _VFLIPQ_TEST_UHASH_H_
#define _VFLIPQ_TEST_UHASH_H_

#include <linux/string.h>
#include <linux/types.h>

#define VFQ_HASH_P ((1ULL << 61) - 1)
/* The fractional bits of sqrt(2), below p: any fixed key will do. */
#define VFQ_HASH_K 0x016a09e667f3bcc9ULL

/* x mod p, partly reduced: below 2^61 + 2^(n - 61) for x below 2^n. */
static inline u64 vfq_hash_fold61(__uint128_t x)
{
	return ((u64)x & VFQ_HASH_P) + (u64)(x >> 61);
}

/*
 * a * b mod p, partly reduced: a < 2^63, b < 2^61 gives a result below
 * 2^61 + 8, so a state may carry a word added on top (below 2^62).
 */
static inline u64 vfq_hash_mulmod(u64 a, u64 b)
{
	return vfq_hash_fold61(vfq_hash_fold61((__uint128_t)a * b));
}

/* The canonical value, below p, of a state below 2^63. */
static inline u64 vfq_hash_final(u64 h)
{
	h = vfq_hash_fold61(h);
	return h >= VFQ_HASH_P ? h - VFQ_HASH_P : h;
}

/* K^2 mod p: Horner's rule two words at a time. */
#define VFQ_HASH_K2 0x1ff76525aecdd5d0ULL

/*
 * The state after the @n words at @p, from state @h (below 2^63).  Two
 * words a step, h K^2 + x_1 K + x_2, each product folded on its own: under
 * QEMU's TCG a 128-bit sum's add-with-carry costs more than a fold, which
 * is shifts and adds (vflipq-bench memcpy: frame_hash_bandwidth).
 */
static inline u64 vfq_hash_words(u64 h, const void *p, size_t n)
{
	const u8 *b = p;
	u32 x[2];

	for (; n >= 2; n -= 2, b += 8) {
		u64 s;

		memcpy(x, b, sizeof(x));
		/* < 2^61 + 2^63, < 2^61 + 2^32: the sum stays below 2^64 */
		s = vfq_hash_fold61((__uint128_t)h * VFQ_HASH_K2) +
		    vfq_hash_fold61((__uint128_t)x[0] * VFQ_HASH_K) + x[1];
		h = vfq_hash_fold61(s);
	}
	if (n) {
		memcpy(x, b, sizeof(x[0]));
		h = vfq_hash_mulmod(h, VFQ_HASH_K) + x[0];
	}
	return h;
}

/* K^n mod p, for joining a piece of @n words. */
static inline u64 vfq_hash_pow(u64 n)
{
	u64 r = 1, k = VFQ_HASH_K;

	for (; n; n >>= 1, k = vfq_hash_final(vfq_hash_mulmod(k, k)))
		if (n & 1)
			r = vfq_hash_final(vfq_hash_mulmod(r, k));
	return r;
}

/* H(A || B) from @a = H(A), @b = H(B) and @kb = K^|B| (vfq_hash_pow()). */
static inline u64 vfq_hash_cat(u64 a, u64 b, u64 kb)
{
	return vfq_hash_final(vfq_hash_mulmod(a, kb) + b);
}

/* The 32 bits a CRC entry reports. */
static inline u32 vfq_hash_fold(u64 h)
{
	return (u32)(h ^ (h >> 32));
}

#endif /* _VFLIPQ_TEST_UHASH_H_ */
