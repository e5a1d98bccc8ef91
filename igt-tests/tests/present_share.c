// SPDX-License-Identifier: MIT
/*
 * libpresent surface sharing on real devices: share tokens across processes
 * and devices (a vflipq render-only adapter, the default vflipq display
 * device, vgem), the keyed mutex between processes, the surface queue
 * between a producer and a consumer process, and buffer lifetime after the
 * exporter is gone.
 *
 * Children are plain fork()s that open their own device fds, get tokens
 * over a pipe, and report through their exit status (no igt asserts in a
 * child).
 */
/**
 * TEST: present share
 * Category: Display
 * Mega feature: General Display Features
 * Sub-category: MultiGPU
 * Functionality: libpresent shared surfaces
 * Driver requirement: vflipq
 * Description: libpresent surface sharing on real devices: share tokens across
 *              processes and devices (a vflipq render-only adapter, the vflipq
 *              display device, vgem), the keyed mutex between processes, the
 *              surface queue between producer and consumer processes, and
 *              buffer lifetime after the exporter is gone.
 *
 * SUBTEST: cross-process-cross-device
 * Description: A surface created on the render adapter is imported by another
 *              process into vgem and the display device: same dma-buf, same
 *              pixels, writes visible both ways
 *
 * SUBTEST: scanout-imported-surface
 * Description: A vgem buffer shared by another process scans out on the
 *              display device (writeback shows its pixels)
 *
 * SUBTEST: export-existing-single-allocation
 * Description: An existing GEM buffer is shared; multi-mip and multi-layer
 *              descriptions are refused
 *
 * SUBTEST: lifetime-after-exporter-exit
 * Description: The importer keeps the pixels after the exporter closed the
 *              surface and exited; the dma-buf goes with the last handle; the
 *              stale token no longer opens
 *
 * SUBTEST: exporter-device-removed
 * Description: The exporting device is unplugged while vgem holds the surface:
 *              old mappings work, the removed device answers DEVICE_REMOVED,
 *              clean teardown
 *
 * SUBTEST: keyed-mutex-ping-pong
 * Description: Keyed-mutex ping-pong between processes on two devices, acquire
 *              timeouts while the other process holds it
 *
 * SUBTEST: keyed-mutex-abandoned
 * Description: A process killed while holding the keyed mutex: the next
 *              acquire gets it with PRESENT_KEYED_MUTEX_ABANDONED
 *
 * SUBTEST: queue-fifo-processes
 * Description: Surface queue between a render-adapter producer and a vgem
 *              consumer process: FIFO, metadata, ownership, dequeue timeout 0
 *
 * SUBTEST: queue-render-to-display-scanout
 * Description: Render-adapter producer process, display-device consumer
 *              scanning every dequeued surface out (writeback check)
 *
 * SUBTEST: queue-do-not-wait-flush
 * Description: Do-not-wait enqueue of a surface with an unsignalled write
 *              fence stays pending until flushed after the fence signals,
 *              without breaking FIFO order; a blocking enqueue waits for the
 *              fence
 */

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "igt.h"
#include "vflipq_helpers.h"
#include "vgem_drm.h"
#include "present.h"

IGT_TEST_DESCRIPTION("libpresent shared surfaces, keyed mutex and surface "
		     "queue across processes and devices");

#define W 320
#define H 240

static int render_card = -1, disp_card = -1;
static int render_fd = -1, vgem_fd = -1;

static uint32_t pix(int x, int y, uint32_t seed)
{
	return (seed * 0x9e3779b9u) ^ (uint32_t)(y * 4099 + x) ^ 0xff000000u;
}

static void fill(void *map, uint32_t pitch, uint32_t seed)
{
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			((uint32_t *)((uint8_t *)map + (size_t)y * pitch))[x] =
				pix(x, y, seed);
}

static int check(const void *map, uint32_t pitch, uint32_t seed)
{
	int bad = 0;

	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			bad += ((const uint32_t *)((const uint8_t *)map +
				(size_t)y * pitch))[x] != pix(x, y, seed);
	return bad;
}

static struct present_surface_desc desc(void)
{
	struct present_surface_desc d = {
		.width = W, .height = H, .format = DRM_FORMAT_XRGB8888,
		.mip_levels = 1, .array_layers = 1,
	};
	return d;
}

static void put(int fd, const void *p, size_t n)
{
	igt_assert_eq((int)write(fd, p, n), (int)n);
}

static int get(int fd, void *p, size_t n)
{
	return read(fd, p, n) == (ssize_t)n ? 0 : -1;
}

static void reap(pid_t pid)
{
	int st = 0;

	igt_assert_eq(waitpid(pid, &st, 0), pid);
	igt_assert_f(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		     "child failed: status 0x%x\n", st);
}

static int open_vgem(void)
{
	return vfq_open_driver("vgem");
}

/* Wait until the live dma-buf count is @want (releases may lag a bit). */
static bool dmabufs_settle(int want)
{
	for (int i = 0; i < 100; i++) {
		if (vfq_dmabuf_count() == want)
			return true;
		usleep(10000);
	}
	return false;
}

