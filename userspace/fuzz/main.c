// SPDX-License-Identifier: MIT
/*
 * vflipq-fuzz: seeded, bounded ioctl fuzzer for the vflipq driver.
 *
 *   vflipq-fuzz --seed S --iterations N [--verbose] [--progress SECONDS]
 *
 * N bounds the number of calls (ioctls, plus the mmaps, reads, closes and
 * configfs writes around them); operation i draws everything from its own
 * PRNG seeded with (S, i), so a seed always replays the same operations.
 *
 * Opens vflipq the ways a client can (the default device as master and as a
 * second, non-master file, a lessee of the master; a configfs display
 * device of a random CASO tier as master and non-master; the render node
 * and the card node of a configfs render-only device; vgem as a foreign
 * exporter) and runs operations, each a random or structure-aware use of
 * a vflipq ioctl, a KMS or GEM/PRIME ioctl, an mmap, an event read or a
 * configfs write (our own fuzz-* devices only).  Any answer may be an
 * error; the kernel must never crash, and the few uAPI promises that can be
 * checked from the outside (reserved and pad bytes zero on output, the log
 * mapping read-only, event sizes) are checked: a broken one is an
 * "anomaly".  Afterwards the fuzz-* devices are removed and a smoke test
 * must pass: GET_CAPS on the default device, a mode set and a page flip
 * with its event.
 *
 * Exit status: 0 run and smoke test passed; 1 usage or setup error; 2 the
 * smoke test failed; 3 anomalies were seen.  A summary (calls per ioctl,
 * errno histogram) is printed at the end.  The kernel log is the
 * harness's business (make fuzz fails on any splat).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

struct fz_stats fz_stats;
bool fz_verbose;
uint64_t fz_iter;

#define FZ_NAME(n) #n,
const char *const fz_call_names[C_NUM] = { FZ_CALLS(FZ_NAME) };
#undef FZ_NAME

void fz_log(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fflush(stdout);
}

void fz_anomaly(const char *fmt, ...)
{
	va_list ap;

	fz_stats.anomalies++;
	printf("ANOMALY (iteration %" PRIu64 "): ", fz_iter);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static int call_fd = -1;

void fz_count(enum fz_call c, int err)
{
	fz_stats.calls[c]++;
	fz_stats.total++;
	if (err < 0 || err > FZ_MAX_ERRNO)
		err = FZ_MAX_ERRNO;
	fz_stats.err[c][err]++;
	if (fz_verbose)
		printf("  %8" PRIu64 " %-20s fd %-3d %s\n", fz_iter,
		       fz_call_names[c], call_fd, err ? strerror(err) : "ok");
	call_fd = -1;
}

static double call_time[C_NUM];

static double mono_s(void);

int fz_ioctl(enum fz_call c, int fd, unsigned long req, void *arg)
{
	double t = mono_s();
	int ret, err;

	do {
		ret = ioctl(fd, req, arg);
	} while (ret == -1 && errno == EINTR);
	call_time[c] += mono_s() - t;
	err = ret == -1 ? errno : 0;
	call_fd = fd;
	fz_count(c, err);
	errno = err;
	return err ? -err : 0;
}

uint64_t rnd_interesting64(struct rng *r)
{
	static const uint64_t v[] = {
		0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 63, 64, 127, 128, 255, 256,
		4095, 4096, 4097, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff,
		0x80000000, 0xffffffff, 0x100000000ull, 0x7fffffffffffffffull,
		0x8000000000000000ull, ~0ull, ~0ull - 1, 65536, 65537, 8192,
		8193, 16384, 1u << 20, 0xdeadbeef, 0xaaaaaaaaaaaaaaaaull,
	};

	switch (rnd(r, 4)) {
	case 0:
		return rng_u64(r);
	case 1:
		return rnd(r, 64);
	default:
		return v[rnd(r, ARRAY_LEN(v))] +
		       (uint64_t)(chance(r, 1, 4) ? (int64_t)rnd(r, 3) - 1 : 0);
	}
}

uint32_t rnd_interesting32(struct rng *r)
{
	return (uint32_t)rnd_interesting64(r);
}

void rnd_fill(struct rng *r, void *p, size_t len)
{
	uint8_t *b = p;

	for (size_t i = 0; i < len; i++)
		b[i] = chance(r, 1, 3) ? 0 : (uint8_t)rng_u32(r);
}

/* ---- the op table -------------------------------------------------------- */

