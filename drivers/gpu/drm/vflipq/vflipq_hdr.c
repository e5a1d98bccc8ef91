// SPDX-License-Identifier: GPL-2.0-only
/*
 * The HDR-related connector properties of the virtual connectors:
 * "max bpc", "Colorspace" and HDR_OUTPUT_METADATA, and the depth of the
 * sink.  There is no link to encode a signal for, so Colorspace and the
 * metadata are accepted, validated and reported, and change nothing in the
 * composed frame.  "max bpc" and the sink's depth decide the output depth,
 * at which the CRC is computed (Documentation/vflipq/driver.rst, "CRC");
 * the composed frame stays at the composer's 16 bits, and what writeback
 * gets is decided by its format.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/hdmi.h>
#include <linux/kstrtox.h>
#include <linux/minmax.h>
#include <linux/uaccess.h>

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_state_helper.h>
#include <drm/drm_connector.h>
#include <drm/drm_file.h>
#include <drm/drm_mode_config.h>
#include <drm/drm_print.h>
#include <drm/drm_property.h>

#include "vflipq_compat.h"
#include "vflipq_drv.h"

/* The range a DisplayPort sink may advertise. */
#define VFLIPQ_MIN_BPC	6
#define VFLIPQ_MAX_BPC	16

/**
 * vflipq_hdr_crtc_bpc - the output depth of a CRTC in a modeset
 * @state: the atomic state, with every connector of @crtc in it (as
 *	drm_atomic_helper_check_modeset() leaves a CRTC that needs a modeset)
 * @crtc: the CRTC
 *
 * The depth the sink receives, as a display engine picks its pipe depth:
 * the sink's depth (&drm_display_info.bpc, 8 when unknown, as the DRM core
 * takes it for &drm_connector_state.max_bpc), at most the connector's
 * "max bpc".  A CRTC that only feeds writeback has no sink: the composer's
 * 16 bits.
 *
 * Return: bits per channel, 6 to 16.
 */
unsigned int vflipq_hdr_crtc_bpc(struct drm_atomic_state *state,
				 struct drm_crtc *crtc)
{
	struct drm_connector_state *cs;
	struct drm_connector *conn;
	unsigned int bpc = VFLIPQ_MAX_BPC, sink;
	int i;

	for_each_new_connector_in_state(state, conn, cs, i) {
		if (cs->crtc != crtc ||
		    conn->connector_type == DRM_MODE_CONNECTOR_WRITEBACK)
			continue;
		sink = READ_ONCE(conn->display_info.bpc) ?: 8;
		bpc = min3(bpc, sink, (unsigned int)cs->max_requested_bpc);
	}
	return clamp(bpc, VFLIPQ_MIN_BPC, VFLIPQ_MAX_BPC);
}

/**
 * vflipq_hdr_set_sink_bpc - publish the sink depth of a connector
 * @connector: a virtual connector
 *
 * What an EDID's colour depth would do on a probe.  Caller holds
 * &drm_mode_config.mutex, which serialises the updates of display_info.
 */
void vflipq_hdr_set_sink_bpc(struct drm_connector *connector)
{
	struct vflipq_device *vdev = to_vflipq_device(connector->dev);

	WRITE_ONCE(connector->display_info.bpc, vdev->sink_bpc);
}

/*
 * debugfs "vflipq_sink_bpc": the depth every virtual sink of the device
 * advertises, 6 to 16 (8 at creation).  A test knob, like plugging in
 * another monitor: a CRTC takes it at its next modeset.
 */
static ssize_t sink_bpc_write(struct file *f, const char __user *ubuf,
			      size_t len, loff_t *pos)
{
	struct vflipq_device *vdev = file_inode(f)->i_private;
	struct drm_device *drm = &vdev->drm;
	unsigned int v, i;
	int ret;

	ret = kstrtouint_from_user(ubuf, len, 0, &v);
	if (ret)
		return ret;
	if (v < VFLIPQ_MIN_BPC || v > VFLIPQ_MAX_BPC)
		return -EINVAL;
	mutex_lock(&drm->mode_config.mutex);
	vdev->sink_bpc = v;
	for (i = 0; i < vdev->config.crtcs; i++)
		vflipq_hdr_set_sink_bpc(&vdev->outputs[i]->connector);
	mutex_unlock(&drm->mode_config.mutex);
	return len;
}

