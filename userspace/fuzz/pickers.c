// SPDX-License-Identifier: MIT
/*
 * vflipq-fuzz: picking a client, framebuffer, handle, format, CRTC or plane
 * for an operation, mostly valid, sometimes not.
 */
#include <drm_fourcc.h>

#include "fuzz.h"

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
