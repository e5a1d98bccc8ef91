// SPDX-License-Identifier: MIT
/*
 * Atomic KMS basics on vflipq: TEST_ONLY, modesets, nonblocking commits
 * with events, legacy page flips, DPMS, and refused configurations.
 */
/**
 * TEST: kms vflipq atomic
 * Category: Display
 * Mega feature: General Display Features
 * Sub-category: uapi
 * Functionality: atomic modeset
 * Driver requirement: vflipq
 * Description: Atomic KMS basics on vflipq: TEST_ONLY commits, modesets,
 *              nonblocking commits with events, legacy page flips and ioctls,
 *              DPMS, framebuffer mappings, and refused configurations.
 *
 * SUBTEST: test-only-leaves-state
 * Description: A TEST_ONLY commit changes nothing, valid or not
 *
 * SUBTEST: modeset-on-off
 * Description: Full modesets on, between modes, and off, per OBJ_CRTC
 *
 * SUBTEST: modeset-needs-allow
 * Description: A mode change without ALLOW_MODESET is refused
 *
 * SUBTEST: nonblocking-flip-events
 * Description: Nonblocking flips complete with an event each, in order
 *
 * SUBTEST: fb-mapped-while-it-exists
 * Description: A framebuffer is mapped from the first commit that shows it
 *              until it is destroyed: flips between two map neither again nor
 *              more, and removing them, shown or not, unmaps them
 *
 * SUBTEST: legacy-page-flip
 * Description: Legacy drmModePageFlip with an event
 *
 * SUBTEST: dpms
 * Description: DPMS off/on through the connector property
 *
 * SUBTEST: scaling-refused
 * Description: Scaling is refused on every plane type
 *
 * SUBTEST: fractional-source
 * Description: Fractional source coordinates are refused with EINVAL
 *
 * SUBTEST: legacy-ioctls
 * Description: Legacy SetCrtc, SetPlane and cursor ioctls
 *
 * SUBTEST: off-event
 * Description: The event of a commit turning the CRTC off comes at once
 *
 * SUBTEST: rotated-size
 * Description: 90/270 rotation needs the source size swapped
 *
 * SUBTEST: plane-on-other-crtc
 * Description: A plane cannot be put on another OBJ_CRTC than its own
 *
 * SUBTEST: mode-refresh-limits
 * Description: Made-up modes: refresh rates outside 1-240 Hz are refused, the
 *              limits themselves accepted
 *
 * SUBTEST: cursor-any-size
 * Description: Cursor planes of any size, full-screen and below 16x16, are
 *              accepted and composed
 *
 * SUBTEST: positioning-accepted
 * Description: Planes partially off-screen, and a primary not covering the
 *              OBJ_CRTC, are accepted
 *
 * SUBTEST: cursor-move-after-flip
 * Description: drmModeMoveCursor after a nonblocking flip returns before the
 *              flip's vblank and the next frame shows the move
 *
 * SUBTEST: cursor-shared-state-stress
 * Description: Primary flips that leave the cursor alone, interleaved with
 *              legacy cursor moves and then cursor image changes whose old fb
 *              goes at once: every frame's CRC is one the flips, moves and
 *              image changes put on screen
 */

#include <stdlib.h>
#include <string.h>

#include "igt.h"
#include "vflipq_helpers.h"

IGT_TEST_DESCRIPTION("vflipq atomic modesetting and page flips");

#define W 640
#define H 480

static struct vfq_dev dev;
static igt_display_t display;
static drmModeModeInfo mode, mode_big;
static struct vfq_fb fb_a, fb_b, fb_ov, fb_big;

#define OBJ_PLANE DRM_MODE_OBJECT_PLANE
#define OBJ_CRTC DRM_MODE_OBJECT_CRTC
#define OBJ_CONN DRM_MODE_OBJECT_CONNECTOR

struct snapshot {
	uint64_t primary_fb, crtc_active, mode_id, conn_crtc;
	uint64_t ov_fb, ov_x, ov_y, ov_crtc;
};

static void snap(struct snapshot *s)
{
	struct vfq_pipe *p = &dev.pipe[0];

	s->primary_fb = vfq_prop_get(dev.fd, p->primary, OBJ_PLANE, "FB_ID");
	s->crtc_active = vfq_prop_get(dev.fd, p->crtc_id, OBJ_CRTC, "ACTIVE");
	s->mode_id = vfq_prop_get(dev.fd, p->crtc_id, OBJ_CRTC, "MODE_ID");
	s->conn_crtc = vfq_prop_get(dev.fd, p->conn_id, OBJ_CONN, "CRTC_ID");
	s->ov_fb = vfq_prop_get(dev.fd, p->overlays[0], OBJ_PLANE, "FB_ID");
	s->ov_x = vfq_prop_get(dev.fd, p->overlays[0], OBJ_PLANE, "CRTC_X");
	s->ov_y = vfq_prop_get(dev.fd, p->overlays[0], OBJ_PLANE, "CRTC_Y");
	s->ov_crtc = vfq_prop_get(dev.fd, p->overlays[0], OBJ_PLANE, "CRTC_ID");
}

static void check_snap(const struct snapshot *a)
{
	struct snapshot b;

	snap(&b);
	igt_assert_eq_u64(b.primary_fb, a->primary_fb);
	igt_assert_eq_u64(b.crtc_active, a->crtc_active);
	igt_assert_eq_u64(b.mode_id, a->mode_id);
	igt_assert_eq_u64(b.conn_crtc, a->conn_crtc);
	igt_assert_eq_u64(b.ov_fb, a->ov_fb);
	igt_assert_eq_u64(b.ov_x, a->ov_x);
	igt_assert_eq_u64(b.ov_y, a->ov_y);
	igt_assert_eq_u64(b.ov_crtc, a->ov_crtc);
}

/* The current mode of OBJ_CRTC index @pipe according to drmModeGetCrtc. */
static void check_crtc_mode(int pipe, const drmModeModeInfo *want)
{
	drmModeCrtc *c = drmModeGetCrtc(dev.fd, dev.pipe[pipe].crtc_id);

	igt_assert(c);
	if (want) {
		igt_assert(c->mode_valid);
		igt_assert_eq(c->mode.hdisplay, want->hdisplay);
		igt_assert_eq(c->mode.vdisplay, want->vdisplay);
		igt_assert_eq(c->mode.clock, want->clock);
		igt_assert_eq(c->mode.vtotal, want->vtotal);
		igt_assert_eq(c->mode.htotal, want->htotal);
	} else {
		igt_assert(!c->mode_valid);
	}
	drmModeFreeCrtc(c);
}

/* A cursor fb of vfq_pattern8(seed) at (x, y); elsewhere unchecked. */
struct cursor_area {
	int x, y, w, h;
	uint32_t seed;
};

static struct vfq_color expect_cursor(int x, int y, void *data)
{
	const struct cursor_area *a = data;

	if (x < a->x || y < a->y || x >= a->x + a->w || y >= a->y + a->h)
		return (struct vfq_color){ 0, 0, 0, 0 };
	return vfq_pattern8(x - a->x, y - a->y, a->seed);
}

/* Scaling (also implied by unswapped 90/270 sizes): ERANGE (driver.rst). */
static void assert_scaling_refused(int ret)
{
	igt_assert_f(ret == -ERANGE, "scaling request: %s, expected ERANGE\n",
		     ret ? strerror(-ret) : "accepted");
}

/* Plane @id of pipe 0 in igt_display (asserted: IGT's lookups skip). */
static igt_plane_t *plane0(uint32_t id)
{
	return vfq_display_plane(&display, 0, id);
}

/* Blocking modeset of @pipe to @m, its primary full-screen on @fb. */
static void pipe_on(int pipe, const drmModeModeInfo *m, struct vfq_fb *fb)
{
	vfq_display_pipe(&display, &dev, pipe, m, fb);
	igt_display_commit2(&display, COMMIT_ATOMIC);
}

/* Blocking modeset turning @pipe off: no connector, mode or primary. */
static void pipe_off(int pipe)
{
	igt_output_set_pipe(vfq_output(&display, &dev, pipe), PIPE_NONE);
	igt_plane_set_fb(vfq_display_plane(&display, pipe,
					   dev.pipe[pipe].primary), NULL);
	igt_display_commit2(&display, COMMIT_ATOMIC);
}

/*
 * Everything off, from igt_display's whole state: also after the legacy
 * ioctls and raw requests of a subtest, which igt_display does not see.
 * Events a subtest left unread go too, as vfq_dev_reset() drops them.
 */
