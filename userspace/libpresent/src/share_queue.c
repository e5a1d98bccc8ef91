// SPDX-License-Identifier: MIT
/*
 * libpresent sharing: the surface queue (the D3D9Ex/DXGI interop helper's
 * ISurfaceQueue) as a FIFO ring in a shared memfd, with futex wake-ups.
 *
 * A network (root queue + clones) shares one fixed set of shared surfaces.
 * Each queue is its own memfd: header, the surfaces' share tokens (which
 * name the creator's fds), and a ring of num_surfaces entries {surface
 * index, metadata}.  In each process the surfaces of a network opened on
 * one device are one set of objects (struct sq_net) that every queue object
 * of that network and device uses, so ownership (dequeued by this process
 * or not) is tracked once per process and device.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "share_internal.h"

#define SQ_MAX PRESENT_SURFACE_QUEUE_MAX_SURFACES
#define SQ_HOLDERS 8

/*
 * A process that has the network's surfaces open, and their fd numbers
 * there: openers fetch the surfaces from the creator or, once it is gone,
 * from any live holder.  Stale entries are harmless (the cookie and inode
 * checks reject reused fd numbers) and are reclaimed when their process
 * has exited.
 */
struct sq_holder {
	int32_t pid;
	int32_t pad;
	struct {
		int32_t ctl, buf;
	} fd[SQ_MAX];
};

struct sq_shm {
	uint32_t magic;
	uint32_t version;
	uint64_t cookie;	/* this queue */
	uint64_t net_cookie;	/* the network (root queue's cookie) */
	uint32_t nsurf, meta_max;
	uint32_t width, height, format, flags;
	uint32_t ent_size;	/* bytes per ring entry */
	uint32_t ents_off;	/* offset of the ring from the start */
	struct present_share_token surf[SQ_MAX];	/* the creator's */
	struct sq_holder holders[SQ_HOLDERS];	/* under lock */
	_Atomic uint32_t lock;
	_Atomic uint32_t seq;	/* bumped on every commit (futex word) */
	uint32_t head, tail;	/* free-running; count = tail - head */
};

struct sq_ent {
	uint32_t surf;
	uint32_t meta_size;
	uint8_t meta[];
};

struct sq_net {
	struct sq_net *next;
	uint64_t net_cookie;
	int drm_fd;
	int refs;
	uint32_t nsurf;
	struct present_shared_surface *surf[SQ_MAX];
};

struct sq_pending {
	uint32_t surf;
	uint32_t meta_size;
};

struct present_surface_queue {
	int fd;
	struct sq_shm *shm;
	size_t size;
	struct sq_net *net;
	uint32_t npend;
	struct sq_pending pend[SQ_MAX];
	uint8_t *pend_meta;	/* SQ_MAX x meta_max */
};

static pthread_mutex_t nets_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sq_net *nets;

static struct sq_ent *sq_ent(struct sq_shm *shm, uint32_t i)
{
	return (struct sq_ent *)((uint8_t *)shm + shm->ents_off +
				 (size_t)(i % shm->nsurf) * shm->ent_size);
}

static void net_destroy(struct sq_net *net)
{
	for (uint32_t i = 0; i < net->nsurf; i++) {
		if (net->surf[i]) {
			net->surf[i]->net = NULL;
			share_surface_destroy(net->surf[i]);
		}
	}
	free(net);
}

static void net_put(struct sq_net *net)
{
	struct sq_net **pp;

	pthread_mutex_lock(&nets_lock);
	if (--net->refs > 0) {
		pthread_mutex_unlock(&nets_lock);
		return;
	}
	for (pp = &nets; *pp; pp = &(*pp)->next) {
		if (*pp == net) {
			*pp = net->next;
			break;
		}
	}
	pthread_mutex_unlock(&nets_lock);
	net_destroy(net);
}

