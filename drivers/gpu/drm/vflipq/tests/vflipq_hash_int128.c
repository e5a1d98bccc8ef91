// SPDX-License-Identifier: GPL-2.0-only
/*
 * The driver's hash arithmetic with 128-bit integers: what a kernel with
 * CONFIG_ARCH_SUPPORTS_INT128 builds (vflipq_hash_variants.h).
 */

#ifndef CONFIG_ARCH_SUPPORTS_INT128
#define CONFIG_ARCH_SUPPORTS_INT128 1
#endif
#include "../vflipq_hash.h"
#include "vflipq_hash_variants.h"

#ifndef __SIZEOF_INT128__
#error "the KUnit suites of vflipq need a compiler with 128-bit integers"
#endif

u64 vflipq_test_int128_mulfold(u64 a, u64 b)
{
	return vflipq_hash_mulfold(a, b);
}

u64 vflipq_test_int128_mulfold32(u32 x, u64 b)
{
	return vflipq_hash_mulfold32(x, b);
}

u64 vflipq_test_int128_step2(u64 h, u32 x0, u32 x1)
{
	return vflipq_hash_step2(h, x0, x1);
}

u64 vflipq_test_int128_step1(u64 h, u32 x)
{
	return vflipq_hash_step1(h, x);
}
