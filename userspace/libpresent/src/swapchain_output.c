// SPDX-License-Identifier: MIT
/*
 * Output changes: choosing the output, moving to another one, mode
 * changes (ours or someone else's), hotplug, and requeueing the frames a
 * change cancelled.
 */
#include <stdio.h>
#include <string.h>

#include "swapchain_internal.h"

/* Pick the output, its CRTC and mode. */
int sc_setup_output(struct present_swapchain *sc, int output)
{
	struct present_adapter *d = sc->display;
	const struct present_output *o;
	drmModeConnector *c;
	int ret, best = -1;

	if (output < 0)
		output = present_adapter_default_output(d);
	if (output < 0)
		return sc_fail(sc, PRESENT_E_NOT_FOUND, "display adapter has no connected output");
	ret = present_adapter_output(d, output, &o);
	if (ret)
		return sc_fail(sc, ret, "no output %d", output);
	if (o->writeback)
		return sc_fail(sc, PRESENT_E_INVALID_ARG, "output %s is a writeback connector", o->name);
	if (!o->connected)
		return sc_fail(sc, PRESENT_E_DISCONNECTED, "output %s is disconnected", o->name);
	sc->out.output = output;
	snprintf(sc->out.output_name, sizeof(sc->out.output_name), "%s", o->name);
	sc->out.connector_id = o->connector_id;
	sc->out.crtc_id = o->crtc_id;
	sc->out.crtc_index = o->crtc_index;
	if (!sc->out.crtc_id && o->crtc_index < d->num_crtc_ids)
		sc->out.crtc_id = d->crtc_ids[o->crtc_index];
	if (!sc->out.crtc_id)
		return sc_fail(sc, PRESENT_E_NOT_FOUND, "no CRTC for output %s", o->name);
	c = drmModeGetConnector(sc->dfd, sc->out.connector_id);
	if (!c)
		return sc_errno(sc, errno, "connector");
	/* keep the current mode when the CRTC is on, else the preferred */
	{
		drmModeCrtc *crtc = drmModeGetCrtc(sc->dfd, sc->out.crtc_id);

		if (crtc && crtc->mode_valid) {
			sc->out.mode = crtc->mode;
			best = 0;
		}
		drmModeFreeCrtc(crtc);
	}
	if (best < 0) {
		for (int i = 0; i < c->count_modes && best < 0; i++)
			if (c->modes[i].type & DRM_MODE_TYPE_PREFERRED)
				best = i;
		if (best < 0 && c->count_modes)
			best = 0;
		if (best >= 0)
			sc->out.mode = c->modes[best];
	}
	drmModeFreeConnector(c);
	if (best < 0)
		return sc_fail(sc, PRESENT_E_NOT_FOUND, "output %s has no mode", o->name);
	sc_set_period(sc, sc_mode_period(&sc->out.mode));
	ret = sc_events_attach(sc);
	if (ret)
		return sc_errno(sc, -ret, "eventfd");
	return 0;
}

static bool same_mode(const drmModeModeInfo *a, const drmModeModeInfo *b)
{
	return a->hdisplay == b->hdisplay && a->vdisplay == b->vdisplay &&
	       a->htotal == b->htotal && a->vtotal == b->vtotal && a->clock == b->clock &&
	       a->flags == b->flags;
}

/*
 * The output a chain may move to: index of @output (-1: the default) after
 * re-reading the outputs (hotplug), or a negative error code.
 */
static int pick_output(struct present_swapchain *sc, int output)
{
	const struct present_output *o;
	int ret = present_adapter_refresh(sc->display);

	if (ret)
		return sc_fail(sc, ret, "re-reading the outputs: %s", present_strerror(ret));
	if (output < 0)
		output = present_adapter_default_output(sc->display);
	if (output < 0)
		return sc_fail(sc, PRESENT_E_DISCONNECTED, "no connected output");
	if (present_adapter_output(sc->display, output, &o))
		return sc_fail(sc, PRESENT_E_INVALID_ARG, "no output %d", output);
	if (o->writeback)
		return sc_fail(sc, PRESENT_E_INVALID_ARG, "output %s is a writeback connector",
			       o->name);
	if (!o->connected)
		return sc_fail(sc, PRESENT_E_DISCONNECTED, "output %s is disconnected", o->name);
	return output;
}

