/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * KUnit as a module of a kernel built without CONFIG_KUNIT
 * (scripts/kunit-module.sh): kbuild includes this header first in every
 * object of kunit.ko, of vflipq_test.ko and of the vflipq.ko that goes
 * with them (-include, before any other header of the object).
 *
 * With CONFIG_KUNIT the kernel lays out struct module (kunit_suites, the
 * suites a module registers) and struct task_struct (kunit_test, the test
 * a task runs) with members that a kernel without it does not have: both
 * structures are laid out here first, as the running kernel has them, and
 * only then does CONFIG_KUNIT_MODULE turn KUnit's own headers on.  KUnit's
 * sources are built with the two members' uses replaced (kunit-module.sh):
 * kunit_ext_get_current() and kunit_ext_set_current() keep the current
 * test, and the suites are registered by the test module itself
 * (__kunit_test_suites_init(), VFLIPQ_KUNIT_EXTERNAL).
 */
#ifndef _VFLIPQ_KUNIT_H_
#define _VFLIPQ_KUNIT_H_

#include <linux/module.h>
#include <linux/sched.h>

/* KUnit's Kconfig, as a kernel with CONFIG_KUNIT=m and defaults has it */
#define CONFIG_KUNIT_MODULE 1
#define CONFIG_KUNIT_DEBUGFS 1
#define CONFIG_KUNIT_DEFAULT_ENABLED 1
#define CONFIG_KUNIT_DEFAULT_TIMEOUT 300
#define CONFIG_KUNIT_DEFAULT_FILTER_GLOB ""
#define CONFIG_KUNIT_DEFAULT_FILTER ""
#define CONFIG_KUNIT_DEFAULT_FILTER_ACTION ""

/* No kunit_suites in struct module: the test module registers its suites. */
#define VFLIPQ_KUNIT_EXTERNAL 1

struct kunit;

/* task_struct::kunit_test of the current task (kunit_ext.c) */
struct kunit *kunit_ext_get_current(void);
void kunit_ext_set_current(struct kunit *test);

/*
 * The series' <kunit/test-bug.h> with those uses replaced, when it has any
 * (else empty): its include guard keeps the kernel's own out.
 */
#include "kunit_test_bug.h"

#endif /* _VFLIPQ_KUNIT_H_ */
