// SPDX-License-Identifier: GPL-2.0-only
/*
 * Flip-queue logs: kernel memory the display engine writes from its timer
 * and the client maps read-only, exposed as a GEM object so that the usual
 * DRM_IOCTL_MODE_MAP_DUMB + mmap path works.
 */

#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include <drm/drm_gem.h>
#include <drm/drm_vma_manager.h>

#include "vflipq_compat.h"
#include "vflipq_drv.h"

static void vflipq_log_free(struct drm_gem_object *obj)
{
	struct vflipq_log *log = container_of(obj, struct vflipq_log, base);

	drm_gem_free_mmap_offset(obj);
	drm_gem_object_release(obj);
	vfree(log->entries);
	kfree(log);
}

/* The log belongs to the engine: userspace may only read it. */
static int vflipq_log_mmap(struct drm_gem_object *obj,
			   struct vm_area_struct *vma)
{
	struct vflipq_log *log = container_of(obj, struct vflipq_log, base);

	if (vma->vm_flags & VM_WRITE)
		return -EACCES;
	vflipq_vma_forbid_write(vma);
	vma->vm_pgoff -= drm_vma_node_start(&obj->vma_node);
	return remap_vmalloc_range(vma, log->entries, vma->vm_pgoff);
}

/*
 * A log is the engine's private record for its client, not a buffer to
 * share: it has no pages for a dma-buf importer (and the PRIME helpers
 * would WARN trying to map it).
 */
static struct dma_buf *vflipq_log_export(struct drm_gem_object *obj,
					 int flags)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static const struct vm_operations_struct vflipq_log_vm_ops = {
	.open = drm_gem_vm_open,
	.close = drm_gem_vm_close,
};

static const struct drm_gem_object_funcs vflipq_log_funcs = {
	.free = vflipq_log_free,
	.export = vflipq_log_export,
	.mmap = vflipq_log_mmap,
	.vm_ops = &vflipq_log_vm_ops,
};

/**
 * vflipq_log_create - allocate a log of @num_entries entries
 * @drm: device
 * @num_entries: 1 to VFLIPQ_LOG_MAX_ENTRIES
 *
 * Return: the log (one reference) or an ERR_PTR.
 */
struct vflipq_log *vflipq_log_create(struct drm_device *drm, u32 num_entries)
{
	size_t size = PAGE_ALIGN((size_t)num_entries *
				 sizeof(struct vfq_log_entry));
	struct vflipq_log *log;
	int ret;

	log = kzalloc(sizeof(*log), GFP_KERNEL);
	if (!log)
		return ERR_PTR(-ENOMEM);

	log->entries = vmalloc_user(size);
	if (!log->entries) {
		kfree(log);
		return ERR_PTR(-ENOMEM);
	}
	log->num_entries = num_entries;
	log->base.funcs = &vflipq_log_funcs;
	drm_gem_private_object_init(drm, &log->base, size);

	ret = drm_gem_create_mmap_offset(&log->base);
	if (ret) {
		drm_gem_object_put(&log->base);
		return ERR_PTR(ret);
	}
	return log;
}
