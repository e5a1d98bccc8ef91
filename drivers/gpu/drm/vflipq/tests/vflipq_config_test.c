// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite of the configuration parser and validator
 * (../vflipq_config.c): the rules of Documentation/vflipq/configfs.rst and
 * module-parameters.rst, each at its boundary.
 */

#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "../vflipq_config.h"
#include "vflipq_test.h"

static struct vflipq_config cfg;
static const char *why;

static int validate(void)
{
	return vflipq_config_validate(&cfg, &why);
}

static void vflipq_config_test_defaults(struct kunit *test)
{
	vflipq_config_init_defaults(&cfg,
				    "a-name-longer-than-the-32-bytes-it-may-have");
	VFLIPQ_EXPECT_EQ(test, strlen(cfg.name), VFLIPQ_NAME_LEN - 1);
	VFLIPQ_EXPECT_EQ(test, cfg.crtcs, 1);
	VFLIPQ_EXPECT_EQ(test, cfg.overlays, 1);
	VFLIPQ_EXPECT(test, cfg.cursor && cfg.writeback);
	/* configfs devices tick on the shared grid too (driver.rst) */
	VFLIPQ_EXPECT(test, cfg.vblank_align);
	VFLIPQ_EXPECT_EQ(test, cfg.flipq_depth, 8);
	VFLIPQ_EXPECT_EQ(test, cfg.caso_caps, VFLIPQ_CASO_ALL);
	VFLIPQ_EXPECT_EQ(test, cfg.num_modes, 7);
	VFLIPQ_EXPECT_EQ(test, cfg.modes[cfg.preferred].width, 1920);
	VFLIPQ_EXPECT_EQ(test, cfg.modes[cfg.preferred].height, 1080);
	VFLIPQ_EXPECT_EQ(test, cfg.modes[cfg.preferred].refresh, 60);
	VFLIPQ_EXPECT_EQ(test, validate(), 0);
	VFLIPQ_EXPECT(test, !why);
}

static void vflipq_config_test_caso_tier(struct kunit *test)
{
	VFLIPQ_EXPECT_EQ(test, vflipq_caso_tier(0), 0);
	VFLIPQ_EXPECT_EQ(test, vflipq_caso_tier(1), 1);
	VFLIPQ_EXPECT_EQ(test, vflipq_caso_tier(3), 2);
	VFLIPQ_EXPECT_EQ(test, vflipq_caso_tier(7), 3);
	VFLIPQ_EXPECT_EQ(test, vflipq_caso_tier(2), 0);
	VFLIPQ_EXPECT_EQ(test, vflipq_caso_tier(5), 1);
	VFLIPQ_EXPECT_EQ(test, vflipq_caso_tier(6), 0);
}

