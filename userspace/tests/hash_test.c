// SPDX-License-Identifier: MIT
/*
 * The frame hash of common/vflipq_hash.h against values computed with
 * exact integers (Python: h = (h * K + x) % (2**61 - 1)), and its
 * combination law: any split of a stream, hashed in pieces and joined,
 * gives the hash of the whole.
 */
#include <inttypes.h>

#include "../libpresent/tests/test.h"
#include "../common/vflipq_hash.h"

static uint64_t whole(const uint32_t *w, size_t n)
{
	return vfq_hash_final(vfq_hash_words(0, w, n));
}

static uint32_t next(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

int main(void)
{
	static uint32_t w[4096];
	uint32_t ones[1000], seed = 1;
	uint8_t bytes[64];
	uint64_t h;

	for (int i = 0; i < 64; i++)
		bytes[i] = i;
	h = vfq_hash_final(vfq_hash_words(0, bytes, 16));
	CHECK(h == UINT64_C(0x1b1489b6a011160b), "bytes 0..63: %#" PRIx64, h);
	CHECK(vfq_hash_fold(h) == 0xbb059fbd, "fold: %#x", vfq_hash_fold(h));
	/* the largest words: the partly reduced state never overflows */
	for (int i = 0; i < 1000; i++)
		ones[i] = UINT32_MAX;
	h = whole(ones, 1000);
	CHECK(h == UINT64_C(0x1c91c918f8cdffaa), "1000 x ~0: %#" PRIx64, h);
	h = vfq_hash_pow(1000000);
	CHECK(h == UINT64_C(0x0bcd293fbd72c821), "K^1000000: %#" PRIx64, h);
	CHECK(vfq_hash_pow(0) == 1 && vfq_hash_pow(1) == VFQ_HASH_K, "K^0, K^1");
	CHECK(whole(w, 0) == 0, "empty stream");

	for (size_t i = 0; i < 4096; i++)
		w[i] = next(&seed);
	for (int t = 0; t < 200; t++) {
		size_t a = next(&seed) % 4097;
		size_t b = a + next(&seed) % (4097 - a);
		uint64_t ab = vfq_hash_cat(whole(w, a), whole(w + a, b - a),
					   vfq_hash_pow(b - a));

		CHECK(ab == whole(w, b), "[0, %zu) joined at %zu", b, a);
		CHECK(vfq_hash_cat(ab, whole(w + b, 4096 - b),
				   vfq_hash_pow(4096 - b)) == whole(w, 4096),
		      "[0, 4096) joined at %zu and %zu", a, b);
	}
	CHECK(whole(w, 4096) < VFQ_HASH_P, "canonical value");
	/* one changed bit changes the value */
	h = whole(w, 4096);
	w[1234] ^= 1u << 17;
	CHECK(whole(w, 4096) != h, "a flipped bit unseen");
	return test_done("hash");
}
