// SPDX-License-Identifier: MIT
/*
 * present_at()'s PresentIds and feedback: one record per present_at frame
 * once the flip queue's log retired it (swapchain_retire.c reports each
 * retirement here), kept in a ring until the application reads it, and an
 * eventfd that polls readable while records wait.
 */
#include <sys/eventfd.h>
#include <unistd.h>

#include "swapchain_internal.h"

void sc_feedback_init(struct present_swapchain *sc)
{
	sc->feedback.efd = -1;
}

void sc_feedback_fini(struct present_swapchain *sc)
{
	if (sc->feedback.efd >= 0)
		close(sc->feedback.efd);
	sc->feedback.efd = -1;
}

/* The eventfd readable exactly while records wait. */
static void sync_fd(struct sc_feedback *fb)
{
	bool want = fb->count > 0;
	uint64_t v = 1;

	if (fb->efd < 0 || want == fb->efd_signalled)
		return;
	if (want ? write(fb->efd, &v, sizeof(v)) == sizeof(v) :
		   read(fb->efd, &v, sizeof(v)) == sizeof(v))
		fb->efd_signalled = want;
}

/* Why a present_at with @app_id cannot be taken now, or 0. */
int sc_feedback_check(struct present_swapchain *sc, uint64_t app_id)
{
	const struct sc_feedback *fb = &sc->feedback;

	if (!app_id || app_id <= fb->last_id)
		return sc_fail(sc, PRESENT_E_INVALID_ARG,
			       "PresentId %llu not above the last one, %llu",
			       (unsigned long long)app_id, (unsigned long long)fb->last_id);
	/* every frame queued gets its record: room for all of them */
	if (fb->count + fb->outstanding >= FEEDBACK_RING)
		return sc_fail(sc, PRESENT_E_BUSY, "%u feedback records unread",
			       fb->count);
	return 0;
}

/* A present_at frame with @app_id went to the driver. */
void sc_feedback_accepted(struct present_swapchain *sc, uint64_t app_id)
{
	sc->feedback.last_id = app_id;
	sc->feedback.outstanding++;
}

/*
 * Frame @f retired: shown at @ts (vblank @seq) or cancelled (@ts 0).  The
 * queue retires in PresentId order, so the ring is in that order too.
 */
void sc_feedback_retired(struct present_swapchain *sc, const struct frame *f, uint64_t ts,
			 uint64_t seq)
{
	struct sc_feedback *fb = &sc->feedback;
	struct present_feedback *r;

	if (!f->app_id)
		return;
	if (fb->outstanding)
		fb->outstanding--;
	r = &fb->ring[(fb->head + fb->count++) % FEEDBACK_RING];
	r->app_present_id = f->app_id;
	r->target_ns = f->want_ns;
	r->shown_ns = ts;
	r->vblank_seq = ts ? seq : 0;
	r->status = present_feedback_status(ts, f->want_ns, sc->pace.grid_ns);
	r->reserved = 0;
	sync_fd(fb);
}

/* Until a record is there or @timeout_ms passed (frames queued). */
static int wait_record(struct present_swapchain *sc, int timeout_ms)
{
	uint64_t end = present_now_ns() + (uint64_t)timeout_ms * 1000000ull;
	int ret = present_swapchain_dispatch(sc, 0);

	while (ret >= 0 && !sc->feedback.count && sc->feedback.outstanding) {
		uint64_t now = present_now_ns();

		if (now >= end)
			return 0;
		ret = present_swapchain_dispatch(sc, (int)((end - now + 999999) / 1000000));
		if (ret == PRESENT_E_TIMEOUT)
			ret = 0;
	}
	return ret < 0 ? ret : 0;
}

int present_swapchain_read_feedback(struct present_swapchain *sc, struct present_feedback *out,
				    unsigned int n, int timeout_ms)
{
	struct sc_feedback *fb;
	unsigned int k;
	int ret;

	if (!sc || (n && !out) || timeout_ms < 0)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	fb = &sc->feedback;
	ret = wait_record(sc, n ? timeout_ms : 0);
	if (ret)
		return ret;
	for (k = 0; k < n && fb->count; k++) {
		out[k] = fb->ring[fb->head];
		fb->head = (fb->head + 1) % FEEDBACK_RING;
		fb->count--;
	}
	sync_fd(fb);
	return (int)k;
}

int present_swapchain_feedback_fd(struct present_swapchain *sc)
{
	struct sc_feedback *fb;

	if (!sc)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	fb = &sc->feedback;
	if (fb->efd < 0) {
		fb->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (fb->efd < 0)
			return sc_errno(sc, errno, "eventfd");
		fb->efd_signalled = false;
		sync_fd(fb);
	}
	return fb->efd;
}
