// SPDX-License-Identifier: MIT
/*
 * Flip and vblank timing: every CRTC runs at its own mode's refresh, all at
 * once, with monotonic sequences and timestamps that agree with them.
 * Under TCG single samples jitter, so rates are judged on medians and means.
 */
/**
 * TEST: kms vflipq flip timing
 * Category: Display
 * Mega feature: General Display Features
 * Sub-category: vblank
 * Functionality: flip and vblank timing
 * Driver requirement: vflipq
 * Description: Page-flip and vblank timing on all CRTCs at once: each CRTC
 *              runs at its own mode's refresh with monotonic sequences and
 *              timestamps that agree with them, on the vblank grid the
 *              vblank_align parameter chooses.
 *
 * SUBTEST: flips-all-crtcs
 * Description: Page flips on all CRTCs at once, each at its refresh
 *
 * SUBTEST: vblank-events-all-crtcs
 * Description: vblank events on all CRTCs at once, each at its refresh
 *
 * SUBTEST: wait-vblank
 * Description: drmWaitVBlank relative/absolute/event and the CRTC sequence
 *              ioctls on every CRTC while all run
 *
 * SUBTEST: vblank-irq-follows-client
 * Description: Each CRTC's vblank interrupt runs on the CPU of the client that
 *              flips, wherever it moves
 *
 * SUBTEST: vblank-grid-aligned
 * Description: vblank_align: every CRTC's vblanks on the multiples of its
 *              frame duration, whenever its mode was set
 *
 * SUBTEST: vblank-irqs-coalesced
 * Description: Aligned engines of one CPU run in one timer interrupt
 *
 * SUBTEST: vblank-grid-unaligned
 * Description: vblank_align off: each CRTC's grid starts at its own mode set
 */

#include <inttypes.h>
#include <math.h>
#include <sched.h>
#include <sys/mount.h>

#include "igt.h"
#include "vflipq_helpers.h"

IGT_TEST_DESCRIPTION("vflipq page-flip and vblank timing on all CRTCs");

#define DURATION_S 3
#define MAX_SAMPLES 1024
#define TOLERANCE 0.10

static const struct { int w, h, r; } pipe_modes[] = {
	{ 1920, 1080, 60 }, { 1920, 1080, 120 }, { 1280, 720, 60 },
	{ 1024, 768, 60 }, { 640, 480, 60 },
};

struct track {
	int pipe;
	drmModeModeInfo mode;
	double period_ns;
	int n;
	uint64_t seq[MAX_SAMPLES], ts[MAX_SAMPLES], recv[MAX_SAMPLES];
	struct vfq_fb fb[2];
	int cur;
	uint64_t t_start;	/* of the flip in flight, 0 for vblank events */
	struct vfq_truth truth;
};

static struct vfq_dev dev;
static igt_display_t display;
static struct track tracks[VFQ_MAX_CRTCS];

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double percentile(double *v, int n, double pct)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[(int)((n - 1) * pct + 0.5)];
}

static void record(struct track *t, const struct vfq_event *ev)
{
	vfq_truth_event(&t->truth, "event", t->t_start, ev, vfq_now_ns());
	if (t->n < MAX_SAMPLES) {
		t->seq[t->n] = ev->sequence;
		t->ts[t->n] = ev->ts_ns;
		t->recv[t->n] = vfq_now_ns();
		t->n++;
	}
}

/*
 * Judge one CRTC's samples: strictly monotonic, running at the mode's
 * refresh against the CPU clock, timestamps = sequence * period.
 */
