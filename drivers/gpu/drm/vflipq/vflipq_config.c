// SPDX-License-Identifier: GPL-2.0-only
/*
 * Parsing and validation of vflipq device configurations.  Kept free of DRM
 * objects so that configfs can reject a bad value at write time, long
 * before a device is created from it.
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "vflipq_compat.h"
#include "vflipq_config.h"

static const struct vflipq_mode_spec vflipq_default_modes[] = {
	{  640,  480,  60 },
	{ 1024,  768,  60 },
	{ 1280,  720,  60 },
	{ 1920, 1080,  60 },
	{ 1920, 1080, 120 },
	{ 2560, 1440, 144 },
	{ 3840, 2160,  60 },
};

/* 1920x1080@60 */
#define VFLIPQ_DEFAULT_PREFERRED	3

void vflipq_config_init_defaults(struct vflipq_config *cfg, const char *name)
{
	memset(cfg, 0, sizeof(*cfg));
	strscpy(cfg->name, name, sizeof(cfg->name));
	cfg->crtcs = 1;
	cfg->overlays = 1;
	cfg->cursor = true;
	cfg->writeback = true;
	cfg->vblank_align = true;
	cfg->flipq_depth = VFLIPQ_FLIPQ_DEFAULT_DEPTH;
	cfg->caso_caps = VFLIPQ_CASO_ALL;
	cfg->num_modes = ARRAY_SIZE(vflipq_default_modes);
	memcpy(cfg->modes, vflipq_default_modes, sizeof(vflipq_default_modes));
	cfg->preferred = VFLIPQ_DEFAULT_PREFERRED;
}
EXPORT_SYMBOL_IF_KUNIT(vflipq_config_init_defaults);

static bool vflipq_mode_valid(const struct vflipq_mode_spec *m)
{
	return m->width >= VFLIPQ_MODE_MIN_DIM &&
	       m->width <= VFLIPQ_MODE_MAX_DIM &&
	       m->height >= VFLIPQ_MODE_MIN_DIM &&
	       m->height <= VFLIPQ_MODE_MAX_DIM &&
	       m->refresh >= 1 && m->refresh <= VFLIPQ_MODE_MAX_REFRESH;
}

/* Highest tier whose bits and every lower tier's bits are all set. */
unsigned int vflipq_caso_tier(unsigned int caso_caps)
{
	unsigned int tier = 0;

	while (tier < 3 && (caso_caps & BIT(tier)))
		tier++;
	return tier;
}
EXPORT_SYMBOL_IF_KUNIT(vflipq_caso_tier);

/**
 * vflipq_config_validate - check a configuration before creating a device
 * @cfg: configuration
 * @why: out, a sentence for the kernel log when the CASO rules are broken
 *
 * Return: 0 or -EINVAL.
 */
int vflipq_config_validate(const struct vflipq_config *cfg, const char **why)
{
	unsigned int i;

	*why = NULL;
	if (cfg->caso_caps & ~VFLIPQ_CASO_ALL) {
		*why = "unknown CASO capability bits (1 copy, 2 texture, 4 scan-out)";
		return -EINVAL;
	}
	/* As WDDM refuses an adapter whose tiers are not a superset. */
	if (BIT(vflipq_caso_tier(cfg->caso_caps)) - 1 != cfg->caso_caps) {
		*why = "CASO tiers must be a superset: texture needs copy, scan-out needs texture";
		return -EINVAL;
	}
	if (cfg->hybrid_integrated && !(cfg->caso_caps & VFLIPQ_CASO_SCANOUT)) {
		*why = "a hybrid integrated adapter must support cross-adapter scan-out (tier 3)";
		return -EINVAL;
	}
	if (cfg->hybrid_integrated && !cfg->crtcs) {
		*why = "a hybrid integrated adapter needs at least one CRTC";
		return -EINVAL;
	}
	if (cfg->fbdev && !cfg->crtcs) {
		*why = "fbdev emulation needs at least one CRTC";
		return -EINVAL;
	}
	/* No CRTC: a render-only adapter. */
	if (cfg->crtcs > VFLIPQ_MAX_CRTCS)
		return -EINVAL;
	if (cfg->overlays > VFLIPQ_MAX_OVERLAYS)
		return -EINVAL;
	if (cfg->crtcs * (1 + cfg->overlays + cfg->cursor) >
	    VFLIPQ_MAX_PLANES_TOTAL)
		return -EINVAL;
	if (cfg->flipq_depth < 1 || cfg->flipq_depth > VFLIPQ_FLIPQ_MAX_DEPTH)
		return -EINVAL;
	if (cfg->num_modes < 1 || cfg->num_modes > VFLIPQ_MAX_MODES)
		return -EINVAL;
	if (cfg->preferred >= cfg->num_modes)
		return -EINVAL;
	for (i = 0; i < cfg->num_modes; i++)
		if (!vflipq_mode_valid(&cfg->modes[i]))
			return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vflipq_config_validate);

