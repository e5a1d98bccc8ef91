/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hardware flip queue as a scheduling core: what the display engine
 * does with queued flips at each vblank, cancel, the log and interrupt
 * targets.  No DRM, no locking and no allocation in here: the caller
 * serialises every call (the driver holds a spinlock, the KUnit suite runs
 * single-threaded against a simulated clock).
 */
#ifndef _VFLIPQ_FQ_CORE_H_
#define _VFLIPQ_FQ_CORE_H_

#include <linux/bits.h>
#include <linux/types.h>

#define VFQ_MAX_DEPTH		64
#define VFQ_MAX_PLANES		10
/* live flips plus cancelled ones waiting behind a latched flip */
#define VFQ_RING		(2 * VFQ_MAX_DEPTH)

/* Log timestamp of a flip that never reached the screen. */
#define VFQ_TS_CANCELLED	(~0ULL)
/* Interrupt targets. */
#define VFQ_IRQ_EVERY_VBLANK	0ULL
#define VFQ_IRQ_NONE		(~0ULL)

enum vfq_mode {
	VFQ_MODE_ON_NEXT_VSYNC = 0,
	VFQ_MODE_IMMEDIATE = 1,
	VFQ_MODE_IMMEDIATE_NO_TEARING = 2,
};

/* Drain hints of a refused submission. */
#define VFQ_DRAIN_NEEDED	BIT(0)
#define VFQ_DRAIN_ALL_PLANES	BIT(1)
#define VFQ_DRAIN_ALL_SOURCES	BIT(2)

enum vfq_power {
	VFQ_POWER_ON,		/* timer runs, events as requested */
	VFQ_POWER_KEEP_PHASE,	/* timer runs on the grid, no events */
	VFQ_POWER_NO_PHASE,	/* timer stopped */
};

struct vfq_log_entry {
	u64 present_id;
	u64 timestamp_ns;
};

/* What the scan-out engine must be reprogrammed for; else address-only. */
struct vfq_plane_cfg {
	u32 format;
	u32 cpp;
	s32 crtc_x, crtc_y;
	u32 crtc_w, crtc_h;
	u32 src_x, src_y, src_w, src_h;
	u32 rotation;
};

/*
 * A flip is "live" until shown or cancelled.  A cancelled flip that sits
 * behind a live one (for instance one already latched for the next vblank)
 * stays in the ring as a tombstone (no buffer) until everything ahead of it
 * is resolved: the log is always in PresentId order.
 */
struct vfq_flip {
	u64 present_id;
	u64 target_ns;
	/* planes of one interlocked submission share this number */
	u64 submission;
	u32 mode;
	bool tombstone;
	/* planes of its submission: 1 needs no look at the other rings */
	u8 nplanes;
	/* new frame duration from this flip on, 0: unchanged */
	u64 duration_ns;
	void *buf;
};

struct vfq_plane {
	struct vfq_flip q[VFQ_RING];
	unsigned int head;
	/* ring entries, live plus tombstones */
	unsigned int count;
	/* live flips: what depth and the drain rules count */
	unsigned int live;
	u64 last_id;
	u64 last_target_ns;
	struct vfq_plane_cfg cfg;
	bool cfg_valid;
	u64 shown_id;
	void *shown_buf;

	struct vfq_log_entry *log;
	u32 log_len;
	u32 log_next;

	u64 irq_target;
	bool irq_armed;
};

struct vfq_stats {
	u64 ticks;		/* timer expirations: "hardware" work */
	u64 irqs;		/* ticks that raised at least one event */
	u64 events;		/* events raised, one per plane */
	u64 shown;		/* flips that reached the screen */
	u64 cancelled;		/* flips logged as cancelled */
};

/**
 * struct vfq_ops - the caller's side of the hardware
 * @show: @buf (flip @present_id) becomes the image of @plane (at @ts_ns,
 *	vblank @seq)
 * @release: the queue no longer references @buf
 * @event: raise the interrupt of @plane with its first free log index
 * @period: the frame duration becomes @period_ns from the vblank at @ts_ns
 * @logged: a log entry was written (optional, for tracing)
 * @ready: whether @buf can be shown yet (optional): a due flip that is not
 *	ready waits, and so does every flip behind it
 */