static ssize_t sink_bpc_read(struct file *f, char __user *ubuf, size_t len,
			     loff_t *pos)
{
	struct vflipq_device *vdev = file_inode(f)->i_private;
	char buf[16];
	int n;

	mutex_lock(&vdev->drm.mode_config.mutex);
	n = scnprintf(buf, sizeof(buf), "%u\n", vdev->sink_bpc);
	mutex_unlock(&vdev->drm.mode_config.mutex);
	return simple_read_from_buffer(ubuf, len, pos, buf, n);
}

static const struct file_operations sink_bpc_fops = {
	.owner = THIS_MODULE,
	.read = sink_bpc_read,
	.write = sink_bpc_write,
	.llseek = default_llseek,
};

/**
 * vflipq_hdr_debugfs_init - create debugfs "vflipq_sink_bpc"
 * @minor: the primary minor
 */
void vflipq_hdr_debugfs_init(struct drm_minor *minor)
{
	debugfs_create_file("vflipq_sink_bpc", 0644, minor->debugfs_root,
			    to_vflipq_device(minor->dev), &sink_bpc_fops);
}

/**
 * vflipq_hdr_check - validate a connector state's HDR_OUTPUT_METADATA
 * @conn_state: new connector state
 *
 * The core checked the blob's size; the metadata must be static metadata
 * type 1 with a CTA-861 EOTF (the types drm_hdmi_infoframe_set_hdr_metadata()
 * accepts).
 *
 * Return: 0 or -EINVAL.
 */
int vflipq_hdr_check(struct drm_connector_state *conn_state)
{
	const struct hdr_output_metadata *m;

	if (!conn_state->hdr_output_metadata)
		return 0;
	m = conn_state->hdr_output_metadata->data;
	if (m->metadata_type == HDMI_STATIC_METADATA_TYPE1 &&
	    m->hdmi_metadata_type1.metadata_type == HDMI_STATIC_METADATA_TYPE1 &&
	    m->hdmi_metadata_type1.eotf <= HDMI_EOTF_BT_2100_HLG)
		return 0;
	drm_dbg_atomic(conn_state->connector->dev,
		       "[CONNECTOR:%d] bad HDR metadata: type %u/%u, eotf %u\n",
		       conn_state->connector->base.id, m->metadata_type,
		       m->hdmi_metadata_type1.metadata_type,
		       m->hdmi_metadata_type1.eotf);
	return -EINVAL;
}

/**
 * vflipq_hdr_connector_reset - fresh connector state asking for max bpc
 * @connector: a virtual connector
 *
 * The helper's reset zeroes the state: "max bpc" would read 0, outside
 * its range.
 */
void vflipq_hdr_connector_reset(struct drm_connector *connector)
{
	drm_atomic_helper_connector_reset(connector);
	if (connector->state)
		connector->state->max_requested_bpc = VFLIPQ_MAX_BPC;
}

/**
 * vflipq_hdr_init_connector - attach the HDR connector properties
 * @connector: a virtual connector (before registration)
 *
 * Return: 0 or a negative errno.
 */
int vflipq_hdr_init_connector(struct drm_connector *connector)
{
	int ret;

	/* Attaching "max bpc" sets it in the state, which must exist. */
	if (!connector->state)
		connector->funcs->reset(connector);
	if (!connector->state)
		return -ENOMEM;
	vflipq_hdr_set_sink_bpc(connector);
	ret = drm_connector_attach_max_bpc_property(connector, VFLIPQ_MIN_BPC,
						    VFLIPQ_MAX_BPC);
	if (ret)
		return ret;
	ret = vflipq_create_colorspace_property(connector);
	if (ret)
		return ret;
	ret = drm_connector_attach_colorspace_property(connector);
	if (ret)
		return ret;
	return vflipq_attach_hdr_output_metadata_property(connector);
}
