// SPDX-License-Identifier: MIT
/*
 * present-play: a video player on libpresent's flip queue.  It decodes a
 * file (libavformat, libavcodec), maps each frame's PTS to a CLOCK_MONOTONIC
 * target time, queues frames ahead with present_swapchain_present_at() and
 * sleeps until a batch of them went out: one wake-up per batch, not per
 * frame.  It reads each frame's feedback and prints, per frame, when it was
 * shown against its ideal time (the first vblank at or after its target),
 * then a summary.  A scripted seek or pause cancels the queued frames after
 * a PresentId (present_swapchain_cancel_from()) and requeues from the new
 * position.  Documentation/vflipq/present-play.rst has the details.
 *
 *   present-play [options] FILE
 *     --display ADAPTER   display adapter (index, card node, vflipq device
 *                         name; default: libpresent's default display)
 *     --render ADAPTER    render adapter of a hybrid pair (default: none,
 *                         the display adapter holds the buffers)
 *     --batch N           frames queued per wake-up (1-14, default 4)
 *     --start-ns T        CLOCK_MONOTONIC target of the first frame
 *                         (default: 100 ms after start, a quarter period
 *                         before a vblank)
 *     --no-scale          frames that fit the output shown at their size,
 *                         centred (default: scaled to fit, aspect kept)
 *     --seek N:MS         once frame N and a few after it are queued,
 *                         cancel from frame N + 1 and go on from MS ms
 *     --pause N:MS        the same, then wait MS ms and go on from frame N + 1
 *     --quiet             the summary only
 *
 * Frames are converted to XRGB8888 with libswscale into back buffers of the
 * output's mode size (black around the picture) on the primary plane; see
 * the document for what is left (YUV swap chains on an overlay plane).
 *
 * Output, one line per frame ("frame" lines, in PresentId order) and
 * per event ("seek", "pause"), then "summary" and "path" lines; times in
 * ns of CLOCK_MONOTONIC.  Exit status 0, or 1 with a message on stderr.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <drm_fourcc.h>

#include "av_clip.h"
#include "present.h"

#define MAX_LATENCY 14		/* frames in flight, buffers: 2 more (16) */

struct opts {
	const char *file, *display, *render;
	unsigned int batch;
	uint64_t start_ns;
	int seek_frame, pause_frame;	/* -1: none */
	int64_t seek_to_ms;
	unsigned int pause_ms;
	bool quiet, no_scale;
};

/* One presented frame, indexed by its PresentId (1, 2, ...). */
struct rec {
	int index;			/* decode order, from 0 */
	int64_t pts_ns;
	uint64_t target, returned, ideal;
	struct present_feedback fb;
	bool done;			/* its feedback came */
	bool seek_cancel;		/* cancelled by a seek or pause */
};

