/* SPDX-License-Identifier: MIT */
/*
 * The rules a display's reports obey at any load (truth.c).  A late
 * interrupt, a starved client or a stalled VM may make a report arrive
 * late; nothing may make it say something other than what the screen did.
 *
 * One checker per CRTC (events, samples of the vblank counter, frames a
 * presenter reports) and one per flip-queue plane (its log).  Each check
 * returns true when the report is consistent with every report before it,
 * else false with the broken rule in ->why.  The checkers keep no pointer
 * and allocate nothing: the igt tests assert on them (igt-tests/lib), the
 * fuzzer reports an anomaly.
 */
#ifndef VFLIPQ_TRUTH_H
#define VFLIPQ_TRUTH_H

#include <stdbool.h>
#include <stdint.h>

enum vfq_truth_kind {
	/* shown at a vblank after the flip started */
	VFQ_TRUTH_FLIPS,
	/* shown at once or only sampled: the last vblank, may repeat */
	VFQ_TRUTH_ASYNC,
	/*
	 * Reports of several kinds mixed (a fuzzer reading every event of a
	 * file): any order, but sequence and time order agree.
	 */
	VFQ_TRUTH_ANY_ORDER,
};

struct vfq_truth {
	uint32_t crtc_id;
	uint64_t period;		/* grid step in ns, 0: none (VRR) */
	enum vfq_truth_kind kind;
	bool seen;			/* ts holds a reported vblank */
	bool seq_known;			/* and seq its DRM sequence */
	uint64_t seq, ts;		/* the newest vblank reported */
	unsigned int reports;		/* how many were checked */
	char why[256];
};

void vfq_truth_init(struct vfq_truth *t, uint32_t crtc_id, uint64_t period,
		    enum vfq_truth_kind kind);
/*
 * A vblank report with a DRM sequence (a flip or vblank event, a
 * GET_SEQUENCE sample): vblank @seq at @ts_ns of CRTC @crtc_id, for a flip
 * started at @t_start (ignored for VFQ_TRUTH_ASYNC), read at @t_read.
 */
bool vfq_truth_check_event(struct vfq_truth *t, const char *what,
			   uint64_t t_start, uint32_t crtc_id, uint64_t seq,
			   uint64_t ts_ns, uint64_t t_read);
/*
 * A report of a vblank time only (a flip-queue log entry, a presenter's
 * "shown at"): the vblank at @ts_ns, for a flip started at @t_start, read
 * at @t_read.  Its sequence follows from the grid.
 */
bool vfq_truth_check_time(struct vfq_truth *t, const char *what,
			  uint64_t t_start, uint64_t ts_ns, uint64_t t_read);
/*
 * A presented frame (a presenter's statistics): requested for @target,
 * presented at @t_call, reported shown at @ts_ns.  Never before its
 * target; otherwise as vfq_truth_check_time() with @t_call as the start.
 */
bool vfq_truth_check_frame(struct vfq_truth *t, const char *what,
			   uint64_t t_call, uint64_t target, uint64_t ts_ns,
			   uint64_t t_read);
/* A vblank known otherwise: later reports are checked against it. */
void vfq_truth_note_vblank(struct vfq_truth *t, uint64_t seq, uint64_t ts_ns);

/*
 * A flip-queue plane's log against what was submitted: entries come in
 * PresentId order; a shown flip is logged at a vblank of the CRTC's grid
 * (a VFLIPQ_FLIP_IMMEDIATE one at the time the tearing-flip timer ran),
 * never before its target nor before its submission, each later than the
 * one before.  Entries of PresentIds never submitted through
 * vfq_truth_queue_submit() are not judged.
 */
#define VFQ_TRUTH_QUEUE_MAX 512
struct vfq_truth_flip {
	uint64_t id, target, t_submit;
	bool immediate;
};
struct vfq_truth_queue {
	struct vfq_truth grid;		/* the plane's shown vblanks */
	uint32_t plane_id;
	uint64_t last_id;		/* newest PresentId logged */
	uint64_t last_ts;		/* newest shown, immediate or not */
	unsigned int submitted;		/* ring index: submitted % MAX */
	struct vfq_truth_flip flip[VFQ_TRUTH_QUEUE_MAX];
};

void vfq_truth_queue_init(struct vfq_truth_queue *q, uint32_t crtc_id,
			  uint32_t plane_id, uint64_t period);
/* Flip @id with @target (CLOCK_MONOTONIC) submitted at @t_submit. */
void vfq_truth_queue_submit(struct vfq_truth_queue *q, uint64_t id,
			    uint64_t target, uint64_t t_submit,
			    bool immediate);
/* Log entry (@id, @ts_ns: a time or VFLIPQ_TIMESTAMP_CANCELLED) read at @t_read. */
bool vfq_truth_queue_entry(struct vfq_truth_queue *q, const char *what,
			   uint64_t id, uint64_t ts_ns, uint64_t t_read);

#endif /* VFLIPQ_TRUTH_H */
