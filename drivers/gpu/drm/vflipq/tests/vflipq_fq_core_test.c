// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite of the flip-queue core (../vflipq_fq_core.c) against a
 * simulated clock: every scheduling rule of the hardware flip queue,
 * checked through the log, the buffer references and the events.
 */

#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "../vflipq_fq_core.h"
#include "vflipq_test.h"

#define P	16666667ULL	/* 60 Hz */
#define MAXBUF	8192
#define LOGLEN	8192

struct ev {
	unsigned int plane;
	u64 seq, ts;
	u32 first_free;
};

/* The running case, for the checks of the callbacks and helpers. */
static struct kunit *fq_test;

static struct sim {
	struct vfq_crtc c;
	struct vfq_log_entry log[VFQ_MAX_PLANES][LOGLEN];
	int refs[MAXBUF];
	int shows;
	struct ev ev[4096];
	int nev;
	u64 now;
} S;

static void *B(unsigned int id)
{
	return (void *)(uintptr_t)id;
}

static void op_show(void *ctx, unsigned int plane, void *buf, u64 id, u64 ts,
		    u64 seq)
{
	struct kunit *test = fq_test;

	VFLIPQ_EXPECT_EQ(test, (uintptr_t)buf, id);
	S.shows++;
}

static void op_release(void *ctx, unsigned int plane, void *buf)
{
	S.refs[(uintptr_t)buf]--;
}

static void op_event(void *ctx, unsigned int plane, u64 seq, u64 ts,
		     u32 first_free)
{
	if (S.nev < 4096)
		S.ev[S.nev++] = (struct ev){ plane, seq, ts, first_free };
}

static const struct vfq_ops ops = {
	.show = op_show, .release = op_release, .event = op_event,
};

static void sim_init(unsigned int depth, unsigned int nplanes)
{
	struct kunit *test = fq_test;
	unsigned int i;

	memset(&S, 0, sizeof(S));
	vfq_init(&S.c, &ops, NULL, depth, nplanes);
	vfq_set_timing(&S.c, P, 0, 0);
	for (i = 0; i < nplanes; i++)
		VFLIPQ_EXPECT_EQ(test, vfq_set_log(&S.c, i, S.log[i], LOGLEN), 0);
}

static struct vfq_plane_cfg cfg_default(void)
{
	return (struct vfq_plane_cfg){ .format = 1, .cpp = 4, .crtc_w = 64,
				       .crtc_h = 64, .src_w = 64, .src_h = 64 };
}

static int submit_cfg(unsigned int plane, u64 id, u64 target, u32 mode,
		      struct vfq_plane_cfg cfg, bool others,
		      struct vfq_drain *d)
{
	struct vfq_submit_plane sp[1];
	struct vfq_submit s = { .nplanes = 1, .p = sp, .target_ns = target,
				.others_pending = others };
	struct vfq_drain dd;
	int ret;

	s.p[0] = (struct vfq_submit_plane){ plane, id, mode, cfg, B(id) };
	ret = vfq_submit(&S.c, &s, S.now, d ? d : &dd);
	if (!ret)
		S.refs[id]++;
	return ret;
}

static int submit1(unsigned int plane, u64 id, u64 target)
{
	return submit_cfg(plane, id, target, VFQ_MODE_ON_NEXT_VSYNC,
			  cfg_default(), false, NULL);
}

/*
 * Run the engine up to @t: every vblank and tearing deadline in order; with
 * @quiet, the quiet phases are updated at each vblank, as the driver does.
 */
static void engine_run_to(u64 t, bool quiet)
{
	for (;;) {
		u64 seq, vb = vfq_vblank_at_or_after(&S.c, S.now + 1, &seq);
		u64 imm = vfq_next_immediate(&S.c, S.now);

		if (imm > S.now && imm < vb && imm <= t) {
			S.now = imm;
			vfq_immediate(&S.c, imm, seq - 1);
			continue;
		}
		if (vb > t)
			break;
		S.now = vb;
		vfq_vblank(&S.c, vb, seq);
		if (quiet)
			vfq_power_update(&S.c, vb, false);
	}
	S.now = t;
}

static void run_to(u64 t)
{
	engine_run_to(t, false);
}

static void check_log(unsigned int plane, unsigned int idx, u64 id, u64 ts)
{
	struct kunit *test = fq_test;

	VFLIPQ_EXPECT_EQ(test, S.log[plane][idx].present_id, id);
	VFLIPQ_EXPECT_EQ(test, S.log[plane][idx].timestamp_ns, ts);
}

static void vflipq_fq_core_test_batch_on_target(struct kunit *test)
{
	unsigned int k;

	sim_init(8, 1);
	for (k = 1; k <= 8; k++)
		VFLIPQ_EXPECT_EQ(test, submit1(0, k, k * P - P / 2), 0);
	VFLIPQ_EXPECT_EQ(test, vfq_pending(&S.c, 0), 8);
	run_to(9 * P);
	for (k = 1; k <= 8; k++)
		check_log(0, k - 1, k, k * P);
	VFLIPQ_EXPECT_EQ(test, vfq_log_first_free(&S.c, 0), 8);
	VFLIPQ_EXPECT_EQ(test, S.c.stats.shown, 8);
	VFLIPQ_EXPECT_EQ(test, S.c.stats.cancelled, 0);
	for (k = 1; k <= 7; k++)
		VFLIPQ_EXPECT_EQ(test, S.refs[k], 0);
	VFLIPQ_EXPECT_EQ(test, S.refs[8], 1);
	VFLIPQ_EXPECT_EQ(test, vfq_pending(&S.c, 0), 0);
}

static void vflipq_fq_core_test_target_on_vblank(struct kunit *test)
{
	sim_init(8, 1);
	VFLIPQ_EXPECT_EQ(test, submit1(0, 1, 2 * P), 0);
	run_to(2 * P);
	check_log(0, 0, 1, 2 * P);
	VFLIPQ_EXPECT_EQ(test, S.c.stats.shown, 1);
}

