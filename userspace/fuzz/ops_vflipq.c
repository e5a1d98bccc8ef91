// SPDX-License-Identifier: MIT
/*
 * vflipq-fuzz: the driver-private ioctls (uAPI 2.0).  Each operation mostly
 * builds a request that is valid or nearly so (real CRTCs, planes,
 * framebuffers and PresentIds that follow the rules), and sometimes
 * garbage: reserved and pad bytes, odd entry sizes, bad pointers.  Where
 * the uAPI promises something about what comes back (reserved members
 * zero, outputs within their documented range), the answer is checked.
 * FLIPQ_SUBMIT goes in batches of one flip, of many, and of none (the
 * interrupt target alone); 1.x's retired numbers must fail with -EINVAL.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <drm_fourcc.h>

#include "fuzz.h"
#include "vflipq_v1.h"

/* Bits 11 to 13 were 1.x's submission features: never set since 2.0. */
#define KNOWN_CAPS ((VFLIPQ_CAP_RENDER_ONLY << 1) - 1)
#define KNOWN_REASONS 0xffu
#define PAGE 4096u

/* A bad user pointer: never mapped in this process. */
static uint64_t bad_ptr(struct rng *r)
{
	static const uint64_t p[] = {
		1, 0xdead0000, 0xffff888000000000ull, 0x00007ffffffff000ull,
		0xfffffffffffff000ull, 8,
	};

	return p[rnd(r, ARRAY_LEN(p))];
}

static bool all_zero(const void *p, size_t len)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < len; i++)
		if (b[i])
			return false;
	return true;
}

/* A client on a card node (mostly masters) and its device. */
static struct client *pick_fq_client(struct rng *r)
{
	static const int pick[] = {
		CL_MASTER, CL_MASTER, CL_MASTER, CL_MASTER, CL_MASTER,
		CL_MASTER, CL_DMASTER, CL_DMASTER, CL_DMASTER, CL_LEASE,
		CL_LEASE, CL_SECOND, CL_DSECOND, CL_RCARD, CL_RENDER,
	};
	struct client *c = &W.cl[pick[rnd(r, ARRAY_LEN(pick))]];

	if (client_fd(c) < 0)
		c = &W.cl[CL_MASTER];
	client_fd(c);
	return c;
}

static void op_get_caps(struct rng *r)
{
	struct client *c = pick_client(r, true);
	struct drm_vflipq_get_caps caps;
	size_t n;

	/* Output members are overwritten: fill them with a pattern. */
	memset(&caps, chance(r, 1, 2) ? 0xaa : 0, sizeof(caps));
	caps.flags = 0;
	memset(caps.reserved, 0, sizeof(caps.reserved));
	if (chance(r, 1, 10)) {
		if (chance(r, 1, 2))
			caps.flags = rnd_interesting32(r);
		else
			caps.reserved[rnd(r, 8)] = rnd_interesting64(r);
	}
	if (fz_ioctl(C_GET_CAPS, c->fd, DRM_IOCTL_VFLIPQ_GET_CAPS, &caps))
		return;
	n = strnlen(caps.name, sizeof(caps.name));
	if (n == sizeof(caps.name))
		fz_anomaly("GET_CAPS (%s): name not NUL-terminated", c->label);
	else if (!all_zero(caps.name + n, sizeof(caps.name) - n))
		fz_anomaly("GET_CAPS (%s): bytes after the name's NUL not zero",
			   c->label);
	if (!all_zero(caps.reserved, sizeof(caps.reserved)) || caps.flags)
		fz_anomaly("GET_CAPS (%s): reserved/flags not zero on output",
			   c->label);
	if (caps.version_major != VFLIPQ_UAPI_VERSION_MAJOR ||
	    caps.caps & ~KNOWN_CAPS || caps.num_crtcs > 8 ||
	    caps.num_overlays > 8 || !caps.flipq_depth ||
	    caps.flipq_depth > 64 || caps.caso_tier > 3)
		fz_anomaly("GET_CAPS (%s): version %u.%u caps %#llx crtcs %u "
			   "overlays %u depth %u tier %u", c->label,
			   caps.version_major, caps.version_minor,
			   (unsigned long long)caps.caps, caps.num_crtcs,
			   caps.num_overlays, caps.flipq_depth, caps.caso_tier);
}

static void op_get_counters(struct rng *r)
{
	struct client *c = pick_client(r, true);
	struct drm_vflipq_get_counters gc;
	uint32_t crtc_id;
	int idx;

	memset(&gc, 0, sizeof(gc));
	crtc_id = pick_crtc_id(r, client_dev(c), &idx);
	if (chance(r, 1, 5))
		crtc_id = 0;	/* the device-wide counters only */
	gc.crtc_id = crtc_id;
	if (chance(r, 1, 10)) {
		uint8_t *b = (uint8_t *)&gc;

		b[4 + rnd(r, sizeof(gc) - 4)] = rng_u32(r) | 1;
	}
	if (fz_ioctl(C_GET_COUNTERS, c->fd, DRM_IOCTL_VFLIPQ_GET_COUNTERS, &gc))
		return;
	if (gc.crtc_id != crtc_id || gc.flags ||
	    !all_zero(gc.reserved, sizeof(gc.reserved)))
		fz_anomaly("GET_COUNTERS (%s): crtc_id %u -> %u, flags %#x or "
			   "reserved not zero", c->label, crtc_id, gc.crtc_id,
			   gc.flags);
}

static void op_scanout_query(struct rng *r)
{
	static const uint64_t mods[] = {
		DRM_FORMAT_MOD_LINEAR, DRM_FORMAT_MOD_LINEAR,
		DRM_FORMAT_MOD_INVALID, I915_FORMAT_MOD_X_TILED,
	};
	struct client *c = pick_client(r, true);
	struct drm_vflipq_scanout_query q = { 0 };
	struct drm_vflipq_scanout_query in;

	q.width = chance(r, 3, 4) ? 1 + rnd(r, 4096) : rnd_interesting32(r);
	q.height = chance(r, 3, 4) ? 1 + rnd(r, 4096) : rnd_interesting32(r);
	q.format = pick_format(r);
	q.rotation = chance(r, 3, 4) ? (1u << rnd(r, 4)) |
		     (chance(r, 1, 4) ? (0x10u << rnd(r, 2)) : 0) :
		     rnd_interesting32(r);
	q.modifier = chance(r, 9, 10) ? mods[rnd(r, ARRAY_LEN(mods))] :
		     rnd_interesting64(r);
	q.samples = rnd(r, 10);
	q.flags = chance(r, 9, 10) ? rnd(r, 4) : rnd_interesting32(r);
	if (chance(r, 1, 15))
		q.result = rnd_interesting32(r);
	if (chance(r, 1, 15))
		q.reasons = rnd_interesting32(r);
	if (chance(r, 1, 15))
		q.reserved[rnd(r, 2)] = rnd_interesting64(r);
	in = q;
	if (fz_ioctl(C_SCANOUT_QUERY, c->fd, DRM_IOCTL_VFLIPQ_SCANOUT_QUERY, &q))
		return;
	if (q.result > VFLIPQ_SCANOUT_NO_SCANOUT || q.reasons & ~KNOWN_REASONS ||
	    (q.result == VFLIPQ_SCANOUT_OK) != !q.reasons ||
	    q.reserved[0] || q.reserved[1] || q.width != in.width ||
	    q.height != in.height || q.format != in.format ||
	    q.modifier != in.modifier || q.flags != in.flags)
		fz_anomaly("SCANOUT_QUERY (%s): result %u reasons %#x, or an "
			   "input member changed", c->label, q.result, q.reasons);
}

