/* SPDX-License-Identifier: MIT */
#ifndef VFLIPQ_KMS_H
#define VFLIPQ_KMS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

/*
 * Open /dev/dri/card<index>, or with index < 0 the first card whose driver
 * is "vflipq".  Returns the fd (index stored in *found) or -1 with a message
 * on stderr.
 */
int kms_open_card(int index, int *found);

/*
 * The options every tool takes: --card N (default -1: the first vflipq card)
 * and --crtc I, two getopt_long() entries (<getopt.h>) for its table.
 */
#define KMS_OPTS_CARD_CRTC \
	{ "card", required_argument, NULL, 'c' }, \
	{ "crtc", required_argument, NULL, 'r' }
/*
 * getopt_long() over @lo (which has KMS_OPTS_CARD_CRTC) that takes --card
 * and --crtc itself (a number 0..255 into *card, *crtc): returns the next
 * other option, -1 at the end, '?' for a bad option or number (message on
 * stderr).
 */
int kms_getopt(int argc, char **argv, const char *shortopts, const struct option *lo,
	       int *card, int *crtc);

#define KMS_OPEN_NOT_MASTER	1u	/* drop master: another program has it */
#define KMS_OPEN_WRITEBACK	2u	/* writeback connectors too */
/*
 * A tool's card: kms_open_card(), then the universal-plane and atomic
 * client caps (and writeback, @flags), then its resources (*res, free with
 * drmModeFreeResources()).  Returns the fd, or -1 with a message on stderr.
 */
int kms_open_tool(int index, unsigned int flags, int *found, drmModeRes **res);

/* A dumb buffer with a framebuffer on it, mapped for CPU access. */
struct kms_dumb {
	uint32_t width, height, fourcc;
	uint32_t handle, pitch, fb_id;
	uint64_t size;
	void *map;
};

int kms_dumb_create(int fd, uint32_t width, uint32_t height, uint32_t fourcc,
		    struct kms_dumb *d);
void kms_dumb_destroy(int fd, struct kms_dumb *d);

/* Property id by name on an object, 0 if the object has none. */
uint32_t kms_prop(int fd, uint32_t obj, uint32_t type, const char *name,
		  bool *immutable);
/* Value of the enum entry called @entry of property @name; -1 if absent. */
int kms_prop_enum(int fd, uint32_t obj, uint32_t type, const char *name,
		  const char *entry, uint64_t *value);
/* Current value of a property; -1 if absent. */
int kms_prop_get(int fd, uint32_t obj, uint32_t type, const char *name,
		 uint64_t *value);

/*
 * Add obj.name = value to an atomic request.  A missing property is an error
 * (message on stderr) unless @optional; optional also skips immutable ones.
 */
int kms_set(drmModeAtomicReq *req, int fd, uint32_t obj, uint32_t type,
	    const char *name, uint64_t value, bool optional);

/* DRM_PLANE_TYPE_* of a plane, -1 if unknown. */
int kms_plane_type(int fd, uint32_t plane_id);
bool kms_plane_has_format(const drmModePlane *p, uint32_t fourcc);

/* "XR24"-style name of a fourcc, in a static buffer. */
const char *kms_fourcc_str(uint32_t fourcc);

#endif
