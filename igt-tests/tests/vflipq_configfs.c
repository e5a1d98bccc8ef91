// SPDX-License-Identifier: MIT
/*
 * configfs: devices created at run time with exactly their configuration,
 * attribute validation, EBUSY while enabled, hot-unplug with open clients,
 * outputs plugged and unplugged at run time, several devices at once.
 */
/**
 * TEST: vflipq configfs
 * Category: Display
 * Mega feature: General Display Features
 * Sub-category: driver
 * Functionality: configfs
 * Driver requirement: vflipq
 * Description: vflipq devices made through configfs: created at run time with
 *              exactly their configuration, attribute validation, EBUSY while
 *              enabled, hot-unplug with open clients, outputs plugged and
 *              unplugged at run time, several devices at once.
 *
 * SUBTEST: defaults
 * Description: A new directory holds the documented defaults
 *
 * SUBTEST: create-device
 * Description: Enabling creates a card with exactly the configuration
 *
 * SUBTEST: create-limits
 * Description: Smallest and largest configurations (a DRM device has at most
 *              32 planes)
 *
 * SUBTEST: over-plane-limit
 * Description: A configuration beyond DRM's 32 planes per device fails to
 *              enable with EINVAL, cleanly
 *
 * SUBTEST: invalid-values
 * Description: Out-of-range or malformed values fail with EINVAL and change
 *              nothing
 *
 * SUBTEST: busy-while-enabled
 * Description: Configuration writes while enabled fail with EBUSY
 *
 * SUBTEST: name-length
 * Description: Device names must be shorter than 32 bytes
 *
 * SUBTEST: mode-width-rounding
 * Description: Widths that are not a multiple of 8 are rounded down in the
 *              connector's modes
 *
 * SUBTEST: device-ids
 * Description: Device ids: smallest free, not reused while an fd of the old
 *              device is open
 *
 * SUBTEST: unplug-open-client
 * Description: Disable with an open client: its ioctls fail with ENODEV, close
 *              works, no kernel splat
 *
 * SUBTEST: rmdir-open-client
 * Description: rmdir of an enabled device with an open client
 *
 * SUBTEST: connected-hotplug
 * Description: connected: outputs unplugged and plugged back at run time
 *
 * SUBTEST: connected-before-probe
 * Description: A new device's outputs are connected with their modes before
 *              anything probed them
 *
 * SUBTEST: connected-hotplug-uevent
 * Description: connected: each change sends a hotplug uevent
 *
 * SUBTEST: several-devices
 * Description: Several devices at once, each with its configuration
 */

#include <poll.h>
#include <sys/mman.h>
#include <sys/socket.h>

#include "igt.h"
#include "vflipq_helpers.h"

/* After igt.h: IGT's linux_scaffold.h refuses an _AC already defined. */
#include <linux/netlink.h>

IGT_TEST_DESCRIPTION("vflipq devices through configfs");

#define DEFAULT_MODES "640x480@60\n1024x768@60\n1280x720@60\n1920x1080@60\n" \
		      "1920x1080@120\n2560x1440@144\n3840x2160@60"

static struct vfq_kmsg kmsg;

static void cleanup_handler(int sig)
{
	(void)sig;
	vfq_cfs_cleanup();
}

struct config {
	int crtcs, overlays;
	bool cursor, writeback;
	int n_modes;
	struct { int w, h, r; } modes[16];
	int preferred;	/* index into modes */
};

/* debugfs dri/<card>/vflipq_config prints the configuration. */
static void check_debugfs_config(int card, const char *name, uint32_t id,
				 const struct config *cfg)
{
	char want[1024];
	int len;

	len = snprintf(want, sizeof(want),
		       "name=%s\nid=%u\ncrtcs=%d\noverlays=%d\ncursor=%d\n"
		       "writeback=%d", name, id, cfg->crtcs, cfg->overlays,
		       cfg->cursor, cfg->writeback);
	for (int m = 0; m < cfg->n_modes; m++)
		len += snprintf(want + len, sizeof(want) - len,
				"\nmode=%dx%d@%d%s", cfg->modes[m].w,
				cfg->modes[m].h, cfg->modes[m].r,
				m == cfg->preferred ? " preferred" : "");
	vfq_check_debugfs_config(card, want);
}