static void vflipq_fq_core_test_expiry_collapse(struct kunit *test)
{
	sim_init(8, 1);
	VFLIPQ_EXPECT_EQ(test, submit1(0, 1, P / 4), 0);
	VFLIPQ_EXPECT_EQ(test, submit1(0, 2, P / 3), 0);
	VFLIPQ_EXPECT_EQ(test, submit1(0, 3, P / 2), 0);
	run_to(P);
	check_log(0, 0, 1, VFQ_TS_CANCELLED);
	check_log(0, 1, 2, VFQ_TS_CANCELLED);
	check_log(0, 2, 3, P);
	VFLIPQ_EXPECT_EQ(test, S.refs[1], 0);
	VFLIPQ_EXPECT_EQ(test, S.refs[2], 0);
	VFLIPQ_EXPECT_EQ(test, S.refs[3], 1);
	VFLIPQ_EXPECT_EQ(test, S.c.stats.cancelled, 2);
}

static void vflipq_fq_core_test_target_backwards(struct kunit *test)
{
	sim_init(8, 1);
	VFLIPQ_EXPECT_EQ(test, submit1(0, 1, 3 * P), 0);
	VFLIPQ_EXPECT_EQ(test, submit1(0, 2, 2 * P), -EINVAL);
	VFLIPQ_EXPECT_EQ(test, vfq_pending(&S.c, 0), 1);
	VFLIPQ_EXPECT_EQ(test, submit1(0, 2, 3 * P), 0);
	VFLIPQ_EXPECT_EQ(test, vfq_pending(&S.c, 0), 2);
}

static void vflipq_fq_core_test_bad_input(struct kunit *test)
{
	struct vfq_submit_plane sp[2];
	struct vfq_submit s = { .p = sp, .target_ns = P };
	struct vfq_drain d;

	sim_init(8, 2);
	VFLIPQ_EXPECT_EQ(test, submit1(0, 5, P), 0);
	VFLIPQ_EXPECT_EQ(test, vfq_submit(&S.c, &s, 0, &d), -EINVAL);		/* no plane */
	VFLIPQ_EXPECT_EQ(test, submit1(2, 6, P), -EINVAL);			/* bad plane */
	VFLIPQ_EXPECT_EQ(test, submit1(0, 0, P), -EINVAL);			/* id 0 */
	VFLIPQ_EXPECT_EQ(test, submit1(0, 5, P), -EINVAL);			/* not increasing */
	VFLIPQ_EXPECT_EQ(test, submit1(0, 4, P), -EINVAL);
	VFLIPQ_EXPECT_EQ(test, submit_cfg(0, 9, P, 3, cfg_default(), false, NULL), -EINVAL);
	s.nplanes = 2;
	s.p[0] = (struct vfq_submit_plane){ 1, 7, 0, cfg_default(), B(7) };
	s.p[1] = (struct vfq_submit_plane){ 1, 8, 0, cfg_default(), B(8) };
	VFLIPQ_EXPECT_EQ(test, vfq_submit(&S.c, &s, 0, &d), -EINVAL);		/* dup plane */
	s.nplanes = 1;
	s.p[0].buf = NULL;
	VFLIPQ_EXPECT_EQ(test, vfq_submit(&S.c, &s, 0, &d), -EINVAL);		/* no buffer */
	VFLIPQ_EXPECT_EQ(test, vfq_set_log(&S.c, 1, NULL, 0), 0);
	VFLIPQ_EXPECT_EQ(test, submit1(1, 9, P), -EINVAL);			/* no log */
	VFLIPQ_EXPECT_EQ(test, vfq_pending_total(&S.c), 1);
	VFLIPQ_EXPECT_EQ(test, S.c.stats.cancelled, 0);
}

static void vflipq_fq_core_test_depth_full(struct kunit *test)
{
	struct vfq_drain d;
	unsigned int k;

	sim_init(4, 2);
	for (k = 1; k <= 4; k++)
		VFLIPQ_EXPECT_EQ(test, submit1(1, k, k * P - P / 2), 0);
	VFLIPQ_EXPECT_EQ(test, submit_cfg(1, 5, 5 * P, 0, cfg_default(), false, &d), -EAGAIN);
	VFLIPQ_EXPECT_EQ(test, d.flags, VFQ_DRAIN_NEEDED);
	VFLIPQ_EXPECT_EQ(test, d.plane_mask, 1u << 1);
	VFLIPQ_EXPECT_EQ(test, vfq_pending(&S.c, 1), 4);
	run_to(P);
	VFLIPQ_EXPECT_EQ(test, submit1(1, 5, 5 * P), 0);
}

static void vflipq_fq_core_test_no_eagain_without_pending(struct kunit *test)
{
	struct vfq_plane_cfg c = cfg_default();
	struct vfq_drain d;

	sim_init(2, 1);
	VFLIPQ_EXPECT_EQ(test, submit1(0, 1, P / 2), 0);
	run_to(P);
	c.crtc_x = 10;
	VFLIPQ_EXPECT_EQ(test, submit_cfg(0, 2, 2 * P, 0, c, false, &d), 0);
	run_to(2 * P);
	c.format = 2;
	c.cpp = 8;
	VFLIPQ_EXPECT_EQ(test, submit_cfg(0, 3, 3 * P, 0, c, false, &d), 0);
	VFLIPQ_EXPECT_EQ(test, d.flags, 0);
}

static void vflipq_fq_core_test_drain_hints(struct kunit *test)
{
	struct vfq_plane_cfg c = cfg_default();
	struct vfq_drain d;

	sim_init(8, 2);
	VFLIPQ_EXPECT_EQ(test, submit1(0, 1, 5 * P), 0);
	VFLIPQ_EXPECT_EQ(test, submit1(1, 1, P / 2), 0);
	run_to(P);
	c.crtc_y = 3;
	VFLIPQ_EXPECT_EQ(test, submit_cfg(0, 2, 5 * P, 0, c, false, &d), -EAGAIN);
	VFLIPQ_EXPECT_EQ(test, d.flags, VFQ_DRAIN_NEEDED);
	VFLIPQ_EXPECT_EQ(test, d.plane_mask, 1);
	c = cfg_default();
	c.format = 7;
	VFLIPQ_EXPECT_EQ(test, submit_cfg(1, 2, 5 * P, 0, c, false, &d), -EAGAIN);
	VFLIPQ_EXPECT_EQ(test, d.flags, VFQ_DRAIN_ALL_PLANES);
	c.cpp = 2;
	VFLIPQ_EXPECT_EQ(test, submit_cfg(1, 2, 5 * P, 0, c, true, &d), -EAGAIN);
	VFLIPQ_EXPECT_EQ(test, d.flags, VFQ_DRAIN_ALL_SOURCES);
	VFLIPQ_EXPECT_EQ(test, vfq_pending_total(&S.c), 1);
}

