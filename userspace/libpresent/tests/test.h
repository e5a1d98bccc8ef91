/* SPDX-License-Identifier: MIT */
/* Minimal host test harness: CHECK() counts; test_done() prints the
 * "name: N passed, M failed" line scripts/host-tests.sh adds up. */
#ifndef PRESENT_TEST_H
#define PRESENT_TEST_H
#include <stdio.h>

static int test_passed, test_failed;

#define CHECK(cond, ...) do { \
	if (cond) { test_passed++; } else { test_failed++; \
		fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
		fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } \
} while (0)

static inline int test_done(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, test_passed, test_failed);
	return test_failed ? 1 : 0;
}
#endif
