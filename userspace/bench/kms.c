// SPDX-License-Identifier: MIT
/* KMS plumbing of the benchmarks: devices, topology, dumb fbs, atomic. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "bench.h"
#include "fourcc.h"

/* ---- devices -------------------------------------------------------------- */

static bool vflipq_name_matches(int fd, const char *name,
				struct drm_vflipq_get_caps *caps)
{
	memset(caps, 0, sizeof(*caps));
	if (drmIoctl(fd, DRM_IOCTL_VFLIPQ_GET_CAPS, caps))
		return false;
	return !name || !strncmp(caps->name, name, sizeof(caps->name));
}

static void map_topology(struct bench_dev *dev)
{
	drmModeRes *res = drmModeGetResources(dev->fd);
	drmModePlaneRes *pres;

	if (!res)
		die("%s: GETRESOURCES: %s", dev->driver, strerror(errno));
	dev->n_pipes = res->count_crtcs < MAX_PIPES ? res->count_crtcs
						    : MAX_PIPES;
	for (int i = 0; i < dev->n_pipes; i++) {
		dev->pipe[i].index = i;
		dev->pipe[i].crtc_id = res->crtcs[i];
	}
	for (int c = 0; c < res->count_connectors; c++) {
		drmModeConnector *conn = drmModeGetConnector(dev->fd,
							     res->connectors[c]);
		drmModeEncoder *enc;

		if (!conn)
			continue;
		if (conn->connector_type == DRM_MODE_CONNECTOR_WRITEBACK ||
		    conn->count_encoders < 1) {
			drmModeFreeConnector(conn);
			continue;
		}
		enc = drmModeGetEncoder(dev->fd, conn->encoders[0]);
		for (int i = 0; enc && i < dev->n_pipes; i++)
			if ((enc->possible_crtcs & (1u << i)) &&
			    !dev->pipe[i].conn_id) {
				dev->pipe[i].conn_id = conn->connector_id;
				break;
			}
		drmModeFreeEncoder(enc);
		drmModeFreeConnector(conn);
	}
	drmModeFreeResources(res);

	pres = drmModeGetPlaneResources(dev->fd);
	if (!pres)
		die("%s: GETPLANERESOURCES: %s", dev->driver, strerror(errno));
	for (uint32_t k = 0; k < pres->count_planes; k++) {
		drmModePlane *pl = drmModeGetPlane(dev->fd, pres->planes[k]);
		drmModeObjectProperties *props;
		int type = -1;

		if (!pl)
			continue;
		props = drmModeObjectGetProperties(dev->fd, pl->plane_id,
						   DRM_MODE_OBJECT_PLANE);
		for (uint32_t j = 0; props && j < props->count_props; j++) {
			drmModePropertyPtr p = drmModeGetProperty(dev->fd,
							props->props[j]);

			if (p && !strcmp(p->name, "type"))
				type = (int)props->prop_values[j];
			drmModeFreeProperty(p);
		}
		drmModeFreeObjectProperties(props);
		/* A plane belongs to the first CRTC it can be used with. */
		for (int i = 0; i < dev->n_pipes; i++) {
			struct bench_pipe *p = &dev->pipe[i];

			if (!(pl->possible_crtcs & (1u << i)))
				continue;
			if (type == DRM_PLANE_TYPE_PRIMARY && !p->primary)
				p->primary = pl->plane_id;
			else if (type == DRM_PLANE_TYPE_CURSOR && !p->cursor)
				p->cursor = pl->plane_id;
			else if (type == DRM_PLANE_TYPE_OVERLAY &&
				 p->n_overlays < MAX_PLANES)
				p->overlays[p->n_overlays++] = pl->plane_id;
			break;
		}
		drmModeFreePlane(pl);
	}
	drmModeFreePlaneResources(pres);
}

