// SPDX-License-Identifier: MIT
/*
 * What the chain tells about its frames: the counters, the frame statistics
 * of the latest frame shown and the ring of target/actual times.  The other
 * files report events here and never touch the numbers, so that each
 * number has one place that decides when it moves.
 */
#include <stdlib.h>

#include "swapchain_internal.h"

void sc_stats_init(struct present_swapchain *sc)
{
	/* a failed allocation only costs present_swapchain_timing() */
	sc->stats.t_target = calloc(TIMING_RING, sizeof(uint64_t));
	sc->stats.t_actual = calloc(TIMING_RING, sizeof(uint64_t));
}

void sc_stats_fini(struct present_swapchain *sc)
{
	free(sc->stats.t_target);
	free(sc->stats.t_actual);
	sc->stats.t_target = sc->stats.t_actual = NULL;
}

void sc_stats_wakeup(struct present_swapchain *sc)
{
	sc->stats.ctr.wakeups++;
}

void sc_stats_copied(struct present_swapchain *sc, uint64_t bytes)
{
	sc->stats.ctr.copies++;
	sc->stats.ctr.bytes_copied += bytes;
}

void sc_stats_drain_wait(struct present_swapchain *sc)
{
	sc->stats.ctr.drain_waits++;
}

void sc_stats_presented(struct present_swapchain *sc)
{
	sc->stats.present_count++;
	sc->stats.ctr.presented++;
}

void sc_stats_requeued(struct present_swapchain *sc)
{
	sc->stats.ctr.requeued++;
}

/* Frames that will never be shown (not requeued): cancelled or replaced. */
void sc_stats_lost(struct present_swapchain *sc, unsigned int n)
{
	sc->stats.ctr.cancelled += n;
}

static void record_timing(struct sc_stats *st, const struct frame *f, uint64_t actual)
{
	uint64_t i = st->timing_n++ % TIMING_RING;

	if (!st->t_target)
		return;
	st->t_target[i] = f->target_ns ? f->target_ns : f->submit_ns;
	st->t_actual[i] = actual;
}

/*
 * Frame @f retired: shown at the vblank @ts of sequence @seq, or cancelled
 * (@ts 0).  True when the frame statistics took that vblank, which then is
 * the chain's newest known one.
 */
bool sc_stats_retired(struct present_swapchain *sc, const struct frame *f, uint64_t ts,
		      uint64_t seq)
{
	struct sc_stats *st = &sc->stats;

	record_timing(st, f, ts);
	if (!ts) {
		st->ctr.cancelled++;
		return false;
	}
	st->ctr.shown++;
	/* on target: the first vblank at or after the target (interval 0:
	 * the first vblank after the submission) */
	if (present_on_target(ts, f->target_ns ? f->target_ns : f->submit_ns, sc->pace.grid_ns))
		st->ctr.on_target++;
	else
		st->ctr.missed++;
	/* monotonic whatever happens */
	if (st->last_valid && (f->present_count < st->last.present_count ||
			       seq < st->last.present_refresh_count))
		return false;
	st->last.present_count = f->present_count;
	st->last.present_refresh_count = (uint32_t)seq;
	st->last.sync_refresh_count = (uint32_t)seq;
	st->last.sync_time_ns = ts;
	st->last_valid = true;
	return true;
}

int present_swapchain_frame_statistics(struct present_swapchain *sc,
				       struct present_frame_statistics *out)
{
	int ret;

	if (!sc || !out)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	ret = present_swapchain_dispatch(sc, 0);
	if (ret < 0)
		return ret;
	if (!sc->stats.last_valid)
		return sc_fail(sc, PRESENT_E_NOT_FOUND, "no frame shown yet");
	*out = sc->stats.last;
	return 0;
}

int present_swapchain_last_present_count(struct present_swapchain *sc, uint32_t *out)
{
	if (!sc || !out)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	if (sc_removed(sc))
		return sc_fail(sc, PRESENT_E_DEVICE_REMOVED, "device removed");
	*out = sc->stats.present_count;
	return 0;
}

int present_swapchain_counters(struct present_swapchain *sc, struct present_counters *out)
{
	if (!sc || !out)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	*out = sc->stats.ctr;
	return 0;
}

int present_swapchain_timing(struct present_swapchain *sc, uint64_t *targets, uint64_t *actuals,
			     unsigned int n)
{
	const struct sc_stats *st;
	uint64_t have, first;

	if (!sc || !sc->stats.t_target)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	st = &sc->stats;
	have = st->timing_n < TIMING_RING ? st->timing_n : TIMING_RING;
	if (n > have)
		n = (unsigned int)have;
	first = st->timing_n - n;
	for (unsigned int i = 0; i < n; i++) {
		if (targets)
			targets[i] = st->t_target[(first + i) % TIMING_RING];
		if (actuals)
			actuals[i] = st->t_actual[(first + i) % TIMING_RING];
	}
	return (int)n;
}
