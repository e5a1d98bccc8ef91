// SPDX-License-Identifier: MIT
/*
 * The path facts of a chain (its plane, what the driver scans out, the
 * static TEST_ONLY check) and the path's buffers; present_decide_path()
 * (path.c) decides from the facts.
 */
#include <stdarg.h>
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
	sc->path.rot_prop = 0;
	sc->path.plane_rots = DRM_MODE_ROTATE_0;
	for (uint32_t i = 0; i < pr->count_planes && !sc->path.plane_id; i++) {
		drmModePlane *p = drmModeGetPlane(sc->dfd, pr->planes[i]);
		uint32_t rot_prop = 0, rots = DRM_MODE_ROTATE_0;
		drmModeObjectProperties *props;

		if (!p)
			continue;
		if (!(p->possible_crtcs & (1u << sc->out.crtc_index))) {
			drmModeFreePlane(p);
			continue;
		}
		props = drmModeObjectGetProperties(sc->dfd, p->plane_id, DRM_MODE_OBJECT_PLANE);
		for (uint32_t k = 0; props && k < props->count_props; k++) {
			drmModePropertyRes *pp = drmModeGetProperty(sc->dfd, props->props[k]);

			if (pp && !strcmp(pp->name, "type") &&
			    props->prop_values[k] == DRM_PLANE_TYPE_PRIMARY)
				sc->path.plane_id = p->plane_id;
			if (pp && !strcmp(pp->name, "rotation") &&
			    (pp->flags & DRM_MODE_PROP_BITMASK)) {
				rot_prop = pp->prop_id;
				rots = rotation_bits(pp);
			}
			drmModeFreeProperty(pp);
		}
		if (sc->path.plane_id) {
			for (uint32_t f = 0; f < p->count_formats; f++)
				if (p->formats[f] == sc->desc.format)
					fmt = true;
			sc->path.rot_prop = rot_prop;
			sc->path.plane_rots = rots;
		}
		drmModeFreeObjectProperties(props);
		drmModeFreePlane(p);
	}
	drmModeFreePlaneResources(pr);
	if (!sc->path.plane_id)
		return sc_fail(sc, PRESENT_E_NOT_SUPPORTED, "no primary plane for CRTC %u", sc->out.crtc_id);
	sc->path.facts.format_mismatch = !fmt;
	sc->path.disp_format = fmt ? sc->desc.format : DRM_FORMAT_XRGB8888;
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
	struct present_path_facts *f = &sc->path.facts;

	f->rotation_ok = sc->desc.rotation == 0 ||
			 (sc->path.rot_prop && (sc->path.plane_rots & rot));
	f->msaa_ok = sc->desc.samples <= 1;
	f->opt_out = false;
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
		f->rotation_ok = sc->desc.rotation == 0;
	} else if (q.result == VFLIPQ_SCANOUT_NO_SCANOUT) {
		f->msaa_ok = !(q.reasons & VFLIPQ_NO_SCANOUT_MSAA);
		if (q.reasons & VFLIPQ_NO_SCANOUT_ROTATION)
			f->rotation_ok = sc->desc.rotation == 0;
	}
	/* the opt-out of the (possibly fallen back) plain buffer */
	q.rotation = f->rotation_ok ? rot : DRM_MODE_ROTATE_0;
	q.samples = 1;
	q.result = q.reasons = 0;
	if (drmIoctl(sc->dfd, DRM_IOCTL_VFLIPQ_SCANOUT_QUERY, &q) == 0 &&
	    q.result == VFLIPQ_SCANOUT_NO_SCANOUT &&
	    (q.reasons & ~(VFLIPQ_NO_SCANOUT_TIER | VFLIPQ_NO_SCANOUT_SIZE | VFLIPQ_NO_SCANOUT_FORMAT)))
		f->opt_out = true;
}

/* The plane unrotated, scanning out the mode's size (before a decision);
 * the geometry it had, for sc_plane_restore(). */
struct sc_scan sc_plane_unrotated(struct present_swapchain *sc)
{
	struct sc_scan old = sc->path.scan;

	sc->path.scan.rot = DRM_MODE_ROTATE_0;
	sc->path.scan.w = sc->out.mode.hdisplay;
	sc->path.scan.h = sc->out.mode.vdisplay;
	return old;
}

/* The geometry before sc_plane_unrotated(): the commit it was for failed. */
void sc_plane_restore(struct present_swapchain *sc, const struct sc_scan *old)
{
	sc->path.scan = *old;
}

/* The plane must be found again (the chain moved to another CRTC). */
void sc_path_forget_plane(struct present_swapchain *sc)
{
	sc->path.plane_id = 0;
}

