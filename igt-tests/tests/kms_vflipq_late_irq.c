// SPDX-License-Identifier: MIT
/*
 * A vblank interrupt that comes late must not change what the display
 * reports.  On a busy machine, or in a VM whose vCPU the host does not
 * run, the emulated vblank's interrupt can run milliseconds after the
 * vblank; a commit that arrives in between latches at the next vblank, as
 * on hardware whose double-buffered registers latch at the start of
 * vblank.  Its page-flip event then carries that next vblank, never one
 * from before the commit, and the CRC of each vblank is that of the frame
 * the events say was on screen there.
 *
 * The driver's vblank_irq_delay_us parameter makes every interrupt late by
 * the same amount, and the test commits right after a nominal vblank,
 * before its interrupt: the window a starved machine opens at random is
 * then opened at every flip, on any host.
 */
/**
 * TEST: kms vflipq late irq
 * Category: Display
 * Mega feature: General Display Features
 * Sub-category: vblank
 * Functionality: late vblank interrupts
 * Driver requirement: vflipq
 * Description: Late vblank interrupts (module parameter vblank_irq_delay_us)
 *              do not make page-flip events, the flip-queue log or the CRCs
 *              lie: a commit made between a vblank and its late interrupt
 *              latches at the next vblank.
 *
 * SUBTEST: atomic-flip
 * Description: Nonblocking atomic flips committed after a vblank whose
 *              interrupt is late get the next vblank, and the CRCs agree with
 *              the events
 *
 * SUBTEST: legacy-flip
 * Description: Legacy page flips made after a vblank whose interrupt is late
 *              get the next vblank, and the CRCs agree with the events
 *
 * SUBTEST: queued-flip
 * Description: Flips queued on the flip queue after a vblank whose interrupt
 *              is late are logged at a later vblank, and the CRCs agree with
 *              the log
 *
 * SUBTEST: vblank-event-each-vblank
 * Description: With every interrupt more than a frame late, a vblank event
 *              asked for each of the coming vblanks carries the vblank it
 *              was asked for and that vblank's time
 */

#include <inttypes.h>
#include <sys/mman.h>

#include "igt.h"
#include "vflipq_helpers.h"

IGT_TEST_DESCRIPTION("vflipq: late vblank interrupts do not make events or CRCs lie");

#define DELAY_PARAM "/sys/module/vflipq/parameters/vblank_irq_delay_us"
#define FLIPS 40

static struct vfq_dev dev;
static igt_display_t display;
static drmModeModeInfo mode;
static struct vfq_fb fbs[2];
static uint64_t period;

/* Blocking modeset of pipe 0 to the test's mode, fbs[0] on its primary. */
static void pipe0_on(void)
{
	vfq_display_pipe(&display, &dev, 0, &mode, &fbs[0]);
	igt_display_commit2(&display, COMMIT_ATOMIC);
}

static void set_irq_delay(unsigned int us)
{
	char v[16];

	snprintf(v, sizeof(v), "%u", us);
	igt_assert_f(vfq_file_write(DELAY_PARAM, v) > 0,
		     "cannot write %s\n", DELAY_PARAM);
}

static void reset_irq_delay(int sig)
{
	(void)sig;
	vfq_file_write(DELAY_PARAM, "0");
}

