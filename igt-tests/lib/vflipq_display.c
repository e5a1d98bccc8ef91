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
	igt_display_require(display, dev->fd);
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

void vfq_display_off(igt_display_t *display)
{
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

/* The igt output of @pipe's writeback connector; asserts. */
static igt_output_t *vfq_wb_output(igt_display_t *display,
				   struct vfq_dev *dev, int pipe)
{
	for (int i = 0; i < display->n_outputs; i++)
		if (display->outputs[i].id == dev->pipe[pipe].wb_conn_id)
			return &display->outputs[i];
	igt_assert_f(false, "no igt output for writeback connector %u\n",
		     dev->pipe[pipe].wb_conn_id);
	return NULL;
}

void vfq_display_pipe_off(igt_display_t *display, struct vfq_dev *dev,
			  int pipe)
{
	igt_pipe_t *p = &display->pipes[pipe];
	igt_plane_t *plane;

	for_each_plane_on_pipe(display, pipe, plane)
		igt_plane_set_fb(plane, NULL);
	igt_output_set_pipe(vfq_output(display, dev, pipe), PIPE_NONE);
	/*
	 * vfq_wb_capture() attaches the writeback connector with a raw
	 * request, which igt_display does not see; a CRTC turned off with a
	 * connector still on it is refused.
	 */
	if (dev->pipe[pipe].wb_conn_id)
		igt_output_set_pipe(vfq_wb_output(display, dev, pipe),
				    PIPE_NONE);
	/* Off also when a raw request lit it, unseen by igt_display. */
	igt_pipe_obj_replace_prop_blob(p, IGT_CRTC_MODE_ID, NULL, 0);
	igt_pipe_obj_set_prop_value(p, IGT_CRTC_ACTIVE, 0);
	igt_display_commit2(display, COMMIT_ATOMIC);
}
