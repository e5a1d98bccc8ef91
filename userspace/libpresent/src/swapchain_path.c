// SPDX-License-Identifier: MIT
/*
 * The path facts of a chain (its plane, what the driver scans out, the
 * static TEST_ONLY check) and the path's buffers; present_decide_path()
 * (path.c) decides from the facts.
 */
#include <stdio.h>
#include <string.h>

#include <drm_fourcc.h>

#include "swapchain_internal.h"

/*
 * The rotations a "rotation" property lists (a bitmask property: each enum
 * value is a bit number), from any KMS driver.
 */
static uint32_t rotation_bits(const drmModePropertyRes *pp)
{
	uint32_t bits = DRM_MODE_ROTATE_0;

	for (int e = 0; e < pp->count_enums; e++)
		if (pp->enums[e].value < 32)
			bits |= 1u << pp->enums[e].value;
	return bits;
}

int sc_find_primary_plane(struct present_swapchain *sc)
{
	drmModePlaneRes *pr = drmModeGetPlaneResources(sc->dfd);
	bool fmt = false;

	if (!pr)
		return sc_errno(sc, errno, "plane resources");
	sc->rot_prop = 0;
	sc->plane_rots = DRM_MODE_ROTATE_0;
	for (uint32_t i = 0; i < pr->count_planes && !sc->plane_id; i++) {
		drmModePlane *p = drmModeGetPlane(sc->dfd, pr->planes[i]);
		uint32_t rot_prop = 0, rots = DRM_MODE_ROTATE_0;
		drmModeObjectProperties *props;

		if (!p)
			continue;
		if (!(p->possible_crtcs & (1u << sc->crtc_index))) {
			drmModeFreePlane(p);
			continue;
		}
		props = drmModeObjectGetProperties(sc->dfd, p->plane_id, DRM_MODE_OBJECT_PLANE);
		for (uint32_t k = 0; props && k < props->count_props; k++) {
			drmModePropertyRes *pp = drmModeGetProperty(sc->dfd, props->props[k]);

			if (pp && !strcmp(pp->name, "type") &&
			    props->prop_values[k] == DRM_PLANE_TYPE_PRIMARY)
				sc->plane_id = p->plane_id;
			if (pp && !strcmp(pp->name, "rotation") &&
			    (pp->flags & DRM_MODE_PROP_BITMASK)) {
				rot_prop = pp->prop_id;
				rots = rotation_bits(pp);
			}
			drmModeFreeProperty(pp);
		}
		if (sc->plane_id) {
			for (uint32_t f = 0; f < p->count_formats; f++)
				if (p->formats[f] == sc->desc.format)
					fmt = true;
			sc->rot_prop = rot_prop;
			sc->plane_rots = rots;
		}
		drmModeFreeObjectProperties(props);
		drmModeFreePlane(p);
	}
	drmModeFreePlaneResources(pr);
	if (!sc->plane_id)
		return sc_fail(sc, PRESENT_E_NOT_SUPPORTED, "no primary plane for CRTC %u", sc->crtc_id);
	sc->facts.format_mismatch = !fmt;
	sc->disp_format = fmt ? sc->desc.format : DRM_FORMAT_XRGB8888;
	return 0;
}

/*
 * DXGI's rotations are counter-clockwise, as DRM's: DXGI_MODE_ROTATION_
 * ROTATE90 is DRM_MODE_ROTATE_90 (cpu_blt_rotate() shows the same image).
 */
static uint32_t drm_rotation(uint32_t degrees)
{
	static const uint32_t rot[4] = { DRM_MODE_ROTATE_0, DRM_MODE_ROTATE_90,
					 DRM_MODE_ROTATE_180, DRM_MODE_ROTATE_270 };

	return rot[degrees / 90 % 4];
}

/*
 * SCANOUT_QUERY -> rotation_ok, msaa_ok, opt_out facts.  A rotation is
 * scanned out when the plane's "rotation" property lists it and, on vflipq,
 * the query does not refuse it (a failed query: no rotation).
 */
static void query_scanout(struct present_swapchain *sc)
{
	struct drm_vflipq_scanout_query q;
	uint32_t rot = drm_rotation(sc->desc.rotation);
	bool hybrid = sc->render != sc->display;

	sc->facts.rotation_ok = sc->desc.rotation == 0 ||
				(sc->rot_prop && (sc->plane_rots & rot));
	sc->facts.msaa_ok = sc->desc.samples <= 1;
	sc->facts.opt_out = false;
	if (!sc->display->info.is_vflipq)
		return;
	memset(&q, 0, sizeof(q));
	q.width = sc->desc.width;
	q.height = sc->desc.height;
	q.format = sc->desc.format;
	q.rotation = rot;
	q.modifier = DRM_FORMAT_MOD_LINEAR;
	q.samples = sc->desc.samples;
	q.flags = hybrid ? VFLIPQ_SCANOUT_CROSS_ADAPTER : 0;
	if (drmIoctl(sc->dfd, DRM_IOCTL_VFLIPQ_SCANOUT_QUERY, &q)) {
		sc->facts.rotation_ok = sc->desc.rotation == 0;
	} else if (q.result == VFLIPQ_SCANOUT_NO_SCANOUT) {
		sc->facts.msaa_ok = !(q.reasons & VFLIPQ_NO_SCANOUT_MSAA);
		if (q.reasons & VFLIPQ_NO_SCANOUT_ROTATION)
			sc->facts.rotation_ok = sc->desc.rotation == 0;
	}
	/* the opt-out of the (possibly fallen back) plain buffer */
	q.rotation = sc->facts.rotation_ok ? rot : DRM_MODE_ROTATE_0;
	q.samples = 1;
	q.result = q.reasons = 0;
	if (drmIoctl(sc->dfd, DRM_IOCTL_VFLIPQ_SCANOUT_QUERY, &q) == 0 &&
	    q.result == VFLIPQ_SCANOUT_NO_SCANOUT &&
	    (q.reasons & ~(VFLIPQ_NO_SCANOUT_TIER | VFLIPQ_NO_SCANOUT_SIZE | VFLIPQ_NO_SCANOUT_FORMAT)))
		sc->facts.opt_out = true;
}

