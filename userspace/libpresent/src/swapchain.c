// SPDX-License-Identifier: MIT
/*
 * Swap chains: buffers, path setup, present (flip queue or atomic page
 * flips), pacing, statistics.
 *
 * One exception to "libdrm for every DRM call": DRM_IOCTL_VFLIPQ_FLIPQ_SUBMIT
 * goes through ioctl(2).  drmIoctl() (and drmCommandWriteRead(), built on
 * it) repeats a call failing with EAGAIN until it succeeds, which would spin
 * on a refused submission and hide the drain hints the driver returns with
 * -EAGAIN.  present_adapter_removed() also probes with ioctl(2) for the same
 * reason (one attempt, the errno as is).
 */
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "internal.h"

#define MAX_BUFS	16
#define MAX_FRAMES	32
#define TIMING_RING	4096
#define LOG_ENTRIES	256

struct bo {
	int fd;			/* device it lives on */
	uint32_t handle, pitch, width, height, format, fb_id;
	uint64_t size;
	void *map;
};

struct frame {
	uint64_t present_id;
	uint32_t present_count;
	uint32_t buf;		/* scan_fb index shown */
	uint32_t back;		/* back buffer it holds (blt model: copied from) */
	uint64_t target_ns;	/* 0: as soon as possible */
	uint64_t expect_ns;	/* the first vblank >= target (predicted) */
	uint64_t submit_ns;
	unsigned int interval;
};

struct present_swapchain {
	pthread_mutex_t lock;		/* every public call, see sc_lock() */
	struct present_adapter *render, *display;
	struct present_swapchain_desc desc;
	struct present_path path;
	struct present_path_facts facts;
	int dfd;			/* display fd */
	uint32_t connector_id, crtc_id, crtc_index, plane_id;
	uint32_t rot_prop;		/* the plane's "rotation" property, 0: none */
	uint32_t plane_rots;		/* DRM_MODE_ROTATE_* bits it lists */
	uint32_t plane_rot;		/* DRM_MODE_ROTATE_* chain buffers scan with */
	uint32_t src_w, src_h;		/* what the plane scans of a buffer */
	int output;			/* index in the display adapter */
	char output_name[32];
	bool output_gone;		/* seen disconnected, not moved yet */
	drmModeModeInfo mode;
	uint64_t period_ns;		/* fixed refresh: intervals count these */
	uint64_t grid_ns;		/* period the CRTC runs at (boosted or not) */
	uint64_t fastest_ns;		/* boost period, 0: cannot boost */
	bool boost;			/* running at fastest_ns */
	uint32_t disp_format;

	struct bo back[MAX_BUFS];	/* render adapter, app draws here */
	uint32_t scan_fb[MAX_BUFS];	/* display fb per back buffer: the buffer
					   itself (direct), imported (one-copy)
					   or a display-local copy */
	uint32_t import_fb[MAX_BUFS];	/* two-copy engine: copy source */
	struct bo local[MAX_BUFS];	/* display-local buffers */
	struct bo blank;		/* shown at creation/destroy, square: see
					   blank_create() */
	unsigned int cur;		/* back buffer to draw into */
	bool blt_model;			/* blt swap effect, see disp_index() */
	unsigned int slot;		/* blt model: next display-side buffer */

	bool flipq;			/* hardware flip queue in use */
	uint32_t depth;
	volatile struct drm_vflipq_log_entry *log;
	uint32_t log_handle;
	uint64_t log_size;
	uint32_t log_next;		/* next entry to read */
	uint64_t next_present_id;
	uint64_t next_duration_ns;	/* refresh change carried by the next flip */
	bool requeueing;		/* cancelled frames go to requeue[] */
	struct frame requeue[MAX_FRAMES];
	unsigned int nrequeue;

	struct frame frames[MAX_FRAMES];	/* FIFO of queued frames */
	unsigned int nframes;
	bool flip_pending;		/* atomic: a page flip in flight */
	int onscreen;			/* back buffer index on screen, -1 */

	struct present_latency lat;
	int efd;			/* waitable object, -1 */
	struct present_mailbox mbox;	/* this CRTC's events, see events.c */
	bool efd_signalled;

	uint64_t ref_vbl_ns;		/* a known vblank: time, sequence */
	uint64_t ref_vbl_seq;
	uint64_t last_vbl_ns;		/* expected vblank of the last frame */

	uint32_t present_count;
	struct present_frame_statistics stats;
	bool stats_valid;
	struct present_counters ctr;
	uint64_t *t_target, *t_actual;
	uint64_t timing_n;

	char err[256];
};

/* ---- small helpers ------------------------------------------------ */

/*
 * Threading: every public function but present_swapchain_waitable_fd()
 * holds the chain's (recursive) lock for its whole call, waits included,
 * as DXGI serializes the methods of a swap chain.  SC_LOCK() takes it and
 * releases it when the calling function returns.
 */
static struct present_swapchain *sc_lock(struct present_swapchain *sc)
{
	pthread_mutex_lock(&sc->lock);
	return sc;
}

static void sc_unlock(struct present_swapchain **scp)
{
	pthread_mutex_unlock(&(*scp)->lock);
}

#define SC_LOCK(sc) \
	struct present_swapchain *sc_held_ __attribute__((cleanup(sc_unlock))) = sc_lock(sc)

/* The refresh the output runs at: the mode's, a set one, or boosted. */
static void set_period(struct present_swapchain *sc, uint64_t period_ns)
{
	sc->period_ns = period_ns;
	sc->fastest_ns = present_boost_period(period_ns, sc->display->info.refresh_min_ns,
					      sc->mode.htotal, sc->mode.vdisplay, sc->mode.clock);
	if (!sc->fastest_ns)
		sc->boost = false;
	sc->grid_ns = sc->boost ? sc->fastest_ns : period_ns;
}

static uint64_t mode_period(const drmModeModeInfo *m)
{
	return (uint64_t)m->htotal * m->vtotal * 1000000ull / (m->clock ? m->clock : 1);
}

