// SPDX-License-Identifier: MIT
/*
 * The shared pixel-format table (common/fourcc.c) against the layouts
 * drm_fourcc.h states in its comments, written out here again: bits per
 * pixel of plane 0, planes, subsampling; the fourcc codes as their four
 * characters; lookups of formats the table lacks.
 */
#include <string.h>

#include <drm_fourcc.h>

#include "../libpresent/tests/test.h"
#include "../common/fourcc.h"

static const struct {
	uint32_t code;		/* fourcc_code() of drm_fourcc.h's characters */
	const char *name;
	unsigned int bits;	/* plane 0, from drm_fourcc.h's "[31:0] x:R:G:B 8:8:8:8" */
	unsigned int planes, hsub, vsub;
	bool alpha;
} want[] = {
	{ fourcc_code('X', 'R', '2', '4'), "XRGB8888", 32, 1, 1, 1, false },
	{ fourcc_code('A', 'R', '2', '4'), "ARGB8888", 32, 1, 1, 1, true },
	{ fourcc_code('X', 'B', '2', '4'), "XBGR8888", 32, 1, 1, 1, false },
	{ fourcc_code('A', 'B', '2', '4'), "ABGR8888", 32, 1, 1, 1, true },
	{ fourcc_code('R', 'X', '2', '4'), "RGBX8888", 32, 1, 1, 1, false },
	{ fourcc_code('R', 'A', '2', '4'), "RGBA8888", 32, 1, 1, 1, true },
	{ fourcc_code('B', 'X', '2', '4'), "BGRX8888", 32, 1, 1, 1, false },
	{ fourcc_code('B', 'A', '2', '4'), "BGRA8888", 32, 1, 1, 1, true },
	{ fourcc_code('X', 'R', '3', '0'), "XRGB2101010", 32, 1, 1, 1, false },
	{ fourcc_code('A', 'R', '3', '0'), "ARGB2101010", 32, 1, 1, 1, true },
	{ fourcc_code('X', 'B', '3', '0'), "XBGR2101010", 32, 1, 1, 1, false },
	{ fourcc_code('A', 'B', '3', '0'), "ABGR2101010", 32, 1, 1, 1, true },
	{ fourcc_code('X', 'R', '4', 'H'), "XRGB16161616F", 64, 1, 1, 1, false },
	{ fourcc_code('A', 'R', '4', 'H'), "ARGB16161616F", 64, 1, 1, 1, true },
	{ fourcc_code('X', 'B', '4', 'H'), "XBGR16161616F", 64, 1, 1, 1, false },
	{ fourcc_code('A', 'B', '4', 'H'), "ABGR16161616F", 64, 1, 1, 1, true },
	{ fourcc_code('X', 'B', '4', '8'), "XBGR16161616", 64, 1, 1, 1, false },
	{ fourcc_code('A', 'B', '4', '8'), "ABGR16161616", 64, 1, 1, 1, true },
	{ fourcc_code('R', 'G', '1', '6'), "RGB565", 16, 1, 1, 1, false },
	{ fourcc_code('B', 'G', '1', '6'), "BGR565", 16, 1, 1, 1, false },
	{ fourcc_code('R', 'G', '2', '4'), "RGB888", 24, 1, 1, 1, false },
	{ fourcc_code('R', '8', ' ', ' '), "R8", 8, 1, 1, 1, false },
	{ fourcc_code('C', '8', ' ', ' '), "C8", 8, 1, 1, 1, false },
	{ fourcc_code('N', 'V', '1', '2'), "NV12", 8, 2, 2, 2, false },
	{ fourcc_code('Y', 'U', 'Y', 'V'), "YUYV", 16, 1, 2, 1, false },
};

int main(void)
{
	size_t n, nwant = sizeof(want) / sizeof(want[0]);
	const struct fourcc_info *t = fourcc_table(&n);

	CHECK(n == nwant, "table has %zu formats, this test knows %zu", n, nwant);
	for (size_t i = 0; i < nwant; i++) {
		const struct fourcc_info *f = fourcc_info(want[i].code);

		CHECK(f != NULL, "%s missing", want[i].name);
		if (!f)
			continue;
		CHECK(!strcmp(f->name, want[i].name), "%s named %s", want[i].name, f->name);
		CHECK(!strcmp(fourcc_name(want[i].code), want[i].name), "%s", want[i].name);
		CHECK(f->cpp[0] * 8u == want[i].bits, "%s: %u bytes per pixel", f->name, f->cpp[0]);
		CHECK(fourcc_cpp(want[i].code) * 8 == want[i].bits, "%s: fourcc_cpp", f->name);
		CHECK(f->planes == want[i].planes, "%s: %u planes", f->name, f->planes);
		CHECK(f->hsub == want[i].hsub && f->vsub == want[i].vsub, "%s: subsampling %ux%u",
		      f->name, f->hsub, f->vsub);
		CHECK(f->alpha == want[i].alpha, "%s: alpha %d", f->name, f->alpha);
		/* unused planes hold nothing, used ones something */
		for (unsigned int p = 0; p < FOURCC_MAX_PLANES; p++)
			CHECK((p < f->planes) == (f->cpp[p] != 0), "%s: plane %u cpp %u", f->name,
			      p, f->cpp[p]);
		CHECK(f->depth >= 5 && f->depth <= 16 && f->depth <= want[i].bits, "%s: depth %u",
		      f->name, f->depth);
	}
	/* NV12's chroma plane: one Cb:Cr pair of bytes per 2x2 pixels */
	CHECK(fourcc_info(DRM_FORMAT_NV12)->cpp[1] == 2, "NV12 chroma");
	/* every entry once */
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			CHECK(t[i].fourcc != t[j].fourcc && strcmp(t[i].name, t[j].name),
			      "%s twice", t[i].name);
	/* what the table lacks */
	CHECK(fourcc_info(0) == NULL && fourcc_cpp(0) == 0, "format 0");
	CHECK(fourcc_info(DRM_FORMAT_NV21) == NULL && fourcc_cpp(DRM_FORMAT_NV21) == 0, "NV21");
	CHECK(!strcmp(fourcc_name(0xdeadbeef), "unknown"), "unknown name");
	return test_done("fourcc_test");
}
