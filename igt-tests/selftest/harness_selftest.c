// SPDX-License-Identifier: MIT
/*
 * Self-test of the IGT harness the tests link (upstream libigt): subtests
 * that pass, fail, skip, time out, abort and crash on purpose.
 * run-selftest.sh runs them one by one and checks the exit codes, listing
 * and result lines that scripts/guest/run-tests relies on.  Host only,
 * never run in the VM.
 */
#include <signal.h>
#include <sys/ioctl.h>

#include "igt.h"

IGT_TEST_DESCRIPTION("Deliberate results to check the IGT harness itself");

static int fixture_runs;
static int after_failure_reached;

static void exit_handler(int sig)
{
	printf("exit-handler-ran sig=%d\n", sig);
	fflush(stdout);
}

igt_main
{
	igt_fixture {
		fixture_runs++;
		igt_info("fixture-ran\n");
	}

	igt_describe("every passing assertion form");
	igt_subtest("pass") {
		struct timespec ts = {};

		igt_assert(fixture_runs == 1);
		igt_assert_f(1 + 1 == 2, "math\n");
		igt_assert_eq(3, 3);
		igt_assert_neq(3, 4);
		igt_assert_lte(3, 3);
		igt_assert_lt(2, 3);
		igt_assert_eq_u32(0xffffffffu, 0xffffffffu);
		igt_assert_eq_u64(1ull << 40, 1ull << 40);
		igt_require(true);
		igt_require_f(true, "never printed\n");
		igt_skip_on(false);
		igt_assert_eq(strcmp(igt_subtest_name(), "pass"), 0);
		igt_assert(igt_nsec_elapsed(&ts) == 0);
		igt_info("info-in-pass\n");
		igt_debug("debug-in-pass\n");
	}

	igt_subtest("pass-ioctl") {
		struct drm_version v = {};

		/* EBADF from an ioctl on an invalid fd */
		do_ioctl_err(-1, DRM_IOCTL_VERSION, &v, EBADF);
		igt_assert_eq(errno, 0);
	}

	igt_subtest_f("pass-format-%d", 7) {
		igt_assert_eq(strcmp(igt_subtest_name(), "pass-format-7"), 0);
	}

	igt_subtest("pass-until-timeout") {
		int loops = 0;
		struct timespec start, end;

		igt_gettime(&start);
		igt_until_timeout(1) {
			loops++;
			usleep(10000);
		}
		igt_gettime(&end);
		igt_assert_lt(10, loops);
		igt_assert(igt_time_elapsed(&start, &end) >= 0.9);
		igt_assert(igt_time_elapsed(&start, &end) < 3.0);
	}

	igt_subtest("fail-assert") {
		igt_debug("debug-dumped-on-failure\n");
		igt_assert(fixture_runs == 42);
		after_failure_reached = 1;
	}
	igt_subtest("fail-assert-f")
		igt_assert_f(false, "deliberate %s\n", "failure");
	igt_subtest("fail-assert-eq")
		igt_assert_eq(1, 2);
	igt_subtest("fail-assert-neq")
		igt_assert_neq(2, 2);
	igt_subtest("fail-assert-lte")
		igt_assert_lte(3, 2);
	igt_subtest("fail-assert-lt")
		igt_assert_lt(2, 2);
	igt_subtest("fail-assert-eq-u32")
		igt_assert_eq_u32(1u, 0x80000001u);
	igt_subtest("fail-assert-eq-u64")
		igt_assert_eq_u64(1ull << 40, 1ull << 41);
	igt_subtest("fail-igt-fail")
		igt_fail(IGT_EXIT_FAILURE);
	igt_subtest("fail-do-ioctl") {
		struct drm_version v = {};

		do_ioctl(-1, DRM_IOCTL_VERSION, &v);
	}
	igt_subtest("fail-do-ioctl-err") {
		struct drm_version v = {};

		do_ioctl_err(-1, DRM_IOCTL_VERSION, &v, EINVAL);
	}

	igt_subtest("pass-after-fail")
		igt_assert_eq(after_failure_reached, 0);

	igt_subtest("skip-require")
		igt_require(fixture_runs == 42);
	igt_subtest("skip-require-f")
		igt_require_f(false, "deliberate skip\n");
	igt_subtest("skip-skip-on")
		igt_skip_on(true);
	igt_subtest("skip-igt-skip")
		igt_skip("deliberate skip %d\n", 1);

	igt_subtest("timeout") {
		igt_set_timeout(1, "deliberate hang");
		sleep(10);
	}

	igt_subtest("abort")
		igt_abort_on_f(fixture_runs == 1, "deliberate abort\n");

	igt_subtest("crash") {
		igt_install_exit_handler(exit_handler);
		raise(SIGSEGV);
	}

	igt_subtest("exit-handler")
		igt_install_exit_handler(exit_handler);

	igt_subtest_group {
		igt_fixture
			igt_require_f(false, "deliberate fixture skip\n");
		igt_subtest("skipped-by-fixture")
			igt_assert(!"must not run");
	}

	igt_subtest_group {
		/* only on request: a failing fixture fails the whole run */
		igt_fixture
			igt_assert_f(!getenv("SELFTEST_FIXTURE_FAIL"),
				     "deliberate fixture failure\n");
		igt_subtest("failed-by-fixture")
			igt_info("ran-without-fixture-failure\n");
		igt_subtest("failed-by-fixture-2")
			igt_info("ran-without-fixture-failure\n");
	}

	igt_subtest("pass-after-groups")
		igt_assert_eq(fixture_runs, 1);
}