static void analyze(struct track *t, const char *what, double min_fraction)
{
	static double r[MAX_SAMPLES], dev_ns[MAX_SAMPLES], lat[MAX_SAMPLES];
	static double step_err[MAX_SAMPLES];
	const double p = t->period_ns;
	double mean, median, wall, dev90, lat50, err90;
	int n = t->n, missed = 0;

	igt_info("CRTC %d (%s, %.3f Hz): %d %s\n", t->pipe, t->mode.name,
		 1e9 / p, n, what);
	/*
	 * On the KASAN/lockdep kernel every commit costs several frames: the
	 * flips still land on vblanks, just not on every one of them.
	 */
	if (getenv("VFLIPQ_DEBUG_KERNEL"))
		min_fraction /= 10;
	igt_assert_f(n >= DURATION_S / (p * 1e-9) * min_fraction,
		     "CRTC %d: only %d %s in %d s at %.1f Hz\n", t->pipe, n,
		     what, DURATION_S, 1e9 / p);

	for (int i = 1; i < n; i++) {
		igt_assert_f(t->seq[i] > t->seq[i - 1],
			     "CRTC %d: sequence %llu after %llu\n", t->pipe,
			     (unsigned long long)t->seq[i],
			     (unsigned long long)t->seq[i - 1]);
		igt_assert_f(t->ts[i] > t->ts[i - 1],
			     "CRTC %d: timestamp %llu after %llu\n", t->pipe,
			     (unsigned long long)t->ts[i],
			     (unsigned long long)t->ts[i - 1]);
		missed += t->seq[i] - t->seq[i - 1] - 1;
		r[i - 1] = (double)(t->ts[i] - t->ts[i - 1]) /
			   (t->seq[i] - t->seq[i - 1]);
		step_err[i - 1] = fabs((double)(t->ts[i] - t->ts[i - 1]) -
				       (double)(t->seq[i] - t->seq[i - 1]) * p);
	}
	for (int i = 0; i < n; i++) {
		igt_assert_f(t->ts[i] <= t->recv[i],
			     "CRTC %d: event timestamp in the future\n",
			     t->pipe);
		lat[i] = t->recv[i] - t->ts[i];
	}

	median = percentile(r, n - 1, 0.5);
	mean = (double)(t->ts[n - 1] - t->ts[0]) / (t->seq[n - 1] - t->seq[0]);
	/* vblank counter against the CPU's monotonic clock */
	wall = (double)(t->recv[n - 1] - t->recv[0]) /
	       (t->seq[n - 1] - t->seq[0]);
	for (int i = 0; i < n; i++)
		dev_ns[i] = fabs((double)(t->ts[i] - t->ts[0]) -
				 (double)(t->seq[i] - t->seq[0]) * mean);
	dev90 = percentile(dev_ns, n, 0.9);
	lat50 = percentile(lat, n, 0.5);
	err90 = percentile(step_err, n - 1, 0.9);

	igt_info("  period: expected %.0f us, median %.0f us, mean %.0f us, "
		 "wall %.0f us; %d vblanks missed; 90%% |ts - seq*period| "
		 "%.0f us; median delivery latency %.0f us\n",
		 p / 1e3, median / 1e3, mean / 1e3, wall / 1e3, missed,
		 dev90 / 1e3, lat50 / 1e3);
	igt_assert_f(fabs(median - p) <= TOLERANCE * p,
		     "CRTC %d: median period %.0f us, expected %.0f us\n",
		     t->pipe, median / 1e3, p / 1e3);
	igt_assert_f(fabs(mean - p) <= TOLERANCE * p,
		     "CRTC %d: mean period %.0f us, expected %.0f us\n",
		     t->pipe, mean / 1e3, p / 1e3);
	igt_assert_f(fabs(wall - p) <= TOLERANCE * p,
		     "CRTC %d: vblank counter runs at %.0f us per frame of "
		     "CPU time, expected %.0f us\n", t->pipe, wall / 1e3,
		     p / 1e3);
	igt_assert_f(dev90 <= 0.5 * p,
		     "CRTC %d: timestamps stray %.0f us from sequence * "
		     "period\n", t->pipe, dev90 / 1e3);
	igt_assert_f(lat50 <= 100e6, "CRTC %d: events arrive %.0f ms late\n",
		     t->pipe, lat50 / 1e6);
	/*
	 * The timestamps are the vblank timer's expiry times, exactly one
	 * frame duration apart (driver.rst, "Vblank emulation"); events carry
	 * microseconds.
	 */
	igt_info("  90%% of steps within %.1f us of sequence * period "
		 "(max %.1f us)\n", err90 / 1e3,
		 percentile(step_err, n - 1, 1.0) / 1e3);
	igt_assert_f(err90 <= 2000, "CRTC %d: timestamp steps are not whole "
		     "frame durations (90th percentile error %.1f us)\n",
		     t->pipe, err90 / 1e3);
}

