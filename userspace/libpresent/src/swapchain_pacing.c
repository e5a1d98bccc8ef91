// SPDX-License-Identifier: MIT
/*
 * Pacing: the refresh grid (fixed, set or boosted), target -> expected
 * vblank, frame latency.
 */
#include <string.h>

#include "swapchain_internal.h"

/* The refresh the output runs at: the mode's, a set one, or boosted. */
void sc_set_period(struct present_swapchain *sc, uint64_t period_ns)
{
	sc->period_ns = period_ns;
	sc->fastest_ns = present_boost_period(period_ns, sc->display->info.refresh_min_ns,
					      sc->mode.htotal, sc->mode.vdisplay, sc->mode.clock);
	if (!sc->fastest_ns)
		sc->boost = false;
	sc->grid_ns = sc->boost ? sc->fastest_ns : period_ns;
}

uint64_t sc_mode_period(const drmModeModeInfo *m)
{
	return (uint64_t)m->htotal * m->vtotal * 1000000ull / (m->clock ? m->clock : 1);
}

void sc_reference_vblank(struct present_swapchain *sc)
{
	uint64_t seq = 0, ns = 0;

	if (drmCrtcGetSequence(sc->dfd, sc->crtc_id, &seq, &ns) == 0 && ns) {
		sc->ref_vbl_seq = seq;
		sc->ref_vbl_ns = ns;
	} else {
		sc->ref_vbl_ns = present_now_ns();
	}
	sc->last_vbl_ns = sc->ref_vbl_ns;
}

static bool is_multiple(uint64_t a, uint64_t b)
{
	uint64_t big = a > b ? a : b, small = a > b ? b : a, k = (big + small / 2) / small;
	int64_t d = (int64_t)(big - k * small);

	return (d < 0 ? -d : d) * 1000 <= (int64_t)big;	/* within 0.1% */
}

/* Expected vblank of a frame with target @t on the current grid. */
uint64_t sc_expect_of(struct present_swapchain *sc, uint64_t t)
{
	uint64_t base = sc->ref_vbl_ns, p = sc->grid_ns;

	return p && t > base ? base + (t - base + p - 1) / p * p : base + p;
}

int present_swapchain_set_refresh(struct present_swapchain *sc, uint64_t period_ns)
{
	uint64_t old;
	int ret = 0;

	if (!sc)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	if (!period_ns)
		period_ns = sc_mode_period(&sc->mode);
	if (period_ns < VRR_MIN_PERIOD_NS || period_ns > VRR_MAX_PERIOD_NS)
		return sc_fail(sc, PRESENT_E_INVALID_ARG, "period %llu ns (%llu..%llu)",
			       (unsigned long long)period_ns, VRR_MIN_PERIOD_NS, VRR_MAX_PERIOD_NS);
	ret = sc_check_removed(sc);
	if (ret)
		return ret;
	if (!sc->flipq)
		return sc_fail(sc, PRESENT_E_NOT_SUPPORTED, "refresh changes need the flip queue");
	old = sc->period_ns;
	if (sc->nframes && is_multiple(old, period_ns)) {
		/* the queued targets stay on the grid: let them complete
		 * (a new duration only goes with a flip once earlier ones
		 * completed) */
		while (sc->nframes && !ret)
			if ((ret = present_swapchain_dispatch(sc, 1000)) == PRESENT_E_TIMEOUT)
				ret = 0;
	} else if (sc->nframes) {
		/* non-multiple: cancel the queued frames and requeue them
		 * with targets on the new grid */
		sc_cancel_for_requeue(sc);
	}
	if (ret < 0)
		return ret;
	/* a boost goes on at the fastest multiple of the new refresh, if any */
	sc_set_period(sc, period_ns);
	sc->next_duration_ns = sc->grid_ns;
	return sc_requeue_frames(sc, false);
}

uint64_t present_swapchain_refresh_period(struct present_swapchain *sc)
{
	if (!sc)
		return 0;
	SC_LOCK(sc);
	return sc->period_ns;
}

uint64_t present_swapchain_boost_period(struct present_swapchain *sc)
{
	if (!sc)
		return 0;
	SC_LOCK(sc);
	return sc->fastest_ns;
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
	if (!sc->flipq)
		return sc_fail(sc, PRESENT_E_NOT_SUPPORTED, "refresh changes need the flip queue");
	if (on && !sc->fastest_ns)
		return sc_fail(sc, PRESENT_E_NOT_SUPPORTED,
			       "output cannot boost a %llu ns refresh (range %llu..%llu ns, %u visible lines)",
			       (unsigned long long)sc->period_ns,
			       (unsigned long long)sc->display->info.refresh_min_ns,
			       (unsigned long long)sc->display->info.refresh_max_ns, sc->mode.vdisplay);
	if (on == sc->boost)
		return 0;
	sc->boost = on;
	sc->grid_ns = on ? sc->fastest_ns : sc->period_ns;
	/*
	 * The new frame duration rides on the next flip.  Queued frames are
	 * not waited for here: the driver refuses a duration change behind
	 * them with -EAGAIN (drain all planes) and present waits and
	 * resubmits.  Their targets hold on either grid: the fast one
	 * divides the fixed one.
	 */
	sc->next_duration_ns = sc->grid_ns;
	return 0;
}

int present_swapchain_set_max_frame_latency(struct present_swapchain *sc, unsigned int max)
{
	if (!sc)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	if (present_latency_set_max(&sc->lat, max))
		return sc_fail(sc, PRESENT_E_INVALID_ARG, "max frame latency %u (1..16)", max);
	sc_update_waitable(sc);
	return 0;
}

int present_swapchain_get_max_frame_latency(struct present_swapchain *sc)
{
	if (!sc)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	return (int)sc->lat.max;
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
	hc = sc->crtc_index > 1 ? (sc->crtc_index << DRM_VBLANK_HIGH_CRTC_SHIFT) &
				  DRM_VBLANK_HIGH_CRTC_MASK :
	     sc->crtc_index == 1 ? DRM_VBLANK_SECONDARY : 0;
	vbl.request.type = DRM_VBLANK_RELATIVE | hc;
	vbl.request.sequence = 1;
	sc_stats_wakeup(sc);
	if (drmWaitVBlank(sc->dfd, &vbl))
		return sc_errno(sc, errno, "wait for vblank");
	sc->ref_vbl_ns = (uint64_t)vbl.reply.tval_sec * 1000000000ull +
			 (uint64_t)vbl.reply.tval_usec * 1000ull;
	sc->ref_vbl_seq = vbl.reply.sequence;
	if (out_ns)
		*out_ns = sc->ref_vbl_ns;
	return 0;
}
