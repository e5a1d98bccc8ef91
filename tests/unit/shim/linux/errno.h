/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _SHIM_LINUX_ERRNO_H
#define _SHIM_LINUX_ERRNO_H
#include_next <linux/errno.h>
#endif