static bool scans_back_buffers(const struct present_swapchain *sc)
{
	return sc->path.kind == PRESENT_PATH_DIRECT_FLIP ||
	       sc->path.kind == PRESENT_PATH_CASO_ONE_COPY;
}

/* How the plane scans the path's buffers: the back buffers themselves,
 * rotated as the chain asks, or output-sized copies the blt rotated. */
static void plane_geometry(struct present_swapchain *sc)
{
	if (!scans_back_buffers(sc)) {
		sc_plane_unrotated(sc);
		return;
	}
	sc->plane_rot = drm_rotation(sc->desc.rotation);
	sc->src_w = sc->desc.width;
	sc->src_h = sc->desc.height;
}

/* Copy paths: display-local buffers matching the output. */
static int setup_copy_path(struct present_swapchain *sc)
{
	struct present_swapchain_desc *d = &sc->desc;

	if (sc->disp_format != d->format && d->format != DRM_FORMAT_XBGR8888 &&
	    d->format != DRM_FORMAT_ABGR8888 && d->format != DRM_FORMAT_ARGB8888 &&
	    sc->path.kind != PRESENT_PATH_TWO_COPY_ENGINE)
		return sc_fail(sc, PRESENT_E_NOT_SUPPORTED,
			       "CPU blt cannot convert this format to the output's");
	return sc_bufs_create_local(sc, sc->mode.hdisplay, sc->mode.vdisplay, sc->disp_format,
				    sc->path.kind == PRESENT_PATH_TWO_COPY_ENGINE);
}

/* Decide the path for the back buffers and the output as they are now,
 * and set the path's display-side buffers up. */
int sc_decide(struct present_swapchain *sc)
{
	struct present_swapchain_desc *d = &sc->desc;
	bool same = sc->render == sc->display;
	int ret;

	memset(&sc->facts, 0, sizeof(sc->facts));
	sc->plane_id = 0;
	sc->facts.same_adapter = same;
	sc->facts.tier = sc->display->info.caso_tier;
	sc->facts.blt_effect = d->swap_effect >= PRESENT_SWAP_BLT_SEQUENTIAL;
	sc->blt_model = sc->facts.blt_effect;
	/* a 90/270 rotated back buffer matches the output with w and h swapped */
	if (d->rotation == 90 || d->rotation == 270)
		sc->facts.size_mismatch = d->width != sc->mode.vdisplay ||
					  d->height != sc->mode.hdisplay;
	else
		sc->facts.size_mismatch = d->width != sc->mode.hdisplay ||
					  d->height != sc->mode.vdisplay;
	sc->facts.rotation = d->rotation;
	sc->facts.samples = d->samples;
	ret = sc_find_primary_plane(sc);
	if (ret)
		return ret;
	query_scanout(sc);
	sc->facts.static_check = true;
	present_decide_path(&sc->facts, &sc->path);
	plane_geometry(sc);
	if (scans_back_buffers(sc)) {
		/* the import itself refused: a failed check */
		if (sc_bufs_scan_back(sc))
			sc->facts.static_check = false;
		/* The static check: one plane, rotated as it would be,
		 * TEST_ONLY, changes nothing. */
		if (sc->facts.static_check &&
		    sc_commit_modeset(sc, sc->bufs.scan_fb[0], d->width, d->height, true))
			sc->facts.static_check = false;
		if (!sc->facts.static_check) {
			sc_bufs_drop_scan(sc, -1);
			present_decide_path(&sc->facts, &sc->path);
			plane_geometry(sc);
		}
	}
	if (scans_back_buffers(sc))
		return 0;
	return setup_copy_path(sc);
}

/* Allocate the back buffers, decide the path, set the path's buffers up. */
int sc_build(struct present_swapchain *sc)
{
	int ret = sc_bufs_create_back(sc);

	return ret ? ret : sc_decide(sc);
}

/*
 * The driver refused to scan a back buffer out at present time (a
 * direct-flip or one-copy chain): decide again with a failed check, which
 * gives a proxy or two-copy path, and set its buffers up.  Queued frames
 * still show the old buffers, which stay allocated.
 */
int sc_redecide_after_failed_flip(struct present_swapchain *sc)
{
	char why[sizeof(sc->err)];

	if (sc->path.kind != PRESENT_PATH_DIRECT_FLIP && sc->path.kind != PRESENT_PATH_CASO_ONE_COPY)
		return -1;
	memcpy(why, sc->err, sizeof(why));
	/* drain: queued frames reference the fbs we are about to replace */
	for (int i = 0; sc->queue.nframes && i < 50; i++)
		present_swapchain_dispatch(sc, 100);
	if (sc->queue.nframes)
		return -1;
	if (sc->plane_rot != DRM_MODE_ROTATE_0) {
		/* the copies come unrotated and output-sized: the plane too */
		sc_plane_unrotated(sc);
		if (sc_show_blank(sc))
			return -1;
	}
	sc_bufs_drop_scan(sc, sc->queue.onscreen);
	sc->facts.static_check = false;
	present_decide_path(&sc->facts, &sc->path);
	snprintf(sc->path.reason + strlen(sc->path.reason),
		 sizeof(sc->path.reason) - strlen(sc->path.reason),
		 " (after a failed flip: %.60s)", why);
	return setup_copy_path(sc);
}
