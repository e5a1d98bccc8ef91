// SPDX-License-Identifier: GPL-2.0-only
/**
 * DOC: vflipq
 *
 * vflipq is a virtual display adapter: a KMS driver with no hardware behind
 * it, in the spirit of vkms, that models several devices with several CRTCs
 * each, primary/overlay/cursor planes, hrtimer-driven vblanks and a software
 * composer whose output is exposed as CRCs and through writeback
 * connectors.  Devices come from the module parameters (the "default"
 * device) and from configfs.
 */

#include <linux/dma-fence.h>
#include <linux/dma-mapping.h>
#include <linux/idr.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/workqueue.h>

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_debugfs.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_framebuffer_helper.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <drm/drm_vblank.h>

#include "vflipq_drm.h"
#include "vflipq_drv.h"
#include "vflipq_fence.h"

static unsigned int param_crtcs = 2;
module_param_named(crtcs, param_crtcs, uint, 0444);
MODULE_PARM_DESC(crtcs, "CRTCs of the default device (0-8, 0: render-only, default 2)");

static unsigned int param_caso_caps = VFLIPQ_CASO_ALL;
module_param_named(caso_caps, param_caso_caps, uint, 0444);
MODULE_PARM_DESC(caso_caps, "Cross-adapter scan-out bits of the default device: 1 copy, 2 texture, 4 scan-out (a superset, default 7: tier 3)");

static bool param_hybrid_integrated;
module_param_named(hybrid_integrated, param_hybrid_integrated, bool, 0444);
MODULE_PARM_DESC(hybrid_integrated, "The default device is the display adapter of a hybrid system (needs tier 3)");

static unsigned long long param_bandwidth;
module_param_named(bandwidth, param_bandwidth, ullong, 0444);
MODULE_PARM_DESC(bandwidth, "Display bandwidth of the default device in pixels per second (0: unlimited)");

static unsigned int param_overlays = 2;
module_param_named(overlays, param_overlays, uint, 0444);
MODULE_PARM_DESC(overlays, "Overlay planes per CRTC of the default device (0-8, default 2)");

static bool param_cursor = true;
module_param_named(cursor, param_cursor, bool, 0444);
MODULE_PARM_DESC(cursor, "Cursor planes on the default device (default on)");

static bool param_writeback = true;
module_param_named(writeback, param_writeback, bool, 0444);
MODULE_PARM_DESC(writeback, "Writeback connectors on the default device (default on)");

static unsigned int param_flipq_depth = VFLIPQ_FLIPQ_DEFAULT_DEPTH;
module_param_named(flipq_depth, param_flipq_depth, uint, 0444);
MODULE_PARM_DESC(flipq_depth, "Future flips per plane on the default device (1-64, 1: no flip queue, default 8)");

static bool param_fbdev;
module_param_named(fbdev, param_fbdev, bool, 0444);
MODULE_PARM_DESC(fbdev, "fbdev emulation (/dev/fbN) on the default device (default off)");

static bool param_vblank_align = true;
module_param_named(vblank_align, param_vblank_align, bool, 0444);
MODULE_PARM_DESC(vblank_align, "vblanks of the default device on multiples of the frame duration, shared with every aligned output of that duration (default on)");

static bool param_create_default = true;
module_param_named(create_default, param_create_default, bool, 0444);
MODULE_PARM_DESC(create_default, "Create the default device at load (default on)");

static DEFINE_IDA(vflipq_ida);
static struct vflipq_device *vflipq_default;

static int vflipq_release(struct inode *inode, struct file *filp)
{
	struct drm_file *file = filp->private_data;

	vflipq_flipq_file_gone(to_vflipq_device(file->minor->dev), file);
	return drm_release(inode, filp);
}

/*
 * The DRM core releases a file's pending events before any driver hook
 * runs; the flip queue has to let go of the file (and stop sending it
 * events) before that, so the release fop comes first.
 */
static const struct file_operations vflipq_fops = {
	.owner		= THIS_MODULE,
	.open		= drm_open,
	.release	= vflipq_release,
	.unlocked_ioctl	= drm_ioctl,
	.compat_ioctl	= drm_compat_ioctl,
	.poll		= drm_poll,
	.read		= drm_read,
	.llseek		= noop_llseek,
	.mmap		= drm_gem_mmap,
	VFLIPQ_COMPAT_FOPS
};

