/* SPDX-License-Identifier: MIT */
/*
 * libpresent sharing internals: futex lock and keyed mutex on shared
 * memory, control-block memfds, pidfd fd fetching, errors.
 */
#ifndef PRESENT_SHARE_INTERNAL_H
#define PRESENT_SHARE_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "present.h"

/* Internal: not part of libpresent.so's ABI. */
#pragma GCC visibility push(hidden)

#define SHARE_SURF_MAGIC	0x53485350u	/* "PSHS" */
#define SHARE_QUEUE_MAGIC	0x31515350u	/* "PSQ1" */
#define SHARE_VERSION		1u

/* ---- errors (thread-local detail string) ---- */
int share_err(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Map an errno value to a PRESENT_E_* code. */
int share_errno_code(int err);

/* ---- time ---- */
/* Absolute CLOCK_MONOTONIC deadline for @timeout_ms (INFINITE: none). */
struct share_deadline {
	bool infinite;
	struct timespec ts;
};
void share_deadline_init(struct share_deadline *d, uint32_t timeout_ms);

/* Has process @pid exited (zombies count as dead)?  Uses a pidfd. */
bool share_pid_dead(pid_t pid);

/* ---- futexes on MAP_SHARED memory (never FUTEX_PRIVATE) ---- */
/* 0 woken/value changed, PRESENT_E_TIMEOUT at the deadline. */
int share_futex_wait(_Atomic uint32_t *addr, uint32_t val,
		     const struct share_deadline *d);
void share_futex_wake(_Atomic uint32_t *addr, int n);

/*
 * Futex mutex for short sections: the word is 0 or the holder's pid (plus a
 * waiters bit); a holder that died is detected (pidfd) and taken over.
 */
void share_lock(_Atomic uint32_t *l);
void share_unlock(_Atomic uint32_t *l);

/* ---- keyed mutex state (in shared memory) ---- */
struct share_km {
	_Atomic uint32_t lock;	/* protects held/key/owner */
	_Atomic uint32_t seq;	/* bumped on every release (futex word) */
	uint32_t held;
	int32_t owner;		/* pid of the holder (abandonment check) */
	uint64_t key;		/* key of the last release */
	uint32_t abandoned;	/* the holder died holding it */
	uint32_t pad;
};
void share_km_init(struct share_km *km);
/* 0, PRESENT_KEYED_MUTEX_ABANDONED, PRESENT_E_TIMEOUT */
int share_km_acquire(struct share_km *km, uint64_t key, uint32_t timeout_ms);
void share_km_release(struct share_km *km, uint64_t key);

/* ---- control blocks ---- */
/*
 * New sealed (no grow/shrink) memfd of @size bytes mapped shared: returns
 * the fd and sets *map, or a PRESENT_E_* code.
 */
int share_shm_create(const char *name, size_t size, void **map);
/* Map an fd received from another process; checks its size >= @min. */
int share_shm_map(int fd, size_t min, size_t *size, void **map);
uint64_t share_cookie(void);

/*
 * The fd @tok->fd of process @tok->pid, duplicated into this one
 * (pidfd_open + pidfd_getfd), or a PRESENT_E_* code.  @pidfd_io: when not
 * NULL, *pidfd_io is reused if >= 0, else set to the new pidfd (caller
 * closes); NULL: opened and closed here.
 */
int share_fetch_fd(pid_t pid, int fd, int *pidfd_io);

/* ---- formats ---- */
/* Bytes per pixel of a supported single-plane fourcc, 0 if unsupported. */
int share_format_cpp(uint32_t format);
/* Validate a description; fills pitch/size when 0 if @fill. */
int share_desc_check(struct present_surface_desc *d, bool fill);

/* ---- surfaces (share_surface.c), used by the queue ---- */
struct share_surf_shm;

struct present_shared_surface {
	int ctl_fd;			/* control block memfd */
	struct share_surf_shm *ctl;
	size_t ctl_size;
	int buf_fd;			/* dma-buf or memfd */
	struct present_surface_desc desc;
	int drm_fd;			/* -1: none */
	uint32_t handle;		/* GEM handle on drm_fd, 0: none */
	bool own_handle;		/* close it on close */
	void *map;
	size_t map_size;
	bool mapped;			/* CPU access begun */
	bool km_held;
	/* surface-queue bookkeeping */
	void *net;			/* owning queue network, or NULL */
	int index;
	bool owned;			/* dequeued by this process */
};

/* Import helper shared with the queue: opens @tok on @drm_fd. */
int share_surface_open(const struct present_share_token *tok, int drm_fd,
		       int *pidfd_io, struct present_shared_surface **out);
void share_surface_destroy(struct present_shared_surface *s);

#pragma GCC visibility pop

#endif
