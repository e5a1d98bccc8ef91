// SPDX-License-Identifier: MIT
/*
 * vflipq-fuzz: the clients (one fd each) and the slot tables of what each
 * owns (buffers, framebuffers, mappings, logs, dma-bufs, fences).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "fuzz.h"

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
	c->ntruth = 0;
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
int fb_store_in(struct client *c, struct rng *r, const struct fbrec *f,
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