/* A new rotation reprograms the scan-out walk: it drains like a new rectangle. */
static void vflipq_fq_core_test_drain_rotation(struct kunit *test)
{
	struct vfq_plane_cfg c = cfg_default();
	struct vfq_drain d;

	sim_init(8, 1);
	VFLIPQ_EXPECT_EQ(test, submit1(0, 1, 5 * P), 0);
	c.rotation = 2;		/* DRM_MODE_ROTATE_90 */
	VFLIPQ_EXPECT_EQ(test, submit_cfg(0, 2, 6 * P, 0, c, false, &d), -EAGAIN);
	VFLIPQ_EXPECT_EQ(test, d.flags, VFQ_DRAIN_NEEDED);
	VFLIPQ_EXPECT_EQ(test, d.plane_mask, 1);
	VFLIPQ_EXPECT_EQ(test, vfq_pending_total(&S.c), 1);
	/*
	 * once the queue is empty the turned flip goes in, and queues behind
	 * itself like any other
	 */
	run_to(5 * P);
	VFLIPQ_EXPECT_EQ(test, vfq_pending_total(&S.c), 0);
	VFLIPQ_EXPECT_EQ(test, submit_cfg(0, 2, 6 * P, 0, c, false, &d), 0);
	VFLIPQ_EXPECT_EQ(test, submit_cfg(0, 3, 7 * P, 0, c, false, &d), 0);
	VFLIPQ_EXPECT_EQ(test, vfq_pending_total(&S.c), 2);
}

static int submit2(u64 id0, u64 id1, u64 target)
{
	struct vfq_submit_plane sp[2];
	struct vfq_submit s = { .nplanes = 2, .p = sp, .target_ns = target };
	struct vfq_drain d;
	int ret;

	s.p[0] = (struct vfq_submit_plane){ 0, id0, 0, cfg_default(), B(id0) };
	s.p[1] = (struct vfq_submit_plane){ 1, id1, 0, cfg_default(), B(id1) };
	ret = vfq_submit(&S.c, &s, S.now, &d);
	if (!ret) {
		S.refs[id0]++;
		S.refs[id1]++;
	}
	return ret;
}

static void vflipq_fq_core_test_interlocked(struct kunit *test)
{
	struct vfq_cancel_plane cr[2];

	sim_init(8, 2);
	VFLIPQ_EXPECT_EQ(test, submit2(10, 20, P / 2), 0);
	run_to(P);
	check_log(0, 0, 10, P);
	check_log(1, 0, 20, P);

	VFLIPQ_EXPECT_EQ(test, submit2(11, 21, 3 * P), 0);
	VFLIPQ_EXPECT_EQ(test, submit1(0, 12, 4 * P), 0);
	cr[0] = (struct vfq_cancel_plane){ .plane = 0, .requested = 11 };
	VFLIPQ_EXPECT_EQ(test, vfq_cancel(&S.c, cr, 1, S.now), -EINVAL);	/* splits */
	VFLIPQ_EXPECT_EQ(test, vfq_pending_total(&S.c), 3);
	cr[0] = (struct vfq_cancel_plane){ .plane = 0, .requested = 12 };
	VFLIPQ_EXPECT_EQ(test, vfq_cancel(&S.c, cr, 1, S.now), 0);		/* whole */
	VFLIPQ_EXPECT_EQ(test, cr[0].cancelled, 12);
	cr[0] = (struct vfq_cancel_plane){ .plane = 0, .requested = 11 };
	cr[1] = (struct vfq_cancel_plane){ .plane = 1, .requested = 21 };
	VFLIPQ_EXPECT_EQ(test, vfq_cancel(&S.c, cr, 2, S.now), 0);
	VFLIPQ_EXPECT_EQ(test, cr[0].cancelled, 11);
	VFLIPQ_EXPECT_EQ(test, cr[1].cancelled, 21);
	VFLIPQ_EXPECT_EQ(test, vfq_pending_total(&S.c), 0);
	/* 12 was cancelled first but waited behind 11: log in id order. */
	check_log(0, 1, 11, VFQ_TS_CANCELLED);
	check_log(0, 2, 12, VFQ_TS_CANCELLED);
	check_log(1, 1, 21, VFQ_TS_CANCELLED);
}

/* The WDDM example: N..N+4 queued, N+2 already latched when cancelling. */
static void vflipq_fq_core_test_partial_cancel(struct kunit *test)
{
	struct vfq_cancel_plane cr = { .plane = 0, .requested = 102 };
	unsigned int k;

	sim_init(8, 1);
	for (k = 0; k < 5; k++)
		VFLIPQ_EXPECT_EQ(test, submit1(0, 100 + k, (k + 1) * P - P / 2), 0);
	run_to(2 * P);
	S.now = 3 * P - P / 4;
	VFLIPQ_EXPECT_EQ(test, vfq_cancel(&S.c, &cr, 1, S.now), 0);
	VFLIPQ_EXPECT_EQ(test, cr.cancelled, 103);
	VFLIPQ_EXPECT_EQ(test, S.refs[103], 0);
	VFLIPQ_EXPECT_EQ(test, S.refs[104], 0);
	VFLIPQ_EXPECT_EQ(test, vfq_pending(&S.c, 0), 1);
	VFLIPQ_EXPECT_EQ(test, vfq_log_first_free(&S.c, 0), 2);
	run_to(3 * P);
	check_log(0, 0, 100, P);
	check_log(0, 1, 101, 2 * P);
	check_log(0, 2, 102, 3 * P);
	check_log(0, 3, 103, VFQ_TS_CANCELLED);
	check_log(0, 4, 104, VFQ_TS_CANCELLED);
	VFLIPQ_EXPECT_EQ(test, vfq_log_first_free(&S.c, 0), 5);
	/* The cancelled ids stay used: PresentIds keep increasing. */
	VFLIPQ_EXPECT_EQ(test, submit1(0, 104, 5 * P), -EINVAL);
	VFLIPQ_EXPECT_EQ(test, submit1(0, 105, 5 * P), 0);
}