/* The pipes @a and @b (NULL: none), then a child: fork()'s result. */
static pid_t fork_piped(int a[2], int b[2])
{
	pid_t pid;

	igt_assert_eq(pipe(a), 0);
	if (b)
		igt_assert_eq(pipe(b), 0);
	pid = fork();
	igt_assert(pid >= 0);
	return pid;
}

/*
 * Render adapter exports, a second process imports into vgem and into the
 * display device: same pixels, same dma-buf, writes go both ways.
 */
static void test_cross_device(void)
{
	struct present_shared_surface *s;
	struct present_surface_desc d = desc();
	struct present_share_token t;
	int tp[2], ack[2];
	void *map;
	pid_t pid;

	pid = fork_piped(tp, ack);
	if (pid == 0) {
		struct present_shared_surface *v, *k;
		struct present_surface_desc got;
		struct stat a, b;
		int vg = open_vgem(), disp = vfq_open_card(disp_card);
		uint32_t h = 0;
		int bad = 0, again = -1;
		void *p;

		if (vg < 0 || disp < 0 || get(tp[0], &t, sizeof(t)))
			_exit(2);
		if (present_shared_surface_open(&t, vg, &v) ||
		    present_shared_surface_open(&t, disp, &k))
			_exit(3);
		bad += present_shared_surface_desc(v, &got) != 0;
		bad += got.width != W || got.height != H;
		/* the vgem handle is the exported buffer */
		bad += present_shared_surface_handle(v, &h) != 0 || !h;
		bad += drmPrimeHandleToFD(vg, h, DRM_CLOEXEC, &again) != 0;
		bad += fstat(again, &a) != 0;
		close(again);
		bad += present_shared_surface_handle(k, &h) != 0 || !h;
		bad += drmPrimeHandleToFD(disp, h, DRM_CLOEXEC, &again) != 0;
		bad += fstat(again, &b) != 0 || a.st_ino != b.st_ino;
		close(again);
		bad += present_shared_surface_map(v, &p) != 0;
		bad += check(p, got.pitch, 42) != 0;
		((uint32_t *)p)[1] = 0x12345678;
		present_shared_surface_unmap(v);
		present_shared_surface_close(v);
		present_shared_surface_close(k);
		close(vg);
		close(disp);
		igt_assert_eq(write(ack[1], "k", 1), 1);
		_exit(bad ? 1 : 0);
	}
	igt_assert_eq(present_shared_surface_create(render_fd, &d, &s), 0);
	igt_assert_eq(present_shared_surface_desc(s, &d), 0);
	igt_assert_eq(present_shared_surface_map(s, &map), 0);
	fill(map, d.pitch, 42);
	igt_assert_eq(present_shared_surface_unmap(s), 0);
	igt_assert_eq(present_shared_surface_token(s, &t), 0);
	put(tp[1], &t, sizeof(t));
	reap(pid);
	igt_assert_eq(present_shared_surface_map(s, &map), 0);
	igt_assert_eq_u32(((uint32_t *)map)[1], 0x12345678);
	present_shared_surface_close(s);
	close(tp[0]); close(tp[1]); close(ack[0]); close(ack[1]);
}

/* An existing GEM buffer of the display device, shared and imported. */
static void test_export_handle(void)
{
	struct present_surface_desc d = desc();
	struct present_shared_surface *s, *o;
	struct present_share_token t;
	struct vfq_fb bo;
	int disp = vfq_open_card(disp_card);
	uint32_t h = 0, h2 = 0;
	int dmabuf = -1;
	void *p;

	igt_assert_fd(disp);
	vfq_fb_create(disp, W, H, DRM_FORMAT_XRGB8888, &bo);
	fill(bo.map, bo.pitch, 3);
	d.pitch = bo.pitch;
	d.size = bo.size;
	d.mip_levels = 0;
	igt_assert_eq(present_shared_surface_export(disp, bo.handle, &d, &s),
		      PRESENT_E_INVALID_ARG);
	d.mip_levels = 1;
	d.array_layers = 2;
	igt_assert_eq(present_shared_surface_export(disp, bo.handle, &d, &s),
		      PRESENT_E_INVALID_ARG);
	d.array_layers = 1;
	igt_assert_eq(present_shared_surface_export(disp, 0xdead, &d, &s),
		      PRESENT_E_INVALID_ARG);
	igt_assert_eq(present_shared_surface_export(disp, bo.handle, &d, &s), 0);
	present_shared_surface_token(s, &t);
	igt_assert_eq(present_shared_surface_open(&t, vgem_fd, &o), 0);
	igt_assert_eq(present_shared_surface_map(o, &p), 0);
	igt_assert_eq(check(p, bo.pitch, 3), 0);
	present_shared_surface_close(o);
	/* opened on the exporter's own fd: the same GEM handle */
	igt_assert_eq(present_shared_surface_open(&t, disp, &o), 0);
	igt_assert_eq(present_shared_surface_handle(o, &h), 0);
	igt_assert_eq_u32(h, bo.handle);
	present_shared_surface_close(o);
	present_shared_surface_close(s);
	/* the caller's handle is still good */
	igt_assert_eq(drmPrimeHandleToFD(disp, bo.handle, DRM_CLOEXEC, &dmabuf),
		      0);
	close(dmabuf);
	igt_assert_eq(check(bo.map, bo.pitch, 3), 0);
	vfq_fb_destroy(&bo);

	/* library-created: the handle lives until the last surface object */
	d = desc();
	igt_assert_eq(present_shared_surface_create(disp, &d, &s), 0);
	present_shared_surface_token(s, &t);
	igt_assert_eq(present_shared_surface_open(&t, disp, &o), 0);
	igt_assert_eq(present_shared_surface_handle(s, &h), 0);
	igt_assert_eq(present_shared_surface_handle(o, &h2), 0);
	igt_assert_eq_u32(h, h2);
	present_shared_surface_close(s);
	igt_assert_eq(drmPrimeHandleToFD(disp, h, DRM_CLOEXEC, &dmabuf), 0);
	close(dmabuf);
	present_shared_surface_close(o);
	igt_assert_neq(drmPrimeHandleToFD(disp, h, DRM_CLOEXEC, &dmabuf), 0);
	close(disp);
}