static void reset(void)
{
	vfq_display_off(&display);
	vfq_drain_events(dev.fd, 0);
}

/* Pending: @plane on pipe 0 at (x, y), src (sx, sy) sw x sh, cw x ch. */
static void plane_src(igt_plane_t *plane, struct vfq_fb *fb, int sx, int sy,
		      int sw, int sh, int x, int y, int cw, int ch)
{
	igt_plane_set_fb(plane, &fb->igt);
	igt_fb_set_position(&fb->igt, plane, sx, sy);
	igt_fb_set_size(&fb->igt, plane, sw, sh);
	igt_plane_set_position(plane, x, y);
	igt_plane_set_size(plane, cw, ch);
}

static void pipe0_on_with_overlay(void)
{
	vfq_display_pipe(&display, &dev, 0, &mode, &fb_a);
	plane_src(plane0(dev.pipe[0].overlays[0]), &fb_ov, 0, 0, 64, 64,
		  10, 20, 64, 64);
	igt_display_commit2(&display, COMMIT_ATOMIC);
}

/*
 * The flip event of a flip started at @t_start, checked by the CRTC's
 * vflipq_truth checker.  Mode sets restart the grid within a subtest, so
 * the checker holds the rules that survive them (no grid period).
 */
static struct vfq_event wait_flip(uint32_t crtc, uint64_t user_data,
				  uint64_t t_start)
{
	static struct vfq_truth truth[VFQ_MAX_CRTCS];
	struct vfq_truth *t = NULL;
	struct vfq_event ev;
	uint64_t t_read;

	igt_assert_f(vfq_read_event(dev.fd, 1000, &ev) == 1,
		     "no event within 1 s\n");
	t_read = vfq_now_ns();
	igt_assert_eq_u32(ev.type, DRM_EVENT_FLIP_COMPLETE);
	igt_assert_eq_u32(ev.crtc_id, crtc);
	igt_assert_eq_u64(ev.user_data, user_data);
	igt_assert(ev.ts_ns + 1000000000ull > t_read);
	for (int i = 0; i < dev.n_pipes; i++)
		if (dev.pipe[i].crtc_id == crtc)
			t = &truth[i];
	igt_assert(t);
	if (t->crtc_id != crtc)
		vfq_truth_init(t, crtc, 0, VFQ_TRUTH_FLIPS);
	vfq_truth_event(t, "flip", t_start, &ev, t_read);
	return ev;
}

/* A blocking atomic commit of the cursor at (x, y): an ordinary commit. */
static void cursor_commit(struct vfq_fb *fb, int x, int y)
{
	igt_plane_t *cursor = plane0(dev.pipe[0].cursor);

	igt_plane_set_fb(cursor, &fb->igt);
	igt_plane_set_position(cursor, x, y);
	igt_display_commit_atomic(&display, 0, NULL);
}

/* The CRC of a frame composed wholly after now (the CRTC's next vblank). */
static uint32_t next_frame_crc(igt_pipe_crc_t *crc)
{
	uint32_t v;

	vfq_crc_collect(crc, vfq_crtc_sequence(dev.fd, dev.pipe[0].crtc_id) +
			1, 1, &v);
	return v;
}

/*
 * Kernel mappings of @pages pages made by vmap() (the GEM shmem helpers map
 * a buffer so), as /proc/vmallocinfo lists them: "start-end size caller
 * vmap", the size with the guard page after the area.
 */
static int vmaps_of(int pages)
{
	FILE *f = fopen("/proc/vmallocinfo", "r");
	char line[512];
	int n = 0;

	igt_require_f(f, "no /proc/vmallocinfo\n");
	while (fgets(line, sizeof(line), f)) {
		unsigned long long size;

		if (sscanf(line, "%*s %llu", &size) == 1 &&
		    size == (pages + 1) * 4096ull && strstr(line, " vmap\n"))
			n++;
	}
	fclose(f);
	return n;
}

/*
 * cursor-shared-state-stress: a commit leaves the planes it does not change
 * out, so one cursor (or primary) plane state is composed by the CRTC
 * states of several commits, and the commit that lets go of it must wait
 * for all their compositions (Documentation/vflipq/locking.rst, "Cursor
 * updates in place").  Every frame is judged: which primary, cursor image
 * and cursor position it shows, against the flips' events and the vblank
 * counts around each cursor ioctl.
 */
#define SH_PRIMARIES 3
#define SH_IMAGES 2
#define SH_POSITIONS 3
#define SH_FLIPS 48		/* per phase */
#define SH_PHASES 3
#define SH_MAX_OPS 512
#define SH_MAX_CRCS 2048

static const int sh_pos[SH_POSITIONS][2] = {
	{ 100, 80 }, { 500, 300 }, { 800, 600 },
};

/* A cursor ioctl: vblank counts read before the call and after it. */
struct sh_op {
	uint64_t before, after;
	int value;		/* position or image index */
};

struct sh_crc {
	uint64_t frame;
	uint32_t value;
	int moves;		/* moves started before it was read */
};

struct sh_run {
	igt_pipe_crc_t *crc;
	uint64_t start;
	uint32_t known[SH_PRIMARIES][SH_IMAGES][SH_POSITIONS];
	struct sh_op moves[SH_MAX_OPS], images[SH_MAX_OPS];
	int n_moves, n_images;
	uint64_t flip_seq[SH_PHASES * SH_FLIPS];
	int flip_prim[SH_PHASES * SH_FLIPS];
	bool flip_async[SH_PHASES * SH_FLIPS];
	int n_flips;
	struct sh_crc crcs[SH_MAX_CRCS];
	int n_crcs;
};

/* Every CRC the capture has now; the ring holds 128, so read often. */
static void sh_drain(struct sh_run *r)
{
	uint32_t frame, value;

	while (vfq_crc_read(r->crc, 0, &frame, &value) == 1) {
		struct sh_crc *c;

		igt_assert_lt(r->n_crcs, SH_MAX_CRCS);
		igt_assert_neq_u32(frame, UINT32_MAX);
		c = &r->crcs[r->n_crcs++];
		c->frame = r->start + (int32_t)(frame - (uint32_t)r->start);
		c->value = value;
		c->moves = r->n_moves;
	}
}

static struct sh_op *sh_op_begin(struct sh_op *ops, int *n, int value)
{
	struct sh_op *op;

	igt_assert_lt(*n, SH_MAX_OPS);
	op = &ops[(*n)++];
	op->value = value;
	op->before = vfq_crtc_sequence(dev.fd, dev.pipe[0].crtc_id);
	return op;
}

static void sh_op_end(struct sh_op *op)
{
	op->after = vfq_crtc_sequence(dev.fd, dev.pipe[0].crtc_id);
}

static void sh_move(struct sh_run *r, int v)
{
	struct sh_op *op = sh_op_begin(r->moves, &r->n_moves, v);

	igt_assert_eq(drmModeMoveCursor(dev.fd, dev.pipe[0].crtc_id,
					sh_pos[v][0], sh_pos[v][1]), 0);
	sh_op_end(op);
	sh_drain(r);
}

/* A new buffer with cursor image @c (the pixels of the learned img[c]). */
static void sh_image_bo(int c, struct vfq_fb *bo)
{
	igt_assert_eq(vfq_bo_create(dev.fd, 64, 64, DRM_FORMAT_ARGB8888, bo),
		      0);
	/* SetCursor's framebuffer has a pitch of 64 * 4. */
	igt_assert_eq_u32(bo->pitch, 64 * 4);
	vfq_fb_pattern(bo, 0x5a00 + c);
}

/*
 * Cursor image @c from @bo, a buffer of its own (sh_image_bo()), on a new
 * framebuffer: the legacy SetCursor's own, or SETPLANE of an ADDFB2 of it.
 * The framebuffer it replaces is removed at once (*@prev_fb, when it is
 * one of this test's), and the buffer's handle and mapping go right after
 * the ioctl: the plane states hold the last reference to the framebuffer,
 * and the last one to go unmaps and frees the buffer.
 */
