// SPDX-License-Identifier: MIT
/*
 * The security rules of the driver, one subtest each: what non-master and
 * render-node clients may not do, that one client cannot name another's
 * GEM handles or put another's framebuffers in its flip queue or copies,
 * that sizes computed from user input cannot overflow, that nothing the
 * kernel copies back leaks kernel memory, and that the flip-queue log is
 * read-only in every way userspace could map it.
 */
/**
 * TEST: vflipq security
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: uapi
 * Functionality: permission management for clients
 * Driver requirement: vflipq
 * Description: The security rules of the driver: what non-master and
 *              render-node clients may not do, GEM handles and framebuffers
 *              per client, size overflows, no kernel memory reaching
 *              userspace, and a read-only flip-queue log.
 *
 * SUBTEST: non-master-flipq
 * Description: Non-master clients cannot queue, cancel, set logs or interrupt
 *              targets
 *
 * SUBTEST: non-master-planes
 * Description: Non-master clients cannot change the master's planes
 *
 * SUBTEST: render-node
 * Description: Render nodes reach only the render-allowed ioctls
 *
 * SUBTEST: render-only-card-node
 * Description: The card node of a render-only device refuses KMS cleanly, also
 *              under concurrent clients
 *
 * SUBTEST: gem-handles-per-file
 * Description: GEM handles belong to one file
 *
 * SUBTEST: foreign-framebuffers
 * Description: Another client's framebuffers cannot be queued or copied
 *
 * SUBTEST: size-overflow
 * Description: Sizes computed from user input do not overflow
 *
 * SUBTEST: no-kernel-memory-leak
 * Description: No kernel memory reaches userspace through padding, reserved
 *              members or events
 *
 * SUBTEST: in-fence-without-fb
 * Description: An in-fence on a plane without a framebuffer is refused without
 *              a kernel warning
 *
 * SUBTEST: log-read-only
 * Description: The flip-queue log can only be mapped read-only
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "igt.h"
#include "vflipq_helpers.h"

IGT_TEST_DESCRIPTION("vflipq security rules: master, render nodes, handles, "
		     "overflows, kernel memory leaks, read-only logs");

#define W 640
#define H 480
#define NFB 3
#define PAGE 4096u
#define RENDER_DEV VFQ_CFS_PREFIX "sec-render"

static struct vfq_dev dev;
static drmModeModeInfo mode;
static struct vfq_fb fbs[NFB];

/* ioctl(2), not drmIoctl(): no hidden retries.  0 or -errno. */
static int xioctl(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) ? -errno : 0;
}

static bool all_bytes(const void *p, size_t len, uint8_t v)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < len; i++)
		if (b[i] != v)
			return false;
	return true;
}

static uint32_t crtc(void)
{
	return dev.pipe[0].crtc_id;
}

static uint32_t primary(void)
{
	return dev.pipe[0].primary;
}

static void pipe_up(void)
{
	vfq_dev_reset(&dev);
	vfq_pipe_on(&dev, 0, &mode, fbs[0].fb_id);
}

static int set_log(int fd, uint32_t plane, uint32_t n,
		   struct drm_vflipq_set_log *out)
{
	struct drm_vflipq_set_log s = { .crtc_id = crtc(), .plane_id = plane,
					.num_entries = n };
	int ret = xioctl(fd, DRM_IOCTL_VFLIPQ_FLIPQ_SET_LOG, &s);

	if (out)
		*out = s;
	return ret;
}

/*
 * One flip of one plane, a batch of one.  *@out: the flip as it came back
 * (drain hints when refused with EAGAIN); its drain hints, ignored on
 * input, are sent as *@out had them.
 */
static int submit(int fd, uint32_t plane, uint32_t fb, uint64_t id,
		  uint64_t target, struct drm_vflipq_flip *out)
{
	struct drm_vflipq_flip_plane p = { .plane_id = plane, .fb_id = fb,
					   .present_id = id };
	struct drm_vflipq_flip f = {
		.target_ns = target, .planes_ptr = (uintptr_t)&p,
		.num_planes = 1,
	};
	struct drm_vflipq_flipq_submit s = {
		.crtc_id = crtc(), .flips_ptr = (uintptr_t)&f, .num_flips = 1,
		.flip_size = sizeof(f), .plane_size = sizeof(p),
	};
	int ret;

	if (out) {
		f.drain_flags = out->drain_flags;	/* ignored on input */
		f.drain_planes = out->drain_planes;
	}
	ret = xioctl(fd, DRM_IOCTL_VFLIPQ_FLIPQ_SUBMIT, &s);
	if (out)
		*out = f;
	return ret;
}

static int cancel(int fd, uint32_t plane, uint64_t from)
{
	struct drm_vflipq_cancel_plane p = { .plane_id = plane,
		.present_id_cancel_requested = from };
	struct drm_vflipq_flip_cancel c = { .crtc_id = crtc(), .num_planes = 1,
		.planes_ptr = (uintptr_t)&p, .plane_size = sizeof(p) };

	return xioctl(fd, DRM_IOCTL_VFLIPQ_FLIPQ_CANCEL, &c);
}

static int update_log(int fd, uint32_t plane, struct drm_vflipq_update_log *out)
{
	struct drm_vflipq_update_log u = { .crtc_id = crtc(), .plane_id = plane };
	int ret = xioctl(fd, DRM_IOCTL_VFLIPQ_FLIPQ_UPDATE_LOG, &u);

	if (out)
		*out = u;
	return ret;
}

/* The interrupt target of @plane: a FLIPQ_SUBMIT without flips. */
static int irq_target(int fd, uint32_t plane, uint64_t target)
{
	struct drm_vflipq_flipq_submit t = {
		.crtc_id = crtc(), .flags = VFLIPQ_SUBMIT_IRQ_TARGET,
		.flip_size = sizeof(struct drm_vflipq_flip),
		.plane_size = sizeof(struct drm_vflipq_flip_plane),
		.irq_plane_id = plane, .irq_target = target,
	};

	return xioctl(fd, DRM_IOCTL_VFLIPQ_FLIPQ_SUBMIT, &t);
}

static struct drm_vflipq_get_counters counters(int fd)
{
	struct drm_vflipq_get_counters c = { .crtc_id = crtc() };

	igt_assert_eq(xioctl(fd, DRM_IOCTL_VFLIPQ_GET_COUNTERS, &c), 0);
	return c;
}

static uint64_t far_future(void)
{
	return vfq_now_ns() + 10ull * 1000000000;
}

/* A second file on the default device: never the master. */
static int open_second(void)
{
	int fd = vfq_open_card(vfq_card_index(dev.fd));

	igt_assert_fd(fd);
	igt_assert_eq(drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1), 0);
	igt_assert_eq(drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1), 0);
	return fd;
}

/* renderD minor of card @card, -1 without a render node. */
static int render_minor(int card)
{
	char path[128];
	struct dirent *de;
	DIR *d;
	int minor = -1;

	snprintf(path, sizeof(path), "/sys/class/drm/card%d/device/drm", card);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "renderD", 7))
			minor = atoi(de->d_name + 7);
	closedir(d);
	return minor;
}

/* The configfs render-only device: its card index. */
static int render_device(void)
{
	static const char *const attrs[] = { "crtcs", "0", NULL };
	char buf[16];

	igt_require(vfq_cfs_available());
	if (vfq_cfs_read(RENDER_DEV, "card", buf, sizeof(buf)) > 0 &&
	    atoi(buf) >= 0)
		return atoi(buf);
	vfq_cfs_write(RENDER_DEV, "enabled", "0");
	vfq_cfs_rmdir(RENDER_DEV);
	return vfq_cfs_create(RENDER_DEV, attrs);
}

/* ---- master ----------------------------------------------------------------- */

/*
 * All four flip-queue ioctls from @fd fail with @err, FLIPQ_SUBMIT also
 * when it only sets an interrupt target.
 */
