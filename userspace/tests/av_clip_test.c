// SPDX-License-Identifier: MIT
/*
 * present-play's decoder (common/av_clip.c) on the clips of
 * scripts/mkclips.sh (made here by meson): every frame in PTS order with
 * the clip's timing (24 fps, 30 fps, 24 then 30 fps), a seek lands on the
 * first frame at or after its time, and the XRGB8888 of a frame is the
 * same every time it is decoded and differs from frame to frame (what the
 * igt test's CRCs rely on).
 *
 *   av_clip_test DIR    (DIR holds play-24.mp4, play-30.mp4, play-vfr.mp4)
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../libpresent/tests/test.h"
#include "../common/av_clip.h"

#define W 320
#define H 180

static uint32_t px[2][W * H];

/* The expected PTS of frame i, ns: in 1/1200 s ticks, rounded to the ns. */
static int64_t want_pts(const char *name, int i)
{
	int64_t t;

	if (!strcmp(name, "play-24.mp4"))
		t = 50 * i;
	else if (!strcmp(name, "play-30.mp4"))
		t = 40 * i;
	else
		t = i < 24 ? 50 * i : 1200 + 40 * (i - 24);
	return (2 * t * 1000000000ll + 1200) / 2400;
}

static struct av_clip *open_clip(const char *dir, const char *name)
{
	char path[512];
	struct av_clip *c = NULL;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ret = av_clip_open(path, &c);
	CHECK(ret == 0, "%s: %s", path, av_clip_error(c));
	if (ret) {
		av_clip_close(c);
		return NULL;
	}
	return c;
}

static void check_timing(const char *dir, const char *name, int frames)
{
	struct av_clip *c = open_clip(dir, name);
	struct av_clip_frame f;
	int n = 0, w, h;

	if (!c)
		return;
	av_clip_size(c, &w, &h);
	CHECK(w == W && h == H, "%s: %dx%d", name, w, h);
	while (av_clip_next(c, &f) == 1) {
		CHECK(f.pts_ns == want_pts(name, n), "%s frame %d: PTS %" PRId64 ", want %" PRId64,
		      name, n, f.pts_ns, want_pts(name, n));
		n++;
	}
	CHECK(n == frames, "%s: %d frames, want %d", name, n, frames);
	av_clip_close(c);
}

/* Frame @i of play-24 into px[@slot], decoded from the start or by a seek. */
static void frame_at(struct av_clip *c, int i, int slot, bool seek)
{
	struct av_clip_frame f = { 0 };
	int ret = 1;

	if (seek) {
		CHECK(av_clip_seek(c, want_pts("play-24.mp4", i)) == 0, "seek: %s",
		      av_clip_error(c));
		ret = av_clip_next(c, &f);
	} else {
		for (int k = 0; k <= i && ret == 1; k++)
			ret = av_clip_next(c, &f);
	}
	CHECK(ret == 1 && f.pts_ns == want_pts("play-24.mp4", i), "frame %d: %d, PTS %" PRId64,
	      i, ret, f.pts_ns);
	CHECK(av_clip_to_xrgb(c, &f, px[slot], W * 4, W, H) == 0, "convert: %s",
	      av_clip_error(c));
}

int main(int argc, char **argv)
{
	struct av_clip *a, *b;

	if (argc != 2) {
		fprintf(stderr, "usage: av_clip_test DIR\n");
		return 2;
	}
	check_timing(argv[1], "play-24.mp4", 48);
	check_timing(argv[1], "play-30.mp4", 60);
	check_timing(argv[1], "play-vfr.mp4", 54);
	a = open_clip(argv[1], "play-24.mp4");
	b = open_clip(argv[1], "play-24.mp4");
	if (a && b) {
		/* frame 20 in order, then after a seek back and forth */
		frame_at(a, 20, 0, false);
		frame_at(b, 36, 1, true);
		CHECK(memcmp(px[0], px[1], sizeof(px[0])), "frames 20 and 36 look the same");
		frame_at(b, 20, 1, true);
		CHECK(!memcmp(px[0], px[1], sizeof(px[0])), "frame 20 differs after a seek");
		frame_at(a, 0, 1, true);
		CHECK(memcmp(px[0], px[1], sizeof(px[0])), "frames 20 and 0 look the same");
	}
	av_clip_close(a);
	av_clip_close(b);
	return test_done("av_clip");
}