struct op_ref {
	const struct fz_op *op;
	unsigned int weight;
};

static struct op_ref ops[128];
static unsigned int nops, total_weight;
static uint64_t op_count[128];
static double op_time[128], op_max[128];

static void add_ops(const struct fz_op *t, unsigned int n)
{
	for (unsigned int i = 0; i < n && nops < ARRAY_LEN(ops); i++) {
		ops[nops].op = &t[i];
		ops[nops].weight = t[i].weight;
		total_weight += t[i].weight;
		nops++;
	}
}

static unsigned int pick_op(struct rng *r)
{
	unsigned int x = rnd(r, total_weight);

	for (unsigned int i = 0; i < nops; i++) {
		if (x < ops[i].weight)
			return i;
		x -= ops[i].weight;
	}
	return nops - 1;
}

/* ---- summary ---------------------------------------------------------------- */

static void print_summary(double secs)
{
	uint64_t by_errno[FZ_MAX_ERRNO + 1] = { 0 };

	printf("\nvflipq-fuzz summary: %" PRIu64 " operations, %" PRIu64
	       " calls in %.1f s (%.0f calls/s), "
	       "%" PRIu64 " events (%" PRIu64 " flip-queue), %" PRIu64
	       " mapping faults, %" PRIu64 " anomalies\n",
	       fz_iter, fz_stats.total, secs,
	       secs > 0 ? fz_stats.total / secs : 0.0,
	       fz_stats.events, fz_stats.fq_events, fz_stats.faults,
	       fz_stats.anomalies);
	printf("operations:");
	for (unsigned int i = 0; i < nops; i++)
		printf("%s %s=%" PRIu64, i % 6 ? "" : "\n ", ops[i].op->name,
		       op_count[i]);
	printf("\nslowest operations (total s, mean ms, max ms):");
	for (int n = 0; n < 6; n++) {
		int best = -1;

		for (unsigned int i = 0; i < nops; i++)
			if (op_time[i] >= 0 && (best < 0 || op_time[i] > op_time[best]))
				best = i;
		if (best < 0 || !op_count[best])
			break;
		printf(" %s %.2f/%.3f/%.1f", ops[best].op->name, op_time[best],
		       1000 * op_time[best] / op_count[best], 1000 * op_max[best]);
		op_time[best] = -1;
	}
	printf("\nslowest ioctls (total s):");
	for (int n = 0; n < 6; n++) {
		int best = -1;

		for (int c = 0; c < C_NUM; c++)
			if (call_time[c] > 0 && (best < 0 || call_time[c] > call_time[best]))
				best = c;
		if (best < 0)
			break;
		printf(" %s %.2f", fz_call_names[best], call_time[best]);
		call_time[best] = -1;
	}
	printf("\ncalls per ioctl (ok, then errno: count):\n");
	for (int c = 0; c < C_NUM; c++) {
		if (!fz_stats.calls[c])
			continue;
		printf("  %-20s %9" PRIu64 "  ok %" PRIu64, fz_call_names[c],
		       fz_stats.calls[c], fz_stats.err[c][0]);
		for (int e = 1; e <= FZ_MAX_ERRNO; e++) {
			if (!fz_stats.err[c][e])
				continue;
			by_errno[e] += fz_stats.err[c][e];
			printf(" %s:%" PRIu64,
			       e == FZ_MAX_ERRNO ? "other" : strerrorname_np(e) ?
			       strerrorname_np(e) : "?", fz_stats.err[c][e]);
		}
		by_errno[0] += fz_stats.err[c][0];
		printf("\n");
	}
	printf("errno histogram: ok %" PRIu64, by_errno[0]);
	for (int e = 1; e <= FZ_MAX_ERRNO; e++)
		if (by_errno[e])
			printf(" %s:%" PRIu64, e == FZ_MAX_ERRNO ? "other" :
			       strerrorname_np(e) ? strerrorname_np(e) : "?",
			       by_errno[e]);
	printf("\n");
	fflush(stdout);
}