static void sh_image(struct sh_run *r, struct vfq_fb *bo, int c, int v,
		     bool setcursor, uint32_t *prev_fb)
{
	const struct vfq_pipe *p = &dev.pipe[0];
	struct sh_op *op;
	uint32_t fb = 0;

	if (!setcursor) {
		uint32_t handles[4] = { bo->handle };
		uint32_t pitches[4] = { bo->pitch };
		uint32_t offsets[4] = { 0 };

		igt_assert_eq(drmModeAddFB2(dev.fd, 64, 64,
					    DRM_FORMAT_ARGB8888, handles,
					    pitches, offsets, &fb, 0), 0);
	}
	op = sh_op_begin(r->images, &r->n_images, c);
	if (setcursor)
		igt_assert_eq(drmModeSetCursor(dev.fd, p->crtc_id,
					       bo->handle, 64, 64), 0);
	else
		igt_assert_eq(drmModeSetPlane(dev.fd, p->cursor, p->crtc_id,
					      fb, 0, sh_pos[v][0],
					      sh_pos[v][1], 64, 64, 0, 0,
					      64 << 16, 64 << 16), 0);
	sh_op_end(op);
	if (*prev_fb)
		igt_assert_eq(drmModeRmFB(dev.fd, *prev_fb), 0);
	*prev_fb = fb;
	vfq_fb_destroy(bo);
	sh_drain(r);
}

/* A nonblocking flip of the primary to @fb, legacy or atomic, or async. */
static void sh_flip(int i, struct vfq_fb *fb, bool async)
{
	const struct vfq_pipe *p = &dev.pipe[0];
	drmModeAtomicReq *req;

	if (async) {
		igt_assert_eq(drmModePageFlip(dev.fd, p->crtc_id, fb->fb_id,
					      DRM_MODE_PAGE_FLIP_EVENT |
					      DRM_MODE_PAGE_FLIP_ASYNC,
					      (void *)(uintptr_t)(0x5000 + i)),
			      0);
		return;
	}
	if (i & 1) {
		igt_assert_eq(drmModePageFlip(dev.fd, p->crtc_id, fb->fb_id,
					      DRM_MODE_PAGE_FLIP_EVENT,
					      (void *)(uintptr_t)(0x5000 + i)),
			      0);
		return;
	}
	req = vfq_req_new();
	vfq_req_set(req, dev.fd, p->primary, OBJ_PLANE, "FB_ID", fb->fb_id);
	igt_assert_eq(vfq_req_commit(dev.fd, req, DRM_MODE_ATOMIC_NONBLOCK |
				     DRM_MODE_PAGE_FLIP_EVENT,
				     (void *)(uintptr_t)(0x5000 + i)), 0);
}

/* Last index k of @ops[0..n) with ops[k].@field < @frame (0 if none). */
#define SH_LAST_BEFORE(ops, n, field, frame) ({				\
	int __k = 0;							\
	for (int __i = 0; __i < (n); __i++)				\
		if ((ops)[__i].field < (frame))				\
			__k = __i;					\
	__k; })

/*
 * Frame @c->frame shows: the primary of the last flip whose event is at
 * or before it (before it for an async flip, whose event carries the last
 * vblank before the flip: a composition of that frame that the flip
 * overtook gives no CRC); the cursor image of the CRTC state at its vblank, made by
 * an image change that returned before that vblank was counted or by one
 * that began before it; the cursor at a position of a move that returned
 * before that vblank or of any later one begun before the CRC was read (a
 * move changes the cursor state in place, which a composition running
 * late shows).  Returns whether it holds.
 */
static bool sh_judge(const struct sh_run *r, const struct sh_crc *c)
{
	int p = -1, im = -1, pos = -1, want_p = 0, lo, hi;
	bool img_ok = false, pos_ok = false;

	for (int a = 0; a < SH_PRIMARIES; a++)
		for (int b = 0; b < SH_IMAGES; b++)
			for (int v = 0; v < SH_POSITIONS; v++)
				if (r->known[a][b][v] == c->value) {
					p = a;
					im = b;
					pos = v;
				}
	if (p < 0) {
		igt_warn("frame %llu: CRC %08x is no frame this test showed\n",
			 (unsigned long long)c->frame, c->value);
		return false;
	}
	for (int f = 0; f < r->n_flips; f++)
		if (r->flip_seq[f] + r->flip_async[f] <= c->frame)
			want_p = r->flip_prim[f];

	lo = SH_LAST_BEFORE(r->images, r->n_images, after, c->frame);
	hi = SH_LAST_BEFORE(r->images, r->n_images, before, c->frame);
	for (int k = lo; k <= hi; k++)
		img_ok |= r->images[k].value == im;

	lo = SH_LAST_BEFORE(r->moves, r->n_moves, after, c->frame);
	for (int k = lo; k < c->moves; k++)
		pos_ok |= r->moves[k].value == pos;

	if (p != want_p || !img_ok || !pos_ok) {
		igt_warn("frame %llu: CRC %08x shows primary %d, cursor image "
			 "%d at position %d; the flips put primary %d there, "
			 "cursor image %s, position %s\n",
			 (unsigned long long)c->frame, c->value, p, im, pos,
			 want_p, img_ok ? "right" : "wrong",
			 pos_ok ? "right" : "wrong");
		return false;
	}
	return true;
}

static void sh_learn(struct sh_run *r, struct vfq_fb *prim, struct vfq_fb *img)
{
	igt_plane_t *primary = plane0(dev.pipe[0].primary);
	igt_plane_t *cursor = plane0(dev.pipe[0].cursor);

	for (int a = 0; a < SH_PRIMARIES; a++)
		for (int b = 0; b < SH_IMAGES; b++)
			for (int v = 0; v < SH_POSITIONS; v++) {
				igt_plane_set_fb(primary, &prim[a].igt);
				igt_plane_set_fb(cursor, &img[b].igt);
				igt_plane_set_position(cursor, sh_pos[v][0],
						       sh_pos[v][1]);
				igt_display_commit_atomic(&display, 0, NULL);
				r->known[a][b][v] = next_frame_crc(r->crc);
			}
	for (int i = 0; i < SH_PRIMARIES * SH_IMAGES * SH_POSITIONS; i++)
		for (int j = 0; j < i; j++)
			igt_assert_f((&r->known[0][0][0])[i] !=
				     (&r->known[0][0][0])[j],
				     "frames %d and %d both give CRC %08x\n",
				     i, j, (&r->known[0][0][0])[i]);
	/* The loop starts from primary 0, image 0 at position 0. */
	igt_plane_set_fb(primary, &prim[0].igt);
	igt_plane_set_fb(cursor, &img[0].igt);
	igt_plane_set_position(cursor, sh_pos[0][0], sh_pos[0][1]);
	igt_display_commit_atomic(&display, 0, NULL);
}

