/* SPDX-License-Identifier: MIT */
/*
 * The swap chain's internals (not installed), shared by its files:
 *
 *   swapchain.c          create, destroy, buffers, present
 *   swapchain_path.c     path facts and the path's buffers (the decision
 *                        itself: path.c, a table)
 *   swapchain_buffers.c  dumb buffers, framebuffers, PRIME imports
 *   swapchain_blit.c     present-time copies (CPU blt, copy engine)
 *   swapchain_atomic.c   atomic back end: modeset, blank buffer, page flips
 *   swapchain_flipq.c    flip-queue back end: log, interrupt target, submit
 *   swapchain_retire.c   the frame queue: retiring, waits, frame latency
 *   swapchain_events.c   mailbox, sleeping on events, the waitable object
 *   swapchain_pacing.c   refresh grid, boost, frame targets
 *   swapchain_stats.c    counters, frame statistics, timing
 *   swapchain_output.c   output and mode changes, hotplug, requeueing
 *   swapchain_feedback.c present_at's PresentIds and per-present feedback
 *
 * Each part of struct present_swapchain (a struct sc_*) is written only by
 * the file named beside it, so each rule about it lives in one place; the
 * other files read it and call that file's functions to change it
 * (tests/ownership_test.py holds the tree to that).
 */
#ifndef PRESENT_SWAPCHAIN_INTERNAL_H
#define PRESENT_SWAPCHAIN_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "fourcc.h"
#include "internal.h"

#define MAX_BUFS	16
#define MAX_FRAMES	32
#define TIMING_RING	4096
#define LOG_ENTRIES	256
#define FEEDBACK_RING	256

struct bo {
	int fd;			/* device it lives on */
	uint32_t handle, pitch, width, height, format, fb_id;
	uint64_t size;
	void *map;
};

struct frame {
	uint64_t present_id;
	uint32_t present_count;
	uint32_t buf;		/* scan_fb index shown */
	uint32_t back;		/* back buffer it holds (blt model: copied from) */
	uint64_t target_ns;	/* 0: as soon as possible */
	uint64_t expect_ns;	/* the first vblank >= target (predicted) */
	uint64_t submit_ns;
	unsigned int interval;
	uint64_t app_id;	/* present_at(): the application's PresentId, 0:
				   present() */
	uint64_t want_ns;	/* present_at(): the target asked for (target_ns
				   may be later, see sc_pace_at()) */
	bool tomb;		/* in sc_queue: cancelled, not logged yet (see
				   present_swapchain_cancel_from()) */
};

/*
 * Counters, the latest frame statistics and the timing ring: written by
 * swapchain_stats.c only (the sc_stats_*() calls), read anywhere.
 */
struct sc_stats {
	struct present_counters ctr;
	struct present_frame_statistics last;	/* of the newest frame shown */
	bool last_valid;			/* a frame was shown */
	uint32_t present_count;			/* presents accepted */
	uint64_t *t_target, *t_actual;		/* TIMING_RING each, or NULL */
	uint64_t timing_n;			/* frames recorded */
};

/*
 * The output the chain shows on, its mode, and the frames an output or
 * mode change cancelled to submit again: written by swapchain_output.c only.
 */
struct sc_output {
	int output;			/* index in the display adapter */
	char output_name[32];
	bool output_gone;		/* seen disconnected, not moved yet */
	uint32_t connector_id, crtc_id, crtc_index;
	drmModeModeInfo mode;
	bool requeueing;		/* cancelled frames go to requeue[] */
	struct frame requeue[MAX_FRAMES];
	unsigned int nrequeue;
};

/* How the plane scans the chain's buffers out. */
struct sc_scan {
	uint32_t rot;			/* DRM_MODE_ROTATE_* */
	uint32_t w, h;			/* what the plane scans of a buffer */
};

/*
 * The path decision, the facts it was made from and the plane it is for:
 * written by swapchain_path.c only.
 */
