// SPDX-License-Identifier: MIT
/*
 * vflipq-fuzz: framebuffers the operations need, atomic requests, lighting
 * and turning off pipes, reading events.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include <drm_fourcc.h>

#include "fourcc.h"
#include "fuzz.h"

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

/*
 * A vblank an event of @c reported, against everything its events said of
 * that CRTC before (truth.h): read after its vblank, and the sequence
 * order of any two agrees with their time order.  The grid is not judged:
 * the fuzzer changes modes behind the events' backs.
 */
static void event_truth(struct client *c, const char *what, uint32_t crtc_id,
			uint64_t seq, uint64_t ts, uint64_t t_read)
{
	struct vfq_truth *t = NULL;

	for (int i = 0; i < c->ntruth && !t; i++)
		if (c->truth[i].crtc_id == crtc_id)
			t = &c->truth[i];
	if (!t) {
		if (c->ntruth == MAX_CRTCS)
			return;
		t = &c->truth[c->ntruth++];
		vfq_truth_init(t, crtc_id, 0, VFQ_TRUTH_ANY_ORDER);
	}
	if (!vfq_truth_check_event(t, what, 0, crtc_id, seq, ts, t_read))
		fz_anomaly("%s", t->why);
}

static void vblank_event(struct client *c, const struct drm_event *e,
			 uint64_t t_read)
{
	struct drm_event_vblank v;

	if (e->length < sizeof(v))
		return;
	memcpy(&v, e, sizeof(v));
	if (!v.crtc_id)
		return;
	event_truth(c, e->type == DRM_EVENT_FLIP_COMPLETE ? "flip event" :
		    "vblank event", v.crtc_id, v.sequence,
		    (uint64_t)v.tv_sec * 1000000000ull +
		    (uint64_t)v.tv_usec * 1000ull, t_read);
}

void read_events(struct client *c)
{
	char buf[4096] __attribute__((aligned(8)));
	ssize_t len, off = 0;
	uint64_t t_read;
	int err;

	if (c->fd < 0)
		return;
	len = read(c->fd, buf, sizeof(buf));
	err = len < 0 ? errno : 0;
	t_read = now_ns();
	fz_count(C_READ_EVENTS, err);
	while (len > 0 && off + (ssize_t)sizeof(struct drm_event) <= len) {
		struct drm_event *e = (struct drm_event *)(buf + off);

		if (e->length < sizeof(*e) || off + (ssize_t)e->length > len) {
			fz_anomaly("event of type %#x with length %u at %zd of %zd",
				   e->type, e->length, off, len);
			break;
		}
		fz_stats.events++;
		if (e->type == DRM_EVENT_VBLANK ||
		    e->type == DRM_EVENT_FLIP_COMPLETE)
			vblank_event(c, e, t_read);
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
				/*
				 * Its sequence counts the engine's grid from
				 * the last mode set, not DRM's vblanks
				 * (flip-queue.rst): only its time is judged.
				 */
				if (fe.timestamp_ns > t_read)
					fz_anomaly("flip-queue event at %llu ns, "
						   "read at %llu ns",
						   (unsigned long long)fe.timestamp_ns,
						   (unsigned long long)t_read);
			}
		}
		off += e->length;
	}
}
