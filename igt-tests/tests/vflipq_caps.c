// SPDX-License-Identifier: MIT
/*
 * DRM_IOCTL_VFLIPQ_GET_CAPS: version, fields, input validation, and
 * agreement with the KMS resources.
 */
/**
 * TEST: vflipq caps
 * Category: Display
 * Mega feature: General Display Features
 * Sub-category: uapi
 * Functionality: vflipq caps ioctl
 * Driver requirement: vflipq
 * Description: The vflipq private caps ioctl (DRM_IOCTL_VFLIPQ_GET_CAPS): its
 *              version and fields, input validation, and agreement with the
 *              KMS resources of every vflipq device.
 *
 * SUBTEST: version
 * Description: The caps of the default device are sane: uAPI version of
 *              this header (2.0), known cap bits only (none of the 1.x
 *              submission bits 2.0 retired), flip-queue depth and cap
 *              agreeing, CASO bits matching the tier, a name, reserved words
 *              zero
 *
 * SUBTEST: default-device
 * Description: The module-parameter device with default parameters
 *
 * SUBTEST: drm-version
 * Description: drmGetVersion reports the uAPI version of the caps ioctl, that
 *              of this header (2.0)
 *
 * SUBTEST: platform-device
 * Description: device_id names the platform device vflipq.<id>
 *
 * SUBTEST: flags-nonzero
 * Description: Non-zero flags are rejected with EINVAL
 *
 * SUBTEST: reserved-nonzero
 * Description: Any non-zero reserved word is rejected with EINVAL
 *
 * SUBTEST: output-overwritten
 * Description: Output members are overwritten whatever they held
 *
 * SUBTEST: old-struct-size
 * Description: A shorter struct from older userspace still works
 *
 * SUBTEST: non-master-client
 * Description: Any client of the card may query, master or not
 *
 * SUBTEST: matches-resources
 * Description: num_crtcs/num_overlays/cap bits match the KMS resources on
 *              every vflipq device
 */

#include <stddef.h>

#include "igt.h"
#include "vflipq_helpers.h"

IGT_TEST_DESCRIPTION("vflipq private caps ioctl");

#define KNOWN_CAPS (VFLIPQ_CAP_DISPLAY | VFLIPQ_CAP_WRITEBACK | \
		    VFLIPQ_CAP_CURSOR | VFLIPQ_CAP_CRC | VFLIPQ_CAP_CONFIGFS | \
		    VFQ_CAPS_EXTRA)

/* These tests speak uAPI 2.x: one submission ioctl, no 1.x numbers. */
_Static_assert(VFLIPQ_UAPI_VERSION_MAJOR == 2, "uAPI 2.x");

static void check_caps_sane(const struct drm_vflipq_get_caps *c)
{
	igt_assert_eq_u32(c->version_major, VFLIPQ_UAPI_VERSION_MAJOR);
	igt_assert_lte(VFLIPQ_UAPI_VERSION_MINOR, c->version_minor);
	igt_assert_eq_u64(c->caps & ~(uint64_t)KNOWN_CAPS, 0);
	igt_assert_eq_u32(c->flags, 0);
	/* a flip queue deeper than 1 exactly when the cap says so */
	igt_assert_lte_u32(1, c->flipq_depth);
	igt_assert_eq(c->flipq_depth > 1, !!(c->caps & VFLIPQ_CAP_FLIP_QUEUE));
	/*
	 * Per-flip rotations (1.3), batches (1.4) and a batch's interrupt
	 * target (1.5) are in every 2.0 flip queue: their bits are retired,
	 * never set.
	 */
	igt_assert_eq_u64(c->caps & VFQ_CAPS_RETIRED, 0);
	/* the tier is the number of CASO bits, which form a superset */
	igt_assert_lte_u32(c->caso_tier, 3);
	igt_assert_eq_u64(c->caps & (VFLIPQ_CAP_CASO_COPY |
				     VFLIPQ_CAP_CASO_TEXTURE |
				     VFLIPQ_CAP_CASO_SCANOUT),
			  ((1ull << c->caso_tier) - 1) << 6);
	igt_assert(memchr(c->name, '\0', sizeof(c->name)));
	igt_assert(c->name[0] != '\0');
	for (int i = 0; i < 8; i++)
		igt_assert_eq_u64(c->reserved[i], 0);
	igt_assert_lte(1, c->num_crtcs);
	igt_assert_lte(c->num_crtcs, 8);
	igt_assert_lte(c->num_overlays, 8);
	igt_assert(c->caps & VFLIPQ_CAP_DISPLAY);
}

