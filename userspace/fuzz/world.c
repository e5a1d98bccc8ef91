// SPDX-License-Identifier: MIT
/*
 * vflipq-fuzz: the devices (default, configfs display, configfs render-only,
 * vgem), the clients (one fd each) and the tables of what each client owns,
 * plus the helpers the operations share.
 */
#include <dirent.h>
#include <execinfo.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <drm_fourcc.h>

#include "fourcc.h"
#include "fuzz.h"

#define CFS_ROOT "/sys/kernel/config/vflipq"

struct world W;

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* ---- mapping faults ------------------------------------------------------ */

static sigjmp_buf touch_jmp;
static volatile sig_atomic_t touching;

static void fault_handler(int sig)
{
	void *bt[32];
	char msg[128];
	int n;

	if (touching)
		siglongjmp(touch_jmp, 1);
	/* A bug of ours: say where, for the report. */
	n = snprintf(msg, sizeof(msg), "vflipq-fuzz: signal %d at iteration %"
		     PRIu64 "\n", sig, fz_iter);
	if (write(STDOUT_FILENO, msg, n) < 0)
		n = 0;
	n = backtrace(bt, 32);
	backtrace_symbols_fd(bt, n, STDOUT_FILENO);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void __attribute__((noinline)) poke(volatile uint8_t *b, bool write)
{
	uint8_t v = *b;

	if (write)
		*b = v ^ 0x5a;
}

void touch(void *p, size_t len, struct rng *r, bool write)
{
	volatile uint8_t *volatile b =
		(uint8_t *)p + (len ? rng_u64(r) % len : 0);
	volatile bool w = write;

	if (sigsetjmp(touch_jmp, 1)) {
		touching = 0;
		fz_stats.faults++;
		fz_count(C_TOUCH, EFAULT);
		return;
	}
	touching = 1;
	poke(b, w);
	touching = 0;
	fz_count(C_TOUCH, 0);
}

/* ---- files ----------------------------------------------------------------- */

static int write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	err = n < 0 ? errno : 0;
	close(fd);
	return -err;
}

static int read_int_file(const char *path, int *v)
{
	char buf[64];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	*v = strtol(buf, NULL, 0);
	return 0;
}

static int cfs_write(const char *dev, const char *attr, const char *val)
{
	char path[256];
	int ret;

	snprintf(path, sizeof(path), CFS_ROOT "/%s/%s", dev, attr);
	ret = write_file(path, val, strlen(val));
	fz_count(C_CFS_WRITE, -ret);
	return ret;
}

static bool is_driver(int fd, const char *name)
{
	drmVersionPtr v = drmGetVersion(fd);
	bool ok = v && v->name && !strcmp(v->name, name);

	drmFreeVersion(v);
	return ok;
}

/* Card minor of the first device of @driver (with caps name @caps_name). */
static int find_card(const char *driver, const char *caps_name)
{
	int best = -1;

	for (int i = 0; i < 64 && best < 0; i++) {
		char path[64];
		int fd;

		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (is_driver(fd, driver)) {
			struct drm_vflipq_get_caps caps = { 0 };

			if (!caps_name ||
			    (!ioctl(fd, DRM_IOCTL_VFLIPQ_GET_CAPS, &caps) &&
			     !strcmp(caps.name, caps_name)))
				best = i;
		}
		close(fd);
	}
	return best;
}

/* renderD minor of card @card, -1 if it has none. */
static int find_render(int card)
{
	char path[128];
	struct dirent *de;
	DIR *dir;
	int minor = -1;

	snprintf(path, sizeof(path), "/sys/class/drm/card%d/device/drm", card);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((de = readdir(dir)))
		if (!strncmp(de->d_name, "renderD", 7))
			minor = atoi(de->d_name + 7);
	closedir(dir);
	return minor;
}

/* ---- configfs devices ---------------------------------------------------- */

void cfs_cleanup_all(void)
{
	struct dirent *de;
	DIR *dir;

	dir = opendir(CFS_ROOT);
	if (!dir)
		return;
	while ((de = readdir(dir))) {
		char path[300];
		int ret;

		if (strncmp(de->d_name, "fuzz-", 5))
			continue;
		cfs_write(de->d_name, "enabled", "0");
		snprintf(path, sizeof(path), CFS_ROOT "/%s", de->d_name);
		ret = rmdir(path) ? errno : 0;
		fz_count(C_CFS_RMDIR, ret);
		if (ret)
			fz_log("vflipq-fuzz: rmdir %s: %s\n", path, strerror(ret));
	}
	closedir(dir);
}

/* The device now exists (or not): card and render minors, generation. */
static void dev_update_presence(struct fdev *d)
{
	char path[256];
	int card = -1;

	snprintf(path, sizeof(path), CFS_ROOT "/%s/card", d->name);
	if (read_int_file(path, &card) || card < 0) {
		if (d->present)
			d->gen++;
		d->present = false;
		d->card = d->render = -1;
		d->topo_valid = false;
		return;
	}
	if (!d->present || d->card != card)
		d->gen++;
	d->present = true;
	d->card = card;
	d->render = find_render(card);
	d->topo_valid = false;
	/* The node may take a moment to show up. */
	snprintf(path, sizeof(path), "/dev/dri/card%d", card);
	for (int i = 0; i < 100 && access(path, F_OK); i++)
		usleep(10000);
}