/* The card's caps and KMS resources are exactly @cfg. */
static void check_device(int card, const char *name, const struct config *cfg)
{
	struct vfq_dev dev;
	uint64_t want_caps = VFLIPQ_CAP_DISPLAY | VFLIPQ_CAP_CRC |
			     VFLIPQ_CAP_CONFIGFS |
			     (cfg->cursor ? VFLIPQ_CAP_CURSOR : 0) |
			     (cfg->writeback ? VFLIPQ_CAP_WRITEBACK : 0);
	int fd = vfq_open_card(card);

	igt_assert_fd(fd);
	igt_assert(vfq_is_driver(fd, VFQ_DRIVER_NAME));
	vfq_dev_init(&dev, fd);
	igt_assert_eq(strcmp(dev.caps.name, name), 0);
	igt_assert_eq_u32(dev.caps.num_crtcs, cfg->crtcs);
	igt_assert_eq_u32(dev.caps.num_overlays, cfg->overlays);
	igt_assert_eq_u64(dev.caps.caps & ~VFQ_CAPS_EXTRA, want_caps);
	igt_assert_eq(dev.caps.device_id, vfq_cfs_read_int(name, "device_id"));
	igt_assert_eq(dev.n_pipes, cfg->crtcs);
	igt_assert_eq(dev.n_planes,
		      cfg->crtcs * (1 + cfg->overlays + cfg->cursor));
	igt_assert_eq(dev.n_connectors, cfg->crtcs * (1 + cfg->writeback));

	check_debugfs_config(card, name, dev.caps.device_id, cfg);

	for (int i = 0; i < dev.n_pipes; i++) {
		drmModeConnector *c = drmModeGetConnector(fd,
						dev.pipe[i].conn_id);

		igt_assert_eq(dev.pipe[i].n_overlays, cfg->overlays);
		igt_assert_eq(!!dev.pipe[i].cursor, cfg->cursor);
		igt_assert_eq(!!dev.pipe[i].wb_conn_id, cfg->writeback);
		igt_assert(c);
		igt_assert_eq(c->connection, DRM_MODE_CONNECTED);
		igt_assert_eq(c->count_modes, cfg->n_modes);
		for (int m = 0; m < cfg->n_modes; m++) {
			bool found = false;

			for (int k = 0; k < c->count_modes; k++) {
				const drmModeModeInfo *mi = &c->modes[k];

				if (mi->hdisplay != cfg->modes[m].w ||
				    mi->vdisplay != cfg->modes[m].h ||
				    (int)mi->vrefresh != cfg->modes[m].r)
					continue;
				found = true;
				igt_assert_eq(!!(mi->type &
						 DRM_MODE_TYPE_PREFERRED),
					      m == cfg->preferred);
			}
			igt_assert_f(found, "card%d lacks %dx%d@%d\n", card,
				     cfg->modes[m].w, cfg->modes[m].h,
				     cfg->modes[m].r);
		}
		drmModeFreeConnector(c);
	}
	vfq_dev_fini(&dev);
}

/*
 * The device works: a modeset of its first CRTC and a flip with event.
 * Raw, as on any configfs device here: made for one subtest, removed in
 * it (several-devices removes one while the others are checked again),
 * and the legacy flip's event is what the test reads.
 */
static void check_scanout(int card, int w, int h, int r)
{
	struct vfq_dev dev;
	drmModeModeInfo mode;
	struct vfq_fb fb;
	struct vfq_event ev;
	int fd = vfq_open_card(card);

	igt_assert_fd(fd);
	vfq_dev_init(&dev, fd);
	vfq_get_mode(fd, dev.pipe[0].conn_id, w, h, r, &mode);
	vfq_fb_create(fd, w, h, DRM_FORMAT_XRGB8888, &fb);
	vfq_pipe_on(&dev, 0, &mode, fb.fb_id);
	igt_assert_eq(drmModePageFlip(fd, dev.pipe[0].crtc_id, fb.fb_id,
				      DRM_MODE_PAGE_FLIP_EVENT, (void *)7), 0);
	igt_assert_eq(vfq_read_event(fd, 2000, &ev), 1);
	igt_assert_eq_u32(ev.type, DRM_EVENT_FLIP_COMPLETE);
	igt_assert_eq_u64(ev.user_data, 7);
	vfq_dev_reset(&dev);
	vfq_fb_destroy(&fb);
	vfq_dev_fini(&dev);
}

static struct vfq_color expect_seed(int x, int y, void *data)
{
	return vfq_pattern8(x, y, *(uint32_t *)data);
}

static void wait_card_gone(int card)
{
	char node[64];

	snprintf(node, sizeof(node), "/dev/dri/card%d", card);
	for (int i = 0; i < 200 && access(node, F_OK) == 0; i++)
		usleep(10000);
	igt_assert_f(access(node, F_OK) != 0, "%s still exists\n", node);
}

static void expect_write(const char *dev, const char *attr, const char *val,
			 int err)
{
	int ret = vfq_cfs_write(dev, attr, val);

	igt_assert_f(err ? ret == -err : ret >= 0,
		     "%s/%s = \"%s\": %s, expected %s\n", dev, attr, val,
		     ret < 0 ? strerror(-ret) : "ok",
		     err ? strerror(err) : "ok");
}

static void expect_read(const char *dev, const char *attr, const char *want)
{
	char buf[512];
	int ret = vfq_cfs_read(dev, attr, buf, sizeof(buf));

	igt_assert_f(ret >= 0, "reading %s/%s: %s\n", dev, attr,
		     strerror(-ret));
	igt_assert_f(strcmp(buf, want) == 0, "%s/%s is \"%s\", expected "
		     "\"%s\"\n", dev, attr, buf, want);
}

