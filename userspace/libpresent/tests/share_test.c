// SPDX-License-Identifier: MIT
/*
 * Host tests of the sharing half: share tokens over pidfd_getfd, the keyed
 * mutex and the surface queue, across forked processes, on system-memory
 * (memfd) surfaces only: no DRM device is needed.
 *
 * Children are forked *before* anything is created and receive tokens over
 * a pipe, so they import for real instead of inheriting the objects.  A
 * child reports its failures through its exit status.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "present.h"
#include "share_internal.h"	/* the internal lock, for the robustness test */
#include "test.h"

#define W 64
#define H 32

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static struct present_surface_desc desc_xrgb(void)
{
	struct present_surface_desc d = {
		.width = W, .height = H, .format = DRM_FORMAT_XRGB8888,
		.mip_levels = 1, .array_layers = 1,
	};
	return d;
}

static void put_tok(int fd, const struct present_share_token *t)
{
	if (write(fd, t, sizeof(*t)) != sizeof(*t))
		abort();
}

static int get_tok(int fd, struct present_share_token *t)
{
	return read(fd, t, sizeof(*t)) == sizeof(*t) ? 0 : -1;
}

static void put_byte(int fd, char c)
{
	if (write(fd, &c, 1) != 1)
		abort();
}

static char get_byte(int fd)
{
	char c = 0;

	return read(fd, &c, 1) == 1 ? c : 0;
}

/* Wait for a child; CHECK it exited 0. */
/* The pipes @a and @b (NULL: none), then a child: fork()'s result. */
static pid_t fork_piped(int a[2], int b[2])
{
	pid_t pid;

	if (pipe(a) || (b && pipe(b)))
		abort();
	pid = fork();
	if (pid < 0)
		abort();
	return pid;
}

static void close_pipes(int a[2], int b[2])
{
	close(a[0]);
	close(a[1]);
	if (b) {
		close(b[0]);
		close(b[1]);
	}
}

static void reap(pid_t pid, const char *what)
{
	int st = 0;

	CHECK(waitpid(pid, &st, 0) == pid, "waitpid %s", what);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "child '%s' failed (status 0x%x)", what, st);
}

static void fill(uint32_t *px, size_t pitch, uint32_t seed)
{
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			px[y * (pitch / 4) + x] = seed * 0x01000193u ^
						  (uint32_t)(y * W + x);
}

static int check_fill(const uint32_t *px, size_t pitch, uint32_t seed)
{
	int bad = 0;

	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			bad += px[y * (pitch / 4) + x] !=
			       (seed * 0x01000193u ^ (uint32_t)(y * W + x));
	return bad;
}

/* ------------------------------------------------------------------ */

static void test_tokens(void)
{
	struct present_share_token t = { .cookie = 0xdeadbeef12345678ull,
					 .pid = 1234, .fd = 7, .buf_fd = 8 },
				   u;
	char buf[PRESENT_SHARE_TOKEN_STRLEN], tiny[8];

	CHECK(present_share_token_to_string(&t, buf, sizeof(buf)) == 0, "fmt");
	CHECK(strcmp(buf, "pshare:1234:7:8:deadbeef12345678") == 0, "%s", buf);
	CHECK(present_share_token_from_string(buf, &u) == 0, "parse");
	CHECK(u.pid == t.pid && u.fd == t.fd && u.buf_fd == t.buf_fd &&
	      u.cookie == t.cookie, "round trip");
	CHECK(present_share_token_from_string("pshare:1:2:-1:ab", &u) == 0 &&
	      u.buf_fd == -1 && u.cookie == 0xab, "queue token");
	CHECK(present_share_token_from_string("pshare:1:2:-2:ab", &u) ==
	      PRESENT_E_INVALID_ARG, "buf fd -2");
	CHECK(present_share_token_from_string("pshare:1:2:3:-ab", &u) ==
	      PRESENT_E_INVALID_ARG, "negative cookie");
	CHECK(present_share_token_from_string("pshare:1:2:3:ab:", &u) ==
	      PRESENT_E_INVALID_ARG, "trailing");
	CHECK(present_share_token_to_string(&t, tiny, sizeof(tiny)) ==
	      PRESENT_E_MORE_DATA, "small buffer");
	CHECK(present_share_token_from_string("pshare:1:2:3", &u) ==
	      PRESENT_E_INVALID_ARG, "truncated");
	CHECK(present_share_token_from_string("psharf:1:2:3:4", &u) ==
	      PRESENT_E_INVALID_ARG, "prefix");
	CHECK(present_share_token_from_string("pshare:0:2:3:4", &u) ==
	      PRESENT_E_INVALID_ARG, "pid 0");
	CHECK(present_share_token_from_string("pshare:1:2:3:0", &u) ==
	      PRESENT_E_INVALID_ARG, "cookie 0");
	CHECK(present_share_token_from_string(NULL, &u) ==
	      PRESENT_E_INVALID_ARG, "NULL");
}

