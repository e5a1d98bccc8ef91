// SPDX-License-Identifier: MIT
/*
 * PRIME with vgem: scan out a vgem buffer, read a vflipq buffer through
 * vgem, and check that handles and dma-bufs are released.
 */
/**
 * TEST: vflipq prime
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: dmabuf
 * Functionality: prime
 * Driver requirement: vflipq
 * Description: PRIME between vflipq and vgem: a vgem buffer scanned out, a
 *              vflipq buffer read and written through vgem, fences honoured,
 *              handles and dma-bufs released.
 *
 * SUBTEST: vgem-to-vflipq-scanout
 * Description: A vgem buffer filled through vgem scans out on vflipq
 *
 * SUBTEST: vflipq-to-vgem
 * Description: A vflipq dumb buffer imported into vgem reads the same through
 *              vgem's dma-buf, and vgem-side writes show up in vflipq's
 *              mapping
 *
 * SUBTEST: self-import
 * Description: Importing its own export gives back the same handle
 *
 * SUBTEST: exporter-closed-first
 * Description: The dma-buf outlives the exporter's handle and fd while
 *              imported, and goes away with the last user
 *
 * SUBTEST: implicit-fence
 * Description: A flip to an imported buffer waits for its implicit
 *              (reservation) write fence
 *
 * SUBTEST: in-fence-fd
 * Description: A flip waits for the sync_file passed as IN_FENCE_FD
 *
 * SUBTEST: no-leaks
 * Description: Many export/import/close rounds leak nothing
 */

#include <fcntl.h>
#include <linux/dma-buf.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "igt.h"
#include "vflipq_helpers.h"

IGT_TEST_DESCRIPTION("vflipq dma-buf import/export with vgem");

#define W 640
#define H 480

static struct vfq_dev dev;
static igt_display_t display;
static int vgem = -1;
static drmModeModeInfo mode;

/* Wait until the live dma-buf count is @want (releases may lag a bit). */
static void wait_dmabufs(int want)
{
	int n = vfq_dmabuf_count();

	for (int i = 0; i < 100 && n != want; i++) {
		usleep(10000);
		n = vfq_dmabuf_count();
	}
	igt_assert_f(n == want, "%d dma-bufs alive, expected %d\n", n, want);
}

static int to_dmabuf(int fd, uint32_t handle)
{
	int dmabuf = -1;

	igt_assert_eq(drmPrimeHandleToFD(fd, handle, DRM_CLOEXEC | DRM_RDWR,
					 &dmabuf), 0);
	igt_assert_fd(dmabuf);
	return dmabuf;
}

static uint32_t from_dmabuf(int fd, int dmabuf)
{
	uint32_t handle = 0;

	igt_assert_eq(drmPrimeFDToHandle(fd, dmabuf, &handle), 0);
	igt_assert(handle);
	return handle;
}

/*
 * Blocking modeset of pipe 0 to the test's mode, the whole of @fb on its
 * primary (an imported buffer's fb, without an igt_fb).
 */
static void pipe0_on(struct vfq_fb *fb)
{
	vfq_display_pipe(&display, &dev, 0, &mode, fb);
	igt_display_commit2(&display, COMMIT_ATOMIC);
}

/*
 * A nonblocking flip of the primary to @fb (with @in_fence as IN_FENCE_FD
 * when >= 0) must not complete before vgem @fence is signalled.  Raw: the
 * primary's FB_ID (and IN_FENCE_FD) alone, the flip's event read and
 * judged by the test.
 */
static void check_flip_waits(struct vfq_fb *fb, int in_fence, uint32_t fence)
{
	struct vfq_pipe *p = &dev.pipe[0];
	drmModeAtomicReq *req = vfq_req_new();
	struct vfq_event ev;

	vfq_req_set(req, dev.fd, p->primary, DRM_MODE_OBJECT_PLANE, "FB_ID",
		    fb->fb_id);
	if (in_fence >= 0)
		vfq_req_set(req, dev.fd, p->primary, DRM_MODE_OBJECT_PLANE,
			    "IN_FENCE_FD", in_fence);
	igt_assert_eq(vfq_req_commit(dev.fd, req, DRM_MODE_ATOMIC_NONBLOCK |
				     DRM_MODE_PAGE_FLIP_EVENT, (void *)0x77),
		      0);
	igt_assert_f(vfq_read_event(dev.fd, 300, &ev) == 0,
		     "flip completed before its fence was signalled\n");
	vfq_vgem_fence_signal(vgem, fence);
	igt_assert_eq(vfq_read_event(dev.fd, 1000, &ev), 1);
	igt_assert_eq_u32(ev.type, DRM_EVENT_FLIP_COMPLETE);
	igt_assert_eq_u64(ev.user_data, 0x77);
	igt_assert_eq_u64(vfq_prop_get(dev.fd, p->primary,
				       DRM_MODE_OBJECT_PLANE, "FB_ID"),
			  fb->fb_id);
}

static void dmabuf_sync(int dmabuf, uint64_t flags)
{
	struct dma_buf_sync sync = { .flags = flags };

	do_ioctl(dmabuf, DMA_BUF_IOCTL_SYNC, &sync);
}