static void vflipq_master_drop(struct drm_device *drm, struct drm_file *file)
{
	vflipq_flipq_file_gone(to_vflipq_device(drm), file);
}

/*
 * Dumb buffers are allocated the way cross-adapter buffers must be laid
 * out (rows a multiple of 128 bytes, height a multiple of 4), so any of
 * them can be shared with another adapter.  Not through
 * drm_gem_shmem_dumb_create(): since it sizes buffers with
 * drm_mode_size_dumb() (7.x), it replaces the driver's pitch and size with
 * its own.
 */
static int vflipq_dumb_create(struct drm_file *file, struct drm_device *drm,
			      struct drm_mode_create_dumb *args)
{
	u64 pitch = ALIGN(DIV_ROUND_UP((u64)args->width * args->bpp, 8),
			  VFLIPQ_CASO_PITCH_ALIGN);
	u64 size = PAGE_ALIGN(pitch * ALIGN((u64)args->height, 4));
	struct drm_gem_shmem_object *shmem;
	int ret;

	if (pitch > U32_MAX || size > SZ_1G)
		return -EINVAL;
	shmem = drm_gem_shmem_create(drm, size);
	if (IS_ERR(shmem))
		return PTR_ERR(shmem);
	/* The handle holds the object from now on. */
	ret = drm_gem_handle_create(file, &shmem->base, &args->handle);
	drm_gem_object_put(&shmem->base);
	if (ret)
		return ret;
	args->pitch = pitch;
	args->size = size;
	return 0;
}

