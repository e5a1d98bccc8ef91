/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Out-fence contexts: what vflipq's out-fences lock and name, refcounted by
 * the fences themselves (vflipq_fence.c).
 */
#ifndef _VFLIPQ_FENCE_H_
#define _VFLIPQ_FENCE_H_

#include <linux/compiler_attributes.h>

struct drm_atomic_state;
struct vflipq_fence_ctx;

__printf(1, 2)
struct vflipq_fence_ctx *vflipq_fence_ctx_create(const char *fmt, ...);
void vflipq_fence_ctx_release(struct vflipq_fence_ctx *ctx);
void vflipq_fence_adopt_commit(struct drm_atomic_state *state);
void vflipq_fence_exit(void);

#endif /* _VFLIPQ_FENCE_H_ */
