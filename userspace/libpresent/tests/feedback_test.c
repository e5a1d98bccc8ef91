// SPDX-License-Identifier: MIT
/*
 * present_at()'s feedback status and cancel_from()'s first frame, the pure
 * rules behind present_swapchain_read_feedback() and
 * present_swapchain_cancel_from() (the VM test present_swapchain@cancel-from
 * and @present-at-target hold the calls themselves).
 */
#include "internal.h"
#include "present.h"
#include "test.h"

static const uint64_t p = 16683217, v = 5000000000ull;

static void test_status(void)
{
	/* on a vblank: that vblank; between: the next one; no slack */
	CHECK(present_feedback_status(v, v, p) == PRESENT_FEEDBACK_ON_TARGET, "on a vblank");
	CHECK(present_feedback_status(v + p, v, p) == PRESENT_FEEDBACK_LATE, "one vblank late");
	CHECK(present_feedback_status(v, v - 1, p) == PRESENT_FEEDBACK_ON_TARGET, "1 ns before");
	CHECK(present_feedback_status(v, v - p + 1, p) == PRESENT_FEEDBACK_ON_TARGET,
	      "1 ns after the vblank before");
	CHECK(present_feedback_status(v, v - p, p) == PRESENT_FEEDBACK_LATE,
	      "target on the vblank before");
	CHECK(present_feedback_status(v, v - p / 2, p) == PRESENT_FEEDBACK_ON_TARGET, "between");
	CHECK(present_feedback_status(v + 2 * p, v - p / 2, p) == PRESENT_FEEDBACK_LATE,
	      "two vblanks late");
	CHECK(present_feedback_status(v - 1, v, p) == PRESENT_FEEDBACK_EARLY, "1 ns early");
	CHECK(present_feedback_status(v - p, v, p) == PRESENT_FEEDBACK_EARLY, "a vblank early");
	CHECK(present_feedback_status(0, v, p) == PRESENT_FEEDBACK_CANCELLED, "cancelled");
}

static void test_cancel_index(void)
{
	/* 0: a frame of present(), never the first cancelled */
	const uint64_t ids[] = { 10, 20, 0, 30, 40 };

	CHECK(present_cancel_index(ids, 5, 20) == 1, "exactly an id: from it");
	CHECK(present_cancel_index(ids, 5, 21) == 3, "between ids: the next one");
	CHECK(present_cancel_index(ids, 5, 1) == 0, "below all: everything");
	CHECK(present_cancel_index(ids, 5, 40) == 4, "the last");
	CHECK(present_cancel_index(ids, 5, 41) == 5, "above all: none");
	CHECK(present_cancel_index(ids, 0, 1) == 0, "nothing queued");
	CHECK(present_cancel_index(ids + 2, 1, 0) == 1, "only present() frames: none");
}

int main(void)
{
	test_status();
	test_cancel_index();
	/* bad arguments, no device */
	CHECK(present_swapchain_present_at(NULL, 1, 1, 0) == PRESENT_E_INVALID_ARG, "present_at");
	CHECK(present_swapchain_cancel_from(NULL, 1) == PRESENT_E_INVALID_ARG, "cancel_from");
	CHECK(present_swapchain_read_feedback(NULL, NULL, 0, 0) == PRESENT_E_INVALID_ARG, "read");
	CHECK(present_swapchain_feedback_fd(NULL) == PRESENT_E_INVALID_ARG, "feedback fd");
	return test_done("feedback_test");
}