/* Enable overlay/cursor plane @fq of @crtc with a 128x128 fb of ours. */
static int plane_on(struct rng *r, struct client *c, struct fdev *d, int crtc,
		    int fq)
{
	struct kobj *pl = &d->planes[d->crtc_plane[crtc][fq]];
	uint32_t s = d->plane_type[d->crtc_plane[crtc][fq]] ==
		     DRM_PLANE_TYPE_CURSOR ? 64 : 128;
	uint32_t fb = make_fb(r, c, s, s, DRM_FORMAT_ARGB8888);
	struct areq a = { .nobjs = 0 };

	if (!fb)
		return -ENOMEM;
	areq_add(&a, pl->id, prop_id(d, pl, "FB_ID"), fb);
	areq_add(&a, pl->id, prop_id(d, pl, "CRTC_ID"), d->crtcs[crtc].id);
	areq_add(&a, pl->id, prop_id(d, pl, "SRC_X"), 0);
	areq_add(&a, pl->id, prop_id(d, pl, "SRC_Y"), 0);
	areq_add(&a, pl->id, prop_id(d, pl, "SRC_W"), (uint64_t)s << 16);
	areq_add(&a, pl->id, prop_id(d, pl, "SRC_H"), (uint64_t)s << 16);
	areq_add(&a, pl->id, prop_id(d, pl, "CRTC_X"), rnd(r, 400));
	areq_add(&a, pl->id, prop_id(d, pl, "CRTC_Y"), rnd(r, 300));
	areq_add(&a, pl->id, prop_id(d, pl, "CRTC_W"), s);
	areq_add(&a, pl->id, prop_id(d, pl, "CRTC_H"), s);
	return areq_commit(c->fd, &a, DRM_MODE_ATOMIC_NONBLOCK);
}

/* An fb of @c suited to plane @fq of @crtc (as plane_on/pipe_up set it). */
static uint32_t fb_for_plane(struct rng *r, struct client *c, struct fdev *d,
			     int crtc, int fq)
{
	static const uint32_t fmts[] = {
		DRM_FORMAT_XRGB8888, DRM_FORMAT_ARGB8888, DRM_FORMAT_XBGR8888,
		DRM_FORMAT_ABGR8888, DRM_FORMAT_XRGB2101010, DRM_FORMAT_RGB565,
		DRM_FORMAT_ABGR16161616F,
	};
	int t = d->plane_type[d->crtc_plane[crtc][fq]];
	uint32_t format = chance(r, 2, 3) ? DRM_FORMAT_ARGB8888 :
			  fmts[rnd(r, ARRAY_LEN(fmts))];

	if (chance(r, 1, 10))
		return pick_fb_id(r, c, true);
	if (t == DRM_PLANE_TYPE_PRIMARY) {
		const drmModeModeInfo *m = &d->modes[0];

		for (int i = 1; i < d->nmodes; i++)
			if (d->modes[i].hdisplay * d->modes[i].vdisplay <
			    m->hdisplay * m->vdisplay && d->modes[i].vrefresh >= 30)
				m = &d->modes[i];
		if (!d->nmodes)
			return pick_fb_id(r, c, false);
		return make_fb(r, c, m->hdisplay, m->vdisplay,
			       chance(r, 1, 2) ? DRM_FORMAT_XRGB8888 : format);
	}
	if (t == DRM_PLANE_TYPE_CURSOR)
		return make_fb(r, c, 64, 64, DRM_FORMAT_ARGB8888);
	return make_fb(r, c, 128, 128, format);
}

static uint8_t plane_buf[16 * PAGE] __attribute__((aligned(8)));

static void map_log(struct rng *r, struct client *c, uint32_t handle,
		    uint64_t size);

static bool has_log(struct client *c, int crtc, int fq)
{
	for (int i = 0; i < NLOG; i++)
		if (c->logs[i].handle && c->logs[i].crtc == crtc &&
		    c->logs[i].plane == fq)
			return true;
	return false;
}

/* A log of 16 to 64 entries for plane @fq of @crtc, mapped at times. */
static void set_log_for(struct rng *r, struct client *c, struct fdev *d,
			int crtc, int fq)
{
	struct drm_vflipq_set_log s = {
		.crtc_id = d->crtcs[crtc].id,
		.plane_id = d->planes[d->crtc_plane[crtc][fq]].id,
		.num_entries = 16 + rnd(r, 49),
	};

	if (fz_ioctl(C_FLIPQ_SET_LOG, c->fd, DRM_IOCTL_VFLIPQ_FLIPQ_SET_LOG, &s))
		return;
	d->fq_owner[crtc] = c - W.cl;
	for (int i = 0; i < NLOG; i++)
		if (c->logs[i].crtc == crtc && c->logs[i].plane == fq)
			log_forget(c, i);
	log_store(c, r, &(struct logrec){ .handle = s.handle, .size = s.size,
					  .crtc = crtc, .plane = fq });
	if (chance(r, 1, 3))
		map_log(r, c, s.handle, s.size);
}

/*
 * FLIPQ_SUBMIT (2.0): one call for one flip, a batch of them, or none with
 * VFLIPQ_SUBMIT_IRQ_TARGET.  The flips go into flip_buf, flip_size apart,
 * their planes into plane_buf, plane_size apart; flip_in keeps the flips
 * as given, to tell what the kernel wrote back.
 */
#define FQ_MAX_FLIPS 64		/* num_flips above it is refused */
#define FQ_MANY 16

static uint8_t flip_buf[16 * PAGE] __attribute__((aligned(8)));
static uint8_t flip_in[16 * PAGE] __attribute__((aligned(8)));

/*
 * Entry @i of an array of @size-byte entries at @buf (@cap bytes): @e
 * (@len bytes), cut or zero-extended to @size; a longer entry's tail must
 * be zero and now and then is not.  False when it does not fit.
 */
static bool put_entry(struct rng *r, uint8_t *buf, size_t cap, uint32_t i,
		      uint32_t size, const void *e, size_t len)
{
	uint8_t *p;

	if (!size || (uint64_t)(i + 1) * size > cap)
		return false;
	p = buf + (size_t)i * size;
	memcpy(p, e, size < len ? size : len);
	if (size > len && chance(r, 1, 8))
		p[len + rnd(r, size - len)] = 1 + rnd(r, 255);
	return true;
}

