// SPDX-License-Identifier: MIT
/*
 * Module unload/reload with parameters.  Every subtest leaves vflipq loaded
 * with its default parameters (an exit handler restores them on failure).
 */
/**
 * TEST: vflipq module reload
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: driver
 * Functionality: module load and unload
 * Driver requirement: vflipq
 * Description: Module unload and reload with parameters: unload refused while
 *              anything of the module is in use, parameters validated, no
 *              device without create_default; vflipq is left loaded with its
 *              default parameters.
 *
 * SUBTEST: unload-busy
 * Description: Unloading is refused while a card fd is open
 *
 * SUBTEST: unload-busy-configfs
 * Description: Unloading is refused while a configfs device exists
 *
 * SUBTEST: reload-params
 * Description: Reload with crtcs=3 overlays=1, then with defaults
 *
 * SUBTEST: reload-params-limits
 * Description: cursor=0 writeback=0 and the extremes of crtcs/overlays
 *
 * SUBTEST: reload-over-plane-limit
 * Description: Parameters beyond DRM's 32 planes per device never yield a
 *              device (nor a kernel splat)
 *
 * SUBTEST: reload-invalid-params
 * Description: Out-of-range or malformed parameters: loading fails
 *
 * SUBTEST: unload-busy-dmabuf
 * Description: An exported dma-buf keeps the module loaded
 *
 * SUBTEST: unload-busy-copy-fence
 * Description: A copy engine out-fence keeps the module loaded
 *
 * SUBTEST: unload-busy-removed-device
 * Description: An fd of a removed configfs device keeps the module loaded
 *
 * SUBTEST: no-default-device
 * Description: create_default=0: no device until configfs makes one
 *
 * SUBTEST: reload-loop
 * Description: Repeated unload/load with use in between
 */

#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>

#include "igt.h"
#include "vflipq_helpers.h"

IGT_TEST_DESCRIPTION("vflipq module load parameters and unload");

#define MOD "vflipq"

static bool params_changed;
static struct vfq_kmsg kmsg;

/* Unload, retrying briefly for references that drop asynchronously. */
static int unload(void)
{
	int ret = 0;

	for (int i = 0; i < 50; i++) {
		ret = vfq_module_unload(MOD);
		if (ret != -EAGAIN && ret != -EBUSY)
			break;
		usleep(20000);
	}
	return ret;
}

static void reload(const char *params)
{
	int ret;

	if (vfq_module_loaded(MOD)) {
		ret = unload();
		igt_assert_f(ret == 0, "unloading %s: %s\n", MOD,
			     strerror(-ret));
	}
	igt_assert(!vfq_module_loaded(MOD));
	ret = vfq_module_load(MOD, params);
	igt_assert_f(ret == 0, "loading %s %s: %s\n", MOD,
		     params ? params : "", strerror(-ret));
	igt_assert(vfq_module_loaded(MOD));
	params_changed = params && *params;
}

static void restore_defaults(int sig)
{
	(void)sig;
	if (!params_changed && vfq_module_loaded(MOD))
		return;
	vfq_cfs_cleanup();
	if (vfq_module_loaded(MOD))
		unload();
	vfq_module_load(MOD, NULL);
	params_changed = false;
}

static void check_param(const char *name, const char *want)
{
	char path[128], buf[64];
	int ret;

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s", MOD,
		 name);
	ret = vfq_file_read(path, buf, sizeof(buf));
	igt_assert_f(ret > 0, "%s: %s\n", path, strerror(-ret));
	igt_assert_f(strcmp(buf, want) == 0, "%s = %s, expected %s\n", path,
		     buf, want);
	igt_assert(vfq_file_write(path, "1") < 0);
}

/* Unload must fail while something holds the module. */
static void check_unload_refused(const char *why)
{
	int ret = vfq_module_unload(MOD);

	igt_assert_f(ret == -EAGAIN || ret == -EBUSY,
		     "unload with %s: %s\n", why,
		     ret ? strerror(-ret) : "succeeded");
	igt_assert(vfq_module_loaded(MOD));
}

