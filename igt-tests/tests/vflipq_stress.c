// SPDX-License-Identifier: MIT
/*
 * Stress and faults, in short forms for "make check": several processes
 * queueing, cancelling and mode-setting on one device at once; commits
 * spanning every CRTC while the engines run, their flip events judged by
 * the truth checker (vflipq_truth.c); nonblocking commits back to
 * back on an idle CRTC; a client killed with its flip
 * queue full; configfs removal of devices whose clients still hold fds,
 * mappings and dma-bufs (exporter first, importer first); module unload
 * refused while anything is held and done once everything is released;
 * load/unload cycles.  After each: no flip left pending (debugfs
 * dri/N/vflipq_flipq), the dma-buf count back at its baseline, and a
 * clean kernel log (the test runner checks that).
 *
 * Env: VFLIPQ_STRESS_SECONDS (concurrent phases, default 3),
 * VFLIPQ_STRESS_CYCLES (load/unload cycles, default 5; 50 on demand).  In the
 * VM they come from the kernel command line, e.g.
 *   VM_APPEND='VFLIPQ_STRESS_CYCLES=50' VFLIPQ_TESTS='vflipq_stress@*' \
 *	scripts/vm-run.sh --job tests
 */
/**
 * TEST: vflipq stress
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: driver
 * Functionality: stress and device removal
 * Driver requirement: vflipq
 * Description: Stress and faults in short forms: concurrent clients and
 *              lessees, commits on every CRTC, a killed master, configfs
 *              removal and module unload while clients hold resources,
 *              out-fences outliving their device, load/unload cycles;
 *              afterwards no flip pending, no dma-buf leaked, a clean kernel
 *              log.
 *
 * SUBTEST: concurrent-queues
 * Description: Lessees queueing, cancelling and mode-setting on their CRTCs of
 *              one device, the lessor mode-setting another
 *
 * SUBTEST: all-crtcs-commits
 * Description: Commits spanning every CRTC while all engines run, each CRTC's
 *              flip events true to its grid and their commits
 *
 * SUBTEST: idle-commit-chain
 * Description: Nonblocking commits back to back on each CRTC while it is off:
 *              each commit tail runs while the next one ends
 *
 * SUBTEST: sigkill-full-queue
 * Description: A master killed with its flip queue full leaves nothing behind
 *
 * SUBTEST: remove-device-busy
 * Description: configfs removal while a client holds fds, mappings, logs,
 *              queued flips and dma-bufs
 *
 * SUBTEST: remove-exporter-first
 * Description: Exporter removed first, then the importer scanning its buffer
 *              out
 *
 * SUBTEST: remove-importer-first
 * Description: Importer removed first (buffer on screen), then the exporter
 *
 * SUBTEST: unload-after-close
 * Description: Module unload refused while anything is held, done once
 *              everything is released
 *
 * SUBTEST: out-fence-outlives-device
 * Description: A CRTC out-fence used as another device's in-fence after its
 *              own device is gone
 *
 * SUBTEST: out-fence-poll-after-removal
 * Description: CRTC and writeback out-fences polled, then their device
 *              removed: their names, status and close still work, and the
 *              module stays until they are closed
 *
 * SUBTEST: out-fence-info-after-removal
 * Description: SYNC_IOC_FILE_INFO on CRTC and writeback out-fences whose
 *              device is gone
 *
 * SUBTEST: crc-capture-outlives-device
 * Description: A CRC capture open while its device is removed and the
 *              device's last file closed: it reads EIO, the module stays
 *              until it is closed, its close is clean
 *
 * SUBTEST: unload-default-out-fence
 * Description: Module unload with an out-fence of the default device held: the
 *              exit waits for it
 *
 * SUBTEST: out-fences-across-unload
 * Description: CRTC and writeback out-fences held across their device's
 *              removal and the module unload, then polled, queried and closed
 *
 * SUBTEST: load-unload-cycles
 * Description: Load/unload cycles with use in between (VFLIPQ_STRESS_CYCLES,
 *              default 5)
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <linux/sync_file.h>
#include <unistd.h>

#include "dumb_fb.h"
#include "igt.h"
#include "igt_sysfs.h"
#include "vflipq_helpers.h"

IGT_TEST_DESCRIPTION("vflipq stress: concurrent clients, kills, removal "
		     "and unload under load, load/unload cycles");

#define MOD "vflipq"
#define W 640
#define H 480
#define OW 128
#define PAGE 4096u

/* ---- small things ---------------------------------------------------------- */

static int xioctl(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) ? -errno : 0;
}

static int env_int(const char *name, int def)
{
	const char *v = getenv(name);

	return v && *v ? atoi(v) : def;
}

/* Sum of "pending N" over every plane in dri/<card>/vflipq_flipq; -1 n/a. */
static int flipq_pending(int card)
{
	char path[96], buf[16384], *p;
	int total = 0;

	snprintf(path, sizeof(path), "/sys/kernel/debug/dri/%d/vflipq_flipq",
		 card);
	if (vfq_file_read(path, buf, sizeof(buf)) < 0)
		return -1;
	for (p = buf; (p = strstr(p, " pending ")); p += 9)
		total += atoi(p + 9);
	return total;
}

static void wait_flipq_idle(int card)
{
	int n = flipq_pending(card);

	for (int i = 0; i < 100 && n > 0; i++) {
		usleep(10000);
		n = flipq_pending(card);
	}
	igt_assert_f(n <= 0, "card%d: %d flips still pending\n", card, n);
}

static void wait_dmabufs(int want)
{
	int n = vfq_dmabuf_count();

	if (want < 0 || n < 0)
		return;		/* no debugfs */
	for (int i = 0; i < 200 && n != want; i++) {
		usleep(10000);
		n = vfq_dmabuf_count();
	}
	igt_assert_f(n == want, "%d dma-bufs alive, %d before\n", n, want);
}

static int unload(void)
{
	int ret = 0;

	for (int i = 0; i < 100; i++) {
		ret = vfq_module_unload(MOD);
		if (ret != -EAGAIN && ret != -EBUSY)
			break;
		usleep(20000);
	}
	return ret;
}

static void check_unload_refused(const char *why)
{
	int ret = vfq_module_unload(MOD);

	igt_assert_f(ret == -EAGAIN || ret == -EBUSY,
		     "unload while %s: %s\n", why,
		     ret ? strerror(-ret) : "succeeded");
	igt_assert(vfq_module_loaded(MOD));
}

static void load_default(void)
{
	if (!vfq_module_loaded(MOD))
		igt_assert_eq(vfq_module_load(MOD, NULL), 0);
	igt_assert(vfq_module_loaded(MOD));
}

static void restore_module(int sig)
{
	(void)sig;
	vfq_cfs_cleanup();
	if (!vfq_module_loaded(MOD))
		vfq_module_load(MOD, NULL);
}

static int render_minor(int card)
{
	char path[128];
	int minor = -1;

	for (int m = 128; m < 192 && minor < 0; m++) {
		snprintf(path, sizeof(path),
			 "/sys/class/drm/card%d/device/drm/renderD%d", card, m);
		if (access(path, F_OK) == 0)
			minor = m;
	}
	return minor;
}

/* ---- ids a child can use without the igt helpers ----------------------------- */

/*
 * Raw: the forked children and lessees run on their own fds, without igt
 * asserts or an igt_display of their own.
 */
struct ids {
	uint32_t crtc, conn, primary, overlay;
	uint32_t conn_crtc, crtc_mode, crtc_active;
	uint32_t fb_id, crtc_id, sx, sy, sw, sh, cx, cy, cw, ch;
};

static void get_ids(struct vfq_dev *d, int pipe, struct ids *id)
{
	const uint32_t P = DRM_MODE_OBJECT_PLANE;
	struct vfq_pipe *p = &d->pipe[pipe];
	int fd = d->fd;

	memset(id, 0, sizeof(*id));
	id->crtc = p->crtc_id;
	id->conn = p->conn_id;
	id->primary = p->primary;
	id->overlay = p->n_overlays ? p->overlays[0] : 0;
	id->conn_crtc = vfq_prop_id(fd, p->conn_id, DRM_MODE_OBJECT_CONNECTOR,
				    "CRTC_ID");
	id->crtc_mode = vfq_prop_id(fd, p->crtc_id, DRM_MODE_OBJECT_CRTC,
				    "MODE_ID");
	id->crtc_active = vfq_prop_id(fd, p->crtc_id, DRM_MODE_OBJECT_CRTC,
				      "ACTIVE");
	id->fb_id = vfq_prop_id(fd, p->primary, P, "FB_ID");
	id->crtc_id = vfq_prop_id(fd, p->primary, P, "CRTC_ID");
	id->sx = vfq_prop_id(fd, p->primary, P, "SRC_X");
	id->sy = vfq_prop_id(fd, p->primary, P, "SRC_Y");
	id->sw = vfq_prop_id(fd, p->primary, P, "SRC_W");
	id->sh = vfq_prop_id(fd, p->primary, P, "SRC_H");
	id->cx = vfq_prop_id(fd, p->primary, P, "CRTC_X");
	id->cy = vfq_prop_id(fd, p->primary, P, "CRTC_Y");
	id->cw = vfq_prop_id(fd, p->primary, P, "CRTC_W");
	id->ch = vfq_prop_id(fd, p->primary, P, "CRTC_H");
}

static void c_plane(drmModeAtomicReq *req, const struct ids *id, uint32_t plane,
		    uint32_t crtc, uint32_t fb, int x, int y, int w, int h)
{
	drmModeAtomicAddProperty(req, plane, id->fb_id, fb);
	drmModeAtomicAddProperty(req, plane, id->crtc_id, fb ? crtc : 0);
	drmModeAtomicAddProperty(req, plane, id->sx, 0);
	drmModeAtomicAddProperty(req, plane, id->sy, 0);
	drmModeAtomicAddProperty(req, plane, id->sw, (uint64_t)w << 16);
	drmModeAtomicAddProperty(req, plane, id->sh, (uint64_t)h << 16);
	drmModeAtomicAddProperty(req, plane, id->cx, x);
	drmModeAtomicAddProperty(req, plane, id->cy, y);
	drmModeAtomicAddProperty(req, plane, id->cw, w);
	drmModeAtomicAddProperty(req, plane, id->ch, h);
}

