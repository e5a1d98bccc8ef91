/* SPDX-License-Identifier: MIT */
/*
 * libpresent swap chains: the DXGI flip model on KMS.
 *
 * A swap chain has 2-16 back buffers on the render adapter (dumb buffers
 * the application draws into through a CPU mapping) and presents them on
 * an output of the display adapter.  How a frame reaches the screen is the
 * *path*, decided at creation and resize (present_decide_path(), a pure
 * function) and reported with a reason by present_swapchain_path().
 *
 * Pacing follows D3D9Ex: at most max-frame-latency frames in flight, a
 * pollable waitable fd, PRESENT_E_WAS_STILL_DRAWING with do-not-wait.
 * Frame statistics come from the vflipq flip-queue log or from page-flip
 * events.
 */
#ifndef PRESENT_SWAPCHAIN_H
#define PRESENT_SWAPCHAIN_H

#include "base.h"
#include "adapter.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Swap effects (DXGI_SWAP_EFFECT_*). */
enum present_swap_effect {
	PRESENT_SWAP_FLIP_SEQUENTIAL	= 0,	/* default */
	PRESENT_SWAP_FLIP_DISCARD	= 1,
	PRESENT_SWAP_BLT_SEQUENTIAL	= 2,
	PRESENT_SWAP_BLT_DISCARD	= 3,
};

/* present_swapchain_desc.flags */
#define PRESENT_SWAPCHAIN_FRAME_LATENCY_WAITABLE	(1u << 0)
#define PRESENT_SWAPCHAIN_ALLOW_TEARING			(1u << 1)

/* present_swapchain_present() flags (DXGI_PRESENT_*). */
#define PRESENT_DO_NOT_WAIT	(1u << 0)	/* WAS_STILL_DRAWING instead of
						   blocking on latency */
#define PRESENT_ALLOW_TEARING	(1u << 1)	/* interval 0 only: tear */
#define PRESENT_RESTART		(1u << 2)	/* drop queued frames first */
#define PRESENT_TEST		(1u << 3)	/* show nothing; 0 or OCCLUDED */

/** struct present_swapchain_desc - what to create */
struct present_swapchain_desc {
	uint32_t width, height;		/* 1..8192; 0: the output's mode */
	uint32_t format;		/* DRM fourcc: XRGB8888/ARGB8888
					   (BGRA8), XBGR8888/ABGR8888 (RGBA8),
					   XRGB2101010/ARGB2101010
					   (R10G10B10A2), ABGR16161616F
					   (R16G16B16A16_FLOAT); 0: XRGB8888 */
	uint32_t buffer_count;		/* 2..16 */
	enum present_swap_effect swap_effect;
	uint32_t samples;		/* 1 (0 means 1), 2, 4, 8 */
	uint32_t rotation;		/* degrees counter-clockwise, as
					   DXGI_MODE_ROTATION and
					   DRM_MODE_ROTATE_*: 0, 90, 180, 270 */
	uint32_t flags;			/* PRESENT_SWAPCHAIN_* */
};

/* Presentation paths. */
enum present_path_kind {
	PRESENT_PATH_DIRECT_FLIP	= 0,	/* same adapter, zero copies */
	PRESENT_PATH_CASO_ONE_COPY	= 1,	/* display scans the render
						   buffer out (tier 3) */
	PRESENT_PATH_TWO_COPY_ENGINE	= 2,	/* 2nd copy: copy engine */
	PRESENT_PATH_TWO_COPY_CPU	= 3,	/* 2nd copy: CPU (tier 0) */
	PRESENT_PATH_PROXY_FLIP		= 4,	/* blt into a proxy matching
						   the output, flip proxy */
	PRESENT_PATH_BLT		= 5,	/* blt into the front buffer */
};

