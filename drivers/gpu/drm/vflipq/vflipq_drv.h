/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _VFLIPQ_DRV_H_
#define _VFLIPQ_DRV_H_

#include <linux/hrtimer.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/seqlock.h>
#include <linux/seq_file.h>
#include <linux/atomic.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include <drm/drm_connector.h>
#include <drm/drm_crtc.h>
#include <drm/drm_device.h>
#include <drm/drm_encoder.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_atomic_helper.h>
#include <drm/drm_plane.h>
#include <drm/drm_rect.h>
#include <drm/drm_writeback.h>

#include "vflipq_compat.h"
#include "vflipq_config.h"
#include "vflipq_formats.h"
#include "vflipq_flipq.h"
#include "vflipq_tiles.h"

#define VFLIPQ_DRIVER_NAME	"vflipq"
#define VFLIPQ_DRIVER_DESC	"vflipq virtual display adapter"

/*
 * The cursor size advertised as DRM_CAP_CURSOR_WIDTH/HEIGHT (what a legacy
 * cursor client allocates).  Not a limit: the composer blends a cursor
 * plane like any other, so any size up to the framebuffer limits works.
 */
#define VFLIPQ_CURSOR_HINT	512
#define VFLIPQ_LOG_MAX_ENTRIES	65536
/* Missed vblanks a late engine interrupt still latches flips for. */
#define VFLIPQ_MAX_CATCH_UP	16
/* Frame durations a queued flip may ask for: 240 Hz down to 10 Hz. */
#define VFLIPQ_MIN_PERIOD_NS	4166667ULL
#define VFLIPQ_MAX_PERIOD_NS	100000000ULL
/* Entries of DEGAMMA_LUT and GAMMA_LUT (the legacy gamma size too). */
#define VFLIPQ_LUT_SIZE		256
/* Framebuffers: a software composer needs no minimum (kms_cursor_crc: 32x10). */
#define VFLIPQ_MIN_DIM		1
#define VFLIPQ_MAX_DIM		8192

struct vflipq_device;
struct vflipq_output;

/**
 * struct vflipq_plane - a plane of one output
 * @base: DRM plane
 * @out: the output whose CRTC is the plane's only possible CRTC
 * @fq_index: the plane's index in the output's flip queue
 */
struct vflipq_plane {
	struct drm_plane base;
	struct vflipq_output *out;
	unsigned int fq_index;
};

/**
 * struct vflipq_log - a flip-queue log, a GEM object userspace maps
 * @base: GEM object
 * @entries: vmalloc_user memory the engine writes
 * @num_entries: entries in @entries
 */
struct vflipq_log {
	struct drm_gem_object base;
	struct vfq_log_entry *entries;
	u32 num_entries;
};

/**
 * struct vflipq_plane_state - plane state with what the composer needs
 * @base: shadow plane state; its @data holds the CPU mapping of the fb,
 *	established in prepare_fb so that the composer never maps memory
 * @src: clipped source rectangle, integer pixels, framebuffer coordinates
 * @dst: clipped destination rectangle on the CRTC
 * @xform: how destination pixels walk the source (rotation/reflection)
 * @reader: row reader for the framebuffer format
 * @damage: what the commit that made this state changed in the
 *	framebuffer, framebuffer coordinates inside @src (empty: nothing,
 *	@src: everything); see vflipq_damage.c
 * @named: the commit named the plane (it was in the commit before the
 *	helpers pulled in more): the commit decides what it shows, a
 *	flip-queue image gives way (vflipq_plane_atomic_update())
 * @seq: unique, nonzero number of this state, for the composer's CRC
 *	cache (vflipq_tiles.c)
 * @prev_seq: @seq of the state this one replaced when @damage was
 *	recorded against it (0: none)
 * @tracked: the framebuffer's content changes only through commits and
 *	@damage says where: the commit carried FB_DAMAGE_CLIPS, or did not
 *	name the plane and left it as it was (then it inherits the old
 *	state's @tracked)
 */
struct vflipq_plane_state {
	struct drm_shadow_plane_state base;
	struct drm_rect src;
	struct drm_rect dst;
	struct vflipq_xform xform;
	const struct vflipq_format_ops *reader;
	struct drm_rect damage;
	bool named;
	u64 seq;
	u64 prev_seq;
	bool tracked;
};