/* A kernel uevent socket (the broadcast group udev listens to). */
static int uevent_open(void)
{
	struct sockaddr_nl a = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int s = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);

	/* The debug kernel is built without networking. */
	igt_require_f(s >= 0 || (errno != ENOSYS && errno != EAFNOSUPPORT),
		      "no netlink in this kernel\n");
	igt_assert_fd(s);
	igt_assert_eq(bind(s, (struct sockaddr *)&a, sizeof(a)), 0);
	return s;
}

/* Did a DRM hotplug uevent for card @card arrive within a second? */
static bool uevent_hotplug(int s, int card)
{
	char want[32], buf[4096];
	struct pollfd p = { .fd = s, .events = POLLIN };

	snprintf(want, sizeof(want), "DEVNAME=dri/card%d", card);
	while (poll(&p, 1, 1000) == 1) {
		ssize_t n = recv(s, buf, sizeof(buf) - 1, 0);
		bool hp = false, dev = false;

		if (n <= 0)
			break;
		buf[n] = 0;
		/* NUL-separated KEY=value strings */
		for (char *k = buf; k < buf + n; k += strlen(k) + 1) {
			hp |= !strcmp(k, "HOTPLUG=1");
			dev |= !strcmp(k, want);
		}
		if (hp && dev)
			return true;
	}
	return false;
}

/* Status of connector @conn as it is (no probe), and after a probe. */
static void expect_connection(int fd, uint32_t conn, drmModeConnection want)
{
	drmModeConnector *c = drmModeGetConnectorCurrent(fd, conn);

	igt_assert(c);
	igt_assert_eq(c->connection, want);
	drmModeFreeConnector(c);
	c = drmModeGetConnector(fd, conn);
	igt_assert(c);
	igt_assert_eq(c->connection, want);
	/* a disconnected output offers no mode */
	igt_assert_eq(c->count_modes > 0, want == DRM_MODE_CONNECTED);
	drmModeFreeConnector(c);
}

/*
 * "connected": outputs unplugged and plugged back while enabled; with
 * @uevent, each change must also reach udev's netlink group.
 */
/*
 * A new device's outputs are connected, with their modes, before any client
 * probed them: GETCONNECTOR probes only for the master, and tools that are
 * not master (drm_info next to a compositor) read what is there.
 */
static void test_connected_unprobed(void)
{
	const char *n = "igt-unprobed";
	drmModeRes *res;
	int card, fd;

	card = vfq_cfs_create(n, (const char *[]){
			"crtcs", "2", "modes", "640x480@60 800x600@60 1024x768@60",
			NULL });
	fd = vfq_open_card(card);
	igt_assert_fd(fd);
	/* The first opener may have become master: give it up, as drm_info. */
	drmDropMaster(fd);
	res = drmModeGetResources(fd);
	igt_assert(res);
	igt_assert_eq(res->count_connectors, 2);
	for (int i = 0; i < res->count_connectors; i++) {
		drmModeConnector *c;

		/* No probe: reports what the connector holds now. */
		c = drmModeGetConnectorCurrent(fd, res->connectors[i]);
		igt_assert(c);
		igt_assert_f(c->connection == DRM_MODE_CONNECTED,
			     "connector %u: connection %d before a probe\n",
			     c->connector_id, c->connection);
		igt_assert_eq(c->count_modes, 3);
		drmModeFreeConnector(c);
		/* Not master: GETCONNECTOR does not probe either. */
		c = drmModeGetConnector(fd, res->connectors[i]);
		igt_assert(c);
		igt_assert_eq(c->connection, DRM_MODE_CONNECTED);
		igt_assert_eq(c->count_modes, 3);
		drmModeFreeConnector(c);
	}
	drmModeFreeResources(res);
	close(fd);
	igt_assert_eq(vfq_cfs_rmdir(n), 0);
}

static void test_connected(bool uevent)
{
	const char *n = "igt-hotplug";
	struct vfq_dev dev;
	int card, fd, ue = -1;

	if (uevent)
		ue = uevent_open();

	card = vfq_cfs_create(n, (const char *[]){ "crtcs", "2", "writeback", "0", NULL });
	expect_read(n, "connected", "4294967295");
	fd = vfq_open_card(card);
	igt_assert_fd(fd);
	vfq_dev_init(&dev, fd);
	igt_assert_eq(dev.n_pipes, 2);
	expect_connection(fd, dev.pipe[0].conn_id, DRM_MODE_CONNECTED);
	expect_connection(fd, dev.pipe[1].conn_id, DRM_MODE_CONNECTED);

	expect_write(n, "connected", "0x1", 0);
	expect_read(n, "connected", "1");
	igt_assert_f(!uevent || uevent_hotplug(ue, card), "no hotplug uevent\n");
	expect_connection(fd, dev.pipe[0].conn_id, DRM_MODE_CONNECTED);
	expect_connection(fd, dev.pipe[1].conn_id, DRM_MODE_DISCONNECTED);
	expect_write(n, "connected", "3", 0);
	igt_assert_f(!uevent || uevent_hotplug(ue, card), "no hotplug uevent\n");
	expect_connection(fd, dev.pipe[1].conn_id, DRM_MODE_CONNECTED);
	expect_write(n, "connected", "nope", EINVAL);

	/* kept across disable/enable: the device comes up unplugged */
	expect_write(n, "connected", "0", 0);
	close(fd);
	expect_write(n, "enabled", "0", 0);
	wait_card_gone(card);
	expect_write(n, "enabled", "1", 0);
	card = vfq_cfs_read_int(n, "card");
	fd = vfq_open_card(card);
	igt_assert_fd(fd);
	vfq_dev_init(&dev, fd);
	expect_connection(fd, dev.pipe[0].conn_id, DRM_MODE_DISCONNECTED);
	expect_connection(fd, dev.pipe[1].conn_id, DRM_MODE_DISCONNECTED);
	close(fd);
	if (ue >= 0)
		close(ue);
	igt_assert_eq(vfq_cfs_rmdir(n), 0);
	wait_card_gone(card);
}

