// SPDX-License-Identifier: MIT
/*
 * libpresent sharing: futexes and the keyed mutex on shared memory, memfd
 * control blocks, pidfd fd fetching, share-token strings, errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/futex.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "fourcc.h"
#include "share_internal.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

/* ---------------- errors ---------------- */

static _Thread_local char share_errbuf[256];

int share_err(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(share_errbuf, sizeof(share_errbuf), fmt, ap);
	va_end(ap);
	return code;
}

PRESENT_API const char *present_share_last_error(void)
{
	return share_errbuf;
}

int share_errno_code(int err)
{
	switch (err) {
	case 0:
		return PRESENT_OK;
	case ENOMEM:
	case EMFILE:
	case ENFILE:
	case ENOSPC:
		return PRESENT_E_NO_MEMORY;
	case EINVAL:
	case EBADF:
		return PRESENT_E_INVALID_ARG;
	case ESRCH:
	case ENOENT:
		return PRESENT_E_NOT_FOUND;
	case EPERM:
	case EACCES:
		return PRESENT_E_ACCESS;
	case ENOSYS:
	case ENOTTY:
	case EOPNOTSUPP:
		return PRESENT_E_NOT_SUPPORTED;
	case ENODEV:	/* DRM device unplugged */
		return PRESENT_E_DEVICE_REMOVED;
	case ETIMEDOUT:
		return PRESENT_E_TIMEOUT;
	case EBUSY:
		return PRESENT_E_BUSY;
	default:
		return PRESENT_E_IO;
	}
}

/* ---------------- time and futexes ---------------- */

void share_deadline_init(struct share_deadline *d, uint32_t timeout_ms)
{
	d->infinite = timeout_ms == PRESENT_INFINITE;
	clock_gettime(CLOCK_MONOTONIC, &d->ts);
	if (d->infinite)
		return;
	d->ts.tv_sec += timeout_ms / 1000;
	d->ts.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
	if (d->ts.tv_nsec >= 1000000000L) {
		d->ts.tv_sec++;
		d->ts.tv_nsec -= 1000000000L;
	}
}

static bool deadline_passed(const struct share_deadline *d)
{
	struct timespec now;

	if (d->infinite)
		return false;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > d->ts.tv_sec ||
	       (now.tv_sec == d->ts.tv_sec && now.tv_nsec >= d->ts.tv_nsec);
}

int share_futex_wait(_Atomic uint32_t *addr, uint32_t val,
		     const struct share_deadline *d)
{
	long r;

	if (deadline_passed(d))
		return PRESENT_E_TIMEOUT;
	/*
	 * FUTEX_WAIT_BITSET takes an absolute CLOCK_MONOTONIC timeout.  Not
	 * FUTEX_PRIVATE_FLAG: the word lives in a MAP_SHARED memfd page seen
	 * by other processes.
	 */
	r = syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAIT_BITSET, val,
		    d->infinite ? NULL : &d->ts, NULL, FUTEX_BITSET_MATCH_ANY);
	if (r == -1 && errno == ETIMEDOUT)
		return PRESENT_E_TIMEOUT;
	return 0;	/* woken, EAGAIN (value changed) or EINTR: recheck */
}

void share_futex_wake(_Atomic uint32_t *addr, int n)
{
	syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAKE, n, NULL, NULL, 0);
}

/*
 * The lock word holds the holder's pid (| SHARE_LOCK_WAITERS), so a waiter
 * can tell when the holder's process died inside the short locked section
 * and take the lock over instead of hanging forever.
 */
#define SHARE_LOCK_WAITERS 0x80000000u


