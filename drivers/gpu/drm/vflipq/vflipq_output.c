// SPDX-License-Identifier: GPL-2.0-only
/*
 * Outputs: one CRTC with its planes, a virtual encoder and a virtual
 * connector that offers the device's mode list.  The connector is connected
 * unless configfs "connected" unplugged it (a hotplug, for userspace tests).
 *
 * Routing: nothing wires a virtual connector to one CRTC, so every Virtual
 * encoder may drive every CRTC of its device (vflipq_output_route_all()).
 * Output N's connector on CRTC N is only the default pairing.
 */

#include <linux/slab.h>

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_connector.h>
#include <drm/drm_edid.h>
#include <drm/drm_encoder.h>
#include <drm/drm_managed.h>
#include <drm/drm_modes.h>
#include <drm/drm_probe_helper.h>

#include "vflipq_drv.h"
#include "vflipq_fence.h"

static int vflipq_conn_get_modes(struct drm_connector *connector)
{
	struct vflipq_device *vdev = to_vflipq_device(connector->dev);
	const struct vflipq_config *cfg = &vdev->config;
	unsigned int i;
	int count = 0, max_hz = 0;

	for (i = 0; i < cfg->num_modes; i++) {
		const struct vflipq_mode_spec *m = &cfg->modes[i];
		struct drm_display_mode *mode;

		/* CVT reduced blanking: what a modern panel would report. */
		mode = drm_cvt_mode(connector->dev, m->width, m->height,
				    m->refresh, true, false, false);
		if (!mode)
			continue;
		mode->type = DRM_MODE_TYPE_DRIVER;
		if (i == cfg->preferred)
			mode->type |= DRM_MODE_TYPE_PREFERRED;
		drm_mode_set_name(mode);
		max_hz = max(max_hz, drm_mode_vrefresh(mode));
		drm_mode_probed_add(connector, mode);
		count++;
	}
	vflipq_vrr_set_range(connector, max_hz);
	vflipq_hdr_set_sink_bpc(connector);
	return count;
}

static enum drm_connector_status
vflipq_conn_detect(struct drm_connector *connector, bool force)
{
	struct vflipq_output *out = container_of(connector, struct vflipq_output,
						 connector);

	return test_bit(out->index, &out->vdev->disconnected) ?
	       connector_status_disconnected : connector_status_connected;
}

static int vflipq_conn_atomic_check(struct drm_connector *connector,
				    struct drm_atomic_state *state)
{
	return vflipq_hdr_check(drm_atomic_get_new_connector_state(state,
								   connector));
}

static const struct drm_connector_helper_funcs vflipq_conn_helper_funcs = {
	.get_modes = vflipq_conn_get_modes,
	.atomic_check = vflipq_conn_atomic_check,
};

static const struct drm_connector_funcs vflipq_conn_funcs = {
	.detect			= vflipq_conn_detect,
	.fill_modes		= drm_helper_probe_single_connector_modes,
	.reset			= vflipq_hdr_connector_reset,
	.atomic_duplicate_state	= drm_atomic_helper_connector_duplicate_state,
	.atomic_destroy_state	= drm_atomic_helper_connector_destroy_state,
};

static int vflipq_output_planes(struct vflipq_output *out)
{
	const struct vflipq_config *cfg = &out->vdev->config;
	unsigned int i;

	out->primary = vflipq_plane_init(out, DRM_PLANE_TYPE_PRIMARY, 0);
	if (IS_ERR(out->primary))
		return PTR_ERR(out->primary);

	if (cfg->cursor) {
		out->cursor = vflipq_plane_init(out, DRM_PLANE_TYPE_CURSOR, 0);
		if (IS_ERR(out->cursor))
			return PTR_ERR(out->cursor);
	}

	for (i = 0; i < cfg->overlays; i++) {
		out->overlays[i] = vflipq_plane_init(out, DRM_PLANE_TYPE_OVERLAY,
						     i);
		if (IS_ERR(out->overlays[i]))
			return PTR_ERR(out->overlays[i]);
	}
	return 0;
}

/**
 * vflipq_output_init - create the display pipe of CRTC @index
 * @vdev: device
 * @index: CRTC index
 *
 * All objects are drmm-managed and live as long as the DRM device; the
 * output's memory is freed after it, with the mode-config cleanup.
 *
 * Return: 0 or a negative errno.
 */
