// SPDX-License-Identifier: MIT
/*
 * The rules the display's reports obey at any load.  A late interrupt, a
 * starved client or a stalled VM may make an event arrive late; nothing may
 * make it say something other than what the screen did.  Every test that
 * makes flips feeds its events here, one checker per CRTC.
 */
#include <inttypes.h>

#include "vflipq_helpers.h"

void vfq_truth_init(struct vfq_truth *t, uint32_t crtc_id, uint64_t period,
		    enum vfq_truth_kind kind)
{
	memset(t, 0, sizeof(*t));
	t->crtc_id = crtc_id;
	t->period = period;
	t->kind = kind;
}

/*
 * The DRM core cuts event times to microseconds, and a grid's vblanks are
 * k whole frame durations apart: a difference is off by less than 1 us
 * plus the rounding of the frame duration the test computed (1 ns a frame).
 */
static bool on_grid(uint64_t period, uint64_t dseq, uint64_t dts)
{
	int64_t err = (int64_t)dts - (int64_t)(dseq * period);

	return llabs(err) < 1000 + (int64_t)dseq;
}

void vfq_truth_event(struct vfq_truth *t, const char *what, uint64_t t_start,
		     const struct vfq_event *ev, uint64_t t_read)
{
	igt_assert_f(ev->crtc_id == t->crtc_id, "%s: event of CRTC %u on the "
		     "checker of CRTC %u\n", what, ev->crtc_id, t->crtc_id);
	/* an event is read after its vblank, never before */
	igt_assert_f(ev->ts_ns <= t_read, "%s: vblank %.3f ms in the future "
		     "when the event was read\n", what,
		     (double)(ev->ts_ns - t_read) / 1e6);
	switch (t->kind) {
	case VFQ_TRUTH_FLIPS:
		/* shown at the first vblank after it was made, not before */
		igt_assert_f(ev->ts_ns >= t_start, "%s: vblank %.3f ms before "
			     "the flip was issued (sequence %" PRIu64 ")\n",
			     what, (double)(t_start - ev->ts_ns) / 1e6,
			     ev->sequence);
		break;
	case VFQ_TRUTH_ASYNC:
		/*
		 * Shown at once: the event names the last vblank before the
		 * flip took effect, which may well be before its start.
		 */
		break;
	}
	if (t->seen) {
		bool same = t->kind == VFQ_TRUTH_ASYNC &&
			    ev->sequence == t->seq;

		igt_assert_f(same || ev->sequence > t->seq, "%s: sequence %"
			     PRIu64 " after %" PRIu64 "\n", what,
			     ev->sequence, t->seq);
		/* events carry microseconds, GET_SEQUENCE nanoseconds */
		igt_assert_f(!same || llabs((long long)(ev->ts_ns - t->ts)) <
			     1000, "%s: sequence %" PRIu64 " again, at "
			     "another time\n", what, ev->sequence);
		igt_assert_f(!t->period ||
			     on_grid(t->period, ev->sequence - t->seq,
				     ev->ts_ns - t->ts),
			     "%s: sequence %" PRIu64 " at %" PRIu64 " ns is "
			     "off the grid of sequence %" PRIu64 " at %" PRIu64
			     " ns (period %" PRIu64 " ns)\n", what,
			     ev->sequence, ev->ts_ns, t->seq, t->ts, t->period);
	}
	t->seen = true;
	t->seq = ev->sequence;
	t->ts = ev->ts_ns;
}

void vfq_truth_vblank(struct vfq_truth *t, uint64_t seq, uint64_t ts)
{
	t->seen = true;
	t->seq = seq;
	t->ts = ts;
}
