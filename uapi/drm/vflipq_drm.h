/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * vflipq: virtual KMS driver with a hardware flip queue and cross-adapter
 * scan-out.  This header is the userspace contract of the driver: every
 * structure has fixed-size members, explicit padding and 64-bit alignment,
 * and new members are only ever appended (the DRM core zero-fills the tail
 * of a structure that an older userspace passes in).
 *
 * See Documentation/vflipq/uapi.rst for the semantics of every ioctl.
 */
#ifndef _UAPI_VFLIPQ_DRM_H_
#define _UAPI_VFLIPQ_DRM_H_

#include <linux/const.h>

#include "drm.h"

#if defined(__cplusplus)
extern "C" {
#endif

/*
 * Version of this interface: the minor grows with every compatible
 * addition, the major only when something is taken away (2.0 replaced the
 * three submission ioctls of 1.x by one).  See uapi.rst, "ABI rules".
 */
#define VFLIPQ_UAPI_VERSION_MAJOR	2
#define VFLIPQ_UAPI_VERSION_MINOR	0

/*
 * Driver-private ioctl numbers, relative to DRM_COMMAND_BASE.  Numbers are
 * never reused once published: 0x01, 0x05 and 0x09 were 1.x's
 * FLIPQ_SUBMIT, FLIPQ_SET_IRQ_TARGET and FLIPQ_SUBMIT_MANY, and fail with
 * -EINVAL since 2.0.
 */
#define DRM_VFLIPQ_GET_CAPS		0x00
#define DRM_VFLIPQ_FLIPQ_CANCEL		0x02
#define DRM_VFLIPQ_FLIPQ_SET_LOG	0x03
#define DRM_VFLIPQ_FLIPQ_UPDATE_LOG	0x04
#define DRM_VFLIPQ_GET_COUNTERS		0x06
#define DRM_VFLIPQ_COPY			0x07
#define DRM_VFLIPQ_SCANOUT_QUERY	0x08
#define DRM_VFLIPQ_FLIPQ_SUBMIT		0x0a

/* Capability bits reported in &drm_vflipq_get_caps.caps. */
/* The device has at least one CRTC and can scan out (display role). */
#define VFLIPQ_CAP_DISPLAY		_BITULL(0)
/* Every CRTC has a writeback connector. */
#define VFLIPQ_CAP_WRITEBACK		_BITULL(1)
/* Every CRTC has a cursor plane. */
#define VFLIPQ_CAP_CURSOR		_BITULL(2)
/* CRTC CRCs are available through debugfs (source "auto"). */
#define VFLIPQ_CAP_CRC			_BITULL(3)
/* The device was created through configfs (not the module default). */
#define VFLIPQ_CAP_CONFIGFS		_BITULL(4)
/* Hardware flip queue: @flipq_depth > 1 and the FLIPQ ioctls work. */
#define VFLIPQ_CAP_FLIP_QUEUE		_BITULL(5)
/*
 * Cross-adapter scan-out (CASO) tiers, always a superset: COPY (tier 1,
 * the copy engine moves rectangles to and from cross-adapter buffers),
 * TEXTURE (tier 2, it also converts formats and scales), SCANOUT (tier 3,
 * imported cross-adapter buffers are scanned out directly).
 */
#define VFLIPQ_CAP_CASO_COPY		_BITULL(6)
#define VFLIPQ_CAP_CASO_TEXTURE		_BITULL(7)
#define VFLIPQ_CAP_CASO_SCANOUT		_BITULL(8)
/* The display adapter of a hybrid system (implies CASO_SCANOUT). */
#define VFLIPQ_CAP_HYBRID_INTEGRATED	_BITULL(9)
/* Render-only adapter: no CRTC, a render node, buffers to share. */
#define VFLIPQ_CAP_RENDER_ONLY		_BITULL(10)
/*
 * Bits 11 to 13 told 1.x's optional submission features apart; every 2.0
 * driver has them all, and never sets these bits.
 */

/* &drm_vflipq_get_caps.caso_tier */
#define VFLIPQ_CASO_TIER_NONE		0
#define VFLIPQ_CASO_TIER_COPY		1
#define VFLIPQ_CASO_TIER_TEXTURE	2
#define VFLIPQ_CASO_TIER_SCANOUT	3

/*
 * Cross-adapter buffers: a linear dma-buf imported from another device,
 * one allocation, starting page-aligned, rows a multiple of this pitch.
 */
#define VFLIPQ_CASO_PITCH_ALIGN		128
/* The tier-3 minimum a display adapter scans out without opting out. */
#define VFLIPQ_CASO_SCANOUT_MAX_WIDTH	1920
#define VFLIPQ_CASO_SCANOUT_MAX_HEIGHT	1080

/**
 * struct drm_vflipq_get_caps - DRM_IOCTL_VFLIPQ_GET_CAPS
 *
 * Query what this device is and what it can do.  Userspace zeroes the
 * whole structure; @flags and @reserved must be zero on input or the call
 * fails with -EINVAL.  Every other member is output only.
 */
struct drm_vflipq_get_caps {
	/** @version_major: out, VFLIPQ_UAPI_VERSION_MAJOR of the driver */
	__u32 version_major;
	/** @version_minor: out, VFLIPQ_UAPI_VERSION_MINOR of the driver */
	__u32 version_minor;
	/** @caps: out, mask of VFLIPQ_CAP_* */
	__u64 caps;
	/** @num_crtcs: out, CRTCs of this device (0: render-only device) */
	__u32 num_crtcs;
	/** @num_overlays: out, overlay planes per CRTC */
	__u32 num_overlays;
	/** @flipq_depth: out, future flips per plane (1: no flip queue) */
	__u32 flipq_depth;
	/** @caso_tier: out, cross-adapter scan-out tier (0: none) */
	__u32 caso_tier;
	/** @flags: in, must be zero */
	__u32 flags;
	/** @device_id: out, stable index of this vflipq device */
	__u32 device_id;
	/** @name: out, NUL-terminated device name ("default" or configfs) */
	char name[32];
	/** @reserved: in, must be zero; out, zero */
	__u64 reserved[8];
};

#define DRM_IOCTL_VFLIPQ_GET_CAPS \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VFLIPQ_GET_CAPS, \
		 struct drm_vflipq_get_caps)