/* Mode set with the primary full-screen and the overlay at 64,64. */
static int c_pipe_on(int fd, const struct ids *id, const drmModeModeInfo *m,
		     uint32_t fb, uint32_t ofb)
{
	drmModeAtomicReq *req = drmModeAtomicAlloc();
	uint32_t blob = 0;
	int ret;

	if (!req || drmModeCreatePropertyBlob(fd, m, sizeof(*m), &blob))
		return -errno;
	drmModeAtomicAddProperty(req, id->conn, id->conn_crtc, id->crtc);
	drmModeAtomicAddProperty(req, id->crtc, id->crtc_mode, blob);
	drmModeAtomicAddProperty(req, id->crtc, id->crtc_active, 1);
	c_plane(req, id, id->primary, id->crtc, fb, 0, 0, m->hdisplay,
		m->vdisplay);
	if (id->overlay && ofb)
		c_plane(req, id, id->overlay, id->crtc, ofb, 64, 64, OW, OW);
	ret = drmModeAtomicCommit(fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL) ?
	      -errno : 0;
	drmModeAtomicFree(req);
	drmModeDestroyPropertyBlob(fd, blob);
	return ret;
}

static int c_pipe_off(int fd, const struct ids *id)
{
	drmModeAtomicReq *req = drmModeAtomicAlloc();
	int ret;

	if (!req)
		return -ENOMEM;
	drmModeAtomicAddProperty(req, id->primary, id->fb_id, 0);
	drmModeAtomicAddProperty(req, id->primary, id->crtc_id, 0);
	if (id->overlay) {
		drmModeAtomicAddProperty(req, id->overlay, id->fb_id, 0);
		drmModeAtomicAddProperty(req, id->overlay, id->crtc_id, 0);
	}
	drmModeAtomicAddProperty(req, id->conn, id->conn_crtc, 0);
	drmModeAtomicAddProperty(req, id->crtc, id->crtc_active, 0);
	drmModeAtomicAddProperty(req, id->crtc, id->crtc_mode, 0);
	ret = drmModeAtomicCommit(fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL) ?
	      -errno : 0;
	drmModeAtomicFree(req);
	return ret;
}

/* A dumb-buffer fb of @fd, every byte @v; 0 on failure. */
static uint32_t c_fb(int fd, int w, int h, uint8_t v)
{
	return dumb_fb_xrgb8888(fd, w, h, v * 0x01010101u);
}

static int c_set_log(int fd, uint32_t crtc, uint32_t plane, uint32_t n,
		     uint32_t *handle, uint64_t *size)
{
	struct drm_vflipq_set_log s = { .crtc_id = crtc, .plane_id = plane,
					.num_entries = n };
	int ret = xioctl(fd, DRM_IOCTL_VFLIPQ_FLIPQ_SET_LOG, &s);

	if (handle)
		*handle = s.handle;
	if (size)
		*size = s.size;
	return ret;
}

static int c_submit(int fd, uint32_t crtc, int n, const uint32_t *planes,
		    const uint32_t *fbs, const uint64_t *ids, uint64_t target,
		    uint32_t mode)
{
	struct drm_vflipq_flip_plane p[2];
	struct drm_vflipq_flip f = { .target_ns = target,
				     .planes_ptr = (uintptr_t)p,
				     .num_planes = n };
	struct drm_vflipq_flipq_submit s = { .crtc_id = crtc,
					     .flips_ptr = (uintptr_t)&f,
					     .num_flips = 1,
					     .flip_size = sizeof(f),
					     .plane_size = sizeof(p[0]) };

	memset(p, 0, sizeof(p));
	for (int i = 0; i < n; i++) {
		p[i].plane_id = planes[i];
		p[i].fb_id = fbs[i];
		p[i].present_id = ids[i];
		p[i].mode = mode;
	}
	return xioctl(fd, DRM_IOCTL_VFLIPQ_FLIPQ_SUBMIT, &s);
}

static int c_cancel(int fd, uint32_t crtc, uint32_t plane, uint64_t from)
{
	struct drm_vflipq_cancel_plane p = { .plane_id = plane,
		.present_id_cancel_requested = from };
	struct drm_vflipq_flip_cancel c = { .crtc_id = crtc, .num_planes = 1,
		.planes_ptr = (uintptr_t)&p, .plane_size = sizeof(p) };

	return xioctl(fd, DRM_IOCTL_VFLIPQ_FLIPQ_CANCEL, &c);
}


static uint64_t crtc_counter(int fd, uint32_t crtc, size_t offset)
{
	struct drm_vflipq_get_counters c = { .crtc_id = crtc };

	if (xioctl(fd, DRM_IOCTL_VFLIPQ_GET_COUNTERS, &c))
		return 0;
	return *(uint64_t *)((char *)&c + offset);
}

#define SHOWN offsetof(struct drm_vflipq_get_counters, flips_shown)
#define CANCELLED offsetof(struct drm_vflipq_get_counters, flips_cancelled)

#define FAIL(...) do { fprintf(stderr, __VA_ARGS__); _exit(1); } while (0)

/* ---- several processes on one device ------------------------------------------ */

#define STRESS_DEV VFQ_CFS_PREFIX "stress"
#define NQUEUE 3

/*
 * What a queue child's primary plane reports, judged as it is read: the
 * log entry by entry against what was submitted (truth.h), and every
 * flip-queue event.  An event reports the PresentId on screen at a vblank
 * (or at a tearing flip, between two vblanks, with the sequence of the one
 * before); within one mode set its sequence and PresentId never go back,
 * and a higher sequence comes with a later time.  A mode set restarts the
 * engine's sequence and grid, so the child reads everything the old one
 * reported before it turns the CRTC on again.
 */
#define QT_SHOWN 128
#define QT_EVENTS 128
struct queue_truth {
	int fd;
	uint32_t crtc, plane;
	struct vfq_truth_queue q;
	const volatile struct drm_vflipq_log_entry *log;
	uint32_t n, next;		/* log entries, next one to read */
	/* the shown entries logged since the mode set, newest last */
	struct { uint64_t id, ts; } shown[QT_SHOWN];
	unsigned int nshown;
	bool ev_seen;
	uint64_t ev_seq, ev_ts, ev_pid;
	unsigned int entries, events;	/* judged so far */
	/* events read, judged once the log is read after them */
	struct drm_vflipq_event_flipq ev[QT_EVENTS];
	uint64_t ev_read[QT_EVENTS];
	unsigned int nev;
};

static void queue_truth_log(struct queue_truth *qt)
{
	struct drm_vflipq_update_log u = { .crtc_id = qt->crtc,
					   .plane_id = qt->plane };
	uint64_t t_read;
	int ret;

	if ((ret = xioctl(qt->fd, DRM_IOCTL_VFLIPQ_FLIPQ_UPDATE_LOG, &u)))
		FAIL("crtc %u: update log: %s\n", qt->crtc, strerror(-ret));
	t_read = vfq_now_ns();
	if (u.first_free >= qt->n)
		FAIL("crtc %u: log first_free %u of %u\n", qt->crtc,
		     u.first_free, qt->n);
	/* a lap missed between two reads only skips PresentIds */
	for (; qt->next != u.first_free; qt->next = (qt->next + 1) % qt->n) {
		const volatile struct drm_vflipq_log_entry *e = &qt->log[qt->next];

		uint64_t id = e->present_id, ts = e->timestamp_ns;

		if (!vfq_truth_queue_entry(&qt->q, "log entry", id, ts, t_read))
			FAIL("crtc %u: %s\n", qt->crtc, qt->q.grid.why);
		qt->entries++;
		if (ts == VFLIPQ_TIMESTAMP_CANCELLED)
			continue;
		qt->shown[qt->nshown % QT_SHOWN].id = id;
		qt->shown[qt->nshown % QT_SHOWN].ts = ts;
		qt->nshown++;
	}
}

/*
 * The PresentId an event says was on screen at its time is the newest one
 * the log says was shown by then.  Judged only where the log of this mode
 * set covers that time: before its first shown entry, the screen holds
 * what the mode set put there.
 */
static void queue_truth_vs_log(const struct queue_truth *qt,
			       const struct drm_vflipq_event_flipq *e)
{
	unsigned int kept = qt->nshown < QT_SHOWN ? qt->nshown : QT_SHOWN;

	for (unsigned int i = 1; i <= kept; i++) {
		unsigned int k = (qt->nshown - i) % QT_SHOWN;

		if (qt->shown[k].ts > e->timestamp_ns)
			continue;
		if (qt->shown[k].id != e->present_id)
			FAIL("crtc %u: event at %" PRIu64 " ns says PresentId %"
			     PRIu64 " on screen, the log says %" PRIu64
			     " (shown at %" PRIu64 " ns)\n", qt->crtc,
			     (uint64_t)e->timestamp_ns, (uint64_t)e->present_id,
			     qt->shown[k].id, qt->shown[k].ts);
		return;
	}
}

static void queue_truth_event(struct queue_truth *qt,
			      const struct drm_vflipq_event_flipq *e,
			      uint64_t t_read)
{
	if (e->crtc_id != qt->crtc || e->plane_id != qt->plane || e->pad)
		FAIL("crtc %u: flip-queue event of CRTC %u plane %u pad %u\n",
		     qt->crtc, e->crtc_id, e->plane_id, e->pad);
	if (e->timestamp_ns > t_read)
		FAIL("crtc %u: flip-queue event at %" PRIu64 " read at %" PRIu64
		     "\n", qt->crtc, (uint64_t)e->timestamp_ns, t_read);
	if (qt->ev_seen &&
	    (e->sequence < qt->ev_seq || e->present_id < qt->ev_pid ||
	     e->timestamp_ns < qt->ev_ts ||
	     (e->sequence > qt->ev_seq && e->timestamp_ns == qt->ev_ts)))
		FAIL("crtc %u: flip-queue event (seq %" PRIu64 ", %" PRIu64
		     " ns, PresentId %" PRIu64 ") after (seq %" PRIu64 ", %"
		     PRIu64 " ns, PresentId %" PRIu64 ")\n", qt->crtc,
		     (uint64_t)e->sequence, (uint64_t)e->timestamp_ns,
		     (uint64_t)e->present_id, qt->ev_seq, qt->ev_ts,
		     qt->ev_pid);
	qt->ev_seen = true;
	qt->ev_seq = e->sequence;
	qt->ev_ts = e->timestamp_ns;
	qt->ev_pid = e->present_id;
}

/* The events read since the log was: against the log, read now. */
static void queue_truth_judge(struct queue_truth *qt)
{
	queue_truth_log(qt);
	for (unsigned int i = 0; i < qt->nev; i++) {
		queue_truth_event(qt, &qt->ev[i], qt->ev_read[i]);
		queue_truth_vs_log(qt, &qt->ev[i]);
		qt->events++;
	}
	qt->nev = 0;
}

