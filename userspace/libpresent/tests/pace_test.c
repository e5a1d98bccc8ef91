// SPDX-License-Identifier: MIT
/* Interval -> target mapping, latency accounting, error strings. */
#include <string.h>

#include "present.h"
#include "test.h"

int main(void)
{
	const uint64_t p60 = 16666667, p144 = 6944444, v = 1000000000ull;
	struct present_latency l;

	/* target = prev + n * period - period / 2 */
	for (unsigned int n = 1; n <= 4; n++) {
		uint64_t t = present_interval_target(v, p60, n, 0);
		CHECK(t == v + n * p60 - p60 / 2, "n %u: %llu", n, (unsigned long long)t);
		/* lands strictly between vblank n-1 and n after prev */
		CHECK(t > v + (n - 1) * p60 && t < v + n * p60, "n %u window", n);
	}
	CHECK(present_interval_target(v, p60, 0, 0) == 0, "interval 0: asap");
	CHECK(present_interval_target(v, p60, 5, 0) == 0, "interval 5 rejected");
	CHECK(present_interval_target(v, 0, 1, 0) == 0, "no period");
	/* boost: 24 Hz content on a 144 Hz capable output: half the fastest */
	uint64_t p24 = 41666667;
	CHECK(present_interval_target(v, p24, 1, p144) == v + p24 - p144 / 2, "boost");
	CHECK(present_interval_target(v, p24, 2, p144) == v + 2 * p24 - p144 / 2, "boost 2");
	/* a "fastest" slower than the period is ignored */
	CHECK(present_interval_target(v, p144, 1, p60) == v + p144 - p144 / 2, "fastest > period");

	/* latency accounting */
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

	/* error strings */
	for (int c = PRESENT_E_LAST; c <= 0; c++)
		CHECK(strcmp(present_strerror(c), "unknown error") != 0, "code %d named", c);
	CHECK(strcmp(present_strerror(-999), "unknown error") == 0, "unknown");
	CHECK(strcmp(present_version(), PRESENT_VERSION_STRING) == 0, "version");
	return test_done("pace_test");
}
