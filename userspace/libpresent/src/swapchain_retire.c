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
	if (sc->queue.onscreen == (int)b && sc->queue.nframes)
		return true;
	for (unsigned int i = 0; i < sc->queue.nframes; i++)
		if (sc->queue.frames[i].buf == b && !sc->queue.frames[i].tomb)
			return true;
	return false;
}

/* Can the current back buffer be presented (and drawn into) now? */
bool sc_ready(struct present_swapchain *sc)
{
	if (!present_latency_can_submit(&sc->queue.lat) || sc->queue.nframes >= MAX_FRAMES)
		return false;
	/* cancelled frames waiting for their log entry hold no depth */
	if (sc->flipq.on ? sc->queue.lat.in_flight >= sc->flipq.depth : sc->queue.flip_pending)
		return false;
	return !sc_buf_busy(sc, sc_disp_index(sc));
}

void sc_queue_init(struct present_swapchain *sc)
{
	sc->queue.onscreen = -1;
	present_latency_init(&sc->queue.lat, 3);
}

/* Frame @f accepted by the driver, @f->expect_ns its expected vblank. */
void sc_queue_push(struct present_swapchain *sc, const struct frame *f)
{
	struct sc_queue *q = &sc->queue;

	present_latency_submit(&q->lat);
	q->frames[q->nframes++] = *f;
	q->last_expect_ns = f->expect_ns;
}

/* An atomic page flip is in flight (one at a time without the flip queue). */
void sc_queue_flip_sent(struct present_swapchain *sc)
{
	sc->queue.flip_pending = true;
}

/* The blank buffer replaced whatever back buffer was on screen. */
void sc_queue_blank_shown(struct present_swapchain *sc)
{
	sc->queue.onscreen = -1;
}

