/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The driver's hash arithmetic (../vflipq_hash.h) built both ways,
 * whatever the kernel's CONFIG_ARCH_SUPPORTS_INT128 makes the driver use:
 * with 128-bit integers (vflipq_hash_int128.c) and without
 * (vflipq_hash_portable.c), so that the suite holds each to the other and
 * to the references on any architecture (UML has no
 * CONFIG_ARCH_SUPPORTS_INT128; x86_64 has it).
 */
#ifndef _VFLIPQ_HASH_VARIANTS_H_
#define _VFLIPQ_HASH_VARIANTS_H_

#include <linux/types.h>

u64 vflipq_test_portable_mulfold(u64 a, u64 b);
u64 vflipq_test_portable_mulfold32(u32 x, u64 b);
u64 vflipq_test_portable_step2(u64 h, u32 x0, u32 x1);
u64 vflipq_test_portable_step1(u64 h, u32 x);

u64 vflipq_test_int128_mulfold(u64 a, u64 b);
u64 vflipq_test_int128_mulfold32(u32 x, u64 b);
u64 vflipq_test_int128_step2(u64 h, u32 x0, u32 x1);
u64 vflipq_test_int128_step1(u64 h, u32 x);

#endif /* _VFLIPQ_HASH_VARIANTS_H_ */
