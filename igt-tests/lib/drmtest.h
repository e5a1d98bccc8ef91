/* SPDX-License-Identifier: MIT */
/* Subset of igt-gpu-tools' lib/drmtest.h used by the vflipq tests. */
#ifndef DRMTEST_H
#define DRMTEST_H

#include <errno.h>
#include <xf86drm.h>

#include "igt_core.h"
#include "ioctl_wrappers.h"

/*
 * do_ioctl: the ioctl must succeed (else the subtest fails).
 * do_ioctl_err: the ioctl must fail with errno @err.
 */
#define do_ioctl(fd, ioc, ioc_data) do { \
	igt_assert_eq(igt_ioctl((fd), (ioc), (ioc_data)), 0); \
	errno = 0; \
} while (0)

#define do_ioctl_err(fd, ioc, ioc_data, err) do { \
	igt_assert_eq(igt_ioctl((fd), (ioc), (ioc_data)), -1); \
	igt_assert_eq(errno, err); \
	errno = 0; \
} while (0)

#endif /* DRMTEST_H */
