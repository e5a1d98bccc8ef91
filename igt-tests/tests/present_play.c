// SPDX-License-Identifier: MIT
/*
 * present-play, the video player on libpresent's flip queue, judged from the
 * screen.  The test decodes the clip itself (userspace/common/av_clip.c,
 * the player's decoder, on the same file: the same pixels) and computes the
 * CRC of every frame full screen (vfq_frame_crc(), the reference hash of
 * driver.rst); the player runs as its own process (/usr/bin/present-play,
 * DRM master while it plays) and the CRC of every vblank, read here while it
 * plays, says which frame the screen showed.  The player's output gives its
 * intent (each frame's target) and when each present_at() returned; what it
 * says was shown is not used.
 *
 * Device (configfs): igt-play, one 640x480@60 output (CVT reduced blanking:
 * 59.95 Hz, so 24 fps is 3:2 across the 2 s clip), flip queue depth 8; the
 * player runs with --no-scale: the 320x180 picture centred at its size, a
 * black border (the same libswscale conversion in both).
 *
 * Rules ("late is allowed, wrong is not", issue 31): at vblank v the screen
 * must show the last frame due at or before v (due: the first vblank at or
 * after its target), or an earlier one only when every frame in between
 * returned from present_at() after v began (it may have missed v); never a
 * later frame, never a frame that was not to be shown, never a frame again
 * once a later one was on screen.  Vblanks without a CRC are undecided.
 */
/**
 * TEST: present play
 * Category: Display
 * Mega feature: General Display Features
 * Sub-category: flips
 * Functionality: video playback on the flip queue
 * Driver requirement: vflipq
 * Description: present-play, a video player on libpresent's flip queue,
 *              plays H.264 clips decoded with FFmpeg; the CRC of every vblank
 *              says which frame was on screen: the 3:2 cadence of 24 fps on
 *              60 Hz, a seek cancelling the frames queued after a PresentId.
 *
 * SUBTEST: cadence-24fps
 * Description: Every frame of a 24 fps clip on a 60 Hz output is shown at
 *              its 3:2 cadence position, once
 *
 * SUBTEST: seek
 * Description: A seek cancels exactly the frames queued after the PresentId;
 *              none of them reaches the screen, the frames after the new
 *              position do
 */
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vflipq_helpers.h"
#include "av_clip.h"

#define DEV "igt-play"
#define W 640		/* the output: vflipq's 640x480@60 (CVT-RB, 59.95 Hz) */
#define H 480
#define CLIP_W 320
#define CLIP_H 180
#define MAX_FRAMES 128
#define MAX_VBLANKS 1024
#define CLIP_DIR "/igt/data/clips"

/* The clip as the screen shows it: frame i's PTS and full-screen CRC. */
struct ref {
	int n;
	int64_t pts[MAX_FRAMES];
	uint32_t crc[MAX_FRAMES];
	uint32_t black;			/* the screen before the first frame */
};

/* A "frame" line of the player. */
struct line {
	int index;
	int64_t pts;
	uint64_t id, target, returned;
	char status[16];
};

/* One run of the player: its lines, and the CRC of every vblank. */
struct run {
	int n;
	struct line l[2 * MAX_FRAMES];
	char event[256];		/* its "seek"/"pause" line */
	char summary[2][256];
	uint64_t first_seq;		/* vblank of crc[0] */
	bool have[MAX_VBLANKS];
	uint32_t crc[MAX_VBLANKS];
};

/* What the screen must show, in order: entry k is due at vblank due[k]. */
struct plan {
	int n;
	int ref[2 * MAX_FRAMES];	/* frame of the clip */
	uint64_t due[2 * MAX_FRAMES];	/* vblank (DRM count) */
	uint64_t returned[2 * MAX_FRAMES];
	bool optional[2 * MAX_FRAMES];	/* may be shown, need not be */
};

static int fd = -1;
static struct vfq_dev dev;
static drmModeModeInfo mode;
static uint64_t period;
static struct vfq_fb black;
static igt_pipe_crc_t *pipe_crc;
static uint64_t seq0, ts0;		/* a vblank of the grid */

static const char *player(void)
{
	const char *p = getenv("PRESENT_PLAY");

	return p ? p : "/usr/bin/present-play";
}

/*
 * Every frame's PTS and CRC, from the clip decoded here and scaled to the
 * screen.  Each subtest is a process of its own: the first one keeps what
 * it learnt in /tmp for the others (the guest's /tmp lives for one boot).
 */