/**
 * struct vflipq_color - colour management of one composed frame
 * @degamma: DEGAMMA_LUT entries or NULL
 * @gamma: GAMMA_LUT entries or NULL
 * @ctm: CTM coefficients, row-major, S31.32 as two's complement
 * @has_ctm: @ctm applies
 * @active: any of the three applies (else the rows are left alone)
 */
struct vflipq_color {
	const struct drm_color_lut *degamma;
	const struct drm_color_lut *gamma;
	s64 ctm[9];
	bool has_ctm;
	bool active;
};

/**
 * struct vflipq_wb_job - writeback job private data
 * @data: address of each plane's data in the writeback framebuffer's own
 *	mapping (vflipq_fb_vmap())
 * @fb: the framebuffer (reference held for the job's lifetime)
 * @writer: row writer for the framebuffer format
 * @composer: the job keeps the composer running
 * @vblank_ref: the job holds a vblank reference
 */
struct vflipq_wb_job {
	struct iosys_map data[DRM_FORMAT_MAX_PLANES];
	struct drm_framebuffer *fb;
	const struct vflipq_format_ops *writer;
	bool composer;
	bool vblank_ref;
};

/**
 * struct vflipq_crtc_state - CRTC state
 * @base: base state
 * @composer_work: composes the frame described by this state
 * @num_active_planes: number of entries in @active_planes
 * @active_planes: visible planes of this CRTC sorted by normalized zpos,
 *	bottom first: the commit's plane states and the current ones of the
 *	planes it leaves alone; built in atomic_check, so it never changes
 *	once the state is committed
 * @active_writeback: writeback job to fill on the next composition
 * @crc_pending: the vblank timer asked for a frame (with CRCs)
 * @force_compose: compose once without CRCs, to finish a writeback job
 * @wb_pending: @active_writeback waits for a composition
 * @frame_start: first vblank count covered by the pending composition
 * @frame_end: last vblank count covered by the pending composition
 * @frame_gen: &vflipq_flipq.scanout_gen at the vblank @frame_end
 * @frame_scanout: the flip-queue images at the vblank @frame_end
 *	(references), what the pending composition shows however late it runs
 * @overtaken: an async flip replaced this state while it was the
 *	composer's: its compositions give no CRC (under &vflipq_composer.lock;
 *	vflipq_composer_worker())
 * @bpc: output depth, bits per channel the sink receives and the CRC is
 *	computed at (vflipq_hdr_crtc_bpc()); set at each modeset, kept
 *	otherwise
 * @flip_target: the state is a legacy page flip's, which the commit tail
 *	applies no earlier than &drm_crtc_state.target_vblank allows
 *	(vflipq_crtc_wait_target()); set by atomic_check
 *
 * @active_writeback, @crc_pending, @force_compose, @wb_pending,
 * @frame_start, @frame_end, @frame_gen and @frame_scanout are protected by
 * &vflipq_composer.frame_lock.
 */
struct vflipq_crtc_state {
	struct drm_crtc_state base;
	struct work_struct composer_work;

	unsigned int num_active_planes;
	struct vflipq_plane_state **active_planes;
	struct vflipq_wb_job *active_writeback;

	bool crc_pending;
	bool force_compose;
	bool wb_pending;
	u64 frame_start;
	u64 frame_end;
	u64 frame_gen;
	struct vflipq_fq_buf *frame_scanout[VFQ_MAX_PLANES];
	bool overtaken;
	unsigned int bpc;
	bool flip_target;
};