/* CRTC @i's track, its mode @w x @h @ @r and its two framebuffers. */
static struct track *track_setup(int i, int w, int h, int r)
{
	struct track *t = &tracks[i];

	memset(t, 0, sizeof(*t));
	t->pipe = i;
	vfq_get_mode(dev.fd, dev.pipe[i].conn_id, w, h, r, &t->mode);
	t->period_ns = 1e9 / vfq_mode_hz(&t->mode);
	vfq_truth_init(&t->truth, dev.pipe[i].crtc_id,
		       vfq_mode_period(&t->mode), VFQ_TRUTH_FLIPS);
	for (int k = 0; k < 2; k++)
		vfq_fb_create(dev.fd, t->mode.hdisplay, t->mode.vdisplay,
			      DRM_FORMAT_XRGB8888, &t->fb[k]);
	return t;
}

/* All CRTCs on in one commit, each with its mode from pipe_modes. */
static void all_pipes_on(void)
{
	for (int i = 0; i < dev.n_pipes; i++) {
		int m = i % VFQ_ARRAY_SIZE(pipe_modes);
		struct track *t = track_setup(i, pipe_modes[m].w,
					      pipe_modes[m].h,
					      pipe_modes[m].r);

		vfq_display_pipe(&display, &dev, i, &t->mode, &t->fb[0]);
	}
	igt_display_commit2(&display, COMMIT_ATOMIC);
}

/* Everything off, from igt_display's whole state (raw flips included). */
static void all_pipes_off(void)
{
	vfq_display_off(&display);
	for (int i = 0; i < dev.n_pipes; i++)
		for (int k = 0; k < 2; k++)
			vfq_fb_destroy(&tracks[i].fb[k]);
}

/*
 * Raw: a nonblocking flip whose event the test reads and times itself
 * (run_all(), flip_round()).
 */
static void queue_flip(struct track *t)
{
	drmModeAtomicReq *req = vfq_req_new();
	int ret;

	t->cur ^= 1;
	t->t_start = vfq_now_ns();
	vfq_req_set(req, dev.fd, dev.pipe[t->pipe].primary,
		    DRM_MODE_OBJECT_PLANE, "FB_ID", t->fb[t->cur].fb_id);
	ret = vfq_req_commit(dev.fd, req, DRM_MODE_ATOMIC_NONBLOCK |
			     DRM_MODE_PAGE_FLIP_EVENT,
			     (void *)(uintptr_t)(t->pipe + 1));
	igt_assert_f(ret == 0, "flip on CRTC %d: %s\n", t->pipe,
		     strerror(-ret));
}

static void queue_vblank(struct track *t)
{
	int ret;

	t->t_start = 0;
	ret = vfq_wait_vblank(dev.fd, t->pipe, DRM_VBLANK_RELATIVE |
			      DRM_VBLANK_EVENT, 1, t->pipe + 1, NULL, NULL);
	igt_assert_f(ret == 0, "vblank event on CRTC %d: %s\n", t->pipe,
		     strerror(-ret));
}

