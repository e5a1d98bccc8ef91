// SPDX-License-Identifier: GPL-2.0-only
/*
 * Driver-private ioctls.  Every input field is validated, reserved fields
 * must be zero, and every output byte is written so that no kernel memory
 * leaks through padding.
 */

#include <linux/string.h>

#include <drm/drm_crtc.h>
#include <drm/drm_device.h>
#include <drm/drm_file.h>

#include "vflipq_drm.h"
#include "vflipq_drv.h"

static bool all_zero(const void *p, size_t len)
{
	return !memchr_inv(p, 0, len);
}

int vflipq_ioctl_get_caps(struct drm_device *drm, void *data,
			  struct drm_file *file)
{
	struct vflipq_device *vdev = to_vflipq_device(drm);
	const struct vflipq_config *cfg = &vdev->config;
	struct drm_vflipq_get_caps *args = data;

	if (args->flags || !all_zero(args->reserved, sizeof(args->reserved)))
		return -EINVAL;

	memset(args, 0, sizeof(*args));
	args->version_major = VFLIPQ_UAPI_VERSION_MAJOR;
	args->version_minor = VFLIPQ_UAPI_VERSION_MINOR;
	args->caps = VFLIPQ_CAP_CRC;
	if (cfg->crtcs)
		args->caps |= VFLIPQ_CAP_DISPLAY;
	if (cfg->writeback)
		args->caps |= VFLIPQ_CAP_WRITEBACK;
	if (cfg->cursor)
		args->caps |= VFLIPQ_CAP_CURSOR;
	if (cfg->from_configfs)
		args->caps |= VFLIPQ_CAP_CONFIGFS;
	args->num_crtcs = cfg->crtcs;
	args->num_overlays = cfg->overlays;
	args->flipq_depth = cfg->flipq_depth;
	if (cfg->flipq_depth > 1)
		args->caps |= VFLIPQ_CAP_FLIP_QUEUE;
	args->caso_tier = 0;
	args->device_id = vdev->id;
	strscpy(args->name, cfg->name, sizeof(args->name));
	return 0;
}

int vflipq_ioctl_get_counters(struct drm_device *drm, void *data,
			      struct drm_file *file)
{
	struct drm_vflipq_get_counters *args = data;
	struct vflipq_output *out;
	struct drm_crtc *crtc;
	u32 crtc_id = args->crtc_id;

	if (args->flags || !all_zero(&args->timer_expirations,
				     sizeof(*args) -
				     offsetof(struct drm_vflipq_get_counters,
					      timer_expirations)))
		return -EINVAL;
	crtc = drm_crtc_find(drm, file, crtc_id);
	if (!crtc)
		return -EINVAL;
	out = crtc_to_output(crtc);

	memset(args, 0, sizeof(*args));
	args->crtc_id = crtc_id;
	spin_lock_irq(&out->engine_lock);
	args->timer_expirations = out->timer_expirations;
	args->vblank_irqs = out->vblank_irqs;
	args->flipq_irqs = out->fq.stats.irqs;
	args->flipq_events = out->fq.stats.events;
	args->flips_shown = out->fq.stats.shown;
	args->flips_cancelled = out->fq.stats.cancelled;
	spin_unlock_irq(&out->engine_lock);
	args->frames_composed = atomic64_read(&out->frames_composed);
	return 0;
}