static void make_cfs_devices(uint64_t seed)
{
	static const char *const depths[] = { "1", "2", "4", "8", "8", "64" };
	static const char *const bws[] = { "0", "0", "2000000000", "50000000" };
	struct fdev *disp = &W.dev[DEV_DISP], *rend = &W.dev[DEV_RENDER];
	struct rng r;
	unsigned int tier;
	char v[16];
	int ret;

	rng_seed(&r, seed ^ 0xc0ff1c5ull);
	cfs_cleanup_all();

	ret = mkdir(CFS_ROOT "/fuzz-disp", 0755) ? errno : 0;
	fz_count(C_CFS_MKDIR, ret);
	if (!ret) {
		tier = rnd(&r, 4);
		cfs_write("fuzz-disp", "caso_copy", tier >= 1 ? "1" : "0");
		cfs_write("fuzz-disp", "caso_texture", tier >= 2 ? "1" : "0");
		cfs_write("fuzz-disp", "caso_scanout", tier >= 3 ? "1" : "0");
		if (tier == 3 && chance(&r, 1, 3))
			cfs_write("fuzz-disp", "hybrid_integrated", "1");
		snprintf(v, sizeof(v), "%u", 1 + rnd(&r, 3));
		cfs_write("fuzz-disp", "crtcs", v);
		snprintf(v, sizeof(v), "%u", rnd(&r, 3));
		cfs_write("fuzz-disp", "overlays", v);
		cfs_write("fuzz-disp", "cursor", chance(&r, 1, 2) ? "1" : "0");
		cfs_write("fuzz-disp", "writeback", chance(&r, 1, 2) ? "1" : "0");
		cfs_write("fuzz-disp", "flipq_depth", depths[rnd(&r, ARRAY_LEN(depths))]);
		cfs_write("fuzz-disp", "bandwidth", bws[rnd(&r, ARRAY_LEN(bws))]);
		cfs_write("fuzz-disp", "modes",
			  "640x480@60 800x600@75 1024x768@60 1280x720@30");
		cfs_write("fuzz-disp", "preferred_mode", "640x480@60");
		cfs_write("fuzz-disp", "enabled", "1");
		dev_update_presence(disp);
		fz_log("vflipq-fuzz: fuzz-disp: tier %u, %s\n", tier,
		       disp->present ? "enabled" : "not enabled");
	}

	ret = mkdir(CFS_ROOT "/fuzz-render", 0755) ? errno : 0;
	fz_count(C_CFS_MKDIR, ret);
	if (!ret) {
		cfs_write("fuzz-render", "crtcs", "0");
		cfs_write("fuzz-render", "enabled", "1");
		dev_update_presence(rend);
		fz_log("vflipq-fuzz: fuzz-render: card %d, render node %d\n",
		       rend->card, rend->render);
	}
}

/* After configfs enabled/disabled a device: note it, mark its clients. */
void cfs_device_changed(int dev)
{
	dev_update_presence(&W.dev[dev]);
}

/* ---- topology -------------------------------------------------------------- */

static int add_prop(struct fdev *d, int fd, uint32_t id)
{
	drmModePropertyPtr p;
	struct prop *pr;

	for (int i = 0; i < d->nprops; i++)
		if (d->props[i].id == id)
			return i;
	if (d->nprops == MAX_PROPS)
		return -1;
	p = drmModeGetProperty(fd, id);
	if (!p)
		return -1;
	pr = &d->props[d->nprops];
	memset(pr, 0, sizeof(*pr));
	pr->id = id;
	snprintf(pr->name, sizeof(pr->name), "%s", p->name);
	pr->flags = p->flags;
	if (p->flags & (DRM_MODE_PROP_ENUM | DRM_MODE_PROP_BITMASK)) {
		for (int i = 0; i < p->count_enums && pr->nvals < 24; i++)
			pr->vals[pr->nvals++] = p->enums[i].value;
	} else {
		for (int i = 0; i < p->count_values && pr->nvals < 24; i++)
			pr->vals[pr->nvals++] = p->values[i];
	}
	drmModeFreeProperty(p);
	return d->nprops++;
}

static void get_obj_props(struct fdev *d, int fd, struct kobj *o, uint32_t type)
{
	drmModeObjectPropertiesPtr props = drmModeObjectGetProperties(fd, o->id,
								      type);

	o->nprops = 0;
	if (!props)
		return;
	for (uint32_t i = 0; i < props->count_props && o->nprops < OBJ_PROPS; i++) {
		int k = add_prop(d, fd, props->props[i]);

		if (k >= 0)
			o->props[o->nprops++] = k;
	}
	drmModeFreeObjectProperties(props);
}

int prop_find(const struct fdev *d, const struct kobj *o, const char *name)
{
	for (int i = 0; i < o->nprops; i++)
		if (!strcmp(d->props[o->props[i]].name, name))
			return o->props[i];
	return -1;
}

uint32_t prop_id(const struct fdev *d, const struct kobj *o, const char *name)
{
	int k = prop_find(d, o, name);

	return k < 0 ? 0 : d->props[k].id;
}

static int crtc_index_of_mask(uint32_t mask)
{
	return mask ? __builtin_ctz(mask) : -1;
}