/* A flip_size: mostly the structure's, now and then too short or longer. */
static uint32_t pick_flip_size(struct rng *r, uint32_t longest)
{
	uint32_t size = sizeof(struct drm_vflipq_flip);

	if (chance(r, 1, 30))
		size = chance(r, 1, 2) ? 8 + rnd(r, size - 8) :
		       size + 1 + rnd(r, longest - size);
	if (chance(r, 1, 80))
		size = rnd_interesting32(r);
	return size;
}

/*
 * A plane_size: mostly the structure's; now and then 1.x's 56 bytes (up to
 * src_h, a 1.2 caller's, refused since 2.0), shorter, or longer.
 */
static uint32_t pick_plane_size(struct rng *r, uint32_t longest)
{
	uint32_t size = sizeof(struct drm_vflipq_flip_plane);

	if (chance(r, 1, 12)) {
		switch (rnd(r, 3)) {
		case 0:
			size = offsetof(struct drm_vflipq_flip_plane, rotation);
			break;
		case 1:
			size = 16 + rnd(r, size - 16);
			break;
		default:
			size += 1 + rnd(r, longest - size);
		}
	}
	if (chance(r, 1, 50))
		size = rnd_interesting32(r);
	return size;
}

/* Now and then a member of the call that must be zero, or not given so. */
static void spoil_submit(struct rng *r, struct drm_vflipq_flipq_submit *s)
{
	if (chance(r, 1, 40))
		s->flags = rnd_interesting32(r);
	if (chance(r, 1, 40)) {
		switch (rnd(r, 4)) {
		case 0: s->irq_plane_id = rng_u32(r) | 1; break;
		case 1: s->pad = rnd_interesting32(r) | 1; break;
		case 2: s->irq_target = rnd_interesting64(r) | 1; break;
		default: s->reserved[rnd(r, 2)] = rnd_interesting64(r) | 1;
		}
	}
	/* An output member, zero on input. */
	if (chance(r, 1, 40))
		s->num_queued = rng_u32(r) | 1;
}

/*
 * Issue FLIPQ_SUBMIT @s of @c on CRTC index @crtc of @d and check the
 * answer.  @nf flips were written at flip_buf; @readable: flips_ptr is
 * flip_buf and holds all num_flips of them, so what came back can be read.
 * The contract: input members as given, never more queued than asked, all
 * of them on success; with -EAGAIN the refused flip (the first not queued)
 * carries drain hints for the planes it names, and no other flip is ever
 * written.  Then follow the kernel: the PresentIds and targets of the
 * flips queued, a CRTC found off.  Returns the ioctl's result.
 */
static int fq_submit_checked(struct rng *r, struct client *c, struct fdev *d,
			     int crtc, struct drm_vflipq_flipq_submit *s,
			     uint32_t nf, bool readable)
{
	const struct drm_vflipq_flipq_submit in = *s;
	size_t fsize = s->flip_size, len = readable ? nf * fsize : 0;
	int np = crtc >= 0 ? d->crtc_nplanes[crtc] : 0;
	struct drm_vflipq_flipq_submit out;
	int ret;

	memcpy(flip_in, flip_buf, len);
	ret = fz_ioctl(C_FLIPQ_SUBMIT, c->fd, DRM_IOCTL_VFLIPQ_FLIPQ_SUBMIT, s);
	/* The DRM core refuses some calls itself and echoes them back. */
	if (ret == -EACCES || ret == -ENODEV)
		return ret;
	out = *s;
	out.num_queued = in.num_queued;
	if (memcmp(&out, &in, sizeof(in)))
		fz_anomaly("FLIPQ_SUBMIT (%s, %u flips): %d, an input member "
			   "changed", c->label, in.num_flips, ret);
	if (s->num_queued > in.num_flips ||
	    (!ret && s->num_queued != in.num_flips))
		fz_anomaly("FLIPQ_SUBMIT (%s): %d, %u of %u flips queued",
			   c->label, ret, s->num_queued, in.num_flips);
	if (readable && ret == -EAGAIN && s->num_queued < nf) {
		size_t at = s->num_queued * fsize +
			    offsetof(struct drm_vflipq_flip, drain_flags);
		struct drm_vflipq_flip f;
		uint32_t hint[2];

		memcpy(&f, flip_in + s->num_queued * fsize, sizeof(f));
		memcpy(hint, flip_buf + at, sizeof(hint));
		if (!hint[0] || hint[0] & ~7u ||
		    (f.num_planes < 32 &&
		     hint[1] & ~((1u << f.num_planes) - 1)))
			fz_anomaly("FLIPQ_SUBMIT (%s): EAGAIN, flip %u of %u "
				   "(%u planes): drain_flags %#x drain_planes "
				   "%#x", c->label, s->num_queued, in.num_flips,
				   f.num_planes, hint[0], hint[1]);
		/* The hints are the only bytes the kernel may write. */
		memcpy(flip_buf + at, flip_in + at, sizeof(hint));
	}
	if (len && memcmp(flip_buf, flip_in, len))
		fz_anomaly("FLIPQ_SUBMIT (%s): %d, %u of %u flips queued: "
			   "a flip written beyond the refused one's hints",
			   c->label, ret, s->num_queued, in.num_flips);

	if (ret == -EBUSY && crtc >= 0)
		d->crtc_on[crtc] = false;
	/* Out of step with the kernel (another owner before, logs gone)? */
	if (ret == -EINVAL && crtc >= 0 && chance(r, 1, 8)) {
		for (int k = 0; k < np; k++)
			d->last_pid[crtc][k] += 1 + rnd(r, 64);
		for (int k = 0; k < NLOG; k++)
			if (c->logs[k].crtc == crtc && chance(r, 1, 2))
				log_forget(c, k);
	}
	if (ret == -EAGAIN && chance(r, 1, 2))
		read_events(c);
	if (!s->num_queued || crtc < 0 || !readable)
		return ret;
	d->fq_owner[crtc] = c - W.cl;
	for (uint32_t i = 0; i < s->num_queued && i < nf; i++) {
		struct drm_vflipq_flip f;

		memcpy(&f, flip_in + i * fsize, sizeof(f));
		if (f.target_ns > d->last_target[crtc])
			d->last_target[crtc] = f.target_ns;
		for (uint32_t j = 0; j < f.num_planes && j < 16; j++) {
			uint64_t at = f.planes_ptr - (uintptr_t)plane_buf +
				      (uint64_t)j * s->plane_size;
			struct drm_vflipq_flip_plane p;

			if (f.planes_ptr < (uintptr_t)plane_buf ||
			    at + sizeof(p) > sizeof(plane_buf))
				break;
			memcpy(&p, plane_buf + at, sizeof(p));
			for (int k = 0; k < np; k++)
				if (d->planes[d->crtc_plane[crtc][k]].id ==
				    p.plane_id &&
				    p.present_id > d->last_pid[crtc][k])
					d->last_pid[crtc][k] = p.present_id;
		}
	}
	return ret;
}

/*
 * FLIPQ_SUBMIT of one interlocked flip (a batch of one), on one to 16
 * planes, sometimes setting an interrupt target with it.
 */
