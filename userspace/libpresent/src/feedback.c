// SPDX-License-Identifier: MIT
/*
 * The pure rules of present_swapchain_present_at()'s feedback and
 * present_swapchain_cancel_from(), apart so the host tests can hold them.
 */
#include "internal.h"

uint32_t present_feedback_status(uint64_t shown_ns, uint64_t target_ns, uint64_t grid_ns)
{
	if (!shown_ns)
		return PRESENT_FEEDBACK_CANCELLED;
	if (shown_ns < target_ns)
		return PRESENT_FEEDBACK_EARLY;
	/* the first vblank at or after the target, no slack (as the
	 * counters' on_target) */
	return present_on_target(shown_ns, target_ns, grid_ns) ? PRESENT_FEEDBACK_ON_TARGET :
								 PRESENT_FEEDBACK_LATE;
}

unsigned int present_cancel_index(const uint64_t *app_ids, unsigned int n, uint64_t from)
{
	for (unsigned int i = 0; i < n; i++)
		if (app_ids[i] && app_ids[i] >= from)
			return i;
	return n;
}