static void check_flipq_refused(int fd, uint32_t fb, int err)
{
	struct drm_vflipq_set_log s;

	igt_assert_eq(submit(fd, primary(), fb, 1000, far_future(), NULL), -err);
	igt_assert_eq(cancel(fd, primary(), 1), -err);
	igt_assert_eq(set_log(fd, primary(), 16, &s), -err);
	igt_assert_eq(s.handle, 0);
	igt_assert_eq(update_log(fd, primary(), NULL), -err);
	igt_assert_eq(irq_target(fd, primary(), VFLIPQ_IRQ_TARGET_EVERY_VBLANK),
		      -err);
	igt_assert_eq(irq_target(fd, primary(), VFLIPQ_IRQ_TARGET_NONE), -err);
}

static void test_non_master_flipq(void)
{
	struct drm_vflipq_get_counters c0, c1;
	struct drm_vflipq_update_log u;
	struct drm_vflipq_get_caps caps;
	struct drm_vflipq_scanout_query q = { .width = W, .height = H,
					      .format = DRM_FORMAT_XRGB8888 };
	struct vfq_fb own;
	int fd2;

	pipe_up();
	igt_assert_eq(set_log(dev.fd, primary(), 16, NULL), 0);
	igt_assert_eq(submit(dev.fd, primary(), fbs[1].fb_id, 1, far_future(),
			     NULL), 0);
	fd2 = open_second();
	vfq_fb_create(fd2, W, H, DRM_FORMAT_XRGB8888, &own);

	/* Not the master: every flip-queue ioctl, with its own fb or not. */
	check_flipq_refused(fd2, own.fb_id, EACCES);
	check_flipq_refused(fd2, fbs[2].fb_id, EACCES);

	/* What anybody may ask. */
	igt_assert_eq(vfq_get_caps(fd2, &caps), 0);
	c0 = counters(fd2);
	igt_assert_eq(xioctl(fd2, DRM_IOCTL_VFLIPQ_SCANOUT_QUERY, &q), 0);

	/* The master's queue is untouched. */
	igt_assert_eq(update_log(dev.fd, primary(), &u), 0);
	igt_assert_eq(u.first_free, 0);
	igt_assert_eq(submit(dev.fd, primary(), fbs[2].fb_id, 2,
			     far_future() + 1, NULL), 0);

	/* A master that drops master is refused too, and its queue goes. */
	igt_assert_eq(drmDropMaster(dev.fd), 0);
	check_flipq_refused(dev.fd, fbs[1].fb_id, EACCES);
	c1 = counters(fd2);
	igt_assert_eq_u64(c1.flips_cancelled - c0.flips_cancelled, 2);
	igt_assert_eq(drmSetMaster(dev.fd), 0);
	igt_assert_eq(update_log(dev.fd, primary(), &u), 0);
	igt_assert_eq(u.first_free, 0);	/* the log went with the queue */

	vfq_fb_destroy(&own);
	close(fd2);
	vfq_dev_reset(&dev);
}

static void test_non_master_planes(void)
{
	struct drm_mode_set_plane sp = { 0 };
	struct drm_mode_crtc sc = { 0 };
	struct drm_mode_crtc_page_flip pf = { 0 };
	struct drm_mode_cursor cu = { 0 };
	struct drm_mode_obj_set_property op = { 0 };
	drmModeAtomicReq *req;
	drmModePlane *pl;
	struct vfq_fb own;
	uint32_t fb_id;
	int fd2;

	pipe_up();
	fd2 = open_second();
	vfq_fb_create(fd2, W, H, DRM_FORMAT_XRGB8888, &own);

	/* Atomic, real and TEST_ONLY, on the master's plane. */
	for (int k = 0; k < 3; k++) {
		static const uint32_t flags[] = {
			0, DRM_MODE_ATOMIC_TEST_ONLY,
			DRM_MODE_ATOMIC_NONBLOCK | DRM_MODE_PAGE_FLIP_EVENT,
		};

		req = vfq_req_new();
		vfq_req_set(req, fd2, primary(), DRM_MODE_OBJECT_PLANE, "FB_ID",
			    own.fb_id);
		igt_assert_eq(vfq_req_commit(fd2, req, flags[k], NULL), -EACCES);
	}
	req = vfq_req_new();
	vfq_req_plane_off(req, fd2, primary());
	igt_assert_eq(vfq_req_commit(fd2, req, DRM_MODE_ATOMIC_ALLOW_MODESET,
				     NULL), -EACCES);

	/* The legacy paths. */
	sp.plane_id = primary();
	sp.crtc_id = crtc();
	sp.fb_id = own.fb_id;
	sp.crtc_w = W;
	sp.crtc_h = H;
	sp.src_w = W << 16;
	sp.src_h = H << 16;
	igt_assert_eq(xioctl(fd2, DRM_IOCTL_MODE_SETPLANE, &sp), -EACCES);
	sc.crtc_id = crtc();
	igt_assert_eq(xioctl(fd2, DRM_IOCTL_MODE_SETCRTC, &sc), -EACCES);
	pf.crtc_id = crtc();
	pf.fb_id = own.fb_id;
	pf.flags = DRM_MODE_PAGE_FLIP_EVENT;
	igt_assert_eq(xioctl(fd2, DRM_IOCTL_MODE_PAGE_FLIP, &pf), -EACCES);
	cu.flags = DRM_MODE_CURSOR_MOVE;
	cu.crtc_id = crtc();
	cu.x = 10;
	igt_assert_eq(xioctl(fd2, DRM_IOCTL_MODE_CURSOR, &cu), -EACCES);
	op.obj_id = primary();
	op.obj_type = DRM_MODE_OBJECT_PLANE;
	op.prop_id = vfq_prop_id(fd2, primary(), DRM_MODE_OBJECT_PLANE,
				 "rotation");
	op.value = DRM_MODE_ROTATE_180;
	igt_assert_eq(xioctl(fd2, DRM_IOCTL_MODE_OBJ_SETPROPERTY, &op), -EACCES);
	/* Framebuffers are removed by their owner only. */
	fb_id = fbs[0].fb_id;
	igt_assert_eq(xioctl(fd2, DRM_IOCTL_MODE_RMFB, &fb_id), -ENOENT);

	/* Nothing changed on screen. */
	pl = drmModeGetPlane(dev.fd, primary());
	igt_assert(pl);
	igt_assert_eq(pl->fb_id, fbs[0].fb_id);
	igt_assert_eq(pl->crtc_id, crtc());
	drmModeFreePlane(pl);
	igt_assert_eq_u64(vfq_prop_get(dev.fd, primary(), DRM_MODE_OBJECT_PLANE,
				       "rotation"), DRM_MODE_ROTATE_0);

	vfq_fb_destroy(&own);
	close(fd2);
	vfq_dev_reset(&dev);
}

/* ---- render nodes ----------------------------------------------------------- */

