// SPDX-License-Identifier: MIT
/*
 * Cross-adapter scan-out (CASO): bytes copied and CPU time per presented
 * 1920x1080 ARGB8888 frame, one-copy against two-copy, side by side in one
 * run on one hybrid pair: a render-only vflipq device (crtcs 0) and a
 * tier-3 display device, both created through configfs by the caller.
 *
 * Every present "renders" by copying a prepared frame from a render
 * buffer of the render device into a cross-adapter buffer (a dumb buffer
 * of the render device, exported through PRIME and imported by the
 * display): that is copy 1, done by the CPU, as a renderer without a GPU
 * would.  Then:
 *   one-copy: the imported framebuffer is flipped onto the primary plane;
 *   two-copy: DRM_IOCTL_VFLIPQ_COPY copies it into a display-local buffer
 *             (the copy engine runs in the display device's worker), and
 *             that buffer is flipped; the commit waits for the copy's fence.
 * Each present waits for its flip event; presents are paced at --rate per
 * second, so both paths do the same number of presents in the same time.
 *
 * Bytes: the render step's bytes plus the display device's bytes_copied
 * (GET_COUNTERS, crtc_id 0, cross-checked with debugfs vflipq_caso).  CPU:
 * busy time of the whole VM, so the copy engine's kernel worker counts:
 * the CPUs' time (wall time x CPUs) minus their idle and iowait time from
 * /proc/stat, which the nohz idle code measures exactly (its user and
 * system fields are only tick samples, 4 ms each, reported beside it with
 * the scheduler's task run time from /proc/schedstat and the process's
 * own rusage).
 *
 *   vflipq-bench caso [--render caso-render] [--display caso-display]
 *                     [--presents 150] [--rate 30] [--reps 3]
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "bench.h"

#define W 1920
#define H 1080
#define CHAIN 3		/* swap-chain length of either path */
#define SOURCES 2	/* distinct rendered frames, alternated */

struct render_buf {
	uint32_t handle, pitch;
	uint64_t size;
	uint8_t *map;
};

struct caso_ctx {
	int rfd;			/* render-only device */
	struct bench_dev disp;		/* tier-3 display device */
	struct render_buf src[SOURCES];	/* the renderer's own buffers */
	struct render_buf xbuf[CHAIN];	/* cross-adapter buffers */
	struct bench_fb xfb[CHAIN];	/* their framebuffers on the display */
	struct bench_fb local[CHAIN];	/* display-local buffers (two-copy) */
	uint64_t frame_bytes;		/* W * H * 4 */
};

struct caso_sample {
	uint64_t t_ns;			/* CLOCK_MONOTONIC */
	double idle_ms, tick_busy_ms;	/* /proc/stat, all CPUs */
	uint64_t sched_ns;		/* /proc/schedstat task run time */
	uint64_t proc_ns;		/* this process, user + system */
	struct drm_vflipq_get_counters ctr;
	long long dbg_bytes;		/* debugfs bytes_copied, -1 if none */
};

struct caso_run {
	double bytes_per_frame, cpu_ms, tick_ms, proc_ms, sched_ms;
	uint64_t copies, bytes_copied, imported_scanouts;
	int late;
};

static int open_render(const char *name)
{
	struct drm_vflipq_get_caps caps;
	int card, fd = bench_open_card("vflipq", name, &caps, &card);

	if (fd < 0)
		die("caso: no vflipq device named %s", name);
	if (!(caps.caps & VFLIPQ_CAP_RENDER_ONLY))
		die("caso: %s is not a render-only device", name);
	return fd;
}

static void render_buf_create(int fd, struct render_buf *b)
{
	if (drmModeCreateDumbBuffer(fd, W, H, 32, 0, &b->handle, &b->pitch,
				    &b->size))
		die("caso: render CREATE_DUMB: %s", strerror(errno));
	b->map = bench_map_dumb(fd, b->handle, b->size);
}

/* Premultiplied ARGB8888 bands that differ per @seed. */
static void render_fill(struct render_buf *b, unsigned int seed)
{
	for (uint32_t y = 0; y < H; y++) {
		uint32_t *row = (uint32_t *)(b->map + (size_t)y * b->pitch);

		for (uint32_t x = 0; x < W; x++)
			row[x] = 0xff000000u | ((x + seed * 97) & 0xff) << 16 |
				 ((y + seed * 31) & 0xff) << 8 |
				 (((x ^ y) + seed) & 0xff);
	}
}