static void learn_clip(const char *path, struct ref *r)
{
	static uint32_t xrgb[W * H];
	static struct vfq_color px[W * H], rows[H];
	int bpc = vfq_crtc_bpc(fd, dev.pipe[0].crtc_id), w, h, ret;
	struct av_clip *c = NULL;
	struct av_clip_frame f;
	char cache[128];
	FILE *fp;

	snprintf(cache, sizeof(cache), "/tmp/present_play.%s.%d", strrchr(path, '/') + 1, bpc);
	fp = fopen(cache, "rb");
	if (fp) {
		igt_assert_eq(fread(r, sizeof(*r), 1, fp), 1);
		fclose(fp);
		igt_info("%s: %d frames (CRCs from %s)\n", path, r->n, cache);
		return;
	}
	ret = av_clip_open(path, &c);
	igt_assert_f(ret == 0, "%s\n", av_clip_error(c));
	av_clip_size(c, &w, &h);
	igt_assert_f(w == CLIP_W && h == CLIP_H, "%s is %dx%d\n", path, w, h);
	r->n = 0;
	while ((ret = av_clip_next(c, &f)) == 1) {
		igt_assert(r->n < MAX_FRAMES);
		igt_assert_eq(av_clip_to_xrgb(c, &f, xrgb + (H - CLIP_H) / 2 * W + (W - CLIP_W) / 2,
					      W * 4, CLIP_W, CLIP_H), 0);
		for (int i = 0; i < W * H; i++)
			px[i] = vfq_rgb8(xrgb[i] >> 16 & 0xff, xrgb[i] >> 8 & 0xff, xrgb[i] & 0xff);
		r->pts[r->n] = f.pts_ns;
		r->crc[r->n] = vfq_frame_crc(px, W, H, bpc);
		for (int j = 0; j < r->n; j++)
			igt_assert_f(r->crc[j] != r->crc[r->n], "frames %d and %d share CRC %08x\n",
				     j, r->n, r->crc[j]);
		r->n++;
	}
	igt_assert_f(ret == 0, "%s\n", av_clip_error(c));
	av_clip_close(c);
	for (int y = 0; y < H; y++)
		rows[y] = vfq_rgb8(0, 0, 0);
	r->black = vfq_frame_crc_rows(rows, W, H, bpc);
	igt_info("%s: %d frames, CRCs distinct\n", path, r->n);
	fp = fopen(cache, "wb");
	if (fp) {
		fwrite(r, sizeof(*r), 1, fp);
		fclose(fp);
	}
}

static int ref_of_pts(const struct ref *r, int64_t pts)
{
	for (int i = 0; i < r->n; i++)
		if (r->pts[i] == pts)
			return i;
	igt_assert_f(false, "the player showed PTS %" PRId64 ", not in the clip\n", pts);
	return -1;
}

static int ref_of_crc(const struct ref *r, uint32_t crc)
{
	for (int i = 0; i < r->n; i++)
		if (r->crc[i] == crc)
			return i;
	return crc == r->black ? -1 : -2;
}

/* The DRM vblank count of the first vblank at or after @t. */
static uint64_t due_seq(uint64_t t)
{
	if (t <= ts0)
		return seq0 - (ts0 - t) / period;
	return seq0 + (t - ts0 + period - 1) / period;
}

static uint64_t seq_time(uint64_t seq)
{
	return ts0 + (seq - seq0) * period;
}

/*
 * The output lit with black (the test is master for it), CRCs on, master
 * dropped for the player; the grid read afresh.
 */
static void screen_begin(void)
{
	igt_assert_eq(drmSetMaster(fd), 0);
	vfq_pipe_on(&dev, 0, &mode, black.fb_id);
	pipe_crc = vfq_crc_start(fd, dev.pipe[0].index);
	vfq_vblank_grid(fd, dev.pipe[0].crtc_id, &seq0, &ts0);
	igt_assert_eq(drmDropMaster(fd), 0);
}

static void take_crcs(struct run *run, int timeout_ms)
{
	uint32_t frame, v;

	while (vfq_crc_read(pipe_crc, timeout_ms, &frame, &v) == 1) {
		int64_t k;

		igt_assert(frame != UINT32_MAX);
		k = (int64_t)frame - (int64_t)(uint32_t)run->first_seq;
		if (k >= 0 && k < MAX_VBLANKS) {
			run->have[k] = true;
			run->crc[k] = v;
		}
		timeout_ms = 0;
	}
}

