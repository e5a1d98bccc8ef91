/* SPDX-License-Identifier: MIT */
/*
 * libpresent sharing: share tokens, keyed mutex, surface queue.
 *
 * The DXGI / Direct3D 9Ex surface-sharing model on Linux:
 *
 *  - A *shared surface* is one buffer (a DRM GEM object exported as a
 *    dma-buf, or for device-less use a memfd) plus a small shared control
 *    block (a sealed memfd) holding its description and its keyed mutex.
 *    Shared surfaces are single-allocation: one mip level, one array layer.
 *  - A *share token* names a shared surface (or a surface queue) across
 *    processes.  It is {pid, fd numbers of the control block and of the
 *    buffer in that process, random 64-bit cookie}.  The importer fetches
 *    those fds with pidfd_open(2) + pidfd_getfd(2) (Linux >= 5.6), then
 *    checks the cookie and the buffer's inode, so a stale or forged token
 *    fails with PRESENT_E_NOT_FOUND instead of opening the wrong object.
 *    Trade-offs of this broker-less mechanism: the object must still be
 *    open in the live process that handed the token out *while the token
 *    is opened* (any holder, exporter or importer, can hand out a fresh
 *    token); once opened, the importer holds its own references and the
 *    buffer lives until the last handle in any process is closed (dma-buf
 *    reference counting); and the importer needs ptrace-attach rights on
 *    the token's process (same uid without Yama restrictions, or
 *    CAP_SYS_PTRACE), otherwise opening fails with PRESENT_E_ACCESS.
 *    Tokens are plain data: pass them over any channel
 *    (present_share_token_to_string()).
 *  - A *keyed mutex* (IDXGIKeyedMutex) lives in every shared surface's
 *    control block: a futex-based lock on MAP_SHARED memory, so it works
 *    across processes and devices.
 *  - A *surface queue* (the D3D9Ex/DXGI interop helper's ISurfaceQueue) is
 *    a FIFO ring in shared memory passing a fixed set of shared surfaces
 *    from a producer to a consumer, with per-entry metadata.
 *
 * Threads: objects may be used from several threads only with external
 * locking, except the keyed mutex and the queue's shared ring, which are
 * what synchronises processes.  Errors are PRESENT_E_* codes (present/base.h);
 * present_share_last_error() has the detail of the calling thread's last
 * failure in this module.
 */
#ifndef PRESENT_SHARE_H
#define PRESENT_SHARE_H

#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* timeout_ms value: wait forever. */
#define PRESENT_INFINITE	0xffffffffu

/* ------------------------------------------------------------------ */
/* share tokens                                                       */

/*
 * A share token.  Plain data, valid in any process of the same PID
 * namespace while the object is open in the process that handed it out.
 */
struct present_share_token {
	uint64_t cookie;	/* random, checked on open */
	int32_t pid;		/* process handing the object out */
	int32_t fd;		/* control block fd number in that process */
	int32_t buf_fd;		/* buffer fd number there (-1 for queues) */
	int32_t reserved;	/* 0 */
};

/* Buffer size that always fits present_share_token_to_string() output. */
#define PRESENT_SHARE_TOKEN_STRLEN	64

/**
 * present_share_token_to_string() - format as "pshare:PID:FD:BUFFD:COOKIE"
 * @tok: token
 * @buf: output, NUL-terminated
 * @len: size of @buf (PRESENT_SHARE_TOKEN_STRLEN is enough)
 *
 * Returns 0, PRESENT_E_INVALID_ARG (NULL) or PRESENT_E_MORE_DATA.
 */
PRESENT_API int present_share_token_to_string(
	const struct present_share_token *tok, char *buf, size_t len);

/**
 * present_share_token_from_string() - parse present_share_token_to_string()
 * @str: "pshare:PID:FD:BUFFD:COOKIE" (COOKIE in hex, BUFFD may be -1)
 * @tok: output
 *
 * Returns 0 or PRESENT_E_INVALID_ARG.
 */
