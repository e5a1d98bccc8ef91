// SPDX-License-Identifier: MIT
/*
 * The rules of truth.h.  Each is exact; the one tolerance is the
 * resolution of the reports themselves (see on_grid()).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "truth.h"

#define TRUTH_CANCELLED (~0ULL)	/* VFLIPQ_TIMESTAMP_CANCELLED */

__attribute__((format(printf, 3, 4)))
static bool lie(struct vfq_truth *t, const char *what, const char *fmt, ...)
{
	size_t n = (size_t)snprintf(t->why, sizeof(t->why), "%s: ", what);
	va_list ap;

	if (n < sizeof(t->why)) {
		va_start(ap, fmt);
		vsnprintf(t->why + n, sizeof(t->why) - n, fmt, ap);
		va_end(ap);
	}
	return false;
}

static double ms(uint64_t a, uint64_t b)
{
	return ((double)a - (double)b) / 1e6;
}

void vfq_truth_init(struct vfq_truth *t, uint32_t crtc_id, uint64_t period,
		    enum vfq_truth_kind kind)
{
	memset(t, 0, sizeof(*t));
	t->crtc_id = crtc_id;
	t->period = period;
	t->kind = kind;
}

/*
 * Vblank k of a grid is k whole frame durations after vblank 0.  DRM
 * events carry microseconds (the core cuts the nanoseconds off), so a
 * difference between two reports is off by less than 1 us, plus 1 ns a
 * frame for the rounding of the frame duration the caller computed.
 */
static bool on_grid(uint64_t period, uint64_t dseq, uint64_t dts)
{
	int64_t err = (int64_t)dts - (int64_t)(dseq * period);

	return llabs(err) < 1000 + (int64_t)dseq;
}

/* The rules every report obeys, whatever it carries. */
static bool check_common(struct vfq_truth *t, const char *what,
			 uint64_t t_start, uint64_t ts, uint64_t t_read)
{
	/* a report is read after its vblank, never before */
	if (ts > t_read)
		return lie(t, what, "vblank %.3f ms in the future when the "
			   "report was read", ms(ts, t_read));
	/*
	 * Shown at the first vblank after it was made, not before.  A DRM
	 * event cuts its vblank's nanoseconds off: a variable-refresh flip,
	 * whose vblank is its commit, reads up to 999 ns before a start it
	 * follows.
	 */
	if (t->kind == VFQ_TRUTH_FLIPS && ts + 1000 <= t_start)
		return lie(t, what, "vblank %.3f ms before the flip was "
			   "issued", ms(t_start, ts));
	return true;
}

/* @seq at @ts against the newest report, on the grid (if any) both ways. */
static bool check_grid(struct vfq_truth *t, const char *what, uint64_t seq,
		       uint64_t ts)
{
	bool older = seq < t->seq;

	if (!t->period || on_grid(t->period, older ? t->seq - seq : seq - t->seq,
				  older ? t->ts - ts : ts - t->ts))
		return true;
	return lie(t, what, "sequence %" PRIu64 " at %" PRIu64 " ns is off the "
		   "grid of sequence %" PRIu64 " at %" PRIu64 " ns (period %"
		   PRIu64 " ns)", seq, ts, t->seq, t->ts, t->period);
}

/* An older vblank reported after a newer one: earlier in both orders. */
static bool check_older(struct vfq_truth *t, const char *what, uint64_t seq,
			uint64_t ts)
{
	if (ts + 1000 > t->ts)
		return lie(t, what, "sequence %" PRIu64 " at %" PRIu64 " ns, "
			   "sequence %" PRIu64 " at %" PRIu64 " ns", seq, ts,
			   t->seq, t->ts);
	if (!check_grid(t, what, seq, ts))
		return false;
	t->reports++;
	return true;
}

bool vfq_truth_check_event(struct vfq_truth *t, const char *what,
			   uint64_t t_start, uint32_t crtc_id, uint64_t seq,
			   uint64_t ts, uint64_t t_read)
{
	bool same = t->seen && t->seq_known && seq == t->seq;

	if (crtc_id != t->crtc_id)
		return lie(t, what, "report of CRTC %u on the checker of "
			   "CRTC %u", crtc_id, t->crtc_id);
	if (!check_common(t, what, t_start, ts, t_read))
		return false;
	if (t->kind == VFQ_TRUTH_ANY_ORDER && t->seen && t->seq_known &&
	    seq < t->seq)
		return check_older(t, what, seq, ts);
	if (t->seen && t->seq_known) {
		if (!(seq > t->seq || (same && t->kind != VFQ_TRUTH_FLIPS)))
			return lie(t, what, "sequence %" PRIu64 " after %"
				   PRIu64, seq, t->seq);
		/* events carry microseconds, GET_SEQUENCE nanoseconds */
		if (same && llabs((long long)(ts - t->ts)) >= 1000)
			return lie(t, what, "sequence %" PRIu64 " again, at "
				   "another time", seq);
		if (!check_grid(t, what, seq, ts))
			return false;
	}
	/* a later vblank, at a later time (any time without a grid) */
	if (t->seen && !same && ts + 1000 <= t->ts)
		return lie(t, what, "vblank %.3f ms before the one reported "
			   "last", ms(t->ts, ts));
	vfq_truth_note_vblank(t, seq, ts);
	t->reports++;
	return true;
}