struct sc_path {
	struct present_path decision;
	struct present_path_facts facts;
	bool blt_model;			/* blt swap effect, see sc_disp_index() */
	uint32_t plane_id;		/* the CRTC's primary plane, 0: not found */
	uint32_t rot_prop;		/* the plane's "rotation" property, 0: none */
	uint32_t plane_rots;		/* DRM_MODE_ROTATE_* bits it lists */
	uint32_t disp_format;		/* what display-side buffers are in */
	struct sc_scan scan;
};

/* The chain's buffers and which are next: written by swapchain_buffers.c only. */
struct sc_buffers {
	struct bo back[MAX_BUFS];	/* render adapter, app draws here */
	uint32_t scan_fb[MAX_BUFS];	/* display fb per back buffer: the buffer
					   itself (direct), imported (one-copy)
					   or a display-local copy */
	uint32_t import_fb[MAX_BUFS];	/* two-copy engine: copy source */
	struct bo local[MAX_BUFS];	/* display-local buffers */
	struct bo blank;		/* shown at creation/destroy, square: see
					   sc_blank_create() */
	unsigned int cur;		/* back buffer to draw into */
	unsigned int slot;		/* blt model: next display-side buffer */
};

/*
 * How frames go to the driver: the flip queue (its completion log) or, with
 * !on, atomic page flips; and the PresentIds they carry.  Written by
 * swapchain_flipq.c only.
 */
struct sc_flipq {
	bool on;			/* hardware flip queue in use */
	uint32_t depth;			/* frames the driver queues, 1: page flips */
	volatile struct drm_vflipq_log_entry *log;
	uint32_t log_handle;
	uint64_t log_size;
	uint32_t log_next;		/* next entry to read */
	uint64_t next_present_id;
};

/*
 * The frames the driver accepted and not yet retired, and what they leave
 * on screen: written by swapchain_retire.c only.
 */
struct sc_queue {
	struct frame frames[MAX_FRAMES];	/* FIFO, oldest first */
	unsigned int nframes;
	uint64_t last_expect_ns;	/* expected vblank of the newest frame */
	bool flip_pending;		/* atomic: a page flip in flight */
	int onscreen;			/* back buffer index on screen, -1 */
	struct present_latency lat;	/* frames in flight vs. the maximum */
};

/*
 * The refresh grid and where the chain is on it: written by
 * swapchain_pacing.c only.
 */
struct sc_pacing {
	uint64_t period_ns;		/* fixed refresh: intervals count these */
	uint64_t grid_ns;		/* period the CRTC runs at (boosted or not) */
	uint64_t fastest_ns;		/* boost period, 0: cannot boost */
	bool boost;			/* running at fastest_ns */
	uint64_t next_duration_ns;	/* refresh change carried by the next flip */
	uint64_t ref_vbl_ns;		/* a known vblank: time, sequence */
	uint64_t ref_vbl_seq;
};

/*
 * present_at()'s PresentIds and the feedback records of its frames waiting
 * to be read: written by swapchain_feedback.c only.
 */
struct sc_feedback {
	struct present_feedback ring[FEEDBACK_RING];
	unsigned int head, count;	/* unread records */
	unsigned int outstanding;	/* app frames queued, no record yet */
	uint64_t last_id;		/* newest PresentId accepted, 0: none */
	int efd;			/* present_swapchain_feedback_fd(), -1 */
	bool efd_signalled;		/* readable: count > 0 */
};

/* The chain's event plumbing: written by swapchain_events.c only. */
struct sc_events {
	struct present_mailbox mbox;	/* this CRTC's events, see events.c */
	int efd;			/* waitable object, -1 */
	bool efd_signalled;		/* efd readable: a present would not block */
};

struct present_swapchain {
	pthread_mutex_t lock;		/* every public call, see sc_lock() */
	struct present_adapter *render, *display;
	int dfd;			/* display fd */
	struct present_swapchain_desc desc;	/* as created or resized */
	char err[256];			/* the last failure's detail, sc_fail() */