int bench_open_card(const char *driver, const char *name,
		    struct drm_vflipq_get_caps *caps, int *card)
{
	for (int i = 0; i < 64; i++) {
		char path[64];
		drmVersionPtr v;
		bool match;
		int fd;

		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		v = drmGetVersion(fd);
		match = v && v->name && !strcmp(v->name, driver);
		drmFreeVersion(v);
		if (match && !strcmp(driver, "vflipq"))
			match = vflipq_name_matches(fd, name, caps);
		if (match) {
			*card = i;
			return fd;
		}
		close(fd);
	}
	return -ENODEV;
}

int bench_open(struct bench_dev *dev, const char *driver, const char *name)
{
	memset(dev, 0, sizeof(*dev));
	dev->fd = bench_open_card(driver, name, &dev->caps, &dev->card);
	if (dev->fd < 0)
		return -ENODEV;
	snprintf(dev->driver, sizeof(dev->driver), "%s", driver);
	dev->is_vflipq = !strcmp(driver, "vflipq");
	if (drmSetClientCap(dev->fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1) ||
	    drmSetClientCap(dev->fd, DRM_CLIENT_CAP_ATOMIC, 1))
		die("%s: atomic client caps: %s", driver, strerror(errno));
	map_topology(dev);
	for (int i = 0; i < dev->n_pipes; i++)
		if (!dev->pipe[i].conn_id || !dev->pipe[i].primary)
			die("%s: CRTC %d has no connector or primary plane",
			    driver, i);
	return 0;
}

void bench_close(struct bench_dev *dev)
{
	if (dev->fd >= 0)
		close(dev->fd);
	dev->fd = -1;
}

/* ---- modes ------------------------------------------------------------------ */

void bench_mode_1080p(drmModeModeInfo *m, double hz)
{
	memset(m, 0, sizeof(*m));
	m->hdisplay = 1920;
	m->hsync_start = 2008;
	m->hsync_end = 2052;
	m->htotal = 2200;
	m->vdisplay = 1080;
	m->vsync_start = 1084;
	m->vsync_end = 1089;
	m->vtotal = 1125;
	m->clock = (uint32_t)lround(2200.0 * 1125.0 * hz / 1000.0);
	m->vrefresh = (uint32_t)lround(hz);
	m->flags = DRM_MODE_FLAG_PHSYNC | DRM_MODE_FLAG_PVSYNC;
	m->type = DRM_MODE_TYPE_USERDEF;
	snprintf(m->name, sizeof(m->name), "1920x1080");
}

uint64_t bench_mode_period_ns(const drmModeModeInfo *m)
{
	return (uint64_t)m->htotal * m->vtotal * 1000000ull / m->clock;
}

/* ---- framebuffers --------------------------------------------------------- */

void bench_fb_create(int fd, uint32_t w, uint32_t h, uint32_t format,
		     struct bench_fb *fb)
{
	uint32_t handles[4] = { 0 }, pitches[4] = { 0 }, offsets[4] = { 0 };

	memset(fb, 0, sizeof(*fb));
	fb->cpp = fourcc_cpp(format);
	if (!fb->cpp)
		die("format %#x: not in the pixel-format table", format);
	fb->format = format;
	fb->width = w;
	fb->height = h;
	if (drmModeCreateDumbBuffer(fd, w, h, fb->cpp * 8, 0, &fb->handle,
				    &fb->pitch, &fb->size))
		die("CREATE_DUMB %ux%u: %s", w, h, strerror(errno));
	handles[0] = fb->handle;
	pitches[0] = fb->pitch;
	if (drmModeAddFB2(fd, w, h, format, handles, pitches, offsets,
			  &fb->fb_id, 0))
		die("ADDFB2 %ux%u %.4s: %s", w, h, (char *)&format,
		    strerror(errno));
	fb->map = bench_map_dumb(fd, fb->handle, fb->size);
}

uint8_t *bench_map_dumb(int fd, uint32_t handle, size_t size)
{
	uint64_t off;
	void *map;

	if (drmModeMapDumbBuffer(fd, handle, &off))
		die("MAP_DUMB: %s", strerror(errno));
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off);
	if (map == MAP_FAILED)
		die("mmap: %s", strerror(errno));
	return map;
}

