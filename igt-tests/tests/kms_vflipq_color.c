// SPDX-License-Identifier: MIT
/*
 * CRTC colour management (DEGAMMA_LUT, CTM, GAMMA_LUT): the CRC and a
 * writeback capture are compared exactly with a reference computed here
 * from the arithmetic Documentation/vflipq/driver.rst specifies.  The input
 * is a 10-bit pattern, so that LUT lookups land between entries and the
 * interpolation is exercised.  The sink is a 16-bit one (debugfs
 * vflipq_sink_bpc, "max bpc" 16), so that the CRC is of the composer's
 * 16 bits and tells every rounding step of the pipeline.  640x480 keeps the
 * composer cheap under TCG.
 */
/**
 * TEST: kms vflipq color
 * Category: Display
 * Mega feature: Color Management
 * Sub-category: color
 * Functionality: degamma, ctm, gamma
 * Driver requirement: vflipq
 * Description: CRTC colour management (DEGAMMA_LUT, CTM, GAMMA_LUT): the CRC
 *              and a writeback capture are compared exactly with a reference
 *              computed from the arithmetic of the driver documentation, from
 *              a 10-bit input at a 16-bit sink.
 *
 * SUBTEST: properties
 * Description: Every CRTC has DEGAMMA_LUT, CTM and GAMMA_LUT, LUT sizes 256,
 *              and a legacy gamma size of 256
 *
 * SUBTEST: identity
 * Description: Identity LUTs and a unit CTM leave the frame exactly as without
 *              colour management
 *
 * SUBTEST: gamma-lut
 * Description: GAMMA_LUT alone, per channel, interpolated
 *
 * SUBTEST: degamma-lut
 * Description: DEGAMMA_LUT alone, per channel, interpolated
 *
 * SUBTEST: ctm
 * Description: CTM alone, with negative, fractional and >1 gains
 *
 * SUBTEST: degamma-ctm-gamma
 * Description: All three in the documented order degamma -> CTM -> gamma (the
 *              other order gives another frame)
 *
 * SUBTEST: clear
 * Description: Removing colour management restores the plain frame
 *
 * SUBTEST: legacy-gamma
 * Description: The legacy gamma ioctl programs GAMMA_LUT
 *
 * SUBTEST: invalid
 * Description: LUTs of another size and malformed blobs are refused with
 *              EINVAL
 */

#include "igt.h"
#include "vflipq_helpers.h"

IGT_TEST_DESCRIPTION("vflipq CRTC colour management");

#define W 640
#define H 480
#define LUT_SIZE 256
#define SEED 5

/* S31.32 sign-magnitude, as struct drm_color_ctm holds it */
#define FIX(num, den) ((uint64_t)(((__int128)(num) << 32) / (den)))
#define NEG(v) ((v) | (1ull << 63))

struct cm {
	const struct drm_color_lut *degamma;
	const uint64_t *ctm;	/* 9 coefficients, or NULL */
	const struct drm_color_lut *gamma;
};

static struct vfq_dev dev;
static igt_display_t display;
static drmModeModeInfo mode;
static struct vfq_fb src;
static struct vfq_color input[W * H];	/* what the composer blends */
static struct vfq_color want[W * H];
static struct drm_color_lut lut_a[LUT_SIZE], lut_b[LUT_SIZE],
			    lut_id[LUT_SIZE];

static const uint64_t ctm_mix[9] = {
	FIX(1, 2), FIX(1, 4), FIX(1, 4),
	NEG(FIX(1, 2)), FIX(3, 2), 0,
	FIX(1, 10), NEG(0), FIX(2, 1),
};

static const uint64_t ctm_unit[9] = {
	FIX(1, 1), 0, 0,
	0, FIX(1, 1), 0,
	0, 0, FIX(1, 1),
};

/* ---- the reference, written from the documentation ---------------- */

static uint16_t ref_lut(const struct drm_color_lut *lut, int ch, uint16_t v)
{
	uint64_t pos = (uint64_t)v * (LUT_SIZE - 1);
	uint64_t i = pos / 65535, f = pos % 65535;
	const uint16_t *e0 = &lut[i].red, *e1;

	if (f == 0)
		return e0[ch];
	e1 = &lut[i + 1].red;
	return (e0[ch] * (65535 - f) + e1[ch] * f + 32767) / 65535;
}

static int64_t ref_coef(uint64_t c)
{
	uint64_t mag = c & ~(1ull << 63);

	if (mag > (1ull << 45) - 1)
		mag = (1ull << 45) - 1;
	return c >> 63 ? -(int64_t)mag : (int64_t)mag;
}

