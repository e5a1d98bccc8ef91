// SPDX-License-Identifier: MIT
/*
 * vflipq-fuzz: the standard ioctls around the driver: dumb buffers and
 * their mappings, ADDFB2 with odd pitches, offsets and modifiers, atomic
 * commits with properties drawn from what each object has, page flips,
 * legacy KMS, getters, blobs, vblank events, PRIME between vflipq devices
 * and vgem, DRM master and leases.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <linux/dma-buf.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <drm_fourcc.h>

#include "fourcc.h"
#include "fuzz.h"
#include "vgem_drm.h"

#define BIG_BO (32u << 20)

static uint64_t bad_ptr(struct rng *r)
{
	static const uint64_t p[] = {
		1, 0xdead0000, 0xffff888000000000ull, 0x00007ffffffff000ull, 8,
	};

	return p[rnd(r, ARRAY_LEN(p))];
}

static int bo_slot_of(struct client *c, uint32_t handle)
{
	for (int i = 0; handle && i < NBO; i++)
		if (c->bos[i].handle == handle)
			return i;
	return -1;
}

/* ---- dumb buffers and mappings ----------------------------------------------- */

static void dumb_dims(struct rng *r, uint32_t *w, uint32_t *h, uint32_t *bpp)
{
	static const uint32_t bpps[] = { 32, 32, 32, 32, 16, 8, 64, 24, 1, 0,
					 12, 48, 128, 33 };
	static const uint32_t over[][2] = {
		{ 0x10000, 0x10000 }, { 0x80000000u, 2 }, { 16384, 16384 },
		{ 16384, 16385 }, { 0xffffffffu, 1 }, { 1, 0xffffffffu },
		{ 65536, 4097 }, { 8192, 32768 },
	};

	*bpp = chance(r, 19, 20) ? bpps[rnd(r, 5)] : bpps[rnd(r, ARRAY_LEN(bpps))];
	if (chance(r, 1, 40))
		*bpp = rnd_interesting32(r);
	switch (rnd(r, 20)) {
	case 0: case 1: case 2: case 3:
		*w = 1 + rnd(r, 2048);
		*h = 1 + rnd(r, 1200);
		break;
	case 4: case 5:
		*w = rnd_interesting32(r);
		*h = rnd_interesting32(r);
		break;
	case 6:
		*w = over[rnd(r, ARRAY_LEN(over))][0];
		*h = over[rnd(r, ARRAY_LEN(over))][1];
		break;
	default:
		*w = 1 + rnd(r, 256);
		*h = 1 + rnd(r, 256);
	}
}

static void op_create_dumb(struct rng *r)
{
	struct client *c = pick_client(r, false);
	struct drm_mode_create_dumb cd = { 0 };
	struct drm_mode_destroy_dumb dd;
	struct bo b;

	dumb_dims(r, &cd.width, &cd.height, &cd.bpp);
	if (chance(r, 1, 20))
		cd.flags = rnd_interesting32(r);
	if (chance(r, 1, 20)) {
		cd.handle = rng_u32(r);
		cd.pitch = rng_u32(r);
		cd.size = rng_u64(r);
	}
	if (fz_ioctl(C_CREATE_DUMB, c->fd, DRM_IOCTL_MODE_CREATE_DUMB, &cd))
		return;
	if (c->kind != K_VGEM &&
	    (cd.pitch % VFLIPQ_CASO_PITCH_ALIGN ||
	     cd.pitch < ((uint64_t)cd.width * cd.bpp + 7) / 8 ||
	     cd.size < (uint64_t)cd.pitch * cd.height))
		fz_anomaly("CREATE_DUMB (%s): %ux%u@%u -> pitch %u size %llu",
			   c->label, cd.width, cd.height, cd.bpp, cd.pitch,
			   (unsigned long long)cd.size);
	if (cd.size > BIG_BO) {
		/* Real pages only for what stays small. */
		dd.handle = cd.handle;
		fz_ioctl(C_DESTROY_DUMB, c->fd, DRM_IOCTL_MODE_DESTROY_DUMB, &dd);
		return;
	}
	b = (struct bo){ .handle = cd.handle, .w = cd.width, .h = cd.height,
			 .bpp = cd.bpp, .pitch = cd.pitch, .size = cd.size };
	bo_store(c, r, &b);
}

static void op_map(struct rng *r)
{
	struct client *c = pick_client(r, false);
	struct drm_mode_map_dumb md = { 0 };
	uint32_t handle = pick_handle(r, c);
	int slot = bo_slot_of(c, handle);
	uint64_t size = slot >= 0 ? c->bos[slot].size : 4096;
	uint64_t len = size, off;
	int prot = PROT_READ | PROT_WRITE, err;
	void *p;

	md.handle = handle;
	if (chance(r, 1, 20))
		md.pad = rnd_interesting32(r) | 1;
	if (chance(r, 1, 20))
		md.offset = rnd_interesting64(r);
	if (fz_ioctl(C_MAP_DUMB, c->fd, DRM_IOCTL_MODE_MAP_DUMB, &md))
		return;
	off = md.offset;
	switch (rnd(r, 12)) {
	case 0:
		len = 1 + rnd(r, size ? (uint32_t)(size < 0x10000000 ? size : 0x10000000) : 4096);
		break;
	case 1:
		len = size + 4096 * (1 + rnd(r, 4));
		break;
	case 2:
		off += 4096 * (1 + rnd(r, 4));
		break;
	case 3:
		prot = PROT_READ;
		break;
	default:
		break;
	}
	if (!len || len > BIG_BO * 2ull)
		len = 4096;
	p = mmap(NULL, len, prot, MAP_SHARED, c->fd, off);
	err = p == MAP_FAILED ? errno : 0;
	fz_count(C_MMAP, err);
	if (p == MAP_FAILED)
		return;
	touch(p, len < size || !size ? len : size, r, prot & PROT_WRITE);
	if (chance(r, 1, 3))
		fz_count(C_MUNMAP, munmap(p, len) ? errno : 0);
	else
		map_store(c, r, p, len, prot & PROT_WRITE);
}

static void op_touch(struct rng *r)
{
	struct client *c = &W.cl[rnd(r, NCLIENTS)];
	int s = rnd(r, NMAP);
	struct maprec *m = &c->maps[s];

	if (!m->p) {
		/* Nothing there: a fresh mapping instead. */
		op_map(r);
		return;
	}
	switch (rnd(r, 8)) {
	case 0:
		map_forget(c, s);
		break;
	case 1: {
		int prot = chance(r, 1, 2) ? PROT_READ : PROT_READ | PROT_WRITE;
		int err = mprotect(m->p, m->len, prot) ? errno : 0;

		fz_count(C_MPROTECT, err);
		if (!err)
			m->writable = prot & PROT_WRITE;
		break;
	}
	default:
		touch(m->p, m->len, r, m->writable && chance(r, 1, 2));
	}
}