	/* the parts, each written by its file only */
	struct sc_output out;		/* swapchain_output.c */
	struct sc_path path;		/* swapchain_path.c */
	struct sc_buffers bufs;		/* swapchain_buffers.c */
	struct sc_pacing pace;		/* swapchain_pacing.c */
	struct sc_flipq flipq;		/* swapchain_flipq.c */
	struct sc_queue queue;		/* swapchain_retire.c */
	struct sc_events ev;		/* swapchain_events.c */
	struct sc_stats stats;		/* swapchain_stats.c */
	struct sc_feedback feedback;	/* swapchain_feedback.c */
};

/*
 * Threading: every public function but present_swapchain_waitable_fd()
 * holds the chain's (recursive) lock for its whole call, waits included,
 * as DXGI serializes the methods of a swap chain.  SC_LOCK() takes it and
 * releases it when the calling function returns.
 */
static inline struct present_swapchain *sc_lock(struct present_swapchain *sc)
{
	pthread_mutex_lock(&sc->lock);
	return sc;
}

static inline void sc_unlock(struct present_swapchain **scp)
{
	pthread_mutex_unlock(&(*scp)->lock);
}

#define SC_LOCK(sc) \
	struct present_swapchain *sc_held_ __attribute__((cleanup(sc_unlock))) = sc_lock(sc)

