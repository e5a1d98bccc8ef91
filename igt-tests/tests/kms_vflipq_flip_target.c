// SPDX-License-Identifier: MIT
/*
 * Legacy page flips with a target vblank (DRM_MODE_PAGE_FLIP_TARGET_ABSOLUTE
 * and _RELATIVE, libdrm's drmModePageFlipTarget()) on every CRTC, each flip
 * judged from outside (Documentation/vflipq/kms-features.rst, "Page flips
 * with a target vblank"):
 *
 * - by the screen: the CRC of every frame, numbered by the DRM vblank
 *   counter the targets count in, shows the old image up to the vblank
 *   before the event's and the new one from the event's vblank on;
 * - by the event, against the CRTC's vblank counter and grid
 *   (DRM_IOCTL_CRTC_GET_SEQUENCE just before the flip): never before the
 *   target; exactly the target when the ioctl returned before that
 *   vblank's nominal time, else the first vblank after the ioctl returned.
 *   Later is allowed and reported: the commit is applied by the commit
 *   worker after the ioctl returns, which a loaded host (TCG, two busy
 *   cores) may run after a whole frame.  At least one flip of a subtest
 *   must be exact: a driver that held every flip a vblank would make
 *   them all late;
 * - by the truth checker (vflipq_truth.c): every event on the CRTC's grid,
 *   read after its vblank, at or after its flip was asked for.
 *
 * The DRM core refuses a target more than one vblank ahead of its counter
 * with -EINVAL; such a flip changes nothing.  It takes a vblank reference
 * for the target that the driver gives back: the CRTC's vblank interrupt
 * goes off after the last flip as after any other.
 */
/**
 * TEST: kms vflipq flip target
 * Category: Display
 * Mega feature: General Display Features
 * Sub-category: page flip
 * Functionality: page flips with a target vblank
 * Driver requirement: vflipq
 * Description: Legacy page flips with DRM_MODE_PAGE_FLIP_TARGET_ABSOLUTE and
 *              _RELATIVE are never shown before their target vblank, and at
 *              it when the flip was made in time, on every CRTC.
 *
 * SUBTEST: absolute-next
 * Description: Legacy page flips with an absolute target, the vblank after
 *              the counter's, are shown at that vblank on every CRTC, judged
 *              by CRC and events
 *
 * SUBTEST: relative-next
 * Description: Legacy page flips with relative target 1 are shown at the next
 *              vblank on every CRTC, judged by CRC and events
 *
 * SUBTEST: passed-target
 * Description: Legacy page flips whose target has passed, absolute and
 *              relative 0, are shown at the next vblank
 *
 * SUBTEST: beyond-next-refused
 * Description: Legacy page flips with a target more than one vblank ahead are
 *              refused with EINVAL and change nothing
 *
 * SUBTEST: all-crtcs-at-once
 * Description: Legacy page flips with targets on every CRTC at once are each
 *              shown at their target
 *
 * SUBTEST: vblank-reference-released
 * Description: The vblank reference the DRM core takes for a page flip's
 *              target is given back: the vblank interrupt goes off after the
 *              last flip
 */
#include <inttypes.h>

#include "igt.h"
#include "vflipq_helpers.h"

IGT_TEST_DESCRIPTION("vflipq: page flips with a target vblank");

#define W 640
#define H 480
#define MARKERS 3
#define FLIPS 8
/* Frames recorded for one flip at most: its event's vblank is near. */
#define MAX_FRAMES 64
#define EVENT_MS 2000
#define VBLANKOFFDELAY "/sys/module/drm/parameters/vblankoffdelay"

struct pipe_ctx {
	int pipe;
	uint32_t crtc_id;
	struct vfq_fb fb[MARKERS];
	struct vfq_screen screen;
	struct vfq_truth truth;
	int shown;		/* the marker on screen */
};

/* One flip as the client saw it; times are CLOCK_MONOTONIC. */
struct flip {
	struct pipe_ctx *p;
	const char *what;
	int from, to;		/* markers before and after */
	uint32_t flags, seq;	/* as given to drmModePageFlipTarget() */
	uint64_t c0, ts0;	/* the CRTC's last vblank before the flip */
	uint64_t t_start, t_ret;	/* the ioctl called and returned */
	uint32_t lowest;	/* the lowest target the core can have taken */
};

struct tally {
	int flips, late, decided;
};