static void test_render_node(void)
{
	int card = render_device(), minor, rfd, cfd, dmabuf;
	struct drm_vflipq_get_caps caps;
	struct drm_vflipq_get_counters gc = { 0 };
	struct drm_vflipq_scanout_query q = { .width = W, .height = H,
					      .format = DRM_FORMAT_XRGB8888 };
	struct drm_mode_card_res res = { 0 };
	struct drm_mode_create_dumb cd = { .width = 64, .height = 64, .bpp = 32 };
	struct drm_mode_map_dumb md = { 0 };
	struct drm_mode_fb_cmd2 f = { 0 };
	struct drm_mode_atomic at = { 0 };
	struct drm_vflipq_copy cp = { 0 };
	struct drm_vflipq_set_log sl;
	struct drm_prime_handle ph = { 0 };
	struct vfq_fb bo;
	char path[64];

	/* Display adapters have no render node at all. */
	igt_assert_eq(render_minor(vfq_card_index(dev.fd)), -1);
	minor = render_minor(card);
	igt_assert_f(minor >= 128, "render-only card%d has no render node\n",
		     card);
	snprintf(path, sizeof(path), "/dev/dri/renderD%d", minor);
	rfd = open(path, O_RDWR | O_CLOEXEC);
	igt_assert_fd(rfd);

	/* What DRM lets render clients reach. */
	igt_assert_eq(vfq_get_caps(rfd, &caps), 0);
	igt_assert(caps.caps & VFLIPQ_CAP_RENDER_ONLY);
	igt_assert_eq(caps.num_crtcs, 0);
	igt_assert_eq(xioctl(rfd, DRM_IOCTL_VFLIPQ_GET_COUNTERS, &gc), 0);
	igt_assert_eq(xioctl(rfd, DRM_IOCTL_VFLIPQ_SCANOUT_QUERY, &q), 0);
	igt_assert_eq(q.result, VFLIPQ_SCANOUT_NO_SCANOUT);
	igt_assert(q.reasons & VFLIPQ_NO_SCANOUT_NO_DISPLAY);
	igt_assert(vfq_is_driver(rfd, VFQ_DRIVER_NAME));
	/* PRIME import is render-allowed: a buffer made on the card node. */
	cfd = vfq_open_card(card);
	igt_assert_fd(cfd);
	igt_assert_eq(vfq_bo_create(cfd, 64, 64, DRM_FORMAT_XRGB8888, &bo), 0);
	igt_assert_eq(drmPrimeHandleToFD(cfd, bo.handle, DRM_CLOEXEC, &dmabuf), 0);
	ph.fd = dmabuf;
	igt_assert_eq(xioctl(rfd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &ph), 0);
	igt_assert(ph.handle);

	/* And nothing else. */
	igt_assert_eq(xioctl(rfd, DRM_IOCTL_MODE_GETRESOURCES, &res), -EACCES);
	igt_assert_eq(xioctl(rfd, DRM_IOCTL_MODE_CREATE_DUMB, &cd), -EACCES);
	md.handle = ph.handle;
	igt_assert_eq(xioctl(rfd, DRM_IOCTL_MODE_MAP_DUMB, &md), -EACCES);
	f.width = 64;
	f.height = 64;
	f.pixel_format = DRM_FORMAT_XRGB8888;
	f.handles[0] = ph.handle;
	f.pitches[0] = bo.pitch;
	igt_assert_eq(xioctl(rfd, DRM_IOCTL_MODE_ADDFB2, &f), -EACCES);
	igt_assert_eq(xioctl(rfd, DRM_IOCTL_MODE_ATOMIC, &at), -EACCES);
	igt_assert_eq(xioctl(rfd, DRM_IOCTL_SET_MASTER, NULL), -EACCES);
	check_flipq_refused(rfd, 1, EACCES);
	igt_assert_eq(set_log(rfd, 1, 16, &sl), -EACCES);
	cp.src_fb = cp.dst_fb = 1;
	cp.src_rect.w = cp.src_rect.h = cp.dst_rect.w = cp.dst_rect.h = 1;
	igt_assert_eq(xioctl(rfd, DRM_IOCTL_VFLIPQ_COPY, &cp), -EACCES);

	close(dmabuf);
	close(rfd);
	vfq_fb_destroy(&bo);
	close(cfd);
}

/*
 * The card node of a render-only device has no KMS objects: every KMS
 * ioctl and every vflipq ioctl that names one must fail cleanly, also when
 * several clients ask at once (the kernel log must stay clean).
 */
static void test_render_only_card_node(void)
{
	int card = render_device(), fd;
	struct drm_mode_card_res res = { 0 };
	struct drm_mode_atomic at = { 0 };
	struct drm_vflipq_get_counters gc = { .crtc_id = 1 };
	pid_t pids[4];

	fd = vfq_open_card(card);
	igt_assert_fd(fd);
	igt_assert_eq(drmSetMaster(fd), 0);
	igt_assert_eq(xioctl(fd, DRM_IOCTL_MODE_GETRESOURCES, &res), -EOPNOTSUPP);
	igt_assert_eq(xioctl(fd, DRM_IOCTL_MODE_ATOMIC, &at), -EOPNOTSUPP);
	igt_assert_eq(xioctl(fd, DRM_IOCTL_VFLIPQ_GET_COUNTERS, &gc), -EINVAL);

	for (int i = 0; i < 4; i++) {
		pids[i] = fork();
		igt_assert(pids[i] >= 0);
		if (pids[i] == 0) {
			int cfd = i ? vfq_open_card(card) : fd;
			uint64_t end = vfq_now_ns() + 1000000000ull;
			int bad = 0;

			while (vfq_now_ns() < end && !bad) {
				struct drm_vflipq_copy cp = {
					.src_fb = 1 + i, .dst_fb = 2,
					.src_rect = { 0, 0, 1, 1 },
					.dst_rect = { 0, 0, 1, 1 } };
				struct drm_vflipq_flipq_submit t = {
					.crtc_id = 1 + i,
					.flags = VFLIPQ_SUBMIT_IRQ_TARGET,
					.flip_size = 56, .plane_size = 64,
					.irq_plane_id = 2 };
				struct drm_vflipq_set_log sl = {
					.crtc_id = 1, .plane_id = 2,
					.num_entries = 4 };
				int r1 = xioctl(cfd, DRM_IOCTL_VFLIPQ_COPY, &cp);
				int r2 = xioctl(cfd, DRM_IOCTL_VFLIPQ_FLIPQ_SUBMIT, &t);
				int r3 = xioctl(cfd, DRM_IOCTL_VFLIPQ_FLIPQ_SET_LOG, &sl);

				/*
				 * No CRTC, no framebuffer: refused (only the
				 * master, child 0, gets past the master check).
				 */
				bad = (r1 != -EINVAL && r1 != -EOPNOTSUPP) ||
				      (i && (r2 != -EACCES || r3 != -EACCES)) ||
				      (!i && r2 != -EINVAL && r2 != -EOPNOTSUPP) ||
				      (!i && r3 != -EINVAL && r3 != -EOPNOTSUPP);
				if (bad)
					fprintf(stderr, "child %d: copy %d irq %d "
						"log %d\n", i, r1, r2, r3);
			}
			_exit(bad);
		}
	}
	for (int i = 0; i < 4; i++) {
		int status;

		igt_assert_eq(waitpid(pids[i], &status, 0), pids[i]);
		igt_assert_f(WIFEXITED(status) && WEXITSTATUS(status) == 0,
			     "client %d: status %#x\n", i, status);
	}
	close(fd);
}

/* ---- handles and framebuffers ----------------------------------------------- */