static void vflipq_fq_core_test_cancel_nothing(struct kunit *test)
{
	struct vfq_cancel_plane cr = { .plane = 0, .requested = 9 };

	sim_init(8, 1);
	VFLIPQ_EXPECT_EQ(test, submit1(0, 1, P / 2), 0);
	VFLIPQ_EXPECT_EQ(test, submit1(0, 2, 3 * P), 0);
	VFLIPQ_EXPECT_EQ(test, vfq_cancel(&S.c, &cr, 1, 0), 0);
	VFLIPQ_EXPECT_EQ(test, cr.cancelled, 0);
	S.now = P / 2;
	cr.requested = 1;	/* 1 is latched, 2 is not */
	VFLIPQ_EXPECT_EQ(test, vfq_cancel(&S.c, &cr, 1, S.now), 0);
	VFLIPQ_EXPECT_EQ(test, cr.cancelled, 2);
	cr.requested = 1;
	VFLIPQ_EXPECT_EQ(test, vfq_cancel(&S.c, &cr, 1, S.now), 0);
	VFLIPQ_EXPECT_EQ(test, cr.cancelled, 0);
	cr.requested = 0;
	VFLIPQ_EXPECT_EQ(test, vfq_cancel(&S.c, &cr, 1, S.now), -EINVAL);
	run_to(P);
	check_log(0, 0, 1, P);
	check_log(0, 1, 2, VFQ_TS_CANCELLED);
}

static void vflipq_fq_core_test_cancel_all(struct kunit *test)
{
	unsigned int k;

	sim_init(8, 1);
	for (k = 1; k <= 4; k++)
		VFLIPQ_EXPECT_EQ(test, submit1(0, k, k * P), 0);
	vfq_cancel_all(&S.c);
	for (k = 1; k <= 4; k++) {
		check_log(0, k - 1, k, VFQ_TS_CANCELLED);
		VFLIPQ_EXPECT_EQ(test, S.refs[k], 0);
	}
	VFLIPQ_EXPECT_EQ(test, vfq_pending_total(&S.c), 0);
}

static void vflipq_fq_core_test_log_rules(struct kunit *test)
{
	struct vfq_log_entry small[4];
	unsigned int k;

	sim_init(8, 1);
	VFLIPQ_EXPECT_EQ(test, submit1(0, 1, 2 * P), 0);
	VFLIPQ_EXPECT_EQ(test, vfq_set_log(&S.c, 0, small, 4), -EBUSY);
	VFLIPQ_EXPECT_EQ(test, vfq_set_log(&S.c, 0, NULL, 0), -EBUSY);
	VFLIPQ_EXPECT_EQ(test, vfq_set_log(&S.c, 0, small, 0), -EINVAL);
	VFLIPQ_EXPECT_EQ(test, vfq_set_log(&S.c, 1, small, 4), -EINVAL);
	run_to(2 * P);
	VFLIPQ_EXPECT_EQ(test, vfq_set_log(&S.c, 0, small, 4), 0);
	VFLIPQ_EXPECT_EQ(test, vfq_log_first_free(&S.c, 0), 0);
	for (k = 2; k <= 7; k++)
		VFLIPQ_EXPECT_EQ(test, submit1(0, k, (k + 1) * P), 0);
	run_to(8 * P);
	/* 6 entries into a ring of 4: 6 and 7 wrapped to the start. */
	VFLIPQ_EXPECT_EQ(test, vfq_log_first_free(&S.c, 0), 2);
	VFLIPQ_EXPECT_EQ(test, small[0].present_id, 6);
	VFLIPQ_EXPECT_EQ(test, small[1].present_id, 7);
	VFLIPQ_EXPECT_EQ(test, small[2].present_id, 4);
	VFLIPQ_EXPECT_EQ(test, small[3].present_id, 5);
	VFLIPQ_EXPECT_EQ(test, small[1].timestamp_ns, 8 * P);
}

static void vflipq_fq_core_test_irq_target(struct kunit *test)
{
	unsigned int k;

	sim_init(8, 1);
	vfq_set_irq_target(&S.c, 0, 5);
	for (k = 1; k <= 8; k++)
		VFLIPQ_EXPECT_EQ(test, submit1(0, k, k * P - P / 2), 0);
	run_to(9 * P);
	VFLIPQ_EXPECT_EQ(test, S.nev, 1);
	VFLIPQ_EXPECT_EQ(test, S.ev[0].ts, 5 * P);
	VFLIPQ_EXPECT_EQ(test, S.ev[0].seq, 5);
	VFLIPQ_EXPECT_EQ(test, S.ev[0].first_free, 5);
	VFLIPQ_EXPECT_EQ(test, S.c.stats.irqs, 1);

	/* Target at each batch's last frame: one event per depth frames. */
	S.nev = 0;
	for (k = 0; k < 8; k++) {
		unsigned int j;

		vfq_set_irq_target(&S.c, 0, 9 + k * 8 + 7);
		for (j = 0; j < 8; j++)
			VFLIPQ_EXPECT_EQ(test,
					 submit1(0, 9 + k * 8 + j,
						 (10 + k * 8 + j) * P - P / 2),
					 0);
		run_to((10 + k * 8 + 8) * P);
	}
	VFLIPQ_EXPECT_EQ(test, S.nev, 8);

	vfq_set_irq_target(&S.c, 0, VFQ_IRQ_NONE);
	S.nev = 0;
	VFLIPQ_EXPECT_EQ(test, submit1(0, 100, S.now + P), 0);
	run_to(S.now + 3 * P);
	VFLIPQ_EXPECT_EQ(test, S.nev, 0);

	vfq_set_irq_target(&S.c, 0, VFQ_IRQ_EVERY_VBLANK);
	vfq_power_update(&S.c, S.now, false);
	run_to(S.now + 4 * P);
	VFLIPQ_EXPECT_EQ(test, S.nev, 4);
}

static void vflipq_fq_core_test_two_phase_quiet(struct kunit *test)
{
	u64 seq;

	sim_init(8, 1);
	VFLIPQ_EXPECT_EQ(test, vfq_power_update(&S.c, 0, true), VFQ_POWER_ON);
	VFLIPQ_EXPECT_EQ(test, vfq_power_update(&S.c, P, false), VFQ_POWER_KEEP_PHASE);
	VFLIPQ_EXPECT_EQ(test, vfq_power_update(&S.c, 2 * P, false), VFQ_POWER_KEEP_PHASE);
	VFLIPQ_EXPECT_EQ(test, vfq_power_update(&S.c, 3 * P, false), VFQ_POWER_NO_PHASE);
	VFLIPQ_EXPECT_EQ(test, vfq_power_update(&S.c, 40 * P, false), VFQ_POWER_NO_PHASE);
	/* Re-enabled much later: back on the same grid, count included. */
	VFLIPQ_EXPECT_EQ(test, vfq_vblank_at_or_after(&S.c, 1000 * P + 5, &seq), 1001 * P);
	VFLIPQ_EXPECT_EQ(test, seq, 1001);
	VFLIPQ_EXPECT_EQ(test, submit1(0, 1, 1000 * P), 0);
	VFLIPQ_EXPECT_EQ(test, vfq_power_update(&S.c, 1000 * P, false), VFQ_POWER_ON);
	/* A pending flip keeps the engine on, events or not. */
	VFLIPQ_EXPECT_EQ(test, vfq_power_update(&S.c, 1003 * P, false), VFQ_POWER_ON);
	/* No events are raised while keeping phase. */
	vfq_set_irq_target(&S.c, 0, VFQ_IRQ_NONE);
	S.c.power = VFQ_POWER_KEEP_PHASE;
	S.c.planes[0].irq_target = VFQ_IRQ_EVERY_VBLANK;
	vfq_vblank(&S.c, 1004 * P, 1004);
	VFLIPQ_EXPECT_EQ(test, S.nev, 0);
}

