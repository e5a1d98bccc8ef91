/* SPDX-License-Identifier: GPL-2.0-only */
/* Host build of kernel code: the kernel types the flip-queue core uses. */
#ifndef _SHIM_LINUX_TYPES_H
#define _SHIM_LINUX_TYPES_H
#include_next <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
/* The kernel's compiler_types.h, included everywhere there. */
#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif
#endif