static void op_fq_submit(struct rng *r)
{
	struct client *c = pick_fq_client(r);
	struct fdev *d = client_dev(c);
	struct drm_vflipq_flipq_submit s = { 0 };
	struct drm_vflipq_flip f = { 0 };
	uint32_t size = pick_plane_size(r, PAGE);
	uint32_t fsize = pick_flip_size(r, PAGE);
	int crtc = -1, fqs[16], n, np;
	uint64_t now = now_ns(), period, target;
	bool readable = true;

	s.crtc_id = pick_crtc_id(r, d, &crtc);
	np = crtc >= 0 ? d->crtc_nplanes[crtc] : 0;
	if (crtc >= 0 && np && (!d->crtc_on[crtc] || chance(r, 1, 40)) &&
	    chance(r, 1, 2))
		pipe_up(r, c, crtc, chance(r, 1, 40));

	n = np ? 1 + (chance(r, 3, 4) ? 0 : rnd(r, np < 4 ? np : 4)) :
		 1 + rnd(r, 3);
	if (chance(r, 1, 40))
		n = chance(r, 1, 2) ? 0 : 1 + rnd(r, 15);
	memset(plane_buf, 0, sizeof(plane_buf));
	memset(flip_buf, 0, sizeof(flip_buf));

	/* Planes in random order, each at most once (mostly). */
	for (int i = 0; i < 16; i++)
		fqs[i] = np ? (int)rnd(r, np) : -1;
	if (np && chance(r, 9, 10)) {
		int perm[FQ_PLANES];

		for (int i = 0; i < np; i++)
			perm[i] = i;
		for (int i = np - 1; i > 0; i--) {
			int j = rnd(r, i + 1), t = perm[i];

			perm[i] = perm[j];
			perm[j] = t;
		}
		for (int i = 0; i < 16; i++)
			fqs[i] = perm[i % np];
	}
	/* Mostly the primary first: pipe_up keeps it on screen. */
	if (np && chance(r, 2, 3))
		for (int i = 1; i < 16; i++)
			if (fqs[i] == 0) {
				fqs[i] = fqs[0];
				fqs[0] = 0;
				break;
			}
	/* Each plane of a flip must be on screen and have a log. */
	for (int i = 0; i < n && i < np; i++) {
		if (fqs[i] > 0 && chance(r, 1, 2))
			plane_on(r, c, d, crtc, fqs[i]);
		if (!has_log(c, crtc, fqs[i]) && chance(r, 4, 5))
			set_log_for(r, c, d, crtc, fqs[i]);
	}

	period = crtc >= 0 && d->period_ns[crtc] ? d->period_ns[crtc] : 16666667;
	target = now;
	switch (rnd(r, 10)) {
	case 0: case 1: case 2: case 3:
		target = now + rnd(r, 5) * period;
		break;
	case 4: case 5:
		target = 0;
		break;
	case 6: case 7:
		target = now + rnd(r, 200) * 1000000ull;
		break;
	case 8:
		target = now + 10000000000ull + rnd(r, 1000) * 1000000ull;
		break;
	default:
		target = rnd_interesting64(r);
	}
	if (crtc >= 0 && target && target < d->last_target[crtc] &&
	    chance(r, 9, 10))
		target = d->last_target[crtc];
	f.target_ns = target;
	if (chance(r, 1, 10))
		f.duration_ns = chance(r, 3, 4) ?
				(uint64_t)rnd_range(r, 4166667, 100000000) :
				rnd_interesting64(r);

	for (int i = 0; i < n && i < 16; i++) {
		struct drm_vflipq_flip_plane p = { 0 };
		int fq = fqs[i];

		if (fq >= 0 && chance(r, 19, 20)) {
			p.plane_id = d->planes[d->crtc_plane[crtc][fq]].id;
			p.fb_id = fb_for_plane(r, c, d, crtc, fq);
		} else {
			int dummy;

			p.plane_id = pick_plane_id(r, d, crtc, &dummy);
			p.fb_id = pick_fb_id(r, c, true);
		}
		if (fq >= 0 && chance(r, 17, 20))
			p.present_id = d->last_pid[crtc][fq] + 1 + rnd(r, 3);
		else
			p.present_id = chance(r, 1, 2) ? rnd(r, 4) :
				       rnd_interesting64(r);
		p.mode = chance(r, 17, 20) ? VFLIPQ_FLIP_ON_NEXT_VSYNC :
			 chance(r, 9, 10) ? 1 + rnd(r, 2) : rnd_interesting32(r);
		if (chance(r, 1, 10)) {
			struct fbrec fb = { 0 };

			fb_info(p.fb_id, &fb);
			p.flags = VFLIPQ_FLIP_PLANE_GEOMETRY;
			p.crtc_x = (int32_t)rnd(r, 700) - 50;
			p.crtc_y = (int32_t)rnd(r, 500) - 50;
			p.crtc_w = fb.w && chance(r, 3, 4) ? fb.w : rnd(r, 700);
			p.crtc_h = fb.h && chance(r, 3, 4) ? fb.h : rnd(r, 500);
			p.src_w = (chance(r, 3, 4) ? p.crtc_w : rnd(r, 800)) << 16;
			p.src_h = (chance(r, 3, 4) ? p.crtc_h : rnd(r, 600)) << 16;
			if (chance(r, 1, 10)) {
				p.src_x = rnd_interesting32(r);
				p.src_w = rnd_interesting32(r);
			}
		} else if (chance(r, 1, 30)) {
			p.flags = rnd_interesting32(r);
			p.crtc_w = rnd(r, 2);
		}
		/* Mostly one ROTATE bit with any reflection, as KMS admits. */
		if (chance(r, 1, 8)) {
			p.flags |= VFLIPQ_FLIP_PLANE_ROTATION;
			p.rotation = DRM_MODE_ROTATE_0 << rnd(r, 4) |
				     (chance(r, 1, 3) ? rnd(r, 4) << 4 : 0);
			if (chance(r, 1, 10))
				p.rotation = chance(r, 1, 2) ?
					     rnd_interesting32(r) :
					     p.rotation | DRM_MODE_ROTATE_0 <<
					     rnd(r, 4);
		} else if (chance(r, 1, 100)) {
			p.rotation = DRM_MODE_ROTATE_0 << rnd(r, 4);
		}
		if (chance(r, 1, 100))
			p.pad = rng_u32(r);
		put_entry(r, plane_buf, sizeof(plane_buf), i, size, &p,
			  sizeof(p));
	}
	f.planes_ptr = (uintptr_t)plane_buf;
	if (chance(r, 1, 40))
		f.planes_ptr = chance(r, 1, 2) ? 0 : bad_ptr(r);
	f.num_planes = n;
	if (chance(r, 1, 25))
		f.reserved[rnd(r, 2)] = rnd_interesting64(r);
	if (chance(r, 1, 25))
		f.flags = rnd_interesting32(r);
	if (chance(r, 1, 5)) {
		f.drain_flags = rng_u32(r);	/* ignored on input */
		f.drain_planes = rng_u32(r);
	}
	readable = put_entry(r, flip_buf, sizeof(flip_buf), 0, fsize, &f,
			     sizeof(f));

	s.flips_ptr = (uintptr_t)flip_buf;
	if (chance(r, 1, 40)) {
		s.flips_ptr = chance(r, 1, 2) ? 0 : bad_ptr(r);
		readable = false;
	}
	s.num_flips = 1;
	if (chance(r, 1, 50)) {
		/* 0 without the flag, or flips never written (all zero). */
		s.num_flips = chance(r, 1, 2) ? 0 : rnd_interesting32(r);
		readable = false;
	}
	s.flip_size = fsize;
	s.plane_size = size;
	/* The interrupt target with the flip, mostly at one of its planes. */
	if (chance(r, 1, 6)) {
		struct drm_vflipq_flip_plane p;
		int dummy;

		memcpy(&p, plane_buf, sizeof(p));
		s.flags = VFLIPQ_SUBMIT_IRQ_TARGET;
		s.irq_plane_id = chance(r, 3, 4) && p.plane_id ? p.plane_id :
				 pick_plane_id(r, d, crtc, &dummy);
		s.irq_target = chance(r, 3, 4) ? p.present_id :
			       chance(r, 1, 2) ? VFLIPQ_IRQ_TARGET_NONE :
			       VFLIPQ_IRQ_TARGET_EVERY_VBLANK;
	}
	spoil_submit(r, &s);
	fq_submit_checked(r, c, d, crtc, &s, 1, readable);
}