static void close_handle(int fd, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	do_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
}

/* A vflipq fb around an imported handle (no CPU mapping). */
static void wrap_import(uint32_t handle, const struct vfq_fb *src,
			struct vfq_fb *fb)
{
	igt_assert_eq(vfq_fb_wrap(fb, dev.fd, handle, src->format, src->width,
				  src->height, src->pitch, src->size), 0);
}

static struct vfq_color expect_seed(int x, int y, void *data)
{
	return vfq_pattern8(x, y, *(uint32_t *)data);
}

/* Scan @fb out on CRTC 0 and check a writeback capture of it. */
static void check_scanout(struct vfq_fb *fb, uint32_t seed)
{
	struct vfq_fb out;

	pipe0_on(fb);
	vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &out);
	/* vfq's: a deadline on the out-fence */
	vfq_wb_capture_ok(&dev, 0, &out);
	igt_assert_eq(vfq_fb_check(&out, expect_seed, &seed, 8, 0), 0);
	vfq_display_off(&display);
	vfq_fb_destroy(&out);
}

igt_main
{
	igt_fixture {
		vfq_dev_init(&dev, vfq_open_default());
		/* raw: also zpos, which igt_display_reset() leaves */
		vfq_dev_reset(&dev);
		vfq_display_init(&display, &dev);
		vgem = vfq_open_driver("vgem");
		igt_assert_f(vgem >= 0, "no vgem card: %s\n", strerror(-vgem));
		vfq_get_mode(dev.fd, dev.pipe[0].conn_id, W, H, 60, &mode);
		igt_assert_lte(0, vfq_dmabuf_count());
	}

	igt_describe("A vgem buffer filled through vgem scans out on vflipq");
	igt_subtest("vgem-to-vflipq-scanout") {
		struct vfq_fb bo, fb;
		uint32_t seed = 5;
		int dmabuf;

		igt_require(dev.caps.caps & VFLIPQ_CAP_WRITEBACK);
		igt_assert_eq(vfq_bo_create(vgem, W, H, DRM_FORMAT_XRGB8888,
					    &bo), 0);
		vfq_fb_pattern(&bo, seed);
		dmabuf = to_dmabuf(vgem, bo.handle);
		wrap_import(from_dmabuf(dev.fd, dmabuf), &bo, &fb);
		close(dmabuf);
		check_scanout(&fb, seed);
		vfq_fb_destroy(&fb);
		vfq_fb_destroy(&bo);
	}

	igt_describe("A vflipq dumb buffer imported into vgem reads the same "
		     "through vgem's dma-buf, and vgem-side writes show up in "
		     "vflipq's mapping");
	igt_subtest("vflipq-to-vgem") {
		struct vfq_fb bo;
		struct stat a, b;
		uint32_t h;
		uint8_t *ptr;
		int dmabuf, again;

		vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &bo);
		vfq_fb_pattern(&bo, 9);
		dmabuf = to_dmabuf(dev.fd, bo.handle);
		h = from_dmabuf(vgem, dmabuf);
		/*
		 * The DRM core refuses dumb mmap offsets for imported objects,
		 * so vgem's view is the dma-buf it hands out for its handle:
		 * the very same buffer.
		 */
		again = to_dmabuf(vgem, h);
		igt_assert_eq(fstat(dmabuf, &a), 0);
		igt_assert_eq(fstat(again, &b), 0);
		igt_assert_eq_u64(a.st_ino, b.st_ino);
		ptr = mmap(NULL, bo.size, PROT_READ | PROT_WRITE, MAP_SHARED,
			   again, 0);
		igt_assert(ptr != MAP_FAILED);
		dmabuf_sync(again, DMA_BUF_SYNC_START | DMA_BUF_SYNC_RW);
		igt_assert_eq(memcmp(ptr, bo.map, bo.size), 0);
		memset(ptr + bo.pitch * 10, 0x42, bo.pitch);
		dmabuf_sync(again, DMA_BUF_SYNC_END | DMA_BUF_SYNC_RW);
		igt_assert_eq(bo.map[bo.pitch * 10 + 5], 0x42);
		munmap(ptr, bo.size);
		close(again);
		close_handle(vgem, h);
		/* the handle is gone */
		do_ioctl_err(vgem, DRM_IOCTL_GEM_CLOSE,
			     &((struct drm_gem_close){ .handle = h }), EINVAL);
		close(dmabuf);
		vfq_fb_destroy(&bo);
	}

	igt_describe("Importing its own export gives back the same handle");
	igt_subtest("self-import") {
		struct vfq_fb bo;
		int dmabuf;

		vfq_fb_create(dev.fd, 64, 64, DRM_FORMAT_XRGB8888, &bo);
		dmabuf = to_dmabuf(dev.fd, bo.handle);
		igt_assert_eq_u32(from_dmabuf(dev.fd, dmabuf), bo.handle);
		/* exporting again returns the same dma-buf */
		{
			int again = to_dmabuf(dev.fd, bo.handle);
			struct stat a, b;

			igt_assert_eq(fstat(dmabuf, &a), 0);
			igt_assert_eq(fstat(again, &b), 0);
			igt_assert_eq_u64(a.st_ino, b.st_ino);
			close(again);
		}
		close(dmabuf);
		vfq_fb_destroy(&bo);
	}

	igt_describe("The dma-buf outlives the exporter's handle and fd while "
		     "imported, and goes away with the last user");
	igt_subtest("exporter-closed-first") {
		struct vfq_fb bo, fb;
		uint32_t seed = 13;
		int base = vfq_dmabuf_count(), fds = vfq_open_fd_count();
		int dmabuf, vgem2;

		igt_require(dev.caps.caps & VFLIPQ_CAP_WRITEBACK);
		vgem2 = vfq_open_driver("vgem");
		igt_assert_fd(vgem2);
		igt_assert_eq(vfq_bo_create(vgem2, W, H, DRM_FORMAT_XRGB8888,
					    &bo), 0);
		vfq_fb_pattern(&bo, seed);
		dmabuf = to_dmabuf(vgem2, bo.handle);
		wait_dmabufs(base + 1);
		wrap_import(from_dmabuf(dev.fd, dmabuf), &bo, &fb);

		/* exporter lets go of everything */
		vfq_fb_destroy(&bo);
		close(dmabuf);
		close(vgem2);
		wait_dmabufs(base + 1);
		check_scanout(&fb, seed);

		/* last user gone: no dma-buf, no fd left behind */
		vfq_fb_destroy(&fb);
		wait_dmabufs(base);
		igt_assert_eq(vfq_open_fd_count(), fds);
	}

	igt_describe("A flip to an imported buffer waits for its implicit "
		     "(reservation) write fence");
	igt_subtest("implicit-fence") {
		struct vfq_fb bo, fb, first;
		uint32_t fence;
		int dmabuf;

		igt_assert_eq(vfq_bo_create(vgem, W, H, DRM_FORMAT_XRGB8888,
					    &bo), 0);
		vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &first);
		dmabuf = to_dmabuf(vgem, bo.handle);
		wrap_import(from_dmabuf(dev.fd, dmabuf), &bo, &fb);
		pipe0_on(&first);
		fence = vfq_vgem_fence_write(vgem, bo.handle);
		check_flip_waits(&fb, -1, fence);
		vfq_display_off(&display);
		close(dmabuf);
		vfq_fb_destroy(&fb);
		vfq_fb_destroy(&bo);
		vfq_fb_destroy(&first);
	}

	igt_describe("A flip waits for the sync_file passed as IN_FENCE_FD");
	igt_subtest("in-fence-fd") {
		struct dma_buf_export_sync_file ex = {
			.flags = DMA_BUF_SYNC_WRITE, .fd = -1 };
		struct vfq_fb bo, a, b;
		uint32_t fence;
		int dmabuf;

		igt_assert_eq(vfq_bo_create(vgem, 64, 64, DRM_FORMAT_XRGB8888,
					    &bo), 0);
		vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &a);
		vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &b);
		pipe0_on(&a);
		/* a sync_file of an unsignalled vgem fence */
		fence = vfq_vgem_fence_write(vgem, bo.handle);
		dmabuf = to_dmabuf(vgem, bo.handle);
		do_ioctl(dmabuf, DMA_BUF_IOCTL_EXPORT_SYNC_FILE, &ex);
		igt_assert_fd(ex.fd);
		check_flip_waits(&b, ex.fd, fence);
		close(ex.fd);
		close(dmabuf);
		vfq_display_off(&display);
		vfq_fb_destroy(&a);
		vfq_fb_destroy(&b);
		vfq_fb_destroy(&bo);
	}

	igt_describe("Many export/import/close rounds leak nothing");
	igt_subtest("no-leaks") {
		int base = vfq_dmabuf_count(), fds = vfq_open_fd_count();

		for (int i = 0; i < 32; i++) {
			struct vfq_fb a, b, fb;
			int d1, d2;
			uint32_t h;

			igt_assert_eq(vfq_bo_create(vgem, 64, 64,
						    DRM_FORMAT_XRGB8888, &a), 0);
			vfq_fb_create(dev.fd, 64, 64, DRM_FORMAT_XRGB8888, &b);
			d1 = to_dmabuf(vgem, a.handle);
			d2 = to_dmabuf(dev.fd, b.handle);
			wrap_import(from_dmabuf(dev.fd, d1), &a, &fb);
			h = from_dmabuf(vgem, d2);
			close(d1);
			close(d2);
			if (i & 1) {	/* either side may go first */
				vfq_fb_destroy(&a);
				vfq_fb_destroy(&fb);
			} else {
				vfq_fb_destroy(&fb);
				vfq_fb_destroy(&a);
			}
			close_handle(vgem, h);
			vfq_fb_destroy(&b);
		}
		wait_dmabufs(base);
		igt_assert_eq(vfq_open_fd_count(), fds);
	}

	igt_fixture {
		vfq_display_off(&display);
		igt_display_fini(&display);
		vfq_dev_fini(&dev);
		close(vgem);
	}
}
