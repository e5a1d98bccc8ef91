/* SPDX-License-Identifier: MIT */
/*
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
#ifndef VFLIPQ_HASH_H
#define VFLIPQ_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define VFQ_HASH_P ((UINT64_C(1) << 61) - 1)
/* The fractional bits of sqrt(2), below p: any fixed key will do. */
#define VFQ_HASH_K UINT64_C(0x016a09e667f3bcc9)

/* x mod p, partly reduced: below 2^61 + 2^(n - 61) for x below 2^n. */
static inline uint64_t vfq_hash_fold61(unsigned __int128 x)
{
	return ((uint64_t)x & VFQ_HASH_P) + (uint64_t)(x >> 61);
}

/*
 * a * b mod p, partly reduced: a < 2^63, b < 2^61 gives a result below
 * 2^61 + 8, so a state may carry a word added on top (below 2^62).
 */
static inline uint64_t vfq_hash_mulmod(uint64_t a, uint64_t b)
{
	return vfq_hash_fold61(vfq_hash_fold61((unsigned __int128)a * b));
}

/* The canonical value, below p, of a state below 2^63. */
static inline uint64_t vfq_hash_final(uint64_t h)
{
	h = vfq_hash_fold61(h);
	return h >= VFQ_HASH_P ? h - VFQ_HASH_P : h;
}

/* K^2 mod p: Horner's rule two words at a time. */
#define VFQ_HASH_K2 UINT64_C(0x1ff76525aecdd5d0)

/*
 * The state after the @n words at @p, from state @h (below 2^63).  Two
 * words a step, h K^2 + x_1 K + x_2, each product folded on its own: under
 * QEMU's TCG a 128-bit sum's add-with-carry costs more than a fold, which
 * is shifts and adds (vflipq-bench memcpy: frame_hash_bandwidth).
 */
static inline uint64_t vfq_hash_words(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;
	uint32_t x[2];

	for (; n >= 2; n -= 2, b += 8) {
		uint64_t s;

		memcpy(x, b, sizeof(x));
		/* < 2^61 + 2^63, < 2^61 + 2^32: the sum stays below 2^64 */
		s = vfq_hash_fold61((unsigned __int128)h * VFQ_HASH_K2) +
		    vfq_hash_fold61((unsigned __int128)x[0] * VFQ_HASH_K) + x[1];
		h = vfq_hash_fold61(s);
	}
	if (n) {
		memcpy(x, b, sizeof(x[0]));
		h = vfq_hash_mulmod(h, VFQ_HASH_K) + x[0];
	}
	return h;
}

/* K^n mod p, for joining a piece of @n words. */
static inline uint64_t vfq_hash_pow(uint64_t n)
{
	uint64_t r = 1, k = VFQ_HASH_K;

	for (; n; n >>= 1, k = vfq_hash_final(vfq_hash_mulmod(k, k)))
		if (n & 1)
			r = vfq_hash_final(vfq_hash_mulmod(r, k));
	return r;
}

/* H(A || B) from @a = H(A), @b = H(B) and @kb = K^|B| (vfq_hash_pow()). */
static inline uint64_t vfq_hash_cat(uint64_t a, uint64_t b, uint64_t kb)
{
	return vfq_hash_final(vfq_hash_mulmod(a, kb) + b);
}

/* The 32 bits a CRC entry reports. */
static inline uint32_t vfq_hash_fold(uint64_t h)
{
	return (uint32_t)(h ^ (h >> 32));
}

#endif /* VFLIPQ_HASH_H */