/*
 * The exporter shares, the importer opens, the exporter closes and exits:
 * the importer still reads the pixels; the dma-buf goes with the last user.
 */
static void test_lifetime(void)
{
	struct present_shared_surface *o = NULL, *o2 = NULL, *o3 = NULL;
	struct present_surface_desc d;
	struct present_share_token t;
	int base = vfq_dmabuf_count();
	int tp[2], go[2];
	void *p;
	pid_t pid;

	igt_require_f(base >= 0, "no dma_buf/bufinfo in debugfs\n");

	pid = fork_piped(tp, go);
	if (pid == 0) {
		struct present_surface_desc cd = desc();
		struct present_shared_surface *s;
		int fd = vfq_open_card(render_card);
		char c;

		if (fd < 0 || present_shared_surface_create(fd, &cd, &s) ||
		    present_shared_surface_map(s, &p))
			_exit(2);
		present_shared_surface_desc(s, &cd);
		fill(p, cd.pitch, 99);
		present_shared_surface_unmap(s);
		present_shared_surface_token(s, &t);
		put(tp[1], &t, sizeof(t));
		if (read(go[0], &c, 1) != 1)
			_exit(3);
		present_shared_surface_close(s);
		close(fd);
		_exit(0);
	}
	igt_assert_eq(get(tp[0], &t, sizeof(t)), 0);
	igt_assert_eq(present_shared_surface_open(&t, vgem_fd, &o), 0);
	igt_assert_eq(present_shared_surface_open(&t, -1, &o2), 0);
	igt_assert_eq(write(go[1], "g", 1), 1);
	reap(pid);
	/* exporter (and its device file) gone; a new open fails cleanly */
	igt_assert_eq(present_shared_surface_open(&t, vgem_fd, &o3),
		      PRESENT_E_NOT_FOUND);
	igt_assert(o3 == NULL);
	igt_assert_eq(present_shared_surface_desc(o, &d), 0);
	igt_assert_eq(present_shared_surface_map(o, &p), 0);
	igt_assert_eq(check(p, d.pitch, 99), 0);
	/* the survivor shares it on to a third process (render adapter) */
	{
		struct present_share_token t2;
		pid_t pid2;

		igt_assert_eq(present_shared_surface_token(o, &t2), 0);
		pid2 = fork();
		igt_assert(pid2 >= 0);
		if (pid2 == 0) {
			struct present_shared_surface *r;
			int fd = vfq_open_card(render_card), bad = 0;
			void *q;

			if (fd < 0 || present_shared_surface_open(&t2, fd, &r))
				_exit(2);
			bad += present_shared_surface_map(r, &q) != 0;
			bad += check(q, d.pitch, 99) != 0;
			present_shared_surface_close(r);
			close(fd);
			_exit(bad ? 1 : 0);
		}
		reap(pid2);
	}
	present_shared_surface_close(o);
	igt_assert_eq(present_shared_surface_map(o2, &p), 0);
	igt_assert_eq(check(p, d.pitch, 99), 0);
	/* the exporter is gone, the buffer lives on in this process only */
	igt_assert_f(dmabufs_settle(base + 1), "%d dma-bufs, expected %d\n",
		     vfq_dmabuf_count(), base + 1);
	present_shared_surface_close(o2);
	/* last handle closed: the buffer is freed */
	igt_assert_f(dmabufs_settle(base), "dma-buf leaked: %d vs %d\n",
		     vfq_dmabuf_count(), base);
	close(tp[0]); close(tp[1]); close(go[0]); close(go[1]);
}