/* Unplug while a client holds fd, fb, mmap and a pending vblank event. */
static void test_unplug(bool by_rmdir)
{
	const char *name = by_rmdir ? "igt-unplug-rmdir" : "igt-unplug";
	struct vfq_dev dev;
	drmModeModeInfo mode;
	struct vfq_fb fb;
	struct drm_vflipq_get_caps caps;
	struct drm_mode_create_dumb create = { .width = 64, .height = 64,
					       .bpp = 32 };
	drmModeAtomicReq *req;
	struct drm_mode_map_dumb map = {};
	struct vfq_event ev;
	uint32_t active_prop, seed = 3;
	int card, fd;

	card = vfq_cfs_create(name, (const char *[]){
			"modes", "640x480@60", "preferred_mode", "640x480@60",
			NULL });
	fd = vfq_open_card(card);
	igt_assert_fd(fd);
	vfq_dev_init(&dev, fd);
	vfq_get_mode(fd, dev.pipe[0].conn_id, 640, 480, 60, &mode);
	vfq_fb_create(fd, 640, 480, DRM_FORMAT_XRGB8888, &fb);
	vfq_fb_pattern(&fb, 3);
	/* raw: the device goes away under this client, its state with it */
	vfq_pipe_on(&dev, 0, &mode, fb.fb_id);
	active_prop = vfq_prop_id(fd, dev.pipe[0].crtc_id, DRM_MODE_OBJECT_CRTC,
				  "ACTIVE");
	map.handle = fb.handle;
	do_ioctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map);
	igt_assert_eq(vfq_wait_vblank(fd, 0, DRM_VBLANK_RELATIVE |
				      DRM_VBLANK_EVENT, 1000, 1, NULL, NULL),
		      0);

	vfq_kmsg_open(&kmsg);
	if (by_rmdir)
		igt_assert_eq(vfq_cfs_rmdir(name), 0);
	else
		expect_write(name, "enabled", "0", 0);
	wait_card_gone(card);
	if (!by_rmdir) {
		igt_assert_eq(vfq_cfs_read_int(name, "card"), -1);
		expect_read(name, "enabled", "0");
	}

	/* the pending vblank event is delivered as the CRTC goes off */
	igt_assert_eq(vfq_read_event(fd, 1000, &ev), 1);
	igt_assert_eq_u32(ev.type, DRM_EVENT_VBLANK);
	igt_assert_eq_u64(ev.user_data, 1);
	/* the existing mapping still reads the buffer; new ones fail */
	igt_assert_eq(vfq_fb_check(&fb, expect_seed, &seed, 8, 0), 0);
	igt_assert(mmap(NULL, fb.size, PROT_READ, MAP_SHARED, fd,
			map.offset) == MAP_FAILED);
	igt_assert_eq(errno, ENODEV);

	/* every ioctl now fails with ENODEV */
	igt_assert_eq(vfq_get_caps(fd, &caps), -ENODEV);
	igt_assert(drmModeGetResources(fd) == NULL);
	igt_assert_eq(errno, ENODEV);
	do_ioctl_err(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create, ENODEV);
	/* raw: a bare ACTIVE=0 on the unplugged device's fd, refused */
	req = vfq_req_new();
	drmModeAtomicAddProperty(req, dev.pipe[0].crtc_id, active_prop, 0);
	igt_assert_eq(vfq_req_commit(fd, req, 0, NULL), -ENODEV);
	igt_assert_eq(vfq_wait_vblank(fd, 0, DRM_VBLANK_RELATIVE, 1, 0, NULL,
				      NULL), -ENODEV);

	/* the client tears down without trouble */
	munmap(fb.map, fb.size);
	fb.map = NULL;
	igt_assert_eq(close(fd), 0);
	igt_assert_eq(vfq_kmsg_splats(&kmsg), 0);
	vfq_kmsg_close(&kmsg);
	if (!by_rmdir)
		igt_assert_eq(vfq_cfs_rmdir(name), 0);

	/* the default device is unaffected */
	fd = vfq_open_default();
	igt_assert_eq(vfq_get_caps(fd, &caps), 0);
	close(fd);
}