int vflipq_parse_mode(const char *buf, struct vflipq_mode_spec *mode)
{
	unsigned int w, h, r;
	char extra;

	if (sscanf(buf, "%ux%u@%u%c", &w, &h, &r, &extra) != 3)
		return -EINVAL;
	if (w > U16_MAX || h > U16_MAX || r > U16_MAX)
		return -EINVAL;
	mode->width = w;
	mode->height = h;
	mode->refresh = r;
	return vflipq_mode_valid(mode) ? 0 : -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(vflipq_parse_mode);

/*
 * Parse a whitespace separated list of "WxH@R" tokens.  On success the new
 * list replaces @cfg's and the preferred mode is kept if it is still
 * listed, else the first mode becomes preferred.
 */
int vflipq_parse_mode_list(const char *buf, struct vflipq_config *cfg)
{
	struct vflipq_mode_spec modes[VFLIPQ_MAX_MODES];
	struct vflipq_mode_spec old_pref = cfg->modes[cfg->preferred];
	char token[32];
	unsigned int n = 0, i;
	const char *p = buf;
	int ret;

	for (;;) {
		size_t len;

		p = skip_spaces(p);
		if (!*p)
			break;
		len = strcspn(p, " \t\n");
		if (len >= sizeof(token) || n == VFLIPQ_MAX_MODES)
			return -EINVAL;
		memcpy(token, p, len);
		token[len] = '\0';
		ret = vflipq_parse_mode(token, &modes[n]);
		if (ret)
			return ret;
		n++;
		p += len;
	}
	if (!n)
		return -EINVAL;

	cfg->num_modes = n;
	memcpy(cfg->modes, modes, n * sizeof(modes[0]));
	cfg->preferred = 0;
	for (i = 0; i < n; i++) {
		if (!memcmp(&modes[i], &old_pref, sizeof(old_pref))) {
			cfg->preferred = i;
			break;
		}
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vflipq_parse_mode_list);

int vflipq_config_set_preferred(struct vflipq_config *cfg, const char *buf)
{
	struct vflipq_mode_spec mode;
	char token[32];
	unsigned int i;
	int ret;

	strscpy(token, skip_spaces(buf), sizeof(token));
	strim(token);
	ret = vflipq_parse_mode(token, &mode);
	if (ret)
		return ret;
	for (i = 0; i < cfg->num_modes; i++) {
		if (!memcmp(&cfg->modes[i], &mode, sizeof(mode))) {
			cfg->preferred = i;
			return 0;
		}
	}
	return -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(vflipq_config_set_preferred);

int vflipq_format_mode(const struct vflipq_mode_spec *mode, char *buf,
		       size_t len)
{
	return scnprintf(buf, len, "%ux%u@%u", mode->width, mode->height,
			 mode->refresh);
}
EXPORT_SYMBOL_IF_KUNIT(vflipq_format_mode);
