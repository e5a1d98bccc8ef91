// SPDX-License-Identifier: MIT
/* Interval -> target mapping, latency accounting, error strings. */
#include <string.h>

#include "internal.h"
#include "present.h"
#include "test.h"

static const uint64_t p60 = 16666667, p144 = 6944444, v = 1000000000ull;

static void test_interval_target(void)
{
	/* target = prev + n * period - period / 2 */
	for (unsigned int n = 1; n <= 4; n++) {
		uint64_t t = present_interval_target(v, p60, n, 0);
		CHECK(t == v + n * p60 - p60 / 2, "n %u: %llu", n, (unsigned long long)t);
		/* lands strictly between vblank n-1 and n after prev */
		CHECK(t > v + (n - 1) * p60 && t < v + n * p60, "n %u window", n);
	}
}

static void test_commit_at(void)
{
	/*
	 * A client with one flip in flight commits an interval's frame once
	 * the driver reported the vblank before the one it is due at (the
	 * previous flip's event): it latches at the due one.  Before that,
	 * half a frame before the due vblank, not at the previous vblank,
	 * where a commit made before the interrupt for it ran latches a
	 * frame early (present_swapchain@on-target-atomic saw one "shown
	 * before its target").  The due vblank: the first one of the grid
	 * at or after the target, here v + n periods.
	 */
	for (unsigned int n = 1; n <= 4; n++) {
		uint64_t t = present_interval_target(v, p60, n, 0), due = v + n * p60;
		uint64_t at = present_commit_at(due, p60, due - 2 * p60);

		CHECK(t <= due && t > due - p60, "n %u: due", n);
		CHECK(present_commit_at(due, p60, due - p60) == 0,
		      "n %u: the vblank before reported: now", n);
		CHECK(at >= due - p60 + p60 / 4 && at <= due - p60 / 4,
		      "n %u: commit at %lld ns from the due vblank", n,
		      (long long)(at - due));
	}
	/* boosted: the grid is the fastest period */
	CHECK(present_commit_at(v + 3 * p144, p144, v) == v + 3 * p144 - p144 / 2,
	      "boost commit");
	CHECK(present_commit_at(v + p144, p144, v) == 0, "boost: now");
}

static void test_interval_edges(void)
{
	const uint64_t p24 = 41666667;

	CHECK(present_interval_target(v, p60, 0, 0) == 0, "interval 0: asap");
	CHECK(present_interval_target(v, p60, 5, 0) == 0, "interval 5 rejected");
	CHECK(present_interval_target(v, 0, 1, 0) == 0, "no period");
	/* boost: 24 Hz content on a 144 Hz capable output: half the fastest */
	CHECK(present_interval_target(v, p24, 1, p144) == v + p24 - p144 / 2, "boost");
	CHECK(present_interval_target(v, p24, 2, p144) == v + 2 * p24 - p144 / 2, "boost 2");
	/* a "fastest" slower than the period is ignored */
	CHECK(present_interval_target(v, p144, 1, p60) == v + p144 - p144 / 2, "fastest > period");
}

/* the fastest integer multiple fed from the output: 640x480@60
 * (800 x 525 at 25.175 MHz) under vflipq's 4166667..100000000 ns */
static void test_boost_period(void)
{
	const uint64_t vmin = 4166667, p0 = 800ull * 525 * 1000000 / 25175;
	uint64_t f;

	/* at 60 Hz a frame cannot shrink below 481 lines: no boost */
	CHECK(present_boost_period(p0, vmin, 800, 480, 25175) == 0, "60 Hz: none");
	/* 30 Hz boosts to 60 Hz, whole lines: the mode's own period */
	f = present_boost_period(2 * p0, vmin, 800, 480, 25175);
	CHECK(f == p0, "30 -> 60 Hz: %llu", (unsigned long long)f);
	/* 10 Hz: 6 x (16.67 ms, not 5 x 20 ms): the largest multiple,
	 * 524.48 lines rounded to 524 as the driver does */
	f = present_boost_period(100000000, vmin, 800, 480, 25175);
	CHECK(f == 524ull * 800 * 1000000 / 25175, "10 Hz -> 60 Hz: %llu",
	      (unsigned long long)f);
	/* fixed refresh (no range reported): none */
	CHECK(present_boost_period(2 * p0, 0, 800, 480, 25175) == 0, "fixed refresh");
	/* 24 Hz on 100 visible lines: 240 Hz is 4166666 < the range
	 * minimum, so 9 x: 4629629 ns rounded to 146 lines */
	f = present_boost_period(41666667, vmin, 800, 100, 25175);
	CHECK(f == 146ull * 800 * 1000000 / 25175, "24 Hz -> 216 Hz: %llu",
	      (unsigned long long)f);
	CHECK(f >= vmin && f - 41666667 / 9 <= 800ull * 1000000 / 25175 / 2,
	      "a ninth, within half a line");
	CHECK(present_boost_period(0, vmin, 800, 480, 25175) == 0, "no period");
	CHECK(present_boost_period(2 * p0, vmin, 0, 480, 25175) == 0, "no timings");
	/* the boost variant lands frames on the fixed grid */
	CHECK(present_interval_target(v, 2 * p0, 1, p0) == v + 2 * p0 - p0 / 2,
	      "30 Hz target, fastest 60 Hz");
}