static void usage(const char *argv0)
{
	fprintf(stderr,
		"usage: %s --seed S --iterations N [--verbose] [--progress SECONDS]\n"
		"  Fuzz the vflipq ioctls (and the KMS/GEM/PRIME ones around them) with\n"
		"  operations drawn from seed S until N calls are made, then run a\n"
		"  smoke test.\n"
		"  exit: 0 ok, 1 usage/setup, 2 smoke test failed, 3 anomalies\n",
		argv0);
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "progress", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t seed = 1, iterations = 10000;
	double progress = 5, t0, last;
	bool have_seed = false, have_iter = false;
	int opt, smoke, rc;
	char *end;

	while ((opt = getopt_long(argc, argv, "s:n:vp:h", lopts, NULL)) != -1) {
		switch (opt) {
		case 's':
			seed = strtoull(optarg, &end, 0);
			if (*end)
				goto bad;
			have_seed = true;
			break;
		case 'n':
			iterations = strtoull(optarg, &end, 0);
			if (*end)
				goto bad;
			have_iter = true;
			break;
		case 'v':
			fz_verbose = true;
			break;
		case 'p':
			progress = strtod(optarg, &end);
			if (*end || progress <= 0)
				goto bad;
			break;
		case 'h':
			usage(argv[0]);
			return 0;
		default:
			goto bad;
		}
	}
	if (optind != argc || !have_seed || !have_iter)
		goto bad;

	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	add_ops(fz_vflipq_ops, fz_num_vflipq_ops);
	add_ops(fz_kms_ops, fz_num_kms_ops);
	add_ops(fz_cfs_ops, fz_num_cfs_ops);

	printf("vflipq-fuzz: seed %" PRIu64 ", %" PRIu64 " calls, %u kinds of "
	       "operation\n", seed, iterations, nops);
	world_init(seed);

	/*
	 * N bounds the calls (ioctls and the other system calls counted in
	 * the summary); operation i always draws from (seed, i).
	 */
	t0 = last = mono_s();
	for (fz_iter = 0; fz_stats.total < iterations &&
	     fz_iter < 2 * iterations + 1000; fz_iter++) {
		struct rng r;
		unsigned int k;
		double now, t;

		/* Each iteration's draws depend on (seed, iteration) only. */
		rng_seed(&r, seed ^ splitmix64(fz_iter + 1));
		k = pick_op(&r);
		op_count[k]++;
		if (fz_verbose)
			printf("%8" PRIu64 " %s\n", fz_iter, ops[k].op->name);
		t = mono_s();
		ops[k].op->fn(&r);
		t = mono_s() - t;
		op_time[k] += t;
		if (t > op_max[k])
			op_max[k] = t;

		if ((fz_iter & 255) == 0 &&
		    (now = mono_s()) - last >= progress) {
			last = now;
			printf("vflipq-fuzz: %" PRIu64 "/%" PRIu64 " calls, operation %"
			       PRIu64 ", %.0f calls/s, %" PRIu64 " anomalies\n",
			       fz_stats.total, iterations, fz_iter,
			       fz_stats.total / (now - t0), fz_stats.anomalies);
		}
	}
	print_summary(mono_s() - t0);

	world_fini();
	smoke = smoke_test();
	rc = smoke ? 2 : fz_stats.anomalies ? 3 : 0;
	printf("vflipq-fuzz: %s: seed %" PRIu64 ", %" PRIu64 " operations, %"
	       PRIu64 " calls, smoke test %s, %" PRIu64 " anomalies\n",
	       rc ? "FAIL" : "PASS", seed, fz_iter, fz_stats.total,
	       smoke ? "FAILED" : "passed", fz_stats.anomalies);
	return rc;

bad:
	usage(argv[0]);
	return 1;
}
