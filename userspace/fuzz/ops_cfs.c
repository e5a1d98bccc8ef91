// SPDX-License-Identifier: MIT
/*
 * vflipq-fuzz: configfs.  Random values written to the attributes of our own
 * fuzz-* devices (mostly refused with -EBUSY while enabled), reads, and now
 * and then a device removed (enabled = 0) while its clients still have it
 * open, mapped and imported, and created again; a throw-away fuzz-tmp
 * device made and removed with rmdir.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

static const char *const attrs[] = {
	"crtcs", "overlays", "flipq_depth", "caso_copy", "caso_texture",
	"caso_scanout", "hybrid_integrated", "bandwidth", "cursor", "writeback",
	"modes", "preferred_mode", "card", "device_id", "no_such_attribute",
};

static int cfs_write_raw(const char *dev, const char *attr, const void *val,
			 size_t len)
{
	char path[256];
	int fd, err = 0;

	snprintf(path, sizeof(path), CFS_ROOT "/%s/%s", dev, attr);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
	} else {
		if (write(fd, val, len) < 0)
			err = errno;
		close(fd);
	}
	fz_count(C_CFS_WRITE, err);
	return -err;
}

static int cfs_put(const char *dev, const char *attr, const char *val)
{
	return cfs_write_raw(dev, attr, val, strlen(val));
}

static size_t gen_value(struct rng *r, char *buf, size_t max)
{
	static const char *const fixed[] = {
		"0", "1", "2", "3", "8", "9", "64", "65", "-1", "0x3", "010",
		"4294967295", "4294967296", "99999999999999999999", "y", "n",
		"on", "off", "maybe", "", " ", "\n", "1\n", "640x480@60",
		"64x64@1", "8192x8192@240", "8193x64@60", "63x64@60", "64x64@241",
		"640x480@60 1920x1080@60", "640x480@60  \t 800x600@75\n",
		"640x480", "x@", "640x480@60x", "1920x1080@60 1920x1080@60",
		"65536x65536@65536", "18446744073709551615",
	};
	size_t len;

	switch (rnd(r, 6)) {
	case 0: {	/* a mode list of 1 to 18 entries */
		int n = 1 + rnd(r, 18);

		len = 0;
		for (int i = 0; i < n && len + 24 < max; i++)
			len += snprintf(buf + len, max - len, "%ux%u@%u ",
					32 + rnd(r, 8200), 32 + rnd(r, 8200),
					rnd(r, 250));
		return len;
	}
	case 1:		/* binary garbage */
		len = 1 + rnd(r, chance(r, 1, 8) ? max - 1 : 40);
		rnd_fill(r, buf, len);
		return len;
	case 2:
		return snprintf(buf, max, "%llu",
				(unsigned long long)rnd_interesting64(r));
	default:
		return snprintf(buf, max, "%s", fixed[rnd(r, ARRAY_LEN(fixed))]);
	}
}

static void reopen_clients(int dev)
{
	for (int i = 0; i < NCLIENTS; i++)
		if (W.cl[i].dev == dev && W.cl[i].kind != K_LEASE) {
			client_close(&W.cl[i], false);
			client_open(&W.cl[i]);
		}
}

/* A configuration that can be enabled (tier of the first setup kept). */
static void sane_config(struct rng *r, int dev)
{
	const char *n = W.dev[dev].name;

	cfs_put(n, "hybrid_integrated", "0");
	if (dev == DEV_RENDER) {
		cfs_put(n, "crtcs", "0");
		return;
	}
	cfs_put(n, "crtcs", chance(r, 1, 2) ? "1" : "2");
	cfs_put(n, "overlays", chance(r, 1, 2) ? "1" : "0");
	cfs_put(n, "modes", "640x480@60 800x600@75 1024x768@60");
	cfs_put(n, "preferred_mode", "640x480@60");
	if (chance(r, 1, 2)) {
		cfs_put(n, "caso_scanout", "0");
		cfs_put(n, "caso_texture", "0");
	} else {
		cfs_put(n, "caso_copy", "1");
		cfs_put(n, "caso_texture", "1");
	}
}