igt_main
{
	igt_fixture {
		vfq_dev_init(&dev, vfq_open_default());
		igt_assert_lte(1, dev.pipe[0].n_overlays);
		/* raw: also zpos, which igt_display_reset() leaves */
		vfq_dev_reset(&dev);
		vfq_display_init(&display, &dev);
		/* igt_display's first commit, which drops stale events */
		vfq_display_off(&display);
		vfq_get_mode(dev.fd, dev.pipe[0].conn_id, W, H, 60, &mode);
		vfq_get_mode(dev.fd, dev.pipe[0].conn_id, 1024, 768, 60,
			     &mode_big);
		vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &fb_a);
		vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &fb_b);
		vfq_fb_create(dev.fd, 64, 64, DRM_FORMAT_ARGB8888, &fb_ov);
		vfq_fb_create(dev.fd, 1024, 768, DRM_FORMAT_XRGB8888, &fb_big);
	}

	igt_describe("A TEST_ONLY commit changes nothing, valid or not");
	igt_subtest("test-only-leaves-state") {
		struct vfq_pipe *p = &dev.pipe[0];
		struct snapshot s;
		drmModeAtomicReq *req;
		uint32_t blob;
		uint64_t seq;

		pipe0_on_with_overlay();
		snap(&s);
		igt_assert_eq_u64(s.primary_fb, fb_a.fb_id);
		igt_assert_eq_u64(s.crtc_active, 1);
		igt_assert_eq_u64(s.ov_x, 10);

		/*
		 * The TEST_ONLY requests stay raw: each asks one change on
		 * top of the committed state, an exact property set, and
		 * one pairs TEST_ONLY with an event, which is the refusal
		 * under test.
		 */
		/* valid: new mode, new fbs, overlay moved */
		req = vfq_req_new();
		vfq_req_pipe_on(req, &dev, 0, &mode_big, fb_big.fb_id, &blob);
		vfq_req_plane(req, dev.fd, p->overlays[0], p->crtc_id,
			      fb_ov.fb_id, 300, 200, 64, 64);
		igt_assert_eq(vfq_req_commit(dev.fd, req,
					     DRM_MODE_ATOMIC_TEST_ONLY |
					     DRM_MODE_ATOMIC_ALLOW_MODESET,
					     NULL), 0);
		drmModeDestroyPropertyBlob(dev.fd, blob);
		check_snap(&s);
		check_crtc_mode(0, &mode);

		/* valid: switch off */
		req = vfq_req_new();
		vfq_req_set(req, dev.fd, p->crtc_id, OBJ_CRTC, "ACTIVE", 0);
		igt_assert_eq(vfq_req_commit(dev.fd, req,
					     DRM_MODE_ATOMIC_TEST_ONLY |
					     DRM_MODE_ATOMIC_ALLOW_MODESET,
					     NULL), 0);
		check_snap(&s);

		/* valid: page flip (an event would be invalid) */
		req = vfq_req_new();
		vfq_req_set(req, dev.fd, p->primary, OBJ_PLANE, "FB_ID",
			    fb_b.fb_id);
		igt_assert_eq(vfq_req_commit(dev.fd, req,
					     DRM_MODE_ATOMIC_TEST_ONLY, NULL),
			      0);
		req = vfq_req_new();
		vfq_req_set(req, dev.fd, p->primary, OBJ_PLANE, "FB_ID",
			    fb_b.fb_id);
		igt_assert_eq(vfq_req_commit(dev.fd, req,
					     DRM_MODE_ATOMIC_TEST_ONLY |
					     DRM_MODE_PAGE_FLIP_EVENT, NULL),
			      -EINVAL);
		check_snap(&s);

		/* invalid: upscaled overlay */
		req = vfq_req_new();
		vfq_req_plane_src(req, dev.fd, p->overlays[0], p->crtc_id,
				  fb_ov.fb_id, 0, 0, 64, 64, 50, 50, 128, 128);
		assert_scaling_refused(vfq_req_commit(dev.fd, req,
					DRM_MODE_ATOMIC_TEST_ONLY, NULL));
		check_snap(&s);

		/* still scanning out, and no event was generated */
		vfq_assert_running(dev.fd, 0);
		seq = vfq_crtc_sequence(dev.fd, p->crtc_id);
		igt_assert(seq > 0);
		igt_assert_eq(vfq_read_event(dev.fd, 100, &(struct vfq_event){}),
			      0);
		reset();
	}

	igt_describe("Full modesets on, between modes, and off, per OBJ_CRTC");
	igt_subtest("modeset-on-off") {
		for (int i = 0; i < dev.n_pipes; i++) {
			struct vfq_pipe *p = &dev.pipe[i];
			drmModeModeInfo m, mb;

			vfq_get_mode(dev.fd, p->conn_id, W, H, 60, &m);
			vfq_get_mode(dev.fd, p->conn_id, 1024, 768, 60, &mb);
			vfq_assert_stopped(dev.fd, i);
			check_crtc_mode(i, NULL);

			pipe_on(i, &m, &fb_a);
			igt_assert_eq_u64(vfq_prop_get(dev.fd, p->crtc_id, OBJ_CRTC,
						       "ACTIVE"), 1);
			igt_assert(vfq_prop_get(dev.fd, p->crtc_id, OBJ_CRTC,
						"MODE_ID") != 0);
			igt_assert_eq_u64(vfq_prop_get(dev.fd, p->conn_id, OBJ_CONN,
						       "CRTC_ID"), p->crtc_id);
			check_crtc_mode(i, &m);
			vfq_assert_running(dev.fd, i);
			/* the other CRTCs stay off */
			for (int j = 0; j < dev.n_pipes; j++)
				if (j != i)
					vfq_assert_stopped(dev.fd, j);

			pipe_on(i, &mb, &fb_big);
			check_crtc_mode(i, &mb);
			vfq_assert_running(dev.fd, i);

			pipe_off(i);
			igt_assert_eq_u64(vfq_prop_get(dev.fd, p->crtc_id, OBJ_CRTC,
						       "ACTIVE"), 0);
			igt_assert_eq_u64(vfq_prop_get(dev.fd, p->crtc_id, OBJ_CRTC,
						       "MODE_ID"), 0);
			check_crtc_mode(i, NULL);
			vfq_assert_stopped(dev.fd, i);
		}
	}

	igt_describe("A mode change without ALLOW_MODESET is refused");
	igt_subtest("modeset-needs-allow") {
		pipe_on(0, &mode, &fb_a);
		vfq_display_pipe(&display, &dev, 0, &mode_big, &fb_big);
		igt_assert_eq(igt_display_try_commit_atomic(&display, 0, NULL),
			      -EINVAL);
		check_crtc_mode(0, &mode);
		reset();
	}

	igt_describe("Nonblocking flips complete with an event each, in order");
	igt_subtest("nonblocking-flip-events") {
		struct vfq_pipe *p = &dev.pipe[0];
		uint64_t last_seq = 0, last_ts = 0, t0;

		pipe_on(0, &mode, &fb_a);
		/*
		 * Raw nonblocking flips: their events are timed against the
		 * CRTC's vblanks (wait_flip()).
		 */
		for (int i = 0; i < 20; i++) {
			drmModeAtomicReq *req = vfq_req_new();
			struct vfq_fb *fb = (i & 1) ? &fb_a : &fb_b;
			struct vfq_event ev;

			vfq_req_set(req, dev.fd, p->primary, OBJ_PLANE, "FB_ID",
				    fb->fb_id);
			t0 = vfq_now_ns();
			igt_assert_eq(vfq_req_commit(dev.fd, req,
						     DRM_MODE_ATOMIC_NONBLOCK |
						     DRM_MODE_PAGE_FLIP_EVENT,
						     (void *)(uintptr_t)(0x1000 + i)),
				      0);
			ev = wait_flip(p->crtc_id, 0x1000 + i, t0);
			if (i) {
				igt_assert_lt_u64(last_seq, ev.sequence);
				igt_assert_lt_u64(last_ts, ev.ts_ns);
			}
			last_seq = ev.sequence;
			last_ts = ev.ts_ns;
			igt_assert_eq_u64(vfq_prop_get(dev.fd, p->primary,
						       OBJ_PLANE, "FB_ID"),
					  fb->fb_id);
		}
		reset();
	}

	igt_describe("A framebuffer is mapped from the first commit that shows "
		     "it until it is destroyed: flips between two map neither "
		     "again nor more, and removing them, shown or not, unmaps "
		     "them");
	igt_subtest("fb-mapped-while-it-exists") {
		/* 704 * 4 bytes a row is a multiple of 128: 330 whole pages. */
		enum { FW = 704, PAGES = 330 };
		struct vfq_pipe *p = &dev.pipe[0];
		struct vfq_fb f[2];
		int base;

		reset();
		vfq_fb_create(dev.fd, FW, H, DRM_FORMAT_XRGB8888, &f[0]);
		vfq_fb_create(dev.fd, FW, H, DRM_FORMAT_XRGB8888, &f[1]);
		igt_assert_eq_u64(f[0].size, PAGES * 4096ull);
		pipe_on(0, &mode, &fb_a);
		base = vmaps_of(PAGES);
		/*
		 * Blocking commits: the reference the old plane state holds
		 * on the framebuffer that left the screen is dropped at the
		 * end of commit_tail().  A nonblocking commit runs that in
		 * its worker after the event is sent, so the client could
		 * count the mapping before or after it goes; a blocking one
		 * runs it before the ioctl returns.  Raw requests: the
		 * flip events are timed against the CRTC's vblanks.
		 */
		for (int i = 0; i < 20; i++) {
			drmModeAtomicReq *req = vfq_req_new();

			uint64_t t0 = vfq_now_ns();

			vfq_req_plane(req, dev.fd, p->primary, p->crtc_id,
				      f[i & 1].fb_id, 0, 0, W, H);
			igt_assert_eq(vfq_req_commit(dev.fd, req,
						     DRM_MODE_PAGE_FLIP_EVENT,
						     (void *)(uintptr_t)(0x2000 + i)),
				      0);
			wait_flip(p->crtc_id, 0x2000 + i, t0);
			igt_assert_eq(vmaps_of(PAGES), base + (i ? 2 : 1));
		}
		/* f[0] is not on screen, f[1] is: RmFB turns its plane off. */
		vfq_fb_destroy(&f[0]);
		igt_assert_eq(vmaps_of(PAGES), base + 1);
		vfq_fb_destroy(&f[1]);
		igt_assert_eq(vmaps_of(PAGES), base);
		reset();
	}

	igt_describe("Legacy drmModePageFlip with an event");
	igt_subtest("legacy-page-flip") {
		struct vfq_pipe *p = &dev.pipe[0];
		struct vfq_fb other;
		uint64_t last_seq = 0;

		pipe_on(0, &mode, &fb_a);
		for (int i = 0; i < 10; i++) {
			struct vfq_fb *fb = (i & 1) ? &fb_a : &fb_b;
			uint64_t t0 = vfq_now_ns();
			struct vfq_event ev;

			igt_assert_eq(drmModePageFlip(dev.fd, p->crtc_id,
						      fb->fb_id,
						      DRM_MODE_PAGE_FLIP_EVENT,
						      (void *)(uintptr_t)(0x2000 + i)),
				      0);
			ev = wait_flip(p->crtc_id, 0x2000 + i, t0);
			igt_assert_lt_u64(last_seq, ev.sequence);
			last_seq = ev.sequence;
			igt_assert_eq_u64(vfq_prop_get(dev.fd, p->primary,
						       OBJ_PLANE, "FB_ID"),
					  fb->fb_id);
		}
		/* legacy flips cannot change the format */
		vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XBGR8888, &other);
		igt_assert_eq(drmModePageFlip(dev.fd, p->crtc_id, other.fb_id,
					      DRM_MODE_PAGE_FLIP_EVENT, NULL),
			      -EINVAL);
		vfq_fb_destroy(&other);
		reset();
	}

	igt_describe("DPMS off/on through the connector property");
	igt_subtest("dpms") {
		struct vfq_pipe *p = &dev.pipe[0];
		uint32_t dpms = vfq_prop_id(dev.fd, p->conn_id, OBJ_CONN, "DPMS");
		uint64_t t0;

		pipe_on(0, &mode, &fb_a);
		igt_assert_eq_u64(vfq_prop_get(dev.fd, p->conn_id, OBJ_CONN,
					       "DPMS"), DRM_MODE_DPMS_ON);

		igt_assert_eq(drmModeConnectorSetProperty(dev.fd, p->conn_id,
							  dpms,
							  DRM_MODE_DPMS_OFF),
			      0);
		igt_assert_eq_u64(vfq_prop_get(dev.fd, p->conn_id, OBJ_CONN,
					       "DPMS"), DRM_MODE_DPMS_OFF);
		igt_assert_eq_u64(vfq_prop_get(dev.fd, p->crtc_id, OBJ_CRTC,
					       "ACTIVE"), 0);
		/* the mode stays, the OBJ_CRTC stops */
		igt_assert(vfq_prop_get(dev.fd, p->crtc_id, OBJ_CRTC, "MODE_ID"));
		vfq_assert_stopped(dev.fd, 0);

		igt_assert_eq(drmModeConnectorSetProperty(dev.fd, p->conn_id,
							  dpms,
							  DRM_MODE_DPMS_ON),
			      0);
		igt_assert_eq_u64(vfq_prop_get(dev.fd, p->conn_id, OBJ_CONN,
					       "DPMS"), DRM_MODE_DPMS_ON);
		igt_assert_eq_u64(vfq_prop_get(dev.fd, p->crtc_id, OBJ_CRTC,
					       "ACTIVE"), 1);
		check_crtc_mode(0, &mode);
		vfq_assert_running(dev.fd, 0);
		t0 = vfq_now_ns();
		igt_assert_eq(drmModePageFlip(dev.fd, p->crtc_id, fb_b.fb_id,
					      DRM_MODE_PAGE_FLIP_EVENT,
					      (void *)0x3000), 0);
		wait_flip(p->crtc_id, 0x3000, t0);
		reset();
	}

	igt_describe("Scaling is refused on every plane type");
	igt_subtest("scaling-refused") {
		struct vfq_pipe *p = &dev.pipe[0];
		static const int rects[][4] = {
			/* src w, h -> crtc w, h */
			{ 64, 64, 128, 128 }, { 64, 64, 32, 32 },
			{ 64, 64, 64, 65 }, { 64, 64, 63, 64 },
		};
		uint32_t planes[3] = { p->primary, p->overlays[0], p->cursor };

		pipe_on(0, &mode, &fb_a);
		for (int k = 0; k < 3; k++) {
			igt_plane_t *plane;

			if (!planes[k])
				continue;
			plane = plane0(planes[k]);

			for (size_t r = 0; r < VFQ_ARRAY_SIZE(rects); r++) {
				plane_src(plane, &fb_ov, 0, 0, rects[r][0],
					  rects[r][1], 8, 8, rects[r][2],
					  rects[r][3]);
				assert_scaling_refused(
					igt_display_try_commit_atomic(&display,
								      0, NULL));
			}
			/*
			 * Taken back, so the next plane's request carries no
			 * refused plane: the primary as pipe_on() set it.
			 */
			igt_plane_set_fb(plane, k ? NULL : &fb_a.igt);
			igt_plane_set_position(plane, 0, 0);
		}
		reset();
	}

	igt_describe("Fractional source coordinates are refused with EINVAL");
	igt_subtest("fractional-source") {
		struct vfq_pipe *p = &dev.pipe[0];
		const uint32_t ov = p->overlays[0];
		static const uint64_t bad[][4] = {
			/* SRC_X, SRC_Y, SRC_W, SRC_H in 16.16 */
			{ 0x8000, 0, 32 << 16, 32 << 16 },
			{ 0, 0x4000, 32 << 16, 32 << 16 },
			{ 0x10001, 0x20000, 32 << 16, 32 << 16 },
		};

		igt_plane_t *plane;

		pipe_on(0, &mode, &fb_a);
		plane = plane0(ov);

		for (size_t i = 0; i < VFQ_ARRAY_SIZE(bad); i++) {
			plane_src(plane, &fb_ov, 0, 0, 32, 32, 10, 10, 32, 32);
			/*
			 * 16.16 values by hand: igt_fb_set_position()/
			 * _set_size() take whole pixels.
			 */
			igt_plane_set_prop_value(plane, IGT_PLANE_SRC_X,
						 bad[i][0]);
			igt_plane_set_prop_value(plane, IGT_PLANE_SRC_Y,
						 bad[i][1]);
			igt_plane_set_prop_value(plane, IGT_PLANE_SRC_W,
						 bad[i][2]);
			igt_plane_set_prop_value(plane, IGT_PLANE_SRC_H,
						 bad[i][3]);
			igt_assert_eq(igt_display_try_commit_atomic(&display,
					DRM_MODE_ATOMIC_TEST_ONLY, NULL),
				      -EINVAL);
		}
		/* whole pixels at an offset are fine */
		plane_src(plane, &fb_ov, 7, 9, 32, 32, 10, 10, 32, 32);
		igt_display_commit_atomic(&display, 0, NULL);
		reset();
	}

	igt_describe("Legacy SetCrtc, SetPlane and cursor ioctls");
	igt_subtest("legacy-ioctls") {
		struct vfq_pipe *p = &dev.pipe[0];
		drmModeCrtc *c;
		uint32_t conn = p->conn_id;

		igt_assert_eq(drmModeSetCrtc(dev.fd, p->crtc_id, fb_a.fb_id, 0, 0,
					     &conn, 1, &mode), 0);
		check_crtc_mode(0, &mode);
		vfq_assert_running(dev.fd, 0);
		c = drmModeGetCrtc(dev.fd, p->crtc_id);
		igt_assert(c);
		igt_assert_eq_u32(c->buffer_id, fb_a.fb_id);
		drmModeFreeCrtc(c);

		igt_assert_eq(drmModeSetPlane(dev.fd, p->overlays[0],
					      p->crtc_id, fb_ov.fb_id, 0,
					      40, 30, 64, 64, 0, 0,
					      64 << 16, 64 << 16), 0);
		igt_assert_eq_u64(vfq_prop_get(dev.fd, p->overlays[0],
					       OBJ_PLANE, "CRTC_X"), 40);
		igt_assert_eq_u64(vfq_prop_get(dev.fd, p->overlays[0],
					       OBJ_PLANE, "FB_ID"), fb_ov.fb_id);
		igt_assert_eq(drmModeSetPlane(dev.fd, p->overlays[0], 0, 0, 0,
					      0, 0, 0, 0, 0, 0, 0, 0), 0);
		igt_assert_eq_u64(vfq_prop_get(dev.fd, p->overlays[0],
					       OBJ_PLANE, "FB_ID"), 0);

		if (p->cursor) {
			struct drm_mode_create_dumb cd = {
				.width = 64, .height = 64, .bpp = 32 };

			do_ioctl(dev.fd, DRM_IOCTL_MODE_CREATE_DUMB, &cd);
			igt_assert_eq(drmModeSetCursor(dev.fd, p->crtc_id,
						       cd.handle, 64, 64), 0);
			igt_assert(vfq_prop_get(dev.fd, p->cursor, OBJ_PLANE,
						"FB_ID") != 0);
			igt_assert_eq(drmModeMoveCursor(dev.fd, p->crtc_id,
							100, 50), 0);
			igt_assert_eq_u64(vfq_prop_get(dev.fd, p->cursor,
						       OBJ_PLANE, "CRTC_X"),
					  100);
			igt_assert_eq_u64(vfq_prop_get(dev.fd, p->cursor,
						       OBJ_PLANE, "CRTC_Y"),
					  50);
			igt_assert_eq(drmModeSetCursor(dev.fd, p->crtc_id, 0,
						       0, 0), 0);
			igt_assert_eq_u64(vfq_prop_get(dev.fd, p->cursor,
						       OBJ_PLANE, "FB_ID"), 0);
			do_ioctl(dev.fd, DRM_IOCTL_MODE_DESTROY_DUMB,
				 &((struct drm_mode_destroy_dumb){ cd.handle }));
		}
		igt_assert_eq(drmModeSetCrtc(dev.fd, p->crtc_id, 0, 0, 0, NULL,
					     0, NULL), 0);
		check_crtc_mode(0, NULL);
		vfq_assert_stopped(dev.fd, 0);
		reset();
	}

	igt_describe("The event of a commit turning the CRTC off comes at once");
	igt_subtest("off-event") {
		struct vfq_pipe *p = &dev.pipe[0];
		drmModeAtomicReq *req = vfq_req_new();
		struct vfq_event ev;
		uint64_t t0;

		pipe_on(0, &mode, &fb_a);
		/* raw: ACTIVE alone (the mode kept), its event timed */
		vfq_req_set(req, dev.fd, p->crtc_id, OBJ_CRTC, "ACTIVE", 0);
		t0 = vfq_now_ns();
		igt_assert_eq(vfq_req_commit(dev.fd, req,
					     DRM_MODE_ATOMIC_NONBLOCK |
					     DRM_MODE_ATOMIC_ALLOW_MODESET |
					     DRM_MODE_PAGE_FLIP_EVENT,
					     (void *)0x4000), 0);
		igt_assert_eq(vfq_read_event(dev.fd, 1000, &ev), 1);
		igt_assert_eq_u32(ev.type, DRM_EVENT_FLIP_COMPLETE);
		igt_assert_eq_u64(ev.user_data, 0x4000);
		/* A disabling commit costs a few frames more on the debug kernel. */
		igt_assert_f(vfq_now_ns() - t0 <
			     (getenv("VFLIPQ_DEBUG_KERNEL") ? 900000000ull :
							      500000000ull),
			     "off event took %.1f ms\n",
			     (vfq_now_ns() - t0) / 1e6);
		igt_assert_eq_u64(vfq_prop_get(dev.fd, p->crtc_id, OBJ_CRTC,
					       "ACTIVE"), 0);
		reset();
	}

	igt_describe("90/270 rotation needs the source size swapped");
	igt_subtest("rotated-size") {
		struct vfq_pipe *p = &dev.pipe[0];
		igt_plane_t *ov = plane0(p->overlays[0]);
		struct vfq_fb fb;
		const igt_rotation_t r90 = IGT_ROTATION_90;

		pipe_on(0, &mode, &fb_a);
		vfq_fb_create(dev.fd, 64, 32, DRM_FORMAT_XRGB8888, &fb);
		/* a missing "rotation" fails here, as the raw request did */
		igt_assert(igt_plane_has_prop(ov, IGT_PLANE_ROTATION));
		plane_src(ov, &fb, 0, 0, 64, 32, 10, 10, 64, 32);
		igt_plane_set_rotation(ov, r90);
		assert_scaling_refused(igt_display_try_commit_atomic(&display,
					DRM_MODE_ATOMIC_TEST_ONLY, NULL));
		igt_plane_set_size(ov, 32, 64);
		igt_display_commit_atomic(&display, 0, NULL);
		reset();
		vfq_fb_destroy(&fb);
	}

	igt_describe("A plane cannot be put on another OBJ_CRTC than its own");
	igt_subtest("plane-on-other-crtc") {
		struct vfq_pipe *p0 = &dev.pipe[0], *p1 = &dev.pipe[1];
		uint32_t planes[3];
		drmModeModeInfo m1;

		igt_require(dev.n_pipes >= 2);
		planes[0] = p1->primary;
		planes[1] = p1->n_overlays ? p1->overlays[0] : 0;
		planes[2] = p1->cursor;
		vfq_get_mode(dev.fd, p1->conn_id, W, H, 60, &m1);
		pipe_on(0, &mode, &fb_a);
		pipe_on(1, &m1, &fb_b);
		for (int k = 0; k < 3; k++) {
			drmModeAtomicReq *req;

			if (!planes[k])
				continue;
			req = vfq_req_new();
			vfq_req_plane(req, dev.fd, planes[k], p0->crtc_id,
				      fb_ov.fb_id, 0, 0, 64, 64);
			igt_assert_eq(vfq_req_commit(dev.fd, req,
					DRM_MODE_ATOMIC_TEST_ONLY, NULL),
				      -EINVAL);
			req = vfq_req_new();
			vfq_req_plane(req, dev.fd, planes[k], p0->crtc_id,
				      fb_ov.fb_id, 0, 0, 64, 64);
			igt_assert_eq(vfq_req_commit(dev.fd, req,
					DRM_MODE_ATOMIC_ALLOW_MODESET, NULL),
				      -EINVAL);
		}
		/*
		 * Neither can a connector (its encoder serves OBJ_CRTC 1
		 * only).  These refusals stay raw: igt_display puts a plane
		 * on its own pipe only, and a second output on pipe 0 fails
		 * igt_display's own check before any ioctl.
		 */
		pipe_off(1);
		{
			drmModeAtomicReq *req = vfq_req_new();

			vfq_req_set(req, dev.fd, p1->conn_id, OBJ_CONN, "CRTC_ID",
				    p0->crtc_id);
			igt_assert_eq(vfq_req_commit(dev.fd, req,
					DRM_MODE_ATOMIC_ALLOW_MODESET, NULL),
				      -EINVAL);
		}
		reset();
	}

	/*
	 * Made-up modes must have a refresh rate the vblank engine can keep,
	 * 1-240 Hz like configfs modes (driver.rst).  IGT's kms_invalid_mode
	 * sets a clock of INT_MAX kHz and a vscan whose product with the
	 * totals overflows 32 bits; both must be refused.
	 */
	igt_describe("Made-up modes: refresh rates outside 1-240 Hz are "
		     "refused, the limits themselves accepted");
	igt_subtest("mode-refresh-limits") {
		static const struct { int clock, vscan, ok; } t[] = {
			{ 0x7fffffff, 0, 0 },	/* kms_invalid_mode@int-max-clock */
			{ -1, 0xffff, 0 },	/* overflow: vscan x totals */
			{ -2, 0, 1 },		/* 240 Hz */
			{ -3, 0, 0 },		/* 241 Hz */
			{ -4, 0, 1 },		/* 1 Hz */
			{ -5, 0, 0 },		/* 0.4 Hz */
		};
		uint64_t px = (uint64_t)mode.htotal * mode.vtotal;

		for (unsigned int i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
			drmModeModeInfo m = mode;
			int ret;

			switch (t[i].clock) {
			case -1: m.vtotal = m.vsync_end + 1; m.htotal = 0xffff;
				 m.clock = mode.clock; break;
			case -2: m.clock = (int)(px * 240 / 1000); break;
			case -3: m.clock = (int)(px * 241 / 1000); break;
			case -4: m.clock = (int)((px + 999) / 1000); break;
			case -5: m.clock = (int)(px * 4 / 10000); break;
			default: m.clock = t[i].clock;
			}
			m.vscan = t[i].vscan;
			/* igt_output_override_mode() takes it unchecked */
			vfq_display_pipe(&display, &dev, 0, &m, &fb_a);
			ret = igt_display_try_commit_atomic(&display,
					DRM_MODE_ATOMIC_TEST_ONLY |
					DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
			igt_assert_f(t[i].ok ? ret == 0 : ret == -EINVAL,
				     "mode %d (clock %d kHz, %dx%d total, vscan "
				     "%d): %s\n", i, m.clock, m.htotal, m.vtotal,
				     m.vscan, ret ? strerror(-ret) : "accepted");
		}
		/* nothing was committed: igt_display's pending modes go */
		reset();
	}

	/*
	 * A software composer has no cursor size limit: generic clients
	 * (IGT's kms_plane_alpha_blend picks the cursor plane for its alpha
	 * property and gives it a full-screen fb; kms_cursor_crc uses 32x10
	 * cursors) must not get -EINVAL.  Checked in the writeback output.
	 */
	igt_describe("Cursor planes of any size, full-screen and below 16x16, "
		     "are accepted and composed");
	igt_subtest("cursor-any-size") {
		static const struct { int x, y, w, h; } c[] = {
			{ 0, 0, W, H }, { 100, 50, 32, 10 }, { 7, 9, 1, 1 },
		};
		struct vfq_pipe *p = &dev.pipe[0];

		igt_require(p->cursor && p->wb_conn_id);
		for (unsigned int i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
			struct cursor_area a = { c[i].x, c[i].y, c[i].w,
						 c[i].h, 0x5eed + i };
			igt_plane_t *cursor = plane0(p->cursor);
			struct vfq_fb cur, out;
			int bad;

			pipe_on(0, &mode, &fb_a);
			vfq_fb_create(dev.fd, a.w, a.h, DRM_FORMAT_ARGB8888,
				      &cur);
			vfq_fb_pattern(&cur, a.seed);
			igt_plane_set_fb(cursor, &cur.igt);
			igt_plane_set_position(cursor, a.x, a.y);
			igt_display_commit_atomic(&display, 0, NULL);
			vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &out);
			memset(out.map, 0x5a, out.size);
			/* vfq's: a deadline on the out-fence */
			vfq_wb_capture_ok(&dev, 0, &out);
			bad = vfq_fb_check(&out, expect_cursor, &a, 8, 0);
			igt_assert_f(bad == 0, "%d pixels of the %dx%d cursor "
				     "differ\n", bad, a.w, a.h);
			reset();
			vfq_fb_destroy(&out);
			vfq_fb_destroy(&cur);
		}
	}

	igt_describe("Planes partially off-screen, and a primary not covering "
		     "the OBJ_CRTC, are accepted");
	igt_subtest("positioning-accepted") {
		struct vfq_pipe *p = &dev.pipe[0];
		struct vfq_fb small;

		pipe_on(0, &mode, &fb_a);
		vfq_fb_create(dev.fd, 320, 240, DRM_FORMAT_XRGB8888, &small);
		plane_src(plane0(p->primary), &small, 0, 0, 320, 240,
			  100, 100, 320, 240);
		plane_src(plane0(p->overlays[0]), &fb_ov, 0, 0, 64, 64,
			  -20, -30, 64, 64);
		if (p->cursor)
			plane_src(plane0(p->cursor), &fb_ov, 0, 0, 64, 64,
				  W - 10, H - 10, 64, 64);
		igt_display_commit_atomic(&display, 0, NULL);
		igt_assert_eq_u64(vfq_prop_get(dev.fd, p->overlays[0], OBJ_PLANE,
					       "CRTC_X"), (uint64_t)-20);
		vfq_assert_running(dev.fd, 0);
		reset();
		vfq_fb_destroy(&small);
	}

	/*
	 * A legacy cursor move after a nonblocking flip is taken in place
	 * (Documentation/vflipq/kms-features.rst, "Cursor updates"): the
	 * ioctl returns before the flip's vblank, where an ordinary commit
	 * waits for it, and the frames from the flip's vblank on show the
	 * cursor at its new place.  Judged by the vblank counter (the
	 * counter when the cursor ioctl has returned is below the flip
	 * event's sequence) and by the CRC against reference frames of the
	 * same two cursor positions set by ordinary commits.
	 */
	igt_describe("drmModeMoveCursor after a nonblocking flip returns before "
		     "the flip's vblank and the next frame shows the move");
	igt_subtest("cursor-move-after-flip") {
		static const int pos[2][2] = { { 100, 50 }, { 300, 200 } };
		struct vfq_pipe *p = &dev.pipe[0];
		uint32_t ref[2], got;
		struct vfq_fb cur;
		igt_pipe_crc_t *crc;
		int waited = 0;
		const int loops = 16;

		igt_require(p->cursor);
		/*
		 * Identical primaries: the flips leave the picture alone.
		 * Only CRCs of this test's own frames are compared, so IGT
		 * paints them.
		 */
		for (int i = 0; i < 2; i++) {
			struct vfq_fb *f = i ? &fb_b : &fb_a;
			cairo_t *cr = igt_get_cairo_ctx(f->fd, &f->igt);

			igt_paint_color(cr, 0, 0, W, H, 40 / 255.0, 80 / 255.0,
					120 / 255.0);
			igt_put_cairo_ctx(cr);
		}
		vfq_fb_create(dev.fd, 64, 64, DRM_FORMAT_ARGB8888, &cur);
		vfq_fb_pattern(&cur, 0xc0de);
		pipe_on(0, &mode, &fb_a);
		crc = vfq_crc_start(dev.fd, p->index);

		for (int i = 1; i >= 0; i--) {
			cursor_commit(&cur, pos[i][0], pos[i][1]);
			ref[i] = next_frame_crc(crc);
		}
		igt_assert_f(ref[0] != ref[1], "both cursor positions give "
			     "CRC %08x\n", ref[0]);

		for (int i = 0; i < loops; i++) {
			const int *to = pos[(i + 1) & 1];
			struct vfq_fb *fb = (i & 1) ? &fb_a : &fb_b;
			uint64_t after, t0;
			uint32_t vbl;
			struct vfq_event ev;

			/* Just after a vblank: a frame to do both in. */
			igt_assert_eq(vfq_wait_vblank(dev.fd, p->index,
						      DRM_VBLANK_RELATIVE, 1,
						      0, &vbl, NULL), 0);
			t0 = vfq_now_ns();
			if (i & 2) {
				igt_assert_eq(drmModePageFlip(dev.fd,
							      p->crtc_id,
							      fb->fb_id,
							      DRM_MODE_PAGE_FLIP_EVENT,
							      (void *)(uintptr_t)(0x3000 + i)),
					      0);
			} else {
				drmModeAtomicReq *req = vfq_req_new();

				vfq_req_set(req, dev.fd, p->primary, OBJ_PLANE,
					    "FB_ID", fb->fb_id);
				igt_assert_eq(vfq_req_commit(dev.fd, req,
							     DRM_MODE_ATOMIC_NONBLOCK |
							     DRM_MODE_PAGE_FLIP_EVENT,
							     (void *)(uintptr_t)(0x3000 + i)),
					      0);
			}
			igt_assert_eq(drmModeMoveCursor(dev.fd, p->crtc_id,
							to[0], to[1]), 0);
			after = vfq_crtc_sequence(dev.fd, p->crtc_id);
			ev = wait_flip(p->crtc_id, 0x3000 + i, t0);
			igt_debug("flip %d: aligned at %u, cursor back at %llu, "
				  "flip at %llu\n", i, vbl,
				  (unsigned long long)after,
				  (unsigned long long)ev.sequence);
			if (after >= ev.sequence)
				waited++;

			/*
			 * Composed after the flip's vblank and after the
			 * vblank that followed the ioctl: after the move, also
			 * when the test lost the CPU before reading the counter.
			 */
			vfq_crc_collect(crc, ev.sequence > after ? ev.sequence :
					after + 1, 1, &got);
			igt_assert_f(got == ref[(i + 1) & 1],
				     "flip %d: CRC %08x, the cursor at %d,%d "
				     "gives %08x, at %d,%d %08x\n", i, got,
				     to[0], to[1], ref[(i + 1) & 1],
				     pos[i & 1][0], pos[i & 1][1],
				     ref[i & 1]);
		}
		/*
		 * A cursor ioctl that waits for the flip does so every time
		 * (it waits for the flip's flip_done, signalled at that
		 * vblank), so one return before the vblank proves the move
		 * did not wait: the debug kernel, whose ioctls KASAN and
		 * lockdep slow down to a good part of a frame, is judged by
		 * that exact rule (about half of its 16 return after the
		 * vblank).  Elsewhere the move must also be quick: two of
		 * sixteen may see the flip's vblank pass for another reason,
		 * since under TCG the test itself can be descheduled for a
		 * whole frame between the flip and reading the counter.
		 */
		igt_assert_f(waited <= (getenv("VFLIPQ_DEBUG_KERNEL") ?
					loops - 1 : 2),
			     "the cursor ioctl returned after the flip's "
			     "vblank %d times of %d\n", waited, loops);
		igt_pipe_crc_free(crc);
		reset();
		vfq_fb_destroy(&cur);
	}

	/*
	 * The lifetime of plane states that commits leave alone
	 * (Documentation/vflipq/locking.rst): with CRC capture on, at
	 * 1024x768 so that compositions of the outgoing states are still
	 * queued or running when the next commit ends, nonblocking flips of
	 * the primary leave the cursor's state to several CRTC states, and
	 * legacy cursor moves change it in place; then cursor image changes
	 * (SetCursor, and SETPLANE of a new framebuffer) let go of a cursor
	 * state that queued compositions may still read, with its
	 * framebuffer's last reference (the old one is removed at once), and
	 * the next flips let go of primary states several CRTC states
	 * compose.  Where async flips exist (7.2 on), a third phase puts an
	 * image change right after each async flip: its commit replaces a
	 * CRTC state that no vblank composed, so only a wait for the whole
	 * composer queue covers the compositions of the states before it.
	 * A commit that did not wait for every such composition frees what
	 * a composition reads: KASAN, a CRC of no frame shown, or a kernel
	 * warning.
	 */
	igt_describe("Primary flips that leave the cursor alone, interleaved "
		     "with legacy cursor moves and then cursor image changes "
		     "whose old fb goes at once: every frame's CRC is one the "
		     "flips, moves and image changes put on screen");
	igt_subtest("cursor-shared-state-stress") {
		static const double rgb[SH_PRIMARIES][3] = {
			{ 0.8, 0.2, 0.1 }, { 0.1, 0.7, 0.3 }, { 0.2, 0.3, 0.9 },
		};
		const struct vfq_pipe *p = &dev.pipe[0];
		struct vfq_fb prim[SH_PRIMARIES], img[SH_IMAGES];
		struct sh_run *r = calloc(1, sizeof(*r));
		int cur_p = 0, cur_img = 0, v = 0, bad = 0, judged = 0;
		uint32_t prev_fb = 0;
		struct vfq_kmsg kmsg;
		uint64_t end, cap = 0;
		int phases;

		igt_require(p->cursor);
		igt_assert(r);
		/* Async flips (7.2 on, kms-features.rst): a third phase. */
		phases = !drmGetCap(dev.fd, DRM_CAP_ASYNC_PAGE_FLIP, &cap) &&
			 cap ? 3 : 2;
		/* Compared only with the test's own frames: IGT paints. */
		for (int i = 0; i < SH_PRIMARIES; i++) {
			cairo_t *cr;

			vfq_fb_create(dev.fd, 1024, 768, DRM_FORMAT_XRGB8888,
				      &prim[i]);
			cr = igt_get_cairo_ctx(prim[i].fd, &prim[i].igt);
			igt_paint_color(cr, 0, 0, 1024, 768, rgb[i][0],
					rgb[i][1], rgb[i][2]);
			igt_put_cairo_ctx(cr);
		}
		for (int i = 0; i < SH_IMAGES; i++) {
			vfq_fb_create(dev.fd, 64, 64, DRM_FORMAT_ARGB8888,
				      &img[i]);
			vfq_fb_pattern(&img[i], 0x5a00 + i);
		}
		pipe_on(0, &mode_big, &prim[0]);
		r->crc = vfq_crc_start(dev.fd, p->index);
		sh_learn(r, prim, img);
		vfq_kmsg_open(&kmsg);

		/* The legacy cursor position, which SetCursor keeps. */
		sh_op_begin(r->moves, &r->n_moves, 0);
		igt_assert_eq(drmModeMoveCursor(dev.fd, p->crtc_id,
						sh_pos[0][0], sh_pos[0][1]), 0);
		sh_op_end(&r->moves[0]);
		r->images[0] = r->moves[0];
		r->images[0].value = 0;
		r->n_images = 1;
		r->start = r->moves[0].after;
		sh_drain(r);
		r->n_crcs = 0;

		for (int i = 0; i < phases * SH_FLIPS; i++) {
			bool async = i >= 2 * SH_FLIPS;
			struct vfq_event ev;
			struct vfq_fb bo;
			uint64_t t0;

			/* The next image's buffer, made before the flip. */
			if (i >= SH_FLIPS) {
				cur_img = (cur_img + 1) % SH_IMAGES;
				sh_image_bo(cur_img, &bo);
			}
			cur_p = (cur_p + 1) % SH_PRIMARIES;
			/*
			 * phase 3 starts at a vblank: the composition that
			 * vblank queued (a new primary: the whole frame) still
			 * runs while the async flip and the image change end.
			 */
			if (async)
				igt_assert_eq(vfq_wait_vblank(dev.fd, p->index,
							      DRM_VBLANK_RELATIVE,
							      1, 0, NULL, NULL),
					      0);
			t0 = vfq_now_ns();
			sh_flip(i, &prim[cur_p], async);
			if (i < SH_FLIPS) {
				/* phase 1: moves only */
				for (int m = 0; m < 3; m++) {
					v = (v + 1) % SH_POSITIONS;
					sh_move(r, v);
				}
			} else if (!async) {
				/* phase 2: a new image between two moves */
				v = (v + 1) % SH_POSITIONS;
				sh_move(r, v);
				sh_image(r, &bo, cur_img, v, i & 1, &prev_fb);
				v = (v + 1) % SH_POSITIONS;
				sh_move(r, v);
			} else {
				/*
				 * phase 3: an async flip's commit completes
				 * at once, so the image change that follows
				 * replaces a CRTC state no vblank composed,
				 * while compositions of the states before it
				 * are still queued.
				 */
				sh_image(r, &bo, cur_img, v, i & 1, &prev_fb);
				v = (v + 1) % SH_POSITIONS;
				sh_move(r, v);
			}
			if (async) {
				igt_assert_f(vfq_read_event(dev.fd, 1000, &ev) == 1,
					     "no event within 1 s\n");
				igt_assert_eq_u32(ev.type, DRM_EVENT_FLIP_COMPLETE);
				igt_assert_eq_u64(ev.user_data, 0x5000 + i);
			} else {
				ev = wait_flip(p->crtc_id, 0x5000 + i, t0);
			}
			r->flip_seq[r->n_flips] = ev.sequence;
			r->flip_async[r->n_flips] = async;
			r->flip_prim[r->n_flips++] = cur_p;
			sh_drain(r);
		}

		/* Until the frames after the last ioctl are in. */
		end = vfq_crtc_sequence(dev.fd, p->crtc_id) + 2;
		for (uint64_t t = vfq_now_ns() + 3000000000ull;
		     vfq_now_ns() < t;) {
			sh_drain(r);
			if (r->n_crcs && r->crcs[r->n_crcs - 1].frame >= end)
				break;
			usleep(2000);
		}

		for (int i = 0; i < r->n_crcs; i++) {
			if (r->crcs[i].frame <= r->start)
				continue;
			judged++;
			if (!sh_judge(r, &r->crcs[i]))
				bad++;
		}
		igt_info("%d frames judged (%llu vblanks), %d flips, %d moves, "
			 "%d image changes\n", judged,
			 (unsigned long long)(end - r->start), r->n_flips,
			 r->n_moves, r->n_images - 1);
		igt_assert_f(bad == 0, "%d of %d frames showed what was not "
			     "on screen\n", bad, judged);
		/* A CRC for most frames: a frame without one is not judged. */
		igt_assert_lte(SH_FLIPS, judged);
		igt_assert_eq(vfq_kmsg_splats(&kmsg), 0);
		vfq_kmsg_close(&kmsg);

		igt_pipe_crc_free(r->crc);
		reset();
		if (prev_fb)
			igt_assert_eq(drmModeRmFB(dev.fd, prev_fb), 0);
		for (int i = 0; i < SH_PRIMARIES; i++)
			vfq_fb_destroy(&prim[i]);
		for (int i = 0; i < SH_IMAGES; i++)
			vfq_fb_destroy(&img[i]);
		free(r);
	}

	igt_fixture {
		reset();
		igt_display_fini(&display);
		vfq_fb_destroy(&fb_a);
		vfq_fb_destroy(&fb_b);
		vfq_fb_destroy(&fb_ov);
		vfq_fb_destroy(&fb_big);
		vfq_dev_fini(&dev);
	}
}