/* Read the events there are, without waiting (they may come every vblank). */
static void queue_truth_events(struct queue_truth *qt)
{
	char buf[4096] __attribute__((aligned(8)));

	for (int i = 0; i < 16; i++) {
		struct pollfd pfd = { .fd = qt->fd, .events = POLLIN };
		ssize_t len, off = 0;
		uint64_t t_read;

		if (poll(&pfd, 1, 0) <= 0 ||
		    (len = read(qt->fd, buf, sizeof(buf))) <= 0)
			break;
		t_read = vfq_now_ns();
		while (off + (ssize_t)sizeof(struct drm_event) <= len) {
			const struct drm_event *e = (const void *)(buf + off);

			if (e->length < sizeof(*e) || off + e->length > len)
				FAIL("crtc %u: event of %u bytes\n", qt->crtc,
				     e->length);
			if (e->type == DRM_VFLIPQ_EVENT_FLIPQ) {
				if (e->length != sizeof(qt->ev[0]))
					FAIL("crtc %u: flip-queue event of %u "
					     "bytes\n", qt->crtc, e->length);
				if (qt->nev == QT_EVENTS)
					queue_truth_judge(qt);
				memcpy(&qt->ev[qt->nev], e, sizeof(qt->ev[0]));
				qt->ev_read[qt->nev++] = t_read;
			}
			off += e->length;
		}
	}
	queue_truth_judge(qt);
}

/* The CRTC is off: what the old mode reported is all read; a new grid. */
static void queue_truth_modeset(struct queue_truth *qt, uint64_t period)
{
	queue_truth_events(qt);
	vfq_truth_init(&qt->q.grid, qt->crtc, period, VFQ_TRUTH_FLIPS);
	qt->ev_seen = false;
	qt->nshown = 0;
}

/*
 * A lessee of one CRTC: mode set, logs, then for @secs seconds queued
 * flips (single and interlocked, vsync and tearing), cancels, log
 * updates, event reads and now and then a mode set that cancels the queue.
 */
static void queue_child(int fd, const struct ids *id, const drmModeModeInfo *m,
			int secs, unsigned int seed)
{
	uint32_t fbs[4], ofbs[2], handle;
	uint64_t pid[2] = { 0, 0 }, last_target = 0, end, period, size;
	uint64_t subs = 0, again = 0, cancels = 0, modesets = 0;
	const uint32_t planes[2] = { id->primary, id->overlay };
	struct drm_vflipq_flipq_submit t = {
		.crtc_id = id->crtc, .flags = VFLIPQ_SUBMIT_IRQ_TARGET,
		.flip_size = sizeof(struct drm_vflipq_flip),
		.plane_size = sizeof(struct drm_vflipq_flip_plane),
		.irq_plane_id = id->primary };
	static struct queue_truth qt;
	int ret;

	alarm(secs + 60);
	srand(seed);
	period = vfq_mode_period(m);
	for (int i = 0; i < 4; i++)
		if (!(fbs[i] = c_fb(fd, W, H, 0x10 * (i + 1))))
			FAIL("crtc %u: fb: %s\n", id->crtc, strerror(errno));
	for (int i = 0; i < 2; i++)
		if (!(ofbs[i] = c_fb(fd, OW, OW, 0x80 + i)))
			FAIL("crtc %u: overlay fb: %s\n", id->crtc, strerror(errno));
	if ((ret = c_pipe_on(fd, id, m, fbs[0], ofbs[0])))
		FAIL("crtc %u: mode set: %s\n", id->crtc, strerror(-ret));
	if ((ret = c_set_log(fd, id->crtc, id->primary, 64, &handle, &size)))
		FAIL("crtc %u: log: %s\n", id->crtc, strerror(-ret));
	{
		struct drm_mode_map_dumb md = { .handle = handle };
		void *log;

		if (xioctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &md))
			FAIL("crtc %u: map log\n", id->crtc);
		log = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, md.offset);
		if (log == MAP_FAILED)
			FAIL("crtc %u: mmap log: %s\n", id->crtc, strerror(errno));
		qt = (struct queue_truth){ .fd = fd, .crtc = id->crtc,
					   .plane = id->primary, .log = log,
					   .n = 64 };
		vfq_truth_queue_init(&qt.q, id->crtc, id->primary, period);
	}
	if ((ret = c_set_log(fd, id->crtc, id->overlay, 64, NULL, NULL)))
		FAIL("crtc %u: overlay log: %s\n", id->crtc, strerror(-ret));
	t.irq_target = VFLIPQ_IRQ_TARGET_EVERY_VBLANK;
	if ((ret = xioctl(fd, DRM_IOCTL_VFLIPQ_FLIPQ_SUBMIT, &t)))
		FAIL("crtc %u: irq target: %s\n", id->crtc, strerror(-ret));

	end = vfq_now_ns() + secs * 1000000000ull;
	while (vfq_now_ns() < end) {
		int r = rand() % 100;

		if (r < 70) {
			int n = r < 20 ? 2 : 1;
			uint64_t ids[2] = { pid[0] + 1, pid[1] + 1 };
			uint32_t f[2] = { fbs[rand() % 4], ofbs[rand() % 2] };
			uint64_t t_submit = vfq_now_ns();
			uint64_t target = t_submit + (rand() % 4) * period;
			bool tearing = r % 10 == 3 && n == 1;

			if (target < last_target)
				target = last_target;
			ret = c_submit(fd, id->crtc, n, planes, f, ids, target,
				       tearing ? VFLIPQ_FLIP_IMMEDIATE : 0);
			if (ret == -EAGAIN) {
				again++;
				usleep(2000);
				queue_truth_events(&qt);
				continue;
			}
			if (ret)
				FAIL("crtc %u: submit %d planes, ids %" PRIu64
				     "/%" PRIu64 ": %s\n", id->crtc, n, ids[0],
				     ids[1], strerror(-ret));
			vfq_truth_queue_submit(&qt.q, ids[0], target, t_submit,
					       tearing);
			pid[0]++;
			if (n == 2)
				pid[1]++;
			last_target = target;
			subs++;
		} else if (r < 80) {
			uint64_t from = pid[0] > 2 ? pid[0] - rand() % 3 : 1;

			/* Splitting an interlocked flip is refused: fine. */
			ret = c_cancel(fd, id->crtc, id->primary, from);
			if (ret && ret != -EINVAL)
				FAIL("crtc %u: cancel: %s\n", id->crtc,
				     strerror(-ret));
			if (!ret)
				cancels++;
		} else if (r < 90) {
			struct drm_vflipq_update_log u = {
				.crtc_id = id->crtc, .plane_id = id->primary };

			if ((ret = xioctl(fd, DRM_IOCTL_VFLIPQ_FLIPQ_UPDATE_LOG, &u)))
				FAIL("crtc %u: update log: %s\n", id->crtc,
				     strerror(-ret));
			if (u.present_id_shown > pid[0])
				FAIL("crtc %u: shown %" PRIu64 " > queued %" PRIu64
				     "\n", id->crtc, (uint64_t)u.present_id_shown,
				     pid[0]);
			queue_truth_log(&qt);
		} else if (r < 97) {
			queue_truth_events(&qt);
		} else {
			/* A mode set (off, on) cancels what is queued. */
			if ((ret = c_pipe_off(fd, id)))
				FAIL("crtc %u: mode off: %s\n", id->crtc,
				     strerror(-ret));
			queue_truth_modeset(&qt, period);
			if ((ret = c_pipe_on(fd, id, m, fbs[rand() % 4], ofbs[0])))
				FAIL("crtc %u: mode set: %s\n", id->crtc,
				     strerror(-ret));
			last_target = 0;
			modesets++;
		}
	}
	queue_truth_events(&qt);
	printf("crtc %u: %" PRIu64 " submits (%" PRIu64 " EAGAIN), %" PRIu64
	       " cancels, %" PRIu64 " mode sets, %" PRIu64 " shown; %u log "
	       "entries and %u interrupts judged\n", id->crtc, subs, again,
	       cancels, modesets, crtc_counter(fd, id->crtc, SHOWN),
	       qt.entries, qt.events);
	if (!crtc_counter(fd, id->crtc, SHOWN))
		FAIL("crtc %u: no queued flip ever reached the screen\n", id->crtc);
	fflush(stdout);
	_exit(0);
}

/* The lessor: mode sets of its own CRTC, checks, queries. */
static void modeset_child(int fd, const struct ids *id,
			  const drmModeModeInfo *modes, int secs)
{
	uint32_t fb[2], ofb = c_fb(fd, OW, OW, 0x44);
	uint64_t end = vfq_now_ns() + secs * 1000000000ull;
	int n = 0, ret;

	alarm(secs + 60);
	for (int i = 0; i < 2; i++)
		fb[i] = c_fb(fd, modes[i].hdisplay, modes[i].vdisplay, 0x33);
	if (!fb[0] || !fb[1] || !ofb)
		FAIL("lessor: fbs: %s\n", strerror(errno));
	while (vfq_now_ns() < end) {
		struct drm_vflipq_scanout_query q = { .width = W, .height = H,
			.format = DRM_FORMAT_XRGB8888 };

		if ((ret = c_pipe_on(fd, id, &modes[n & 1], fb[n & 1], ofb)))
			FAIL("lessor: mode set %d: %s\n", n, strerror(-ret));
		if ((ret = xioctl(fd, DRM_IOCTL_VFLIPQ_SCANOUT_QUERY, &q)))
			FAIL("lessor: query: %s\n", strerror(-ret));
		crtc_counter(fd, id->crtc, SHOWN);
		if ((ret = c_pipe_off(fd, id)))
			FAIL("lessor: off %d: %s\n", n, strerror(-ret));
		n++;
	}
	printf("lessor: %d mode sets\n", n);
	fflush(stdout);
	_exit(0);
}

static int lease_pipe(int master, const struct ids *id)
{
	uint32_t objs[4] = { id->crtc, id->conn, id->primary, id->overlay };
	uint32_t lessee;
	int fd = drmModeCreateLease(master, objs, 4, O_CLOEXEC | O_NONBLOCK,
				    &lessee);

	igt_assert_f(fd >= 0, "lease of CRTC %u: %s\n", id->crtc,
		     strerror(errno));
	drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1);
	drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1);
	return fd;
}

static int wait_children(pid_t *pids, int n)
{
	int failed = 0;

	for (int i = 0; i < n; i++) {
		int status;

		igt_assert_eq(waitpid(pids[i], &status, 0), pids[i]);
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			igt_warn("child %d: status %#x\n", i, status);
			failed++;
		}
	}
	return failed;
}

