// SPDX-License-Identifier: MIT
/*
 * The HDR connector properties ("max bpc", "Colorspace",
 * HDR_OUTPUT_METADATA): present on every virtual connector, accepted,
 * validated, read back as set, and without effect on the composed frame.
 * "max bpc" bounds the output depth, at which the CRC is computed, but the
 * sink here is a new device's 8-bit one: "max bpc" 10 leaves the CRC as it
 * is (kms_vflipq_crc tests the depth).
 */
/**
 * TEST: kms vflipq hdr
 * Category: Display
 * Mega feature: HDR
 * Sub-category: hdr
 * Functionality: hdr connector properties
 * Driver requirement: vflipq
 * Description: The HDR connector properties ("max bpc", "Colorspace",
 *              HDR_OUTPUT_METADATA): present on every virtual connector,
 *              validated, read back as set, and without effect on the composed
 *              frame.
 *
 * SUBTEST: properties
 * Description: Every virtual connector has max bpc (6-16, default 16),
 *              Colorspace (Default, BT2020_RGB) and HDR_OUTPUT_METADATA (0)
 *
 * SUBTEST: set-and-read
 * Description: Values set are read back, and the composed frame does not
 *              change
 *
 * SUBTEST: invalid
 * Description: max bpc outside 6-16, HDR metadata of the wrong size, type or
 *              EOTF are refused with EINVAL
 */

#include "igt.h"
#include "vflipq_helpers.h"

IGT_TEST_DESCRIPTION("vflipq HDR connector properties");

#define W 640
#define H 480
#define OBJ_CONN DRM_MODE_OBJECT_CONNECTOR

static struct vfq_dev dev;
static igt_display_t display;
static drmModeModeInfo mode;
static struct vfq_fb fb;

static struct hdr_output_metadata pq_metadata(void)
{
	struct hdr_output_metadata m = { 0 };

	m.metadata_type = 0;	/* HDMI_STATIC_METADATA_TYPE1 */
	m.hdmi_metadata_type1.eotf = 2;	/* SMPTE ST 2084 (PQ) */
	m.hdmi_metadata_type1.display_primaries[0].x = 35400;
	m.hdmi_metadata_type1.display_primaries[0].y = 14600;
	m.hdmi_metadata_type1.white_point.x = 15635;
	m.hdmi_metadata_type1.white_point.y = 16450;
	m.hdmi_metadata_type1.max_display_mastering_luminance = 1000;
	m.hdmi_metadata_type1.max_cll = 1000;
	m.hdmi_metadata_type1.max_fall = 400;
	return m;
}

/*
 * Commit @prop = @value on connector 0 (a blob of @len bytes if @data)
 * through igt_display; 0 or -errno.  A value not committed (refused, or
 * TEST_ONLY) is taken back, so that the next commit does not carry it.
 */
static int set_conn(enum igt_atomic_connector_properties prop,
		    uint64_t value, const void *data, size_t len,
		    uint32_t flags)
{
	igt_output_t *output = vfq_output(&display, &dev, 0);
	uint64_t old = output->values[prop];
	int ret;

	/* every virtual connector has it (properties): fail, not skip */
	igt_assert(igt_output_has_prop(output, prop));
	if (data)
		igt_output_replace_prop_blob(output, prop, data, len);
	else
		igt_output_set_prop_value(output, prop, value);
	ret = igt_display_try_commit_atomic(&display, flags |
					    DRM_MODE_ATOMIC_ALLOW_MODESET,
					    NULL);
	if (ret || (flags & DRM_MODE_ATOMIC_TEST_ONLY)) {
		/*
		 * Nothing pending: the kernel keeps its value.  (Not @old
		 * re-sent: IGT starts from 0, not the kernel's "max bpc".)
		 * A blob replaced lost its reference: there was none here.
		 */
		if (data) {
			igt_assert_eq_u64(old, 0);
			igt_output_replace_prop_blob(output, prop, NULL, 0);
		}
		output->values[prop] = old;
		igt_output_clear_prop_changed(output, prop);
	}
	return ret;
}

/*
 * "Colorspace" is not among IGT 2.2's connector properties
 * (igt_connector_prop_names): set with a raw request of that one
 * property, which igt_display does not track.
 */
static int set_colorspace(uint64_t value)
{
	drmModeAtomicReq *req = vfq_req_new();

	vfq_req_set(req, dev.fd, dev.pipe[0].conn_id, OBJ_CONN, "Colorspace",
		    value);
	return vfq_req_commit(dev.fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET,
			      NULL);
}

static uint32_t screen_crc(void)
{
	igt_pipe_crc_t *crc;
	uint32_t v;

	crc = vfq_crc_start(dev.fd, dev.pipe[0].index);
	vfq_crc_collect(crc, vfq_crtc_sequence(dev.fd, dev.pipe[0].crtc_id) +
			2, 1, &v);
	igt_pipe_crc_free(crc);
	return v;
}

