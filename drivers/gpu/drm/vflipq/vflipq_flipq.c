// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hardware flip queue in the driver: the DRM side of vflipq_fq_core.c.
 *
 * The display engine (the CRTC's vblank timer) runs the core's rules under
 * engine.lock, in hard interrupt context: it switches what the composer
 * scans out and writes the logs without waking anybody, and delivers the
 * interrupts the client asked for as DRM events right there, as a display
 * driver's interrupt handler does.  A worker only sends what that could not
 * (an atomic allocation failed).  What needs process context, putting the
 * framebuffer of a buffer the queue let go (the last reference unmaps it)
 * and freeing the buffer, is a work item on the device's workqueue.
 *
 * Lock order: modeset locks -> out->composer.lock -> event_lock -> engine.lock.
 */

#include <linux/delay.h>
#include <linux/dma-resv.h>
#include <linux/math64.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_atomic_uapi.h>
#include <drm/drm_blend.h>
#include <drm/drm_file.h>
#include <drm/drm_fourcc.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_gem.h>
#include <drm/drm_managed.h>
#include <drm/drm_modeset_lock.h>
#include <drm/drm_print.h>
#include <drm/drm_vblank.h>

#include "vflipq_drm.h"
#include "vflipq_drv.h"

#define CREATE_TRACE_POINTS
#include "vflipq_trace.h"

/*
 * Retired buffers are released and freed in batches, a worker run per device
 * at most every VFLIPQ_FQ_FREE_DELAY, instead of one run per buffer: 32 lit
 * CRTCs retire 1920 buffers a second, and each run is a kworker wake-up
 * (Documentation/vflipq/flip-queue.rst, "Buffer lifetime").
 * The delay bounds how long a framebuffer outlives its last use here;
 * whoever needs them gone now calls vflipq_fq_free_flush().
 */
#define VFLIPQ_FQ_FREE_DELAY msecs_to_jiffies(50)

void vflipq_fq_free_work(struct work_struct *work)
{
	struct vflipq_device *vdev =
		container_of(to_delayed_work(work), struct vflipq_device,
			     fq_free_work);
	struct llist_node *list = llist_del_all(&vdev->fq_free);
	struct vflipq_fq_buf *buf, *next;

	llist_for_each_entry_safe(buf, next, list, free_node) {
		drm_framebuffer_put(buf->fb);
		kfree(buf);
	}
}

/* Everything released so far is freed when this returns. */
void vflipq_fq_free_flush(struct vflipq_device *vdev)
{
	flush_workqueue(vdev->fq_wq);
	flush_delayed_work(&vdev->fq_free_work);
}

static void vflipq_fq_buf_release(struct kref *ref)
{
	struct vflipq_fq_buf *buf = container_of(ref, struct vflipq_fq_buf, ref);
	struct vflipq_device *vdev = buf->vdev;

	/* The last reference may go in the engine's interrupt context. */
	if (llist_add(&buf->free_node, &vdev->fq_free))
		queue_delayed_work(vdev->fq_wq, &vdev->fq_free_work,
				   VFLIPQ_FQ_FREE_DELAY);
}

void vflipq_fq_buf_put(struct vflipq_fq_buf *buf)
{
	kref_put(&buf->ref, vflipq_fq_buf_release);
}

/* @fb's reference passes to the buffer. */
void vflipq_fq_buf_init(struct vflipq_fq_buf *buf, struct vflipq_device *vdev,
			struct drm_framebuffer *fb)
{
	kref_init(&buf->ref);
	buf->vdev = vdev;
	buf->fb = fb;
}

/* Core callbacks, all under engine.lock. */
static void fq_show(void *ctx, unsigned int pi, void *b, u64 present_id,
		    u64 ts, u64 seq)
{
	struct vflipq_output *out = ctx;
	struct vflipq_fq_buf *buf = b;

	lockdep_assert_held(&out->engine.lock);
	trace_vflipq_flip_show(out->crtc.base.id, out->flipq.planes[pi]->base.id,
			       present_id, ts, seq);
	if (vflipq_fb_is_cross_adapter(buf->fb))
		atomic64_inc(&out->vdev->imported_scanouts);
	kref_get(&buf->ref);
	if (out->flipq.scanout[pi])
		vflipq_fq_buf_put(out->flipq.scanout[pi]);
	out->flipq.scanout[pi] = buf;
	out->flipq.scanout_gen++;
}

static void fq_release(void *ctx, unsigned int pi, void *b)
{
	struct vflipq_output *out = ctx;

	lockdep_assert_held(&out->engine.lock);
	vflipq_fq_buf_put(b);
}

static void fq_event(void *ctx, unsigned int pi, u64 seq, u64 ts,
		     u32 first_free)
{
	struct vflipq_output *out = ctx;
	struct vflipq_fq_event *e;

	lockdep_assert_held(&out->engine.lock);
	if (out->flipq.nevents == VFLIPQ_FQ_EVENTS) {
		out->flipq.events_dropped++;
		return;
	}
	trace_vflipq_flipq_irq(out->crtc.base.id, out->flipq.planes[pi]->base.id,
			       out->flipq.core.planes[pi].shown_id, seq, first_free);
	e = &out->flipq.events[out->flipq.nevents++];
	e->plane = pi;
	e->first_free = first_free;
	e->present_id = out->flipq.core.planes[pi].shown_id;
	e->seq = seq;
	e->ts = ts;
}

static bool fq_has_work(struct vflipq_output *out)
{
	return out->flipq.nevents;
}

static u64 grid_seq(struct vflipq_output *out, u64 ts)
{
	if (ts <= ktime_to_ns(out->engine.phase) || !out->engine.period_ns)
		return out->engine.phase_seq;
	return out->engine.phase_seq +
	       div64_u64(ts - ktime_to_ns(out->engine.phase), out->engine.period_ns);
}

/*
 * The frame duration the engine can actually run at: whole scan lines of
 * the current mode, as variable-refresh hardware stretches vtotal.  Same
 * arithmetic as drm_calc_timestamping_constants().  0 if out of range.
 * Called with engine.lock held.
 */
u64 vflipq_flipq_snap_period(struct vflipq_output *out, u64 duration_ns)
{
	const struct drm_display_mode *m = &out->engine.mode;
	u64 line_x_clock, vtotal;

	lockdep_assert_held(&out->engine.lock);
	if (duration_ns < VFLIPQ_MIN_PERIOD_NS ||
	    duration_ns > VFLIPQ_MAX_PERIOD_NS || !m->crtc_clock ||
	    !m->crtc_htotal)
		return 0;
	line_x_clock = (u64)m->crtc_htotal * 1000000;
	vtotal = div64_u64(duration_ns * m->crtc_clock + line_x_clock / 2,
			   line_x_clock);
	if (vtotal <= m->crtc_vdisplay || vtotal > U16_MAX)
		return 0;
	return div64_u64(vtotal * line_x_clock, m->crtc_clock);
}

/* The engine runs at a new frame duration from the vblank at @ts. */
static void fq_period(void *ctx, u64 period_ns, u64 ts, u64 seq)
{
	struct vflipq_output *out = ctx;
	struct drm_display_mode mode = out->engine.mode;
	u64 line_x_clock = (u64)mode.crtc_htotal * 1000000;

	lockdep_assert_held(&out->engine.lock);
	/* Keep the vblank core's frame duration (vblank counting) in step. */
	mode.crtc_vtotal = div64_u64(period_ns * mode.crtc_clock +
				     line_x_clock / 2, line_x_clock);
	drm_calc_timestamping_constants(&out->crtc, &mode);
	out->engine.period_ns = period_ns;
	out->engine.phase = ns_to_ktime(ts);
	out->engine.phase_seq = seq;
	out->engine.period_changed = true;
}

static void fq_logged(void *ctx, unsigned int pi, u64 present_id, u64 ts,
		      u32 index)
{
	struct vflipq_output *out = ctx;

	lockdep_assert_held(&out->engine.lock);
	trace_vflipq_log_update(out->crtc.base.id, out->flipq.planes[pi]->base.id,
				present_id, ts, index);
}

/*
 * A buffer whose producer has not finished writing it (implicit fences,
 * e.g. another adapter rendering into a cross-adapter buffer) is not ready:
 * the screen never shows a half-rendered frame.
 */
static bool fq_ready(void *ctx, unsigned int pi, void *b)
{
	struct vflipq_output *out = ctx;
	struct vflipq_fq_buf *buf = b;
	unsigned int i;

	lockdep_assert_held(&out->engine.lock);
	for (i = 0; i < buf->fb->format->num_planes; i++)
		if (!dma_resv_test_signaled(buf->fb->obj[i]->resv,
					    DMA_RESV_USAGE_WRITE))
			return false;
	return true;
}

static const struct vfq_ops vflipq_fq_ops = {
	.ready = fq_ready,
	.show = fq_show,
	.release = fq_release,
	.event = fq_event,
	.period = fq_period,
	.logged = fq_logged,
};

/**
 * vflipq_flipq_tick - the flip-queue part of one vblank of the engine
 * @out: output
 * @vblank_ts: time of this vblank
 *
 * Called by the engine with engine.lock held.
 *
 * Return: true if the worker has something to do.
 */
bool vflipq_flipq_tick(struct vflipq_output *out, ktime_t vblank_ts)
{
	u64 ts = ktime_to_ns(vblank_ts);

	lockdep_assert_held(&out->engine.lock);
	if (out->flipq.core.depth <= 1)
		return false;
	vfq_vblank(&out->flipq.core, ts, grid_seq(out, ts));
	vfq_power_update(&out->flipq.core, ts, out->engine.vblank_wanted ||
			 out->composer.users);
	return fq_has_work(out);
}

/**
 * vflipq_flipq_catch_up - the flip-queue part of the vblanks up to @now_ns
 * @out: output, not in VRR mode
 * @now_ns: current time
 *
 * Handles, in order, every vblank since the last one handled at which the
 * queue has work (vfq_catch_up()), with that vblank's own timestamp: an
 * engine that slept through vblanks nobody could observe leaves the log
 * and the interrupts as if it had run at each.  Under engine.lock.
 *
 * Return: true if interrupts were raised (vflipq_flipq_send_events()).
 */
bool vflipq_flipq_catch_up(struct vflipq_output *out, u64 now_ns)
{
	struct vfq_crtc *c = &out->flipq.core;

	lockdep_assert_held(&out->engine.lock);
	if (c->depth <= 1)
		return false;
	vfq_catch_up(c, now_ns);
	vfq_power_update(c, c->handled_ns, out->engine.vblank_wanted ||
			 out->composer.users);
	return fq_has_work(out);
}

/*
 * The vblank the queue next needs the engine at (vfq_next_wake()), ~0 for
 * none.  Under engine.lock, the queue caught up.
 */
u64 vflipq_flipq_wake(struct vflipq_output *out)
{
	lockdep_assert_held(&out->engine.lock);
	if (out->flipq.core.depth <= 1)
		return ~0ULL;
	return vfq_next_wake(&out->flipq.core);
}

/**
 * vflipq_flipq_sync_locked - bring the queue up to now
 * @out: output
 *
 * Anybody who reads or changes the queue calls this first under
 * engine.lock: what the engine would have latched at the vblanks that
 * passed since it last ran is latched here, with the vblanks' timestamps.
 * The engine may sleep between the vblanks the queue asked for
 * (&vflipq_engine.lazy), or its interrupt may come late (a busy
 * CPU, a vCPU the host did not run): a flip queued now must not latch at
 * a vblank before it, as it would once that late interrupt caught up.
 * Interrupts raised on the way go to the worker: the caller holds
 * engine.lock, under which no event can be sent.
 */
void vflipq_flipq_sync_locked(struct vflipq_output *out)
{
	lockdep_assert_held(&out->engine.lock);
	if (out->engine.running && !out->engine.vrr &&
	    vflipq_flipq_catch_up(out, ktime_get_ns()))
		queue_work(out->vdev->fq_wq, &out->flipq.work);
}

/* Whether the queue keeps the engine running; under engine.lock. */
bool vflipq_flipq_needed(struct vflipq_output *out)
{
	lockdep_assert_held(&out->engine.lock);
	return out->flipq.core.depth > 1 && out->flipq.core.power != VFQ_POWER_NO_PHASE;
}

/* Under engine.lock. */
void vflipq_flipq_arm_immediate(struct vflipq_output *out)
{
	u64 next;

	lockdep_assert_held(&out->engine.lock);
	next = vfq_next_immediate(&out->flipq.core, ktime_get_ns());
	if (next != ~0ULL)
		hrtimer_start(&out->flipq.imm_timer, ns_to_ktime(next),
			      HRTIMER_MODE_ABS);
}

static enum hrtimer_restart vflipq_fq_imm_fire(struct hrtimer *timer)
{
	struct vflipq_output *out =
		container_of(timer, struct vflipq_output, flipq.imm_timer);
	enum hrtimer_restart restart = HRTIMER_NORESTART;
	u64 now = ktime_get_ns(), next;
	bool work;

	spin_lock(&out->engine.lock);
	if (!out->engine.active) {
		spin_unlock(&out->engine.lock);
		return HRTIMER_NORESTART;
	}
	vflipq_flipq_sync_locked(out);
	vfq_immediate(&out->flipq.core, now, grid_seq(out, now));
	out->stats.timer_expirations++;
	next = vfq_next_immediate(&out->flipq.core, now);
	work = fq_has_work(out);
	/*
	 * A submit may have re-armed the timer meanwhile (it does so under
	 * this lock): then it is queued already and must not be touched.
	 */
	if (next != ~0ULL && next > now && !hrtimer_is_queued(timer)) {
		hrtimer_set_expires(timer, ns_to_ktime(next));
		restart = HRTIMER_RESTART;
	}
	spin_unlock(&out->engine.lock);

	if (work)
		vflipq_flipq_send_events(out);
	return restart;
}

/*
 * One interrupt as a DRM event for @owner.  Return: false if the event
 * could not be allocated (it is still to be sent), true once it was sent or
 * dropped because the client does not read its events.
 */
static bool fq_send_one(struct drm_device *drm, struct vflipq_output *out,
			struct drm_file *owner, const struct vflipq_fq_event *ev,
			gfp_t gfp)
{
	struct drm_pending_event *p;
	struct drm_vflipq_event_flipq *e;
	int ret;

	p = kzalloc(sizeof(*p) + sizeof(*e), gfp);
	if (!p)
		return false;
	e = (struct drm_vflipq_event_flipq *)(p + 1);
	e->base.type = DRM_VFLIPQ_EVENT_FLIPQ;
	e->base.length = sizeof(*e);
	e->crtc_id = out->crtc.base.id;
	e->plane_id = out->flipq.planes[ev->plane]->base.id;
	e->first_free = ev->first_free;
	e->present_id = ev->present_id;
	e->sequence = ev->seq;
	e->timestamp_ns = ev->ts;
	p->event = &e->base;
	lockdep_assert_held(&drm->event_lock);
	/* A client that does not read its events loses new ones. */
	ret = drm_event_reserve_init_locked(drm, owner, p, &e->base);
	if (ret) {
		kfree(p);
		return true;
	}
	drm_send_event_locked(drm, p);
	return true;
}

/*
 * Send the raised interrupts, oldest first, from any context (the engine's
 * hrtimers included).  @gfp must not sleep: it allocates under spinlocks.
 * The owner is read and the events queued on its file under engine.lock,
 * which vflipq_flipq_file_gone() takes to let go of the file before the
 * DRM core releases the file's events: nothing is sent to a file after
 * that.
 *
 * Return: false if some are left (an allocation failed).
 */
static bool fq_send_events(struct vflipq_output *out, gfp_t gfp)
{
	struct drm_device *drm = out->crtc.dev;
	struct vflipq_flipq *fq = &out->flipq;
	unsigned long flags;
	unsigned int n = 0;

	spin_lock_irqsave(&drm->event_lock, flags);
	spin_lock(&out->engine.lock);
	while (n < fq->nevents &&
	       (!fq->owner ||
		fq_send_one(drm, out, fq->owner, &fq->events[n], gfp)))
		n++;
	fq->nevents -= n;
	memmove(fq->events, fq->events + n, fq->nevents * sizeof(fq->events[0]));
	n = fq->nevents;
	spin_unlock(&out->engine.lock);
	spin_unlock_irqrestore(&drm->event_lock, flags);
	return !n;
}

/*
 * The events that could not go out where they were raised: a catch-up
 * under engine.lock (vflipq_flipq_sync_locked()) or a failed atomic
 * allocation.  fq_send_events() allocates under the event and engine
 * spinlocks, so never with a sleeping allocation; a failed one is retried
 * a millisecond or two later, outside them.
 */
static void vflipq_fq_work(struct work_struct *work)
{
	struct vflipq_output *out =
		container_of(work, struct vflipq_output, flipq.work);

	while (!fq_send_events(out, GFP_ATOMIC | __GFP_NOWARN))
		usleep_range(1000, 2000);
}

/**
 * vflipq_flipq_send_events - deliver the raised interrupts
 * @out: output
 *
 * Any context, outside engine.lock: the engine's timers call it in hard
 * interrupt context.  Sending at once spares a worker's wake-up per event;
 * the worker retries what an atomic allocation could not send.
 */
void vflipq_flipq_send_events(struct vflipq_output *out)
{
	if (!fq_send_events(out, GFP_ATOMIC))
		queue_work(out->vdev->fq_wq, &out->flipq.work);
}

/**
 * vflipq_flipq_snapshot_locked - the images the queue shows at this vblank
 * @out: output, its queue caught up to the vblank
 * @snap: one reference per plane the queue put an image on, else NULL
 *
 * Taken by the engine for the composition of this vblank, however late it
 * runs, in the same hold of engine.lock that caught the queue up to the
 * vblank: a later catch-up may already latch the flips of the next one.
 *
 * Return: &vflipq_flipq.scanout_gen the images belong to.
 */
u64 vflipq_flipq_snapshot_locked(struct vflipq_output *out,
				 struct vflipq_fq_buf **snap)
{
	unsigned int i;

	lockdep_assert_held(&out->engine.lock);
	for (i = 0; i < VFQ_MAX_PLANES; i++) {
		snap[i] = out->flipq.scanout[i];
		if (snap[i])
			kref_get(&snap[i]->ref);
	}
	return out->flipq.scanout_gen;
}

struct vflipq_fq_buf *vflipq_flipq_scanout_get(struct vflipq_output *out,
					       unsigned int fq_index)
{
	struct vflipq_fq_buf *buf;
	unsigned long flags;

	spin_lock_irqsave(&out->engine.lock, flags);
	vflipq_flipq_sync_locked(out);
	buf = fq_index < VFQ_MAX_PLANES ? out->flipq.scanout[fq_index] : NULL;
	if (buf)
		kref_get(&buf->ref);
	spin_unlock_irqrestore(&out->engine.lock, flags);
	return buf;
}

/* Whether flips are queued on the plane. */
bool vflipq_flipq_plane_busy(struct vflipq_plane *vplane)
{
	struct vflipq_output *out = vplane->out;
	unsigned long flags;
	bool busy;

	spin_lock_irqsave(&out->engine.lock, flags);
	vflipq_flipq_sync_locked(out);
	busy = vfq_pending(&out->flipq.core, vplane->fq_index);
	spin_unlock_irqrestore(&out->engine.lock, flags);
	return busy;
}

/*
 * A commit decided what the plane shows: the queue's image stops
 * overriding the committed state.  Called from atomic_update.
 */
void vflipq_flipq_plane_taken(struct vflipq_plane *vplane)
{
	struct vflipq_output *out = vplane->out;
	unsigned int pi = vplane->fq_index;
	struct vflipq_fq_buf *shown, *scanout;
	unsigned long flags;

	spin_lock_irqsave(&out->engine.lock, flags);
	vflipq_flipq_sync_locked(out);
	shown = vfq_forget_shown(&out->flipq.core, pi);
	scanout = out->flipq.scanout[pi];
	out->flipq.scanout[pi] = NULL;
	if (scanout)
		out->flipq.scanout_gen++;
	spin_unlock_irqrestore(&out->engine.lock, flags);

	if (shown)
		vflipq_fq_buf_put(shown);
	if (scanout)
		vflipq_fq_buf_put(scanout);
}

/* The CRTC is off: wait for a running tearing-flip timer.  No DRM lock. */
void vflipq_flipq_stop(struct vflipq_output *out)
{
	hrtimer_cancel(&out->flipq.imm_timer);
}

/* A mode set restarts the grid; called with engine.lock held. */
void vflipq_flipq_mode_set(struct vflipq_output *out)
{
	lockdep_assert_held(&out->engine.lock);
	vfq_set_timing(&out->flipq.core, out->engine.period_ns, ktime_to_ns(out->engine.phase),
		       out->engine.phase_seq);
}

/*
 * Mode set, disable, DPMS off, removal: what is queued is cancelled and
 * logged before the pipe changes.
 */
void vflipq_flipq_drain(struct vflipq_output *out)
{
	bool work;

	spin_lock_irq(&out->engine.lock);
	vflipq_flipq_sync_locked(out);
	vfq_cancel_all(&out->flipq.core);
	hrtimer_try_to_cancel(&out->flipq.imm_timer);
	work = fq_has_work(out);
	spin_unlock_irq(&out->engine.lock);
	if (work)
		vflipq_flipq_send_events(out);
}

static void vflipq_flipq_release(struct drm_device *drm, void *data)
{
	struct vflipq_output *out = data;
	unsigned int i;

	hrtimer_cancel(&out->flipq.imm_timer);
	vfq_cancel_all(&out->flipq.core);
	flush_work(&out->flipq.work);
	for (i = 0; i < VFQ_MAX_PLANES; i++) {
		if (out->flipq.scanout[i])
			vflipq_fq_buf_put(out->flipq.scanout[i]);
		if (out->flipq.core.planes[i].shown_buf)
			vflipq_fq_buf_put(out->flipq.core.planes[i].shown_buf);
		if (out->flipq.logs[i])
			drm_gem_object_put(&out->flipq.logs[i]->base);
	}
	vflipq_fq_free_flush(out->vdev);
}

int vflipq_flipq_init(struct vflipq_output *out)
{
	struct drm_device *drm = &out->vdev->drm;
	unsigned int n = 0, i;

	out->flipq.planes[n++] = out->primary;
	for (i = 0; i < out->vdev->config.overlays; i++)
		out->flipq.planes[n++] = out->overlays[i];
	if (out->cursor)
		out->flipq.planes[n++] = out->cursor;
	for (i = 0; i < n; i++)
		container_of(out->flipq.planes[i], struct vflipq_plane,
			     base)->fq_index = i;

	vfq_init(&out->flipq.core, &vflipq_fq_ops, out, out->vdev->config.flipq_depth,
		 n);
	vflipq_hrtimer_setup(&out->flipq.imm_timer, vflipq_fq_imm_fire,
			     CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	INIT_WORK(&out->flipq.work, vflipq_fq_work);
	atomic64_set(&out->stats.frames_composed, 0);
	return drmm_add_action_or_reset(drm, vflipq_flipq_release, out);
}

/*
 * The owner is gone (file closed or master dropped): everything it queued
 * is cancelled and logged, its interrupt targets and logs go away.
 */
void vflipq_flipq_file_gone(struct vflipq_device *vdev, struct drm_file *file)
{
	unsigned int i, pi;
	bool gone = false;

	for (i = 0; i < vdev->config.crtcs; i++) {
		struct vflipq_output *out = vdev->outputs[i];
		struct vflipq_log *logs[VFQ_MAX_PLANES] = { };
		bool owned;

		drm_modeset_lock(&out->crtc.mutex, NULL);
		spin_lock_irq(&out->engine.lock);
		owned = out->flipq.owner == file;
		if (owned) {
			/* What reached the screen before the close is logged so. */
			vflipq_flipq_sync_locked(out);
			vfq_reset_client(&out->flipq.core);
			/* Its interrupts, raised and not sent, go with it. */
			out->flipq.nevents = 0;
			hrtimer_try_to_cancel(&out->flipq.imm_timer);
			for (pi = 0; pi < out->flipq.core.nplanes; pi++) {
				logs[pi] = out->flipq.logs[pi];
				out->flipq.logs[pi] = NULL;
			}
			out->flipq.owner = NULL;
		}
		spin_unlock_irq(&out->engine.lock);
		drm_modeset_unlock(&out->crtc.mutex);

		if (!owned)
			continue;
		for (pi = 0; pi < VFQ_MAX_PLANES; pi++)
			if (logs[pi])
				drm_gem_object_put(&logs[pi]->base);
		gone = true;
	}
	/*
	 * A worker sending to this file has finished, and what the client's
	 * queues let go is released and freed now, in its own time, not in
	 * the middle of whatever runs next.
	 */
	if (gone)
		vflipq_fq_free_flush(vdev);
}

static const char *const vflipq_power_names[] = {
	[VFQ_POWER_ON] = "on",
	[VFQ_POWER_KEEP_PHASE] = "keep-phase",
	[VFQ_POWER_NO_PHASE] = "no-phase",
};

/* debugfs "vflipq_flipq": the engine and queue of every CRTC. */
void vflipq_flipq_debugfs_show(struct seq_file *m, struct vflipq_output *out)
{
	struct vfq_crtc *c = &out->flipq.core;
	unsigned int pi;

	spin_lock_irq(&out->engine.lock);
	vflipq_flipq_sync_locked(out);
	seq_printf(m, "crtc %u (id %u): depth %u, engine %s, power %s, period %llu ns\n",
		   out->index, out->crtc.base.id, c->depth,
		   !out->engine.running ? "stopped" :
		   out->engine.lazy ? "asleep" : "running",
		   vflipq_power_names[c->power], out->engine.period_ns);
	seq_printf(m, "  timer_expirations %llu vblank_irqs %llu flipq_irqs %llu flipq_events %llu events_dropped %llu\n",
		   out->stats.timer_expirations, out->stats.vblank_irqs, c->stats.irqs,
		   c->stats.events, out->flipq.events_dropped);
	seq_printf(m, "  flips_shown %llu flips_cancelled %llu frames_composed %lld\n",
		   c->stats.shown, c->stats.cancelled,
		   (long long)atomic64_read(&out->stats.frames_composed));
	for (pi = 0; pi < c->nplanes; pi++) {
		const struct vfq_plane *p = &c->planes[pi];

		seq_printf(m, "  plane %u: pending %u (ring %u) last_id %llu shown_id %llu log %u/%u irq_target %lld\n",
			   out->flipq.planes[pi]->base.id, p->live, p->count,
			   p->last_id, p->shown_id, p->log_next, p->log_len,
			   p->irq_target == VFQ_IRQ_NONE ? -1LL :
			   (long long)p->irq_target);
	}
	spin_unlock_irq(&out->engine.lock);
}