static void op_destroy(struct rng *r)
{
	struct client *c = pick_client(r, false);
	uint32_t handle = pick_handle(r, c);
	int slot = bo_slot_of(c, handle);

	if (chance(r, 1, 2)) {
		struct drm_mode_destroy_dumb dd = { .handle = handle };

		fz_ioctl(C_DESTROY_DUMB, c->fd, DRM_IOCTL_MODE_DESTROY_DUMB, &dd);
	} else {
		struct drm_gem_close gc = { .handle = handle };

		if (chance(r, 1, 20))
			gc.pad = rng_u32(r);
		fz_ioctl(C_GEM_CLOSE, c->fd, DRM_IOCTL_GEM_CLOSE, &gc);
	}
	if (slot >= 0)
		bo_forget(c, slot, false);
}

/* ---- framebuffers ------------------------------------------------------------- */

/* Bytes per pixel of plane 0; 4 for formats the table lacks (random
 * fourccs, YUV420, P010): a width the pitch holds either way. */
static uint32_t fmt_cpp(uint32_t format)
{
	uint32_t cpp = fourcc_cpp(format);

	return cpp ? cpp : 4;
}

static void op_addfb2(struct rng *r)
{
	static const uint64_t mods[] = {
		DRM_FORMAT_MOD_LINEAR, DRM_FORMAT_MOD_LINEAR,
		DRM_FORMAT_MOD_INVALID, I915_FORMAT_MOD_X_TILED,
		DRM_FORMAT_MOD_ARM_16X16_BLOCK_U_INTERLEAVED,
	};
	struct client *c = pick_card_client(r);
	struct drm_mode_fb_cmd2 f = { 0 };
	uint32_t handle = pick_handle(r, c);
	int slot = bo_slot_of(c, handle);
	struct bo b = slot >= 0 ? c->bos[slot] : (struct bo){ 0 };
	uint32_t cpp;

	f.pixel_format = pick_format(r);
	cpp = fmt_cpp(f.pixel_format);
	if (b.handle && chance(r, 4, 5)) {
		uint32_t maxw = b.pitch / cpp ? b.pitch / cpp : 1;

		f.width = chance(r, 3, 4) ? (b.w < maxw ? b.w : maxw) :
			  1 + rnd(r, maxw);
		f.height = chance(r, 3, 4) ? b.h : 1 + rnd(r, b.h ? b.h : 1);
		if (!b.w && !b.h) {	/* imported: size only */
			f.width = 1 + rnd(r, 1024);
			f.height = 1 + rnd(r, 768);
		}
	} else {
		f.width = chance(r, 1, 2) ? 1 + rnd(r, 2048) : rnd_interesting32(r);
		f.height = chance(r, 1, 2) ? 1 + rnd(r, 2048) : rnd_interesting32(r);
	}
	f.handles[0] = handle;
	switch (rnd(r, 10)) {
	case 0:
		f.pitches[0] = f.width * cpp;	/* tight: odd for CASO */
		break;
	case 1:
		f.pitches[0] = (b.pitch ? b.pitch : f.width * cpp) +
			       (int32_t)rnd(r, 257) - 128;
		break;
	case 2:
		f.pitches[0] = rnd_interesting32(r);
		break;
	case 3:
		f.pitches[0] = ((f.width * cpp + 127) & ~127u) +
			       128 * rnd(r, 4);
		break;
	default:
		f.pitches[0] = b.pitch ? b.pitch : ((f.width * cpp + 127) & ~127u);
	}
	if (chance(r, 1, 6))
		f.offsets[0] = chance(r, 1, 2) ? 4096 * rnd(r, 8) :
			       chance(r, 1, 2) ? rnd(r, 8192) :
			       rnd_interesting32(r);
	if (f.pixel_format == DRM_FORMAT_NV12 || chance(r, 1, 20)) {
		f.handles[1] = chance(r, 9, 10) ? handle : pick_handle(r, c);
		f.pitches[1] = f.pitches[0];
		f.offsets[1] = f.offsets[0] + f.pitches[0] * f.height;
		if (chance(r, 1, 8))
			f.offsets[1] = rnd_interesting32(r);
	}
	if (chance(r, 1, 30)) {
		int k = 1 + rnd(r, 3);

		f.handles[k] = pick_handle(r, c);
		f.pitches[k] = rnd_interesting32(r);
		f.offsets[k] = rnd_interesting32(r);
	}
	if (chance(r, 1, 6)) {
		f.flags = DRM_MODE_FB_MODIFIERS;
		for (int i = 0; i < 4; i++)
			f.modifier[i] = f.handles[i] ?
				(chance(r, 9, 10) ? mods[rnd(r, ARRAY_LEN(mods))] :
				 rnd_interesting64(r)) : 0;
		if (chance(r, 1, 10))
			f.modifier[rnd(r, 4)] = rng_u64(r);
	}
	if (chance(r, 1, 30))
		f.flags |= rng_u32(r);
	if (chance(r, 1, 30))
		f.fb_id = rng_u32(r);
	if (fz_ioctl(C_ADDFB2, c->fd, DRM_IOCTL_MODE_ADDFB2, &f))
		return;
	fb_store(c, r, &(struct fbrec){ .id = f.fb_id, .w = f.width,
					.h = f.height, .format = f.pixel_format });
}

static void op_rmfb(struct rng *r)
{
	struct client *c = pick_card_client(r);
	int s = rnd(r, NFB);
	uint32_t id;

	if (c->fbs[s].id && chance(r, 3, 4)) {
		if (chance(r, 1, 5)) {
			struct drm_mode_closefb cf = { .fb_id = c->fbs[s].id };

			if (chance(r, 1, 10))
				cf.pad = 1;
			fz_ioctl(C_CLOSEFB, c->fd, DRM_IOCTL_MODE_CLOSEFB, &cf);
			fb_forget(c, s, false);
		} else {
			fb_forget(c, s, true);
		}
		return;
	}
	/* Somebody else's framebuffer, or garbage. */
	id = pick_fb_id(r, &W.cl[rnd(r, NCLIENTS)], true);
	fz_ioctl(C_RMFB, c->fd, DRM_IOCTL_MODE_RMFB, &id);
}

/* ---- atomic ----------------------------------------------------------------------- */

static uint32_t tmp_blobs[8];
static int ntmp_blobs;

static uint32_t new_blob(struct client *c, const void *data, uint32_t len)
{
	struct drm_mode_create_blob cb = { .data = (uintptr_t)data,
					   .length = len };

	if (fz_ioctl(C_CREATEBLOB, c->fd, DRM_IOCTL_MODE_CREATEPROPBLOB, &cb))
		return 0;
	if (ntmp_blobs < (int)ARRAY_LEN(tmp_blobs))
		tmp_blobs[ntmp_blobs++] = cb.blob_id;
	return cb.blob_id;
}

static void drop_tmp_blobs(struct client *c)
{
	for (int i = 0; i < ntmp_blobs; i++) {
		struct drm_mode_destroy_blob db = { .blob_id = tmp_blobs[i] };

		fz_ioctl(C_DESTROYBLOB, c->fd, DRM_IOCTL_MODE_DESTROYPROPBLOB, &db);
	}
	ntmp_blobs = 0;
}

