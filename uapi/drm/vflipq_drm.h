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

/* Version of this interface; minor grows with every compatible addition. */
#define VFLIPQ_UAPI_VERSION_MAJOR	1
#define VFLIPQ_UAPI_VERSION_MINOR	0

/*
 * Driver-private ioctl numbers, relative to DRM_COMMAND_BASE.  Numbers are
 * never reused once published.
 */
#define DRM_VFLIPQ_GET_CAPS		0x00

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

#if defined(__cplusplus)
}
#endif

#endif /* _UAPI_VFLIPQ_DRM_H_ */