/* The default device exists and has this shape. */
static void check_default(int crtcs, int overlays, bool cursor,
			  bool writeback)
{
	struct vfq_dev dev;
	uint64_t caps = VFLIPQ_CAP_DISPLAY | VFLIPQ_CAP_CRC |
			(cursor ? VFLIPQ_CAP_CURSOR : 0) |
			(writeback ? VFLIPQ_CAP_WRITEBACK : 0);
	int cards[64];

	igt_assert_eq(vfq_driver_cards(VFQ_DRIVER_NAME, cards, 64), 1);
	vfq_dev_init(&dev, vfq_open_default());
	igt_assert_eq_u32(dev.caps.num_crtcs, crtcs);
	igt_assert_eq_u32(dev.caps.num_overlays, overlays);
	igt_assert_eq_u64(dev.caps.caps & ~VFQ_CAPS_EXTRA, caps);
	igt_assert_eq(dev.n_pipes, crtcs);
	igt_assert_eq(dev.n_planes, crtcs * (1 + overlays + cursor));
	igt_assert_eq(dev.n_connectors, crtcs * (1 + writeback));
	vfq_dev_fini(&dev);
}

igt_main
{
	igt_fixture {
		igt_assert(vfq_module_loaded(MOD));
		vfq_cfs_cleanup();
		igt_install_exit_handler(restore_defaults);
		vfq_kmsg_open(&kmsg);
	}

	igt_describe("Unloading is refused while a card fd is open");
	igt_subtest("unload-busy") {
		struct drm_vflipq_get_caps caps;
		int fd = vfq_open_default();

		check_unload_refused("an open fd");
		igt_assert_eq(vfq_get_caps(fd, &caps), 0);
		close(fd);
	}

	igt_describe("Unloading is refused while a configfs device exists");
	igt_subtest("unload-busy-configfs") {
		igt_assert_eq(vfq_cfs_mkdir(VFQ_CFS_PREFIX "reload"), 0);
		check_unload_refused("a configfs directory");
		igt_assert_eq(vfq_cfs_rmdir(VFQ_CFS_PREFIX "reload"), 0);
	}

	igt_describe("Reload with crtcs=3 overlays=1, then with defaults");
	igt_subtest("reload-params") {
		reload("crtcs=3 overlays=1");
		check_default(3, 1, true, true);
		/* readable (not writable) in sysfs */
		check_param("crtcs", "3");
		check_param("overlays", "1");
		check_param("cursor", "Y");
		check_param("writeback", "Y");
		check_param("create_default", "Y");
		reload(NULL);
		check_default(2, 2, true, true);
	}

	igt_describe("cursor=0 writeback=0 and the extremes of crtcs/overlays");
	igt_subtest("reload-params-limits") {
		reload("cursor=0 writeback=0");
		check_default(2, 2, false, false);
		reload("crtcs=1 overlays=0");
		check_default(1, 0, true, true);
		/* DRM allows 32 planes per device */
		reload("crtcs=8 overlays=2");
		check_default(8, 2, true, true);
		reload("crtcs=3 overlays=8");
		check_default(3, 8, true, true);
		reload(NULL);
		check_default(2, 2, true, true);
	}

	igt_describe("Parameters beyond DRM's 32 planes per device never "
		     "yield a device (nor a kernel splat)");
	igt_subtest("reload-over-plane-limit") {
		int cards[64], ret;

		if (vfq_module_loaded(MOD))
			igt_assert_eq(unload(), 0);
		params_changed = true;
		/* The configuration check refuses it before any device. */
		ret = vfq_module_load(MOD, "crtcs=8 overlays=8");
		igt_assert_f(ret == -EINVAL, "loading %s crtcs=8 overlays=8: "
			     "%s, want EINVAL\n", MOD, strerror(-ret));
		igt_assert(!vfq_module_loaded(MOD));
		igt_assert_eq(vfq_driver_cards(VFQ_DRIVER_NAME, cards, 64), 0);
		reload(NULL);
		check_default(2, 2, true, true);
	}

	igt_describe("Out-of-range or malformed parameters: loading fails");
	igt_subtest("reload-invalid-params") {
		static const char *const bad[] = {
			"crtcs=9", "overlays=9", "crtcs=-1", "caso_caps=2",
			"caso_caps=8", "hybrid_integrated=1 caso_caps=3",
			"cursor=maybe",
		};
		int ret;

		for (size_t i = 0; i < VFQ_ARRAY_SIZE(bad); i++) {
			if (vfq_module_loaded(MOD))
				igt_assert_eq(unload(), 0);
			params_changed = true;
			/* parse_args() or the configuration check */
			ret = vfq_module_load(MOD, bad[i]);
			igt_assert_f(ret == -EINVAL, "loading %s %s: %s, "
				     "want EINVAL\n", MOD, bad[i],
				     strerror(-ret));
			igt_assert(!vfq_module_loaded(MOD));
		}
		reload(NULL);
		check_default(2, 2, true, true);
	}

	igt_describe("An exported dma-buf keeps the module loaded");
	igt_subtest("unload-busy-dmabuf") {
		struct vfq_fb fb;
		int fd = vfq_open_default(), dmabuf = -1;

		vfq_fb_create(fd, 64, 64, DRM_FORMAT_XRGB8888, &fb);
		igt_assert_eq(drmPrimeHandleToFD(fd, fb.handle, DRM_CLOEXEC,
						 &dmabuf), 0);
		vfq_fb_destroy(&fb);
		close(fd);
		check_unload_refused("an exported dma-buf");
		close(dmabuf);
		reload(NULL);
		check_default(2, 2, true, true);
	}

	igt_describe("A copy engine out-fence keeps the module loaded");
	igt_subtest("unload-busy-copy-fence") {
		struct drm_vflipq_copy c = {
			.src_rect = { 0, 0, 64, 64 },
			.dst_rect = { 0, 0, 64, 64 },
		};
		struct pollfd p = { .events = POLLIN };
		struct vfq_fb a, b;
		int fd = vfq_open_default();

		vfq_fb_create(fd, 64, 64, DRM_FORMAT_XRGB8888, &a);
		vfq_fb_create(fd, 64, 64, DRM_FORMAT_XRGB8888, &b);
		c.src_fb = a.fb_id;
		c.dst_fb = b.fb_id;
		igt_assert_eq(ioctl(fd, DRM_IOCTL_VFLIPQ_COPY, &c), 0);
		p.fd = c.out_fence_fd;
		igt_assert_eq(poll(&p, 1, 10000), 1);
		vfq_fb_destroy(&a);
		vfq_fb_destroy(&b);
		close(fd);
		/* Signalled, but its ops are still called through the fd. */
		check_unload_refused("a copy out-fence");
		close(c.out_fence_fd);
		reload(NULL);
		check_default(2, 2, true, true);
	}

	igt_describe("An fd of a removed configfs device keeps the module "
		     "loaded");
	igt_subtest("unload-busy-removed-device") {
		int card = vfq_cfs_create(VFQ_CFS_PREFIX "held", NULL);
		int fd = vfq_open_card(card);

		igt_assert_fd(fd);
		igt_assert_eq(vfq_cfs_rmdir(VFQ_CFS_PREFIX "held"), 0);
		check_unload_refused("an fd of a removed device");
		close(fd);
		reload(NULL);
		check_default(2, 2, true, true);
	}

	igt_describe("create_default=0: no device until configfs makes one");
	igt_subtest("no-default-device") {
		int cards[64], card;

		reload("create_default=0");
		igt_assert_eq(vfq_driver_cards(VFQ_DRIVER_NAME, cards, 64), 0);
		igt_assert(vfq_cfs_available());
		card = vfq_cfs_create(VFQ_CFS_PREFIX "only", NULL);
		igt_assert_eq(vfq_driver_cards(VFQ_DRIVER_NAME, cards, 64), 1);
		igt_assert_eq(cards[0], card);
		igt_assert_eq(vfq_cfs_rmdir(VFQ_CFS_PREFIX "only"), 0);
		reload(NULL);
		check_default(2, 2, true, true);
	}

	igt_describe("Repeated unload/load with use in between");
	igt_subtest("reload-loop") {
		for (int i = 0; i < 5; i++) {
			reload(i & 1 ? "crtcs=4" : NULL);
			check_default(i & 1 ? 4 : 2, 2, true, true);
		}
		reload(NULL);
		check_default(2, 2, true, true);
	}

	igt_fixture {
		igt_assert_eq(vfq_kmsg_splats(&kmsg), 0);
		vfq_kmsg_close(&kmsg);
		restore_defaults(0);
		igt_assert(vfq_module_loaded(MOD));
	}
}
