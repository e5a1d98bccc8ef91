/* SPDX-License-Identifier: MIT */
/* libpresent internals (not installed). */
#ifndef PRESENT_INTERNAL_H
#define PRESENT_INTERNAL_H

#include <errno.h>
#include <stdarg.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "events.h"
#include "present.h"
#include "vflipq_drm.h"

#define PRESENT_MAX_ADAPTERS 16

/* duration_ns range of a queued flip (struct drm_vflipq_flip, vflipq_drm.h) */
#define VRR_MIN_PERIOD_NS	4166667ull
#define VRR_MAX_PERIOD_NS	100000000ull

struct present_adapter {
	struct present_system *sys;
	int fd;
	_Atomic bool removed;		/* latched; read by any chain's thread */
	bool atomic;			/* DRM_CLIENT_CAP_ATOMIC accepted */
	struct present_adapter_info info;
	struct present_output *outputs;
	struct present_mode **modes;	/* per output */
	uint32_t num_crtc_ids;
	uint32_t *crtc_ids;
	struct present_router events;	/* the fd's events, to their chains */
	uint64_t outputs_fp;		/* outputs at open (topology.c) */
	char err[256];
};

struct present_system {
	int count;
	struct present_adapter adapters[PRESENT_MAX_ADAPTERS];
	uint64_t nodes_fp;		/* DRM nodes at open (topology.c) */
	_Atomic bool stale;		/* latched: no longer current */
};

/* Record a printf-style detail in @buf (size 256) and return @code. */
int present_fail(char *buf, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Map an errno value to a PRESENT_E_* code (ENODEV -> DEVICE_REMOVED...). */
int present_errno(int err);
/* The adapter is gone: latch it (an errno of ENODEV/EIO/ENXIO seen). */
int adapter_check_err(struct present_adapter *ad, int err);
uint64_t present_now_ns(void);
/*
 * A frame shown at the vblank @shown_ns was on target: that vblank is the
 * first one at or after @target_ns on a grid of period @grid_ns (path.c).
 */
bool present_on_target(uint64_t shown_ns, uint64_t target_ns, uint64_t grid_ns);
/*
 * When a client with one flip in flight commits the frame due at the
 * vblank @due_ns on a grid of period @grid_ns, the last vblank the driver
 * reported being @seen_ns: 0 (now) once the one before @due_ns was
 * reported, else half a frame before @due_ns (path.c).
 */
uint64_t present_commit_at(uint64_t due_ns, uint64_t grid_ns, uint64_t seen_ns);
/*
 * The enum present_feedback_status of a frame with target @target_ns shown
 * at @shown_ns (0: cancelled) on a grid of period @grid_ns (feedback.c).
 */
uint32_t present_feedback_status(uint64_t shown_ns, uint64_t target_ns, uint64_t grid_ns);
/*
 * Index of the first of @n queued frames (application PresentIds @app_ids,
 * 0: a frame of present(), never matched) whose PresentId is at or above
 * @from, or @n when there is none: where present_swapchain_cancel_from()
 * cancels from (feedback.c).
 */
unsigned int present_cancel_index(const uint64_t *app_ids, unsigned int n, uint64_t from);
/* Fingerprints of the DRM nodes and of an adapter's outputs (topology.c). */
#define PRESENT_FP_NO_OUTPUTS	0
uint64_t present_nodes_fingerprint(void);
uint64_t present_fp_outputs_begin(int count_connectors);
uint64_t present_fp_connector(uint64_t h, uint32_t id, const drmModeConnector *c);

#endif
