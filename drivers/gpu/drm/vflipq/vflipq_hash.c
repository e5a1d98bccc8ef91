// SPDX-License-Identifier: GPL-2.0-only
/*
 * The powers of the frame hash's key (vflipq_hash.h) that join its pieces:
 * K^n by squaring, log2(n) products instead of n.
 */

#include <linux/types.h>

#include "vflipq_compat.h"
#include "vflipq_hash.h"

/**
 * vflipq_hash_pow - K^@n mod p, for joining a piece of @n words
 * @n: length in 32-bit words
 *
 * Return: K^@n mod p, canonical (below p).
 */
u64 vflipq_hash_pow(u64 n)
{
	u64 r = 1, k = VFLIPQ_HASH_K;

	for (; n; n >>= 1, k = vflipq_hash_final(vflipq_hash_mulmod(k, k)))
		if (n & 1)
			r = vflipq_hash_final(vflipq_hash_mulmod(r, k));
	return r;
}
EXPORT_SYMBOL_IF_KUNIT(vflipq_hash_pow);