PRESENT_API int present_share_token_from_string(const char *str,
		struct present_share_token *tok);

/**
 * present_share_last_error() - detail of this thread's last sharing error
 *
 * Returns a thread-local string ("" when none), valid until the next failing
 * call of this module on the same thread.
 */
PRESENT_API const char *present_share_last_error(void);

/* ------------------------------------------------------------------ */
/* shared surfaces                                                    */

/* Description of a shared surface (single allocation). */
struct present_surface_desc {
	uint32_t width, height;	/* pixels, 1..16384 */
	uint32_t format;	/* DRM fourcc (DRM_FORMAT_XRGB8888, ...) */
	uint32_t pitch;		/* bytes per row; 0 = let create() choose */
	uint64_t size;		/* bytes; 0 = let create() choose */
	uint64_t modifier;	/* DRM format modifier (0 = linear) */
	uint32_t mip_levels;	/* must be 1 (0 = full chain: refused) */
	uint32_t array_layers;	/* must be 1 */
};

struct present_shared_surface;

/**
 * present_shared_surface_create() - allocate a new shared surface
 * @drm_fd: DRM device fd to allocate a dumb buffer on, or -1 for a
 *          device-less system-memory surface (memfd)
 * @desc: description; pitch and size are computed when 0 (and the
 *        allocator's values win on a device)
 * @out: new surface
 *
 * Returns 0; PRESENT_E_INVALID_ARG for a bad description (unknown format,
 * size out of range, mip_levels or array_layers other than 1);
 * PRESENT_E_NO_MEMORY; PRESENT_E_NOT_SUPPORTED when the device cannot
 * allocate or export dumb buffers; PRESENT_E_DEVICE_REMOVED when the device
 * was unplugged; PRESENT_E_IO.
 *
 * Device removal: surfaces of a removed device stay valid objects (close
 * them as usual); mappings made before the removal keep working, other
 * processes' imports keep the buffer alive, and any call needing the
 * device returns PRESENT_E_DEVICE_REMOVED.
 */
PRESENT_API int present_shared_surface_create(int drm_fd,
		const struct present_surface_desc *desc,
		struct present_shared_surface **out);

/**
 * present_shared_surface_export() - share an existing GEM buffer
 * @drm_fd: device the buffer lives on
 * @handle: its GEM handle (stays owned by the caller)
 * @desc: its description (pitch and size required)
 * @out: new surface, on @drm_fd with @handle
 *
 * Exports the buffer as a dma-buf (PRIME) and creates the control block.
 * Returns 0, PRESENT_E_INVALID_ARG (bad description, multi-mip or
 * multi-layer, unknown handle), PRESENT_E_NOT_SUPPORTED (no PRIME export),
 * PRESENT_E_NO_MEMORY, PRESENT_E_IO.
 */
PRESENT_API int present_shared_surface_export(int drm_fd, uint32_t handle,
		const struct present_surface_desc *desc,
		struct present_shared_surface **out);

/**
 * present_shared_surface_export_fd() - share a buffer given as an fd
 * @buf_fd: a dma-buf or memfd of at least desc->size bytes (duplicated;
 *          the caller keeps its fd)
 * @desc: its description (pitch and size required)
 * @out: new surface, without a device
 *
 * Returns 0, PRESENT_E_INVALID_ARG, PRESENT_E_NO_MEMORY, PRESENT_E_IO.
 */
PRESENT_API int present_shared_surface_export_fd(int buf_fd,
		const struct present_surface_desc *desc,
		struct present_shared_surface **out);

/**
 * present_shared_surface_token() - the surface's share token
 * @s: surface
 * @tok: output
 *
 * Any process holding the surface (exporter or importer) can hand out a
 * token; it names that process's fds, so it stays valid while that object
 * is open there.  Returns 0 or PRESENT_E_INVALID_ARG.
 */
PRESENT_API int present_shared_surface_token(
		const struct present_shared_surface *s,
		struct present_share_token *tok);

