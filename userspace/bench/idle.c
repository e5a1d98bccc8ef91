// SPDX-License-Identifier: MIT
/*
 * The cost of outputs nobody composes: guest CPU busy time per second with
 * N CRTCs lit at 1920x1080@60, each showing queued flips one frame apart
 * (vflipq's flip queue kept 2 batches deep, the interrupt target at a
 * batch's last PresentId), CRC capture and writeback off.  N grows from 0
 * (the VM's own floor) through 1, 2, 4, ... to every CRTC of the devices
 * named (make bench: 8 configfs devices of 4 CRTCs).  Busy time is that of
 * the whole VM (wall time x CPUs minus the idle + iowait time of
 * /proc/stat, which nohz measures exactly), so the display engine's timer
 * interrupts, the flip-queue worker and this process all count, and it is
 * given in % of one vCPU.  Each step is measured once the DRM vblank
 * interrupt of the CRTCs just lit went off (warmup_ns()).  The steps fit a
 * line (busy against N): its slope is the cost of one more lit CRTC.
 *
 * The baseline (--driver vkms) is vkms's one CRTC lit with the classic
 * page-flip loop (a nonblocking flip per frame, each waiting for its
 * event): a lit output that shows a new frame every vblank there.
 *
 *   vflipq-bench idle --names a,b,... [--seconds 3] [--reps 3] [--batch 4]
 *                     [--steps 0,32] [--label TEXT]
 *                     [--single-submits | --irq-ioctl | --one-wake]
 *
 * Each batch goes in one FLIPQ_SUBMIT, which also sets the next interrupt
 * target (VFLIPQ_SUBMIT_IRQ_TARGET).  --irq-ioctl: the target in a
 * FLIPQ_SUBMIT of its own after the batch (no flips, only the flag): two
 * ioctls a batch, as uAPI 1.4 needed; --single-submits: batches of one
 * flip, a FLIPQ_SUBMIT per flip and then one for the target, as 1.3
 * needed.
 * --one-wake: one client for every output wakes once per batch, on the
 * interrupt of the first lit CRTC only, and tops every queue up to the
 * flips due 2 x batch - 2 periods from now (a flip's target time says when
 * it is shown: no query of the queues); the same flips, without a wake-up
 * per CRTC.
 * --label: the run is another vflipq configuration to compare with (make
 * bench: devices with vblank_align off), reported under TEXT instead of
 * "vflipq", as the all-outputs row only (its baseline).
 *   vflipq-bench idle --driver vkms [--seconds 3] [--reps 3]
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "bench.h"

#define MAX_DEVS 16
#define MAX_OUT (MAX_DEVS * MAX_PIPES)
/* Flips per batch by default; two batches stay queued. */
#define BATCH 4
/* Settling time beyond the DRM vblank off delay. */
#define SETTLE_NS 500000000ull

struct out {
	struct bench_dev *dev;
	int pipe;
	uint32_t crtc, plane;
	struct bench_fb fbs[2];
	bool lit, has_log;
	uint64_t next_id;	/* the next PresentId to submit */
	uint64_t irq;		/* the interrupt target asked for */
	uint64_t target;	/* target time of the next flip */
	struct drm_vflipq_get_counters c0;
};

struct idle {
	struct bench_dev devs[MAX_DEVS];
	int ndevs;
	struct out outs[MAX_OUT];
	int nouts;
	drmModeModeInfo mode;
	uint64_t period;
	bool vkms;
	int batch;		/* flips per batch */
	bool single;		/* one FLIPQ_SUBMIT per flip (batches of one) */
	bool irq_ioctl;		/* the interrupt target in a call of its own */
	bool one_wake;		/* one interrupt, on @master, for all outputs */
	struct out *master;
	long resyncs;		/* flips whose target had already passed */
};

/*
 * A commit holds a vblank reference while it waits for its vblank, and the
 * DRM core keeps the vblank interrupt on for drm.vblankoffdelay ms after
 * the last reference: a CRTC just lit reports vblanks nobody asked for
 * until then.  Warming up past it measures the steady state.
 */
static uint64_t warmup_ns(void)
{
	FILE *f = fopen("/sys/module/drm/parameters/vblankoffdelay", "r");
	int ms = 5000;

	if (f) {
		if (fscanf(f, "%d", &ms) != 1)
			ms = 5000;
		fclose(f);
	}
	if (ms < 0)
		note("idle: drm.vblankoffdelay < 0: vblank interrupts stay on");
	return (ms > 0 ? (uint64_t)ms * 1000000ull : 0) + SETTLE_NS;
}