/*
 * FLIPQ_SUBMIT of a batch of single-plane flips on one plane, mostly
 * well-formed (PresentIds and targets growing, now and then more than the
 * queue holds), now and then one flip or the call broken; a quarter set
 * an interrupt target with the last flip.
 */
static void op_fq_submit_many(struct rng *r)
{
	struct drm_vflipq_flip_plane p[FQ_MAX_FLIPS];
	struct drm_vflipq_flip f[FQ_MAX_FLIPS];
	struct client *c = pick_fq_client(r);
	struct fdev *d = client_dev(c);
	struct drm_vflipq_flipq_submit s = { 0 };
	uint32_t psize = pick_plane_size(r, 256);
	uint32_t fsize = pick_flip_size(r, 256);
	int crtc = -1, fq = 0, n, np, dummy;
	uint64_t now = now_ns(), period, target, pid;
	bool readable = true;

	s.crtc_id = pick_crtc_id(r, d, &crtc);
	np = crtc >= 0 ? d->crtc_nplanes[crtc] : 0;
	if (np && !d->crtc_on[crtc] && chance(r, 1, 2))
		pipe_up(r, c, crtc, false);
	if (np) {
		fq = chance(r, 2, 3) ? 0 : (int)rnd(r, np);
		if (fq > 0 && chance(r, 1, 2))
			plane_on(r, c, d, crtc, fq);
		if (!has_log(c, crtc, fq) && chance(r, 4, 5))
			set_log_for(r, c, d, crtc, fq);
	}
	n = chance(r, 1, 20) ? FQ_MANY + 1 + rnd(r, FQ_MAX_FLIPS - FQ_MANY) :
	    1 + rnd(r, FQ_MANY);
	period = crtc >= 0 && d->period_ns[crtc] ? d->period_ns[crtc] : 16666667;
	target = crtc >= 0 && d->last_target[crtc] > now ?
		 d->last_target[crtc] : now + rnd(r, 3) * period;
	pid = np ? d->last_pid[crtc][fq] + 1 : 1 + rnd(r, 4);
	memset(p, 0, sizeof(p));
	memset(f, 0, sizeof(f));
	for (int i = 0; i < n; i++) {
		if (np) {
			p[i].plane_id = d->planes[d->crtc_plane[crtc][fq]].id;
			p[i].fb_id = fb_for_plane(r, c, d, crtc, fq);
		} else {
			p[i].plane_id = pick_plane_id(r, d, crtc, &dummy);
			p[i].fb_id = pick_fb_id(r, c, true);
		}
		p[i].present_id = pid + i;
		f[i].target_ns = target + (uint64_t)i * period;
		f[i].planes_ptr = (uintptr_t)plane_buf + (uint64_t)i * psize;
		f[i].num_planes = 1;
	}
	if (chance(r, 1, 5)) {
		int k = rnd(r, n);

		switch (rnd(r, 8)) {
		case 0:
			f[k].reserved[rnd(r, 2)] = rnd_interesting64(r);
			break;
		case 1:
			f[k].flags = rnd_interesting32(r) | 1;
			break;
		case 2:
			p[k].present_id = k ? p[k - 1].present_id : 0;
			break;
		case 3:
			f[k].target_ns = rnd_interesting64(r);
			break;
		case 4:
			f[k].planes_ptr = bad_ptr(r);
			break;
		case 5:
			f[k].num_planes = rnd_interesting32(r);
			break;
		case 6:
			/* Output only: ignored on input. */
			f[k].drain_flags = rng_u32(r);
			f[k].drain_planes = rng_u32(r);
			break;
		default:
			p[k].fb_id = pick_fb_id(r, c, true);
		}
	}
	memset(plane_buf, 0, sizeof(plane_buf));
	memset(flip_buf, 0, sizeof(flip_buf));
	for (int i = 0; i < n; i++) {
		put_entry(r, plane_buf, sizeof(plane_buf), i, psize, &p[i],
			  sizeof(p[i]));
		if (!put_entry(r, flip_buf, sizeof(flip_buf), i, fsize, &f[i],
			       sizeof(f[i])))
			readable = false;
	}
	s.flips_ptr = (uintptr_t)flip_buf;
	s.num_flips = n;
	s.flip_size = fsize;
	s.plane_size = psize;
	if (chance(r, 1, 30)) {
		/* 0 without the flag, beyond 64, or beyond what was written. */
		s.num_flips = chance(r, 1, 2) ? rnd(r, 70) :
			      rnd_interesting32(r);
		readable = readable && s.num_flips <= (uint32_t)n;
	}
	if (chance(r, 1, 40)) {
		s.flips_ptr = chance(r, 1, 2) ? 0 : bad_ptr(r);
		readable = false;
	}
	/* The interrupt target with the last flip, mostly sane. */
	if (chance(r, 1, 4)) {
		s.flags = VFLIPQ_SUBMIT_IRQ_TARGET;
		s.irq_plane_id = pick_plane_id(r, d, crtc, &dummy);
		s.irq_target = chance(r, 3, 4) ? pid + rnd(r, n) :
			       rnd_interesting64(r);
	}
	spoil_submit(r, &s);
	fq_submit_checked(r, c, d, crtc, &s,
			  readable ? s.num_flips : 0, readable);
}