/* New queue memfd: header copied from @tmpl (surfaces, sizes), empty ring. */
static int sq_make(const struct sq_shm *tmpl, uint32_t meta_max,
		   struct present_surface_queue **out)
{
	struct present_surface_queue *q = calloc(1, sizeof(*q));
	size_t ent_size = (sizeof(struct sq_ent) + meta_max + 7u) & ~(size_t)7;
	size_t off = (sizeof(struct sq_shm) + 63u) & ~(size_t)63;
	size_t size = off + ent_size * tmpl->nsurf;
	void *map;
	int fd;

	if (!q)
		return share_err(PRESENT_E_NO_MEMORY, "out of memory");
	q->pend_meta = malloc((size_t)SQ_MAX * (meta_max ? meta_max : 1));
	if (!q->pend_meta) {
		free(q);
		return share_err(PRESENT_E_NO_MEMORY, "out of memory");
	}
	size = (size + 4095u) & ~(size_t)4095;
	fd = share_shm_create("present-surface-queue", size, &map);
	if (fd < 0) {
		free(q->pend_meta);
		free(q);
		return fd;
	}
	q->fd = fd;
	q->shm = map;
	q->size = size;
	*q->shm = *tmpl;
	q->shm->magic = 0;
	q->shm->version = SHARE_VERSION;
	q->shm->cookie = share_cookie();
	q->shm->meta_max = meta_max;
	q->shm->ent_size = (uint32_t)ent_size;
	q->shm->ents_off = (uint32_t)off;
	atomic_store(&q->shm->lock, 0);
	atomic_store(&q->shm->seq, 0);
	q->shm->head = q->shm->tail = 0;
	*out = q;
	return 0;
}

static void sq_publish(struct present_surface_queue *q)
{
	atomic_thread_fence(memory_order_release);
	q->shm->magic = SHARE_QUEUE_MAGIC;
}

static void sq_free(struct present_surface_queue *q)
{
	if (q->shm)
		munmap(q->shm, q->size);
	if (q->fd >= 0)
		close(q->fd);
	free(q->pend_meta);
	free(q);
}

/* Record this process's fds of the network's surfaces in @q's block. */
static void sq_register(struct present_surface_queue *q)
{
	struct sq_shm *shm = q->shm;
	int32_t me = (int32_t)getpid();
	int slot = -1, i;

	share_lock(&shm->lock);
	for (i = 0; i < SQ_HOLDERS && slot < 0; i++)
		if (shm->holders[i].pid == me)
			slot = i;
	for (i = 0; i < SQ_HOLDERS && slot < 0; i++)
		if (shm->holders[i].pid == 0)
			slot = i;
	for (i = 0; i < SQ_HOLDERS && slot < 0; i++)
		if (share_pid_dead(shm->holders[i].pid))
			slot = i;
	if (slot >= 0) {
		struct sq_holder *h = &shm->holders[slot];

		h->pid = me;
		for (uint32_t j = 0; j < q->net->nsurf && j < SQ_MAX; j++) {
			h->fd[j].ctl = q->net->surf[j]->ctl_fd;
			h->fd[j].buf = q->net->surf[j]->buf_fd;
		}
	}
	share_unlock(&shm->lock);
}

/*
 * Open the network's surfaces on @drm_fd: from the creator, else from any
 * registered holder (all surfaces from one process).
 */
static int sq_import(struct sq_net *net, struct sq_shm *shm, int drm_fd)
{
	int r = PRESENT_E_NOT_FOUND;

	for (int c = -1; c < SQ_HOLDERS; c++) {
		struct present_share_token toks[SQ_MAX];
		int pidfd = -1;
		uint32_t i;

		share_lock(&shm->lock);
		for (i = 0; i < net->nsurf; i++) {
			toks[i] = shm->surf[i];
			if (c >= 0) {
				toks[i].pid = shm->holders[c].pid;
				toks[i].fd = shm->holders[c].fd[i].ctl;
				toks[i].buf_fd = shm->holders[c].fd[i].buf;
			}
		}
		share_unlock(&shm->lock);
		if (c >= 0 && (toks[0].pid <= 0 ||
			       toks[0].pid == (int32_t)getpid() ||
			       toks[0].pid == shm->surf[0].pid))
			continue;
		for (i = 0; i < net->nsurf; i++) {
			if (i > 0 && toks[i].pid != toks[i - 1].pid &&
			    pidfd >= 0) {
				close(pidfd);
				pidfd = -1;
			}
			r = share_surface_open(&toks[i], drm_fd, &pidfd,
					       &net->surf[i]);
			if (r)
				break;
			net->surf[i]->net = net;
			net->surf[i]->index = (int)i;
		}
		if (pidfd >= 0)
			close(pidfd);
		if (!r)
			return 0;
		for (i = 0; i < net->nsurf; i++) {
			if (net->surf[i]) {
				net->surf[i]->net = NULL;
				share_surface_destroy(net->surf[i]);
				net->surf[i] = NULL;
			}
		}
		/* another holder can only help if this one was gone */
		if (r != PRESENT_E_NOT_FOUND && r != PRESENT_E_ACCESS)
			return r;
	}
	return r;
}