void share_lock(_Atomic uint32_t *l)
{
	const uint32_t me = (uint32_t)getpid();

	for (;;) {
		struct timespec slice = { 0, 100000000L };	/* 100 ms */
		uint32_t c = 0;
		long r;

		if (atomic_compare_exchange_strong(l, &c, me))
			return;
		if (!(c & SHARE_LOCK_WAITERS)) {
			uint32_t w = c | SHARE_LOCK_WAITERS;

			if (!atomic_compare_exchange_strong(l, &c, w))
				continue;
			c = w;
		}
		r = syscall(SYS_futex, (uint32_t *)l, FUTEX_WAIT, c, &slice,
			    NULL, 0);
		if (r == -1 && errno == ETIMEDOUT) {
			uint32_t holder = c & ~SHARE_LOCK_WAITERS;

			/* holder died in the section: take it over */
			if (holder != me && holder != 0 &&
			    share_pid_dead((pid_t)holder))
				atomic_compare_exchange_strong(l, &c, 0);
		}
	}
}

void share_unlock(_Atomic uint32_t *l)
{
	if (atomic_exchange(l, 0) & SHARE_LOCK_WAITERS)
		share_futex_wake(l, INT_MAX);
}

/* ---------------- keyed mutex ---------------- */

void share_km_init(struct share_km *km)
{
	atomic_store(&km->lock, 0);
	atomic_store(&km->seq, 0);
	km->held = 0;
	km->owner = 0;
	km->key = 0;	/* starts released with key 0 */
	km->abandoned = 0;
}

/* Has process @pid exited (a zombie counts as dead)? */
bool share_pid_dead(pid_t pid)
{
	struct pollfd p = { .events = POLLIN };
	bool dead;

	p.fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (p.fd < 0)
		return errno == ESRCH;
	/* a pidfd polls readable once the process has exited */
	dead = poll(&p, 1, 0) > 0;
	close(p.fd);
	return dead;
}

/* Holder died without releasing?  (caller holds km->lock) */
static void km_check_abandoned(struct share_km *km)
{
	if (km->held && km->owner > 0 && km->owner != (int32_t)getpid() &&
	    share_pid_dead(km->owner)) {
		/* released with the key it was acquired with */
		km->held = 0;
		km->owner = 0;
		km->abandoned = 1;
		atomic_fetch_add(&km->seq, 1);
		share_futex_wake(&km->seq, INT_MAX);
	}
}

int share_km_acquire(struct share_km *km, uint64_t key, uint32_t timeout_ms)
{
	struct share_deadline d;

	share_deadline_init(&d, timeout_ms);
	for (;;) {
		uint32_t seq;

		struct share_deadline slice;
		bool held;

		share_lock(&km->lock);
		km_check_abandoned(km);
		if (!km->held && km->key == key) {
			int r = km->abandoned ? PRESENT_KEYED_MUTEX_ABANDONED : 0;

			km->held = 1;
			km->owner = (int32_t)getpid();
			km->abandoned = 0;
			share_unlock(&km->lock);
			return r;
		}
		held = km->held;
		seq = atomic_load(&km->seq);
		share_unlock(&km->lock);
		if (timeout_ms == 0)
			return PRESENT_E_TIMEOUT;
		/* while held, wake up every 100 ms to notice a dead holder */
		share_deadline_init(&slice, held ? 100 : PRESENT_INFINITE);
		if (!d.infinite && (slice.infinite ||
		    d.ts.tv_sec < slice.ts.tv_sec ||
		    (d.ts.tv_sec == slice.ts.tv_sec &&
		     d.ts.tv_nsec < slice.ts.tv_nsec)))
			slice = d;
		if (share_futex_wait(&km->seq, seq, &slice) ==
		    PRESENT_E_TIMEOUT && deadline_passed(&d))
			return PRESENT_E_TIMEOUT;
	}
}

void share_km_release(struct share_km *km, uint64_t key)
{
	share_lock(&km->lock);
	km->key = key;
	km->held = 0;
	km->owner = 0;
	atomic_fetch_add(&km->seq, 1);
	share_unlock(&km->lock);
	share_futex_wake(&km->seq, INT_MAX);
}

/* ---------------- control blocks ---------------- */