static void test_bad_args(void)
{
	struct present_surface_desc d = desc_xrgb();
	struct present_shared_surface *s = (void *)1;
	struct present_share_token t;
	uint32_t h;
	void *p;

	d.mip_levels = 0;	/* full mip chain */
	CHECK(present_shared_surface_create(-1, &d, &s) ==
	      PRESENT_E_INVALID_ARG && !s, "mip 0");
	d.mip_levels = 2;
	CHECK(present_shared_surface_create(-1, &d, &s) ==
	      PRESENT_E_INVALID_ARG, "mip 2");
	d = desc_xrgb();
	d.array_layers = 6;
	CHECK(present_shared_surface_create(-1, &d, &s) ==
	      PRESENT_E_INVALID_ARG, "array 6");
	CHECK(strstr(present_share_last_error(), "single-allocation"),
	      "detail: %s", present_share_last_error());
	d = desc_xrgb();
	d.format = 0x12345678;
	CHECK(present_shared_surface_create(-1, &d, &s) ==
	      PRESENT_E_INVALID_ARG, "format");
	d = desc_xrgb();
	d.width = 0;
	CHECK(present_shared_surface_create(-1, &d, &s) ==
	      PRESENT_E_INVALID_ARG, "width 0");
	d = desc_xrgb();
	d.pitch = 4;	/* < width * 4 */
	d.size = 4096;
	CHECK(present_shared_surface_export_fd(0, &d, &s) ==
	      PRESENT_E_INVALID_ARG, "pitch");
	CHECK(present_shared_surface_create(-1, NULL, &s) ==
	      PRESENT_E_INVALID_ARG, "NULL desc");
	d = desc_xrgb();
	CHECK(present_shared_surface_create(-1, &d, NULL) ==
	      PRESENT_E_INVALID_ARG, "NULL out");
	CHECK(present_shared_surface_export(-1, 1, &d, &s) ==
	      PRESENT_E_INVALID_ARG, "export no fd");
	CHECK(present_shared_surface_open(NULL, -1, &s) ==
	      PRESENT_E_INVALID_ARG, "open NULL");
	CHECK(present_shared_surface_token(NULL, &t) ==
	      PRESENT_E_INVALID_ARG, "token NULL");
	CHECK(present_shared_surface_handle(NULL, &h) ==
	      PRESENT_E_INVALID_ARG, "handle NULL");
	CHECK(present_shared_surface_map(NULL, &p) ==
	      PRESENT_E_INVALID_ARG, "map NULL");
	CHECK(present_keyed_mutex_acquire(NULL, 0, 0) ==
	      PRESENT_E_INVALID_ARG, "acquire NULL");
	CHECK(present_keyed_mutex_release(NULL, 0) ==
	      PRESENT_E_INVALID_ARG, "release NULL");
	present_shared_surface_close(NULL);
	present_surface_queue_close(NULL);

	/* a system-memory surface has no GEM handle */
	CHECK(present_shared_surface_create(-1, &d, &s) == 0, "create");
	CHECK(present_shared_surface_handle(s, &h) == PRESENT_E_INVALID_ARG,
	      "no handle");
	CHECK(present_shared_surface_unmap(s) == PRESENT_E_INVALID_ARG,
	      "unmap unmapped");
	present_shared_surface_close(s);
}

/* Stale/forged tokens never open the wrong object. */
static void test_stale_tokens(void)
{
	struct present_surface_desc d = desc_xrgb();
	struct present_shared_surface *s, *o = NULL;
	struct present_share_token t, bad;

	CHECK(present_shared_surface_create(-1, &d, &s) == 0, "create");
	CHECK(present_shared_surface_token(s, &t) == 0, "token");
	bad = t;
	bad.cookie ^= 1;
	CHECK(present_shared_surface_open(&bad, -1, &o) ==
	      PRESENT_E_NOT_FOUND && !o, "wrong cookie");
	bad = t;
	bad.fd = 1000;	/* not open */
	CHECK(present_shared_surface_open(&bad, -1, &o) ==
	      PRESENT_E_NOT_FOUND, "wrong fd");
	bad = t;
	bad.buf_fd = t.fd;	/* a file, but not the buffer */
	CHECK(present_shared_surface_open(&bad, -1, &o) ==
	      PRESENT_E_NOT_FOUND, "wrong buffer fd");
	bad = t;
	bad.fd = 1;	/* stdout: not a control block */
	CHECK(present_shared_surface_open(&bad, -1, &o) ==
	      PRESENT_E_NOT_FOUND, "not a memfd");
	present_shared_surface_close(s);
	CHECK(present_shared_surface_open(&t, -1, &o) == PRESENT_E_NOT_FOUND,
	      "closed surface: %s", present_share_last_error());
}