static int sc_fail(struct present_swapchain *sc, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int sc_fail(struct present_swapchain *sc, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(sc->err, sizeof(sc->err), fmt, ap);
	va_end(ap);
	return code;
}

/* errno of a failed DRM call -> code; latches device removal. */
static int sc_errno(struct present_swapchain *sc, int err, const char *what)
{
	int code = adapter_check_err(sc->display, err);

	if (sc->render && sc->render != sc->display && (err == ENODEV || err == ENXIO))
		sc->render->removed = true;
	return sc_fail(sc, code, "%s: %s", what, strerror(err));
}

static bool sc_removed(struct present_swapchain *sc)
{
	return sc->display->removed || sc->render->removed;
}

/* PRESENT_E_DEVICE_REMOVED (with its message) once the display adapter
 * went away, else 0. */
static int check_removed(struct present_swapchain *sc)
{
	if (sc_removed(sc) || present_adapter_removed(sc->display))
		return sc_fail(sc, PRESENT_E_DEVICE_REMOVED, "device removed");
	return 0;
}

static uint32_t bpp_of(uint32_t format)
{
	switch (format) {
	case DRM_FORMAT_ABGR16161616F: case DRM_FORMAT_XBGR16161616F:
		return 64;
	default:
		return 32;
	}
}

static bool format_allowed(uint32_t f)
{
	switch (f) {
	case DRM_FORMAT_XRGB8888: case DRM_FORMAT_ARGB8888:
	case DRM_FORMAT_XBGR8888: case DRM_FORMAT_ABGR8888:
	case DRM_FORMAT_XRGB2101010: case DRM_FORMAT_ARGB2101010:
	case DRM_FORMAT_XBGR2101010: case DRM_FORMAT_ABGR2101010:
	case DRM_FORMAT_ABGR16161616F:
		return true;
	}
	return false;
}

static int bo_create(struct present_swapchain *sc, int fd, uint32_t w, uint32_t h, uint32_t format,
		     bool fb, struct bo *bo)
{
	struct drm_mode_create_dumb c = { .width = w, .height = h, .bpp = bpp_of(format) };
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

static void bo_destroy(struct bo *bo)
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

static int add(drmModeAtomicReq *req, int fd, uint32_t obj, uint32_t type, const char *name,
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
	add(req, sc->dfd, sc->plane_id, DRM_MODE_OBJECT_PLANE, "FB_ID", fb);
	add(req, sc->dfd, sc->plane_id, DRM_MODE_OBJECT_PLANE, "CRTC_ID", sc->crtc_id);
	add(req, sc->dfd, sc->plane_id, DRM_MODE_OBJECT_PLANE, "SRC_X", 0);
	add(req, sc->dfd, sc->plane_id, DRM_MODE_OBJECT_PLANE, "SRC_Y", 0);
	add(req, sc->dfd, sc->plane_id, DRM_MODE_OBJECT_PLANE, "SRC_W", (uint64_t)w << 16);
	add(req, sc->dfd, sc->plane_id, DRM_MODE_OBJECT_PLANE, "SRC_H", (uint64_t)h << 16);
	add(req, sc->dfd, sc->plane_id, DRM_MODE_OBJECT_PLANE, "CRTC_X", 0);
	add(req, sc->dfd, sc->plane_id, DRM_MODE_OBJECT_PLANE, "CRTC_Y", 0);
	add(req, sc->dfd, sc->plane_id, DRM_MODE_OBJECT_PLANE, "CRTC_W", sc->mode.hdisplay);
	add(req, sc->dfd, sc->plane_id, DRM_MODE_OBJECT_PLANE, "CRTC_H", sc->mode.vdisplay);
	/* always, so a rotation another client left does not stay */
	if (sc->rot_prop)
		drmModeAtomicAddProperty(req, sc->plane_id, sc->rot_prop, sc->plane_rot);
}

/*
 * The blank buffer is a square as large as the mode's longer side, so that
 * it covers the plane's source rectangle rotated or not: flips (atomic ones
 * and the flip queue's) keep the plane's rotation and source rectangle, so
 * the blank goes on screen the way the chain's buffers will.
 */
static int blank_create(struct present_swapchain *sc, struct bo *bo)
{
	uint32_t side = sc->mode.hdisplay > sc->mode.vdisplay ? sc->mode.hdisplay :
			sc->mode.vdisplay;

	return bo_create(sc, sc->dfd, side, side, DRM_FORMAT_XRGB8888, true, bo);
}

/* The plane unrotated, scanning out the mode's size (before a decision). */
static void plane_unrotated(struct present_swapchain *sc)
{
	sc->plane_rot = DRM_MODE_ROTATE_0;
	sc->src_w = sc->mode.hdisplay;
	sc->src_h = sc->mode.vdisplay;
}

/* Show the blank buffer on the plane set up as sc->plane_rot/src_w/src_h. */
static int show_blank(struct present_swapchain *sc)
{
	drmModeAtomicReq *req = drmModeAtomicAlloc();
	int ret;

	if (!req)
		return sc_fail(sc, PRESENT_E_NO_MEMORY, "out of memory");
	add_plane(req, sc, sc->blank.fb_id, sc->src_w, sc->src_h);
	ret = drmModeAtomicCommit(sc->dfd, req, 0, NULL) ? errno : 0;
	drmModeAtomicFree(req);
	sc->onscreen = -1;
	return ret ? sc_errno(sc, ret, "blank buffer on the plane") : 0;
}

/* Full modeset showing @fb (w x h) on the output; TEST_ONLY with @test. */
static int commit_modeset(struct present_swapchain *sc, uint32_t fb, uint32_t w, uint32_t h,
			  bool test)
{
	drmModeAtomicReq *req = drmModeAtomicAlloc();
	uint32_t blob = 0;
	int ret;

	if (!req)
		return sc_fail(sc, PRESENT_E_NO_MEMORY, "out of memory");
	if (drmModeCreatePropertyBlob(sc->dfd, &sc->mode, sizeof(sc->mode), &blob)) {
		drmModeAtomicFree(req);
		return sc_errno(sc, errno, "mode blob");
	}
	add(req, sc->dfd, sc->connector_id, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", sc->crtc_id);
	add(req, sc->dfd, sc->crtc_id, DRM_MODE_OBJECT_CRTC, "MODE_ID", blob);
	add(req, sc->dfd, sc->crtc_id, DRM_MODE_OBJECT_CRTC, "ACTIVE", 1);
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

static int find_primary_plane(struct present_swapchain *sc)
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

/* Pick the output, its CRTC and mode. */
static int setup_output(struct present_swapchain *sc, int output)
{
	struct present_adapter *d = sc->display;
	const struct present_output *o;
	drmModeConnector *c;
	int ret, best = -1;

	if (output < 0)
		output = present_adapter_default_output(d);
	if (output < 0)
		return sc_fail(sc, PRESENT_E_NOT_FOUND, "display adapter has no connected output");
	ret = present_adapter_output(d, output, &o);
	if (ret)
		return sc_fail(sc, ret, "no output %d", output);
	if (o->writeback)
		return sc_fail(sc, PRESENT_E_INVALID_ARG, "output %s is a writeback connector", o->name);
	if (!o->connected)
		return sc_fail(sc, PRESENT_E_DISCONNECTED, "output %s is disconnected", o->name);
	sc->output = output;
	snprintf(sc->output_name, sizeof(sc->output_name), "%s", o->name);
	sc->connector_id = o->connector_id;
	sc->crtc_id = o->crtc_id;
	sc->crtc_index = o->crtc_index;
	if (!sc->crtc_id && o->crtc_index < d->num_crtc_ids)
		sc->crtc_id = d->crtc_ids[o->crtc_index];
	if (!sc->crtc_id)
		return sc_fail(sc, PRESENT_E_NOT_FOUND, "no CRTC for output %s", o->name);
	c = drmModeGetConnector(sc->dfd, sc->connector_id);
	if (!c)
		return sc_errno(sc, errno, "connector");
	/* keep the current mode when the CRTC is on, else the preferred */
	{
		drmModeCrtc *crtc = drmModeGetCrtc(sc->dfd, sc->crtc_id);

		if (crtc && crtc->mode_valid) {
			sc->mode = crtc->mode;
			best = 0;
		}
		drmModeFreeCrtc(crtc);
	}
	if (best < 0) {
		for (int i = 0; i < c->count_modes && best < 0; i++)
			if (c->modes[i].type & DRM_MODE_TYPE_PREFERRED)
				best = i;
		if (best < 0 && c->count_modes)
			best = 0;
		if (best >= 0)
			sc->mode = c->modes[best];
	}
	drmModeFreeConnector(c);
	if (best < 0)
		return sc_fail(sc, PRESENT_E_NOT_FOUND, "output %s has no mode", o->name);
	set_period(sc, mode_period(&sc->mode));
	ret = present_router_attach(&d->events, &sc->mbox, sc->crtc_id);
	if (ret)
		return sc_errno(sc, -ret, "eventfd");
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

/* The path's buffers on the display side; the back buffers stay. */
static void free_display_side(struct present_swapchain *sc)
{
	for (int i = 0; i < MAX_BUFS; i++) {
		if (sc->import_fb[i])
			drmModeRmFB(sc->dfd, sc->import_fb[i]);
		if (sc->scan_fb[i] && sc->scan_fb[i] != sc->back[i].fb_id &&
		    sc->scan_fb[i] != sc->local[i].fb_id)
			drmModeRmFB(sc->dfd, sc->scan_fb[i]);
		sc->import_fb[i] = sc->scan_fb[i] = 0;
		bo_destroy(&sc->local[i]);
	}
}

static void free_buffers(struct present_swapchain *sc)
{
	free_display_side(sc);
	for (int i = 0; i < MAX_BUFS; i++)
		bo_destroy(&sc->back[i]);
}

static int setup_copy_path(struct present_swapchain *sc);

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
		plane_unrotated(sc);
		return;
	}
	sc->plane_rot = drm_rotation(sc->desc.rotation);
	sc->src_w = sc->desc.width;
	sc->src_h = sc->desc.height;
}

/* Decide the path for the back buffers and the output as they are now,
 * and set the path's display-side buffers up. */
static int decide(struct present_swapchain *sc)
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
	ret = find_primary_plane(sc);
	if (ret)
		return ret;
	query_scanout(sc);
	sc->facts.static_check = true;
	present_decide_path(&sc->facts, &sc->path);
	plane_geometry(sc);
	if (scans_back_buffers(sc)) {
		for (unsigned int i = 0; i < d->buffer_count; i++) {
			if (same) {
				sc->scan_fb[i] = sc->back[i].fb_id;
			} else if (import_fb(sc, &sc->back[i], &sc->scan_fb[i])) {
				/* the import itself refused: a failed check */
				sc->facts.static_check = false;
				break;
			}
		}
		/* The static check: one plane, rotated as it would be,
		 * TEST_ONLY, changes nothing. */
		if (sc->facts.static_check &&
		    commit_modeset(sc, sc->scan_fb[0], d->width, d->height, true))
			sc->facts.static_check = false;
		if (!sc->facts.static_check) {
			for (unsigned int i = 0; i < d->buffer_count; i++) {
				if (sc->scan_fb[i] && sc->scan_fb[i] != sc->back[i].fb_id)
					drmModeRmFB(sc->dfd, sc->scan_fb[i]);
				sc->scan_fb[i] = 0;
			}
			present_decide_path(&sc->facts, &sc->path);
			plane_geometry(sc);
		}
	}
	if (scans_back_buffers(sc))
		return 0;
	return setup_copy_path(sc);
}

/* Allocate the back buffers, decide the path, set the path's buffers up. */
static int build(struct present_swapchain *sc)
{
	struct present_swapchain_desc *d = &sc->desc;
	int ret;

	for (unsigned int i = 0; i < d->buffer_count; i++) {
		ret = bo_create(sc, sc->render->fd, d->width, d->height, d->format,
				sc->render == sc->display, &sc->back[i]);
		if (ret)
			return ret;
	}
	return decide(sc);
}

/* Copy paths: display-local buffers matching the output. */
static int setup_copy_path(struct present_swapchain *sc)
{
	struct present_swapchain_desc *d = &sc->desc;
	int ret;

	if (sc->disp_format != d->format && d->format != DRM_FORMAT_XBGR8888 &&
	    d->format != DRM_FORMAT_ABGR8888 && d->format != DRM_FORMAT_ARGB8888 &&
	    sc->path.kind != PRESENT_PATH_TWO_COPY_ENGINE)
		return sc_fail(sc, PRESENT_E_NOT_SUPPORTED,
			       "CPU blt cannot convert this format to the output's");
	for (unsigned int i = 0; i < d->buffer_count; i++) {
		ret = bo_create(sc, sc->dfd, sc->mode.hdisplay, sc->mode.vdisplay, sc->disp_format,
				true, &sc->local[i]);
		if (ret)
			return ret;
		sc->scan_fb[i] = sc->local[i].fb_id;
		if (sc->path.kind == PRESENT_PATH_TWO_COPY_ENGINE) {
			ret = import_fb(sc, &sc->back[i], &sc->import_fb[i]);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* ---- flip queue ---------------------------------------------------- */

static int flipq_setup(struct present_swapchain *sc)
{
	struct drm_vflipq_set_log s = { .crtc_id = sc->crtc_id, .plane_id = sc->plane_id,
					.num_entries = LOG_ENTRIES };
	struct drm_vflipq_update_log u = { .crtc_id = sc->crtc_id, .plane_id = sc->plane_id };
	struct drm_mode_map_dumb m = { 0 };
	void *p;

	if (drmIoctl(sc->dfd, DRM_IOCTL_VFLIPQ_FLIPQ_SET_LOG, &s))
		return -errno;
	m.handle = s.handle;
	if (drmIoctl(sc->dfd, DRM_IOCTL_MODE_MAP_DUMB, &m))
		return -errno;
	p = mmap(NULL, s.size, PROT_READ, MAP_SHARED, sc->dfd, m.offset);
	if (p == MAP_FAILED)
		return -errno;
	sc->log = p;
	sc->log_handle = s.handle;
	sc->log_size = s.size;
	if (drmIoctl(sc->dfd, DRM_IOCTL_VFLIPQ_FLIPQ_UPDATE_LOG, &u) == 0)
		sc->log_next = u.first_free;
	/* PresentIds only grow per plane, across swap chains too: start
	 * above what an earlier chain (of any process) used -- the shown one
	 * and, for cancelled ones above it, the clock in microseconds */
	sc->next_present_id = u.present_id_shown + 1;
	if (sc->next_present_id < present_now_ns() / 1000)
		sc->next_present_id = present_now_ns() / 1000;
	return 0;
}

static void flipq_teardown(struct present_swapchain *sc)
{
	struct drm_vflipq_set_log s = { .crtc_id = sc->crtc_id, .plane_id = sc->plane_id };

	if (!sc->log)
		return;
	munmap((void *)sc->log, sc->log_size);
	drmCloseBufferHandle(sc->dfd, sc->log_handle);
	drmIoctl(sc->dfd, DRM_IOCTL_VFLIPQ_FLIPQ_SET_LOG, &s);
	sc->log = NULL;
}

static void set_irq_target(struct present_swapchain *sc, uint64_t target)
{
	struct drm_vflipq_set_irq_target t = { .crtc_id = sc->crtc_id, .plane_id = sc->plane_id,
					       .target = target };

	if (drmIoctl(sc->dfd, DRM_IOCTL_VFLIPQ_FLIPQ_SET_IRQ_TARGET, &t))
		sc_errno(sc, errno, "SET_IRQ_TARGET");
}

/* ---- retirement, statistics ---------------------------------------- */

static uint64_t seq_of(struct present_swapchain *sc, uint64_t ts)
{
	int64_t d = (int64_t)(ts - sc->ref_vbl_ns);
	int64_t p = (int64_t)sc->grid_ns;

	if (!p)
		return sc->ref_vbl_seq;
	return sc->ref_vbl_seq + (d >= 0 ? (d + p / 2) / p : -((-d + p / 2) / p));
}

static void update_waitable(struct present_swapchain *sc);

/* Buffer @b is queued, or on screen with a flip queued that will release
 * it (a buffer left on screen with nothing queued stays usable). */
static bool buf_busy(struct present_swapchain *sc, unsigned int b)
{
	if (sc->onscreen == (int)b && sc->nframes)
		return true;
	for (unsigned int i = 0; i < sc->nframes; i++)
		if (sc->frames[i].buf == b)
			return true;
	return false;
}

/*
 * The display-side buffer the next present goes to.  Flip model: the one
 * of the current back buffer (the buffer itself, or its proxy/copy), so a
 * back buffer is busy while it or its copy is queued or on screen.  Blt
 * model (DXGI's blt swap effects): present copies the back buffer into the
 * displayed surface, a ring of display-side buffers of its own; the back
 * buffer is free again as soon as the copy is done.
 */
static unsigned int disp_index(const struct present_swapchain *sc)
{
	return sc->blt_model ? sc->slot : sc->cur;
}

/* Can the current back buffer be presented (and drawn into) now? */
static bool ready(struct present_swapchain *sc)
{
	if (!present_latency_can_submit(&sc->lat))
		return false;
	if (sc->flipq ? sc->nframes >= sc->depth : sc->flip_pending)
		return false;
	return !buf_busy(sc, disp_index(sc));
}

static void record_timing(struct present_swapchain *sc, const struct frame *f, uint64_t actual)
{
	uint64_t i = sc->timing_n++ % TIMING_RING;

	if (!sc->t_target)
		return;
	sc->t_target[i] = f->target_ns ? f->target_ns : f->submit_ns;
	sc->t_actual[i] = actual;
}

/* Frame at the head of the FIFO retired: shown at @ts, or cancelled (0). */
static void retire_head(struct present_swapchain *sc, uint64_t ts)
{
	struct frame f = sc->frames[0];

	memmove(&sc->frames[0], &sc->frames[1], (sc->nframes - 1) * sizeof(struct frame));
	sc->nframes--;
	present_latency_retire(&sc->lat, 1);
	record_timing(sc, &f, ts);
	if (!ts) {
		if (sc->requeueing && sc->nrequeue < MAX_FRAMES) {
			sc->requeue[sc->nrequeue++] = f;	/* not lost: requeued */
			sc->timing_n--;
			return;
		}
		sc->ctr.cancelled++;
		return;
	}
	sc->ctr.shown++;
	sc->onscreen = f.buf;
	/* on target: the first vblank at or after the target (interval 0:
	 * the first vblank after the submission) */
	if (present_on_target(ts, f.target_ns ? f.target_ns : f.submit_ns, sc->grid_ns))
		sc->ctr.on_target++;
	else
		sc->ctr.missed++;
	{
		uint64_t seq = seq_of(sc, ts);

		/* monotonic whatever happens */
		if (sc->stats_valid && (f.present_count < sc->stats.present_count ||
					seq < sc->stats.present_refresh_count))
			return;
		sc->stats.present_count = f.present_count;
		sc->stats.present_refresh_count = (uint32_t)seq;
		sc->stats.sync_refresh_count = (uint32_t)seq;
		sc->stats.sync_time_ns = ts;
		sc->stats_valid = true;
		sc->ref_vbl_ns = ts;
		sc->ref_vbl_seq = seq;
	}
}

static int read_log(struct present_swapchain *sc)
{
	struct drm_vflipq_update_log u = { .crtc_id = sc->crtc_id, .plane_id = sc->plane_id };
	int n = 0;

	if (drmIoctl(sc->dfd, DRM_IOCTL_VFLIPQ_FLIPQ_UPDATE_LOG, &u))
		return sc_errno(sc, errno, "UPDATE_LOG");
	while (sc->log_next != u.first_free) {
		struct drm_vflipq_log_entry e = sc->log[sc->log_next % LOG_ENTRIES];

		sc->log_next = (sc->log_next + 1) % LOG_ENTRIES;
		/* entries older than the head belong to an earlier chain */
		while (sc->nframes && sc->frames[0].present_id < e.present_id) {
			/* never logged (should not happen): count as cancelled */
			retire_head(sc, 0);
			n++;
		}
		if (sc->nframes && sc->frames[0].present_id == e.present_id) {
			retire_head(sc, e.timestamp_ns == VFLIPQ_TIMESTAMP_CANCELLED ? 0 :
				    e.timestamp_ns);
			n++;
		}
	}
	return n;
}

/*
 * Read the adapter's pending DRM events (every chain's: they go to their
 * CRTC's mailbox) and handle what came for this chain's CRTC.  A flip-queue
 * chain learns from its log; its interrupt only had to wake it.
 */
static int read_events(struct present_swapchain *sc)
{
	struct present_mail m;
	int n = 0, ret = present_router_pump(&sc->display->events, sc->dfd, &sc->mbox, &m);

	if (ret)
		return sc_errno(sc, -ret, "read events");
	if (sc->flipq)
		return 0;
	for (unsigned int i = 0; i < m.nflips; i++) {
		sc->ref_vbl_ns = m.flips[i].ns;
		sc->ref_vbl_seq = m.flips[i].seq;
		if (sc->flip_pending && sc->nframes) {
			retire_head(sc, m.flips[i].ns);
			n++;
		}
		sc->flip_pending = false;
	}
	return n;
}

/* Sleep until the DRM fd or the mailbox (another chain read our event)
 * is readable, or @ms; poll(2)'s result. */
static int wait_events(struct present_swapchain *sc, int ms)
{
	struct pollfd p[2] = { { .fd = sc->dfd, .events = POLLIN },
			       { .fd = sc->mbox.wake_fd, .events = POLLIN } };
	int r;

	sc->ctr.wakeups++;
	r = poll(p, 2, ms);
	if (r < 0 && errno != EINTR)
		return sc_errno(sc, errno, "poll");
	if (p[0].revents & (POLLERR | POLLHUP | POLLNVAL)) {
		present_adapter_removed(sc->display);
		if (sc_removed(sc))
			return sc_fail(sc, PRESENT_E_DEVICE_REMOVED, "device removed");
	}
	return r < 0 ? 1 : r;
}

int present_swapchain_dispatch(struct present_swapchain *sc, int timeout_ms)
{
	uint64_t end = 0;
	int n, r;

	if (!sc)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	if (sc_removed(sc))
		return sc_fail(sc, PRESENT_E_DEVICE_REMOVED, "device removed");
	/* a deadline, not a sleep budget: other chains' events (and the
	 * flip-queue re-reads) wake the poll early */
	if (timeout_ms > 0)
		end = present_now_ns() + (uint64_t)timeout_ms * 1000000ull;
	for (;;) {
		int ms = timeout_ms;

		n = read_events(sc);
		if (n < 0)
			return n;
		if (sc->flipq) {
			r = read_log(sc);
			if (r < 0)
				return r;
			n += r;
		}
		if (!n && end) {
			uint64_t now = present_now_ns();

			if (now >= end)
				ms = 0;
			else
				ms = (int)((end - now + 999999) / 1000000);
		}
		if (n || !ms || !sc->nframes) {
			update_waitable(sc);
			if (n)
				return n;
			/* a flip-queue chain whose wait ran out with frames
			 * queued answers 0, as it always has: its frames may
			 * be due intervals away and callers loop on 0 */
			return timeout_ms && !(sc->flipq && sc->nframes) ? PRESENT_E_TIMEOUT : 0;
		}
		/* interrupt at the frame we wait for */
		if (sc->flipq)
			set_irq_target(sc, sc->frames[0].present_id);
		/* never trust one event alone: re-read the log at least every
		 * couple of periods */
		if (sc->flipq) {
			int cap = (int)(sc->period_ns * 2 / 1000000) + 1;

			if (ms < 0 || ms > cap)
				ms = cap;
		}
		r = wait_events(sc, ms);
		if (r < 0)
			return r;
	}
}

int present_swapchain_wait_idle(struct present_swapchain *sc, int timeout_ms)
{
	uint64_t end;
	int r;

	if (!sc || timeout_ms < 0)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	if (sc_removed(sc))
		return sc_fail(sc, PRESENT_E_DEVICE_REMOVED, "device removed");
	if (!sc->flipq) {
		while (sc->nframes) {
			r = present_swapchain_dispatch(sc, timeout_ms);
			if (r < 0)
				return r;
		}
		return 0;
	}
	end = present_now_ns() + (uint64_t)timeout_ms * 1000000ull;
	/* one interrupt, when the last frame of the batch is on screen */
	if (sc->nframes)
		set_irq_target(sc, sc->frames[sc->nframes - 1].present_id);
	for (;;) {
		uint64_t now, wake;

		r = read_events(sc);
		if (r >= 0)
			r = read_log(sc);
		if (r < 0)
			return r;
		if (!sc->nframes)
			break;
		now = present_now_ns();
		if (now >= end)
			return sc_fail(sc, PRESENT_E_TIMEOUT, "frames still queued");
		/* sleep until the interrupt; if the last frame is replaced
		 * or cancelled there is none: look at the log two periods
		 * after it was due */
		wake = sc->last_vbl_ns + 2 * sc->period_ns;
		if (wake <= now)
			wake = now + 2 * sc->period_ns;
		if (wake > end)
			wake = end;
		r = wait_events(sc, (int)((wake - now) / 1000000) + 1);
		if (r < 0)
			return r;
	}
	update_waitable(sc);
	return 0;
}

static void update_waitable(struct present_swapchain *sc)
{
	bool want;
	uint64_t v;

	if (sc->efd < 0)
		return;
	want = ready(sc);
	if (want && !sc->efd_signalled) {
		v = 1;
		if (write(sc->efd, &v, sizeof(v)) == sizeof(v))
			sc->efd_signalled = true;
	} else if (!want && sc->efd_signalled) {
		if (read(sc->efd, &v, sizeof(v)) == sizeof(v))
			sc->efd_signalled = false;
	}
}

/* Cancel every queued frame (restart, destroy, resize). */
static void cancel_queued(struct present_swapchain *sc)
{
	if (!sc->nframes)
		return;
	if (sc->flipq) {
		struct drm_vflipq_cancel_plane p = { .plane_id = sc->plane_id,
			.present_id_cancel_requested = sc->frames[0].present_id };
		struct drm_vflipq_flip_cancel c = { .crtc_id = sc->crtc_id, .num_planes = 1,
			.planes_ptr = (uintptr_t)&p, .plane_size = sizeof(p) };

		if (drmIoctl(sc->dfd, DRM_IOCTL_VFLIPQ_FLIPQ_CANCEL, &c))
			sc_errno(sc, errno, "FLIPQ_CANCEL");
		read_log(sc);
		/* what was already on its way completes: wait for it */
		for (int tries = 0; sc->nframes && tries < 20 && !sc_removed(sc); tries++)
			present_swapchain_dispatch(sc, (int)(sc->period_ns / 1000000) + 5);
	} else {
		while (sc->nframes && !sc_removed(sc))
			if (present_swapchain_dispatch(sc, 500) == PRESENT_E_TIMEOUT)
				break;
	}
	/* a device that went away retires nothing: forget the rest */
	while (sc->nframes)
		retire_head(sc, 0);
	sc->flip_pending = false;
}

/* ---- public: create / destroy ---------------------------------------- */

static int check_desc(const struct present_swapchain_desc *d)
{
	if (d->width > 8192 || d->height > 8192 || (!d->width) != (!d->height))
		return PRESENT_E_INVALID_ARG;
	if (d->format && !format_allowed(d->format))
		return PRESENT_E_INVALID_ARG;
	if (d->buffer_count < 2 || d->buffer_count > MAX_BUFS)
		return PRESENT_E_INVALID_ARG;
	if ((unsigned int)d->swap_effect > PRESENT_SWAP_BLT_DISCARD)
		return PRESENT_E_INVALID_ARG;
	if (d->samples > 8 || (d->samples & (d->samples - 1)))
		return PRESENT_E_INVALID_ARG;
	if (d->rotation % 90 || d->rotation > 270)
		return PRESENT_E_INVALID_ARG;
	if (d->flags & ~(PRESENT_SWAPCHAIN_FRAME_LATENCY_WAITABLE | PRESENT_SWAPCHAIN_ALLOW_TEARING))
		return PRESENT_E_INVALID_ARG;
	/* DXGI: flip effects need 2+ buffers, MSAA only with blt effects... we
	 * accept MSAA everywhere and resolve in the blt when needed */
	return 0;
}

static void reference_vblank(struct present_swapchain *sc)
{
	uint64_t seq = 0, ns = 0;

	if (drmCrtcGetSequence(sc->dfd, sc->crtc_id, &seq, &ns) == 0 && ns) {
		sc->ref_vbl_seq = seq;
		sc->ref_vbl_ns = ns;
	} else {
		sc->ref_vbl_ns = present_now_ns();
	}
	sc->last_vbl_ns = sc->ref_vbl_ns;
}

int present_swapchain_create(struct present_adapter *render, struct present_adapter *display,
			     int output, const struct present_swapchain_desc *desc,
			     struct present_swapchain **out)
{
	struct present_swapchain *sc;
	int ret;

	if (out)
		*out = NULL;
	if (!display || !desc || !out)
		return PRESENT_E_INVALID_ARG;
	if (!render)
		render = display;
	if (check_desc(desc))
		return present_fail(display->err, PRESENT_E_INVALID_ARG, "invalid swap chain description");
	if (present_adapter_removed(display) || present_adapter_removed(render))
		return present_fail(display->err, PRESENT_E_DEVICE_REMOVED, "device removed");
	if (!(display->info.role & PRESENT_ROLE_DISPLAY))
		return present_fail(display->err, PRESENT_E_INVALID_ARG, "adapter %s cannot display",
				    display->info.name);
	if (render->sys != display->sys)
		return present_fail(display->err, PRESENT_E_INVALID_ARG, "adapters of different systems");
	sc = calloc(1, sizeof(*sc));
	if (!sc)
		return PRESENT_E_NO_MEMORY;
	{
		pthread_mutexattr_t ma;

		/* recursive: public calls nest (present -> dispatch) */
		pthread_mutexattr_init(&ma);
		pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
		pthread_mutex_init(&sc->lock, &ma);
		pthread_mutexattr_destroy(&ma);
	}
	sc->render = render;
	sc->display = display;
	sc->dfd = display->fd;
	sc->desc = *desc;
	sc->efd = -1;
	sc->mbox.wake_fd = -1;
	sc->onscreen = -1;
	sc->next_present_id = 1;
	if (!sc->desc.format)
		sc->desc.format = DRM_FORMAT_XRGB8888;
	if (!sc->desc.samples)
		sc->desc.samples = 1;
	present_latency_init(&sc->lat, 3);
	sc->t_target = calloc(TIMING_RING, sizeof(uint64_t));
	sc->t_actual = calloc(TIMING_RING, sizeof(uint64_t));

	ret = setup_output(sc, output);
	if (!ret) {
		if (!sc->desc.width) {
			bool swap = sc->desc.rotation == 90 || sc->desc.rotation == 270;

			sc->desc.width = swap ? sc->mode.vdisplay : sc->mode.hdisplay;
			sc->desc.height = swap ? sc->mode.hdisplay : sc->mode.vdisplay;
		}
		ret = build(sc);
	}
	if (!ret)
		ret = blank_create(sc, &sc->blank);
	if (!ret)
		ret = commit_modeset(sc, sc->blank.fb_id, sc->src_w, sc->src_h, false);
	if (!ret && (sc->desc.flags & PRESENT_SWAPCHAIN_FRAME_LATENCY_WAITABLE)) {
		sc->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (sc->efd < 0)
			ret = sc_errno(sc, errno, "eventfd");
	}
	if (ret) {
		snprintf(display->err, sizeof(display->err), "%s", sc->err);
		present_swapchain_destroy(sc);
		return ret;
	}
	sc->depth = 1;
	if (display->info.is_vflipq && display->info.flipq_depth > 1 &&
	    (display->info.vflipq_caps & VFLIPQ_CAP_FLIP_QUEUE) && !getenv("PRESENT_NO_FLIPQ")) {
		if (flipq_setup(sc) == 0) {
			sc->flipq = true;
			sc->depth = display->info.flipq_depth;
		}
	}
	reference_vblank(sc);
	update_waitable(sc);
	*out = sc;
	return 0;
}

void present_swapchain_destroy(struct present_swapchain *sc)
{
	if (!sc)
		return;
	/* waits for a call of another thread to return; calls after destroy
	 * are the application's bug, as in DXGI after the final Release */
	pthread_mutex_lock(&sc->lock);
	if (!sc_removed(sc)) {
		cancel_queued(sc);
		/* leave the blank buffer on screen so nothing we free is shown,
		 * the plane unrotated as other clients expect it */
		if (sc->blank.fb_id && sc->plane_id) {
			plane_unrotated(sc);
			show_blank(sc);
		}
	}
	flipq_teardown(sc);
	free_buffers(sc);
	bo_destroy(&sc->blank);
	present_router_detach(&sc->display->events, &sc->mbox);
	if (sc->efd >= 0)
		close(sc->efd);
	free(sc->t_target);
	free(sc->t_actual);
	pthread_mutex_unlock(&sc->lock);
	pthread_mutex_destroy(&sc->lock);
	free(sc);
}

/* ---- public: buffers ---------------------------------------------------- */

int present_swapchain_get_buffer(struct present_swapchain *sc, unsigned int index,
				 struct present_buffer *out)
{
	if (!sc || !out)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	if (index >= sc->desc.buffer_count)
		return sc_fail(sc, PRESENT_E_INVALID_ARG, "buffer %u of %u", index, sc->desc.buffer_count);
	if (index && sc->desc.swap_effect == PRESENT_SWAP_BLT_DISCARD)
		return sc_fail(sc, PRESENT_E_INVALID_ARG, "blt-discard: only buffer 0 is accessible");
	if (sc_removed(sc))
		return sc_fail(sc, PRESENT_E_DEVICE_REMOVED, "device removed");
	out->map = sc->back[index].map;
	out->pitch = sc->back[index].pitch;
	out->width = sc->back[index].width;
	out->height = sc->back[index].height;
	out->format = sc->back[index].format;
	out->size = sc->back[index].size;
	out->dmabuf_fd = -1;
	return 0;
}

int present_swapchain_current_back_buffer(struct present_swapchain *sc)
{
	if (!sc)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	if (sc_removed(sc))
		return sc_fail(sc, PRESENT_E_DEVICE_REMOVED, "device removed");
	return (int)sc->cur;
}

int present_swapchain_resize(struct present_swapchain *sc, unsigned int count, uint32_t width,
			     uint32_t height, uint32_t format)
{
	struct present_swapchain_desc nd;
	int ret;

	if (!sc)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	nd = sc->desc;
	if (count)
		nd.buffer_count = count;
	nd.width = width;
	nd.height = height;
	if (format)
		nd.format = format;
	if (check_desc(&nd))
		return sc_fail(sc, PRESENT_E_INVALID_ARG, "invalid resize arguments");
	if (present_adapter_removed(sc->display) || present_adapter_removed(sc->render))
		return sc_fail(sc, PRESENT_E_DEVICE_REMOVED, "device removed");
	cancel_queued(sc);
	/* the blank buffer goes on screen while the buffers are replaced */
	show_blank(sc);
	free_buffers(sc);
	if (!nd.width) {
		bool swap = nd.rotation == 90 || nd.rotation == 270;

		nd.width = swap ? sc->mode.vdisplay : sc->mode.hdisplay;
		nd.height = swap ? sc->mode.hdisplay : sc->mode.vdisplay;
	}
	sc->desc = nd;
	sc->cur = 0;
	sc->slot = 0;
	ret = build(sc);
	/* the plane as the new path scans (rotated or not) */
	if (!ret)
		ret = show_blank(sc);
	update_waitable(sc);
	return ret;
}

static void cancel_for_requeue(struct present_swapchain *sc);
static int redecide_output(struct present_swapchain *sc);
static int requeue_frames(struct present_swapchain *sc, bool copy);

int present_swapchain_set_mode(struct present_swapchain *sc, unsigned int mode_index,
			       bool resize_buffers)
{
	drmModeConnector *c;
	drmModeModeInfo old;
	int ret;

	if (!sc)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	ret = check_removed(sc);
	if (ret)
		return ret;
	c = drmModeGetConnector(sc->dfd, sc->connector_id);
	if (!c)
		return sc_errno(sc, errno, "connector");
	if (mode_index >= (unsigned int)c->count_modes) {
		drmModeFreeConnector(c);
		return sc_fail(sc, PRESENT_E_INVALID_ARG, "mode %u of %d", mode_index, c->count_modes);
	}
	old = sc->mode;
	sc->mode = c->modes[mode_index];
	drmModeFreeConnector(c);
	if (!resize_buffers) {
		/* the back buffers stay: queued frames go on in the new mode */
		cancel_for_requeue(sc);
		ret = redecide_output(sc);
		if (ret) {
			sc->mode = old;
			sc->ctr.cancelled += sc->nrequeue;
			sc->nrequeue = 0;
			return ret;
		}
		present_adapter_refresh(sc->display);
		return requeue_frames(sc, true);
	}
	/* new buffers (DXGI ResizeBuffers): queued frames complete or are
	 * cancelled first */
	cancel_queued(sc);
	bo_destroy(&sc->blank);
	ret = blank_create(sc, &sc->blank);
	plane_unrotated(sc);
	if (!ret)
		ret = commit_modeset(sc, sc->blank.fb_id, sc->src_w, sc->src_h, false);
	if (ret) {
		sc->mode = old;
		return ret;
	}
	sc->onscreen = -1;
	/* a mode set restores the mode's own period, unboosted */
	sc->boost = false;
	set_period(sc, mode_period(&sc->mode));
	sc->next_duration_ns = 0;
	reference_vblank(sc);
	present_adapter_refresh(sc->display);
	/* buffers of the new output size, the path decided again */
	return present_swapchain_resize(sc, 0, 0, 0, 0);
}

int present_swapchain_path(struct present_swapchain *sc, struct present_path *out)
{
	if (!sc || !out)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	*out = sc->path;
	return 0;
}

/* ---- public: present ------------------------------------------------------ */

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
static void cpu_blt_rotate(const struct bo *src, struct bo *dst, uint32_t rot, bool swz)
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
static void cpu_blt(const struct bo *src, struct bo *dst, uint32_t rot)
{
	bool swz = (src->format == DRM_FORMAT_XBGR8888 || src->format == DRM_FORMAT_ABGR8888) &&
		   (dst->format == DRM_FORMAT_XRGB8888 || dst->format == DRM_FORMAT_ARGB8888);
	uint32_t bpp = bpp_of(src->format) / 8;

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

		if (!swz && src->width == dst->width && bpp == bpp_of(dst->format) / 8) {
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
		.src_fb = sc->import_fb[b], .dst_fb = sc->local[d].fb_id,
		.src_rect = { 0, 0, sc->back[b].width, sc->back[b].height },
		.dst_rect = { 0, 0, sc->local[d].width, sc->local[d].height },
	};	/* out_fence_fd: zero on input */

	if (drmIoctl(sc->dfd, DRM_IOCTL_VFLIPQ_COPY, &c))
		return sc_errno(sc, errno, "COPY");
	/* the fence is also implicit on the destination: the flip waits */
	if (c.out_fence_fd >= 0)
		close(c.out_fence_fd);
	sc->ctr.copies++;
	sc->ctr.bytes_copied += (uint64_t)sc->local[d].width * sc->local[d].height *
				(bpp_of(sc->local[d].format) / 8);
	return 0;
}

/* The present-time copies of back buffer @b to display-side buffer @d. */
static int do_copies(struct present_swapchain *sc, unsigned int b, unsigned int d)
{
	switch (sc->path.kind) {
	case PRESENT_PATH_DIRECT_FLIP:
	case PRESENT_PATH_CASO_ONE_COPY:
		/* one-copy: the "copy" is the render itself into the
		 * cross-adapter buffer; nothing to do at present time */
		if (sc->path.kind == PRESENT_PATH_CASO_ONE_COPY)
			sc->ctr.copies += 0;
		return 0;
	case PRESENT_PATH_TWO_COPY_ENGINE:
		return engine_copy(sc, b, d);
	default:
		cpu_blt(&sc->back[b], &sc->local[d], sc->desc.rotation);
		sc->ctr.copies++;
		sc->ctr.bytes_copied += (uint64_t)sc->local[d].pitch * sc->local[d].height;
		return 0;
	}
}

/*
 * A queued flip changes the buffer; the plane keeps (with no
 * VFLIPQ_FLIP_PLANE_GEOMETRY) the rectangles show_blank() or the modeset
 * set up for the path's buffers.  Since uAPI 1.3 each flip also carries the
 * chain's rotation, so a commit of another client in between cannot leave
 * the buffers turned the wrong way; an older driver keeps the rotation of
 * the last commit, and takes the 64-byte plane as its zero tail is ignored.
 */
static int submit_flipq(struct present_swapchain *sc, struct frame *f, uint32_t fb, uint32_t mode)
{
	struct drm_vflipq_flip_plane p = {
		.plane_id = sc->plane_id, .fb_id = fb, .present_id = f->present_id, .mode = mode,
	};
	struct drm_vflipq_flip_submit s = {
		.crtc_id = sc->crtc_id, .target_ns = f->target_ns,
		.duration_ns = sc->next_duration_ns,
		.planes_ptr = (uintptr_t)&p, .num_planes = 1, .plane_size = sizeof(p),
	};

	if (sc->rot_prop && (sc->display->info.vflipq_caps & VFLIPQ_CAP_FLIPQ_ROTATION)) {
		p.flags |= VFLIPQ_FLIP_PLANE_ROTATION;
		p.rotation = sc->plane_rot;
	}
	for (int tries = 0; tries < 100; tries++) {
		/* ioctl(2), not drmIoctl(): see the top of this file */
		if (ioctl(sc->dfd, DRM_IOCTL_VFLIPQ_FLIPQ_SUBMIT, &s) == 0) {
			sc->next_duration_ns = 0;
			return 0;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN)
			return sc_errno(sc, errno, "FLIPQ_SUBMIT");
		/* drain hint: wait for the pending flips, then resubmit */
		if (!sc->nframes)
			return sc_fail(sc, PRESENT_E_IO, "FLIPQ_SUBMIT: retry with nothing pending");
		sc->ctr.drain_waits++;
		while (sc->nframes) {
			int r = present_swapchain_dispatch(sc, 1000);

			if (r < 0 && r != PRESENT_E_TIMEOUT)
				return r;
		}
		s.drain_flags = s.drain_planes = 0;
	}
	return sc_fail(sc, PRESENT_E_BUSY, "FLIPQ_SUBMIT: still refused after draining");
}

static int submit_atomic(struct present_swapchain *sc, struct frame *f, uint32_t fb, bool tear)
{
	drmModeAtomicReq *req;
	uint32_t flags = DRM_MODE_PAGE_FLIP_EVENT | DRM_MODE_ATOMIC_NONBLOCK;
	int ret;

	/* one page flip per vblank: sleep until the vblank before the target */
	if (f->target_ns) {
		uint64_t now = present_now_ns();

		if (f->target_ns > now + sc->period_ns / 2) {
			uint64_t wake = f->target_ns - sc->period_ns / 2;
			struct timespec ts = { (time_t)(wake / 1000000000ull), (long)(wake % 1000000000ull) };

			sc->ctr.wakeups++;
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		}
	}
	req = drmModeAtomicAlloc();
	if (!req)
		return sc_fail(sc, PRESENT_E_NO_MEMORY, "out of memory");
	add(req, sc->dfd, sc->plane_id, DRM_MODE_OBJECT_PLANE, "FB_ID", fb);
	/* an async flip may change the buffer only; the rotation holds from
	 * the blank buffer's commit (show_blank()) */
	if (tear)
		flags |= DRM_MODE_PAGE_FLIP_ASYNC;
	else if (sc->rot_prop)
		drmModeAtomicAddProperty(req, sc->plane_id, sc->rot_prop, sc->plane_rot);
	ret = drmModeAtomicCommit(sc->dfd, req, flags, (void *)(uintptr_t)f->present_id);
	if (ret && tear && errno == EINVAL)
		ret = drmModeAtomicCommit(sc->dfd, req, flags & ~DRM_MODE_PAGE_FLIP_ASYNC,
					  (void *)(uintptr_t)f->present_id);
	ret = ret ? errno : 0;
	drmModeAtomicFree(req);
	if (ret)
		return sc_errno(sc, ret, "atomic page flip");
	sc->flip_pending = true;
	return 0;
}

/*
 * The driver refused to scan a back buffer out at present time (a
 * direct-flip or one-copy chain): decide again with a failed check, which
 * gives a proxy or two-copy path, and set its buffers up.  Queued frames
 * still show the old buffers, which stay allocated.
 */
static int redecide_after_failed_flip(struct present_swapchain *sc)
{
	char why[sizeof(sc->err)];

	if (sc->path.kind != PRESENT_PATH_DIRECT_FLIP && sc->path.kind != PRESENT_PATH_CASO_ONE_COPY)
		return -1;
	memcpy(why, sc->err, sizeof(why));
	/* drain: queued frames reference the fbs we are about to replace */
	for (int i = 0; sc->nframes && i < 50; i++)
		present_swapchain_dispatch(sc, 100);
	if (sc->nframes)
		return -1;
	if (sc->plane_rot != DRM_MODE_ROTATE_0) {
		/* the copies come unrotated and output-sized: the plane too */
		plane_unrotated(sc);
		if (show_blank(sc))
			return -1;
	}
	for (unsigned int i = 0; i < sc->desc.buffer_count; i++) {
		if (sc->scan_fb[i] && sc->scan_fb[i] != sc->back[i].fb_id &&
		    (int)i != sc->onscreen)
			drmModeRmFB(sc->dfd, sc->scan_fb[i]);
		sc->scan_fb[i] = 0;
	}
	sc->facts.static_check = false;
	present_decide_path(&sc->facts, &sc->path);
	snprintf(sc->path.reason + strlen(sc->path.reason),
		 sizeof(sc->path.reason) - strlen(sc->path.reason),
		 " (after a failed flip: %.60s)", why);
	return setup_copy_path(sc);
}

/* ---- requeue, output and mode changes --------------------------------------- */

static uint64_t expect_of(struct present_swapchain *sc, uint64_t t);

/* Cancel the queued frames into requeue[] (not counted as cancelled). */
static void cancel_for_requeue(struct present_swapchain *sc)
{
	sc->requeueing = true;
	sc->nrequeue = 0;
	cancel_queued(sc);
	sc->requeueing = false;
}

/*
 * Submit again the frames cancel_for_requeue() kept, with targets computed
 * on the grid of now (WDDM requeues flips whose target no longer holds);
 * @copy: the path changed, so the copy paths copy the back buffers again.
 * Without a flip queue only the newest goes (one flip in flight), the
 * others count as replaced.
 */
static int requeue_frames(struct present_swapchain *sc, bool copy)
{
	unsigned int first = 0;
	int ret = 0;

	if (!sc->flipq && sc->nrequeue > 1) {
		first = sc->nrequeue - 1;
		sc->ctr.cancelled += first;
	}
	sc->last_vbl_ns = 0;
	for (unsigned int i = first; i < sc->nrequeue; i++) {
		struct frame f = sc->requeue[i];
		uint64_t prev = sc->nframes ? sc->last_vbl_ns : sc->ref_vbl_ns;
		uint64_t now = present_now_ns(), p = sc->period_ns;

		if (!sc->nframes && p && now > prev)
			prev += (now - prev) / p * p;
		f.present_id = sc->next_present_id++;
		f.target_ns = present_interval_target(prev, p, f.interval ? f.interval : 1,
						      sc->fastest_ns);
		f.submit_ns = now;
		f.expect_ns = expect_of(sc, f.target_ns);
		ret = copy ? do_copies(sc, f.back, f.buf) : 0;
		if (!ret && sc->flipq)
			ret = submit_flipq(sc, &f, sc->scan_fb[f.buf], VFLIPQ_FLIP_ON_NEXT_VSYNC);
		else if (!ret)
			ret = submit_atomic(sc, &f, sc->scan_fb[f.buf], false);
		if (ret) {
			/* the rest is lost: count it */
			sc->ctr.cancelled += sc->nrequeue - i;
			break;
		}
		present_latency_submit(&sc->lat);
		sc->frames[sc->nframes++] = f;
		sc->last_vbl_ns = f.expect_ns;
		sc->ctr.requeued++;
		if (sc->flipq)
			set_irq_target(sc, f.present_id);
	}
	sc->nrequeue = 0;
	update_waitable(sc);
	return ret;
}

/*
 * The chain's output or its mode changed (a mode set by someone else, a
 * move, a reconnect): light the output in sc->mode with a new blank buffer,
 * then decide the path again for the back buffers as they are (their
 * contents stay).  The caller cancelled the queued frames for requeueing.
 */
static int redecide_output(struct present_swapchain *sc)
{
	struct bo blank = { 0 };
	uint32_t old_rot, old_w, old_h;
	int ret;

	ret = blank_create(sc, &blank);
	if (!ret && !sc->plane_id)
		ret = find_primary_plane(sc);
	if (ret) {
		bo_destroy(&blank);
		return ret;
	}
	/* the old path's rotation and size need not hold in this mode */
	old_rot = sc->plane_rot;
	old_w = sc->src_w;
	old_h = sc->src_h;
	plane_unrotated(sc);
	ret = commit_modeset(sc, blank.fb_id, sc->src_w, sc->src_h, false);
	if (ret) {
		sc->plane_rot = old_rot;
		sc->src_w = old_w;
		sc->src_h = old_h;
		bo_destroy(&blank);
		return ret;
	}
	/* the blank buffer is on screen: the old path's buffers can go */
	bo_destroy(&sc->blank);
	sc->blank = blank;
	sc->onscreen = -1;
	free_display_side(sc);
	sc->boost = false;
	set_period(sc, mode_period(&sc->mode));
	sc->next_duration_ns = 0;
	reference_vblank(sc);
	ret = decide(sc);
	if (!ret)
		ret = show_blank(sc);
	if (!ret)
		snprintf(sc->path.reason + strlen(sc->path.reason),
			 sizeof(sc->path.reason) - strlen(sc->path.reason), " (on %s, %ux%u)",
			 sc->output_name, sc->mode.hdisplay, sc->mode.vdisplay);
	return ret;
}

static bool same_mode(const drmModeModeInfo *a, const drmModeModeInfo *b)
{
	return a->hdisplay == b->hdisplay && a->vdisplay == b->vdisplay &&
	       a->htotal == b->htotal && a->vtotal == b->vtotal && a->clock == b->clock &&
	       a->flags == b->flags;
}

/*
 * Before each present: is the output still connected, still in the chain's
 * mode?  A disconnected output fails (its queued frames cancelled: nobody
 * would see them); a mode changed under the chain, or a CRTC found off
 * after a reconnect, re-decides the path there and requeues the frames.
 */
static int check_output(struct present_swapchain *sc)
{
	drmModeConnector *c = drmModeGetConnectorCurrent(sc->dfd, sc->connector_id);
	drmModeCrtc *crtc;
	drmModeModeInfo m;
	bool gone, changed;
	int ret;

	if (!c)
		return sc_errno(sc, errno, "connector");
	/* "unknown" (never probed) is not gone */
	gone = c->connection == DRM_MODE_DISCONNECTED;
	drmModeFreeConnector(c);
	if (gone) {
		if (!sc->output_gone)
			cancel_queued(sc);
		sc->output_gone = true;
		return sc_fail(sc, PRESENT_E_DISCONNECTED,
			       "output %s disconnected: present_swapchain_set_output() moves the chain",
			       sc->output_name);
	}
	crtc = drmModeGetCrtc(sc->dfd, sc->crtc_id);
	if (!crtc)
		return sc_errno(sc, errno, "CRTC");
	changed = !crtc->mode_valid || !same_mode(&crtc->mode, &sc->mode);
	m = crtc->mode_valid ? crtc->mode : sc->mode;
	drmModeFreeCrtc(crtc);
	if (!changed && !sc->output_gone)
		return 0;
	cancel_for_requeue(sc);
	sc->mode = m;
	sc->output_gone = false;
	ret = redecide_output(sc);
	if (!ret)
		ret = requeue_frames(sc, true);
	else
		sc->nrequeue = 0;
	return ret;
}

/* Turn the chain's CRTC off (the chain moves to another output). */
static void release_output(struct present_swapchain *sc)
{
	drmModeAtomicReq *req = drmModeAtomicAlloc();

	if (!req)
		return;
	add(req, sc->dfd, sc->plane_id, DRM_MODE_OBJECT_PLANE, "FB_ID", 0);
	add(req, sc->dfd, sc->plane_id, DRM_MODE_OBJECT_PLANE, "CRTC_ID", 0);
	add(req, sc->dfd, sc->connector_id, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", 0);
	add(req, sc->dfd, sc->crtc_id, DRM_MODE_OBJECT_CRTC, "MODE_ID", 0);
	add(req, sc->dfd, sc->crtc_id, DRM_MODE_OBJECT_CRTC, "ACTIVE", 0);
	drmModeAtomicCommit(sc->dfd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	drmModeAtomicFree(req);
}

/*
 * The output a chain may move to: index of @output (-1: the default) after
 * re-reading the outputs (hotplug), or a negative error code.
 */
static int pick_output(struct present_swapchain *sc, int output)
{
	const struct present_output *o;
	int ret = present_adapter_refresh(sc->display);

	if (ret)
		return sc_fail(sc, ret, "re-reading the outputs: %s", present_strerror(ret));
	if (output < 0)
		output = present_adapter_default_output(sc->display);
	if (output < 0)
		return sc_fail(sc, PRESENT_E_DISCONNECTED, "no connected output");
	if (present_adapter_output(sc->display, output, &o))
		return sc_fail(sc, PRESENT_E_INVALID_ARG, "no output %d", output);
	if (o->writeback)
		return sc_fail(sc, PRESENT_E_INVALID_ARG, "output %s is a writeback connector",
			       o->name);
	if (!o->connected)
		return sc_fail(sc, PRESENT_E_DISCONNECTED, "output %s is disconnected", o->name);
	return output;
}

int present_swapchain_set_output(struct present_swapchain *sc, int output)
{
	uint32_t old_connector, old_crtc;
	int ret;

	if (!sc)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	ret = check_removed(sc);
	output = ret ? ret : pick_output(sc, output);
	if (output < 0)
		return output;
	if (output == sc->output && !sc->output_gone)
		return 0;
	cancel_for_requeue(sc);
	old_connector = sc->connector_id;
	old_crtc = sc->crtc_id;
	flipq_teardown(sc);
	ret = setup_output(sc, output);
	if (!ret && sc->crtc_id != old_crtc) {
		uint32_t c = sc->connector_id, k = sc->crtc_id;

		/* off with the old CRTC, nothing of ours on it any more */
		sc->connector_id = old_connector;
		sc->crtc_id = old_crtc;
		release_output(sc);
		sc->connector_id = c;
		sc->crtc_id = k;
		sc->plane_id = 0;
	}
	sc->output_gone = false;
	if (!ret)
		ret = redecide_output(sc);
	if (!ret && sc->flipq && flipq_setup(sc)) {
		/* the new CRTC takes page flips instead */
		sc->flipq = false;
		sc->depth = 1;
	}
	if (!ret)
		return requeue_frames(sc, true);
	sc->ctr.cancelled += sc->nrequeue;
	sc->nrequeue = 0;
	return ret;
}

int present_swapchain_output(struct present_swapchain *sc)
{
	if (!sc)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	return sc->output;
}

int present_swapchain_present(struct present_swapchain *sc, unsigned int interval,
			      unsigned int flags)
{
	struct frame f;
	unsigned int b, d;
	bool tear;
	int ret;

	if (!sc)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	if (interval > 4 || (flags & ~(PRESENT_DO_NOT_WAIT | PRESENT_ALLOW_TEARING |
				       PRESENT_RESTART | PRESENT_TEST)))
		return sc_fail(sc, PRESENT_E_INVALID_ARG, "sync interval %u / flags %#x", interval, flags);
	tear = flags & PRESENT_ALLOW_TEARING;
	if (tear && (interval || !(sc->desc.flags & PRESENT_SWAPCHAIN_ALLOW_TEARING)))
		return sc_fail(sc, PRESENT_E_INVALID_ARG,
			       "allow-tearing needs interval 0 and a chain created with it");
	if (sc_removed(sc) || present_adapter_removed(sc->display) || present_adapter_removed(sc->render))
		return sc_fail(sc, PRESENT_E_DEVICE_REMOVED, "device removed");
	ret = check_output(sc);
	if (ret)
		return ret;
	if (flags & PRESENT_TEST)
		return 0;
	ret = present_swapchain_dispatch(sc, 0);
	if (ret < 0)
		return ret;
	if (flags & PRESENT_RESTART)
		cancel_queued(sc);
	while (!ready(sc)) {
		if (flags & PRESENT_DO_NOT_WAIT)
			return sc_fail(sc, PRESENT_E_WAS_STILL_DRAWING, "frame latency reached");
		ret = present_swapchain_dispatch(sc, 2000);
		if (ret == PRESENT_E_TIMEOUT)
			return sc_fail(sc, PRESENT_E_IO, "no flip completed in 2 s");
		if (ret < 0)
			return ret;
	}
	b = sc->cur;
	d = disp_index(sc);
	ret = do_copies(sc, b, d);
	if (ret)
		return ret;

	memset(&f, 0, sizeof(f));
	f.buf = d;
	f.back = b;
	f.present_id = sc->next_present_id++;
	if (!f.present_id)
		f.present_id = sc->next_present_id++;
	f.present_count = sc->present_count + 1;
	f.interval = interval;
	f.submit_ns = present_now_ns();
	{
		/* the previous flip's vblank: the expected one of the last
		 * queued frame, or the last vblank seen */
		uint64_t prev = sc->nframes ? sc->last_vbl_ns : 0;
		uint64_t p = sc->grid_ns;

		if (!prev) {
			/* latest vblank at or before now */
			uint64_t base = sc->ref_vbl_ns;

			if (p && f.submit_ns > base)
				base += (f.submit_ns - base) / p * p;
			prev = base;
		}
		/* intervals count periods of the fixed refresh, boosted or
		 * not; the boost variant when the output can boost */
		if (interval) {
			f.target_ns = present_interval_target(prev, sc->period_ns, interval,
							      sc->fastest_ns);
		} else if (sc->desc.swap_effect == PRESENT_SWAP_FLIP_SEQUENTIAL && sc->nframes) {
			/* sequential: never replace a frame not yet shown */
			f.target_ns = present_interval_target(prev, sc->period_ns, 1, sc->fastest_ns);
		} else {
			f.target_ns = 0;	/* as soon as possible; latest wins */
		}
		{
			uint64_t t = f.target_ns ? f.target_ns : f.submit_ns;
			uint64_t base = sc->ref_vbl_ns;

			f.expect_ns = p && t > base ? base + (t - base + p - 1) / p * p : base + p;
		}
	}
	if (sc->flipq)
		ret = submit_flipq(sc, &f, sc->scan_fb[d],
				   tear ? VFLIPQ_FLIP_IMMEDIATE : VFLIPQ_FLIP_ON_NEXT_VSYNC);
	else
		ret = submit_atomic(sc, &f, sc->scan_fb[d], tear);
	if (ret == PRESENT_E_INVALID_ARG && redecide_after_failed_flip(sc) == 0) {
		/* as DWM after a failed present-time check: copy instead */
		ret = do_copies(sc, b, d);
		if (!ret && sc->flipq)
			ret = submit_flipq(sc, &f, sc->scan_fb[d],
					   tear ? VFLIPQ_FLIP_IMMEDIATE : VFLIPQ_FLIP_ON_NEXT_VSYNC);
		else if (!ret)
			ret = submit_atomic(sc, &f, sc->scan_fb[d], tear);
	}
	if (ret)
		return ret;
	if (sc->flipq)
		set_irq_target(sc, f.present_id);	/* sleep across the batch */
	present_latency_submit(&sc->lat);
	sc->frames[sc->nframes++] = f;
	sc->last_vbl_ns = f.expect_ns;
	sc->present_count++;
	sc->ctr.presented++;
	if (sc->blt_model) {
		/* discard: buffer 0 is the back buffer, its contents are
		 * undefined after present; sequential: the buffers rotate,
		 * each keeping its contents */
		sc->slot = (sc->slot + 1) % sc->desc.buffer_count;
		if (sc->desc.swap_effect == PRESENT_SWAP_BLT_SEQUENTIAL)
			sc->cur = (sc->cur + 1) % sc->desc.buffer_count;
	} else {
		sc->cur = (sc->cur + 1) % sc->desc.buffer_count;
	}
	/* blocking present: return once the next back buffer can be drawn
	 * into (with 2 buffers: once this frame replaced it on screen) */
	while (!(flags & PRESENT_DO_NOT_WAIT) && buf_busy(sc, disp_index(sc))) {
		ret = present_swapchain_dispatch(sc, 2000);
		if (ret == PRESENT_E_TIMEOUT)
			return sc_fail(sc, PRESENT_E_IO, "no flip completed in 2 s");
		if (ret < 0)
			return ret;
	}
	update_waitable(sc);
	return 0;
}

/* ---- public: pacing and statistics ----------------------------------------- */

static bool is_multiple(uint64_t a, uint64_t b)
{
	uint64_t big = a > b ? a : b, small = a > b ? b : a, k = (big + small / 2) / small;
	int64_t d = (int64_t)(big - k * small);

	return (d < 0 ? -d : d) * 1000 <= (int64_t)big;	/* within 0.1% */
}

/* Expected vblank of a frame with target @t on the current grid. */
static uint64_t expect_of(struct present_swapchain *sc, uint64_t t)
{
	uint64_t base = sc->ref_vbl_ns, p = sc->grid_ns;

	return p && t > base ? base + (t - base + p - 1) / p * p : base + p;
}

int present_swapchain_set_refresh(struct present_swapchain *sc, uint64_t period_ns)
{
	uint64_t old;
	int ret = 0;

	if (!sc)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	if (!period_ns)
		period_ns = mode_period(&sc->mode);
	if (period_ns < VRR_MIN_PERIOD_NS || period_ns > VRR_MAX_PERIOD_NS)
		return sc_fail(sc, PRESENT_E_INVALID_ARG, "period %llu ns (%llu..%llu)",
			       (unsigned long long)period_ns, VRR_MIN_PERIOD_NS, VRR_MAX_PERIOD_NS);
	ret = check_removed(sc);
	if (ret)
		return ret;
	if (!sc->flipq)
		return sc_fail(sc, PRESENT_E_NOT_SUPPORTED, "refresh changes need the flip queue");
	old = sc->period_ns;
	if (sc->nframes && is_multiple(old, period_ns)) {
		/* the queued targets stay on the grid: let them complete
		 * (a new duration only goes with a flip once earlier ones
		 * completed) */
		while (sc->nframes && !ret)
			if ((ret = present_swapchain_dispatch(sc, 1000)) == PRESENT_E_TIMEOUT)
				ret = 0;
	} else if (sc->nframes) {
		/* non-multiple: cancel the queued frames and requeue them
		 * with targets on the new grid */
		cancel_for_requeue(sc);
	}
	if (ret < 0)
		return ret;
	/* a boost goes on at the fastest multiple of the new refresh, if any */
	set_period(sc, period_ns);
	sc->next_duration_ns = sc->grid_ns;
	return requeue_frames(sc, false);
}

uint64_t present_swapchain_refresh_period(struct present_swapchain *sc)
{
	if (!sc)
		return 0;
	SC_LOCK(sc);
	return sc->period_ns;
}

uint64_t present_swapchain_boost_period(struct present_swapchain *sc)
{
	if (!sc)
		return 0;
	SC_LOCK(sc);
	return sc->fastest_ns;
}

int present_swapchain_set_boost(struct present_swapchain *sc, bool on)
{
	int ret;

	if (!sc)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	ret = check_removed(sc);
	if (ret)
		return ret;
	if (!sc->flipq)
		return sc_fail(sc, PRESENT_E_NOT_SUPPORTED, "refresh changes need the flip queue");
	if (on && !sc->fastest_ns)
		return sc_fail(sc, PRESENT_E_NOT_SUPPORTED,
			       "output cannot boost a %llu ns refresh (range %llu..%llu ns, %u visible lines)",
			       (unsigned long long)sc->period_ns,
			       (unsigned long long)sc->display->info.refresh_min_ns,
			       (unsigned long long)sc->display->info.refresh_max_ns, sc->mode.vdisplay);
	if (on == sc->boost)
		return 0;
	sc->boost = on;
	sc->grid_ns = on ? sc->fastest_ns : sc->period_ns;
	/*
	 * The new frame duration rides on the next flip.  Queued frames are
	 * not waited for here: the driver refuses a duration change behind
	 * them with -EAGAIN (drain all planes) and present waits and
	 * resubmits.  Their targets hold on either grid: the fast one
	 * divides the fixed one.
	 */
	sc->next_duration_ns = sc->grid_ns;
	return 0;
}

int present_swapchain_set_max_frame_latency(struct present_swapchain *sc, unsigned int max)
{
	if (!sc)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	if (present_latency_set_max(&sc->lat, max))
		return sc_fail(sc, PRESENT_E_INVALID_ARG, "max frame latency %u (1..16)", max);
	update_waitable(sc);
	return 0;
}

int present_swapchain_get_max_frame_latency(struct present_swapchain *sc)
{
	if (!sc)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	return (int)sc->lat.max;
}

int present_swapchain_waitable_fd(struct present_swapchain *sc)
{
	if (!sc)
		return PRESENT_E_INVALID_ARG;
	if (sc->efd < 0)
		return sc_fail(sc, PRESENT_E_NOT_SUPPORTED, "created without the waitable flag");
	return sc->efd;
}

int present_swapchain_frame_statistics(struct present_swapchain *sc,
				       struct present_frame_statistics *out)
{
	int ret;

	if (!sc || !out)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	ret = present_swapchain_dispatch(sc, 0);
	if (ret < 0)
		return ret;
	if (!sc->stats_valid)
		return sc_fail(sc, PRESENT_E_NOT_FOUND, "no frame shown yet");
	*out = sc->stats;
	return 0;
}

int present_swapchain_last_present_count(struct present_swapchain *sc, uint32_t *out)
{
	if (!sc || !out)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	if (sc_removed(sc))
		return sc_fail(sc, PRESENT_E_DEVICE_REMOVED, "device removed");
	*out = sc->present_count;
	return 0;
}

int present_swapchain_wait_vblank(struct present_swapchain *sc, uint64_t *out_ns)
{
	drmVBlank vbl;
	uint32_t hc;

	if (!sc)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	if (sc_removed(sc))
		return sc_fail(sc, PRESENT_E_DEVICE_REMOVED, "device removed");
	memset(&vbl, 0, sizeof(vbl));
	hc = sc->crtc_index > 1 ? (sc->crtc_index << DRM_VBLANK_HIGH_CRTC_SHIFT) &
				  DRM_VBLANK_HIGH_CRTC_MASK :
	     sc->crtc_index == 1 ? DRM_VBLANK_SECONDARY : 0;
	vbl.request.type = DRM_VBLANK_RELATIVE | hc;
	vbl.request.sequence = 1;
	sc->ctr.wakeups++;
	if (drmWaitVBlank(sc->dfd, &vbl))
		return sc_errno(sc, errno, "wait for vblank");
	sc->ref_vbl_ns = (uint64_t)vbl.reply.tval_sec * 1000000000ull +
			 (uint64_t)vbl.reply.tval_usec * 1000ull;
	sc->ref_vbl_seq = vbl.reply.sequence;
	if (out_ns)
		*out_ns = sc->ref_vbl_ns;
	return 0;
}

int present_swapchain_counters(struct present_swapchain *sc, struct present_counters *out)
{
	if (!sc || !out)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	*out = sc->ctr;
	return 0;
}

int present_swapchain_timing(struct present_swapchain *sc, uint64_t *targets, uint64_t *actuals,
			     unsigned int n)
{
	uint64_t have, first;

	if (!sc || !sc->t_target)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	have = sc->timing_n < TIMING_RING ? sc->timing_n : TIMING_RING;
	if (n > have)
		n = (unsigned int)have;
	first = sc->timing_n - n;
	for (unsigned int i = 0; i < n; i++) {
		if (targets)
			targets[i] = sc->t_target[(first + i) % TIMING_RING];
		if (actuals)
			actuals[i] = sc->t_actual[(first + i) % TIMING_RING];
	}
	return (int)n;
}

const char *present_swapchain_last_error(const struct present_swapchain *sc)
{
	return sc ? sc->err : "invalid swap chain";
}