/*
 * Hardware flip queue.  All FLIPQ ioctls are for the DRM master only
 * (-EACCES otherwise); what a master queued belongs to its file and is
 * cancelled (and logged) when the file is closed or loses master.
 */

/* Flip modes, &drm_vflipq_flip_plane.mode. */
/* Shown on the first vblank at or after the target (default). */
#define VFLIPQ_FLIP_ON_NEXT_VSYNC		0
/* Shown at the target itself, mid-frame (tearing). */
#define VFLIPQ_FLIP_IMMEDIATE			1
/* Shown on the first vblank after the target, never later. */
#define VFLIPQ_FLIP_IMMEDIATE_NO_TEARING	2

/* &drm_vflipq_flip_plane.flags */
/* Use crtc_x..src_h below instead of the plane's current geometry. */
#define VFLIPQ_FLIP_PLANE_GEOMETRY		_BITUL(0)
/* Use @rotation below instead of the plane's current rotation. */
#define VFLIPQ_FLIP_PLANE_ROTATION		_BITUL(1)

/* Drain hints of a submission refused with -EAGAIN. */
/* Wait for the pending flips of the planes in @drain_planes. */
#define VFLIPQ_DRAIN_NEEDED			_BITUL(0)
/* Wait for the pending flips of every plane of the CRTC. */
#define VFLIPQ_DRAIN_ALL_PLANES			_BITUL(1)
/* Wait for the pending flips of every CRTC of the device. */
#define VFLIPQ_DRAIN_ALL_SOURCES		_BITUL(2)

