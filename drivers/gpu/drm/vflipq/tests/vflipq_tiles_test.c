// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suites of the frame hash behind the driver's CRC entries
 * (../vflipq_hash.h, ../vflipq_hash.c) and of the composer's hash cache
 * (../vflipq_tiles.c).
 *
 * vflipq_hash: the driver's hash against userspace's independent
 * implementation (vflipq_test_uhash.h, a copy of userspace/common/
 * vflipq_hash.h) and against plain modular arithmetic (vflipq_test_ref.h),
 * bit for bit: the folded products with and without 128-bit integers
 * (vflipq_hash_variants.h), the two-word and one-word steps from any state
 * the composer can hold, streams of random words cut at random places and
 * joined with the powers of K, and the 32 bits a CRC entry reports.
 *
 * vflipq_tiles: the cache puts a frame's hash together from tile hashes,
 * recomposing only the dirty tiles.  Whatever tiles a frame recomposes,
 * the frame hash must be that of the whole frame as it now is, by plain
 * modular arithmetic and by userspace's implementation: checked over
 * random runs of dirty tiles, frame after frame, at 4 and 8 bytes a pixel,
 * on rows of whole tiles, rows with a narrower last one and random widths.
 * The first frame joins every tile of each row; the others update the
 * hash of a row with fewer than half of its tiles dirty by what they
 * changed, and join the tiles of the others.
 */

#include <kunit/test.h>
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/slab.h>

#include "../vflipq_hash.h"
#include "../vflipq_tiles.h"
#include "vflipq_hash_variants.h"
#include "vflipq_test.h"
#include "vflipq_test_ref.h"
#include "vflipq_test_uhash.h"

/* ---- vflipq_hash ---------------------------------------------------- */

static u64 rng;

