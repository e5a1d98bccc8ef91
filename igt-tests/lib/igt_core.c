// SPDX-License-Identifier: MIT
/*
 * Minimal implementation of the igt-gpu-tools core (subtests, fixtures,
 * results, logging, exit codes) for the vflipq tests.  Behaviour follows
 * IGT's igt_core.c: see igt_core.h.
 */
#include <fnmatch.h>
#include <signal.h>
#include <sys/wait.h>

#include "igt_core.h"

sigjmp_buf igt_subtest_jmpbuf;
enum igt_log_level igt_log_level = IGT_LOG_INFO;

enum { CONT = 0, SKIP, FAIL };

static const char *command_str = "igt";
static bool test_with_subtests;
static bool list_subtests;
static bool describe_subtests;
static char *run_single_subtest;
static bool run_single_subtest_found;
static const char *in_subtest;
static bool in_fixture;
static int skip_subtests_henceforth = CONT;
static bool skipped_one, succeeded_one, failed_one;
static int igt_exitcode = IGT_EXIT_SUCCESS;
static struct timespec subtest_time;
static char current_description[1024];
static const char *timeout_op;
static volatile sig_atomic_t in_exit_handler;

/* ---- log ring buffer: debug messages are dumped when something fails ---- */
#define LOG_RING_SIZE 256
static char *log_ring[LOG_RING_SIZE];
static unsigned int log_ring_start, log_ring_count;

static void log_ring_add(char *line)
{
	unsigned int idx = (log_ring_start + log_ring_count) % LOG_RING_SIZE;

	if (log_ring_count == LOG_RING_SIZE) {
		free(log_ring[log_ring_start]);
		log_ring[log_ring_start] = NULL;
		log_ring_start = (log_ring_start + 1) % LOG_RING_SIZE;
		log_ring_count--;
		idx = (log_ring_start + log_ring_count) % LOG_RING_SIZE;
	}
	log_ring[idx] = line;
	log_ring_count++;
}

static void log_ring_reset(void)
{
	for (unsigned int i = 0; i < LOG_RING_SIZE; i++) {
		free(log_ring[i]);
		log_ring[i] = NULL;
	}
	log_ring_start = log_ring_count = 0;
}

static void log_ring_dump(void)
{
	if (!log_ring_count)
		return;
	fprintf(stderr, "**** DEBUG ****\n");
	for (unsigned int i = 0; i < log_ring_count; i++)
		fputs(log_ring[(log_ring_start + i) % LOG_RING_SIZE], stderr);
	fprintf(stderr, "****  END  ****\n");
	fflush(stderr);
	log_ring_reset();
}

void igt_vlog(const char *domain, enum igt_log_level level,
	      const char *format, va_list args)
{
	static const char *const names[] = {
		[IGT_LOG_DEBUG] = "DEBUG", [IGT_LOG_INFO] = "INFO",
		[IGT_LOG_WARN] = "WARNING", [IGT_LOG_CRITICAL] = "CRITICAL",
		[IGT_LOG_NONE] = "NONE",
	};
	char *msg = NULL, *line = NULL;

	if (list_subtests && level <= IGT_LOG_WARN)
		return;
	if (vasprintf(&msg, format, args) < 0)
		return;
	if (asprintf(&line, "(%s:%d) %s%s%s: %s", command_str, getpid(),
		     domain ? domain : "", domain ? "-" : "", names[level],
		     msg) < 0) {
		free(msg);
		return;
	}

	if (level < igt_log_level) {
		log_ring_add(line);
		free(msg);
		return;
	}
	if (level == IGT_LOG_INFO) {
		fputs(msg, stdout);
		fflush(stdout);
	} else if (level == IGT_LOG_DEBUG) {
		fputs(line, stdout);
		fflush(stdout);
	} else {
		fflush(stdout);
		fputs(line, stderr);
		fflush(stderr);
	}
	free(line);
	free(msg);
}

void igt_log(const char *domain, enum igt_log_level level,
	     const char *format, ...)
{
	va_list args;

	va_start(args, format);
	igt_vlog(domain, level, format, args);
	va_end(args);
}