static void test_gem_handles_per_file(void)
{
	struct drm_mode_map_dumb md = { 0 };
	struct drm_gem_close gc = { 0 };
	struct drm_mode_destroy_dumb dd = { 0 };
	struct drm_prime_handle ph = { 0 };
	struct drm_mode_fb_cmd2 f = { 0 };
	struct drm_vflipq_set_log sl;
	struct vfq_fb a, b;
	uint32_t h;
	int fd2;

	fd2 = open_second();
	/* A's object, with A's pattern. */
	igt_assert_eq(vfq_bo_create(dev.fd, 64, 64, DRM_FORMAT_XRGB8888, &a), 0);
	memset(a.map, 0x5a, a.size);
	h = a.handle;

	/* B has no objects: A's handle number means nothing to it. */
	md.handle = h;
	igt_assert_eq(xioctl(fd2, DRM_IOCTL_MODE_MAP_DUMB, &md), -ENOENT);
	ph.handle = h;
	ph.flags = DRM_CLOEXEC;
	igt_assert_eq(xioctl(fd2, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph), -ENOENT);
	f.width = f.height = 64;
	f.pixel_format = DRM_FORMAT_XRGB8888;
	f.handles[0] = h;
	f.pitches[0] = a.pitch;
	igt_assert_eq(xioctl(fd2, DRM_IOCTL_MODE_ADDFB2, &f), -ENOENT);
	gc.handle = h;
	igt_assert_eq(xioctl(fd2, DRM_IOCTL_GEM_CLOSE, &gc), -EINVAL);
	dd.handle = h;
	igt_assert_eq(xioctl(fd2, DRM_IOCTL_MODE_DESTROY_DUMB, &dd), -EINVAL);
	/* Nor does a flip-queue log handle of A's. */
	pipe_up();
	igt_assert_eq(set_log(dev.fd, primary(), 8, &sl), 0);
	md.handle = sl.handle;
	igt_assert_eq(xioctl(fd2, DRM_IOCTL_MODE_MAP_DUMB, &md), -ENOENT);

	/* B's own object may well get the same number: it is B's. */
	igt_assert_eq(vfq_bo_create(fd2, 64, 64, DRM_FORMAT_XRGB8888, &b), 0);
	igt_info("A's handle %u, B's handle %u\n", h, b.handle);
	igt_assert(all_bytes(b.map, b.size, 0));
	memset(b.map, 0xa5, b.size);
	igt_assert(all_bytes(a.map, a.size, 0x5a));
	/* A's handle still works for A, whatever B did. */
	md.handle = h;
	igt_assert_eq(xioctl(dev.fd, DRM_IOCTL_MODE_MAP_DUMB, &md), 0);

	vfq_fb_destroy(&b);
	vfq_fb_destroy(&a);
	gc.handle = sl.handle;
	igt_assert_eq(xioctl(dev.fd, DRM_IOCTL_GEM_CLOSE, &gc), 0);
	close(fd2);
	vfq_dev_reset(&dev);
}

static void test_foreign_framebuffers(void)
{
	struct drm_vflipq_copy cp = { 0 };
	struct vfq_fb own, own2;
	int fd2, fence;

	igt_require(dev.caps.caps & VFLIPQ_CAP_CASO_COPY);
	pipe_up();
	fd2 = open_second();
	vfq_fb_create(fd2, W, H, DRM_FORMAT_XRGB8888, &own);
	vfq_fb_create(fd2, W, H, DRM_FORMAT_XRGB8888, &own2);
	/* B becomes the master. */
	igt_assert_eq(drmDropMaster(dev.fd), 0);
	igt_assert_eq(drmSetMaster(fd2), 0);
	igt_assert_eq(set_log(fd2, primary(), 16, NULL), 0);

	/* A's framebuffers: refused, nothing queued. */
	for (int k = 0; k < NFB; k++)
		igt_assert_eq(submit(fd2, primary(), fbs[k].fb_id, 1 + k,
				     far_future(), NULL), -EINVAL);
	igt_assert_eq(submit(fd2, primary(), own.fb_id, 10, far_future(), NULL),
		      0);

	/* The copy engine: neither source nor destination of A's. */
	cp.src_rect = (struct drm_vflipq_rect){ 0, 0, 64, 64 };
	cp.dst_rect = (struct drm_vflipq_rect){ 0, 0, 64, 64 };
	cp.src_fb = fbs[1].fb_id;
	cp.dst_fb = own2.fb_id;
	igt_assert_eq(xioctl(fd2, DRM_IOCTL_VFLIPQ_COPY, &cp), -EINVAL);
	cp.src_fb = own2.fb_id;
	cp.dst_fb = fbs[1].fb_id;
	cp.out_fence_fd = 0;
	igt_assert_eq(xioctl(fd2, DRM_IOCTL_VFLIPQ_COPY, &cp), -EINVAL);
	/* Not even as a non-master, A cannot copy from B's either. */
	cp.src_fb = own.fb_id;
	cp.dst_fb = fbs[2].fb_id;
	cp.out_fence_fd = 0;
	igt_assert_eq(xioctl(dev.fd, DRM_IOCTL_VFLIPQ_COPY, &cp), -EINVAL);
	/* B's own: fine. */
	cp.src_fb = own.fb_id;
	cp.dst_fb = own2.fb_id;
	cp.out_fence_fd = 0;
	igt_assert_eq(xioctl(fd2, DRM_IOCTL_VFLIPQ_COPY, &cp), 0);
	fence = cp.out_fence_fd;
	igt_assert_fd(fence);
	close(fence);

	igt_assert_eq(cancel(fd2, primary(), 10), 0);
	igt_assert_eq(drmDropMaster(fd2), 0);
	igt_assert_eq(drmSetMaster(dev.fd), 0);
	vfq_dev_reset(&dev);
	vfq_fb_destroy(&own);
	vfq_fb_destroy(&own2);
	close(fd2);
}

/* ---- sizes -------------------------------------------------------------------- */