/** struct present_path_facts - everything the path decision depends on */
struct present_path_facts {
	bool same_adapter;	/* render adapter is the display adapter */
	unsigned int tier;	/* display adapter CASO tier 0..3 */
	bool blt_effect;	/* swap effect is a blt one */
	bool size_mismatch;	/* back buffer size != output mode */
	bool format_mismatch;	/* no plane of the output takes the format */
	unsigned int rotation;	/* requested, degrees */
	unsigned int samples;	/* requested, 1 = no MSAA */
	bool rotation_ok;	/* the plane scans @rotation out (its
				   "rotation" property lists it, the
				   SCANOUT_QUERY accepts it) */
	bool msaa_ok;		/* the driver scans MSAA buffers out */
	bool opt_out;		/* SCANOUT_QUERY NO_SCANOUT for the buffer
				   (beyond the tier-3 minimum, ...) */
	bool static_check;	/* TEST_ONLY commit with the buffer passed */
};

/** struct present_path - a decision */
struct present_path {
	enum present_path_kind kind;
	unsigned int copies;		/* copies per frame: 0, 1 or 2 */
	bool proxy;			/* a proxy surface is in between */
	bool dropped_rotation;		/* rotated chain on a copy path: a
					   blt rotates, not the plane */
	bool dropped_msaa;		/* fell back: MSAA resolved by blt */
	char reason[256];		/* "tier 2 display adapter: two-copy" */
};

/**
 * present_decide_path() - the path decision, a pure function
 * @facts: the facts (see struct present_path_facts)
 * @out: the path, copies per frame and the reason
 *
 * Order: blt swap effect -> blt present; progressive fallback (drop
 * rotation, then MSAA, when the driver does not scan them out; the blt does
 * the rotate/resolve; a scanned-out rotated buffer is rotated by the plane,
 * "plane rotated 90" in the reason); size/format mismatch or fallback -> proxy
 * blt-then-flip (same adapter) or two-copy (hybrid: the second copy does the
 * conversion, on the CPU when it rotates or at tier 1); same adapter -> direct flip unless the driver opts the
 * optional back buffer out (-> blt present); hybrid -> CASO one-copy with
 * tier 3 + no opt-out + static check, else two-copy on the copy engine
 * (tier >= 1) or the CPU (tier 0).  Returns 0 or PRESENT_E_INVALID_ARG.
 */
PRESENT_API int present_decide_path(const struct present_path_facts *facts,
				    struct present_path *out);

/** present_path_name() - "direct-flip", "caso-one-copy", ... */
PRESENT_API const char *present_path_name(enum present_path_kind kind);

/**
 * present_interval_target() - the WDDM interval -> target time mapping
 * @prev_vblank_ns: CLOCK_MONOTONIC start of the vblank the previous flip
 *                  was shown at
 * @period_ns: current refresh period
 * @interval: sync interval 0..4 (0: returns 0, "as soon as possible")
 * @fastest_period_ns: the fastest period the output can boost to
 *                     (0: fixed refresh)
 *
 * target = prev + interval * period - half_period, where half_period is
 * period/2, or fastest_period/2 with a boostable refresh.  Returns the
 * target, or 0 for interval 0 or bad arguments.
 */
PRESENT_API uint64_t present_interval_target(uint64_t prev_vblank_ns, uint64_t period_ns,
					     unsigned int interval,
					     uint64_t fastest_period_ns);

/**
 * present_boost_period() - the fastest integer multiple of a refresh
 * @period_ns: the current (fixed) refresh period
 * @min_period_ns: the shortest frame the output accepts
 *                 (present_adapter_info.refresh_min_ns; 0: fixed refresh)
 * @htotal, @vdisplay, @clock_khz: timings of the current mode
 *
 * The output can boost its refresh to an integer multiple k >= 2 of the
 * current one when a frame of period/k is within its variable-refresh range
 * and still longer than the visible lines (the hardware only shrinks the
 * vertical blank).  Returns the period of the largest such k, rounded to
 * whole scan lines as the driver runs it, or 0 when the output cannot boost
 * (then present_interval_target() uses the fixed period).
 */
PRESENT_API uint64_t present_boost_period(uint64_t period_ns, uint64_t min_period_ns,
					  uint32_t htotal, uint32_t vdisplay, uint32_t clock_khz);