/* ---- time ---- */
int igt_gettime(struct timespec *ts)
{
	memset(ts, 0, sizeof(*ts));
	if (clock_gettime(CLOCK_MONOTONIC, ts))
		return -errno;
	return 0;
}

double igt_time_elapsed(struct timespec *then, struct timespec *now)
{
	if ((then->tv_sec == 0 && then->tv_nsec == 0) ||
	    (now->tv_sec == 0 && now->tv_nsec == 0))
		return -1.0;
	return (now->tv_sec - then->tv_sec) +
	       1e-9 * (now->tv_nsec - then->tv_nsec);
}

uint64_t igt_nsec_elapsed(struct timespec *start)
{
	struct timespec now;

	igt_gettime(&now);
	if (start->tv_sec == 0 && start->tv_nsec == 0) {
		*start = now;
		return 0;
	}
	return (uint64_t)(now.tv_sec - start->tv_sec) * 1000000000ull +
	       (uint64_t)(now.tv_nsec - start->tv_nsec);
}

/* ---- exit handlers ---- */
#define MAX_EXIT_HANDLERS 16
static igt_exit_handler_t exit_handlers[MAX_EXIT_HANDLERS];
static int exit_handler_count;
static const int handled_signals[] = {
	SIGINT, SIGHUP, SIGTERM, SIGQUIT, SIGPIPE, SIGABRT, SIGSEGV, SIGBUS,
	SIGFPE,
};

static void call_exit_handlers(int sig)
{
	if (in_exit_handler)
		return;
	in_exit_handler = 1;
	for (int i = exit_handler_count - 1; i >= 0; i--)
		exit_handlers[i](sig);
	exit_handler_count = 0;
}

static void igt_atexit_handler(void)
{
	call_exit_handlers(0);
}

static const char *signame(int sig)
{
	switch (sig) {
	case SIGINT: return "SIGINT";
	case SIGHUP: return "SIGHUP";
	case SIGTERM: return "SIGTERM";
	case SIGQUIT: return "SIGQUIT";
	case SIGPIPE: return "SIGPIPE";
	case SIGABRT: return "SIGABRT";
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGFPE: return "SIGFPE";
	default: return "?";
	}
}

static void fatal_sig_handler(int sig)
{
	struct timespec now;

	/* Not strictly async-signal-safe, as in IGT: we are dying anyway. */
	fflush(stdout);
	fprintf(stderr, "Received signal %s.\n", signame(sig));
	if (in_subtest && !in_exit_handler) {
		igt_gettime(&now);
		printf("Subtest %s: CRASH (%.3fs)\n", in_subtest,
		       igt_time_elapsed(&subtest_time, &now));
		fflush(stdout);
	}
	call_exit_handlers(sig);
	signal(sig, SIG_DFL);
	raise(sig);
}

void igt_install_exit_handler(igt_exit_handler_t fn)
{
	static bool installed;

	for (int i = 0; i < exit_handler_count; i++)
		if (exit_handlers[i] == fn)
			return;
	if (exit_handler_count >= MAX_EXIT_HANDLERS) {
		igt_critical("too many exit handlers\n");
		exit(IGT_EXIT_ABORT);
	}
	exit_handlers[exit_handler_count++] = fn;
	if (!installed) {
		installed = true;
		atexit(igt_atexit_handler);
		for (size_t i = 0; i < sizeof(handled_signals) /
					 sizeof(handled_signals[0]); i++)
			signal(handled_signals[i], fatal_sig_handler);
	}
}

/* ---- timeouts ---- */
static void alarm_handler(int sig)
{
	(void)sig;
	igt_info("Timed out: %s\n", timeout_op ? timeout_op : "unknown");
	igt_fail(IGT_EXIT_TIMEOUT);
}

void igt_set_timeout(unsigned int seconds, const char *op)
{
	struct sigaction sa = { .sa_handler = alarm_handler };

	timeout_op = op;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	alarm(seconds);
}