/* Keep one flip (or vblank event) queued per CRTC for DURATION_S. */
static void run_all(bool flips)
{
	uint64_t end;
	int outstanding = dev.n_pipes;
	struct vfq_event ev;

	for (int i = 0; i < dev.n_pipes; i++)
		flips ? queue_flip(&tracks[i]) : queue_vblank(&tracks[i]);
	end = vfq_now_ns() + DURATION_S * 1000000000ull;
	while (outstanding) {
		struct track *t;

		igt_assert_f(vfq_read_event(dev.fd, 1000, &ev) == 1,
			     "no event for 1 s\n");
		igt_assert_eq_u32(ev.type, flips ? DRM_EVENT_FLIP_COMPLETE :
				  DRM_EVENT_VBLANK);
		igt_assert(ev.user_data >= 1 &&
			   ev.user_data <= (uint64_t)dev.n_pipes);
		t = &tracks[ev.user_data - 1];
		igt_assert_eq_u32(ev.crtc_id, dev.pipe[t->pipe].crtc_id);
		record(t, &ev);
		if (vfq_now_ns() < end)
			flips ? queue_flip(t) : queue_vblank(t);
		else
			outstanding--;
	}
}

/*
 * A vblank answered to a wait or query on the CRTC of @t: on the grid of
 * every other answer (vflipq_truth.c; a query may repeat the last one).
 */
static void vblank_reply(struct vfq_truth *t, const char *what, uint64_t seq,
			 uint64_t ns)
{
	struct vfq_event ev = { .crtc_id = t->crtc_id, .sequence = seq,
				.ts_ns = ns };

	vfq_truth_event(t, what, 0, &ev, vfq_now_ns());
}

/*
 * A wait answered later than the vblank it asked for: allowed (a starved
 * VM handles several vblanks at once and answers with the last), and
 * reported.
 */
static void report_late(int pipe, const char *what, uint64_t vblanks)
{
	if (vblanks > 3)
		igt_info("CRTC %d: %s answered %" PRIu64 " vblanks after the "
			 "one asked for\n", pipe, what, vblanks);
}

static void wait_vblanks(int pipe)
{
	struct track *t = &tracks[pipe];
	static double r[64];
	uint32_t s0, s1, target;
	uint64_t t0, t1;
	struct vfq_event ev;
	uint64_t seq, ns;
	struct vfq_truth truth;
	int n = 0;

	vfq_truth_init(&truth, dev.pipe[pipe].crtc_id,
		       vfq_mode_period(&t->mode), VFQ_TRUTH_ASYNC);
	/* blocking relative waits */
	igt_assert_eq(vfq_wait_vblank(dev.fd, pipe, DRM_VBLANK_RELATIVE, 1, 0,
				      &s0, &t0), 0);
	vblank_reply(&truth, "relative wait", s0, t0);
	for (int i = 0; i < 40; i++) {
		igt_assert_eq(vfq_wait_vblank(dev.fd, pipe,
					      DRM_VBLANK_RELATIVE, 1, 0,
					      &s1, &t1), 0);
		vblank_reply(&truth, "relative wait", s1, t1);
		igt_assert_f(s1 > s0, "CRTC %d: sequence %u after %u\n", pipe,
			     s1, s0);
		igt_assert_f(t1 > t0, "CRTC %d: timestamp went back\n", pipe);
		r[n++] = (double)(t1 - t0) / (s1 - s0);
		s0 = s1;
		t0 = t1;
	}
	igt_info("CRTC %d: median vblank period %.0f us (expected %.0f us)\n",
		 pipe, percentile(r, n, 0.5) / 1e3, t->period_ns / 1e3);
	igt_assert(fabs(percentile(r, n, 0.5) - t->period_ns) <=
		   TOLERANCE * t->period_ns);

	/* absolute wait */
	igt_assert_eq(vfq_wait_vblank(dev.fd, pipe, DRM_VBLANK_RELATIVE, 0, 0,
				      &s0, &t0), 0);
	vblank_reply(&truth, "query", s0, t0);
	target = s0 + 6;
	igt_assert_eq(vfq_wait_vblank(dev.fd, pipe, DRM_VBLANK_ABSOLUTE,
				      target, 0, &s1, &t1), 0);
	vblank_reply(&truth, "absolute wait", s1, t1);
	igt_assert_lte_u32(target, s1);
	report_late(pipe, "absolute wait", s1 - target);

	/* vblank event */
	igt_assert_eq(vfq_wait_vblank(dev.fd, pipe, DRM_VBLANK_RELATIVE |
				      DRM_VBLANK_EVENT, 3, 0xabc0 + pipe,
				      &target, NULL), 0);
	igt_assert_eq(vfq_read_event(dev.fd, 1000, &ev), 1);
	igt_assert_eq_u32(ev.type, DRM_EVENT_VBLANK);
	igt_assert_eq_u64(ev.user_data, 0xabc0 + pipe);
	vfq_truth_event(&truth, "vblank event", 0, &ev, vfq_now_ns());
	igt_assert_lte_u64(target, ev.sequence);
	report_late(pipe, "vblank event", ev.sequence - target);

	/* CRTC sequence ioctls */
	igt_assert_eq(drmCrtcGetSequence(dev.fd, dev.pipe[pipe].crtc_id,
					 &seq, &ns), 0);
	vblank_reply(&truth, "GET_SEQUENCE", seq, ns);
	igt_assert_eq(drmCrtcQueueSequence(dev.fd, dev.pipe[pipe].crtc_id,
					   DRM_CRTC_SEQUENCE_RELATIVE, 2,
					   &seq, 0xdef0 + pipe), 0);
	igt_assert_eq(vfq_read_event(dev.fd, 1000, &ev), 1);
	igt_assert_eq_u32(ev.type, DRM_EVENT_CRTC_SEQUENCE);
	igt_assert_eq_u64(ev.user_data, 0xdef0 + pipe);
	ev.crtc_id = dev.pipe[pipe].crtc_id;	/* this event names none */
	vfq_truth_event(&truth, "CRTC sequence event", 0, &ev, vfq_now_ns());
	igt_assert_lte_u64(seq, ev.sequence);
	report_late(pipe, "CRTC sequence event", ev.sequence - seq);
}

