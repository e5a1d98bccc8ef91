// SPDX-License-Identifier: MIT
/*
 * Explicit sync the way Wayland compositors do it (linux-drm-syncobj-v1):
 * the client owns two timeline sync objects, made on its render device
 * (here a vflipq render-only adapter) and handed to the compositor as file
 * descriptors.  The compositor imports them on the display device, turns
 * the acquire point into the IN_FENCE_FD of the flip that shows the
 * buffer, and puts the flip's out-fence into the release point.  What is
 * judged: the screen (CRC per vblank) keeps the old image while the acquire
 * point is unsignalled, and each release point signals with its flip, at
 * the flip's vblank (the fence's timestamp is the event's), in order.
 *
 * A release point is the out-fence of the flip that replaces the buffer:
 * it must not signal before that flip's frame reached the screen, i.e.
 * before the buffer it releases left it.  The client sees when it woke up
 * on the point; with CRC capture on, the CRC of every vblank shows which
 * buffer was on screen, and with it off the vblank interrupt sleeps
 * between flips, so each flip wakes the display engine (another path to
 * the same event and fence).  Every flip event goes through the CRTC's
 * truth checker (vflipq_truth.c) with the time the client's rendering was
 * done as the flip's start: a flip held by its acquire point starts then.
 */
/**
 * TEST: kms vflipq syncobj
 * Category: Display
 * Mega feature: General Display Features
 * Sub-category: Synchronization
 * Functionality: timeline syncobj
 * Driver requirement: vflipq
 * Description: Explicit sync as Wayland compositors do it
 *              (linux-drm-syncobj-v1): a flip waits for the client's acquire
 *              point, and each release point signals with its flip, at the
 *              flip's vblank, in order.
 *
 * SUBTEST: caps
 * Description: DRM_CAP_SYNCOBJ and DRM_CAP_SYNCOBJ_TIMELINE on the display
 *              device and the render-only adapter (both nodes); a timeline
 *              made on the render node is the display device's too
 *
 * SUBTEST: acquire-point-gates-flip
 * Description: A flip whose IN_FENCE_FD comes from the client's acquire point
 *              keeps the old image on screen until the client's rendering
 *              signals the point
 *
 * SUBTEST: release-points-at-vblanks
 * Description: Each flip's out-fence in the client's release timeline: the
 *              point signals with its flip, in order, its time the vblank of
 *              the flip's event, the new image on screen
 *
 * SUBTEST: release-points-vblank-asleep
 * Description: The same with CRC capture off and the vblank interrupt asleep
 *              before each flip: each release point signals at or after its
 *              flip's vblank, its time that vblank's
 *
 * SUBTEST: release-point-eventfd
 * Description: The client's eventfd on its release point stays quiet while the
 *              flip is held and fires once the flip's vblank has come
 *
 * SUBTEST: release-point-outlives-display
 * Description: A release point whose fence came from a display device that has
 *              been removed since: waited for, queried and exported by the
 *              client
 */

#include <fcntl.h>
#include <linux/dma-buf.h>
#include <linux/sync_file.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/utsname.h>

#include "igt.h"
#include "vflipq_helpers.h"

IGT_TEST_DESCRIPTION("vflipq and timeline sync objects: acquire and release "
		     "points of a compositor's explicit sync");

#define W 640
#define H 480
#define FLIPS 8
#define VBLANKOFFDELAY "/sys/module/drm/parameters/vblankoffdelay"

/* 6.6's DRM_IOCTL_SYNCOBJ_EVENTFD, which bookworm's libdrm predates. */
#ifndef DRM_IOCTL_SYNCOBJ_EVENTFD
struct drm_syncobj_eventfd {
	__u32 handle;
	__u32 flags;
	__u64 point;
	__s32 fd;
	__u32 pad;
};

#define DRM_IOCTL_SYNCOBJ_EVENTFD DRM_IOWR(0xCF, struct drm_syncobj_eventfd)
#endif

static struct vfq_dev dev;
static igt_display_t display;
static drmModeModeInfo mode;
static struct vfq_fb fb[2];
static int client = -1;		/* the render-only adapter's render node */
static int vgem = -1;
static struct vfq_truth truth;	/* CRTC 0 of dev, from screen_on() on */
static char offdelay[32];	/* drm.vblankoffdelay to restore, or "" */