void bench_fb_destroy(int fd, struct bench_fb *fb)
{
	if (fb->map)
		munmap(fb->map, fb->size);
	if (fb->fb_id)
		drmModeRmFB(fd, fb->fb_id);
	if (fb->handle)
		drmModeDestroyDumbBuffer(fd, fb->handle);
	memset(fb, 0, sizeof(*fb));
}

static uint16_t float_to_half(float f)
{
	/* Values used here are in [0, 1]: normal halves or zero. */
	union { float f; uint32_t u; } v = { .f = f };
	int32_t exp = (int32_t)((v.u >> 23) & 0xff) - 127 + 15;
	uint32_t mant = v.u & 0x7fffff;

	if (f <= 0 || exp <= 0)
		return 0;
	if (exp >= 31)
		return 0x7c00;
	return (uint16_t)((exp << 10) | (mant >> 13));
}

static void put_px(struct bench_fb *fb, uint32_t x, uint32_t y,
		   unsigned int r, unsigned int g, unsigned int b,
		   unsigned int a)	/* 8-bit channels, premultiplied */
{
	uint8_t *p = fb->map + (size_t)y * fb->pitch + (size_t)x * fb->cpp;

	switch (fb->format) {
	case DRM_FORMAT_XRGB16161616F:
	case DRM_FORMAT_ARGB16161616F: {
		uint64_t q = (uint64_t)float_to_half(b / 255.0f) |
			     (uint64_t)float_to_half(g / 255.0f) << 16 |
			     (uint64_t)float_to_half(r / 255.0f) << 32 |
			     (uint64_t)float_to_half(a / 255.0f) << 48;

		memcpy(p, &q, 8);
		break;
	}
	case DRM_FORMAT_XRGB2101010:
	case DRM_FORMAT_ARGB2101010: {
		uint32_t q = (b * 1023 / 255) | (g * 1023 / 255) << 10 |
			     (r * 1023 / 255) << 20 | (a * 3 / 255) << 30;

		memcpy(p, &q, 4);
		break;
	}
	default: {
		uint32_t q = b | g << 8 | r << 16 | a << 24;

		memcpy(p, &q, 4);
	}
	}
}

void bench_fb_fill(struct bench_fb *fb, unsigned int seed, bool alpha_ramp)
{
	for (uint32_t y = 0; y < fb->height; y++)
		for (uint32_t x = 0; x < fb->width; x++) {
			unsigned int a = 255, r, g, b;

			if (alpha_ramp)
				a = 64 + (x * 128 / fb->width +
					  y * 63 / fb->height) % 192;
			r = (x + seed * 37) & 0xff;
			g = (y + seed * 91) & 0xff;
			b = ((x ^ y) + seed * 53) & 0xff;
			/* premultiplied: colour <= alpha */
			put_px(fb, x, y, r * a / 255, g * a / 255,
			       b * a / 255, a);
		}
}

void bench_fb_stamp(struct bench_fb *fb, uint32_t counter)
{
	/* 8 pixels of 4 bits each: distinct after any format conversion. */
	for (uint32_t k = 0; k < 8; k++) {
		unsigned int v = ((counter >> (4 * k)) & 15) * 17;

		put_px(fb, k, 0, v, 255 - v, v, 255);
	}
}

/* ---- properties and atomic requests ----------------------------------------- */

struct prop_cache_entry {
	int fd;
	uint32_t obj;
	char name[32];
	uint32_t id;
};

static struct prop_cache_entry prop_cache[512];
static int n_prop_cache;