struct player {
	struct opts o;
	struct av_clip *clip;
	struct present_system *sys;
	struct present_swapchain *sc;
	uint64_t period, grid;		/* refresh period, a vblank */
	unsigned int latency;
	struct rec *rec;		/* [1 .. next_id - 1] */
	size_t nrec;
	uint64_t next_id, first_open;	/* first PresentId without feedback */
	unsigned int queued;		/* presented, no feedback yet */
	int decoded;			/* frames decoded (decode order) */
	uint64_t base;			/* target of PTS seg_pts0 */
	int64_t seg_pts0;
	bool new_segment;		/* the next frame starts one */
	bool script_done;
	struct av_clip_frame cur;	/* decoded, not presented yet */
	uint32_t x, y, w, h;		/* the picture in the back buffers */
	bool have_cur, eof;
	bool blocked;			/* present_at said WAS_STILL_DRAWING */
	uint64_t wakeups;		/* sleeps of the player itself */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void sleep_until(uint64_t t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / 1000000000ull),
			       .tv_nsec = (long)(t % 1000000000ull) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* The first vblank of the grid at or after @t. */
static uint64_t grid_due(const struct player *p, uint64_t t)
{
	if (t <= p->grid)
		return p->grid - (p->grid - t) / p->period * p->period;
	return p->grid + (t - p->grid + p->period - 1) / p->period * p->period;
}

static int die_present(const struct player *p, const char *what, int ret)
{
	fprintf(stderr, "present-play: %s: %s (%s)\n", what, present_strerror(ret),
		p->sc ? present_swapchain_last_error(p->sc) : "");
	return 1;
}

static const char *status_name(uint32_t s)
{
	static const char *const names[] = { "on-target", "late", "cancelled", "early" };

	return s < 4 ? names[s] : "?";
}

static int parse_pair(const char *arg, int *frame, int64_t *ms)
{
	char *end;
	long f = strtol(arg, &end, 10);

	if (end == arg || *end != ':' || f < 0)
		return -1;
	*ms = strtoll(end + 1, &end, 10);
	if (*end || *ms < 0)
		return -1;
	*frame = (int)f;
	return 0;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "display", required_argument, NULL, 'd' },
		{ "render", required_argument, NULL, 'r' },
		{ "batch", required_argument, NULL, 'b' },
		{ "start-ns", required_argument, NULL, 's' },
		{ "seek", required_argument, NULL, 'k' },
		{ "pause", required_argument, NULL, 'p' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "no-scale", no_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	int64_t ms;
	int c;

	*o = (struct opts){ .batch = 4, .seek_frame = -1, .pause_frame = -1 };
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 'd': o->display = optarg; break;
		case 'r': o->render = optarg; break;
		case 'b': o->batch = (unsigned int)strtoul(optarg, NULL, 10); break;
		case 's': o->start_ns = strtoull(optarg, NULL, 10); break;
		case 'k':
			if (parse_pair(optarg, &o->seek_frame, &o->seek_to_ms))
				return -1;
			break;
		case 'p':
			if (parse_pair(optarg, &o->pause_frame, &ms))
				return -1;
			o->pause_ms = (unsigned int)ms;
			break;
		case 'q': o->quiet = true; break;
		case 'n': o->no_scale = true; break;
		default: return -1;
		}
	}
	if (optind != argc - 1 || o->batch < 1 || o->batch > MAX_LATENCY - 2 ||
	    (o->seek_frame >= 0 && o->pause_frame >= 0))
		return -1;
	o->file = argv[optind];
	return 0;
}

/*
 * Where the picture goes in the back buffers (the output's size): centred,
 * scaled to fit with its aspect kept, or at its size with --no-scale when
 * it fits.  Even sizes and offsets: the chroma of 4:2:0 stays aligned.
 */
static int place(struct player *p)
{
	struct present_buffer b;
	int cw, ch, ret;

	ret = present_swapchain_get_buffer(p->sc, 0, &b);
	if (ret)
		return ret;
	av_clip_size(p->clip, &cw, &ch);
	p->w = (uint32_t)cw;
	p->h = (uint32_t)ch;
	if (!p->o.no_scale || p->w > b.width || p->h > b.height) {
		p->w = b.width;
		p->h = (uint32_t)((uint64_t)b.width * (uint32_t)ch / (uint32_t)cw);
		if (p->h > b.height) {
			p->h = b.height;
			p->w = (uint32_t)((uint64_t)b.height * (uint32_t)cw / (uint32_t)ch);
		}
	}
	p->w &= ~1u;
	p->h &= ~1u;
	p->x = (b.width - p->w) / 2 & ~1u;
	p->y = (b.height - p->h) / 2 & ~1u;
	return 0;
}