/* Log timestamp of a flip that never reached the screen. */
#define VFLIPQ_TIMESTAMP_CANCELLED		(~0ULL)
/* Interrupt targets. */
#define VFLIPQ_IRQ_TARGET_EVERY_VBLANK		0ULL
#define VFLIPQ_IRQ_TARGET_NONE			(~0ULL)

/**
 * struct drm_vflipq_flip_plane - one plane of a queued flip
 *
 * The plane must already be enabled on the CRTC by an ordinary atomic
 * commit; a queued flip changes what it shows (and, with
 * VFLIPQ_FLIP_PLANE_GEOMETRY, where; with VFLIPQ_FLIP_PLANE_ROTATION, how
 * it is turned).
 */
struct drm_vflipq_flip_plane {
	/** @plane_id: KMS plane object id, a plane of the CRTC */
	__u32 plane_id;
	/** @fb_id: framebuffer to show */
	__u32 fb_id;
	/** @present_id: strictly increasing per plane, never 0 */
	__u64 present_id;
	/** @mode: VFLIPQ_FLIP_ON_NEXT_VSYNC, _IMMEDIATE, _IMMEDIATE_NO_TEARING */
	__u32 mode;
	/** @flags: VFLIPQ_FLIP_PLANE_* */
	__u32 flags;
	/** @crtc_x: destination, as the KMS CRTC_X property */
	__s32 crtc_x;
	/** @crtc_y: destination, as the KMS CRTC_Y property */
	__s32 crtc_y;
	/** @crtc_w: destination width */
	__u32 crtc_w;
	/** @crtc_h: destination height */
	__u32 crtc_h;
	/** @src_x: source, 16.16 fixed point, as the KMS SRC_X property */
	__u32 src_x;
	/** @src_y: source, 16.16 fixed point */
	__u32 src_y;
	/** @src_w: source width, 16.16 fixed point */
	__u32 src_w;
	/** @src_h: source height, 16.16 fixed point */
	__u32 src_h;
	/**
	 * @rotation: with VFLIPQ_FLIP_PLANE_ROTATION, DRM_MODE_ROTATE_* (one)
	 * | DRM_MODE_REFLECT_*, as the KMS "rotation" property; else zero
	 */
	__u32 rotation;
	/** @pad: must be zero */
	__u32 pad;
};

/*
 * The latest &drm_vflipq_flip.target_ns: the vblank at or after it, and the
 * timer that fires there, stay within a signed 64-bit CLOCK_MONOTONIC
 * time (two of the longest frames, 2 * 100000000 ns, below 2^63 - 1).
 */
#define VFLIPQ_TARGET_NS_MAX	(0x7fffffffffffffffULL - 200000000ULL)

/**
 * struct drm_vflipq_flip - one flip of DRM_IOCTL_VFLIPQ_FLIPQ_SUBMIT
 *
 * An interlocked flip: every plane listed becomes visible on the same
 * vblank, the first at or after @target_ns (VFLIPQ_FLIP_ON_NEXT_VSYNC).
 */
struct drm_vflipq_flip {
	/**
	 * @target_ns: CLOCK_MONOTONIC time the flip behaves as submitted at,
	 * at most VFLIPQ_TARGET_NS_MAX
	 */
	__u64 target_ns;
	/**
	 * @duration_ns: 0, or the frame duration of the CRTC from the vblank
	 * this flip is shown at (4166667 to 100000000 ns, rounded to whole
	 * scan lines as variable-refresh hardware stretches its frame)
	 */
	__u64 duration_ns;
	/**
	 * @planes_ptr: user pointer to @num_planes drm_vflipq_flip_plane,
	 * &drm_vflipq_flipq_submit.plane_size bytes apart
	 */
	__u64 planes_ptr;
	/** @num_planes: 1 to the number of planes of the CRTC */
	__u32 num_planes;
	/** @flags: must be zero */
	__u32 flags;
	/** @drain_flags: out, VFLIPQ_DRAIN_* when this flip was refused */
	__u32 drain_flags;
	/** @drain_planes: out, mask of indices into @planes_ptr to drain */
	__u32 drain_planes;
	/** @reserved: must be zero */
	__u64 reserved[2];
};