/* Keyed-mutex ping-pong between processes on two devices, and timeouts. */
static void test_keyed_mutex(void)
{
	enum { ROUNDS = 100 };
	struct present_surface_desc d = desc();
	struct present_shared_surface *s;
	struct present_share_token t;
	volatile uint32_t *px;
	int tp[2];
	uint64_t t0;
	pid_t pid;

	pid = fork_piped(tp, NULL);
	if (pid == 0) {
		struct present_shared_surface *o;
		volatile uint32_t *q;
		int vg = open_vgem(), bad = 0;

		if (vg < 0 || get(tp[0], &t, sizeof(t)) ||
		    present_shared_surface_open(&t, vg, &o) ||
		    present_shared_surface_map(o, (void **)&q))
			_exit(2);
		for (int i = 0; i < ROUNDS; i++) {
			/* device 2 acquires with the key device 1 released */
			if (present_keyed_mutex_acquire(o, 1, 5000)) {
				bad++;
				break;
			}
			bad += q[0] != (uint32_t)(2 * i);
			q[0] = 2 * i + 1;
			bad += present_keyed_mutex_release(o, 0) != 0;
		}
		/* take it with key 2 and hold it for 300 ms */
		bad += present_keyed_mutex_acquire(o, 2, 5000) != 0;
		usleep(300000);
		bad += present_keyed_mutex_release(o, 3) != 0;
		present_shared_surface_close(o);
		close(vg);
		_exit(bad ? 1 : 0);
	}
	igt_assert_eq(present_shared_surface_create(render_fd, &d, &s), 0);
	igt_assert_eq(present_shared_surface_map(s, (void **)&px), 0);
	px[0] = 0;
	/* a fresh mutex is released with key 0 */
	igt_assert_eq(present_keyed_mutex_acquire(s, 1, 0), PRESENT_E_TIMEOUT);
	present_shared_surface_token(s, &t);
	put(tp[1], &t, sizeof(t));
	for (int i = 0; i < ROUNDS; i++) {
		igt_assert_eq(present_keyed_mutex_acquire(s, 0, 5000), 0);
		if (i > 0)
			igt_assert_eq_u32(px[0], 2 * i - 1);
		px[0] = 2 * i;
		igt_assert_eq(present_keyed_mutex_release(s, 1), 0);
	}
	igt_assert_eq(present_keyed_mutex_acquire(s, 0, 5000), 0);
	igt_assert_eq_u32(px[0], 2 * ROUNDS - 1);
	igt_assert_eq(present_keyed_mutex_release(s, 2), 0);
	usleep(100000);		/* the child holds it now */
	t0 = vfq_now_ns();
	igt_assert_eq(present_keyed_mutex_acquire(s, 3, 50), PRESENT_E_TIMEOUT);
	igt_assert_lte_u64(45000000ull, vfq_now_ns() - t0);
	igt_assert_eq(present_keyed_mutex_acquire(s, 3, 0), PRESENT_E_TIMEOUT);
	/* blocks until the child releases with key 3 */
	igt_assert_eq(present_keyed_mutex_acquire(s, 3, 5000), 0);
	igt_assert_eq(present_keyed_mutex_release(s, 0), 0);
	reap(pid);
	present_shared_surface_close(s);
	close(tp[0]); close(tp[1]);
}

/* A holder killed while holding the mutex: the next acquire says so. */
static void test_keyed_mutex_abandoned(void)
{
	struct present_surface_desc d = desc();
	struct present_shared_surface *s;
	struct present_share_token t;
	int tp[2], ack[2], st;
	char c = 0;
	pid_t pid;

	pid = fork_piped(tp, ack);
	if (pid == 0) {
		struct present_shared_surface *o;
		int vg = open_vgem();

		if (vg < 0 || get(tp[0], &t, sizeof(t)) ||
		    present_shared_surface_open(&t, vg, &o) ||
		    present_keyed_mutex_acquire(o, 0, 5000))
			_exit(2);
		igt_assert_eq(write(ack[1], "h", 1), 1);
		pause();
		_exit(3);
	}
	igt_assert_eq(present_shared_surface_create(render_fd, &d, &s), 0);
	present_shared_surface_token(s, &t);
	put(tp[1], &t, sizeof(t));
	igt_assert_eq(read(ack[0], &c, 1), 1);
	igt_assert_eq(present_keyed_mutex_acquire(s, 0, 50), PRESENT_E_TIMEOUT);
	kill(pid, SIGKILL);
	igt_assert_eq(waitpid(pid, &st, 0), pid);
	igt_assert_eq(present_keyed_mutex_acquire(s, 0, 2000),
		      PRESENT_KEYED_MUTEX_ABANDONED);
	igt_assert_eq(present_keyed_mutex_release(s, 1), 0);
	igt_assert_eq(present_keyed_mutex_acquire(s, 1, 0), 0);
	igt_assert_eq(present_keyed_mutex_release(s, 0), 0);
	present_shared_surface_close(s);
	close(tp[0]); close(tp[1]); close(ack[0]); close(ack[1]);
}

/*
 * Producer (render adapter) and consumer (vgem) processes: a full root
 * "free" queue and a clone "work" queue with 8 bytes of metadata; frames
 * arrive in order with their metadata and pixels.
 */