static void parse(struct run *run, char *text)
{
	for (char *s = strtok(text, "\n"); s; s = strtok(NULL, "\n")) {
		struct line *l = &run->l[run->n];

		if (!strncmp(s, "frame ", 6)) {
			igt_assert(run->n < 2 * MAX_FRAMES);
			igt_assert_f(sscanf(s, "frame %d pts %" SCNd64 " id %" SCNu64 " target %"
					    SCNu64 " returned %" SCNu64 " %*s %*u %*s %*u %*s %*u %15s",
					    &l->index, &l->pts, &l->id, &l->target, &l->returned,
					    l->status) == 6, "bad line \"%s\"\n", s);
			run->n++;
		} else if (!strncmp(s, "seek ", 5) || !strncmp(s, "pause ", 6)) {
			snprintf(run->event, sizeof(run->event), "%s", s);
		} else if (!strncmp(s, "summary ", 8)) {
			snprintf(run->summary[!!run->summary[0][0]], sizeof(run->summary[0]), "%s", s);
		}
		igt_debug("player: %s\n", s);
	}
}

/*
 * Run the player on @clip with @args (NULL-terminated), reading the CRC
 * of every vblank while it plays.
 */
static void play(struct run *run, const char *clip, const char *const *args)
{
	static char out[1 << 17];
	const char *argv[16] = { player(), "--display", DEV, "--no-scale" };
	size_t len = 0;
	int p[2], n = 4, status;
	pid_t pid;

	igt_require_f(access(player(), X_OK) == 0, "%s not there\n", player());
	memset(run, 0, sizeof(*run));
	for (int i = 0; args[i]; i++)
		argv[n++] = args[i];
	argv[n++] = clip;
	argv[n] = NULL;
	run->first_seq = seq0;
	igt_assert_eq(pipe2(p, O_CLOEXEC), 0);
	pid = fork();
	igt_assert(pid >= 0);
	if (pid == 0) {
		dup2(p[1], 1);
		execv(argv[0], (char **)argv);
		_exit(127);
	}
	close(p[1]);
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	for (;;) {
		ssize_t got;

		take_crcs(run, 20);
		got = read(p[0], out + len, sizeof(out) - 1 - len);
		if (got == 0)
			break;
		if (got > 0)
			len += (size_t)got;
		igt_assert(len < sizeof(out) - 1);
	}
	close(p[0]);
	igt_assert_eq(waitpid(pid, &status, 0), pid);
	/* the last frames' vblanks */
	take_crcs(run, 200);
	igt_pipe_crc_free(pipe_crc);
	pipe_crc = NULL;
	out[len] = 0;
	parse(run, out);
	for (int i = 0; i < 2; i++)
		if (run->summary[i][0])
			igt_info("%s\n", run->summary[i]);
	if (run->event[0])
		igt_info("%s\n", run->event);
	igt_assert_f(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		     "present-play failed (status %#x)\n", status);
	igt_assert_f(run->summary[0][0], "present-play printed no summary\n");
}

static void plan_add(struct plan *pl, const struct ref *r, const struct line *l, bool optional)
{
	pl->ref[pl->n] = ref_of_pts(r, l->pts);
	pl->due[pl->n] = due_seq(l->target);
	pl->returned[pl->n] = l->returned;
	pl->optional[pl->n] = optional;
	pl->n++;
}

/*
 * The screen against @pl: see the rules at the top.  Returns the frames
 * decided on their due vblank (a CRC there showing them).
 */