/* Share a surface with another process; both see each other's writes. */
static void test_cross_process(void)
{
	struct present_surface_desc d = desc_xrgb(), got;
	struct present_shared_surface *s;
	struct present_share_token t;
	int tp[2], ack[2];
	uint32_t *px;
	pid_t pid;

	pid = fork_piped(tp, ack);
	if (pid == 0) {
		struct present_shared_surface *o;
		void *p;
		int bad = 0;

		if (get_tok(tp[0], &t))
			_exit(2);
		bad += present_shared_surface_open(&t, -1, &o) != 0;
		if (bad)
			_exit(3);
		bad += present_shared_surface_desc(o, &got) != 0;
		bad += got.width != W || got.height != H ||
		       got.format != DRM_FORMAT_XRGB8888 || got.pitch < W * 4;
		bad += present_shared_surface_map(o, &p) != 0;
		bad += check_fill(p, got.pitch, 77) != 0;
		((uint32_t *)p)[0] = 0xc0ffee;
		present_shared_surface_unmap(o);
		/* an importer can hand out its own token */
		bad += present_shared_surface_token(o, &t) != 0;
		bad += t.pid != (int32_t)getpid();
		present_shared_surface_close(o);
		put_byte(ack[1], 'k');
		_exit(bad ? 1 : 0);
	}
	CHECK(present_shared_surface_create(-1, &d, &s) == 0, "create");
	CHECK(present_shared_surface_desc(s, &got) == 0, "desc");
	CHECK(present_shared_surface_map(s, (void **)&px) == 0, "map");
	fill(px, got.pitch, 77);
	CHECK(present_shared_surface_token(s, &t) == 0, "token");
	put_tok(tp[1], &t);
	CHECK(get_byte(ack[0]) == 'k', "child ack");
	reap(pid, "cross-process");
	CHECK(px[0] == 0xc0ffee, "child's write visible: %#x", px[0]);
	present_shared_surface_close(s);
	close_pipes(tp, ack);
}

/* The importer keeps the buffer after the exporter closed it and exited. */
static void test_lifetime(void)
{
	struct present_shared_surface *o = NULL, *o2 = NULL;
	struct present_surface_desc got;
	struct present_share_token t;
	int tp[2], go[2];
	void *p;
	pid_t pid;

	pid = fork_piped(tp, go);
	if (pid == 0) {
		struct present_surface_desc d = desc_xrgb();
		struct present_shared_surface *s;

		if (present_shared_surface_create(-1, &d, &s) ||
		    present_shared_surface_map(s, &p))
			_exit(1);
		present_shared_surface_desc(s, &d);
		fill(p, d.pitch, 5);
		present_shared_surface_unmap(s);
		present_shared_surface_token(s, &t);
		put_tok(tp[1], &t);
		get_byte(go[0]);	/* importer has it */
		present_shared_surface_close(s);
		_exit(0);
	}
	CHECK(get_tok(tp[0], &t) == 0, "token");
	CHECK(present_shared_surface_open(&t, -1, &o) == 0, "open: %s",
	      present_share_last_error());
	put_byte(go[1], 'g');
	reap(pid, "exporter");
	/* exporter closed everything and is gone */
	if (o) {
		CHECK(present_shared_surface_desc(o, &got) == 0, "desc");
		CHECK(present_shared_surface_map(o, &p) == 0, "map");
		CHECK(check_fill(p, got.pitch, 5) == 0, "pixels survive");
	}
	CHECK(present_shared_surface_open(&t, -1, &o2) == PRESENT_E_NOT_FOUND,
	      "open after exporter exit");
	/* the survivor can share it on */
	if (o) {
		struct present_share_token t2;

		CHECK(present_shared_surface_token(o, &t2) == 0, "re-share");
		CHECK(present_shared_surface_open(&t2, -1, &o2) == 0,
		      "open re-shared: %s", present_share_last_error());
		if (o2) {
			CHECK(present_shared_surface_map(o2, &p) == 0 &&
			      check_fill(p, got.pitch, 5) == 0, "pixels");
			present_shared_surface_close(o2);
		}
		present_shared_surface_close(o);	/* t2 names o's fds */
		CHECK(present_shared_surface_open(&t2, -1, &o2) ==
		      PRESENT_E_NOT_FOUND, "closed holder's token");
	}
	close_pipes(tp, go);
}

