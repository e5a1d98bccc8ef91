// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host unit tests of the configuration parser and validator
 * (drivers/gpu/drm/vflipq/vflipq_config.c): the rules of
 * Documentation/vflipq/configfs.rst and module-parameters.rst, each at its
 * boundary.
 */
#include <errno.h>
#include <string.h>

#include <linux/kernel.h>

#include "vflipq_config.h"
#include "unit.h"

static struct vflipq_config cfg;
static const char *why;

static int validate(void)
{
	return vflipq_config_validate(&cfg, &why);
}

static void test_defaults(void)
{
	vflipq_config_init_defaults(&cfg,
				    "a-name-longer-than-the-32-bytes-it-may-have");
	CHECK_EQ(strlen(cfg.name), VFLIPQ_NAME_LEN - 1);
	CHECK_EQ(cfg.crtcs, 1);
	CHECK_EQ(cfg.overlays, 1);
	CHECK(cfg.cursor && cfg.writeback);
	/* configfs devices tick on the shared grid too (driver.rst) */
	CHECK(cfg.vblank_align);
	CHECK_EQ(cfg.flipq_depth, 8);
	CHECK_EQ(cfg.caso_caps, VFLIPQ_CASO_ALL);
	CHECK_EQ(cfg.num_modes, 7);
	CHECK_EQ(cfg.modes[cfg.preferred].width, 1920);
	CHECK_EQ(cfg.modes[cfg.preferred].height, 1080);
	CHECK_EQ(cfg.modes[cfg.preferred].refresh, 60);
	CHECK_EQ(validate(), 0);
	CHECK(!why);
}

static void test_caso_tier(void)
{
	CHECK_EQ(vflipq_caso_tier(0), 0);
	CHECK_EQ(vflipq_caso_tier(1), 1);
	CHECK_EQ(vflipq_caso_tier(3), 2);
	CHECK_EQ(vflipq_caso_tier(7), 3);
	CHECK_EQ(vflipq_caso_tier(2), 0);
	CHECK_EQ(vflipq_caso_tier(5), 1);
	CHECK_EQ(vflipq_caso_tier(6), 0);
}