static uint64_t cap(int fd, uint64_t which)
{
	uint64_t v = 0;

	igt_assert_eq(drmGetCap(fd, which, &v), 0);
	return v;
}

/* The render node of the card @card_fd is the primary node of. */
static int open_render_node(int card_fd)
{
	char *path = drmGetRenderDeviceNameFromFd(card_fd);
	int fd;

	igt_assert_f(path, "the render-only adapter has no render node\n");
	fd = open(path, O_RDWR | O_CLOEXEC);
	igt_assert_f(fd >= 0, "%s: %s\n", path, strerror(errno));
	free(path);
	return fd;
}

static uint32_t timeline_new(int fd)
{
	uint32_t h = 0;

	igt_assert_eq(drmSyncobjCreate(fd, 0, &h), 0);
	return h;
}

/* The client's timeline @h as the compositor's handle on @to. */
static uint32_t share(int from, uint32_t h, int to)
{
	uint32_t out = 0;
	int obj;

	igt_assert_eq(drmSyncobjHandleToFD(from, h, &obj), 0);
	igt_assert_eq(drmSyncobjFDToHandle(to, obj, &out), 0);
	close(obj);
	return out;
}

/* Point @point of timeline @h takes the fence of sync_file @sf. */
static void import_point(int fd, uint32_t h, uint64_t point, int sf)
{
	uint32_t tmp = timeline_new(fd);

	igt_assert_eq(drmSyncobjImportSyncFile(fd, tmp, sf), 0);
	igt_assert_eq(drmSyncobjTransfer(fd, h, point, tmp, 0, 0), 0);
	drmSyncobjDestroy(fd, tmp);
}

/* A sync_file of point @point of timeline @h (which must have a fence). */
static int export_point(int fd, uint32_t h, uint64_t point)
{
	uint32_t tmp = timeline_new(fd);
	int sf = -1;

	igt_assert_eq(drmSyncobjTransfer(fd, tmp, 0, h, point, 0), 0);
	igt_assert_eq(drmSyncobjExportSyncFile(fd, tmp, &sf), 0);
	drmSyncobjDestroy(fd, tmp);
	igt_assert_fd(sf);
	return sf;
}

/* The last signalled point of @h. */
static uint64_t signalled(int fd, uint32_t h)
{
	uint64_t p = 0;

	igt_assert_eq(drmSyncobjQuery(fd, &h, &p, 1), 0);
	return p;
}

/* A sync_file of an unsignalled vgem fence: the client's rendering. */
static int render_fence(struct vfq_fb *bo, uint32_t *fence)
{
	struct dma_buf_export_sync_file ex = {
		.flags = DMA_BUF_SYNC_WRITE, .fd = -1 };
	int dmabuf;

	*fence = vfq_vgem_fence_write(vgem, bo->handle);
	igt_assert_eq(drmPrimeHandleToFD(vgem, bo->handle, DRM_CLOEXEC,
					 &dmabuf), 0);
	do_ioctl(dmabuf, DMA_BUF_IOCTL_EXPORT_SYNC_FILE, &ex);
	close(dmabuf);
	igt_assert_fd(ex.fd);
	return ex.fd;
}

/* Signal the rendering: returns a time before the flip it held can start. */
static uint64_t render_done(uint32_t fence)
{
	uint64_t t = vfq_now_ns();

	vfq_vgem_fence_signal(vgem, fence);
	return t;
}

/*
 * The compositor's flip of @d's first primary to @fb_id: @in_fd as
 * IN_FENCE_FD (< 0: none), its out-fence returned.  Raw: a nonblocking
 * flip whose event the test reads and judges itself, also on the
 * configfs device of release-point-outlives-display.
 */
static int flip_on(struct vfq_dev *d, uint32_t fb_id, int in_fd,
		   uint64_t tag)
{
	struct vfq_pipe *p = &d->pipe[0];
	drmModeAtomicReq *req = vfq_req_new();
	int32_t out = -1;

	vfq_req_set(req, d->fd, p->primary, DRM_MODE_OBJECT_PLANE, "FB_ID",
		    fb_id);
	if (in_fd >= 0)
		vfq_req_set(req, d->fd, p->primary, DRM_MODE_OBJECT_PLANE,
			    "IN_FENCE_FD", in_fd);
	vfq_req_set(req, d->fd, p->crtc_id, DRM_MODE_OBJECT_CRTC,
		    "OUT_FENCE_PTR", (uint64_t)(uintptr_t)&out);
	igt_assert_eq(vfq_req_commit(d->fd, req, DRM_MODE_ATOMIC_NONBLOCK |
				     DRM_MODE_PAGE_FLIP_EVENT,
				     (void *)(uintptr_t)tag), 0);
	igt_assert_fd(out);
	return out;
}

