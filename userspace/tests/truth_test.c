// SPDX-License-Identifier: MIT
/*
 * The load-proof rules (common/truth.c): reports a correct display makes,
 * at any lateness, pass; each kind of lie fails with its rule named.
 */
#include <string.h>

#include "../libpresent/tests/test.h"
#include "../common/truth.h"

#define P 16666667ull		/* 60 Hz */
#define T0 1000000000ull
#define CANCELLED (~0ULL)

static bool says(const struct vfq_truth *t, const char *rule)
{
	return strstr(t->why, rule) != NULL;
}

static void events(void)
{
	struct vfq_truth t;

	vfq_truth_init(&t, 7, P, VFQ_TRUTH_FLIPS);
	vfq_truth_note_vblank(&t, 100, T0);
	/* late reads are fine; microsecond events sit within 1 us of the grid */
	CHECK(vfq_truth_check_event(&t, "a", T0 + 1, 7, 101, T0 + P - 667, T0 + 5 * P),
	      "%s", t.why);
	CHECK(vfq_truth_check_event(&t, "b", T0 + 2 * P, 7, 104, T0 + 4 * P - 1, T0 + 9 * P),
	      "%s", t.why);
	CHECK(t.reports == 2, "%u reports", t.reports);
	/* before its flip started: the lie of a late interrupt */
	CHECK(!vfq_truth_check_event(&t, "c", T0 + 5 * P + 1000, 7, 105, T0 + 5 * P, T0 + 6 * P) &&
	      says(&t, "before the flip was issued"), "%s", t.why);
	/* in the future */
	CHECK(!vfq_truth_check_event(&t, "d", T0, 7, 105, T0 + 5 * P, T0 + 5 * P - 1) &&
	      says(&t, "in the future"), "%s", t.why);
	/* a vblank lost or invented by a catch-up: off the grid */
	CHECK(!vfq_truth_check_event(&t, "e", T0, 7, 106, T0 + 5 * P, T0 + 9 * P) &&
	      says(&t, "off the grid"), "%s", t.why);
	/* the same sequence twice is no flip */
	CHECK(!vfq_truth_check_event(&t, "f", T0, 7, 104, T0 + 4 * P, T0 + 9 * P) &&
	      says(&t, "sequence 104 after 104"), "%s", t.why);
	CHECK(!vfq_truth_check_event(&t, "g", T0, 8, 105, T0 + 5 * P, T0 + 9 * P) &&
	      says(&t, "CRTC 8"), "%s", t.why);
}

static void async_and_vrr(void)
{
	struct vfq_truth t;

	vfq_truth_init(&t, 1, P, VFQ_TRUTH_ASYNC);
	CHECK(vfq_truth_check_event(&t, "a", T0 + P, 1, 50, T0, T0 + P), "%s", t.why);
	/* an async flip names the last vblank, again */
	CHECK(vfq_truth_check_event(&t, "b", T0 + P, 1, 50, T0, T0 + P), "%s", t.why);
	CHECK(!vfq_truth_check_event(&t, "c", T0, 1, 50, T0 + 2000, T0 + P) &&
	      says(&t, "again, at another time"), "%s", t.why);
	/* no grid: any later time */
	vfq_truth_init(&t, 1, 0, VFQ_TRUTH_FLIPS);
	CHECK(vfq_truth_check_event(&t, "d", T0, 1, 10, T0 + 3, T0 + P), "%s", t.why);
	CHECK(vfq_truth_check_event(&t, "e", T0, 1, 11, T0 + 12345678, T0 + P), "%s", t.why);
	CHECK(!vfq_truth_check_event(&t, "f", T0, 1, 12, T0 + 3, T0 + P) &&
	      says(&t, "before the one reported last"), "%s", t.why);
	/*
	 * A VRR flip's vblank is its commit, 1 to 999 ns after the start the
	 * test read: its event's microseconds read up to 999 ns before it.
	 */
	vfq_truth_init(&t, 1, 0, VFQ_TRUTH_FLIPS);
	CHECK(vfq_truth_check_event(&t, "g", T0 + 999, 1, 20, T0, T0 + P), "%s", t.why);
	CHECK(!vfq_truth_check_event(&t, "h", T0 + 2 * P + 1000, 1, 21, T0 + 2 * P, T0 + 3 * P) &&
	      says(&t, "before the flip was issued"), "%s", t.why);
}