static uint64_t blob_value(struct rng *r, struct client *c, const char *name)
{
	static uint8_t data[4096];
	struct fdev *d = client_dev(c);
	uint32_t len;

	switch (rnd(r, 8)) {
	case 0: case 1:
		return 0;
	case 2:
		return c->blobs[rnd(r, NBLOB)];
	case 3:
		return rnd(r, 200);
	default:
		break;
	}
	if (!strcmp(name, "MODE_ID") && d && d->nmodes) {
		drmModeModeInfo m = d->modes[rnd(r, d->nmodes)];

		if (chance(r, 1, 10)) {
			/* A mode nobody listed: timings bent. */
			m.clock = chance(r, 1, 2) ? rnd(r, 600000) : rng_u32(r);
			m.htotal += rnd(r, 100);
			m.vtotal = chance(r, 1, 2) ? m.vtotal + rnd(r, 100) : rng_u32(r);
			m.hdisplay = chance(r, 1, 2) ? m.hdisplay : rng_u32(r);
		}
		return new_blob(c, &m, chance(r, 19, 20) ? sizeof(m) : rnd(r, 100));
	}
	/* GAMMA_LUT (8 bytes per entry), DEGAMMA_LUT, CTM (72), damage clips. */
	len = chance(r, 1, 2) ? 8 * rnd(r, 512) : rnd(r, 4096);
	if (!strcmp(name, "CTM") && chance(r, 2, 3))
		len = 72;
	if (!strcmp(name, "FB_DAMAGE_CLIPS") && chance(r, 2, 3))
		len = 16 * rnd(r, 16);
	rnd_fill(r, data, len);
	return len ? new_blob(c, data, len) : 0;
}

static uint64_t prop_value(struct rng *r, struct client *c, struct fdev *d,
			   const struct prop *p)
{
	const char *n = p->name;

	if (chance(r, 1, 25))
		return rnd_interesting64(r);
	if (!strcmp(n, "FB_ID") || !strcmp(n, "WRITEBACK_FB_ID"))
		return chance(r, 1, 6) ? 0 : pick_fb_id(r, c, true);
	if (!strcmp(n, "CRTC_ID")) {
		int idx;

		return chance(r, 1, 5) ? 0 : pick_crtc_id(r, d, &idx);
	}
	if (!strcmp(n, "SRC_X") || !strcmp(n, "SRC_Y"))
		return (uint64_t)rnd(r, 256) << 16 | (chance(r, 1, 8) ? rnd(r, 0x10000) : 0);
	if (!strcmp(n, "SRC_W") || !strcmp(n, "SRC_H"))
		return (uint64_t)(1 + rnd(r, 1024)) << 16 |
		       (chance(r, 1, 8) ? rnd(r, 0x10000) : 0);
	if (!strcmp(n, "CRTC_X") || !strcmp(n, "CRTC_Y"))
		return (uint64_t)(int64_t)((int32_t)rnd(r, 1400) - 200);
	if (!strcmp(n, "CRTC_W") || !strcmp(n, "CRTC_H"))
		return 1 + rnd(r, 1100);
	if (!strcmp(n, "OUT_FENCE_PTR")) {
		W.out_fence = -1;
		return chance(r, 4, 5) ? (uintptr_t)&W.out_fence :
		       chance(r, 1, 2) ? 0 : bad_ptr(r);
	}
	if (!strcmp(n, "WRITEBACK_OUT_FENCE_PTR")) {
		W.wb_fence = -1;
		return chance(r, 4, 5) ? (uintptr_t)&W.wb_fence :
		       chance(r, 1, 2) ? 0 : bad_ptr(r);
	}
	if (!strcmp(n, "IN_FENCE_FD")) {
		int s = rnd(r, NFENCE);

		if (chance(r, 1, 2))
			return (uint64_t)-1;
		if (W.fence[s] >= 0 && chance(r, 2, 3))
			return W.fence[s];
		return rnd(r, 64);
	}
	if (p->flags & DRM_MODE_PROP_BLOB)
		return blob_value(r, c, n);
	if (p->flags & DRM_MODE_PROP_ENUM && p->nvals)
		return p->vals[rnd(r, p->nvals)];
	if (p->flags & DRM_MODE_PROP_BITMASK && p->nvals) {
		uint64_t v = 1ull << p->vals[rnd(r, p->nvals)];

		if (chance(r, 1, 3))
			v |= 1ull << p->vals[rnd(r, p->nvals)];
		return v;
	}
	if (p->flags & DRM_MODE_PROP_RANGE && p->nvals >= 2) {
		uint64_t lo = p->vals[0], hi = p->vals[1];

		if (chance(r, 1, 5))
			return chance(r, 1, 2) ? lo : hi;
		if (hi - lo < 0x100000000ull)
			return lo + rng_u64(r) % (hi - lo + 1);
		return lo + rnd(r, 4096);
	}
	if (p->flags & DRM_MODE_PROP_SIGNED_RANGE && p->nvals >= 2)
		return (uint64_t)rnd_range(r, -4, 4096);
	if (p->flags & DRM_MODE_PROP_OBJECT) {
		int idx;

		if (p->nvals && p->vals[0] == DRM_MODE_OBJECT_CRTC)
			return pick_crtc_id(r, d, &idx);
		return pick_fb_id(r, c, true);
	}
	return rnd(r, 4);
}