/**
 * struct vflipq_engine - the display engine of one CRTC: its vblank grid
 * @timer: expires at every vblank of the grid
 * @lock: protects every other member and &vflipq_output.flipq.  Innermost
 *	lock (nothing else is taken under it, nothing sleeps); taken in hard
 *	interrupt context by the engine's timers and under the vblank core's
 *	locks; never held while calling into the vblank core
 * @running: @timer is armed or its callback will re-arm it
 * @cpu: the CPU @timer last expired on or was moved to (a hint for
 *	vflipq_engine_follow(), written under @lock, read without it)
 * @lazy: only the flip queue needs the engine, and @timer is armed for the
 *	vblank it asked for (vfq_next_wake()), possibly many frames away; the
 *	vblanks in between are handled by whoever looks at the queue first
 *	(vflipq_flipq_sync_locked())
 * @vblank_wanted: the DRM vblank core has vblank interrupts enabled
 * @active: the CRTC scans out
 * @period_ns: frame duration of the current mode
 * @phase: a vblank of the grid: where the mode set started it (its
 *	instant, or with vblank_align the last multiple of @period_ns
 *	before), or the last change of frame duration
 * @phase_seq: grid sequence number of @phase
 * @last_vblank: the last vblank of the fixed-rate grid the engine handled,
 *	which the DRM vblank counter and timestamp report while it runs; a
 *	vblank that passed is reported only once handled, by @timer or by a
 *	commit that comes first (vflipq_crtc_atomic_flush())
 * @reporting: while a catch-up tells the DRM core of the vblanks it
 *	passed one by one, the one being told (else 0)
 * @told: the latest vblank time the DRM core was given; a catch-up never
 *	tells it of an earlier one
 * @period_changed: a queued flip changed @period_ns at this vblank
 * @vrr: variable refresh is on (VRR_ENABLED): the grid's period is
 *	VFLIPQ_VRR_MAX_NS and @phase the last vblank (vflipq_vrr.c)
 * @mode: the mode being scanned out
 */
struct vflipq_engine {
	struct hrtimer timer;
	/* everything below, and the output's flip queue */
	spinlock_t lock;
	bool running;
	int cpu;
	bool lazy;
	bool vblank_wanted;
	bool active;
	u64 period_ns;
	ktime_t phase;
	u64 phase_seq;
	ktime_t last_vblank;
	ktime_t reporting;
	ktime_t told;
	bool period_changed;
	bool vrr;
	struct drm_display_mode mode;
};

/**
 * struct vflipq_output_stats - what a CRTC did, for GET_COUNTERS and debugfs
 * @timer_expirations: expirations of &vflipq_engine.timer (under its lock)
 * @vblank_irqs: vblanks reported to the DRM core (under the engine's lock)
 * @frames_composed: frames the composer produced
 */
struct vflipq_output_stats {
	u64 timer_expirations;
	u64 vblank_irqs;
	atomic64_t frames_composed;
};

/**
 * struct vflipq_composer - the software display pipe of one output: the
 * frames it composes for CRC capture and writeback
 * @wq: ordered queue for composer work of this CRTC
 * @lock: protects @state, @users and the CRTC states'
 *	&vflipq_crtc_state.overtaken against the vblank timer
 *	(interrupt-safe spinlock, taken in hard interrupt context); the
 *	vblank core's locks and then &vflipq_engine.lock nest inside it
 * @users: CRC capture plus pending writeback jobs
 * @state: CRTC state the composer uses
 * @frame_lock: protects the frame bookkeeping in &vflipq_crtc_state
 *	(interrupt-safe spinlock, taken by the engine in hard interrupt
 *	context); the engine takes it inside @lock, nothing else nests with it
 * @line_bufs: scratch rows (only used from @wq)
 * @tiles: the hash cache (only used from @wq)
 *
 * Two locks, as a display controller has two sides: @lock is the
 * composer's membership (who needs frames, of which state), @frame_lock
 * the per-vblank hand-off of one frame from the engine to the worker.
 */
struct vflipq_composer {
	struct workqueue_struct *wq;
	/* users, state vs. the vblank timer */
	spinlock_t lock;
	unsigned int users;
	struct vflipq_crtc_state *state;
	/* frame bookkeeping in vflipq_crtc_state */
	spinlock_t frame_lock;
	struct vflipq_line_bufs line_bufs;
	struct vflipq_tiles *tiles;
};

/**
 * struct vflipq_crc_source - CRC capture as set_crc_source configures it
 * @lock: mutex serialising set_crc_source (open of crc/data may overlap
 *	the release of a previous open) and @unpin; &vflipq_composer.lock and
 *	&drm_crtc_crc.lock nest inside it
 * @enabled: CRC capture is on
 * @vblank_ref: CRC capture holds a vblank reference
 * @pinned: a capture holds the DRM device and the module, until @unpin
 *	sees the core's release of crc/data done (vflipq_crc_unpin())
 * @unpin: drops @pinned
 */