static void vflipq_fq_core_test_immediate(struct kunit *test)
{
	sim_init(8, 2);
	VFLIPQ_EXPECT_EQ(test,
			 submit_cfg(0, 1, P + P / 3, VFQ_MODE_IMMEDIATE,
				    cfg_default(), false, NULL),
			 0);
	VFLIPQ_EXPECT_EQ(test, submit1(1, 1, P + P / 3), 0);
	VFLIPQ_EXPECT_EQ(test, vfq_next_immediate(&S.c, S.now), P + P / 3);
	run_to(P + P / 2);
	check_log(0, 0, 1, P + P / 3);
	VFLIPQ_EXPECT_EQ(test, vfq_pending(&S.c, 1), 1);
	run_to(2 * P);
	check_log(1, 0, 1, 2 * P);
	VFLIPQ_EXPECT_EQ(test, vfq_next_immediate(&S.c, S.now), ~0ULL);

	/* No-tearing waits for the vblank like on-next-vsync. */
	VFLIPQ_EXPECT_EQ(test,
			 submit_cfg(0, 2, 2 * P + 10,
				    VFQ_MODE_IMMEDIATE_NO_TEARING,
				    cfg_default(), false, NULL),
			 0);
	run_to(3 * P - 1);
	VFLIPQ_EXPECT_EQ(test, vfq_pending(&S.c, 0), 1);
	run_to(3 * P);
	check_log(0, 1, 2, 3 * P);
}

/* 5,000+ flips, random targets and cancels: the log stays exact. */
static void vflipq_fq_core_test_soak(struct kunit *test)
{
	struct vflipq_test_rand g;
	u64 next_id = 1, target = 0, expect = 1;
	unsigned int i, n;
	int shown_refs = 0;

	sim_init(8, 1);
	vflipq_test_srand(&g, 12345);
	while (next_id <= 5200) {
		int r = vflipq_test_rand(&g) % 10;

		if (r < 6) {
			/* two draws, one statement each: their order is fixed */
			u64 t = target + (u64)(vflipq_test_rand(&g) % 3) * P / 2;

			t += vflipq_test_rand(&g) % 1000;
			if (t < S.now)
				t = S.now + vflipq_test_rand(&g) % P;
			if (submit1(0, next_id, t) == 0) {
				next_id++;
				target = t;
			}
		} else if (r < 8) {
			run_to(S.now + (u64)(vflipq_test_rand(&g) % 3 + 1) * P / 2);
		} else {
			struct vfq_cancel_plane cr = {
				.plane = 0,
				.requested = next_id - 1 - vflipq_test_rand(&g) % 4,
			};

			if (cr.requested)
				VFLIPQ_EXPECT_EQ(test, vfq_cancel(&S.c, &cr, 1, S.now), 0);
		}
	}
	run_to(target + 2 * P);
	vfq_cancel_all(&S.c);
	n = vfq_log_first_free(&S.c, 0);
	VFLIPQ_EXPECT_EQ(test, n, next_id - 1);
	for (i = 0; i < n && i < LOGLEN; i++) {
		if (S.log[0][i].present_id != expect) {
			VFLIPQ_EXPECT_EQ(test, S.log[0][i].present_id, expect);
			for (unsigned int j = i > 5 ? i - 5 : 0; j < i + 5; j++)
				kunit_info(test, "log[%u] = %llu %llx\n", j,
					   S.log[0][j].present_id,
					   S.log[0][j].timestamp_ns);
			break;
		}
		expect++;
	}
	for (i = 1; i < next_id; i++)
		shown_refs += S.refs[i];
	VFLIPQ_EXPECT_EQ(test, shown_refs, 1);
	VFLIPQ_EXPECT_EQ(test, S.c.stats.shown + S.c.stats.cancelled, next_id - 1);
}

static void vflipq_fq_core_test_reset_client(struct kunit *test)
{
	sim_init(8, 1);
	vfq_set_irq_target(&S.c, 0, 3);
	VFLIPQ_EXPECT_EQ(test, submit1(0, 5, P / 2), 0);
	VFLIPQ_EXPECT_EQ(test, submit1(0, 6, 9 * P), 0);
	run_to(P);
	VFLIPQ_EXPECT_EQ(test, S.nev, 1);
	S.nev = 0;
	vfq_reset_client(&S.c);
	check_log(0, 0, 5, P);
	check_log(0, 1, 6, VFQ_TS_CANCELLED);
	VFLIPQ_EXPECT_EQ(test, S.refs[6], 0);
	VFLIPQ_EXPECT_EQ(test, S.refs[5], 1);	/* still on screen */
	/* A new client: fresh ids, but it must set a log first. */
	VFLIPQ_EXPECT_EQ(test, submit1(0, 1, 2 * P), -EINVAL);
	VFLIPQ_EXPECT_EQ(test, vfq_set_log(&S.c, 0, S.log[0], LOGLEN), 0);
	VFLIPQ_EXPECT_EQ(test, submit1(0, 1, 2 * P), 0);
	run_to(2 * P);
	VFLIPQ_EXPECT_EQ(test, S.nev, 0);
	VFLIPQ_EXPECT_EQ(test, S.refs[5], 0);
}

static int periods_seen;

static void op_period(void *ctx, u64 period_ns, u64 ts, u64 seq)
{
	periods_seen++;
}

