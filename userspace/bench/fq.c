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

int fq_submit_plane_many(int fd, uint32_t crtc, uint32_t plane,
			 const uint32_t *fbs, uint64_t first_id,
			 uint64_t first_target_ns, uint64_t step_ns, int n)
{
	return fq_submit_plane_many_irq(fd, crtc, plane, fbs, first_id,
					first_target_ns, step_ns, n, NULL);
}

int fq_submit_plane_many_irq(int fd, uint32_t crtc, uint32_t plane,
			     const uint32_t *fbs, uint64_t first_id,
			     uint64_t first_target_ns, uint64_t step_ns, int n,
			     const uint64_t *irq_target)
{
	struct drm_vflipq_flip_plane p[FQ_MANY_MAX];
	struct drm_vflipq_flip_submit s[FQ_MANY_MAX];
	struct drm_vflipq_flip_submit_many m;

	if (n < 1 || n > FQ_MANY_MAX)
		return -EINVAL;
	memset(p, 0, sizeof(p));
	memset(s, 0, sizeof(s));
	memset(&m, 0, sizeof(m));
	for (int i = 0; i < n; i++) {
		p[i].plane_id = plane;
		p[i].fb_id = fbs[i];
		p[i].present_id = first_id + i;
		p[i].mode = VFLIPQ_FLIP_ON_NEXT_VSYNC;
		s[i].crtc_id = crtc;
		s[i].target_ns = first_target_ns + (uint64_t)i * step_ns;
		s[i].planes_ptr = (uintptr_t)&p[i];
		s[i].num_planes = 1;
		s[i].plane_size = sizeof(p[i]);
	}
	m.submits_ptr = (uintptr_t)s;
	m.num_submits = n;
	m.submit_size = sizeof(s[0]);
	if (irq_target) {
		m.flags = VFLIPQ_SUBMIT_MANY_IRQ_TARGET;
		m.irq_plane_id = plane;
		m.irq_target = *irq_target;
	}
	if (!ioctl(fd, DRM_IOCTL_VFLIPQ_FLIPQ_SUBMIT_MANY, &m))
		return 0;
	return m.num_queued ? -EIO : -errno;
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
