// SPDX-License-Identifier: MIT
/*
 * The atomic back end: property helpers, the modeset and the blank buffer,
 * and presents as atomic page flips (a chain without the flip queue).
 */
#include <string.h>
#include <time.h>

#include "swapchain_internal.h"

static uint32_t prop_id(int fd, uint32_t obj, uint32_t type, const char *name)
{
	drmModeObjectProperties *props = drmModeObjectGetProperties(fd, obj, type);
	uint32_t id = 0;

	for (uint32_t i = 0; props && i < props->count_props && !id; i++) {
		drmModePropertyRes *p = drmModeGetProperty(fd, props->props[i]);

		if (p && !strcmp(p->name, name))
			id = p->prop_id;
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
	return id;
}

int sc_add_prop(drmModeAtomicReq *req, int fd, uint32_t obj, uint32_t type, const char *name,
		uint64_t v)
{
	uint32_t id = prop_id(fd, obj, type, name);

	if (!id)
		return -1;
	return drmModeAtomicAddProperty(req, obj, id, v) < 0 ? -1 : 0;
}

static void add_plane(drmModeAtomicReq *req, struct present_swapchain *sc, uint32_t fb,
		      uint32_t w, uint32_t h)
{
	uint32_t plane = sc->path.plane_id, pl = DRM_MODE_OBJECT_PLANE;
	int fd = sc->dfd;

	sc_add_prop(req, fd, plane, pl, "FB_ID", fb);
	sc_add_prop(req, fd, plane, pl, "CRTC_ID", sc->out.crtc_id);
	sc_add_prop(req, fd, plane, pl, "SRC_X", 0);
	sc_add_prop(req, fd, plane, pl, "SRC_Y", 0);
	sc_add_prop(req, fd, plane, pl, "SRC_W", (uint64_t)w << 16);
	sc_add_prop(req, fd, plane, pl, "SRC_H", (uint64_t)h << 16);
	sc_add_prop(req, fd, plane, pl, "CRTC_X", 0);
	sc_add_prop(req, fd, plane, pl, "CRTC_Y", 0);
	sc_add_prop(req, fd, plane, pl, "CRTC_W", sc->out.mode.hdisplay);
	sc_add_prop(req, fd, plane, pl, "CRTC_H", sc->out.mode.vdisplay);
	/* always, so a rotation another client left does not stay */
	if (sc->path.rot_prop)
		drmModeAtomicAddProperty(req, plane, sc->path.rot_prop, sc->path.scan.rot);
}

/* Show the blank buffer on the plane set up as sc->path.scan says. */
int sc_show_blank(struct present_swapchain *sc)
{
	drmModeAtomicReq *req = drmModeAtomicAlloc();
	int ret;

	if (!req)
		return sc_fail(sc, PRESENT_E_NO_MEMORY, "out of memory");
	add_plane(req, sc, sc->bufs.blank.fb_id, sc->path.scan.w, sc->path.scan.h);
	ret = drmModeAtomicCommit(sc->dfd, req, 0, NULL) ? errno : 0;
	drmModeAtomicFree(req);
	sc_queue_blank_shown(sc);
	return ret ? sc_errno(sc, ret, "blank buffer on the plane") : 0;
}

/* Full modeset showing @fb (w x h) on the output; TEST_ONLY with @test. */
int sc_commit_modeset(struct present_swapchain *sc, uint32_t fb, uint32_t w, uint32_t h,
		      bool test)
{
	drmModeAtomicReq *req = drmModeAtomicAlloc();
	uint32_t blob = 0;
	int ret;

	if (!req)
		return sc_fail(sc, PRESENT_E_NO_MEMORY, "out of memory");
	if (drmModeCreatePropertyBlob(sc->dfd, &sc->out.mode, sizeof(sc->out.mode), &blob)) {
		drmModeAtomicFree(req);
		return sc_errno(sc, errno, "mode blob");
	}
	sc_add_prop(req, sc->dfd, sc->out.connector_id, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID",
		    sc->out.crtc_id);
	sc_add_prop(req, sc->dfd, sc->out.crtc_id, DRM_MODE_OBJECT_CRTC, "MODE_ID", blob);
	sc_add_prop(req, sc->dfd, sc->out.crtc_id, DRM_MODE_OBJECT_CRTC, "ACTIVE", 1);
	add_plane(req, sc, fb, w, h);
	ret = drmModeAtomicCommit(sc->dfd, req, DRM_MODE_ATOMIC_ALLOW_MODESET |
				  (test ? DRM_MODE_ATOMIC_TEST_ONLY : 0), NULL);
	ret = ret ? -errno : 0;
	drmModeAtomicFree(req);
	drmModeDestroyPropertyBlob(sc->dfd, blob);
	if (ret)
		return sc_errno(sc, -ret, test ? "static check (TEST_ONLY)" : "modeset");
	return 0;
}

int sc_submit_atomic(struct present_swapchain *sc, struct frame *f, uint32_t fb, bool tear)
{
	drmModeAtomicReq *req;
	uint32_t flags = DRM_MODE_PAGE_FLIP_EVENT | DRM_MODE_ATOMIC_NONBLOCK;
	int ret;

	/* one page flip per vblank: not before the vblank ahead of the one
	 * the target is due at (f->expect_ns: the first at or after it) */
	if (f->target_ns) {
		uint64_t now = present_now_ns(), due = f->expect_ns ? f->expect_ns : f->target_ns;
		uint64_t grid = sc->pace.grid_ns ? sc->pace.grid_ns : sc->pace.period_ns;
		uint64_t wake = present_commit_at(due, grid, sc->pace.ref_vbl_ns);
		uint64_t seq, ns;

		/* a client that fell behind: the vblank before the due one
		 * passed, and the driver may have handled it already */
		if (wake && now + grid >= due &&
		    drmCrtcGetSequence(sc->dfd, sc->out.crtc_id, &seq, &ns) == 0 && ns > sc->pace.ref_vbl_ns)
			wake = present_commit_at(due, grid, ns);
		if (wake > now) {
			struct timespec ts = { (time_t)(wake / 1000000000ull), (long)(wake % 1000000000ull) };

			sc_stats_wakeup(sc);
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		}
	}
	req = drmModeAtomicAlloc();
	if (!req)
		return sc_fail(sc, PRESENT_E_NO_MEMORY, "out of memory");
	sc_add_prop(req, sc->dfd, sc->path.plane_id, DRM_MODE_OBJECT_PLANE, "FB_ID", fb);
	/* an async flip may change the buffer only; the rotation holds from
	 * the blank buffer's commit (sc_show_blank()) */
	if (tear)
		flags |= DRM_MODE_PAGE_FLIP_ASYNC;
	else if (sc->path.rot_prop)
		drmModeAtomicAddProperty(req, sc->path.plane_id, sc->path.rot_prop, sc->path.scan.rot);
	ret = drmModeAtomicCommit(sc->dfd, req, flags, (void *)(uintptr_t)f->present_id);
	if (ret && tear && errno == EINVAL)
		ret = drmModeAtomicCommit(sc->dfd, req, flags & ~DRM_MODE_PAGE_FLIP_ASYNC,
					  (void *)(uintptr_t)f->present_id);
	ret = ret ? errno : 0;
	drmModeAtomicFree(req);
	if (ret)
		return sc_errno(sc, ret, "atomic page flip");
	sc_queue_flip_sent(sc);
	return 0;
}