static void test_size_overflow(void)
{
	static const uint32_t dumb[][3] = {
		{ 0x10000, 0x10000, 32 }, { 0x80000000u, 2, 32 },
		{ 0xffffffffu, 1, 32 }, { 1, 0xffffffffu, 32 },
		{ 16384, 16385, 32 }, { 0x40000000, 1, 64 },
		{ 65536, 65536, 8 }, { 64, 64, 0xffffffffu },
	};
	struct drm_vflipq_flip_plane p[2] = { { .plane_id = 0 } };
	struct drm_vflipq_flip fl[2];
	struct drm_vflipq_flipq_submit s;
	struct drm_vflipq_cancel_plane cpl = { 0 };
	struct drm_vflipq_flip_cancel c;
	struct drm_vflipq_set_log sl;
	struct drm_vflipq_copy cp;
	struct drm_vflipq_scanout_query q;
	struct drm_mode_fb_cmd2 f;
	struct drm_mode_create_dumb cd;
	struct drm_gem_close gc = { 0 };
	struct vfq_fb bo;
	int ret;

	/* Dumb buffers: width * height * bpp beyond what fits. */
	for (size_t i = 0; i < VFQ_ARRAY_SIZE(dumb); i++) {
		memset(&cd, 0, sizeof(cd));
		cd.width = dumb[i][0];
		cd.height = dumb[i][1];
		cd.bpp = dumb[i][2];
		ret = xioctl(dev.fd, DRM_IOCTL_MODE_CREATE_DUMB, &cd);
		igt_assert_f(ret == -EINVAL, "dumb %ux%u@%u: %s (size %llu)\n",
			     cd.width, cd.height, cd.bpp, strerror(-ret),
			     (unsigned long long)cd.size);
		igt_assert_eq(cd.handle, 0);
	}

	/* ADDFB2: pitch * height (+ offset) beyond 32 bits. */
	igt_assert_eq(vfq_bo_create(dev.fd, 64, 64, DRM_FORMAT_XRGB8888, &bo), 0);
	memset(&f, 0, sizeof(f));
	f.width = 64;
	f.pixel_format = DRM_FORMAT_XRGB8888;
	f.handles[0] = bo.handle;
	for (int k = 0; k < 4; k++) {
		static const uint32_t pitch[] = { 0x10000, 0x80000000u,
						  0xfffffff0u, 256 };
		static const uint32_t height[] = { 0x10001, 3, 2, 8192 };
		static const uint32_t offset[] = { 0, 0, 0, 0xffffff00u };

		f.pitches[0] = pitch[k];
		f.height = height[k];
		f.offsets[0] = offset[k];
		ret = xioctl(dev.fd, DRM_IOCTL_MODE_ADDFB2, &f);
		igt_assert_f(ret == -EINVAL || ret == -ERANGE,
			     "ADDFB2 pitch %#x height %u offset %#x: %s\n",
			     pitch[k], height[k], offset[k], strerror(-ret));
	}

	/* Flip submit: plane count and size (one flip). */
	pipe_up();
	igt_assert_eq(set_log(dev.fd, primary(), 16, NULL), 0);
	p[0].plane_id = primary();
	p[0].fb_id = fbs[1].fb_id;
	p[0].present_id = 1;
	memset(fl, 0, sizeof(fl));
	for (int k = 0; k < 6; k++) {
		static const uint32_t np[] = { 0xffffffffu, 0x80000000u, 65536,
					       1, 1, 2 };
		static const uint32_t ps[] = { 64, 0xffffffffu, 65536, 4097,
					       0x80000000u, 0xffffffffu };

		memset(&s, 0, sizeof(s));
		s.crtc_id = crtc();
		s.flips_ptr = (uintptr_t)fl;
		s.num_flips = 1;
		s.flip_size = sizeof(fl[0]);
		s.plane_size = ps[k];
		fl[0].target_ns = far_future();
		fl[0].planes_ptr = (uintptr_t)p;
		fl[0].num_planes = np[k];
		ret = xioctl(dev.fd, DRM_IOCTL_VFLIPQ_FLIPQ_SUBMIT, &s);
		igt_assert_f(ret == -EINVAL, "submit %u x %u bytes: %s\n",
			     np[k], ps[k], strerror(-ret));
		igt_assert_eq(s.num_queued, 0);
	}
	/* ... and flip count and size. */
	for (int k = 0; k < 7; k++) {
		static const uint32_t nf[] = { 0xffffffffu, 0x80000000u, 65536,
					       1, 1, 2, 2 };
		static const uint32_t fs[] = { 56, 56, 0xffffffffu, 65536,
					       4097, 0x80000000u, 0xffffffffu };

		memset(&s, 0, sizeof(s));
		s.crtc_id = crtc();
		s.flips_ptr = (uintptr_t)fl;
		s.num_flips = nf[k];
		s.flip_size = fs[k];
		s.plane_size = sizeof(p[0]);
		fl[0].num_planes = 1;
		ret = xioctl(dev.fd, DRM_IOCTL_VFLIPQ_FLIPQ_SUBMIT, &s);
		igt_assert_f(ret == -EINVAL, "submit %u flips x %u bytes: %s\n",
			     nf[k], fs[k], strerror(-ret));
		igt_assert_eq(s.num_queued, 0);
	}
	/* Flips, or planes, that would wrap around the address space. */
	memset(&s, 0, sizeof(s));
	s.crtc_id = crtc();
	s.flips_ptr = 0xfffffffffffff000ull;
	s.num_flips = 2;
	s.flip_size = PAGE;
	s.plane_size = sizeof(p[0]);
	igt_assert_eq(xioctl(dev.fd, DRM_IOCTL_VFLIPQ_FLIPQ_SUBMIT, &s), -EFAULT);
	s.flips_ptr = (uintptr_t)fl;
	s.num_flips = 1;
	s.flip_size = sizeof(fl[0]);
	s.plane_size = PAGE;
	fl[0].planes_ptr = 0xfffffffffffff000ull;
	fl[0].num_planes = 2;
	igt_assert_eq(xioctl(dev.fd, DRM_IOCTL_VFLIPQ_FLIPQ_SUBMIT, &s),
		      -EFAULT);
	memset(&c, 0, sizeof(c));
	c.crtc_id = crtc();
	c.planes_ptr = 0xfffffffffffff000ull;
	c.num_planes = 2;
	c.plane_size = PAGE;
	igt_assert_eq(xioctl(dev.fd, DRM_IOCTL_VFLIPQ_FLIPQ_CANCEL, &c), -EFAULT);
	for (int k = 0; k < 3; k++) {
		static const uint32_t np[] = { 0xffffffffu, 11, 2 };
		static const uint32_t ps[] = { 24, 24, 0xffffffffu };

		c.planes_ptr = (uintptr_t)&cpl;
		c.num_planes = np[k];
		c.plane_size = ps[k];
		igt_assert_eq(xioctl(dev.fd, DRM_IOCTL_VFLIPQ_FLIPQ_CANCEL, &c),
			      -EINVAL);
	}
	/* Nothing got queued by any of it. */
	igt_assert_eq(submit(dev.fd, primary(), fbs[1].fb_id, 1, far_future(),
			     NULL), 0);
	igt_assert_eq(cancel(dev.fd, primary(), 1), 0);

	/* Logs: 65536 entries at most (1 MiB); one more is refused. */
	igt_assert_eq(set_log(dev.fd, dev.pipe[0].overlays[0], 65536, &sl), 0);
	igt_assert_eq_u64(sl.size, 65536ull * 16);
	gc.handle = sl.handle;
	igt_assert_eq(xioctl(dev.fd, DRM_IOCTL_GEM_CLOSE, &gc), 0);
	for (int k = 0; k < 3; k++) {
		static const uint32_t n[] = { 65537, 0x10000000, 0xffffffffu };

		igt_assert_eq(set_log(dev.fd, dev.pipe[0].overlays[0], n[k], &sl),
			      -EINVAL);
		igt_assert_eq(sl.handle, 0);
	}

	/* Copies: rectangles whose end overflows 32 bits. */
	if (dev.caps.caps & VFLIPQ_CAP_CASO_COPY) {
		for (int k = 0; k < 4; k++) {
			static const struct drm_vflipq_rect bad[] = {
				{ 0xffffffffu, 0, 2, 1 }, { 0, 0xffffffffu, 1, 2 },
				{ 1, 0, 0xffffffffu, 1 }, { 0, 0, W + 1, 1 },
			};

			memset(&cp, 0, sizeof(cp));
			cp.src_fb = fbs[1].fb_id;
			cp.dst_fb = fbs[2].fb_id;
			cp.src_rect = k & 1 ? bad[k] : (struct drm_vflipq_rect){ 0, 0, 2, 2 };
			cp.dst_rect = k & 1 ? (struct drm_vflipq_rect){ 0, 0, 2, 2 } : bad[k];
			igt_assert_eq(xioctl(dev.fd, DRM_IOCTL_VFLIPQ_COPY, &cp),
				      -EINVAL);
		}
	}

	/* The scan-out query answers for any size, without an error. */
	memset(&q, 0, sizeof(q));
	q.width = q.height = 0xffffffffu;
	q.format = DRM_FORMAT_XRGB8888;
	igt_assert_eq(xioctl(dev.fd, DRM_IOCTL_VFLIPQ_SCANOUT_QUERY, &q), 0);
	igt_assert_eq(q.result, VFLIPQ_SCANOUT_NO_SCANOUT);
	igt_assert(q.reasons & VFLIPQ_NO_SCANOUT_SIZE);

	vfq_fb_destroy(&bo);
	vfq_dev_reset(&dev);
}

/* ---- kernel memory ---------------------------------------------------------------- */

static void check_caps_clean(int fd, const char *what)
{
	struct drm_vflipq_get_caps caps;
	size_t n;

	memset(&caps, 0xaa, sizeof(caps));
	caps.flags = 0;
	memset(caps.reserved, 0, sizeof(caps.reserved));
	igt_assert_eq(xioctl(fd, DRM_IOCTL_VFLIPQ_GET_CAPS, &caps), 0);
	n = strnlen(caps.name, sizeof(caps.name));
	igt_info("%s: \"%s\", caps %#llx\n", what, caps.name,
		 (unsigned long long)caps.caps);
	igt_assert_f(n < sizeof(caps.name), "%s: name not terminated\n", what);
	igt_assert_f(all_bytes(caps.name + n, sizeof(caps.name) - n, 0),
		     "%s: bytes after the name are not zero\n", what);
	igt_assert(all_bytes(caps.reserved, sizeof(caps.reserved), 0));
	igt_assert_eq(caps.flags, 0);
	igt_assert_eq(caps.version_major, VFLIPQ_UAPI_VERSION_MAJOR);
	igt_assert_eq(caps.version_minor, VFLIPQ_UAPI_VERSION_MINOR);
	/* no bit above the highest this uAPI version defines (2.0: bit 10) */
	igt_assert_eq_u64(caps.caps & ~((VFLIPQ_CAP_RENDER_ONLY << 1) - 1), 0);
	igt_assert_lte(caps.num_crtcs, 8);
	igt_assert_lte(caps.num_overlays, 8);
	igt_assert(caps.flipq_depth >= 1 && caps.flipq_depth <= 64);
	igt_assert_lte(caps.caso_tier, 3);
	igt_assert_lte(caps.device_id, 63);
}