PRESENT_API int present_surface_queue_create(int drm_fd,
		const struct present_surface_queue_desc *desc,
		struct present_surface_queue **out)
{
	struct present_surface_desc sd = { 0 };
	struct present_surface_queue *q;
	struct sq_shm tmpl = { 0 };
	struct sq_net *net;
	int r;

	if (!desc || !out)
		return share_err(PRESENT_E_INVALID_ARG, "NULL argument");
	*out = NULL;
	if (desc->num_surfaces < 1 || desc->num_surfaces > SQ_MAX ||
	    desc->metadata_size > PRESENT_SURFACE_QUEUE_MAX_METADATA ||
	    desc->flags != 0)
		return share_err(PRESENT_E_INVALID_ARG,
				 "bad queue description (surfaces 1..%d, "
				 "metadata <= %d, flags 0)", SQ_MAX,
				 PRESENT_SURFACE_QUEUE_MAX_METADATA);
	sd.width = desc->width;
	sd.height = desc->height;
	sd.format = desc->format;
	sd.mip_levels = 1;
	sd.array_layers = 1;
	r = share_desc_check(&sd, true);
	if (r)
		return r;
	net = calloc(1, sizeof(*net));
	if (!net)
		return share_err(PRESENT_E_NO_MEMORY, "out of memory");
	net->drm_fd = drm_fd;
	net->refs = 1;
	net->nsurf = desc->num_surfaces;
	for (uint32_t i = 0; i < net->nsurf; i++) {
		r = present_shared_surface_create(drm_fd, &sd, &net->surf[i]);
		if (r)
			goto fail_net;
		net->surf[i]->net = net;
		net->surf[i]->index = (int)i;
		present_shared_surface_token(net->surf[i], &tmpl.surf[i]);
	}
	tmpl.nsurf = desc->num_surfaces;
	tmpl.width = desc->width;
	tmpl.height = desc->height;
	tmpl.format = desc->format;
	r = sq_make(&tmpl, desc->metadata_size, &q);
	if (r)
		goto fail_net;
	q->shm->net_cookie = q->shm->cookie;
	net->net_cookie = q->shm->cookie;
	/* the root queue starts full, in index order, without metadata */
	for (uint32_t i = 0; i < net->nsurf; i++) {
		struct sq_ent *e = sq_ent(q->shm, i);

		e->surf = i;
		e->meta_size = 0;
	}
	q->shm->tail = net->nsurf;
	q->net = net;
	memset(q->shm->holders, 0, sizeof(q->shm->holders));
	sq_register(q);
	sq_publish(q);
	pthread_mutex_lock(&nets_lock);
	net->next = nets;
	nets = net;
	pthread_mutex_unlock(&nets_lock);
	*out = q;
	return 0;
fail_net:
	net_destroy(net);
	return r;
}

PRESENT_API int present_surface_queue_clone(struct present_surface_queue *q,
		uint32_t metadata_size, struct present_surface_queue **out)
{
	struct present_surface_queue *c;
	int r;

	if (!q || !out)
		return share_err(PRESENT_E_INVALID_ARG, "NULL argument");
	*out = NULL;
	if (metadata_size > PRESENT_SURFACE_QUEUE_MAX_METADATA)
		return share_err(PRESENT_E_INVALID_ARG,
				 "metadata size %u too large", metadata_size);
	r = sq_make(q->shm, metadata_size, &c);
	if (r)
		return r;
	pthread_mutex_lock(&nets_lock);
	q->net->refs++;
	pthread_mutex_unlock(&nets_lock);
	c->net = q->net;
	sq_register(c);
	sq_publish(c);
	*out = c;
	return 0;
}