/* Keyed mutex semantics within one process (two objects). */
static void test_keyed_mutex_local(void)
{
	struct present_surface_desc d = desc_xrgb();
	struct present_shared_surface *a, *b;
	struct present_share_token t;
	uint64_t t0;

	CHECK(present_shared_surface_create(-1, &d, &a) == 0, "create");
	present_shared_surface_token(a, &t);
	CHECK(present_shared_surface_open(&t, -1, &b) == 0, "open");
	/* starts released with key 0 */
	CHECK(present_keyed_mutex_acquire(a, 1, 0) == PRESENT_E_TIMEOUT,
	      "key 1 before any release");
	CHECK(present_keyed_mutex_release(a, 1) == PRESENT_E_INVALID_ARG,
	      "release unheld");
	CHECK(present_keyed_mutex_acquire(a, 0, 0) == 0, "key 0");
	CHECK(present_keyed_mutex_acquire(a, 0, 0) == PRESENT_E_INVALID_ARG,
	      "recursive");
	CHECK(present_keyed_mutex_acquire(b, 0, 0) == PRESENT_E_TIMEOUT,
	      "held");
	t0 = now_ms();
	CHECK(present_keyed_mutex_acquire(b, 0, 60) == PRESENT_E_TIMEOUT,
	      "held, 60 ms");
	CHECK(now_ms() - t0 >= 59 && now_ms() - t0 < 1000, "waited %llu ms",
	      (unsigned long long)(now_ms() - t0));
	CHECK(present_keyed_mutex_release(b, 1) == PRESENT_E_INVALID_ARG,
	      "release by non-holder");
	CHECK(present_keyed_mutex_release(a, 1) == 0, "release 1");
	CHECK(present_keyed_mutex_acquire(b, 0, 0) == PRESENT_E_TIMEOUT,
	      "wrong key");
	CHECK(present_keyed_mutex_acquire(a, 1, 0) == 0, "same object, key 1");
	CHECK(present_keyed_mutex_release(a, 2) == 0, "release 2");
	CHECK(present_keyed_mutex_acquire(b, 2, 0) == 0, "device 2 key 2");
	/* closing the holder releases with the current key */
	present_shared_surface_close(b);
	CHECK(present_keyed_mutex_acquire(a, 2, 0) == 0, "after close");
	CHECK(present_keyed_mutex_release(a, 0) == 0, "release 0");
	present_shared_surface_close(a);
}

/* Ping-pong across processes with keys; a blocked acquire wakes up. */
static void test_keyed_mutex_processes(void)
{
	enum { ROUNDS = 200 };
	struct present_surface_desc d = desc_xrgb();
	struct present_shared_surface *s;
	struct present_share_token t;
	int tp[2], go[2], bad = 0;
	volatile uint32_t *px;
	pid_t pid;

	pid = fork_piped(tp, go);
	if (pid == 0) {
		struct present_shared_surface *o;
		volatile uint32_t *q;
		uint64_t t0;
		int cbad = 0;

		if (get_tok(tp[0], &t) || present_shared_surface_open(&t, -1, &o) ||
		    present_shared_surface_map(o, (void **)&q))
			_exit(2);
		for (int i = 0; i < ROUNDS; i++) {
			if (present_keyed_mutex_acquire(o, 1, 5000)) {
				cbad++;
				break;
			}
			cbad += q[0] != (uint32_t)(2 * i);
			q[0] = 2 * i + 1;
			cbad += present_keyed_mutex_release(o, 0) != 0;
		}
		/* blocks until the parent releases with key 7 (~100 ms) */
		t0 = now_ms();
		cbad += present_keyed_mutex_acquire(o, 7, PRESENT_INFINITE) != 0;
		cbad += now_ms() - t0 < 50;
		cbad += q[0] != 0x7777;
		/*
		 * Hold it until the parent's timed acquire has timed out: a
		 * sleep here let a parent starved by a loaded host find it
		 * released already.
		 */
		put_byte(tp[1], 'h');
		get_byte(go[0]);
		cbad += present_keyed_mutex_release(o, 8) != 0;
		present_shared_surface_close(o);
		_exit(cbad ? 1 : 0);
	}
	CHECK(present_shared_surface_create(-1, &d, &s) == 0, "create");
	CHECK(present_shared_surface_map(s, (void **)&px) == 0, "map");
	px[0] = 0;
	present_shared_surface_token(s, &t);
	put_tok(tp[1], &t);
	for (int i = 0; i < ROUNDS; i++) {
		if (present_keyed_mutex_acquire(s, 0, 5000)) {
			bad++;
			break;
		}
		if (i > 0)
			bad += px[0] != (uint32_t)(2 * i - 1);
		px[0] = 2 * i;
		bad += present_keyed_mutex_release(s, 1) != 0;
	}
	CHECK(bad == 0, "ping-pong: %d bad rounds", bad);
	CHECK(present_keyed_mutex_acquire(s, 0, 5000) == 0, "last round");
	usleep(100000);
	px[0] = 0x7777;
	CHECK(present_keyed_mutex_release(s, 7) == 0, "release 7");
	CHECK(get_byte(tp[0]) == 'h', "the child holds it");
	CHECK(present_keyed_mutex_acquire(s, 8, 50) == PRESENT_E_TIMEOUT,
	      "held by the other process");
	put_byte(go[1], 'r');
	CHECK(present_keyed_mutex_acquire(s, 8, 5000) == 0, "after release 8");
	present_keyed_mutex_release(s, 0);
	reap(pid, "keyed mutex");
	present_shared_surface_close(s);
	close_pipes(tp, go);
}

