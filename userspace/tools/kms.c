// SPDX-License-Identifier: MIT
#include "kms.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <drm_fourcc.h>

#include "fourcc.h"

#define MAX_CARDS 64

static int open_index(int index, char *driver, size_t len)
{
	char path[64];
	drmVersionPtr v;
	int fd;

	snprintf(path, sizeof(path), DRM_DIR_NAME "/card%d", index);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	v = drmGetVersion(fd);
	if (!v) {
		close(fd);
		return -1;
	}
	snprintf(driver, len, "%s", v->name);
	drmFreeVersion(v);
	return fd;
}

int kms_open_card(int index, int *found)
{
	char driver[64];
	int fd;

	if (index >= 0) {
		fd = open_index(index, driver, sizeof(driver));
		if (fd < 0) {
			fprintf(stderr, "cannot open %s/card%d: %s\n",
				DRM_DIR_NAME, index, strerror(errno));
			return -1;
		}
		*found = index;
		return fd;
	}
	/* Card numbers can have holes (unplugged configfs devices). */
	for (int i = 0; i < MAX_CARDS; i++) {
		fd = open_index(i, driver, sizeof(driver));
		if (fd < 0)
			continue;
		if (!strcmp(driver, "vflipq")) {
			*found = i;
			return fd;
		}
		close(fd);
	}
	fprintf(stderr, "no vflipq card in %s (is the module loaded?)\n",
		DRM_DIR_NAME);
	return -1;
}

int kms_getopt(int argc, char **argv, const char *shortopts, const struct option *lo,
	       int *card, int *crtc)
{
	int opt;

	while ((opt = getopt_long(argc, argv, shortopts, lo, NULL)) == 'c' || opt == 'r') {
		char *end;
		long v;

		errno = 0;
		v = strtol(optarg, &end, 10);
		if (errno || end == optarg || *end || v < 0 || v > 255) {
			fprintf(stderr, "bad %s number: %s\n", opt == 'c' ? "card" : "CRTC",
				optarg);
			return '?';
		}
		*(opt == 'c' ? card : crtc) = (int)v;
	}
	return opt;
}