static int judge(const struct run *run, const struct ref *r, const struct plan *pl)
{
	int last = -1, decided = 0, late = 0, vblanks = 0, undecided = 0;
	/* the player ends once the last frame is shown: the screen goes black */
	uint64_t end = pl->due[pl->n - 1];

	igt_assert(pl->n > 0 && pl->due[0] >= run->first_seq);
	igt_assert_f(end - run->first_seq < MAX_VBLANKS, "the run is too long\n");
	for (uint64_t v = run->first_seq; v <= end; v++) {
		uint64_t k = v - run->first_seq;
		int want = -1, surely = -1, shown = -1, s;

		/* the last entry due by v, and the last surely queued by then */
		for (int e = 0; e < pl->n; e++) {
			if (pl->due[e] > v)
				continue;
			if (!pl->optional[e])
				want = e;
			if (!pl->optional[e] && pl->returned[e] < seq_time(v))
				surely = e;
		}
		if (!run->have[k]) {
			undecided += want >= 0;
			continue;
		}
		vblanks++;
		s = ref_of_crc(r, run->crc[k]);
		if (s == -1 && surely < 0 && last < 0)
			continue;	/* black before the first frame */
		/* the latest entry in [max(surely, last), any due by v] */
		for (int e = surely > last ? surely : (last > 0 ? last : 0);
		     e < pl->n && pl->due[e] <= v; e++)
			if (pl->ref[e] == s)
				shown = e;
		igt_assert_f(shown >= 0 && shown >= last,
			     "vblank %" PRIu64 ": the screen showed frame %d (-1: black, -2: none; CRC "
			     "%08x), expected frame %d (entry %d; surely queued: entry %d, last shown: "
			     "entry %d)\n", v, s, run->crc[k], want >= 0 ? pl->ref[want] : -1, want,
			     surely, last);
		if (shown < want)
			late++;
		if (shown != last && v == pl->due[shown])
			decided++;
		last = shown;
	}
	igt_info("screen: %d vblanks with a CRC, %d without; %d frames seen on their due vblank, "
		 "%d vblanks showed a frame late (submitted after that vblank began)\n",
		 vblanks, undecided, decided, late);
	igt_assert_f(vblanks > (int)(end - pl->due[0]) / 2, "CRCs for %d vblanks of %" PRIu64
		     "\n", vblanks, end - pl->due[0]);
	return decided;
}

/* The frames of @pl queued before their due vblank began. */
static int timely_frames(const struct plan *pl)
{
	int n = 0;

	for (int e = 0; e < pl->n; e++)
		n += !pl->optional[e] && pl->returned[e] < seq_time(pl->due[e]);
	return n;
}

/*
 * The whole clip: the player's targets are its PTS on one clock (the test
 * checks the mapping; the start is the player's), due 3, 2, 3, 2, ...
 * vblanks apart on 60 Hz, and every vblank with a CRC shows its frame.
 */
static void test_cadence(void)
{
	static struct ref r;
	static struct run run;
	static struct plan pl;
	const char *args[] = { NULL };
	int decided;

	learn_clip(CLIP_DIR "/play-24.mp4", &r);
	screen_begin();
	play(&run, CLIP_DIR "/play-24.mp4", args);
	igt_assert_eq(run.n, r.n);
	pl.n = 0;
	for (int i = 0; i < run.n; i++) {
		const struct line *l = &run.l[i];

		igt_assert_eq(ref_of_pts(&r, l->pts), i);
		igt_assert_eq_u64(l->id, i + 1);
		igt_assert_f(l->target == run.l[0].target + (uint64_t)l->pts, "frame %d: target %"
			     PRIu64 ", want %" PRIu64 "\n", i, l->target,
			     run.l[0].target + l->pts);
		plan_add(&pl, &r, l, false);
		/* 24 fps on 60 Hz: 3, 2, 3, 2, ... vblanks */
		if (i)
			igt_assert_eq_u64(pl.due[i] - pl.due[i - 1], i % 2 ? 3 : 2);
	}
	decided = judge(&run, &r, &pl);
	/*
	 * judge() held every frame queued before its due vblank to that
	 * vblank exactly.  A player late for every frame (beside three CPU
	 * hogs the emulated decoder took 42 ms of CPU a frame) queued none:
	 * the screen then showed no frame wrong or early, but the cadence
	 * was not seen, which is a skip, not a pass.
	 */
	if (!decided && !timely_frames(&pl))
		igt_skip("the player queued every frame after its due vblank: "
			 "the cadence was not seen\n");
	igt_assert_f(decided > 0, "no frame seen on its due vblank\n");
}

/*
 * The "seek"/"pause" line: cancel_from's PresentId, what it cancelled of
 * how many queued, when it was called.
 */
static void event(const struct run *run, uint64_t *id, int *cancelled, int *queued,
		  int *presented, uint64_t *called)
{
	const char *s = strstr(run->event, "cancel_from id");
	uint64_t first;

	igt_assert_f(s && sscanf(s, "cancel_from id %" SCNu64 " cancelled %d of %d queued, "
				 "presented %d, called %" SCNu64 " first_target %" SCNu64, id,
				 cancelled, queued, presented, called, &first) == 6,
		     "no seek/pause line: \"%s\"\n", run->event);
}