static void op_fq_cancel(struct rng *r)
{
	struct client *c = pick_fq_client(r);
	struct fdev *d = client_dev(c);
	struct drm_vflipq_flip_cancel cl = { 0 };
	struct drm_vflipq_cancel_plane req[16];
	uint32_t size = sizeof(struct drm_vflipq_cancel_plane);
	int crtc, n, np;
	int ret;

	cl.crtc_id = pick_crtc_id(r, d, &crtc);
	np = crtc >= 0 ? d->crtc_nplanes[crtc] : 0;
	n = 1 + rnd(r, np > 1 && chance(r, 1, 3) ? np : 1);
	if (chance(r, 1, 30))
		n = chance(r, 1, 2) ? 0 : 11 + rnd(r, 5);
	if (chance(r, 1, 12))
		size = chance(r, 1, 2) ? 8 + rnd(r, 16) : 24 + rnd(r, PAGE - 23);
	if (chance(r, 1, 60))
		size = rnd_interesting32(r);
	memset(plane_buf, 0, sizeof(plane_buf));
	for (int i = 0; i < n && i < 16 &&
	     (uint64_t)(i + 1) * size <= sizeof(plane_buf); i++) {
		struct drm_vflipq_cancel_plane p = { 0 };
		int fq = np ? (int)((i + rnd(r, 2)) % np) : -1;

		if (fq >= 0 && chance(r, 9, 10)) {
			uint64_t last = d->last_pid[crtc][fq];

			p.plane_id = d->planes[d->crtc_plane[crtc][fq]].id;
			p.present_id_cancel_requested =
				last > 4 ? last - rnd(r, 5) : 1 + rnd(r, 4);
		} else {
			int dummy;

			p.plane_id = pick_plane_id(r, d, crtc, &dummy);
			p.present_id_cancel_requested = rnd_interesting64(r);
		}
		if (chance(r, 1, 20))
			p.pad = rnd_interesting32(r) | 1;
		if (chance(r, 1, 20))
			p.present_id_cancelled = rnd_interesting64(r);
		req[i] = p;
		memcpy(plane_buf + (size_t)i * size, &p,
		       size < sizeof(p) ? size : sizeof(p));
		if (size > sizeof(p) && chance(r, 1, 10))
			plane_buf[(size_t)i * size + sizeof(p) +
				  rnd(r, size - sizeof(p))] = 1;
	}
	cl.planes_ptr = chance(r, 39, 40) ? (uintptr_t)plane_buf : bad_ptr(r);
	cl.num_planes = n;
	cl.plane_size = size;
	if (chance(r, 1, 25))
		cl.flags = rnd_interesting32(r);
	if (chance(r, 1, 25))
		cl.reserved[rnd(r, 2)] = rnd_interesting64(r);
	ret = fz_ioctl(C_FLIPQ_CANCEL, c->fd, DRM_IOCTL_VFLIPQ_FLIPQ_CANCEL, &cl);
	if (ret || cl.planes_ptr != (uintptr_t)plane_buf)
		return;
	if (crtc >= 0)
		d->fq_owner[crtc] = c - W.cl;
	for (int i = 0; i < n && i < 16; i++) {
		struct drm_vflipq_cancel_plane p;

		memcpy(&p, plane_buf + (size_t)i * size, sizeof(p));
		if (p.plane_id != req[i].plane_id || p.pad ||
		    p.present_id_cancel_requested !=
		    req[i].present_id_cancel_requested ||
		    (p.present_id_cancelled &&
		     p.present_id_cancelled < req[i].present_id_cancel_requested))
			fz_anomaly("FLIPQ_CANCEL (%s): entry %d: plane %u->%u, "
				   "requested %" PRIu64 " cancelled %" PRIu64,
				   c->label, i, req[i].plane_id, p.plane_id,
				   (uint64_t)req[i].present_id_cancel_requested,
				   (uint64_t)p.present_id_cancelled);
		if (size > sizeof(p) &&
		    !all_zero(plane_buf + (size_t)i * size + sizeof(p),
			      size - sizeof(p)))
			fz_anomaly("FLIPQ_CANCEL (%s): entry %d: tail written",
				   c->label, i);
	}
}

static void map_log(struct rng *r, struct client *c, uint32_t handle,
		    uint64_t size)
{
	struct drm_mode_map_dumb md = { .handle = handle };
	void *p;
	int err;

	if (fz_ioctl(C_MAP_DUMB, c->fd, DRM_IOCTL_MODE_MAP_DUMB, &md))
		return;
	/* The log is the engine's: writable mappings must be refused. */
	if (chance(r, 1, 6)) {
		int flags = chance(r, 1, 2) ? MAP_SHARED : MAP_PRIVATE;

		p = mmap(NULL, size, PROT_READ | PROT_WRITE, flags, c->fd,
			 md.offset);
		err = p == MAP_FAILED ? errno : 0;
		fz_count(C_MMAP, err);
		if (p != MAP_FAILED) {
			fz_anomaly("log mmap with PROT_WRITE (%s) succeeded",
				   flags == MAP_SHARED ? "MAP_SHARED" :
				   "MAP_PRIVATE");
			munmap(p, size);
		}
	}
	p = mmap(NULL, size, PROT_READ, chance(r, 4, 5) ? MAP_SHARED :
		 MAP_PRIVATE, c->fd, md.offset);
	err = p == MAP_FAILED ? errno : 0;
	fz_count(C_MMAP, err);
	if (p == MAP_FAILED)
		return;
	touch(p, size, r, false);
	if (chance(r, 1, 5)) {
		err = mprotect(p, size, PROT_READ | PROT_WRITE) ? errno : 0;
		fz_count(C_MPROTECT, err);
		if (!err)
			fz_anomaly("mprotect(PROT_WRITE) of a log mapping "
				   "succeeded");
	}
	if (chance(r, 1, 3)) {
		fz_count(C_MUNMAP, munmap(p, size) ? errno : 0);
		return;
	}
	map_store(c, r, p, size, false);
}

static void op_fq_set_log(struct rng *r)
{
	struct client *c = pick_fq_client(r);
	struct fdev *d = client_dev(c);
	struct drm_vflipq_set_log s = { 0 };
	int crtc, fq;

	s.crtc_id = pick_crtc_id(r, d, &crtc);
	s.plane_id = pick_plane_id(r, d, crtc, &fq);
	switch (rnd(r, 20)) {
	case 0: case 1:
		s.num_entries = 0;
		break;
	case 2:
		s.num_entries = 1 + rnd(r, 65536);
		break;
	case 3:
		s.num_entries = 65536 + rnd(r, 2);
		break;
	case 4:
		s.num_entries = rnd_interesting32(r);
		break;
	default:
		s.num_entries = 1 + rnd(r, 64);
	}
	if (chance(r, 1, 12)) {
		switch (rnd(r, 5)) {
		case 0: s.flags = rnd_interesting32(r) | 1; break;
		case 1: s.handle = rnd_interesting32(r) | 1; break;
		case 2: s.pad = rnd_interesting32(r) | 1; break;
		case 3: s.size = rnd_interesting64(r) | 1; break;
		default: s.reserved[rnd(r, 2)] = rnd_interesting64(r) | 1;
		}
	}
	if (fz_ioctl(C_FLIPQ_SET_LOG, c->fd, DRM_IOCTL_VFLIPQ_FLIPQ_SET_LOG, &s))
		return;
	if (s.flags || s.pad || s.reserved[0] || s.reserved[1] ||
	    (!s.num_entries && (s.handle || s.size)) ||
	    (s.num_entries && (!s.handle || s.size !=
			       (((uint64_t)s.num_entries * 16 + PAGE - 1) & ~(uint64_t)(PAGE - 1)))))
		fz_anomaly("FLIPQ_SET_LOG (%s): %u entries -> handle %u size %llu",
			   c->label, s.num_entries, s.handle,
			   (unsigned long long)s.size);
	if (crtc >= 0)
		d->fq_owner[crtc] = c - W.cl;
	if (!s.handle)
		return;
	log_store(c, r, &(struct logrec){ .handle = s.handle, .size = s.size,
					  .crtc = crtc, .plane = fq });
	if (chance(r, 1, 2))
		map_log(r, c, s.handle, s.size);
}