/* Export from the render device, import into the display, ADDFB2 there. */
static void share(struct caso_ctx *c, int i)
{
	uint32_t handles[4] = { 0 }, pitches[4] = { 0 }, offsets[4] = { 0 };
	struct bench_fb *fb = &c->xfb[i];
	int dmabuf;

	render_buf_create(c->rfd, &c->xbuf[i]);
	if (drmPrimeHandleToFD(c->rfd, c->xbuf[i].handle, DRM_CLOEXEC | DRM_RDWR,
			       &dmabuf))
		die("caso: PRIME export: %s", strerror(errno));
	memset(fb, 0, sizeof(*fb));
	if (drmPrimeFDToHandle(c->disp.fd, dmabuf, &fb->handle))
		die("caso: PRIME import: %s", strerror(errno));
	close(dmabuf);
	handles[0] = fb->handle;
	pitches[0] = c->xbuf[i].pitch;
	if (drmModeAddFB2(c->disp.fd, W, H, DRM_FORMAT_ARGB8888, handles,
			  pitches, offsets, &fb->fb_id, 0))
		die("caso: ADDFB2 of the cross-adapter buffer: %s",
		    strerror(errno));
	fb->width = W;
	fb->height = H;
	fb->pitch = pitches[0];
	fb->format = DRM_FORMAT_ARGB8888;
	fb->cpp = 4;
}

/*
 * /proc/stat, all CPUs, in ms: idle + iowait (measured exactly by the
 * nohz idle code, whatever wakes the CPU, interrupts included, ends it)
 * and the tick-sampled busy fields (user nice system irq softirq).
 */
static void proc_stat(double *idle_ms, double *busy_ms)
{
	unsigned long long v[8] = { 0 };
	double tick = 1000.0 / sysconf(_SC_CLK_TCK);
	FILE *f = fopen("/proc/stat", "r");

	if (!f || fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu",
			 &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
			 &v[7]) != 8)
		die("caso: cannot read /proc/stat");
	fclose(f);
	*idle_ms = (double)(v[3] + v[4]) * tick;
	*busy_ms = (double)(v[0] + v[1] + v[2] + v[5] + v[6]) * tick;
}

/* VM CPU time (ms) from @t0 to now: every CPU's time minus its idle time. */
static double vm_busy_ms(uint64_t t0_ns, double idle0_ms, uint64_t t1_ns,
			 double idle1_ms)
{
	return (double)(t1_ns - t0_ns) / 1e6 * sysconf(_SC_NPROCESSORS_ONLN) -
	       (idle1_ms - idle0_ms);
}

/* Sum of the CPUs' task run time (rq_cpu_time, ns); 0 if unavailable. */
static uint64_t schedstat_run_ns(void)
{
	char line[512];
	uint64_t sum = 0;
	FILE *f = fopen("/proc/schedstat", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v[7];

		if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9')
			continue;
		if (sscanf(line, "%*s %llu %llu %llu %llu %llu %llu %llu", &v[0],
			   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]) == 7)
			sum += v[6];
	}
	fclose(f);
	return sum;
}

static long long debugfs_bytes_copied(int card)
{
	char path[96], line[128];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/dri/%d/vflipq_caso",
		 card);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "bytes_copied=", 13))
			v = atoll(line + 13);
	fclose(f);
	return v;
}

