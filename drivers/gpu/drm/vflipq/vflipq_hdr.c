// SPDX-License-Identifier: GPL-2.0-only
/*
 * The HDR-related connector properties of the virtual connectors:
 * "max bpc", "Colorspace" and HDR_OUTPUT_METADATA.  There is no link to
 * encode a signal for, so they are accepted, validated and reported, and
 * change nothing in the composed frame (whose precision is the composer's
 * 16 bits; what a client gets back is decided by the writeback format).
 */

#include <linux/hdmi.h>

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_state_helper.h>
#include <drm/drm_connector.h>
#include <drm/drm_mode_config.h>
#include <drm/drm_print.h>
#include <drm/drm_property.h>

#include "vflipq_compat.h"
#include "vflipq_drv.h"

/* The range a DisplayPort sink may advertise. */
#define VFLIPQ_MIN_BPC	6
#define VFLIPQ_MAX_BPC	16

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
