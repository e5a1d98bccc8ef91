// SPDX-License-Identifier: GPL-2.0-only
/*
 * Variable refresh: the connector's vrr_capable and the CRTC's
 * VRR_ENABLED drive the display engine's variable-refresh range.
 *
 * With VRR on, a frame lasts from its vblank until the next flip, at least
 * the mode's own frame duration (the range's minimum) and at most
 * VFLIPQ_VRR_MAX_NS: a commit ends the frame when it is applied (or once
 * the minimum has passed), and without one the frame repeats at the
 * maximum.  The engine's grid then has the maximum as its period and its
 * phase at the last vblank, so vblank times and the frame counter keep
 * the meaning they have on a fixed grid.
 *
 * The DRM vblank counter follows the engine's frame counter (the hardware
 * counter of get_vblank_counter()), not time: a stretched frame counts
 * one, where the core's counting by time would count it as several.
 */

#include <linux/hrtimer.h>
#include <linux/math64.h>

#include <drm/drm_atomic.h>
#include <drm/drm_connector.h>
#include <drm/drm_crtc.h>
#include <drm/drm_vblank.h>

#include "vflipq_drv.h"

/* The period of the engine's grid; under engine.lock. */
u64 vflipq_vrr_grid_period(const struct vflipq_output *out)
{
	lockdep_assert_held(&out->engine.lock);
	return out->engine.vrr ? VFLIPQ_VRR_MAX_NS : out->engine.period_ns;
}

/*
 * The frame counter at @t, a vblank of the grid or (VRR) the vblank a
 * flip ended a frame at: frames since the phase, one for a frame cut
 * short.  Under engine.lock.
 */
u64 vflipq_vrr_frame_at(const struct vflipq_output *out, ktime_t t)
{
	u64 p = vflipq_vrr_grid_period(out);	/* asserts engine.lock */

	if (!ktime_after(t, out->engine.phase) || !p)
		return out->engine.phase_seq;
	return out->engine.phase_seq +
	       div64_u64(ktime_to_ns(ktime_sub(t, out->engine.phase)) + p - 1, p);
}

/*
 * A vblank at @t, reported by the engine: with VRR on the grid restarts
 * there, the next vblank is a maximum frame away unless a flip comes
 * first.  Under engine.lock.
 */
void vflipq_vrr_vblank(struct vflipq_output *out, ktime_t t)
{
	lockdep_assert_held(&out->engine.lock);
	if (!out->engine.vrr || !ktime_after(t, out->engine.phase))
		return;
	out->engine.phase_seq = vflipq_vrr_frame_at(out, t);
	out->engine.phase = t;
}

u32 vflipq_vrr_get_vblank_counter(struct drm_crtc *crtc)
{
	struct vflipq_output *out = crtc_to_output(crtc);
	unsigned long flags;
	ktime_t t;
	u64 n;

	spin_lock_irqsave(&out->engine.lock, flags);
	t = vflipq_engine_last_vblank(out);
	n = vflipq_vrr_frame_at(out, t);
	spin_unlock_irqrestore(&out->engine.lock, flags);
	return (u32)n;
}

/*
 * A commit was applied (atomic_flush, no vflipq or DRM spinlock held):
 * latch VRR_ENABLED and, with VRR on, end the current frame now, or once
 * the minimum frame duration has passed.  The engine timer is cancelled
 * and restarted here, which waits for a running expiry: none of the locks
 * it takes is held.
 */
void vflipq_vrr_commit(struct vflipq_output *out,
		       const struct drm_crtc_state *state)
{
	bool vrr = state->active && state->vrr_enabled;
	unsigned long flags;
	ktime_t last, next;

	spin_lock_irqsave(&out->engine.lock, flags);
	if (!vrr && !out->engine.vrr) {
		spin_unlock_irqrestore(&out->engine.lock, flags);
		return;
	}
	spin_unlock_irqrestore(&out->engine.lock, flags);

	hrtimer_cancel(&out->engine.timer);

	spin_lock_irqsave(&out->engine.lock, flags);
	vflipq_flipq_sync_locked(out);
	/* The grid restarts at the last vblank, in the new mode of running. */
	last = vflipq_engine_last_vblank(out);
	out->engine.lazy = false;
	out->engine.phase_seq = vflipq_vrr_frame_at(out, last);
	out->engine.phase = last;
	out->engine.last_vblank = last;
	out->engine.vrr = vrr && out->engine.active;
	/* The queue schedules on the fixed grid, which restarts here. */
	if (!out->engine.vrr)
		vflipq_flipq_mode_set(out);
	if (out->engine.running) {
		if (out->engine.vrr) {
			next = ktime_add_ns(last, out->engine.period_ns);
			if (ktime_before(next, ktime_get()))
				next = ktime_get();
		} else {
			next = ktime_add_ns(last, vflipq_vrr_grid_period(out));
		}
		hrtimer_start(&out->engine.timer, next, HRTIMER_MODE_ABS);
	}
	spin_unlock_irqrestore(&out->engine.lock, flags);
}

/* The connector offers variable refresh: vrr_capable is 1. */
int vflipq_vrr_init_connector(struct drm_connector *connector)
{
	int ret = drm_connector_attach_vrr_capable_property(connector);

	if (ret)
		return ret;
	drm_connector_set_vrr_capable_property(connector, true);
	return 0;
}

/*
 * Publish the range the engine runs with VRR on, as an EDID's range
 * descriptor would (the DRM core's debugfs vrr_range shows it; IGT's
 * kms_vrr sizes its flip rates from it and divides by its minimum): a
 * frame lasts at most VFLIPQ_VRR_MAX_NS and at least the mode's own
 * duration, so the fastest mode bounds the rate.  Called by get_modes,
 * under mode_config.mutex like every other update of display_info.
 */
void vflipq_vrr_set_range(struct drm_connector *connector, int max_hz)
{
	struct drm_monitor_range_info *r = &connector->display_info.monitor_range;

	r->min_vfreq = DIV_ROUND_UP_ULL(NSEC_PER_SEC, VFLIPQ_VRR_MAX_NS);
	r->max_vfreq = max_hz;
}

/* Counting by frames needs the counter's width: all of a u32. */
void vflipq_vrr_init_crtc(struct drm_crtc *crtc)
{
	drm_crtc_set_max_vblank_count(crtc, U32_MAX);
}
