// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writeback: one connector per CRTC that receives the composer's output.
 * A job completes on the next composed frame, or when the CRTC turns off.
 */

#include <linux/slab.h>

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_edid.h>
#include <drm/drm_fourcc.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_print.h>
#include <drm/drm_probe_helper.h>
#include <drm/drm_writeback.h>

#include "vflipq_drv.h"
#include "vflipq_fence.h"

static int vflipq_wb_get_modes(struct drm_connector *connector)
{
	return drm_add_modes_noedid(connector, VFLIPQ_MAX_DIM, VFLIPQ_MAX_DIM);
}

static int vflipq_wb_atomic_check(struct drm_connector *connector,
				  struct drm_atomic_state *state)
{
	struct drm_connector_state *conn_state =
		drm_atomic_get_new_connector_state(state, connector);
	const struct drm_display_mode *mode;
	struct drm_crtc_state *crtc_state;
	struct drm_framebuffer *fb;
	unsigned int i;

	if (!conn_state->writeback_job || !conn_state->writeback_job->fb ||
	    !conn_state->crtc)
		return 0;

	crtc_state = drm_atomic_get_new_crtc_state(state, conn_state->crtc);
	if (!crtc_state)
		return -EINVAL;
	mode = &crtc_state->mode;
	fb = conn_state->writeback_job->fb;

	if (fb->width != mode->hdisplay || fb->height != mode->vdisplay) {
		drm_dbg_kms(connector->dev, "writeback fb %ux%u != mode %ux%u\n",
			    fb->width, fb->height, mode->hdisplay,
			    mode->vdisplay);
		return -EINVAL;
	}
	if (fb->modifier != DRM_FORMAT_MOD_LINEAR)
		return -EINVAL;

	for (i = 0; i < vflipq_num_wb_formats; i++)
		if (fb->format->format == vflipq_wb_formats[i])
			return 0;
	return -EINVAL;
}

static int vflipq_wb_prepare_job(struct drm_writeback_connector *wb,
				 struct drm_writeback_job *job)
{
	struct vflipq_output *out = wb_to_output(wb);
	struct vflipq_wb_job *vjob;
	int ret;

	if (!job->fb)
		return 0;

	vjob = kzalloc(sizeof(*vjob), GFP_KERNEL);
	if (!vjob)
		return -ENOMEM;

	vjob->writer = vflipq_format_ops(job->fb->format->format);
	if (!vjob->writer || !vjob->writer->write_row) {
		ret = -EINVAL;
		goto err_free;
	}

	ret = vflipq_fb_vmap(job->fb, vjob->data);
	if (ret)
		goto err_free;

	vjob->fb = job->fb;
	drm_framebuffer_get(vjob->fb);
	job->priv = vjob;
	atomic_inc(&out->wb.jobs);
	return 0;

err_free:
	kfree(vjob);
	return ret;
}

/* May run from the writeback core's cleanup work, after the CRTC is off. */
static void vflipq_wb_cleanup_job(struct drm_writeback_connector *wb,
				  struct drm_writeback_job *job)
{
	struct vflipq_output *out = wb_to_output(wb);
	struct vflipq_wb_job *vjob = job->priv;

	if (!vjob)
		return;

	drm_framebuffer_put(vjob->fb);
	if (vjob->composer)
		vflipq_composer_put(out, vjob->vblank_ref);
	kfree(vjob);
	job->priv = NULL;

	if (atomic_dec_and_test(&out->wb.jobs))
		wake_up_all(&out->wb.idle);
}

static void vflipq_wb_atomic_commit(struct drm_connector *connector,
				    struct drm_atomic_state *state)
{
	struct drm_connector_state *conn_state =
		drm_atomic_get_new_connector_state(state, connector);
	struct drm_writeback_connector *wb =
		container_of(connector, struct drm_writeback_connector, base);
	struct vflipq_output *out = wb_to_output(wb);
	struct vflipq_crtc_state *cs;
	struct vflipq_wb_job *vjob;

	if (!conn_state->writeback_job || !conn_state->writeback_job->fb)
		return;

	vjob = conn_state->writeback_job->priv;
	cs = to_vflipq_crtc_state(drm_atomic_get_new_crtc_state(state,
								&out->crtc));
	vjob->vblank_ref = vflipq_composer_get(out);
	vjob->composer = true;

	/* On the queue first: the composer signals whatever is at its head. */
	drm_writeback_queue_job(wb, conn_state);

	spin_lock_irq(&out->composer.frame_lock);
	cs->active_writeback = vjob;
	cs->wb_pending = true;
	spin_unlock_irq(&out->composer.frame_lock);
}

static const struct drm_connector_helper_funcs vflipq_wb_helper_funcs = {
	.get_modes		= vflipq_wb_get_modes,
	.prepare_writeback_job	= vflipq_wb_prepare_job,
	.cleanup_writeback_job	= vflipq_wb_cleanup_job,
	.atomic_check		= vflipq_wb_atomic_check,
	.atomic_commit		= vflipq_wb_atomic_commit,
};

static const struct drm_connector_funcs vflipq_wb_funcs = {
	.fill_modes		= drm_helper_probe_single_connector_modes,
	.destroy		= drm_connector_cleanup,
	.reset			= drm_atomic_helper_connector_reset,
	.atomic_duplicate_state	= drm_atomic_helper_connector_duplicate_state,
	.atomic_destroy_state	= drm_atomic_helper_connector_destroy_state,
};

/**
 * vflipq_writeback_init - create the writeback connector of an output
 * @out: output whose CRTC the connector captures (its only possible CRTC)
 *
 * The fence context goes with the output (vflipq_release_outputs()), after
 * the mode-config cleanup has destroyed the connector.
 *
 * Return: 0 or a negative errno.
 */
int vflipq_writeback_init(struct vflipq_output *out)
{
	struct vflipq_writeback *wb = &out->wb;

	atomic_set(&wb->jobs, 0);
	init_waitqueue_head(&wb->idle);
	wb->fences = vflipq_fence_ctx_create("vflipq%d-wb%u", out->vdev->id,
					     out->index);
	if (!wb->fences)
		return -ENOMEM;

	drm_connector_helper_add(&wb->connector.base, &vflipq_wb_helper_funcs);
	return drm_writeback_connector_init(&out->vdev->drm, &wb->connector,
					    &vflipq_wb_funcs, NULL,
					    vflipq_wb_formats,
					    vflipq_num_wb_formats,
					    drm_crtc_mask(&out->crtc));
}

/**
 * vflipq_writeback_wait_idle - wait until every job of an output is cleaned up
 * @out: output of a device being removed, its CRTC off
 *
 * The writeback core cleans a completed job up from a work item
 * (vflipq_wb_cleanup_job()), which touches the output: the output must not
 * go before the last one ran.
 */
void vflipq_writeback_wait_idle(struct vflipq_output *out)
{
	if (!out->vdev->config.writeback)
		return;
	wait_event(out->wb.idle, !atomic_read(&out->wb.jobs));
}