/*
 * Three processes take turns with keys 0 -> 1 -> 2 -> 0 (the DXGI
 * three-device example); the shared counter proves strict alternation.
 */
static void test_keyed_mutex_three(void)
{
	enum { ROUNDS = 100, PROCS = 3 };
	struct present_surface_desc d = desc_xrgb();
	struct present_shared_surface *s;
	struct present_share_token t;
	volatile uint32_t *px;
	int tp[2];
	pid_t pid[PROCS - 1];

	if (pipe(tp))
		abort();
	for (int k = 1; k < PROCS; k++) {
		pid[k - 1] = fork();
		if (pid[k - 1] == 0) {
			struct present_shared_surface *o;
			volatile uint32_t *q;
			int bad = 0;

			if (get_tok(tp[0], &t) ||
			    present_shared_surface_open(&t, -1, &o) ||
			    present_shared_surface_map(o, (void **)&q))
				_exit(2);
			for (int i = 0; i < ROUNDS; i++) {
				if (present_keyed_mutex_acquire(o, k, 5000)) {
					bad++;
					break;
				}
				bad += q[0] != (uint32_t)(i * PROCS + k);
				q[0]++;
				present_keyed_mutex_release(o, (k + 1) % PROCS);
			}
			present_shared_surface_close(o);
			_exit(bad ? 1 : 0);
		}
	}
	CHECK(present_shared_surface_create(-1, &d, &s) == 0, "create");
	CHECK(present_shared_surface_map(s, (void **)&px) == 0, "map");
	px[0] = 0;
	present_shared_surface_token(s, &t);
	for (int k = 1; k < PROCS; k++)
		put_tok(tp[1], &t);
	for (int i = 0; i < ROUNDS; i++) {
		if (present_keyed_mutex_acquire(s, 0, 5000)) {
			CHECK(0, "round %d timed out", i);
			break;
		}
		CHECK(px[0] == (uint32_t)(i * PROCS), "turn %d: %u", i, px[0]);
		px[0]++;
		present_keyed_mutex_release(s, 1);
	}
	for (int k = 1; k < PROCS; k++)
		reap(pid[k - 1], "three-way");
	CHECK(present_keyed_mutex_acquire(s, 0, 0) == 0 &&
	      px[0] == ROUNDS * PROCS, "final count %u", px[0]);
	present_shared_surface_close(s);
	close_pipes(tp, NULL);
}

/* A holder that dies holding the mutex: WAIT_ABANDONED for the next one. */
static void test_keyed_mutex_abandoned(void)
{
	struct present_surface_desc d = desc_xrgb();
	struct present_shared_surface *s;
	struct present_share_token t;
	int tp[2], ack[2];
	uint64_t t0;
	pid_t pid;

	pid = fork_piped(tp, ack);
	if (pid == 0) {
		struct present_shared_surface *o;

		if (get_tok(tp[0], &t) || present_shared_surface_open(&t, -1, &o) ||
		    present_keyed_mutex_acquire(o, 0, 5000))
			_exit(2);
		put_byte(ack[1], 'h');
		usleep(150000);
		_exit(0);	/* dies holding it */
	}
	CHECK(present_shared_surface_create(-1, &d, &s) == 0, "create");
	present_shared_surface_token(s, &t);
	put_tok(tp[1], &t);
	CHECK(get_byte(ack[0]) == 'h', "child holds it");
	CHECK(present_keyed_mutex_acquire(s, 0, 0) == PRESENT_E_TIMEOUT, "held");
	t0 = now_ms();
	CHECK(present_keyed_mutex_acquire(s, 0, 3000) ==
	      PRESENT_KEYED_MUTEX_ABANDONED, "abandoned");
	CHECK(now_ms() - t0 < 1500, "noticed in %llu ms",
	      (unsigned long long)(now_ms() - t0));
	reap(pid, "abandoning holder");
	CHECK(present_keyed_mutex_release(s, 5) == 0, "release");
	CHECK(present_keyed_mutex_acquire(s, 5, 0) == 0, "normal again");
	present_keyed_mutex_release(s, 0);
	present_shared_surface_close(s);
	close_pipes(tp, ack);
}