/*
 * @arg filled with 0xaa (a must-be-zero input among them): the ioctl fails
 * with EINVAL, and the DRM core copies the structure back: byte for byte
 * what went in, no kernel memory.
 */
static void check_error_echo(const char *what, unsigned long req, void *arg,
			     size_t size, size_t keep_off, const void *keep,
			     size_t keep_len)
{
	uint8_t sent[256];

	igt_assert(size <= sizeof(sent));
	memset(arg, 0xaa, size);
	if (keep)
		memcpy((uint8_t *)arg + keep_off, keep, keep_len);
	memcpy(sent, arg, size);
	igt_assert_f(xioctl(dev.fd, req, arg) == -EINVAL,
		     "%s with 0xaa filling did not fail with EINVAL\n", what);
	igt_assert_f(!memcmp(sent, arg, size),
		     "%s: the structure came back changed\n", what);
}

/*
 * The 1.x submission ioctls' numbers, retired by 2.0, with their 1.x sizes:
 * 0x01 FLIPQ_SUBMIT (80 bytes), 0x05 FLIPQ_SET_IRQ_TARGET and 0x09
 * FLIPQ_SUBMIT_MANY (40 bytes each).
 */
static const struct {
	const char *name;
	unsigned int nr;
	unsigned int size;
} retired_ioctls[] = {
	{ "1.x FLIPQ_SUBMIT", 0x01, 80 },
	{ "1.x FLIPQ_SET_IRQ_TARGET", 0x05, 40 },
	{ "1.x FLIPQ_SUBMIT_MANY", 0x09, 40 },
};

static void check_error_paths(void)
{
	struct drm_vflipq_get_caps caps;
	struct drm_vflipq_get_counters gc;
	struct drm_vflipq_update_log u;
	struct drm_vflipq_scanout_query q;
	struct drm_vflipq_set_log sl;
	struct drm_vflipq_flipq_submit s;
	struct drm_vflipq_flip_cancel c;
	struct drm_vflipq_copy cp;
	uint64_t old[10];
	uint32_t ids[2] = { crtc(), primary() };

	/* The real CRTC and plane, so that only the filling is wrong. */
	check_error_echo("GET_CAPS", DRM_IOCTL_VFLIPQ_GET_CAPS, &caps,
			 sizeof(caps), 0, NULL, 0);
	check_error_echo("GET_COUNTERS", DRM_IOCTL_VFLIPQ_GET_COUNTERS, &gc,
			 sizeof(gc), 0, ids, 4);
	check_error_echo("UPDATE_LOG", DRM_IOCTL_VFLIPQ_FLIPQ_UPDATE_LOG, &u,
			 sizeof(u), 0, ids, 8);
	check_error_echo("SCANOUT_QUERY", DRM_IOCTL_VFLIPQ_SCANOUT_QUERY, &q,
			 sizeof(q), 0, NULL, 0);
	check_error_echo("SET_LOG", DRM_IOCTL_VFLIPQ_FLIPQ_SET_LOG, &sl,
			 sizeof(sl), 0, ids, 8);
	/*
	 * SUBMIT reports num_queued (an output: 0) whatever the result,
	 * nothing else; it reads no flip of a call it refuses.
	 */
	{
		struct drm_vflipq_flipq_submit sent;

		memset(&s, 0xaa, sizeof(s));
		s.crtc_id = crtc();
		sent = s;
		igt_assert_eq(xioctl(dev.fd, DRM_IOCTL_VFLIPQ_FLIPQ_SUBMIT, &s),
			      -EINVAL);
		igt_assert_eq(s.num_queued, 0);
		sent.num_queued = 0;
		igt_assert(!memcmp(&sent, &s, sizeof(s)));
	}
	/* The retired numbers: refused before anything is copied. */
	for (size_t i = 0; i < VFQ_ARRAY_SIZE(retired_ioctls); i++) {
		unsigned long req = DRM_IOC(DRM_IOC_READWRITE, DRM_IOCTL_BASE,
					    DRM_COMMAND_BASE +
					    retired_ioctls[i].nr,
					    retired_ioctls[i].size);

		igt_assert(retired_ioctls[i].size <= sizeof(old));
		check_error_echo(retired_ioctls[i].name, req, old,
				 retired_ioctls[i].size, 0, ids, 8);
	}
	check_error_echo("FLIPQ_CANCEL", DRM_IOCTL_VFLIPQ_FLIPQ_CANCEL, &c,
			 sizeof(c), 0, ids, 4);
	check_error_echo("COPY", DRM_IOCTL_VFLIPQ_COPY, &cp, sizeof(cp), 0,
			 NULL, 0);
}