/**
 * struct present_latency - frame-latency accounting (pure, see
 * present_latency_*): frames presented but not yet retired (shown,
 * replaced or cancelled) against the maximum frame latency
 */
struct present_latency {
	uint32_t max;			/* 1..16 */
	uint32_t in_flight;
	uint64_t submitted;		/* total frames accepted */
	uint64_t retired;		/* total frames retired */
};

/** present_latency_init() - @max 1..16 (0: default 3); 0 or INVALID_ARG */
PRESENT_API int present_latency_init(struct present_latency *l, uint32_t max);
/** present_latency_can_submit() - true when one more frame fits */
PRESENT_API bool present_latency_can_submit(const struct present_latency *l);
/** present_latency_submit() - account a frame; WAS_STILL_DRAWING if full */
PRESENT_API int present_latency_submit(struct present_latency *l);
/** present_latency_retire() - @n frames retired; INVALID_ARG if more than
 * in flight (nothing changed then) */
PRESENT_API int present_latency_retire(struct present_latency *l, uint32_t n);
/** present_latency_set_max() - change the maximum (frames already in
 * flight stay); 0 or INVALID_ARG */
PRESENT_API int present_latency_set_max(struct present_latency *l, uint32_t max);

struct present_swapchain;

/**
 * present_swapchain_create() - create a swap chain
 * @render: adapter holding the back buffers (NULL: @display itself)
 * @display: display adapter
 * @output: output index on @display (negative: its default output)
 * @desc: description
 * @out: the swap chain
 *
 * Becomes DRM master-level user of the output's CRTC (the caller must be
 * able to do atomic commits on @display: DRM master).  Sets the mode
 * when the CRTC is off, allocates the buffers, decides the path.  Returns
 * 0, PRESENT_E_INVALID_ARG, PRESENT_E_NOT_SUPPORTED, PRESENT_E_NOT_FOUND,
 * PRESENT_E_NO_MEMORY, PRESENT_E_DEVICE_REMOVED, PRESENT_E_BUSY or
 * PRESENT_E_IO (detail: present_adapter_last_error(display)).
 */
PRESENT_API int present_swapchain_create(struct present_adapter *render,
					 struct present_adapter *display, int output,
					 const struct present_swapchain_desc *desc,
					 struct present_swapchain **out);

/**
 * present_swapchain_destroy() - cancel queued frames, free everything
 * (NULL: no-op).  Safe after device removal.
 */
PRESENT_API void present_swapchain_destroy(struct present_swapchain *sc);

/** struct present_buffer - a back buffer as the application sees it */
struct present_buffer {
	void *map;			/* CPU mapping, rows of @pitch bytes */
	uint32_t pitch;
	uint32_t width, height;
	uint32_t format;		/* DRM fourcc */
	uint64_t size;			/* bytes mapped */
	int dmabuf_fd;			/* -1 unless exported (owned by lib) */
};

/**
 * present_swapchain_get_buffer() - back buffer @index (0..count-1)
 * Returns 0, PRESENT_E_INVALID_ARG, PRESENT_E_DEVICE_REMOVED.
 */
PRESENT_API int present_swapchain_get_buffer(struct present_swapchain *sc, unsigned int index,
					     struct present_buffer *out);

/**
 * present_swapchain_current_back_buffer() - index of the buffer to draw
 * the next frame into (>= 0), or a negative error code
 */
PRESENT_API int present_swapchain_current_back_buffer(struct present_swapchain *sc);

/**
 * present_swapchain_resize() - ResizeBuffers
 * @count: 0 keeps the count; @width/@height 0: the output's mode;
 * @format: 0 keeps the format
 *
 * Waits for queued frames to be shown, reallocates, re-decides the path
 * (SCANOUT_QUERY + TEST_ONLY static check again).  Buffers obtained before
 * are invalid afterwards.  Same codes as create.
 */
PRESENT_API int present_swapchain_resize(struct present_swapchain *sc, unsigned int count,
					 uint32_t width, uint32_t height, uint32_t format);