/* Why the path changed, appended to its reason. */
void sc_path_note(struct present_swapchain *sc, const char *fmt, ...)
{
	char *reason = sc->path.decision.reason;
	size_t n = strlen(reason);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason + n, sizeof(sc->path.decision.reason) - n, fmt, ap);
	va_end(ap);
}

static bool scans_back_buffers(const struct present_swapchain *sc)
{
	return sc->path.decision.kind == PRESENT_PATH_DIRECT_FLIP ||
	       sc->path.decision.kind == PRESENT_PATH_CASO_ONE_COPY;
}

/* How the plane scans the path's buffers: the back buffers themselves,
 * rotated as the chain asks, or output-sized copies the blt rotated. */
static void plane_geometry(struct present_swapchain *sc)
{
	if (!scans_back_buffers(sc)) {
		sc_plane_unrotated(sc);
		return;
	}
	sc->path.scan.rot = drm_rotation(sc->desc.rotation);
	sc->path.scan.w = sc->desc.width;
	sc->path.scan.h = sc->desc.height;
}

/* Copy paths: display-local buffers matching the output. */
static int setup_copy_path(struct present_swapchain *sc)
{
	const struct present_swapchain_desc *d = &sc->desc;
	bool engine = sc->path.decision.kind == PRESENT_PATH_TWO_COPY_ENGINE;

	if (sc->path.disp_format != d->format && d->format != DRM_FORMAT_XBGR8888 &&
	    d->format != DRM_FORMAT_ABGR8888 && d->format != DRM_FORMAT_ARGB8888 && !engine)
		return sc_fail(sc, PRESENT_E_NOT_SUPPORTED,
			       "CPU blt cannot convert this format to the output's");
	return sc_bufs_create_local(sc, sc->out.mode.hdisplay, sc->out.mode.vdisplay, sc->path.disp_format,
				    engine);
}

/* Decide the path for the back buffers and the output as they are now,
 * and set the path's display-side buffers up. */
int sc_decide(struct present_swapchain *sc)
{
	struct present_swapchain_desc *d = &sc->desc;
	struct present_path_facts *f = &sc->path.facts;
	bool same = sc->render == sc->display;
	int ret;

	memset(f, 0, sizeof(*f));
	sc->path.plane_id = 0;
	f->same_adapter = same;
	f->tier = sc->display->info.caso_tier;
	f->blt_effect = d->swap_effect >= PRESENT_SWAP_BLT_SEQUENTIAL;
	sc->path.blt_model = f->blt_effect;
	/* a 90/270 rotated back buffer matches the output with w and h swapped */
	if (d->rotation == 90 || d->rotation == 270)
		f->size_mismatch = d->width != sc->out.mode.vdisplay ||
				   d->height != sc->out.mode.hdisplay;
	else
		f->size_mismatch = d->width != sc->out.mode.hdisplay ||
				   d->height != sc->out.mode.vdisplay;
	f->rotation = d->rotation;
	f->samples = d->samples;
	ret = sc_find_primary_plane(sc);
	if (ret)
		return ret;
	query_scanout(sc);
	f->static_check = true;
	present_decide_path(f, &sc->path.decision);
	plane_geometry(sc);
	if (scans_back_buffers(sc)) {
		/* the import itself refused: a failed check */
		if (sc_bufs_scan_back(sc))
			f->static_check = false;
		/* The static check: one plane, rotated as it would be,
		 * TEST_ONLY, changes nothing. */
		if (f->static_check &&
		    sc_commit_modeset(sc, sc->bufs.scan_fb[0], d->width, d->height, true))
			f->static_check = false;
		if (!f->static_check) {
			sc_bufs_drop_scan(sc, -1);
			present_decide_path(f, &sc->path.decision);
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

	if (!scans_back_buffers(sc))
		return -1;
	memcpy(why, sc->err, sizeof(why));
	/* drain: queued frames reference the fbs we are about to replace */
	for (int i = 0; sc->queue.nframes && i < 50; i++)
		present_swapchain_dispatch(sc, 100);
	if (sc->queue.nframes)
		return -1;
	if (sc->path.scan.rot != DRM_MODE_ROTATE_0) {
		/* the copies come unrotated and output-sized: the plane too */
		sc_plane_unrotated(sc);
		if (sc_show_blank(sc))
			return -1;
	}
	sc_bufs_drop_scan(sc, sc->queue.onscreen);
	sc->path.facts.static_check = false;
	present_decide_path(&sc->path.facts, &sc->path.decision);
	sc_path_note(sc, " (after a failed flip: %.60s)", why);
	return setup_copy_path(sc);
}