void refresh_topology(struct fdev *d, int fd)
{
	drmModeResPtr res;
	drmModePlaneResPtr pres;
	int np[MAX_CRTCS] = { 0 };

	d->ncrtcs = d->nplanes = d->nconns = d->nmodes = d->nprops = 0;
	memset(d->crtc_nplanes, 0, sizeof(d->crtc_nplanes));
	memset(d->last_pid, 0, sizeof(d->last_pid));
	memset(d->last_target, 0, sizeof(d->last_target));
	memset(d->crtc_on, 0, sizeof(d->crtc_on));
	for (int i = 0; i < MAX_CRTCS; i++)
		d->fq_owner[i] = -1;
	d->topo_valid = true;

	memset(&d->caps, 0, sizeof(d->caps));
	ioctl(fd, DRM_IOCTL_VFLIPQ_GET_CAPS, &d->caps);
	drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1);
	drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1);
	drmSetClientCap(fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1);
	res = drmModeGetResources(fd);
	if (!res)
		return;
	for (int i = 0; i < res->count_crtcs && d->ncrtcs < MAX_CRTCS; i++) {
		drmModeCrtcPtr c = drmModeGetCrtc(fd, res->crtcs[i]);
		struct kobj *o = &d->crtcs[d->ncrtcs];

		o->id = res->crtcs[i];
		get_obj_props(d, fd, o, DRM_MODE_OBJECT_CRTC);
		if (c) {
			d->crtc_on[d->ncrtcs] = c->mode_valid;
			if (c->mode_valid && c->mode.clock)
				d->period_ns[d->ncrtcs] =
					(uint64_t)c->mode.htotal * c->mode.vtotal *
					1000000ull / c->mode.clock;
			drmModeFreeCrtc(c);
		}
		if (!d->period_ns[d->ncrtcs])
			d->period_ns[d->ncrtcs] = 16666667;
		d->ncrtcs++;
	}
	for (int i = 0; i < res->count_connectors && d->nconns < MAX_CONNS; i++) {
		drmModeConnectorPtr c = drmModeGetConnector(fd, res->connectors[i]);
		struct kobj *o = &d->conns[d->nconns];

		if (!c)
			continue;
		o->id = c->connector_id;
		d->conn_wb[d->nconns] =
			c->connector_type == DRM_MODE_CONNECTOR_WRITEBACK;
		d->conn_crtc[d->nconns] = -1;
		if (c->count_encoders) {
			drmModeEncoderPtr e = drmModeGetEncoder(fd, c->encoders[0]);

			if (e) {
				d->conn_crtc[d->nconns] =
					crtc_index_of_mask(e->possible_crtcs);
				drmModeFreeEncoder(e);
			}
		}
		if (!d->conn_wb[d->nconns] && !d->nmodes)
			for (int m = 0; m < c->count_modes && d->nmodes < 16; m++)
				d->modes[d->nmodes++] = c->modes[m];
		get_obj_props(d, fd, o, DRM_MODE_OBJECT_CONNECTOR);
		drmModeFreeConnector(c);
		d->nconns++;
	}
	drmModeFreeResources(res);

	pres = drmModeGetPlaneResources(fd);
	if (!pres)
		return;
	for (uint32_t i = 0; i < pres->count_planes && d->nplanes < MAX_PLANES; i++) {
		drmModePlanePtr p = drmModeGetPlane(fd, pres->planes[i]);
		struct kobj *o = &d->planes[d->nplanes];
		int k;

		if (!p)
			continue;
		o->id = p->plane_id;
		d->plane_crtc[d->nplanes] = crtc_index_of_mask(p->possible_crtcs);
		drmModeFreePlane(p);
		get_obj_props(d, fd, o, DRM_MODE_OBJECT_PLANE);
		d->plane_type[d->nplanes] = DRM_PLANE_TYPE_OVERLAY;
		k = prop_find(d, o, "type");
		if (k >= 0) {
			drmModeObjectPropertiesPtr props =
				drmModeObjectGetProperties(fd, o->id,
							   DRM_MODE_OBJECT_PLANE);

			for (uint32_t j = 0; props && j < props->count_props; j++)
				if (props->props[j] == d->props[k].id)
					d->plane_type[d->nplanes] =
						props->prop_values[j];
			drmModeFreeObjectProperties(props);
		}
		d->nplanes++;
	}
	drmModeFreePlaneResources(pres);

	/* Flip-queue order: primary, overlays (ascending ids), cursor. */
	for (int pass = 0; pass < 3; pass++) {
		static const int order[] = { DRM_PLANE_TYPE_PRIMARY,
					     DRM_PLANE_TYPE_OVERLAY,
					     DRM_PLANE_TYPE_CURSOR };

		for (int i = 0; i < d->nplanes; i++) {
			int c = d->plane_crtc[i];

			if (d->plane_type[i] != order[pass] || c < 0 ||
			    c >= d->ncrtcs || np[c] >= FQ_PLANES)
				continue;
			d->crtc_plane[c][np[c]++] = i;
		}
	}
	memcpy(d->crtc_nplanes, np, sizeof(np));
}

/* ---- clients ------------------------------------------------------------------ */

struct fdev *client_dev(struct client *c)
{
	return c->dev >= 0 ? &W.dev[c->dev] : NULL;
}

bool client_is_card(const struct client *c)
{
	return c->kind != K_RENDER && c->kind != K_VGEM;
}