static void any_order(void)
{
	struct vfq_truth t;

	vfq_truth_init(&t, 3, 0, VFQ_TRUTH_ANY_ORDER);
	CHECK(vfq_truth_check_event(&t, "a", 0, 3, 20, T0 + 20 * P, T0 + 30 * P), "%s", t.why);
	/* an older vblank's event, read later: fine when earlier in time */
	CHECK(vfq_truth_check_event(&t, "b", 0, 3, 18, T0 + 18 * P, T0 + 30 * P), "%s", t.why);
	CHECK(vfq_truth_check_event(&t, "c", 0, 3, 20, T0 + 20 * P + 400, T0 + 30 * P),
	      "%s", t.why);
	CHECK(!vfq_truth_check_event(&t, "d", 0, 3, 19, T0 + 21 * P, T0 + 30 * P) &&
	      says(&t, "sequence 19 at"), "%s", t.why);
	CHECK(!vfq_truth_check_event(&t, "e", 0, 3, 21, T0 + 19 * P, T0 + 30 * P) &&
	      says(&t, "before the one reported last"), "%s", t.why);
	CHECK(t.seq == 20 && t.reports == 3, "newest %llu, %u reports",
	      (unsigned long long)t.seq, t.reports);
}

static void times(void)
{
	struct vfq_truth t;

	vfq_truth_init(&t, 1, P, VFQ_TRUTH_FLIPS);
	vfq_truth_note_vblank(&t, 10, T0);
	CHECK(vfq_truth_check_time(&t, "a", T0 + 1, T0 + 3 * P, T0 + 4 * P), "%s", t.why);
	CHECK(t.seq == 13, "sequence %llu", (unsigned long long)t.seq);
	CHECK(!vfq_truth_check_time(&t, "b", T0, T0 + 3 * P, T0 + 4 * P) &&
	      says(&t, "again"), "%s", t.why);
	CHECK(!vfq_truth_check_time(&t, "c", T0, T0 + 4 * P + 5000, T0 + 5 * P) &&
	      says(&t, "off the grid"), "%s", t.why);
	CHECK(!vfq_truth_check_time(&t, "d", T0, T0 + 2 * P, T0 + 5 * P) &&
	      says(&t, "before the one reported last"), "%s", t.why);
	CHECK(!vfq_truth_check_time(&t, "e", T0 + 4 * P + 1000, T0 + 4 * P, T0 + 5 * P) &&
	      says(&t, "before the flip was issued"), "%s", t.why);
	/* a later event continues the sequence the times implied */
	CHECK(vfq_truth_check_event(&t, "f", T0, 1, 15, T0 + 5 * P, T0 + 6 * P), "%s", t.why);
}

static void queue(void)
{
	static struct vfq_truth_queue q;

	vfq_truth_queue_init(&q, 1, 2, P);
	vfq_truth_queue_submit(&q, 10, T0 + P, T0, false);
	vfq_truth_queue_submit(&q, 11, T0 + 2 * P, T0 + 1, false);
	vfq_truth_queue_submit(&q, 12, T0 + 2 * P, T0 + 2, false);
	vfq_truth_queue_submit(&q, 13, T0 + 3 * P + 5, T0 + 3, true);
	vfq_truth_queue_submit(&q, 14, 0, T0 + 5 * P + 7, false);
	CHECK(vfq_truth_queue_entry(&q, "10", 10, T0 + P, T0 + 9 * P), "%s", q.grid.why);
	CHECK(vfq_truth_queue_entry(&q, "11", 11, CANCELLED, T0 + 9 * P), "%s", q.grid.why);
	CHECK(vfq_truth_queue_entry(&q, "12", 12, T0 + 2 * P, T0 + 9 * P), "%s", q.grid.why);
	/* a tearing flip: off the grid, at or after its target */
	CHECK(vfq_truth_queue_entry(&q, "13", 13, T0 + 3 * P + 9, T0 + 9 * P), "%s", q.grid.why);
	/* submitted late: shown at the first vblank after its submission */
	CHECK(vfq_truth_queue_entry(&q, "14", 14, T0 + 6 * P, T0 + 9 * P), "%s", q.grid.why);
	CHECK(q.grid.reports == 4, "%u shown", q.grid.reports);
	/* not PresentId order */
	CHECK(!vfq_truth_queue_entry(&q, "x", 14, T0 + 7 * P, T0 + 9 * P) &&
	      says(&q.grid, "logged after"), "%s", q.grid.why);

	vfq_truth_queue_init(&q, 1, 2, P);
	vfq_truth_queue_submit(&q, 20, T0 + 2 * P, T0, false);
	CHECK(!vfq_truth_queue_entry(&q, "early", 20, T0 + P, T0 + 9 * P) &&
	      says(&q.grid, "before its target"), "%s", q.grid.why);
	vfq_truth_queue_submit(&q, 21, T0, T0 + 3 * P + 1, false);
	CHECK(!vfq_truth_queue_entry(&q, "stale", 21, T0 + 3 * P, T0 + 9 * P) &&
	      says(&q.grid, "before the flip was issued"), "%s", q.grid.why);
	/* PresentIds nobody submitted here: only their order is judged */
	CHECK(vfq_truth_queue_entry(&q, "other", 30, 5, T0), "%s", q.grid.why);
	CHECK(!vfq_truth_queue_entry(&q, "zero", 0, T0, T0) && says(&q.grid, "PresentId 0"),
	      "%s", q.grid.why);
}

int main(void)
{
	events();
	async_and_vrr();
	any_order();
	times();
	queue();
	return test_done("truth_test");
}
