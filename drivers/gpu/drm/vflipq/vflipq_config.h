/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Device configuration: plain data, shared by the module parameters and
 * configfs, validated before any DRM object exists.
 */
#ifndef _VFLIPQ_CONFIG_H_
#define _VFLIPQ_CONFIG_H_

#include <linux/bits.h>
#include <linux/types.h>

#define VFLIPQ_MAX_CRTCS	8
#define VFLIPQ_MAX_OVERLAYS	8
#define VFLIPQ_MAX_MODES	16
/* the DRM core allows 32 planes per device (plane masks are u32) */
#define VFLIPQ_MAX_PLANES_TOTAL	32
#define VFLIPQ_NAME_LEN		32

/* CASO capability bits, vflipq_config.caso_caps */
#define VFLIPQ_CASO_COPY	BIT(0)
#define VFLIPQ_CASO_TEXTURE	BIT(1)
#define VFLIPQ_CASO_SCANOUT	BIT(2)
#define VFLIPQ_CASO_ALL		(VFLIPQ_CASO_COPY | VFLIPQ_CASO_TEXTURE | \
				 VFLIPQ_CASO_SCANOUT)

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
	/* VFLIPQ_CASO_* */
	unsigned int caso_caps;
	/* the display adapter of a hybrid system */
	bool hybrid_integrated;
	/* display bandwidth in pixels per second over all CRTCs, 0: none */
	u64 bandwidth;
	/* an fbdev client (/dev/fbN) on the device, as most KMS drivers have */
	bool fbdev;
	/*
	 * vblanks on CLOCK_MONOTONIC's multiples of the frame duration rather
	 * than one frame duration apart from the mode set
	 */
	bool vblank_align;
	unsigned int num_modes;
	struct vflipq_mode_spec modes[VFLIPQ_MAX_MODES];
	/* index into @modes */
	unsigned int preferred;
};

void vflipq_config_init_defaults(struct vflipq_config *cfg, const char *name);
int vflipq_config_validate(const struct vflipq_config *cfg, const char **why);
unsigned int vflipq_caso_tier(unsigned int caso_caps);
int vflipq_parse_mode(const char *buf, struct vflipq_mode_spec *mode);
int vflipq_parse_mode_list(const char *buf, struct vflipq_config *cfg);
int vflipq_config_set_preferred(struct vflipq_config *cfg, const char *buf);
int vflipq_format_mode(const struct vflipq_mode_spec *mode, char *buf,
		       size_t len);

#endif /* _VFLIPQ_CONFIG_H_ */