static void op_atomic(struct rng *r)
{
	static struct areq a;
	struct client *c = pick_card_client(r);
	struct fdev *d = client_dev(c);
	struct drm_mode_atomic at = { 0 };
	int nobj = 1 + rnd(r, 4), ret;
	uint32_t flags;
	bool dup = chance(r, 1, 30);

	memset(&a, 0, sizeof(a));
	ntmp_blobs = 0;
	W.out_fence = -1;
	W.wb_fence = -1;
	for (int i = 0; i < nobj; i++) {
		struct kobj *o = NULL;
		uint32_t x = rnd(r, 100);
		int np = 1 + rnd(r, 4);

		if (d && d->nplanes && x < 45)
			o = &d->planes[rnd(r, d->nplanes)];
		else if (d && d->ncrtcs && x < 75)
			o = &d->crtcs[rnd(r, d->ncrtcs)];
		else if (d && d->nconns && x < 97)
			o = &d->conns[rnd(r, d->nconns)];
		if (!o || !o->nprops) {
			areq_add(&a, chance(r, 1, 2) ? rnd(r, 200) :
				 rnd_interesting32(r), 1 + rnd(r, 200),
				 rnd_interesting64(r));
			continue;
		}
		for (int k = 0; k < np; k++) {
			const struct prop *p;

			if (chance(r, 1, 12)) {
				/* A property of something else, or none. */
				uint32_t pid = d->nprops && chance(r, 1, 2) ?
					d->props[rnd(r, d->nprops)].id :
					rnd_interesting32(r);

				areq_add(&a, o->id, pid, rnd_interesting64(r));
				continue;
			}
			p = &d->props[o->props[rnd(r, o->nprops)]];
			areq_add(&a, o->id, p->id, prop_value(r, c, d, p));
		}
		if (dup && a.nobjs < 64) {
			/* The same object twice in one request. */
			a.objs[a.nobjs] = o->id;
			a.counts[a.nobjs++] = 0;
		}
	}

	flags = chance(r, 13, 20) ? DRM_MODE_ATOMIC_TEST_ONLY :
		chance(r, 49, 50) ? DRM_MODE_ATOMIC_NONBLOCK : 0;
	if (chance(r, 1, 2))
		flags |= DRM_MODE_ATOMIC_ALLOW_MODESET;
	if (chance(r, 1, 5))
		flags |= DRM_MODE_PAGE_FLIP_EVENT;
	if (chance(r, 1, 40))
		flags |= DRM_MODE_PAGE_FLIP_ASYNC;
	if (chance(r, 1, 50))
		flags |= rng_u32(r);
	at.flags = flags;
	at.count_objs = a.nobjs;
	at.objs_ptr = (uintptr_t)a.objs;
	at.count_props_ptr = (uintptr_t)a.counts;
	at.props_ptr = (uintptr_t)a.props;
	at.prop_values_ptr = (uintptr_t)a.vals;
	at.user_data = rng_u64(r);
	if (chance(r, 1, 25)) {
		switch (rnd(r, 6)) {
		case 0: at.count_objs = rnd_interesting32(r); break;
		case 1: at.objs_ptr = bad_ptr(r); break;
		case 2: at.count_props_ptr = bad_ptr(r); break;
		case 3: at.props_ptr = bad_ptr(r); break;
		case 4: at.prop_values_ptr = bad_ptr(r); break;
		default: at.reserved = rng_u64(r) | 1;
		}
	}
	if (chance(r, 1, 25) && a.nobjs)
		a.counts[rnd(r, a.nobjs)] = rnd_interesting32(r) & 0x1ff;
	ret = fz_ioctl(C_ATOMIC, c->fd, DRM_IOCTL_MODE_ATOMIC, &at);
	if (W.out_fence >= 0)
		fence_store(r, (int)W.out_fence);
	if (W.wb_fence >= 0)
		fz_count(C_CLOSE, close(W.wb_fence) ? errno : 0);
	W.out_fence = -1;
	W.wb_fence = -1;
	drop_tmp_blobs(c);
	if (!ret && !(flags & DRM_MODE_ATOMIC_TEST_ONLY) && d)
		for (int i = 0; i < d->ncrtcs; i++)
			if (chance(r, 1, 4))
				d->crtc_on[i] = false;	/* unknown now */
}

static void op_page_flip(struct rng *r)
{
	struct client *c = pick_card_client(r);
	struct fdev *d = client_dev(c);
	struct drm_mode_crtc_page_flip_target pf = { 0 };
	int idx;

	pf.crtc_id = pick_crtc_id(r, d, &idx);
	pf.fb_id = pick_fb_id(r, c, true);
	pf.flags = DRM_MODE_PAGE_FLIP_EVENT;
	if (chance(r, 1, 5))
		pf.flags = 0;
	if (chance(r, 1, 20))
		pf.flags |= DRM_MODE_PAGE_FLIP_ASYNC;
	if (chance(r, 1, 10)) {
		pf.flags |= chance(r, 1, 2) ? DRM_MODE_PAGE_FLIP_TARGET_ABSOLUTE :
			    DRM_MODE_PAGE_FLIP_TARGET_RELATIVE;
		pf.sequence = chance(r, 1, 2) ? rnd(r, 3) : rng_u32(r);
	}
	if (chance(r, 1, 30))
		pf.flags = rng_u32(r);
	pf.user_data = rng_u64(r);
	if (idx >= 0 && d->nmodes && !d->crtc_on[idx] && chance(r, 1, 4))
		pipe_up(r, c, idx, false);
	fz_ioctl(C_PAGE_FLIP, c->fd, DRM_IOCTL_MODE_PAGE_FLIP, &pf);
}

/* Legacy KMS (blocking commits underneath): rare. */
static void op_legacy(struct rng *r)
{
	struct client *c = pick_card_client(r);
	struct fdev *d = client_dev(c);
	int idx;

	switch (rnd(r, 4)) {
	case 0: {
		struct drm_mode_crtc sc = { 0 };
		uint32_t conn = 0;

		sc.crtc_id = pick_crtc_id(r, d, &idx);
		sc.fb_id = pick_fb_id(r, c, true);
		if (d && d->nconns)
			conn = d->conns[rnd(r, d->nconns)].id;
		sc.set_connectors_ptr = chance(r, 19, 20) ? (uintptr_t)&conn :
					bad_ptr(r);
		sc.count_connectors = chance(r, 1, 4) ? 0 : chance(r, 19, 20) ? 1 :
				      rnd_interesting32(r);
		if (d && d->nmodes && chance(r, 4, 5)) {
			memcpy(&sc.mode, &d->modes[rnd(r, d->nmodes)],
			       sizeof(sc.mode));
			sc.mode_valid = 1;
		} else if (chance(r, 1, 2)) {
			rnd_fill(r, &sc.mode, sizeof(sc.mode));
			sc.mode_valid = 1;
		}
		sc.x = rnd(r, 64);
		sc.y = rnd(r, 64);
		fz_ioctl(C_SETCRTC, c->fd, DRM_IOCTL_MODE_SETCRTC, &sc);
		if (d && idx >= 0)
			d->crtc_on[idx] = false;
		break;
	}
	case 1: {
		struct drm_mode_set_plane sp = { 0 };
		int fq;

		sp.crtc_id = pick_crtc_id(r, d, &idx);
		sp.plane_id = pick_plane_id(r, d, idx, &fq);
		sp.fb_id = chance(r, 1, 6) ? 0 : pick_fb_id(r, c, true);
		sp.crtc_x = (int32_t)rnd(r, 800) - 100;
		sp.crtc_y = (int32_t)rnd(r, 600) - 100;
		sp.crtc_w = 1 + rnd(r, 512);
		sp.crtc_h = 1 + rnd(r, 512);
		sp.src_w = (chance(r, 3, 4) ? sp.crtc_w : rnd(r, 600)) << 16;
		sp.src_h = (chance(r, 3, 4) ? sp.crtc_h : rnd(r, 600)) << 16;
		if (chance(r, 1, 10))
			sp.flags = rng_u32(r);
		fz_ioctl(C_SETPLANE, c->fd, DRM_IOCTL_MODE_SETPLANE, &sp);
		break;
	}
	default: {
		struct drm_mode_cursor2 cu = { 0 };

		cu.crtc_id = pick_crtc_id(r, d, &idx);
		cu.flags = chance(r, 9, 10) ? 1 + rnd(r, 3) : rng_u32(r);
		cu.x = (int32_t)rnd(r, 800) - 64;
		cu.y = (int32_t)rnd(r, 600) - 64;
		cu.width = chance(r, 3, 4) ? 64 : rnd_interesting32(r);
		cu.height = chance(r, 3, 4) ? 64 : rnd_interesting32(r);
		cu.handle = chance(r, 1, 4) ? 0 : pick_handle(r, c);
		cu.hot_x = rnd(r, 64);
		cu.hot_y = rnd(r, 64);
		if (chance(r, 1, 2))
			fz_ioctl(C_CURSOR, c->fd, DRM_IOCTL_MODE_CURSOR2, &cu);
		else
			fz_ioctl(C_CURSOR, c->fd, DRM_IOCTL_MODE_CURSOR, &cu);
	}
	}
}