static void test_concurrent(void)
{
	static const char *const attrs[] = {
		"crtcs", "4", "overlays", "1", "cursor", "0", "writeback", "0",
		"flipq_depth", "8", "modes", "640x480@60 800x600@60",
		"preferred_mode", "640x480@60", "bandwidth", "1000000000000",
		NULL,
	};
	int secs = env_int("VFLIPQ_STRESS_SECONDS", 3), card, lfd[NQUEUE];
	int dmabufs = vfq_dmabuf_count();
	struct vfq_dev d;
	struct ids id[4];
	drmModeModeInfo modes[2];
	pid_t pids[NQUEUE + 1];

	igt_require(vfq_cfs_available());
	vfq_cfs_cleanup();
	/* raw: a configfs device of this subtest, its KMS the children's */
	card = vfq_cfs_create(STRESS_DEV, attrs);
	vfq_dev_init(&d, vfq_open_card(card));
	igt_assert_eq(d.n_pipes, 4);
	vfq_get_mode(d.fd, d.pipe[0].conn_id, 640, 480, 60, &modes[0]);
	vfq_get_mode(d.fd, d.pipe[0].conn_id, 800, 600, 60, &modes[1]);
	for (int i = 0; i < 4; i++)
		get_ids(&d, i, &id[i]);
	for (int i = 0; i < NQUEUE; i++)
		lfd[i] = lease_pipe(d.fd, &id[i]);

	fflush(stdout);
	for (int i = 0; i <= NQUEUE; i++) {
		pids[i] = fork();
		igt_assert(pids[i] >= 0);
		if (pids[i])
			continue;
		for (int k = 0; k < NQUEUE; k++)
			if (k != i)
				close(lfd[k]);
		if (i < NQUEUE) {
			close(d.fd);
			queue_child(lfd[i], &id[i], &modes[0], secs, 1 + i);
		}
		modeset_child(d.fd, &id[3], modes, secs);
	}
	igt_assert_eq(wait_children(pids, NQUEUE + 1), 0);

	/* Leases gone, queues gone. */
	for (int i = 0; i < NQUEUE; i++)
		close(lfd[i]);
	wait_flipq_idle(card);
	for (int i = 0; i < NQUEUE; i++)
		igt_assert(crtc_counter(d.fd, id[i].crtc, SHOWN) > 0);
	vfq_dev_reset(&d);
	vfq_dev_fini(&d);
	vfq_cfs_cleanup();
	wait_dmabufs(dmabufs);
}

/*
 * One master, commits that span every CRTC (planes flipped on all of them
 * at once, nonblocking, and full mode sets) while every engine runs.
 */
/*
 * The flip events of all-crtcs-commits, each checked by its CRTC's truth
 * checker with the start of its commit (tagged with its index @n).
 */
struct all_crtcs_events {
	struct vfq_truth truth[VFQ_MAX_CRTCS];
	uint64_t t_start[64];	/* by commit index; far more than in flight */
	int pending;		/* events not read yet */
};

/* A new grid on every CRTC: the mode set of them all just done. */
static void all_crtcs_truth_start(struct vfq_dev *d, const drmModeModeInfo *m,
				  struct all_crtcs_events *e)
{
	for (int p = 0; p < d->n_pipes; p++) {
		uint64_t seq, ts;

		vfq_truth_init(&e->truth[p], d->pipe[p].crtc_id,
			       vfq_mode_period(m), VFQ_TRUTH_FLIPS);
		vfq_vblank_grid(d->fd, d->pipe[p].crtc_id, &seq, &ts);
		vfq_truth_vblank(&e->truth[p], seq, ts);
	}
}

/* Read the flip events there are, or with @all every one still to come. */
static void all_crtcs_read(struct vfq_dev *d, struct all_crtcs_events *e,
			   bool all)
{
	while (e->pending) {
		struct vfq_event ev;
		uint64_t t_read;
		int p;

		if (vfq_read_event(d->fd, all ? 1000 : 0, &ev) != 1) {
			igt_assert_f(!all, "%d flip events missing after 1 s\n",
				     e->pending);
			return;
		}
		t_read = vfq_now_ns();
		igt_assert_eq_u32(ev.type, DRM_EVENT_FLIP_COMPLETE);
		for (p = 0; p < d->n_pipes; p++)
			if (d->pipe[p].crtc_id == ev.crtc_id)
				break;
		igt_assert_f(p < d->n_pipes, "flip event of CRTC %u\n",
			     ev.crtc_id);
		vfq_truth_event(&e->truth[p], "flip",
				e->t_start[ev.user_data % 64], &ev, t_read);
		e->pending--;
	}
}