/*
 * Whole-VM idle + iowait time (ms, all CPUs), the number of CPUs and the
 * context switches so far (a count the host's load does not stretch).
 */
static double vm_idle_ms(int *ncpu, uint64_t *ctxt)
{
	double tick = 1000.0 / sysconf(_SC_CLK_TCK), idle = 0;
	unsigned long long v[8];
	char line[512];
	FILE *f = fopen("/proc/stat", "r");

	*ncpu = 0;
	if (!f)
		die("idle: cannot read /proc/stat");
	while (fgets(line, sizeof(line), f)) {
		unsigned long long n;

		if (sscanf(line, "ctxt %llu", &n) == 1)
			*ctxt = n;
		if (strncmp(line, "cpu", 3) || line[3] == ' ')
			continue;
		if (sscanf(line + 3, "%*u %llu %llu %llu %llu %llu", &v[0],
			   &v[1], &v[2], &v[3], &v[4]) != 5)
			die("idle: /proc/stat: %s", line);
		idle += (double)(v[3] + v[4]) * tick;
		(*ncpu)++;
	}
	fclose(f);
	return idle;
}

/* This process's run time (ns), from the scheduler. */
static uint64_t self_run_ns(void)
{
	unsigned long long run = 0;
	FILE *f = fopen("/proc/self/schedstat", "r");

	if (!f || fscanf(f, "%llu", &run) != 1)
		die("idle: cannot read /proc/self/schedstat");
	fclose(f);
	return run;
}

/* Local timer interrupts of all CPUs (/proc/interrupts "LOC"). */
static uint64_t timer_irqs(void)
{
	char line[1024];
	uint64_t n = 0;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *end;

		while (*p == ' ')
			p++;
		if (strncmp(p, "LOC:", 4))
			continue;
		p += 4;
		for (;;) {
			unsigned long long v = strtoull(p, &end, 10);

			if (end == p)
				break;
			n += v;
			p = end;
		}
	}
	fclose(f);
	return n;
}

/* Behind (a starved guest): start again at the next vblank. */
static void resync(struct idle *s, struct out *o, uint64_t now)
{
	if (o->target < now) {
		o->target = now + s->period / 2;
		s->resyncs++;
	}
}

/*
 * The next @n flips of @o, one period apart, in one FLIPQ_SUBMIT; it also
 * sets the interrupt target to *@irq unless that is NULL.
 */
static void submit_many(struct idle *s, struct out *o, int n,
			const uint64_t *irq)
{
	uint32_t fbs[FQ_MANY_MAX];
	int ret;

	for (int i = 0; i < n; i++)
		fbs[i] = o->fbs[(o->next_id + i) & 1].fb_id;
	ret = fq_submit_plane_many_irq(o->dev->fd, o->crtc, o->plane, fbs,
				       o->next_id, o->target, s->period, n,
				       irq);
	if (ret)
		die("idle: FLIPQ_SUBMIT %llu+%d on CRTC %u: %s",
		    (unsigned long long)o->next_id, n, o->crtc,
		    strerror(-ret));
	o->next_id += n;
	o->target += (uint64_t)n * s->period;
}

/* A batch of @o; then its interrupt target is @o->irq if @irq. */
static void submit_batch(struct idle *s, struct out *o, bool irq)
{
	resync(s, o, now_ns());
	if (!s->single) {
		submit_many(s, o, s->batch,
			    irq && !s->irq_ioctl ? &o->irq : NULL);
		if (irq && s->irq_ioctl)
			fq_set_irq_target(o->dev->fd, o->crtc, o->plane,
					  o->irq);
		return;
	}
	for (int i = 0; i < s->batch; i++) {
		int ret = fq_submit_plane(o->dev->fd, o->crtc, o->plane,
					  o->fbs[o->next_id & 1].fb_id,
					  o->next_id, o->target);

		if (ret)
			die("idle: FLIPQ_SUBMIT %llu on CRTC %u: %s",
			    (unsigned long long)o->next_id, o->crtc,
			    strerror(-ret));
		o->next_id++;
		o->target += s->period;
	}
	if (irq)
		fq_set_irq_target(o->dev->fd, o->crtc, o->plane, o->irq);
}

/*
 * --one-wake: queue the flips of @o whose targets are at most
 * 2 x batch - 2 periods after @now: with the flip being shown, the queue
 * then holds at most 2 x batch - 1, below its depth of 2 x batch.
 */
