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
	args->caps = 0;
	if (cfg->crtcs)
		args->caps |= VFLIPQ_CAP_DISPLAY | VFLIPQ_CAP_CRC;
	else
		args->caps |= VFLIPQ_CAP_RENDER_ONLY;
	/* The copy engine and scan-out belong to display adapters. */
	if (cfg->crtcs && (cfg->caso_caps & VFLIPQ_CASO_COPY))
		args->caps |= VFLIPQ_CAP_CASO_COPY;
	if (cfg->crtcs && (cfg->caso_caps & VFLIPQ_CASO_TEXTURE))
		args->caps |= VFLIPQ_CAP_CASO_TEXTURE;
	if (cfg->crtcs && (cfg->caso_caps & VFLIPQ_CASO_SCANOUT))
		args->caps |= VFLIPQ_CAP_CASO_SCANOUT;
	if (cfg->hybrid_integrated)
		args->caps |= VFLIPQ_CAP_HYBRID_INTEGRATED;
	if (cfg->crtcs && cfg->writeback)
		args->caps |= VFLIPQ_CAP_WRITEBACK;
	if (cfg->crtcs && cfg->cursor)
		args->caps |= VFLIPQ_CAP_CURSOR;
	if (cfg->from_configfs)
		args->caps |= VFLIPQ_CAP_CONFIGFS;
	args->num_crtcs = cfg->crtcs;
	args->num_overlays = cfg->crtcs ? cfg->overlays : 0;
	args->flipq_depth = cfg->crtcs ? cfg->flipq_depth : 1;
	if (args->flipq_depth > 1)
		args->caps |= VFLIPQ_CAP_FLIP_QUEUE;
	args->caso_tier = cfg->crtcs ? vflipq_caso_tier(cfg->caso_caps) : 0;
	args->device_id = vdev->id;
	strscpy(args->name, cfg->name, sizeof(args->name));
	return 0;
}

/*
 * Per-CRTC counters of @crtc_id, plus the device-wide ones; crtc_id 0 asks
 * for the device-wide ones only (a render-only device has no CRTC).
 */
int vflipq_ioctl_get_counters(struct drm_device *drm, void *data,
			      struct drm_file *file)
{
	struct vflipq_device *vdev = to_vflipq_device(drm);
	struct drm_vflipq_get_counters *args = data;
	struct vflipq_output *out;
	struct drm_crtc *crtc = NULL;
	u32 crtc_id = args->crtc_id;

	if (args->flags || !all_zero(&args->timer_expirations,
				     sizeof(*args) -
				     offsetof(struct drm_vflipq_get_counters,
					      timer_expirations)))
		return -EINVAL;
	if (crtc_id) {
		if (!vdev->config.crtcs)
			return -EINVAL;
		crtc = drm_crtc_find(drm, file, crtc_id);
		if (!crtc)
			return -EINVAL;
	}

	memset(args, 0, sizeof(*args));
	args->crtc_id = crtc_id;
	args->copies = atomic64_read(&vdev->copies);
	args->bytes_copied = atomic64_read(&vdev->bytes_copied);
	args->imported_scanouts = atomic64_read(&vdev->imported_scanouts);
	if (!crtc)
		return 0;
	out = crtc_to_output(crtc);
	spin_lock_irq(&out->engine.lock);
	vflipq_flipq_sync_locked(out);
	args->timer_expirations = out->stats.timer_expirations;
	args->vblank_irqs = out->stats.vblank_irqs;
	args->flipq_irqs = out->flipq.core.stats.irqs;
	args->flipq_events = out->flipq.core.stats.events;
	args->flips_shown = out->flipq.core.stats.shown;
	args->flips_cancelled = out->flipq.core.stats.cancelled;
	args->flipq_events_dropped = out->flipq.events_dropped;
	spin_unlock_irq(&out->engine.lock);
	args->frames_composed = atomic64_read(&out->stats.frames_composed);
	return 0;
}