static void test_all_crtcs(void)
{
	static const char *const attrs[] = {
		"crtcs", "4", "overlays", "1", "cursor", "0", "writeback", "0",
		"modes", "640x480@60", NULL,
	};
	int secs = env_int("VFLIPQ_STRESS_SECONDS", 3), card, n = 0, busy = 0;
	static struct all_crtcs_events e;
	struct vfq_dev d;
	drmModeModeInfo m;
	struct vfq_fb fb[2], ofb;
	uint64_t end;

	igt_require(vfq_cfs_available());
	vfq_cfs_cleanup();
	memset(&e, 0, sizeof(e));
	card = vfq_cfs_create(STRESS_DEV, attrs);
	vfq_dev_init(&d, vfq_open_card(card));
	vfq_get_mode(d.fd, d.pipe[0].conn_id, 640, 480, 60, &m);
	for (int i = 0; i < 2; i++)
		vfq_fb_create(d.fd, W, H, DRM_FORMAT_XRGB8888, &fb[i]);
	vfq_fb_create(d.fd, OW, OW, DRM_FORMAT_XRGB8888, &ofb);

	/*
	 * Raw: the commits under stress, on a configfs device of this
	 * subtest, their flip events judged by the truth checker.
	 */
	end = vfq_now_ns() + secs * 1000000000ull;
	while (vfq_now_ns() < end) {
		drmModeAtomicReq *req = vfq_req_new();
		uint32_t blobs[4];
		int ret;

		if (n % 20 == 0) {
			/* Every pipe on in one commit, then planes only. */
			all_crtcs_read(&d, &e, true);
			for (int p = 0; p < d.n_pipes; p++)
				vfq_req_pipe_on(req, &d, p, &m, fb[n & 1].fb_id,
						&blobs[p]);
			ret = vfq_req_commit(d.fd, req,
					     DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
			for (int p = 0; p < d.n_pipes; p++)
				drmModeDestroyPropertyBlob(d.fd, blobs[p]);
			igt_assert_eq(ret, 0);
			all_crtcs_truth_start(&d, &m, &e);
		} else {
			for (int p = 0; p < d.n_pipes; p++) {
				vfq_req_plane(req, d.fd, d.pipe[p].primary,
					      d.pipe[p].crtc_id, fb[n & 1].fb_id,
					      0, 0, W, H);
				if (n & 2)
					vfq_req_plane(req, d.fd, d.pipe[p].overlays[0],
						      d.pipe[p].crtc_id, ofb.fb_id,
						      n % 200, 32, OW, OW);
				else
					vfq_req_plane_off(req, d.fd,
							  d.pipe[p].overlays[0]);
			}
			e.t_start[n % 64] = vfq_now_ns();
			ret = vfq_req_commit(d.fd, req, DRM_MODE_ATOMIC_NONBLOCK |
					     DRM_MODE_PAGE_FLIP_EVENT,
					     (void *)(uintptr_t)n);
			if (ret == -EBUSY) {
				busy++;
				usleep(1000);
			} else {
				igt_assert_eq(ret, 0);
				e.pending += d.n_pipes;
			}
			all_crtcs_read(&d, &e, false);
		}
		n++;
	}
	all_crtcs_read(&d, &e, true);
	igt_info("%d commits over %d CRTCs (%d EBUSY)\n", n, d.n_pipes, busy);
	vfq_dev_reset(&d);
	for (int i = 0; i < 2; i++)
		vfq_fb_destroy(&fb[i]);
	vfq_fb_destroy(&ofb);
	vfq_dev_fini(&d);
	vfq_cfs_cleanup();
}

/* ---- back-to-back commits on an idle CRTC --------------------------------------- */

/*
 * Nonblocking commits on a CRTC that is off, each queued as soon as the one
 * before it has its flip done.  On an off CRTC the flip is done at once,
 * in the commit tail before its hw_done, so the next commit's tail runs to
 * its end (and frees the CRTC state the previous one swapped in) while the
 * previous tail is still between hw_done and its cleanup: a commit tail
 * that reads its new states there reads freed memory.  The KASAN kernel
 * ("make check-debug") reports that read; this test counts commits, the
 * kernel log judges them.  The window is a few microseconds wide and
 * needs the worker of the earlier commit to lose its CPU right after
 * hw_done: four CRTCs, a process each with its own chain, keep both
 * emulated CPUs busy with commit workers, and the debug kernel runs the
 * chains for 10 s.  Raw: exact nonblocking requests of forked children.
 */
static int idle_chain(int fd, const struct ids *id, uint64_t end)
{
	int n = 0, busy = 0;

	while (vfq_now_ns() < end) {
		drmModeAtomicReq *req = vfq_req_new();
		int ret;

		drmModeAtomicAddProperty(req, id->crtc, id->crtc_active, 0);
		drmModeAtomicAddProperty(req, id->primary, id->fb_id, 0);
		drmModeAtomicAddProperty(req, id->primary, id->crtc_id, 0);
		ret = vfq_req_commit(fd, req, DRM_MODE_ATOMIC_NONBLOCK, NULL);
		if (ret == -EBUSY) {
			busy++;
		} else if (ret) {
			igt_warn("CRTC %u: commit %d: %s\n", id->crtc, n,
				 strerror(-ret));
			return 1;
		}
		n++;
	}
	igt_info("CRTC %u: %d nonblocking commits while off (%d EBUSY)\n",
		 id->crtc, n, busy);
	if (n - busy < 100) {
		igt_warn("CRTC %u: only %d commits went through\n", id->crtc,
			 n - busy);
		return 1;
	}
	return 0;
}

static void test_idle_commit_chain(void)
{
	static const char *const attrs[] = {
		"crtcs", "4", "overlays", "0", "cursor", "0", "writeback", "0",
		"modes", "640x480@60", NULL,
	};
	int secs = env_int("VFLIPQ_STRESS_SECONDS",
			   getenv("VFLIPQ_DEBUG_KERNEL") ? 10 : 3);
	pid_t pids[VFQ_MAX_CRTCS];
	struct vfq_dev d;
	uint64_t end;
	int n;

	igt_require(vfq_cfs_available());
	vfq_cfs_cleanup();
	vfq_dev_init(&d, vfq_open_card(vfq_cfs_create(STRESS_DEV, attrs)));
	n = d.n_pipes;
	end = vfq_now_ns() + secs * 1000000000ull;
	for (int p = 0; p < n; p++) {
		struct ids id;

		get_ids(&d, p, &id);
		pids[p] = fork();
		igt_assert(pids[p] >= 0);
		if (pids[p] == 0)
			_exit(idle_chain(d.fd, &id, end));
	}
	igt_assert_eq(wait_children(pids, n), 0);
	vfq_dev_fini(&d);
	vfq_cfs_cleanup();
}

/* ---- SIGKILL with a full queue --------------------------------------------------- */

static void test_sigkill_full_queue(void)
{
	igt_display_t display;
	struct vfq_dev d;
	struct ids id;
	drmModeModeInfo m;
	int card, pfd[2], queued = 0, dmabufs = vfq_dmabuf_count(), status;
	uint64_t c0, c1;
	pid_t pid;

	vfq_dev_init(&d, vfq_open_default());
	igt_require(d.caps.caps & VFLIPQ_CAP_FLIP_QUEUE);
	card = vfq_card_index(d.fd);
	vfq_get_mode(d.fd, d.pipe[0].conn_id, W, H, 60, &m);
	get_ids(&d, 0, &id);
	/* raw: also zpos, which igt_display_reset() leaves */
	vfq_dev_reset(&d);
	vfq_display_init(&display, &d);
	c0 = crtc_counter(d.fd, id.crtc, CANCELLED);
	/* raw: the master handover is what is tested */
	igt_assert_eq(drmDropMaster(d.fd), 0);
	igt_assert_eq(pipe(pfd), 0);

	fflush(stdout);
	pid = fork();
	igt_assert(pid >= 0);
	if (pid == 0) {
		/* raw: a forked master on its own fd, without igt asserts */
		int fd = vfq_open_card(card), n = 0, dmabuf, ret;
		uint32_t fbs[4], ofb, h;
		uint64_t far = vfq_now_ns() + 60ull * 1000000000, size, k;
		struct drm_mode_map_dumb md = { 0 };
		const uint32_t planes[2] = { id.primary, id.overlay };

		alarm(60);
		close(pfd[0]);
		if (fd < 0 || drmSetMaster(fd))
			FAIL("child: master: %s\n", strerror(errno));
		drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1);
		drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1);
		for (int i = 0; i < 4; i++)
			if (!(fbs[i] = c_fb(fd, W, H, i)))
				FAIL("child: fb\n");
		if (!(ofb = c_fb(fd, OW, OW, 7)))
			FAIL("child: fb\n");
		if ((ret = c_pipe_on(fd, &id, &m, fbs[0], ofb)))
			FAIL("child: mode set: %s\n", strerror(-ret));
		if (c_set_log(fd, id.crtc, id.primary, 64, &h, &size) ||
		    c_set_log(fd, id.crtc, id.overlay, 64, NULL, NULL))
			FAIL("child: logs\n");
		md.handle = h;
		if (xioctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &md) ||
		    mmap(NULL, size, PROT_READ, MAP_SHARED, fd, md.offset) ==
		    MAP_FAILED)
			FAIL("child: log mapping\n");
		/* A buffer exported and still referenced when killed. */
		if (drmPrimeHandleToFD(fd, h, DRM_CLOEXEC, &dmabuf))
			dmabuf = -1;
		/* Interlocked flips on both planes until the queue is full. */
		for (k = 1; k <= 64; k++) {
			uint32_t f[2] = { fbs[k % 4], ofb };
			uint64_t ids[2] = { k, k };

			ret = c_submit(fd, id.crtc, 2, planes, f, ids, far + k, 0);
			if (ret == -EAGAIN)
				break;
			if (ret)
				FAIL("child: submit %" PRIu64 ": %s\n", k,
				     strerror(-ret));
			n += 2;
		}
		if (ret != -EAGAIN)
			FAIL("child: the queue never filled up\n");
		if (write(pfd[1], &n, sizeof(n)) != sizeof(n))
			FAIL("child: pipe\n");
		for (;;)
			pause();
	}
	close(pfd[1]);
	igt_assert_eq(read(pfd[0], &queued, sizeof(queued)), sizeof(queued));
	close(pfd[0]);
	igt_info("child queued %d flips\n", queued);
	igt_assert_lt(0, queued);
	if (flipq_pending(card) >= 0)
		igt_assert_eq(flipq_pending(card), queued);

	kill(pid, SIGKILL);
	igt_assert_eq(waitpid(pid, &status, 0), pid);
	igt_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

	/* Everything it queued was cancelled and logged, nothing left. */
	wait_flipq_idle(card);
	c1 = crtc_counter(d.fd, id.crtc, CANCELLED);
	igt_assert_eq_u64(c1 - c0, queued);
	wait_dmabufs(dmabufs);

	/* The CRTC is as good as new for the next master. */
	igt_assert_eq(drmSetMaster(d.fd), 0);
	{
		struct vfq_fb fb;
		uint64_t shown0 = crtc_counter(d.fd, id.crtc, SHOWN), one = 1;

		vfq_fb_create(d.fd, W, H, DRM_FORMAT_XRGB8888, &fb);
		vfq_display_pipe(&display, &d, 0, &m, &fb);
		igt_display_commit2(&display, COMMIT_ATOMIC);
		igt_assert_eq(c_set_log(d.fd, id.crtc, id.primary, 8, NULL, NULL), 0);
		igt_assert_eq(c_submit(d.fd, id.crtc, 1, &id.primary, &fb.fb_id,
				       &one, vfq_now_ns(), 0), 0);
		for (int i = 0; i < 100 &&
		     crtc_counter(d.fd, id.crtc, SHOWN) == shown0; i++)
			usleep(10000);
		igt_assert_eq_u64(crtc_counter(d.fd, id.crtc, SHOWN), shown0 + 1);
		vfq_display_off(&display);
		vfq_fb_destroy(&fb);
	}
	igt_display_fini(&display);
	vfq_dev_fini(&d);
}

/* ---- device removal with clients -------------------------------------------------- */

#define RM_DEV VFQ_CFS_PREFIX "stress-rm"

struct held {
	int fd, dmabuf, card;
	void *bo_map, *log_map, *dmabuf_map;
	size_t bo_size, log_size;
	uint32_t pattern;
};

/* A client of a fresh device holding a bit of everything. */
static void hold_everything(struct held *h, const char *name)
{
	static const char *const attrs[] = { "writeback", "0", NULL };
	struct drm_mode_map_dumb md = { 0 };
	struct vfq_dev d;
	struct vfq_fb fb, bo;
	struct drm_vflipq_set_log sl = { 0 };
	uint64_t far = vfq_now_ns() + 60ull * 1000000000;
	drmModeModeInfo m;
	struct ids id;
	int vgem;

	memset(h, 0, sizeof(*h));
	h->card = vfq_cfs_create(name, attrs);
	vfq_dev_init(&d, vfq_open_card(h->card));
	h->fd = d.fd;
	vfq_get_mode(d.fd, d.pipe[0].conn_id, W, H, 60, &m);
	get_ids(&d, 0, &id);
	vfq_fb_create(d.fd, W, H, DRM_FORMAT_XRGB8888, &fb);
	/* raw: this configfs device is removed under its client */
	vfq_pipe_on(&d, 0, &m, fb.fb_id);
	munmap(fb.map, fb.size);	/* only the mappings below are held */

	/* A dumb buffer, mapped, with a pattern; exported and mapped too. */
	igt_assert_eq(vfq_bo_create(d.fd, 256, 256, DRM_FORMAT_XRGB8888, &bo), 0);
	h->pattern = 0x5eed0000 | h->card;
	for (uint64_t i = 0; i < bo.size / 4; i++)
		((uint32_t *)bo.map)[i] = h->pattern;
	h->bo_map = bo.map;
	h->bo_size = bo.size;
	igt_assert_eq(drmPrimeHandleToFD(d.fd, bo.handle, DRM_CLOEXEC | DRM_RDWR,
					 &h->dmabuf), 0);
	h->dmabuf_map = mmap(NULL, bo.size, PROT_READ, MAP_SHARED, h->dmabuf, 0);
	igt_assert(h->dmabuf_map != MAP_FAILED);

	/* A log, mapped, and flips queued far ahead. */
	sl.crtc_id = id.crtc;
	sl.plane_id = id.primary;
	sl.num_entries = 32;
	igt_assert_eq(xioctl(d.fd, DRM_IOCTL_VFLIPQ_FLIPQ_SET_LOG, &sl), 0);
	md.handle = sl.handle;
	igt_assert_eq(xioctl(d.fd, DRM_IOCTL_MODE_MAP_DUMB, &md), 0);
	h->log_map = mmap(NULL, sl.size, PROT_READ, MAP_SHARED, d.fd, md.offset);
	igt_assert(h->log_map != MAP_FAILED);
	h->log_size = sl.size;
	for (uint64_t k = 1; k <= 4; k++)
		igt_assert_eq(c_submit(d.fd, id.crtc, 1, &id.primary, &fb.fb_id,
				       &k, far + k, 0), 0);

	/* An imported vgem buffer as a framebuffer. */
	vgem = vfq_open_driver("vgem");
	if (vgem >= 0) {
		struct vfq_fb vb;
		uint32_t handle, xfb, handles[4] = { 0 }, pitches[4] = { 0 },
			 offsets[4] = { 0 };
		int buf;

		igt_assert_eq(vfq_bo_create(vgem, 256, 64, DRM_FORMAT_XRGB8888,
					    &vb), 0);
		igt_assert_eq(drmPrimeHandleToFD(vgem, vb.handle, DRM_CLOEXEC,
						 &buf), 0);
		igt_assert_eq(drmPrimeFDToHandle(d.fd, buf, &handle), 0);
		close(buf);
		handles[0] = handle;
		pitches[0] = vb.pitch;
		igt_assert_eq(drmModeAddFB2(d.fd, 256, 64, DRM_FORMAT_XRGB8888,
					    handles, pitches, offsets, &xfb, 0), 0);
		vfq_fb_destroy(&vb);
		close(vgem);
	}
	/* fb, bo and the log stay with the file. */
}

