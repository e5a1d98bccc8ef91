/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _SHIM_LINUX_BITOPS_H
#define _SHIM_LINUX_BITOPS_H
#include <linux/bits.h>
#include <linux/types.h>
static inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}
static inline unsigned int __ffs64(u64 x)
{
	return __builtin_ctzll(x);
}
static inline unsigned int hweight64(u64 x)
{
	return __builtin_popcountll(x);
}
#endif
