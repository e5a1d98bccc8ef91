// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stddef.h>
#include <sys/mman.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>

#include "dumb_fb.h"

/*
 * Framebuffer id of a @w x @h XRGB8888 dumb buffer filled with @pixel, or 0
 * (errno set).  Only the framebuffer keeps the buffer: its GEM handle is
 * closed, so removing the framebuffer frees it.
 */
uint32_t dumb_fb_xrgb8888(int fd, uint32_t w, uint32_t h, uint32_t pixel)
{
	struct drm_mode_create_dumb cd = { .width = w, .height = h, .bpp = 32 };
	struct drm_mode_map_dumb md = { 0 };
	uint32_t handles[4] = { 0 }, pitches[4] = { 0 }, offsets[4] = { 0 };
	uint32_t fb = 0, *p;
	int err = 0;

	if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &cd))
		return 0;
	md.handle = cd.handle;
	if (!drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &md)) {
		p = mmap(NULL, cd.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			 md.offset);
		if (p != MAP_FAILED) {
			for (uint64_t i = 0; i < cd.size / 4; i++)
				p[i] = pixel;
			munmap(p, cd.size);
		}
	}
	handles[0] = cd.handle;
	pitches[0] = cd.pitch;
	if (drmModeAddFB2(fd, w, h, DRM_FORMAT_XRGB8888, handles, pitches,
			  offsets, &fb, 0)) {
		err = errno;
		fb = 0;
	}
	drmCloseBufferHandle(fd, cd.handle);
	if (err)
		errno = err;
	return fb;
}