static void release_everything(struct held *h)
{
	if (h->bo_map)
		munmap(h->bo_map, h->bo_size);
	if (h->dmabuf_map)
		munmap(h->dmabuf_map, h->bo_size);
	if (h->log_map)
		munmap(h->log_map, h->log_size);
	if (h->dmabuf >= 0)
		close(h->dmabuf);
	if (h->fd >= 0)
		close(h->fd);
	memset(h, 0, sizeof(*h));
	h->fd = h->dmabuf = -1;
}

static bool touch_faults(const void *p)
{
	pid_t pid = fork();
	int status;

	igt_assert(pid >= 0);
	if (pid == 0) {
		signal(SIGBUS, SIG_DFL);
		signal(SIGSEGV, SIG_DFL);
		(void)*(const volatile uint64_t *)p;
		_exit(0);
	}
	igt_assert_eq(waitpid(pid, &status, 0), pid);
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS;
}

static void test_remove_busy(void)
{
	struct drm_vflipq_get_caps caps;
	struct drm_mode_map_dumb md = { .handle = 1 };
	int dmabufs = vfq_dmabuf_count(), card2;
	uint64_t t0;
	struct held h;

	igt_require(vfq_cfs_available());
	vfq_cfs_cleanup();
	hold_everything(&h, RM_DEV);

	t0 = vfq_now_ns();
	igt_assert_lt(0, vfq_cfs_write(RM_DEV, "enabled", "0"));
	igt_info("removal took %.1f ms\n", (vfq_now_ns() - t0) / 1e6);
	igt_assert_eq(vfq_cfs_read_int(RM_DEV, "card"), -1);

	/* The file is stale, its mappings are not dangling. */
	igt_assert_eq(vfq_get_caps(h.fd, &caps), -ENODEV);
	igt_assert_eq(c_submit(h.fd, 1, 0, NULL, NULL, NULL, 0, 0), -ENODEV);
	igt_assert_eq(xioctl(h.fd, DRM_IOCTL_MODE_MAP_DUMB, &md), -ENODEV);
	for (uint64_t i = 0; i < h.bo_size / 4; i += 997)
		igt_assert_eq_u32(((uint32_t *)h.bo_map)[i], h.pattern);
	for (uint64_t i = 0; i < h.bo_size / 4; i += 997)
		igt_assert_eq_u32(((uint32_t *)h.dmabuf_map)[i], h.pattern);
	/* A log has no pages to fault back in: SIGBUS, as documented. */
	igt_assert(touch_faults(h.log_map));
	check_unload_refused("a removed device's file is open");

	/* The name can be enabled again meanwhile: a new device. */
	card2 = vfq_cfs_enable(RM_DEV);
	igt_info("re-enabled as card%d (was card%d)\n", card2, h.card);
	igt_assert_lt(0, vfq_cfs_write(RM_DEV, "enabled", "0"));

	release_everything(&h);
	vfq_cfs_cleanup();
	wait_dmabufs(dmabufs);
}

/* ---- dma-bufs across two devices removed in either order ----------------------- */

#define EXP_DEV VFQ_CFS_PREFIX "stress-exp"
#define IMP_DEV VFQ_CFS_PREFIX "stress-imp"

static void test_cross_removal(bool exporter_first)
{
	static const char *const rattrs[] = { "crtcs", "0", NULL };
	static const char *const dattrs[] = { "writeback", "0", NULL };
	int dmabufs = vfq_dmabuf_count(), rcard, dcard, rfd, dmabuf, fence;
	struct vfq_dev d;
	struct vfq_fb bo, local;
	struct drm_vflipq_copy cp = { 0 };
	struct drm_vflipq_get_caps caps;
	drmModeModeInfo m;
	uint32_t handle, xfb, handles[4] = { 0 }, pitches[4] = { 0 },
		 offsets[4] = { 0 };
	uint32_t *map;

	igt_require(vfq_cfs_available());
	vfq_cfs_cleanup();
	rcard = vfq_cfs_create(EXP_DEV, rattrs);
	dcard = vfq_cfs_create(IMP_DEV, dattrs);
	igt_assert_lt(0, render_minor(rcard));

	/* The render adapter renders; the display adapter scans it out. */
	rfd = vfq_open_card(rcard);
	igt_assert_fd(rfd);
	igt_assert_eq(vfq_bo_create(rfd, W, H, DRM_FORMAT_XRGB8888, &bo), 0);
	vfq_fb_pattern(&bo, 9);
	igt_assert_eq(drmPrimeHandleToFD(rfd, bo.handle, DRM_CLOEXEC | DRM_RDWR,
					 &dmabuf), 0);
	map = mmap(NULL, bo.size, PROT_READ | PROT_WRITE, MAP_SHARED, dmabuf, 0);
	igt_assert(map != MAP_FAILED);

	vfq_dev_init(&d, vfq_open_card(dcard));
	igt_require(d.caps.caps & VFLIPQ_CAP_CASO_SCANOUT);
	vfq_get_mode(d.fd, d.pipe[0].conn_id, W, H, 60, &m);
	igt_assert_eq(drmPrimeFDToHandle(d.fd, dmabuf, &handle), 0);
	handles[0] = handle;
	pitches[0] = bo.pitch;
	igt_assert_eq(drmModeAddFB2(d.fd, W, H, DRM_FORMAT_XRGB8888, handles,
				    pitches, offsets, &xfb, 0), 0);
	drmCloseBufferHandle(d.fd, handle);
	vfq_fb_create(d.fd, W, H, DRM_FORMAT_XRGB8888, &local);
	/* raw: configfs devices of this subtest, removed in it */
	vfq_pipe_on(&d, 0, &m, xfb);
	cp.src_fb = xfb;
	cp.dst_fb = local.fb_id;
	cp.src_rect = cp.dst_rect = (struct drm_vflipq_rect){ 0, 0, W, H };
	igt_assert_eq(xioctl(d.fd, DRM_IOCTL_VFLIPQ_COPY, &cp), 0);
	fence = cp.out_fence_fd;

	if (exporter_first) {
		/* The exporter goes; what it exported lives on. */
		igt_assert_lt(0, vfq_cfs_write(EXP_DEV, "enabled", "0"));
		igt_assert_eq(vfq_get_caps(rfd, &caps), -ENODEV);
		map[0] ^= 0xffffff;
		vfq_pipe_on(&d, 0, &m, local.fb_id);
		vfq_pipe_on(&d, 0, &m, xfb);
		cp.out_fence_fd = 0;
		igt_assert_eq(xioctl(d.fd, DRM_IOCTL_VFLIPQ_COPY, &cp), 0);
		close(cp.out_fence_fd);
		igt_assert_lt(0, vfq_cfs_write(IMP_DEV, "enabled", "0"));
	} else {
		/* The importer goes with the buffer on screen. */
		igt_assert_lt(0, vfq_cfs_write(IMP_DEV, "enabled", "0"));
		igt_assert_eq(vfq_get_caps(d.fd, &caps), -ENODEV);
		map[1] ^= 0xffffff;
		igt_assert_eq(vfq_get_caps(rfd, &caps), 0);
		{
			int again;

			igt_assert_eq(drmPrimeHandleToFD(rfd, bo.handle,
							 DRM_CLOEXEC, &again), 0);
			close(again);
		}
		igt_assert_lt(0, vfq_cfs_write(EXP_DEV, "enabled", "0"));
	}
	vfq_wait_fence(fence, 5000);
	close(fence);
	munmap(map, bo.size);
	close(dmabuf);
	munmap(bo.map, bo.size);
	bo.map = NULL;
	munmap(local.map, local.size);
	local.map = NULL;
	vfq_dev_fini(&d);
	close(rfd);
	vfq_cfs_cleanup();
	wait_dmabufs(dmabufs);
}

/* ---- module unload ------------------------------------------------------------------- */

static void test_unload_after_close(void)
{
	struct held h;
	int vgem, dmabuf, dmabufs = vfq_dmabuf_count(), ret;
	uint32_t handle;

	igt_require(vfq_cfs_available());
	vfq_cfs_cleanup();

	/* An fd (of a removed device) with mappings and a dma-buf. */
	hold_everything(&h, RM_DEV);
	igt_assert_eq(vfq_cfs_rmdir(RM_DEV), 0);
	check_unload_refused("a file is open");
	close(h.fd);
	h.fd = -1;
	check_unload_refused("mappings keep the file");
	munmap(h.bo_map, h.bo_size);
	munmap(h.log_map, h.log_size);
	h.bo_map = h.log_map = NULL;
	check_unload_refused("a dma-buf is exported and mapped");
	munmap(h.dmabuf_map, h.bo_size);
	h.dmabuf_map = NULL;
	check_unload_refused("a dma-buf is exported");

	/* A vflipq buffer imported into vgem, every vflipq fd closed. */
	vgem = vfq_open_driver("vgem");
	if (vgem >= 0) {
		igt_assert_eq(drmPrimeFDToHandle(vgem, h.dmabuf, &handle), 0);
		release_everything(&h);
		check_unload_refused("vgem holds an imported vflipq buffer");
		drmCloseBufferHandle(vgem, handle);
		close(vgem);
	} else {
		release_everything(&h);
	}
	(void)dmabuf;

	/* Nothing held: the module goes, and comes back. */
	ret = unload();
	igt_assert_f(ret == 0, "unload with nothing held: %s\n", strerror(-ret));
	igt_assert(!vfq_module_loaded(MOD));
	load_default();
	wait_dmabufs(dmabufs);
}

#define FENCE_DEV VFQ_CFS_PREFIX "stress-fence"

/*
 * The device of @fd in @d; a request that turns its pipe 0 on with @fb
 * (created) and asks for the CRTC's out-fence in @out_fd.  Raw: the
 * device goes (configfs removal, module unload) while the fences live on.
 */
static drmModeAtomicReq *fence_pipe_on(int fd, struct vfq_dev *d,
				       drmModeModeInfo *m, struct vfq_fb *fb,
				       int32_t *out_fd, uint32_t *blob)
{
	drmModeAtomicReq *req;

	vfq_dev_init(d, fd);
	vfq_get_mode(d->fd, d->pipe[0].conn_id, 640, 480, 60, m);
	vfq_fb_create(d->fd, m->hdisplay, m->vdisplay, DRM_FORMAT_XRGB8888,
		      fb);
	req = vfq_req_new();
	vfq_req_pipe_on(req, d, 0, m, fb->fb_id, blob);
	vfq_req_set(req, d->fd, d->pipe[0].crtc_id, DRM_MODE_OBJECT_CRTC,
		    "OUT_FENCE_PTR", (uintptr_t)out_fd);
	return req;
}

static void fence_commit(struct vfq_dev *d, drmModeAtomicReq *req,
			 uint32_t blob)
{
	igt_assert_eq(vfq_req_commit(d->fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET,
				     NULL), 0);
	drmModeDestroyPropertyBlob(d->fd, blob);
}