static void op_dirtyfb_gamma(struct rng *r)
{
	struct client *c = pick_card_client(r);
	struct fdev *d = client_dev(c);
	int idx;

	if (chance(r, 2, 3)) {
		struct drm_clip_rect clips[16];
		struct drm_mode_fb_dirty_cmd dc = { 0 };

		rnd_fill(r, clips, sizeof(clips));
		dc.fb_id = pick_fb_id(r, c, true);
		dc.num_clips = chance(r, 9, 10) ? rnd(r, 17) : rnd_interesting32(r);
		dc.clips_ptr = chance(r, 19, 20) ? (uintptr_t)clips : bad_ptr(r);
		dc.flags = chance(r, 9, 10) ? rnd(r, 4) : rng_u32(r);
		dc.color = rng_u32(r);
		fz_ioctl(C_DIRTYFB, c->fd, DRM_IOCTL_MODE_DIRTYFB, &dc);
	} else {
		static uint16_t lut[3][1024];
		struct drm_mode_crtc_lut l = { 0 };

		l.crtc_id = pick_crtc_id(r, d, &idx);
		l.gamma_size = chance(r, 1, 2) ? 256 : rnd(r, 1025);
		l.red = (uintptr_t)lut[0];
		l.green = (uintptr_t)lut[1];
		l.blue = (uintptr_t)lut[2];
		if (chance(r, 1, 2))
			fz_ioctl(C_GAMMA, c->fd, DRM_IOCTL_MODE_GETGAMMA, &l);
		else
			fz_ioctl(C_GAMMA, c->fd, DRM_IOCTL_MODE_SETGAMMA, &l);
	}
}

/* ---- getters ---------------------------------------------------------------------- */

static void op_getters(struct rng *r)
{
	static uint64_t buf[6][512];
	struct client *c = pick_client(r, false);
	struct fdev *d = client_dev(c);
	int idx, fq;

	switch (rnd(r, 14)) {
	case 0: {
		struct drm_mode_card_res res = { 0 };

		res.fb_id_ptr = (uintptr_t)buf[0];
		res.crtc_id_ptr = (uintptr_t)buf[1];
		res.connector_id_ptr = (uintptr_t)buf[2];
		res.encoder_id_ptr = (uintptr_t)buf[3];
		res.count_fbs = rnd(r, 64);
		res.count_crtcs = rnd(r, 16);
		res.count_connectors = rnd(r, 32);
		res.count_encoders = rnd(r, 32);
		if (chance(r, 1, 10))
			res.crtc_id_ptr = bad_ptr(r);
		fz_ioctl(C_GETRESOURCES, c->fd, DRM_IOCTL_MODE_GETRESOURCES, &res);
		break;
	}
	case 1: {
		struct drm_mode_get_plane_res pr = { 0 };

		pr.plane_id_ptr = chance(r, 19, 20) ? (uintptr_t)buf[0] : bad_ptr(r);
		pr.count_planes = rnd(r, 64);
		fz_ioctl(C_GETPLANERES, c->fd, DRM_IOCTL_MODE_GETPLANERESOURCES, &pr);
		break;
	}
	case 2: {
		struct drm_mode_crtc gc = { 0 };

		gc.crtc_id = pick_crtc_id(r, d, &idx);
		fz_ioctl(C_GETCRTC, c->fd, DRM_IOCTL_MODE_GETCRTC, &gc);
		break;
	}
	case 3: {
		struct drm_mode_get_plane gp = { 0 };

		gp.plane_id = pick_plane_id(r, d, -1, &fq);
		gp.format_type_ptr = chance(r, 19, 20) ? (uintptr_t)buf[0] : bad_ptr(r);
		gp.count_format_types = rnd(r, 64);
		fz_ioctl(C_GETPLANE, c->fd, DRM_IOCTL_MODE_GETPLANE, &gp);
		break;
	}
	case 4: {
		struct drm_mode_get_encoder ge = { 0 };

		ge.encoder_id = rnd(r, 200);
		fz_ioctl(C_GETENCODER, c->fd, DRM_IOCTL_MODE_GETENCODER, &ge);
		break;
	}
	case 5: {
		struct drm_mode_get_connector gc = { 0 };

		gc.connector_id = d && d->nconns && chance(r, 4, 5) ?
				  d->conns[rnd(r, d->nconns)].id : rnd(r, 200);
		gc.count_modes = rnd(r, 20);
		gc.modes_ptr = (uintptr_t)buf[0];
		gc.count_props = rnd(r, 64);
		gc.props_ptr = (uintptr_t)buf[1];
		gc.prop_values_ptr = (uintptr_t)buf[2];
		gc.count_encoders = rnd(r, 8);
		gc.encoders_ptr = (uintptr_t)buf[3];
		if (chance(r, 1, 10))
			gc.modes_ptr = bad_ptr(r);
		fz_ioctl(C_GETCONNECTOR, c->fd, DRM_IOCTL_MODE_GETCONNECTOR, &gc);
		break;
	}
	case 6: case 7: {
		struct drm_mode_obj_get_properties op = { 0 };
		static const uint32_t types[] = {
			DRM_MODE_OBJECT_CRTC, DRM_MODE_OBJECT_PLANE,
			DRM_MODE_OBJECT_CONNECTOR, DRM_MODE_OBJECT_ANY,
			DRM_MODE_OBJECT_FB, DRM_MODE_OBJECT_ENCODER,
		};

		op.obj_id = chance(r, 1, 2) ? pick_plane_id(r, d, -1, &fq) :
			    pick_crtc_id(r, d, &idx);
		op.obj_type = chance(r, 19, 20) ? types[rnd(r, ARRAY_LEN(types))] :
			      rng_u32(r);
		op.count_props = rnd(r, 64);
		op.props_ptr = (uintptr_t)buf[0];
		op.prop_values_ptr = (uintptr_t)buf[1];
		fz_ioctl(C_OBJ_GETPROPS, c->fd, DRM_IOCTL_MODE_OBJ_GETPROPERTIES, &op);
		break;
	}
	case 8: {
		struct drm_mode_get_property gp = { 0 };

		gp.prop_id = d && d->nprops && chance(r, 4, 5) ?
			     d->props[rnd(r, d->nprops)].id : rnd(r, 300);
		gp.values_ptr = (uintptr_t)buf[0];
		gp.enum_blob_ptr = (uintptr_t)buf[1];
		gp.count_values = rnd(r, 32);
		gp.count_enum_blobs = rnd(r, 32);
		fz_ioctl(C_GETPROPERTY, c->fd, DRM_IOCTL_MODE_GETPROPERTY, &gp);
		break;
	}
	case 9: {
		struct drm_mode_get_blob gb = { 0 };

		gb.blob_id = chance(r, 1, 2) ? c->blobs[rnd(r, NBLOB)] : rnd(r, 200);
		gb.length = chance(r, 1, 2) ? rnd(r, sizeof(buf[0])) : 0;
		gb.data = chance(r, 19, 20) ? (uintptr_t)buf[0] : bad_ptr(r);
		fz_ioctl(C_GETPROPBLOB, c->fd, DRM_IOCTL_MODE_GETPROPBLOB, &gb);
		break;
	}
	case 10: {
		struct drm_mode_fb_cmd2 f = { 0 };

		f.fb_id = pick_fb_id(r, c, true);
		if (fz_ioctl(C_GETFB2, c->fd, DRM_IOCTL_MODE_GETFB2, &f))
			break;
		/* New handles for this file: close them again. */
		for (int i = 0; i < 4; i++) {
			bool dup = false;

			for (int k = 0; k < i; k++)
				dup |= f.handles[k] == f.handles[i];
			if (f.handles[i] && !dup && bo_slot_of(c, f.handles[i]) < 0) {
				struct drm_gem_close gc = { .handle = f.handles[i] };

				fz_ioctl(C_GEM_CLOSE, c->fd, DRM_IOCTL_GEM_CLOSE, &gc);
			}
		}
		break;
	}
	case 11: {
		struct drm_get_cap gc = { .capability = rnd(r, 0x20) };

		fz_ioctl(C_GET_CAP, c->fd, DRM_IOCTL_GET_CAP, &gc);
		break;
	}
	case 12: {
		struct drm_set_client_cap cc = { .capability = 1 + rnd(r, 6),
						 .value = 1 };

		if (chance(r, 1, 5))
			cc.value = chance(r, 1, 2) ? rnd(r, 3) : rng_u64(r);
		if (chance(r, 1, 20))
			cc.capability = rng_u64(r);
		fz_ioctl(C_SET_CLIENT_CAP, c->fd, DRM_IOCTL_SET_CLIENT_CAP, &cc);
		break;
	}
	default: {
		struct drm_version v = { 0 };

		v.name_len = rnd(r, 64);
		v.name = (char *)buf[0];
		v.date_len = rnd(r, 64);
		v.date = (char *)buf[1];
		v.desc_len = rnd(r, 64);
		v.desc = chance(r, 19, 20) ? (char *)buf[2] : (char *)(uintptr_t)1;
		fz_ioctl(C_VERSION, c->fd, DRM_IOCTL_VERSION, &v);
	}
	}
}

