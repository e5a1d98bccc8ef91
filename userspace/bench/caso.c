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
 * (GET_COUNTERS, crtc_id 0, cross-checked with debugfs vflipq_caso).
 *
 * CPU: the run time the guest's scheduler charged to this process
 * (CLOCK_PROCESS_CPUTIME_ID) and to the kernel's workqueue threads (every
 * kworker's /proc/<pid>/schedstat; the copy engine and the commits run
 * there), not wall time minus idle time, which anything else running in
 * the VM also moves.  Per-task run time is still guest time, though: QEMU
 * runs both vCPUs in one host thread (TCG, thread=single), so when the
 * host preempts that thread, or the other vCPU has work, a task keeps
 * being charged while it does not run.  The render step checks for that:
 * it reads its own CPU clock every CHECK_ROWS rows, and a step between two
 * reads far longer than the others of the same present is time the task
 * was charged for without copying.  When such gaps exceed STOLEN_LIMIT of
 * the render steps' charged time in a segment, the row is reported as not
 * measured honestly, with the evidence and the raw figures, instead of a
 * number: the charged time is then that much too high, and by how much
 * differs between the paths (a host scheduler preempts a busier QEMU
 * more), which subtracting the render step's share would only guess at.
 * The whole-VM busy time (wall time x CPUs minus /proc/stat idle +
 * iowait) is reported beside it as a cross-check.
 *
 *   vflipq-bench caso [--render caso-render] [--display caso-display]
 *                     [--presents 150] [--rate 30] [--reps 3]
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "bench.h"

#define W 1920
#define H 1080
#define CHAIN 3		/* swap-chain length of either path */
#define SOURCES 2	/* distinct rendered frames, alternated */
#define MAX_KWORKERS 512
/*
 * 20 rows take 60-250 us under TCG; a host preempting QEMU takes the
 * vCPU away for a scheduler slice, about 1 ms or more, and a guest
 * interrupt costs tens of us: a step longer than twice the present's
 * median step + GAP_NS is time the task did not run.
 */
#define CHECK_ROWS 20
#define CHECKS (H / CHECK_ROWS)
#define GAP_NS 250000
/*
 * Share of the render steps' charged time that may be such gaps: below
 * it, either path's charged time is at most about 10% too high, which
 * moves a ratio near 0.5 by 0.05 at most, half of what comparisons
 * between runs allow (0.1).
 */
#define STOLEN_LIMIT 0.1

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
	uint64_t *steps;		/* this segment's render CPU steps */
	FILE *render_log;		/* the render steps, for the record */
	int segment;
};

/* Run time of every kworker thread, so that exits and new ones show. */
struct kworkers {
	int n;
	int pid[MAX_KWORKERS];
	uint64_t run_ns[MAX_KWORKERS];
};

struct caso_sample {
	uint64_t t_ns;			/* CLOCK_MONOTONIC */
	double idle_ms;			/* /proc/stat idle + iowait, all CPUs */
	uint64_t proc_ns;		/* this process's run time */
	struct kworkers kw;
	struct drm_vflipq_get_counters ctr;
	long long dbg_bytes;		/* debugfs bytes_copied, -1 if none */
};

