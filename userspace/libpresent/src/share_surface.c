// SPDX-License-Identifier: MIT
/*
 * libpresent sharing: shared surfaces (export, token, import) and the
 * keyed mutex API.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/dma-buf.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xf86drm.h>

#include "share_internal.h"

/* The control block every holder of the surface maps. */
struct share_surf_shm {
	uint32_t magic;
	uint32_t version;
	uint64_t cookie;
	int32_t buf_fd;		/* buffer fd number in the creator */
	int32_t owner_pid;	/* creator (diagnostics) */
	uint64_t buf_ino;	/* to reject a reused or wrong fd number */
	uint64_t buf_dev;
	struct present_surface_desc desc;
	struct share_km km;
};

/*
 * GEM handles are per DRM file: importing a dma-buf the file already has
 * gives back the existing handle.  Handles the library holds are counted
 * here per (fd, handle) so closing one surface object never closes a
 * handle another object (or the application, for exported handles) still
 * uses.
 */
struct handle_ref {
	struct handle_ref *next;
	int drm_fd;
	uint32_t handle;
	int refs;
	bool user;	/* the application's handle: never closed here */
};

static pthread_mutex_t handles_lock = PTHREAD_MUTEX_INITIALIZER;
static struct handle_ref *handles;

static int handle_get(int drm_fd, uint32_t handle, bool user)
{
	struct handle_ref *h;

	pthread_mutex_lock(&handles_lock);
	for (h = handles; h; h = h->next)
		if (h->drm_fd == drm_fd && h->handle == handle)
			break;
	if (!h) {
		h = calloc(1, sizeof(*h));
		if (!h) {
			pthread_mutex_unlock(&handles_lock);
			return share_err(PRESENT_E_NO_MEMORY, "out of memory");
		}
		h->drm_fd = drm_fd;
		h->handle = handle;
		h->next = handles;
		handles = h;
	}
	h->refs++;
	h->user |= user;
	pthread_mutex_unlock(&handles_lock);
	return 0;
}

static void handle_put(int drm_fd, uint32_t handle)
{
	struct handle_ref **pp, *h = NULL;
	bool close_it = false;

	pthread_mutex_lock(&handles_lock);
	for (pp = &handles; *pp; pp = &(*pp)->next) {
		if ((*pp)->drm_fd == drm_fd && (*pp)->handle == handle) {
			h = *pp;
			break;
		}
	}
	if (h && --h->refs == 0) {
		close_it = !h->user;
		*pp = h->next;
		free(h);
	}
	pthread_mutex_unlock(&handles_lock);
	if (close_it) {
		struct drm_gem_close c = { .handle = handle };

		drmIoctl(drm_fd, DRM_IOCTL_GEM_CLOSE, &c);
	}
}

static struct present_shared_surface *surf_alloc(void)
{
	struct present_shared_surface *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->ctl_fd = -1;
	s->buf_fd = -1;
	s->drm_fd = -1;
	s->index = -1;
	return s;
}

void share_surface_destroy(struct present_shared_surface *s)
{
	if (!s)
		return;
	if (s->km_held)
		share_km_release(&s->ctl->km, s->ctl->km.key);
	if (s->mapped)
		present_shared_surface_unmap(s);
	if (s->map)
		munmap(s->map, s->map_size);
	if (s->own_handle && s->handle)
		handle_put(s->drm_fd, s->handle);
	if (s->ctl)
		munmap(s->ctl, s->ctl_size);
	if (s->ctl_fd >= 0)
		close(s->ctl_fd);
	if (s->buf_fd >= 0)
		close(s->buf_fd);
	free(s);
}

/* Control block for a surface whose buf_fd/desc are set. */
static int surf_make_ctl(struct present_shared_surface *s)
{
	struct share_surf_shm *c;
	struct stat st;
	void *map;
	int fd;

	if (fstat(s->buf_fd, &st) < 0)
		return share_err(PRESENT_E_IO, "fstat(buffer): %s",
				 strerror(errno));
	fd = share_shm_create("present-surface", 4096, &map);
	if (fd < 0)
		return fd;
	c = map;
	c->version = SHARE_VERSION;
	c->cookie = share_cookie();
	c->buf_fd = s->buf_fd;
	c->owner_pid = (int32_t)getpid();
	c->buf_ino = st.st_ino;
	c->buf_dev = st.st_dev;
	c->desc = s->desc;
	share_km_init(&c->km);
	atomic_thread_fence(memory_order_release);
	c->magic = SHARE_SURF_MAGIC;
	s->ctl_fd = fd;
	s->ctl = c;
	s->ctl_size = 4096;
	return 0;
}

