/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _UNIT_CRC_PORTABLE_H
#define _UNIT_CRC_PORTABLE_H
#include <linux/types.h>
u64 portable_mulfold(u64 a, u64 b);
u64 portable_mulfold32(u32 x, u64 b);
u64 portable_step2(u64 h, u32 x0, u32 x1);
u64 portable_step1(u64 h, u32 x);
#endif
