/* SPDX-License-Identifier: MIT */
/*
 * The submission ioctls of vflipq uAPI 1.x, which 2.0 retired (uapi.rst,
 * "ABI rules"): their numbers are never reused and fail with EINVAL.  The
 * tests and the fuzzer send well-formed 1.5 requests to check that they
 * stay refused; nothing else may use these.
 */
#ifndef VFLIPQ_V1_H
#define VFLIPQ_V1_H

#include <stdint.h>

#include "drm.h"

struct v1_flip_submit {			/* 0x01 FLIPQ_SUBMIT */
	uint32_t crtc_id;
	uint32_t flags;
	uint64_t target_ns;
	uint64_t duration_ns;
	uint64_t planes_ptr;
	uint32_t num_planes;
	uint32_t plane_size;
	uint32_t drain_flags;
	uint32_t drain_planes;
	uint64_t reserved[4];
};

struct v1_set_irq_target {		/* 0x05 FLIPQ_SET_IRQ_TARGET */
	uint32_t crtc_id;
	uint32_t plane_id;
	uint64_t target;
	uint32_t flags;
	uint32_t pad;
	uint64_t reserved[2];
};

struct v1_flip_submit_many {		/* 0x09 FLIPQ_SUBMIT_MANY */
	uint64_t submits_ptr;
	uint32_t num_submits;
	uint32_t submit_size;
	uint32_t num_queued;
	uint32_t flags;
	uint32_t irq_plane_id;
	uint32_t pad;
	uint64_t irq_target;
};

_Static_assert(sizeof(struct v1_flip_submit) == 80, "1.x FLIPQ_SUBMIT");
_Static_assert(sizeof(struct v1_set_irq_target) == 40,
	       "1.x FLIPQ_SET_IRQ_TARGET");
_Static_assert(sizeof(struct v1_flip_submit_many) == 40,
	       "1.x FLIPQ_SUBMIT_MANY");

#define V1_IOCTL_FLIPQ_SUBMIT \
	DRM_IOWR(DRM_COMMAND_BASE + 0x01, struct v1_flip_submit)
#define V1_IOCTL_FLIPQ_SET_IRQ_TARGET \
	DRM_IOWR(DRM_COMMAND_BASE + 0x05, struct v1_set_irq_target)
#define V1_IOCTL_FLIPQ_SUBMIT_MANY \
	DRM_IOWR(DRM_COMMAND_BASE + 0x09, struct v1_flip_submit_many)
/* 1.5's VFLIPQ_SUBMIT_MANY_IRQ_TARGET */
#define V1_SUBMIT_MANY_IRQ_TARGET	1u

#endif /* VFLIPQ_V1_H */