PRESENT_API int present_surface_queue_token(
		const struct present_surface_queue *q,
		struct present_share_token *tok)
{
	if (!q || !tok)
		return share_err(PRESENT_E_INVALID_ARG, "NULL argument");
	/* the queue block holds no fd numbers: any holder can share it */
	tok->pid = (int32_t)getpid();
	tok->fd = q->fd;
	tok->buf_fd = -1;
	tok->reserved = 0;
	tok->cookie = q->shm->cookie;
	return 0;
}

/* Map the queue block of @tok into @q and check it is whole and current. */
static int sq_map_token(struct present_surface_queue *q, const struct present_share_token *tok)
{
	void *map;
	int r;

	q->fd = share_fetch_fd(tok->pid, tok->fd, NULL);
	if (q->fd < 0)
		return q->fd;
	r = share_shm_map(q->fd, sizeof(struct sq_shm), &q->size, &map);
	if (r)
		return r;
	q->shm = map;
	if (q->shm->magic != SHARE_QUEUE_MAGIC ||
	    q->shm->cookie != tok->cookie)
		return share_err(PRESENT_E_NOT_FOUND,
				 "stale queue token (cookie mismatch)");
	atomic_thread_fence(memory_order_acquire);
	if (q->shm->nsurf < 1 || q->shm->nsurf > SQ_MAX ||
	    q->shm->meta_max > PRESENT_SURFACE_QUEUE_MAX_METADATA ||
	    q->shm->ents_off < sizeof(struct sq_shm) ||
	    (size_t)q->shm->ents_off + (size_t)q->shm->ent_size *
	    q->shm->nsurf > q->size ||
	    q->shm->ent_size < sizeof(struct sq_ent) + q->shm->meta_max)
		return share_err(PRESENT_E_IO, "corrupt queue header");
	q->pend_meta = malloc((size_t)SQ_MAX *
			      (q->shm->meta_max ? q->shm->meta_max : 1));
	if (!q->pend_meta)
		return share_err(PRESENT_E_NO_MEMORY, "out of memory");
	return 0;
}

/*
 * The surfaces of @shm's network on @drm_fd: the ones this process
 * imported already (one more reference), else imported now.
 */
static int sq_net_get(struct sq_shm *shm, int drm_fd, struct sq_net **out)
{
	struct sq_net *net;
	int r;

	pthread_mutex_lock(&nets_lock);
	for (net = nets; net; net = net->next) {
		if (net->net_cookie == shm->net_cookie &&
		    net->drm_fd == drm_fd) {
			net->refs++;
			break;
		}
	}
	pthread_mutex_unlock(&nets_lock);
	if (!net) {
		net = calloc(1, sizeof(*net));
		if (!net)
			return share_err(PRESENT_E_NO_MEMORY, "out of memory");
		net->net_cookie = shm->net_cookie;
		net->drm_fd = drm_fd;
		net->refs = 1;
		net->nsurf = shm->nsurf;
		r = sq_import(net, shm, drm_fd);
		if (r) {
			net_destroy(net);
			return r;
		}
		pthread_mutex_lock(&nets_lock);
		net->next = nets;
		nets = net;
		pthread_mutex_unlock(&nets_lock);
	}
	*out = net;
	return 0;
}

PRESENT_API int present_surface_queue_open(
		const struct present_share_token *tok, int drm_fd,
		struct present_surface_queue **out)
{
	struct present_surface_queue *q;
	struct sq_net *net = NULL;
	int r;