/* The event of flip @tag, started at @t_start, checked by @t. */
static struct vfq_event flip_event_on(int fd, struct vfq_truth *t,
				      uint64_t t_start, uint64_t tag)
{
	struct vfq_event ev;
	uint64_t t_read;

	igt_assert_eq(vfq_read_event(fd, 1000, &ev), 1);
	t_read = vfq_now_ns();
	igt_assert_eq_u32(ev.type, DRM_EVENT_FLIP_COMPLETE);
	igt_assert_eq_u64(ev.user_data, tag);
	vfq_truth_event(t, "flip", t_start, &ev, t_read);
	return ev;
}

static struct vfq_event flip_event(uint64_t t_start, uint64_t tag)
{
	return flip_event_on(dev.fd, &truth, t_start, tag);
}

/* A checker of CRTC 0 of @d, from its last vblank on. */
static void truth_start(struct vfq_truth *t, struct vfq_dev *d,
			const drmModeModeInfo *m)
{
	uint64_t seq, ts;

	vfq_truth_init(t, d->pipe[0].crtc_id, vfq_mode_period(m),
		       VFQ_TRUTH_FLIPS);
	vfq_vblank_grid(d->fd, d->pipe[0].crtc_id, &seq, &ts);
	vfq_truth_vblank(t, seq, ts);
}

/* The one fence inside sync_file @sf (a timeline point's chain unwraps). */
static struct sync_fence_info fence_info(int sf)
{
	struct sync_fence_info fi = {};
	struct sync_file_info info = {};

	do_ioctl(sf, SYNC_IOC_FILE_INFO, &info);
	igt_assert_f(info.num_fences == 1, "%u fences in a release point\n",
		     info.num_fences);
	info.sync_fence_info = (uint64_t)(uintptr_t)&fi;
	do_ioctl(sf, SYNC_IOC_FILE_INFO, &info);
	return fi;
}

/*
 * Frames @first .. @first + @n - 1 must show marker @want; frames without a
 * CRC (the composer merged them, driver.rst "CRC") judge nothing, but one
 * at least must be judged.
 */
static void expect_screen(struct vfq_screen *s, uint64_t first, int n,
			  int want, const char *what)
{
	int marker[16], judged = 0;

	igt_assert(n <= 16);
	vfq_screen_record(s, first, n, marker);
	for (int i = 0; i < n; i++) {
		igt_assert_f(marker[i] == VFQ_SCREEN_NO_CRC ||
			     marker[i] == want,
			     "%s: vblank %llu shows fb %d, not fb %d\n", what,
			     (unsigned long long)(first + i), marker[i], want);
		judged += marker[i] != VFQ_SCREEN_NO_CRC;
	}
	igt_assert_f(judged, "%s: no CRC for vblanks %llu-%llu\n", what,
		     (unsigned long long)first,
		     (unsigned long long)(first + n - 1));
}

/* Blocking modeset of pipe 0 to the test's mode, fb[0] on its primary. */
static void pipe0_on(void)
{
	vfq_display_pipe(&display, &dev, 0, &mode, &fb[0]);
	igt_display_commit2(&display, COMMIT_ATOMIC);
}

static void screen_on(struct vfq_screen *s)
{
	const uint32_t ids[2] = { fb[0].fb_id, fb[1].fb_id };

	pipe0_on();
	vfq_screen_learn(s, &dev, 0, ids, 2, W, H);	/* fb[0] shown */
	vfq_drain_events(dev.fd, 50);
	truth_start(&truth, &dev, &mode);
}

static bool kernel_at_least(int major, int minor)
{
	struct utsname u;
	int a = 0, b = 0;

	igt_assert_eq(uname(&u), 0);
	igt_assert_eq(sscanf(u.release, "%d.%d", &a, &b), 2);
	return a > major || (a == major && b >= minor);
}