static void test_queue_fifo(void)
{
	enum { FRAMES = 40 };
	struct present_surface_queue_desc qd = {
		.width = W, .height = H, .format = DRM_FORMAT_XRGB8888,
		.num_surfaces = 3, .metadata_size = 0,
	};
	struct present_surface_queue *freeq, *work;
	struct present_share_token tok[2];
	struct present_shared_surface *s;
	int tp[2];
	pid_t pid;

	pid = fork_piped(tp, NULL);
	if (pid == 0) {
		struct present_surface_queue *f, *w;
		struct present_surface_desc sd;
		int vg = open_vgem(), bad = 0;

		if (vg < 0 || get(tp[0], tok, sizeof(tok)) ||
		    present_surface_queue_open(&tok[0], vg, &f) ||
		    present_surface_queue_open(&tok[1], vg, &w))
			_exit(2);
		for (uint32_t i = 0; i < FRAMES; i++) {
			uint64_t m = 0;
			uint32_t ms = sizeof(m), h;
			struct present_shared_surface *cs;
			void *p;

			if (present_surface_queue_dequeue(w, &cs, &m, &ms,
							  5000)) {
				bad++;
				break;
			}
			bad += ms != sizeof(m) || m != 0x1000 + i;
			bad += present_shared_surface_handle(cs, &h) != 0;
			present_shared_surface_desc(cs, &sd);
			bad += present_shared_surface_map(cs, &p) != 0;
			bad += check(p, sd.pitch, i) != 0;
			bad += present_surface_queue_enqueue(f, cs, NULL, 0, 0)
				!= 0;
			/* handed back: not ours any more */
			bad += present_shared_surface_handle(cs, &h) !=
			       PRESENT_E_INVALID_ARG;
		}
		present_surface_queue_close(w);
		present_surface_queue_close(f);
		close(vg);
		_exit(bad ? 1 : 0);
	}
	igt_assert_eq(present_surface_queue_create(render_fd, &qd, &freeq), 0);
	igt_assert_eq(present_surface_queue_clone(freeq, 8, &work), 0);
	/* nothing produced yet: do-not-block dequeue says so at once */
	igt_assert_eq(present_surface_queue_dequeue(work, &s, NULL, NULL, 0),
		      PRESENT_E_WAS_STILL_DRAWING);
	igt_assert_eq(present_surface_queue_dequeue(work, &s, NULL, NULL, 20),
		      PRESENT_E_TIMEOUT);
	present_surface_queue_token(freeq, &tok[0]);
	present_surface_queue_token(work, &tok[1]);
	put(tp[1], tok, sizeof(tok));
	for (uint32_t i = 0; i < FRAMES; i++) {
		struct present_surface_desc sd;
		uint8_t big[9] = { 0 };
		uint64_t m = 0x1000 + i;
		void *p;

		igt_assert_eq(present_surface_queue_dequeue(freeq, &s, NULL,
							    NULL, 5000), 0);
		present_shared_surface_desc(s, &sd);
		igt_assert_eq(present_shared_surface_map(s, &p), 0);
		fill(p, sd.pitch, i);
		igt_assert_eq(present_surface_queue_enqueue(work, s, big, 9, 0),
			      PRESENT_E_INVALID_ARG);
		igt_assert_eq(present_surface_queue_enqueue(work, s, &m,
							    sizeof(m), 0), 0);
		igt_assert_eq(present_shared_surface_map(s, &p),
			      PRESENT_E_INVALID_ARG);
	}
	reap(pid);
	present_surface_queue_close(work);
	present_surface_queue_close(freeq);
	close(tp[0]); close(tp[1]);
}

static struct vfq_color expect_seed(int x, int y, void *data)
{
	return vfq_pattern8(x, y, *(uint32_t *)data);
}

/*
 * The display device's pipe 0 lit at @mode, the whole of @fb on its
 * primary, in one blocking modeset; @fb is an imported surface's
 * (vfq_fb_wrap()), without an igt_fb.
 */
static void scan_out(igt_display_t *display, struct vfq_dev *dev,
		     const drmModeModeInfo *mode, struct vfq_fb *fb)
{
	vfq_display_pipe(display, dev, 0, mode, fb);
	igt_display_commit2(display, COMMIT_ATOMIC);
}

/*
 * Another process renders (CPU) a vgem buffer and shares it; this process
 * imports it into the display device and scans it out: the writeback
 * capture shows the other process's pixels.
 */
static void test_scanout_import(void)
{
	struct present_shared_surface *o;
	struct present_share_token t;
	struct present_surface_desc d;
	struct vfq_dev dev;
	igt_display_t display;
	struct vfq_fb fb, out;
	drmModeModeInfo mode;
	uint32_t seed = 21, h;
	int tp[2], go[2];
	pid_t pid;

	vfq_dev_init(&dev, vfq_open_card(disp_card));
	igt_require(dev.caps.caps & VFLIPQ_CAP_WRITEBACK);
	/* raw: also zpos, which igt_display_reset() leaves */
	vfq_dev_reset(&dev);
	vfq_display_init(&display, &dev);
	vfq_get_mode(dev.fd, dev.pipe[0].conn_id, 640, 480, 60, &mode);
	pid = fork_piped(tp, go);
	if (pid == 0) {
		struct present_surface_desc cd = desc();
		struct present_shared_surface *s;
		struct vfq_fb bo;
		int vg = open_vgem();
		char c;

		if (vg < 0 || vfq_bo_create(vg, 640, 480, DRM_FORMAT_XRGB8888,
					    &bo))
			_exit(2);
		vfq_fb_pattern(&bo, seed);
		cd.width = 640;
		cd.height = 480;
		cd.pitch = bo.pitch;
		cd.size = bo.size;
		if (present_shared_surface_export(vg, bo.handle, &cd, &s))
			_exit(3);
		present_shared_surface_token(s, &t);
		put(tp[1], &t, sizeof(t));
		if (read(go[0], &c, 1) != 1)
			_exit(4);
		present_shared_surface_close(s);
		_exit(0);
	}
	igt_assert_eq(get(tp[0], &t, sizeof(t)), 0);
	igt_assert_eq(present_shared_surface_open(&t, dev.fd, &o), 0);
	igt_assert_eq(write(go[1], "g", 1), 1);
	reap(pid);
	present_shared_surface_desc(o, &d);
	igt_assert_eq(present_shared_surface_handle(o, &h), 0);
	igt_assert_eq(vfq_fb_wrap(&fb, dev.fd, h, d.format, d.width, d.height,
				  d.pitch, d.size), 0);
	scan_out(&display, &dev, &mode, &fb);
	vfq_fb_create(dev.fd, 640, 480, DRM_FORMAT_XRGB8888, &out);
	/* vfq's: a deadline on the out-fence */
	vfq_wb_capture_ok(&dev, 0, &out);
	igt_assert_eq(vfq_fb_check(&out, expect_seed, &seed, 8, 0), 0);
	vfq_display_off(&display);
	vfq_fb_destroy(&out);
	drmModeRmFB(dev.fd, fb.fb_id);
	present_shared_surface_close(o);
	igt_display_fini(&display);
	vfq_dev_fini(&dev);
	close(tp[0]); close(tp[1]); close(go[0]); close(go[1]);
}