struct caso_run {
	double bytes_per_frame, cpu_ms, proc_ms, kworker_ms, vm_ms, render_ms;
	uint64_t copies, bytes_copied, imported_scanouts;
	uint64_t render_ns, stolen_ns;	/* the render steps' CPU time, gaps */
	double stolen;			/* stolen_ns / render_ns */
	int late, kworkers_lost;
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
 * /proc/stat, all CPUs: idle + iowait in ms, measured exactly by the nohz
 * idle code (whatever wakes the CPU, interrupts included, ends it).
 */
static double proc_stat_idle_ms(void)
{
	unsigned long long v[5] = { 0 };
	FILE *f = fopen("/proc/stat", "r");

	if (!f || fscanf(f, "cpu %llu %llu %llu %llu %llu", &v[0], &v[1],
			 &v[2], &v[3], &v[4]) != 5)
		die("caso: cannot read /proc/stat");
	fclose(f);
	return (double)(v[3] + v[4]) * 1000.0 / sysconf(_SC_CLK_TCK);
}

/* VM CPU time (ms) from @t0 to now: every CPU's time minus its idle time. */
static double vm_busy_ms(uint64_t t0_ns, double idle0_ms, uint64_t t1_ns,
			 double idle1_ms)
{
	return (double)(t1_ns - t0_ns) / 1e6 * sysconf(_SC_NPROCESSORS_ONLN) -
	       (idle1_ms - idle0_ms);
}

static uint64_t cpu_clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* Copy 1: the renderer writes the frame; its CPU clock at every step. */
static void render(struct render_buf *dst, const struct render_buf *src,
		   uint64_t *steps)
{
	uint64_t t = cpu_clock_ns(CLOCK_THREAD_CPUTIME_ID), u;

	for (uint32_t y = 0; y < H; y++) {
		memcpy(dst->map + (size_t)y * dst->pitch,
		       src->map + (size_t)y * src->pitch, (size_t)W * 4);
		if ((y + 1) % CHECK_ROWS)
			continue;
		u = cpu_clock_ns(CLOCK_THREAD_CPUTIME_ID);
		steps[y / CHECK_ROWS] = u - t;
		t = u;
	}
}

/* Charged time of one render step's gaps (see GAP_NS); @all: the total. */
static uint64_t stolen_ns(const uint64_t *steps, uint64_t *all)
{
	double v[CHECKS], typical;
	uint64_t gaps = 0;

	*all = 0;
	for (int i = 0; i < CHECKS; i++) {
		v[i] = (double)steps[i];
		*all += steps[i];
	}
	typical = median(v, CHECKS);
	for (int i = 0; i < CHECKS; i++)
		if (steps[i] > 2 * typical + GAP_NS)
			gaps += steps[i] - (uint64_t)typical;
	return gaps;
}

/* The first line of /proc/<pid>/@file into @buf; false if gone. */
static bool read_proc(int pid, const char *file, char *buf, int len)
{
	char path[64];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "/proc/%d/%s", pid, file);
	f = fopen(path, "r");
	if (!f)
		return false;
	ok = fgets(buf, len, f) != NULL;
	fclose(f);
	return ok;
}

/*
 * The copy engine's work items run on an unbound workqueue, so any worker
 * of the unbound pool may run them, and the same workers run the commits:
 * all kworkers are summed, the one-copy path's share being its commits.
 */
static void kworkers_read(struct kworkers *k)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	char buf[128];

	if (!d)
		die("caso: cannot list /proc");
	k->n = 0;
	while ((e = readdir(d))) {
		int pid = atoi(e->d_name);
		unsigned long long run;

		if (pid <= 0 || !read_proc(pid, "comm", buf, sizeof(buf)) ||
		    strncmp(buf, "kworker/", 8) ||
		    !read_proc(pid, "schedstat", buf, sizeof(buf)) ||
		    sscanf(buf, "%llu", &run) != 1)
			continue;
		if (k->n == MAX_KWORKERS)
			die("caso: more than %d kworkers", MAX_KWORKERS);
		k->pid[k->n] = pid;
		k->run_ns[k->n++] = run;
	}
	closedir(d);
}

