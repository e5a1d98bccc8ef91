// SPDX-License-Identifier: MIT
/*
 * KMS enumeration of every vflipq device: connectors and their modes,
 * planes and their properties, writeback connectors.
 */
/**
 * TEST: vflipq enum
 * Category: Display
 * Mega feature: General Display Features
 * Sub-category: uapi
 * Functionality: kms resources
 * Driver requirement: vflipq
 * Description: KMS enumeration of every vflipq device: connectors and their
 *              modes, encoders, planes and their properties, writeback
 *              connectors, as the driver documentation lists them.
 *
 * SUBTEST: version
 * Description: Driver name and description of every vflipq card
 *
 * SUBTEST: connectors
 * Description: One VIRTUAL connected connector per CRTC with the spec's modes,
 *              1920x1080@60 preferred by default
 *
 * SUBTEST: encoders-and-limits
 * Description: Virtual encoders on every CRTC, writeback encoders on their
 *              own, their clones; framebuffer size and cursor limits
 *
 * SUBTEST: possible-crtcs
 * Description: Primary, overlays and cursor per CRTC, bound to it only
 *
 * SUBTEST: plane-properties
 * Description: zpos, alpha, blend mode, rotation and IN_FORMATS on every plane
 *              with the spec's ranges and defaults
 *
 * SUBTEST: debugfs-config
 * Description: debugfs vflipq_config of the default device
 *
 * SUBTEST: writeback-connectors
 * Description: A writeback connector per CRTC exactly when caps say so
 */

#include "igt.h"
#include "vflipq_helpers.h"

IGT_TEST_DESCRIPTION("vflipq KMS objects and properties");

static const struct { int w, h, r; } default_modes[] = {
	{ 640, 480, 60 }, { 1024, 768, 60 }, { 1280, 720, 60 },
	{ 1920, 1080, 60 }, { 1920, 1080, 120 }, { 2560, 1440, 144 },
	{ 3840, 2160, 60 },
};

static const uint32_t wb_formats[] = {
	DRM_FORMAT_XRGB8888, DRM_FORMAT_ARGB8888, DRM_FORMAT_XRGB2101010,
	DRM_FORMAT_ABGR8888,
};

static int cards[64], n_cards;

/* Run @fn on every vflipq device. */
static void for_each_device(void (*fn)(struct vfq_dev *dev))
{
	igt_assert_lte(1, n_cards);
	for (int i = 0; i < n_cards; i++) {
		struct vfq_dev dev;
		int fd = vfq_open_card(cards[i]);

		igt_assert_fd(fd);
		vfq_dev_init(&dev, fd);
		igt_info("card%d: %s\n", cards[i], dev.caps.name);
		fn(&dev);
		vfq_dev_fini(&dev);
	}
}

static void check_version(struct vfq_dev *dev)
{
	drmVersionPtr v = drmGetVersion(dev->fd);

	igt_assert(v);
	igt_assert_eq(strcmp(v->name, "vflipq"), 0);
	igt_assert_eq(strcmp(v->desc, "vflipq virtual display adapter"), 0);
	drmFreeVersion(v);
}

static void check_connectors(struct vfq_dev *dev)
{
	bool is_default = strcmp(dev->caps.name, "default") == 0;

	for (int p = 0; p < dev->n_pipes; p++) {
		drmModeConnector *c = drmModeGetConnector(dev->fd,
						dev->pipe[p].conn_id);
		int preferred = -1;

		igt_assert(c);
		igt_assert_eq_u32(c->connector_type,
				  DRM_MODE_CONNECTOR_VIRTUAL);
		igt_assert_eq(c->connection, DRM_MODE_CONNECTED);
		igt_assert_lte(1, c->count_modes);
		igt_assert_lte(c->count_modes, 16);
		for (int m = 0; m < c->count_modes; m++) {
			const drmModeModeInfo *mi = &c->modes[m];

			igt_debug("  %s %.3f Hz%s\n", mi->name,
				  vfq_mode_hz(mi),
				  mi->type & DRM_MODE_TYPE_PREFERRED ?
				  " preferred" : "");
			/* timings really run at the nominal refresh */
			igt_assert_f(vfq_mode_hz(mi) > mi->vrefresh * 0.995 &&
				     vfq_mode_hz(mi) < mi->vrefresh * 1.005,
				     "%s: %u Hz nominal, %.3f Hz from timings\n",
				     mi->name, mi->vrefresh, vfq_mode_hz(mi));
			igt_assert(mi->type & DRM_MODE_TYPE_DRIVER);
			if (mi->type & DRM_MODE_TYPE_PREFERRED) {
				igt_assert_f(preferred < 0,
					     "two preferred modes\n");
				preferred = m;
			}
		}
		igt_assert_f(preferred >= 0, "no preferred mode\n");
		if (is_default) {
			const drmModeModeInfo *pm = &c->modes[preferred];

			igt_assert_eq(c->count_modes,
				      (int)VFQ_ARRAY_SIZE(default_modes));
			for (size_t m = 0; m < VFQ_ARRAY_SIZE(default_modes);
			     m++) {
				drmModeModeInfo mi;

				igt_assert(vfq_find_mode(dev->fd, c->connector_id,
							 default_modes[m].w,
							 default_modes[m].h,
							 default_modes[m].r,
							 &mi));
			}
			igt_assert_eq(pm->hdisplay, 1920);
			igt_assert_eq(pm->vdisplay, 1080);
			igt_assert_eq(pm->vrefresh, 60);
		}
		drmModeFreeConnector(c);
	}
}

