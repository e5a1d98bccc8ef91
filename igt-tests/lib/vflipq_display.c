// SPDX-License-Identifier: MIT
/*
 * IGT's display model (igt_display_t) on a vflipq device: the tests whose
 * needs are ordinary KMS set outputs, pipes, planes and properties through
 * it and commit with igt_display_commit2() / igt_display_try_commit_atomic(),
 * as IGT's own kms_* tests do.  What this file adds is only the mapping of
 * vfq_dev's pipes (CRTC index, its VIRTUAL connector, planes by id) onto
 * igt_display's, so a test names the same objects either way.
 */
#include "vflipq_helpers.h"

void vfq_display_init(igt_display_t *display, struct vfq_dev *dev)
{
	/*
	 * igt_display_require() skips without outputs or KMS; vfq_dev_init()
	 * has already failed the test on such a topology, so that skip cannot
	 * hide a broken vflipq device.
	 */
	/*
	 * igt_display without the writeback connectors: IGT gives each pipe
	 * one connected output, a CRTC's own writeback connector first (it
	 * can take no other CRTC), and warns that the VIRTUAL connectors,
	 * which any CRTC drives, got none ("Output Virtual-1 could not be
	 * assigned to a pipe"; igt/README.md, "Writeback warning").  The
	 * tests drive writeback with raw requests (vfq_wb_capture()), which
	 * need the capability on again.
	 */
	igt_assert_eq(drmSetClientCap(dev->fd,
				      DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 0),
		      0);
	igt_display_require(display, dev->fd);
	igt_assert_eq(drmSetClientCap(dev->fd,
				      DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1),
		      0);
	igt_assert_f(display->is_atomic, "vflipq without atomic modesetting\n");
	for (int i = 0; i < dev->n_pipes; i++) {
		igt_plane_t *primary;

		igt_assert_eq_u32(display->pipes[i].crtc_id,
				  dev->pipe[i].crtc_id);
		igt_assert(vfq_output(display, dev, i));
		/*
		 * igt_pipe_get_plane_type(PRIMARY), which skips when it finds
		 * none, is vfq's primary: it can only succeed here.
		 */
		primary = vfq_display_plane(display, i, dev->pipe[i].primary);
		igt_assert_eq(primary->index, display->pipes[i].plane_primary);
	}
	/*
	 * The first commit sets the whole state (CTM and LUTs too, which
	 * another binary may have left): IGT 2.2's igt_display_require()
	 * leaves igt_display_reset() pending already; an IGT_SRC build need
	 * not, hence this one.
	 */
	igt_display_reset(display);
}

igt_output_t *vfq_output(igt_display_t *display, struct vfq_dev *dev,
			 int pipe)
{
	for (int i = 0; i < display->n_outputs; i++)
		if (display->outputs[i].id == dev->pipe[pipe].conn_id)
			return &display->outputs[i];
	igt_assert_f(false, "no igt output for connector %u\n",
		     dev->pipe[pipe].conn_id);
	return NULL;
}

igt_plane_t *vfq_display_plane(igt_display_t *display, int pipe,
			       uint32_t plane_id)
{
	igt_plane_t *plane;

	for_each_plane_on_pipe(display, pipe, plane)
		if (plane->drm_plane->plane_id == plane_id)
			return plane;
	igt_assert_f(false, "plane %u not on pipe %d\n", plane_id, pipe);
	return NULL;
}

void vfq_display_pipe(igt_display_t *display, struct vfq_dev *dev, int pipe,
		      const drmModeModeInfo *mode, struct vfq_fb *fb)
{
	igt_output_t *output = vfq_output(display, dev, pipe);

	igt_output_override_mode(output, mode);
	igt_output_set_pipe(output, pipe);
	vfq_display_plane_fb(igt_pipe_get_plane_type(&display->pipes[pipe],
						     DRM_PLANE_TYPE_PRIMARY),
			     fb);
}