struct vflipq_crc_source {
	/* set_crc_source calls */
	struct mutex lock;
	bool enabled;
	bool vblank_ref;
	bool pinned;
	struct delayed_work unpin;
};

/**
 * struct vflipq_writeback - the writeback connector of one output and its
 *	jobs (vflipq_writeback.c)
 * @connector: the DRM writeback connector, with its encoder
 * @fences: fence context of the connector's out-fences (vflipq_fence.c)
 * @jobs: jobs prepared and not yet cleaned up (atomic, no lock)
 * @idle: woken when @jobs drops to zero: the writeback core cleans a job
 *	up from a work item that touches the output, so device removal waits
 *	here first (vflipq_writeback_wait_idle())
 */
struct vflipq_writeback {
	struct drm_writeback_connector connector;
	struct vflipq_fence_ctx *fences;
	atomic_t jobs;
	wait_queue_head_t idle;
};

/**
 * struct vflipq_output - one display pipe: CRTC, encoder, connector, planes
 * @vdev: owning device
 * @index: CRTC index
 * @crtc: the CRTC
 * @encoder: virtual encoder
 * @connector: virtual connector, always connected
 * @wb: the writeback connector and its jobs, if the device has writeback
 * @primary: primary plane
 * @cursor: cursor plane or NULL
 * @overlays: overlay planes
 * @engine: the display engine (vblank grid, timer, VRR)
 * @composer: the composer (CRC capture and writeback frames)
 * @crc: CRC capture's configuration
 * @cursor_seq: the position of the cursor plane's current state
 *	(&vflipq_plane_state src, dst, xform, damage, seq, prev_seq, tracked
 *	and the DRM state's crtc_x, crtc_y, src, dst), which a legacy cursor
 *	update rewrites in place (vflipq_plane_atomic_async_update(), under
 *	the plane's modeset lock) while the composer may read it: the
 *	composer reads those fields of every plane state in a read section.
 *	Never held together with another lock
 * @flipq: the flip queue (its members under &vflipq_engine.lock)
 * @stats: counters
 * @crtc_fences: fence context of the CRTC's out-fences (vflipq_fence.c)
 * @page_flip: a legacy page flip is being checked and committed
 *	(vflipq_crtc_page_flip_target(), under the CRTC's modeset lock, which
 *	any commit's check of the CRTC needs as well)
 */
struct vflipq_output {
	struct vflipq_device *vdev;
	unsigned int index;
	struct drm_crtc crtc;
	struct drm_encoder encoder;
	struct drm_connector connector;
	struct vflipq_writeback wb;
	struct drm_plane *primary;
	struct drm_plane *cursor;
	struct drm_plane *overlays[VFLIPQ_MAX_OVERLAYS];

	struct vflipq_engine engine;
	struct vflipq_composer composer;
	struct vflipq_crc_source crc;
	seqlock_t cursor_seq;

	struct vflipq_flipq flipq;
	struct vflipq_output_stats stats;

	struct vflipq_fence_ctx *crtc_fences;
	bool page_flip;
};

/**
 * struct vflipq_device - one virtual display adapter
 * @drm: DRM device
 * @pdev: platform device the DRM device hangs off
 * @id: device id, stable for the device's lifetime
 * @config: configuration the device was created from (immutable)
 * @fq_wq: ordered queue for flip-queue work and buffer frees
 * @fq_free: flip-queue buffers whose last reference is gone (lock-free list,
 *	added to in any context, emptied by @fq_free_work)
 * @fq_free_work: frees @fq_free's buffers in a batch (vflipq_fq_free_work())
 * @copy_wq: the copy engine: copies run one after the other
 * @copy_context: fence context of the copy engine
 * @copy_seqno: last copy fence sequence number
 * @copies: copy-engine operations completed
 * @bytes_copied: bytes written by the copy engine
 * @imported_scanouts: cross-adapter framebuffers put on screen
 * @disconnected: bit i: output i unplugged through configfs "connected"
 * @sink_bpc: the depth every virtual sink advertises (debugfs
 *	"vflipq_sink_bpc", 8 at creation; under &drm_mode_config.mutex)
 * @outputs: one per CRTC; allocated on their own, released after the
 *	mode-config cleanup, which destroys the writeback connectors in them
 */