/*
 * &drm_vflipq_flipq_submit.flags: set the interrupt target of plane
 * @irq_plane_id to @irq_target in the same step as the last flip is queued.
 */
#define VFLIPQ_SUBMIT_IRQ_TARGET		_BITUL(0)

/**
 * struct drm_vflipq_flipq_submit - DRM_IOCTL_VFLIPQ_FLIPQ_SUBMIT
 *
 * Queue flips of one CRTC, one or many, and optionally set a plane's
 * interrupt target.  Every flip is read and checked first (-EINVAL,
 * -EFAULT: nothing queued); then they are queued in order until one is
 * refused: -EAGAIN with that flip's @drain_flags and @drain_planes written
 * back when it cannot be queued behind pending ones, -EBUSY when the CRTC
 * is off, -EOPNOTSUPP without a flip queue.  @num_queued says how many
 * flips, from the first, are queued, whatever the result (but -EACCES and
 * -ENODEV, which the DRM core returns before the driver sees the call: the
 * structure comes back as it was given).  Framebuffers must belong to the
 * calling file.
 *
 * With VFLIPQ_SUBMIT_IRQ_TARGET the target is set in the same step as the
 * last flip is queued (no vblank can show that flip before), and only when
 * all were; with @num_flips 0 it is set at once.  Without the flag,
 * @num_flips must be 1 to 64 and the irq members zero.
 *
 * libdrm's drmIoctl() repeats a call that fails with EAGAIN until it
 * succeeds: issue this one with ioctl(2) to see the drain hints.
 */
struct drm_vflipq_flipq_submit {
	/** @crtc_id: KMS CRTC object id */
	__u32 crtc_id;
	/** @flags: 0 or VFLIPQ_SUBMIT_IRQ_TARGET */
	__u32 flags;
	/** @flips_ptr: user pointer to @num_flips drm_vflipq_flip */
	__u64 flips_ptr;
	/** @num_flips: 0 to 64 (0 only with VFLIPQ_SUBMIT_IRQ_TARGET) */
	__u32 num_flips;
	/**
	 * @flip_size: sizeof(struct drm_vflipq_flip) of the caller, at least
	 * 56 (2.0); bytes beyond the driver's structure must be zero
	 */
	__u32 flip_size;
	/**
	 * @plane_size: sizeof(struct drm_vflipq_flip_plane) of the caller, at
	 * least 64 (2.0); bytes beyond the driver's structure must be zero
	 */
	__u32 plane_size;
	/** @num_queued: out, flips queued, from the first; zero on input */
	__u32 num_queued;
	/**
	 * @irq_plane_id: with VFLIPQ_SUBMIT_IRQ_TARGET, a plane of the CRTC
	 * (not necessarily one the flips name); else zero
	 */
	__u32 irq_plane_id;
	/** @pad: must be zero */
	__u32 pad;
	/**
	 * @irq_target: with VFLIPQ_SUBMIT_IRQ_TARGET,
	 * VFLIPQ_IRQ_TARGET_EVERY_VBLANK, VFLIPQ_IRQ_TARGET_NONE, or one
	 * event when a flip with a PresentId >= @irq_target reaches the
	 * screen; else zero
	 */
	__u64 irq_target;
	/** @reserved: must be zero */
	__u64 reserved[2];
};

/** struct drm_vflipq_cancel_plane - one plane of a cancel request */
struct drm_vflipq_cancel_plane {
	/** @plane_id: KMS plane object id */
	__u32 plane_id;
	/** @pad: must be zero */
	__u32 pad;
	/** @present_id_cancel_requested: cancel from here to the last one */
	__u64 present_id_cancel_requested;
	/** @present_id_cancelled: out, first PresentId cancelled, 0: none */
	__u64 present_id_cancelled;
};

