// SPDX-License-Identifier: MIT
/*
 * The flip-queue ioctls as the benchmarks use them: one plane per flip,
 * every uAPI struct zero-initialised (members may be appended later).
 * FLIPQ_SUBMIT with flips goes through ioctl(2): drmIoctl() loops on
 * EAGAIN, which here means "queue full" and is the caller's to handle.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include "bench.h"

/*
 * One FLIPQ_SUBMIT of @n (1 to FQ_MANY_MAX) flips of @plane, as
 * fq_submit_plane_many_irq() describes.
 */
static int fq_submit_flips(int fd, uint32_t crtc, uint32_t plane,
			   const uint32_t *fbs, uint64_t first_id,
			   uint64_t first_target_ns, uint64_t step_ns, int n,
			   const uint64_t *irq_target)
{
	struct drm_vflipq_flip_plane p[FQ_MANY_MAX];
	struct drm_vflipq_flip f[FQ_MANY_MAX];
	struct drm_vflipq_flipq_submit s;

	if (n < 1 || n > FQ_MANY_MAX)
		return -EINVAL;
	/* Only the entries used: a batch of one costs what one flip does. */
	memset(p, 0, n * sizeof(p[0]));
	memset(f, 0, n * sizeof(f[0]));
	memset(&s, 0, sizeof(s));
	for (int i = 0; i < n; i++) {
		p[i].plane_id = plane;
		p[i].fb_id = fbs[i];
		p[i].present_id = first_id + i;
		p[i].mode = VFLIPQ_FLIP_ON_NEXT_VSYNC;
		f[i].target_ns = first_target_ns + (uint64_t)i * step_ns;
		f[i].planes_ptr = (uintptr_t)&p[i];
		f[i].num_planes = 1;
	}
	s.crtc_id = crtc;
	s.flips_ptr = (uintptr_t)f;
	s.num_flips = n;
	s.flip_size = sizeof(f[0]);
	s.plane_size = sizeof(p[0]);
	if (irq_target) {
		s.flags = VFLIPQ_SUBMIT_IRQ_TARGET;
		s.irq_plane_id = plane;
		s.irq_target = *irq_target;
	}
	if (!ioctl(fd, DRM_IOCTL_VFLIPQ_FLIPQ_SUBMIT, &s))
		return 0;
	return s.num_queued ? -EIO : -errno;
}

int fq_submit_plane(int fd, uint32_t crtc, uint32_t plane, uint32_t fb,
		    uint64_t id, uint64_t target_ns)
{
	return fq_submit_flips(fd, crtc, plane, &fb, id, target_ns, 0, 1,
			       NULL);
}

int fq_submit_plane_many(int fd, uint32_t crtc, uint32_t plane,
			 const uint32_t *fbs, uint64_t first_id,
			 uint64_t first_target_ns, uint64_t step_ns, int n)
{
	return fq_submit_flips(fd, crtc, plane, fbs, first_id,
			       first_target_ns, step_ns, n, NULL);
}

int fq_submit_plane_many_irq(int fd, uint32_t crtc, uint32_t plane,
			     const uint32_t *fbs, uint64_t first_id,
			     uint64_t first_target_ns, uint64_t step_ns, int n,
			     const uint64_t *irq_target)
{
	return fq_submit_flips(fd, crtc, plane, fbs, first_id,
			       first_target_ns, step_ns, n, irq_target);
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
	struct drm_vflipq_flipq_submit s;

	/* No flip: nothing to drain, drmIoctl()'s EAGAIN loop is harmless. */
	memset(&s, 0, sizeof(s));
	s.crtc_id = crtc;
	s.flags = VFLIPQ_SUBMIT_IRQ_TARGET;
	s.flip_size = sizeof(struct drm_vflipq_flip);
	s.plane_size = sizeof(struct drm_vflipq_flip_plane);
	s.irq_plane_id = plane;
	s.irq_target = id;
	if (drmIoctl(fd, DRM_IOCTL_VFLIPQ_FLIPQ_SUBMIT, &s))
		die("FLIPQ_SUBMIT of an interrupt target: %s",
		    strerror(errno));
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
