/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _SHIM_LINUX_BITS_H
#define _SHIM_LINUX_BITS_H
#define BIT(n) (1UL << (n))
#endif
