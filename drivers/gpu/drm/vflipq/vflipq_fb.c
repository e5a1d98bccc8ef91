// SPDX-License-Identifier: GPL-2.0-only
/*
 * Framebuffers that stay mapped.  The scan-out engine is the CPU, so every
 * framebuffer that reaches a plane, the flip queue, the copy engine or a
 * writeback job needs a kernel mapping.  Taken per use, a swap chain would
 * pay for a vmap() of its whole buffer at each flip (a buffer that left the
 * screen would have lost its mapping) and the commit worker for a vunmap()
 * when it left: under TCG about 0.4 ms of CPU per flip of a 1080p buffer
 * (Documentation/vflipq/driver.rst, "Framebuffer mappings").  So a
 * framebuffer is mapped at its first use and unmapped when it is destroyed.
 */

#include <linux/mutex.h>
#include <linux/slab.h>

#include <drm/drm_framebuffer.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_framebuffer_helper.h>

#include "vflipq_drv.h"

/**
 * struct vflipq_fb - a framebuffer and its kernel mapping
 * @base: the DRM framebuffer; first, so that drm_gem_fb_destroy() frees
 *	the whole structure
 * @lock: serializes the first mapping (several commits, flip-queue
 *	submissions and copies may race to it)
 * @mapped: @map holds a mapping; set once, under @lock
 * @map: the mapping of each GEM object
 * @data: the address of each plane's data in @map
 */
struct vflipq_fb {
	struct drm_framebuffer base;
	struct mutex lock;	/* serializes the first mapping */
	bool mapped;
	struct iosys_map map[DRM_FORMAT_MAX_PLANES];
	struct iosys_map data[DRM_FORMAT_MAX_PLANES];
};

static_assert(offsetof(struct vflipq_fb, base) == 0);

static struct vflipq_fb *to_vflipq_fb(struct drm_framebuffer *fb)
{
	return container_of(fb, struct vflipq_fb, base);
}

/* Runs where the last reference goes: process context, may sleep. */
static void vflipq_fb_destroy(struct drm_framebuffer *fb)
{
	struct vflipq_fb *vfb = to_vflipq_fb(fb);

	if (vfb->mapped)
		drm_gem_fb_vunmap(fb, vfb->map);
	mutex_destroy(&vfb->lock);
	drm_gem_fb_destroy(fb);
}

static const struct drm_framebuffer_funcs vflipq_fb_funcs = {
	.destroy	= vflipq_fb_destroy,
	.create_handle	= drm_gem_fb_create_handle,
};

/* drm_gem_fb_create() with vflipq's framebuffer around the DRM one. */
struct drm_framebuffer *vflipq_gem_fb_create(struct drm_device *drm,
					     struct drm_file *file,
					     const struct drm_format_info *info,
					     const struct drm_mode_fb_cmd2 *cmd)
{
	struct vflipq_fb *vfb;
	int ret;

	vfb = kzalloc(sizeof(*vfb), GFP_KERNEL);
	if (!vfb)
		return ERR_PTR(-ENOMEM);
	/* Before the framebuffer can be looked up by its ID. */
	mutex_init(&vfb->lock);
#ifdef VFLIPQ_HAVE_FB_CREATE_INFO
	ret = drm_gem_fb_init_with_funcs(drm, &vfb->base, file, info, cmd,
					 &vflipq_fb_funcs);
#else
	ret = drm_gem_fb_init_with_funcs(drm, &vfb->base, file, cmd,
					 &vflipq_fb_funcs);
#endif
	if (ret) {
		mutex_destroy(&vfb->lock);
		kfree(vfb);
		return ERR_PTR(ret);
	}
	return &vfb->base;
}

/**
 * vflipq_fb_vmap - the kernel mapping of a framebuffer
 * @fb: a framebuffer of a vflipq device
 * @data: returns the address of each plane's data (fb->format->num_planes)
 *
 * The first call maps the framebuffer; the mapping lasts until the
 * framebuffer is destroyed, so a caller holds a reference to @fb for as
 * long as it reads or writes through @data.  May sleep.
 *
 * Return: 0, -EINVAL for I/O memory (the composer reads with plain loads),
 * or the error of drm_gem_fb_vmap().
 */
int vflipq_fb_vmap(struct drm_framebuffer *fb, struct iosys_map *data)
{
	struct vflipq_fb *vfb = to_vflipq_fb(fb);
	unsigned int n = fb->format->num_planes;
	int ret = 0;

	if (WARN_ON(fb->funcs != &vflipq_fb_funcs))
		return -EINVAL;

	mutex_lock(&vfb->lock);
	if (!vfb->mapped) {
		ret = drm_gem_fb_vmap(fb, vfb->map, vfb->data);
		if (!ret && vfb->map[0].is_iomem) {
			drm_gem_fb_vunmap(fb, vfb->map);
			ret = -EINVAL;
		}
		vfb->mapped = !ret;
	}
	if (!ret)
		memcpy(data, vfb->data, n * sizeof(*data));
	mutex_unlock(&vfb->lock);
	return ret;
}
