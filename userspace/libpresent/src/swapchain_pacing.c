// SPDX-License-Identifier: MIT
/*
 * Pacing: the refresh grid (fixed, set or boosted), target -> expected
 * vblank.
 */
#include <string.h>

#include "swapchain_internal.h"

/* The refresh the output runs at: the mode's, a set one, or boosted. */
void sc_set_period(struct present_swapchain *sc, uint64_t period_ns)
{
	struct sc_pacing *pc = &sc->pace;

	pc->period_ns = period_ns;
	pc->fastest_ns = present_boost_period(period_ns, sc->display->info.refresh_min_ns,
					      sc->out.mode.htotal, sc->out.mode.vdisplay, sc->out.mode.clock);
	if (!pc->fastest_ns)
		pc->boost = false;
	pc->grid_ns = pc->boost ? pc->fastest_ns : period_ns;
}

uint64_t sc_mode_period(const drmModeModeInfo *m)
{
	return (uint64_t)m->htotal * m->vtotal * 1000000ull / (m->clock ? m->clock : 1);
}

void sc_reference_vblank(struct present_swapchain *sc)
{
	uint64_t seq = 0, ns = 0;

	if (drmCrtcGetSequence(sc->dfd, sc->out.crtc_id, &seq, &ns) == 0 && ns) {
		sc->pace.ref_vbl_seq = seq;
		sc->pace.ref_vbl_ns = ns;
	} else {
		sc->pace.ref_vbl_ns = present_now_ns();
	}
}

/* A new mode (ours or someone else's): its own period, unboosted, and
 * the vblanks of the old one no longer count. */
void sc_pacing_reset(struct present_swapchain *sc)
{
	sc->pace.boost = false;
	sc_set_period(sc, sc_mode_period(&sc->out.mode));
	sc->pace.next_duration_ns = 0;
	sc_reference_vblank(sc);
}

/* A vblank the driver reported (a flip's event, a frame shown). */
void sc_pacing_saw_vblank(struct present_swapchain *sc, uint64_t ns, uint64_t seq)
{
	sc->pace.ref_vbl_ns = ns;
	sc->pace.ref_vbl_seq = seq;
}

/* The refresh change rode on a flip the driver took. */
void sc_pacing_duration_sent(struct present_swapchain *sc)
{
	sc->pace.next_duration_ns = 0;
}

/* The vblank sequence of time @ts, counted on the grid from the reference. */
uint64_t sc_seq_of(const struct present_swapchain *sc, uint64_t ts)
{
	int64_t d = (int64_t)(ts - sc->pace.ref_vbl_ns);
	int64_t p = (int64_t)sc->pace.grid_ns;

	if (!p)
		return sc->pace.ref_vbl_seq;
	return sc->pace.ref_vbl_seq + (d >= 0 ? (d + p / 2) / p : -((-d + p / 2) / p));
}

static bool is_multiple(uint64_t a, uint64_t b)
{
	uint64_t big = a > b ? a : b, small = a > b ? b : a, k = (big + small / 2) / small;
	int64_t d = (int64_t)(big - k * small);

	return (d < 0 ? -d : d) * 1000 <= (int64_t)big;	/* within 0.1% */
}

/* Expected vblank of a frame with target @t on the current grid. */
static uint64_t expect_of(const struct sc_pacing *pc, uint64_t t)
{
	uint64_t base = pc->ref_vbl_ns, p = pc->grid_ns;

	return p && t > base ? base + (t - base + p - 1) / p * p : base + p;
}

/* The latest vblank at or before @now on a grid of period @p. */
static uint64_t vblank_before(const struct sc_pacing *pc, uint64_t p, uint64_t now)
{
	uint64_t base = pc->ref_vbl_ns;

	if (p && now > base)
		base += (now - base) / p * p;
	return base;
}

/*
 * Target and expected vblank of frame @f presented now (f->submit_ns),
 * after the frame queued last or, with none, after the latest vblank.
 * Intervals count periods of the fixed refresh, boosted or not; the boost
 * variant when the output can boost.
 */
void sc_pace_present(struct present_swapchain *sc, struct frame *f)
{
	const struct sc_pacing *pc = &sc->pace;
	uint64_t prev = sc->queue.nframes ? sc->queue.last_expect_ns : 0;

	if (!prev)
		prev = vblank_before(pc, pc->grid_ns, f->submit_ns);
	if (f->interval) {
		f->target_ns = present_interval_target(prev, pc->period_ns, f->interval,
						       pc->fastest_ns);
	} else if (sc->desc.swap_effect == PRESENT_SWAP_FLIP_SEQUENTIAL && sc->queue.nframes) {
		/* sequential: never replace a frame not yet shown */
		f->target_ns = present_interval_target(prev, pc->period_ns, 1, pc->fastest_ns);
	} else {
		f->target_ns = 0;	/* as soon as possible; latest wins */
	}
	f->expect_ns = expect_of(pc, f->target_ns ? f->target_ns : f->submit_ns);
}

/*
 * Target and expected vblank of a present_at() frame @f: the target asked
 * for (f->want_ns), or the newest queued frame's when that is later -- the
 * flip queue refuses a target going backward; the two then share a vblank,
 * where the newer replaces the older.
 */
void sc_pace_at(struct present_swapchain *sc, struct frame *f)
{
	uint64_t last = sc_queue_last_target(sc);

	f->target_ns = f->want_ns > last ? f->want_ns : last;
	f->expect_ns = expect_of(&sc->pace, f->target_ns);
}

