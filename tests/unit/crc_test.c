// SPDX-License-Identifier: GPL-2.0-only
/*
 * The composer puts a frame's CRC together from the CRCs of its tiles
 * (vflipq_crc.c): the zero-bytes operator must equal running crc32_le()
 * over that many zero bytes, and joining two CRCs must equal the CRC of
 * the joined data, for every length the composer uses and odd ones.
 */
#include <stdlib.h>

#include "ref_crc.h"
#include "unit.h"
#include "vflipq_crc.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Tile and row lengths of common modes (8 bytes a pixel) and odd ones. */
static const size_t lens[] = {
	0, 1, 2, 3, 7, 8, 255, 256, 257, 512, 520, 1023, 3840, 5120,
	8 * 1920, 8 * 4096, 123457,
};

static void test_shift_zero(void)
{
	static struct vflipq_crc_shift s;
	static const u32 seeds[] = {
		0, 1, 0x80000000, 0xffffffff, 0xdeadbeef, 0x12345678,
	};

	for (size_t i = 0; i < ARRAY_SIZE(lens); i++) {
		u8 *zero = calloc(lens[i] + 1, 1);

		CHECK(zero);
		if (!zero)
			return;
		vflipq_crc_shift_init(&s, lens[i]);
		CHECK_EQ(s.len, lens[i]);
		for (size_t k = 0; k < ARRAY_SIZE(seeds); k++)
			CHECK_EQ(vflipq_crc_shift(&s, seeds[k]),
				 ref_crc32_le(seeds[k], zero, lens[i]));
		free(zero);
	}
}

static void test_cat(void)
{
	static struct vflipq_crc_shift s;
	size_t max = 123457 * 2;
	u8 *buf = malloc(max);

	CHECK(buf);
	if (!buf)
		return;
	srand(42);
	for (size_t i = 0; i < max; i++)
		buf[i] = rand();
	for (size_t i = 0; i < ARRAY_SIZE(lens); i++) {
		for (size_t j = 0; j < ARRAY_SIZE(lens); j += 3) {
			size_t la = lens[j], lb = lens[i];
			u32 a = ref_crc32_le(0, buf, la);
			u32 b = ref_crc32_le(0, buf + la, lb);

			vflipq_crc_shift_init(&s, lb);
			CHECK_EQ(vflipq_crc_cat(&s, a, b),
				 ref_crc32_le(0, buf, la + lb));
		}
	}
	free(buf);
}

/* A row put together from tiles of 64 pixels and a narrower last one. */
static void test_row_of_tiles(void)
{
	static struct vflipq_crc_shift tile, last;
	const size_t w = 1000, tw = 64, nt = (w + tw - 1) / tw;
	u8 row[1000 * 8];
	u32 crc;

	for (size_t i = 0; i < sizeof(row); i++)
		row[i] = i * 7 + 3;
	vflipq_crc_shift_init(&tile, tw * 8);
	vflipq_crc_shift_init(&last, (w - (nt - 1) * tw) * 8);
	crc = ref_crc32_le(0, row, tw * 8);
	for (size_t t = 1; t < nt; t++) {
		size_t a = t * tw * 8;
		size_t n = t + 1 < nt ? tw * 8 : sizeof(row) - a;

		crc = vflipq_crc_cat(t + 1 < nt ? &tile : &last, crc,
				     ref_crc32_le(0, row + a, n));
	}
	CHECK_EQ(crc, ref_crc32_le(0, row, sizeof(row)));
}

int main(int argc, char **argv)
{
	static const struct unit_test tests[] = {
		{ "shift-zero", test_shift_zero },
		{ "cat", test_cat },
		{ "row-of-tiles", test_row_of_tiles },
	};

	return unit_run("crc", tests, ARRAY_SIZE(tests), argc, argv);
}