/* The struct as an older userspace (before @reserved existed) sees it. */
struct caps_v0 {
	char bytes[offsetof(struct drm_vflipq_get_caps, reserved)];
};
#define IOCTL_CAPS_V0 \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VFLIPQ_GET_CAPS, struct caps_v0)

static int fd = -1;

igt_main
{
	igt_fixture
		fd = vfq_open_default();

	igt_describe("The caps of the default device are sane: uAPI version "
		     "of this header (2.0), known cap bits only (none of the "
		     "1.x submission bits 2.0 retired), flip-queue depth and "
		     "cap agreeing, CASO bits matching the tier, a name, "
		     "reserved words zero");
	igt_subtest("version") {
		struct drm_vflipq_get_caps c;

		igt_assert_eq(vfq_get_caps(fd, &c), 0);
		check_caps_sane(&c);
		/* the driver built from this tree implements this header */
		igt_assert_eq_u32(c.version_minor, VFLIPQ_UAPI_VERSION_MINOR);
	}

	igt_describe("The module-parameter device with default parameters");
	igt_subtest("default-device") {
		struct drm_vflipq_get_caps c;

		igt_assert_eq(vfq_get_caps(fd, &c), 0);
		igt_assert_eq(strcmp(c.name, "default"), 0);
		igt_assert_eq_u32(c.num_crtcs, 2);
		igt_assert_eq_u32(c.num_overlays, 2);
		igt_assert_eq_u64(c.caps & ~VFQ_CAPS_EXTRA, VFLIPQ_CAP_DISPLAY |
				  VFLIPQ_CAP_WRITEBACK | VFLIPQ_CAP_CURSOR |
				  VFLIPQ_CAP_CRC);
		/* created first, so it has device id 0 */
		igt_assert_eq_u32(c.device_id, 0);
	}

	igt_describe("drmGetVersion reports the uAPI version of the caps "
		     "ioctl, that of this header (2.0)");
	igt_subtest("drm-version") {
		struct drm_vflipq_get_caps c;
		drmVersionPtr v = drmGetVersion(fd);

		igt_assert(v);
		igt_assert_eq(vfq_get_caps(fd, &c), 0);
		igt_assert_eq(strcmp(v->name, "vflipq"), 0);
		igt_assert_eq(v->version_major, (int)c.version_major);
		igt_assert_eq(v->version_minor, (int)c.version_minor);
		igt_assert_eq(v->version_major, VFLIPQ_UAPI_VERSION_MAJOR);
		igt_assert_eq(v->version_minor, VFLIPQ_UAPI_VERSION_MINOR);
		drmFreeVersion(v);
	}

	igt_describe("device_id names the platform device vflipq.<id>");
	igt_subtest("platform-device") {
		struct drm_vflipq_get_caps c;
		char path[128], link[256], want[64];
		ssize_t n;

		igt_assert_eq(vfq_get_caps(fd, &c), 0);
		snprintf(path, sizeof(path), "/sys/class/drm/card%d/device",
			 vfq_card_index(fd));
		n = readlink(path, link, sizeof(link) - 1);
		igt_assert_f(n > 0, "%s: %s\n", path, strerror(errno));
		link[n] = '\0';
		snprintf(want, sizeof(want), "vflipq.%u", c.device_id);
		igt_assert_f(strcmp(strrchr(link, '/') ? strrchr(link, '/') + 1 :
				    link, want) == 0,
			     "%s -> %s, expected .../%s\n", path, link, want);
	}

	igt_describe("Non-zero flags are rejected with EINVAL");
	igt_subtest("flags-nonzero") {
		static const uint32_t bad[] = { 1, 2, 0x80000000u, 0xffffffffu };

		for (size_t i = 0; i < VFQ_ARRAY_SIZE(bad); i++) {
			struct drm_vflipq_get_caps c = { .flags = bad[i] };

			do_ioctl_err(fd, DRM_IOCTL_VFLIPQ_GET_CAPS, &c, EINVAL);
		}
	}

	igt_describe("Any non-zero reserved word is rejected with EINVAL");
	igt_subtest("reserved-nonzero") {
		for (int i = 0; i < 8; i++) {
			struct drm_vflipq_get_caps c = {};

			c.reserved[i] = 1ull << (i * 7);
			do_ioctl_err(fd, DRM_IOCTL_VFLIPQ_GET_CAPS, &c, EINVAL);
			c.reserved[i] = ~0ull;
			do_ioctl_err(fd, DRM_IOCTL_VFLIPQ_GET_CAPS, &c, EINVAL);
		}
	}

	igt_describe("Output members are overwritten whatever they held");
	igt_subtest("output-overwritten") {
		struct drm_vflipq_get_caps ref, c;

		igt_assert_eq(vfq_get_caps(fd, &ref), 0);
		memset(&c, 0xa5, sizeof(c));
		c.flags = 0;
		memset(c.reserved, 0, sizeof(c.reserved));
		do_ioctl(fd, DRM_IOCTL_VFLIPQ_GET_CAPS, &c);
		igt_assert_eq(memcmp(&c, &ref, sizeof(c)), 0);
	}

	igt_describe("A shorter struct from older userspace still works");
	igt_subtest("old-struct-size") {
		struct drm_vflipq_get_caps ref;
		struct caps_v0 v0;

		igt_assert_eq(vfq_get_caps(fd, &ref), 0);
		memset(&v0, 0, sizeof(v0));
		do_ioctl(fd, IOCTL_CAPS_V0, &v0);
		igt_assert_eq(memcmp(&v0, &ref, sizeof(v0)), 0);
	}

	igt_describe("Any client of the card may query, master or not");
	igt_subtest("non-master-client") {
		struct drm_vflipq_get_caps a, b;
		int fd2 = vfq_open_card(vfq_card_index(fd));

		igt_assert_fd(fd2);
		igt_assert_eq(vfq_get_caps(fd, &a), 0);
		igt_assert_eq(vfq_get_caps(fd2, &b), 0);
		igt_assert_eq(memcmp(&a, &b, sizeof(a)), 0);
		if (drmIsMaster(fd2))
			igt_assert_eq(drmDropMaster(fd2), 0);
		igt_assert(!drmIsMaster(fd2));
		igt_assert_eq(vfq_get_caps(fd2, &b), 0);
		igt_assert_eq(memcmp(&a, &b, sizeof(a)), 0);
		close(fd2);
	}

	igt_describe("num_crtcs/num_overlays/cap bits match the KMS resources "
		     "on every vflipq device");
	igt_subtest("matches-resources") {
		int cards[64], n = vfq_driver_cards(VFQ_DRIVER_NAME, cards, 64);
		uint32_t ids[64];

		igt_assert_lte(1, n);
		for (int i = 0; i < n; i++) {
			struct vfq_dev dev;
			int cfd = vfq_open_card(cards[i]), wb = 0, cur = 0;

			igt_assert_fd(cfd);
			vfq_dev_init(&dev, cfd);
			check_caps_sane(&dev.caps);
			igt_info("card%d: \"%s\" id %u, %u CRTCs, %u overlays, caps %#llx\n",
				 cards[i], dev.caps.name, dev.caps.device_id,
				 dev.caps.num_crtcs, dev.caps.num_overlays,
				 (unsigned long long)dev.caps.caps);
			igt_assert_eq(dev.n_pipes, (int)dev.caps.num_crtcs);
			for (int p = 0; p < dev.n_pipes; p++) {
				igt_assert_eq(dev.pipe[p].n_overlays,
					      (int)dev.caps.num_overlays);
				wb += !!dev.pipe[p].wb_conn_id;
				cur += !!dev.pipe[p].cursor;
			}
			igt_assert_eq(wb, dev.caps.caps & VFLIPQ_CAP_WRITEBACK ?
				      dev.n_pipes : 0);
			igt_assert_eq(cur, dev.caps.caps & VFLIPQ_CAP_CURSOR ?
				      dev.n_pipes : 0);
			igt_assert_eq(dev.n_planes, dev.n_pipes *
				      (1 + (int)dev.caps.num_overlays +
				       !!(dev.caps.caps & VFLIPQ_CAP_CURSOR)));
			igt_assert_eq(dev.n_connectors, dev.n_pipes + wb);
			igt_assert_eq(!!(dev.caps.caps & VFLIPQ_CAP_CONFIGFS),
				      strcmp(dev.caps.name, "default") != 0);
			ids[i] = dev.caps.device_id;
			for (int j = 0; j < i; j++)
				igt_assert_f(ids[j] != ids[i],
					     "device_id %u used twice\n",
					     ids[i]);
			vfq_dev_fini(&dev);
		}
	}

	igt_fixture
		close(fd);
}