int vflipq_output_init(struct vflipq_device *vdev, unsigned int index)
{
	struct drm_device *drm = &vdev->drm;
	struct vflipq_output *out;
	int ret;

	out = kzalloc(sizeof(*out), GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	vdev->outputs[index] = out;
	out->vdev = vdev;
	out->index = index;
	out->crtc_fences = vflipq_fence_ctx_create("vflipq%d-crtc%u", vdev->id,
						   index);
	if (!out->crtc_fences)
		return -ENOMEM;

	ret = vflipq_output_planes(out);
	if (ret)
		return ret;

	ret = vflipq_crtc_init(out);
	if (ret)
		return ret;

	ret = vflipq_flipq_init(out);
	if (ret)
		return ret;

	/* possible_crtcs and possible_clones: vflipq_output_route_all() */
	ret = drmm_encoder_init(drm, &out->encoder, NULL,
				DRM_MODE_ENCODER_VIRTUAL, NULL);
	if (ret)
		return ret;

	ret = drmm_connector_init(drm, &out->connector, &vflipq_conn_funcs,
				  DRM_MODE_CONNECTOR_VIRTUAL, NULL);
	if (ret)
		return ret;
	drm_connector_helper_add(&out->connector, &vflipq_conn_helper_funcs);
	ret = vflipq_hdr_init_connector(&out->connector);
	if (ret)
		return ret;
	ret = vflipq_vrr_init_connector(&out->connector);
	if (ret)
		return ret;

	ret = drm_connector_attach_encoder(&out->connector, &out->encoder);
	if (ret)
		return ret;

	if (vdev->config.writeback) {
		ret = vflipq_writeback_init(out);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * vflipq_output_route_all - let every Virtual encoder drive every CRTC
 * @vdev: device whose outputs all exist
 *
 * A CRTC drives at most one Virtual connector (no mirroring: the
 * per-connector properties, HDR_OUTPUT_METADATA, Colorspace and max bpc,
 * each describe the one sink of a CRTC's output), plus the writeback
 * connector of that CRTC, which stays tied to it.  So a Virtual encoder
 * clones with itself and every writeback encoder (any of them may share
 * its CRTC), a writeback encoder with itself and every Virtual encoder; two
 * Virtual encoders, or two writeback encoders, never share a CRTC.
 */
void vflipq_output_route_all(struct vflipq_device *vdev)
{
	u32 crtcs = 0, virt = 0, wb = 0;
	unsigned int i;

	for (i = 0; i < vdev->config.crtcs; i++) {
		struct vflipq_output *out = vdev->outputs[i];

		crtcs |= drm_crtc_mask(&out->crtc);
		virt |= drm_encoder_mask(&out->encoder);
		if (vdev->config.writeback)
			wb |= drm_encoder_mask(&out->wb.connector.encoder);
	}
	for (i = 0; i < vdev->config.crtcs; i++) {
		struct vflipq_output *out = vdev->outputs[i];

		out->encoder.possible_crtcs = crtcs;
		out->encoder.possible_clones =
			drm_encoder_mask(&out->encoder) | wb;
		if (vdev->config.writeback)
			out->wb.connector.encoder.possible_clones =
				drm_encoder_mask(&out->wb.connector.encoder) |
				virt;
	}
}

/**
 * vflipq_output_probe_all - probe every connector once, before registration
 * @vdev: device
 *
 * Unless the device has fbdev emulation no in-kernel client probes them,
 * and GETCONNECTOR probes only for the DRM master: without this, tools that
 * are not master (drm_info) would see the always-connected outputs as
 * "unknown" with no modes until a master asked.
 */
void vflipq_output_probe_all(struct vflipq_device *vdev)
{
	struct drm_device *drm = &vdev->drm;
	struct drm_connector_list_iter iter;
	struct drm_connector *connector;

	mutex_lock(&drm->mode_config.mutex);
	drm_connector_list_iter_begin(drm, &iter);
	drm_for_each_connector_iter(connector, &iter)
		connector->funcs->fill_modes(connector,
					     drm->mode_config.max_width,
					     drm->mode_config.max_height);
	drm_connector_list_iter_end(&iter);
	mutex_unlock(&drm->mode_config.mutex);
}

/**
 * vflipq_output_set_connected - plug and unplug outputs
 * @vdev: device
 * @mask: bit i set: output i connected
 *
 * The connectors' status changes at once, so GETCONNECTOR without a probe
 * sees it as well, and a hotplug uevent tells userspace when anything
 * changed.  An unplugged output's CRTC keeps running until userspace turns
 * it off, as with a real cable pulled.
 */
void vflipq_output_set_connected(struct vflipq_device *vdev, u32 mask)
{
	struct drm_device *drm = &vdev->drm;
	bool changed = false;
	unsigned int i;

	mutex_lock(&drm->mode_config.mutex);
	for (i = 0; i < vdev->config.crtcs; i++) {
		struct drm_connector *c = &vdev->outputs[i]->connector;
		enum drm_connector_status st = connector_status_connected;

		if (mask & BIT(i)) {
			clear_bit(i, &vdev->disconnected);
		} else {
			set_bit(i, &vdev->disconnected);
			st = connector_status_disconnected;
		}
		if (c->status != st) {
			c->status = st;
			changed = true;
		}
	}
	mutex_unlock(&drm->mode_config.mutex);
	if (changed)
		drm_kms_helper_hotplug_event(drm);
}