static void top_up(struct idle *s, struct out *o, uint64_t now)
{
	uint64_t horizon = now + (uint64_t)(2 * s->batch - 2) * s->period;
	int n = 0;

	resync(s, o, now);
	while (n < 2 * s->batch && o->target + n * s->period <= horizon)
		n++;
	if (n)
		submit_many(s, o, n, NULL);
}

/*
 * --one-wake: every lit output topped up, and the master's interrupt at
 * its flip due about a batch from now.
 */
static void wake_all(struct idle *s)
{
	struct out *m = s->master;
	uint64_t now = now_ns(), due = now + (uint64_t)s->batch * s->period;
	uint64_t last, irq;

	for (int i = 0; i < s->nouts; i++)
		if (s->outs[i].lit)
			top_up(s, &s->outs[i], now);
	/* The master's last queued flip has target m->target - period. */
	last = m->target - s->period;
	irq = m->next_id - 1 - (last > due ? (last - due) / s->period : 0);
	/* A PresentId already shown would never interrupt. */
	m->irq = irq > m->irq ? irq : m->next_id - 1;
	fq_set_irq_target(m->dev->fd, m->crtc, m->plane, m->irq);
}

/*
 * Start queued flips on @o: two batches, woken at the first's end.  The
 * plane keeps its log and PresentId sequence for as long as this client
 * lives, across resets: PresentIds only grow.
 */
static void start_flips(struct idle *s, struct out *o)
{
	if (!o->has_log) {
		fq_set_log(o->dev->fd, o->crtc, o->plane, 64, NULL);
		o->has_log = true;
	}
	o->target = now_ns() + s->period;
	if (s->one_wake) {
		/* The first output lit wakes the client for all. */
		if (!s->master || !s->master->lit) {
			s->master = o;
			wake_all(s);
		} else {
			top_up(s, o, now_ns());
		}
		return;
	}
	o->irq = o->next_id + s->batch - 1;
	submit_batch(s, o, false);
	submit_batch(s, o, true);
}

/* One nonblocking page flip with an event (the classic path). */
static void page_flip(struct out *o)
{
	struct bench_req r;
	int ret;

	req_init(&r);
	req_add(&r, o->dev->fd, o->plane, DRM_MODE_OBJECT_PLANE, "FB_ID",
		o->fbs[o->next_id++ & 1].fb_id);
	ret = req_commit(o->dev->fd, &r, DRM_MODE_ATOMIC_NONBLOCK |
			 DRM_MODE_PAGE_FLIP_EVENT, NULL);
	if (ret)
		die("idle: page flip: %s", strerror(-ret));
}

/* Handle the events of device @d: refill each queue whose batch ended. */
static void handle_events(struct idle *s, struct bench_dev *d)
{
	char buf[4096];
	ssize_t len, off = 0;

	len = read(d->fd, buf, sizeof(buf));
	if (len < 0 && errno != EAGAIN)
		die("idle: read of events: %s", strerror(errno));
	while (len > 0 && off + (ssize_t)sizeof(struct drm_event) <= len) {
		struct drm_event *e = (struct drm_event *)(buf + off);
		struct drm_vflipq_event_flipq fe;

		off += e->length;
		/* Events of a run before the last reset find the CRTC off. */
		if (e->type == DRM_EVENT_FLIP_COMPLETE && s->vkms) {
			if (s->outs[0].lit)
				page_flip(&s->outs[0]);
			continue;
		}
		if (e->type != DRM_VFLIPQ_EVENT_FLIPQ)
			continue;
		memcpy(&fe, e, sizeof(fe));
		if (s->one_wake) {
			if (s->master && s->master->lit &&
			    s->master->dev == d &&
			    fe.crtc_id == s->master->crtc &&
			    fe.present_id >= s->master->irq)
				wake_all(s);
			continue;
		}
		for (int i = 0; i < s->nouts; i++) {
			struct out *o = &s->outs[i];

			if (o->dev != d || o->crtc != fe.crtc_id ||
			    !o->lit || fe.present_id < o->irq)
				continue;
			o->irq += s->batch;
			submit_batch(s, o, true);
		}
	}
}