static void op_fq_update_log(struct rng *r)
{
	struct client *c = pick_fq_client(r);
	struct fdev *d = client_dev(c);
	struct drm_vflipq_update_log u = { 0 };
	int crtc, fq;

	u.crtc_id = pick_crtc_id(r, d, &crtc);
	u.plane_id = pick_plane_id(r, d, crtc, &fq);
	if (chance(r, 1, 12)) {
		switch (rnd(r, 4)) {
		case 0: u.first_free = rnd_interesting32(r) | 1; break;
		case 1: u.flags = rnd_interesting32(r) | 1; break;
		case 2: u.present_id_shown = rnd_interesting64(r) | 1; break;
		default: u.reserved[rnd(r, 2)] = rnd_interesting64(r) | 1;
		}
	}
	if (fz_ioctl(C_FLIPQ_UPDATE_LOG, c->fd,
		     DRM_IOCTL_VFLIPQ_FLIPQ_UPDATE_LOG, &u))
		return;
	if (u.flags || u.reserved[0] || u.reserved[1] || u.first_free > 65536)
		fz_anomaly("FLIPQ_UPDATE_LOG (%s): first_free %u flags %#x or "
			   "reserved not zero", c->label, u.first_free, u.flags);
	/* Back in step with the kernel's PresentId sequence. */
	if (crtc >= 0 && fq >= 0 && u.present_id_shown > d->last_pid[crtc][fq])
		d->last_pid[crtc][fq] = u.present_id_shown;
}

/*
 * FLIPQ_SUBMIT without flips, with VFLIPQ_SUBMIT_IRQ_TARGET: a plane's
 * interrupt target set at once (1.x's FLIPQ_SET_IRQ_TARGET).
 */
static void op_fq_irq_target(struct rng *r)
{
	struct client *c = pick_fq_client(r);
	struct fdev *d = client_dev(c);
	struct drm_vflipq_flipq_submit s = { 0 };
	int crtc, fq;

	s.crtc_id = pick_crtc_id(r, d, &crtc);
	s.flags = VFLIPQ_SUBMIT_IRQ_TARGET;
	s.flip_size = sizeof(struct drm_vflipq_flip);
	s.plane_size = sizeof(struct drm_vflipq_flip_plane);
	s.irq_plane_id = pick_plane_id(r, d, crtc, &fq);
	switch (rnd(r, 10)) {
	case 0: case 1:
		s.irq_target = VFLIPQ_IRQ_TARGET_EVERY_VBLANK;
		break;
	case 2: case 3: case 4:
		s.irq_target = VFLIPQ_IRQ_TARGET_NONE;
		break;
	case 5: case 6: case 7: case 8:
		s.irq_target = crtc >= 0 && fq >= 0 ?
			       d->last_pid[crtc][fq] + rnd(r, 4) : rnd(r, 10);
		break;
	default:
		s.irq_target = rnd_interesting64(r);
	}
	/* No flip is read: any flips_ptr will do. */
	if (chance(r, 1, 8))
		s.flips_ptr = chance(r, 1, 2) ? bad_ptr(r) :
			      (uintptr_t)flip_buf;
	if (chance(r, 1, 12)) {
		switch (rnd(r, 5)) {
		case 0:
			s.flags = 0;	/* no flips without the flag */
			break;
		case 1:
			s.flip_size = rnd(r, sizeof(struct drm_vflipq_flip));
			break;
		case 2:
			/* 1.x's 56 bytes, or anything */
			s.plane_size = offsetof(struct drm_vflipq_flip_plane,
						rotation);
			if (chance(r, 1, 2))
				s.plane_size = rnd_interesting32(r);
			break;
		case 3:
			s.num_flips = FQ_MAX_FLIPS + 1 + rnd(r, 8);
			break;
		default:
			s.flip_size = PAGE + 1 + rnd(r, PAGE);
		}
	}
	spoil_submit(r, &s);
	if (!fq_submit_checked(r, c, d, crtc, &s, 0, false) && crtc >= 0)
		d->fq_owner[crtc] = c - W.cl;
}

/*
 * A well-formed 1.5 request on real planes (now and then garbage, another
 * size or direction): whoever asks, the answer is -EINVAL (-ENODEV once
 * the device is gone), and nothing is queued.
 */
static void op_fq_retired(struct rng *r)
{
	static struct v1_flip_submit subs[4];
	static struct drm_vflipq_flip_plane p[4];
	union {
		struct v1_flip_submit s;
		struct v1_set_irq_target t;
		struct v1_flip_submit_many m;
		uint8_t raw[256];
	} u;
	struct client *c = pick_fq_client(r);
	struct fdev *d = client_dev(c);
	uint64_t now = now_ns(), pid;
	unsigned long req;
	uint32_t crtc_id, plane_id;
	int crtc, fq, n = 1 + rnd(r, 4), ret;

	memset(&u, 0, sizeof(u));
	memset(subs, 0, sizeof(subs));
	memset(p, 0, sizeof(p));
	crtc_id = pick_crtc_id(r, d, &crtc);
	plane_id = pick_plane_id(r, d, crtc, &fq);
	pid = (crtc >= 0 && fq >= 0 ? d->last_pid[crtc][fq] : 0) + 1;
	for (int i = 0; i < n; i++) {
		p[i].plane_id = plane_id;
		p[i].fb_id = pick_fb_id(r, c, false);
		p[i].present_id = pid + i;
		subs[i].crtc_id = crtc_id;
		subs[i].target_ns = now + i * 16666667ull;
		subs[i].planes_ptr = (uintptr_t)&p[i];
		subs[i].num_planes = 1;
		subs[i].plane_size = sizeof(p[i]);
	}
	switch (rnd(r, 3)) {
	case 0:
		u.s = subs[0];
		req = V1_IOCTL_FLIPQ_SUBMIT;
		break;
	case 1:
		u.t.crtc_id = crtc_id;
		u.t.plane_id = plane_id;
		u.t.target = chance(r, 1, 2) ? pid : VFLIPQ_IRQ_TARGET_NONE;
		req = V1_IOCTL_FLIPQ_SET_IRQ_TARGET;
		break;
	default:
		u.m.submits_ptr = (uintptr_t)subs;
		u.m.num_submits = n;
		u.m.submit_size = sizeof(subs[0]);
		if (chance(r, 1, 2)) {
			u.m.flags = 1;	/* 1.5's SUBMIT_MANY_IRQ_TARGET */
			u.m.irq_plane_id = plane_id;
			u.m.irq_target = pid + n - 1;
		}
		req = V1_IOCTL_FLIPQ_SUBMIT_MANY;
	}
	if (chance(r, 1, 8))
		rnd_fill(r, &u, sizeof(u));
	if (chance(r, 1, 8))
		req = _IOC(rnd(r, 4), DRM_IOCTL_BASE, _IOC_NR(req),
			   rnd(r, sizeof(u) + 1));
	ret = fz_ioctl(C_FLIPQ_RETIRED, c->fd, req, &u);
	if (ret != -EINVAL && ret != -ENODEV)
		fz_anomaly("retired 1.x ioctl %#x (%s, size %u): %d, not "
			   "EINVAL",
			   (unsigned int)(_IOC_NR(req) - DRM_COMMAND_BASE),
			   c->label, (unsigned int)_IOC_SIZE(req), ret);
}

