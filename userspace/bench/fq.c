// SPDX-License-Identifier: MIT
/*
 * The flip-queue ioctls as the benchmarks use them: one plane per call,
 * every uAPI struct zero-initialised (members may be appended later).
 * FLIPQ_SUBMIT goes through ioctl(2): drmIoctl() loops on EAGAIN, which
 * here means "queue full" and is the caller's to handle.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include "bench.h"

int fq_submit_plane(int fd, uint32_t crtc, uint32_t plane, uint32_t fb,
		    uint64_t id, uint64_t target_ns)
{
	struct drm_vflipq_flip_plane p;
	struct drm_vflipq_flip_submit s;

	memset(&p, 0, sizeof(p));
	memset(&s, 0, sizeof(s));
	p.plane_id = plane;
	p.fb_id = fb;
	p.present_id = id;
	p.mode = VFLIPQ_FLIP_ON_NEXT_VSYNC;
	s.crtc_id = crtc;
	s.target_ns = target_ns;
	s.planes_ptr = (uintptr_t)&p;
	s.num_planes = 1;
	s.plane_size = sizeof(p);
	return ioctl(fd, DRM_IOCTL_VFLIPQ_FLIPQ_SUBMIT, &s) ? -errno : 0;
}

uint32_t fq_set_log(int fd, uint32_t crtc, uint32_t plane, uint32_t n,
		    uint64_t *size)
{
	struct drm_vflipq_set_log s;

	memset(&s, 0, sizeof(s));
	s.crtc_id = crtc;
	s.plane_id = plane;
	s.num_entries = n;
	if (drmIoctl(fd, DRM_IOCTL_VFLIPQ_FLIPQ_SET_LOG, &s))
		die("FLIPQ_SET_LOG: %s", strerror(errno));
	if (size)
		*size = s.size;
	return s.handle;
}

void fq_set_irq_target(int fd, uint32_t crtc, uint32_t plane, uint64_t id)
{
	struct drm_vflipq_set_irq_target t;

	memset(&t, 0, sizeof(t));
	t.crtc_id = crtc;
	t.plane_id = plane;
	t.target = id;
	if (drmIoctl(fd, DRM_IOCTL_VFLIPQ_FLIPQ_SET_IRQ_TARGET, &t))
		die("FLIPQ_SET_IRQ_TARGET: %s", strerror(errno));
}

struct drm_vflipq_get_counters fq_get_counters(int fd, uint32_t crtc)
{
	struct drm_vflipq_get_counters c;

	memset(&c, 0, sizeof(c));
	c.crtc_id = crtc;
	if (drmIoctl(fd, DRM_IOCTL_VFLIPQ_GET_COUNTERS, &c))
		die("GET_COUNTERS: %s", strerror(errno));
	return c;
}
