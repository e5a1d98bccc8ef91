// SPDX-License-Identifier: MIT
/*
 * vflipq-bench SUBCOMMAND [options]: one benchmark per call, results as
 * "BENCH {json}" lines on stdout, raw samples in --data DIR (default .).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "bench.h"
#include "vflipq_hash.h"

/* crc_tab[k][v]: the CRC of byte v followed by k zero bytes. */
static uint32_t crc_tab[16][256];

static void crc32_init(void)
{
	for (unsigned int i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int bit = 0; bit < 8; bit++)
			c = c & 1 ? (c >> 1) ^ 0xedb88320 : c >> 1;
		crc_tab[0][i] = c;
	}
	for (int k = 1; k < 16; k++)
		for (unsigned int i = 0; i < 256; i++)
			crc_tab[k][i] = (crc_tab[k - 1][i] >> 8) ^
					crc_tab[0][crc_tab[k - 1][i] & 0xff];
}

/* One table lookup per byte of @w, its bytes @k + 3 ... @k from a step's end. */
#define CRC_WORD(w, k)						\
	(crc_tab[(k) + 3][(w) & 0xff] ^ crc_tab[(k) + 2][(w) >> 8 & 0xff] ^ \
	 crc_tab[(k) + 1][(w) >> 16 & 0xff] ^ crc_tab[k][(w) >> 24])

/*
 * crc32_le(@c, @p, @n) for @n a multiple of 16, slice by 16, written out
 * as the composer's is (under TCG a loop over the table index costs more
 * than the lookups).
 */
static uint32_t crc32_slice16(uint32_t c, const uint8_t *p, size_t n)
{
	if (!crc_tab[0][1])
		crc32_init();
	for (; n >= 16; n -= 16, p += 16) {
		uint32_t w[4];

		memcpy(w, p, sizeof(w));
		w[0] ^= c;
		c = CRC_WORD(w[0], 12) ^ CRC_WORD(w[1], 8) ^
		    CRC_WORD(w[2], 4) ^ CRC_WORD(w[3], 0);
	}
	return c;
}

/*
 * memcpy bandwidth of the machine: bytes copied per second (64 MiB); and
 * the rate of the CRC the composer computes.
 */
int bench_memcpy(int argc, char **argv)
{
	const size_t size = 64u << 20;
	int reps = 5;
	double runs[16];
	char *a, *b;

	if (argc > 1)
		reps = atoi(argv[1]);
	if (reps < 1 || reps > 16)
		die("memcpy: reps 1-16");
	a = malloc(size);
	b = malloc(size);
	if (!a || !b)
		die("out of memory");
	memset(a, 1, size);
	memset(b, 2, size);
	memcpy(b, a, size);	/* warm */
	for (int i = 0; i < reps; i++) {
		uint64_t t0 = now_ns();

		memcpy(i & 1 ? a : b, i & 1 ? b : a, size);
		runs[i] = size / ((now_ns() - t0) / 1e9) / 1e6;
	}
	emit("memcpy_bandwidth", "guest", "MB/s", "higher", runs, reps,
	     "\"bytes\": 67108864");
	/*
	 * A table-driven CRC for comparison (crc32_le()'s reflected
	 * polynomial, no inversion, one table lookup a byte, 16 bytes a
	 * step) over 16 MiB.
	 */
	for (int i = 0; i < reps; i++) {
		uint64_t t0 = now_ns();
		uint32_t c = crc32_slice16(0, (const uint8_t *)a, 16u << 20);

		runs[i] = (16u << 20) / ((now_ns() - t0) / 1e9) / 1e6;
		/* Keeps the loop: its result goes somewhere. */
		a[i] = (char)c;
	}
	emit("crc32_bandwidth", "guest", "MB/s", "higher", runs, reps,
	     "\"bytes\": 16777216");
	/*
	 * The frame hash every composition computes, alone
	 * (common/vflipq_hash.h, the driver's arithmetic): a polynomial mod
	 * 2^61 - 1, one multiply a 32-bit word, on the same bytes, without
	 * the pixels' reads and conversions.  The composer cannot be faster
	 * than this on the bytes it feeds the hash (bench.md's composer
	 * lines).
	 */
	for (int i = 0; i < reps; i++) {
		uint64_t t0 = now_ns();
		uint64_t h = vfq_hash_words(0, a, (16u << 20) / 4);

		runs[i] = (16u << 20) / ((now_ns() - t0) / 1e9) / 1e6;
		a[i] = (char)vfq_hash_fold(vfq_hash_final(h));
	}
	emit("frame_hash_bandwidth", "guest", "MB/s", "higher", runs, reps,
	     "\"bytes\": 16777216");
	free(a);
	free(b);
	return 0;
}

static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *help;
} cmds[] = {
	{ "memcpy", bench_memcpy, "[reps]" },
	{ "composer", bench_composer,
	  "--driver D --scene primary|overlays|fp16 [--hz 60 --seconds 3 --reps 3]" },
	{ "damage", bench_damage, "[--frames 120 --reps 3]" },
	{ "latency", bench_latency, "--driver D [--flips 200 --reps 3]" },
	{ "flipq-events", bench_flipq_events, "[--frames 120 --reps 3]" },
	{ "flipq-ontime", bench_flipq_ontime, "[--flips 3600]" },
	{ "submit-cost", bench_submit_cost, "[--count 200 --reps 3]" },
	{ "memory", bench_memory, "--driver D [--name N] [--crtcs 4 --reps 3]" },
	{ "idle", bench_idle,
	  "--names A,B,... | --driver vkms [--seconds 3 --reps 3 --batch 4 "
	  "--steps 0,32 --single-submits | --irq-ioctl | --one-wake]" },
	{ "caso", bench_caso,
	  "[--render N --display N --presents 150 --rate 30 --reps 3]" },
};

static void usage(void)
{
	fprintf(stderr, "usage: vflipq-bench [--data DIR] COMMAND [options]\n");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(stderr, "  %s %s\n", cmds[i].name, cmds[i].help);
	exit(2);
}

int main(int argc, char **argv)
{
	int i = 1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (i + 1 < argc && !strcmp(argv[i], "--data")) {
		bench_data_dir = argv[i + 1];
		i += 2;
	}
	if (i >= argc)
		usage();
	for (size_t k = 0; k < sizeof(cmds) / sizeof(cmds[0]); k++)
		if (!strcmp(argv[i], cmds[k].name))
			return cmds[k].fn(argc - i, argv + i);
	usage();
	return 2;
}