static const struct drm_ioctl_desc vflipq_ioctls[] = {
	DRM_IOCTL_DEF_DRV(VFLIPQ_GET_CAPS, vflipq_ioctl_get_caps,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(VFLIPQ_FLIPQ_CANCEL, vflipq_ioctl_flipq_cancel,
			  DRM_MASTER),
	DRM_IOCTL_DEF_DRV(VFLIPQ_FLIPQ_SET_LOG, vflipq_ioctl_flipq_set_log,
			  DRM_MASTER),
	DRM_IOCTL_DEF_DRV(VFLIPQ_FLIPQ_UPDATE_LOG,
			  vflipq_ioctl_flipq_update_log, DRM_MASTER),
	DRM_IOCTL_DEF_DRV(VFLIPQ_GET_COUNTERS, vflipq_ioctl_get_counters,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(VFLIPQ_COPY, vflipq_ioctl_copy, 0),
	DRM_IOCTL_DEF_DRV(VFLIPQ_SCANOUT_QUERY, vflipq_ioctl_scanout_query,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(VFLIPQ_FLIPQ_SUBMIT, vflipq_ioctl_flipq_submit,
			  DRM_MASTER),
};

static int vflipq_config_show(struct seq_file *m, void *data)
{
	struct drm_info_node *node = m->private;
	struct vflipq_device *vdev = to_vflipq_device(node->minor->dev);
	const struct vflipq_config *cfg = &vdev->config;
	char mode[32];
	unsigned int i;

	seq_printf(m, "name=%s\nid=%d\ncrtcs=%u\noverlays=%u\n", cfg->name,
		   vdev->id, cfg->crtcs, cfg->overlays);
	seq_printf(m, "cursor=%d\nwriteback=%d\nflipq_depth=%u\n", cfg->cursor,
		   cfg->writeback, cfg->flipq_depth);
	seq_printf(m, "caso_tier=%u\nhybrid_integrated=%d\nbandwidth=%llu\n",
		   vflipq_caso_tier(cfg->caso_caps), cfg->hybrid_integrated,
		   cfg->bandwidth);
	seq_printf(m, "fbdev=%d\nvblank_align=%d\n", cfg->fbdev,
		   cfg->vblank_align);
	for (i = 0; i < cfg->num_modes; i++) {
		vflipq_format_mode(&cfg->modes[i], mode, sizeof(mode));
		seq_printf(m, "mode=%s%s\n", mode,
			   i == cfg->preferred ? " preferred" : "");
	}
	return 0;
}

static int vflipq_flipq_show(struct seq_file *m, void *data)
{
	struct drm_info_node *node = m->private;
	struct vflipq_device *vdev = to_vflipq_device(node->minor->dev);
	unsigned int i;

	for (i = 0; i < vdev->config.crtcs; i++)
		vflipq_flipq_debugfs_show(m, vdev->outputs[i]);
	return 0;
}

/* The copy engine and cross-adapter scan-out of the device. */
static int vflipq_caso_show(struct seq_file *m, void *data)
{
	struct drm_info_node *node = m->private;
	struct vflipq_device *vdev = to_vflipq_device(node->minor->dev);

	seq_printf(m, "tier=%u\ncopies=%lld\nbytes_copied=%lld\nimported_scanouts=%lld\n",
		   vflipq_caso_tier(vdev->config.caso_caps),
		   (long long)atomic64_read(&vdev->copies),
		   (long long)atomic64_read(&vdev->bytes_copied),
		   (long long)atomic64_read(&vdev->imported_scanouts));
	return 0;
}

static const struct drm_info_list vflipq_debugfs_list[] = {
	{ "vflipq_config", vflipq_config_show, 0, NULL },
	{ "vflipq_flipq", vflipq_flipq_show, 0, NULL },
	{ "vflipq_caso", vflipq_caso_show, 0, NULL },
};

static void vflipq_debugfs_init(struct drm_minor *minor)
{
	drm_debugfs_create_files(vflipq_debugfs_list,
				 ARRAY_SIZE(vflipq_debugfs_list),
				 minor->debugfs_root, minor);
	vflipq_hdr_debugfs_init(minor);
}

#define VFLIPQ_DRIVER_COMMON \
	.fops			= &vflipq_fops, \
	.ioctls			= vflipq_ioctls, \
	.num_ioctls		= ARRAY_SIZE(vflipq_ioctls), \
	.debugfs_init		= vflipq_debugfs_init, \
	.gem_prime_import_sg_table = drm_gem_shmem_prime_import_sg_table, \
	.dumb_create		= vflipq_dumb_create, \
	VFLIPQ_COMPAT_PRIME_OPS \
	VFLIPQ_COMPAT_DATE \
	VFLIPQ_COMPAT_FBDEV_OPS \
	.name			= VFLIPQ_DRIVER_NAME, \
	.desc			= VFLIPQ_DRIVER_DESC, \
	.major			= VFLIPQ_UAPI_VERSION_MAJOR, \
	.minor			= VFLIPQ_UAPI_VERSION_MINOR

/*
 * Sync objects, timelines included, on both kinds of device: compositors
 * move the fences of explicit sync (linux-drm-syncobj-v1) through the
 * display device's timelines (IN_FENCE_FD from an acquire point, the out
 * fence into a release point) and look for DRM_CAP_SYNCOBJ_TIMELINE there.
 * The DRM core implements them whole; vflipq's part is the fences.
 */
#define VFLIPQ_DRIVER_SYNCOBJ	(DRIVER_SYNCOBJ | DRIVER_SYNCOBJ_TIMELINE)

static const struct drm_driver vflipq_driver = {
	.driver_features	= DRIVER_MODESET | DRIVER_ATOMIC | DRIVER_GEM |
				  VFLIPQ_DRIVER_SYNCOBJ,
	.master_drop		= vflipq_master_drop,
	VFLIPQ_DRIVER_COMMON,
};

/* A render-only adapter: buffers to render into and share, no display. */
static const struct drm_driver vflipq_render_driver = {
	.driver_features	= DRIVER_GEM | DRIVER_RENDER |
				  VFLIPQ_DRIVER_SYNCOBJ,
	VFLIPQ_DRIVER_COMMON,
};

/**
 * vflipq_commit_shared_planes - the CRTCs on which a commit lets go of a
 *	plane state older CRTC states may compose
 * @old_state: the commit, in its commit tail before
 *	drm_atomic_helper_commit_hw_done() (which points the old CRTC states'
 *	&drm_crtc_state.commit at this commit)
 *
 * A commit leaves the planes it does not change out
 * (vflipq_crtc_snapshot_planes()), so a plane state made by an earlier
 * commit than the CRTC state it replaces is in the layer list of every
 * CRTC state since.  The commits that replaced those wait for their
 * compositions only after their own flip_done, which this commit's may
 * come after.
 *
 * Return: a mask of CRTC indices.
 */
static u32 vflipq_commit_shared_planes(struct drm_atomic_state *old_state)
{
	struct drm_plane_state *old_plane_state;
	struct drm_crtc_state *old_crtc_state;
	struct drm_plane *plane;
	struct drm_crtc *crtc;
	u32 mask = 0;
	int i;

	for_each_old_plane_in_state(old_state, plane, old_plane_state, i) {
		/* A plane is only ever on its own output's CRTC. */
		crtc = &container_of(plane, struct vflipq_plane, base)->out->crtc;
		old_crtc_state = drm_atomic_get_old_crtc_state(old_state, crtc);
		if (old_plane_state->crtc && old_crtc_state &&
		    old_plane_state->commit != old_crtc_state->commit)
			mask |= drm_crtc_mask(crtc);
	}
	return mask;
}

/*
 * The composer may still read the old planes' framebuffers, which the
 * commit's last reference lets go: wait for the compositions of each
 * outgoing CRTC state, or on a CRTC of @shared
 * (vflipq_commit_shared_planes()) for every composition queued so far.
 * The queue is ordered, and a CRTC state that is no longer the composer's
 * gets no new composition (vflipq_engine_compose()).
 */
static void vflipq_commit_wait_composer(struct drm_atomic_state *old_state,
					u32 shared)
{
	struct drm_crtc_state *old_crtc_state;
	struct drm_crtc *crtc;
	int i;

	for_each_old_crtc_in_state(old_state, crtc, old_crtc_state, i) {
		if (shared & drm_crtc_mask(crtc))
			flush_workqueue(crtc_to_output(crtc)->composer.wq);
		else
			flush_work(&to_vflipq_crtc_state(old_crtc_state)->composer_work);
	}
}

static void vflipq_atomic_commit_tail(struct drm_atomic_state *old_state)
{
	struct drm_device *drm = old_state->dev;
	struct drm_crtc_state *old_crtc_state, *new_crtc_state;
	struct drm_plane_state *old_plane_state, *new_plane_state;
	struct drm_crtc *crtc, *async_crtc;
	struct drm_plane *plane;
	u32 shared;
	int i;

	for_each_old_crtc_in_state(old_state, crtc, old_crtc_state, i)
		vflipq_crtc_finish_writeback(old_crtc_state);

	/* Queued flips do not survive a mode set, DPMS off or disable. */
	for_each_new_crtc_in_state(old_state, crtc, new_crtc_state, i)
		if (vflipq_scanout_changes(new_crtc_state))
			vflipq_flipq_drain(crtc_to_output(crtc));
	/* Nor does the plane they were queued on being switched off. */
	for_each_oldnew_plane_in_state(old_state, plane, old_plane_state,
				       new_plane_state, i)
		if (old_plane_state->crtc && !new_plane_state->crtc &&
		    vflipq_flipq_plane_busy(container_of(plane,
							 struct vflipq_plane,
							 base)))
			vflipq_flipq_drain(crtc_to_output(old_plane_state->crtc));

	/*
	 * CRTCs are enabled before the planes are committed: atomic_flush
	 * arms the page-flip event, which needs vblank on to be sent at the
	 * first vblank after the commit; with vblank still off it would be
	 * sent at once with a stale sequence and timestamp (the order of
	 * drm_atomic_helper_commit_tail_rpm()).  Until that flush the engine
	 * composes the outgoing state, still valid here.
	 */
	drm_atomic_helper_commit_modeset_disables(drm, old_state);
	drm_atomic_helper_commit_modeset_enables(drm, old_state);
	/* Before the planes: a page flip is due no earlier than its target. */
	for_each_new_crtc_in_state(old_state, crtc, new_crtc_state, i)
		vflipq_crtc_wait_target(new_crtc_state);
	drm_atomic_helper_commit_planes(drm, old_state, 0);
	drm_atomic_helper_fake_vblank(old_state);
	async_crtc = vflipq_async_commit_crtc(old_state);
	shared = vflipq_commit_shared_planes(old_state);
	drm_atomic_helper_commit_hw_done(old_state);
	drm_atomic_helper_wait_for_flip_done(drm, old_state);

	if (!vflipq_async_defer_put(old_state, async_crtc))
		vflipq_commit_wait_composer(old_state, shared);

	drm_atomic_helper_cleanup_planes(drm, old_state);
}

static int vflipq_atomic_check(struct drm_device *drm,
			       struct drm_atomic_state *state)
{
	struct drm_plane_state *plane_state;
	struct drm_plane *plane;
	int i, ret;

	/* Before the helpers pull in the planes of affected CRTCs. */
	for_each_new_plane_in_state(state, plane, plane_state, i)
		to_vflipq_plane_state(plane_state)->named = true;

	/*
	 * A legacy cursor move is taken in place when the helpers find it an
	 * async update (drm_atomic_helper_async_check(): one plane, no commit
	 * in flight on it, the cursor's atomic_async_check).  The CRTC's
	 * check adds no plane, so a cursor ioctl's commit holds the cursor
	 * alone (vflipq_crtc_snapshot_planes()).
	 */
	ret = drm_atomic_helper_check(drm, state);
	return ret ? ret : vflipq_caso_check_bandwidth(drm, state);
}

static int vflipq_atomic_commit(struct drm_device *drm,
				struct drm_atomic_state *state, bool nonblock)
{
	struct drm_crtc_state *crtc_state;
	struct drm_crtc *crtc;
	int i;

	/* The client's context: its events' interrupts come to its CPU. */
	for_each_new_crtc_in_state(state, crtc, crtc_state, i)
		if (crtc_state->event && crtc_state->active)
			vflipq_engine_follow(crtc_to_output(crtc));
	vflipq_fence_adopt_commit(state);
	return drm_atomic_helper_commit(drm, state, nonblock);
}

static const struct drm_mode_config_funcs vflipq_mode_funcs = {
	.fb_create	= VFLIPQ_FB_CREATE,
	.atomic_check	= vflipq_atomic_check,
	.atomic_commit	= vflipq_atomic_commit,
};

static const struct drm_mode_config_helper_funcs vflipq_mode_helpers = {
	.atomic_commit_tail = vflipq_atomic_commit_tail,
};

/*
 * Registered before the mode config: runs after its cleanup, the last user
 * of the writeback connectors.
 */
static void vflipq_release_outputs(struct drm_device *drm, void *data)
{
	struct vflipq_device *vdev = to_vflipq_device(drm);
	unsigned int i;

	for (i = 0; i < vdev->config.crtcs; i++) {
		struct vflipq_output *out = vdev->outputs[i];

		if (!out)
			continue;
		vflipq_fence_ctx_release(out->crtc_fences);
		vflipq_fence_ctx_release(out->wb.fences);
		kfree(out);
	}
}

static int vflipq_modeset_init(struct vflipq_device *vdev)
{
	struct drm_device *drm = &vdev->drm;
	unsigned int i;
	int ret;

	ret = drmm_add_action_or_reset(drm, vflipq_release_outputs, NULL);
	if (ret)
		return ret;
	ret = drmm_mode_config_init(drm);
	if (ret)
		return ret;

	drm->mode_config.funcs = &vflipq_mode_funcs;
	drm->mode_config.helper_private = &vflipq_mode_helpers;
	drm->mode_config.min_width = VFLIPQ_MIN_DIM;
	drm->mode_config.min_height = VFLIPQ_MIN_DIM;
	drm->mode_config.max_width = VFLIPQ_MAX_DIM;
	drm->mode_config.max_height = VFLIPQ_MAX_DIM;
	drm->mode_config.cursor_width = VFLIPQ_CURSOR_HINT;
	drm->mode_config.cursor_height = VFLIPQ_CURSOR_HINT;
	drm->mode_config.preferred_depth = 24;
	/* Planes are sorted by the zpos helpers before our atomic_check. */
	drm->mode_config.normalize_zpos = true;
	/*
	 * DRM_MODE_PAGE_FLIP_ASYNC: legacy page flips and atomic commits, on
	 * kernels with IN_FORMATS_ASYNC (see vflipq_compat.h).
	 */
	drm->mode_config.async_page_flip = VFLIPQ_ASYNC_PAGE_FLIP;

	for (i = 0; i < vdev->config.crtcs; i++) {
		ret = vflipq_output_init(vdev, i);
		if (ret)
			return ret;
	}
	vflipq_output_route_all(vdev);

	drm_mode_config_reset(drm);
	vflipq_output_probe_all(vdev);
	return 0;
}

static void vflipq_release_id(struct drm_device *drm, void *data)
{
	ida_free(&vflipq_ida, to_vflipq_device(drm)->id);
}

static void vflipq_release_wq(struct drm_device *drm, void *data)
{
	struct vflipq_device *vdev = to_vflipq_device(drm);

	vflipq_fq_free_flush(vdev);
	destroy_workqueue(vdev->fq_wq);
}

/* Registered after the mode config: runs before its cleanup. */
static void vflipq_release_copy_wq(struct drm_device *drm, void *data)
{
	destroy_workqueue(to_vflipq_device(drm)->copy_wq);
}

/* A configuration this kernel can build, or why not in the kernel log. */
static int vflipq_device_check(const struct vflipq_config *cfg)
{
	const char *why;
	int ret;

	ret = vflipq_config_validate(cfg, &why);
	if (!ret && cfg->fbdev && !IS_ENABLED(CONFIG_DRM_FBDEV_EMULATION)) {
		why = "this kernel has no fbdev emulation (CONFIG_DRM_FBDEV_EMULATION)";
		ret = -EOPNOTSUPP;
	}
	if (ret && why)
		pr_err("vflipq: device \"%s\" not created: %s\n", cfg->name,
		       why);
	return ret;
}

/*
 * The device's own state, from its workqueues to its registration.  The
 * managed release actions run in reverse order: the flip-queue workqueue
 * is registered before the mode config, so that it is drained only after
 * every user is gone; the copy engine's after it.
 */
static int vflipq_device_setup(struct vflipq_device *vdev)
{
	const struct vflipq_config *cfg = &vdev->config;
	int ret;

	init_llist_head(&vdev->fq_free);
	INIT_DELAYED_WORK(&vdev->fq_free_work, vflipq_fq_free_work);
	vdev->fq_wq = alloc_ordered_workqueue("vflipq-%d-fq", 0, vdev->id);
	if (!vdev->fq_wq)
		return -ENOMEM;
	ret = drmm_add_action_or_reset(&vdev->drm, vflipq_release_wq, NULL);
	if (ret)
		return ret;

	ret = dma_coerce_mask_and_coherent(&vdev->pdev->dev, DMA_BIT_MASK(64));
	if (ret)
		return ret;

	if (cfg->crtcs) {
		ret = drm_vblank_init(&vdev->drm, cfg->crtcs);
		if (ret)
			return ret;
		ret = vflipq_modeset_init(vdev);
		if (ret)
			return ret;
	}

	vdev->copy_context = dma_fence_context_alloc(1);
	vdev->copy_wq = alloc_ordered_workqueue("vflipq-%d-copy", 0, vdev->id);
	if (!vdev->copy_wq)
		return -ENOMEM;
	ret = drmm_add_action_or_reset(&vdev->drm, vflipq_release_copy_wq,
				       NULL);
	if (ret)
		return ret;

	ret = drm_dev_register(&vdev->drm, 0);
	if (ret)
		return ret;
	/*
	 * After registration, as the fbdev client needs the device's nodes;
	 * it is removed with them, in drm_dev_unplug().
	 */
	if (cfg->fbdev)
		vflipq_fbdev_setup(&vdev->drm);
	return 0;
}

/**
 * vflipq_device_create - create and register a device
 * @cfg: validated configuration, copied
 *
 * Return: the device or an ERR_PTR.
 */
struct vflipq_device *vflipq_device_create(const struct vflipq_config *cfg)
{
	struct platform_device *pdev;
	struct vflipq_device *vdev;
	int id, ret;

	ret = vflipq_device_check(cfg);
	if (ret)
		return ERR_PTR(ret);

	id = ida_alloc(&vflipq_ida, GFP_KERNEL);
	if (id < 0)
		return ERR_PTR(id);

	pdev = platform_device_register_simple(VFLIPQ_DRIVER_NAME, id, NULL, 0);
	if (IS_ERR(pdev)) {
		ida_free(&vflipq_ida, id);
		return ERR_CAST(pdev);
	}

	if (!devres_open_group(&pdev->dev, NULL, GFP_KERNEL)) {
		ret = -ENOMEM;
		goto err_unregister;
	}

	vdev = devm_drm_dev_alloc(&pdev->dev,
				  cfg->crtcs ? &vflipq_driver :
					       &vflipq_render_driver,
				  struct vflipq_device, drm);
	if (IS_ERR(vdev)) {
		ret = PTR_ERR(vdev);
		goto err_devres;
	}
	vdev->pdev = pdev;
	vdev->id = id;
	vdev->config = *cfg;
	vdev->sink_bpc = 8;

	/* From here on the id is released with the DRM device. */
	ret = drmm_add_action_or_reset(&vdev->drm, vflipq_release_id, NULL);
	id = -1;
	if (ret)
		goto err_devres;

	ret = vflipq_device_setup(vdev);
	if (ret)
		goto err_devres;

	drm_info(&vdev->drm, "device %d \"%s\": %u CRTC(s), %u overlay(s) each\n",
		 vdev->id, cfg->name, cfg->crtcs, cfg->overlays);
	return vdev;

err_devres:
	devres_release_group(&pdev->dev, NULL);
err_unregister:
	platform_device_unregister(pdev);
	if (id >= 0)
		ida_free(&vflipq_ida, id);
	return ERR_PTR(ret);
}

/**
 * vflipq_device_destroy - unplug and remove a device
 * @vdev: device
 *
 * Open file descriptors stay valid (their ioctls fail with -ENODEV); the
 * DRM device is freed when the last one is closed.
 */
void vflipq_device_destroy(struct vflipq_device *vdev)
{
	struct platform_device *pdev = vdev->pdev;
	unsigned int i;

	drm_dev_unplug(&vdev->drm);
	/* Copies hold framebuffers: let them finish before the pipes stop. */
	flush_workqueue(vdev->copy_wq);
	if (vdev->config.crtcs)
		drm_atomic_helper_shutdown(&vdev->drm);

	/* Writeback cleanup runs from a workqueue and touches the outputs. */
	for (i = 0; i < vdev->config.crtcs; i++)
		vflipq_writeback_wait_idle(vdev->outputs[i]);

	devres_release_group(&pdev->dev, NULL);
	platform_device_unregister(pdev);
}

int vflipq_device_minor(struct vflipq_device *vdev)
{
	return vdev->drm.primary ? vdev->drm.primary->index : -1;
}

/*
 * Module references dropped for objects that outlive their device (fence
 * contexts, CRC captures): from a work item, which the exit flushes, so
 * that no code of the module runs after the module_put() that lets it go.
 */
static atomic_t vflipq_module_puts = ATOMIC_INIT(0);

static void vflipq_module_put_work(struct work_struct *work)
{
	while (atomic_add_unless(&vflipq_module_puts, -1, 0))
		module_put(THIS_MODULE);
}

static DECLARE_WORK(vflipq_module_put_job, vflipq_module_put_work);

/**
 * vflipq_module_put_deferred - drop a module reference from a work item
 *
 * Any context.
 */
void vflipq_module_put_deferred(void)
{
	atomic_inc(&vflipq_module_puts);
	schedule_work(&vflipq_module_put_job);
}

static int __init vflipq_init(void)
{
	struct vflipq_config *cfg;
	int ret;

	vflipq_formats_init();
	ret = vflipq_configfs_register();
	if (ret)
		return ret;

	if (!param_create_default)
		return 0;

	cfg = kmalloc(sizeof(*cfg), GFP_KERNEL);
	if (!cfg) {
		ret = -ENOMEM;
		goto err_configfs;
	}
	vflipq_config_init_defaults(cfg, "default");
	cfg->crtcs = param_crtcs;
	cfg->overlays = param_overlays;
	cfg->cursor = param_cursor;
	cfg->writeback = param_writeback;
	cfg->flipq_depth = param_flipq_depth;
	cfg->caso_caps = param_caso_caps;
	cfg->hybrid_integrated = param_hybrid_integrated;
	cfg->bandwidth = param_bandwidth;
	cfg->fbdev = param_fbdev;
	cfg->vblank_align = param_vblank_align;

	vflipq_default = vflipq_device_create(cfg);
	kfree(cfg);
	if (IS_ERR(vflipq_default)) {
		/* vflipq_device_create() said why when the config was bad. */
		ret = PTR_ERR(vflipq_default);
		vflipq_default = NULL;
		if (ret != -EINVAL)
			pr_err("vflipq: cannot create the default device: %d\n",
			       ret);
		goto err_configfs;
	}
	return 0;

err_configfs:
	vflipq_configfs_unregister();
	/* A failed default device's fence contexts drop the module late. */
	vflipq_fence_exit();
	flush_work(&vflipq_module_put_job);
	return ret;
}

static void __exit vflipq_exit(void)
{
	vflipq_configfs_unregister();
	if (vflipq_default)
		vflipq_device_destroy(vflipq_default);
	vflipq_fence_exit();
	flush_work(&vflipq_module_put_job);
}

module_init(vflipq_init);
module_exit(vflipq_exit);

MODULE_DESCRIPTION(VFLIPQ_DRIVER_DESC);
MODULE_LICENSE("GPL");