int kms_open_tool(int index, unsigned int flags, int *found, drmModeRes **res)
{
	int fd = kms_open_card(index, found);

	*res = NULL;
	if (fd < 0)
		return -1;
	/* The first opener becomes master: leave that to the other program. */
	if (flags & KMS_OPEN_NOT_MASTER)
		drmDropMaster(fd);
	if (drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1) ||
	    drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1) ||
	    ((flags & KMS_OPEN_WRITEBACK) &&
	     drmSetClientCap(fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1))) {
		fprintf(stderr, "card%d: atomic%s client caps: %s\n", *found,
			flags & KMS_OPEN_WRITEBACK ? "/writeback" : "", strerror(errno));
		close(fd);
		return -1;
	}
	*res = drmModeGetResources(fd);
	if (!*res) {
		fprintf(stderr, "card%d: GETRESOURCES: %s\n", *found, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

int kms_dumb_create(int fd, uint32_t width, uint32_t height, uint32_t fourcc,
		    struct kms_dumb *d)
{
	uint32_t handles[4] = { 0 }, pitches[4] = { 0 }, offsets[4] = { 0 };
	const struct fourcc_info *fi = fourcc_info(fourcc);
	/* one plane: the tools map and read a dumb buffer as one image */
	uint32_t bpp = fi && fi->planes == 1 ? fi->cpp[0] * 8 : 0;
	uint64_t offset;
	void *map;

	memset(d, 0, sizeof(*d));
	if (!bpp) {
		fprintf(stderr, "no dumb buffer support for %s\n",
			kms_fourcc_str(fourcc));
		return -1;
	}
	if (drmModeCreateDumbBuffer(fd, width, height, bpp, 0, &d->handle,
				    &d->pitch, &d->size)) {
		fprintf(stderr, "CREATE_DUMB %ux%u: %s\n", width, height,
			strerror(errno));
		return -1;
	}
	d->width = width;
	d->height = height;
	d->fourcc = fourcc;
	handles[0] = d->handle;
	pitches[0] = d->pitch;
	if (drmModeAddFB2(fd, width, height, fourcc, handles, pitches, offsets,
			  &d->fb_id, 0)) {
		fprintf(stderr, "ADDFB2 %ux%u %s: %s\n", width, height,
			kms_fourcc_str(fourcc), strerror(errno));
		goto err;
	}
	if (drmModeMapDumbBuffer(fd, d->handle, &offset)) {
		fprintf(stderr, "MAP_DUMB: %s\n", strerror(errno));
		goto err;
	}
	map = mmap(NULL, d->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   offset);
	if (map == MAP_FAILED) {
		fprintf(stderr, "mmap dumb buffer: %s\n", strerror(errno));
		goto err;
	}
	d->map = map;
	return 0;
err:
	kms_dumb_destroy(fd, d);
	return -1;
}

void kms_dumb_destroy(int fd, struct kms_dumb *d)
{
	if (d->map)
		munmap(d->map, d->size);
	if (d->fb_id)
		drmModeRmFB(fd, d->fb_id);
	if (d->handle)
		drmModeDestroyDumbBuffer(fd, d->handle);
	memset(d, 0, sizeof(*d));
}

/* Returns the property (caller frees) and its current value. */
static drmModePropertyPtr find_prop(int fd, uint32_t obj, uint32_t type,
				    const char *name, uint64_t *value)
{
	drmModeObjectPropertiesPtr props;
	drmModePropertyPtr found = NULL;

	props = drmModeObjectGetProperties(fd, obj, type);
	if (!props)
		return NULL;
	for (uint32_t i = 0; i < props->count_props && !found; i++) {
		drmModePropertyPtr p = drmModeGetProperty(fd, props->props[i]);

		if (p && !strcmp(p->name, name)) {
			found = p;
			if (value)
				*value = props->prop_values[i];
		} else {
			drmModeFreeProperty(p);
		}
	}
	drmModeFreeObjectProperties(props);
	return found;
}

uint32_t kms_prop(int fd, uint32_t obj, uint32_t type, const char *name,
		  bool *immutable)
{
	drmModePropertyPtr p = find_prop(fd, obj, type, name, NULL);
	uint32_t id;

	if (!p)
		return 0;
	id = p->prop_id;
	if (immutable)
		*immutable = p->flags & DRM_MODE_PROP_IMMUTABLE;
	drmModeFreeProperty(p);
	return id;
}

int kms_prop_enum(int fd, uint32_t obj, uint32_t type, const char *name,
		  const char *entry, uint64_t *value)
{
	drmModePropertyPtr p = find_prop(fd, obj, type, name, NULL);
	int ret = -1;

	if (!p)
		return -1;
	for (int i = 0; i < p->count_enums; i++) {
		if (!strcmp(p->enums[i].name, entry)) {
			*value = p->enums[i].value;
			ret = 0;
			break;
		}
	}
	drmModeFreeProperty(p);
	return ret;
}

int kms_prop_get(int fd, uint32_t obj, uint32_t type, const char *name,
		 uint64_t *value)
{
	drmModePropertyPtr p = find_prop(fd, obj, type, name, value);

	if (!p)
		return -1;
	drmModeFreeProperty(p);
	return 0;
}

int kms_set(drmModeAtomicReq *req, int fd, uint32_t obj, uint32_t type,
	    const char *name, uint64_t value, bool optional)
{
	bool immutable = false;
	uint32_t id = kms_prop(fd, obj, type, name, &immutable);

	if (!id || immutable) {
		if (optional)
			return 0;
		fprintf(stderr, "object %u has no %sproperty \"%s\"\n", obj,
			id ? "mutable " : "", name);
		return -1;
	}
	if (drmModeAtomicAddProperty(req, obj, id, value) < 0) {
		fprintf(stderr, "atomic add %s: %s\n", name, strerror(errno));
		return -1;
	}
	return 0;
}

int kms_plane_type(int fd, uint32_t plane_id)
{
	uint64_t v;

	if (kms_prop_get(fd, plane_id, DRM_MODE_OBJECT_PLANE, "type", &v))
		return -1;
	return (int)v;
}

bool kms_plane_has_format(const drmModePlane *p, uint32_t fourcc)
{
	for (uint32_t i = 0; i < p->count_formats; i++)
		if (p->formats[i] == fourcc)
			return true;
	return false;
}

const char *kms_fourcc_str(uint32_t fourcc)
{
	static char s[5];

	for (int i = 0; i < 4; i++) {
		char c = (char)(fourcc >> (8 * i));

		s[i] = c >= ' ' && c < 127 ? c : '?';
	}
	return s;
}