static struct vfq_dev dev;
static igt_display_t display;
static drmModeModeInfo mode;
static uint64_t period;
static struct pipe_ctx pipes[VFQ_MAX_CRTCS];
static char offdelay[32];	/* drm.vblankoffdelay to restore, or "" */

static const struct vfq_color marker_color[MARKERS] = {
	{ 0xffff, 0, 0, 0xffff }, { 0, 0xffff, 0, 0xffff },
	{ 0, 0, 0xffff, 0xffff },
};

/*
 * Every CRTC lit at @mode with marker 0, in one commit (after one turning
 * everything off): an ordinary modeset.
 */
static void pipes_on(void)
{
	vfq_display_off(&display);
	for (int i = 0; i < dev.n_pipes; i++) {
		struct pipe_ctx *p = &pipes[i];

		memset(p, 0, sizeof(*p));
		p->pipe = i;
		p->crtc_id = dev.pipe[i].crtc_id;
		for (int m = 0; m < MARKERS; m++) {
			vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888,
				      &p->fb[m]);
			vfq_fb_fill(&p->fb[m], marker_color[m]);
		}
		vfq_display_pipe(&display, &dev, i, &mode, &p->fb[0]);
		vfq_truth_init(&p->truth, p->crtc_id, period, VFQ_TRUTH_FLIPS);
	}
	igt_display_commit2(&display, COMMIT_ATOMIC);
}

/*
 * CRC capture on @p's CRTC, its markers learnt (marker 0 on screen after).
 * Only while its flips are judged: the DRM core keeps 128 CRCs of a CRTC
 * and complains when they overflow.
 */
static void screen_on(struct pipe_ctx *p)
{
	uint32_t ids[MARKERS];

	for (int m = 0; m < MARKERS; m++)
		ids[m] = p->fb[m].fb_id;
	vfq_screen_learn(&p->screen, &dev, p->pipe, ids, MARKERS, W, H);
	p->shown = 0;
}

/*
 * Everything off from igt_display's whole state, also after the legacy
 * flips and SETPLANEs (vfq_screen_learn()) it did not see.
 */
static void pipes_off(void)
{
	vfq_display_off(&display);
	vfq_drain_events(dev.fd, 0);
	for (int i = 0; i < dev.n_pipes; i++)
		for (int m = 0; m < MARKERS; m++)
			vfq_fb_destroy(&pipes[i].fb[m]);
}

/* The start of a frame of @p's CRTC: right after its next vblank. */
static void frame_start(struct pipe_ctx *p)
{
	igt_assert_eq(vfq_wait_vblank(dev.fd, p->pipe, DRM_VBLANK_RELATIVE, 1,
				      0, NULL, NULL), 0);
}

/*
 * The legacy page flip with a target under test: raw, its event read and
 * timed by the test.
 */
static int page_flip_target(struct pipe_ctx *p, int marker, uint32_t flags,
			    uint32_t seq)
{
	return drmModePageFlipTarget(dev.fd, p->crtc_id, p->fb[marker].fb_id,
				     DRM_MODE_PAGE_FLIP_EVENT | flags,
				     (void *)(uintptr_t)(p->pipe + 1),
				     seq) ? -errno : 0;
}

/*
 * Flip @p to the next marker with @flags (TARGET_ABSOLUTE: the vblank
 * @rel after the CRTC's last one, which may be negative; TARGET_RELATIVE:
 * @rel itself); asserts the ioctl succeeds.
 */
static void flip_issue(struct flip *f, struct pipe_ctx *p, const char *what,
		       uint32_t flags, int rel)
{
	int ret;

	memset(f, 0, sizeof(*f));
	f->p = p;
	f->what = what;
	f->from = p->shown;
	f->to = (p->shown + 1) % MARKERS;
	f->flags = flags;
	vfq_vblank_grid(dev.fd, p->crtc_id, &f->c0, &f->ts0);
	vfq_truth_vblank(&p->truth, f->c0, f->ts0);
	/* Without a target flag the sequence must be 0: the next vblank. */
	if (flags & DRM_MODE_PAGE_FLIP_TARGET_ABSOLUTE)
		f->seq = (uint32_t)(f->c0 + rel);
	else if (flags & DRM_MODE_PAGE_FLIP_TARGET_RELATIVE)
		f->seq = rel;
	f->lowest = (uint32_t)f->c0 + rel;
	f->t_start = vfq_now_ns();
	ret = page_flip_target(p, f->to, flags, f->seq);
	f->t_ret = vfq_now_ns();
	igt_assert_f(ret == 0, "CRTC %d: %s (sequence %u, last vblank "
		     "%" PRIu64 "): %s\n", p->pipe, what, f->seq, f->c0,
		     strerror(-ret));
	p->shown = f->to;
}