/*
 * New target and expected vblank of a cancelled frame @f submitted again
 * now, on the grid of now: at least one period after the frame before it;
 * a present_at() frame keeps the time it asked for.
 */
void sc_pace_requeued(struct present_swapchain *sc, struct frame *f)
{
	const struct sc_pacing *pc = &sc->pace;
	uint64_t now = present_now_ns(), prev;

	if (f->app_id) {
		f->submit_ns = now;
		sc_pace_at(sc, f);
		return;
	}
	prev = sc->queue.nframes ? sc->queue.last_expect_ns : vblank_before(pc, pc->period_ns, now);
	f->target_ns = present_interval_target(prev, pc->period_ns, f->interval ? f->interval : 1,
					       pc->fastest_ns);
	f->submit_ns = now;
	f->expect_ns = expect_of(pc, f->target_ns);
}

int present_swapchain_set_refresh(struct present_swapchain *sc, uint64_t period_ns)
{
	uint64_t old;
	int ret = 0;

	if (!sc)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	if (!period_ns)
		period_ns = sc_mode_period(&sc->out.mode);
	if (period_ns < VRR_MIN_PERIOD_NS || period_ns > VRR_MAX_PERIOD_NS)
		return sc_fail(sc, PRESENT_E_INVALID_ARG, "period %llu ns (%llu..%llu)",
			       (unsigned long long)period_ns, VRR_MIN_PERIOD_NS, VRR_MAX_PERIOD_NS);
	ret = sc_check_removed(sc);
	if (ret)
		return ret;
	if (!sc->flipq.on)
		return sc_fail(sc, PRESENT_E_NOT_SUPPORTED, "refresh changes need the flip queue");
	old = sc->pace.period_ns;
	if (sc->queue.nframes && is_multiple(old, period_ns)) {
		/* the queued targets stay on the grid: let them complete
		 * (a new duration only goes with a flip once earlier ones
		 * completed) */
		while (sc->queue.nframes && !ret)
			if ((ret = present_swapchain_dispatch(sc, 1000)) == PRESENT_E_TIMEOUT)
				ret = 0;
	} else if (sc->queue.nframes) {
		/* non-multiple: cancel the queued frames and requeue them
		 * with targets on the new grid */
		sc_cancel_for_requeue(sc);
	}
	if (ret < 0)
		return ret;
	/* a boost goes on at the fastest multiple of the new refresh, if any */
	sc_set_period(sc, period_ns);
	sc->pace.next_duration_ns = sc->pace.grid_ns;
	return sc_requeue_frames(sc, false);
}

uint64_t present_swapchain_refresh_period(struct present_swapchain *sc)
{
	if (!sc)
		return 0;
	SC_LOCK(sc);
	return sc->pace.period_ns;
}

uint64_t present_swapchain_boost_period(struct present_swapchain *sc)
{
	if (!sc)
		return 0;
	SC_LOCK(sc);
	return sc->pace.fastest_ns;
}

int present_swapchain_set_boost(struct present_swapchain *sc, bool on)
{
	int ret;

	if (!sc)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	ret = sc_check_removed(sc);
	if (ret)
		return ret;
	if (!sc->flipq.on)
		return sc_fail(sc, PRESENT_E_NOT_SUPPORTED, "refresh changes need the flip queue");
	if (on && !sc->pace.fastest_ns)
		return sc_fail(sc, PRESENT_E_NOT_SUPPORTED,
			       "output cannot boost a %llu ns refresh (range %llu..%llu ns, %u visible lines)",
			       (unsigned long long)sc->pace.period_ns,
			       (unsigned long long)sc->display->info.refresh_min_ns,
			       (unsigned long long)sc->display->info.refresh_max_ns, sc->out.mode.vdisplay);
	if (on == sc->pace.boost)
		return 0;
	sc->pace.boost = on;
	sc->pace.grid_ns = on ? sc->pace.fastest_ns : sc->pace.period_ns;
	/*
	 * The new frame duration rides on the next flip.  Queued frames are
	 * not waited for here: the driver refuses a duration change behind
	 * them with -EAGAIN (drain all planes) and present waits and
	 * resubmits.  Their targets hold on either grid: the fast one
	 * divides the fixed one.
	 */
	sc->pace.next_duration_ns = sc->pace.grid_ns;
	return 0;
}

int present_swapchain_wait_vblank(struct present_swapchain *sc, uint64_t *out_ns)
{
	drmVBlank vbl;
	uint32_t hc;

	if (!sc)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	if (sc_removed(sc))
		return sc_fail(sc, PRESENT_E_DEVICE_REMOVED, "device removed");
	memset(&vbl, 0, sizeof(vbl));
	hc = sc->out.crtc_index > 1 ? (sc->out.crtc_index << DRM_VBLANK_HIGH_CRTC_SHIFT) &
				  DRM_VBLANK_HIGH_CRTC_MASK :
	     sc->out.crtc_index == 1 ? DRM_VBLANK_SECONDARY : 0;
	vbl.request.type = DRM_VBLANK_RELATIVE | hc;
	vbl.request.sequence = 1;
	sc_stats_wakeup(sc);
	if (drmWaitVBlank(sc->dfd, &vbl))
		return sc_errno(sc, errno, "wait for vblank");
	sc->pace.ref_vbl_ns = (uint64_t)vbl.reply.tval_sec * 1000000000ull +
			 (uint64_t)vbl.reply.tval_usec * 1000ull;
	sc->pace.ref_vbl_seq = vbl.reply.sequence;
	if (out_ns)
		*out_ns = sc->pace.ref_vbl_ns;
	return 0;
}
