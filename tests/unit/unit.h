/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Minimal host unit-test harness: a failed check marks the current test
 * failed and the run continues; the summary line is the one CI reads.
 */
#ifndef _VFLIPQ_UNIT_H
#define _VFLIPQ_UNIT_H

#include <stdio.h>

extern int unit_failed_checks;

/* The first UNIT_MAX_REPORTS failed checks are printed, all are counted. */
#define UNIT_MAX_REPORTS 50

#define CHECK(cond) do {						\
	if (!(cond) && unit_failed_checks++ < UNIT_MAX_REPORTS)		\
		fprintf(stderr, "  %s:%d: check failed: %s\n",		\
			__FILE__, __LINE__, #cond);			\
} while (0)

#define CHECK_EQ(a, b) do {						\
	unsigned long long _a = (unsigned long long)(a);		\
	unsigned long long _b = (unsigned long long)(b);		\
	if (_a != _b && unit_failed_checks++ < UNIT_MAX_REPORTS)	\
		fprintf(stderr, "  %s:%d: %s == %s failed: %llu != %llu\n", \
			__FILE__, __LINE__, #a, #b, _a, _b);		\
} while (0)

struct unit_test {
	const char *name;
	void (*fn)(void);
};

int unit_run(const char *suite, const struct unit_test *tests, int n,
	     int argc, char **argv);

#endif