/**
 * present_swapchain_set_mode() - change the output's display mode
 * @mode_index: index into the output's mode list (struct present_output)
 * @resize_buffers: true: the back buffers follow the new mode size; false:
 *                  they keep their size (a mismatch then takes a proxy or a
 *                  copy path)
 *
 * The output is set to the mode showing a blank buffer and the path is
 * decided again (SCANOUT_QUERY and the static check).  With
 * @resize_buffers the queued frames complete or are cancelled first and the
 * buffers are reallocated (buffers obtained before are invalid afterwards,
 * as after DXGI's ResizeBuffers); without it the back buffers and their
 * contents stay and the queued frames are requeued in the new mode with
 * their targets computed on its grid (present_counters.requeued).  Returns 0
 * or an error code.
 */
PRESENT_API int present_swapchain_set_mode(struct present_swapchain *sc, unsigned int mode_index,
					   bool resize_buffers);

/**
 * present_swapchain_set_output() - move the chain to another output
 * @output: output index of the display adapter (-1: the default, the first
 *          connected one)
 *
 * Re-reads the adapter's outputs (present_adapter_refresh(): earlier
 * present_output pointers become invalid), turns the old CRTC off, lights
 * the new output (its current mode, else the preferred one) with a blank
 * buffer and decides the path there for the back buffers as they are
 * (contents kept, sizes too: a size that does not match the new mode takes
 * a proxy or two-copy path, as after present_swapchain_set_mode() without
 * resizing).  Queued frames are requeued on the new output with their
 * targets computed on its grid (present_counters.requeued).  This is the way
 * out of PRESENT_E_DISCONNECTED.  Returns 0, PRESENT_E_INVALID_ARG (no such
 * output, a writeback one), PRESENT_E_DISCONNECTED (@output is not
 * connected; the chain is unchanged), PRESENT_E_DEVICE_REMOVED or an error of
 * the modeset.
 */
PRESENT_API int present_swapchain_set_output(struct present_swapchain *sc, int output);

/** present_swapchain_output() - the chain's output index, or an error code */
PRESENT_API int present_swapchain_output(struct present_swapchain *sc);

/**
 * present_swapchain_path() - the current path and why
 * Returns 0, PRESENT_E_INVALID_ARG.
 */
PRESENT_API int present_swapchain_path(struct present_swapchain *sc, struct present_path *out);

/**
 * present_swapchain_present() - present the current back buffer
 * @sync_interval: 0..4: shown at the first vblank at or after the WDDM
 *                 target (present_interval_target()) of the previous
 *                 frame's vblank; 0 = next vblank, replacing frames not yet
 *                 shown (flip-discard / blt effects; flip-sequential keeps
 *                 them), or a tearing flip with PRESENT_ALLOW_TEARING on a
 *                 chain created with PRESENT_SWAPCHAIN_ALLOW_TEARING
 * @flags: PRESENT_DO_NOT_WAIT, PRESENT_ALLOW_TEARING, PRESENT_RESTART,
 *         PRESENT_TEST
 *
 * Blocks while max-frame-latency frames are in flight unless
 * PRESENT_DO_NOT_WAIT, which returns PRESENT_E_WAS_STILL_DRAWING instead
 * (nothing presented).  Returns 0 or PRESENT_E_INVALID_ARG,
 * PRESENT_E_WAS_STILL_DRAWING, PRESENT_E_DEVICE_REMOVED, PRESENT_E_BUSY,
 * PRESENT_E_IO.
 */
PRESENT_API int present_swapchain_present(struct present_swapchain *sc,
					  unsigned int sync_interval, unsigned int flags);

/**
 * present_swapchain_set_max_frame_latency() - 1..16 (default 3)
 */
PRESENT_API int present_swapchain_set_max_frame_latency(struct present_swapchain *sc,
							 unsigned int max);

/** present_swapchain_get_max_frame_latency() - the maximum (>0) or error */
PRESENT_API int present_swapchain_get_max_frame_latency(struct present_swapchain *sc);