/*
 * A writeback connector a raw request left on @crtc_id (0: on any CRTC)
 * taken off it: igt_display does not know it, and a CRTC turned off with
 * a connector still on it is refused.
 */
static void vfq_display_wb_detach(int fd, uint32_t crtc_id)
{
	drmModeRes *res = drmModeGetResources(fd);

	igt_assert(res);
	for (int i = 0; i < res->count_connectors; i++) {
		drmModeConnector *c = drmModeGetConnectorCurrent(fd,
							res->connectors[i]);
		drmModeAtomicReq *req;
		uint64_t on = 0;

		igt_assert(c);
		if (c->connector_type == DRM_MODE_CONNECTOR_WRITEBACK)
			on = vfq_prop_get(fd, c->connector_id,
					  DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID");
		if (on && (!crtc_id || on == crtc_id)) {
			req = vfq_req_new();
			vfq_req_set(req, fd, c->connector_id,
				    DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", 0);
			igt_assert_eq(vfq_req_commit(fd, req,
						     DRM_MODE_ATOMIC_ALLOW_MODESET,
						     NULL), 0);
		}
		drmModeFreeConnector(c);
	}
	drmModeFreeResources(res);
}

void vfq_display_off(igt_display_t *display)
{
	vfq_display_wb_detach(display->drm_fd, 0);
	igt_display_reset(display);
	igt_display_commit2(display, COMMIT_ATOMIC);
}

/* ------------------------------------------------------------------ */
/* Framebuffers without an igt_fb                                     */

void vfq_display_plane_fb_id(igt_plane_t *plane, uint32_t fb_id, int w,
			     int h)
{
	/* What igt_plane_set_fb() sets for an igt_fb of @w x @h. */
	igt_plane_set_prop_value(plane, IGT_PLANE_CRTC_ID,
				 plane->pipe->crtc_id);
	igt_plane_set_prop_value(plane, IGT_PLANE_FB_ID, fb_id);
	igt_plane_set_size(plane, w, h);
	igt_plane_set_prop_value(plane, IGT_PLANE_SRC_X, 0);
	igt_plane_set_prop_value(plane, IGT_PLANE_SRC_Y, 0);
	igt_plane_set_prop_value(plane, IGT_PLANE_SRC_W, IGT_FIXED(w, 0));
	igt_plane_set_prop_value(plane, IGT_PLANE_SRC_H, IGT_FIXED(h, 0));
}

void vfq_display_plane_fb(igt_plane_t *plane, struct vfq_fb *fb)
{
	if (!fb || fb->igt.fb_id)
		igt_plane_set_fb(plane, fb ? &fb->igt : NULL);
	else
		vfq_display_plane_fb_id(plane, fb->fb_id, fb->width,
					fb->height);
}

/* ------------------------------------------------------------------ */

/*
 * One pipe off, the rest of the display left as it is: igt_display's
 * counterpart of vfq_pipe_off(), for a subtest that turns its pipe off
 * mid-way (a mode set that cancels what the flip queue holds) where
 * vfq_display_off() would reset everything.
 */
void vfq_display_pipe_off(igt_display_t *display, struct vfq_dev *dev,
			  int pipe)
{
	igt_pipe_t *p = &display->pipes[pipe];
	igt_plane_t *plane;

	for_each_plane_on_pipe(display, pipe, plane)
		igt_plane_set_fb(plane, NULL);
	igt_output_set_pipe(vfq_output(display, dev, pipe), PIPE_NONE);
	vfq_display_wb_detach(dev->fd, dev->pipe[pipe].crtc_id);
	/* Off also when a raw request lit it, unseen by igt_display. */
	igt_pipe_obj_replace_prop_blob(p, IGT_CRTC_MODE_ID, NULL, 0);
	igt_pipe_obj_set_prop_value(p, IGT_CRTC_ACTIVE, 0);
	igt_display_commit2(display, COMMIT_ATOMIC);
}