static int submit_dur(u64 id, u64 target, u64 duration, struct vfq_drain *d)
{
	struct vfq_submit_plane sp[1];
	struct vfq_submit s = { .nplanes = 1, .p = sp, .target_ns = target,
				.duration_ns = duration };
	int ret;

	s.p[0] = (struct vfq_submit_plane){ 0, id, 0, cfg_default(), B(id) };
	ret = vfq_submit(&S.c, &s, S.now, d);
	if (!ret)
		S.refs[id]++;
	return ret;
}

/* A new frame duration applies from the flip that carries it. */
static void vflipq_fq_core_test_duration(struct kunit *test)
{
	static const struct vfq_ops ops_p = {
		.show = op_show, .release = op_release, .event = op_event,
		.period = op_period,
	};
	struct vfq_drain d;

	sim_init(8, 1);
	S.c.ops = &ops_p;
	periods_seen = 0;
	VFLIPQ_EXPECT_EQ(test, submit1(0, 1, 5 * P), 0);
	VFLIPQ_EXPECT_EQ(test, submit_dur(2, 5 * P, 2 * P, &d), -EAGAIN);
	VFLIPQ_EXPECT_EQ(test, d.flags, VFQ_DRAIN_ALL_PLANES);
	run_to(5 * P);
	VFLIPQ_EXPECT_EQ(test, submit_dur(2, 5 * P + 1, 2 * P, &d), 0);
	run_to(6 * P);
	check_log(0, 1, 2, 6 * P);
	VFLIPQ_EXPECT_EQ(test, periods_seen, 1);
	VFLIPQ_EXPECT_EQ(test, S.c.period_ns, 2 * P);
	/* Next vblank is two old periods later: 8P, not 7P. */
	VFLIPQ_EXPECT_EQ(test, submit1(0, 3, 6 * P + 1), 0);
	run_to(7 * P + P / 2);
	VFLIPQ_EXPECT_EQ(test, vfq_pending(&S.c, 0), 1);
	run_to(8 * P);
	check_log(0, 2, 3, 8 * P);
}

/* The event's log index includes the cancelled flips logged after it. */
static void vflipq_fq_core_test_event_after_tombstones(struct kunit *test)
{
	struct vfq_cancel_plane cr = { .plane = 0, .requested = 2 };

	sim_init(8, 1);
	vfq_set_irq_target(&S.c, 0, 1);
	VFLIPQ_EXPECT_EQ(test, submit1(0, 1, P / 2), 0);
	VFLIPQ_EXPECT_EQ(test, submit1(0, 2, 5 * P), 0);
	VFLIPQ_EXPECT_EQ(test, submit1(0, 3, 5 * P), 0);
	S.now = P / 2;
	VFLIPQ_EXPECT_EQ(test, vfq_cancel(&S.c, &cr, 1, S.now), 0);	/* 2, 3 behind 1 */
	run_to(P);
	VFLIPQ_EXPECT_EQ(test, S.nev, 1);
	VFLIPQ_EXPECT_EQ(test, S.ev[0].first_free, 3);
	check_log(0, 2, 3, VFQ_TS_CANCELLED);
}

/* A duration survives the collapse of the flip that carried it. */
static void vflipq_fq_core_test_duration_collapsed(struct kunit *test)
{
	struct vfq_drain d;

	sim_init(8, 1);
	VFLIPQ_EXPECT_EQ(test, submit_dur(1, P / 4, 2 * P, &d), 0);
	VFLIPQ_EXPECT_EQ(test, submit1(0, 2, P / 2), 0);
	run_to(P);
	check_log(0, 0, 1, VFQ_TS_CANCELLED);
	check_log(0, 1, 2, P);
	VFLIPQ_EXPECT_EQ(test, S.c.period_ns, 2 * P);
	/* The same period again is no change: no drain. */
	VFLIPQ_EXPECT_EQ(test, submit1(0, 3, 9 * P), 0);
	VFLIPQ_EXPECT_EQ(test, submit_dur(4, 9 * P, 2 * P, &d), 0);
	/* Tearing flips cannot start a refresh. */
	{
		struct vfq_submit_plane sp[1];
		struct vfq_submit s = { .nplanes = 1, .p = sp,
					.target_ns = 9 * P,
					.duration_ns = 3 * P };

		s.p[0] = (struct vfq_submit_plane){ 0, 5,
			VFQ_MODE_IMMEDIATE, cfg_default(), B(5) };
		VFLIPQ_EXPECT_EQ(test, vfq_submit(&S.c, &s, S.now, &d), -EINVAL);
	}
}

static int not_ready_id;

static bool op_ready(void *ctx, unsigned int plane, void *buf)
{
	return (uintptr_t)buf != (uintptr_t)not_ready_id;
}

/*
 * A buffer still being rendered holds its flip (and the whole interlocked
 * submission) back; it can be cancelled meanwhile; a tearing flip does not
 * re-arm for a past target.
 */
static void vflipq_fq_core_test_not_ready(struct kunit *test)
{
	static const struct vfq_ops ops_r = {
		.show = op_show, .release = op_release, .event = op_event,
		.ready = op_ready,
	};
	struct vfq_cancel_plane cr = { .plane = 0, .requested = 3 };

	sim_init(8, 2);
	S.c.ops = &ops_r;
	not_ready_id = 21;
	VFLIPQ_EXPECT_EQ(test, submit2(1, 21, P / 2), 0);	/* plane 1 not ready */
	run_to(3 * P);
	VFLIPQ_EXPECT_EQ(test, vfq_pending_total(&S.c), 2);	/* neither plane split */
	not_ready_id = 0;
	run_to(4 * P);
	check_log(0, 0, 1, 4 * P);
	check_log(1, 0, 21, 4 * P);

	not_ready_id = 3;
	VFLIPQ_EXPECT_EQ(test,
			 submit_cfg(0, 3, 4 * P + 1, VFQ_MODE_IMMEDIATE,
				    cfg_default(), false, NULL),
			 0);
	S.now = 4 * P + 10;
	VFLIPQ_EXPECT_EQ(test, vfq_next_immediate(&S.c, S.now), ~0ULL);
	VFLIPQ_EXPECT_EQ(test, vfq_cancel(&S.c, &cr, 1, S.now), 0);
	VFLIPQ_EXPECT_EQ(test, cr.cancelled, 3);
}

/*
 * The lazy engine: the timer expires only at vfq_next_wake() (or at a
 * tearing flip's target), and anybody who looks at the queue catches it up
 * first.  Counts the expirations; an interrupt raised anywhere but at the
 * expiry of its own vblank would reach the client late.
 */