void igt_reset_timeout(void)
{
	alarm(0);
	timeout_op = NULL;
}

/* ---- option parsing ---- */
enum {
	OPT_LIST_SUBTESTS = 500,
	OPT_RUN_SUBTEST,
	OPT_DESCRIBE,
	OPT_DEBUG,
	OPT_HELP = 'h',
};

static void print_usage(const char *help_str, bool quiet)
{
	FILE *f = quiet ? stderr : stdout;

	fprintf(f, "Usage: %s [OPTIONS]\n"
		"  --list-subtests\n"
		"  --run-subtest <pattern>\n"
		"  --describe[=<pattern>]\n"
		"  --debug[=log-domain]\n"
		"  --help|-h\n", command_str);
	if (help_str)
		fprintf(f, "%s\n", help_str);
}

static void print_test_description(void)
{
	if (&__igt_test_description && __igt_test_description)
		printf("%s\n", __igt_test_description);
}

int igt_subtest_init_parse_opts(int *argc, char **argv,
				const char *extra_short_opts,
				const struct option *extra_long_opts,
				const char *help_str,
				igt_opt_handler_t extra_opt_handler,
				void *handler_data)
{
	static const struct option std_opts[] = {
		{ "list-subtests", no_argument, NULL, OPT_LIST_SUBTESTS },
		{ "run-subtest", required_argument, NULL, OPT_RUN_SUBTEST },
		{ "describe", optional_argument, NULL, OPT_DESCRIBE },
		{ "debug", optional_argument, NULL, OPT_DEBUG },
		{ "help", no_argument, NULL, OPT_HELP },
		{ NULL, 0, NULL, 0 },
	};
	struct option *opts;
	char *short_opts;
	int n_extra = 0, c, idx = 0, ret = 0;
	const char *env;

	test_with_subtests = true;
	command_str = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 :
					       argv[0];
	env = getenv("IGT_LOG_LEVEL");
	if (env && !strcmp(env, "debug"))
		igt_log_level = IGT_LOG_DEBUG;

	while (extra_long_opts && extra_long_opts[n_extra].name)
		n_extra++;
	opts = calloc(n_extra + sizeof(std_opts) / sizeof(std_opts[0]),
		      sizeof(*opts));
	if (n_extra)
		memcpy(opts, extra_long_opts, n_extra * sizeof(*opts));
	memcpy(opts + n_extra, std_opts, sizeof(std_opts));
	if (asprintf(&short_opts, "%sh", extra_short_opts ?: "") < 0)
		exit(IGT_EXIT_ABORT);

	while ((c = getopt_long(*argc, argv, short_opts, opts, &idx)) != -1) {
		switch (c) {
		case OPT_LIST_SUBTESTS:
			list_subtests = true;
			break;
		case OPT_RUN_SUBTEST:
			run_single_subtest = strdup(optarg);
			break;
		case OPT_DESCRIBE:
			if (optarg)
				run_single_subtest = strdup(optarg);
			list_subtests = true;
			describe_subtests = true;
			print_test_description();
			break;
		case OPT_DEBUG:
			igt_log_level = IGT_LOG_DEBUG;
			break;
		case OPT_HELP:
			print_usage(help_str, false);
			exit(IGT_EXIT_SUCCESS);
		case '?':
			print_usage(help_str, true);
			exit(IGT_EXIT_INVALID);
		default:
			if (!extra_opt_handler) {
				print_usage(help_str, true);
				exit(IGT_EXIT_INVALID);
			}
			ret = extra_opt_handler(c, idx, handler_data);
			if (ret) {
				print_usage(help_str, true);
				exit(IGT_EXIT_INVALID);
			}
		}
	}
	free(short_opts);
	free(opts);

	if (!list_subtests)
		igt_info("IGT-Version: vflipq-minimal-igt (%s)\n", command_str);

	for (int i = 0; optind + i < *argc; i++)
		argv[i + 1] = argv[optind + i];
	*argc = *argc - optind + 1;
	return ret;
}