/* Turn the chain's old CRTC off (the chain moved to another output). */
static void release_output(struct present_swapchain *sc, uint32_t connector_id, uint32_t crtc_id)
{
	drmModeAtomicReq *req = drmModeAtomicAlloc();

	if (!req)
		return;
	sc_add_prop(req, sc->dfd, sc->path.plane_id, DRM_MODE_OBJECT_PLANE, "FB_ID", 0);
	sc_add_prop(req, sc->dfd, sc->path.plane_id, DRM_MODE_OBJECT_PLANE, "CRTC_ID", 0);
	sc_add_prop(req, sc->dfd, connector_id, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", 0);
	sc_add_prop(req, sc->dfd, crtc_id, DRM_MODE_OBJECT_CRTC, "MODE_ID", 0);
	sc_add_prop(req, sc->dfd, crtc_id, DRM_MODE_OBJECT_CRTC, "ACTIVE", 0);
	drmModeAtomicCommit(sc->dfd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	drmModeAtomicFree(req);
}

/* Keep cancelled frame @f for requeueing, if a requeue is on and has room. */
bool sc_requeue_keep(struct present_swapchain *sc, const struct frame *f)
{
	struct sc_output *o = &sc->out;

	if (!o->requeueing || o->nrequeue >= MAX_FRAMES)
		return false;
	o->requeue[o->nrequeue++] = *f;
	return true;
}

/* Kept frames @first.. will not be submitted again: counted as cancelled,
 * present_at()'s get their CANCELLED feedback. */
static void requeue_lost_from(struct present_swapchain *sc, unsigned int first)
{
	sc_stats_lost(sc, sc->out.nrequeue - first);
	for (unsigned int i = first; i < sc->out.nrequeue; i++)
		sc_feedback_retired(sc, &sc->out.requeue[i], 0, 0);
}

/* The kept frames will not be submitted again (the change failed). */
static void requeue_lost(struct present_swapchain *sc)
{
	requeue_lost_from(sc, 0);
	sc->out.nrequeue = 0;
}

/* Cancel the queued frames into requeue[] (not counted as cancelled). */
void sc_cancel_for_requeue(struct present_swapchain *sc)
{
	sc->out.requeueing = true;
	sc->out.nrequeue = 0;
	sc_cancel_queued(sc);
	sc->out.requeueing = false;
}

/*
 * Submit again the frames sc_cancel_for_requeue() kept, with targets computed
 * on the grid of now (WDDM requeues flips whose target no longer holds);
 * @copy: the path changed, so the copy paths copy the back buffers again.
 * Without a flip queue only the newest goes (one flip in flight), the
 * others count as replaced.
 */
int sc_requeue_frames(struct present_swapchain *sc, bool copy)
{
	unsigned int first = 0;
	int ret = 0;

	if (!sc->flipq.on && sc->out.nrequeue > 1) {
		first = sc->out.nrequeue - 1;
		sc_stats_lost(sc, first);
		for (unsigned int i = 0; i < first; i++)
			sc_feedback_retired(sc, &sc->out.requeue[i], 0, 0);
	}
	for (unsigned int i = first; i < sc->out.nrequeue; i++) {
		struct frame f = sc->out.requeue[i];

		f.present_id = sc_flipq_next_id(sc);
		sc_pace_requeued(sc, &f);
		ret = copy ? sc_do_copies(sc, f.back, f.buf) : 0;
		if (!ret)
			ret = sc_submit(sc, &f, false);
		if (ret) {
			/* the rest is lost: count it */
			requeue_lost_from(sc, i);
			break;
		}
		sc_queue_push(sc, &f);
		sc_stats_requeued(sc);
	}
	sc->out.nrequeue = 0;
	sc_update_waitable(sc);
	return ret;
}

/*
 * The chain's output or its mode changed (a mode set by someone else, a
 * move, a reconnect): light the output in sc->out.mode with a new blank buffer,
 * then decide the path again for the back buffers as they are (their
 * contents stay).  The caller cancelled the queued frames for requeueing.
 */
static int redecide_output(struct present_swapchain *sc)
{
	struct bo blank = { 0 };
	struct sc_scan old;
	int ret;

	ret = sc_blank_create(sc, &blank);
	if (!ret && !sc->path.plane_id)
		ret = sc_find_primary_plane(sc);
	if (ret) {
		sc_bo_destroy(&blank);
		return ret;
	}
	/* the old path's rotation and size need not hold in this mode */
	old = sc_plane_unrotated(sc);
	ret = sc_commit_modeset(sc, blank.fb_id, sc->path.scan.w, sc->path.scan.h, false);
	if (ret) {
		sc_plane_restore(sc, &old);
		sc_bo_destroy(&blank);
		return ret;
	}
	/* the blank buffer is on screen: the old path's buffers can go */
	sc_bufs_take_blank(sc, &blank);
	sc_queue_blank_shown(sc);
	sc_free_display_side(sc);
	sc_pacing_reset(sc);
	ret = sc_decide(sc);
	if (!ret)
		ret = sc_show_blank(sc);
	if (!ret)
		sc_path_note(sc, " (on %s, %ux%u)", sc->out.output_name, sc->out.mode.hdisplay,
			     sc->out.mode.vdisplay);
	return ret;
}

/*
 * Before each present: is the output still connected, still in the chain's
 * mode?  A disconnected output fails (its queued frames cancelled: nobody
 * would see them); a mode changed under the chain, or a CRTC found off
 * after a reconnect, re-decides the path there and requeues the frames.
 */
int sc_check_output(struct present_swapchain *sc)
{
	drmModeConnector *c = drmModeGetConnectorCurrent(sc->dfd, sc->out.connector_id);
	drmModeCrtc *crtc;
	drmModeModeInfo m;
	bool gone, changed;
	int ret;

	if (!c)
		return sc_errno(sc, errno, "connector");
	/* "unknown" (never probed) is not gone */
	gone = c->connection == DRM_MODE_DISCONNECTED;
	drmModeFreeConnector(c);
	if (gone) {
		if (!sc->out.output_gone)
			sc_cancel_queued(sc);
		sc->out.output_gone = true;
		return sc_fail(sc, PRESENT_E_DISCONNECTED,
			       "output %s disconnected: present_swapchain_set_output() moves the chain",
			       sc->out.output_name);
	}
	crtc = drmModeGetCrtc(sc->dfd, sc->out.crtc_id);
	if (!crtc)
		return sc_errno(sc, errno, "CRTC");
	changed = !crtc->mode_valid || !same_mode(&crtc->mode, &sc->out.mode);
	m = crtc->mode_valid ? crtc->mode : sc->out.mode;
	drmModeFreeCrtc(crtc);
	if (!changed && !sc->out.output_gone)
		return 0;
	sc_cancel_for_requeue(sc);
	sc->out.mode = m;
	sc->out.output_gone = false;
	ret = redecide_output(sc);
	if (!ret)
		ret = sc_requeue_frames(sc, true);
	else
		requeue_lost(sc);
	return ret;
}

int present_swapchain_set_output(struct present_swapchain *sc, int output)
{
	uint32_t old_connector, old_crtc;
	int ret;

	if (!sc)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	ret = sc_check_removed(sc);
	output = ret ? ret : pick_output(sc, output);
	if (output < 0)
		return output;
	if (output == sc->out.output && !sc->out.output_gone)
		return 0;
	sc_cancel_for_requeue(sc);
	old_connector = sc->out.connector_id;
	old_crtc = sc->out.crtc_id;
	sc_flipq_teardown(sc);
	ret = sc_setup_output(sc, output);
	if (!ret && sc->out.crtc_id != old_crtc) {
		/* off with the old CRTC, nothing of ours on it any more */
		release_output(sc, old_connector, old_crtc);
		sc_path_forget_plane(sc);
	}
	sc->out.output_gone = false;
	if (!ret)
		ret = redecide_output(sc);
	if (!ret) {
		sc_flipq_move(sc);
		return sc_requeue_frames(sc, true);
	}
	requeue_lost(sc);
	return ret;
}

int present_swapchain_output(struct present_swapchain *sc)
{
	if (!sc)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	return sc->out.output;
}

int present_swapchain_set_mode(struct present_swapchain *sc, unsigned int mode_index,
			       bool resize_buffers)
{
	drmModeConnector *c;
	drmModeModeInfo old;
	int ret;

	if (!sc)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	ret = sc_check_removed(sc);
	if (ret)
		return ret;
	c = drmModeGetConnector(sc->dfd, sc->out.connector_id);
	if (!c)
		return sc_errno(sc, errno, "connector");
	if (mode_index >= (unsigned int)c->count_modes) {
		drmModeFreeConnector(c);
		return sc_fail(sc, PRESENT_E_INVALID_ARG, "mode %u of %d", mode_index, c->count_modes);
	}
	old = sc->out.mode;
	sc->out.mode = c->modes[mode_index];
	drmModeFreeConnector(c);
	if (!resize_buffers) {
		/* the back buffers stay: queued frames go on in the new mode */
		sc_cancel_for_requeue(sc);
		ret = redecide_output(sc);
		if (ret) {
			sc->out.mode = old;
			requeue_lost(sc);
			return ret;
		}
		present_adapter_refresh(sc->display);
		return sc_requeue_frames(sc, true);
	}
	/* new buffers (DXGI ResizeBuffers): queued frames complete or are
	 * cancelled first */
	sc_cancel_queued(sc);
	ret = sc_bufs_new_blank(sc);
	sc_plane_unrotated(sc);
	if (!ret)
		ret = sc_commit_modeset(sc, sc->bufs.blank.fb_id, sc->path.scan.w, sc->path.scan.h, false);
	if (ret) {
		sc->out.mode = old;
		return ret;
	}
	sc_queue_blank_shown(sc);
	sc_pacing_reset(sc);
	present_adapter_refresh(sc->display);
	/* buffers of the new output size, the path decided again */
	return present_swapchain_resize(sc, 0, 0, 0, 0);
}

/* The CRTC's VRR_ENABLED is set: frames end at their commit, no grid. */
bool sc_output_vrr(struct present_swapchain *sc)
{
	drmModeObjectProperties *props = drmModeObjectGetProperties(sc->dfd, sc->out.crtc_id,
								    DRM_MODE_OBJECT_CRTC);
	bool on = false;

	for (uint32_t i = 0; props && i < props->count_props; i++) {
		drmModePropertyRes *p = drmModeGetProperty(sc->dfd, props->props[i]);

		if (p && !strcmp(p->name, "VRR_ENABLED"))
			on = props->prop_values[i] != 0;
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
	return on;
}
