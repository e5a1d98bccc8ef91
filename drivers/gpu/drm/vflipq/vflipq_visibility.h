/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * VISIBLE_IF_KUNIT and EXPORT_SYMBOL_IF_KUNIT() for the DRM-free parts of
 * the driver (the flip-queue core, the formats, the frame hash and its
 * tiles, the configuration checks), whose KUnit suites (tests/) call them
 * from another module, vflipq_test.ko.  Without CONFIG_KUNIT both leave
 * the driver as it was: nothing exported, static stays static.
 *
 * In the kernel they come from vflipq_compat.h (<kunit/visibility.h>
 * appeared in 6.2).  These files are also built on the host by the unit
 * tests of tests/unit, against shim headers that have neither DRM nor
 * <linux/export.h>: there (no __KERNEL__) both are empty.
 */
#ifndef _VFLIPQ_VISIBILITY_H_
#define _VFLIPQ_VISIBILITY_H_

#ifdef __KERNEL__
#include "vflipq_compat.h"
#else
#define VISIBLE_IF_KUNIT
/* the host unit tests link these files as they are: nothing to export */
#define EXPORT_SYMBOL_IF_KUNIT(...)
#endif

#endif /* _VFLIPQ_VISIBILITY_H_ */
