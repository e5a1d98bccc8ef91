/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _SHIM_LINUX_IOSYS_MAP_H
#define _SHIM_LINUX_IOSYS_MAP_H
#include <linux/types.h>
struct iosys_map {
	void *vaddr;
	bool is_iomem;
};
#endif