/* Serve every device's events until @end (CLOCK_MONOTONIC ns). */
static void serve(struct idle *s, uint64_t end)
{
	struct pollfd pfd[MAX_DEVS];

	for (int i = 0; i < s->ndevs; i++)
		pfd[i] = (struct pollfd){ .fd = s->devs[i].fd,
					  .events = POLLIN };
	for (uint64_t now = now_ns(); now < end; now = now_ns()) {
		int ms = (int)((end - now) / 1000000) + 1;

		if (poll(pfd, s->ndevs, ms) < 0 && errno != EINTR)
			die("idle: poll: %s", strerror(errno));
		for (int i = 0; i < s->ndevs; i++)
			if (pfd[i].revents & POLLIN)
				handle_events(s, &s->devs[i]);
	}
}

struct sample {
	double busy_pct;	/* whole VM, % of one vCPU */
	double self_pct;	/* this process */
	double timer_irqs_s;	/* local timer interrupts per second */
	double flips_s;		/* flips shown per second per lit CRTC */
	double expirations_s;	/* engine timer expirations per lit CRTC */
	double ctxt_s;		/* context switches per second */
};

static struct sample measure(struct idle *s, uint64_t ns)
{
	struct sample r = { 0 };
	uint64_t t0, t1, run0, irq0, ctxt0, ctxt1;
	double idle0, idle1, wall;
	int ncpu, lit = 0;
	uint64_t shown = 0, exp = 0;

	for (int i = 0; i < s->nouts; i++)
		if (s->outs[i].lit && !s->vkms)
			s->outs[i].c0 = fq_get_counters(s->outs[i].dev->fd,
							 s->outs[i].crtc);
	irq0 = timer_irqs();
	run0 = self_run_ns();
	idle0 = vm_idle_ms(&ncpu, &ctxt0);
	t0 = now_ns();
	serve(s, t0 + ns);
	t1 = now_ns();
	idle1 = vm_idle_ms(&ncpu, &ctxt1);
	/* For a profile of the window (perf report --time, CLOCK_MONOTONIC). */
	note("idle: measured from %llu.%06llu to %llu.%06llu s",
	     (unsigned long long)(t0 / 1000000000ull),
	     (unsigned long long)(t0 % 1000000000ull / 1000),
	     (unsigned long long)(t1 / 1000000000ull),
	     (unsigned long long)(t1 % 1000000000ull / 1000));
	wall = (t1 - t0) / 1e6;
	r.busy_pct = 100.0 * (wall * ncpu - (idle1 - idle0)) / wall;
	r.self_pct = 100.0 * (self_run_ns() - run0) / 1e6 / wall;
	r.timer_irqs_s = (timer_irqs() - irq0) / (wall / 1e3);
	r.ctxt_s = (ctxt1 - ctxt0) / (wall / 1e3);
	for (int i = 0; i < s->nouts; i++) {
		struct out *o = &s->outs[i];
		struct drm_vflipq_get_counters c;

		if (!o->lit || s->vkms)
			continue;
		c = fq_get_counters(o->dev->fd, o->crtc);
		shown += c.flips_shown - o->c0.flips_shown;
		exp += c.timer_expirations - o->c0.timer_expirations;
		lit++;
	}
	if (lit) {
		r.flips_s = shown / (wall / 1e3) / lit;
		r.expirations_s = exp / (wall / 1e3) / lit;
	}
	return r;
}

static void light(struct idle *s, struct out *o)
{
	bench_pipe_on(o->dev, o->pipe, &s->mode, &o->fbs[0]);
	o->lit = true;
	if (s->vkms)
		page_flip(o);
	else
		start_flips(s, o);
}

static void open_outputs(struct idle *s, const char *driver, char *names)
{
	char *save = NULL;

	for (char *n = names ? strtok_r(names, ",", &save) : NULL; n || !names;
	     n = strtok_r(NULL, ",", &save)) {
		struct bench_dev *d = &s->devs[s->ndevs];

		if (s->ndevs == MAX_DEVS)
			die("idle: at most %d devices", MAX_DEVS);
		if (bench_open(d, driver, n))
			die("idle: no %s device %s", driver, n ? n : "");
		bench_reset(d);
		s->ndevs++;
		for (int p = 0; p < d->n_pipes && s->nouts < MAX_OUT; p++) {
			struct out *o = &s->outs[s->nouts++];

			o->next_id = 1;
			o->dev = d;
			o->pipe = p;
			o->crtc = d->pipe[p].crtc_id;
			o->plane = d->pipe[p].primary;
			for (int k = 0; k < 2; k++) {
				bench_fb_create(d->fd, 1920, 1080,
						DRM_FORMAT_XRGB8888, &o->fbs[k]);
				bench_fb_fill(&o->fbs[k], k + 1, false);
			}
			/* The baseline: one CRTC, as vkms 6.12 has. */
			if (s->vkms)
				break;
		}
		if (!names)
			break;
	}
	if (!s->nouts)
		die("idle: no CRTC");
	if (!s->vkms)
		for (int i = 0; i < s->ndevs; i++)
			if (s->devs[i].caps.flipq_depth < 2u * s->batch)
				die("idle: flip queue depth %u < %d",
				    s->devs[i].caps.flipq_depth, 2 * s->batch);
}