/* swapchain.c */
int sc_fail(struct present_swapchain *sc, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int sc_errno(struct present_swapchain *sc, int err, const char *what);
bool sc_removed(struct present_swapchain *sc);
int sc_check_removed(struct present_swapchain *sc);

/* swapchain_path.c */
int sc_find_primary_plane(struct present_swapchain *sc);
int sc_decide(struct present_swapchain *sc);
int sc_build(struct present_swapchain *sc);
int sc_redecide_after_failed_flip(struct present_swapchain *sc);
struct sc_scan sc_plane_unrotated(struct present_swapchain *sc);
void sc_plane_restore(struct present_swapchain *sc, const struct sc_scan *old);
void sc_path_forget_plane(struct present_swapchain *sc);
void sc_path_note(struct present_swapchain *sc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* swapchain_buffers.c */
void sc_bo_destroy(struct bo *bo);
int sc_blank_create(struct present_swapchain *sc, struct bo *bo);
int sc_bufs_new_blank(struct present_swapchain *sc);
void sc_bufs_take_blank(struct present_swapchain *sc, struct bo *bo);
int sc_bufs_create_back(struct present_swapchain *sc);
int sc_bufs_scan_back(struct present_swapchain *sc);
void sc_bufs_drop_scan(struct present_swapchain *sc, int keep);
int sc_bufs_create_local(struct present_swapchain *sc, uint32_t w, uint32_t h, uint32_t format,
			 bool import);
unsigned int sc_disp_index(const struct present_swapchain *sc);
void sc_bufs_advance(struct present_swapchain *sc);
void sc_free_display_side(struct present_swapchain *sc);
void sc_free_buffers(struct present_swapchain *sc);
void sc_bufs_fini(struct present_swapchain *sc);

/* swapchain_blit.c */
int sc_do_copies(struct present_swapchain *sc, unsigned int b, unsigned int d);

/* swapchain_atomic.c */
int sc_add_prop(drmModeAtomicReq *req, int fd, uint32_t obj, uint32_t type, const char *name,
		uint64_t v);
int sc_show_blank(struct present_swapchain *sc);
int sc_commit_modeset(struct present_swapchain *sc, uint32_t fb, uint32_t w, uint32_t h,
		      bool test);
int sc_submit_atomic(struct present_swapchain *sc, struct frame *f, uint32_t fb, bool tear);

/* swapchain_flipq.c */
void sc_flipq_start(struct present_swapchain *sc);
void sc_flipq_move(struct present_swapchain *sc);
uint64_t sc_flipq_next_id(struct present_swapchain *sc);
void sc_flipq_teardown(struct present_swapchain *sc);
void sc_set_irq_target(struct present_swapchain *sc, uint64_t target);
int sc_read_log(struct present_swapchain *sc);
int sc_submit(struct present_swapchain *sc, struct frame *f, bool tear);

/* swapchain_retire.c */
void sc_queue_init(struct present_swapchain *sc);
void sc_queue_push(struct present_swapchain *sc, const struct frame *f);
void sc_queue_flip_sent(struct present_swapchain *sc);
void sc_queue_blank_shown(struct present_swapchain *sc);
bool sc_buf_busy(struct present_swapchain *sc, unsigned int b);
bool sc_ready(struct present_swapchain *sc);
void sc_retire_head(struct present_swapchain *sc, uint64_t ts);
void sc_cancel_queued(struct present_swapchain *sc);
uint64_t sc_queue_last_target(const struct present_swapchain *sc);

/* swapchain_pacing.c */
void sc_set_period(struct present_swapchain *sc, uint64_t period_ns);
uint64_t sc_mode_period(const drmModeModeInfo *m);
void sc_reference_vblank(struct present_swapchain *sc);
void sc_pacing_reset(struct present_swapchain *sc);
void sc_pacing_saw_vblank(struct present_swapchain *sc, uint64_t ns, uint64_t seq);
void sc_pacing_duration_sent(struct present_swapchain *sc);
uint64_t sc_seq_of(const struct present_swapchain *sc, uint64_t ts);
void sc_pace_present(struct present_swapchain *sc, struct frame *f);
void sc_pace_requeued(struct present_swapchain *sc, struct frame *f);
void sc_pace_at(struct present_swapchain *sc, struct frame *f);

/* swapchain_events.c */
void sc_events_init(struct present_swapchain *sc);
void sc_events_fini(struct present_swapchain *sc);
int sc_events_attach(struct present_swapchain *sc);
int sc_events_open_waitable(struct present_swapchain *sc);
int sc_events_pump(struct present_swapchain *sc, struct present_mail *out);
int sc_events_wait(struct present_swapchain *sc, int ms);
void sc_update_waitable(struct present_swapchain *sc);

/* swapchain_stats.c */
void sc_stats_init(struct present_swapchain *sc);
void sc_stats_fini(struct present_swapchain *sc);
void sc_stats_wakeup(struct present_swapchain *sc);
void sc_stats_copied(struct present_swapchain *sc, uint64_t bytes);
void sc_stats_drain_wait(struct present_swapchain *sc);
void sc_stats_presented(struct present_swapchain *sc);
void sc_stats_requeued(struct present_swapchain *sc);
void sc_stats_lost(struct present_swapchain *sc, unsigned int n);
bool sc_stats_retired(struct present_swapchain *sc, const struct frame *f, uint64_t ts,
		      uint64_t seq);

/* swapchain_output.c */
int sc_setup_output(struct present_swapchain *sc, int output);
bool sc_requeue_keep(struct present_swapchain *sc, const struct frame *f);
void sc_cancel_for_requeue(struct present_swapchain *sc);
int sc_requeue_frames(struct present_swapchain *sc, bool copy);
int sc_check_output(struct present_swapchain *sc);
bool sc_output_vrr(struct present_swapchain *sc);

/* swapchain_feedback.c */
void sc_feedback_init(struct present_swapchain *sc);
void sc_feedback_fini(struct present_swapchain *sc);
int sc_feedback_check(struct present_swapchain *sc, uint64_t app_id);
void sc_feedback_accepted(struct present_swapchain *sc, uint64_t app_id);
void sc_feedback_retired(struct present_swapchain *sc, const struct frame *f, uint64_t ts,
			 uint64_t seq);

#endif
