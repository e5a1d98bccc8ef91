// SPDX-License-Identifier: MIT
/*
 * Whether an enumeration is still current (DXGI's IDXGIFactory1::IsCurrent):
 * fingerprints of the machine's DRM nodes (taken before the enumeration, so
 * that a device arriving during it shows) and of each adapter's outputs
 * (of exactly the connectors read_outputs() read), compared later with
 * what the kernel has then.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"

#define FNV_OFFSET	0xcbf29ce484222325ull
#define FNV_PRIME	0x100000001b3ull
#define MAX_NODES	128

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--) {
		h ^= *b++;
		h *= FNV_PRIME;
	}
	return h;
}

struct node {
	char name[32];
	ino_t ino;
};

static int cmp_node(const void *a, const void *b)
{
	return strcmp(((const struct node *)a)->name, ((const struct node *)b)->name);
}

/*
 * The DRM nodes present now.  The inode counts too: devtmpfs gives a node
 * of a new device a new inode even when it reuses the old one's name.
 */
uint64_t present_nodes_fingerprint(void)
{
	struct node nodes[MAX_NODES];
	uint64_t h = FNV_OFFSET;
	unsigned int n = 0;
	struct dirent *e;
	DIR *d;

	d = opendir(DRM_DIR_NAME);
	while (d && (e = readdir(d)) && n < MAX_NODES) {
		struct stat st;

		if ((strncmp(e->d_name, "card", 4) && strncmp(e->d_name, "renderD", 7)) ||
		    strlen(e->d_name) >= sizeof(nodes[n].name))
			continue;
		if (fstatat(dirfd(d), e->d_name, &st, 0))
			continue;	/* gone while we looked: the next call sees it */
		memcpy(nodes[n].name, e->d_name, strlen(e->d_name) + 1);
		nodes[n++].ino = st.st_ino;
	}
	if (d)
		closedir(d);
	qsort(nodes, n, sizeof(nodes[0]), cmp_node);
	for (unsigned int i = 0; i < n; i++) {
		h = fnv(h, nodes[i].name, strlen(nodes[i].name) + 1);
		h = fnv(h, &nodes[i].ino, sizeof(nodes[i].ino));
	}
	return h;
}

static uint64_t mode_fingerprint(uint64_t h, const drmModeModeInfo *m)
{
	const uint32_t v[] = {
		m->clock, m->hdisplay, m->hsync_start, m->hsync_end, m->htotal,
		m->vdisplay, m->vsync_start, m->vsync_end, m->vtotal, m->vrefresh,
		m->flags, m->type,
	};

	return fnv(h, v, sizeof(v));
}

uint64_t present_fp_outputs_begin(int count_connectors)
{
	return fnv(FNV_OFFSET, &count_connectors, sizeof(count_connectors));
}

/* One connector (@c NULL: it could not be read) into the fingerprint. */
uint64_t present_fp_connector(uint64_t h, uint32_t id, const drmModeConnector *c)
{
	h = fnv(h, &id, sizeof(id));
	if (!c)
		return h;
	h = fnv(h, &c->connection, sizeof(c->connection));
	h = fnv(h, &c->count_modes, sizeof(c->count_modes));
	for (int k = 0; k < c->count_modes; k++)
		h = mode_fingerprint(h, &c->modes[k]);
	return h;
}

/*
 * @ad's outputs as the kernel has them now, in the form read_outputs()
 * fingerprinted what it probed.  The connector state is read without a
 * probe (a driver updates it before it sends its hotplug uevent), so this
 * costs a few ioctls and no EDID read.
 */
static int outputs_fingerprint(struct present_adapter *ad, uint64_t *out)
{
	drmModeRes *res = drmModeGetResources(ad->fd);
	uint64_t h;

	if (!res) {
		int e = errno;

		if (e == ENODEV || e == ENXIO)
			return adapter_check_err(ad, e);
		*out = PRESENT_FP_NO_OUTPUTS;	/* no KMS: no outputs to change */
		return 0;
	}
	h = present_fp_outputs_begin(res->count_connectors);
	for (int i = 0; i < res->count_connectors; i++) {
		drmModeConnector *c = drmModeGetConnectorCurrent(ad->fd, res->connectors[i]);

		h = present_fp_connector(h, res->connectors[i], c);
		drmModeFreeConnector(c);
	}
	drmModeFreeResources(res);
	*out = h;
	return 0;
}

int present_system_is_current(struct present_system *sys)
{
	if (!sys)
		return PRESENT_E_INVALID_ARG;
	if (!sys->stale && present_nodes_fingerprint() != sys->nodes_fp)
		sys->stale = true;
	for (int i = 0; i < sys->count && !sys->stale; i++) {
		struct present_adapter *ad = &sys->adapters[i];
		uint64_t fp = 0;

		if (present_adapter_removed(ad) || outputs_fingerprint(ad, &fp) ||
		    fp != ad->outputs_fp)
			sys->stale = true;
	}
	return !sys->stale;
}