static void test_caps(int card_fd)
{
	uint64_t point = 3;
	uint32_t h, shared;

	igt_assert_eq_u64(cap(dev.fd, DRM_CAP_SYNCOBJ), 1);
	igt_assert_eq_u64(cap(dev.fd, DRM_CAP_SYNCOBJ_TIMELINE), 1);
	igt_assert_eq_u64(cap(card_fd, DRM_CAP_SYNCOBJ), 1);
	igt_assert_eq_u64(cap(card_fd, DRM_CAP_SYNCOBJ_TIMELINE), 1);
	igt_assert_eq_u64(cap(client, DRM_CAP_SYNCOBJ_TIMELINE), 1);
	/* a CPU-signalled point, seen through the display device */
	h = timeline_new(client);
	igt_assert_eq(drmSyncobjTimelineSignal(client, &h, &point, 1), 0);
	shared = share(client, h, dev.fd);
	igt_assert_eq_u64(signalled(dev.fd, shared), 3);
	drmSyncobjDestroy(dev.fd, shared);
	drmSyncobjDestroy(client, h);
}

/* The client's two timelines, and the compositor's handles of them. */
struct timelines {
	uint32_t acq, rel;	/* on the client's render node */
	uint32_t c_acq, c_rel;	/* on the display device */
	int c_fd;
};

static void timelines_init(struct timelines *t, int display_fd)
{
	t->acq = timeline_new(client);
	t->rel = timeline_new(client);
	t->c_fd = display_fd;
	t->c_acq = share(client, t->acq, display_fd);
	t->c_rel = share(client, t->rel, display_fd);
}

/* The compositor's handles go first: its display device may be gone. */
static void timelines_fini(struct timelines *t)
{
	if (t->c_fd >= 0) {
		drmSyncobjDestroy(t->c_fd, t->c_acq);
		drmSyncobjDestroy(t->c_fd, t->c_rel);
	}
	drmSyncobjDestroy(client, t->acq);
	drmSyncobjDestroy(client, t->rel);
}

/*
 * Frame @point of the loop: the client renders into @bo (an unsignalled
 * vgem fence, *@rend, in acquire point @point); the compositor flips @d's
 * primary to @fb_id with that point as IN_FENCE_FD and puts the flip's
 * out-fence into release point @point.  The flip is held until
 * render_done(*@rend), so the out-fence is still unsignalled when it goes
 * into the timeline (the DRM core flattens a signalled one into a stub
 * fence on the way) and when the client looks at it: the release point
 * holds vflipq's fence, pending.  Once signalled, a fence's names no
 * longer tell (7.x names every signalled fence "detached-driver"); its
 * time does (check_released()).
 */
static void frame_submit(struct vfq_dev *d, struct timelines *t,
			 uint64_t point, uint32_t fb_id, uint64_t tag,
			 struct vfq_fb *bo, uint32_t *rend)
{
	int sf = render_fence(bo, rend), in_fd, out_fd;
	struct sync_fence_info fi;

	import_point(client, t->acq, point, sf);
	close(sf);
	in_fd = export_point(d->fd, t->c_acq, point);
	out_fd = flip_on(d, fb_id, in_fd, tag);
	close(in_fd);
	import_point(d->fd, t->c_rel, point, out_fd);
	close(out_fd);

	sf = export_point(client, t->rel, point);
	fi = fence_info(sf);
	close(sf);
	igt_assert_f(fi.status == 0 && strcmp(fi.driver_name, "vflipq") == 0 &&
		     fi.obj_name[0],
		     "release point %llu of a held flip: fence of \"%s\", "
		     "timeline \"%s\", status %d\n", (unsigned long long)point,
		     fi.driver_name, fi.obj_name, fi.status);
}

/*
 * Release point @point, after its flip's event @ev: the client's timeline
 * has signalled exactly up to it, and its fence signalled at the event's
 * vblank (a stub, or any fence signalled at another instant, fails).
 */
