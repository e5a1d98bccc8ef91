// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>

#include "unit.h"

int unit_failed_checks;

int unit_run(const char *suite, const struct unit_test *tests, int n,
	     int argc, char **argv)
{
	int passed = 0, failed = 0, i;

	for (i = 0; i < n; i++) {
		int before = unit_failed_checks;

		if (argc > 1 && strcmp(argv[1], tests[i].name))
			continue;
		tests[i].fn();
		if (unit_failed_checks == before) {
			printf("PASS %s@%s\n", suite, tests[i].name);
			passed++;
		} else {
			printf("FAIL %s@%s\n", suite, tests[i].name);
			failed++;
		}
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