/**
 * struct drm_vflipq_flip_cancel - DRM_IOCTL_VFLIPQ_FLIPQ_CANCEL
 *
 * Flips already due are latched for the next vblank and complete; the
 * cancelled range is contiguous and ends at the last submitted flip.
 * -EINVAL if the request would split an interlocked flip.
 */
struct drm_vflipq_flip_cancel {
	/** @crtc_id: KMS CRTC object id */
	__u32 crtc_id;
	/** @num_planes: entries at @planes_ptr */
	__u32 num_planes;
	/** @planes_ptr: user pointer to drm_vflipq_cancel_plane entries */
	__u64 planes_ptr;
	/** @plane_size: sizeof(struct drm_vflipq_cancel_plane) of the caller */
	__u32 plane_size;
	/** @flags: must be zero */
	__u32 flags;
	/** @reserved: must be zero */
	__u64 reserved[2];
};

/** struct drm_vflipq_log_entry - one entry of a flip-queue log */
struct drm_vflipq_log_entry {
	/** @present_id: the flip */
	__u64 present_id;
	/** @timestamp_ns: when it reached the screen, or CANCELLED */
	__u64 timestamp_ns;
};

/**
 * struct drm_vflipq_set_log - DRM_IOCTL_VFLIPQ_FLIPQ_SET_LOG
 *
 * Give a plane a circular log of @num_entries entries (1 to 65536), or drop
 * it (@num_entries 0).  The driver allocates the log as a GEM object and
 * returns a handle for this file: map it with DRM_IOCTL_MODE_MAP_DUMB and
 * mmap.  -EBUSY while flips are pending on the plane.
 */
struct drm_vflipq_set_log {
	/** @crtc_id: KMS CRTC object id */
	__u32 crtc_id;
	/** @plane_id: KMS plane object id */
	__u32 plane_id;
	/** @num_entries: entries, 0 drops the log */
	__u32 num_entries;
	/** @flags: must be zero */
	__u32 flags;
	/** @handle: out, GEM handle of the log */
	__u32 handle;
	/** @pad: must be zero */
	__u32 pad;
	/** @size: out, bytes of the GEM object */
	__u64 size;
	/** @reserved: must be zero */
	__u64 reserved[2];
};

/**
 * struct drm_vflipq_update_log - DRM_IOCTL_VFLIPQ_FLIPQ_UPDATE_LOG
 *
 * Bring the log up to date without waiting for an event.
 */
struct drm_vflipq_update_log {
	/** @crtc_id: KMS CRTC object id */
	__u32 crtc_id;
	/** @plane_id: KMS plane object id */
	__u32 plane_id;
	/** @first_free: out, index of the next entry to be written */
	__u32 first_free;
	/** @flags: must be zero */
	__u32 flags;
	/** @present_id_shown: out, PresentId on screen (0: none queued yet) */
	__u64 present_id_shown;
	/** @reserved: must be zero */
	__u64 reserved[2];
};

/* Event read from the DRM fd, &drm_event.type. */
#define DRM_VFLIPQ_EVENT_FLIPQ			0x80000001

/** struct drm_vflipq_event_flipq - a flip-queue interrupt */
struct drm_vflipq_event_flipq {
	/** @base: type DRM_VFLIPQ_EVENT_FLIPQ */
	struct drm_event base;
	/** @crtc_id: KMS CRTC object id */
	__u32 crtc_id;
	/** @plane_id: KMS plane object id */
	__u32 plane_id;
	/** @first_free: index of the next log entry to be written */
	__u32 first_free;
	/** @pad: zero */
	__u32 pad;
	/** @present_id: PresentId on screen */
	__u64 present_id;
	/** @sequence: vblank sequence of the event */
	__u64 sequence;
	/** @timestamp_ns: CLOCK_MONOTONIC time of that vblank */
	__u64 timestamp_ns;
};