static void op_blob(struct rng *r)
{
	static uint8_t data[16384];
	struct client *c = pick_client(r, false);
	int s = rnd(r, NBLOB);

	if (chance(r, 1, 2)) {
		struct drm_mode_create_blob cb = { 0 };

		/*
		 * Huge lengths only beyond the core's limit (INT_MAX minus
		 * the header): below it the core allocates first, and a
		 * failing 2 GiB vmalloc warns in the kernel log.
		 */
		cb.length = chance(r, 9, 10) ? rnd(r, sizeof(data)) :
			    chance(r, 1, 2) ? rnd(r, 1u << 24) :
			    0x7fffffffu + rnd(r, 0x80000000u);
		cb.data = chance(r, 19, 20) ? (uintptr_t)data : bad_ptr(r);
		if (cb.length <= sizeof(data))
			rnd_fill(r, data, cb.length);
		if (fz_ioctl(C_CREATEBLOB, c->fd, DRM_IOCTL_MODE_CREATEPROPBLOB, &cb))
			return;
		if (c->blobs[s]) {
			struct drm_mode_destroy_blob db = { .blob_id = c->blobs[s] };

			fz_ioctl(C_DESTROYBLOB, c->fd, DRM_IOCTL_MODE_DESTROYPROPBLOB, &db);
		}
		c->blobs[s] = cb.blob_id;
	} else {
		struct drm_mode_destroy_blob db = { 0 };

		db.blob_id = c->blobs[s] && chance(r, 3, 4) ? c->blobs[s] :
			     rnd(r, 200);
		fz_ioctl(C_DESTROYBLOB, c->fd, DRM_IOCTL_MODE_DESTROYPROPBLOB, &db);
		if (db.blob_id == c->blobs[s])
			c->blobs[s] = 0;
	}
}

static void op_vblank(struct rng *r)
{
	struct client *c = pick_card_client(r);
	struct fdev *d = client_dev(c);
	int idx;

	switch (rnd(r, 3)) {
	case 0: {
		union drm_wait_vblank wv = { 0 };
		uint32_t pipe = d && d->ncrtcs ? rnd(r, d->ncrtcs) : rnd(r, 4);

		wv.request.type = (enum drm_vblank_seq_type)(DRM_VBLANK_EVENT |
			(chance(r, 3, 4) ? DRM_VBLANK_RELATIVE : DRM_VBLANK_ABSOLUTE) |
			(chance(r, 1, 4) ? DRM_VBLANK_NEXTONMISS : 0) |
			((pipe << DRM_VBLANK_HIGH_CRTC_SHIFT) &
			 DRM_VBLANK_HIGH_CRTC_MASK));
		wv.request.sequence = chance(r, 3, 4) ? rnd(r, 4) : rng_u32(r);
		wv.request.signal = rng_u64(r);
		if (chance(r, 1, 30))
			wv.request.type = (enum drm_vblank_seq_type)
				(rng_u32(r) & ~DRM_VBLANK_SIGNAL);
		if (chance(r, 1, 60)) {
			/* Blocking, for at most one frame. */
			wv.request.type = (enum drm_vblank_seq_type)DRM_VBLANK_RELATIVE;
			wv.request.sequence = rnd(r, 2);
		}
		fz_ioctl(C_WAIT_VBLANK, c->fd, DRM_IOCTL_WAIT_VBLANK, &wv);
		break;
	}
	case 1: {
		struct drm_crtc_get_sequence gs = { 0 };

		gs.crtc_id = pick_crtc_id(r, d, &idx);
		fz_ioctl(C_CRTC_SEQUENCE, c->fd, DRM_IOCTL_CRTC_GET_SEQUENCE, &gs);
		break;
	}
	default: {
		struct drm_crtc_queue_sequence qs = { 0 };

		qs.crtc_id = pick_crtc_id(r, d, &idx);
		qs.flags = chance(r, 9, 10) ? rnd(r, 4) : rng_u32(r);
		qs.sequence = chance(r, 3, 4) ? rnd(r, 4) : rng_u64(r);
		qs.user_data = rng_u64(r);
		fz_ioctl(C_CRTC_SEQUENCE, c->fd, DRM_IOCTL_CRTC_QUEUE_SEQUENCE, &qs);
	}
	}
}