/**
 * present_swapchain_waitable_fd() - frame-latency waitable object
 *
 * An eventfd that polls readable while another frame can be presented
 * without blocking (chains created with
 * PRESENT_SWAPCHAIN_FRAME_LATENCY_WAITABLE; others: PRESENT_E_NOT_SUPPORTED).
 * Owned by the swap chain: poll it, never read or close it.  While the
 * application sleeps on it, call present_swapchain_dispatch() when it
 * wakes (the library also dispatches inside every call).
 */
PRESENT_API int present_swapchain_waitable_fd(struct present_swapchain *sc);

/**
 * present_swapchain_dispatch() - process completed flips without blocking
 * (@timeout_ms 0) or waiting up to @timeout_ms for one.  Returns the
 * number of frames retired (>= 0), PRESENT_E_TIMEOUT or an error.
 */
PRESENT_API int present_swapchain_dispatch(struct present_swapchain *sc, int timeout_ms);

/**
 * present_swapchain_wait_idle() - sleep until every queued frame retired
 * @timeout_ms: at most this long (>= 0)
 *
 * With the flip queue this asks for one interrupt, at the last queued frame,
 * so a process that presented a batch of frames ahead (video) wakes once
 * per batch instead of once per frame.  Returns 0, PRESENT_E_TIMEOUT,
 * PRESENT_E_DEVICE_REMOVED or another error.
 */
PRESENT_API int present_swapchain_wait_idle(struct present_swapchain *sc, int timeout_ms);

/** struct present_frame_statistics - DXGI_FRAME_STATISTICS */
struct present_frame_statistics {
	uint32_t present_count;		/* frames presented so far (the count
					   of the last one that was shown) */
	uint32_t present_refresh_count;	/* vblank count it was shown at */
	uint32_t sync_refresh_count;	/* vblank count of the sample */
	uint64_t sync_time_ns;		/* CLOCK_MONOTONIC of that vblank */
};

/**
 * present_swapchain_frame_statistics() - the latest shown frame
 * Returns 0, PRESENT_E_NOT_FOUND before any frame was shown (DXGI's
 * FRAME_STATISTICS_DISJOINT), PRESENT_E_DEVICE_REMOVED.
 * Every field is monotonic across calls.
 */
PRESENT_API int present_swapchain_frame_statistics(struct present_swapchain *sc,
						   struct present_frame_statistics *out);

/**
 * present_swapchain_last_present_count() - count of the last present call
 * that was accepted
 */
PRESENT_API int present_swapchain_last_present_count(struct present_swapchain *sc,
						     uint32_t *out);

/**
 * present_swapchain_wait_vblank() - block until the output's next vblank;
 * @out_ns (may be NULL): its CLOCK_MONOTONIC time
 */
PRESENT_API int present_swapchain_wait_vblank(struct present_swapchain *sc, uint64_t *out_ns);

/**
 * present_swapchain_set_refresh() - change the output's refresh period
 * @period_ns: new frame period (4166667..100000000 ns, variable refresh);
 *             0: back to the mode's period
 *
 * Flip queue only (PRESENT_E_NOT_SUPPORTED otherwise).  The new period goes
 * with the next flip (VFLIPQ flip duration) and applies from the vblank it
 * is shown at.  When the new period is a multiple (or divisor) of the old
 * one, queued frames complete first; otherwise they are cancelled and
 * requeued with targets recomputed on the new grid (WDDM), counted in
 * present_counters.requeued, not cancelled.  Returns 0 or an error code.
 */
PRESENT_API int present_swapchain_set_refresh(struct present_swapchain *sc, uint64_t period_ns);

/** present_swapchain_refresh_period() - current period in ns (0: bad @sc) */
PRESENT_API uint64_t present_swapchain_refresh_period(struct present_swapchain *sc);