/* Import s->buf_fd into @drm_fd (PRIME). */
static int surf_import(struct present_shared_surface *s, int drm_fd)
{
	uint32_t h = 0;

	if (drm_fd < 0)
		return 0;
	if (drmPrimeFDToHandle(drm_fd, s->buf_fd, &h) != 0 || !h) {
		int e = errno;

		return share_err(e == EBADF || e == EINVAL || e == ENOSYS ||
				 e == EOPNOTSUPP ? PRESENT_E_NOT_SUPPORTED :
				 share_errno_code(e),
				 "PRIME import: %s", strerror(e));
	}
	if (handle_get(drm_fd, h, false))
		return PRESENT_E_NO_MEMORY;	/* leak h rather than break */
	s->drm_fd = drm_fd;
	s->handle = h;
	s->own_handle = true;
	return 0;
}

/* A new surface of @desc, checked; NULL with *@r set on failure. */
static struct present_shared_surface *surf_new(const struct present_surface_desc *desc,
					      bool create, int *r)
{
	struct present_shared_surface *s = surf_alloc();

	if (!s) {
		*r = share_err(PRESENT_E_NO_MEMORY, "out of memory");
		return NULL;
	}
	s->desc = *desc;
	*r = share_desc_check(&s->desc, create);
	if (*r) {
		share_surface_destroy(s);
		return NULL;
	}
	return s;
}

/* The buffer is in place (@r 0): publish the control block, or undo all. */
static int surf_publish(struct present_shared_surface *s, int r,
			struct present_shared_surface **out)
{
	if (!r)
		r = surf_make_ctl(s);
	if (r) {
		share_surface_destroy(s);
		return r;
	}
	*out = s;
	return 0;
}

PRESENT_API int present_shared_surface_create(int drm_fd,
		const struct present_surface_desc *desc,
		struct present_shared_surface **out)
{
	struct present_shared_surface *s;
	int r;

	if (!desc || !out)
		return share_err(PRESENT_E_INVALID_ARG, "NULL argument");
	*out = NULL;
	s = surf_new(desc, true, &r);
	if (!s)
		return r;
	if (drm_fd < 0) {
		s->buf_fd = memfd_create("present-surface-buffer",
					 MFD_CLOEXEC | MFD_ALLOW_SEALING);
		if (s->buf_fd < 0 ||
		    ftruncate(s->buf_fd, (off_t)s->desc.size) < 0 ||
		    fcntl(s->buf_fd, F_ADD_SEALS,
			  F_SEAL_SHRINK | F_SEAL_GROW) < 0) {
			r = share_err(share_errno_code(errno),
				      "system-memory buffer: %s",
				      strerror(errno));
			goto fail;
		}
	} else {
		struct drm_mode_create_dumb cd = {
			.width = s->desc.width, .height = s->desc.height,
			.bpp = (uint32_t)share_format_cpp(s->desc.format) * 8,
		};

		if (s->desc.modifier != 0) {
			r = share_err(PRESENT_E_INVALID_ARG,
				      "dumb buffers are linear only");
			goto fail;
		}
		if (drmIoctl(drm_fd, DRM_IOCTL_MODE_CREATE_DUMB, &cd) != 0) {
			r = share_err(errno == ENOSYS || errno == EOPNOTSUPP ?
				      PRESENT_E_NOT_SUPPORTED :
				      share_errno_code(errno),
				      "CREATE_DUMB: %s", strerror(errno));
			goto fail;
		}
		if (handle_get(drm_fd, cd.handle, false)) {
			struct drm_gem_close c = { .handle = cd.handle };

			drmIoctl(drm_fd, DRM_IOCTL_GEM_CLOSE, &c);
			r = PRESENT_E_NO_MEMORY;
			goto fail;
		}
		s->drm_fd = drm_fd;
		s->handle = cd.handle;
		s->own_handle = true;
		s->desc.pitch = cd.pitch;
		s->desc.size = cd.size;
		if (drmPrimeHandleToFD(drm_fd, cd.handle,
				       DRM_CLOEXEC | DRM_RDWR, &s->buf_fd)) {
			r = share_err(errno == ENODEV ? PRESENT_E_DEVICE_REMOVED
				      : PRESENT_E_NOT_SUPPORTED,
				      "PRIME export: %s", strerror(errno));
			goto fail;
		}
	}
fail:
	return surf_publish(s, r, out);
}