/* ---- PRIME ---------------------------------------------------------------------------- */

static void op_prime_export(struct rng *r)
{
	struct client *c = pick_client(r, false);
	struct drm_prime_handle ph = { 0 };
	off_t size;

	ph.handle = pick_handle(r, c);
	ph.flags = DRM_CLOEXEC | (chance(r, 4, 5) ? DRM_RDWR : 0);
	if (chance(r, 1, 20))
		ph.flags = rng_u32(r);
	if (chance(r, 1, 20))
		ph.fd = (int32_t)rng_u32(r);
	if (fz_ioctl(C_PRIME_EXPORT, c->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph))
		return;
	size = lseek(ph.fd, 0, SEEK_END);
	dmabuf_store(r, ph.fd, size > 0 ? (uint64_t)size : 0);
}

static void op_prime_import(struct rng *r)
{
	struct client *c = pick_client(r, false);
	struct drm_prime_handle ph = { 0 };
	int s = rnd(r, NDMABUF);
	struct bo b = { 0 };

	ph.fd = W.dmabuf[s];
	if (ph.fd < 0 || chance(r, 1, 15))
		ph.fd = chance(r, 1, 2) ? c->fd : (int32_t)rnd(r, 64);
	if (chance(r, 1, 20))
		ph.flags = rng_u32(r);
	if (fz_ioctl(C_PRIME_IMPORT, c->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &ph))
		return;
	if (bo_slot_of(c, ph.handle) >= 0)
		return;		/* the same object again: same handle */
	b.handle = ph.handle;
	b.size = ph.fd == W.dmabuf[s] ? W.dmabuf_size[s] : 0;
	b.imported = true;
	bo_store(c, r, &b);
	/* A cross-adapter framebuffer of it: pitches and offsets of all kinds. */
	if (client_is_card(c) && chance(r, 1, 2)) {
		struct drm_mode_fb_cmd2 f = { 0 };
		uint32_t cpp;

		f.pixel_format = chance(r, 3, 4) ? DRM_FORMAT_XRGB8888 :
				 pick_format(r);
		cpp = fmt_cpp(f.pixel_format);
		f.width = 1 + rnd(r, 1024);
		f.height = 1 + rnd(r, 768);
		f.handles[0] = ph.handle;
		f.pitches[0] = chance(r, 1, 2) ? (f.width * cpp + 127) & ~127u :
			       f.width * cpp + rnd(r, 64);
		if (b.size && (uint64_t)f.pitches[0] * f.height > b.size &&
		    chance(r, 3, 4))
			f.height = b.size / f.pitches[0] ? b.size / f.pitches[0] : 1;
		if (chance(r, 1, 4))
			f.offsets[0] = chance(r, 1, 2) ? 4096 : rnd(r, 4096);
		if (fz_ioctl(C_ADDFB2, c->fd, DRM_IOCTL_MODE_ADDFB2, &f))
			return;
		fb_store(c, r, &(struct fbrec){ .id = f.fb_id, .w = f.width,
						.h = f.height,
						.format = f.pixel_format });
	}
}

static void op_dmabuf(struct rng *r)
{
	int s = rnd(r, NDMABUF);
	int fd = W.dmabuf[s];
	uint64_t size = W.dmabuf_size[s];

	if (fd < 0) {
		op_prime_export(r);
		return;
	}
	switch (rnd(r, 5)) {
	case 0:
		dmabuf_forget(s);
		break;
	case 1: case 2: {
		size_t len = size && size <= BIG_BO ? size : 4096;
		void *p;
		int err;

		if (chance(r, 1, 6))
			len += 4096;
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		err = p == MAP_FAILED ? errno : 0;
		fz_count(C_MMAP, err);
		if (p == MAP_FAILED)
			break;
		touch(p, len < size ? len : (size ? size : len), r, true);
		fz_count(C_MUNMAP, munmap(p, len) ? errno : 0);
		break;
	}
	default: {
		static const uint64_t f[] = {
			DMA_BUF_SYNC_START | DMA_BUF_SYNC_READ,
			DMA_BUF_SYNC_END | DMA_BUF_SYNC_READ,
			DMA_BUF_SYNC_START | DMA_BUF_SYNC_RW,
			DMA_BUF_SYNC_END | DMA_BUF_SYNC_RW,
			DMA_BUF_SYNC_START | DMA_BUF_SYNC_WRITE,
			DMA_BUF_SYNC_END | DMA_BUF_SYNC_WRITE,
		};
		struct dma_buf_sync sy = { .flags = f[rnd(r, ARRAY_LEN(f))] };

		if (chance(r, 1, 10))
			sy.flags = rng_u64(r);
		fz_ioctl(C_DMABUF_SYNC, fd, DMA_BUF_IOCTL_SYNC, &sy);
	}
	}
}

/* vgem: odd-sized buffers (no pitch alignment) and fences on them. */
static void op_vgem(struct rng *r)
{
	struct client *c = &W.cl[CL_VGEM];
	int fd = client_fd(c);

	if (fd < 0)
		return;
	if (chance(r, 2, 3)) {
		struct drm_mode_create_dumb cd = { 0 };
		struct drm_prime_handle ph = { 0 };
		off_t size;

		cd.width = 1 + rnd(r, chance(r, 1, 2) ? 100 : 1100);
		cd.height = 1 + rnd(r, 800);
		cd.bpp = chance(r, 3, 4) ? 32 : 8 * (1 + rnd(r, 4));
		if (fz_ioctl(C_CREATE_DUMB, fd, DRM_IOCTL_MODE_CREATE_DUMB, &cd))
			return;
		bo_store(c, r, &(struct bo){ .handle = cd.handle, .w = cd.width,
					     .h = cd.height, .bpp = cd.bpp,
					     .pitch = cd.pitch, .size = cd.size });
		ph.handle = cd.handle;
		ph.flags = DRM_CLOEXEC | DRM_RDWR;
		if (fz_ioctl(C_PRIME_EXPORT, fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph))
			return;
		size = lseek(ph.fd, 0, SEEK_END);
		dmabuf_store(r, ph.fd, size > 0 ? (uint64_t)size : 0);
	} else {
		struct drm_vgem_fence_attach fa = { 0 };
		struct drm_vgem_fence_signal fs = { 0 };

		fa.handle = pick_handle(r, c);
		fa.flags = chance(r, 9, 10) ? rnd(r, 2) : rng_u32(r);
		if (chance(r, 1, 20))
			fa.pad = 1;
		if (fz_ioctl(C_VGEM_FENCE, fd, DRM_IOCTL_VGEM_FENCE_ATTACH, &fa))
			return;
		/* Signalled right away: nothing may wait on it for long. */
		fs.fence = fa.out_fence;
		fz_ioctl(C_VGEM_FENCE, fd, DRM_IOCTL_VGEM_FENCE_SIGNAL, &fs);
		if (chance(r, 1, 4)) {
			fs.fence = rng_u32(r);
			fz_ioctl(C_VGEM_FENCE, fd, DRM_IOCTL_VGEM_FENCE_SIGNAL, &fs);
		}
	}
}

