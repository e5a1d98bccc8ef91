// SPDX-License-Identifier: GPL-2.0-only
/*
 * Driver-private ioctls.  Every input field is validated, reserved fields
 * must be zero, and every output byte is written so that no kernel memory
 * leaks through padding.
 */

#include <linux/string.h>

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
	if (strcmp(cfg->name, "default"))
		args->caps |= VFLIPQ_CAP_CONFIGFS;
	args->num_crtcs = cfg->crtcs;
	args->num_overlays = cfg->overlays;
	args->flipq_depth = 1;
	args->caso_tier = 0;
	args->device_id = vdev->id;
	strscpy(args->name, cfg->name, sizeof(args->name));
	return 0;
}