	if (!tok || !out)
		return share_err(PRESENT_E_INVALID_ARG, "NULL argument");
	*out = NULL;
	q = calloc(1, sizeof(*q));
	if (!q)
		return share_err(PRESENT_E_NO_MEMORY, "out of memory");
	r = sq_map_token(q, tok);
	if (!r)
		r = sq_net_get(q->shm, drm_fd, &net);
	if (r) {
		q->net = NULL;
		sq_free(q);
		return r;
	}
	q->net = net;
	sq_register(q);
	*out = q;
	return 0;
}

/* Push one entry; caller checked sizes. */
static int sq_commit(struct present_surface_queue *q, uint32_t surf,
		     const void *meta, uint32_t meta_size)
{
	struct sq_shm *shm = q->shm;
	struct sq_ent *e;

	share_lock(&shm->lock);
	if (shm->tail - shm->head >= shm->nsurf) {
		share_unlock(&shm->lock);
		return share_err(PRESENT_E_IO, "queue overflow: a surface is "
				 "in two places");
	}
	e = sq_ent(shm, shm->tail);
	e->surf = surf;
	e->meta_size = meta_size;
	if (meta_size)
		memcpy(e->meta, meta, meta_size);
	shm->tail++;
	atomic_fetch_add(&shm->seq, 1);
	share_unlock(&shm->lock);
	share_futex_wake(&shm->seq, 0x7fffffff);
	return 0;
}

/* Has the GPU finished writing the surface?  (dma-buf write fences) */
static bool sq_ready(struct present_surface_queue *q, uint32_t surf,
		     bool wait)
{
	struct pollfd p = { .fd = q->net->surf[surf]->buf_fd,
			    .events = POLLIN };
	int r;

	do {
		r = poll(&p, 1, wait ? -1 : 0);
	} while (r < 0 && errno == EINTR);
	/* errors: nothing to wait for */
	return r != 0;
}

static int sq_flush(struct present_surface_queue *q, bool wait,
		    uint32_t *committed)
{
	uint32_t mm = q->shm->meta_max ? q->shm->meta_max : 1;
	int r;

	*committed = 0;
	while (q->npend > 0) {
		if (!sq_ready(q, q->pend[0].surf, wait))
			break;
		r = sq_commit(q, q->pend[0].surf, q->pend_meta,
			      q->pend[0].meta_size);
		if (r)
			return r;
		q->npend--;
		memmove(q->pend, q->pend + 1, q->npend * sizeof(q->pend[0]));
		memmove(q->pend_meta, q->pend_meta + mm, (size_t)q->npend * mm);
		(*committed)++;
	}
	return 0;
}

PRESENT_API int present_surface_queue_enqueue(struct present_surface_queue *q,
		struct present_shared_surface *s, const void *metadata,
		uint32_t metadata_size, uint32_t flags)
{
	uint32_t mm, committed;
	int r;

	if (!q || !s)
		return share_err(PRESENT_E_INVALID_ARG, "NULL argument");
	if (s->net != q->net || s->index < 0)
		return share_err(PRESENT_E_INVALID_ARG,
				 "surface is not from this queue network and "
				 "device");
	if (!s->owned)
		return share_err(PRESENT_E_INVALID_ARG,
				 "surface %d is not owned by the caller "
				 "(already enqueued?)", s->index);
	if (metadata_size > q->shm->meta_max || (metadata_size && !metadata))
		return share_err(PRESENT_E_INVALID_ARG,
				 "metadata size %u > queue maximum %u",
				 metadata_size, q->shm->meta_max);
	if (flags & ~PRESENT_SURFACE_QUEUE_DO_NOT_WAIT)
		return share_err(PRESENT_E_INVALID_ARG, "bad flags 0x%x", flags);
	if (q->npend >= SQ_MAX)
		return share_err(PRESENT_E_IO, "too many pending surfaces");
	/* from here on the producer has no rights to the surface */
	if (s->mapped)
		present_shared_surface_unmap(s);
	s->owned = false;
	mm = q->shm->meta_max ? q->shm->meta_max : 1;
	q->pend[q->npend].surf = (uint32_t)s->index;
	q->pend[q->npend].meta_size = metadata_size;
	if (metadata_size)
		memcpy(q->pend_meta + (size_t)q->npend * mm, metadata,
		       metadata_size);
	q->npend++;
	r = sq_flush(q, !(flags & PRESENT_SURFACE_QUEUE_DO_NOT_WAIT),
		     &committed);
	if (r)
		return r;
	return q->npend ? PRESENT_E_WAS_STILL_DRAWING : 0;
}

