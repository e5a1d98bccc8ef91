/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the KUnit suites of vflipq share: checks that report the first few
 * failures of a case in full and count the rest, and the pseudo-random
 * sequence the suites draw their inputs from, the same on every kernel.
 */
#ifndef _VFLIPQ_TEST_H_
#define _VFLIPQ_TEST_H_

#include <kunit/test.h>
#include <linux/module.h>
#include <linux/types.h>

/* The suites of vflipq_test.ko (vflipq_test_suites.c registers them). */
extern struct kunit_suite vflipq_config_test_suite;
extern struct kunit_suite vflipq_formats_test_suite;
extern struct kunit_suite vflipq_fq_core_test_suite;
extern struct kunit_suite vflipq_hash_test_suite;
extern struct kunit_suite vflipq_tiles_test_suite;

/*
 * The arguments of a parameter generator (struct kunit_case's
 * generate_params): later kernels than 6.12 (7.2 has it) pass the test
 * first (VFLIPQ_HAVE_KUNIT_GEN_PARAMS_TEST, probed in Makefile).
 */
#ifdef VFLIPQ_HAVE_KUNIT_GEN_PARAMS_TEST
#define VFLIPQ_TEST_GEN_PARAMS_ARGS struct kunit *test, const void *prev, char *desc
#else
#define VFLIPQ_TEST_GEN_PARAMS_ARGS const void *prev, char *desc
#endif

/*
 * Most cases run one check over every value of a channel or every pixel
 * of a row: a broken conversion fails thousands of them.  The first
 * VFLIPQ_TEST_REPORTS failed checks of a case are reported (the first one
 * fails the case), the rest only counted (vflipq_test_exit() gives the
 * count), so that a red run stays readable.  Few: UML's console drops
 * what it cannot write at once, and a burst of reports over 40 parameters
 * lost the odd result line.
 */
#define VFLIPQ_TEST_REPORTS	5

struct vflipq_test_checks {
	unsigned int failed;
};

static struct vflipq_test_checks vflipq_test_checks;

static inline bool vflipq_test_report(void)
{
	return vflipq_test_checks.failed++ < VFLIPQ_TEST_REPORTS;
}

/* Every case of every suite starts with no failed check... */
static inline int vflipq_test_init(struct kunit *test)
{
	vflipq_test_checks.failed = 0;
	return 0;
}

/* ... and ends saying how many it did not report. */
static inline void vflipq_test_exit(struct kunit *test)
{
	if (vflipq_test_checks.failed > VFLIPQ_TEST_REPORTS)
		kunit_err(test, "%u more failed checks not reported\n",
			  vflipq_test_checks.failed - VFLIPQ_TEST_REPORTS);
}

/* @cond holds. */
#define VFLIPQ_EXPECT(test, cond) do {					\
	if (!(cond) && vflipq_test_report())				\
		KUNIT_FAIL(test, "check failed: %s", #cond);		\
} while (0)

/* @a and @b are equal as 64-bit integers. */
#define VFLIPQ_EXPECT_EQ(test, a, b) do {				\
	unsigned long long __a = (unsigned long long)(a);		\
	unsigned long long __b = (unsigned long long)(b);		\
									\
	if (__a != __b && vflipq_test_report())				\
		KUNIT_FAIL(test, "%s == %s failed: %llu != %llu",	\
			   #a, #b, __a, __b);				\
} while (0)

/*
 * glibc's rand() after srand(@seed) (its TYPE_3 additive generator,
 * x[i] = x[i - 3] + x[i - 31] mod 2^32, output x[i] >> 1): the sequence the
 * flip-queue and tile suites draw from.
 */
struct vflipq_test_rand {
	u32 x[31];
	unsigned int f, r;
};

static inline int vflipq_test_rand(struct vflipq_test_rand *g)
{
	u32 v = g->x[g->f] += g->x[g->r];

	g->f = g->f == 30 ? 0 : g->f + 1;
	g->r = g->r == 30 ? 0 : g->r + 1;
	return v >> 1;
}

static inline void vflipq_test_srand(struct vflipq_test_rand *g, u32 seed)
{
	s32 w = seed ? seed : 1;
	unsigned int i;

	g->x[0] = w;
	for (i = 1; i < 31; i++) {
		/* 16807 w mod (2^31 - 1), Schrage's way, as glibc does it */
		s32 hi = w / 127773, lo = w % 127773;

		w = 16807 * lo - 2836 * hi;
		if (w < 0)
			w += 2147483647;
		g->x[i] = w;
	}
	g->f = 3;
	g->r = 0;
	for (i = 0; i < 310; i++)
		vflipq_test_rand(g);
}

#endif /* _VFLIPQ_TEST_H_ */