/* The first vblank of @f's CRTC whose nominal time is after @t. */
static uint32_t vblank_after(const struct flip *f, uint64_t t)
{
	igt_assert(t >= f->ts0);
	return (uint32_t)(f->c0 + (t - f->ts0) / period + 1);
}

/*
 * The screen around @f's event at vblank @s: marker @f->from at every
 * vblank from the one before the flip up to @s - 1, @f->to at @s.  True if
 * both frames of the change had a CRC.
 */
static bool screen_check(const struct flip *f, uint32_t s)
{
	int marker[MAX_FRAMES], n = (int32_t)(s - (uint32_t)f->c0) + 1;

	igt_assert_f(n >= 2 && n <= MAX_FRAMES, "CRTC %d: %s: event at "
		     "vblank %u, %d after the last one before the flip\n",
		     f->p->pipe, f->what, s, n - 1);
	vfq_screen_record(&f->p->screen, f->c0, n, marker);
	for (int k = 0; k < n; k++) {
		int want = k < n - 1 ? f->from : f->to;

		if (marker[k] == VFQ_SCREEN_NO_CRC)
			continue;
		igt_assert_f(marker[k] == want, "CRTC %d: %s: vblank %" PRIu64
			     " showed marker %d, expected %d (event at vblank "
			     "%u)\n", f->p->pipe, f->what, f->c0 + k,
			     marker[k], want, s);
	}
	return marker[n - 2] != VFQ_SCREEN_NO_CRC &&
	       marker[n - 1] != VFQ_SCREEN_NO_CRC;
}

/* @f's event @ev, read at @t_read, against the rules; the screen too. */
static void flip_judge(const struct flip *f, const struct vfq_event *ev,
		       uint64_t t_read, bool crc, struct tally *tl)
{
	uint32_t s = (uint32_t)ev->sequence, due;

	igt_assert_eq_u32(ev->type, DRM_EVENT_FLIP_COMPLETE);
	igt_assert_eq_u32(ev->crtc_id, f->p->crtc_id);
	vfq_truth_event(&f->p->truth, f->what, f->t_start, ev, t_read);
	igt_assert_f((int32_t)(s - f->lowest) >= 0, "CRTC %d: %s: shown at "
		     "vblank %u, before its target %u\n", f->p->pipe, f->what,
		     s, f->lowest);
	/*
	 * Due at the target, or if that vblank had passed when the ioctl
	 * returned, at the next one.  The core's target is at most one
	 * vblank after its counter, which had not passed the first vblank
	 * after the return: only an absolute target can lie further.
	 */
	due = vblank_after(f, f->t_ret);
	if ((f->flags & DRM_MODE_PAGE_FLIP_TARGET_ABSOLUTE) &&
	    (int32_t)(f->seq - due) > 0)
		due = f->seq;
	tl->flips++;
	if ((int32_t)(s - due) > 0) {
		tl->late++;
		igt_info("CRTC %d: %s: due at vblank %u (ioctl returned "
			 "%.3f ms after vblank %" PRIu64 "), shown at %u\n",
			 f->p->pipe, f->what, due,
			 (double)(f->t_ret - f->ts0) / 1e6, f->c0, s);
	}
	if (crc && screen_check(f, s))
		tl->decided++;
}

static void read_flip_event(struct vfq_event *ev, uint64_t *t_read)
{
	igt_assert_f(vfq_read_event(dev.fd, EVENT_MS, ev) == 1,
		     "no flip event within %d ms\n", EVENT_MS);
	*t_read = vfq_now_ns();
	igt_assert(ev->user_data >= 1 &&
		   ev->user_data <= (uint64_t)dev.n_pipes);
}

/* One flip on @p at the start of a frame, judged. */
static void flip_once(struct pipe_ctx *p, const char *what, uint32_t flags,
		      int rel, bool crc, struct tally *tl)
{
	struct vfq_event ev;
	uint64_t t_read;
	struct flip f;

	frame_start(p);
	flip_issue(&f, p, what, flags, rel);
	read_flip_event(&ev, &t_read);
	igt_assert_eq_u64(ev.user_data, p->pipe + 1);
	flip_judge(&f, &ev, t_read, crc, tl);
}

