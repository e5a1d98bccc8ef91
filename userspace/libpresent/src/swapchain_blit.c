// SPDX-License-Identifier: MIT
/*
 * The present-time copies: the CPU blt (scale, swizzle, rotate) and the
 * vflipq copy engine.
 */
#include <string.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "swapchain_internal.h"

/* Source pixel of destination pixel (x, y) for a counter-clockwise
 * rotation (DRM_MODE_ROTATE_*) of @rot degrees, nearest-neighbour scaled. */
static void rot_src(uint32_t rot, const struct bo *src, const struct bo *dst, uint32_t x,
		    uint32_t y, uint32_t *sx, uint32_t *sy)
{
	uint32_t sw = src->width, sh = src->height, dw = dst->width, dh = dst->height;

	switch (rot) {
	case 90:
		*sx = sw - 1 - y * sw / dh;
		*sy = x * sh / dw;
		break;
	case 180:
		*sx = sw - 1 - x * sw / dw;
		*sy = sh - 1 - y * sh / dh;
		break;
	case 270:
		*sx = y * sw / dh;
		*sy = sh - 1 - x * sh / dw;
		break;
	default:
		*sx = x * sw / dw;
		*sy = y * sh / dh;
	}
}

/* CPU blt with rotation (32-bit formats): see rot_src(). */
static void cpu_blt_rotate(const struct bo *src, const struct bo *dst, uint32_t rot, bool swz)
{
	for (uint32_t y = 0; y < dst->height; y++) {
		uint32_t *drow = (uint32_t *)((uint8_t *)dst->map + (size_t)y * dst->pitch);

		for (uint32_t x = 0; x < dst->width; x++) {
			uint32_t sx, sy, v;

			rot_src(rot, src, dst, x, y, &sx, &sy);
			v = ((const uint32_t *)((const uint8_t *)src->map + (size_t)sy * src->pitch))[sx];
			if (swz)
				v = (v & 0xff00ff00) | ((v >> 16) & 0xff) | ((v & 0xff) << 16);
			drow[x] = v;
		}
	}
}

/* CPU blt: nearest-neighbour scale, 8-bit RGBA<->BGRA swizzle when needed,
 * rotation of 32-bit formats. */
static void cpu_blt(const struct bo *src, const struct bo *dst, uint32_t rot)
{
	bool swz = (src->format == DRM_FORMAT_XBGR8888 || src->format == DRM_FORMAT_ABGR8888) &&
		   (dst->format == DRM_FORMAT_XRGB8888 || dst->format == DRM_FORMAT_ARGB8888);
	uint32_t bpp = fourcc_cpp(src->format);

	if (rot && bpp == 4) {
		cpu_blt_rotate(src, dst, rot, swz);
		return;
	}
	if (!swz && src->width == dst->width && src->height == dst->height &&
	    src->pitch == dst->pitch && src->format == dst->format) {
		memcpy(dst->map, src->map, (size_t)src->pitch * src->height);
		return;
	}
	for (uint32_t y = 0; y < dst->height; y++) {
		const uint8_t *srow = (const uint8_t *)src->map +
				      (size_t)(y * src->height / dst->height) * src->pitch;
		uint8_t *drow = (uint8_t *)dst->map + (size_t)y * dst->pitch;

		if (!swz && src->width == dst->width && bpp == fourcc_cpp(dst->format)) {
			memcpy(drow, srow, (size_t)dst->width * bpp);
			continue;
		}
		for (uint32_t x = 0; x < dst->width; x++) {
			uint32_t sx = x * src->width / dst->width;

			if (bpp == 4) {
				uint32_t v = ((const uint32_t *)srow)[sx];

				if (swz)
					v = (v & 0xff00ff00) | ((v >> 16) & 0xff) | ((v & 0xff) << 16);
				((uint32_t *)drow)[x] = v;
			} else {
				memcpy(drow + x * bpp, srow + sx * bpp, bpp);
			}
		}
	}
}

static int engine_copy(struct present_swapchain *sc, unsigned int b, unsigned int d)
{
	struct drm_vflipq_copy c = {
		.src_fb = sc->bufs.import_fb[b], .dst_fb = sc->bufs.local[d].fb_id,
		.src_rect = { 0, 0, sc->bufs.back[b].width, sc->bufs.back[b].height },
		.dst_rect = { 0, 0, sc->bufs.local[d].width, sc->bufs.local[d].height },
	};	/* out_fence_fd: zero on input */

	if (drmIoctl(sc->dfd, DRM_IOCTL_VFLIPQ_COPY, &c))
		return sc_errno(sc, errno, "COPY");
	/* the fence is also implicit on the destination: the flip waits */
	if (c.out_fence_fd >= 0)
		close(c.out_fence_fd);
	sc_stats_copied(sc, (uint64_t)sc->bufs.local[d].width * sc->bufs.local[d].height *
			    fourcc_cpp(sc->bufs.local[d].format));
	return 0;
}

/* The present-time copies of back buffer @b to display-side buffer @d. */
int sc_do_copies(struct present_swapchain *sc, unsigned int b, unsigned int d)
{
	switch (sc->path.decision.kind) {
	case PRESENT_PATH_DIRECT_FLIP:
	case PRESENT_PATH_CASO_ONE_COPY:
		/* one-copy: the "copy" is the render itself into the
		 * cross-adapter buffer; nothing to do at present time */
		return 0;
	case PRESENT_PATH_TWO_COPY_ENGINE:
		return engine_copy(sc, b, d);
	default:
		cpu_blt(&sc->bufs.back[b], &sc->bufs.local[d], sc->desc.rotation);
		sc_stats_copied(sc, (uint64_t)sc->bufs.local[d].pitch * sc->bufs.local[d].height);
		return 0;
	}
}
