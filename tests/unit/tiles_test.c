// SPDX-License-Identifier: GPL-2.0-only
/*
 * The composer's hash cache (vflipq_tiles.c) puts a frame's hash together
 * from tile hashes, recomposing only the dirty tiles.  Whatever tiles a
 * frame recomposes, the frame hash must be that of the whole frame as it
 * now is, by plain modular arithmetic (ref_hash.h) and by userspace's
 * implementation (userspace/common/vflipq_hash.h): checked here over
 * random runs of dirty tiles, frame after frame, at 4 and 8 bytes a pixel,
 * on rows of whole tiles, rows with a narrower last one and random widths.
 * The first frame joins every tile of each row; the others update the hash
 * of a row with fewer than half of its tiles dirty by what they changed,
 * and join the tiles of the others.
 */
#include <stdlib.h>

#include "ref_hash.h"
#include "unit.h"
#include "vflipq_tiles.h"
#include "../../userspace/common/vflipq_hash.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static u32 load32(const u8 *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (u32)p[3] << 24;
}

/*
 * What the composer does for a frame: compose the dirty tiles, fold.  A
 * tile's hash is the driver's stepping (two words a step, then one), or
 * userspace's, every other row: they must agree.
 */
static void compose(struct vflipq_tiles *t, const u8 *frame, size_t px)
{
	for (unsigned int y = 0; y < t->h; y++) {
		u64 dirty = t->dirty[y];

		if (!dirty)
			continue;
		vflipq_tiles_save_row(t, y);
		for (unsigned int i = 0; i < t->nt; i++) {
			unsigned int a = i * t->tw;
			unsigned int z = a + t->tw < t->w ? a + t->tw : t->w;

			const u8 *p = frame + (y * t->w + a) * px;
			size_t n = (z - a) * px / 4;
			u64 h = 0;

			if (!(dirty & BIT_ULL(i)))
				continue;
			if (y & 1) {
				h = vfq_hash_words(0, p, n);
			} else {
				for (; n >= 2; n -= 2, p += 8)
					h = vflipq_hash_step2(h, load32(p),
							      load32(p + 4));
				if (n)
					h = vflipq_hash_step1(h, load32(p));
			}
			t->tile_hash[y * t->nt + i] = vflipq_hash_final(h);
		}
		vflipq_tiles_fold_row(t, y);
	}
}

/* A random run of tiles, sometimes one, sometimes up to an edge. */
static u64 random_runs(unsigned int nt)
{
	u64 m = 0;
	int runs = rand() % 3;

	for (int r = 0; r <= runs; r++) {
		unsigned int a = rand() % nt, b = a + rand() % (nt - a);

		switch (rand() % 4) {
		case 0:
			a = 0;
			break;
		case 1:
			b = nt - 1;
			break;
		}
		m |= GENMASK_ULL(b, a);
	}
	return m;
}

static void check_size(unsigned int w, unsigned int h, unsigned int bpc)
{
	struct vflipq_tiles *t = NULL;
	size_t px = bpc > 8 ? 8 : 4, len = (size_t)w * h * px;
	u8 *frame = malloc(len);

	CHECK(frame);
	if (!frame)
		return;
	for (size_t i = 0; i < len; i++)
		frame[i] = rand();
	CHECK(vflipq_tiles_get(&t, w, h, bpc));
	if (!t) {
		free(frame);
		return;
	}
	CHECK_EQ(t->nt, (w + t->tw - 1) / t->tw);
	/* A new cache: every tile dirty, every row folded in full. */
	CHECK_EQ(vflipq_tiles_mark(t, 0, true), t->h * t->nt);
	compose(t, frame, px);
	CHECK_EQ(vflipq_tiles_frame_hash(t), ref_hash(0, frame, len));
	CHECK_EQ(vflipq_tiles_frame_hash(t),
		 vfq_hash_final(vfq_hash_words(0, frame, len / 4)));

	vflipq_tiles_keep(t, 0, true);

	for (int n = 0; n < 40; n++) {
		/* The same layers: nothing dirty but what the frame says. */
		CHECK_EQ(vflipq_tiles_mark(t, 0, false), 0);
		for (unsigned int y = 0; y < h; y++) {
			u64 m = rand() % 3 ? 0 : random_runs(t->nt);

			t->dirty[y] = m;
			for (unsigned int i = 0; i < t->nt; i++) {
				unsigned int a = i * t->tw;

				/* Sometimes a dirty tile comes out the same. */
				if ((m & BIT_ULL(i)) && rand() % 4)
					frame[(y * w + a + rand() %
					       (t->tw < w - a ? t->tw : w - a)) *
					      px + rand() % px] ^= 1 + rand() % 255;
			}
		}
		compose(t, frame, px);
		CHECK_EQ(vflipq_tiles_frame_hash(t), ref_hash(0, frame, len));
	}
	vflipq_tiles_free(t);
	free(frame);
}

static void test_dirty_runs(void)
{
	srand(7);
	check_size(1920, 9, 8);		/* 30 whole tiles of 64 */
	check_size(1000, 7, 8);		/* 15 tiles and one of 40 */
	check_size(1000, 5, 16);
	check_size(4100, 3, 8);		/* 64 tiles of 65, the last of 5 */
	check_size(64, 4, 8);		/* one tile */
	check_size(100, 4, 16);		/* two: the last of 36 */
	check_size(65, 3, 8);		/* two: the last of 1 */
	/* Random widths: whole tiles or not, odd words a tile or not. */
	for (int i = 0; i < 12; i++)
		check_size(1 + rand() % 4200, 1 + rand() % 5,
			   rand() % 2 ? 8 : 16);
}

int main(int argc, char **argv)
{
	static const struct unit_test tests[] = {
		{ "dirty-runs", test_dirty_runs },
	};

	return unit_run("tiles", tests, ARRAY_SIZE(tests), argc, argv);
}