/**
 * present_swapchain_boost_period() - the fastest integer multiple of the
 * current refresh the output can boost to (present_boost_period() of the
 * output's variable-refresh range and the mode), in ns; 0: the output
 * cannot boost (or bad @sc).  When not 0, every target uses the boost
 * variant of the WDDM formula, boosted or not: prev + n x period -
 * boost_period / 2, so a frame lands on the vblank its interval asks for
 * whether the output runs at the fixed or the boosted refresh.
 */
PRESENT_API uint64_t present_swapchain_boost_period(struct present_swapchain *sc);

/**
 * present_swapchain_set_boost() - virtual refresh boost on or off
 * @on: run the output at present_swapchain_boost_period() (e.g. 30 Hz
 *      boosted to 60 Hz) while sync intervals keep counting periods of the
 *      fixed refresh (present_swapchain_refresh_period()); false: back to
 *      the fixed refresh
 *
 * Flip queue only.  The new frame duration goes with the next present; with
 * frames still queued the driver asks to drain first (-EAGAIN, as WDDM takes
 * a new Duration only after earlier flips completed) and present waits and
 * resubmits (present_counters.drain_waits).  A mode change ends the boost;
 * present_swapchain_set_refresh() keeps it at the new refresh's fastest
 * multiple, or ends it when there is none.  Returns 0, PRESENT_E_INVALID_ARG,
 * PRESENT_E_NOT_SUPPORTED (no flip queue, or the output cannot boost this
 * refresh), PRESENT_E_DEVICE_REMOVED.
 */
PRESENT_API int present_swapchain_set_boost(struct present_swapchain *sc, bool on);

/** struct present_counters - per-chain totals (for present-demo) */
struct present_counters {
	uint64_t presented;		/* frames accepted */
	uint64_t shown;			/* reached the screen */
	uint64_t on_target;		/* at the first vblank >= target, exactly */
	uint64_t missed;		/* at any other vblank */
	uint64_t cancelled;		/* cancelled or replaced */
	uint64_t copies;		/* copy operations */
	uint64_t bytes_copied;
	uint64_t wakeups;		/* times the library blocked/woke */
	uint64_t requeued;		/* requeued after a refresh change */
	uint64_t drain_waits;		/* submissions refused with drain
					   hints (-EAGAIN), waited and
					   resubmitted */
};

/** present_swapchain_counters() - fill @out; 0 or INVALID_ARG */
PRESENT_API int present_swapchain_counters(struct present_swapchain *sc,
					   struct present_counters *out);

/**
 * present_swapchain_timing() - per-frame target and actual times
 * @targets/@actuals: arrays of @n (may be NULL), filled with the last frames
 * (actual 0: cancelled).  Returns the number filled.
 */
PRESENT_API int present_swapchain_timing(struct present_swapchain *sc, uint64_t *targets,
					 uint64_t *actuals, unsigned int n);

/**
 * present_swapchain_present_at() - present the current back buffer at a time
 * @target_ns: CLOCK_MONOTONIC time (not 0): the frame is shown at the first
 *             vblank at or after it (a target on a vblank: that vblank; one
 *             already past: the next vblank, reported late).  A target
 *             earlier than a frame still queued before it is moved up to that
 *             frame's target (the flip queue never goes backward), so the two
 *             share a vblank and the newer replaces the older one there.
 * @app_present_id: the application's PresentId, strictly greater than every
 *                  one accepted on the chain before (cancelled ones included);
 *                  the feedback record of the frame carries it
 * @flags: PRESENT_DO_NOT_WAIT, PRESENT_TEST
 *
 * Pacing as present_swapchain_present(): blocks while max-frame-latency
 * frames are in flight unless PRESENT_DO_NOT_WAIT (then
 * PRESENT_E_WAS_STILL_DRAWING, nothing presented, @app_present_id unused).
 * Needs the flip queue, on an output of fixed refresh: PRESENT_E_NOT_SUPPORTED
 * without one and while the CRTC has VRR_ENABLED (present_swapchain_present()
 * is unchanged there).  Returns 0, PRESENT_E_INVALID_ARG (a PresentId not
 * above the last, target 0, other flags), PRESENT_E_BUSY (unread feedback
 * fills the chain's ring: read it), PRESENT_E_WAS_STILL_DRAWING,
 * PRESENT_E_NOT_SUPPORTED, PRESENT_E_DEVICE_REMOVED, PRESENT_E_IO.
 */