/* ---- master, files, leases -------------------------------------------------------------- */

static void op_master(struct rng *r)
{
	struct client *c = pick_card_client(r);
	struct fdev *d = client_dev(c);

	if (chance(r, 2, 5) && !(c->kind == K_MASTER && chance(r, 1, 2))) {
		if (!fz_ioctl(C_DROP_MASTER, c->fd, DRM_IOCTL_DROP_MASTER, NULL) && d)
			fq_owner_gone(d, c);
	} else {
		fz_ioctl(C_SET_MASTER, c->fd, DRM_IOCTL_SET_MASTER, NULL);
	}
	/*
	 * The masters want to stay masters most of the time: the second
	 * files let go, the masters take over again.
	 */
	if (chance(r, 2, 3)) {
		static const int pairs[2][2] = { { CL_SECOND, CL_MASTER },
						 { CL_DSECOND, CL_DMASTER } };

		for (int i = 0; i < 2; i++) {
			struct client *s = &W.cl[pairs[i][0]];
			struct client *mc = &W.cl[pairs[i][1]];

			if (mc->fd < 0 || !fz_ioctl(C_SET_MASTER, mc->fd,
						    DRM_IOCTL_SET_MASTER, NULL))
				continue;
			if (s->fd >= 0 &&
			    !fz_ioctl(C_DROP_MASTER, s->fd, DRM_IOCTL_DROP_MASTER, NULL))
				fq_owner_gone(client_dev(s), s);
			fz_ioctl(C_SET_MASTER, mc->fd, DRM_IOCTL_SET_MASTER, NULL);
		}
	}
}

static void op_reopen(struct rng *r)
{
	int i = rnd(r, NCLIENTS);
	struct client *c = &W.cl[i];

	if (i == CL_LEASE)
		return;
	/*
	 * Mappings keep the file (and its DRM master) alive after close():
	 * a master mostly lets go of them, so that its successor can rule.
	 */
	client_close(c, c->kind == K_MASTER ? !chance(r, 1, 8) : chance(r, 1, 2));
	client_open(c);
}

static void op_lease(struct rng *r)
{
	struct client *m = &W.cl[CL_MASTER], *l = &W.cl[CL_LEASE];
	struct fdev *d = &W.dev[DEV_DEFAULT];

	if (m->fd < 0 && client_fd(m) < 0)
		return;
	switch (rnd(r, 6)) {
	case 0: case 1: case 2: {
		struct drm_mode_create_lease cl = { 0 };
		uint32_t objs[16];
		int n = 0, crtc = d->ncrtcs ? (int)rnd(r, d->ncrtcs) : -1;

		if (crtc >= 0) {
			objs[n++] = d->crtcs[crtc].id;
			for (int i = 0; i < d->nconns && n < 14; i++)
				if (d->conn_crtc[i] == crtc &&
				    (!d->conn_wb[i] || chance(r, 1, 2)))
					objs[n++] = d->conns[i].id;
			for (int i = 0; i < d->crtc_nplanes[crtc] && n < 14; i++)
				if (i == 0 || chance(r, 3, 4))
					objs[n++] = d->planes[d->crtc_plane[crtc][i]].id;
		}
		if (chance(r, 1, 8) && n)
			n = rnd(r, n);
		if (chance(r, 1, 10))
			objs[n++] = chance(r, 1, 2) ? rnd(r, 200) :
				    rnd_interesting32(r);
		cl.object_ids = (uintptr_t)objs;
		cl.object_count = n;
		cl.flags = O_CLOEXEC | O_NONBLOCK;
		if (chance(r, 1, 20))
			cl.flags = rng_u32(r);
		if (fz_ioctl(C_CREATE_LEASE, m->fd, DRM_IOCTL_MODE_CREATE_LEASE, &cl))
			return;
		client_close(l, chance(r, 1, 2));
		l->fd = cl.fd;
		l->gen = d->gen;
		l->lessee_id = cl.lessee_id;
		drmSetClientCap(l->fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1);
		drmSetClientCap(l->fd, DRM_CLIENT_CAP_ATOMIC, 1);
		drmSetClientCap(l->fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1);
		break;
	}
	case 3: {
		static uint32_t ids[64];
		struct client *c = chance(r, 1, 2) ? m : pick_card_client(r);

		if (chance(r, 1, 2)) {
			struct drm_mode_list_lessees ll = {
				.count_lessees = rnd(r, 64),
				.lessees_ptr = (uintptr_t)ids };

			fz_ioctl(C_LEASE_QUERY, c->fd, DRM_IOCTL_MODE_LIST_LESSEES, &ll);
		} else {
			struct drm_mode_get_lease gl = {
				.count_objects = rnd(r, 64),
				.objects_ptr = (uintptr_t)ids };

			if (chance(r, 1, 2) && l->fd >= 0)
				c = l;
			fz_ioctl(C_LEASE_QUERY, c->fd, DRM_IOCTL_MODE_GET_LEASE, &gl);
		}
		break;
	}
	case 4: {
		struct drm_mode_revoke_lease rl = {
			.lessee_id = l->lessee_id && chance(r, 3, 4) ?
				     l->lessee_id : rnd(r, 10) };

		fz_ioctl(C_REVOKE_LEASE, m->fd, DRM_IOCTL_MODE_REVOKE_LEASE, &rl);
		break;
	}
	default:
		client_close(l, chance(r, 1, 2));
	}
}

const struct fz_op fz_kms_ops[] = {
	{ "create_dumb", op_create_dumb, 45 },
	{ "map", op_map, 30 },
	{ "touch", op_touch, 25 },
	{ "destroy", op_destroy, 20 },
	{ "addfb2", op_addfb2, 60 },
	{ "rmfb", op_rmfb, 20 },
	{ "atomic", op_atomic, 110 },
	{ "page_flip", op_page_flip, 30 },
	{ "legacy", op_legacy, 6 },
	{ "dirtyfb_gamma", op_dirtyfb_gamma, 10 },
	{ "getters", op_getters, 60 },
	{ "blob", op_blob, 20 },
	{ "vblank", op_vblank, 20 },
	{ "prime_export", op_prime_export, 25 },
	{ "prime_import", op_prime_import, 25 },
	{ "dmabuf", op_dmabuf, 15 },
	{ "vgem", op_vgem, 12 },
	{ "master", op_master, 8 },
	{ "reopen", op_reopen, 2 },
	{ "lease", op_lease, 6 },
};
const unsigned int fz_num_kms_ops = ARRAY_LEN(fz_kms_ops);