/* Frame at the head of the FIFO retired: shown at @ts, or cancelled (0). */
void sc_retire_head(struct present_swapchain *sc, uint64_t ts)
{
	struct sc_queue *q = &sc->queue;
	struct frame f = q->frames[0];
	uint64_t seq = ts ? sc_seq_of(sc, ts) : 0;

	memmove(&q->frames[0], &q->frames[1], (q->nframes - 1) * sizeof(struct frame));
	q->nframes--;
	if (f.tomb)
		ts = 0;		/* retired from the lat when cancelled */
	else
		present_latency_retire(&q->lat, 1);
	if (!ts && !f.tomb && sc_requeue_keep(sc, &f))
		return;
	if (ts)
		q->onscreen = f.buf;
	sc_feedback_retired(sc, &f, ts, seq);
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
	if (sc->flipq.on)
		return 0;
	for (unsigned int i = 0; i < m.nflips; i++) {
		sc_pacing_saw_vblank(sc, m.flips[i].ns, m.flips[i].seq);
		if (sc->queue.flip_pending && sc->queue.nframes) {
			sc_retire_head(sc, m.flips[i].ns);
			n++;
		}
		sc->queue.flip_pending = false;
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
		if (sc->flipq.on) {
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
		if (n || !ms || !sc->queue.nframes) {
			sc_update_waitable(sc);
			if (n)
				return n;
			/* a flip-queue chain whose wait ran out with frames
			 * queued answers 0, as it always has: its frames may
			 * be due intervals away and callers loop on 0 */
			return timeout_ms && !(sc->flipq.on && sc->queue.nframes) ? PRESENT_E_TIMEOUT : 0;
		}
		/* interrupt at the frame we wait for */
		if (sc->flipq.on)
			sc_set_irq_target(sc, sc->queue.frames[0].present_id);
		/* never trust one event alone: re-read the log at least every
		 * couple of periods */
		if (sc->flipq.on) {
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
	if (!sc->flipq.on) {
		while (sc->queue.nframes) {
			r = present_swapchain_dispatch(sc, timeout_ms);
			if (r < 0)
				return r;
		}
		return 0;
	}
	end = present_now_ns() + (uint64_t)timeout_ms * 1000000ull;
	/* one interrupt, when the last frame of the batch is on screen */
	if (sc->queue.nframes)
		sc_set_irq_target(sc, sc->queue.frames[sc->queue.nframes - 1].present_id);
	for (;;) {
		uint64_t now, wake;

		r = read_events(sc);
		if (r >= 0)
			r = sc_read_log(sc);
		if (r < 0)
			return r;
		if (!sc->queue.nframes)
			break;
		now = present_now_ns();
		if (now >= end)
			return sc_fail(sc, PRESENT_E_TIMEOUT, "frames still queued");
		/* sleep until the interrupt; if the last frame is replaced
		 * or cancelled there is none: look at the log two periods
		 * after it was due */
		wake = sc->queue.last_expect_ns + 2 * sc->pace.period_ns;
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
	if (!sc->queue.nframes)
		return;
	if (sc->flipq.on) {
		struct drm_vflipq_cancel_plane p = { .plane_id = sc->path.plane_id,
			.present_id_cancel_requested = sc->queue.frames[0].present_id };
		struct drm_vflipq_flip_cancel c = { .crtc_id = sc->out.crtc_id, .num_planes = 1,
			.planes_ptr = (uintptr_t)&p, .plane_size = sizeof(p) };

		if (drmIoctl(sc->dfd, DRM_IOCTL_VFLIPQ_FLIPQ_CANCEL, &c))
			sc_errno(sc, errno, "FLIPQ_CANCEL");
		sc_read_log(sc);
		/* what was already on its way completes: wait for it */
		for (int tries = 0; sc->queue.nframes && tries < 20 && !sc_removed(sc); tries++)
			present_swapchain_dispatch(sc, (int)(sc->pace.period_ns / 1000000) + 5);
	} else {
		while (sc->queue.nframes && !sc_removed(sc))
			if (present_swapchain_dispatch(sc, 500) == PRESENT_E_TIMEOUT)
				break;
	}
	/* a device that went away retires nothing: forget the rest */
	while (sc->queue.nframes)
		sc_retire_head(sc, 0);
	sc->queue.flip_pending = false;
}

/* Target of the newest frame still queued (0: none, or as soon as possible). */
uint64_t sc_queue_last_target(const struct present_swapchain *sc)
{
	for (unsigned int i = sc->queue.nframes; i > 0; i--)
		if (!sc->queue.frames[i - 1].tomb)
			return sc->queue.frames[i - 1].target_ns;
	return 0;
}

/* FLIPQ_CANCEL from the driver PresentId @id; the first one it cancelled. */
static int cancel_ioctl(struct present_swapchain *sc, uint64_t id, uint64_t *first)
{
	struct drm_vflipq_cancel_plane p = { .plane_id = sc->path.plane_id,
					     .present_id_cancel_requested = id };
	struct drm_vflipq_flip_cancel c = { .crtc_id = sc->out.crtc_id, .num_planes = 1,
					    .planes_ptr = (uintptr_t)&p, .plane_size = sizeof(p) };

	if (drmIoctl(sc->dfd, DRM_IOCTL_VFLIPQ_FLIPQ_CANCEL, &c))
		return sc_errno(sc, errno, "FLIPQ_CANCEL");
	*first = p.present_id_cancelled;
	return 0;
}

/*
 * The queued frames from driver PresentId @id on were cancelled.  As the
 * driver's tombstones they stay in the FIFO until their log entry (which
 * comes after every live frame ahead of them: the feedback stays in
 * PresentId order) but hold no frame latency, depth or buffer from now on.
 * Returns how many.
 */
static unsigned int tomb_from(struct sc_queue *q, uint64_t id)
{
	unsigned int n = 0;

	q->last_expect_ns = 0;
	for (unsigned int i = 0; i < q->nframes; i++) {
		struct frame *f = &q->frames[i];

		if (f->present_id >= id && !f->tomb) {
			f->tomb = true;
			present_latency_retire(&q->lat, 1);
			n++;
		} else if (!f->tomb) {
			q->last_expect_ns = f->expect_ns;
		}
	}
	return n;
}

int present_swapchain_cancel_from(struct present_swapchain *sc, uint64_t app_present_id)
{
	uint64_t ids[MAX_FRAMES], first = 0;
	unsigned int i, n;
	int ret;

	if (!sc)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	ret = sc_check_removed(sc);
	if (!ret && !sc->flipq.on)
		ret = sc_fail(sc, PRESENT_E_NOT_SUPPORTED, "cancelling needs the flip queue");
	if (!ret)
		ret = present_swapchain_dispatch(sc, 0);
	if (ret < 0)
		return ret;
	/* frames cancelled before are not cancelled again */
	for (i = 0; i < sc->queue.nframes; i++)
		ids[i] = sc->queue.frames[i].tomb ? 0 : sc->queue.frames[i].app_id;
	i = present_cancel_index(ids, sc->queue.nframes, app_present_id);
	if (i == sc->queue.nframes)
		return 0;
	ret = cancel_ioctl(sc, sc->queue.frames[i].present_id, &first);
	if (ret || !first)
		return ret;
	n = tomb_from(&sc->queue, first);
	ret = present_swapchain_dispatch(sc, 0);
	sc_update_waitable(sc);
	return ret < 0 ? ret : (int)n;
}

int present_swapchain_set_max_frame_latency(struct present_swapchain *sc, unsigned int max)
{
	if (!sc)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	if (present_latency_set_max(&sc->queue.lat, max))
		return sc_fail(sc, PRESENT_E_INVALID_ARG, "max frame latency %u (1..16)", max);
	sc_update_waitable(sc);
	return 0;
}

int present_swapchain_get_max_frame_latency(struct present_swapchain *sc)
{
	if (!sc)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	return (int)sc->queue.lat.max;
}