static void check_released(struct timelines *t, uint64_t point,
			   const struct vfq_event *ev)
{
	struct sync_fence_info fi;
	int sf;

	igt_assert_eq(drmSyncobjTimelineWait(client, &t->rel, &point, 1,
					     vfq_now_ns() + 1000000000ull, 0,
					     NULL), 0);
	igt_assert_eq_u64(signalled(client, t->rel), point);
	sf = export_point(client, t->rel, point);
	fi = fence_info(sf);
	close(sf);
	igt_assert_eq(fi.status, 1);
	/* 6.x asks the driver; 7.x answers for every signalled fence */
	igt_assert_f(strcmp(fi.driver_name, "vflipq") == 0 ||
		     (strcmp(fi.driver_name, "detached-driver") == 0 &&
		      strcmp(fi.obj_name, "signaled-timeline") == 0),
		     "release point %llu signalled: fence of \"%s\", "
		     "timeline \"%s\"\n", (unsigned long long)point,
		     fi.driver_name, fi.obj_name);
	/* the event has microseconds, the fence nanoseconds */
	igt_assert_f(fi.timestamp_ns / 1000 == ev->ts_ns / 1000,
		     "release point %llu signalled at %llu ns, its flip's "
		     "vblank was at %llu ns\n", (unsigned long long)point,
		     (unsigned long long)fi.timestamp_ns,
		     (unsigned long long)ev->ts_ns);
}

static void test_acquire(void)
{
	struct vfq_screen scr;
	struct timelines t;
	struct vfq_event ev;
	struct vfq_fb bo;
	uint32_t rend;
	uint64_t seq0, t_ready;

	igt_assert_eq(vfq_bo_create(vgem, 64, 64, DRM_FORMAT_XRGB8888, &bo),
		      0);
	screen_on(&scr);
	timelines_init(&t, dev.fd);
	frame_submit(&dev, &t, 1, fb[1].fb_id, 0x5c, &bo, &rend);
	seq0 = vfq_crtc_sequence(dev.fd, dev.pipe[0].crtc_id);
	expect_screen(&scr, seq0 + 1, 8, 0, "acquire point unsignalled");
	igt_assert_f(vfq_read_event(dev.fd, 0, &ev) == 0,
		     "the flip completed before its acquire point signalled\n");
	igt_assert_eq_u64(signalled(dev.fd, t.c_acq), 0);
	igt_assert_eq_u64(signalled(client, t.rel), 0);

	t_ready = render_done(rend);
	igt_assert_eq(drmSyncobjTimelineWait(dev.fd, &t.c_acq,
					     (uint64_t[]){ 1 }, 1,
					     vfq_now_ns() + 1000000000ull, 0,
					     NULL), 0);
	ev = flip_event(t_ready, 0x5c);
	igt_assert_lt_u64(seq0 + 8, ev.sequence);
	expect_screen(&scr, ev.sequence, 2, 1, "acquire point signalled");
	check_released(&t, 1, &ev);
	vfq_screen_stop(&scr);
	timelines_fini(&t);
	vfq_fb_destroy(&bo);
	vfq_display_off(&display);
}

/* The frames read so far: the next to read, the last with a CRC. */
struct screen_pos {
	uint64_t next, last_crc;
};

/*
 * The frames from @pos->next to the one after @ev_seq: up to the vblank
 * before @ev_seq they show marker @old, from @ev_seq on marker @new.
 * Frames without a CRC judge nothing (a stalled VM composes none for the
 * vblanks it slept through).  At most the last 32 frames before @ev_seq
 * are read (the CRC interface keeps 128).  Returns whether the frame
 * before @ev_seq had a CRC, read now or by the call before (then as that
 * call's @new, this one's @old): the outgoing buffer seen on screen at its
 * last vblank; *@seen_new counts the flips whose new buffer had a CRC at
 * @ev_seq or the next.
 */
static bool expect_flip_screen(struct vfq_screen *s, struct screen_pos *pos,
			       uint64_t ev_seq, int old, int new,
			       const char *what, int *seen_new)
{
	uint64_t from = pos->next + 32 < ev_seq ? ev_seq - 32 : pos->next;
	int n = (int)(ev_seq + 2 - from), marker[34], judged = 0;
	bool before;

	igt_assert(from <= ev_seq && n <= 34);
	vfq_screen_record(s, from, n, marker);
	for (int i = 0; i < n; i++) {
		int want = from + i < ev_seq ? old : new;

		igt_assert_f(marker[i] == VFQ_SCREEN_NO_CRC ||
			     marker[i] == want,
			     "%s: vblank %llu shows fb %d, not fb %d (the "
			     "flip's event names vblank %llu)\n", what,
			     (unsigned long long)(from + i), marker[i], want,
			     (unsigned long long)ev_seq);
		if (marker[i] == VFQ_SCREEN_NO_CRC)
			continue;
		if (from + i == ev_seq - 1)
			pos->last_crc = from + i;
		judged += from + i >= ev_seq;
	}
	if (judged)
		++*seen_new;
	else
		igt_info("%s: no CRC for vblanks %llu-%llu\n", what,
			 (unsigned long long)ev_seq,
			 (unsigned long long)ev_seq + 1);
	before = pos->last_crc == ev_seq - 1;
	pos->next = ev_seq + 2;
	pos->last_crc = marker[n - 1] != VFQ_SCREEN_NO_CRC ? ev_seq + 1 : 0;
	return before;
}

