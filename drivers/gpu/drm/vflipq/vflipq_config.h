/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Device configuration: plain data, shared by the module parameters and
 * configfs, validated before any DRM object exists.
 */
#ifndef _VFLIPQ_CONFIG_H_
#define _VFLIPQ_CONFIG_H_

#include <linux/types.h>

#define VFLIPQ_MAX_CRTCS	8
#define VFLIPQ_MAX_OVERLAYS	8
#define VFLIPQ_MAX_MODES	16
/* the DRM core allows 32 planes per device (plane masks are u32) */
#define VFLIPQ_MAX_PLANES_TOTAL	32
#define VFLIPQ_NAME_LEN		32

#define VFLIPQ_FLIPQ_MAX_DEPTH	64
#define VFLIPQ_FLIPQ_DEFAULT_DEPTH	8

#define VFLIPQ_MODE_MIN_DIM	64
#define VFLIPQ_MODE_MAX_DIM	8192
#define VFLIPQ_MODE_MAX_REFRESH	240

struct vflipq_mode_spec {
	u16 width;
	u16 height;
	u16 refresh;
};

struct vflipq_config {
	char name[VFLIPQ_NAME_LEN];
	unsigned int crtcs;
	unsigned int overlays;
	bool cursor;
	bool writeback;
	/* future flips per plane; 1: no flip queue */
	unsigned int flipq_depth;
	/* created through configfs rather than the module parameters */
	bool from_configfs;
	unsigned int num_modes;
	struct vflipq_mode_spec modes[VFLIPQ_MAX_MODES];
	/* index into @modes */
	unsigned int preferred;
};

void vflipq_config_init_defaults(struct vflipq_config *cfg, const char *name);
int vflipq_config_validate(const struct vflipq_config *cfg);
int vflipq_parse_mode(const char *buf, struct vflipq_mode_spec *mode);
int vflipq_parse_mode_list(const char *buf, struct vflipq_config *cfg);
int vflipq_config_set_preferred(struct vflipq_config *cfg, const char *buf);
int vflipq_format_mode(const struct vflipq_mode_spec *mode, char *buf,
		       size_t len);

#endif /* _VFLIPQ_CONFIG_H_ */