/**
 * present_shared_surface_open() - import a shared surface from its token
 * @tok: token from any process holding the surface
 * @drm_fd: device to import the buffer into (PRIME), or -1 for CPU access
 *          only
 * @out: new surface
 *
 * Returns 0; PRESENT_E_NOT_FOUND when the token's process or its object is
 * gone or the token does not match; PRESENT_E_ACCESS without the right to
 * take that process's fds; PRESENT_E_NOT_SUPPORTED when @drm_fd cannot
 * import the buffer (e.g. a device-less surface); PRESENT_E_DEVICE_REMOVED
 * when @drm_fd's device was unplugged; PRESENT_E_INVALID_ARG;
 * PRESENT_E_NO_MEMORY; PRESENT_E_IO.
 *
 * GEM handles are per DRM file: opening on the fd that already holds the
 * buffer (e.g. the exporter's own fd) gives the same handle.  The library
 * reference-counts the handles it knows (created, exported or imported
 * through it) and closes a handle only with the last such surface, never
 * one passed to present_shared_surface_export().  A handle the application
 * obtained on its own for the same buffer on the same fd is not known and
 * would be closed with the imported surface: import on another fd then.
 */
PRESENT_API int present_shared_surface_open(
		const struct present_share_token *tok, int drm_fd,
		struct present_shared_surface **out);

/**
 * present_shared_surface_desc() - description of a surface
 * Returns 0 or PRESENT_E_INVALID_ARG.
 */
PRESENT_API int present_shared_surface_desc(
		const struct present_shared_surface *s,
		struct present_surface_desc *desc);

/**
 * present_shared_surface_handle() - GEM handle on the surface's device
 * @s: surface
 * @handle: output
 *
 * Returns 0; PRESENT_E_INVALID_ARG without a device, or for a surface-queue
 * surface the caller does not currently own (enqueued, or not yet dequeued).
 */
PRESENT_API int present_shared_surface_handle(
		const struct present_shared_surface *s, uint32_t *handle);

/**
 * present_shared_surface_map() - CPU mapping of the whole buffer
 * @s: surface
 * @ptr: output, valid until present_shared_surface_close()
 *
 * Maps the dma-buf (or memfd) read-write and begins CPU access
 * (DMA_BUF_IOCTL_SYNC start); call present_shared_surface_unmap() when done
 * touching the pixels.  Returns 0; PRESENT_E_INVALID_ARG for a queue
 * surface the caller does not own; PRESENT_E_NOT_SUPPORTED when the buffer
 * cannot be mapped; PRESENT_E_IO.
 */
PRESENT_API int present_shared_surface_map(struct present_shared_surface *s,
		void **ptr);

/**
 * present_shared_surface_unmap() - end CPU access started by map()
 * Returns 0 or PRESENT_E_INVALID_ARG (not mapped).
 */
PRESENT_API int present_shared_surface_unmap(struct present_shared_surface *s);

/**
 * present_shared_surface_close() - drop this process's reference
 *
 * Releases the keyed mutex if this object holds it (with its current key),
 * closes the mapping, the GEM handle the library created or imported, and
 * the fds.  The buffer lives on while any other process holds it.
 * Surfaces owned by a surface queue are closed with the queue: closing them
 * here does nothing.  NULL is ignored.
 */
PRESENT_API void present_shared_surface_close(struct present_shared_surface *s);

/* ------------------------------------------------------------------ */
/* keyed mutex (IDXGIKeyedMutex)                                      */

/*
 * Positive (success) return of present_keyed_mutex_acquire(): acquired, but
 * the previous holder's process died holding it (WAIT_ABANDONED); the
 * surface contents are undefined.  A dead holder counts as released with
 * the key it acquired with; waiters notice within about 100 ms.
 */
#define PRESENT_KEYED_MUTEX_ABANDONED	1

