// SPDX-License-Identifier: MIT
/*
 * vflipq helpers: device discovery, caps, topology, properties, atomic
 * requests, modes, pipes and events.  libdrm + igt_core only.
 */
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>

#include "vflipq_helpers.h"

/* ---- discovery ---------------------------------------------------- */

int vfq_open_card(int card)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/dev/dri/card%d", card);
	fd = open(path, O_RDWR | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

bool vfq_is_driver(int fd, const char *driver)
{
	drmVersionPtr v = drmGetVersion(fd);
	bool match;

	if (!v)
		return false;
	match = v->name && strcmp(v->name, driver) == 0;
	drmFreeVersion(v);
	return match;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int vfq_driver_cards(const char *driver, int *cards, int max)
{
	DIR *dir = opendir("/dev/dri");
	struct dirent *de;
	int n = 0;

	if (!dir)
		return 0;
	while ((de = readdir(dir)) && n < max) {
		int card, fd;
		char *end;

		if (strncmp(de->d_name, "card", 4))
			continue;
		card = strtol(de->d_name + 4, &end, 10);
		if (*end || end == de->d_name + 4)
			continue;
		fd = vfq_open_card(card);
		if (fd < 0)
			continue;
		if (vfq_is_driver(fd, driver))
			cards[n++] = card;
		close(fd);
	}
	closedir(dir);
	qsort(cards, n, sizeof(*cards), cmp_int);
	return n;
}

int vfq_open_driver(const char *driver)
{
	int cards[64];

	if (vfq_driver_cards(driver, cards, 64) < 1)
		return -ENODEV;
	return vfq_open_card(cards[0]);
}

int vfq_get_caps(int fd, struct drm_vflipq_get_caps *caps)
{
	memset(caps, 0, sizeof(*caps));
	if (drmIoctl(fd, DRM_IOCTL_VFLIPQ_GET_CAPS, caps))
		return -errno;
	return 0;
}

int vfq_open_named(const char *name)
{
	int cards[64], n = vfq_driver_cards(VFQ_DRIVER_NAME, cards, 64);

	for (int i = 0; i < n; i++) {
		struct drm_vflipq_get_caps caps;
		int fd = vfq_open_card(cards[i]);

		if (fd < 0)
			continue;
		if (vfq_get_caps(fd, &caps) == 0 &&
		    strncmp(caps.name, name, sizeof(caps.name)) == 0)
			return fd;
		close(fd);
	}
	return -ENOENT;
}

int vfq_open_default(void)
{
	int fd = vfq_open_named("default");

	igt_require_f(fd >= 0, "no vflipq device named \"default\" (%s)\n",
		      strerror(-fd));
	return fd;
}

int vfq_card_index(int fd)
{
	struct stat st;

	if (fstat(fd, &st) || !S_ISCHR(st.st_mode))
		return -1;
	if (minor(st.st_rdev) >= 64)
		return -1;
	return minor(st.st_rdev);
}

/* ---- properties --------------------------------------------------- */

bool vfq_prop_lookup(int fd, uint32_t obj, uint32_t type, const char *name,
		     uint32_t *prop_id, uint64_t *value)
{
	drmModeObjectPropertiesPtr props;
	bool found = false;

	props = drmModeObjectGetProperties(fd, obj, type);
	if (!props)
		return false;
	for (uint32_t i = 0; i < props->count_props && !found; i++) {
		drmModePropertyPtr p = drmModeGetProperty(fd, props->props[i]);

		if (!p)
			continue;
		if (strcmp(p->name, name) == 0) {
			found = true;
			if (prop_id)
				*prop_id = p->prop_id;
			if (value)
				*value = props->prop_values[i];
		}
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
	return found;
}

uint32_t vfq_prop_id(int fd, uint32_t obj, uint32_t type, const char *name)
{
	uint32_t id = 0;

	igt_assert_f(vfq_prop_lookup(fd, obj, type, name, &id, NULL),
		     "object %u has no property \"%s\"\n", obj, name);
	return id;
}

uint64_t vfq_prop_get(int fd, uint32_t obj, uint32_t type, const char *name)
{
	uint64_t v = 0;

	igt_assert_f(vfq_prop_lookup(fd, obj, type, name, NULL, &v),
		     "object %u has no property \"%s\"\n", obj, name);
	return v;
}

drmModePropertyRes *vfq_prop_info(int fd, uint32_t obj, uint32_t type,
				  const char *name)
{
	drmModePropertyRes *p = drmModeGetProperty(fd,
					vfq_prop_id(fd, obj, type, name));

	igt_assert(p);
	return p;
}

uint64_t vfq_prop_enum_value(int fd, uint32_t obj, uint32_t type,
			     const char *name, const char *entry)
{
	drmModePropertyRes *p = vfq_prop_info(fd, obj, type, name);
	uint64_t v = 0;
	bool found = false;

	for (int i = 0; i < p->count_enums; i++) {
		if (strcmp(p->enums[i].name, entry) == 0) {
			v = p->enums[i].value;
			found = true;
		}
	}
	drmModeFreeProperty(p);
	igt_assert_f(found, "property \"%s\" has no entry \"%s\"\n", name,
		     entry);
	/* bitmask properties list bit numbers */
	return v;
}

/* ---- atomic requests ---------------------------------------------- */

drmModeAtomicReq *vfq_req_new(void)
{
	drmModeAtomicReq *req = drmModeAtomicAlloc();

	igt_assert(req);
	return req;
}

void vfq_req_set(drmModeAtomicReq *req, int fd, uint32_t obj, uint32_t type,
		 const char *name, uint64_t value)
{
	uint32_t id = vfq_prop_id(fd, obj, type, name);

	igt_assert_lte(0, drmModeAtomicAddProperty(req, obj, id, value));
}

int vfq_req_commit(int fd, drmModeAtomicReq *req, uint32_t flags,
		   void *user_data)
{
	int ret = drmModeAtomicCommit(fd, req, flags, user_data);
	int err = errno;

	drmModeAtomicFree(req);
	if (ret) {
		igt_debug("atomic commit (flags %#x) failed: %s\n", flags,
			  strerror(err));
		errno = err;
		return -err;
	}
	return 0;
}

void vfq_req_plane_src(drmModeAtomicReq *req, int fd, uint32_t plane,
		       uint32_t crtc, uint32_t fb,
		       int sx, int sy, int sw, int sh,
		       int cx, int cy, int cw, int ch)
{
	const uint32_t t = DRM_MODE_OBJECT_PLANE;

	vfq_req_set(req, fd, plane, t, "FB_ID", fb);
	vfq_req_set(req, fd, plane, t, "CRTC_ID", crtc);
	vfq_req_set(req, fd, plane, t, "SRC_X", (uint64_t)sx << 16);
	vfq_req_set(req, fd, plane, t, "SRC_Y", (uint64_t)sy << 16);
	vfq_req_set(req, fd, plane, t, "SRC_W", (uint64_t)sw << 16);
	vfq_req_set(req, fd, plane, t, "SRC_H", (uint64_t)sh << 16);
	vfq_req_set(req, fd, plane, t, "CRTC_X", (uint64_t)(int64_t)cx);
	vfq_req_set(req, fd, plane, t, "CRTC_Y", (uint64_t)(int64_t)cy);
	vfq_req_set(req, fd, plane, t, "CRTC_W", cw);
	vfq_req_set(req, fd, plane, t, "CRTC_H", ch);
}

void vfq_req_plane(drmModeAtomicReq *req, int fd, uint32_t plane,
		   uint32_t crtc, uint32_t fb, int x, int y, int w, int h)
{
	vfq_req_plane_src(req, fd, plane, crtc, fb, 0, 0, w, h, x, y, w, h);
}

void vfq_req_plane_off(drmModeAtomicReq *req, int fd, uint32_t plane)
{
	vfq_req_set(req, fd, plane, DRM_MODE_OBJECT_PLANE, "FB_ID", 0);
	vfq_req_set(req, fd, plane, DRM_MODE_OBJECT_PLANE, "CRTC_ID", 0);
}

/* ---- topology ----------------------------------------------------- */

int vfq_plane_type(int fd, uint32_t plane_id)
{
	return vfq_prop_get(fd, plane_id, DRM_MODE_OBJECT_PLANE, "type");
}

static int single_bit(uint32_t mask)
{
	if (!mask || (mask & (mask - 1)))
		return -1;
	return __builtin_ctz(mask);
}

static int pipe_of_crtc_mask(struct vfq_dev *dev, uint32_t mask,
			     const char *what, uint32_t id)
{
	int idx = single_bit(mask);

	igt_assert_f(idx >= 0 && idx < dev->n_pipes,
		     "%s %u: possible_crtcs %#x is not exactly one CRTC\n",
		     what, id, mask);
	return idx;
}

/*
 * Writeback connectors belong to one CRTC.  A Virtual connector's encoder
 * may drive every CRTC (Documentation/vflipq/driver.rst, "Routing"); the
 * pipe's default connector is the k-th Virtual connector for CRTC k, the
 * order the driver creates them in.
 */
static void map_connectors(struct vfq_dev *dev, drmModeRes *res)
{
	uint32_t all = (1u << dev->n_pipes) - 1;
	int n_virtual = 0;

	dev->n_connectors = res->count_connectors;
	for (int i = 0; i < res->count_connectors; i++) {
		drmModeConnector *c = drmModeGetConnector(dev->fd,
							  res->connectors[i]);
		drmModeEncoder *e;
		struct vfq_pipe *p;

		igt_assert(c);
		igt_assert_f(c->count_encoders == 1,
			     "connector %u has %d encoders\n",
			     c->connector_id, c->count_encoders);
		e = drmModeGetEncoder(dev->fd, c->encoders[0]);
		igt_assert(e);
		if (c->connector_type == DRM_MODE_CONNECTOR_WRITEBACK) {
			p = &dev->pipe[pipe_of_crtc_mask(dev, e->possible_crtcs,
							 "encoder",
							 e->encoder_id)];
			igt_assert_f(!p->wb_conn_id,
				     "two writeback connectors on CRTC %d\n",
				     p->index);
			p->wb_conn_id = c->connector_id;
		} else {
			igt_assert_f(e->possible_crtcs == all,
				     "encoder %u: possible_crtcs %#x, not every CRTC (%#x)\n",
				     e->encoder_id, e->possible_crtcs, all);
			igt_assert_f(n_virtual < dev->n_pipes,
				     "more Virtual connectors than CRTCs\n");
			p = &dev->pipe[n_virtual++];
			p->conn_id = c->connector_id;
			p->encoder_id = e->encoder_id;
		}
		drmModeFreeEncoder(e);
		drmModeFreeConnector(c);
	}
}

static void map_planes(struct vfq_dev *dev)
{
	drmModePlaneRes *pres = drmModeGetPlaneResources(dev->fd);

	igt_assert(pres);
	dev->n_planes = pres->count_planes;
	/* plane ids ascend in creation order: overlay k before k+1 */
	for (uint32_t i = 0; i < pres->count_planes; i++) {
		drmModePlane *pl = drmModeGetPlane(dev->fd, pres->planes[i]);
		struct vfq_pipe *p;
		int type;

		igt_assert(pl);
		p = &dev->pipe[pipe_of_crtc_mask(dev, pl->possible_crtcs,
						 "plane", pl->plane_id)];
		type = vfq_plane_type(dev->fd, pl->plane_id);
		switch (type) {
		case DRM_PLANE_TYPE_PRIMARY:
			igt_assert_f(!p->primary, "two primaries on CRTC %d\n",
				     p->index);
			p->primary = pl->plane_id;
			break;
		case DRM_PLANE_TYPE_CURSOR:
			igt_assert_f(!p->cursor, "two cursors on CRTC %d\n",
				     p->index);
			p->cursor = pl->plane_id;
			break;
		default:
			igt_assert_f(p->n_overlays < VFQ_MAX_OVERLAYS,
				     "too many overlays on CRTC %d\n",
				     p->index);
			p->overlays[p->n_overlays++] = pl->plane_id;
		}
		drmModeFreePlane(pl);
	}
	drmModeFreePlaneResources(pres);
}

void vfq_dev_init(struct vfq_dev *dev, int fd)
{
	drmModeRes *res;

	memset(dev, 0, sizeof(*dev));
	dev->fd = fd;
	igt_assert_eq(drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1), 0);
	igt_assert_eq(drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1), 0);
	igt_assert_eq(drmSetClientCap(fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS,
				      1), 0);
	igt_assert_eq(vfq_get_caps(fd, &dev->caps), 0);

	res = drmModeGetResources(fd);
	igt_assert(res);
	igt_assert_f(res->count_crtcs >= 1 && res->count_crtcs <= VFQ_MAX_CRTCS,
		     "%d CRTCs\n", res->count_crtcs);
	dev->n_pipes = res->count_crtcs;
	for (int i = 0; i < dev->n_pipes; i++) {
		dev->pipe[i].index = i;
		dev->pipe[i].crtc_id = res->crtcs[i];
	}
	map_connectors(dev, res);
	drmModeFreeResources(res);
	map_planes(dev);

	for (int i = 0; i < dev->n_pipes; i++) {
		igt_assert_f(dev->pipe[i].conn_id, "CRTC %d: no connector\n", i);
		igt_assert_f(dev->pipe[i].primary, "CRTC %d: no primary\n", i);
	}
}

void vfq_dev_fini(struct vfq_dev *dev)
{
	if (dev->fd >= 0)
		close(dev->fd);
	dev->fd = -1;
}

static void req_reset_plane(drmModeAtomicReq *req, int fd, uint32_t plane,
			    int zpos)
{
	const uint32_t t = DRM_MODE_OBJECT_PLANE;
	drmModePropertyRes *p;
	uint32_t id;

	vfq_req_plane_off(req, fd, plane);
	if (vfq_prop_lookup(fd, plane, t, "alpha", &id, NULL))
		igt_assert_lte(0, drmModeAtomicAddProperty(req, plane, id,
							   0xffff));
	if (vfq_prop_lookup(fd, plane, t, "rotation", &id, NULL))
		igt_assert_lte(0, drmModeAtomicAddProperty(req, plane, id,
							   DRM_MODE_ROTATE_0));
	if (vfq_prop_lookup(fd, plane, t, "pixel blend mode", &id, NULL)) {
		p = drmModeGetProperty(fd, id);
		igt_assert(p);
		for (int i = 0; i < p->count_enums; i++)
			if (!strcmp(p->enums[i].name, "Pre-multiplied"))
				igt_assert_lte(0, drmModeAtomicAddProperty(req,
						plane, id, p->enums[i].value));
		drmModeFreeProperty(p);
	}
	if (zpos >= 0 && vfq_prop_lookup(fd, plane, t, "zpos", &id, NULL)) {
		p = drmModeGetProperty(fd, id);
		igt_assert(p);
		if (!(p->flags & DRM_MODE_PROP_IMMUTABLE))
			igt_assert_lte(0, drmModeAtomicAddProperty(req, plane,
								   id, zpos));
		drmModeFreeProperty(p);
	}
}

static const char *const color_props[] = {
	"DEGAMMA_LUT", "CTM", "GAMMA_LUT",
};

static void req_pipe_off(drmModeAtomicReq *req, struct vfq_dev *dev, int i)
{
	struct vfq_pipe *p = &dev->pipe[i];
	const int fd = dev->fd;

	req_reset_plane(req, fd, p->primary, -1);
	for (int k = 0; k < p->n_overlays; k++)
		req_reset_plane(req, fd, p->overlays[k], k + 1);
	if (p->cursor)
		req_reset_plane(req, fd, p->cursor, -1);
	vfq_req_set(req, fd, p->conn_id, DRM_MODE_OBJECT_CONNECTOR,
		    "CRTC_ID", 0);
	if (p->wb_conn_id) {
		vfq_req_set(req, fd, p->wb_conn_id, DRM_MODE_OBJECT_CONNECTOR,
			    "CRTC_ID", 0);
		vfq_req_set(req, fd, p->wb_conn_id, DRM_MODE_OBJECT_CONNECTOR,
			    "WRITEBACK_FB_ID", 0);
	}
	vfq_req_set(req, fd, p->crtc_id, DRM_MODE_OBJECT_CRTC, "ACTIVE", 0);
	vfq_req_set(req, fd, p->crtc_id, DRM_MODE_OBJECT_CRTC, "MODE_ID", 0);
	/* Colour management survives a modeset: clear it too. */
	for (size_t k = 0; k < VFQ_ARRAY_SIZE(color_props); k++)
		if (vfq_prop_lookup(fd, p->crtc_id, DRM_MODE_OBJECT_CRTC,
				    color_props[k], NULL, NULL))
			vfq_req_set(req, fd, p->crtc_id, DRM_MODE_OBJECT_CRTC,
				    color_props[k], 0);
}

void vfq_dev_reset(struct vfq_dev *dev)
{
	drmModeAtomicReq *req = vfq_req_new();
	int ret;

	for (int i = 0; i < dev->n_pipes; i++)
		req_pipe_off(req, dev, i);
	ret = vfq_req_commit(dev->fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	igt_assert_f(ret == 0, "disabling everything failed: %s\n",
		     strerror(-ret));
	vfq_drain_events(dev->fd, 0);
}

/* ---- modes and pipes ---------------------------------------------- */

bool vfq_find_mode(int fd, uint32_t conn, int w, int h, int refresh,
		   drmModeModeInfo *mode)
{
	drmModeConnector *c = drmModeGetConnector(fd, conn);
	bool found = false;

	igt_assert(c);
	for (int i = 0; i < c->count_modes && !found; i++) {
		if (c->modes[i].hdisplay == w && c->modes[i].vdisplay == h &&
		    (int)c->modes[i].vrefresh == refresh) {
			*mode = c->modes[i];
			found = true;
		}
	}
	drmModeFreeConnector(c);
	return found;
}

void vfq_get_mode(int fd, uint32_t conn, int w, int h, int refresh,
		  drmModeModeInfo *mode)
{
	igt_assert_f(vfq_find_mode(fd, conn, w, h, refresh, mode),
		     "connector %u has no mode %dx%d@%d\n", conn, w, h,
		     refresh);
}

double vfq_mode_hz(const drmModeModeInfo *m)
{
	return m->clock * 1000.0 / ((double)m->htotal * m->vtotal);
}

/* As drm_calc_timestamping_constants() computes framedur_ns. */
uint64_t vfq_mode_period(const drmModeModeInfo *mode)
{
	return (uint64_t)mode->htotal * mode->vtotal * 1000000 / mode->clock;
}

uint32_t vfq_mode_blob(int fd, const drmModeModeInfo *mode)
{
	uint32_t id = 0;

	igt_assert_eq(drmModeCreatePropertyBlob(fd, mode, sizeof(*mode), &id),
		      0);
	return id;
}

void vfq_req_pipe_on(drmModeAtomicReq *req, struct vfq_dev *dev, int pipe,
		     const drmModeModeInfo *mode, uint32_t fb, uint32_t *blob)
{
	struct vfq_pipe *p = &dev->pipe[pipe];

	*blob = vfq_mode_blob(dev->fd, mode);
	vfq_req_set(req, dev->fd, p->conn_id, DRM_MODE_OBJECT_CONNECTOR,
		    "CRTC_ID", p->crtc_id);
	vfq_req_set(req, dev->fd, p->crtc_id, DRM_MODE_OBJECT_CRTC,
		    "MODE_ID", *blob);
	vfq_req_set(req, dev->fd, p->crtc_id, DRM_MODE_OBJECT_CRTC,
		    "ACTIVE", 1);
	vfq_req_plane(req, dev->fd, p->primary, p->crtc_id, fb, 0, 0,
		      mode->hdisplay, mode->vdisplay);
}

void vfq_pipe_on(struct vfq_dev *dev, int pipe, const drmModeModeInfo *mode,
		 uint32_t fb)
{
	drmModeAtomicReq *req = vfq_req_new();
	uint32_t blob;
	int ret;

	vfq_req_pipe_on(req, dev, pipe, mode, fb, &blob);
	ret = vfq_req_commit(dev->fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET,
			     NULL);
	drmModeDestroyPropertyBlob(dev->fd, blob);
	igt_assert_f(ret == 0, "modeset of CRTC %d to %s failed: %s\n", pipe,
		     mode->name, strerror(-ret));
}

void vfq_pipe_off(struct vfq_dev *dev, int pipe)
{
	drmModeAtomicReq *req = vfq_req_new();
	int ret;

	req_pipe_off(req, dev, pipe);
	ret = vfq_req_commit(dev->fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	igt_assert_f(ret == 0, "disabling CRTC %d failed: %s\n", pipe,
		     strerror(-ret));
}

/* ---- events ------------------------------------------------------- */

uint64_t vfq_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

uint32_t vfq_vbl_flag(int pipe)
{
	if (pipe == 0)
		return 0;
	if (pipe == 1)
		return DRM_VBLANK_SECONDARY;
	return ((uint32_t)pipe << DRM_VBLANK_HIGH_CRTC_SHIFT) &
	       DRM_VBLANK_HIGH_CRTC_MASK;
}

int vfq_wait_vblank(int fd, int pipe, uint32_t type, uint32_t seq,
		    unsigned long signal, uint32_t *reply_seq,
		    uint64_t *reply_ns)
{
	drmVBlank vbl = {};

	vbl.request.type = type | vfq_vbl_flag(pipe);
	vbl.request.sequence = seq;
	vbl.request.signal = signal;
	if (drmWaitVBlank(fd, &vbl))
		return -errno;
	if (reply_seq)
		*reply_seq = vbl.reply.sequence;
	if (reply_ns)
		*reply_ns = vbl.reply.tval_sec * 1000000000ull +
			    vbl.reply.tval_usec * 1000ull;
	return 0;
}

void vfq_assert_running(int fd, int pipe)
{
	uint32_t s0 = 0, s1 = 0;

	igt_assert_eq(vfq_wait_vblank(fd, pipe, DRM_VBLANK_RELATIVE, 0, 0,
				      &s0, NULL), 0);
	igt_assert_eq(vfq_wait_vblank(fd, pipe, DRM_VBLANK_RELATIVE, 2, 0,
				      &s1, NULL), 0);
	igt_assert_lte(2, (int)(s1 - s0));
}

void vfq_assert_stopped(int fd, int pipe)
{
	igt_assert_eq(vfq_wait_vblank(fd, pipe, DRM_VBLANK_RELATIVE, 1, 0,
				      NULL, NULL), -EINVAL);
}

void vfq_wait_fence(int fd, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	igt_assert_eq(poll(&pfd, 1, timeout_ms), 1);
}

int vfq_read_event(int fd, int timeout_ms, struct vfq_event *ev)
{
	/* vblank, flip and crtc-sequence events are all 32 bytes; a read
	 * of that size returns exactly one event */
	union {
		struct drm_event base;
		struct drm_event_vblank vbl;
		struct drm_event_crtc_sequence seq;
		char bytes[32];
	} u;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	ssize_t len;
	int ret;

	_Static_assert(sizeof(struct drm_event_vblank) == 32, "event size");
	_Static_assert(sizeof(struct drm_event_crtc_sequence) == 32,
		       "event size");
	do {
		ret = poll(&pfd, 1, timeout_ms);
	} while (ret < 0 && errno == EINTR);
	igt_assert_f(ret >= 0, "poll on DRM fd: %s\n", strerror(errno));
	if (ret == 0)
		return 0;
	len = read(fd, &u, sizeof(u));
	igt_assert_f(len >= 0, "read of DRM events: %s\n", strerror(errno));
	if (len == 0)
		return 0;
	igt_assert_f(len >= (ssize_t)sizeof(u.base) &&
		     u.base.length <= (uint32_t)len,
		     "short DRM event read (%zd bytes)\n", len);

	memset(ev, 0, sizeof(*ev));
	ev->type = u.base.type;
	switch (u.base.type) {
	case DRM_EVENT_VBLANK:
	case DRM_EVENT_FLIP_COMPLETE:
		ev->crtc_id = u.vbl.crtc_id;
		ev->sequence = u.vbl.sequence;
		ev->ts_ns = u.vbl.tv_sec * 1000000000ull +
			    u.vbl.tv_usec * 1000ull;
		ev->user_data = u.vbl.user_data;
		break;
	case DRM_EVENT_CRTC_SEQUENCE:
		ev->sequence = u.seq.sequence;
		ev->ts_ns = u.seq.time_ns;
		ev->user_data = u.seq.user_data;
		break;
	default:
		break;
	}
	return 1;
}

void vfq_drain_events(int fd, int timeout_ms)
{
	struct vfq_event ev;

	while (vfq_read_event(fd, timeout_ms, &ev) > 0)
		igt_debug("dropped DRM event type %u crtc %u seq %llu\n",
			  ev.type, ev.crtc_id,
			  (unsigned long long)ev.sequence);
}