/* Run time of the kworkers from @a to @b; @lost: exited in between. */
static uint64_t kworkers_delta(const struct kworkers *a,
			       const struct kworkers *b, int *lost)
{
	uint64_t sum = 0;
	int found = 0;

	for (int i = 0; i < b->n; i++) {
		uint64_t before = 0;

		for (int j = 0; j < a->n; j++)
			if (a->pid[j] == b->pid[i]) {
				before = a->run_ns[j];
				found++;
				break;
			}
		sum += b->run_ns[i] - before;
	}
	*lost = a->n - found;
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

/*
 * Reading every kworker costs this process CPU time: it happens outside
 * the window that this process's own run time covers.
 */
static void sample(struct caso_ctx *c, struct caso_sample *s, bool end)
{
	memset(s, 0, sizeof(*s));
	if (end)
		s->proc_ns = cpu_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	s->t_ns = now_ns();
	s->idle_ms = proc_stat_idle_ms();
	if (drmIoctl(c->disp.fd, DRM_IOCTL_VFLIPQ_GET_COUNTERS, &s->ctr))
		die("caso: GET_COUNTERS: %s", strerror(errno));
	s->dbg_bytes = debugfs_bytes_copied(c->disp.card);
	kworkers_read(&s->kw);
	if (!end)
		s->proc_ns = cpu_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
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
	static struct caso_sample a, b;	/* big: the kworker tables */
	uint64_t rendered = 0, next;
	struct timespec ts;

	memset(out, 0, sizeof(*out));
	/* Start from a path-neutral screen: the last buffer of this path. */
	flip(c, two_copy ? &c->local[CHAIN - 1] : &c->xfb[CHAIN - 1]);
	sample(c, &a, false);
	next = now_ns() + period_ns;
	for (int i = 0; i < n; i++) {
		int k = i % CHAIN;

		ts.tv_sec = next / 1000000000ull;
		ts.tv_nsec = next % 1000000000ull;
		if (now_ns() > next)
			out->late++;
		else
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME,
					       &ts, NULL) == EINTR)
				;
		next += period_ns;

		render(&c->xbuf[k], &c->src[i % SOURCES],
		       c->steps + (size_t)i * CHECKS);
		rendered += (uint64_t)W * H * 4;
		if (two_copy) {
			copy_to_local(c, k);
			flip(c, &c->local[k]);
		} else {
			flip(c, &c->xfb[k]);
		}
	}
	sample(c, &b, true);
	out->copies = b.ctr.copies - a.ctr.copies;
	out->bytes_copied = b.ctr.bytes_copied - a.ctr.bytes_copied;
	out->imported_scanouts = b.ctr.imported_scanouts -
				 a.ctr.imported_scanouts;
	if (a.dbg_bytes >= 0 && b.dbg_bytes >= 0 &&
	    (uint64_t)(b.dbg_bytes - a.dbg_bytes) != out->bytes_copied)
		die("caso: debugfs bytes_copied moved by %lld, the ioctl by %llu",
		    b.dbg_bytes - a.dbg_bytes,
		    (unsigned long long)out->bytes_copied);
	for (int i = 0; i < n; i++) {
		uint64_t all, gaps = stolen_ns(c->steps + (size_t)i * CHECKS,
					       &all);

		out->render_ns += all;
		out->stolen_ns += gaps;
		fprintf(c->render_log, "%d %s %d %llu %llu\n", c->segment,
			two_copy ? "two-copy" : "one-copy", i,
			(unsigned long long)all, (unsigned long long)gaps);
	}
	out->stolen = (double)out->stolen_ns / out->render_ns;
	out->render_ms = out->render_ns / 1e6 / n;
	c->segment++;
	out->bytes_per_frame = (double)(rendered + out->bytes_copied) / n;
	out->proc_ms = (double)(b.proc_ns - a.proc_ns) / 1e6 / n;
	out->kworker_ms = (double)kworkers_delta(&a.kw, &b.kw,
						 &out->kworkers_lost) / 1e6 / n;
	out->cpu_ms = out->proc_ms + out->kworker_ms;
	out->vm_ms = vm_busy_ms(a.t_ns, a.idle_ms, b.t_ns, b.idle_ms) / n;
	note("caso %s: %d presents: %.0f bytes/frame (%.3f frames), "
	     "copies %llu, imported scan-outs %llu, CPU %.2f ms/present "
	     "(process %.2f, kworkers %.2f, %d of them exited; whole VM "
	     "%.2f), render step %.2f ms, %.1f%% of it gaps, %d late",
	     two_copy ? "two-copy" : "one-copy", n, out->bytes_per_frame,
	     out->bytes_per_frame / c->frame_bytes,
	     (unsigned long long)out->copies,
	     (unsigned long long)out->imported_scanouts, out->cpu_ms,
	     out->proc_ms, out->kworker_ms, out->kworkers_lost, out->vm_ms,
	     out->render_ns / 1e6 / n, 100 * out->stolen, out->late);
}

/* VM busy time per present slot with the CRTC lit and nothing presented. */
static double idle_ms_per_slot(int n, uint64_t period_ns)
{
	double idle0, idle1;
	uint64_t t0, t1;

	t0 = now_ns();
	idle0 = proc_stat_idle_ms();
	sleep_ns(n * period_ns);
	t1 = now_ns();
	idle1 = proc_stat_idle_ms();
	return vm_busy_ms(t0, idle0, t1, idle1) / n;
}

static double run_median(const struct caso_run *r, int reps, size_t field)
{
	double v[16];

	for (int i = 0; i < reps; i++)
		v[i] = *(const double *)((const char *)&r[i] + field);
	return median(v, reps);
}