int client_open(struct client *c)
{
	struct fdev *d = client_dev(c);
	char path[64];
	int fd, err;

	if (c->fd >= 0)
		return c->fd;
	switch (c->kind) {
	case K_LEASE:
		return -1;	/* made by the lease operation */
	case K_VGEM:
		if (W.vgem_card < 0)
			return -1;
		snprintf(path, sizeof(path), "/dev/dri/card%d", W.vgem_card);
		break;
	case K_RENDER:
		if (!d->present || d->render < 0)
			return -1;
		snprintf(path, sizeof(path), "/dev/dri/renderD%d", d->render);
		break;
	default:
		if (!d->present || d->card < 0)
			return -1;
		snprintf(path, sizeof(path), "/dev/dri/card%d", d->card);
		break;
	}
	fd = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK);
	err = fd < 0 ? errno : 0;
	fz_count(C_OPEN, err);
	if (fd < 0)
		return -1;
	c->fd = fd;
	c->gen = d ? d->gen : 0;
	if (c->kind == K_VGEM || c->kind == K_RENDER)
		return fd;
	if (c->kind == K_MASTER)
		fz_ioctl(C_SET_MASTER, fd, DRM_IOCTL_SET_MASTER, NULL);
	drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1);
	drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1);
	drmSetClientCap(fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1);
	if (d && !d->topo_valid && c->kind != K_RCARD)
		refresh_topology(d, fd);
	else if (d && !d->topo_valid)
		d->topo_valid = true;	/* render-only: nothing to map */
	return fd;
}

void client_close(struct client *c, bool unmap)
{
	struct fdev *d = client_dev(c);

	if (unmap)
		for (int i = 0; i < NMAP; i++)
			map_forget(c, i);
	if (c->fd >= 0) {
		fz_count(C_CLOSE, close(c->fd) ? errno : 0);
		/* Whatever this file queued is gone with it. */
		if (d && c->gen == d->gen)
			fq_owner_gone(d, c);
	}
	c->fd = -1;
	c->lessee_id = 0;
	memset(c->bos, 0, sizeof(c->bos));
	memset(c->fbs, 0, sizeof(c->fbs));
	memset(c->blobs, 0, sizeof(c->blobs));
	memset(c->logs, 0, sizeof(c->logs));
}

void fq_owner_gone(struct fdev *d, struct client *c)
{
	for (int i = 0; i < MAX_CRTCS; i++) {
		if (d->fq_owner[i] != (int)(c - W.cl))
			continue;
		memset(d->last_pid[i], 0, sizeof(d->last_pid[i]));
		d->last_target[i] = 0;
		d->fq_owner[i] = -1;
	}
}

bool fb_info(uint32_t id, struct fbrec *out)
{
	for (int i = 0; id && i < NCLIENTS; i++)
		for (int k = 0; k < NFB; k++)
			if (W.cl[i].fbs[k].id == id) {
				*out = W.cl[i].fbs[k];
				return true;
			}
	return false;
}

int client_fd(struct client *c)
{
	if (c->fd >= 0)
		return c->fd;
	return client_open(c);
}

/* ---- tables ---------------------------------------------------------------------- */

#define PICK_SLOT(tbl, n, empty, r) ({ \
	int s_ = -1; \
	for (int i_ = 0; i_ < (n); i_++) \
		if (empty(tbl[i_])) { s_ = i_; break; } \
	s_ < 0 ? (int)rnd((r), (n)) : s_; })

#define BO_EMPTY(b) (!(b).handle)
#define FB_EMPTY(f) (!(f).id)
#define MAP_EMPTY(m) (!(m).p)
#define LOG_EMPTY(l) (!(l).handle)
#define FD_EMPTY(x) ((x) < 0)

void bo_forget(struct client *c, int slot, bool close_handle)
{
	struct bo *b = &c->bos[slot];

	if (b->handle && close_handle && c->fd >= 0) {
		struct drm_gem_close gc = { .handle = b->handle };

		fz_ioctl(C_GEM_CLOSE, c->fd, DRM_IOCTL_GEM_CLOSE, &gc);
	}
	memset(b, 0, sizeof(*b));
}

int bo_store(struct client *c, struct rng *r, const struct bo *b)
{
	int s = PICK_SLOT(c->bos, NBO, BO_EMPTY, r);

	bo_forget(c, s, true);
	c->bos[s] = *b;
	return s;
}

void fb_forget(struct client *c, int slot, bool rm)
{
	struct fbrec *f = &c->fbs[slot];

	if (f->id && rm && c->fd >= 0) {
		/*
		 * CLOSEFB: an fb on screen stays there, where RMFB would turn
		 * the plane off with a blocking commit (op_rmfb does that).
		 * Kernels before 6.8 have RMFB only.
		 */
		struct drm_mode_closefb cf = { .fb_id = f->id };
		uint32_t id = f->id;

		if (fz_ioctl(C_CLOSEFB, c->fd, DRM_IOCTL_MODE_CLOSEFB, &cf) == -EINVAL)
			fz_ioctl(C_RMFB, c->fd, DRM_IOCTL_MODE_RMFB, &id);
	}
	memset(f, 0, sizeof(*f));
}

/* Slots [lo, hi) of the table: the first NFB_MADE are make_fb()'s. */
static int fb_store_in(struct client *c, struct rng *r, const struct fbrec *f,
		       int lo, int hi)
{
	int s = lo + PICK_SLOT((c->fbs + lo), hi - lo, FB_EMPTY, r);

	fb_forget(c, s, true);
	c->fbs[s] = *f;
	return s;
}

int fb_store(struct client *c, struct rng *r, const struct fbrec *f)
{
	return fb_store_in(c, r, f, NFB_MADE, NFB);
}

void map_forget(struct client *c, int slot)
{
	struct maprec *m = &c->maps[slot];

	if (m->p)
		fz_count(C_MUNMAP, munmap(m->p, m->len) ? errno : 0);
	memset(m, 0, sizeof(*m));
}

