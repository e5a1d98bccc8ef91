// SPDX-License-Identifier: MIT
/*
 * Frames retiring: page-flip events and the flip-queue log, the waits
 * (dispatch, wait_idle) and cancelling.
 */
#include <string.h>

#include "swapchain_internal.h"

/* Buffer @b is queued, or on screen with a flip queued that will release
 * it (a buffer left on screen with nothing queued stays usable). */
bool sc_buf_busy(struct present_swapchain *sc, unsigned int b)
{
	if (sc->onscreen == (int)b && sc->nframes)
		return true;
	for (unsigned int i = 0; i < sc->nframes; i++)
		if (sc->frames[i].buf == b)
			return true;
	return false;
}

/*
 * The display-side buffer the next present goes to.  Flip model: the one
 * of the current back buffer (the buffer itself, or its proxy/copy), so a
 * back buffer is busy while it or its copy is queued or on screen.  Blt
 * model (DXGI's blt swap effects): present copies the back buffer into the
 * displayed surface, a ring of display-side buffers of its own; the back
 * buffer is free again as soon as the copy is done.
 */
unsigned int sc_disp_index(const struct present_swapchain *sc)
{
	return sc->blt_model ? sc->slot : sc->cur;
}

/* Can the current back buffer be presented (and drawn into) now? */
bool sc_ready(struct present_swapchain *sc)
{
	if (!present_latency_can_submit(&sc->lat))
		return false;
	if (sc->flipq ? sc->nframes >= sc->depth : sc->flip_pending)
		return false;
	return !sc_buf_busy(sc, sc_disp_index(sc));
}

/* Frame at the head of the FIFO retired: shown at @ts, or cancelled (0). */
void sc_retire_head(struct present_swapchain *sc, uint64_t ts)
{
	struct frame f = sc->frames[0];
	uint64_t seq = ts ? sc_seq_of(sc, ts) : 0;

	memmove(&sc->frames[0], &sc->frames[1], (sc->nframes - 1) * sizeof(struct frame));
	sc->nframes--;
	present_latency_retire(&sc->lat, 1);
	if (!ts && sc->requeueing && sc->nrequeue < MAX_FRAMES) {
		sc->requeue[sc->nrequeue++] = f;	/* not lost: requeued */
		return;
	}
	if (ts)
		sc->onscreen = f.buf;
	if (sc_stats_retired(sc, &f, ts, seq))
		sc_pacing_saw_vblank(sc, ts, seq);
}

/*
 * Read the adapter's pending DRM events (every chain's: they go to their
 * CRTC's mailbox) and handle what came for this chain's CRTC.  A flip-queue
 * chain learns from its log; its interrupt only had to wake it.
 */
static int read_events(struct present_swapchain *sc)
{
	struct present_mail m;
	int n = 0, ret = sc_events_pump(sc, &m);

	if (ret)
		return ret;
	if (sc->flipq)
		return 0;
	for (unsigned int i = 0; i < m.nflips; i++) {
		sc_pacing_saw_vblank(sc, m.flips[i].ns, m.flips[i].seq);
		if (sc->flip_pending && sc->nframes) {
			sc_retire_head(sc, m.flips[i].ns);
			n++;
		}
		sc->flip_pending = false;
	}
	return n;
}