/*
 * A CRTC out-fence keeps its lock in the CRTC of the device that made it;
 * its sync_file outlives that device.  Another device's commit must not
 * touch the (signalled) fence's lock after the device is freed: on the
 * debug kernel this was a KASAN use-after-free in
 * drm_atomic_helper_wait_for_fences().
 */
static void test_out_fence_outlives_device(void)
{
	static const char *const attrs[] = {
		"crtcs", "1", "modes", "640x480@60", NULL,
	};
	igt_display_t display;
	drmModeAtomicReq *req;
	drmModeModeInfo m;
	struct vfq_dev a, b;
	struct vfq_fb fa, fb;
	int32_t out_fd = -1;
	uint32_t blob;

	igt_require(vfq_cfs_available());
	vfq_cfs_cleanup();
	req = fence_pipe_on(vfq_open_card(vfq_cfs_create(FENCE_DEV, attrs)),
			    &a, &m, &fa, &out_fd, &blob);
	fence_commit(&a, req, blob);
	igt_assert_fd(out_fd);
	for (int i = 0; i < 500; i++) {
		struct sync_file_info info = { };

		igt_assert_eq(ioctl(out_fd, SYNC_IOC_FILE_INFO, &info), 0);
		if (info.status == 1)
			break;
		igt_assert_eq(info.status, 0);
		usleep(10000);
	}

	/* The device goes; only the sync_file is left of it. */
	vfq_fb_destroy(&fa);
	vfq_dev_fini(&a);
	igt_assert_eq(vfq_cfs_rmdir(FENCE_DEV), 0);

	/*
	 * The default device's modeset, its in-fence that sync_file: an
	 * ordinary commit (igt_plane_set_fence_fd() sends a dup of it).
	 */
	vfq_dev_init(&b, vfq_open_default());
	vfq_display_init(&display, &b);
	vfq_get_mode(b.fd, b.pipe[0].conn_id, 640, 480, 60, &m);
	vfq_fb_create(b.fd, m.hdisplay, m.vdisplay, DRM_FORMAT_XRGB8888, &fb);
	vfq_display_pipe(&display, &b, 0, &m, &fb);
	igt_plane_set_fence_fd(vfq_display_plane(&display, 0,
						 b.pipe[0].primary), out_fd);
	igt_display_commit2(&display, COMMIT_ATOMIC);
	close(out_fd);
	vfq_display_off(&display);
	igt_display_fini(&display);
	vfq_fb_destroy(&fb);
	vfq_dev_fini(&b);
}

/* /sys/module/vflipq/refcnt; asserts it reads. */
static int module_refcnt(void)
{
	char buf[32];

	igt_assert_lt(0, vfq_file_read("/sys/module/" MOD "/refcnt", buf,
				       sizeof(buf)));
	return atoi(buf);
}

/*
 * What is wrong with the sync_file @fd of one vflipq fence, NULL if it is
 * signalled and still names its driver and timeline (also for children).
 * Since 7.x the core names every signalled fence itself, without asking
 * its driver ("detached-driver", "signaled-timeline", dma-fence.c); both
 * spellings are exact, so a name read from freed memory still fails.
 */
static const char *orphan_fence_problem(int fd)
{
	struct sync_fence_info fi = { };
	struct sync_file_info info = {
		.num_fences = 1,
		.sync_fence_info = (uintptr_t)&fi,
	};

	if (ioctl(fd, SYNC_IOC_FILE_INFO, &info))
		return "SYNC_IOC_FILE_INFO failed";
	if (info.num_fences != 1 || info.status != 1 || fi.status != 1)
		return "not one signalled fence";
	if (!info.name[0] || !fi.obj_name[0])
		return "no sync_file or timeline name";
	if (strcmp(fi.driver_name, MOD) &&
	    (strcmp(fi.driver_name, "detached-driver") ||
	     strcmp(fi.obj_name, "signaled-timeline")))
		return "wrong driver name";
	return NULL;
}

static void check_orphan_fence(int fd, const char *what)
{
	const char *problem = orphan_fence_problem(fd);

	igt_assert_f(!problem, "%s: %s\n", what, problem);
}

/*
 * Turns pipe 0 of the device of @fd (in @d) on with @fa and its writeback
 * connector onto @wb (both created), asking for the CRTC's out-fence in
 * @crtc_fd and the writeback connector's in @wb_fd.
 */
static void fences_commit(int fd, struct vfq_dev *d, struct vfq_fb *fa,
			  struct vfq_fb *wb, int32_t *crtc_fd, int32_t *wb_fd)
{
	const uint32_t conn = DRM_MODE_OBJECT_CONNECTOR;
	drmModeAtomicReq *req;
	drmModeModeInfo m;
	uint32_t blob;

	req = fence_pipe_on(fd, d, &m, fa, crtc_fd, &blob);
	igt_assert(d->pipe[0].wb_conn_id);
	vfq_fb_create(d->fd, m.hdisplay, m.vdisplay, DRM_FORMAT_XRGB8888, wb);
	vfq_req_set(req, d->fd, d->pipe[0].wb_conn_id, conn, "CRTC_ID",
		    d->pipe[0].crtc_id);
	vfq_req_set(req, d->fd, d->pipe[0].wb_conn_id, conn, "WRITEBACK_FB_ID",
		    wb->fb_id);
	vfq_req_set(req, d->fd, d->pipe[0].wb_conn_id, conn,
		    "WRITEBACK_OUT_FENCE_PTR", (uintptr_t)wb_fd);
	fence_commit(d, req, blob);
	igt_assert_fd(*crtc_fd);
	igt_assert_fd(*wb_fd);
}

/*
 * A CRTC out-fence and a writeback out-fence whose sync_files outlive
 * their device: with @polled, poll() armed a callback on each, which
 * closing the sync_file removes under the fence's lock.  SYNC_IOC_FILE_INFO
 * reads the fence's status under that lock and its names through the CRTC
 * and the writeback connector.  All of that is in the device's outputs,
 * which must stay until the last such fence is gone, and so must the
 * module that frees them: unloading it fails meanwhile.
 */
static void test_out_fence_after_removal(bool polled)
{
	static const char *const attrs[] = {
		"crtcs", "1", "writeback", "1", "modes", "640x480@60", NULL,
	};
	int32_t crtc_fd = -1, wb_fd = -1;
	struct vfq_fb fa, wb;
	struct vfq_dev a;
	int refcnt, i, ret;

	igt_require(vfq_cfs_available());
	vfq_cfs_cleanup();
	refcnt = module_refcnt();
	fences_commit(vfq_open_card(vfq_cfs_create(FENCE_DEV, attrs)), &a, &fa,
		      &wb, &crtc_fd, &wb_fd);
	if (polled) {
		vfq_wait_fence(crtc_fd, 10000);
		vfq_wait_fence(wb_fd, 10000);
	}

	/* The device goes; only the sync_files are left of it. */
	vfq_fb_destroy(&wb);
	vfq_fb_destroy(&fa);
	vfq_dev_fini(&a);
	igt_assert_eq(vfq_cfs_rmdir(FENCE_DEV), 0);

	/* Polled: the close comes first, it takes the fence's lock. */
	if (!polled)
		check_orphan_fence(crtc_fd, "CRTC out-fence");
	close(crtc_fd);
	check_orphan_fence(wb_fd, "writeback out-fence");
	check_unload_refused("a writeback out-fence of a removed device exists");
	close(wb_fd);

	/*
	 * Nothing of the device is left: its memory and the module go.  (The
	 * count before may still include a previous subtest's fence.)
	 */
	for (i = 0; i < 500 && module_refcnt() > refcnt; i++)
		usleep(10000);
	igt_assert_lte(module_refcnt(), refcnt);
	ret = unload();
	igt_assert_f(ret == 0, "unload after the last out-fence: %s\n",
		     strerror(-ret));
	load_default();
}

#define CRC_DEV VFQ_CFS_PREFIX "stress-crc"

/*
 * A CRC capture (crtc-0/crc/data) open while its device is removed and the
 * device's last DRM file is closed.  The core's release of the capture still
 * uses the CRTC (it once oopsed there on freed memory), so the device and
 * the module stay until the capture is closed: unloading fails meanwhile,
 * and succeeds after.
 */
static void test_crc_after_removal(void)
{
	static const char *const attrs[] = {
		"crtcs", "1", "modes", "640x480@60", NULL,
	};
	struct pollfd pfd = { .events = POLLIN };
	drmModeModeInfo m;
	struct vfq_fb fb;
	struct vfq_dev a;
	int refcnt, dir, i, ret;
	char buf[64];

	igt_require(vfq_cfs_available());
	vfq_cfs_cleanup();
	refcnt = module_refcnt();
	vfq_dev_init(&a, vfq_open_card(vfq_cfs_create(CRC_DEV, attrs)));
	vfq_get_mode(a.fd, a.pipe[0].conn_id, 640, 480, 60, &m);
	vfq_fb_create(a.fd, 640, 480, DRM_FORMAT_XRGB8888, &fb);
	/* raw: this configfs device is removed while its capture lives on */
	vfq_pipe_on(&a, 0, &m, fb.fb_id);

	/*
	 * The file itself, not igt_pipe_crc: the test needs it open past the
	 * device, and IGT's helper would reopen or close it on its own.
	 */
	dir = igt_debugfs_dir(a.fd);
	igt_assert_lte(0, dir);
	igt_assert_eq(igt_sysfs_write(dir, "crtc-0/crc/control", "auto", 4), 4);
	pfd.fd = openat(dir, "crtc-0/crc/data", O_RDONLY | O_NONBLOCK);
	close(dir);
	igt_assert_f(pfd.fd >= 0, "crc/data: %s\n", strerror(errno));
	/* One entry read: the capture is running. */
	igt_assert_eq(poll(&pfd, 1, 2000), 1);
	igt_assert_lt(0, read(pfd.fd, buf, sizeof(buf)));

	/* The device goes, its last file first; only the capture is left. */
	vfq_fb_destroy(&fb);
	vfq_dev_fini(&a);
	igt_assert_eq(vfq_cfs_rmdir(CRC_DEV), 0);
	igt_assert_eq(read(pfd.fd, buf, sizeof(buf)), -1);
	igt_assert_eq(errno, EIO);
	check_unload_refused("a CRC capture of a removed device is open");
	close(pfd.fd);

	/* The pin goes from a work item once the core's release is done. */
	for (i = 0; i < 500 && module_refcnt() > refcnt; i++)
		usleep(10000);
	igt_assert_lte(module_refcnt(), refcnt);
	ret = unload();
	igt_assert_f(ret == 0, "unload after the capture closed: %s\n",
		     strerror(-ret));
	load_default();
}

