// SPDX-License-Identifier: GPL-2.0-only
/*
 * The frame hash behind the driver's CRC entries (vflipq_hash.h,
 * vflipq_hash.c) against userspace's independent implementation
 * (userspace/common/vflipq_hash.h) and against plain modular arithmetic
 * (ref_hash.h), bit for bit: the folded products with and without 128-bit
 * integers, the two-word and one-word steps from any state the composer
 * can hold, streams of random words cut at random places and joined with
 * the powers of K, and the 32 bits a CRC entry reports.
 */
#include <stdlib.h>

#include "crc_portable.h"
#include "ref_hash.h"
#include "unit.h"
#include "vflipq_hash.h"
#include "../../userspace/common/vflipq_hash.h"

#ifndef CONFIG_ARCH_SUPPORTS_INT128
#error "crc_test builds the driver's 128-bit path: meson.build defines it"
#endif

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static u64 rng = 0x9e3779b97f4a7c15ULL;

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

static void test_constants(void)
{
	CHECK_EQ(VFLIPQ_HASH_P, VFQ_HASH_P);
	CHECK_EQ(VFLIPQ_HASH_P, REF_HASH_P);
	CHECK_EQ(VFLIPQ_HASH_K, VFQ_HASH_K);
	CHECK_EQ(VFLIPQ_HASH_K, REF_HASH_K);
	CHECK_EQ(VFLIPQ_HASH_K2, VFQ_HASH_K2);
	CHECK_EQ(VFLIPQ_HASH_K2, ref_mulmod(REF_HASH_K, REF_HASH_K));
}

/*
 * A folded product: the same bits with and without 128-bit integers and
 * in userspace, congruent to the exact product, within its bound.
 */
static void test_mulfold(void)
{
	for (int i = 0; i < 200000; i++) {
		u64 a = rnd_below(63), b = rnd_below(61);
		u32 x = rnd_below(32);
		u64 f = vflipq_hash_mulfold(a, b);
		u64 f32 = vflipq_hash_mulfold32(x, b);

		CHECK_EQ(f, portable_mulfold(a, b));
		CHECK_EQ(f, vfq_hash_fold61((unsigned __int128)a * b));
		CHECK_EQ(f % REF_HASH_P, ref_mulmod(a, b));
		CHECK(f < (1ULL << 61) + (1ULL << 63));
		CHECK_EQ(f32, portable_mulfold32(x, b));
		CHECK_EQ(f32, vflipq_hash_mulfold(x, b));
		CHECK_EQ(vflipq_hash_mulmod(a, b), vfq_hash_mulmod(a, b));
		CHECK(vflipq_hash_mulmod(a, b) < (1ULL << 61) + 8);
		CHECK_EQ(vflipq_hash_final(a), vfq_hash_final(a));
		CHECK_EQ(vflipq_hash_final(a), a % REF_HASH_P);
	}
}

/* One step from any state below 2^63 (the composer's stay below 2^62). */
static void test_steps(void)
{
	for (int i = 0; i < 200000; i++) {
		u64 h = rnd_below(63), s2, s1;
		u32 w[2] = { rnd_below(32), rnd_below(32) };

		s2 = vflipq_hash_step2(h, w[0], w[1]);
		s1 = vflipq_hash_step1(h, w[0]);
		CHECK_EQ(s2, portable_step2(h, w[0], w[1]));
		CHECK_EQ(s1, portable_step1(h, w[0]));
		CHECK_EQ(s2, vfq_hash_words(h, w, 2));
		CHECK_EQ(s1, vfq_hash_words(h, w, 1));
		CHECK_EQ(vflipq_hash_final(s2), ref_hash(h, w, 8));
		CHECK_EQ(vflipq_hash_final(s1), ref_hash(h, w, 4));
		CHECK(s2 < (1ULL << 61) + 8);
		CHECK(s1 < (1ULL << 61) + (1ULL << 33));
	}
}

/*
 * Streams of random words (the largest ones too) from random states:
 * the driver's stepping, userspace's and the exact sum agree.
 */
static void test_streams(void)
{
	static u32 w[5000];

	for (int t = 0; t < 300; t++) {
		size_t n = t < 17 ? (size_t)t : rnd64() % ARRAY_SIZE(w);
		u64 h = t & 1 ? rnd_below(62) : 0;
		u64 got;

		for (size_t i = 0; i < n; i++)
			w[i] = t % 5 == 4 ? ~0U : rnd_below(32);
		got = drv_words(h, w, n);
		CHECK_EQ(got, vfq_hash_words(h, w, n));
		CHECK_EQ(vflipq_hash_final(got), ref_hash(h, w, 4 * n));
		CHECK_EQ(vflipq_hash_fold(vflipq_hash_final(got)),
			 ref_hash_fold(ref_hash(h, w, 4 * n)));
	}
}

/* Userspace's known values (userspace/tests/hash_test.c). */
static void test_known(void)
{
	u8 bytes[64];
	u64 h;

	for (int i = 0; i < 64; i++)
		bytes[i] = i;
	h = vflipq_hash_final(drv_words(0, (const u32 *)bytes, 16));
	CHECK_EQ(h, 0x1b1489b6a011160bULL);
	CHECK_EQ(vflipq_hash_fold(h), 0xbb059fbd);
	CHECK_EQ(vflipq_hash_pow(1000000), 0x0bcd293fbd72c821ULL);
	CHECK_EQ(vflipq_hash_pow(0), 1);
	CHECK_EQ(vflipq_hash_pow(1), VFLIPQ_HASH_K);
}

/* K^n: by squaring, one multiply at a time, and userspace's. */
static void test_pow(void)
{
	static const u64 lens[] = {
		2, 3, 7, 8, 64, 65, 128, 255, 256, 257, 1000, 1023, 1920,
		3840, 2 * 1920 * 1080, 4096 * 2160, 123457,
	};
	u64 r = 1;

	for (u64 n = 0; n < 3000; n++) {
		CHECK_EQ(vflipq_hash_pow(n), r);
		r = ref_mulmod(r, REF_HASH_K);
	}
	for (size_t i = 0; i < ARRAY_SIZE(lens); i++) {
		CHECK_EQ(vflipq_hash_pow(lens[i]), vfq_hash_pow(lens[i]));
		CHECK_EQ(vflipq_hash_pow(lens[i]), ref_pow(lens[i]));
	}
	for (int i = 0; i < 200; i++) {
		u64 n = rnd64() >> (rnd64() % 64);

		CHECK_EQ(vflipq_hash_pow(n), vfq_hash_pow(n));
		CHECK(vflipq_hash_pow(n) < REF_HASH_P);
	}
}

/*
 * A stream cut at random places into pieces, each hashed from 0 and
 * joined by vflipq_hash_cat(): the hash of the whole stream.
 */
static void test_cat(void)
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
			CHECK_EQ(h, vfq_hash_cat(vfq_hash_final(vfq_hash_words(0, w, a)),
						 piece, vfq_hash_pow(k)));
			a += k;
		}
		CHECK_EQ(h, ref_hash(0, w, 4 * n));
		CHECK_EQ(h, vfq_hash_final(vfq_hash_words(0, w, n)));
	}
}

int main(int argc, char **argv)
{
	static const struct unit_test tests[] = {
		{ "constants", test_constants },
		{ "mulfold", test_mulfold },
		{ "steps", test_steps },
		{ "streams", test_streams },
		{ "known", test_known },
		{ "pow", test_pow },
		{ "cat", test_cat },
	};

	return unit_run("crc", tests, ARRAY_SIZE(tests), argc, argv);
}