static void tally_check(const struct tally *tl, const char *what, bool crc)
{
	igt_info("%s: %d flips, %d late, %d decided by CRCs\n", what,
		 tl->flips, tl->late, tl->decided);
	igt_assert(tl->flips > 0);
	/*
	 * A late flip is the commit worker's lateness, which the host's load
	 * sets; a driver that held every flip a vblank would make them all
	 * late, and no load seen here made all of a subtest's flips late.
	 */
	igt_assert_f(tl->late < tl->flips,
		     "%s: all %d flips shown after the vblank they were due "
		     "at\n", what, tl->flips);
	/* A frame the composer merged away has no CRC and decides nothing. */
	igt_assert_f(!crc || tl->decided > 0,
		     "%s: no flip decided by the CRCs\n", what);
}

/* FLIPS flips on every CRTC in turn, each with @flags and @rel. */
static void each_crtc(const char *what, uint32_t flags, int rel)
{
	struct tally tl = { };

	pipes_on();
	for (int i = 0; i < dev.n_pipes; i++) {
		screen_on(&pipes[i]);
		for (int k = 0; k < FLIPS; k++)
			flip_once(&pipes[i], what, flags, rel, true, &tl);
		vfq_screen_stop(&pipes[i].screen);
	}
	tally_check(&tl, what, true);
	pipes_off();
}

/*
 * Targets the vblank counter has passed (or reached: the vblank the
 * counter names is over), absolute and relative 0: each is shown at the
 * next vblank.
 */
static void passed_targets(void)
{
	static const struct {
		const char *what;
		uint32_t flags;
		int rel;
	} c[] = {
		{ "absolute target: the last vblank",
		  DRM_MODE_PAGE_FLIP_TARGET_ABSOLUTE, 0 },
		{ "absolute target: 3 vblanks ago",
		  DRM_MODE_PAGE_FLIP_TARGET_ABSOLUTE, -3 },
		{ "absolute target: 1000 vblanks ago",
		  DRM_MODE_PAGE_FLIP_TARGET_ABSOLUTE, -1000 },
		{ "relative target 0", DRM_MODE_PAGE_FLIP_TARGET_RELATIVE, 0 },
	};
	struct tally tl = { };

	pipes_on();
	for (int i = 0; i < dev.n_pipes; i++) {
		screen_on(&pipes[i]);
		for (unsigned int k = 0; k < VFQ_ARRAY_SIZE(c); k++)
			for (int r = 0; r < 2; r++)
				flip_once(&pipes[i], c[k].what, c[k].flags,
					  c[k].rel, true, &tl);
		vfq_screen_stop(&pipes[i].screen);
	}
	tally_check(&tl, "passed targets", true);
	pipes_off();
}

/*
 * A flip the core must refuse: -EINVAL.  @rel vblanks after the counter
 * read just before (absolute) may be accepted only when a vblank was
 * counted between that read and the one just after: the core may have
 * read the later count.  Such an attempt is judged as a flip and repeated.
 */
static void refused_once(struct pipe_ctx *p, const char *what, uint32_t flags,
			 uint32_t seq_or_rel)
{
	for (int attempt = 0;; attempt++) {
		uint64_t c0, ts0, c1, ts1, t_start, t_ret;
		struct vfq_event ev;
		struct tally tl = { };
		struct flip f;
		uint32_t seq;
		int ret;

		igt_assert_f(attempt < 10, "CRTC %d: %s: a vblank passed "
			     "during each of 10 attempts\n", p->pipe, what);
		frame_start(p);
		vfq_vblank_grid(dev.fd, p->crtc_id, &c0, &ts0);
		seq = flags & DRM_MODE_PAGE_FLIP_TARGET_ABSOLUTE ?
		      (uint32_t)c0 + seq_or_rel : seq_or_rel;
		t_start = vfq_now_ns();
		ret = page_flip_target(p, (p->shown + 1) % MARKERS, flags, seq);
		t_ret = vfq_now_ns();
		vfq_vblank_grid(dev.fd, p->crtc_id, &c1, &ts1);
		if (ret == -EINVAL)
			return;
		igt_assert_f(ret == 0, "CRTC %d: %s: %s, expected EINVAL\n",
			     p->pipe, what, strerror(-ret));
		igt_assert_f(c1 != c0, "CRTC %d: %s (sequence %u) accepted at "
			     "vblank %" PRIu64 "\n", p->pipe, what, seq, c0);
		igt_info("CRTC %d: %s: accepted, vblank %" PRIu64 " counted "
			 "during the ioctl\n", p->pipe, what, c1);
		f = (struct flip){ .p = p, .what = what, .from = p->shown,
				   .to = (p->shown + 1) % MARKERS,
				   .flags = flags, .seq = seq, .c0 = c0,
				   .ts0 = ts0, .t_start = t_start,
				   .t_ret = t_ret, .lowest = seq };
		p->shown = f.to;
		read_flip_event(&ev, &t_ret);
		flip_judge(&f, &ev, t_ret, true, &tl);
	}
}