int share_shm_create(const char *name, size_t size, void **map)
{
	int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	void *p;

	if (fd < 0)
		return share_err(share_errno_code(errno), "memfd_create: %s",
				 strerror(errno));
	if (ftruncate(fd, (off_t)size) < 0) {
		int e = errno;

		close(fd);
		return share_err(share_errno_code(e), "ftruncate: %s",
				 strerror(e));
	}
	/* importers can neither shrink it (SIGBUS) nor grow it */
	if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) < 0) {
		int e = errno;

		close(fd);
		return share_err(PRESENT_E_IO, "F_ADD_SEALS: %s", strerror(e));
	}
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		int e = errno;

		close(fd);
		return share_err(share_errno_code(e), "mmap: %s", strerror(e));
	}
	*map = p;
	return fd;
}

int share_shm_map(int fd, size_t min, size_t *size, void **map)
{
	struct stat st;
	int seals;
	void *p;

	if (fstat(fd, &st) < 0)
		return share_err(share_errno_code(errno), "fstat: %s",
				 strerror(errno));
	seals = fcntl(fd, F_GET_SEALS);
	if (!S_ISREG(st.st_mode) || (size_t)st.st_size < min || seals < 0 ||
	    !(seals & F_SEAL_SHRINK))
		return share_err(PRESENT_E_NOT_FOUND,
				 "token does not name a libpresent object");
	p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 fd, 0);
	if (p == MAP_FAILED)
		return share_err(share_errno_code(errno), "mmap: %s",
				 strerror(errno));
	*size = (size_t)st.st_size;
	*map = p;
	return 0;
}

uint64_t share_cookie(void)
{
	uint64_t c = 0;

	while (c == 0) {
		if (getrandom(&c, sizeof(c), 0) != sizeof(c)) {
			struct timespec ts;

			clock_gettime(CLOCK_MONOTONIC, &ts);
			c = ((uint64_t)ts.tv_nsec << 32) ^ (uint64_t)ts.tv_sec ^
			    ((uint64_t)getpid() << 16) ^ (uint64_t)(uintptr_t)&c;
		}
	}
	return c;
}