const char *igt_test_name(void)
{
	return command_str;
}

/* ---- subtests and fixtures ---- */
static bool subtest_matches(const char *name, const char *pattern)
{
	char *pats = strdup(pattern), *save = NULL;
	bool match = false;

	for (char *p = strtok_r(pats, ",", &save); p && !match;
	     p = strtok_r(NULL, ",", &save))
		match = fnmatch(p, name, 0) == 0;
	free(pats);
	return match;
}

bool __igt_run_subtest(const char *subtest_name, const char *file,
		       const int line)
{
	for (const char *p = subtest_name; *p; p++) {
		if (*p != '_' && *p != '-' &&
		    !((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9'))) {
			igt_critical("Invalid subtest name \"%s\".\n",
				     subtest_name);
			exit(IGT_EXIT_INVALID);
		}
	}

	if (run_single_subtest) {
		if (!subtest_matches(subtest_name, run_single_subtest)) {
			current_description[0] = '\0';
			return false;
		}
		run_single_subtest_found = true;
	}

	if (describe_subtests) {
		printf("SUB %s %s:%d:\n  %s\n\n", subtest_name, file, line,
		       current_description[0] ? current_description :
						"NO DOCUMENTATION!");
		current_description[0] = '\0';
		return false;
	}
	current_description[0] = '\0';
	if (list_subtests) {
		printf("%s\n", subtest_name);
		return false;
	}

	if (skip_subtests_henceforth) {
		printf("Subtest %s: %s\n", subtest_name,
		       skip_subtests_henceforth == SKIP ? "SKIP" : "FAIL");
		fflush(stdout);
		return false;
	}

	igt_info("Starting subtest: %s\n", subtest_name);
	fflush(stdout);
	log_ring_reset();
	igt_gettime(&subtest_time);
	in_subtest = subtest_name;
	return true;
}

const char *igt_subtest_name(void)
{
	return in_subtest;
}

bool igt_only_list_subtests(void)
{
	return list_subtests;
}

bool __igt_fixture(void)
{
	if (igt_only_list_subtests())
		return false;
	if (skip_subtests_henceforth)
		return false;
	in_fixture = true;
	return true;
}

void __igt_fixture_complete(void)
{
	in_fixture = false;
}

void __igt_fixture_end(void)
{
	in_fixture = false;
	siglongjmp(igt_subtest_jmpbuf, 1);
}

void __igt_subtest_group_save(int *save, int *desc)
{
	*desc = 0;
	*save = skip_subtests_henceforth;
}

void __igt_subtest_group_restore(int save, int desc)
{
	(void)desc;
	skip_subtests_henceforth = save;
}

void igt_describe_f(const char *fmt, ...)
{
	va_list args;

	if (!describe_subtests)
		return;
	va_start(args, fmt);
	vsnprintf(current_description, sizeof(current_description), fmt, args);
	va_end(args);
}

/* ---- results ---- */
static __noreturn void exit_subtest(const char *result)
{
	struct timespec now;
	const char *name = in_subtest;

	igt_gettime(&now);
	alarm(0);
	igt_info("Subtest %s: %s (%.3fs)\n", name, result,
		 igt_time_elapsed(&subtest_time, &now));
	fflush(stdout);
	in_subtest = NULL;
	siglongjmp(igt_subtest_jmpbuf, 1);
}

void igt_success(void)
{
	succeeded_one = true;
	if (in_subtest)
		exit_subtest("SUCCESS");
}

bool igt_can_fail(void)
{
	return !test_with_subtests || in_fixture || in_subtest;
}

void igt_skip(const char *f, ...)
{
	va_list args;

	skipped_one = true;
	if (!igt_only_list_subtests()) {
		va_start(args, f);
		vprintf(f, args);
		va_end(args);
	}

	if (in_subtest) {
		exit_subtest("SKIP");
	} else if (test_with_subtests && in_fixture) {
		skip_subtests_henceforth = SKIP;
		__igt_fixture_end();
	} else {
		igt_critical("igt_skip() outside of a fixture or subtest\n");
		igt_exitcode = IGT_EXIT_SKIP;
		igt_exit();
	}
}

void __igt_skip_check(const char *file, const int line, const char *func,
		      const char *check, const char *f, ...)
{
	va_list args;
	int err = errno;
	char *buf = NULL, err_str[160] = "";

	if (err)
		snprintf(err_str, sizeof(err_str), "Last errno: %i, %s\n", err,
			 strerror(err));
	if (f) {
		va_start(args, f);
		if (vasprintf(&buf, f, args) < 0)
			buf = NULL;
		va_end(args);
	}
	igt_skip("Test requirement not met in function %s, file %s:%i:\n"
		 "Test requirement: %s\n%s%s",
		 func, file, line, check, buf ? buf : "", err_str);
}

void igt_fail(int exitcode)
{
	if (exitcode == IGT_EXIT_SUCCESS || exitcode == IGT_EXIT_SKIP)
		exitcode = IGT_EXIT_FAILURE;
	if (in_exit_handler)
		_exit(IGT_EXIT_FAILURE);

	if (!failed_one)
		igt_exitcode = exitcode;
	failed_one = true;

	log_ring_dump();

	if (in_subtest) {
		exit_subtest(exitcode == IGT_EXIT_TIMEOUT ? "TIMEOUT" : "FAIL");
	} else if (in_fixture) {
		skip_subtests_henceforth = FAIL;
		__igt_fixture_end();
	}
	igt_critical("failure outside of a fixture or subtest\n");
	igt_exit();
}

void __igt_fail_assert(const char *domain, const char *file, const int line,
		       const char *func, const char *assertion,
		       const char *f, ...)
{
	va_list args;
	int err = errno;

	igt_log(domain, IGT_LOG_CRITICAL,
		"Test assertion failure function %s, file %s:%i:\n",
		func, file, line);
	igt_log(domain, IGT_LOG_CRITICAL, "Failed assertion: %s\n", assertion);
	if (err)
		igt_log(domain, IGT_LOG_CRITICAL, "Last errno: %i, %s\n", err,
			strerror(err));
	if (f) {
		va_start(args, f);
		igt_vlog(domain, IGT_LOG_CRITICAL, f, args);
		va_end(args);
	}
	igt_fail(IGT_EXIT_FAILURE);
}

void __igt_abort(const char *domain, const char *file, const int line,
		 const char *func, const char *expression,
		 const char *f, ...)
{
	va_list args;
	struct timespec now;

	igt_log(domain, IGT_LOG_CRITICAL,
		"Test abort in function %s, file %s:%i:\n", func, file, line);
	igt_log(domain, IGT_LOG_CRITICAL, "abort condition: %s\n", expression);
	if (f) {
		va_start(args, f);
		igt_vlog(domain, IGT_LOG_CRITICAL, f, args);
		va_end(args);
	}
	log_ring_dump();
	if (in_subtest) {
		igt_gettime(&now);
		printf("Subtest %s: ABORT (%.3fs)\n", in_subtest,
		       igt_time_elapsed(&subtest_time, &now));
		fflush(stdout);
	}
	exit(IGT_EXIT_ABORT);
}

void igt_exit(void)
{
	if (run_single_subtest && !run_single_subtest_found) {
		igt_critical("Unknown subtest: %s\n", run_single_subtest);
		exit(IGT_EXIT_INVALID);
	}
	if (igt_only_list_subtests())
		exit(IGT_EXIT_SUCCESS);

	if (test_with_subtests && !failed_one) {
		if (succeeded_one)
			igt_exitcode = IGT_EXIT_SUCCESS;
		else
			igt_exitcode = IGT_EXIT_SKIP;
	}
	igt_debug("Exiting with status code %d\n", igt_exitcode);
	fflush(stdout);
	exit(igt_exitcode);
}

int igt_system(const char *command)
{
	int status;

	igt_debug("Running: %s\n", command);
	fflush(stdout);
	fflush(stderr);
	status = system(command);
	if (status == -1)
		return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return -1;
}
