/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hardware flip queue of one output, the DRM side: the scheduling core
 * (vflipq_fq_core.h) plus what the driver keeps around it: the images the
 * queue put on screen, the interrupts waiting to become events, the logs,
 * the owner.  The functions are in vflipq_flipq.c, the ioctls in
 * vflipq_flipq_submit.c (submissions) and vflipq_flipq_ioctl.c.
 */
#ifndef _VFLIPQ_FLIPQ_H_
#define _VFLIPQ_FLIPQ_H_

#include <linux/hrtimer.h>
#include <linux/iosys-map.h>
#include <linux/kref.h>
#include <linux/seq_file.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include <drm/drm_fourcc.h>
#include <drm/drm_rect.h>

#include "vflipq_formats.h"
#include "vflipq_fq_core.h"

/* Interrupts that may wait for the worker; more are counted and dropped. */
#define VFLIPQ_FQ_EVENTS	64

struct drm_device;
struct drm_file;
struct drm_framebuffer;
struct drm_plane;
struct vflipq_device;
struct vflipq_log;
struct vflipq_output;
struct vflipq_plane;

/**
 * struct vflipq_fq_buf - a framebuffer handed to the flip queue
 * @ref: held by the queue, the scan-out record, a pending state sync, a
 *	pending composition and the composer while it reads; the last put
 *	hands it to the device's batched free (vflipq_fq_free_work())
 * @free_node: on &vflipq_device.fq_free once the last reference is gone
 * @vdev: device (its workqueue drops the framebuffer)
 * @fb: the framebuffer (one reference)
 * @data: address of each plane's data in @fb's own mapping
 *	(vflipq_fb_vmap())
 * @src: clipped source, integer pixels
 * @dst: clipped destination on the CRTC
 * @xform: source walk
 * @reader: row reader of the format
 * @crtc_x: KMS geometry the flip shows, for the plane state once synced
 * @crtc_y: see @crtc_x
 * @crtc_w: see @crtc_x
 * @crtc_h: see @crtc_x
 * @src_x: see @crtc_x (16.16)
 * @src_y: see @crtc_x
 * @src_w: see @crtc_x
 * @src_h: see @crtc_x
 * @rotation: see @crtc_x
 *
 * Immutable once queued, apart from @ref.
 */
struct vflipq_fq_buf {
	struct kref ref;
	struct llist_node free_node;
	struct vflipq_device *vdev;
	struct drm_framebuffer *fb;
	struct iosys_map data[DRM_FORMAT_MAX_PLANES];
	struct drm_rect src;
	struct drm_rect dst;
	struct vflipq_xform xform;
	const struct vflipq_format_ops *reader;
	s32 crtc_x, crtc_y;
	u32 crtc_w, crtc_h;
	u32 src_x, src_y, src_w, src_h;
	unsigned int rotation;
};

/**
 * struct vflipq_fq_event - a flip-queue interrupt waiting to become an event
 * @plane: flip-queue plane index
 * @first_free: first free log index at the interrupt
 * @present_id: PresentId on screen at the interrupt
 * @seq: vblank sequence number
 * @ts: vblank time, CLOCK_MONOTONIC ns
 */
struct vflipq_fq_event {
	u32 plane;
	u32 first_free;
	u64 present_id;
	u64 seq;
	u64 ts;
};

/**
 * struct vflipq_flipq - the flip queue of one output
 * @core: the scheduling core: queued flips, logs, interrupt targets, power
 * @imm_timer: fires at the target of the next tearing flip
 * @planes: flip-queue index to plane (immutable after init)
 * @scanout: the image the queue put on each plane, the queue's own record
 *	of what is on screen; overrides the committed plane state, which it
 *	never changes, until a commit decides what the plane shows
 *	(vflipq_flipq_plane_taken())
 * @scanout_gen: counts the changes of @scanout: the frames of one pending
 *	composition all show the same images
 * @log_read_gen: @scanout_gen when a client last asked FLIPQ_UPDATE_LOG
 *	how far the logs are: images replaced before it may have been
 *	redrawn by their owner (vflipq_composer.c drops such CRCs)
 * @events: interrupts not yet delivered, oldest first
 * @nevents: entries in @events
 * @events_dropped: interrupts lost to a full @events
 * @owner: file that owns what is queued (NULL: nobody)
 * @logs: log of each plane (references)
 * @work: delivers the @events that the raiser could not send (an atomic
 *	allocation failed; vflipq_flipq_send_events())
 *
 * Locking: everything but the immutable members is protected by
 * &vflipq_engine.lock, the lock of the display engine whose vblank
 * runs the queue (hard interrupt context: the engine timer and
 * @imm_timer take it with spin_lock(), everybody else with
 * spin_lock_irq[save]()).  The ioctls hold the CRTC's modeset lock around
 * it, which serialises them against commits on the CRTC; @logs changes
 * only with both held.  Events are queued on @owner's file under
 * &drm_device.event_lock and engine.lock.  Order: modeset locks ->
 * event_lock -> engine.lock.
 */