static int setup(struct player *p)
{
	struct present_swapchain_desc d = {
		.format = DRM_FORMAT_XRGB8888, .swap_effect = PRESENT_SWAP_FLIP_SEQUENTIAL,
		.samples = 1, .flags = PRESENT_SWAPCHAIN_FRAME_LATENCY_WAITABLE,
	};
	struct present_adapter *display, *render = NULL;
	struct present_adapter_info info;
	struct present_path path;
	int ret;

	ret = av_clip_open(p->o.file, &p->clip);
	if (ret < 0) {
		fprintf(stderr, "present-play: %s\n", av_clip_error(p->clip));
		return 1;
	}
	ret = present_system_open(&p->sys);
	if (ret)
		return die_present(p, "enumerate adapters", ret);
	ret = present_system_find(p->sys, p->o.display, PRESENT_ROLE_DISPLAY, &display);
	if (ret)
		return die_present(p, "display adapter", ret);
	if (p->o.render) {
		ret = present_system_find(p->sys, p->o.render, PRESENT_ROLE_RENDER, &render);
		if (ret)
			return die_present(p, "render adapter", ret);
	}
	ret = present_adapter_info(display, &info);
	if (ret)
		return die_present(p, "adapter info", ret);
	/* Two frames more than a batch in flight: the next batch is decoded
	 * while they go out.  The flip queue holds no more than its depth. */
	p->latency = p->o.batch + 2;
	if (p->latency > info.flipq_depth)
		p->latency = info.flipq_depth;
	if (p->latency < 2) {
		fprintf(stderr, "present-play: %s has no flip queue\n", info.name);
		return 1;
	}
	if (p->o.batch > p->latency - 1)
		p->o.batch = p->latency - 1;
	d.buffer_count = p->latency + 2;
	ret = present_swapchain_create(render, display, -1, &d, &p->sc);
	if (ret) {
		fprintf(stderr, "present-play: create: %s (%s)\n", present_strerror(ret),
			present_adapter_last_error(display));
		return 1;
	}
	ret = present_swapchain_set_max_frame_latency(p->sc, p->latency);
	if (ret)
		return die_present(p, "frame latency", ret);
	p->period = present_swapchain_refresh_period(p->sc);
	ret = place(p);
	if (ret)
		return die_present(p, "get buffer", ret);
	ret = present_swapchain_path(p->sc, &path);
	if (ret)
		return die_present(p, "path", ret);
	printf("path %s: %s\n", present_path_name(path.kind), path.reason);
	ret = present_swapchain_wait_vblank(p->sc, &p->grid);
	if (ret)
		return die_present(p, "wait vblank", ret);
	/* A quarter period before a vblank: a target never ties with one. */
	p->base = p->o.start_ns ? p->o.start_ns
				: grid_due(p, p->grid + 100000000ull) - p->period / 4;
	p->new_segment = true;
	return 0;
}

static struct rec *rec_new(struct player *p)
{
	if (p->next_id >= p->nrec) {
		size_t n = p->nrec ? 2 * p->nrec : 256;
		struct rec *r = realloc(p->rec, n * sizeof(*r));

		if (!r)
			return NULL;
		memset(r + p->nrec, 0, (n - p->nrec) * sizeof(*r));
		p->rec = r;
		p->nrec = n;
	}
	return &p->rec[p->next_id];
}

static void print_frame(const struct player *p, const struct rec *r)
{
	int64_t delta = r->fb.shown_ns ? (int64_t)(r->fb.shown_ns - r->ideal) / 1000 : 0;

	if (p->o.quiet)
		return;
	printf("frame %d pts %" PRId64 " id %" PRIu64 " target %" PRIu64 " returned %" PRIu64
	       " ideal %" PRIu64 " shown %" PRIu64 " vblank %" PRIu64 " %s delta_us %" PRId64 "\n",
	       r->index, r->pts_ns, r->fb.app_present_id, r->target, r->returned, r->ideal,
	       r->fb.shown_ns, r->fb.vblank_seq, status_name(r->fb.status), delta);
}

/* Take what feedback there is (waiting up to @timeout_ms for a first). */
static int collect(struct player *p, int timeout_ms)
{
	struct present_feedback fb[16];
	int n, total = 0;

	do {
		n = present_swapchain_read_feedback(p->sc, fb, 16, timeout_ms);
		if (n < 0)
			return n;
		for (int i = 0; i < n; i++) {
			struct rec *r = &p->rec[fb[i].app_present_id];

			r->fb = fb[i];
			r->done = true;
			p->queued--;
		}
		total += n;
		timeout_ms = 0;
	} while (n == 16);
	/* print in PresentId order, as the records come */
	while (p->first_open < p->next_id && p->rec[p->first_open].done)
		print_frame(p, &p->rec[p->first_open++]);
	return total;
}

/*
 * A scripted seek or pause: once frame N and some after it are queued,
 * cancel from frame N + 1's PresentId on and go on from the new position.
 */