/* Least-squares line through (x, y): slope and intercept. */
static void fit(const double *x, const double *y, int n, double *a, double *b)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0;

	for (int i = 0; i < n; i++) {
		sx += x[i];
		sy += y[i];
		sxx += x[i] * x[i];
		sxy += x[i] * y[i];
	}
	*a = (n * sxy - sx * sy) / (n * sxx - sx * sx);
	*b = (sy - *a * sx) / n;
}

int bench_idle(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "driver", required_argument, NULL, 'd' },
		{ "names", required_argument, NULL, 'n' },
		{ "seconds", required_argument, NULL, 's' },
		{ "reps", required_argument, NULL, 'r' },
		{ "batch", required_argument, NULL, 'b' },
		{ "steps", required_argument, NULL, 'S' },
		{ "single-submits", no_argument, NULL, '1' },
		{ "irq-ioctl", no_argument, NULL, 'i' },
		{ "one-wake", no_argument, NULL, 'o' },
		{ "label", required_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 },
	};
	int batch = BATCH;
	char name_all[64], name_per[64], suffix[32] = "";
	const char *driver = "vflipq", *label = NULL;
	char *names = NULL, *step_list = NULL;
	bool single = false, one_wake = false, irq_ioctl = false;
	int seconds = 3, reps = 3, c, len = 0, nsteps = 0, steps[16];
	double top[16], slope[16], xs[16], ys[16], floor_pct[16];
	char extra[1024];
	struct sample last = { 0 };
	uint64_t warmup = warmup_ns();
	struct idle *s;
	FILE *f;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'd': driver = optarg; break;
		case 'n': names = optarg; break;
		case 's': seconds = atoi(optarg); break;
		case 'r': reps = atoi(optarg); break;
		case 'b': batch = atoi(optarg); break;
		case 'S': step_list = optarg; break;
		case '1': single = true; break;
		case 'i': irq_ioctl = true; break;
		case 'o': one_wake = true; break;
		case 'l': label = optarg; break;
		default: return 2;
		}
	}
	if (seconds < 1 || seconds > 60 || reps < 1 || reps > 16 ||
	    batch < 1 || batch > 32 || single + one_wake + irq_ioctl > 1)
		die("idle: --seconds 1-60, --reps 1-16, --batch 1-32, "
		    "--single-submits, --irq-ioctl or --one-wake");
	s = calloc(1, sizeof(*s));
	if (!s)
		die("out of memory");
	s->vkms = !strcmp(driver, "vkms");
	s->batch = batch;
	s->single = single;
	s->irq_ioctl = irq_ioctl;
	s->one_wake = one_wake;
	if (!s->vkms && !names)
		die("idle: vflipq needs --names");
	if (s->vkms && label)
		die("idle: --label names another vflipq configuration");
	open_outputs(s, driver, s->vkms ? NULL : names);
	bench_mode_1080p(&s->mode, 60);
	s->period = bench_mode_period_ns(&s->mode);

	/* 0, 1, 2, 4, ... and every output last. */
	if (step_list) {
		/* Chosen steps (a profile of one): the rows need two or more. */
		for (char *t = strtok(step_list, ","); t && nsteps < 16;
		     t = strtok(NULL, ",")) {
			steps[nsteps] = atoi(t);
			if (steps[nsteps] < 0 || steps[nsteps] > s->nouts ||
			    (nsteps && steps[nsteps] < steps[nsteps - 1]))
				die("idle: --steps: increasing counts of lit "
				    "CRTCs, 0 to %d", s->nouts);
			nsteps++;
		}
		if (nsteps < 2)
			die("idle: --steps needs two counts or more");
	} else {
		steps[nsteps++] = 0;
		for (int n = 1; n < s->nouts; n *= 2)
			steps[nsteps++] = n;
		steps[nsteps++] = s->nouts;
	}

	/* The default client keeps the rows' names; others are suffixed. */
	if (batch != BATCH)
		len = snprintf(suffix, sizeof(suffix), "_batch%d", batch);
	if (one_wake)
		snprintf(suffix + len, sizeof(suffix) - len, "_one_wake");
	snprintf(name_all, sizeof(name_all), "idle_outputs_cpu_pct_all%s",
		 suffix);
	snprintf(name_per, sizeof(name_per), "idle_outputs_cpu_pct_per_crtc%s",
		 suffix);
	f = data_file(s->vkms ? "idle-vkms.txt" :
		      label ? "idle-vflipq-baseline.txt" :
		      one_wake ? "idle-vflipq-one-wake.txt" :
		      batch == BATCH ? "idle-vflipq.txt" : "idle-vflipq-batch.txt");
	fprintf(f, "# crtcs rep busy_pct_of_one_vcpu process_pct "
		"timer_irqs_per_s flips_per_s_per_crtc "
		"engine_expirations_per_s_per_crtc context_switches_per_s\n");
	for (int rep = 0; rep < reps; rep++) {
		int lit = 0;

		for (int i = 0; i < s->nouts; i++)
			s->outs[i].lit = false;
		for (int i = 0; i < s->ndevs; i++)
			bench_reset(&s->devs[i]);
		for (int k = 0; k < nsteps; k++) {
			struct sample r;

			while (lit < steps[k])
				light(s, &s->outs[lit++]);
			serve(s, now_ns() + (lit ? warmup : SETTLE_NS));
			r = measure(s, (uint64_t)seconds * 1000000000ull);
			fprintf(f, "%d %d %.3f %.3f %.1f %.2f %.2f %.1f\n",
				lit, rep + 1, r.busy_pct, r.self_pct,
				r.timer_irqs_s, r.flips_s, r.expirations_s,
				r.ctxt_s);
			note("idle: %s, %d CRTCs lit, run %d: VM busy %.2f%% "
			     "of a vCPU (this process %.2f%%), %.0f timer "
			     "interrupts/s, %.0f context switches/s, %.1f "
			     "flips/s per CRTC", driver, lit, rep + 1,
			     r.busy_pct, r.self_pct, r.timer_irqs_s, r.ctxt_s,
			     r.flips_s);
			xs[k] = lit;
			ys[k] = r.busy_pct;
			if (!k)
				floor_pct[rep] = r.busy_pct;
			last = r;
		}
		top[rep] = ys[nsteps - 1];
		if (s->vkms) {
			slope[rep] = ys[1] - ys[0];
		} else {
			double b;

			fit(xs, ys, nsteps, &slope[rep], &b);
		}
		/* Queued flips that do not reach the screen measure nothing. */
		if (!s->vkms && last.flips_s < 0.9 * 1e9 / s->period)
			die("idle: only %.1f flips/s per CRTC shown (%.1f Hz "
			    "mode)", last.flips_s, 1e9 / s->period);
	}
	fclose(f);
	for (int i = 0; i < s->ndevs; i++)
		bench_reset(&s->devs[i]);

	snprintf(extra, sizeof(extra),
		 "\"crtcs\": %d, \"devices\": %d, \"floor_pct_median\": %.3f, "
		 "\"flips_per_s_per_crtc\": %.2f, "
		 "\"timer_irqs_per_s\": %.1f, \"context_switches_per_s\": %.1f, "
		 "\"process_pct\": %.3f, "
		 "\"resyncs\": %ld, \"seconds\": %d, \"batch\": %d, "
		 "\"goal_max\": 5",
		 s->nouts, s->ndevs, median(floor_pct, reps), last.flips_s,
		 last.timer_irqs_s, last.ctxt_s, last.self_pct, s->resyncs,
		 seconds, batch);
	if (!s->vkms)
		emit(name_all, label ? label : "vflipq", "% of a vCPU",
		     "lower", top, reps, extra);
	if (!label)
		emit(name_per,
		     s->vkms ? "vkms classic page-flip loop, 1 CRTC" :
		     "vflipq", "% of a vCPU", "lower", slope, reps, extra);
	for (int i = 0; i < s->nouts; i++)
		for (int k = 0; k < 2; k++)
			bench_fb_destroy(s->outs[i].dev->fd, &s->outs[i].fbs[k]);
	for (int i = 0; i < s->ndevs; i++)
		bench_close(&s->devs[i]);
	free(s);
	return 0;
}
