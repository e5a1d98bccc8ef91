/* SPDX-License-Identifier: GPL-2.0-only */
/* Host build of kernel code: the allocations vflipq_tiles.c makes. */
#ifndef _SHIM_LINUX_SLAB_H
#define _SHIM_LINUX_SLAB_H
#include <stdlib.h>
#include <linux/types.h>

#define GFP_KERNEL 0
#define kvzalloc(n, gfp) calloc(1, (n))
#define kvmalloc_array(n, size, gfp) malloc((n) * (size))
#define kvfree(p) free(p)
#endif