static void test_no_kernel_memory_leak(void)
{
	static const char *const attrs[] = { "crtcs", "0", NULL };
	static const char long_name[] = VFQ_CFS_PREFIX
					"a-name-that-is-31-bytes-lon";
	_Static_assert(sizeof(long_name) == 32, "a 31-byte name");
	struct drm_vflipq_get_counters gc;
	struct drm_vflipq_scanout_query q;
	struct drm_vflipq_update_log u;
	struct drm_vflipq_set_log sl;
	struct drm_vflipq_flipq_submit s;
	struct drm_vflipq_flip fl;
	struct drm_vflipq_flip_cancel c;
	struct drm_mode_map_dumb md = { 0 };
	static uint8_t entries[2][PAGE] __attribute__((aligned(8)));
	char buf[4096] __attribute__((aligned(8)));
	uint64_t t0, k;
	const uint8_t *log;
	int card, cfd, events = 0;

	/* Refused requests come back as they went in. */
	pipe_up();
	check_error_paths();

	/* GET_CAPS overwrites the whole structure. */
	check_caps_clean(dev.fd, "default");
	card = vfq_cfs_create(VFQ_CFS_PREFIX "x", attrs);
	cfd = vfq_open_card(card);
	igt_assert_fd(cfd);
	check_caps_clean(cfd, "short name");
	close(cfd);
	igt_assert_eq(vfq_cfs_rmdir(VFQ_CFS_PREFIX "x"), 0);
	card = vfq_cfs_create(long_name, attrs);
	cfd = vfq_open_card(card);
	igt_assert_fd(cfd);
	check_caps_clean(cfd, "31-byte name");
	close(cfd);
	igt_assert_eq(vfq_cfs_rmdir(long_name), 0);

	/* GET_COUNTERS: the CRTC, and the device only (crtc_id 0). */
	for (int i = 0; i < 2; i++) {
		memset(&gc, 0, sizeof(gc));
		gc.crtc_id = i ? 0 : crtc();
		igt_assert_eq(xioctl(dev.fd, DRM_IOCTL_VFLIPQ_GET_COUNTERS, &gc), 0);
		igt_assert_eq(gc.crtc_id, i ? 0 : crtc());
		igt_assert_eq(gc.flags, 0);
		igt_assert(all_bytes(gc.reserved, sizeof(gc.reserved), 0));
		if (i)
			igt_assert_eq_u64(gc.timer_expirations | gc.vblank_irqs |
					  gc.flips_shown | gc.frames_composed, 0);
	}

	/* SCANOUT_QUERY writes result and reasons only. */
	memset(&q, 0, sizeof(q));
	q.width = 3840;
	q.height = 2160;
	q.format = DRM_FORMAT_ARGB8888;
	q.samples = 4;
	q.flags = VFLIPQ_SCANOUT_CROSS_ADAPTER;
	igt_assert_eq(xioctl(dev.fd, DRM_IOCTL_VFLIPQ_SCANOUT_QUERY, &q), 0);
	igt_assert_eq(q.result, VFLIPQ_SCANOUT_NO_SCANOUT);
	igt_assert(q.reasons & VFLIPQ_NO_SCANOUT_MSAA);
	igt_assert_eq(q.reasons & ~0xffu, 0);
	igt_assert(all_bytes(q.reserved, sizeof(q.reserved), 0));
	igt_assert_eq(q.width, 3840);
	igt_assert_eq(q.samples, 4);

	/* SET_LOG: a fresh, zero-filled log; pad and reserved untouched. */
	pipe_up();
	igt_assert_eq(set_log(dev.fd, primary(), 300, &sl), 0);
	igt_assert_eq_u64(sl.size, 2 * PAGE);	/* 4800 bytes, in pages */
	igt_assert_eq(sl.pad, 0);
	igt_assert(all_bytes(sl.reserved, sizeof(sl.reserved), 0));
	md.handle = sl.handle;
	igt_assert_eq(xioctl(dev.fd, DRM_IOCTL_MODE_MAP_DUMB, &md), 0);
	log = mmap(NULL, sl.size, PROT_READ, MAP_SHARED, dev.fd, md.offset);
	igt_assert(log != MAP_FAILED);
	igt_assert_f(all_bytes(log, sl.size, 0), "a new log is not zeroed\n");

	/*
	 * SUBMIT: the drain hints of its flips (outputs, ignored on input)
	 * are written only into a refused flip; a call that queues all its
	 * flips writes num_queued, and at most hints of none...
	 */
	{
		struct drm_vflipq_flip_plane p[3];
		struct drm_vflipq_flip f[3], f_sent[3];
		struct drm_vflipq_flipq_submit sent;

		memset(p, 0, sizeof(p));
		memset(f, 0, sizeof(f));
		t0 = vfq_now_ns();
		for (k = 0; k < 3; k++) {
			p[k].plane_id = primary();
			p[k].fb_id = fbs[(k + 1) % NFB].fb_id;
			p[k].present_id = k + 1;
			f[k].target_ns = t0 + (k + 1) * 20000000ull;
			f[k].planes_ptr = (uintptr_t)&p[k];
			f[k].num_planes = 1;
			f[k].drain_flags = f[k].drain_planes = 0xaaaaaaaa;
		}
		memset(&s, 0, sizeof(s));
		s.crtc_id = crtc();
		s.flips_ptr = (uintptr_t)f;
		s.num_flips = 3;
		s.flip_size = sizeof(f[0]);
		s.plane_size = sizeof(p[0]);
		sent = s;
		memcpy(f_sent, f, sizeof(f));
		igt_assert_eq(xioctl(dev.fd, DRM_IOCTL_VFLIPQ_FLIPQ_SUBMIT, &s),
			      0);
		igt_assert_eq(s.num_queued, 3);
		sent.num_queued = 3;
		igt_assert(!memcmp(&sent, &s, sizeof(s)));
		for (k = 0; k < 3; k++) {
			/* as they went in, or zero: no other value */
			igt_assert(f[k].drain_flags == 0xaaaaaaaa ||
				   f[k].drain_flags == 0);
			igt_assert(f[k].drain_planes == 0xaaaaaaaa ||
				   f[k].drain_planes == 0);
			f[k].drain_flags = f_sent[k].drain_flags;
			f[k].drain_planes = f_sent[k].drain_planes;
		}
		igt_assert(!memcmp(f, f_sent, sizeof(f)));
	}
	/* ...and meaningful ones with EAGAIN. */
	for (k = 4; k <= 20; k++) {
		fl.drain_flags = fl.drain_planes = 0xaaaaaaaa;
		if (submit(dev.fd, primary(), fbs[k % NFB].fb_id, k,
			   far_future(), &fl) == -EAGAIN)
			break;
	}
	igt_assert_f(k <= 20, "the queue never filled up\n");
	igt_assert_eq(fl.drain_flags & ~7u, 0);
	igt_assert(fl.drain_flags);
	igt_assert_eq(fl.drain_planes, 1);
	igt_assert(all_bytes(fl.reserved, sizeof(fl.reserved), 0));

	/* CANCEL writes present_id_cancelled and nothing else. */
	memset(entries, 0, sizeof(entries));
	((struct drm_vflipq_cancel_plane *)entries[0])->plane_id = primary();
	((struct drm_vflipq_cancel_plane *)entries[0])->present_id_cancel_requested = 4;
	memset(&c, 0, sizeof(c));
	c.crtc_id = crtc();
	c.num_planes = 1;
	c.planes_ptr = (uintptr_t)entries;
	c.plane_size = PAGE;
	igt_assert_eq(xioctl(dev.fd, DRM_IOCTL_VFLIPQ_FLIPQ_CANCEL, &c), 0);
	igt_assert_eq_u64(((struct drm_vflipq_cancel_plane *)entries[0])->present_id_cancelled, 4);
	igt_assert(all_bytes(entries[0] + sizeof(struct drm_vflipq_cancel_plane),
			     PAGE - sizeof(struct drm_vflipq_cancel_plane), 0));
	igt_assert(all_bytes(entries[1], PAGE, 0));
	igt_assert(all_bytes(c.reserved, sizeof(c.reserved), 0));

	/* UPDATE_LOG: outputs within range, the rest as it came. */
	usleep(100000);
	igt_assert_eq(update_log(dev.fd, primary(), &u), 0);
	igt_assert_lte(u.first_free, 300);
	igt_assert_lte_u64(u.present_id_shown, 3);
	igt_assert_eq(u.flags, 0);
	igt_assert(all_bytes(u.reserved, sizeof(u.reserved), 0));

	/* Flip-queue events: the right size, pad zero. */
	igt_assert_eq(irq_target(dev.fd, primary(), VFLIPQ_IRQ_TARGET_EVERY_VBLANK), 0);
	for (uint64_t end = vfq_now_ns() + 300000000ull; vfq_now_ns() < end;) {
		struct pollfd pfd = { .fd = dev.fd, .events = POLLIN };
		ssize_t len, off = 0;

		if (poll(&pfd, 1, 100) <= 0)
			continue;
		memset(buf, 0xaa, sizeof(buf));
		len = read(dev.fd, buf, sizeof(buf));
		igt_assert(len > 0);
		while (off < len) {
			struct drm_event *e = (struct drm_event *)(buf + off);

			igt_assert(e->length >= sizeof(*e) && off + e->length <= len);
			if (e->type == DRM_VFLIPQ_EVENT_FLIPQ) {
				struct drm_vflipq_event_flipq fe;

				igt_assert_eq(e->length, sizeof(fe));
				memcpy(&fe, e, sizeof(fe));
				igt_assert_eq(fe.pad, 0);
				igt_assert_eq(fe.crtc_id, crtc());
				igt_assert_eq(fe.plane_id, primary());
				igt_assert_lte(fe.first_free, 300);
				events++;
			}
			off += e->length;
		}
	}
	igt_info("%d flip-queue events checked\n", events);
	igt_assert(events > 0);
	igt_assert_eq(irq_target(dev.fd, primary(), VFLIPQ_IRQ_TARGET_NONE), 0);

	munmap((void *)log, sl.size);
	{
		struct drm_gem_close gcl = { .handle = sl.handle };

		igt_assert_eq(xioctl(dev.fd, DRM_IOCTL_GEM_CLOSE, &gcl), 0);
	}
	vfq_dev_reset(&dev);
}

/* ---- fences ----------------------------------------------------------------------------- */

/*
 * An IN_FENCE_FD on a plane that shows no framebuffer has nothing to wait
 * for: it must be refused (or ignored), never reach the commit tail, where
 * the atomic helpers WARN on a fence without a framebuffer.
 */
