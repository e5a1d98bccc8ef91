// SPDX-License-Identifier: MIT
/*
 * The rules the display's reports obey at any load
 * (userspace/common/truth.c), asserted.  A late interrupt, a starved
 * client or a stalled VM may make an event arrive late; nothing may make
 * it say something other than what the screen did.  Every test that makes
 * flips feeds its events, presented frames and log entries here.
 */
#include "vflipq_helpers.h"

void vfq_truth_event(struct vfq_truth *t, const char *what, uint64_t t_start,
		     const struct vfq_event *ev, uint64_t t_read)
{
	igt_assert_f(vfq_truth_check_event(t, what, t_start, ev->crtc_id,
					   ev->sequence, ev->ts_ns, t_read),
		     "%s\n", t->why);
}

void vfq_truth_shown(struct vfq_truth *t, const char *what, uint64_t t_start,
		     uint64_t ts, uint64_t t_read)
{
	igt_assert_f(vfq_truth_check_time(t, what, t_start, ts, t_read),
		     "%s\n", t->why);
}

void vfq_truth_frame(struct vfq_truth *t, const char *what, uint64_t t_call,
		     uint64_t target, uint64_t ts, uint64_t t_read)
{
	igt_assert_f(vfq_truth_check_frame(t, what, t_call, target, ts, t_read),
		     "%s\n", t->why);
}

void vfq_truth_vblank(struct vfq_truth *t, uint64_t seq, uint64_t ts)
{
	vfq_truth_note_vblank(t, seq, ts);
}

void vfq_truth_logged(struct vfq_truth_queue *q, const char *what,
		      uint64_t id, uint64_t ts, uint64_t t_read)
{
	igt_assert_f(vfq_truth_queue_entry(q, what, id, ts, t_read), "%s\n",
		     q->grid.why);
}
