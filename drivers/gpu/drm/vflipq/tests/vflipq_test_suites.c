// SPDX-License-Identifier: GPL-2.0-only
/*
 * The suites of vflipq_test.ko, registered in one place.
 *
 * In a kernel with KUnit, kunit_test_suites() puts them in the module's
 * .kunit_test_suites section, which the module loader hands to KUnit.  A
 * kernel built without CONFIG_KUNIT has no such member in struct module,
 * and runs them through kunit.ko built as a module of its own
 * (VFLIPQ_KUNIT_EXTERNAL, scripts/kunit-module.sh): the module's init
 * runs the suites with __kunit_test_suites_init() and its exit removes
 * them, as KUnit's module notifier does.
 */
#include <kunit/test.h>
#include <linux/module.h>

#include "vflipq_test.h"

#ifdef VFLIPQ_KUNIT_EXTERNAL
static struct kunit_suite *vflipq_test_suites[] = {
	&vflipq_config_test_suite,
	&vflipq_formats_test_suite,
	&vflipq_fq_core_test_suite,
	&vflipq_hash_test_suite,
	&vflipq_tiles_test_suite,
};

static int __init vflipq_test_module_init(void)
{
	/*
	 * Later than 6.12 (7.2 has it) comes a third argument, run_tests:
	 * false sets the suites up without running them (the "list" action).
	 */
#ifdef VFLIPQ_HAVE_KUNIT_INIT_RUN_TESTS
	return __kunit_test_suites_init(vflipq_test_suites,
					ARRAY_SIZE(vflipq_test_suites), true);
#else
	return __kunit_test_suites_init(vflipq_test_suites,
					ARRAY_SIZE(vflipq_test_suites));
#endif
}
module_init(vflipq_test_module_init);

static void __exit vflipq_test_module_exit(void)
{
	__kunit_test_suites_exit(vflipq_test_suites,
				 ARRAY_SIZE(vflipq_test_suites));
}
module_exit(vflipq_test_module_exit);
#else
kunit_test_suites(&vflipq_config_test_suite, &vflipq_formats_test_suite,
		  &vflipq_fq_core_test_suite, &vflipq_hash_test_suite,
		  &vflipq_tiles_test_suite);
#endif

/*
 * The driver exports what the suites call in this namespace
 * (EXPORT_SYMBOL_IF_KUNIT(), ../vflipq_compat.h).  MODULE_IMPORT_NS()
 * takes a string from 6.13 on and a bare name before; the modinfo entry
 * both make is spelled out here.
 */
MODULE_INFO(import_ns, "EXPORTED_FOR_KUNIT_TESTING");
MODULE_DESCRIPTION("KUnit tests of vflipq's DRM-free parts");
MODULE_LICENSE("GPL");