/* Remove a device under its clients' feet, or bring it back. */
static void toggle(struct rng *r, int dev)
{
	struct fdev *d = &W.dev[dev];
	int err;

	if (d->present) {
		err = cfs_put(d->name, "enabled", chance(r, 1, 2) ? "0" : "n");
		fz_count(C_CFS_ENABLE, -err);
		cfs_device_changed(dev);
		return;
	}
	if (chance(r, 1, 2))
		sane_config(r, dev);
	err = cfs_put(d->name, "enabled", chance(r, 1, 2) ? "1" : "y");
	fz_count(C_CFS_ENABLE, -err);
	cfs_device_changed(dev);
	if (!d->present) {
		sane_config(r, dev);
		err = cfs_put(d->name, "enabled", "1");
		fz_count(C_CFS_ENABLE, -err);
		cfs_device_changed(dev);
	}
	if (d->present && chance(r, 2, 3))
		reopen_clients(dev);
}

/* mkdir fuzz-tmp, random attributes, maybe enable, rmdir. */
static void tmp_device(struct rng *r)
{
	char val[512];
	int err, n = rnd(r, 6);

	err = mkdir(CFS_ROOT "/fuzz-tmp", 0755) ? errno : 0;
	fz_count(C_CFS_MKDIR, err);
	for (int i = 0; i < n; i++) {
		size_t len = gen_value(r, val, sizeof(val));

		cfs_write_raw("fuzz-tmp", attrs[rnd(r, ARRAY_LEN(attrs))], val, len);
	}
	if (chance(r, 1, 4)) {
		err = cfs_put("fuzz-tmp", "enabled", "1");
		fz_count(C_CFS_ENABLE, -err);
	}
	err = rmdir(CFS_ROOT "/fuzz-tmp") ? errno : 0;
	fz_count(C_CFS_RMDIR, err);
	/* Names of 32 bytes and more are refused. */
	if (chance(r, 1, 4)) {
		char path[128];

		snprintf(path, sizeof(path), CFS_ROOT "/fuzz-%0*u",
			 (int)(24 + rnd(r, 16)), 7u);
		err = mkdir(path, 0755) ? errno : 0;
		fz_count(C_CFS_MKDIR, err);
		if (!err)
			fz_count(C_CFS_RMDIR, rmdir(path) ? errno : 0);
	}
}

static void op_cfs(struct rng *r)
{
	int dev = chance(r, 1, 2) ? DEV_DISP : DEV_RENDER;
	const char *name = W.dev[dev].name;
	uint32_t x = rnd(r, 100);

	if (!W.have_cfs)
		return;
	/* Removed devices come back soon: their clients have work to do. */
	if (!W.dev[dev].present && chance(r, 1, 2)) {
		toggle(r, dev);
		return;
	}
	if (x < 10) {
		toggle(r, dev);
	} else if (x < 14) {
		tmp_device(r);
	} else if (x < 30) {
		char path[256], buf[4096];
		int fd, err = 0;

		snprintf(path, sizeof(path), CFS_ROOT "/%s/%s", name,
			 attrs[rnd(r, ARRAY_LEN(attrs))]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			err = errno;
		} else {
			if (read(fd, buf, chance(r, 1, 4) ? rnd(r, 8) : sizeof(buf)) < 0)
				err = errno;
			close(fd);
		}
		fz_count(C_CFS_READ, err);
	} else {
		char val[4096];
		size_t len = gen_value(r, val, chance(r, 1, 10) ? sizeof(val) : 256);

		cfs_write_raw(name, attrs[rnd(r, ARRAY_LEN(attrs))], val, len);
	}
}

const struct fz_op fz_cfs_ops[] = {
	{ "configfs", op_cfs, 4 },
};
const unsigned int fz_num_cfs_ops = ARRAY_LEN(fz_cfs_ops);