static int lazy_wakes, late_events;

static void lazy_catch_up(u64 t, bool expiry)
{
	int nev = S.nev, i;

	vfq_catch_up(&S.c, t);
	vfq_power_update(&S.c, S.c.handled_ns, false);
	for (i = nev; i < S.nev; i++)
		if (!expiry || S.ev[i].ts != t)
			late_events++;
}

static void lazy_run_to(u64 t)
{
	for (;;) {
		u64 wake = vfq_next_wake(&S.c);
		u64 imm = vfq_next_immediate(&S.c, S.now);
		u64 seq;

		if (imm <= S.now)
			imm = ~0ULL;
		if (wake > t && imm > t)
			break;
		lazy_wakes++;
		if (imm < wake) {
			S.now = imm;
			lazy_catch_up(imm, false);
			vfq_vblank_at_or_after(&S.c, imm + 1, &seq);
			vfq_immediate(&S.c, imm, seq - 1);
		} else {
			S.now = wake;
			lazy_catch_up(wake, true);
		}
	}
	S.now = t;
	lazy_catch_up(t, false);
}

static u64 lcg;
static unsigned int rnd(unsigned int n)
{
	lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned int)(lcg >> 33) % n;
}

/* When each buffer's rendering ends (0: rendered when queued). */
static u64 ready_at[MAXBUF];

static bool op_ready_at(void *ctx, unsigned int plane, void *buf)
{
	return S.now >= ready_at[(uintptr_t)buf];
}

/*
 * A client on two planes: batches of flips, interlocked ones, tearing ones,
 * new frame durations, buffers still being rendered, interrupt targets
 * (every vblank too), cancels, time running on by fractions of a frame or
 * many frames.
 */
static void random_client(bool lazy, u64 seed)
{
	struct kunit *test = fq_test;
	u64 id[2] = { 1, 1 }, target = 0;
	struct vfq_drain d;
	int step;

	static const struct vfq_ops ops_rdy = {
		.show = op_show, .release = op_release, .event = op_event,
		.ready = op_ready_at,
	};
	sim_init(8, 2);
	S.c.ops = &ops_rdy;
	memset(ready_at, 0, sizeof(ready_at));
	lcg = seed;
	lazy_wakes = 0;
	late_events = 0;
	for (step = 0; step < 3000; step++) {
		unsigned int r = rnd(100), pi = rnd(2);
		u64 t = S.now + (u64)rnd(40) * P / 8;

		if (lazy)
			lazy_run_to(t);
		else
			engine_run_to(t, true);
		if (target < S.now)
			target = S.now + rnd(3) * P;
		/* A quarter of the buffers is still being rendered. */
		if (!rnd(4)) {
			ready_at[id[0]] = S.now + (u64)rnd(6) * P / 2;
			ready_at[id[1]] = S.now + (u64)rnd(6) * P / 2;
		}
		if (r < 45) {
			/* two draws, one statement each: their order is fixed */
			u64 dt = (u64)rnd(5) * P / 2;

			target += dt + rnd(1000);
			if (submit1(pi, id[pi], target) == 0)
				id[pi]++;
		} else if (r < 55) {
			target += (u64)rnd(3) * P;
			if (submit2(id[0], id[1], target) == 0) {
				id[0]++;
				id[1]++;
			}
		} else if (r < 60) {
			if (submit_cfg(pi, id[pi], target + rnd(P),
				       VFQ_MODE_IMMEDIATE, cfg_default(),
				       false, NULL) == 0)
				id[pi]++;
		} else if (r < 64) {
			target += P;
			if (submit_dur(id[0], target,
				       rnd(2) ? 2 * P : P, &d) == 0)
				id[0]++;
		} else if (r < 80) {
			static const u64 kinds[] = { VFQ_IRQ_NONE, 0, 1, 2, 3 };
			u64 k = kinds[rnd(5)];

			vfq_set_irq_target(&S.c, pi, k > 0 && k < 4 ?
					   id[pi] + k - 1 : k);
		} else if (r < 88) {
			struct vfq_cancel_plane cr = {
				.plane = pi, .requested = id[pi] - 1 - rnd(3),
			};

			if (cr.requested && cr.requested < id[pi])
				vfq_cancel(&S.c, &cr, 1, S.now);
		}
		VFLIPQ_EXPECT(test, id[0] < MAXBUF && id[1] < MAXBUF);
		/* The driver's ioctls wake the queue up (fq_wake_engine()). */
		vfq_power_update(&S.c, S.now, false);
	}
	if (lazy)
		lazy_run_to(S.now + 40 * P);
	else
		engine_run_to(S.now + 40 * P, true);
}

/*
 * Sleeping between the vblanks a client can observe changes nothing it
 * can see: the same log entries with the same timestamps, the same
 * interrupts at the same vblanks, the same buffers handed back.
 */
static void vflipq_fq_core_test_lazy_same_as_every_vblank(struct kunit *test)
{
	static struct vfq_log_entry log[2][LOGLEN];
	static struct ev ev[4096];
	static int refs[MAXBUF];
	u64 seed = (uintptr_t)test->param_value, shown, cancelled;
	int nev, pi, i;

	random_client(false, seed);
	memcpy(log, S.log, sizeof(log));
	memcpy(ev, S.ev, sizeof(ev));
	memcpy(refs, S.refs, sizeof(refs));
	nev = S.nev;
	shown = S.c.stats.shown;
	cancelled = S.c.stats.cancelled;
	VFLIPQ_EXPECT(test, shown > 500);

	random_client(true, seed);
	VFLIPQ_EXPECT_EQ(test, late_events, 0);
	VFLIPQ_EXPECT_EQ(test, S.c.stats.shown, shown);
	VFLIPQ_EXPECT_EQ(test, S.c.stats.cancelled, cancelled);
	VFLIPQ_EXPECT_EQ(test, S.nev, nev);
	for (i = 0; i < nev && i < S.nev; i++) {
		VFLIPQ_EXPECT_EQ(test, S.ev[i].plane, ev[i].plane);
		VFLIPQ_EXPECT_EQ(test, S.ev[i].ts, ev[i].ts);
		VFLIPQ_EXPECT_EQ(test, S.ev[i].seq, ev[i].seq);
		VFLIPQ_EXPECT_EQ(test, S.ev[i].first_free, ev[i].first_free);
	}
	for (pi = 0; pi < 2; pi++)
		VFLIPQ_EXPECT(test, !memcmp(S.log[pi], log[pi], sizeof(log[pi])));
	VFLIPQ_EXPECT(test, !memcmp(S.refs, refs, sizeof(refs)));
}