#define TRACEFS "/sys/kernel/tracing/"

/* Opening the trace with O_TRUNC empties it (a write of nothing does not). */
static void trace_clear(void)
{
	int fd = open(TRACEFS "trace", O_WRONLY | O_TRUNC);

	igt_assert(fd >= 0);
	close(fd);
}

/* The timer core's expiry events; the test is skipped without them. */
static void require_timer_trace(void)
{
	if (access(TRACEFS "trace", F_OK))
		mount("nodev", TRACEFS, "tracefs", 0, NULL);
	igt_require(access(TRACEFS "events/timer/hrtimer_expire_entry/enable",
			   F_OK) == 0);
}

/* One flip on every CRTC from this CPU, and all their events read. */
static void flip_round(void)
{
	struct vfq_event ev;

	for (int i = 0; i < dev.n_pipes; i++)
		queue_flip(&tracks[i]);
	for (int i = 0; i < dev.n_pipes; i++) {
		igt_assert_f(vfq_read_event(dev.fd, 1000, &ev) == 1,
			     "no flip event within 1 s\n");
		igt_assert_eq_u32(ev.type, DRM_EVENT_FLIP_COMPLETE);
	}
}

/*
 * @n flip rounds with the timer core's expiries traced; the trace, NUL
 * terminated, in a buffer of this function's.
 */