static void sample(struct caso_ctx *c, struct caso_sample *s)
{
	struct rusage ru;

	memset(s, 0, sizeof(*s));
	if (drmIoctl(c->disp.fd, DRM_IOCTL_VFLIPQ_GET_COUNTERS, &s->ctr))
		die("caso: GET_COUNTERS: %s", strerror(errno));
	s->dbg_bytes = debugfs_bytes_copied(c->disp.card);
	getrusage(RUSAGE_SELF, &ru);
	s->proc_ns = (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) *
		     1000000000ull +
		     (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000;
	s->sched_ns = schedstat_run_ns();
	s->t_ns = now_ns();
	proc_stat(&s->idle_ms, &s->tick_busy_ms);
}

static void flip(struct caso_ctx *c, const struct bench_fb *fb)
{
	struct bench_pipe *p = &c->disp.pipe[0];
	struct bench_events ev = { 0 };
	struct bench_req r;
	int ret;

	req_init(&r);
	req_add(&r, c->disp.fd, p->primary, DRM_MODE_OBJECT_PLANE, "FB_ID",
		fb->fb_id);
	ret = req_commit(c->disp.fd, &r, DRM_MODE_ATOMIC_NONBLOCK |
			 DRM_MODE_PAGE_FLIP_EVENT, NULL);
	if (ret)
		die("caso: flip: %s", strerror(-ret));
	while (!ev.flips)
		if (!bench_read_events(c->disp.fd, 3000, &ev))
			die("caso: flip event missing");
}

static void copy_to_local(struct caso_ctx *c, int k)
{
	struct drm_vflipq_copy cp;

	memset(&cp, 0, sizeof(cp));
	cp.src_fb = c->xfb[k].fb_id;
	cp.dst_fb = c->local[k].fb_id;
	cp.src_rect = (struct drm_vflipq_rect){ 0, 0, W, H };
	cp.dst_rect = cp.src_rect;
	if (drmIoctl(c->disp.fd, DRM_IOCTL_VFLIPQ_COPY, &cp))
		die("caso: COPY: %s", strerror(errno));
	/* The commit waits for the copy through the destination's fences. */
	close(cp.out_fence_fd);
}

/* @n presents on one path, paced every @period_ns; the counters' deltas. */
static void run_path(struct caso_ctx *c, bool two_copy, int n,
		     uint64_t period_ns, struct caso_run *out)
{
	uint64_t rendered = 0, next;
	struct caso_sample a, b;
	struct timespec ts;
	int late = 0;

	/* Start from a path-neutral screen: the last buffer of this path. */
	flip(c, two_copy ? &c->local[CHAIN - 1] : &c->xfb[CHAIN - 1]);
	sample(c, &a);
	next = now_ns() + period_ns;
	for (int i = 0; i < n; i++) {
		int k = i % CHAIN;

		ts.tv_sec = next / 1000000000ull;
		ts.tv_nsec = next % 1000000000ull;
		if (now_ns() > next)
			late++;
		else
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME,
					       &ts, NULL) == EINTR)
				;
		next += period_ns;

		/* Copy 1: the renderer writes the frame into the shared buffer. */
		for (uint32_t y = 0; y < H; y++)
			memcpy(c->xbuf[k].map + (size_t)y * c->xbuf[k].pitch,
			       c->src[i % SOURCES].map +
			       (size_t)y * c->src[i % SOURCES].pitch,
			       (size_t)W * 4);
		rendered += (uint64_t)W * H * 4;
		if (two_copy) {
			copy_to_local(c, k);
			flip(c, &c->local[k]);
		} else {
			flip(c, &c->xfb[k]);
		}
	}
	sample(c, &b);
	out->copies = b.ctr.copies - a.ctr.copies;
	out->bytes_copied = b.ctr.bytes_copied - a.ctr.bytes_copied;
	out->imported_scanouts = b.ctr.imported_scanouts -
				 a.ctr.imported_scanouts;
	if (a.dbg_bytes >= 0 && b.dbg_bytes >= 0 &&
	    (uint64_t)(b.dbg_bytes - a.dbg_bytes) != out->bytes_copied)
		die("caso: debugfs bytes_copied moved by %lld, the ioctl by %llu",
		    b.dbg_bytes - a.dbg_bytes,
		    (unsigned long long)out->bytes_copied);
	out->bytes_per_frame = (double)(rendered + out->bytes_copied) / n;
	out->cpu_ms = vm_busy_ms(a.t_ns, a.idle_ms, b.t_ns, b.idle_ms) / n;
	out->tick_ms = (b.tick_busy_ms - a.tick_busy_ms) / n;
	out->proc_ms = (double)(b.proc_ns - a.proc_ns) / 1e6 / n;
	out->sched_ms = (double)(b.sched_ns - a.sched_ns) / 1e6 / n;
	out->late = late;
	note("caso %s: %d presents: %.0f bytes/frame (%.3f frames), "
	     "copies %llu, imported scan-outs %llu, VM CPU %.2f ms/present "
	     "(tick samples %.2f, task run time %.2f, process %.2f), %d late",
	     two_copy ? "two-copy" : "one-copy", n, out->bytes_per_frame,
	     out->bytes_per_frame / c->frame_bytes,
	     (unsigned long long)out->copies,
	     (unsigned long long)out->imported_scanouts, out->cpu_ms,
	     out->tick_ms, out->sched_ms, out->proc_ms, late);
}

/* VM busy time per present slot with the CRTC lit and nothing presented. */
static double idle_ms_per_slot(int n, uint64_t period_ns)
{
	double idle0, idle1, busy;
	uint64_t t0, t1;

	t0 = now_ns();
	proc_stat(&idle0, &busy);
	sleep_ns(n * period_ns);
	t1 = now_ns();
	proc_stat(&idle1, &busy);
	return vm_busy_ms(t0, idle0, t1, idle1) / n;
}