/* Bit of encoder @id in possible_clones: its index in the resources. */
static uint32_t encoder_bit(drmModeRes *res, uint32_t id)
{
	for (int k = 0; k < res->count_encoders; k++)
		if (res->encoders[k] == id)
			return 1u << k;
	igt_assert_f(false, "encoder %u not in the resources\n", id);
	return 0;
}

static uint32_t wb_encoder_id(struct vfq_dev *dev, int pipe)
{
	drmModeConnector *c = drmModeGetConnector(dev->fd,
						  dev->pipe[pipe].wb_conn_id);
	uint32_t id;

	igt_assert(c && c->count_encoders == 1);
	id = c->encoders[0];
	drmModeFreeConnector(c);
	return id;
}

/*
 * The routing rule (Documentation/vflipq/driver.rst, "Routing"): a Virtual
 * encoder drives every CRTC and clones with every writeback encoder; a
 * writeback encoder drives its own CRTC and clones with every Virtual
 * encoder; no two Virtual encoders clone.
 */
static void check_routing(struct vfq_dev *dev)
{
	drmModeRes *res = drmModeGetResources(dev->fd);
	uint32_t all_crtcs = (1u << dev->n_pipes) - 1;
	uint32_t virt = 0, wb = 0;

	igt_assert(res);
	igt_assert_eq(res->count_encoders,
		      dev->n_pipes * (dev->pipe[0].wb_conn_id ? 2 : 1));
	for (int i = 0; i < dev->n_pipes; i++) {
		virt |= encoder_bit(res, dev->pipe[i].encoder_id);
		if (dev->pipe[i].wb_conn_id)
			wb |= encoder_bit(res, wb_encoder_id(dev, i));
	}
	for (int i = 0; i < dev->n_pipes; i++) {
		drmModeEncoder *e = drmModeGetEncoder(dev->fd,
						      dev->pipe[i].encoder_id);
		drmModeConnector *c = drmModeGetConnector(dev->fd,
						dev->pipe[i].conn_id);

		igt_assert(e && c);
		igt_assert_eq_u32(e->encoder_type, DRM_MODE_ENCODER_VIRTUAL);
		igt_assert_eq_u32(e->possible_crtcs, all_crtcs);
		igt_assert_eq_u32(e->possible_clones,
				  encoder_bit(res, e->encoder_id) | wb);
		/* the connector's only encoder, already bound to it */
		igt_assert_eq_u32(c->encoder_id ? c->encoder_id : e->encoder_id,
				  e->encoder_id);
		drmModeFreeEncoder(e);
		drmModeFreeConnector(c);

		if (!dev->pipe[i].wb_conn_id)
			continue;
		e = drmModeGetEncoder(dev->fd, wb_encoder_id(dev, i));
		igt_assert(e);
		igt_assert_eq_u32(e->possible_crtcs, 1u << i);
		igt_assert_eq_u32(e->possible_clones,
				  encoder_bit(res, e->encoder_id) | virt);
		drmModeFreeEncoder(e);
	}
	drmModeFreeResources(res);
}