static void pick_rect(struct rng *r, uint32_t fw, uint32_t fh,
		      struct drm_vflipq_rect *rc)
{
	if (!fw || !fh || chance(r, 1, 10)) {
		rc->x = chance(r, 1, 2) ? rnd(r, 64) : rnd_interesting32(r);
		rc->y = chance(r, 1, 2) ? rnd(r, 64) : rnd_interesting32(r);
		rc->w = chance(r, 1, 2) ? rnd(r, 256) : rnd_interesting32(r);
		rc->h = chance(r, 1, 2) ? rnd(r, 256) : rnd_interesting32(r);
		return;
	}
	rc->x = rnd(r, fw);
	rc->y = rnd(r, fh);
	rc->w = 1 + rnd(r, fw - rc->x);
	rc->h = 1 + rnd(r, fh - rc->y);
	if (chance(r, 1, 12))
		rc->w += 1;	/* one past the edge */
}

static void op_copy(struct rng *r)
{
	static const int pick[] = { CL_MASTER, CL_MASTER, CL_DMASTER,
				    CL_DMASTER, CL_SECOND, CL_DSECOND, CL_RCARD,
				    CL_LEASE, CL_RENDER };
	struct client *c = &W.cl[pick[rnd(r, ARRAY_LEN(pick))]];
	struct drm_vflipq_copy cp = { 0 };
	struct fbrec sf = { 0 }, df = { 0 };
	int ret;

	if (client_fd(c) < 0)
		c = &W.cl[CL_MASTER];
	cp.src_fb = pick_fb_id(r, c, true);
	cp.dst_fb = chance(r, 1, 8) ? cp.src_fb : pick_fb_id(r, c, true);
	fb_info(cp.src_fb, &sf);
	fb_info(cp.dst_fb, &df);
	pick_rect(r, sf.w, sf.h, &cp.src_rect);
	if (chance(r, 2, 3) && cp.src_rect.w <= df.w && cp.src_rect.h <= df.h) {
		/* Same size: a tier-1 copy. */
		cp.dst_rect.w = cp.src_rect.w;
		cp.dst_rect.h = cp.src_rect.h;
		cp.dst_rect.x = rnd(r, df.w - cp.dst_rect.w + 1);
		cp.dst_rect.y = rnd(r, df.h - cp.dst_rect.h + 1);
	} else {
		pick_rect(r, df.w, df.h, &cp.dst_rect);
	}
	if (chance(r, 1, 20))
		cp.flags = rnd_interesting32(r) | 1;
	if (chance(r, 1, 20))
		cp.out_fence_fd = (int32_t)rnd_interesting32(r) | 1;
	if (chance(r, 1, 20))
		cp.reserved[rnd(r, 2)] = rnd_interesting64(r) | 1;
	ret = fz_ioctl(C_COPY, c->fd, DRM_IOCTL_VFLIPQ_COPY, &cp);
	if (ret)
		return;
	if (cp.out_fence_fd < 0 || cp.flags || cp.reserved[0] || cp.reserved[1]) {
		fz_anomaly("COPY (%s): out_fence_fd %d flags %#x", c->label,
			   cp.out_fence_fd, cp.flags);
		return;
	}
	if (chance(r, 1, 3)) {
		struct pollfd pfd = { .fd = cp.out_fence_fd, .events = POLLIN };

		fz_count(C_POLL, poll(&pfd, 1, 0) < 0 ? errno : 0);
		fence_store(r, cp.out_fence_fd);
	} else {
		fz_count(C_CLOSE, close(cp.out_fence_fd) ? errno : 0);
	}
}

static void op_read_events(struct rng *r)
{
	struct client *c = pick_client(r, true);

	if (chance(r, 1, 4)) {
		struct pollfd pfd = { .fd = c->fd, .events = POLLIN };

		fz_count(C_POLL, poll(&pfd, 1, 0) < 0 ? errno : 0);
	}
	read_events(c);
	/* The masters get most events: read theirs too. */
	read_events(&W.cl[chance(r, 1, 2) ? CL_MASTER : CL_DMASTER]);
}

/* Any driver-private number, any size and direction, random contents. */
static void op_vflipq_raw(struct rng *r)
{
	static uint8_t buf[512] __attribute__((aligned(8)));
	struct client *c = pick_client(r, true);
	/* Mostly 0x00 to 0x0a: every number 1.x or 2.0 gave out. */
	unsigned int nr = DRM_COMMAND_BASE + (chance(r, 7, 8) ?
			  rnd(r, DRM_VFLIPQ_FLIPQ_SUBMIT + 1) : rnd(r, 0x60));
	unsigned int size = chance(r, 1, 2) ? rnd(r, 160) & ~7u : rnd(r, 256);
	unsigned int dir = rnd(r, 4);

	rnd_fill(r, buf, sizeof(buf));
	fz_ioctl(C_VFLIPQ_RAW, c->fd, _IOC(dir, DRM_IOCTL_BASE, nr, size), buf);
}

const struct fz_op fz_vflipq_ops[] = {
	{ "get_caps", op_get_caps, 30 },
	{ "get_counters", op_get_counters, 30 },
	{ "scanout_query", op_scanout_query, 30 },
	{ "fq_set_log", op_fq_set_log, 35 },
	{ "fq_submit", op_fq_submit, 95 },
	{ "fq_submit_many", op_fq_submit_many, 30 },
	{ "fq_cancel", op_fq_cancel, 35 },
	{ "fq_update_log", op_fq_update_log, 30 },
	{ "fq_irq_target", op_fq_irq_target, 25 },
	{ "fq_retired", op_fq_retired, 8 },
	{ "copy", op_copy, 45 },
	{ "read_events", op_read_events, 40 },
	{ "vflipq_raw", op_vflipq_raw, 20 },
};
const unsigned int fz_num_vflipq_ops = ARRAY_LEN(fz_vflipq_ops);
