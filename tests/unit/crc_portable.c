// SPDX-License-Identifier: GPL-2.0-only
/*
 * The driver's hash arithmetic without 128-bit integers: what a kernel
 * without CONFIG_ARCH_SUPPORTS_INT128 builds (crc_test.c holds it to the
 * 128-bit one, bit for bit).
 */
#undef CONFIG_ARCH_SUPPORTS_INT128
#include "vflipq_hash.h"
#include "crc_portable.h"

u64 portable_mulfold(u64 a, u64 b)
{
	return vflipq_hash_mulfold(a, b);
}

u64 portable_mulfold32(u32 x, u64 b)
{
	return vflipq_hash_mulfold32(x, b);
}

u64 portable_step2(u64 h, u32 x0, u32 x1)
{
	return vflipq_hash_step2(h, x0, x1);
}

u64 portable_step1(u64 h, u32 x)
{
	return vflipq_hash_step1(h, x);
}