static u64 rnd64(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Below 2^@bits, often at or near its ends. */
static u64 rnd_below(unsigned int bits)
{
	u64 top = bits == 64 ? ~0ULL : (1ULL << bits) - 1;
	u64 near_p = REF_HASH_P + rnd64() % 16 - 8;

	switch (rnd64() % 8) {
	case 0:
		return top - rnd64() % 16;
	case 1:
		return rnd64() % 16;
	case 2:
		return near_p <= top ? near_p : top;
	default:
		return rnd64() & top;
	}
}

/* The driver's state after the @n words at @w, as the composer steps. */
static u64 drv_words(u64 h, const u32 *w, size_t n)
{
	for (; n >= 2; n -= 2, w += 2)
		h = vflipq_hash_step2(h, w[0], w[1]);
	if (n)
		h = vflipq_hash_step1(h, w[0]);
	return h;
}

static void vflipq_hash_test_constants(struct kunit *test)
{
	VFLIPQ_EXPECT_EQ(test, VFLIPQ_HASH_P, VFQ_HASH_P);
	VFLIPQ_EXPECT_EQ(test, VFLIPQ_HASH_P, REF_HASH_P);
	VFLIPQ_EXPECT_EQ(test, VFLIPQ_HASH_K, VFQ_HASH_K);
	VFLIPQ_EXPECT_EQ(test, VFLIPQ_HASH_K, REF_HASH_K);
	VFLIPQ_EXPECT_EQ(test, VFLIPQ_HASH_K2, VFQ_HASH_K2);
	VFLIPQ_EXPECT_EQ(test, VFLIPQ_HASH_K2, ref_mulmod(REF_HASH_K, REF_HASH_K));
}

/*
 * A folded product: the same bits with and without 128-bit integers and
 * in userspace, congruent to the exact product, within its bound.
 */
static void vflipq_hash_test_mulfold(struct kunit *test)
{
	for (int i = 0; i < 200000; i++) {
		u64 a = rnd_below(63), b = rnd_below(61);
		u32 x = rnd_below(32);
		u64 f = vflipq_hash_mulfold(a, b);
		u64 f32 = vflipq_hash_mulfold32(x, b);

		VFLIPQ_EXPECT_EQ(test, f, vflipq_test_portable_mulfold(a, b));
		VFLIPQ_EXPECT_EQ(test, f, vflipq_test_int128_mulfold(a, b));
		VFLIPQ_EXPECT_EQ(test, f, vfq_hash_fold61((__uint128_t)a * b));
		VFLIPQ_EXPECT_EQ(test, f % REF_HASH_P, ref_mulmod(a, b));
		VFLIPQ_EXPECT(test, f < (1ULL << 61) + (1ULL << 63));
		VFLIPQ_EXPECT_EQ(test, f32, vflipq_test_portable_mulfold32(x, b));
		VFLIPQ_EXPECT_EQ(test, f32, vflipq_test_int128_mulfold32(x, b));
		VFLIPQ_EXPECT_EQ(test, f32, vflipq_hash_mulfold(x, b));
		VFLIPQ_EXPECT_EQ(test, vflipq_hash_mulmod(a, b), vfq_hash_mulmod(a, b));
		VFLIPQ_EXPECT(test, vflipq_hash_mulmod(a, b) < (1ULL << 61) + 8);
		VFLIPQ_EXPECT_EQ(test, vflipq_hash_final(a), vfq_hash_final(a));
		VFLIPQ_EXPECT_EQ(test, vflipq_hash_final(a), a % REF_HASH_P);
	}
}

/* One step from any state below 2^63 (the composer's stay below 2^62). */
static void vflipq_hash_test_steps(struct kunit *test)
{
	for (int i = 0; i < 200000; i++) {
		u64 h = rnd_below(63), s2, s1;
		u32 w[2] = { rnd_below(32), rnd_below(32) };

		s2 = vflipq_hash_step2(h, w[0], w[1]);
		s1 = vflipq_hash_step1(h, w[0]);
		VFLIPQ_EXPECT_EQ(test, s2, vflipq_test_portable_step2(h, w[0], w[1]));
		VFLIPQ_EXPECT_EQ(test, s2, vflipq_test_int128_step2(h, w[0], w[1]));
		VFLIPQ_EXPECT_EQ(test, s1, vflipq_test_portable_step1(h, w[0]));
		VFLIPQ_EXPECT_EQ(test, s1, vflipq_test_int128_step1(h, w[0]));
		VFLIPQ_EXPECT_EQ(test, s2, vfq_hash_words(h, w, 2));
		VFLIPQ_EXPECT_EQ(test, s1, vfq_hash_words(h, w, 1));
		VFLIPQ_EXPECT_EQ(test, vflipq_hash_final(s2), ref_hash(h, w, 8));
		VFLIPQ_EXPECT_EQ(test, vflipq_hash_final(s1), ref_hash(h, w, 4));
		VFLIPQ_EXPECT(test, s2 < (1ULL << 61) + 8);
		VFLIPQ_EXPECT(test, s1 < (1ULL << 61) + (1ULL << 33));
	}
}

/*
 * Streams of random words (the largest ones too) from random states:
 * the driver's stepping, userspace's and the exact sum agree.
 */
static void vflipq_hash_test_streams(struct kunit *test)
{
	static u32 w[5000];

	for (int t = 0; t < 300; t++) {
		size_t n = t < 17 ? (size_t)t : rnd64() % ARRAY_SIZE(w);
		u64 h = t & 1 ? rnd_below(62) : 0;
		u64 got;

		for (size_t i = 0; i < n; i++)
			w[i] = t % 5 == 4 ? ~0U : rnd_below(32);
		got = drv_words(h, w, n);
		VFLIPQ_EXPECT_EQ(test, got, vfq_hash_words(h, w, n));
		VFLIPQ_EXPECT_EQ(test, vflipq_hash_final(got), ref_hash(h, w, 4 * n));
		VFLIPQ_EXPECT_EQ(test, vflipq_hash_fold(vflipq_hash_final(got)),
				 ref_hash_fold(ref_hash(h, w, 4 * n)));
	}
}

/* Userspace's known values (userspace/tests/hash_test.c). */
static void vflipq_hash_test_known(struct kunit *test)
{
	u8 bytes[64];
	u64 h;

	for (int i = 0; i < 64; i++)
		bytes[i] = i;
	h = vflipq_hash_final(drv_words(0, (const u32 *)bytes, 16));
	VFLIPQ_EXPECT_EQ(test, h, 0x1b1489b6a011160bULL);
	VFLIPQ_EXPECT_EQ(test, vflipq_hash_fold(h), 0xbb059fbd);
	VFLIPQ_EXPECT_EQ(test, vflipq_hash_pow(1000000), 0x0bcd293fbd72c821ULL);
	VFLIPQ_EXPECT_EQ(test, vflipq_hash_pow(0), 1);
	VFLIPQ_EXPECT_EQ(test, vflipq_hash_pow(1), VFLIPQ_HASH_K);
}

/* K^n: by squaring, one multiply at a time, and userspace's. */
static void vflipq_hash_test_pow(struct kunit *test)
{
	static const u64 lens[] = {
		2, 3, 7, 8, 64, 65, 128, 255, 256, 257, 1000, 1023, 1920,
		3840, 2 * 1920 * 1080, 4096 * 2160, 123457,
	};
	u64 r = 1;

	for (u64 n = 0; n < 3000; n++) {
		VFLIPQ_EXPECT_EQ(test, vflipq_hash_pow(n), r);
		r = ref_mulmod(r, REF_HASH_K);
	}
	for (size_t i = 0; i < ARRAY_SIZE(lens); i++) {
		VFLIPQ_EXPECT_EQ(test, vflipq_hash_pow(lens[i]), vfq_hash_pow(lens[i]));
		VFLIPQ_EXPECT_EQ(test, vflipq_hash_pow(lens[i]), ref_pow(lens[i]));
	}
	for (int i = 0; i < 200; i++) {
		/* two draws, one statement each: their order is fixed */
		u64 n = rnd64();

		n >>= rnd64() % 64;
		VFLIPQ_EXPECT_EQ(test, vflipq_hash_pow(n), vfq_hash_pow(n));
		VFLIPQ_EXPECT(test, vflipq_hash_pow(n) < REF_HASH_P);
	}
}

/*
 * A stream cut at random places into pieces, each hashed from 0 and
 * joined by vflipq_hash_cat(): the hash of the whole stream.
 */
static void vflipq_hash_test_cat(struct kunit *test)
{
	static u32 w[6000];

	for (size_t i = 0; i < ARRAY_SIZE(w); i++)
		w[i] = rnd_below(32);
	for (int t = 0; t < 300; t++) {
		size_t n = rnd64() % ARRAY_SIZE(w), a = 0;
		u64 h = 0;

		while (a < n) {
			size_t k = rnd64() % 4 ? rnd64() % 200 : rnd64() % (n - a + 1);
			u64 piece;

			if (k > n - a)
				k = n - a;
			piece = vflipq_hash_final(drv_words(0, w + a, k));
			h = vflipq_hash_cat(h, piece, vflipq_hash_pow(k));
			VFLIPQ_EXPECT_EQ(test, h,
					 vfq_hash_cat(vfq_hash_final(vfq_hash_words(0, w, a)),
						      piece, vfq_hash_pow(k)));
			a += k;
		}
		VFLIPQ_EXPECT_EQ(test, h, ref_hash(0, w, 4 * n));
		VFLIPQ_EXPECT_EQ(test, h, vfq_hash_final(vfq_hash_words(0, w, n)));
	}
}

/* The cases draw from one sequence, in this order. */
static int vflipq_hash_test_suite_init(struct kunit_suite *suite)
{
	rng = 0x9e3779b97f4a7c15ULL;
	return 0;
}

static struct kunit_case vflipq_hash_test_cases[] = {
	KUNIT_CASE(vflipq_hash_test_constants),
	KUNIT_CASE(vflipq_hash_test_mulfold),
	KUNIT_CASE(vflipq_hash_test_steps),
	KUNIT_CASE(vflipq_hash_test_streams),
	KUNIT_CASE(vflipq_hash_test_known),
	KUNIT_CASE(vflipq_hash_test_pow),
	KUNIT_CASE(vflipq_hash_test_cat),
	{}
};

struct kunit_suite vflipq_hash_test_suite = {
	.name = "vflipq_hash",
	.suite_init = vflipq_hash_test_suite_init,
	.init = vflipq_test_init,
	.exit = vflipq_test_exit,
	.test_cases = vflipq_hash_test_cases,
};

/* ---- vflipq_tiles --------------------------------------------------- */

/* glibc's rand() after srand(7). */
static struct vflipq_test_rand tiles_rand;

static int rnd(void)
{
	return vflipq_test_rand(&tiles_rand);
}

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
	int runs = rnd() % 3;

	for (int r = 0; r <= runs; r++) {
		unsigned int a = rnd() % nt, b = a + rnd() % (nt - a);

		switch (rnd() % 4) {
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

static void check_size(struct kunit *test, unsigned int w, unsigned int h,
		       unsigned int bpc)
{
	struct vflipq_tiles *t = NULL;
	size_t px = bpc > 8 ? 8 : 4, len = (size_t)w * h * px;
	u8 *frame = kvmalloc(len, GFP_KERNEL);

	VFLIPQ_EXPECT(test, frame);
	if (!frame)
		return;
	for (size_t i = 0; i < len; i++)
		frame[i] = rnd();
	VFLIPQ_EXPECT(test, vflipq_tiles_get(&t, w, h, bpc));
	if (!t) {
		kvfree(frame);
		return;
	}
	VFLIPQ_EXPECT_EQ(test, t->nt, (w + t->tw - 1) / t->tw);
	/* A new cache: every tile dirty, every row folded in full. */
	VFLIPQ_EXPECT_EQ(test, vflipq_tiles_mark(t, 0, true), t->h * t->nt);
	compose(t, frame, px);
	VFLIPQ_EXPECT_EQ(test, vflipq_tiles_frame_hash(t), ref_hash(0, frame, len));
	VFLIPQ_EXPECT_EQ(test, vflipq_tiles_frame_hash(t),
			 vfq_hash_final(vfq_hash_words(0, frame, len / 4)));

	vflipq_tiles_keep(t, 0, true);

	for (int n = 0; n < 40; n++) {
		/* The same layers: nothing dirty but what the frame says. */
		VFLIPQ_EXPECT_EQ(test, vflipq_tiles_mark(t, 0, false), 0);
		for (unsigned int y = 0; y < h; y++) {
			u64 m = rnd() % 3 ? 0 : random_runs(t->nt);

			t->dirty[y] = m;
			for (unsigned int i = 0; i < t->nt; i++) {
				unsigned int a = i * t->tw;
				unsigned int x, b;
				int bit;

				/*
				 * Sometimes a dirty tile comes out the same.
				 * Three draws for the byte to change, in a
				 * fixed order.
				 */
				if (!(m & BIT_ULL(i)) || !(rnd() % 4))
					continue;
				bit = 1 + rnd() % 255;
				x = rnd() % (t->tw < w - a ? t->tw : w - a);
				b = rnd() % px;
				frame[(y * w + a + x) * px + b] ^= bit;
			}
		}
		compose(t, frame, px);
		VFLIPQ_EXPECT_EQ(test, vflipq_tiles_frame_hash(t),
				 ref_hash(0, frame, len));
	}
	vflipq_tiles_free(t);
	kvfree(frame);
}

static void vflipq_tiles_test_dirty_runs(struct kunit *test)
{
	vflipq_test_srand(&tiles_rand, 7);
	check_size(test, 1920, 9, 8);	/* 30 whole tiles of 64 */
	check_size(test, 1000, 7, 8);	/* 15 tiles and one of 40 */
	check_size(test, 1000, 5, 16);
	check_size(test, 4100, 3, 8);	/* 64 tiles of 65, the last of 5 */
	check_size(test, 64, 4, 8);	/* one tile */
	check_size(test, 100, 4, 16);	/* two: the last of 36 */
	check_size(test, 65, 3, 8);	/* two: the last of 1 */
	/*
	 * Random widths: whole tiles or not, odd words a tile or not (bits
	 * per channel drawn first, then height, then width).
	 */
	for (int i = 0; i < 12; i++) {
		unsigned int bpc = rnd() % 2 ? 8 : 16;
		unsigned int h = 1 + rnd() % 5;
		unsigned int w = 1 + rnd() % 4200;

		check_size(test, w, h, bpc);
	}
}

static struct kunit_case vflipq_tiles_test_cases[] = {
	KUNIT_CASE(vflipq_tiles_test_dirty_runs),
	{}
};

struct kunit_suite vflipq_tiles_test_suite = {
	.name = "vflipq_tiles",
	.init = vflipq_test_init,
	.exit = vflipq_test_exit,
	.test_cases = vflipq_tiles_test_cases,
};