int map_store(struct client *c, struct rng *r, void *p, size_t len,
	      bool writable)
{
	int s = PICK_SLOT(c->maps, NMAP, MAP_EMPTY, r);

	map_forget(c, s);
	c->maps[s] = (struct maprec){ .p = p, .len = len, .writable = writable };
	return s;
}

void log_forget(struct client *c, int slot)
{
	struct logrec *l = &c->logs[slot];

	if (l->handle && c->fd >= 0) {
		struct drm_gem_close gc = { .handle = l->handle };

		fz_ioctl(C_GEM_CLOSE, c->fd, DRM_IOCTL_GEM_CLOSE, &gc);
	}
	memset(l, 0, sizeof(*l));
}

int log_store(struct client *c, struct rng *r, const struct logrec *l)
{
	int s = PICK_SLOT(c->logs, NLOG, LOG_EMPTY, r);

	log_forget(c, s);
	c->logs[s] = *l;
	return s;
}

void dmabuf_forget(int slot)
{
	if (W.dmabuf[slot] >= 0)
		fz_count(C_CLOSE, close(W.dmabuf[slot]) ? errno : 0);
	W.dmabuf[slot] = -1;
	W.dmabuf_size[slot] = 0;
}

int dmabuf_store(struct rng *r, int fd, uint64_t size)
{
	int s = PICK_SLOT(W.dmabuf, NDMABUF, FD_EMPTY, r);

	dmabuf_forget(s);
	W.dmabuf[s] = fd;
	W.dmabuf_size[s] = size;
	return s;
}

void fence_forget(int slot)
{
	if (W.fence[slot] >= 0)
		fz_count(C_CLOSE, close(W.fence[slot]) ? errno : 0);
	W.fence[slot] = -1;
}

void fence_store(struct rng *r, int fd)
{
	int s = PICK_SLOT(W.fence, NFENCE, FD_EMPTY, r);

	fence_forget(s);
	W.fence[s] = fd;
}

/* ---- pickers ---------------------------------------------------------------------- */

struct client *pick_client(struct rng *r, bool vflipq_only)
{
	static const unsigned int weight[NCLIENTS] = {
		[CL_MASTER] = 30, [CL_SECOND] = 8, [CL_LEASE] = 8,
		[CL_DMASTER] = 22, [CL_DSECOND] = 6, [CL_RENDER] = 10,
		[CL_RCARD] = 8, [CL_VGEM] = 8,
	};
	unsigned int total = 0, x;
	struct client *c = &W.cl[CL_MASTER];

	for (int i = 0; i < NCLIENTS; i++)
		total += vflipq_only && i == CL_VGEM ? 0 : weight[i];
	x = rnd(r, total);
	for (int i = 0; i < NCLIENTS; i++) {
		unsigned int w = vflipq_only && i == CL_VGEM ? 0 : weight[i];

		if (x < w) {
			c = &W.cl[i];
			break;
		}
		x -= w;
	}
	if (client_fd(c) < 0)
		c = &W.cl[CL_MASTER];
	client_fd(c);
	return c;
}

struct client *pick_card_client(struct rng *r)
{
	static const int card[] = { CL_MASTER, CL_MASTER, CL_MASTER, CL_SECOND,
				    CL_LEASE, CL_DMASTER, CL_DMASTER,
				    CL_DSECOND, CL_RCARD };
	struct client *c = &W.cl[card[rnd(r, ARRAY_LEN(card))]];

	if (client_fd(c) < 0)
		c = &W.cl[CL_MASTER];
	client_fd(c);
	return c;
}

static uint32_t any_fb(struct rng *r, struct client *c)
{
	int s = rnd(r, NFB);

	for (int i = 0; i < NFB; i++)
		if (c->fbs[(s + i) % NFB].id)
			return c->fbs[(s + i) % NFB].id;
	return 0;
}

uint32_t pick_fb_id(struct rng *r, struct client *c, bool any_client)
{
	uint32_t x = rnd(r, 100), id;

	if (x < 75 || (!any_client && x < 90)) {
		id = any_fb(r, c);
		if (id)
			return id;
	}
	if (x < 90) {
		struct client *o = &W.cl[rnd(r, NCLIENTS)];

		id = any_fb(r, o);
		if (id)
			return id;
	}
	if (x < 97)
		return rnd(r, 200);
	return rnd_interesting32(r);
}

uint32_t pick_handle(struct rng *r, struct client *c)
{
	uint32_t x = rnd(r, 100);

	if (x < 80) {
		int s = rnd(r, NBO);

		for (int i = 0; i < NBO; i++)
			if (c->bos[(s + i) % NBO].handle)
				return c->bos[(s + i) % NBO].handle;
	}
	if (x < 88) {
		int s = rnd(r, NLOG);

		if (c->logs[s].handle)
			return c->logs[s].handle;
	}
	if (x < 97)
		return rnd(r, 40);
	return rnd_interesting32(r);
}