int bench_caso(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "render", required_argument, NULL, 'R' },
		{ "display", required_argument, NULL, 'D' },
		{ "presents", required_argument, NULL, 'n' },
		{ "rate", required_argument, NULL, 'f' },
		{ "reps", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	const char *rname = "caso-render", *dname = "caso-display";
	double one_b[16], two_b[16], one_cpu[16], two_cpu[16];
	double one_proc[16], two_proc[16], one_sched[16], two_sched[16];
	double one_tick[16], two_tick[16];
	int n = 150, reps = 3, late = 0, ch;
	double rate = 30, idle, frame;
	struct caso_ctx c;
	drmModeModeInfo mode;
	uint64_t period;
	char extra[1024];

	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (ch) {
		case 'R': rname = optarg; break;
		case 'D': dname = optarg; break;
		case 'n': n = atoi(optarg); break;
		case 'f': rate = atof(optarg); break;
		case 'r': reps = atoi(optarg); break;
		default: return 2;
		}
	}
	if (reps < 1 || reps > 16 || n < CHAIN || rate < 1 || rate > 60)
		die("caso: --reps 1-16, --presents >= %d, --rate 1-60", CHAIN);
	period = (uint64_t)(1e9 / rate);

	memset(&c, 0, sizeof(c));
	c.frame_bytes = (uint64_t)W * H * 4;
	frame = (double)c.frame_bytes;
	c.rfd = open_render(rname);
	if (bench_open(&c.disp, "vflipq", dname))
		die("caso: no vflipq display device named %s", dname);
	if (c.disp.caps.caso_tier != VFLIPQ_CASO_TIER_SCANOUT)
		die("caso: %s is tier %u, the one-copy path needs tier 3",
		    dname, c.disp.caps.caso_tier);
	for (int i = 0; i < SOURCES; i++) {
		render_buf_create(c.rfd, &c.src[i]);
		render_fill(&c.src[i], i + 1);
	}
	for (int i = 0; i < CHAIN; i++) {
		share(&c, i);
		bench_fb_create(c.disp.fd, W, H, DRM_FORMAT_ARGB8888,
				&c.local[i]);
	}
	bench_mode_1080p(&mode, 60);
	bench_reset(&c.disp);
	bench_pipe_on(&c.disp, 0, &mode, &c.local[0]);

	idle = idle_ms_per_slot(n < 90 ? n : 90, period);
	for (int rep = 0; rep < reps; rep++) {
		struct caso_run one, two;

		/* Alternate the order so that drift favours neither path. */
		if (rep & 1) {
			run_path(&c, true, n, period, &two);
			run_path(&c, false, n, period, &one);
		} else {
			run_path(&c, false, n, period, &one);
			run_path(&c, true, n, period, &two);
		}
		one_b[rep] = one.bytes_per_frame;
		two_b[rep] = two.bytes_per_frame;
		one_cpu[rep] = one.cpu_ms;
		two_cpu[rep] = two.cpu_ms;
		one_proc[rep] = one.proc_ms;
		two_proc[rep] = two.proc_ms;
		one_sched[rep] = one.sched_ms;
		two_sched[rep] = two.sched_ms;
		one_tick[rep] = one.tick_ms;
		two_tick[rep] = two.tick_ms;
		late += one.late + two.late;
	}
	bench_reset(&c.disp);

	snprintf(extra, sizeof(extra),
		 "\"frame_bytes\": %.0f, \"frames_one_copy\": %.4f, "
		 "\"frames_two_copy\": %.4f, \"presents_per_run\": %d",
		 frame, median(one_b, reps) / frame, median(two_b, reps) / frame,
		 n);
	emit("caso_bytes_per_frame_one_copy", "vflipq", "bytes", "lower",
	     one_b, reps, extra);
	emit("caso_bytes_per_frame_one_copy", "vflipq two-copy path (same run)",
	     "bytes", "lower", two_b, reps, NULL);
	emit("caso_bytes_per_frame_two_copy", "vflipq", "bytes", "lower",
	     two_b, reps, extra);
	emit("caso_bytes_per_frame_two_copy", "one 1920x1080 ARGB8888 frame",
	     "bytes", "lower", &frame, 1, NULL);
	snprintf(extra, sizeof(extra),
		 "\"rate_hz\": %g, \"presents_per_run\": %d, "
		 "\"late_presents\": %d, \"idle_vm_ms_per_slot\": %.3f, "
		 "\"process_ms_median\": %.3f, \"task_run_ms_median\": %.3f, "
		 "\"tick_sampled_ms_median\": %.3f",
		 rate, n, late, idle, median(one_proc, reps),
		 median(one_sched, reps), median(one_tick, reps));
	emit("caso_cpu_per_present_one_vs_two_copy", "vflipq", "ms", "lower",
	     one_cpu, reps, extra);
	snprintf(extra, sizeof(extra),
		 "\"process_ms_median\": %.3f, \"task_run_ms_median\": %.3f, "
		 "\"tick_sampled_ms_median\": %.3f",
		 median(two_proc, reps), median(two_sched, reps),
		 median(two_tick, reps));
	emit("caso_cpu_per_present_one_vs_two_copy",
	     "vflipq two-copy path (same run)", "ms", "lower", two_cpu, reps,
	     extra);

	for (int i = 0; i < CHAIN; i++) {
		drmModeRmFB(c.disp.fd, c.xfb[i].fb_id);
		bench_fb_destroy(c.disp.fd, &c.local[i]);
	}
	bench_close(&c.disp);
	close(c.rfd);
	return 0;
}
