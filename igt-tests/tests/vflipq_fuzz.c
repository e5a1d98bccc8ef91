// SPDX-License-Identifier: MIT
/*
 * A short, fixed-seed pass of the ioctl fuzzer (userspace/fuzz, installed
 * in the VM as /usr/bin/vflipq-fuzz), so that "make check" runs it: the
 * fuzzer must complete, find no uAPI anomaly and pass its smoke test; the
 * kernel log must stay clean (the test runner checks that).
 *
 * Env: VFLIPQ_FUZZ (the binary), VFLIPQ_FUZZ_SEED (default 1),
 * VFLIPQ_FUZZ_ITER (calls, default 20000); in the VM through the kernel
 * command line (VM_APPEND='VFLIPQ_FUZZ_SEED=7').  "make fuzz ITER=N SEED=S"
 * runs longer passes on its own.
 */
/**
 * TEST: vflipq fuzz
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: uapi
 * Functionality: ioctl fuzzing
 * Driver requirement: vflipq
 * Description: A short, fixed-seed pass of the vflipq ioctl fuzzer
 *              (vflipq-fuzz): it must complete, find no uAPI anomaly and pass
 *              its smoke test.
 *
 * SUBTEST: short
 * Description: 20000 fuzzer calls with seed 1, then a smoke test
 */

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "igt.h"
#include "vflipq_helpers.h"

IGT_TEST_DESCRIPTION("A short fixed-seed pass of vflipq-fuzz");

static const char *env_or(const char *name, const char *def)
{
	const char *v = getenv(name);

	return v && *v ? v : def;
}

static void run_fuzzer(const char *seed, const char *iterations)
{
	const char *bin = env_or("VFLIPQ_FUZZ", "/usr/bin/vflipq-fuzz");
	int status;
	pid_t pid;

	igt_require_f(access(bin, X_OK) == 0, "%s: %s\n", bin, strerror(errno));
	igt_info("%s --seed %s --iterations %s\n", bin, seed, iterations);
	fflush(stdout);
	pid = fork();
	igt_assert(pid >= 0);
	if (pid == 0) {
		execl(bin, bin, "--seed", seed, "--iterations", iterations,
		      (char *)NULL);
		_exit(127);
	}
	igt_assert_eq(waitpid(pid, &status, 0), pid);
	igt_assert_f(!WIFSIGNALED(status), "vflipq-fuzz killed by signal %d "
		     "(seed %s)\n", WTERMSIG(status), seed);
	switch (WEXITSTATUS(status)) {
	case 0:
		return;
	case 2:
		igt_assert_f(false, "smoke test failed after the run (seed %s)\n",
			     seed);
		break;
	case 3:
		igt_assert_f(false, "uAPI anomalies (seed %s): see ANOMALY lines\n",
			     seed);
		break;
	default:
		igt_assert_f(false, "vflipq-fuzz exited with %d (seed %s)\n",
			     WEXITSTATUS(status), seed);
	}
}

igt_main
{
	igt_fixture {
		vfq_cfs_cleanup();
	}

	igt_describe("20000 fuzzer calls with seed 1, then a smoke test");
	igt_subtest("short")
		run_fuzzer(env_or("VFLIPQ_FUZZ_SEED", "1"),
			   env_or("VFLIPQ_FUZZ_ITER", "20000"));
}