static uint32_t lookup_prop(int fd, uint32_t obj, uint32_t type,
			    const char *name)
{
	drmModeObjectPropertiesPtr props;
	uint32_t id = 0;

	for (int i = 0; i < n_prop_cache; i++)
		if (prop_cache[i].fd == fd && prop_cache[i].obj == obj &&
		    !strcmp(prop_cache[i].name, name))
			return prop_cache[i].id;
	props = drmModeObjectGetProperties(fd, obj, type);
	for (uint32_t i = 0; props && i < props->count_props && !id; i++) {
		drmModePropertyPtr p = drmModeGetProperty(fd, props->props[i]);

		if (p && !strcmp(p->name, name))
			id = p->prop_id;
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
	if (id && n_prop_cache < (int)(sizeof(prop_cache) /
				       sizeof(prop_cache[0]))) {
		struct prop_cache_entry *e = &prop_cache[n_prop_cache++];

		e->fd = fd;
		e->obj = obj;
		snprintf(e->name, sizeof(e->name), "%s", name);
		e->id = id;
	}
	return id;
}

uint32_t bench_prop_id(int fd, uint32_t obj, uint32_t type, const char *name)
{
	uint32_t id = lookup_prop(fd, obj, type, name);

	if (!id)
		die("object %u has no property %s", obj, name);
	return id;
}

bool bench_has_prop(int fd, uint32_t obj, uint32_t type, const char *name)
{
	return lookup_prop(fd, obj, type, name) != 0;
}

void req_init(struct bench_req *r)
{
	memset(r, 0, sizeof(*r));
}

void req_add(struct bench_req *r, int fd, uint32_t obj, uint32_t type,
	     const char *name, uint64_t value)
{
	uint32_t prop = bench_prop_id(fd, obj, type, name);
	int o;

	if (r->n_props >= 512)
		die("atomic request too large");
	/* Properties are grouped per object, objects in insertion order. */
	for (o = 0; o < r->n_objs; o++)
		if (r->objs[o] == obj)
			break;
	if (o == r->n_objs) {
		if (r->n_objs >= 64)
			die("atomic request: too many objects");
		r->objs[r->n_objs++] = obj;
	}
	{
		int pos = 0;

		for (int k = 0; k <= o; k++)
			pos += r->count_props[k];
		memmove(&r->props[pos + 1], &r->props[pos],
			(r->n_props - pos) * sizeof(r->props[0]));
		memmove(&r->values[pos + 1], &r->values[pos],
			(r->n_props - pos) * sizeof(r->values[0]));
		r->props[pos] = prop;
		r->values[pos] = value;
		r->count_props[o]++;
		r->n_props++;
	}
}

void req_plane(struct bench_req *r, int fd, uint32_t plane, uint32_t crtc,
	       const struct bench_fb *fb, int x, int y)
{
	const uint32_t t = DRM_MODE_OBJECT_PLANE;

	req_add(r, fd, plane, t, "FB_ID", fb->fb_id);
	req_add(r, fd, plane, t, "CRTC_ID", crtc);
	req_add(r, fd, plane, t, "SRC_X", 0);
	req_add(r, fd, plane, t, "SRC_Y", 0);
	req_add(r, fd, plane, t, "SRC_W", (uint64_t)fb->width << 16);
	req_add(r, fd, plane, t, "SRC_H", (uint64_t)fb->height << 16);
	req_add(r, fd, plane, t, "CRTC_X", (uint64_t)(int64_t)x);
	req_add(r, fd, plane, t, "CRTC_Y", (uint64_t)(int64_t)y);
	req_add(r, fd, plane, t, "CRTC_W", fb->width);
	req_add(r, fd, plane, t, "CRTC_H", fb->height);
}

void req_plane_off(struct bench_req *r, int fd, uint32_t plane)
{
	req_add(r, fd, plane, DRM_MODE_OBJECT_PLANE, "FB_ID", 0);
	req_add(r, fd, plane, DRM_MODE_OBJECT_PLANE, "CRTC_ID", 0);
}

int req_commit(int fd, struct bench_req *r, uint32_t flags, void *user)
{
	struct drm_mode_atomic a;

	memset(&a, 0, sizeof(a));
	a.flags = flags;
	a.count_objs = r->n_objs;
	a.objs_ptr = (uintptr_t)r->objs;
	a.count_props_ptr = (uintptr_t)r->count_props;
	a.props_ptr = (uintptr_t)r->props;
	a.prop_values_ptr = (uintptr_t)r->values;
	a.user_data = (uintptr_t)user;
	/* ioctl(2), not drmIoctl(): EBUSY/EAGAIN are answers here. */
	if (ioctl(fd, DRM_IOCTL_MODE_ATOMIC, &a))
		return -errno;
	return 0;
}

void bench_reset(struct bench_dev *dev)
{
	struct bench_req r;
	int ret;

	req_init(&r);
	for (int i = 0; i < dev->n_pipes; i++) {
		struct bench_pipe *p = &dev->pipe[i];

		req_plane_off(&r, dev->fd, p->primary);
		if (p->cursor)
			req_plane_off(&r, dev->fd, p->cursor);
		for (int k = 0; k < p->n_overlays; k++)
			req_plane_off(&r, dev->fd, p->overlays[k]);
		req_add(&r, dev->fd, p->conn_id, DRM_MODE_OBJECT_CONNECTOR,
			"CRTC_ID", 0);
		req_add(&r, dev->fd, p->crtc_id, DRM_MODE_OBJECT_CRTC,
			"MODE_ID", 0);
		req_add(&r, dev->fd, p->crtc_id, DRM_MODE_OBJECT_CRTC,
			"ACTIVE", 0);
	}
	ret = req_commit(dev->fd, &r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	if (ret)
		die("%s: reset commit: %s", dev->driver, strerror(-ret));
}

void bench_pipe_on(struct bench_dev *dev, int pipe, const drmModeModeInfo *m,
		   const struct bench_fb *fb)
{
	struct bench_pipe *p = &dev->pipe[pipe];
	struct bench_req r;
	uint32_t blob;
	int ret;

	if (drmModeCreatePropertyBlob(dev->fd, m, sizeof(*m), &blob))
		die("mode blob: %s", strerror(errno));
	req_init(&r);
	req_add(&r, dev->fd, p->crtc_id, DRM_MODE_OBJECT_CRTC, "MODE_ID", blob);
	req_add(&r, dev->fd, p->crtc_id, DRM_MODE_OBJECT_CRTC, "ACTIVE", 1);
	req_add(&r, dev->fd, p->conn_id, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID",
		p->crtc_id);
	req_plane(&r, dev->fd, p->primary, p->crtc_id, fb, 0, 0);
	if (p->cursor)
		req_plane_off(&r, dev->fd, p->cursor);
	for (int k = 0; k < p->n_overlays; k++)
		req_plane_off(&r, dev->fd, p->overlays[k]);
	ret = req_commit(dev->fd, &r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	if (ret)
		die("%s: mode set of CRTC %d: %s", dev->driver, pipe,
		    strerror(-ret));
	drmModeDestroyPropertyBlob(dev->fd, blob);
}

/* ---- events ----------------------------------------------------------------- */

int bench_read_events(int fd, int timeout_ms, struct bench_events *ev)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char buf[4096];
	ssize_t len, off = 0;
	int n = 0;

	if (poll(&pfd, 1, timeout_ms) <= 0)
		return 0;
	len = read(fd, buf, sizeof(buf));
	if (len <= 0)
		return 0;
	while (off + (ssize_t)sizeof(struct drm_event) <= len) {
		struct drm_event *e = (struct drm_event *)(buf + off);

		if (e->type == DRM_EVENT_FLIP_COMPLETE ||
		    e->type == DRM_EVENT_VBLANK) {
			struct drm_event_vblank *v =
				(struct drm_event_vblank *)e;

			ev->flips++;
			ev->flip_ts_ns = (uint64_t)v->tv_sec * 1000000000ull +
					 (uint64_t)v->tv_usec * 1000ull;
			ev->flip_seq = v->sequence;
			n++;
		} else if (e->type == DRM_VFLIPQ_EVENT_FLIPQ) {
			memcpy(&ev->last_flipq, e, sizeof(ev->last_flipq));
			ev->flipq++;
			n++;
		}
		off += e->length;
	}
	return n;
}