/*
 * Unloads the module while @child, which checks what the unload must leave
 * alone, runs; then loads it again.  @what: the child's checks.
 */
static void unload_with_child(pid_t child, const char *what)
{
	int ret = unload(), status;

	igt_assert_f(ret == 0, "unload: %s\n", strerror(-ret));
	igt_assert_eq(waitpid(child, &status, 0), child);
	igt_assert_f(WIFEXITED(status) && !WEXITSTATUS(status),
		     "%s failed (status %#x)\n", what, status);
	load_default();
}

/*
 * Unloading the module removes the default device, and nothing holds the
 * module for an out-fence of a device that still exists: the exit then
 * waits until userspace closes the last such fence, which meanwhile still
 * answers SYNC_IOC_FILE_INFO.
 */
static void test_unload_default_out_fence(void)
{
	int32_t out_fd = -1;
	drmModeAtomicReq *req;
	drmModeModeInfo m;
	struct vfq_dev d;
	struct vfq_fb fb;
	uint32_t blob;
	pid_t child;

	vfq_cfs_cleanup();
	req = fence_pipe_on(vfq_open_default(), &d, &m, &fb, &out_fd, &blob);
	fence_commit(&d, req, blob);
	igt_assert_fd(out_fd);
	vfq_wait_fence(out_fd, 10000);
	vfq_fb_destroy(&fb);
	vfq_dev_fini(&d);

	child = fork();
	igt_assert_lte(0, child);
	if (child == 0) {
		/* By now the unload below removed the device and waits. */
		sleep(1);
		_exit(orphan_fence_problem(out_fd) ? 1 : 0);
	}
	close(out_fd);
	unload_with_child(child, "the out-fence's SYNC_IOC_FILE_INFO during "
			  "the unload");
}

/* Polls, then queries the out-fence @fd; 0 or what is wrong. */
static int check_held_fence(int fd, const char *what)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	const char *problem = NULL;

	if (poll(&pfd, 1, 10000) != 1 || !(pfd.revents & POLLIN))
		problem = "not signalled within 10 s";
	else
		problem = orphan_fence_problem(fd);
	if (problem)
		igt_warn("%s: %s\n", what, problem);
	return problem ? 1 : 0;
}

/*
 * /sys/module/vflipq/initstate reads "going" from the moment the unload
 * stopped the module until its exit returned: waits up to 10 s for that.
 */
static bool wait_module_going(void)
{
	char buf[16];

	for (int i = 0; i < 1000; i++) {
		if (vfq_file_read("/sys/module/" MOD "/initstate", buf,
				  sizeof(buf)) > 0 && !strncmp(buf, "going", 5))
			return true;
		usleep(10000);
	}
	return false;
}

/*
 * CRTC and writeback out-fences held, without waiting for them, across the
 * removal of their configfs device and, for the default device's, across
 * the module unload that removes it: polled, queried and closed only then.
 * Everything such a fence locks or names must still be there, and the
 * module's fence code with it (KASAN on the debug kernel sees any read of
 * freed memory; a refcount underflow WARNs everywhere).
 */
static void test_out_fences_across_unload(void)
{
	static const char *const attrs[] = {
		"crtcs", "1", "writeback", "1", "modes", "640x480@60", NULL,
	};
	int32_t fds[4] = { -1, -1, -1, -1 };
	static const char *const what[4] = {
		"removed device's CRTC out-fence",
		"removed device's writeback out-fence",
		"default device's CRTC out-fence",
		"default device's writeback out-fence",
	};
	struct vfq_fb fa, wa, fbd, wd;
	struct vfq_dev a, d;
	int bad;
	pid_t child;

	igt_require(vfq_cfs_available());
	vfq_cfs_cleanup();
	fences_commit(vfq_open_card(vfq_cfs_create(FENCE_DEV, attrs)), &a, &fa,
		      &wa, &fds[0], &fds[1]);
	vfq_fb_destroy(&wa);
	vfq_fb_destroy(&fa);
	vfq_dev_fini(&a);
	igt_assert_eq(vfq_cfs_rmdir(FENCE_DEV), 0);
	check_unload_refused("a removed device's out-fences are held");

	fences_commit(vfq_open_default(), &d, &fbd, &wd, &fds[2], &fds[3]);
	vfq_fb_destroy(&wd);
	vfq_fb_destroy(&fbd);
	vfq_dev_fini(&d);

	child = fork();
	igt_assert_lte(0, child);
	if (child == 0) {
		/* The removed device's fences first: they hold the module. */
		bad = check_held_fence(fds[0], what[0]) +
		      check_held_fence(fds[1], what[1]);
		close(fds[0]);
		close(fds[1]);
		/* The default device's while the unload waits for them. */
		if (!wait_module_going()) {
			igt_warn("the unload did not start\n");
			bad++;
		}
		bad += check_held_fence(fds[2], what[2]) +
		       check_held_fence(fds[3], what[3]);
		close(fds[2]);
		close(fds[3]);
		_exit(bad ? 1 : 0);
	}
	for (int i = 0; i < 4; i++)
		close(fds[i]);
	/* Refused (EBUSY, retried) until the child closed the first two. */
	unload_with_child(child, "polling or querying a held out-fence");
}

static void test_load_unload_cycles(void)
{
	int cycles = env_int("VFLIPQ_STRESS_CYCLES", 5);
	int dmabufs = vfq_dmabuf_count();

	igt_info("%d load/unload cycles\n", cycles);
	for (int c = 0; c < cycles; c++) {
		struct drm_vflipq_get_caps caps;
		struct vfq_dev d;
		struct vfq_fb fb;
		drmModeModeInfo m;
		struct ids id;
		uint64_t one = 1;
		int ret, card;

		vfq_cfs_cleanup();
		ret = unload();
		igt_assert_f(ret == 0, "cycle %d: unload: %s\n", c,
			     strerror(-ret));
		load_default();

		/* Use it a little: caps, a mode set, a queued flip, configfs. */
		vfq_dev_init(&d, vfq_open_default());
		igt_assert_eq(vfq_get_caps(d.fd, &caps), 0);
		vfq_get_mode(d.fd, d.pipe[0].conn_id, W, H, 60, &m);
		get_ids(&d, 0, &id);
		vfq_fb_create(d.fd, W, H, DRM_FORMAT_XRGB8888, &fb);
		/* raw: a device of this load only, closed with its pipe lit */
		vfq_pipe_on(&d, 0, &m, fb.fb_id);
		if (d.caps.caps & VFLIPQ_CAP_FLIP_QUEUE) {
			igt_assert_eq(c_set_log(d.fd, id.crtc, id.primary, 8,
						NULL, NULL), 0);
			igt_assert_eq(c_submit(d.fd, id.crtc, 1, &id.primary,
					       &fb.fb_id, &one,
					       vfq_now_ns() + 100000000ull, 0), 0);
		}
		if (vfq_cfs_available() && c % 2 == 0) {
			card = vfq_cfs_create(VFQ_CFS_PREFIX "cycle", NULL);
			igt_assert_lt(0, card);
		}
		/* Closed with a flip queued (and maybe a device enabled). */
		vfq_fb_destroy(&fb);
		vfq_dev_fini(&d);
	}
	vfq_cfs_cleanup();
	wait_dmabufs(dmabufs);
}

igt_main
{
	igt_fixture {
		igt_require(vfq_module_loaded(MOD));
		vfq_cfs_cleanup();
		igt_install_exit_handler(restore_module);
	}

	igt_describe("Lessees queueing, cancelling and mode-setting on their "
		     "CRTCs of one device, the lessor mode-setting another");
	igt_subtest("concurrent-queues")
		test_concurrent();
	igt_describe("Commits spanning every CRTC while all engines run, each "
		     "CRTC's flip events true to its grid and their commits");
	igt_subtest("all-crtcs-commits")
		test_all_crtcs();
	igt_describe("Nonblocking commits back to back on each CRTC while it is off: "
		     "each commit tail runs while the next one ends");
	igt_subtest("idle-commit-chain")
		test_idle_commit_chain();
	igt_describe("A master killed with its flip queue full leaves nothing "
		     "behind");
	igt_subtest("sigkill-full-queue")
		test_sigkill_full_queue();
	igt_describe("configfs removal while a client holds fds, mappings, "
		     "logs, queued flips and dma-bufs");
	igt_subtest("remove-device-busy")
		test_remove_busy();
	igt_describe("Exporter removed first, then the importer scanning its "
		     "buffer out");
	igt_subtest("remove-exporter-first")
		test_cross_removal(true);
	igt_describe("Importer removed first (buffer on screen), then the "
		     "exporter");
	igt_subtest("remove-importer-first")
		test_cross_removal(false);
	igt_describe("Module unload refused while anything is held, done once "
		     "everything is released");
	igt_subtest("unload-after-close")
		test_unload_after_close();
	igt_describe("A CRTC out-fence used as another device's in-fence "
		     "after its own device is gone");
	igt_subtest("out-fence-outlives-device")
		test_out_fence_outlives_device();
	igt_describe("CRTC and writeback out-fences polled, then their device "
		     "removed: their names, status and close still work, and "
		     "the module stays until they are closed");
	igt_subtest("out-fence-poll-after-removal")
		test_out_fence_after_removal(true);
	igt_describe("SYNC_IOC_FILE_INFO on CRTC and writeback out-fences "
		     "whose device is gone");
	igt_subtest("out-fence-info-after-removal")
		test_out_fence_after_removal(false);
	igt_describe("A CRC capture open while its device is removed and the "
		     "device's last file closed: it reads EIO, the module stays "
		     "until it is closed, its close is clean");
	igt_subtest("crc-capture-outlives-device")
		test_crc_after_removal();
	igt_describe("Module unload with an out-fence of the default device "
		     "held: the exit waits for it");
	igt_subtest("unload-default-out-fence")
		test_unload_default_out_fence();
	igt_describe("CRTC and writeback out-fences held across their "
		     "device's removal and the module unload, then polled, "
		     "queried and closed");
	igt_subtest("out-fences-across-unload")
		test_out_fences_across_unload();
	igt_describe("Load/unload cycles with use in between "
		     "(VFLIPQ_STRESS_CYCLES, default 5)");
	igt_subtest("load-unload-cycles")
		test_load_unload_cycles();

	igt_fixture {
		vfq_cfs_cleanup();
		load_default();
	}
}