/**
 * struct drm_vflipq_get_counters - DRM_IOCTL_VFLIPQ_GET_COUNTERS
 *
 * Work counters of one CRTC since the device was created, and device-wide
 * ones.  @crtc_id 0 asks for the device-wide ones only (the per-CRTC
 * members read 0); render-only adapters accept only 0.
 */
struct drm_vflipq_get_counters {
	/** @crtc_id: KMS CRTC object id */
	__u32 crtc_id;
	/** @flags: must be zero */
	__u32 flags;
	/** @timer_expirations: out, display-engine timer expirations */
	__u64 timer_expirations;
	/** @vblank_irqs: out, vblanks reported to the DRM vblank core */
	__u64 vblank_irqs;
	/** @flipq_irqs: out, expirations that raised flip-queue events */
	__u64 flipq_irqs;
	/** @flipq_events: out, flip-queue events raised */
	__u64 flipq_events;
	/** @flips_shown: out, queued flips that reached the screen */
	__u64 flips_shown;
	/** @flips_cancelled: out, queued flips logged cancelled */
	__u64 flips_cancelled;
	/** @frames_composed: out, frames the composer produced */
	__u64 frames_composed;
	/** @copies: out, device-wide: copy-engine operations completed */
	__u64 copies;
	/** @bytes_copied: out, device-wide: bytes the copy engine wrote */
	__u64 bytes_copied;
	/**
	 * @imported_scanouts: out, device-wide: imported framebuffers put on
	 * screen (by commits and queued flips)
	 */
	__u64 imported_scanouts;
	/**
	 * @flipq_events_dropped: out, flip-queue interrupts lost because
	 * more than 64 were raised before the driver's worker delivered them
	 */
	__u64 flipq_events_dropped;
	/** @reserved: must be zero; out, zero */
	__u64 reserved[4];
};

/**
 * struct drm_vflipq_rect - a rectangle in framebuffer pixels
 */
struct drm_vflipq_rect {
	/** @x: left */
	__u32 x;
	/** @y: top */
	__u32 y;
	/** @w: width */
	__u32 w;
	/** @h: height */
	__u32 h;
};

/**
 * struct drm_vflipq_copy - DRM_IOCTL_VFLIPQ_COPY
 *
 * The display adapter's copy engine: copy @src_rect of framebuffer @src_fb
 * into @dst_rect of @dst_fb, asynchronously.  The copy starts once the
 * source's implicit write fences (and the destination's fences) signal;
 * its completion is a fence returned as a sync_file in @out_fence_fd and
 * also attached to the destination as an implicit write fence, so a
 * commit scanning the destination out waits for it.
 *
 * Equal sizes and formats need CASO tier 1; a format conversion or a
 * stretch (point sampled) needs tier 2.  -EOPNOTSUPP below that, -EINVAL
 * for bad rectangles (outside the framebuffer, empty) or flags.
 */
struct drm_vflipq_copy {
	/** @src_fb: framebuffer to read, owned by the caller */
	__u32 src_fb;
	/** @dst_fb: framebuffer to write, owned by the caller */
	__u32 dst_fb;
	/** @src_rect: source rectangle */
	struct drm_vflipq_rect src_rect;
	/** @dst_rect: destination rectangle */
	struct drm_vflipq_rect dst_rect;
	/** @flags: must be zero */
	__u32 flags;
	/** @out_fence_fd: out, sync_file signalled when the copy is done */
	__s32 out_fence_fd;
	/** @reserved: must be zero */
	__u64 reserved[2];
};

/* &drm_vflipq_scanout_query.flags */
/* The buffer is a cross-adapter buffer (imported from another device). */
#define VFLIPQ_SCANOUT_CROSS_ADAPTER	_BITUL(0)
/* The swap chain's primary (not an optional buffer). */
#define VFLIPQ_SCANOUT_PRIMARY		_BITUL(1)