PRESENT_API int present_surface_queue_flush(struct present_surface_queue *q,
		uint32_t flags, uint32_t *pending)
{
	uint32_t committed, before;
	int r;

	if (!q || (flags & ~PRESENT_SURFACE_QUEUE_DO_NOT_WAIT))
		return share_err(PRESENT_E_INVALID_ARG, "bad argument");
	before = q->npend;
	r = sq_flush(q, !(flags & PRESENT_SURFACE_QUEUE_DO_NOT_WAIT),
		     &committed);
	if (pending)
		*pending = q->npend;
	if (r)
		return r;
	return before && !committed ? PRESENT_E_WAS_STILL_DRAWING : 0;
}

PRESENT_API int present_surface_queue_dequeue(struct present_surface_queue *q,
		struct present_shared_surface **out, void *metadata,
		uint32_t *metadata_size, uint32_t timeout_ms)
{
	struct share_deadline d;
	struct sq_shm *shm;
	uint32_t cap;

	if (!q || !out || (metadata && !metadata_size))
		return share_err(PRESENT_E_INVALID_ARG, "bad argument");
	*out = NULL;
	shm = q->shm;
	cap = metadata ? *metadata_size : 0;
	share_deadline_init(&d, timeout_ms);
	for (;;) {
		uint32_t seq;

		share_lock(&shm->lock);
		if (shm->tail != shm->head) {
			struct sq_ent *e = sq_ent(shm, shm->head);
			uint32_t idx = e->surf, n = e->meta_size;

			if (idx >= q->net->nsurf || n > shm->meta_max) {
				share_unlock(&shm->lock);
				return share_err(PRESENT_E_IO,
						 "corrupt queue entry");
			}
			if (metadata && n > cap) {
				share_unlock(&shm->lock);
				*metadata_size = n;
				return share_err(PRESENT_E_MORE_DATA,
						 "metadata needs %u bytes", n);
			}
			if (metadata && n)
				memcpy(metadata, e->meta, n);
			shm->head++;
			share_unlock(&shm->lock);
			if (metadata_size)
				*metadata_size = n;
			q->net->surf[idx]->owned = true;
			*out = q->net->surf[idx];
			return 0;
		}
		seq = atomic_load(&shm->seq);
		share_unlock(&shm->lock);
		if (timeout_ms == 0) {
			if (metadata_size)
				*metadata_size = 0;
			return share_err(PRESENT_E_WAS_STILL_DRAWING,
					 "queue empty");
		}
		if (share_futex_wait(&shm->seq, seq, &d) == PRESENT_E_TIMEOUT) {
			if (metadata_size)
				*metadata_size = 0;
			return share_err(PRESENT_E_TIMEOUT,
					 "queue empty for %u ms", timeout_ms);
		}
	}
}

PRESENT_API int present_surface_queue_desc(
		const struct present_surface_queue *q,
		struct present_surface_queue_desc *desc)
{
	if (!q || !desc)
		return share_err(PRESENT_E_INVALID_ARG, "NULL argument");
	desc->width = q->shm->width;
	desc->height = q->shm->height;
	desc->format = q->shm->format;
	desc->num_surfaces = q->shm->nsurf;
	desc->metadata_size = q->shm->meta_max;
	desc->flags = q->shm->flags;
	return 0;
}

PRESENT_API int present_surface_queue_surface_index(
		const struct present_surface_queue *q,
		const struct present_shared_surface *s)
{
	if (!q || !s || s->net != q->net || s->index < 0)
		return share_err(PRESENT_E_INVALID_ARG,
				 "not a surface of this queue");
	return s->index;
}

PRESENT_API void present_surface_queue_close(struct present_surface_queue *q)
{
	uint32_t committed;

	if (!q)
		return;
	sq_flush(q, true, &committed);
	if (q->net)
		net_put(q->net);
	q->net = NULL;
	sq_free(q);
}