/* on target: the first vblank at or after the target, exactly */
static void test_on_target(void)
{
	uint64_t t = present_interval_target(v, p60, 1, 0), vb = v + p60;

	CHECK(present_on_target(vb, t, p60), "next vblank");
	CHECK(!present_on_target(vb + p60, t, p60), "one vblank late");
	CHECK(!present_on_target(v, t, p60), "one vblank early");
	/* a target a quarter period after a vblank: that one is early */
	CHECK(!present_on_target(vb, vb + p60 / 4, p60), "a quarter period early");
	CHECK(present_on_target(vb, vb, p60), "target on the vblank");
	CHECK(!present_on_target(vb, vb + 1, p60), "1 ns after the vblank");
	CHECK(present_on_target(vb, vb - p60 + 1, p60), "a period less 1 ns before");
	CHECK(!present_on_target(vb, vb - p60, p60), "a whole period before");
}

static void test_latency(void)
{
	struct present_latency l;

	CHECK(present_latency_init(&l, 0) == 0 && l.max == 3, "default 3");
	CHECK(present_latency_init(&l, 17) == PRESENT_E_INVALID_ARG, "17 rejected");
	present_latency_init(&l, 2);
	CHECK(present_latency_submit(&l) == 0, "1st");
	CHECK(present_latency_submit(&l) == 0, "2nd");
	CHECK(!present_latency_can_submit(&l), "full");
	CHECK(present_latency_submit(&l) == PRESENT_E_WAS_STILL_DRAWING, "3rd still drawing");
	CHECK(l.in_flight == 2 && l.submitted == 2, "unchanged by refusal");
	CHECK(present_latency_retire(&l, 3) == PRESENT_E_INVALID_ARG, "over-retire");
	CHECK(present_latency_retire(&l, 1) == 0 && present_latency_can_submit(&l), "retire 1");
	CHECK(present_latency_set_max(&l, 1) == 0 && !present_latency_can_submit(&l), "lower max");
	CHECK(present_latency_set_max(&l, 0) == PRESENT_E_INVALID_ARG, "max 0");
	CHECK(present_latency_set_max(&l, 16) == 0 && present_latency_can_submit(&l), "max 16");
	for (int i = 0; i < 15; i++)
		present_latency_submit(&l);
	CHECK(l.in_flight == 16 && present_latency_submit(&l) == PRESENT_E_WAS_STILL_DRAWING, "16 cap");
	CHECK(present_latency_retire(&l, 16) == 0 && l.retired == 17 && l.submitted == 17, "totals");
	CHECK(present_latency_submit(NULL) == PRESENT_E_INVALID_ARG, "NULL");
}

static void test_strings(void)
{
	for (int c = PRESENT_E_LAST; c <= 0; c++)
		CHECK(strcmp(present_strerror(c), "unknown error") != 0, "code %d named", c);
	CHECK(strcmp(present_strerror(-999), "unknown error") == 0, "unknown");
	CHECK(strcmp(present_version(), PRESENT_VERSION_STRING) == 0, "version");
}

int main(void)
{
	test_interval_target();
	test_commit_at();
	test_interval_edges();
	test_boost_period();
	test_on_target();
	test_latency();
	test_strings();
	return test_done("pace_test");
}