/* floor((sum + 2^31) / 2^32), clamped to [0, 65535] */
static uint16_t ref_ctm(const uint64_t *row, const uint16_t *in)
{
	__int128 s = (__int128)1 << 31;
	__int128 q;

	for (int k = 0; k < 3; k++)
		s += (__int128)ref_coef(row[k]) * in[k];
	q = s >= 0 ? s / ((__int128)1 << 32) :
		     -((-s + ((__int128)1 << 32) - 1) / ((__int128)1 << 32));
	return q < 0 ? 0 : q > 65535 ? 65535 : (uint16_t)q;
}

static struct vfq_color ref_pixel(const struct cm *cm, struct vfq_color c,
				  bool ctm_last)
{
	uint16_t v[3] = { c.r, c.g, c.b }, t[3];

	if (cm->degamma)
		for (int k = 0; k < 3; k++)
			v[k] = ref_lut(cm->degamma, k, v[k]);
	if (cm->ctm && !ctm_last) {
		for (int k = 0; k < 3; k++)
			t[k] = ref_ctm(cm->ctm + 3 * k, v);
		memcpy(v, t, sizeof(v));
	}
	if (cm->gamma)
		for (int k = 0; k < 3; k++)
			v[k] = ref_lut(cm->gamma, k, v[k]);
	if (cm->ctm && ctm_last) {
		for (int k = 0; k < 3; k++)
			t[k] = ref_ctm(cm->ctm + 3 * k, v);
		memcpy(v, t, sizeof(v));
	}
	return (struct vfq_color){ v[0], v[1], v[2], 0xffff };
}

/* Fills want[]; @ctm_last: the wrong order, to show the test can tell. */
static uint32_t reference(const struct cm *cm, bool ctm_last)
{
	for (int i = 0; i < W * H; i++)
		want[i] = ref_pixel(cm, input[i], ctm_last);
	return vfq_frame_crc(want, W, H, 16);
}

static struct vfq_color expect_want(int x, int y, void *data)
{
	(void)data;
	return want[y * W + x];
}

/* ---- driving the CRTC ----------------------------------------------- */

/*
 * All three properties of CRTC 0 set (a blob of @len bytes, or none), in
 * one commit without ALLOW_MODESET; 0 or -errno.  A missing property fails
 * here (properties checks them): IGT would send property id 0.
 */
static int commit_cm_sized(const struct cm *cm, size_t lut_len,
			   size_t ctm_len, uint32_t flags)
{
	igt_pipe_t *pipe = &display.pipes[0];

	igt_assert(igt_pipe_obj_has_prop(pipe, IGT_CRTC_DEGAMMA_LUT) &&
		   igt_pipe_obj_has_prop(pipe, IGT_CRTC_CTM) &&
		   igt_pipe_obj_has_prop(pipe, IGT_CRTC_GAMMA_LUT));
	igt_pipe_obj_replace_prop_blob(pipe, IGT_CRTC_DEGAMMA_LUT, cm->degamma,
				       cm->degamma ? lut_len : 0);
	igt_pipe_obj_replace_prop_blob(pipe, IGT_CRTC_CTM, cm->ctm,
				       cm->ctm ? ctm_len : 0);
	igt_pipe_obj_replace_prop_blob(pipe, IGT_CRTC_GAMMA_LUT, cm->gamma,
				       cm->gamma ? lut_len : 0);
	return igt_display_try_commit_atomic(&display, flags, NULL);
}

static void commit_cm(const struct cm *cm)
{
	igt_assert_eq(commit_cm_sized(cm, sizeof(lut_a), sizeof(ctm_mix), 0),
		      0);
}

static uint32_t screen_crc(void)
{
	igt_pipe_crc_t *crc;
	uint64_t now;
	uint32_t v;

	crc = vfq_crc_start(dev.fd, dev.pipe[0].index);
	now = vfq_crtc_sequence(dev.fd, dev.pipe[0].crtc_id);
	vfq_crc_collect(crc, now + 2, 1, &v);
	igt_pipe_crc_free(crc);
	return v;
}