static void check_encoders_and_limits(struct vfq_dev *dev)
{
	drmModeRes *res = drmModeGetResources(dev->fd);
	uint64_t cw = 0, ch = 0;

	igt_assert(res);
	/* framebuffers from 16x16 to 8192x8192 */
	igt_assert_eq_u32(res->min_width, 1);
	igt_assert_eq_u32(res->min_height, 1);
	igt_assert_eq_u32(res->max_width, 8192);
	igt_assert_eq_u32(res->max_height, 8192);
	drmModeFreeResources(res);
	igt_assert_eq(drmGetCap(dev->fd, DRM_CAP_CURSOR_WIDTH, &cw), 0);
	igt_assert_eq(drmGetCap(dev->fd, DRM_CAP_CURSOR_HEIGHT, &ch), 0);
	igt_assert_eq_u64(cw, 512);
	igt_assert_eq_u64(ch, 512);

	check_routing(dev);
}

static void check_plane_props(struct vfq_dev *dev, uint32_t plane,
			      int zpos_min, int zpos_max, int zpos,
			      bool immutable)
{
	const uint32_t t = DRM_MODE_OBJECT_PLANE;
	static const char *const rot[] = {
		"rotate-0", "rotate-90", "rotate-180", "rotate-270",
		"reflect-x", "reflect-y",
	};
	static const char *const blend[] = {
		"None", "Pre-multiplied", "Coverage",
	};
	drmModePropertyRes *p;

	p = vfq_prop_info(dev->fd, plane, t, "zpos");
	igt_assert(p->flags & DRM_MODE_PROP_RANGE);
	igt_assert_eq(!!(p->flags & DRM_MODE_PROP_IMMUTABLE), immutable);
	igt_assert_eq_u64(p->values[0], zpos_min);
	igt_assert_eq_u64(p->values[1], zpos_max);
	drmModeFreeProperty(p);
	igt_assert_eq_u64(vfq_prop_get(dev->fd, plane, t, "zpos"), zpos);

	p = vfq_prop_info(dev->fd, plane, t, "alpha");
	igt_assert(p->flags & DRM_MODE_PROP_RANGE);
	igt_assert_eq_u64(p->values[0], 0);
	igt_assert_eq_u64(p->values[1], 0xffff);
	drmModeFreeProperty(p);
	igt_assert_eq_u64(vfq_prop_get(dev->fd, plane, t, "alpha"), 0xffff);

	p = vfq_prop_info(dev->fd, plane, t, "pixel blend mode");
	igt_assert(p->flags & DRM_MODE_PROP_ENUM);
	igt_assert_eq(p->count_enums, 3);
	drmModeFreeProperty(p);
	for (size_t i = 0; i < VFQ_ARRAY_SIZE(blend); i++)
		vfq_prop_enum_value(dev->fd, plane, t, "pixel blend mode",
				    blend[i]);
	igt_assert_eq_u64(vfq_prop_get(dev->fd, plane, t, "pixel blend mode"),
			  vfq_prop_enum_value(dev->fd, plane, t,
					      "pixel blend mode",
					      "Pre-multiplied"));

	p = vfq_prop_info(dev->fd, plane, t, "rotation");
	igt_assert(p->flags & DRM_MODE_PROP_BITMASK);
	drmModeFreeProperty(p);
	for (size_t i = 0; i < VFQ_ARRAY_SIZE(rot); i++) {
		/* bitmask entries carry the bit number */
		igt_assert_eq_u64(vfq_prop_enum_value(dev->fd, plane, t,
						      "rotation", rot[i]), i);
	}
	igt_assert_eq_u64(vfq_prop_get(dev->fd, plane, t, "rotation"),
			  DRM_MODE_ROTATE_0);

	igt_assert(vfq_prop_get(dev->fd, plane, t, "IN_FORMATS") != 0);
}

static void check_planes(struct vfq_dev *dev)
{
	const int ov = dev->caps.num_overlays;

	for (int i = 0; i < dev->n_pipes; i++) {
		struct vfq_pipe *p = &dev->pipe[i];

		/* vfq_dev_init mapped each plane to its single CRTC */
		igt_assert_eq(p->n_overlays, ov);
		igt_assert_eq(!!p->cursor,
			      !!(dev->caps.caps & VFLIPQ_CAP_CURSOR));
		check_plane_props(dev, p->primary, 0, 0, 0, true);
		for (int k = 0; k < ov; k++)
			check_plane_props(dev, p->overlays[k], 1, ov, k + 1,
					  ov == 1);
		if (p->cursor)
			check_plane_props(dev, p->cursor, ov + 1, ov + 1,
					  ov + 1, true);
	}
}