struct vflipq_flipq {
	struct vfq_crtc core;
	struct hrtimer imm_timer;
	struct drm_plane *planes[VFQ_MAX_PLANES];
	struct vflipq_fq_buf *scanout[VFQ_MAX_PLANES];
	u64 scanout_gen;
	u64 log_read_gen;
	struct vflipq_fq_event events[VFLIPQ_FQ_EVENTS];
	unsigned int nevents;
	u64 events_dropped;
	struct drm_file *owner;
	struct vflipq_log *logs[VFQ_MAX_PLANES];
	struct work_struct work;
};

/* vflipq_flipq.c */
int vflipq_flipq_init(struct vflipq_output *out);
bool vflipq_flipq_tick(struct vflipq_output *out, ktime_t vblank_ts);
bool vflipq_flipq_catch_up(struct vflipq_output *out, u64 now_ns);
u64 vflipq_flipq_wake(struct vflipq_output *out);
void vflipq_flipq_sync_locked(struct vflipq_output *out);
void vflipq_flipq_send_events(struct vflipq_output *out);
bool vflipq_flipq_needed(struct vflipq_output *out);
u64 vflipq_flipq_snapshot_locked(struct vflipq_output *out,
				 struct vflipq_fq_buf **snap);
u64 vflipq_flipq_snap_period(struct vflipq_output *out, u64 duration_ns);
void vflipq_flipq_debugfs_show(struct seq_file *m, struct vflipq_output *out);
void vflipq_flipq_mode_set(struct vflipq_output *out);
void vflipq_flipq_stop(struct vflipq_output *out);
void vflipq_flipq_drain(struct vflipq_output *out);
bool vflipq_flipq_plane_busy(struct vflipq_plane *vplane);
void vflipq_flipq_plane_taken(struct vflipq_plane *vplane);
struct vflipq_fq_buf *vflipq_flipq_scanout_get(struct vflipq_output *out,
					       unsigned int fq_index);
void vflipq_fq_free_work(struct work_struct *work);
void vflipq_fq_free_flush(struct vflipq_device *vdev);
void vflipq_fq_buf_put(struct vflipq_fq_buf *buf);
void vflipq_fq_buf_init(struct vflipq_fq_buf *buf, struct vflipq_device *vdev,
			struct drm_framebuffer *fb);
void vflipq_flipq_arm_immediate(struct vflipq_output *out);
void vflipq_flipq_file_gone(struct vflipq_device *vdev, struct drm_file *file);

/* vflipq_flipq_submit.c */
int vflipq_ioctl_flipq_submit(struct drm_device *drm, void *data,
			      struct drm_file *file);

/* vflipq_flipq_ioctl.c */
struct vflipq_output *vflipq_fq_output(struct drm_device *drm,
				       struct drm_file *file, u32 crtc_id,
				       int *err);
struct vflipq_plane *vflipq_fq_plane(struct vflipq_output *out,
				     struct drm_file *file, u32 plane_id);
int vflipq_fq_claim(struct vflipq_output *out, struct drm_file *file);
void vflipq_fq_wake_engine(struct vflipq_output *out);
int vflipq_ioctl_flipq_cancel(struct drm_device *drm, void *data,
			      struct drm_file *file);
int vflipq_ioctl_flipq_set_log(struct drm_device *drm, void *data,
			       struct drm_file *file);
int vflipq_ioctl_flipq_update_log(struct drm_device *drm, void *data,
				  struct drm_file *file);
int vflipq_flipq_set_irq_target(struct vflipq_output *out,
				struct drm_file *file,
				struct vflipq_plane *vplane, u64 target);

#endif /* _VFLIPQ_FLIPQ_H_ */