PRESENT_API int present_shared_surface_export(int drm_fd, uint32_t handle,
		const struct present_surface_desc *desc,
		struct present_shared_surface **out)
{
	struct present_shared_surface *s;
	int r;

	if (!desc || !out || drm_fd < 0 || !handle)
		return share_err(PRESENT_E_INVALID_ARG, "bad argument");
	*out = NULL;
	s = surf_new(desc, false, &r);
	if (!s)
		return r;
	if (drmPrimeHandleToFD(drm_fd, handle, DRM_CLOEXEC | DRM_RDWR,
			       &s->buf_fd)) {
		int e = errno;

		r = share_err(e == ENOENT || e == EINVAL ?
			      PRESENT_E_INVALID_ARG : e == ENODEV ?
			      PRESENT_E_DEVICE_REMOVED : PRESENT_E_NOT_SUPPORTED,
			      "PRIME export of handle %u: %s", handle,
			      strerror(e));
		goto fail;
	}
	r = handle_get(drm_fd, handle, true);	/* the caller's */
	if (r)
		goto fail;
	s->drm_fd = drm_fd;
	s->handle = handle;
	s->own_handle = true;	/* counted; never closed: user */
fail:
	return surf_publish(s, r, out);
}

PRESENT_API int present_shared_surface_export_fd(int buf_fd,
		const struct present_surface_desc *desc,
		struct present_shared_surface **out)
{
	struct present_shared_surface *s;
	struct stat st;
	int r;