/* The screen (CRC, 10-bit writeback) is exactly want[] with CRC @ref. */
static void check_screen(uint32_t ref, const char *what)
{
	uint32_t got = screen_crc();
	struct vfq_fb out;
	int bad;

	igt_assert_f(got == ref, "%s: CRC %08x, reference %08x\n", what, got,
		     ref);
	vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB2101010, &out);
	memset(out.map, 0x5a, out.size);
	/*
	 * vfq's: a deadline on the out-fence.  It leaves the writeback
	 * connector on CRTC 0, as before; vfq_display_off() detaches it.
	 */
	vfq_wb_capture_ok(&dev, 0, &out);
	/* writeback rounds v * 1023 / 65535 exactly as vfq_chan() does */
	bad = vfq_fb_check(&out, expect_want, NULL, 10, 0);
	vfq_fb_destroy(&out);
	igt_assert_f(bad == 0, "%s: %d pixels of the writeback differ\n", what,
		     bad);
}

static void check_cm(const struct cm *cm, const char *what)
{
	commit_cm(cm);
	check_screen(reference(cm, false), what);
}

static void make_luts(void)
{
	for (int i = 0; i < LUT_SIZE; i++) {
		/* inverted, a parabola, and a non-monotonic saw */
		lut_a[i].red = (LUT_SIZE - 1 - i) * 257;
		lut_a[i].green = (uint32_t)i * i * 65535 / (255 * 255);
		lut_a[i].blue = (i * 7 % 256) * 257;
		/* a cube, an offset ramp, a steep falling ramp */
		lut_b[i].red = (uint64_t)i * i * i * 65535 / (255 * 255 * 255);
		lut_b[i].green = 4096 + i * 240;
		lut_b[i].blue = 65535 - i * 200;
		lut_id[i].red = lut_id[i].green = lut_id[i].blue = i * 257;
	}
}