PRESENT_API int present_swapchain_present_at(struct present_swapchain *sc, uint64_t target_ns,
					     uint64_t app_present_id, unsigned int flags);

/**
 * present_swapchain_cancel_from() - cancel the queued frames from a PresentId
 * @app_present_id: the first application PresentId to cancel
 *
 * Every frame present_swapchain_present_at() queued with a PresentId at or
 * above @app_present_id that is not on its way to the screen is cancelled
 * (FLIPQ_CANCEL), with every frame presented after it; their buffers are free
 * again and their feedback says CANCELLED.  Frames already shown stay so, and
 * a frame whose target has passed is latched by the hardware: it is shown
 * (its feedback tells when), and so are the frames before it.  Returns the
 * number of frames cancelled (>= 0; 0: none queued from there), or
 * PRESENT_E_INVALID_ARG, PRESENT_E_NOT_SUPPORTED (no flip queue),
 * PRESENT_E_DEVICE_REMOVED, PRESENT_E_IO.
 */
PRESENT_API int present_swapchain_cancel_from(struct present_swapchain *sc,
					      uint64_t app_present_id);

/* struct present_feedback.status */
enum present_feedback_status {
	PRESENT_FEEDBACK_ON_TARGET	= 0,	/* at the first vblank at or
						   after its target */
	PRESENT_FEEDBACK_LATE		= 1,	/* at a later vblank */
	PRESENT_FEEDBACK_CANCELLED	= 2,	/* never shown: cancelled, or
						   replaced by a newer frame due
						   at the same vblank */
	PRESENT_FEEDBACK_EARLY		= 3,	/* before its target: a driver
						   fault, never expected */
};

/**
 * struct present_feedback - what became of a present_swapchain_present_at()
 * frame, from the flip queue's log
 */
struct present_feedback {
	uint64_t app_present_id;	/* as presented */
	uint64_t target_ns;		/* as presented */
	uint64_t shown_ns;		/* CLOCK_MONOTONIC of the vblank it was
					   shown at; 0: cancelled */
	uint64_t vblank_seq;		/* that vblank's count (as
					   present_frame_statistics); 0:
					   cancelled */
	uint32_t status;		/* enum present_feedback_status */
	uint32_t reserved;		/* 0 */
};

/**
 * present_swapchain_read_feedback() - take the feedback of retired frames
 * @out: room for @n records
 * @n: at most this many (0: only dispatch and count nothing)
 * @timeout_ms: 0: what is there now; > 0: wait up to this long for a first
 *              record while present_at frames are queued
 *
 * Every present_swapchain_present_at() frame yields one record, in
 * PresentId order, once it was shown or cancelled (judged from the flip
 * queue's log), and each record is returned once.  Returns the number of
 * records written (>= 0) or an error code.
 */
PRESENT_API int present_swapchain_read_feedback(struct present_swapchain *sc,
						struct present_feedback *out, unsigned int n,
						int timeout_ms);

/**
 * present_swapchain_feedback_fd() - an eventfd polling readable while
 * feedback records wait to be read
 *
 * Not the frame-latency waitable object (which polls readable while a
 * present would not block): a separate one, on every chain, created at the
 * first call.  Owned by the chain: poll it, never read or close it.  Like
 * the waitable object it reflects what the library processed; an
 * application sleeping on it while nothing else calls into the chain
 * sleeps in present_swapchain_read_feedback() with a timeout instead, or
 * calls present_swapchain_dispatch().  Returns the fd or an error code.
 */
PRESENT_API int present_swapchain_feedback_fd(struct present_swapchain *sc);

/** present_swapchain_last_error() - detail of the last failure ("") */
PRESENT_API const char *present_swapchain_last_error(const struct present_swapchain *sc);

#ifdef __cplusplus
}
#endif
#endif /* PRESENT_SWAPCHAIN_H */