	if (!desc || !out || buf_fd < 0)
		return share_err(PRESENT_E_INVALID_ARG, "bad argument");
	*out = NULL;
	s = surf_new(desc, false, &r);
	if (!s)
		return r;
	s->buf_fd = fcntl(buf_fd, F_DUPFD_CLOEXEC, 3);
	if (s->buf_fd < 0) {
		r = share_err(share_errno_code(errno), "dup: %s",
			      strerror(errno));
		goto fail;
	}
	/* a regular file (memfd) must be big enough; dma-bufs report 0 */
	if (fstat(s->buf_fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size < s->desc.size) {
		r = share_err(PRESENT_E_INVALID_ARG,
			      "buffer fd smaller than the description");
		goto fail;
	}
fail:
	return surf_publish(s, r, out);
}

PRESENT_API int present_shared_surface_token(
		const struct present_shared_surface *s,
		struct present_share_token *tok)
{
	if (!s || !tok)
		return share_err(PRESENT_E_INVALID_ARG, "NULL argument");
	/* our own fd numbers: any holder can re-share */
	tok->pid = (int32_t)getpid();
	tok->fd = s->ctl_fd;
	tok->buf_fd = s->buf_fd;
	tok->reserved = 0;
	tok->cookie = s->ctl->cookie;
	return 0;
}

int share_surface_open(const struct present_share_token *tok, int drm_fd,
		       int *pidfd_io, struct present_shared_surface **out)
{
	struct present_shared_surface *s;
	struct stat st;
	void *map;
	int r;

	if (!tok || !out)
		return share_err(PRESENT_E_INVALID_ARG, "NULL argument");
	*out = NULL;
	s = surf_alloc();
	if (!s)
		return share_err(PRESENT_E_NO_MEMORY, "out of memory");
	r = share_fetch_fd(tok->pid, tok->fd, pidfd_io);
	if (r < 0)
		goto fail;
	s->ctl_fd = r;
	r = share_shm_map(s->ctl_fd, sizeof(struct share_surf_shm),
			  &s->ctl_size, &map);
	if (r)
		goto fail;
	s->ctl = map;
	if (s->ctl->magic != SHARE_SURF_MAGIC || s->ctl->cookie != tok->cookie) {
		r = share_err(PRESENT_E_NOT_FOUND,
			      "stale share token (cookie mismatch)");
		goto fail;
	}
	atomic_thread_fence(memory_order_acquire);
	s->desc = s->ctl->desc;
	r = share_fetch_fd(tok->pid, tok->buf_fd, pidfd_io);
	if (r < 0)
		goto fail;
	s->buf_fd = r;
	if (fstat(s->buf_fd, &st) < 0 || st.st_ino != s->ctl->buf_ino ||
	    st.st_dev != s->ctl->buf_dev) {
		r = share_err(PRESENT_E_NOT_FOUND,
			      "exporter's buffer fd was reused");
		goto fail;
	}
	if (share_desc_check(&s->desc, false)) {
		r = share_err(PRESENT_E_IO, "corrupt surface description");
		goto fail;
	}
	r = surf_import(s, drm_fd);
	if (r)
		goto fail;
	*out = s;
	return 0;
fail:
	share_surface_destroy(s);
	return r;
}

PRESENT_API int present_shared_surface_open(
		const struct present_share_token *tok, int drm_fd,
		struct present_shared_surface **out)
{
	return share_surface_open(tok, drm_fd, NULL, out);
}

PRESENT_API int present_shared_surface_desc(
		const struct present_shared_surface *s,
		struct present_surface_desc *desc)
{
	if (!s || !desc)
		return share_err(PRESENT_E_INVALID_ARG, "NULL argument");
	*desc = s->desc;
	return 0;
}

static bool surf_usable(const struct present_shared_surface *s)
{
	return !s->net || s->owned;
}

PRESENT_API int present_shared_surface_handle(
		const struct present_shared_surface *s, uint32_t *handle)
{
	if (!s || !handle)
		return share_err(PRESENT_E_INVALID_ARG, "NULL argument");
	if (!surf_usable(s))
		return share_err(PRESENT_E_INVALID_ARG,
				 "surface is enqueued: not the caller's");
	if (s->drm_fd < 0 || !s->handle)
		return share_err(PRESENT_E_INVALID_ARG,
				 "surface has no device handle");
	*handle = s->handle;
	return 0;
}

static void buf_sync(int fd, uint64_t flags)
{
	struct dma_buf_sync sync = { .flags = flags };

	/* ENOTTY for memfds: nothing to do */
	while (ioctl(fd, DMA_BUF_IOCTL_SYNC, &sync) < 0 &&
	       (errno == EINTR || errno == EAGAIN))
		;
}

PRESENT_API int present_shared_surface_map(struct present_shared_surface *s,
		void **ptr)
{
	if (!s || !ptr)
		return share_err(PRESENT_E_INVALID_ARG, "NULL argument");
	if (!surf_usable(s))
		return share_err(PRESENT_E_INVALID_ARG,
				 "surface is enqueued: not the caller's");
	if (!s->map) {
		void *p = mmap(NULL, s->desc.size, PROT_READ | PROT_WRITE,
			       MAP_SHARED, s->buf_fd, 0);

		if (p == MAP_FAILED)
			return share_err(errno == EACCES || errno == EINVAL ?
					 PRESENT_E_NOT_SUPPORTED :
					 share_errno_code(errno),
					 "mmap(buffer): %s", strerror(errno));
		s->map = p;
		s->map_size = s->desc.size;
	}
	if (!s->mapped) {
		buf_sync(s->buf_fd, DMA_BUF_SYNC_START | DMA_BUF_SYNC_RW);
		s->mapped = true;
	}
	*ptr = s->map;
	return 0;
}

PRESENT_API int present_shared_surface_unmap(struct present_shared_surface *s)
{
	if (!s || !s->mapped)
		return share_err(PRESENT_E_INVALID_ARG, "not mapped");
	buf_sync(s->buf_fd, DMA_BUF_SYNC_END | DMA_BUF_SYNC_RW);
	s->mapped = false;
	return 0;
}

PRESENT_API void present_shared_surface_close(struct present_shared_surface *s)
{
	if (!s || s->net)
		return;
	share_surface_destroy(s);
}

PRESENT_API int present_keyed_mutex_acquire(struct present_shared_surface *s,
		uint64_t key, uint32_t timeout_ms)
{
	int r;

	if (!s)
		return share_err(PRESENT_E_INVALID_ARG, "NULL surface");
	if (s->km_held)
		return share_err(PRESENT_E_INVALID_ARG,
				 "keyed mutex already held by this object");
	r = share_km_acquire(&s->ctl->km, key, timeout_ms);
	if (r < 0)
		return share_err(r, "keyed mutex: key %llu not released "
				 "within %u ms", (unsigned long long)key,
				 timeout_ms);
	s->km_held = true;
	return r;
}

PRESENT_API int present_keyed_mutex_release(struct present_shared_surface *s,
		uint64_t key)
{
	if (!s)
		return share_err(PRESENT_E_INVALID_ARG, "NULL surface");
	if (!s->km_held)
		return share_err(PRESENT_E_INVALID_ARG,
				 "keyed mutex not held by this object");
	s->km_held = false;
	share_km_release(&s->ctl->km, key);
	return 0;
}