static void test_in_fence_without_fb(void)
{
	struct drm_vflipq_copy cp = { 0 };
	uint32_t planes[2] = { dev.pipe[0].overlays[0], primary() };
	int ret;

	igt_require(dev.caps.caps & VFLIPQ_CAP_CASO_COPY);
	pipe_up();
	/* A real sync_file: the copy engine's fence, signalled. */
	cp.src_fb = fbs[1].fb_id;
	cp.dst_fb = fbs[2].fb_id;
	cp.src_rect = cp.dst_rect = (struct drm_vflipq_rect){ 0, 0, 16, 16 };
	igt_assert_eq(xioctl(dev.fd, DRM_IOCTL_VFLIPQ_COPY, &cp), 0);
	vfq_wait_fence(cp.out_fence_fd, 5000);

	for (int k = 0; k < 2; k++) {
		drmModeAtomicReq *req = vfq_req_new();
		uint32_t flags = DRM_MODE_ATOMIC_ALLOW_MODESET;

		/* A plane that is off, and the primary being switched off. */
		vfq_req_plane_off(req, dev.fd, planes[k]);
		vfq_req_set(req, dev.fd, planes[k], DRM_MODE_OBJECT_PLANE,
			    "IN_FENCE_FD", cp.out_fence_fd);
		ret = vfq_req_commit(dev.fd, req, flags, NULL);
		igt_info("IN_FENCE_FD on plane %u without fb: %s\n", planes[k],
			 ret ? strerror(-ret) : "accepted");
		igt_assert(ret == 0 || ret == -EINVAL);
	}
	close(cp.out_fence_fd);
	vfq_dev_reset(&dev);
}

/* ---- the log mapping ------------------------------------------------------------------ */

static void test_log_read_only(void)
{
	struct drm_vflipq_set_log sl;
	struct drm_mode_map_dumb md = { 0 };
	void *p;
	pid_t pid;
	int status;

	pipe_up();
	igt_assert_eq(set_log(dev.fd, primary(), 16, &sl), 0);
	md.handle = sl.handle;
	igt_assert_eq(xioctl(dev.fd, DRM_IOCTL_MODE_MAP_DUMB, &md), 0);

	/* Writable mappings, shared or private, are refused. */
	p = mmap(NULL, sl.size, PROT_READ | PROT_WRITE, MAP_SHARED, dev.fd,
		 md.offset);
	igt_assert(p == MAP_FAILED);
	igt_assert_eq(errno, EACCES);
	p = mmap(NULL, sl.size, PROT_WRITE, MAP_SHARED, dev.fd, md.offset);
	igt_assert(p == MAP_FAILED);
	p = mmap(NULL, sl.size, PROT_READ | PROT_WRITE, MAP_PRIVATE, dev.fd,
		 md.offset);
	igt_assert(p == MAP_FAILED);
	/* Beyond the object: refused as well. */
	p = mmap(NULL, sl.size + PAGE, PROT_READ, MAP_SHARED, dev.fd, md.offset);
	igt_assert(p == MAP_FAILED);

	/* Read-only works; it cannot be made writable afterwards. */
	p = mmap(NULL, sl.size, PROT_READ, MAP_SHARED, dev.fd, md.offset);
	igt_assert(p != MAP_FAILED);
	igt_assert_eq(mprotect(p, sl.size, PROT_READ | PROT_WRITE), -1);
	igt_assert_eq(errno, EACCES);
	igt_assert_eq(mprotect(p, PAGE, PROT_WRITE), -1);
	/* A private read-only mapping cannot become writable either. */
	{
		void *q = mmap(NULL, sl.size, PROT_READ, MAP_PRIVATE, dev.fd,
			       md.offset);

		if (q != MAP_FAILED) {
			igt_assert_eq(mprotect(q, sl.size, PROT_READ | PROT_WRITE),
				      -1);
			munmap(q, sl.size);
		}
	}
	/* Nor through PRIME: a dma-buf of the log maps read-only only. */
	{
		int buf, vgem;
		void *q;

		if (drmPrimeHandleToFD(dev.fd, sl.handle, DRM_CLOEXEC | DRM_RDWR,
				       &buf) == 0) {
			q = mmap(NULL, sl.size, PROT_READ | PROT_WRITE, MAP_SHARED,
				 buf, 0);
			igt_assert(q == MAP_FAILED);
			q = mmap(NULL, sl.size, PROT_READ, MAP_SHARED, buf, 0);
			if (q != MAP_FAILED) {
				igt_assert_eq(mprotect(q, sl.size,
						       PROT_READ | PROT_WRITE), -1);
				munmap(q, sl.size);
			}
			/* Another device cannot import it (no pages to share). */
			vgem = vfq_open_driver("vgem");
			if (vgem >= 0) {
				uint32_t h;

				igt_assert_neq(drmPrimeFDToHandle(vgem, buf, &h), 0);
				close(vgem);
			}
			close(buf);
		}
	}
	/* A write through the mapping faults. */
	pid = fork();
	igt_assert(pid >= 0);
	if (pid == 0) {
		signal(SIGSEGV, SIG_DFL);
		signal(SIGBUS, SIG_DFL);
		*(volatile uint64_t *)p = 0x1234;
		_exit(0);
	}
	igt_assert_eq(waitpid(pid, &status, 0), pid);
	igt_assert_f(WIFSIGNALED(status) && (WTERMSIG(status) == SIGSEGV ||
					     WTERMSIG(status) == SIGBUS),
		     "writing the log did not fault (status %#x)\n", status);
	/* The engine still writes it. */
	igt_assert_eq(submit(dev.fd, primary(), fbs[1].fb_id, 7,
			     vfq_now_ns(), NULL), 0);
	for (int i = 0; i < 100 && !((volatile uint64_t *)p)[0]; i++)
		usleep(10000);
	igt_assert_eq_u64(((volatile uint64_t *)p)[0], 7);

	munmap(p, sl.size);
	{
		struct drm_gem_close gc = { .handle = sl.handle };

		igt_assert_eq(xioctl(dev.fd, DRM_IOCTL_GEM_CLOSE, &gc), 0);
	}
	vfq_dev_reset(&dev);
}

igt_main
{
	igt_fixture {
		vfq_dev_init(&dev, vfq_open_default());
		igt_require(dev.caps.caps & VFLIPQ_CAP_FLIP_QUEUE);
		igt_require(dev.pipe[0].n_overlays >= 1);
		vfq_get_mode(dev.fd, dev.pipe[0].conn_id, W, H, 60, &mode);
		for (int i = 0; i < NFB; i++) {
			vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &fbs[i]);
			vfq_fb_pattern(&fbs[i], i + 1);
		}
	}

	igt_describe("Non-master clients cannot queue, cancel, set logs or "
		     "interrupt targets");
	igt_subtest("non-master-flipq")
		test_non_master_flipq();
	igt_describe("Non-master clients cannot change the master's planes");
	igt_subtest("non-master-planes")
		test_non_master_planes();
	igt_describe("Render nodes reach only the render-allowed ioctls");
	igt_subtest("render-node")
		test_render_node();
	igt_describe("The card node of a render-only device refuses KMS "
		     "cleanly, also under concurrent clients");
	igt_subtest("render-only-card-node")
		test_render_only_card_node();
	igt_describe("GEM handles belong to one file");
	igt_subtest("gem-handles-per-file")
		test_gem_handles_per_file();
	igt_describe("Another client's framebuffers cannot be queued or copied");
	igt_subtest("foreign-framebuffers")
		test_foreign_framebuffers();
	igt_describe("Sizes computed from user input do not overflow");
	igt_subtest("size-overflow")
		test_size_overflow();
	igt_describe("No kernel memory reaches userspace through padding, "
		     "reserved members or events");
	igt_subtest("no-kernel-memory-leak")
		test_no_kernel_memory_leak();
	igt_describe("An in-fence on a plane without a framebuffer is refused "
		     "without a kernel warning");
	igt_subtest("in-fence-without-fb")
		test_in_fence_without_fb();
	igt_describe("The flip-queue log can only be mapped read-only");
	igt_subtest("log-read-only")
		test_log_read_only();

	igt_fixture {
		vfq_dev_reset(&dev);
		for (int i = 0; i < NFB; i++)
			vfq_fb_destroy(&fbs[i]);
		vfq_dev_fini(&dev);
		vfq_cfs_cleanup();
	}
}
