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

/* memcpy bandwidth of the machine: bytes copied per second (64 MiB). */
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