static void test_validate_caso(void)
{
	static const struct { unsigned int caps; int ok; } c[] = {
		{ 0, 1 }, { 1, 1 }, { 3, 1 }, { 7, 1 },
		{ 2, 0 }, { 4, 0 }, { 5, 0 }, { 6, 0 }, { 8, 0 }, { 15, 0 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		vflipq_config_init_defaults(&cfg, "t");
		cfg.caso_caps = c[i].caps;
		CHECK_EQ(validate(), c[i].ok ? 0 : -EINVAL);
		CHECK(c[i].ok ? !why : why != NULL);
	}
	vflipq_config_init_defaults(&cfg, "t");
	cfg.hybrid_integrated = true;
	CHECK_EQ(validate(), 0);
	cfg.caso_caps = 3;
	CHECK_EQ(validate(), -EINVAL);
	CHECK(why != NULL);
	cfg.caso_caps = 7;
	cfg.crtcs = 0;
	CHECK_EQ(validate(), -EINVAL);
	CHECK(why != NULL);
	cfg.hybrid_integrated = false;
	CHECK_EQ(validate(), 0);	/* render-only */
	/* fbdev emulation needs a CRTC to show its buffer on */
	CHECK(!cfg.fbdev);
	cfg.fbdev = true;
	CHECK_EQ(validate(), -EINVAL);
	CHECK(why != NULL);
	cfg.crtcs = 1;
	CHECK_EQ(validate(), 0);
}

static void test_validate_limits(void)
{
	vflipq_config_init_defaults(&cfg, "t");
	cfg.crtcs = VFLIPQ_MAX_CRTCS;
	cfg.overlays = 2;	/* 8 * (1 + 2 + 1) = 32 planes: the limit */
	CHECK_EQ(validate(), 0);
	cfg.overlays = 3;
	CHECK_EQ(validate(), -EINVAL);
	cfg.cursor = false;
	CHECK_EQ(validate(), 0);
	cfg.crtcs = VFLIPQ_MAX_CRTCS + 1;
	cfg.overlays = 0;
	CHECK_EQ(validate(), -EINVAL);

	vflipq_config_init_defaults(&cfg, "t");
	cfg.overlays = VFLIPQ_MAX_OVERLAYS;
	CHECK_EQ(validate(), 0);
	cfg.overlays++;
	CHECK_EQ(validate(), -EINVAL);

	vflipq_config_init_defaults(&cfg, "t");
	cfg.flipq_depth = 0;
	CHECK_EQ(validate(), -EINVAL);
	cfg.flipq_depth = 1;
	CHECK_EQ(validate(), 0);
	cfg.flipq_depth = VFLIPQ_FLIPQ_MAX_DEPTH;
	CHECK_EQ(validate(), 0);
	cfg.flipq_depth++;
	CHECK_EQ(validate(), -EINVAL);

	vflipq_config_init_defaults(&cfg, "t");
	cfg.preferred = cfg.num_modes - 1;
	CHECK_EQ(validate(), 0);
	cfg.preferred = cfg.num_modes;
	CHECK_EQ(validate(), -EINVAL);
	cfg.preferred = 0;
	cfg.num_modes = 0;
	CHECK_EQ(validate(), -EINVAL);
	cfg.num_modes = VFLIPQ_MAX_MODES + 1;
	CHECK_EQ(validate(), -EINVAL);
	vflipq_config_init_defaults(&cfg, "t");
	cfg.modes[2].refresh = 0;
	CHECK_EQ(validate(), -EINVAL);
}

static void test_parse_mode(void)
{
	static const struct { const char *s; int ok; u16 w, h, r; } c[] = {
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
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		struct vflipq_mode_spec m = { 0 };
		int ret = vflipq_parse_mode(c[i].s, &m);

		if (ret != (c[i].ok ? 0 : -EINVAL))
			fprintf(stderr, "  \"%s\"\n", c[i].s);
		CHECK_EQ(ret, c[i].ok ? 0 : -EINVAL);
		if (c[i].ok) {
			CHECK_EQ(m.width, c[i].w);
			CHECK_EQ(m.height, c[i].h);
			CHECK_EQ(m.refresh, c[i].r);
		}
	}
}

static void test_parse_mode_list(void)
{
	char buf[1024] = "";
	int i;

	vflipq_config_init_defaults(&cfg, "t");
	/* the preferred 1920x1080@60 stays preferred, at its new index */
	CHECK_EQ(vflipq_parse_mode_list(" 800x600@60\t1920x1080@60\n", &cfg), 0);
	CHECK_EQ(cfg.num_modes, 2);
	CHECK_EQ(cfg.modes[0].width, 800);
	CHECK_EQ(cfg.preferred, 1);
	/* no longer listed: the first becomes preferred */
	CHECK_EQ(vflipq_parse_mode_list("1024x768@60 640x480@60", &cfg), 0);
	CHECK_EQ(cfg.preferred, 0);
	CHECK_EQ(cfg.modes[1].width, 640);
	/* failures leave the list alone */
	CHECK_EQ(vflipq_parse_mode_list("1024x768@60 bad", &cfg), -EINVAL);
	CHECK_EQ(vflipq_parse_mode_list("  \n", &cfg), -EINVAL);
	CHECK_EQ(vflipq_parse_mode_list("1024x768@60 64x64@1000", &cfg),
		 -EINVAL);
	CHECK_EQ(cfg.num_modes, 2);
	CHECK_EQ(cfg.modes[0].width, 1024);
	/* at most VFLIPQ_MAX_MODES */
	for (i = 0; i < VFLIPQ_MAX_MODES; i++)
		sprintf(buf + strlen(buf), "%dx64@60 ", 64 + i);
	CHECK_EQ(vflipq_parse_mode_list(buf, &cfg), 0);
	CHECK_EQ(cfg.num_modes, VFLIPQ_MAX_MODES);
	strcat(buf, "100x100@60");
	CHECK_EQ(vflipq_parse_mode_list(buf, &cfg), -EINVAL);
	CHECK_EQ(cfg.num_modes, VFLIPQ_MAX_MODES);
}

static void test_preferred(void)
{
	char out[32];

	vflipq_config_init_defaults(&cfg, "t");
	CHECK_EQ(vflipq_config_set_preferred(&cfg, "  1280x720@60\n"), 0);
	CHECK_EQ(cfg.preferred, 2);
	CHECK_EQ(vflipq_config_set_preferred(&cfg, "1280x720@61"), -EINVAL);
	CHECK_EQ(vflipq_config_set_preferred(&cfg, "junk"), -EINVAL);
	CHECK_EQ(cfg.preferred, 2);
	CHECK_EQ(vflipq_format_mode(&cfg.modes[cfg.preferred], out,
				    sizeof(out)), 11);
	CHECK(!strcmp(out, "1280x720@60"));
	CHECK_EQ(vflipq_format_mode(&cfg.modes[0], out, 5), 4);
	CHECK(!strcmp(out, "640x"));
}

int main(int argc, char **argv)
{
	static const struct unit_test tests[] = {
		{ "defaults", test_defaults },
		{ "caso-tier", test_caso_tier },
		{ "validate-caso", test_validate_caso },
		{ "validate-limits", test_validate_limits },
		{ "parse-mode", test_parse_mode },
		{ "parse-mode-list", test_parse_mode_list },
		{ "preferred", test_preferred },
	};

	return unit_run("config", tests, ARRAY_SIZE(tests), argc, argv);
}