/*
 * The internal futex lock of the shared blocks: a process that dies inside
 * the locked section does not wedge everyone else.
 */
static void test_lock_holder_death(void)
{
	_Atomic uint32_t *l = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int ack[2];
	uint64_t t0;
	pid_t pid;

	if (l == MAP_FAILED || pipe(ack))
		abort();
	atomic_store(l, 0);
	pid = fork();
	if (pid == 0) {
		share_lock(l);
		put_byte(ack[1], 'l');
		usleep(100000);
		_exit(0);	/* dies holding it */
	}
	CHECK(get_byte(ack[0]) == 'l', "child locked");
	CHECK(atomic_load(l) != 0, "locked");
	t0 = now_ms();
	share_lock(l);		/* must not hang */
	CHECK(now_ms() - t0 < 2000, "took over in %llu ms",
	      (unsigned long long)(now_ms() - t0));
	CHECK((atomic_load(l) & 0x7fffffffu) == (uint32_t)getpid(), "ours");
	share_unlock(l);
	CHECK(atomic_load(l) == 0, "unlocked");
	reap(pid, "lock holder");
	munmap((void *)l, 4096);
	close_pipes(ack, NULL);
}

/* The root starts full, in index order; the clone empty. */
static void queue_take_all(struct present_surface_queue *root,
			   struct present_surface_queue *clone,
			   struct present_shared_surface **s)
{
	struct present_shared_surface *x;
	uint8_t meta[32];
	uint32_t ms;
	uint64_t t0;

	CHECK(present_surface_queue_dequeue(clone, &x, NULL, NULL, 0) ==
	      PRESENT_E_WAS_STILL_DRAWING && !x, "clone empty");
	for (int i = 0; i < 3; i++) {
		ms = sizeof(meta);
		CHECK(present_surface_queue_dequeue(root, &s[i], meta, &ms, 0)
		      == 0, "root dequeue %d", i);
		CHECK(ms == 0, "no metadata");
		CHECK(present_surface_queue_surface_index(root, s[i]) == i,
		      "FIFO index %d", i);
	}
	CHECK(present_surface_queue_dequeue(root, &x, NULL, NULL, 0) ==
	      PRESENT_E_WAS_STILL_DRAWING, "root drained");
	t0 = now_ms();
	CHECK(present_surface_queue_dequeue(root, &x, NULL, NULL, 40) ==
	      PRESENT_E_TIMEOUT, "timeout");
	CHECK(now_ms() - t0 >= 39, "waited");
}

/* What enqueue refuses, and what it does to the surface's owner. */
static void queue_enqueue_rules(struct present_surface_queue *root,
				struct present_surface_queue *clone,
				struct present_shared_surface **s)
{
	uint8_t meta[32];
	uint32_t pend, h;
	void *p;

	/* owned surfaces are usable; closing them is a no-op */
	CHECK(present_shared_surface_map(s[0], &p) == 0, "map owned");
	CHECK(present_shared_surface_handle(s[0], &h) == PRESENT_E_INVALID_ARG,
	      "no device");
	present_shared_surface_close(s[0]);

	/* metadata bound of the clone (4) */
	memset(meta, 0xab, sizeof(meta));
	CHECK(present_surface_queue_enqueue(clone, s[0], meta, 5, 0) ==
	      PRESENT_E_INVALID_ARG, "metadata too large");
	CHECK(present_surface_queue_enqueue(clone, s[0], NULL, 2, 0) ==
	      PRESENT_E_INVALID_ARG, "NULL metadata");
	CHECK(present_surface_queue_enqueue(clone, s[0], meta, 4, 0x80) ==
	      PRESENT_E_INVALID_ARG, "bad flags");
	CHECK(present_surface_queue_enqueue(clone, s[0], meta, 4, 0) == 0,
	      "enqueue");
	/* the producer no longer owns it */
	CHECK(present_shared_surface_map(s[0], &p) == PRESENT_E_INVALID_ARG,
	      "map after enqueue");
	CHECK(present_surface_queue_enqueue(clone, s[0], NULL, 0, 0) ==
	      PRESENT_E_INVALID_ARG, "double enqueue");
	CHECK(present_surface_queue_enqueue(root, s[0], NULL, 0, 0) ==
	      PRESENT_E_INVALID_ARG, "in two queues");
	meta[0] = 1;
	CHECK(present_surface_queue_enqueue(clone, s[2], meta, 1,
		PRESENT_SURFACE_QUEUE_DO_NOT_WAIT) == 0,
	      "do-not-wait (ready)");
	CHECK(present_surface_queue_enqueue(clone, s[1], NULL, 0, 0) == 0,
	      "enqueue no metadata");
	CHECK(present_surface_queue_flush(clone, 0, &pend) == 0 && pend == 0,
	      "flush nothing pending");
}