static void vflipq_config_test_validate_caso(struct kunit *test)
{
	static const struct { unsigned int caps; int ok; } c[] = {
		{ 0, 1 }, { 1, 1 }, { 3, 1 }, { 7, 1 },
		{ 2, 0 }, { 4, 0 }, { 5, 0 }, { 6, 0 }, { 8, 0 }, { 15, 0 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		vflipq_config_init_defaults(&cfg, "t");
		cfg.caso_caps = c[i].caps;
		VFLIPQ_EXPECT_EQ(test, validate(), c[i].ok ? 0 : -EINVAL);
		VFLIPQ_EXPECT(test, c[i].ok ? !why : !!why);
	}
	vflipq_config_init_defaults(&cfg, "t");
	cfg.hybrid_integrated = true;
	VFLIPQ_EXPECT_EQ(test, validate(), 0);
	cfg.caso_caps = 3;
	VFLIPQ_EXPECT_EQ(test, validate(), -EINVAL);
	VFLIPQ_EXPECT(test, why);
	cfg.caso_caps = 7;
	cfg.crtcs = 0;
	VFLIPQ_EXPECT_EQ(test, validate(), -EINVAL);
	VFLIPQ_EXPECT(test, why);
	cfg.hybrid_integrated = false;
	VFLIPQ_EXPECT_EQ(test, validate(), 0);	/* render-only */
	/* fbdev emulation needs a CRTC to show its buffer on */
	VFLIPQ_EXPECT(test, !cfg.fbdev);
	cfg.fbdev = true;
	VFLIPQ_EXPECT_EQ(test, validate(), -EINVAL);
	VFLIPQ_EXPECT(test, why);
	cfg.crtcs = 1;
	VFLIPQ_EXPECT_EQ(test, validate(), 0);
}

static void vflipq_config_test_validate_limits(struct kunit *test)
{
	vflipq_config_init_defaults(&cfg, "t");
	cfg.crtcs = VFLIPQ_MAX_CRTCS;
	cfg.overlays = 2;	/* 8 * (1 + 2 + 1) = 32 planes: the limit */
	VFLIPQ_EXPECT_EQ(test, validate(), 0);
	cfg.overlays = 3;
	VFLIPQ_EXPECT_EQ(test, validate(), -EINVAL);
	cfg.cursor = false;
	VFLIPQ_EXPECT_EQ(test, validate(), 0);
	cfg.crtcs = VFLIPQ_MAX_CRTCS + 1;
	cfg.overlays = 0;
	VFLIPQ_EXPECT_EQ(test, validate(), -EINVAL);

	vflipq_config_init_defaults(&cfg, "t");
	cfg.overlays = VFLIPQ_MAX_OVERLAYS;
	VFLIPQ_EXPECT_EQ(test, validate(), 0);
	cfg.overlays++;
	VFLIPQ_EXPECT_EQ(test, validate(), -EINVAL);

	vflipq_config_init_defaults(&cfg, "t");
	cfg.flipq_depth = 0;
	VFLIPQ_EXPECT_EQ(test, validate(), -EINVAL);
	cfg.flipq_depth = 1;
	VFLIPQ_EXPECT_EQ(test, validate(), 0);
	cfg.flipq_depth = VFLIPQ_FLIPQ_MAX_DEPTH;
	VFLIPQ_EXPECT_EQ(test, validate(), 0);
	cfg.flipq_depth++;
	VFLIPQ_EXPECT_EQ(test, validate(), -EINVAL);

	vflipq_config_init_defaults(&cfg, "t");
	cfg.preferred = cfg.num_modes - 1;
	VFLIPQ_EXPECT_EQ(test, validate(), 0);
	cfg.preferred = cfg.num_modes;
	VFLIPQ_EXPECT_EQ(test, validate(), -EINVAL);
	cfg.preferred = 0;
	cfg.num_modes = 0;
	VFLIPQ_EXPECT_EQ(test, validate(), -EINVAL);
	cfg.num_modes = VFLIPQ_MAX_MODES + 1;
	VFLIPQ_EXPECT_EQ(test, validate(), -EINVAL);
	vflipq_config_init_defaults(&cfg, "t");
	cfg.modes[2].refresh = 0;
	VFLIPQ_EXPECT_EQ(test, validate(), -EINVAL);
}

struct parse_mode_case {
	const char *s;
	int ok;
	u16 w, h, r;
};

static const struct parse_mode_case parse_mode_cases[] = {
	{ "640x480@60", 1, 640, 480, 60 },
	{ "64x64@1", 1, 64, 64, 1 },
	{ "8192x8192@240", 1, 8192, 8192, 240 },
	{ "63x64@60", 0, 0, 0, 0 },
	{ "64x63@60", 0, 0, 0, 0 },
	{ "8193x64@60", 0, 0, 0, 0 },
	{ "64x8193@60", 0, 0, 0, 0 },
	{ "64x64@0", 0, 0, 0, 0 },
	{ "64x64@241", 0, 0, 0, 0 },
	{ "640x480", 0, 0, 0, 0 },
	{ "640x480@60x", 0, 0, 0, 0 },
	{ "640x480@60 ", 0, 0, 0, 0 },
	{ "x480@60", 0, 0, 0, 0 },
	{ "", 0, 0, 0, 0 },
	{ "65600x480@60", 0, 0, 0, 0 },
	{ "640x480@65596", 0, 0, 0, 0 },
};

static void parse_mode_desc(const struct parse_mode_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\"", c->s);
}

KUNIT_ARRAY_PARAM(parse_mode, parse_mode_cases, parse_mode_desc);

static void vflipq_config_test_parse_mode(struct kunit *test)
{
	const struct parse_mode_case *c = test->param_value;
	struct vflipq_mode_spec m = { 0 };
	int ret = vflipq_parse_mode(c->s, &m);

	VFLIPQ_EXPECT_EQ(test, ret, c->ok ? 0 : -EINVAL);
	if (c->ok) {
		VFLIPQ_EXPECT_EQ(test, m.width, c->w);
		VFLIPQ_EXPECT_EQ(test, m.height, c->h);
		VFLIPQ_EXPECT_EQ(test, m.refresh, c->r);
	}
}