/*
 * The exporting device is unplugged (configfs disable) while another
 * device holds the surface: mappings made before keep working, the
 * removed device answers PRESENT_E_DEVICE_REMOVED, nothing crashes or
 * splats, and everything closes cleanly.
 */
static void test_device_removed(void)
{
	static const char *const attrs[] = { "crtcs", "0", NULL };
	const char *name = "igt-share-gone";
	struct present_surface_desc d = desc();
	struct present_shared_surface *s, *o, *x = NULL;
	struct present_share_token t;
	struct vfq_kmsg kmsg;
	char path[64];
	void *ps, *po;
	int card, fd, i;

	card = vfq_cfs_create(name, attrs);
	fd = vfq_open_card(card);
	igt_assert_fd(fd);
	igt_assert_eq(present_shared_surface_create(fd, &d, &s), 0);
	present_shared_surface_desc(s, &d);
	igt_assert_eq(present_shared_surface_map(s, &ps), 0);
	fill(ps, d.pitch, 61);
	present_shared_surface_token(s, &t);
	igt_assert_eq(present_shared_surface_open(&t, vgem_fd, &o), 0);
	igt_assert_eq(present_shared_surface_map(o, &po), 0);

	vfq_kmsg_open(&kmsg);
	igt_assert_lte(0, vfq_cfs_write(name, "enabled", "0"));
	snprintf(path, sizeof(path), "/dev/dri/card%d", card);
	for (i = 0; i < 200 && access(path, F_OK) == 0; i++)
		usleep(10000);
	igt_assert_f(access(path, F_OK) != 0, "%s still there\n", path);

	igt_assert_eq(check(ps, d.pitch, 61), 0);
	igt_assert_eq(check(po, d.pitch, 61), 0);
	igt_assert_eq(present_shared_surface_create(fd, &d, &x),
		      PRESENT_E_DEVICE_REMOVED);
	igt_assert(x == NULL);
	igt_assert_eq(present_shared_surface_open(&t, fd, &x),
		      PRESENT_E_DEVICE_REMOVED);
	/* the vgem side still has the buffer and its handle */
	igt_assert_eq(present_keyed_mutex_acquire(o, 0, 0), 0);
	igt_assert_eq(present_keyed_mutex_release(o, 0), 0);
	present_shared_surface_close(s);
	igt_assert_eq(check(po, d.pitch, 61), 0);
	present_shared_surface_close(o);
	close(fd);
	igt_assert_eq(vfq_kmsg_splats(&kmsg), 0);
	vfq_kmsg_close(&kmsg);
	igt_assert_eq(vfq_cfs_rmdir(name), 0);
}

/*
 * The real pipeline: a producer process renders on the render adapter, the
 * consumer (this process) opens the queue on the display device, scans
 * every dequeued surface out and checks it by writeback, then hands it
 * back through the free queue.
 */