/* FIFO with the right metadata; a small buffer dequeues nothing. */
static void queue_dequeue_fifo(struct present_surface_queue *root,
			       struct present_surface_queue *clone,
			       struct present_shared_surface **s)
{
	struct present_shared_surface *x;
	uint8_t meta[32];
	uint32_t ms;
	void *p;

	ms = 2;
	CHECK(present_surface_queue_dequeue(clone, &x, meta, &ms, 0) ==
	      PRESENT_E_MORE_DATA && ms == 4, "small buffer: %u", ms);
	ms = sizeof(meta);
	CHECK(present_surface_queue_dequeue(clone, &x, meta, &ms, 0) == 0 &&
	      x == s[0] && ms == 4 && meta[3] == 0xab, "first");
	ms = sizeof(meta);
	CHECK(present_surface_queue_dequeue(clone, &x, meta, &ms, 0) == 0 &&
	      x == s[2] && ms == 1 && meta[0] == 1, "second");
	ms = sizeof(meta);
	CHECK(present_surface_queue_dequeue(clone, &x, meta, &ms,
					    PRESENT_INFINITE) == 0 &&
	      x == s[1] && ms == 0, "third");
	CHECK(present_shared_surface_map(s[0], &p) == 0, "owned again");
	for (int i = 0; i < 3; i++)
		CHECK(present_surface_queue_enqueue(root, s[i], NULL, 0, 0) == 0,
		      "back to root");
}

/* Queue rules in one process. */
static void test_queue_local(void)
{
	struct present_surface_queue_desc qd = {
		.width = W, .height = H, .format = DRM_FORMAT_XRGB8888,
		.num_surfaces = 3, .metadata_size = 16,
	}, got;
	struct present_surface_queue *root, *clone;
	struct present_shared_surface *s[3];

	qd.num_surfaces = 0;
	CHECK(present_surface_queue_create(-1, &qd, &root) ==
	      PRESENT_E_INVALID_ARG, "0 surfaces");
	qd.num_surfaces = PRESENT_SURFACE_QUEUE_MAX_SURFACES + 1;
	CHECK(present_surface_queue_create(-1, &qd, &root) ==
	      PRESENT_E_INVALID_ARG, "too many surfaces");
	qd.num_surfaces = 3;
	CHECK(present_surface_queue_create(-1, &qd, &root) == 0, "create");
	CHECK(present_surface_queue_clone(root, 4, &clone) == 0, "clone");
	CHECK(present_surface_queue_desc(clone, &got) == 0 &&
	      got.metadata_size == 4 && got.num_surfaces == 3 &&
	      got.width == W, "clone desc");
	queue_take_all(root, clone, s);
	queue_enqueue_rules(root, clone, s);
	queue_dequeue_fifo(root, clone, s);
	present_surface_queue_close(clone);
	present_surface_queue_close(root);
}

/* Producer and consumer processes: FIFO with metadata and pixels. */
static void test_queue_processes(void)
{
	enum { FRAMES = 50 };
	struct present_surface_queue_desc qd = {
		.width = W, .height = H, .format = DRM_FORMAT_XRGB8888,
		.num_surfaces = 3, .metadata_size = 0,
	};
	struct present_surface_queue *freeq, *work;
	struct present_share_token tf, tw;
	int tp[2], bad = 0;
	pid_t pid;

	pid = fork_piped(tp, NULL);
	if (pid == 0) {
		struct present_surface_queue *f, *w;
		struct present_surface_desc sd;
		int cbad = 0;

		if (get_tok(tp[0], &tf) || get_tok(tp[0], &tw) ||
		    present_surface_queue_open(&tf, -1, &f) ||
		    present_surface_queue_open(&tw, -1, &w))
			_exit(2);
		for (uint32_t i = 0; i < FRAMES; i++) {
			struct present_shared_surface *s;
			uint64_t m = 0;
			uint32_t ms = sizeof(m);
			void *p;

			if (present_surface_queue_dequeue(w, &s, &m, &ms, 5000)) {
				cbad++;
				break;
			}
			cbad += ms != sizeof(m) || m != 1000 + i;
			present_shared_surface_desc(s, &sd);
			cbad += present_shared_surface_map(s, &p) != 0;
			cbad += check_fill(p, sd.pitch, i) != 0;
			cbad += present_surface_queue_enqueue(f, s, NULL, 0, 0)
				!= 0;
		}
		present_surface_queue_close(w);
		present_surface_queue_close(f);
		_exit(cbad ? 1 : 0);
	}
	CHECK(present_surface_queue_create(-1, &qd, &freeq) == 0, "create");
	CHECK(present_surface_queue_clone(freeq, 8, &work) == 0, "clone");
	present_surface_queue_token(freeq, &tf);
	present_surface_queue_token(work, &tw);
	put_tok(tp[1], &tf);
	put_tok(tp[1], &tw);
	for (uint32_t i = 0; i < FRAMES; i++) {
		struct present_shared_surface *s;
		struct present_surface_desc sd;
		uint64_t m = 1000 + i;
		void *p;

		if (present_surface_queue_dequeue(freeq, &s, NULL, NULL, 5000)) {
			bad++;
			break;
		}
		present_shared_surface_desc(s, &sd);
		bad += present_shared_surface_map(s, &p) != 0;
		fill(p, sd.pitch, i);
		bad += present_surface_queue_enqueue(work, s, &m, sizeof(m),
				i & 1 ? PRESENT_SURFACE_QUEUE_DO_NOT_WAIT : 0)
			!= 0;
	}
	CHECK(bad == 0, "producer: %d failures", bad);
	reap(pid, "consumer");
	present_surface_queue_close(work);
	present_surface_queue_close(freeq);
	close_pipes(tp, NULL);
}