bool vfq_truth_check_time(struct vfq_truth *t, const char *what,
			  uint64_t t_start, uint64_t ts, uint64_t t_read)
{
	uint64_t k = 0;

	if (!check_common(t, what, t_start, ts, t_read))
		return false;
	if (t->seen) {
		/* an event's microseconds may round it below a log's ns */
		if (ts + 1000 <= t->ts)
			return lie(t, what, "vblank at %" PRIu64 " ns, %.3f ms "
				   "before the one reported last", ts,
				   ms(t->ts, ts));
		if (t->period) {
			k = ts > t->ts ? (ts - t->ts + t->period / 2) /
					 t->period : 0;
			if (!on_grid(t->period, k, ts > t->ts ? ts - t->ts : 0))
				return lie(t, what, "vblank at %" PRIu64 " ns is "
					   "off the grid of the one at %" PRIu64
					   " ns (period %" PRIu64 " ns)", ts,
					   t->ts, t->period);
		} else {
			k = ts > t->ts + 1000;
		}
		/* two frames of one plane never share a vblank */
		if (t->kind == VFQ_TRUTH_FLIPS && !k)
			return lie(t, what, "shown at the vblank of %" PRIu64
				   " ns again", t->ts);
	}
	t->seq += k;
	t->seen = true;
	t->ts = ts;
	t->reports++;
	return true;
}

bool vfq_truth_check_frame(struct vfq_truth *t, const char *what,
			   uint64_t t_call, uint64_t target, uint64_t ts,
			   uint64_t t_read)
{
	if (ts < target)
		return lie(t, what, "shown %.3f ms before its target",
			   ms(target, ts));
	return vfq_truth_check_time(t, what, t_call, ts, t_read);
}

void vfq_truth_note_vblank(struct vfq_truth *t, uint64_t seq, uint64_t ts)
{
	t->seen = true;
	t->seq_known = true;
	t->seq = seq;
	t->ts = ts;
}

void vfq_truth_queue_init(struct vfq_truth_queue *q, uint32_t crtc_id,
			  uint32_t plane_id, uint64_t period)
{
	memset(q, 0, sizeof(*q));
	vfq_truth_init(&q->grid, crtc_id, period, VFQ_TRUTH_FLIPS);
	q->plane_id = plane_id;
}

void vfq_truth_queue_submit(struct vfq_truth_queue *q, uint64_t id,
			    uint64_t target, uint64_t t_submit, bool immediate)
{
	struct vfq_truth_flip *f = &q->flip[q->submitted++ %
					    VFQ_TRUTH_QUEUE_MAX];

	f->id = id;
	f->target = target;
	f->t_submit = t_submit;
	f->immediate = immediate;
}

static const struct vfq_truth_flip *find_flip(const struct vfq_truth_queue *q,
					      uint64_t id)
{
	unsigned int n = q->submitted < VFQ_TRUTH_QUEUE_MAX ? q->submitted :
			 VFQ_TRUTH_QUEUE_MAX;

	/* newest first: a PresentId is submitted once per plane */
	for (unsigned int i = 1; i <= n; i++) {
		const struct vfq_truth_flip *f =
			&q->flip[(q->submitted - i) % VFQ_TRUTH_QUEUE_MAX];

		if (f->id == id)
			return f;
	}
	return NULL;
}

bool vfq_truth_queue_entry(struct vfq_truth_queue *q, const char *what,
			   uint64_t id, uint64_t ts, uint64_t t_read)
{
	struct vfq_truth *t = &q->grid;
	const struct vfq_truth_flip *f;
	uint64_t start;

	if (!id)
		return lie(t, what, "log entry with PresentId 0");
	if (id <= q->last_id)
		return lie(t, what, "PresentId %" PRIu64 " logged after %" PRIu64
			   " (plane %u)", id, q->last_id, q->plane_id);
	q->last_id = id;
	f = find_flip(q, id);
	if (!f || ts == TRUTH_CANCELLED)
		return true;
	/* never shown before its target, nor before it was submitted */
	if (ts < f->target)
		return lie(t, what, "PresentId %" PRIu64 " shown %.3f ms before "
			   "its target", id, ms(f->target, ts));
	start = f->t_submit;
	/* the log has nanoseconds: not one before the submission */
	if (ts < start)
		return lie(t, what, "vblank %.3f ms before the flip was issued",
			   ms(start, ts));
	if (ts < q->last_ts)
		return lie(t, what, "PresentId %" PRIu64 " shown %.3f ms before "
			   "the one logged before it", id, ms(q->last_ts, ts));
	if (f->immediate) {
		/* a tearing flip: at the time the timer ran, off the grid */
		if (!check_common(t, what, start, ts, t_read))
			return false;
		t->reports++;
	} else if (!vfq_truth_check_frame(t, what, start, f->target, ts,
					  t_read)) {
		return false;
	}
	q->last_ts = ts;
	return true;
}