static int script(struct player *p)
{
	bool seek = p->o.seek_frame >= 0;
	int n = seek ? p->o.seek_frame : p->o.pause_frame;
	uint64_t id, called, first_target;
	int64_t to_ns;
	int ret, queued_after = 0;

	if (p->script_done || n < 0 || p->decoded < n + 1 + (int)p->latency / 2)
		return 0;
	p->script_done = true;
	for (id = 1; id < p->next_id && p->rec[id].index <= n; id++)
		;
	if (id >= p->next_id)
		return 0;
	first_target = p->rec[id].target;
	for (uint64_t i = id; i < p->next_id; i++) {
		queued_after += !p->rec[i].done;
		p->rec[i].seek_cancel = true;
	}
	called = now_ns();
	ret = present_swapchain_cancel_from(p->sc, id);
	if (ret < 0)
		return die_present(p, "cancel_from", ret);
	printf("%s at frame %d: cancel_from id %" PRIu64 " cancelled %d of %d queued, presented %"
	       PRIu64 ", called %" PRIu64 " first_target %" PRIu64 "\n", seek ? "seek" : "pause",
	       n, id, ret, queued_after, p->next_id - id, called, first_target);
	to_ns = seek ? p->o.seek_to_ms * 1000000 : p->rec[id].pts_ns;
	if (!seek) {
		sleep_until(now_ns() + (uint64_t)p->o.pause_ms * 1000000ull);
		p->wakeups++;
	}
	ret = av_clip_seek(p->clip, to_ns);
	if (ret < 0) {
		fprintf(stderr, "present-play: %s\n", av_clip_error(p->clip));
		return 1;
	}
	p->have_cur = false;
	p->eof = false;
	p->new_segment = true;
	/* the new position: the vblank 3 periods on, a quarter before it */
	p->base = grid_due(p, now_ns() + 3 * p->period) - p->period / 4;
	return 0;
}

/* Decode, convert and queue frames until the latency is full or the end. */
static int fill(struct player *p)
{
	struct present_buffer b;
	struct rec *r;
	int ret, i;

	while (p->queued < p->latency) {
		if (!p->have_cur) {
			ret = script(p);
			if (ret)
				return ret;
			ret = av_clip_next(p->clip, &p->cur);
			if (ret < 0) {
				fprintf(stderr, "present-play: %s\n", av_clip_error(p->clip));
				return 1;
			}
			if (ret == 0) {
				p->eof = true;
				return 0;
			}
			p->have_cur = true;
		}
		if (p->new_segment) {
			p->seg_pts0 = p->cur.pts_ns;
			p->new_segment = false;
		}
		i = present_swapchain_current_back_buffer(p->sc);
		if (i < 0)
			return die_present(p, "back buffer", i);
		ret = present_swapchain_get_buffer(p->sc, (unsigned int)i, &b);
		if (ret)
			return die_present(p, "get buffer", ret);
		/* dumb buffers start black: the border stays so */
		ret = av_clip_to_xrgb(p->clip, &p->cur, (uint8_t *)b.map + (size_t)p->y * b.pitch +
				      p->x * 4, b.pitch, (int)p->w, (int)p->h);
		if (ret < 0) {
			fprintf(stderr, "present-play: %s\n", av_clip_error(p->clip));
			return 1;
		}
		r = rec_new(p);
		if (!r) {
			fprintf(stderr, "present-play: out of memory\n");
			return 1;
		}
		r->index = p->decoded;
		r->pts_ns = p->cur.pts_ns;
		r->target = p->base + (uint64_t)(p->cur.pts_ns - p->seg_pts0);
		r->ideal = grid_due(p, r->target);
		ret = present_swapchain_present_at(p->sc, r->target, p->next_id,
						   PRESENT_DO_NOT_WAIT);
		if (ret == PRESENT_E_WAS_STILL_DRAWING) {
			p->blocked = true;	/* the frame stays current */
			return 0;
		}
		if (ret)
			return die_present(p, "present_at", ret);
		r->returned = now_ns();
		p->next_id++;
		p->queued++;
		p->decoded++;
		p->have_cur = false;
	}
	return 0;
}