/*
 * The creator of a queue network exits; a process that opened it passes
 * the queue on and a third process still gets the surfaces (from the
 * surviving holder) with the creator's pixels.
 */
static void test_queue_creator_exit(void)
{
	struct present_surface_queue *q = NULL;
	struct present_share_token t, t2;
	int tp[2], go[2];
	pid_t pid, pid2;

	pid = fork_piped(tp, go);
	if (pid == 0) {
		struct present_surface_queue_desc qd = {
			.width = W, .height = H, .format = DRM_FORMAT_XRGB8888,
			.num_surfaces = 2, .metadata_size = 4,
		};
		struct present_surface_queue *root, *work;
		struct present_shared_surface *s;
		struct present_surface_desc sd;
		uint32_t m = 77;
		void *p;

		if (present_surface_queue_create(-1, &qd, &root) ||
		    present_surface_queue_clone(root, 4, &work) ||
		    present_surface_queue_dequeue(root, &s, NULL, NULL, 0) ||
		    present_shared_surface_map(s, &p))
			_exit(2);
		present_shared_surface_desc(s, &sd);
		fill(p, sd.pitch, 31);
		if (present_surface_queue_enqueue(work, s, &m, 4, 0))
			_exit(3);
		present_surface_queue_token(work, &t);
		put_tok(tp[1], &t);
		get_byte(go[0]);
		present_surface_queue_close(work);
		present_surface_queue_close(root);
		_exit(0);
	}
	CHECK(get_tok(tp[0], &t) == 0, "token");
	CHECK(present_surface_queue_open(&t, -1, &q) == 0, "open: %s",
	      present_share_last_error());
	put_byte(go[1], 'g');
	reap(pid, "creator");
	{
		struct present_surface_queue *dead = NULL;

		CHECK(present_surface_queue_open(&t, -1, &dead) ==
		      PRESENT_E_NOT_FOUND && !dead, "creator's token is dead");
	}
	if (!q)
		return;
	CHECK(present_surface_queue_token(q, &t2) == 0, "re-share");
	pid2 = fork();
	if (pid2 == 0) {
		struct present_surface_queue *w;
		struct present_shared_surface *s;
		struct present_surface_desc sd;
		uint32_t m = 0, ms = 4;
		int bad = 0;
		void *p;

		if (present_surface_queue_open(&t2, -1, &w))
			_exit(2);
		bad += present_surface_queue_dequeue(w, &s, &m, &ms, 1000) != 0;
		if (bad)
			_exit(3);
		bad += m != 77;
		present_shared_surface_desc(s, &sd);
		bad += present_shared_surface_map(s, &p) != 0;
		bad += check_fill(p, sd.pitch, 31) != 0;
		present_surface_queue_close(w);
		_exit(bad ? 1 : 0);
	}
	reap(pid2, "third process");
	present_surface_queue_close(q);
	close_pipes(tp, go);
}

int main(void)
{
	alarm(60);	/* a deadlock fails the run instead of hanging it */
	test_tokens();
	test_bad_args();
	test_stale_tokens();
	test_cross_process();
	test_lifetime();
	test_keyed_mutex_local();
	test_keyed_mutex_processes();
	test_keyed_mutex_three();
	test_keyed_mutex_abandoned();
	test_lock_holder_death();
	test_queue_local();
	test_queue_processes();
	test_queue_creator_exit();
	return test_done("share_test");
}
