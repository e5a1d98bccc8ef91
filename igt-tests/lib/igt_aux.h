/* SPDX-License-Identifier: MIT */
/* Subset of igt-gpu-tools' lib/igt_aux.h used by the vflipq tests. */
#ifndef IGT_AUX_H
#define IGT_AUX_H

#include "igt_core.h"

/*
 * igt_until_timeout: run the following block repeatedly until @timeout
 * seconds have elapsed (at least once).
 */
#define igt_until_timeout(timeout) \
	for (struct timespec t__ = {}; igt_seconds_elapsed(&t__) < (timeout); )

#endif /* IGT_AUX_H */