int present_swapchain_dispatch(struct present_swapchain *sc, int timeout_ms)
{
	uint64_t end = 0;
	int n, r;

	if (!sc)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	if (sc_removed(sc))
		return sc_fail(sc, PRESENT_E_DEVICE_REMOVED, "device removed");
	/* a deadline, not a sleep budget: other chains' events (and the
	 * flip-queue re-reads) wake the poll early */
	if (timeout_ms > 0)
		end = present_now_ns() + (uint64_t)timeout_ms * 1000000ull;
	for (;;) {
		int ms = timeout_ms;

		n = read_events(sc);
		if (n < 0)
			return n;
		if (sc->flipq) {
			r = sc_read_log(sc);
			if (r < 0)
				return r;
			n += r;
		}
		if (!n && end) {
			uint64_t now = present_now_ns();

			if (now >= end)
				ms = 0;
			else
				ms = (int)((end - now + 999999) / 1000000);
		}
		if (n || !ms || !sc->nframes) {
			sc_update_waitable(sc);
			if (n)
				return n;
			/* a flip-queue chain whose wait ran out with frames
			 * queued answers 0, as it always has: its frames may
			 * be due intervals away and callers loop on 0 */
			return timeout_ms && !(sc->flipq && sc->nframes) ? PRESENT_E_TIMEOUT : 0;
		}
		/* interrupt at the frame we wait for */
		if (sc->flipq)
			sc_set_irq_target(sc, sc->frames[0].present_id);
		/* never trust one event alone: re-read the log at least every
		 * couple of periods */
		if (sc->flipq) {
			int cap = (int)(sc->pace.period_ns * 2 / 1000000) + 1;

			if (ms < 0 || ms > cap)
				ms = cap;
		}
		r = sc_events_wait(sc, ms);
		if (r < 0)
			return r;
	}
}

int present_swapchain_wait_idle(struct present_swapchain *sc, int timeout_ms)
{
	uint64_t end;
	int r;

	if (!sc || timeout_ms < 0)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	if (sc_removed(sc))
		return sc_fail(sc, PRESENT_E_DEVICE_REMOVED, "device removed");
	if (!sc->flipq) {
		while (sc->nframes) {
			r = present_swapchain_dispatch(sc, timeout_ms);
			if (r < 0)
				return r;
		}
		return 0;
	}
	end = present_now_ns() + (uint64_t)timeout_ms * 1000000ull;
	/* one interrupt, when the last frame of the batch is on screen */
	if (sc->nframes)
		sc_set_irq_target(sc, sc->frames[sc->nframes - 1].present_id);
	for (;;) {
		uint64_t now, wake;

		r = read_events(sc);
		if (r >= 0)
			r = sc_read_log(sc);
		if (r < 0)
			return r;
		if (!sc->nframes)
			break;
		now = present_now_ns();
		if (now >= end)
			return sc_fail(sc, PRESENT_E_TIMEOUT, "frames still queued");
		/* sleep until the interrupt; if the last frame is replaced
		 * or cancelled there is none: look at the log two periods
		 * after it was due */
		wake = sc->last_vbl_ns + 2 * sc->pace.period_ns;
		if (wake <= now)
			wake = now + 2 * sc->pace.period_ns;
		if (wake > end)
			wake = end;
		r = sc_events_wait(sc, (int)((wake - now) / 1000000) + 1);
		if (r < 0)
			return r;
	}
	sc_update_waitable(sc);
	return 0;
}

/* Cancel every queued frame (restart, destroy, resize). */
void sc_cancel_queued(struct present_swapchain *sc)
{
	if (!sc->nframes)
		return;
	if (sc->flipq) {
		struct drm_vflipq_cancel_plane p = { .plane_id = sc->plane_id,
			.present_id_cancel_requested = sc->frames[0].present_id };
		struct drm_vflipq_flip_cancel c = { .crtc_id = sc->crtc_id, .num_planes = 1,
			.planes_ptr = (uintptr_t)&p, .plane_size = sizeof(p) };

		if (drmIoctl(sc->dfd, DRM_IOCTL_VFLIPQ_FLIPQ_CANCEL, &c))
			sc_errno(sc, errno, "FLIPQ_CANCEL");
		sc_read_log(sc);
		/* what was already on its way completes: wait for it */
		for (int tries = 0; sc->nframes && tries < 20 && !sc_removed(sc); tries++)
			present_swapchain_dispatch(sc, (int)(sc->pace.period_ns / 1000000) + 5);
	} else {
		while (sc->nframes && !sc_removed(sc))
			if (present_swapchain_dispatch(sc, 500) == PRESENT_E_TIMEOUT)
				break;
	}
	/* a device that went away retires nothing: forget the rest */
	while (sc->nframes)
		sc_retire_head(sc, 0);
	sc->flip_pending = false;
}
