// SPDX-License-Identifier: MIT
/*
 * Every public adapter/swap-chain function rejects bad arguments (NULL
 * objects, NULL outputs, out-of-range values) with an error code, without
 * a device.  Also enumerates whatever the host has (usually nothing).
 */
#include <string.h>

#include "present.h"
#include "test.h"

int main(void)
{
	struct present_system *sys = NULL;
	struct present_adapter *ad = NULL, *r = NULL;
	struct present_adapter_info info;
	const struct present_output *o;
	struct present_swapchain_desc d = { .buffer_count = 2 };
	struct present_swapchain *sc = (struct present_swapchain *)1;
	struct present_frame_statistics st;
	struct present_counters c;
	struct present_buffer b;
	struct present_path p;
	uint32_t u;
	uint64_t t;
	int n;

	CHECK(present_system_open(NULL) == PRESENT_E_INVALID_ARG, "open NULL");
	CHECK(present_system_count(NULL) == PRESENT_E_INVALID_ARG, "count NULL");
	CHECK(present_system_adapter(NULL, 0) == NULL, "adapter NULL");
	CHECK(present_system_find(NULL, NULL, 0, &ad) == PRESENT_E_INVALID_ARG, "find NULL");
	CHECK(present_system_hybrid_pair(NULL, 0, &r, &ad) == PRESENT_E_INVALID_ARG, "pair NULL");
	CHECK(present_adapter_info(NULL, &info) == PRESENT_E_INVALID_ARG, "info NULL");
	CHECK(present_adapter_output(NULL, 0, &o) == PRESENT_E_INVALID_ARG, "output NULL");
	CHECK(present_adapter_default_output(NULL) == PRESENT_E_INVALID_ARG, "default output NULL");
	CHECK(present_adapter_refresh(NULL) == PRESENT_E_INVALID_ARG, "refresh NULL");
	CHECK(present_adapter_fd(NULL) == PRESENT_E_INVALID_ARG, "fd NULL");
	CHECK(present_adapter_removed(NULL), "removed NULL");
	CHECK(strcmp(present_adapter_last_error(NULL), "invalid adapter") == 0, "last error NULL");
	CHECK(strcmp(present_role_name(PRESENT_ROLE_BOTH), "render+display") == 0, "role name");
	present_system_close(NULL);

	CHECK(present_swapchain_create(NULL, NULL, -1, &d, &sc) == PRESENT_E_INVALID_ARG, "create");
	CHECK(sc == NULL, "create clears *out");
	present_swapchain_destroy(NULL);
	CHECK(present_swapchain_get_buffer(NULL, 0, &b) == PRESENT_E_INVALID_ARG, "get_buffer");
	CHECK(present_swapchain_current_back_buffer(NULL) == PRESENT_E_INVALID_ARG, "cur");
	CHECK(present_swapchain_resize(NULL, 0, 0, 0, 0) == PRESENT_E_INVALID_ARG, "resize");
	CHECK(present_swapchain_path(NULL, &p) == PRESENT_E_INVALID_ARG, "path");
	CHECK(present_swapchain_present(NULL, 1, 0) == PRESENT_E_INVALID_ARG, "present");
	CHECK(present_swapchain_set_max_frame_latency(NULL, 3) == PRESENT_E_INVALID_ARG, "set lat");
	CHECK(present_swapchain_get_max_frame_latency(NULL) == PRESENT_E_INVALID_ARG, "get lat");
	CHECK(present_swapchain_waitable_fd(NULL) == PRESENT_E_INVALID_ARG, "waitable");
	CHECK(present_swapchain_dispatch(NULL, 0) == PRESENT_E_INVALID_ARG, "dispatch");
	CHECK(present_swapchain_frame_statistics(NULL, &st) == PRESENT_E_INVALID_ARG, "stats");
	CHECK(present_swapchain_last_present_count(NULL, &u) == PRESENT_E_INVALID_ARG, "count");
	CHECK(present_swapchain_wait_vblank(NULL, &t) == PRESENT_E_INVALID_ARG, "vblank");
	CHECK(present_swapchain_counters(NULL, &c) == PRESENT_E_INVALID_ARG, "counters");
	CHECK(present_swapchain_timing(NULL, &t, &t, 1) == PRESENT_E_INVALID_ARG, "timing");
	CHECK(strcmp(present_swapchain_last_error(NULL), "invalid swap chain") == 0, "sc error");
	CHECK(present_swapchain_set_refresh(NULL, 16666667) == PRESENT_E_INVALID_ARG, "refresh");
	CHECK(present_swapchain_refresh_period(NULL) == 0, "period");
	CHECK(present_swapchain_wait_idle(NULL, 0) == PRESENT_E_INVALID_ARG, "wait_idle");
	CHECK(present_swapchain_set_mode(NULL, 0, true) == PRESENT_E_INVALID_ARG, "set_mode");
	CHECK(present_swapchain_set_boost(NULL, true) == PRESENT_E_INVALID_ARG, "set_boost");
	CHECK(present_swapchain_boost_period(NULL) == 0, "boost period");
	CHECK(present_swapchain_set_output(NULL, 0) == PRESENT_E_INVALID_ARG, "set_output");
	CHECK(present_swapchain_output(NULL) == PRESENT_E_INVALID_ARG, "output");

	/* the host's own devices, if any: enumeration must not fail */
	CHECK(present_system_open(&sys) == 0 && sys, "open");
	n = present_system_count(sys);
	CHECK(n >= 0, "count %d", n);
	CHECK(present_system_adapter(sys, n) == NULL, "adapter past the end");
	CHECK(present_system_find(sys, NULL, 4, &ad) == PRESENT_E_INVALID_ARG, "bad role");
	CHECK(present_system_find(sys, "no-such-adapter", 0, &ad) == PRESENT_E_NOT_FOUND, "no such");
	CHECK(present_system_hybrid_pair(sys, 4, &r, &ad) == PRESENT_E_INVALID_ARG, "tier 4");
	for (int i = 0; i < n; i++) {
		ad = present_system_adapter(sys, i);
		CHECK(present_adapter_info(ad, NULL) == PRESENT_E_INVALID_ARG, "info out NULL");
		CHECK(present_adapter_output(ad, 1000, &o) == PRESENT_E_NOT_FOUND, "output 1000");
		CHECK(present_adapter_output(ad, 0, NULL) == PRESENT_E_INVALID_ARG, "output out NULL");
		d.buffer_count = 1;
		CHECK(present_swapchain_create(NULL, ad, -1, &d, &sc) == PRESENT_E_INVALID_ARG ||
		      present_swapchain_create(NULL, ad, -1, &d, &sc) == PRESENT_E_DEVICE_REMOVED,
		      "1 buffer");
	}
	present_system_close(sys);
	return test_done("api_test");
}
