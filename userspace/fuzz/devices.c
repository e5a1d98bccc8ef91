// SPDX-License-Identifier: MIT
/*
 * vflipq-fuzz: the DRM nodes and the configfs devices (fuzz-disp,
 * fuzz-render): finding, creating, tracking and removing them.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include "fuzz.h"

/* ---- files ----------------------------------------------------------------- */

static int write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	err = n < 0 ? errno : 0;
	close(fd);
	return -err;
}

static int read_int_file(const char *path, int *v)
{
	char buf[64];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	*v = strtol(buf, NULL, 0);
	return 0;
}

static int cfs_write(const char *dev, const char *attr, const char *val)
{
	char path[256];
	int ret;

	snprintf(path, sizeof(path), CFS_ROOT "/%s/%s", dev, attr);
	ret = write_file(path, val, strlen(val));
	fz_count(C_CFS_WRITE, -ret);
	return ret;
}

static bool is_driver(int fd, const char *name)
{
	drmVersionPtr v = drmGetVersion(fd);
	bool ok = v && v->name && !strcmp(v->name, name);

	drmFreeVersion(v);
	return ok;
}

/* Card minor of the first device of @driver (with caps name @caps_name). */
int find_card(const char *driver, const char *caps_name)
{
	int best = -1;

	for (int i = 0; i < 64 && best < 0; i++) {
		char path[64];
		int fd;

		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (is_driver(fd, driver)) {
			struct drm_vflipq_get_caps caps = { 0 };

			if (!caps_name ||
			    (!ioctl(fd, DRM_IOCTL_VFLIPQ_GET_CAPS, &caps) &&
			     !strcmp(caps.name, caps_name)))
				best = i;
		}
		close(fd);
	}
	return best;
}

/* renderD minor of card @card, -1 if it has none. */
static int find_render(int card)
{
	char path[128];
	struct dirent *de;
	DIR *dir;
	int minor = -1;

	snprintf(path, sizeof(path), "/sys/class/drm/card%d/device/drm", card);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((de = readdir(dir)))
		if (!strncmp(de->d_name, "renderD", 7))
			minor = atoi(de->d_name + 7);
	closedir(dir);
	return minor;
}

/* ---- configfs devices ---------------------------------------------------- */

void cfs_cleanup_all(void)
{
	struct dirent *de;
	DIR *dir;

	dir = opendir(CFS_ROOT);
	if (!dir)
		return;
	while ((de = readdir(dir))) {
		char path[300];
		int ret;

		if (strncmp(de->d_name, "fuzz-", 5))
			continue;
		cfs_write(de->d_name, "enabled", "0");
		snprintf(path, sizeof(path), CFS_ROOT "/%s", de->d_name);
		ret = rmdir(path) ? errno : 0;
		fz_count(C_CFS_RMDIR, ret);
		if (ret)
			fz_log("vflipq-fuzz: rmdir %s: %s\n", path, strerror(ret));
	}
	closedir(dir);
}

/* The device now exists (or not): card and render minors, generation. */
static void dev_update_presence(struct fdev *d)
{
	char path[256];
	int card = -1;

	snprintf(path, sizeof(path), CFS_ROOT "/%s/card", d->name);
	if (read_int_file(path, &card) || card < 0) {
		if (d->present)
			d->gen++;
		d->present = false;
		d->card = d->render = -1;
		d->topo_valid = false;
		return;
	}
	if (!d->present || d->card != card)
		d->gen++;
	d->present = true;
	d->card = card;
	d->render = find_render(card);
	d->topo_valid = false;
	/* The node may take a moment to show up. */
	snprintf(path, sizeof(path), "/dev/dri/card%d", card);
	for (int i = 0; i < 100 && access(path, F_OK); i++)
		usleep(10000);
}

void make_cfs_devices(uint64_t seed)
{
	static const char *const depths[] = { "1", "2", "4", "8", "8", "64" };
	static const char *const bws[] = { "0", "0", "2000000000", "50000000" };
	struct fdev *disp = &W.dev[DEV_DISP], *rend = &W.dev[DEV_RENDER];
	struct rng r;
	unsigned int tier;
	char v[16];
	int ret;

	rng_seed(&r, seed ^ 0xc0ff1c5ull);
	cfs_cleanup_all();

	ret = mkdir(CFS_ROOT "/fuzz-disp", 0755) ? errno : 0;
	fz_count(C_CFS_MKDIR, ret);
	if (!ret) {
		tier = rnd(&r, 4);
		cfs_write("fuzz-disp", "caso_copy", tier >= 1 ? "1" : "0");
		cfs_write("fuzz-disp", "caso_texture", tier >= 2 ? "1" : "0");
		cfs_write("fuzz-disp", "caso_scanout", tier >= 3 ? "1" : "0");
		if (tier == 3 && chance(&r, 1, 3))
			cfs_write("fuzz-disp", "hybrid_integrated", "1");
		snprintf(v, sizeof(v), "%u", 1 + rnd(&r, 3));
		cfs_write("fuzz-disp", "crtcs", v);
		snprintf(v, sizeof(v), "%u", rnd(&r, 3));
		cfs_write("fuzz-disp", "overlays", v);
		cfs_write("fuzz-disp", "cursor", chance(&r, 1, 2) ? "1" : "0");
		cfs_write("fuzz-disp", "writeback", chance(&r, 1, 2) ? "1" : "0");
		cfs_write("fuzz-disp", "flipq_depth", depths[rnd(&r, ARRAY_LEN(depths))]);
		cfs_write("fuzz-disp", "bandwidth", bws[rnd(&r, ARRAY_LEN(bws))]);
		cfs_write("fuzz-disp", "modes",
			  "640x480@60 800x600@75 1024x768@60 1280x720@30");
		cfs_write("fuzz-disp", "preferred_mode", "640x480@60");
		cfs_write("fuzz-disp", "enabled", "1");
		dev_update_presence(disp);
		fz_log("vflipq-fuzz: fuzz-disp: tier %u, %s\n", tier,
		       disp->present ? "enabled" : "not enabled");
	}

	ret = mkdir(CFS_ROOT "/fuzz-render", 0755) ? errno : 0;
	fz_count(C_CFS_MKDIR, ret);
	if (!ret) {
		cfs_write("fuzz-render", "crtcs", "0");
		cfs_write("fuzz-render", "enabled", "1");
		dev_update_presence(rend);
		fz_log("vflipq-fuzz: fuzz-render: card %d, render node %d\n",
		       rend->card, rend->render);
	}
}

/* After configfs enabled/disabled a device: note it, mark its clients. */
void cfs_device_changed(int dev)
{
	dev_update_presence(&W.dev[dev]);
}