static char *traced_flip_rounds(int n)
{
	static char buf[1 << 20];
	int fd, len = 0, r;

	trace_clear();
	igt_assert(vfq_file_write(TRACEFS "events/timer/hrtimer_expire_entry/"
				  "enable", "1") > 0);
	for (int k = 0; k < n; k++)
		flip_round();
	vfq_file_write(TRACEFS "events/timer/hrtimer_expire_entry/enable",
		       "0");
	fd = open(TRACEFS "trace", O_RDONLY);
	igt_assert(fd >= 0);
	while (len < (int)sizeof(buf) - 1 &&
	       (r = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += r;
	close(fd);
	buf[len] = 0;
	return buf;
}

/*
 * Whether trace @line is an expiry of a vflipq engine timer, and then the
 * CPU that ran it, the timer and the "now" of the timer core's pass
 * (ftrace's timer:hrtimer_expire_entry, as the kernel's timer core, not
 * vflipq, reports them).
 */
static bool engine_expiry(const char *line, int *cpu, uintptr_t *timer,
			  uint64_t *now)
{
	const char *c = strchr(line, '['), *h = strstr(line, "hrtimer="),
		   *t = strstr(line, "now=");

	if (line[0] == '#' || !c || !h || !t ||
	    !strstr(line, "function=vflipq_vblank_simulate"))
		return false;
	*cpu = atoi(c + 1);
	*timer = strtoull(h + 8, NULL, 16);
	*now = strtoull(t + 4, NULL, 10);
	return true;
}

/*
 * Each engine's timer expires on the CPU of the client that flips and
 * waits (driver.rst, "Where the vblank interrupt runs"): the client moves
 * from CPU to CPU, and after its first flip from a CPU every expiry of
 * every CRTC's timer is on that CPU.
 */
static void test_irq_follows_client(void)
{
	static const int order[] = { 0, 1, 0, 1 };
	int per_cpu[2], total;
	cpu_set_t set;

	igt_require(sysconf(_SC_NPROCESSORS_ONLN) >= 2);
	require_timer_trace();
	all_pipes_on();
	for (unsigned int k = 0; k < VFQ_ARRAY_SIZE(order); k++) {
		int cpu = order[k], c;
		char *line, *save;
		uintptr_t timer;
		uint64_t now;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		igt_assert_eq(sched_setaffinity(0, sizeof(set), &set), 0);
		/* The first round moves the timers, the second settles. */
		flip_round();
		flip_round();
		total = per_cpu[0] = per_cpu[1] = 0;
		for (line = strtok_r(traced_flip_rounds(3), "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			if (!engine_expiry(line, &c, &timer, &now))
				continue;
			igt_assert(c >= 0 && c < 2);
			per_cpu[c]++;
			total++;
		}
		igt_info("client on CPU %d: engine expiries on CPU 0: %d, "
			 "CPU 1: %d\n", cpu, per_cpu[0], per_cpu[1]);
		/* Three flips waited for on each CRTC: three vblanks each. */
		igt_assert_lte(3 * dev.n_pipes, total);
		igt_assert_eq(per_cpu[cpu], total);
	}
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	CPU_SET(1, &set);
	sched_setaffinity(0, sizeof(set), &set);
	all_pipes_off();
}

/*
 * vblank_align (Documentation/vflipq/driver.rst, "Aligned vblanks"): a
 * CRTC's grid starts at the last multiple of its frame duration before its
 * enable, whenever that was; without it, at the enable itself.  Two CRTCs
 * of one mode lit a few milliseconds apart: each origin checked against
 * the CLOCK_MONOTONIC window its enable fell in (vfq_pipe_on_window()),
 * then some vblanks of each on that grid, exactly.
 *
 * Raw throughout: the mode sets are vfq_pipe_on_window()'s nonblocking
 * requests, whose completion the test times by polling, and @d is the
 * configfs device of vblank-grid-unaligned as well as the default one.
 */
static void check_grid(struct vfq_dev *d, bool aligned)
{
	uint64_t period, origin[2], seq, ns, lo, hi;
	struct vfq_fb fb[2];
	drmModeModeInfo mode;
	int attempts = 0;

	igt_require(d->n_pipes >= 2);
	igt_assert_eq(vfq_vblank_aligned(d->fd), aligned);
	vfq_get_mode(d->fd, d->pipe[0].conn_id, 1920, 1080, 60, &mode);
	/* drm_calc_timestamping_constants()'s frame duration */
	period = vfq_mode_period(&mode);
	for (int i = 0; i < 2; i++)
		vfq_fb_create(d->fd, 1920, 1080, DRM_FORMAT_XRGB8888, &fb[i]);
	vfq_dev_reset(d);
	for (int i = 0; i < 2; i++) {
		/*
		 * A window wider than a period, or (aligned) one that holds
		 * a multiple of it, cannot place the origin: that attempt is
		 * repeated, 40 attempts at most for both CRTCs (a slow poll
		 * under a loaded host; an aligned window of a few ms holds a
		 * multiple of 16.7 ms about one time in eight).
		 */
		for (;;) {
			bool known;

			igt_assert_f(attempts++ < 40, "no enable window "
				     "placed the grid's origin\n");
			known = vfq_pipe_on_window(d, i, &mode, fb[i].fb_id,
						   &seq, &ns, &lo, &hi);
			if (known && aligned)
				known = hi - hi % period <= lo;
			else if (known)
				known = hi - lo < period;
			if (known)
				break;
			vfq_pipe_off(d, i);
		}
		igt_info("CRTC %d: enabled in [%" PRIu64 ", %" PRIu64 "], "
			 "first vblank time %" PRIu64 "\n", i, lo, hi, ns);
		if (aligned)
			igt_assert_f(ns == hi - hi % period,
				     "CRTC %d: grid origin %" PRIu64 ", not the "
				     "multiple of %" PRIu64 " before its enable "
				     "at %" PRIu64 "-%" PRIu64 "\n", i, ns,
				     period, lo, hi);
		else
			igt_assert_f(lo <= ns && ns <= hi,
				     "CRTC %d: grid origin %" PRIu64 " outside "
				     "its enable at %" PRIu64 "-%" PRIu64 "\n",
				     i, ns, lo, hi);
		origin[i] = ns;
		/* Not a whole number of periods before the next enable. */
		usleep(5000 + 3000 * i);
	}
	/* Each CRTC stays on its own grid. */
	for (int k = 0; k < 8; k++)
		for (int i = 0; i < 2; i++) {
			igt_assert_eq(vfq_wait_vblank(d->fd, i,
						      DRM_VBLANK_RELATIVE, 1,
						      0, NULL, NULL), 0);
			vfq_vblank_grid(d->fd, d->pipe[i].crtc_id, &seq, &ns);
			igt_assert_f((ns - origin[i]) % period == 0,
				     "CRTC %d: vblank at %" PRIu64 " off its "
				     "grid from %" PRIu64 "\n", i, ns,
				     origin[i]);
		}
	vfq_dev_reset(d);
	for (int i = 0; i < 2; i++)
		vfq_fb_destroy(&fb[i]);
}

/*
 * Aligned engine timers of one CPU expire in one interrupt: every pass of
 * the timer core (hrtimer_expire_entry's "now", shared by the timers one
 * pass expires, per CPU) that ran an engine ran every lit CRTC's.  Both
 * CRTCs at 1080p60, the client pinned to CPU 0 so that both timers follow
 * it there.
 */
static void test_irqs_coalesced(void)
{
	static struct {
		int cpu, n;
		uint64_t now;
		uintptr_t t[VFQ_MAX_CRTCS];
	} pass[512];
	int npass = 0, expiries = 0;
	char *line, *save;
	cpu_set_t set;

	igt_require(sysconf(_SC_NPROCESSORS_ONLN) >= 2);
	igt_assert(vfq_vblank_aligned(dev.fd));
	require_timer_trace();
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	igt_assert_eq(sched_setaffinity(0, sizeof(set), &set), 0);
	for (int i = 0; i < dev.n_pipes; i++) {
		struct track *t = track_setup(i, 1920, 1080, 60);

		/*
		 * Lit apart, a commit each: only the alignment puts their
		 * vblanks together.
		 */
		vfq_display_pipe(&display, &dev, i, &t->mode, &t->fb[0]);
		igt_display_commit2(&display, COMMIT_ATOMIC);
		if (i + 1 < dev.n_pipes)
			usleep(5000);
	}
	flip_round();
	flip_round();
	for (line = strtok_r(traced_flip_rounds(10), "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		int cpu, j;
		uintptr_t timer;
		uint64_t t;

		if (!engine_expiry(line, &cpu, &timer, &t))
			continue;
		expiries++;
		for (j = 0; j < npass; j++)
			if (pass[j].cpu == cpu && pass[j].now == t)
				break;
		if (j == npass) {
			igt_assert(npass < (int)VFQ_ARRAY_SIZE(pass));
			pass[npass].cpu = cpu;
			pass[npass].now = t;
			pass[npass].n = 0;
			npass++;
		}
		igt_assert(pass[j].n < VFQ_MAX_CRTCS);
		pass[j].t[pass[j].n++] = timer;
	}
	igt_info("%d engine expiries in %d timer passes\n", expiries, npass);
	/* Ten flips waited for on each CRTC: ten vblanks each at least. */
	igt_assert_lte(10, npass);
	for (int j = 0; j < npass; j++) {
		igt_assert_f(pass[j].n == dev.n_pipes,
			     "a timer pass on CPU %d ran %d engines of %d\n",
			     pass[j].cpu, pass[j].n, dev.n_pipes);
		for (int a = 0; a < pass[j].n; a++)
			for (int b = 0; b < a; b++)
				igt_assert(pass[j].t[a] != pass[j].t[b]);
	}
	CPU_SET(1, &set);
	sched_setaffinity(0, sizeof(set), &set);
	all_pipes_off();
}

igt_main
{
	igt_fixture {
		vfq_dev_init(&dev, vfq_open_default());
		/* raw: also zpos, which igt_display_reset() leaves */
		vfq_dev_reset(&dev);
		vfq_display_init(&display, &dev);
		/* igt_display's first commit, which drops stale events */
		vfq_display_off(&display);
	}

	igt_describe("Page flips on all CRTCs at once, each at its refresh");
	igt_subtest("flips-all-crtcs") {
		all_pipes_on();
		run_all(true);
		for (int i = 0; i < dev.n_pipes; i++)
			analyze(&tracks[i], "flips", 0.25);
		all_pipes_off();
	}

	igt_describe("vblank events on all CRTCs at once, each at its refresh");
	igt_subtest("vblank-events-all-crtcs") {
		all_pipes_on();
		run_all(false);
		for (int i = 0; i < dev.n_pipes; i++)
			analyze(&tracks[i], "vblank events", 0.25);
		all_pipes_off();
	}

	igt_describe("drmWaitVBlank relative/absolute/event and the CRTC "
		     "sequence ioctls on every CRTC while all run");
	igt_subtest("wait-vblank") {
		all_pipes_on();
		for (int i = 0; i < dev.n_pipes; i++)
			wait_vblanks(i);
		all_pipes_off();
	}

	igt_describe("Each CRTC's vblank interrupt runs on the CPU of the "
		     "client that flips, wherever it moves");
	igt_subtest("vblank-irq-follows-client")
		test_irq_follows_client();

	igt_describe("vblank_align: every CRTC's vblanks on the multiples of "
		     "its frame duration, whenever its mode was set");
	igt_subtest("vblank-grid-aligned")
		check_grid(&dev, true);

	igt_describe("Aligned engines of one CPU run in one timer interrupt");
	igt_subtest("vblank-irqs-coalesced")
		test_irqs_coalesced();

	igt_describe("vblank_align off: each CRTC's grid starts at its own "
		     "mode set");
	igt_subtest("vblank-grid-unaligned") {
		static const char *const attrs[] = {
			"crtcs", "2", "vblank_align", "0", NULL
		};
		struct vfq_dev d;
		int card;

		igt_require(vfq_cfs_available());
		card = vfq_cfs_create("igt-unaligned", attrs);
		vfq_dev_init(&d, vfq_open_card(card));
		check_grid(&d, false);
		vfq_dev_fini(&d);
		vfq_cfs_cleanup();
	}

	igt_fixture {
		vfq_display_off(&display);
		igt_display_fini(&display);
		vfq_dev_fini(&dev);
	}
}
