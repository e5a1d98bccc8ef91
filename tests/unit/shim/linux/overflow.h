/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _SHIM_LINUX_OVERFLOW_H
#define _SHIM_LINUX_OVERFLOW_H
#include <stddef.h>
#include <stdint.h>

/* The kernel's saturates at SIZE_MAX, which makes the allocation fail. */
static inline size_t size_mul(size_t a, size_t b)
{
	size_t r;

	return __builtin_mul_overflow(a, b, &r) ? SIZE_MAX : r;
}
#endif