static void test_queue_scanout(void)
{
	enum { FRAMES = 4 };
	struct present_surface_queue_desc qd = {
		.width = 640, .height = 480, .format = DRM_FORMAT_XRGB8888,
		.num_surfaces = 2, .metadata_size = 0,
	};
	struct present_surface_queue *freeq, *work;
	struct present_share_token tok[2];
	struct vfq_dev dev;
	igt_display_t display;
	drmModeModeInfo mode;
	struct vfq_fb out;
	int tp[2];
	pid_t pid;

	vfq_dev_init(&dev, vfq_open_card(disp_card));
	igt_require(dev.caps.caps & VFLIPQ_CAP_WRITEBACK);
	/* raw: also zpos, which igt_display_reset() leaves */
	vfq_dev_reset(&dev);
	vfq_display_init(&display, &dev);
	vfq_get_mode(dev.fd, dev.pipe[0].conn_id, 640, 480, 60, &mode);
	pid = fork_piped(tp, NULL);
	if (pid == 0) {
		struct present_surface_queue *f, *w;
		int fd = vfq_open_card(render_card), bad = 0;

		if (fd < 0 || get(tp[0], tok, sizeof(tok)) ||
		    present_surface_queue_open(&tok[0], fd, &f) ||
		    present_surface_queue_open(&tok[1], fd, &w))
			_exit(2);
		for (uint32_t i = 0; i < FRAMES; i++) {
			struct present_shared_surface *s;
			struct present_surface_desc sd;
			struct vfq_fb view = { 0 };
			uint32_t seed = 100 + i;
			void *p;

			if (present_surface_queue_dequeue(f, &s, NULL, NULL,
							  10000)) {
				bad++;
				break;
			}
			present_shared_surface_desc(s, &sd);
			bad += present_shared_surface_map(s, &p) != 0;
			view.map = p;
			view.format = sd.format;
			view.width = sd.width;
			view.height = sd.height;
			view.pitch = sd.pitch;
			view.size = sd.size;
			view.n_planes = 1;
			view.pitches[0] = sd.pitch;
			vfq_fb_pattern(&view, seed);
			bad += present_surface_queue_enqueue(w, s, &seed,
							     sizeof(seed), 0)
				!= 0;
		}
		present_surface_queue_close(w);
		present_surface_queue_close(f);
		close(fd);
		_exit(bad ? 1 : 0);
	}
	/* the consumer creates the queues on its device (creator = consumer) */
	igt_assert_eq(present_surface_queue_create(dev.fd, &qd, &freeq), 0);
	igt_assert_eq(present_surface_queue_clone(freeq, 4, &work), 0);
	present_surface_queue_token(freeq, &tok[0]);
	present_surface_queue_token(work, &tok[1]);
	put(tp[1], tok, sizeof(tok));
	vfq_fb_create(dev.fd, 640, 480, DRM_FORMAT_XRGB8888, &out);
	for (int i = 0; i < FRAMES; i++) {
		struct present_shared_surface *s;
		struct present_surface_desc sd;
		struct vfq_fb fb;
		uint32_t seed = 0, ms = sizeof(seed), h;

		igt_assert_eq(present_surface_queue_dequeue(work, &s, &seed,
							    &ms, 10000), 0);
		igt_assert_eq_u32(seed, 100 + i);	/* FIFO */
		present_shared_surface_desc(s, &sd);
		igt_assert_eq(present_shared_surface_handle(s, &h), 0);
		igt_assert_eq(vfq_fb_wrap(&fb, dev.fd, h, sd.format, sd.width,
					  sd.height, sd.pitch, sd.size), 0);
		scan_out(&display, &dev, &mode, &fb);
		/* vfq's: a deadline on the out-fence */
		vfq_wb_capture_ok(&dev, 0, &out);
		igt_assert_eq(vfq_fb_check(&out, expect_seed, &seed, 8, 0), 0);
		vfq_display_off(&display);
		drmModeRmFB(dev.fd, fb.fb_id);
		igt_assert_eq(present_surface_queue_enqueue(freeq, s, NULL, 0,
							    0), 0);
	}
	reap(pid);
	vfq_fb_destroy(&out);
	present_surface_queue_close(work);
	present_surface_queue_close(freeq);
	igt_display_fini(&display);
	vfq_dev_fini(&dev);
	close(tp[0]); close(tp[1]);
}

static uint32_t late_fence;

static void *signal_later(void *arg)
{
	struct drm_vgem_fence_signal sig = { .fence = late_fence };

	(void)arg;
	usleep(200000);
	drmIoctl(vgem_fd, DRM_IOCTL_VGEM_FENCE_SIGNAL, &sig);
	return NULL;
}

/*
 * Do-not-wait enqueue of a surface the GPU (a vgem write fence) is still
 * writing: pending, not dequeueable, flush commits it once the fence
 * signals; FIFO holds across the pending entry.
 */