/**
 * present_keyed_mutex_acquire() - AcquireSync(key, timeout)
 * @s: shared surface (any process's object for it)
 * @key: acquire only when the last release used this key; the mutex of a
 *       new surface starts released with key 0
 * @timeout_ms: 0 = try once, PRESENT_INFINITE = wait forever
 *
 * Blocks while the mutex is held or released with another key.  Returns 0;
 * PRESENT_KEYED_MUTEX_ABANDONED (acquired, see above); PRESENT_E_TIMEOUT when not acquired in time; PRESENT_E_INVALID_ARG when
 * this object already holds it (no recursion).
 */
PRESENT_API int present_keyed_mutex_acquire(struct present_shared_surface *s,
		uint64_t key, uint32_t timeout_ms);

/**
 * present_keyed_mutex_release() - ReleaseSync(key)
 * @s: the object that acquired the mutex
 * @key: key the next acquirer must use
 *
 * Returns 0 or PRESENT_E_INVALID_ARG when this object does not hold it.
 */
PRESENT_API int present_keyed_mutex_release(struct present_shared_surface *s,
		uint64_t key);

/* ------------------------------------------------------------------ */
/* surface queue (ISurfaceQueue / ISurfaceProducer / ISurfaceConsumer)  */

#define PRESENT_SURFACE_QUEUE_MAX_SURFACES	16
#define PRESENT_SURFACE_QUEUE_MAX_METADATA	65536

/* Enqueue/flush flag: do not wait for the GPU to finish the surface. */
#define PRESENT_SURFACE_QUEUE_DO_NOT_WAIT	0x1u

struct present_surface_queue_desc {
	uint32_t width, height;
	uint32_t format;	/* DRM fourcc */
	uint32_t num_surfaces;	/* 1..PRESENT_SURFACE_QUEUE_MAX_SURFACES */
	uint32_t metadata_size;	/* max bytes per entry, 0..MAX_METADATA */
	uint32_t flags;		/* 0 */
};

struct present_surface_queue;

/**
 * present_surface_queue_create() - root queue with its surfaces
 * @drm_fd: device creating the surfaces (dumb buffers), or -1 for
 *          system-memory surfaces
 * @desc: description
 * @out: new queue; it starts *full* (every surface is queued, in index
 *       order, without metadata), like the DXGI helper's root queue
 *
 * The queue and its clones form a network sharing the same surfaces; a
 * surface is either in exactly one queue of the network or owned by the
 * process that dequeued it.  Returns 0, PRESENT_E_INVALID_ARG,
 * PRESENT_E_NOT_SUPPORTED, PRESENT_E_NO_MEMORY, PRESENT_E_IO.
 */
PRESENT_API int present_surface_queue_create(int drm_fd,
		const struct present_surface_queue_desc *desc,
		struct present_surface_queue **out);

/**
 * present_surface_queue_clone() - another queue over the same surfaces
 * @q: any queue of the network
 * @metadata_size: max metadata bytes of the new queue
 * @out: new queue, *empty*, using @q's device in this process
 *
 * Returns 0, PRESENT_E_INVALID_ARG, PRESENT_E_NO_MEMORY, PRESENT_E_IO.
 */
PRESENT_API int present_surface_queue_clone(struct present_surface_queue *q,
		uint32_t metadata_size, struct present_surface_queue **out);

/**
 * present_surface_queue_token() - share token of a queue
 * Returns 0 or PRESENT_E_INVALID_ARG.
 */
PRESENT_API int present_surface_queue_token(
		const struct present_surface_queue *q,
		struct present_share_token *tok);

/**
 * present_surface_queue_open() - open a queue in another process/device
 * @tok: queue token
 * @drm_fd: this side's device (surfaces are imported into it), or -1
 * @out: new queue object
 *
 * The surfaces are fetched from the process that created them or, once it
 * is gone, from any other live process holding the network (each process
 * records its fds in the queue block, up to 8).  Queues of the same network
 * opened on the same @drm_fd in one process share their surface objects.
 * Errors as present_shared_surface_open().
 */
PRESENT_API int present_surface_queue_open(
		const struct present_share_token *tok, int drm_fd,
		struct present_surface_queue **out);