/* &drm_vflipq_scanout_query.result */
#define VFLIPQ_SCANOUT_OK		0
#define VFLIPQ_SCANOUT_NO_SCANOUT	1

/* &drm_vflipq_scanout_query.reasons when the answer is NO_SCANOUT */
#define VFLIPQ_NO_SCANOUT_TIER		_BITUL(0)	/* tier below 3 */
#define VFLIPQ_NO_SCANOUT_MSAA		_BITUL(1)	/* samples > 1 */
#define VFLIPQ_NO_SCANOUT_ROTATION	_BITUL(2)	/* planes cannot */
#define VFLIPQ_NO_SCANOUT_FORMAT	_BITUL(3)	/* no plane has it */
#define VFLIPQ_NO_SCANOUT_SIZE		_BITUL(4)	/* beyond the planes */
#define VFLIPQ_NO_SCANOUT_BEYOND_MIN	_BITUL(5)	/* driver opt-out */
#define VFLIPQ_NO_SCANOUT_MODIFIER	_BITUL(6)	/* not linear */
#define VFLIPQ_NO_SCANOUT_NO_DISPLAY	_BITUL(7)	/* render-only */

/**
 * struct drm_vflipq_scanout_query - DRM_IOCTL_VFLIPQ_SCANOUT_QUERY
 *
 * Would this device scan a buffer like this out?  The answer to the
 * pfnCreateResource NO_SCANOUT question: VFLIPQ_SCANOUT_NO_SCANOUT with
 * @reasons is a normal answer (0 returned), not an error.  It depends only
 * on the device and the description, never on current state.
 */
struct drm_vflipq_scanout_query {
	/** @width: pixels */
	__u32 width;
	/** @height: pixels */
	__u32 height;
	/** @format: DRM fourcc */
	__u32 format;
	/** @rotation: DRM_MODE_ROTATE_* | DRM_MODE_REFLECT_* (0: ROTATE_0) */
	__u32 rotation;
	/** @modifier: DRM format modifier */
	__u64 modifier;
	/** @samples: 1 (or 0) for single-sampled */
	__u32 samples;
	/** @flags: VFLIPQ_SCANOUT_CROSS_ADAPTER | VFLIPQ_SCANOUT_PRIMARY */
	__u32 flags;
	/** @result: out, VFLIPQ_SCANOUT_OK or VFLIPQ_SCANOUT_NO_SCANOUT */
	__u32 result;
	/** @reasons: out, VFLIPQ_NO_SCANOUT_* */
	__u32 reasons;
	/** @reserved: must be zero */
	__u64 reserved[2];
};

#define DRM_IOCTL_VFLIPQ_FLIPQ_CANCEL \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VFLIPQ_FLIPQ_CANCEL, \
		 struct drm_vflipq_flip_cancel)
#define DRM_IOCTL_VFLIPQ_FLIPQ_SET_LOG \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VFLIPQ_FLIPQ_SET_LOG, \
		 struct drm_vflipq_set_log)
#define DRM_IOCTL_VFLIPQ_FLIPQ_UPDATE_LOG \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VFLIPQ_FLIPQ_UPDATE_LOG, \
		 struct drm_vflipq_update_log)
#define DRM_IOCTL_VFLIPQ_GET_COUNTERS \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VFLIPQ_GET_COUNTERS, \
		 struct drm_vflipq_get_counters)
#define DRM_IOCTL_VFLIPQ_COPY \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VFLIPQ_COPY, struct drm_vflipq_copy)
#define DRM_IOCTL_VFLIPQ_SCANOUT_QUERY \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VFLIPQ_SCANOUT_QUERY, \
		 struct drm_vflipq_scanout_query)
#define DRM_IOCTL_VFLIPQ_FLIPQ_SUBMIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VFLIPQ_FLIPQ_SUBMIT, \
		 struct drm_vflipq_flipq_submit)

#if defined(__cplusplus)
}
#endif

#endif /* _UAPI_VFLIPQ_DRM_H_ */