/* Seeds 1 to 40, one case each. */
static const void *lazy_seed_gen_params(VFLIPQ_TEST_GEN_PARAMS_ARGS)
{
	uintptr_t seed = (uintptr_t)prev + 1;

	if (seed > 40)
		return NULL;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "seed %lu", (unsigned long)seed);
	return (const void *)seed;
}

/*
 * What the lazy engine is for: a client keeping two batches of four queued
 * one frame apart, its interrupt at each batch's last flip, costs one
 * expiry per batch, not one per frame.
 */
static void vflipq_fq_core_test_lazy_wakes_per_batch(struct kunit *test)
{
	u64 next = 1, batches = 0;
	unsigned int k;

	sim_init(8, 1);
	lazy_wakes = 0;
	for (k = 0; k < 8; k++, next++)
		VFLIPQ_EXPECT_EQ(test, submit1(0, next, next * P - P / 2), 0);
	vfq_set_irq_target(&S.c, 0, 4);
	while (next < 400) {
		int nev = S.nev;

		/* Sleep until the interrupt, as the client does. */
		while (S.nev == nev)
			lazy_run_to(S.now + P / 4);
		batches++;
		vfq_set_irq_target(&S.c, 0, next - 1);
		for (k = 0; k < 4; k++, next++)
			VFLIPQ_EXPECT_EQ(test, submit1(0, next, next * P - P / 2), 0);
	}
	VFLIPQ_EXPECT_EQ(test, S.c.stats.shown, 4 * batches);
	VFLIPQ_EXPECT_EQ(test, S.c.stats.cancelled, 0);
	VFLIPQ_EXPECT_EQ(test, lazy_wakes, batches);
	VFLIPQ_EXPECT(test, batches > 90);
}

static int ready_calls;

static bool op_ready_count(void *ctx, unsigned int plane, void *buf)
{
	ready_calls++;
	return true;
}

/*
 * The cost of finding the next wake, which every submission pays while the
 * engine sleeps: a deep queue of single-plane flips is looked at up to the
 * flip that raises the interrupt, once each (the display engine's budget
 * is a few buffer checks, not the queue's length squared).
 */
static void vflipq_fq_core_test_next_wake_cost(struct kunit *test)
{
	static const struct vfq_ops ops_c = {
		.show = op_show, .release = op_release, .event = op_event,
		.ready = op_ready_count,
	};
	u64 id;

	sim_init(32, 2);
	S.c.ops = &ops_c;
	for (id = 1; id <= 32; id++)
		VFLIPQ_EXPECT_EQ(test, submit1(0, id, id * P - P / 2), 0);
	vfq_set_irq_target(&S.c, 0, 16);
	ready_calls = 0;
	VFLIPQ_EXPECT_EQ(test, vfq_next_wake(&S.c), 16 * P);
	VFLIPQ_EXPECT_EQ(test, ready_calls, 16);

	/* Without an interrupt the queue's end decides: each flip once. */
	vfq_set_irq_target(&S.c, 0, VFQ_IRQ_NONE);
	ready_calls = 0;
	VFLIPQ_EXPECT_EQ(test, vfq_next_wake(&S.c), 32 * P);
	VFLIPQ_EXPECT_EQ(test, ready_calls, 32);

	/* Two planes: an earlier interrupt ends the other plane's walk. */
	for (id = 101; id <= 116; id++)
		VFLIPQ_EXPECT_EQ(test, submit1(1, id, (id - 100) * P - P / 2), 0);
	vfq_set_irq_target(&S.c, 0, 4);
	ready_calls = 0;
	VFLIPQ_EXPECT_EQ(test, vfq_next_wake(&S.c), 4 * P);
	VFLIPQ_EXPECT_EQ(test, ready_calls, 4 + 4);
}

static int vflipq_fq_core_test_init(struct kunit *test)
{
	fq_test = test;
	return vflipq_test_init(test);
}

static struct kunit_case vflipq_fq_core_test_cases[] = {
	KUNIT_CASE(vflipq_fq_core_test_batch_on_target),
	KUNIT_CASE(vflipq_fq_core_test_target_on_vblank),
	KUNIT_CASE(vflipq_fq_core_test_expiry_collapse),
	KUNIT_CASE(vflipq_fq_core_test_target_backwards),
	KUNIT_CASE(vflipq_fq_core_test_bad_input),
	KUNIT_CASE(vflipq_fq_core_test_depth_full),
	KUNIT_CASE(vflipq_fq_core_test_no_eagain_without_pending),
	KUNIT_CASE(vflipq_fq_core_test_drain_hints),
	KUNIT_CASE(vflipq_fq_core_test_drain_rotation),
	KUNIT_CASE(vflipq_fq_core_test_interlocked),
	KUNIT_CASE(vflipq_fq_core_test_partial_cancel),
	KUNIT_CASE(vflipq_fq_core_test_cancel_nothing),
	KUNIT_CASE(vflipq_fq_core_test_cancel_all),
	KUNIT_CASE(vflipq_fq_core_test_log_rules),
	KUNIT_CASE(vflipq_fq_core_test_irq_target),
	KUNIT_CASE(vflipq_fq_core_test_two_phase_quiet),
	KUNIT_CASE(vflipq_fq_core_test_immediate),
	KUNIT_CASE(vflipq_fq_core_test_soak),
	KUNIT_CASE(vflipq_fq_core_test_reset_client),
	KUNIT_CASE(vflipq_fq_core_test_duration),
	KUNIT_CASE(vflipq_fq_core_test_event_after_tombstones),
	KUNIT_CASE(vflipq_fq_core_test_duration_collapsed),
	KUNIT_CASE(vflipq_fq_core_test_not_ready),
	KUNIT_CASE_PARAM(vflipq_fq_core_test_lazy_same_as_every_vblank,
			 lazy_seed_gen_params),
	KUNIT_CASE(vflipq_fq_core_test_lazy_wakes_per_batch),
	KUNIT_CASE(vflipq_fq_core_test_next_wake_cost),
	{}
};

struct kunit_suite vflipq_fq_core_test_suite = {
	.name = "vflipq_fq_core",
	.init = vflipq_fq_core_test_init,
	.exit = vflipq_test_exit,
	.test_cases = vflipq_fq_core_test_cases,
};