struct vflipq_device {
	struct drm_device drm;
	struct platform_device *pdev;
	int id;
	struct vflipq_config config;
	struct workqueue_struct *fq_wq;
	struct llist_head fq_free;
	struct delayed_work fq_free_work;
	struct workqueue_struct *copy_wq;
	u64 copy_context;
	atomic64_t copy_seqno;
	atomic64_t copies;
	atomic64_t bytes_copied;
	atomic64_t imported_scanouts;
	unsigned long disconnected;
	unsigned int sink_bpc;
	struct vflipq_output *outputs[VFLIPQ_MAX_CRTCS];
};

static inline struct vflipq_device *to_vflipq_device(struct drm_device *drm)
{
	return container_of(drm, struct vflipq_device, drm);
}

static inline struct vflipq_output *crtc_to_output(struct drm_crtc *crtc)
{
	return container_of(crtc, struct vflipq_output, crtc);
}

static inline struct vflipq_output *
wb_to_output(struct drm_writeback_connector *wb)
{
	return container_of(wb, struct vflipq_output, wb.connector);
}

static inline struct vflipq_crtc_state *
to_vflipq_crtc_state(struct drm_crtc_state *state)
{
	return container_of(state, struct vflipq_crtc_state, base);
}

static inline struct vflipq_plane_state *
to_vflipq_plane_state(struct drm_plane_state *state)
{
	return container_of(state, struct vflipq_plane_state, base.base);
}

/*
 * A commit that changes what the CRTC scans out (mode, on/off): attaching
 * a writeback connector is a "mode set" to DRM but leaves scan-out alone.
 */
static inline bool vflipq_scanout_changes(const struct drm_crtc_state *state)
{
	return state->mode_changed || state->active_changed;
}

/* vflipq_drv.c */
struct vflipq_device *vflipq_device_create(const struct vflipq_config *cfg);
void vflipq_device_destroy(struct vflipq_device *vdev);
int vflipq_device_minor(struct vflipq_device *vdev);
void vflipq_module_put_deferred(void);

/* vflipq_configfs.c */
int vflipq_configfs_register(void);
void vflipq_configfs_unregister(void);

/* vflipq_output.c */
int vflipq_output_init(struct vflipq_device *vdev, unsigned int index);
void vflipq_output_set_connected(struct vflipq_device *vdev, u32 mask);
void vflipq_output_probe_all(struct vflipq_device *vdev);
void vflipq_output_route_all(struct vflipq_device *vdev);

/* vflipq_async.c */
struct drm_crtc *vflipq_async_commit_crtc(struct drm_atomic_state *old_state);
bool vflipq_async_defer_put(struct drm_atomic_state *old_state,
			    struct drm_crtc *crtc);

/* vflipq_vrr.c */
#define VFLIPQ_VRR_MAX_NS	VFLIPQ_MAX_PERIOD_NS
u64 vflipq_vrr_grid_period(const struct vflipq_output *out);
u64 vflipq_vrr_frame_at(const struct vflipq_output *out, ktime_t t);
void vflipq_vrr_vblank(struct vflipq_output *out, ktime_t t);
u32 vflipq_vrr_get_vblank_counter(struct drm_crtc *crtc);
void vflipq_vrr_commit(struct vflipq_output *out,
		       const struct drm_crtc_state *state);
int vflipq_vrr_init_connector(struct drm_connector *connector);
void vflipq_vrr_set_range(struct drm_connector *connector, int max_hz);
void vflipq_vrr_init_crtc(struct drm_crtc *crtc);

/* vflipq_crtc.c */
int vflipq_crtc_init(struct vflipq_output *out);
ktime_t vflipq_grid_floor(const struct vflipq_output *out, ktime_t t);
ktime_t vflipq_engine_last_vblank(const struct vflipq_output *out);
void vflipq_crtc_finish_writeback(struct drm_crtc_state *old);
void vflipq_crtc_wait_target(const struct drm_crtc_state *state);
void vflipq_engine_update(struct vflipq_output *out);
void vflipq_engine_follow(struct vflipq_output *out);
void vflipq_engine_follow_locked(struct vflipq_output *out);
void vflipq_engine_kick_locked(struct vflipq_output *out);
const char *const *vflipq_get_crc_sources(struct drm_crtc *crtc,
					  size_t *count);