/*
 * Frames 0..12 played, then cancel_from(frame 13) and @seek: frames from
 * 1500 ms on (frame 36), or (pause) 13.. again after 200 ms.  The frames
 * presented from that PresentId on that were still queued are cancelled
 * and none reaches the screen; one whose target was less than a period
 * after the call may have been latched already (optional in the plan).
 */
static void test_seek(bool seek)
{
	static struct ref r;
	static struct run run;
	static struct plan pl;
	const char *args[] = { seek ? "--seek" : "--pause", seek ? "12:1500" : "12:200", NULL };
	uint64_t cancel_id, called, seg_target = 0;
	int cancelled, queued, presented, sure = 0, latched = 0, after = 0;
	int64_t seg_pts = -1;

	learn_clip(CLIP_DIR "/play-24.mp4", &r);
	screen_begin();
	play(&run, CLIP_DIR "/play-24.mp4", args);
	event(&run, &cancel_id, &cancelled, &queued, &presented, &called);
	pl.n = 0;
	for (int i = 0; i < run.n; i++) {
		const struct line *l = &run.l[i];

		if (l->id < cancel_id + (uint64_t)presented)
			igt_assert_eq(ref_of_pts(&r, l->pts), l->index);
		if (l->id < cancel_id) {
			plan_add(&pl, &r, l, false);
		} else if (l->id < cancel_id + (uint64_t)presented) {
			/* presented before the seek: cancelled, or latched */
			if (l->target > called + period) {
				sure++;
				continue;
			}
			latched++;
			plan_add(&pl, &r, l, true);
		} else {
			/* the new position, on the clock from its first frame */
			if (seg_pts < 0) {
				seg_pts = l->pts;
				seg_target = l->target;
				igt_assert_eq_u64(l->pts, seek ? r.pts[36] : r.pts[13]);
				igt_assert_f(l->target > called, "a target before the seek\n");
			}
			igt_assert_eq_u64(l->target - seg_target, (uint64_t)(l->pts - seg_pts));
			plan_add(&pl, &r, l, false);
			after++;
		}
	}
	igt_assert_f(queued > 0 && queued <= presented, "%d of %d frames from id %" PRIu64
		     " queued\n", queued, presented, cancel_id);
	/* exactly the queued frames from the PresentId, but the latched */
	igt_assert_f(cancelled >= sure && cancelled <= queued,
		     "cancel_from cancelled %d, %d were due a period after the call, %d queued\n",
		     cancelled, sure, queued);
	if (!latched)
		igt_assert_eq(cancelled, queued);
	igt_assert_eq(after, seek ? r.n - 36 : r.n - 13);
	igt_info("%s: %d presented from id %" PRIu64 ", %d queued, %d cancelled (%d due within "
		 "a period of the call)\n", seek ? "seek" : "pause", presented, cancel_id, queued,
		 cancelled, latched);
	judge(&run, &r, &pl);
}

igt_main
{
	igt_fixture {
		static const char *const attrs[] = {
			"modes", "640x480@60", "preferred_mode", "640x480@60", "writeback", "0",
			"flipq_depth", "8", NULL,
		};
		char path[64];
		int card;

		igt_require(vfq_cfs_available());
		vfq_cfs_cleanup();
		card = vfq_cfs_create(DEV, attrs);
		snprintf(path, sizeof(path), "/dev/dri/card%d", card);
		fd = open(path, O_RDWR | O_CLOEXEC);
		igt_assert_lte(0, fd);
		vfq_dev_init(&dev, fd);
		vfq_get_mode(fd, dev.pipe[0].conn_id, W, H, 60, &mode);
		period = vfq_mode_period(&mode);
		vfq_fb_create(fd, W, H, DRM_FORMAT_XRGB8888, &black);
		/* no CRCs on the debug kernel (as present_swapchain) */
		igt_require_f(!getenv("VFLIPQ_DEBUG_KERNEL"), "no CRCs on the debug kernel\n");
	}

	igt_describe("Every frame of a 24 fps clip on a 60 Hz output is shown at its 3:2 cadence "
		     "position, once");
	igt_subtest("cadence-24fps")
		test_cadence();

	igt_describe("A seek cancels exactly the frames queued after the PresentId; none of them "
		     "reaches the screen, the frames after the new position do");
	igt_subtest("seek")
		test_seek(true);

	igt_fixture {
		drmSetMaster(fd);
		vfq_fb_destroy(&black);
		vfq_dev_fini(&dev);
		vfq_cfs_cleanup();
	}
}