static void sleep_until(uint64_t t)
{
	struct timespec ts = {
		.tv_sec = (time_t)(t / 1000000000ull),
		.tv_nsec = (long)(t % 1000000000ull),
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

/*
 * A flip of the primary plane to @fb with an event; its start.  Raw: the
 * legacy ioctl, or a nonblocking atomic flip, aimed between a vblank and
 * its interrupt and its event read and judged by the caller.
 */
static uint64_t flip(int fb, bool legacy)
{
	void *data = (void *)(uintptr_t)(0x100 + fb);
	uint64_t t0 = vfq_now_ns();
	drmModeAtomicReq *req;
	int ret;

	if (legacy) {
		ret = drmModePageFlip(dev.fd, dev.pipe[0].crtc_id,
				      fbs[fb].fb_id, DRM_MODE_PAGE_FLIP_EVENT,
				      data);
		ret = ret ? -errno : 0;
	} else {
		req = vfq_req_new();
		vfq_req_set(req, dev.fd, dev.pipe[0].primary,
			    DRM_MODE_OBJECT_PLANE, "FB_ID", fbs[fb].fb_id);
		ret = vfq_req_commit(dev.fd, req, DRM_MODE_ATOMIC_NONBLOCK |
				     DRM_MODE_PAGE_FLIP_EVENT, data);
	}
	igt_assert_f(ret == 0, "flip to fb %d: %s\n", fb, strerror(-ret));
	return t0;
}

/*
 * The end of a subtest: flips went into the window, and the CRCs show
 * frame i from the vblank @shown[i] on (0 of them is marker 0's).
 */
static void judge(struct vfq_screen *screen, int in_window,
		  const uint64_t *shown, const uint32_t *crc_of)
{
	int decided;

	igt_info("%d of %d flips issued between a vblank and its interrupt\n",
		 in_window, FLIPS);
	/*
	 * Without flips in the window nothing was tested: the loop issues
	 * every flip there unless the test was not run in time for it.
	 */
	igt_assert_f(in_window > 0, "no flip was issued between a vblank "
		     "and its interrupt\n");
	decided = vfq_screen_check_frames(screen->crc, dev.fd,
					  dev.pipe[0].crtc_id, period, shown,
					  crc_of, FLIPS + 1);
	igt_info("%d frame changes decided by CRCs\n", decided);
	/*
	 * Every CRC there is was judged above.  That one decides a change is
	 * a matter of speed: on the debug kernel (KASAN, lockdep) a queued
	 * flip's composition can take longer than the frame, the compositions
	 * of a run merge, and a run may end with none deciding.
	 */
	igt_assert_f(decided > 0 || getenv("VFLIPQ_DEBUG_KERNEL"),
		     "no frame change decided by a CRC\n");
	vfq_screen_stop(screen);
}

/*
 * Flip FLIPS times, each flip issued half the interrupt delay after a
 * nominal vblank, before that vblank's interrupt ran (*@in_window counts
 * the flips that were): each event must carry a vblank at or after its
 * flip's start, before its arrival, on the CRTC's grid; then the CRCs must
 * show, at every vblank, the frame of the last event at or before it.
 */
static void flips_after_vblank(bool legacy, unsigned int delay_us)
{
	uint64_t shown[FLIPS + 1], t0, t_read, late = 0;
	uint32_t crc_of[FLIPS + 1];
	struct vfq_screen screen;
	struct vfq_event ev, prev;
	const uint32_t ids[2] = { fbs[0].fb_id, fbs[1].fb_id };
	struct vfq_truth truth;
	int i, in_window = 0;
	char what[32];

	vfq_screen_learn(&screen, &dev, 0, ids, 2, mode.hdisplay,
			 mode.vdisplay);
	/* marker 0 is on screen: its vblank is the reference */
	vfq_vblank_grid(dev.fd, dev.pipe[0].crtc_id, &prev.sequence,
			&prev.ts_ns);
	shown[0] = prev.ts_ns;
	crc_of[0] = screen.crc_of[0];
	vfq_truth_init(&truth, dev.pipe[0].crtc_id, period, VFQ_TRUTH_FLIPS);
	vfq_truth_vblank(&truth, prev.sequence, prev.ts_ns);
	set_irq_delay(delay_us);

	for (i = 1; i <= FLIPS; i++) {
		uint64_t target = prev.ts_ns + period + delay_us * 500ull;

		/* The previous event came with the late interrupt already. */
		if (vfq_now_ns() < target)
			sleep_until(target);
		t0 = flip(i & 1, legacy);
		/*
		 * Inside the window: after the nominal vblank, before its
		 * interrupt was due.  A flip the test itself issued late
		 * still must not be stamped before it.
		 */
		if (t0 < prev.ts_ns + period + delay_us * 1000ull)
			in_window++;
		igt_assert_f(vfq_read_event(dev.fd, 2000, &ev) == 1,
			     "flip %d: no event within 2 s\n", i);
		t_read = vfq_now_ns();
		igt_assert_eq_u32(ev.type, DRM_EVENT_FLIP_COMPLETE);
		igt_assert_eq_u64(ev.user_data, 0x100 + (i & 1));
		snprintf(what, sizeof(what), "flip %d", i);
		vfq_truth_event(&truth, what, t0, &ev, t_read);
		if (ev.sequence - prev.sequence > 2)
			late++;
		shown[i] = ev.ts_ns;
		crc_of[i] = screen.crc_of[i & 1];
		prev = ev;
	}
	set_irq_delay(0);
	igt_info("%" PRIu64 " flips shown later than the vblank after the "
		 "next\n", late);
	judge(&screen, in_window, shown, crc_of);
}

/*
 * The flip queue: a flip queued for "as soon as possible" right after a
 * nominal vblank, before its late interrupt, is shown at the next vblank.
 * Its log entry must carry a vblank at or after the submission, and the
 * CRCs must show each flip from its logged vblank on.
 */
static void queued_flips_after_vblank(unsigned int delay_us)
{
	const uint32_t ids[2] = { fbs[0].fb_id, fbs[1].fb_id };
	struct drm_vflipq_set_log sl = { .crtc_id = dev.pipe[0].crtc_id,
					 .plane_id = dev.pipe[0].primary,
					 .num_entries = 64 };
	uint64_t shown[FLIPS + 1], seq, ts, t0;
	struct drm_mode_map_dumb map = { };
	const volatile struct drm_vflipq_log_entry *log, *e;
	uint32_t crc_of[FLIPS + 1];
	struct vfq_screen screen;
	int i, in_window = 0;

	vfq_screen_learn(&screen, &dev, 0, ids, 2, mode.hdisplay,
			 mode.vdisplay);
	vfq_vblank_grid(dev.fd, dev.pipe[0].crtc_id, &seq, &ts);
	shown[0] = ts;
	crc_of[0] = screen.crc_of[0];
	do_ioctl(dev.fd, DRM_IOCTL_VFLIPQ_FLIPQ_SET_LOG, &sl);
	map.handle = sl.handle;
	do_ioctl(dev.fd, DRM_IOCTL_MODE_MAP_DUMB, &map);
	log = mmap(NULL, sl.size, PROT_READ, MAP_SHARED, dev.fd, map.offset);
	igt_assert(log != MAP_FAILED);
	set_irq_delay(delay_us);

	for (i = 1; i <= FLIPS; i++) {
		struct drm_vflipq_flip_plane fp = {
			.plane_id = dev.pipe[0].primary,
			.fb_id = fbs[i & 1].fb_id, .present_id = i,
		};
		struct drm_vflipq_flip f = {
			.planes_ptr = (uintptr_t)&fp, .num_planes = 1,
		};
		struct drm_vflipq_flipq_submit s = {
			.crtc_id = dev.pipe[0].crtc_id,
			.flips_ptr = (uintptr_t)&f, .num_flips = 1,
			.flip_size = sizeof(f), .plane_size = sizeof(fp),
		};
		/*
		 * Three frames after the last one shown: a slow composer
		 * (the debug kernel's) then still gives the old image a CRC
		 * before the flip, so that the change can be decided.
		 */
		uint64_t vbl = shown[i - 1] + 3 * period;
		uint64_t end;

		if (vfq_now_ns() < vbl + delay_us * 500ull)
			sleep_until(vbl + delay_us * 500ull);
		t0 = vfq_now_ns();
		if (t0 < vbl + delay_us * 1000ull)
			in_window++;
		do_ioctl(dev.fd, DRM_IOCTL_VFLIPQ_FLIPQ_SUBMIT, &s);
		/*
		 * Wait for its log entry in the mapping, not with
		 * FLIPQ_UPDATE_LOG: a log read hands the images that left
		 * the screen back to the client, and the compositions still
		 * reading them then give no CRC (driver.rst, "CRC"); on a
		 * slow kernel that would be every one of them.
		 */
		end = vfq_now_ns() + 2000000000ull;
		e = &log[i - 1];
		while ((e->present_id != (uint64_t)i || !e->timestamp_ns) &&
		       vfq_now_ns() < end)
			usleep(1000);
		igt_assert_f(e->present_id == (uint64_t)i && e->timestamp_ns,
			     "flip %d not logged within 2 s\n", i);
		igt_assert_f(e->timestamp_ns != VFLIPQ_TIMESTAMP_CANCELLED,
			     "flip %d logged as cancelled\n", i);
		shown[i] = e->timestamp_ns;
		igt_assert_f(shown[i] >= t0, "flip %d: logged at a vblank "
			     "%.3f ms before it was queued\n", i,
			     (double)(t0 - shown[i]) / 1e6);
		igt_assert_f(shown[i] > shown[i - 1], "flip %d: logged at or "
			     "before the flip before it\n", i);
		crc_of[i] = screen.crc_of[i & 1];
	}
	set_irq_delay(0);
	/*
	 * The log is caught up by whoever reads it; the DRM vblank counter
	 * only by the engine or a commit: let the engine report the vblank
	 * of the last flip before the CRCs are matched against it.
	 */
	usleep(3 * period / 1000);
	judge(&screen, in_window, shown, crc_of);
	munmap((void *)(uintptr_t)log, sl.size);
	drmIoctl(dev.fd, DRM_IOCTL_GEM_CLOSE, &(struct drm_gem_close){
		.handle = sl.handle });
	/*
	 * The queue gives the plane back to plain commits: the mode set of
	 * turning the CRTC off cancels it.
	 */
	vfq_display_off(&display);
	pipe0_on();
}

#define EVENTS 16

/*
 * Vblank events asked for each of the next EVENTS vblanks, as kms_flip's
 * and kms_setmode's calibrations ask, while every interrupt comes 1.5
 * frames late, so that each one finds two vblanks passed: every event must
 * still carry the sequence it was asked for, with that vblank's time on
 * the grid.  Delivered late is allowed (and the point); the event of vblank
 * N saying N+1 is not.
 */
static void events_each_vblank(void)
{
	unsigned int delay_us = (unsigned int)(period * 3 / 2 / 1000);
	uint64_t seq0, ts0, t_read, late = 0;
	struct vfq_truth truth;
	struct vfq_event ev;
	uint32_t first;
	int i;

	set_irq_delay(delay_us);
	/* Two interrupts at the new delay: the engine is in its stride. */
	igt_assert_eq(vfq_wait_vblank(dev.fd, 0, DRM_VBLANK_RELATIVE, 4, 0,
				      NULL, NULL), 0);
	vfq_vblank_grid(dev.fd, dev.pipe[0].crtc_id, &seq0, &ts0);
	vfq_truth_init(&truth, dev.pipe[0].crtc_id, period, VFQ_TRUTH_FLIPS);
	vfq_truth_vblank(&truth, seq0, ts0);
	first = (uint32_t)seq0 + 1;
	for (i = 0; i < EVENTS; i++)
		igt_assert_eq(vfq_wait_vblank(dev.fd, 0, DRM_VBLANK_ABSOLUTE |
					      DRM_VBLANK_EVENT, first + i,
					      0x500 + i, NULL, NULL), 0);
	for (i = 0; i < EVENTS; i++) {
		char what[32];

		igt_assert_f(vfq_read_event(dev.fd, 2000, &ev) == 1,
			     "event %d: none within 2 s\n", i);
		t_read = vfq_now_ns();
		igt_assert_eq_u32(ev.type, DRM_EVENT_VBLANK);
		igt_assert_eq_u64(ev.user_data, 0x500 + i);
		igt_assert_f(ev.sequence == first + i, "the event asked for "
			     "vblank %u says vblank %" PRIu64 "\n", first + i,
			     ev.sequence);
		snprintf(what, sizeof(what), "vblank event %d", i);
		vfq_truth_event(&truth, what, 0, &ev, t_read);
		if (t_read > ev.ts_ns + period)
			late++;
	}
	set_irq_delay(0);
	igt_info("%" PRIu64 " of %d events read more than a frame after "
		 "their vblank\n", late, EVENTS);
	/*
	 * The delay makes every other vblank's interrupt come over a frame
	 * after it: without such events the window was not tested.
	 */
	igt_assert_f(late > 0, "no event came more than a frame late\n");
}

igt_main
{
	unsigned int delay_us = 0;

	igt_fixture {
		vfq_dev_init(&dev, vfq_open_default());
		/* raw: also zpos, which igt_display_reset() leaves */
		vfq_dev_reset(&dev);
		vfq_display_init(&display, &dev);
		vfq_get_mode(dev.fd, dev.pipe[0].conn_id, 1024, 768, 60, &mode);
		for (int i = 0; i < 2; i++) {
			vfq_fb_create(dev.fd, mode.hdisplay, mode.vdisplay,
				      DRM_FORMAT_XRGB8888, &fbs[i]);
			vfq_fb_pattern(&fbs[i], i + 1);
		}
		pipe0_on();
		period = vfq_mode_period(&mode);
		/* 60 % of a frame: a window wide enough to aim at */
		delay_us = (unsigned int)(period * 6 / 10 / 1000);
		igt_install_exit_handler(reset_irq_delay);
	}

	igt_describe("Nonblocking atomic flips committed after a vblank whose "
		     "interrupt is late get the next vblank, and the CRCs "
		     "agree with the events");
	igt_subtest("atomic-flip") {
		flips_after_vblank(false, delay_us);
	}

	igt_describe("Legacy page flips made after a vblank whose interrupt "
		     "is late get the next vblank, and the CRCs agree with "
		     "the events");
	igt_subtest("legacy-flip") {
		flips_after_vblank(true, delay_us);
	}

	igt_describe("Flips queued on the flip queue after a vblank whose "
		     "interrupt is late are logged at a later vblank, and the "
		     "CRCs agree with the log");
	igt_subtest("queued-flip") {
		queued_flips_after_vblank(delay_us);
	}

	igt_describe("With every interrupt more than a frame late, a vblank "
		     "event asked for each of the coming vblanks carries the "
		     "vblank it was asked for and that vblank's time");
	igt_subtest("vblank-event-each-vblank") {
		events_each_vblank();
	}

	igt_fixture {
		reset_irq_delay(0);
		vfq_display_off(&display);
		igt_display_fini(&display);
		for (int i = 0; i < 2; i++)
			vfq_fb_destroy(&fbs[i]);
		vfq_dev_fini(&dev);
	}
}
