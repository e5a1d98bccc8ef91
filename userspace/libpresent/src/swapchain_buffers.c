// SPDX-License-Identifier: MIT
/*
 * Buffer objects of a chain: dumb buffers, their framebuffers, PRIME
 * imports into the display adapter, the blank buffer.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "swapchain_internal.h"

int sc_bo_create(struct present_swapchain *sc, int fd, uint32_t w, uint32_t h, uint32_t format,
		 bool fb, struct bo *bo)
{
	struct drm_mode_create_dumb c = { .width = w, .height = h, .bpp = fourcc_cpp(format) * 8 };
	struct drm_mode_map_dumb m = { 0 };
	uint32_t handles[4] = { 0 }, pitches[4] = { 0 }, offsets[4] = { 0 };

	memset(bo, 0, sizeof(*bo));
	bo->fd = fd;
	if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &c))
		return sc_errno(sc, errno, "CREATE_DUMB");
	bo->handle = c.handle;
	bo->pitch = c.pitch;
	bo->size = c.size;
	bo->width = w;
	bo->height = h;
	bo->format = format;
	m.handle = c.handle;
	if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &m))
		return sc_errno(sc, errno, "MAP_DUMB");
	bo->map = mmap(NULL, bo->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, m.offset);
	if (bo->map == MAP_FAILED) {
		bo->map = NULL;
		return sc_errno(sc, errno, "mmap");
	}
	memset(bo->map, 0, bo->size);
	if (fb) {
		handles[0] = bo->handle;
		pitches[0] = bo->pitch;
		if (drmModeAddFB2(fd, w, h, format, handles, pitches, offsets, &bo->fb_id, 0))
			return sc_errno(sc, errno, "ADDFB2 (display-local buffer)");
	}
	return 0;
}

void sc_bo_destroy(struct bo *bo)
{
	if (bo->fb_id)
		drmModeRmFB(bo->fd, bo->fb_id);
	if (bo->map)
		munmap(bo->map, bo->size);
	if (bo->handle)
		drmCloseBufferHandle(bo->fd, bo->handle);
	memset(bo, 0, sizeof(*bo));
}

/* Import render buffer @bo into the display adapter as a framebuffer. */
int sc_import_fb(struct present_swapchain *sc, const struct bo *bo, uint32_t *fb_id)
{
	uint32_t handles[4] = { 0 }, pitches[4] = { bo->pitch }, offsets[4] = { 0 };
	int dmabuf, ret;

	if (drmPrimeHandleToFD(bo->fd, bo->handle, DRM_CLOEXEC, &dmabuf))
		return sc_errno(sc, errno, "export the back buffer (PRIME)");
	ret = drmPrimeFDToHandle(sc->dfd, dmabuf, &handles[0]);
	close(dmabuf);
	if (ret)
		return sc_errno(sc, errno, "import into the display adapter (PRIME)");
	ret = drmModeAddFB2(sc->dfd, bo->width, bo->height, bo->format, handles, pitches, offsets,
			    fb_id, 0);
	if (ret)
		ret = sc_errno(sc, errno, "ADDFB2 of the imported buffer");
	drmCloseBufferHandle(sc->dfd, handles[0]);
	return ret;
}

/*
 * The blank buffer is a square as large as the mode's longer side, so that
 * it covers the plane's source rectangle rotated or not: flips (atomic ones
 * and the flip queue's) keep the plane's rotation and source rectangle, so
 * the blank goes on screen the way the chain's buffers will.
 */
int sc_blank_create(struct present_swapchain *sc, struct bo *bo)
{
	uint32_t side = sc->mode.hdisplay > sc->mode.vdisplay ? sc->mode.hdisplay :
			sc->mode.vdisplay;

	return sc_bo_create(sc, sc->dfd, side, side, DRM_FORMAT_XRGB8888, true, bo);
}

/* The path's buffers on the display side; the back buffers stay. */
void sc_free_display_side(struct present_swapchain *sc)
{
	for (int i = 0; i < MAX_BUFS; i++) {
		if (sc->import_fb[i])
			drmModeRmFB(sc->dfd, sc->import_fb[i]);
		if (sc->scan_fb[i] && sc->scan_fb[i] != sc->back[i].fb_id &&
		    sc->scan_fb[i] != sc->local[i].fb_id)
			drmModeRmFB(sc->dfd, sc->scan_fb[i]);
		sc->import_fb[i] = sc->scan_fb[i] = 0;
		sc_bo_destroy(&sc->local[i]);
	}
}

void sc_free_buffers(struct present_swapchain *sc)
{
	sc_free_display_side(sc);
	for (int i = 0; i < MAX_BUFS; i++)
		sc_bo_destroy(&sc->back[i]);
}