static void test_queue_do_not_wait(void)
{
	struct present_surface_queue_desc qd = {
		.width = 64, .height = 64, .format = DRM_FORMAT_XRGB8888,
		.num_surfaces = 2, .metadata_size = 4,
	};
	struct present_surface_queue *root, *q;
	struct present_shared_surface *a, *b, *x;
	struct drm_vgem_fence_attach fa = { .flags = VGEM_FENCE_WRITE };
	struct drm_vgem_fence_signal sig = { 0 };
	uint32_t pend = 99, m, ms;

	igt_assert_eq(present_surface_queue_create(vgem_fd, &qd, &root), 0);
	igt_assert_eq(present_surface_queue_clone(root, 4, &q), 0);
	igt_assert_eq(present_surface_queue_dequeue(root, &a, NULL, NULL, 0), 0);
	igt_assert_eq(present_surface_queue_dequeue(root, &b, NULL, NULL, 0), 0);
	igt_assert_eq(present_shared_surface_handle(a, &fa.handle), 0);
	do_ioctl(vgem_fd, DRM_IOCTL_VGEM_FENCE_ATTACH, &fa);

	m = 1;
	igt_assert_eq(present_surface_queue_enqueue(q, a, &m, 4,
			PRESENT_SURFACE_QUEUE_DO_NOT_WAIT),
		      PRESENT_E_WAS_STILL_DRAWING);
	/* b is ready but must not overtake a */
	m = 2;
	igt_assert_eq(present_surface_queue_enqueue(q, b, &m, 4,
			PRESENT_SURFACE_QUEUE_DO_NOT_WAIT),
		      PRESENT_E_WAS_STILL_DRAWING);
	igt_assert_eq(present_surface_queue_dequeue(q, &x, NULL, NULL, 0),
		      PRESENT_E_WAS_STILL_DRAWING);
	igt_assert_eq(present_surface_queue_flush(q,
			PRESENT_SURFACE_QUEUE_DO_NOT_WAIT, &pend),
		      PRESENT_E_WAS_STILL_DRAWING);
	igt_assert_eq_u32(pend, 2);
	sig.fence = fa.out_fence;
	do_ioctl(vgem_fd, DRM_IOCTL_VGEM_FENCE_SIGNAL, &sig);
	igt_assert_eq(present_surface_queue_flush(q,
			PRESENT_SURFACE_QUEUE_DO_NOT_WAIT, &pend), 0);
	igt_assert_eq_u32(pend, 0);
	ms = 4;
	igt_assert_eq(present_surface_queue_dequeue(q, &x, &m, &ms, 0), 0);
	igt_assert(x == a && m == 1);
	ms = 4;
	igt_assert_eq(present_surface_queue_dequeue(q, &x, &m, &ms, 0), 0);
	igt_assert(x == b && m == 2);
	/* a blocking enqueue waits for the GPU (the fence, 200 ms later) */
	igt_assert_eq(present_shared_surface_handle(a, &fa.handle), 0);
	fa.out_fence = 0;
	do_ioctl(vgem_fd, DRM_IOCTL_VGEM_FENCE_ATTACH, &fa);
	{
		pthread_t th;
		uint64_t t0 = vfq_now_ns();

		late_fence = fa.out_fence;
		igt_assert_eq(pthread_create(&th, NULL, signal_later, NULL), 0);
		igt_assert_eq(present_surface_queue_enqueue(root, a, NULL, 0, 0),
			      0);
		igt_assert_lte_u64(150000000ull, vfq_now_ns() - t0);
		pthread_join(th, NULL);
	}
	/* a blocking enqueue of a ready surface commits at once */
	igt_assert_eq(present_surface_queue_enqueue(root, b, NULL, 0, 0), 0);
	present_surface_queue_close(q);
	present_surface_queue_close(root);
}

igt_main
{
	igt_fixture {
		static const char *const attrs[] = { "crtcs", "0", NULL };
		int fd;

		igt_require(vfq_cfs_available());
		vfq_cfs_cleanup();
		render_card = vfq_cfs_create("igt-share-render", attrs);
		render_fd = vfq_open_card(render_card);
		igt_assert_fd(render_fd);
		fd = vfq_open_default();
		disp_card = vfq_card_index(fd);
		close(fd);
		igt_assert_lte(0, disp_card);
		vgem_fd = open_vgem();
		igt_assert_f(vgem_fd >= 0, "no vgem card\n");
	}

	igt_describe("A surface created on the render adapter is imported by "
		     "another process into vgem and the display device: same "
		     "dma-buf, same pixels, writes visible both ways");
	igt_subtest("cross-process-cross-device")
		test_cross_device();

	igt_describe("A vgem buffer shared by another process scans out on "
		     "the display device (writeback shows its pixels)");
	igt_subtest("scanout-imported-surface")
		test_scanout_import();

	igt_describe("An existing GEM buffer is shared; multi-mip and "
		     "multi-layer descriptions are refused");
	igt_subtest("export-existing-single-allocation")
		test_export_handle();

	igt_describe("The importer keeps the pixels after the exporter closed "
		     "the surface and exited; the dma-buf goes with the last "
		     "handle; the stale token no longer opens");
	igt_subtest("lifetime-after-exporter-exit")
		test_lifetime();

	igt_describe("The exporting device is unplugged while vgem holds the "
		     "surface: old mappings work, the removed device answers "
		     "DEVICE_REMOVED, clean teardown");
	igt_subtest("exporter-device-removed")
		test_device_removed();

	igt_describe("Keyed-mutex ping-pong between processes on two devices, "
		     "acquire timeouts while the other process holds it");
	igt_subtest("keyed-mutex-ping-pong")
		test_keyed_mutex();

	igt_describe("A process killed while holding the keyed mutex: the next "
		     "acquire gets it with PRESENT_KEYED_MUTEX_ABANDONED");
	igt_subtest("keyed-mutex-abandoned")
		test_keyed_mutex_abandoned();

	igt_describe("Surface queue between a render-adapter producer and a "
		     "vgem consumer process: FIFO, metadata, ownership, "
		     "dequeue timeout 0");
	igt_subtest("queue-fifo-processes")
		test_queue_fifo();

	igt_describe("Render-adapter producer process, display-device consumer "
		     "scanning every dequeued surface out (writeback check)");
	igt_subtest("queue-render-to-display-scanout")
		test_queue_scanout();

	igt_describe("Do-not-wait enqueue of a surface with an unsignalled "
		     "write fence stays pending until flushed after the fence "
		     "signals, without breaking FIFO order; a blocking enqueue "
		     "waits for the fence");
	igt_subtest("queue-do-not-wait-flush")
		test_queue_do_not_wait();

	igt_fixture {
		if (vgem_fd >= 0)
			close(vgem_fd);
		if (render_fd >= 0)
			close(render_fd);
		vfq_cfs_cleanup();
	}
}