uint32_t pick_format(struct rng *r)
{
	static const uint32_t f[] = {
		DRM_FORMAT_XRGB8888, DRM_FORMAT_XRGB8888, DRM_FORMAT_ARGB8888,
		DRM_FORMAT_XBGR8888, DRM_FORMAT_ABGR8888, DRM_FORMAT_XRGB2101010,
		DRM_FORMAT_ARGB2101010, DRM_FORMAT_XBGR2101010,
		DRM_FORMAT_ABGR2101010, DRM_FORMAT_XRGB16161616F,
		DRM_FORMAT_ARGB16161616F, DRM_FORMAT_XBGR16161616F,
		DRM_FORMAT_ABGR16161616F, DRM_FORMAT_RGB565, DRM_FORMAT_NV12,
		DRM_FORMAT_YUYV, DRM_FORMAT_C8, DRM_FORMAT_RGB888,
		DRM_FORMAT_YUV420, DRM_FORMAT_P010, DRM_FORMAT_R8,
	};

	if (chance(r, 1, 25))
		return rng_u32(r);
	return f[rnd(r, ARRAY_LEN(f))];
}

uint32_t pick_crtc_id(struct rng *r, struct fdev *d, int *idx)
{
	*idx = -1;
	if (d && d->ncrtcs && !chance(r, 1, 12)) {
		*idx = rnd(r, d->ncrtcs);
		return d->crtcs[*idx].id;
	}
	if (chance(r, 1, 3))
		return 0;
	/* Another object's id, or garbage. */
	return chance(r, 1, 2) ? rnd(r, 120) : rnd_interesting32(r);
}

uint32_t pick_plane_id(struct rng *r, struct fdev *d, int crtc, int *fqidx)
{
	*fqidx = -1;
	if (d && crtc >= 0 && d->crtc_nplanes[crtc] && !chance(r, 1, 10)) {
		*fqidx = rnd(r, d->crtc_nplanes[crtc]);
		return d->planes[d->crtc_plane[crtc][*fqidx]].id;
	}
	if (d && d->nplanes && chance(r, 2, 3))
		return d->planes[rnd(r, d->nplanes)].id;
	return chance(r, 1, 2) ? rnd(r, 120) : rnd_interesting32(r);
}

/* ---- framebuffers, pipes, events ---------------------------------------------------- */

/* Bits per pixel of plane 0 (NV12's chroma plane goes below it: see
 * make_fb()); 32 for formats the table lacks. */
static uint32_t format_bpp(uint32_t format)
{
	uint32_t cpp = fourcc_cpp(format);

	return cpp ? cpp * 8 : 32;
}

uint32_t make_fb(struct rng *r, struct client *c, uint32_t w, uint32_t h,
		 uint32_t format)
{
	struct drm_mode_create_dumb cd = { 0 };
	struct drm_mode_fb_cmd2 f = { 0 };
	struct bo b = { 0 };
	int fd = c->fd;

	for (int i = 0; i < NFB; i++)
		if (c->fbs[i].id && c->fbs[i].w == w && c->fbs[i].h == h &&
		    c->fbs[i].format == format)
			return c->fbs[i].id;
	if (fd < 0)
		return 0;
	cd.width = w;
	cd.height = format == DRM_FORMAT_NV12 ? h + (h + 1) / 2 : h;
	cd.bpp = format_bpp(format);
	if (fz_ioctl(C_CREATE_DUMB, fd, DRM_IOCTL_MODE_CREATE_DUMB, &cd))
		return 0;
	b = (struct bo){ .handle = cd.handle, .w = w, .h = cd.height,
			 .bpp = cd.bpp, .pitch = cd.pitch, .size = cd.size };
	bo_store(c, r, &b);
	f.width = w;
	f.height = h;
	f.pixel_format = format;
	f.handles[0] = cd.handle;
	f.pitches[0] = cd.pitch;
	if (format == DRM_FORMAT_NV12) {
		f.handles[1] = cd.handle;
		f.pitches[1] = cd.pitch;
		f.offsets[1] = cd.pitch * h;
	}
	if (fz_ioctl(C_ADDFB2, fd, DRM_IOCTL_MODE_ADDFB2, &f))
		return 0;
	fb_store_in(c, r, &(struct fbrec){ .id = f.fb_id, .w = w, .h = h,
					.format = format }, 0, NFB_MADE);
	return f.fb_id;
}

void areq_add(struct areq *a, uint32_t obj, uint32_t prop, uint64_t val)
{
	if (!prop || a->nprops == 256)
		return;
	if (!a->nobjs || a->objs[a->nobjs - 1] != obj) {
		if (a->nobjs == 64)
			return;
		a->objs[a->nobjs] = obj;
		a->counts[a->nobjs++] = 0;
	}
	a->counts[a->nobjs - 1]++;
	a->props[a->nprops] = prop;
	a->vals[a->nprops++] = val;
}

int areq_commit(int fd, struct areq *a, uint32_t flags)
{
	struct drm_mode_atomic at = {
		.flags = flags, .count_objs = a->nobjs,
		.objs_ptr = (uintptr_t)a->objs,
		.count_props_ptr = (uintptr_t)a->counts,
		.props_ptr = (uintptr_t)a->props,
		.prop_values_ptr = (uintptr_t)a->vals,
	};

	return fz_ioctl(C_ATOMIC, fd, DRM_IOCTL_MODE_ATOMIC, &at);
}

static int conn_of_crtc(struct fdev *d, int crtc)
{
	for (int i = 0; i < d->nconns; i++)
		if (!d->conn_wb[i] && d->conn_crtc[i] == crtc)
			return i;
	return -1;
}