/*
 * Sleep until a batch went out: until the vblank of the frame whose showing
 * leaves latency - batch frames queued (at the end: the last frame's).
 */
static void sleep_batch(struct player *p)
{
	unsigned int keep = p->eof ? 0 : p->latency - p->o.batch;
	uint64_t id, wake;

	if (p->queued <= keep)
		return;
	id = p->next_id - 1 - keep;
	wake = p->rec[id].ideal + 1000000;	/* 1 ms after that vblank */
	if (wake > now_ns()) {
		sleep_until(wake);
		p->wakeups++;
	}
}

static void summary(struct player *p, const struct rusage *r0, const struct rusage *r1)
{
	int frames = 0, shown = 0, on_target = 0, late = 0, cancelled = 0, dropped = 0;
	int judder = 0, early = 0;
	double cpu_ms;
	long csw;
	struct present_counters c = { 0 };

	for (uint64_t id = 1; id < p->next_id; id++) {
		const struct rec *r = &p->rec[id];

		frames++;
		switch (r->fb.status) {
		case PRESENT_FEEDBACK_ON_TARGET: shown++; on_target++; break;
		case PRESENT_FEEDBACK_LATE: shown++; late++; judder++; break;
		case PRESENT_FEEDBACK_EARLY: shown++; early++; judder++; break;
		default:
			cancelled++;
			dropped += !r->seek_cancel;
			break;
		}
	}
	present_swapchain_counters(p->sc, &c);
	csw = (r1->ru_nvcsw - r0->ru_nvcsw);
	cpu_ms = (double)(r1->ru_utime.tv_sec - r0->ru_utime.tv_sec +
			  r1->ru_stime.tv_sec - r0->ru_stime.tv_sec) * 1e3 +
		 (double)(r1->ru_utime.tv_usec - r0->ru_utime.tv_usec +
			  r1->ru_stime.tv_usec - r0->ru_stime.tv_usec) / 1e3;
	printf("summary frames %d shown %d on-target %d late %d early %d cancelled %d dropped %d "
	       "judder %d batch %u latency %u\n", frames, shown, on_target, late, early, cancelled,
	       dropped, judder, p->o.batch, p->latency);
	printf("summary wakeups %ld (%.2f per frame, %" PRIu64 " sleeps of the player, %" PRIu64
	       " in libpresent) cpu %.1f ms (%.2f ms per frame)\n", csw,
	       frames ? (double)csw / frames : 0.0, p->wakeups, c.wakeups, cpu_ms,
	       frames ? cpu_ms / frames : 0.0);
}

int main(int argc, char **argv)
{
	struct player p = { 0 };
	struct rusage r0, r1;
	int ret;

	if (parse_opts(argc, argv, &p.o)) {
		fprintf(stderr, "usage: present-play [--display A] [--render A] [--batch N] "
			"[--start-ns T] [--no-scale] [--seek N:MS | --pause N:MS] [--quiet] FILE\n");
		return 2;
	}
	/* whole lines, written rarely: no write per frame */
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	p.next_id = p.first_open = 1;
	ret = setup(&p);
	getrusage(RUSAGE_SELF, &r0);
	while (!ret) {
		ret = fill(&p);
		if (ret || (p.eof && !p.queued))
			break;
		sleep_batch(&p);
		ret = collect(&p, 0);
		/* nothing retired although the batch's vblank passed (a late
		 * frame, or libpresent's latency is full): wait for a record */
		if (!ret && p.queued && (p.eof || p.blocked || p.queued > p.latency - p.o.batch)) {
			ret = collect(&p, 1000);
			if (!ret) {
				fprintf(stderr, "present-play: no feedback within 1 s\n");
				ret = 1;
				break;
			}
		}
		if (ret < 0) {
			ret = die_present(&p, "feedback", ret);
			break;
		}
		p.blocked = false;
		ret = 0;
	}
	getrusage(RUSAGE_SELF, &r1);
	if (!ret)
		summary(&p, &r0, &r1);
	fflush(stdout);
	present_swapchain_destroy(p.sc);
	present_system_close(p.sys);
	av_clip_close(p.clip);
	free(p.rec);
	return ret;
}