static void vflipq_config_test_parse_mode_list(struct kunit *test)
{
	static const char blanks[] = { ' ', ' ', '\n', '\0' };
	static char buf[1024];
	int i;

	buf[0] = '\0';
	vflipq_config_init_defaults(&cfg, "t");
	/* the preferred 1920x1080@60 stays preferred, at its new index */
	VFLIPQ_EXPECT_EQ(test, vflipq_parse_mode_list(" 800x600@60\t1920x1080@60\n",
						      &cfg), 0);
	VFLIPQ_EXPECT_EQ(test, cfg.num_modes, 2);
	VFLIPQ_EXPECT_EQ(test, cfg.modes[0].width, 800);
	VFLIPQ_EXPECT_EQ(test, cfg.preferred, 1);
	/* no longer listed: the first becomes preferred */
	VFLIPQ_EXPECT_EQ(test, vflipq_parse_mode_list("1024x768@60 640x480@60",
						      &cfg), 0);
	VFLIPQ_EXPECT_EQ(test, cfg.preferred, 0);
	VFLIPQ_EXPECT_EQ(test, cfg.modes[1].width, 640);
	/* failures leave the list alone */
	VFLIPQ_EXPECT_EQ(test, vflipq_parse_mode_list("1024x768@60 bad", &cfg),
			 -EINVAL);
	VFLIPQ_EXPECT_EQ(test, vflipq_parse_mode_list(blanks, &cfg), -EINVAL);
	VFLIPQ_EXPECT_EQ(test, vflipq_parse_mode_list("1024x768@60 64x64@1000",
						      &cfg), -EINVAL);
	VFLIPQ_EXPECT_EQ(test, cfg.num_modes, 2);
	VFLIPQ_EXPECT_EQ(test, cfg.modes[0].width, 1024);
	/* at most VFLIPQ_MAX_MODES */
	for (i = 0; i < VFLIPQ_MAX_MODES; i++)
		sprintf(buf + strlen(buf), "%dx64@60 ", 64 + i);
	VFLIPQ_EXPECT_EQ(test, vflipq_parse_mode_list(buf, &cfg), 0);
	VFLIPQ_EXPECT_EQ(test, cfg.num_modes, VFLIPQ_MAX_MODES);
	strcat(buf, "100x100@60");
	VFLIPQ_EXPECT_EQ(test, vflipq_parse_mode_list(buf, &cfg), -EINVAL);
	VFLIPQ_EXPECT_EQ(test, cfg.num_modes, VFLIPQ_MAX_MODES);
}

static void vflipq_config_test_preferred(struct kunit *test)
{
	char out[32];

	vflipq_config_init_defaults(&cfg, "t");
	VFLIPQ_EXPECT_EQ(test, vflipq_config_set_preferred(&cfg, "  1280x720@60\n"),
			 0);
	VFLIPQ_EXPECT_EQ(test, cfg.preferred, 2);
	VFLIPQ_EXPECT_EQ(test, vflipq_config_set_preferred(&cfg, "1280x720@61"),
			 -EINVAL);
	VFLIPQ_EXPECT_EQ(test, vflipq_config_set_preferred(&cfg, "junk"), -EINVAL);
	VFLIPQ_EXPECT_EQ(test, cfg.preferred, 2);
	VFLIPQ_EXPECT_EQ(test, vflipq_format_mode(&cfg.modes[cfg.preferred], out,
						  sizeof(out)), 11);
	VFLIPQ_EXPECT(test, !strcmp(out, "1280x720@60"));
	VFLIPQ_EXPECT_EQ(test, vflipq_format_mode(&cfg.modes[0], out, 5), 4);
	VFLIPQ_EXPECT(test, !strcmp(out, "640x"));
}

static struct kunit_case vflipq_config_test_cases[] = {
	KUNIT_CASE(vflipq_config_test_defaults),
	KUNIT_CASE(vflipq_config_test_caso_tier),
	KUNIT_CASE(vflipq_config_test_validate_caso),
	KUNIT_CASE(vflipq_config_test_validate_limits),
	KUNIT_CASE_PARAM(vflipq_config_test_parse_mode, parse_mode_gen_params),
	KUNIT_CASE(vflipq_config_test_parse_mode_list),
	KUNIT_CASE(vflipq_config_test_preferred),
	{}
};

struct kunit_suite vflipq_config_test_suite = {
	.name = "vflipq_config",
	.init = vflipq_test_init,
	.exit = vflipq_test_exit,
	.test_cases = vflipq_config_test_cases,
};