static void refused(void)
{
	pipes_on();
	for (int i = 0; i < dev.n_pipes; i++) {
		struct pipe_ctx *p = &pipes[i];
		int marker[4];
		struct vfq_event ev;
		uint64_t c0, ts0;

		screen_on(p);
		refused_once(p, "absolute target 2 ahead",
			     DRM_MODE_PAGE_FLIP_TARGET_ABSOLUTE, 2);
		refused_once(p, "absolute target 1000 ahead",
			     DRM_MODE_PAGE_FLIP_TARGET_ABSOLUTE, 1000);
		refused_once(p, "relative target 2",
			     DRM_MODE_PAGE_FLIP_TARGET_RELATIVE, 2);
		refused_once(p, "absolute and relative",
			     DRM_MODE_PAGE_FLIP_TARGET, 1);
		/* Nothing changed: no event, the same image. */
		vfq_vblank_grid(dev.fd, p->crtc_id, &c0, &ts0);
		igt_assert_f(vfq_read_event(dev.fd, 4 * period / 1000000, &ev)
			     == 0, "CRTC %d: an event after refused flips\n",
			     p->pipe);
		vfq_screen_record(&p->screen, c0, 4, marker);
		for (int k = 0; k < 4; k++)
			igt_assert_f(marker[k] == p->shown ||
				     marker[k] == VFQ_SCREEN_NO_CRC,
				     "CRTC %d: vblank %" PRIu64 " showed "
				     "marker %d after refused flips, expected "
				     "%d\n", p->pipe, c0 + k, marker[k],
				     p->shown);
		vfq_screen_stop(&p->screen);
	}
	pipes_off();
}

/*
 * Flips on every CRTC at once, for the next vblank (absolute) and then
 * relative 1, issued back to back at the start of a frame: the CRTCs of
 * one mode share their vblanks (vblank_align), so every flip is due at the
 * same one.  Every event is judged; the screen of one CRTC at a time, each
 * for an equal share of the rounds: composing every CRTC's frames for CRCs
 * at once would load a TCG guest more than the flips under test.
 */
static void all_crtcs(void)
{
	struct flip f[VFQ_MAX_CRTCS];
	struct tally tl = { };
	int watched = -1;

	pipes_on();
	for (int k = 0; k < FLIPS * dev.n_pipes; k++) {
		uint32_t flags = k & 1 ? DRM_MODE_PAGE_FLIP_TARGET_RELATIVE :
				 DRM_MODE_PAGE_FLIP_TARGET_ABSOLUTE;
		bool seen[VFQ_MAX_CRTCS] = { };

		if (watched != k / FLIPS) {
			if (watched >= 0)
				vfq_screen_stop(&pipes[watched].screen);
			watched = k / FLIPS;
			screen_on(&pipes[watched]);
		}
		frame_start(&pipes[0]);
		for (int i = 0; i < dev.n_pipes; i++)
			flip_issue(&f[i], &pipes[i], k & 1 ? "relative 1, all "
				   "CRTCs" : "absolute next, all CRTCs", flags,
				   1);
		for (int n = 0; n < dev.n_pipes; n++) {
			struct vfq_event ev;
			uint64_t t_read;
			int i;

			read_flip_event(&ev, &t_read);
			i = ev.user_data - 1;
			igt_assert_f(!seen[i], "CRTC %d: two events for one "
				     "flip\n", i);
			seen[i] = true;
			flip_judge(&f[i], &ev, t_read, i == watched, &tl);
		}
	}
	tally_check(&tl, "all CRTCs at once", true);
	vfq_screen_stop(&pipes[watched].screen);
	pipes_off();
}

