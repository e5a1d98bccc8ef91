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

static int bo_create(struct present_swapchain *sc, int fd, uint32_t w, uint32_t h, uint32_t format,
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
static int import_fb(struct present_swapchain *sc, const struct bo *bo, uint32_t *fb_id)
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
	uint32_t side = sc->out.mode.hdisplay > sc->out.mode.vdisplay ? sc->out.mode.hdisplay :
			sc->out.mode.vdisplay;

	return bo_create(sc, sc->dfd, side, side, DRM_FORMAT_XRGB8888, true, bo);
}

/* A new blank buffer in place of the old one (gone first). */
int sc_bufs_new_blank(struct present_swapchain *sc)
{
	sc_bo_destroy(&sc->bufs.blank);
	return sc_blank_create(sc, &sc->bufs.blank);
}

/* @bo (from sc_blank_create()) is on screen: the old blank buffer can go. */
void sc_bufs_take_blank(struct present_swapchain *sc, struct bo *bo)
{
	sc_bo_destroy(&sc->bufs.blank);
	sc->bufs.blank = *bo;
	memset(bo, 0, sizeof(*bo));
}

/* The back buffers of the chain's description, drawn from the first. */
int sc_bufs_create_back(struct present_swapchain *sc)
{
	const struct present_swapchain_desc *d = &sc->desc;
	int ret;

	sc->bufs.cur = 0;
	sc->bufs.slot = 0;
	for (unsigned int i = 0; i < d->buffer_count; i++) {
		ret = bo_create(sc, sc->render->fd, d->width, d->height, d->format,
				sc->render == sc->display, &sc->bufs.back[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * The display scans the back buffers themselves: their own framebuffers
 * on one adapter, else PRIME imports.  Nonzero when an import failed,
 * which the path takes for a failed check.
 */
int sc_bufs_scan_back(struct present_swapchain *sc)
{
	struct sc_buffers *b = &sc->bufs;

	for (unsigned int i = 0; i < sc->desc.buffer_count; i++) {
		if (sc->render == sc->display)
			b->scan_fb[i] = b->back[i].fb_id;
		else if (import_fb(sc, &b->back[i], &b->scan_fb[i]))
			return -1;
	}
	return 0;
}

/* Forget the scanned framebuffers, removing the imports but the one of
 * buffer @keep (-1: none), which may still be on screen. */
void sc_bufs_drop_scan(struct present_swapchain *sc, int keep)
{
	struct sc_buffers *b = &sc->bufs;

	for (unsigned int i = 0; i < sc->desc.buffer_count; i++) {
		if (b->scan_fb[i] && b->scan_fb[i] != b->back[i].fb_id && (int)i != keep)
			drmModeRmFB(sc->dfd, b->scan_fb[i]);
		b->scan_fb[i] = 0;
	}
}

/*
 * The copy paths' display-local buffers, @w x @h in @format, scanned
 * instead of the back buffers; @import: the back buffers imported too, as
 * the copy engine's sources.
 */
int sc_bufs_create_local(struct present_swapchain *sc, uint32_t w, uint32_t h, uint32_t format,
			 bool import)
{
	struct sc_buffers *b = &sc->bufs;
	int ret;

	for (unsigned int i = 0; i < sc->desc.buffer_count; i++) {
		ret = bo_create(sc, sc->dfd, w, h, format, true, &b->local[i]);
		if (ret)
			return ret;
		b->scan_fb[i] = b->local[i].fb_id;
		if (import) {
			ret = import_fb(sc, &b->back[i], &b->import_fb[i]);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/*
 * The display-side buffer the next present goes to.  Flip model: the one
 * of the current back buffer (the buffer itself, or its proxy/copy), so a
 * back buffer is busy while it or its copy is queued or on screen.  Blt
 * model (DXGI's blt swap effects): present copies the back buffer into the
 * displayed surface, a ring of display-side buffers of its own; the back
 * buffer is free again as soon as the copy is done.
 */
unsigned int sc_disp_index(const struct present_swapchain *sc)
{
	return sc->path.blt_model ? sc->bufs.slot : sc->bufs.cur;
}

/* A frame was presented: the next back buffer and display-side buffer. */
void sc_bufs_advance(struct present_swapchain *sc)
{
	struct sc_buffers *b = &sc->bufs;
	unsigned int n = sc->desc.buffer_count;

	if (sc->path.blt_model) {
		/* discard: buffer 0 is the back buffer, its contents are
		 * undefined after present; sequential: the buffers rotate,
		 * each keeping its contents */
		b->slot = (b->slot + 1) % n;
		if (sc->desc.swap_effect == PRESENT_SWAP_BLT_SEQUENTIAL)
			b->cur = (b->cur + 1) % n;
	} else {
		b->cur = (b->cur + 1) % n;
	}
}

/* The path's buffers on the display side; the back buffers stay. */
void sc_free_display_side(struct present_swapchain *sc)
{
	for (int i = 0; i < MAX_BUFS; i++) {
		if (sc->bufs.import_fb[i])
			drmModeRmFB(sc->dfd, sc->bufs.import_fb[i]);
		if (sc->bufs.scan_fb[i] && sc->bufs.scan_fb[i] != sc->bufs.back[i].fb_id &&
		    sc->bufs.scan_fb[i] != sc->bufs.local[i].fb_id)
			drmModeRmFB(sc->dfd, sc->bufs.scan_fb[i]);
		sc->bufs.import_fb[i] = sc->bufs.scan_fb[i] = 0;
		sc_bo_destroy(&sc->bufs.local[i]);
	}
}

void sc_free_buffers(struct present_swapchain *sc)
{
	sc_free_display_side(sc);
	for (int i = 0; i < MAX_BUFS; i++)
		sc_bo_destroy(&sc->bufs.back[i]);
}

void sc_bufs_fini(struct present_swapchain *sc)
{
	sc_free_buffers(sc);
	sc_bo_destroy(&sc->bufs.blank);
}