igt_main
{
	igt_fixture {
		vfq_dev_init(&dev, vfq_open_default());
		/* raw: also zpos, which igt_display_reset() leaves */
		vfq_dev_reset(&dev);
		vfq_display_init(&display, &dev);
		vfq_get_mode(dev.fd, dev.pipe[0].conn_id, W, H, 60, &mode);
		vfq_fb_create(dev.fd, W, H, DRM_FORMAT_XRGB8888, &fb);
		/*
		 * set-and-read compares the screen with itself, before and
		 * after: any picture does, IGT's test pattern (gradients of
		 * every level) as well as a reference one.
		 */
		{
			cairo_t *cr = igt_get_cairo_ctx(fb.fd, &fb.igt);

			igt_paint_test_pattern(cr, W, H);
			igt_put_cairo_ctx(cr);
		}
		vfq_sink_bpc(dev.fd, 8);
		vfq_display_pipe(&display, &dev, 0, &mode, &fb);
		igt_display_commit2(&display, COMMIT_ATOMIC);
	}

	igt_describe("Every virtual connector has max bpc (6-16, default "
		     "16), Colorspace (Default, BT2020_RGB) and "
		     "HDR_OUTPUT_METADATA (0)");
	igt_subtest("properties") {
		/*
		 * Values read from the kernel with igt_output_get_prop(); the
		 * range and the enum entries, which IGT has no getter for,
		 * and "Colorspace", which it does not know, with vfq's.
		 */
		for (int i = 0; i < dev.n_pipes; i++) {
			uint32_t c = dev.pipe[i].conn_id;
			igt_output_t *o = vfq_output(&display, &dev, i);
			drmModePropertyRes *p = vfq_prop_info(dev.fd, c,
							      OBJ_CONN,
							      "max bpc");

			igt_assert(p->flags & DRM_MODE_PROP_RANGE);
			igt_assert_eq_u64(p->values[0], 6);
			igt_assert_eq_u64(p->values[1], 16);
			drmModeFreeProperty(p);
			igt_assert_eq_u64(igt_output_get_prop(o,
						IGT_CONNECTOR_MAX_BPC), 16);
			igt_assert_eq_u64(vfq_prop_get(dev.fd, c, OBJ_CONN,
						       "Colorspace"),
					  vfq_prop_enum_value(dev.fd, c,
							      OBJ_CONN,
							      "Colorspace",
							      "Default"));
			vfq_prop_enum_value(dev.fd, c, OBJ_CONN, "Colorspace",
					    "BT2020_RGB");
			igt_assert_eq_u64(igt_output_get_prop(o,
					IGT_CONNECTOR_HDR_OUTPUT_METADATA), 0);
		}
	}

	igt_describe("Values set are read back, and the composed frame does "
		     "not change");
	igt_subtest("set-and-read") {
		const uint32_t c = dev.pipe[0].conn_id;
		igt_output_t *o = vfq_output(&display, &dev, 0);
		struct hdr_output_metadata m = pq_metadata();
		uint64_t bt2020 = vfq_prop_enum_value(dev.fd, c, OBJ_CONN,
						      "Colorspace",
						      "BT2020_RGB");
		uint32_t before = screen_crc();
		drmModePropertyBlobRes *b;

		igt_assert_eq(set_conn(IGT_CONNECTOR_MAX_BPC, 10, NULL, 0, 0),
			      0);
		igt_assert_eq(set_colorspace(bt2020), 0);
		igt_assert_eq(set_conn(IGT_CONNECTOR_HDR_OUTPUT_METADATA, 0,
				       &m, sizeof(m), 0), 0);
		/* read back from the kernel, not igt_display's cache */
		igt_assert_eq_u64(igt_output_get_prop(o, IGT_CONNECTOR_MAX_BPC),
				  10);
		igt_assert_eq_u64(vfq_prop_get(dev.fd, c, OBJ_CONN,
					       "Colorspace"), bt2020);
		b = drmModeGetPropertyBlob(dev.fd, igt_output_get_prop(o,
					IGT_CONNECTOR_HDR_OUTPUT_METADATA));
		igt_assert(b);
		igt_assert_eq(b->length, sizeof(m));
		igt_assert(memcmp(b->data, &m, sizeof(m)) == 0);
		drmModeFreePropertyBlob(b);
		igt_assert_eq_u32(screen_crc(), before);

		igt_assert_eq(set_conn(IGT_CONNECTOR_HDR_OUTPUT_METADATA, 0,
				       NULL, 0, 0), 0);
		igt_assert_eq(set_colorspace(0), 0);
		igt_assert_eq(set_conn(IGT_CONNECTOR_MAX_BPC, 16, NULL, 0, 0),
			      0);
	}

	igt_describe("max bpc outside 6-16, HDR metadata of the wrong size, "
		     "type or EOTF are refused with EINVAL");
	igt_subtest("invalid") {
		const uint32_t t = DRM_MODE_ATOMIC_TEST_ONLY;
		struct hdr_output_metadata m = pq_metadata();

		igt_assert_eq(set_conn(IGT_CONNECTOR_MAX_BPC, 5, NULL, 0, t),
			      -EINVAL);
		igt_assert_eq(set_conn(IGT_CONNECTOR_MAX_BPC, 17, NULL, 0, t),
			      -EINVAL);
		igt_assert_eq(set_conn(IGT_CONNECTOR_HDR_OUTPUT_METADATA,
				       0, &m, sizeof(m) - 2, t), -EINVAL);
		m.metadata_type = 1;
		igt_assert_eq(set_conn(IGT_CONNECTOR_HDR_OUTPUT_METADATA,
				       0, &m, sizeof(m), t), -EINVAL);
		m = pq_metadata();
		m.hdmi_metadata_type1.metadata_type = 1;
		igt_assert_eq(set_conn(IGT_CONNECTOR_HDR_OUTPUT_METADATA,
				       0, &m, sizeof(m), t), -EINVAL);
		m = pq_metadata();
		m.hdmi_metadata_type1.eotf = 4;
		igt_assert_eq(set_conn(IGT_CONNECTOR_HDR_OUTPUT_METADATA,
				       0, &m, sizeof(m), t), -EINVAL);
		m.hdmi_metadata_type1.eotf = 3;	/* HLG */
		igt_assert_eq(set_conn(IGT_CONNECTOR_HDR_OUTPUT_METADATA,
				       0, &m, sizeof(m), t), 0);
	}

	igt_fixture {
		vfq_display_off(&display);
		igt_display_fini(&display);
		vfq_fb_destroy(&fb);
		vfq_dev_fini(&dev);
	}
}