static void restore_offdelay(int sig)
{
	(void)sig;
	if (offdelay[0])
		vfq_file_write(VBLANKOFFDELAY, offdelay);
	offdelay[0] = '\0';
}

static uint64_t vblank_irqs(const struct pipe_ctx *p)
{
	struct drm_vflipq_get_counters c = { .crtc_id = p->crtc_id };

	do_ioctl(dev.fd, DRM_IOCTL_VFLIPQ_GET_COUNTERS, &c);
	return c.vblank_irqs;
}

/*
 * The vblank reference the core takes for each flip's target is given
 * back: with drm.vblankoffdelay at 20 ms and nothing else holding one (no
 * CRC capture), each CRTC's vblank interrupt goes off after its last flip,
 * and the engine reports no more vblanks (GET_COUNTERS' vblank_irqs).  A
 * reference kept per flip would keep it on for good.
 */
static void references_released(void)
{
	struct tally tl = { };

	igt_assert(vfq_file_read(VBLANKOFFDELAY, offdelay,
				 sizeof(offdelay)) > 0);
	igt_install_exit_handler(restore_offdelay);
	igt_assert(vfq_file_write(VBLANKOFFDELAY, "20") > 0);
	pipes_on();
	for (int i = 0; i < dev.n_pipes; i++)
		for (int k = 0; k < 4; k++) {
			flip_once(&pipes[i], "absolute next",
				  DRM_MODE_PAGE_FLIP_TARGET_ABSOLUTE, 1, false,
				  &tl);
			flip_once(&pipes[i], "relative 1",
				  DRM_MODE_PAGE_FLIP_TARGET_RELATIVE, 1, false,
				  &tl);
			/* Without a target the core still takes one. */
			flip_once(&pipes[i], "no target", 0, 1, false, &tl);
		}
	tally_check(&tl, "flips before the interrupts go off", false);
	/* 20 ms and the disable timer's own slack, many times over. */
	usleep(200000);
	for (int i = 0; i < dev.n_pipes; i++) {
		uint64_t before = vblank_irqs(&pipes[i]), after;

		usleep(300000);
		after = vblank_irqs(&pipes[i]);
		igt_info("CRTC %d: %" PRIu64 " vblanks reported in 300 ms "
			 "after the last flip\n", i, after - before);
		igt_assert_f(after == before, "CRTC %d: vblank interrupts "
			     "still on 200 ms after the last flip\n", i);
	}
	restore_offdelay(0);
	pipes_off();
}

igt_main
{
	igt_fixture {
		vfq_dev_init(&dev, vfq_open_default());
		/* raw: also zpos, which igt_display_reset() leaves */
		vfq_dev_reset(&dev);
		vfq_display_init(&display, &dev);
		vfq_get_mode(dev.fd, dev.pipe[0].conn_id, W, H, 60, &mode);
		period = vfq_mode_period(&mode);
	}

	igt_describe("Legacy page flips with an absolute target, the vblank "
		     "after the counter's, are shown at that vblank on every "
		     "CRTC, judged by CRC and events");
	igt_subtest("absolute-next")
		each_crtc("absolute next", DRM_MODE_PAGE_FLIP_TARGET_ABSOLUTE,
			  1);

	igt_describe("Legacy page flips with relative target 1 are shown at the "
		     "next vblank on every CRTC, judged by CRC and events");
	igt_subtest("relative-next")
		each_crtc("relative 1", DRM_MODE_PAGE_FLIP_TARGET_RELATIVE, 1);

	igt_describe("Legacy page flips whose target has passed, absolute and "
		     "relative 0, are shown at the next vblank");
	igt_subtest("passed-target")
		passed_targets();

	igt_describe("Legacy page flips with a target more than one vblank ahead "
		     "are refused with EINVAL and change nothing");
	igt_subtest("beyond-next-refused")
		refused();

	igt_describe("Legacy page flips with targets on every CRTC at once are "
		     "each shown at their target");
	igt_subtest("all-crtcs-at-once")
		all_crtcs();

	igt_describe("The vblank reference the DRM core takes for a page flip's "
		     "target is given back: the vblank interrupt goes off after "
		     "the last flip");
	igt_subtest("vblank-reference-released")
		references_released();

	igt_fixture {
		vfq_display_off(&display);
		igt_display_fini(&display);
		vfq_dev_fini(&dev);
	}
}