static uint64_t timer_expirations(void)
{
	struct drm_vflipq_get_counters c = { .crtc_id = dev.pipe[0].crtc_id };

	do_ioctl(dev.fd, DRM_IOCTL_VFLIPQ_GET_COUNTERS, &c);
	return c.timer_expirations;
}

/*
 * Until CRTC 0's display engine is asleep: no expiration in two frames.
 * Its vblank interrupt goes off 20 ms (vblankoffdelay) after the last
 * user let go; 1 s leaves a loaded host room to run that timer late, an
 * engine that never sleeps fails.  Nothing here takes a vblank reference
 * (drmCrtcGetSequence would wake it).
 */
static void wait_engine_asleep(void)
{
	uint64_t end = vfq_now_ns() + 1000000000ull, n = timer_expirations();

	for (;;) {
		uint64_t m;

		usleep(2 * vfq_mode_period(&mode) / 1000);
		m = timer_expirations();
		if (m == n)
			return;
		igt_assert_f(vfq_now_ns() < end, "the display engine still "
			     "runs 1 s after the last flip\n");
		n = m;
	}
}

static void restore_offdelay(int sig)
{
	(void)sig;
	if (offdelay[0])
		vfq_file_write(VBLANKOFFDELAY, offdelay);
	offdelay[0] = '\0';
}

/*
 * FLIPS flips, each held by its acquire point until the client's rendering
 * is done, each out-fence in release point @point.  The client blocks on
 * the release point and must wake at or after the vblank of the flip's
 * event (the fence signalled once the frame reached the screen, and with
 * it the buffer before left the screen), the fence's time that vblank's.
 * With @crc, the CRC of every vblank shows the outgoing buffer up to the
 * vblank before the event's and the new one from it on.  Without, the
 * vblank interrupt is off before each flip (vblankoffdelay cut to 20 ms,
 * the engine seen asleep): the flip wakes the engine.
 */
static void test_release_points(bool crc)
{
	struct vfq_screen scr;
	struct timelines t;
	struct screen_pos pos = { 0, 0 };
	struct vfq_fb bo;
	int outgoing = 0, incoming = 0;

	igt_assert_eq(vfq_bo_create(vgem, 64, 64, DRM_FORMAT_XRGB8888, &bo),
		      0);
	if (crc) {
		screen_on(&scr);
	} else {
		igt_assert(vfq_file_read(VBLANKOFFDELAY, offdelay,
					 sizeof(offdelay)) > 0);
		igt_install_exit_handler(restore_offdelay);
		igt_assert(vfq_file_write(VBLANKOFFDELAY, "20") > 0);
		pipe0_on();
		vfq_drain_events(dev.fd, 50);
		truth_start(&truth, &dev, &mode);
	}
	timelines_init(&t, dev.fd);
	for (int i = 0; i < FLIPS; i++) {
		uint64_t point = i + 1, t_ready, t_woke;
		int shown = (i + 1) & 1;
		struct vfq_event ev;
		char what[48];
		uint32_t rend;

		if (!crc)
			wait_engine_asleep();
		frame_submit(&dev, &t, point, fb[shown].fb_id, 0x100 + i, &bo,
			     &rend);
		/* held by its acquire point: the last release is the last */
		igt_assert_eq_u64(signalled(client, t.rel), point - 1);
		t_ready = render_done(rend);
		igt_assert_eq(drmSyncobjTimelineWait(client, &t.rel, &point, 1,
						     vfq_now_ns() +
						     1000000000ull, 0, NULL),
			      0);
		t_woke = vfq_now_ns();
		ev = flip_event(t_ready, 0x100 + i);
		igt_assert_f(ev.ts_ns <= t_woke, "release point %llu: the "
			     "client woke %.3f ms before the vblank of its "
			     "flip\n", (unsigned long long)point,
			     (ev.ts_ns - t_woke) / 1e6);
		check_released(&t, point, &ev);
		if (!crc)
			continue;
		if (!pos.next)
			pos.next = ev.sequence - 1;
		snprintf(what, sizeof(what), "release point %llu",
			 (unsigned long long)point);
		outgoing += expect_flip_screen(&scr, &pos, ev.sequence,
					       !shown, shown, what, &incoming);
	}
	if (crc) {
		vfq_screen_stop(&scr);
		igt_info("%d of %d released buffers seen on screen at the "
			 "vblank before their release, %d of %d new ones at "
			 "their flip's vblank or the next\n", outgoing, FLIPS,
			 incoming, FLIPS);
		igt_assert_f(outgoing, "no CRC of a buffer's last frame\n");
		/*
		 * Half: QEMU stopped for 60 ms every 2 s (VM_STALL=60:2)
		 * left one flip of 8 without a CRC at either vblank.
		 */
		igt_assert_f(incoming >= FLIPS / 2, "only %d of %d flips "
			     "with a CRC at their vblank or the next\n",
			     incoming, FLIPS);
	} else {
		restore_offdelay(0);
	}
	timelines_fini(&t);
	vfq_fb_destroy(&bo);
	vfq_display_off(&display);
}