struct vfq_ops {
	void (*show)(void *ctx, unsigned int plane, void *buf, u64 present_id,
		     u64 ts_ns, u64 seq);
	void (*release)(void *ctx, unsigned int plane, void *buf);
	void (*event)(void *ctx, unsigned int plane, u64 seq, u64 ts_ns,
		      u32 first_free);
	void (*period)(void *ctx, u64 period_ns, u64 ts_ns, u64 seq);
	void (*logged)(void *ctx, unsigned int plane, u64 present_id,
		       u64 ts_ns, u32 index);
	bool (*ready)(void *ctx, unsigned int plane, void *buf);
};

struct vfq_crtc {
	const struct vfq_ops *ops;
	void *ctx;
	unsigned int depth;
	unsigned int nplanes;
	u64 period_ns;
	/* a vblank of the current grid and its sequence number */
	u64 phase_ns;
	u64 phase_seq;
	/* the last vblank vfq_vblank() or vfq_catch_up() accounted for */
	u64 handled_ns;
	u64 submissions;
	enum vfq_power power;
	u64 quiet_since_ns;
	struct vfq_stats stats;
	struct vfq_plane planes[VFQ_MAX_PLANES];
};

struct vfq_submit_plane {
	unsigned int plane;
	u64 present_id;
	u32 mode;
	struct vfq_plane_cfg cfg;
	void *buf;
};

/**
 * struct vfq_submit - one interlocked flip
 * @nplanes: entries in @p
 * @p: the planes, @nplanes of them (the caller's storage: a batch of
 *	submissions sizes it by the planes they name, not by VFQ_MAX_PLANES)
 * @target_ns: when the flip behaves as if it were submitted
 * @duration_ns: frame duration from this flip on (0: unchanged)
 * @others_pending: another CRTC of the device has pending flips (only
 *	looked at when vfq_submit_changes_cpp() says so)
 */
struct vfq_submit {
	unsigned int nplanes;
	struct vfq_submit_plane *p;
	u64 target_ns;
	u64 duration_ns;
	bool others_pending;
};

struct vfq_drain {
	u32 flags;
	u32 plane_mask;
};

struct vfq_cancel_plane {
	unsigned int plane;
	u64 requested;
	u64 cancelled;
};

void vfq_init(struct vfq_crtc *c, const struct vfq_ops *ops, void *ctx,
	      unsigned int depth, unsigned int nplanes);
void vfq_set_timing(struct vfq_crtc *c, u64 period_ns, u64 phase_ns,
		    u64 phase_seq);
u64 vfq_vblank_at_or_after(const struct vfq_crtc *c, u64 t_ns, u64 *seq);

bool vfq_submit_changes_cpp(const struct vfq_crtc *c,
			    const struct vfq_submit *s);
int vfq_submit(struct vfq_crtc *c, const struct vfq_submit *s, u64 now_ns,
	       struct vfq_drain *drain);
int vfq_cancel(struct vfq_crtc *c, struct vfq_cancel_plane *req,
	       unsigned int n, u64 now_ns);
void vfq_cancel_all(struct vfq_crtc *c);
void vfq_reset_client(struct vfq_crtc *c);

void vfq_vblank(struct vfq_crtc *c, u64 vblank_ns, u64 seq);
void vfq_catch_up(struct vfq_crtc *c, u64 now_ns);
u64 vfq_next_wake(struct vfq_crtc *c);
u64 vfq_next_immediate(struct vfq_crtc *c, u64 now_ns);
void vfq_immediate(struct vfq_crtc *c, u64 now_ns, u64 seq);

int vfq_set_log(struct vfq_crtc *c, unsigned int plane,
		struct vfq_log_entry *log, u32 len);
u32 vfq_log_first_free(const struct vfq_crtc *c, unsigned int plane);
void vfq_set_irq_target(struct vfq_crtc *c, unsigned int plane, u64 target);

void *vfq_forget_shown(struct vfq_crtc *c, unsigned int plane);
unsigned int vfq_pending(const struct vfq_crtc *c, unsigned int plane);
unsigned int vfq_pending_total(const struct vfq_crtc *c);
enum vfq_power vfq_power_update(struct vfq_crtc *c, u64 now_ns,
				bool external_need);

#endif /* _VFLIPQ_FQ_CORE_H_ */
