// SPDX-License-Identifier: GPL-2.0-only
/*
 * The driver's hash arithmetic without 128-bit integers: what a kernel
 * without CONFIG_ARCH_SUPPORTS_INT128 builds (vflipq_hash_variants.h).
 */

#undef CONFIG_ARCH_SUPPORTS_INT128
#include "../vflipq_hash.h"
#include "vflipq_hash_variants.h"

u64 vflipq_test_portable_mulfold(u64 a, u64 b)
{
	return vflipq_hash_mulfold(a, b);
}

u64 vflipq_test_portable_mulfold32(u32 x, u64 b)
{
	return vflipq_hash_mulfold32(x, b);
}

u64 vflipq_test_portable_step2(u64 h, u32 x0, u32 x1)
{
	return vflipq_hash_step2(h, x0, x1);
}

u64 vflipq_test_portable_step1(u64 h, u32 x)
{
	return vflipq_hash_step1(h, x);
}