int pipe_up(struct rng *r, struct client *c, int crtc, bool blocking)
{
	struct fdev *d = client_dev(c);
	struct drm_mode_create_blob cb = { 0 };
	struct drm_mode_destroy_blob db;
	const drmModeModeInfo *m;
	struct areq a = { .nobjs = 0 };
	struct kobj *pl;
	uint32_t fb, flags;
	int conn, ret;

	if (!d || crtc < 0 || crtc >= d->ncrtcs || !d->nmodes ||
	    !d->crtc_nplanes[crtc] || c->fd < 0)
		return -EINVAL;
	conn = conn_of_crtc(d, crtc);
	if (conn < 0)
		return -EINVAL;
	/* Mostly the smallest mode: composition and scan-out stay cheap. */
	m = &d->modes[0];
	for (int i = 1; i < d->nmodes; i++)
		if (d->modes[i].hdisplay * d->modes[i].vdisplay <
		    m->hdisplay * m->vdisplay && d->modes[i].vrefresh >= 30)
			m = &d->modes[i];
	if (chance(r, 1, 8))
		m = &d->modes[rnd(r, d->nmodes)];
	if (m->vrefresh < 20)
		m = &d->modes[0];
	fb = make_fb(r, c, m->hdisplay, m->vdisplay,
		     chance(r, 3, 4) ? DRM_FORMAT_XRGB8888 : DRM_FORMAT_ARGB8888);
	if (!fb)
		return -ENOMEM;
	cb.data = (uintptr_t)m;
	cb.length = sizeof(*m);
	if (fz_ioctl(C_CREATEBLOB, c->fd, DRM_IOCTL_MODE_CREATEPROPBLOB, &cb))
		return -errno;
	pl = &d->planes[d->crtc_plane[crtc][0]];
	areq_add(&a, d->conns[conn].id, prop_id(d, &d->conns[conn], "CRTC_ID"),
		 d->crtcs[crtc].id);
	areq_add(&a, d->crtcs[crtc].id, prop_id(d, &d->crtcs[crtc], "MODE_ID"),
		 cb.blob_id);
	areq_add(&a, d->crtcs[crtc].id, prop_id(d, &d->crtcs[crtc], "ACTIVE"), 1);
	areq_add(&a, pl->id, prop_id(d, pl, "FB_ID"), fb);
	areq_add(&a, pl->id, prop_id(d, pl, "CRTC_ID"), d->crtcs[crtc].id);
	areq_add(&a, pl->id, prop_id(d, pl, "SRC_X"), 0);
	areq_add(&a, pl->id, prop_id(d, pl, "SRC_Y"), 0);
	areq_add(&a, pl->id, prop_id(d, pl, "SRC_W"), (uint64_t)m->hdisplay << 16);
	areq_add(&a, pl->id, prop_id(d, pl, "SRC_H"), (uint64_t)m->vdisplay << 16);
	areq_add(&a, pl->id, prop_id(d, pl, "CRTC_X"), 0);
	areq_add(&a, pl->id, prop_id(d, pl, "CRTC_Y"), 0);
	areq_add(&a, pl->id, prop_id(d, pl, "CRTC_W"), m->hdisplay);
	areq_add(&a, pl->id, prop_id(d, pl, "CRTC_H"), m->vdisplay);
	areq_add(&a, pl->id, prop_id(d, pl, "rotation"), DRM_MODE_ROTATE_0);
	flags = DRM_MODE_ATOMIC_ALLOW_MODESET |
		(blocking ? 0 : DRM_MODE_ATOMIC_NONBLOCK);
	ret = areq_commit(c->fd, &a, flags);
	db.blob_id = cb.blob_id;
	fz_ioctl(C_DESTROYBLOB, c->fd, DRM_IOCTL_MODE_DESTROYPROPBLOB, &db);
	if (!ret) {
		d->crtc_on[crtc] = true;
		d->period_ns[crtc] = m->clock ? (uint64_t)m->htotal * m->vtotal *
					       1000000ull / m->clock : 16666667;
		memset(d->last_target, 0, sizeof(d->last_target));
	}
	return ret;
}

int pipe_down(struct client *c, int crtc, bool blocking)
{
	struct fdev *d = client_dev(c);
	struct areq a = { .nobjs = 0 };
	int conn, ret;

	if (!d || crtc < 0 || crtc >= d->ncrtcs || c->fd < 0)
		return -EINVAL;
	for (int i = 0; i < d->crtc_nplanes[crtc]; i++) {
		struct kobj *pl = &d->planes[d->crtc_plane[crtc][i]];

		areq_add(&a, pl->id, prop_id(d, pl, "FB_ID"), 0);
		areq_add(&a, pl->id, prop_id(d, pl, "CRTC_ID"), 0);
	}
	conn = conn_of_crtc(d, crtc);
	if (conn >= 0)
		areq_add(&a, d->conns[conn].id,
			 prop_id(d, &d->conns[conn], "CRTC_ID"), 0);
	for (int i = 0; i < d->nconns; i++)
		if (d->conn_wb[i] && d->conn_crtc[i] == crtc) {
			areq_add(&a, d->conns[i].id,
				 prop_id(d, &d->conns[i], "WRITEBACK_FB_ID"), 0);
			areq_add(&a, d->conns[i].id,
				 prop_id(d, &d->conns[i], "CRTC_ID"), 0);
		}
	areq_add(&a, d->crtcs[crtc].id, prop_id(d, &d->crtcs[crtc], "ACTIVE"), 0);
	areq_add(&a, d->crtcs[crtc].id, prop_id(d, &d->crtcs[crtc], "MODE_ID"), 0);
	ret = areq_commit(c->fd, &a, DRM_MODE_ATOMIC_ALLOW_MODESET |
			  (blocking ? 0 : DRM_MODE_ATOMIC_NONBLOCK));
	if (!ret)
		d->crtc_on[crtc] = false;
	return ret;
}