/* The release point as compositors wait on it: an eventfd (6.6). */
static void test_release_eventfd(void)
{
	struct drm_syncobj_eventfd ef = { .point = 1 };
	struct vfq_screen scr;
	struct timelines t;
	struct vfq_event ev;
	struct pollfd pfd;
	struct vfq_fb bo;
	uint64_t seq_at_release, t_ready;
	uint32_t rend;

	igt_require_f(kernel_at_least(6, 6),
		      "DRM_IOCTL_SYNCOBJ_EVENTFD came with Linux 6.6\n");
	igt_assert_eq(vfq_bo_create(vgem, 64, 64, DRM_FORMAT_XRGB8888, &bo),
		      0);
	screen_on(&scr);
	timelines_init(&t, dev.fd);
	frame_submit(&dev, &t, 1, fb[1].fb_id, 0x5e, &bo, &rend);
	/* the client waits for release point 1 without blocking */
	ef.handle = t.rel;
	ef.fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	igt_assert_fd(ef.fd);
	do_ioctl(client, DRM_IOCTL_SYNCOBJ_EVENTFD, &ef);
	pfd = (struct pollfd){ .fd = ef.fd, .events = POLLIN };
	/* 12 frames at 60 Hz with the flip held by its acquire point */
	igt_assert_f(poll(&pfd, 1, 200) == 0,
		     "release point signalled while its flip was held\n");

	t_ready = render_done(rend);
	igt_assert_f(poll(&pfd, 1, 1000) == 1,
		     "release point not signalled within 1 s of the flip's "
		     "acquire point\n");
	seq_at_release = vfq_crtc_sequence(dev.fd, dev.pipe[0].crtc_id);
	ev = flip_event(t_ready, 0x5e);
	igt_assert_f(seq_at_release >= ev.sequence,
		     "release point signalled at vblank %llu, before its "
		     "flip's vblank %llu\n",
		     (unsigned long long)seq_at_release,
		     (unsigned long long)ev.sequence);
	expect_screen(&scr, ev.sequence, 2, 1, "flip released");
	vfq_screen_stop(&scr);
	close(ef.fd);
	timelines_fini(&t);
	vfq_fb_destroy(&bo);
	vfq_display_off(&display);
}

/*
 * The release point's fence is held by the client's timeline, on the
 * client's device, after the display device that made it is removed: the
 * fence's name and lock are vflipq's (locking.rst, "Out-fences of removed
 * devices"), so waiting, querying and exporting it must still work (and
 * KASAN, on the debug kernel, sees every access).
 */