igt_main
{
	igt_fixture {
		vfq_dev_init(&dev, vfq_open_default());
		igt_require_f(dev.caps.caps & VFLIPQ_CAP_WRITEBACK,
			      "device without writeback\n");
		igt_assert(dev.caps.caps & VFLIPQ_CAP_CRC);
		/* raw: also zpos, which igt_display_reset() leaves */
		vfq_dev_reset(&dev);
		vfq_display_init(&display, &dev);
		vfq_get_mode(dev.fd, dev.pipe[0].conn_id, W, H, 60, &mode);
		vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB2101010, &src);
		vfq_fb_pattern(&src, SEED);
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				struct vfq_color c = vfq_pattern10(x, y, SEED);
				uint16_t v[3] = { vfq_chan(c.r, 10),
						  vfq_chan(c.g, 10),
						  vfq_chan(c.b, 10) };

				/* 10-bit input: bit replication */
				for (int k = 0; k < 3; k++)
					v[k] = v[k] << 6 | v[k] >> 4;
				input[y * W + x] = (struct vfq_color){
					v[0], v[1], v[2], 0xffff };
			}
		make_luts();
		vfq_sink_bpc(dev.fd, 16);
		vfq_display_pipe(&display, &dev, 0, &mode, &src);
		igt_display_commit2(&display, COMMIT_ATOMIC);
		igt_assert_eq(vfq_crtc_bpc(dev.fd, dev.pipe[0].crtc_id), 16);
	}

	igt_describe("Every CRTC has DEGAMMA_LUT, CTM and GAMMA_LUT, LUT sizes "
		     "256, and a legacy gamma size of 256");
	igt_subtest("properties") {
		for (int i = 0; i < dev.n_pipes; i++) {
			igt_pipe_t *pipe = &display.pipes[i];
			drmModeCrtc *c = drmModeGetCrtc(dev.fd, pipe->crtc_id);

			/* igt_pipe_obj_get_prop() fails on a missing one */
			igt_assert_eq(igt_pipe_obj_get_prop(pipe,
					IGT_CRTC_GAMMA_LUT_SIZE), LUT_SIZE);
			igt_assert_eq(igt_pipe_obj_get_prop(pipe,
					IGT_CRTC_DEGAMMA_LUT_SIZE), LUT_SIZE);
			igt_assert(igt_pipe_obj_has_prop(pipe, IGT_CRTC_CTM));
			igt_assert(igt_pipe_obj_has_prop(pipe,
							 IGT_CRTC_GAMMA_LUT));
			igt_assert(igt_pipe_obj_has_prop(pipe,
							 IGT_CRTC_DEGAMMA_LUT));
			igt_assert(c);
			igt_assert_eq(c->gamma_size, LUT_SIZE);
			drmModeFreeCrtc(c);
		}
	}

	igt_describe("Identity LUTs and a unit CTM leave the frame exactly as "
		     "without colour management");
	igt_subtest("identity") {
		struct cm none = { 0 };
		struct cm id = { lut_id, ctm_unit, lut_id };
		uint32_t plain = reference(&none, false);

		commit_cm(&none);
		igt_assert_eq_u32(screen_crc(), plain);
		check_cm(&id, "identity");
	}

	igt_describe("GAMMA_LUT alone, per channel, interpolated");
	igt_subtest("gamma-lut")
		check_cm(&(struct cm){ .gamma = lut_a }, "gamma");

	igt_describe("DEGAMMA_LUT alone, per channel, interpolated");
	igt_subtest("degamma-lut")
		check_cm(&(struct cm){ .degamma = lut_b }, "degamma");

	igt_describe("CTM alone, with negative, fractional and >1 gains");
	igt_subtest("ctm")
		check_cm(&(struct cm){ .ctm = ctm_mix }, "ctm");

	igt_describe("All three in the documented order degamma -> CTM -> "
		     "gamma (the other order gives another frame)");
	igt_subtest("degamma-ctm-gamma") {
		struct cm all = { lut_b, ctm_mix, lut_a };
		uint32_t right = reference(&all, false);
		uint32_t wrong = reference(&all, true);

		igt_assert_neq_u32(right, wrong);
		check_cm(&all, "degamma-ctm-gamma");
	}

	igt_describe("Removing colour management restores the plain frame");
	igt_subtest("clear") {
		struct cm none = { 0 };
		uint32_t plain = reference(&none, false);

		commit_cm(&(struct cm){ lut_b, ctm_mix, lut_a });
		igt_assert_neq_u32(screen_crc(), plain);
		commit_cm(&none);
		igt_assert_eq_u32(screen_crc(), plain);
	}

	igt_describe("The legacy gamma ioctl programs GAMMA_LUT");
	igt_subtest("legacy-gamma") {
		uint16_t r[LUT_SIZE], g[LUT_SIZE], b[LUT_SIZE];
		struct cm gamma = { .gamma = lut_a };
		uint64_t id;

		commit_cm(&(struct cm){ 0 });
		for (int i = 0; i < LUT_SIZE; i++) {
			r[i] = lut_a[i].red;
			g[i] = lut_a[i].green;
			b[i] = lut_a[i].blue;
		}
		/* the legacy ioctl is what is tested: no igt_display here */
		igt_assert_eq(drmModeCrtcSetGamma(dev.fd, dev.pipe[0].crtc_id,
						  LUT_SIZE, r, g, b), 0);
		/* read back from the kernel, not igt_display's cache */
		id = igt_pipe_obj_get_prop(&display.pipes[0],
					   IGT_CRTC_GAMMA_LUT);
		igt_assert_neq_u64(id, 0);
		check_screen(reference(&gamma, false), "legacy gamma");
		/* a wrong size is refused */
		igt_assert_neq(drmModeCrtcSetGamma(dev.fd, dev.pipe[0].crtc_id,
						   LUT_SIZE - 1, r, g, b), 0);
		commit_cm(&(struct cm){ 0 });
	}

	igt_describe("LUTs of another size and malformed blobs are refused "
		     "with EINVAL");
	igt_subtest("invalid") {
		static struct drm_color_lut big[LUT_SIZE + 1];
		const size_t one = sizeof(struct drm_color_lut);
		const uint32_t t = DRM_MODE_ATOMIC_TEST_ONLY;

		igt_assert_eq(commit_cm_sized(&(struct cm){ .gamma = big },
					      (LUT_SIZE - 1) * one, 0, t),
			      -EINVAL);
		igt_assert_eq(commit_cm_sized(&(struct cm){ .gamma = big },
					      (LUT_SIZE + 1) * one, 0, t),
			      -EINVAL);
		igt_assert_eq(commit_cm_sized(&(struct cm){ .degamma = big },
					      (LUT_SIZE - 1) * one, 0, t),
			      -EINVAL);
		igt_assert_eq(commit_cm_sized(&(struct cm){ .degamma = big },
					      LUT_SIZE * one + 4, 0, t),
			      -EINVAL);
		igt_assert_eq(commit_cm_sized(&(struct cm){ .ctm = ctm_mix },
					      0, sizeof(ctm_mix) - 8, t),
			      -EINVAL);
		igt_assert_eq(commit_cm_sized(&(struct cm){ .gamma = big,
							    .degamma = big },
					      LUT_SIZE * one, 0, t), 0);
	}

	igt_fixture {
		vfq_display_off(&display);
		igt_display_fini(&display);
		vfq_sink_bpc(dev.fd, 8);
		vfq_fb_destroy(&src);
		vfq_dev_fini(&dev);
	}
}