void read_events(struct client *c)
{
	char buf[4096] __attribute__((aligned(8)));
	ssize_t len, off = 0;
	int err;

	if (c->fd < 0)
		return;
	len = read(c->fd, buf, sizeof(buf));
	err = len < 0 ? errno : 0;
	fz_count(C_READ_EVENTS, err);
	while (len > 0 && off + (ssize_t)sizeof(struct drm_event) <= len) {
		struct drm_event *e = (struct drm_event *)(buf + off);

		if (e->length < sizeof(*e) || off + (ssize_t)e->length > len) {
			fz_anomaly("event of type %#x with length %u at %zd of %zd",
				   e->type, e->length, off, len);
			break;
		}
		fz_stats.events++;
		if (e->type == DRM_VFLIPQ_EVENT_FLIPQ) {
			struct drm_vflipq_event_flipq fe;

			fz_stats.fq_events++;
			if (e->length != sizeof(fe)) {
				fz_anomaly("flip-queue event of %u bytes", e->length);
			} else {
				memcpy(&fe, e, sizeof(fe));
				if (fe.pad)
					fz_anomaly("flip-queue event pad %#x",
						   fe.pad);
			}
		}
		off += e->length;
	}
}

/* ---- setup and teardown --------------------------------------------------------------- */

static const struct {
	const char *label;
	enum client_kind kind;
	int dev;
} client_defs[NCLIENTS] = {
	[CL_MASTER] = { "default/master", K_MASTER, DEV_DEFAULT },
	[CL_SECOND] = { "default/second", K_SECOND, DEV_DEFAULT },
	[CL_LEASE] = { "default/lessee", K_LEASE, DEV_DEFAULT },
	[CL_DMASTER] = { "disp/master", K_MASTER, DEV_DISP },
	[CL_DSECOND] = { "disp/second", K_SECOND, DEV_DISP },
	[CL_RENDER] = { "render/renderD", K_RENDER, DEV_RENDER },
	[CL_RCARD] = { "render/card", K_RCARD, DEV_RENDER },
	[CL_VGEM] = { "vgem", K_VGEM, -1 },
};

void world_init(uint64_t seed)
{
	struct sigaction sa = { .sa_handler = fault_handler };
	struct stat st;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);

	memset(&W, 0, sizeof(W));
	for (int i = 0; i < NDMABUF; i++)
		W.dmabuf[i] = -1;
	for (int i = 0; i < NFENCE; i++)
		W.fence[i] = -1;
	W.dev[DEV_DEFAULT].name = "default";
	W.dev[DEV_DISP].name = "fuzz-disp";
	W.dev[DEV_DISP].cfs = true;
	W.dev[DEV_RENDER].name = "fuzz-render";
	W.dev[DEV_RENDER].cfs = true;
	for (int i = 0; i < NDEVS; i++) {
		W.dev[i].card = W.dev[i].render = -1;
		for (int k = 0; k < MAX_CRTCS; k++)
			W.dev[i].fq_owner[k] = -1;
	}
	for (int i = 0; i < NCLIENTS; i++) {
		W.cl[i].label = client_defs[i].label;
		W.cl[i].kind = client_defs[i].kind;
		W.cl[i].dev = client_defs[i].dev;
		W.cl[i].fd = -1;
	}

	W.dev[DEV_DEFAULT].card = find_card("vflipq", "default");
	if (W.dev[DEV_DEFAULT].card < 0) {
		fprintf(stderr, "vflipq-fuzz: no vflipq device named \"default\"\n");
		exit(1);
	}
	W.dev[DEV_DEFAULT].present = true;
	W.vgem_card = find_card("vgem", NULL);
	W.have_cfs = stat(CFS_ROOT, &st) == 0;
	if (W.have_cfs)
		make_cfs_devices(seed);
	else
		fz_log("vflipq-fuzz: no %s: configfs devices skipped\n", CFS_ROOT);

	if (client_open(&W.cl[CL_MASTER]) < 0) {
		fprintf(stderr, "vflipq-fuzz: cannot open the default device: %s\n",
			strerror(errno));
		exit(1);
	}
	for (int i = 0; i < NCLIENTS; i++)
		client_open(&W.cl[i]);
	fz_log("vflipq-fuzz: default card%d (%d CRTCs, %d planes), vgem card%d,"
	       " disp card%d, render card%d renderD%d\n",
	       W.dev[DEV_DEFAULT].card, W.dev[DEV_DEFAULT].ncrtcs,
	       W.dev[DEV_DEFAULT].nplanes, W.vgem_card, W.dev[DEV_DISP].card,
	       W.dev[DEV_RENDER].card, W.dev[DEV_RENDER].render);
	if (fz_verbose)
		for (int i = 0; i < NCLIENTS; i++)
			fz_log("vflipq-fuzz: client %s: fd %d\n", W.cl[i].label,
			       W.cl[i].fd);
}

void world_fini(void)
{
	for (int i = 0; i < NCLIENTS; i++)
		client_close(&W.cl[i], true);
	for (int i = 0; i < NDMABUF; i++)
		dmabuf_forget(i);
	for (int i = 0; i < NFENCE; i++)
		fence_forget(i);
	if (W.have_cfs)
		cfs_cleanup_all();
}