/**
 * present_surface_queue_enqueue() - producer: hand a surface on
 * @q: queue
 * @s: a surface this process dequeued from a queue of the same network
 *     (and the same device); after the call it no longer belongs to the
 *     caller: its handle and mapping are refused until dequeued again
 * @metadata: optional (NULL with @metadata_size 0)
 * @metadata_size: at most the queue's metadata size
 * @flags: 0 (wait until the surface's rendering is done, i.e. its dma-buf
 *         write fences signal, then commit) or
 *         PRESENT_SURFACE_QUEUE_DO_NOT_WAIT (commit only if ready now)
 *
 * Entries are committed in enqueue order.  Returns 0 when committed;
 * PRESENT_E_WAS_STILL_DRAWING with DO_NOT_WAIT when the surface is enqueued
 * but still pending (commit it later with present_surface_queue_flush());
 * PRESENT_E_INVALID_ARG (surface not owned, wrong network, metadata too
 * large); PRESENT_E_IO.
 */
PRESENT_API int present_surface_queue_enqueue(struct present_surface_queue *q,
		struct present_shared_surface *s, const void *metadata,
		uint32_t metadata_size, uint32_t flags);

/**
 * present_surface_queue_flush() - commit pending DO_NOT_WAIT enqueues
 * @q: queue
 * @flags: 0 (block until every pending surface is committed) or
 *         PRESENT_SURFACE_QUEUE_DO_NOT_WAIT (commit the ready ones, in
 *         order, without blocking)
 * @pending: optional, surfaces still pending afterwards
 *
 * Returns 0 when something was committed or nothing was pending;
 * PRESENT_E_WAS_STILL_DRAWING when nothing could be committed.
 */
PRESENT_API int present_surface_queue_flush(struct present_surface_queue *q,
		uint32_t flags, uint32_t *pending);

/**
 * present_surface_queue_dequeue() - consumer: take the oldest surface
 * @q: queue
 * @out: the surface, owned by the caller until enqueued again (do not
 *       close it: it belongs to the queue network)
 * @metadata: optional buffer for the entry's metadata
 * @metadata_size: in: size of @metadata; out: bytes of metadata of the
 *                 entry (0 when the enqueue had none).  May be NULL when
 *                 @metadata is NULL.
 * @timeout_ms: 0 = do not block, PRESENT_INFINITE = forever
 *
 * Returns 0; PRESENT_E_WAS_STILL_DRAWING when the queue is empty and
 * @timeout_ms is 0; PRESENT_E_TIMEOUT when it stayed empty for @timeout_ms;
 * PRESENT_E_MORE_DATA when @metadata is too small (nothing is dequeued,
 * *@metadata_size says how much is needed); PRESENT_E_INVALID_ARG.
 */
PRESENT_API int present_surface_queue_dequeue(struct present_surface_queue *q,
		struct present_shared_surface **out, void *metadata,
		uint32_t *metadata_size, uint32_t timeout_ms);

/**
 * present_surface_queue_desc() - the queue's description
 * (metadata_size is this queue's own).  Returns 0 or PRESENT_E_INVALID_ARG.
 */
PRESENT_API int present_surface_queue_desc(
		const struct present_surface_queue *q,
		struct present_surface_queue_desc *desc);

/**
 * present_surface_queue_surface_index() - index (0..num_surfaces-1) of a
 * queue surface in its network, or PRESENT_E_INVALID_ARG.
 */
PRESENT_API int present_surface_queue_surface_index(
		const struct present_surface_queue *q,
		const struct present_shared_surface *s);

/**
 * present_surface_queue_close() - drop a queue object
 *
 * Pending DO_NOT_WAIT entries are committed first (blocking).  The
 * network's surfaces in this process are closed with its last queue object.
 * NULL is ignored.
 */
PRESENT_API void present_surface_queue_close(struct present_surface_queue *q);

#ifdef __cplusplus
}
#endif
#endif /* PRESENT_SHARE_H */