int share_fetch_fd(pid_t pid, int fd, int *pidfd_io)
{
	int pidfd = pidfd_io ? *pidfd_io : -1;
	int r, e;

	if (pid <= 0 || fd < 0)
		return share_err(PRESENT_E_INVALID_ARG, "bad token");
	if (pidfd < 0) {
		pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
		if (pidfd < 0) {
			e = errno;
			return share_err(e == ESRCH ? PRESENT_E_NOT_FOUND :
					 share_errno_code(e),
					 "pidfd_open(%d): %s", (int)pid,
					 strerror(e));
		}
		if (pidfd_io)
			*pidfd_io = pidfd;
	}
	r = (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
	e = errno;
	if (!pidfd_io)
		close(pidfd);
	if (r < 0)
		return share_err(e == EBADF || e == ESRCH ? PRESENT_E_NOT_FOUND :
				 share_errno_code(e),
				 "pidfd_getfd(pid %d, fd %d): %s", (int)pid, fd,
				 strerror(e));
	return r;
}

/* ---------------- formats and descriptions ---------------- */

/* The formats a shared surface may have; bytes per pixel from the table. */
int share_format_cpp(uint32_t format)
{
	static const uint32_t shareable[] = {
		DRM_FORMAT_XRGB8888, DRM_FORMAT_ARGB8888, DRM_FORMAT_XBGR8888,
		DRM_FORMAT_ABGR8888, DRM_FORMAT_RGBX8888, DRM_FORMAT_RGBA8888,
		DRM_FORMAT_BGRX8888, DRM_FORMAT_BGRA8888,
		DRM_FORMAT_XRGB2101010, DRM_FORMAT_ARGB2101010,
		DRM_FORMAT_XBGR2101010, DRM_FORMAT_ABGR2101010,
		DRM_FORMAT_RGB565, DRM_FORMAT_BGR565,
		DRM_FORMAT_XBGR16161616F, DRM_FORMAT_ABGR16161616F,
		DRM_FORMAT_XBGR16161616, DRM_FORMAT_ABGR16161616,
		DRM_FORMAT_R8,
	};

	for (size_t i = 0; i < sizeof(shareable) / sizeof(shareable[0]); i++)
		if (shareable[i] == format)
			return (int)fourcc_cpp(format);
	return 0;
}

int share_desc_check(struct present_surface_desc *d, bool fill)
{
	int cpp;

	if (!d)
		return share_err(PRESENT_E_INVALID_ARG, "NULL description");
	if (d->mip_levels != 1 || d->array_layers != 1)
		return share_err(PRESENT_E_INVALID_ARG,
				 "shared surfaces are single-allocation: "
				 "mip_levels %u, array_layers %u (want 1, 1)",
				 d->mip_levels, d->array_layers);
	if (d->width == 0 || d->height == 0 || d->width > 16384 ||
	    d->height > 16384)
		return share_err(PRESENT_E_INVALID_ARG, "bad size %ux%u",
				 d->width, d->height);
	cpp = share_format_cpp(d->format);
	if (!cpp)
		return share_err(PRESENT_E_INVALID_ARG,
				 "unsupported format 0x%08x", d->format);
	if (fill && d->pitch == 0)
		d->pitch = (d->width * (uint32_t)cpp + 63u) & ~63u;
	if (d->pitch < d->width * (uint32_t)cpp)
		return share_err(PRESENT_E_INVALID_ARG, "pitch %u < %u",
				 d->pitch, d->width * cpp);
	if (fill && d->size == 0)
		d->size = (uint64_t)d->pitch * d->height;
	if (d->size < (uint64_t)d->pitch * d->height)
		return share_err(PRESENT_E_INVALID_ARG,
				 "size %" PRIu64 " < pitch x height", d->size);
	return 0;
}

/* ---------------- tokens ---------------- */

PRESENT_API int present_share_token_to_string(
	const struct present_share_token *tok, char *buf, size_t len)
{
	int n;

	if (!tok || !buf)
		return share_err(PRESENT_E_INVALID_ARG, "NULL argument");
	n = snprintf(buf, len, "pshare:%" PRId32 ":%" PRId32 ":%" PRId32
		     ":%016" PRIx64, tok->pid, tok->fd, tok->buf_fd,
		     tok->cookie);
	if (n < 0 || (size_t)n >= len)
		return share_err(PRESENT_E_MORE_DATA, "buffer too small");
	return 0;
}

PRESENT_API int present_share_token_from_string(const char *str,
		struct present_share_token *tok)
{
	long pid, fd, buf_fd;
	unsigned long long cookie;
	char *end;

	if (!str || !tok || strncmp(str, "pshare:", 7) != 0)
		return share_err(PRESENT_E_INVALID_ARG, "not a share token");
	str += 7;
	errno = 0;
	pid = strtol(str, &end, 10);
	if (errno || end == str || *end != ':' || pid <= 0 || pid > INT32_MAX)
		return share_err(PRESENT_E_INVALID_ARG, "bad token pid");
	str = end + 1;
	fd = strtol(str, &end, 10);
	if (errno || end == str || *end != ':' || fd < 0 || fd > INT32_MAX)
		return share_err(PRESENT_E_INVALID_ARG, "bad token fd");
	str = end + 1;
	buf_fd = strtol(str, &end, 10);
	if (errno || end == str || *end != ':' || buf_fd < -1 ||
	    buf_fd > INT32_MAX)
		return share_err(PRESENT_E_INVALID_ARG, "bad token buffer fd");
	str = end + 1;
	if (*str == '-' || *str == '+')
		return share_err(PRESENT_E_INVALID_ARG, "bad token cookie");
	cookie = strtoull(str, &end, 16);
	if (errno || end == str || *end != '\0' || cookie == 0)
		return share_err(PRESENT_E_INVALID_ARG, "bad token cookie");
	tok->pid = (int32_t)pid;
	tok->fd = (int32_t)fd;
	tok->buf_fd = (int32_t)buf_fd;
	tok->reserved = 0;
	tok->cookie = cookie;
	return 0;
}