static double run_max(const struct caso_run *r, int reps, size_t field)
{
	double m = 0;

	for (int i = 0; i < reps; i++) {
		double v = *(const double *)((const char *)&r[i] + field);

		m = v > m ? v : m;
	}
	return m;
}

/*
 * One path's CPU row: its per-rep figures, or, when the vCPU was held up,
 * no number and why, with the raw figures as details.
 */
static void emit_cpu(const char *driver, const struct caso_run *r, int reps,
		     const char *skipped, const char *more)
{
	double cpu[16];
	char extra[1024];
	int lost = 0;

	for (int i = 0; i < reps; i++) {
		cpu[i] = r[i].cpu_ms;
		lost += r[i].kworkers_lost;
	}
	snprintf(extra, sizeof(extra),
		 "%s%s%s\"cpu_ms_median\": %.3f, "
		 "\"process_ms_median\": %.3f, \"kworker_ms_median\": %.3f, "
		 "\"kworkers_exited\": %d, \"whole_vm_ms_median\": %.3f, "
		 "\"render_ms_median\": %.3f, \"stolen_median\": %.4f, "
		 "\"stolen_max\": %.4f",
		 skipped ? "\"skipped\": \"" : "", skipped ? skipped : "",
		 skipped ? "\", " : "",
		 median(cpu, reps),
		 run_median(r, reps, offsetof(struct caso_run, proc_ms)),
		 run_median(r, reps, offsetof(struct caso_run, kworker_ms)),
		 lost, run_median(r, reps, offsetof(struct caso_run, vm_ms)),
		 run_median(r, reps, offsetof(struct caso_run, render_ms)),
		 run_median(r, reps, offsetof(struct caso_run, stolen)),
		 run_max(r, reps, offsetof(struct caso_run, stolen)));
	if (more) {
		strncat(extra, ", ", sizeof(extra) - strlen(extra) - 1);
		strncat(extra, more, sizeof(extra) - strlen(extra) - 1);
	}
	emit("caso_cpu_per_present_one_vs_two_copy", driver, "ms", "lower",
	     cpu, skipped ? 0 : reps, extra);
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
	double one_b[16], two_b[16];
	struct caso_run one[16], two[16];
	int n = 150, reps = 3, late = 0, ch;
	double rate = 30, idle, frame, stolen = 0;
	char skipped[160], more[512];
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
	c.steps = calloc((size_t)n * CHECKS, sizeof(*c.steps));
	if (!c.steps)
		die("caso: out of memory");
	c.render_log = data_file("caso-render.txt");
	fprintf(c.render_log,
		"# segment path present render_cpu_ns gaps_ns\n");
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
		/* Alternate the order so that drift favours neither path. */
		if (rep & 1) {
			run_path(&c, true, n, period, &two[rep]);
			run_path(&c, false, n, period, &one[rep]);
		} else {
			run_path(&c, false, n, period, &one[rep]);
			run_path(&c, true, n, period, &two[rep]);
		}
		one_b[rep] = one[rep].bytes_per_frame;
		two_b[rep] = two[rep].bytes_per_frame;
		late += one[rep].late + two[rep].late;
		stolen = one[rep].stolen > stolen ? one[rep].stolen : stolen;
		stolen = two[rep].stolen > stolen ? two[rep].stolen : stolen;
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
	snprintf(skipped, sizeof(skipped),
		 "not measured honestly: vCPU contention (%.0f%% of the render "
		 "step's CPU time was gaps, limit %.0f%%)",
		 100 * stolen, 100 * STOLEN_LIMIT);
	snprintf(more, sizeof(more),
		 "\"rate_hz\": %g, \"presents_per_run\": %d, "
		 "\"late_presents\": %d, \"idle_vm_ms_per_slot\": %.3f, "
		 "\"stolen_limit\": %.2f",
		 rate, n, late, idle, STOLEN_LIMIT);
	emit_cpu("vflipq", one, reps, stolen > STOLEN_LIMIT ? skipped : NULL,
		 more);
	emit_cpu("vflipq two-copy path (same run)", two, reps,
		 stolen > STOLEN_LIMIT ? skipped : NULL, NULL);

	for (int i = 0; i < CHAIN; i++) {
		drmModeRmFB(c.disp.fd, c.xfb[i].fb_id);
		bench_fb_destroy(c.disp.fd, &c.local[i]);
	}
	bench_close(&c.disp);
	close(c.rfd);
	fclose(c.render_log);
	free(c.steps);
	return 0;
}