int vflipq_set_crc_source(struct drm_crtc *crtc, const char *src_name);
int vflipq_verify_crc_source(struct drm_crtc *crtc, const char *src_name,
			     size_t *values_cnt);

/* vflipq_plane.c */
struct drm_plane *vflipq_plane_init(struct vflipq_output *out,
				    enum drm_plane_type type,
				    unsigned int overlay_index);
struct drm_plane_state *vflipq_plane_state_seen(struct drm_atomic_state *state,
						struct drm_plane *plane);

/* vflipq_composer.c */
void vflipq_composer_worker(struct work_struct *work);
bool vflipq_composer_get(struct vflipq_output *out);
void vflipq_composer_put(struct vflipq_output *out, bool vblank_ref);

/* vflipq_color.c */
int vflipq_color_check(struct drm_crtc_state *st);
void vflipq_color_init(struct vflipq_color *cm,
		       const struct drm_crtc_state *st);
void vflipq_color_apply_row(const struct vflipq_color *cm,
			    struct vflipq_px *row, unsigned int n);
int vflipq_color_init_crtc(struct drm_crtc *crtc);

/* vflipq_damage.c */
int vflipq_damage_check(const struct drm_plane_state *new);
void vflipq_damage_record(const struct drm_plane_state *old,
			  struct vflipq_plane_state *vnew);
void vflipq_damage_full(struct vflipq_plane_state *vstate);
u64 vflipq_damage_next_seq(void);
void vflipq_damage_print(struct drm_printer *p,
			 const struct vflipq_plane_state *vstate);
void vflipq_damage_init_plane(struct drm_plane *plane);

/* vflipq_hdr.c */
int vflipq_hdr_check(struct drm_connector_state *conn_state);
int vflipq_hdr_init_connector(struct drm_connector *connector);
void vflipq_hdr_connector_reset(struct drm_connector *connector);
unsigned int vflipq_hdr_crtc_bpc(struct drm_atomic_state *state,
				 struct drm_crtc *crtc);
void vflipq_hdr_set_sink_bpc(struct drm_connector *connector);
void vflipq_hdr_debugfs_init(struct drm_minor *minor);

/* vflipq_writeback.c */
int vflipq_writeback_init(struct vflipq_output *out);
void vflipq_writeback_wait_idle(struct vflipq_output *out);

/* vflipq_ioctl.c */
int vflipq_ioctl_get_caps(struct drm_device *drm, void *data,
			  struct drm_file *file);
int vflipq_ioctl_get_counters(struct drm_device *drm, void *data,
			      struct drm_file *file);

/* vflipq_fb.c */
struct drm_framebuffer *vflipq_gem_fb_create(struct drm_device *drm,
					     struct drm_file *file,
					     const struct drm_format_info *info,
					     const struct drm_mode_fb_cmd2 *cmd);
int vflipq_fb_vmap(struct drm_framebuffer *fb, struct iosys_map *data);

/* vflipq_caso.c */
bool vflipq_fb_is_cross_adapter(const struct drm_framebuffer *fb);
bool vflipq_fb_owned_by(struct drm_framebuffer *fb, struct drm_file *file);
/* vflipq_fb_create(): declared in vflipq_compat.h (its prototype is 7.x's) */
int vflipq_caso_check_scanout(struct vflipq_device *vdev,
			      const struct drm_framebuffer *fb);
int vflipq_caso_check_bandwidth(struct drm_device *drm,
				struct drm_atomic_state *state);
int vflipq_ioctl_scanout_query(struct drm_device *drm, void *data,
			       struct drm_file *file);

/* vflipq_copy.c */
int vflipq_ioctl_copy(struct drm_device *drm, void *data,
		      struct drm_file *file);

/* vflipq_log.c */
struct vflipq_log *vflipq_log_create(struct drm_device *drm, u32 num_entries);

#endif /* _VFLIPQ_DRV_H_ */