igt_main
{
	igt_fixture {
		igt_assert_f(vfq_cfs_available(), "%s missing\n",
			     VFQ_CONFIGFS_ROOT);
		vfq_cfs_cleanup();
		igt_install_exit_handler(cleanup_handler);
	}

	igt_describe("A new directory holds the documented defaults");
	igt_subtest("defaults") {
		const char *n = "igt-defaults";

		igt_assert_eq(vfq_cfs_mkdir(n), 0);
		expect_read(n, "crtcs", "1");
		expect_read(n, "overlays", "1");
		expect_read(n, "cursor", "1");
		expect_read(n, "writeback", "1");
		expect_read(n, "vblank_align", "1");
		expect_read(n, "modes", DEFAULT_MODES);
		expect_read(n, "preferred_mode", "1920x1080@60");
		expect_read(n, "enabled", "0");
		expect_read(n, "card", "-1");
		expect_read(n, "device_id", "-1");
		/* writing the current state again does nothing */
		expect_write(n, "enabled", "0", 0);
		expect_read(n, "card", "-1");
		igt_assert_eq(vfq_cfs_rmdir(n), 0);
	}

	igt_describe("Enabling creates a card with exactly the configuration");
	igt_subtest("create-device") {
		const char *n = "igt-create";
		const struct config cfg = {
			.crtcs = 3, .overlays = 2, .cursor = false,
			.writeback = true, .n_modes = 3,
			.modes = { { 640, 480, 60 }, { 800, 600, 75 },
				   { 1280, 720, 50 } },
			.preferred = 1,
		};
		int card;

		card = vfq_cfs_create(n, (const char *[]){
			"crtcs", "3", "overlays", "2", "cursor", "0",
			"writeback", "1",
			"modes", "640x480@60 800x600@75\n1280x720@50",
			"preferred_mode", "800x600@75", NULL });
		expect_read(n, "modes", "640x480@60\n800x600@75\n1280x720@50");
		expect_read(n, "preferred_mode", "800x600@75");
		expect_read(n, "enabled", "1");
		check_device(card, n, &cfg);
		check_scanout(card, 800, 600, 75);

		expect_write(n, "enabled", "0", 0);
		igt_assert_eq(vfq_cfs_read_int(n, "card"), -1);
		wait_card_gone(card);
		/* the configuration is kept: enable again */
		expect_write(n, "enabled", "1", 0);
		card = vfq_cfs_read_int(n, "card");
		igt_assert_lte(0, card);
		check_device(card, n, &cfg);
		igt_assert_eq(vfq_cfs_rmdir(n), 0);
		wait_card_gone(card);
	}

	igt_describe("Smallest and largest configurations (a DRM device has "
		     "at most 32 planes)");
	igt_subtest("create-limits") {
		const struct config cfg_min = {
			.crtcs = 1, .overlays = 0, .cursor = false,
			.writeback = false, .n_modes = 1,
			.modes = { { 64, 64, 1 } }, .preferred = 0,
		};
		struct config cfg_max = {
			.crtcs = 8, .overlays = 2, .cursor = true,
			.writeback = true, .n_modes = 16, .preferred = 15,
		};
		const struct config cfg_wide = {
			.crtcs = 3, .overlays = 8, .cursor = true,
			.writeback = true, .n_modes = 1,
			.modes = { { 8192, 8192, 240 } }, .preferred = 0,
		};
		char modes[512] = "", pref[32];
		int card;

		for (int i = 0; i < 16; i++) {
			char m[32];

			cfg_max.modes[i].w = 64 + 512 * i;
			cfg_max.modes[i].h = 8192 - 512 * i;
			cfg_max.modes[i].r = i == 15 ? 240 : 1 + 15 * i;
			snprintf(m, sizeof(m), "%s%dx%d@%d", i ? " " : "",
				 cfg_max.modes[i].w, cfg_max.modes[i].h,
				 cfg_max.modes[i].r);
			strcat(modes, m);
		}
		snprintf(pref, sizeof(pref), "%dx%d@%d", cfg_max.modes[15].w,
			 cfg_max.modes[15].h, cfg_max.modes[15].r);

		card = vfq_cfs_create("igt-min", (const char *[]){
			"crtcs", "1", "overlays", "0", "cursor", "0",
			"writeback", "0", "modes", "64x64@1",
			"preferred_mode", "64x64@1", NULL });
		check_device(card, "igt-min", &cfg_min);
		/* 8 x (primary + 2 overlays + cursor) = 32 planes */
		card = vfq_cfs_create("igt-max", (const char *[]){
			"crtcs", "8", "overlays", "2", "cursor", "1",
			"writeback", "1", "modes", modes,
			"preferred_mode", pref, NULL });
		check_device(card, "igt-max", &cfg_max);
		/* 3 x (primary + 8 overlays + cursor) = 30 planes */
		card = vfq_cfs_create("igt-wide", (const char *[]){
			"crtcs", "3", "overlays", "8", "modes", "8192x8192@240",
			"preferred_mode", "8192x8192@240", NULL });
		check_device(card, "igt-wide", &cfg_wide);
		igt_assert_eq(vfq_cfs_rmdir("igt-min"), 0);
		igt_assert_eq(vfq_cfs_rmdir("igt-max"), 0);
		igt_assert_eq(vfq_cfs_rmdir("igt-wide"), 0);
	}

	igt_describe("A configuration beyond DRM's 32 planes per device fails "
		     "to enable with EINVAL, cleanly");
	igt_subtest("over-plane-limit") {
		static const char *const over[][2] = {
			{ "8", "8" },	/* 80 planes */
			{ "4", "7" },	/* 36 planes */
		};
		const char *n = "igt-over";

		vfq_kmsg_open(&kmsg);
		igt_assert_eq(vfq_cfs_mkdir(n), 0);
		for (size_t i = 0; i < VFQ_ARRAY_SIZE(over); i++) {
			expect_write(n, "crtcs", over[i][0], 0);
			expect_write(n, "overlays", over[i][1], 0);
			expect_write(n, "enabled", "1", EINVAL);
			expect_read(n, "enabled", "0");
			expect_read(n, "card", "-1");
		}
		/* 4 x (1 + 6 + 1) = 32 planes: fine */
		expect_write(n, "overlays", "6", 0);
		expect_write(n, "enabled", "1", 0);
		igt_assert_lte(0, vfq_cfs_read_int(n, "card"));
		igt_assert_eq(vfq_cfs_rmdir(n), 0);
		igt_assert_eq(vfq_kmsg_splats(&kmsg), 0);
		vfq_kmsg_close(&kmsg);
	}

	igt_describe("Out-of-range or malformed values fail with EINVAL and "
		     "change nothing");
	igt_subtest("invalid-values") {
		static const struct { const char *attr, *val; } bad[] = {
			/* 0 is a render-only adapter (kms_vflipq_caso) */
			{ "crtcs", "9" }, { "crtcs", "-1" },
			{ "crtcs", "abc" }, { "crtcs", "2x" },
			{ "overlays", "9" }, { "overlays", "-1" },
			{ "overlays", "x" },
			{ "cursor", "2" }, { "cursor", "x" },
			{ "writeback", "2" }, { "writeback", "x" },
			{ "vblank_align", "2" }, { "vblank_align", "x" },
			{ "modes", "63x480@60" }, { "modes", "640x63@60" },
			{ "modes", "8193x480@60" }, { "modes", "640x8193@60" },
			{ "modes", "640x480@0" }, { "modes", "640x480@241" },
			{ "modes", "640x480" }, { "modes", "garbage" },
			{ "modes", "640x480@60 foo" }, { "modes", " " },
			{ "modes", "1x1@1" },
			{ "preferred_mode", "1280x720@30" },
			{ "preferred_mode", "640x480" },
			{ "preferred_mode", "x" },
			{ "enabled", "2" }, { "enabled", "x" },
		};
		const char *n = "igt-invalid";
		char seventeen[512] = "";

		igt_assert_eq(vfq_cfs_mkdir(n), 0);
		for (size_t i = 0; i < VFQ_ARRAY_SIZE(bad); i++)
			expect_write(n, bad[i].attr, bad[i].val, EINVAL);
		for (int i = 0; i < 17; i++) {
			char m[32];

			snprintf(m, sizeof(m), "%s%dx480@60", i ? " " : "",
				 640 + i);
			strcat(seventeen, m);
		}
		expect_write(n, "modes", seventeen, EINVAL);
		expect_write(n, "crtcs", "4294967296", ERANGE);
		expect_write(n, "overlays", "99999999999", ERANGE);
		/* nothing changed */
		expect_read(n, "crtcs", "1");
		expect_read(n, "overlays", "1");
		expect_read(n, "cursor", "1");
		expect_read(n, "writeback", "1");
		expect_read(n, "modes", DEFAULT_MODES);
		expect_read(n, "preferred_mode", "1920x1080@60");
		expect_read(n, "enabled", "0");
		expect_read(n, "card", "-1");

		/* other accepted spellings */
		expect_write(n, "crtcs", "0x3", 0);
		expect_read(n, "crtcs", "3");
		expect_write(n, "crtcs", "011", EINVAL);	/* octal 9 */
		expect_write(n, "crtcs", "07", 0);
		expect_read(n, "crtcs", "7");
		expect_write(n, "crtcs", "2\n", 0);
		expect_read(n, "crtcs", "2");
		expect_write(n, "cursor", "off", 0);
		expect_read(n, "cursor", "0");
		expect_write(n, "cursor", "yes", 0);
		expect_read(n, "cursor", "1");
		expect_write(n, "writeback", "N", 0);
		expect_read(n, "writeback", "0");
		expect_write(n, "writeback", "on", 0);
		expect_read(n, "writeback", "1");
		expect_write(n, "modes", "640x480@60\t1024x768@60\n", 0);
		expect_read(n, "modes", "640x480@60\n1024x768@60");
		expect_write(n, "preferred_mode", " 1024x768@60\n", 0);
		expect_read(n, "preferred_mode", "1024x768@60");

		/* bounds that are valid */
		expect_write(n, "crtcs", "8", 0);
		expect_write(n, "crtcs", "1", 0);
		expect_write(n, "overlays", "0", 0);
		expect_write(n, "overlays", "8", 0);
		/* the preferred mode leaves the list: the first one takes over */
		expect_write(n, "modes", "64x64@1 8192x8192@240", 0);
		expect_read(n, "modes", "64x64@1\n8192x8192@240");
		expect_read(n, "preferred_mode", "64x64@1");
		/* it stays when the new list still has it */
		expect_write(n, "preferred_mode", "8192x8192@240", 0);
		expect_write(n, "modes", "640x480@60 8192x8192@240 64x64@1", 0);
		expect_read(n, "preferred_mode", "8192x8192@240");
		expect_write(n, "modes", "64x64@1 8192x8192@240", 0);
		expect_write(n, "preferred_mode", "8192x8192@240", 0);
		expect_read(n, "preferred_mode", "8192x8192@240");
		igt_assert_eq(vfq_cfs_rmdir(n), 0);
	}

	igt_describe("Configuration writes while enabled fail with EBUSY");
	igt_subtest("busy-while-enabled") {
		static const struct { const char *attr, *val; } w[] = {
			{ "crtcs", "2" }, { "crtcs", "1" },
			{ "overlays", "2" }, { "overlays", "1" },
			{ "cursor", "0" }, { "cursor", "1" },
			{ "writeback", "0" }, { "writeback", "1" },
			{ "modes", "640x480@60" },
			{ "modes", DEFAULT_MODES },
			{ "preferred_mode", "640x480@60" },
			{ "preferred_mode", "1920x1080@60" },
		};
		const char *n = "igt-busy";
		int card = vfq_cfs_create(n, NULL);
		const struct config cfg = {
			.crtcs = 1, .overlays = 1, .cursor = true,
			.writeback = true, .n_modes = 7,
			.modes = { { 640, 480, 60 }, { 1024, 768, 60 },
				   { 1280, 720, 60 }, { 1920, 1080, 60 },
				   { 1920, 1080, 120 }, { 2560, 1440, 144 },
				   { 3840, 2160, 60 } },
			.preferred = 3,
		};

		for (size_t i = 0; i < VFQ_ARRAY_SIZE(w); i++)
			expect_write(n, w[i].attr, w[i].val, EBUSY);
		/* numbers and booleans are parsed first: invalid is EINVAL */
		expect_write(n, "crtcs", "9", EINVAL);
		expect_write(n, "overlays", "x", EINVAL);
		expect_write(n, "cursor", "2", EINVAL);
		/* modes and preferred_mode: always EBUSY */
		expect_write(n, "modes", "garbage", EBUSY);
		expect_write(n, "preferred_mode", "1x1@1", EBUSY);
		/* enabling again does nothing */
		expect_write(n, "enabled", "1", 0);
		igt_assert_eq(vfq_cfs_read_int(n, "card"), card);
		check_device(card, n, &cfg);
		igt_assert_eq(vfq_cfs_rmdir(n), 0);
		wait_card_gone(card);
	}

	igt_describe("Device names must be shorter than 32 bytes");
	igt_subtest("name-length") {
		char name[40];

		memset(name, 'n', sizeof(name));
		memcpy(name, VFQ_CFS_PREFIX, strlen(VFQ_CFS_PREFIX));
		name[32] = '\0';
		igt_assert_eq(vfq_cfs_mkdir(name), -ENAMETOOLONG);
		name[31] = '\0';
		igt_assert_eq(vfq_cfs_mkdir(name), 0);
		check_device(vfq_cfs_enable(name), name,
			     &(struct config){
				.crtcs = 1, .overlays = 1, .cursor = true,
				.writeback = true, .n_modes = 7,
				.modes = { { 640, 480, 60 }, { 1024, 768, 60 },
					   { 1280, 720, 60 }, { 1920, 1080, 60 },
					   { 1920, 1080, 120 },
					   { 2560, 1440, 144 },
					   { 3840, 2160, 60 } },
				.preferred = 3 });
		igt_assert_eq(vfq_cfs_rmdir(name), 0);
	}

	igt_describe("Widths that are not a multiple of 8 are rounded down in "
		     "the connector's modes");
	igt_subtest("mode-width-rounding") {
		const char *n = "igt-round";
		drmModeModeInfo m;
		struct vfq_dev dev;
		int card;

		card = vfq_cfs_create(n, (const char *[]){
			"modes", "1366x768@60 1024x768@60",
			"preferred_mode", "1366x768@60", NULL });
		expect_read(n, "modes", "1366x768@60\n1024x768@60");
		vfq_dev_init(&dev, vfq_open_card(card));
		igt_assert(vfq_find_mode(dev.fd, dev.pipe[0].conn_id, 1360, 768,
					 60, &m));
		igt_assert(m.type & DRM_MODE_TYPE_PREFERRED);
		igt_assert(!vfq_find_mode(dev.fd, dev.pipe[0].conn_id, 1366,
					  768, 60, &m));
		vfq_dev_fini(&dev);
		igt_assert_eq(vfq_cfs_rmdir(n), 0);
	}

	igt_describe("Device ids: smallest free, not reused while an fd of the "
		     "old device is open");
	igt_subtest("device-ids") {
		int ids[3], card, fd, id;

		for (int i = 0; i < 3; i++) {
			char n[32];

			snprintf(n, sizeof(n), "igt-id%d", i);
			vfq_cfs_create(n, NULL);
			ids[i] = vfq_cfs_read_int(n, "device_id");
			for (int j = 0; j < i; j++)
				igt_assert_lt(ids[j], ids[i]);
		}
		/* removed and closed: its id is free again */
		expect_write("igt-id1", "enabled", "0", 0);
		expect_read("igt-id1", "device_id", "-1");
		vfq_cfs_create("igt-id3", NULL);
		igt_assert_eq(vfq_cfs_read_int("igt-id3", "device_id"), ids[1]);

		/* removed but still open: its id stays taken */
		card = vfq_cfs_read_int("igt-id2", "card");
		fd = vfq_open_card(card);
		igt_assert_fd(fd);
		expect_write("igt-id2", "enabled", "0", 0);
		vfq_cfs_create("igt-id4", NULL);
		id = vfq_cfs_read_int("igt-id4", "device_id");
		igt_assert_neq(id, ids[2]);
		close(fd);
		for (int i = 0; i < 5; i++) {
			char n[32];

			snprintf(n, sizeof(n), "igt-id%d", i);
			igt_assert_eq(vfq_cfs_rmdir(n), 0);
		}
	}

	igt_describe("Disable with an open client: its ioctls fail with "
		     "ENODEV, close works, no kernel splat");
	igt_subtest("unplug-open-client")
		test_unplug(false);

	igt_describe("rmdir of an enabled device with an open client");
	igt_subtest("rmdir-open-client")
		test_unplug(true);

	igt_describe("connected: outputs unplugged and plugged back at run "
		     "time");
	igt_subtest("connected-hotplug")
		test_connected(false);

	igt_describe("A new device's outputs are connected with their modes "
		     "before anything probed them");
	igt_subtest("connected-before-probe")
		test_connected_unprobed();

	igt_describe("connected: each change sends a hotplug uevent");
	igt_subtest("connected-hotplug-uevent")
		test_connected(true);

	igt_describe("Several devices at once, each with its configuration");
	igt_subtest("several-devices") {
		static const char *const names[] = { "igt-a", "igt-b", "igt-c" };
		const struct config cfg[3] = {
			{ .crtcs = 1, .overlays = 1, .cursor = true,
			  .writeback = true, .n_modes = 1,
			  .modes = { { 640, 480, 60 } } },
			{ .crtcs = 2, .overlays = 0, .cursor = true,
			  .writeback = false, .n_modes = 2,
			  .modes = { { 640, 480, 60 }, { 1024, 768, 60 } },
			  .preferred = 1 },
			{ .crtcs = 3, .overlays = 3, .cursor = false,
			  .writeback = false, .n_modes = 1,
			  .modes = { { 1280, 720, 60 } } },
		};
		int card[3], id[3], fd;
		struct drm_vflipq_get_caps caps;

		card[0] = vfq_cfs_create(names[0], (const char *[]){
			"modes", "640x480@60", "preferred_mode", "640x480@60",
			NULL });
		card[1] = vfq_cfs_create(names[1], (const char *[]){
			"crtcs", "2", "overlays", "0", "writeback", "0",
			"modes", "640x480@60 1024x768@60",
			"preferred_mode", "1024x768@60", NULL });
		card[2] = vfq_cfs_create(names[2], (const char *[]){
			"crtcs", "3", "overlays", "3", "cursor", "0",
			"writeback", "0", "modes", "1280x720@60",
			"preferred_mode", "1280x720@60", NULL });
		for (int i = 0; i < 3; i++) {
			id[i] = vfq_cfs_read_int(names[i], "device_id");
			for (int j = 0; j < i; j++) {
				igt_assert_neq(card[i], card[j]);
				igt_assert_neq(id[i], id[j]);
			}
			check_device(card[i], names[i], &cfg[i]);
		}
		check_scanout(card[0], 640, 480, 60);
		check_scanout(card[2], 1280, 720, 60);

		/* removing one leaves the others alone */
		expect_write(names[1], "enabled", "0", 0);
		wait_card_gone(card[1]);
		check_device(card[0], names[0], &cfg[0]);
		check_device(card[2], names[2], &cfg[2]);
		check_scanout(card[2], 1280, 720, 60);
		fd = vfq_open_default();
		igt_assert_eq(vfq_get_caps(fd, &caps), 0);
		igt_assert_eq_u32(caps.num_crtcs, 2);
		close(fd);
		for (int i = 0; i < 3; i++)
			igt_assert_eq(vfq_cfs_rmdir(names[i]), 0);
		wait_card_gone(card[0]);
		wait_card_gone(card[2]);
	}

	igt_fixture
		vfq_cfs_cleanup();
}