static void test_release_outlives_display(void)
{
	static const char *const attrs[] = {
		"crtcs", "1", "modes", "640x480@60", NULL,
	};
	struct timelines t;
	struct vfq_truth dt;
	struct vfq_event ev;
	drmModeModeInfo m;
	struct vfq_fb f, bo;
	struct vfq_dev d;
	uint64_t t_ready;
	uint32_t rend;

	igt_assert_eq(vfq_bo_create(vgem, 64, 64, DRM_FORMAT_XRGB8888, &bo),
		      0);
	/*
	 * Raw on this configfs device, as in any test of one: set up and
	 * removed here, while its fence lives on.
	 */
	vfq_dev_init(&d, vfq_open_card(vfq_cfs_create("igt-syncobj-display",
						      attrs)));
	vfq_get_mode(d.fd, d.pipe[0].conn_id, W, H, 60, &m);
	vfq_fb_create(d.fd, W, H, DRM_FORMAT_XRGB8888, &f);
	vfq_pipe_on(&d, 0, &m, f.fb_id);
	truth_start(&dt, &d, &m);
	timelines_init(&t, d.fd);
	frame_submit(&d, &t, 1, f.fb_id, 0x0d, &bo, &rend);
	t_ready = render_done(rend);
	ev = flip_event_on(d.fd, &dt, t_ready, 0x0d);

	/* the display device goes: only the client's timeline holds it */
	drmSyncobjDestroy(d.fd, t.c_acq);
	drmSyncobjDestroy(d.fd, t.c_rel);
	t.c_fd = -1;
	vfq_fb_destroy(&f);
	vfq_dev_fini(&d);
	igt_assert_eq(vfq_cfs_write("igt-syncobj-display", "enabled", "0"),
		      1);
	igt_assert_eq(vfq_cfs_rmdir("igt-syncobj-display"), 0);

	check_released(&t, 1, &ev);
	timelines_fini(&t);
	vfq_fb_destroy(&bo);
}

igt_main
{
	int card_fd = -1;

	igt_fixture {
		static const char *const attrs[] = { "crtcs", "0", NULL };

		vfq_dev_init(&dev, vfq_open_default());
		/* raw: also zpos, which igt_display_reset() leaves */
		vfq_dev_reset(&dev);
		vfq_display_init(&display, &dev);
		vfq_get_mode(dev.fd, dev.pipe[0].conn_id, W, H, 60, &mode);
		vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &fb[0]);
		vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &fb[1]);
		vfq_fb_fill(&fb[0], vfq_rgb8(200, 30, 30));
		vfq_fb_fill(&fb[1], vfq_rgb8(30, 30, 200));
		vgem = vfq_open_driver("vgem");
		igt_assert_f(vgem >= 0, "no vgem card: %s\n",
			     strerror(-vgem));
		igt_require(vfq_cfs_available());
		vfq_cfs_cleanup();
		card_fd = vfq_open_card(vfq_cfs_create("igt-syncobj-client",
						       attrs));
		igt_assert_fd(card_fd);
		client = open_render_node(card_fd);
	}

	igt_describe("DRM_CAP_SYNCOBJ and DRM_CAP_SYNCOBJ_TIMELINE on the "
		     "display device and the render-only adapter (both nodes); "
		     "a timeline made on the render node is the display "
		     "device's too");
	igt_subtest("caps")
		test_caps(card_fd);

	igt_describe("A flip whose IN_FENCE_FD comes from the client's "
		     "acquire point keeps the old image on screen until the "
		     "client's rendering signals the point");
	igt_subtest("acquire-point-gates-flip")
		test_acquire();

	igt_describe("Each flip's out-fence in the client's release timeline: "
		     "the point signals with its flip, in order, its time the "
		     "vblank of the flip's event, the new image on screen");
	igt_subtest("release-points-at-vblanks")
		test_release_points(true);

	igt_describe("The same with CRC capture off and the vblank interrupt "
		     "asleep before each flip: each release point signals at "
		     "or after its flip's vblank, its time that vblank's");
	igt_subtest("release-points-vblank-asleep")
		test_release_points(false);

	igt_describe("The client's eventfd on its release point stays quiet "
		     "while the flip is held and fires once the flip's vblank "
		     "has come");
	igt_subtest("release-point-eventfd")
		test_release_eventfd();

	igt_describe("A release point whose fence came from a display device "
		     "that has been removed since: waited for, queried and "
		     "exported by the client");
	igt_subtest("release-point-outlives-display")
		test_release_outlives_display();

	igt_fixture {
		close(client);
		close(card_fd);
		vfq_cfs_cleanup();
		close(vgem);
		vfq_fb_destroy(&fb[0]);
		vfq_fb_destroy(&fb[1]);
		igt_display_fini(&display);
		vfq_dev_fini(&dev);
	}
}