static void check_possible_crtcs(struct vfq_dev *dev)
{
	for (int i = 0; i < dev->n_pipes; i++) {
		struct vfq_pipe *p = &dev->pipe[i];
		uint32_t planes[2 + VFQ_MAX_OVERLAYS];
		int n = 0;

		planes[n++] = p->primary;
		for (int k = 0; k < p->n_overlays; k++)
			planes[n++] = p->overlays[k];
		if (p->cursor)
			planes[n++] = p->cursor;
		/* created primary, cursor, overlays: object ids in that order */
		if (p->cursor)
			igt_assert_lt_u32(p->primary, p->cursor);
		for (int k = 0; k < p->n_overlays; k++)
			igt_assert_lt_u32(p->cursor ? p->cursor : p->primary,
					  p->overlays[k]);
		for (int k = 0; k < n; k++) {
			drmModePlane *pl = drmModeGetPlane(dev->fd, planes[k]);

			igt_assert(pl);
			igt_assert_eq_u32(pl->possible_crtcs, 1u << i);
			drmModeFreePlane(pl);
		}
	}
}

static void check_writeback(struct vfq_dev *dev)
{
	bool has_wb = dev->caps.caps & VFLIPQ_CAP_WRITEBACK;
	drmModeRes *res;
	int fd2;

	for (int i = 0; i < dev->n_pipes; i++) {
		uint32_t f[16];
		int n;

		igt_assert_eq(!!dev->pipe[i].wb_conn_id, has_wb);
		if (!has_wb)
			continue;
		n = vfq_wb_formats(dev, i, f, 16);
		igt_assert_eq(n, (int)VFQ_ARRAY_SIZE(wb_formats));
		for (size_t k = 0; k < VFQ_ARRAY_SIZE(wb_formats); k++) {
			bool found = false;

			for (int j = 0; j < n; j++)
				found |= f[j] == wb_formats[k];
			igt_assert_f(found, "writeback lacks %s\n",
				     vfq_format_name(wb_formats[k]));
		}
		vfq_prop_id(dev->fd, dev->pipe[i].wb_conn_id,
			    DRM_MODE_OBJECT_CONNECTOR, "WRITEBACK_FB_ID");
		vfq_prop_id(dev->fd, dev->pipe[i].wb_conn_id,
			    DRM_MODE_OBJECT_CONNECTOR,
			    "WRITEBACK_OUT_FENCE_PTR");
	}

	/* hidden from clients without the writeback client cap */
	fd2 = vfq_open_card(vfq_card_index(dev->fd));
	igt_assert_fd(fd2);
	res = drmModeGetResources(fd2);
	igt_assert(res);
	igt_assert_eq(res->count_connectors, dev->n_pipes);
	drmModeFreeResources(res);
	close(fd2);
}

igt_main
{
	igt_fixture {
		n_cards = vfq_driver_cards(VFQ_DRIVER_NAME, cards, 64);
		igt_assert_f(n_cards >= 1, "no vflipq device\n");
	}

	igt_describe("Driver name and description of every vflipq card");
	igt_subtest("version")
		for_each_device(check_version);

	igt_describe("One VIRTUAL connected connector per CRTC with the spec's "
		     "modes, 1920x1080@60 preferred by default");
	igt_subtest("connectors")
		for_each_device(check_connectors);

	igt_describe("Virtual encoders on every CRTC, writeback encoders on "
		     "their own, their clones; framebuffer size and cursor "
		     "limits");
	igt_subtest("encoders-and-limits")
		for_each_device(check_encoders_and_limits);

	igt_describe("Primary, overlays and cursor per CRTC, bound to it only");
	igt_subtest("possible-crtcs")
		for_each_device(check_possible_crtcs);

	igt_describe("zpos, alpha, blend mode, rotation and IN_FORMATS on "
		     "every plane with the spec's ranges and defaults");
	igt_subtest("plane-properties")
		for_each_device(check_planes);

	igt_describe("debugfs vflipq_config of the default device");
	igt_subtest("debugfs-config") {
		static const char want[] =
			"name=default\nid=0\ncrtcs=2\noverlays=2\ncursor=1\n"
			"writeback=1\nvblank_align=1\nmode=640x480@60\n"
			"mode=1024x768@60\n"
			"mode=1280x720@60\nmode=1920x1080@60 preferred\n"
			"mode=1920x1080@120\nmode=2560x1440@144\n"
			"mode=3840x2160@60";
		int fd = vfq_open_default();

		vfq_check_debugfs_config(vfq_card_index(fd), want);
		close(fd);
	}

	igt_describe("A writeback connector per CRTC exactly when caps say so");
	igt_subtest("writeback-connectors")
		for_each_device(check_writeback);
}
