/* SPDX-License-Identifier: MIT */
/*
 * Minimal stand-in for igt-gpu-tools' lib/igt_core.h: the subset of the IGT
 * core API (same names, signatures and semantics) that the vflipq tests use.
 * Building with `make IGT_DIR=/path/to/igt-gpu-tools` uses the real IGT
 * library instead of this one; tests must only use what is declared here.
 */
#ifndef IGT_CORE_H
#define IGT_CORE_H

#include <errno.h>
#include <getopt.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef IGT_LOG_DOMAIN
#define IGT_LOG_DOMAIN (NULL)
#endif

#ifndef __noreturn
#define __noreturn __attribute__((noreturn))
#endif

/* Exit codes, as IGT and igt_runner use them. */
#define IGT_EXIT_SUCCESS 0
#define IGT_EXIT_SKIP    77
#define IGT_EXIT_TIMEOUT 78
#define IGT_EXIT_INVALID 79
#define IGT_EXIT_FAILURE 98
#define IGT_EXIT_ABORT   112

#define IGT_TEST_DESCRIPTION(str) const char *__igt_test_description = str
extern const char *__igt_test_description __attribute__((weak));

#define __igt_tokencat2(x, y) x ## y
#define igt_tokencat(x, y) __igt_tokencat2(x, y)
#define igt_unique(prefix) \
	igt_tokencat(igt_tokencat(__igt_unique__, prefix), __LINE__)

/* subtest and fixture infrastructure */
extern sigjmp_buf igt_subtest_jmpbuf;

typedef int (*igt_opt_handler_t)(int opt, int opt_index, void *data);
#define IGT_OPT_HANDLER_SUCCESS 0
#define IGT_OPT_HANDLER_ERROR -2

int igt_subtest_init_parse_opts(int *argc, char **argv,
				const char *extra_short_opts,
				const struct option *extra_long_opts,
				const char *help_str,
				igt_opt_handler_t extra_opt_handler,
				void *handler_data);
#define igt_subtest_init(argc, argv) \
	igt_subtest_init_parse_opts(&argc, argv, NULL, NULL, NULL, NULL, NULL)

bool __igt_fixture(void);
void __igt_fixture_complete(void);
__noreturn void __igt_fixture_end(void);
bool __igt_run_subtest(const char *subtest_name, const char *file,
		       const int line);

/*
 * igt_fixture: setup/teardown code shared by the following subtests.  Not run
 * when only listing subtests; a skip or failure inside it marks every
 * following subtest (of the same group) SKIP or FAIL.
 */
#define igt_fixture \
	for (volatile int igt_unique(__tmpint) = 0; \
	     igt_unique(__tmpint) < 1 && __igt_fixture() && \
	     (sigsetjmp(igt_subtest_jmpbuf, 1) == 0); \
	     igt_unique(__tmpint)++, __igt_fixture_complete())

#define igt_subtest(name) \
	for (; __igt_run_subtest((name), __FILE__, __LINE__) && \
	       (sigsetjmp(igt_subtest_jmpbuf, 1) == 0); \
	     igt_success())

#define __igt_subtest_f(tmp, ...) \
	for (char tmp[256]; \
	     snprintf(tmp, sizeof(tmp), __VA_ARGS__), \
	     __igt_run_subtest(tmp, __FILE__, __LINE__) && \
	     (sigsetjmp(igt_subtest_jmpbuf, 1) == 0); \
	     igt_success())
#define igt_subtest_f(...) __igt_subtest_f(igt_unique(__tmpchar), __VA_ARGS__)

void __igt_subtest_group_save(int *save, int *desc);
void __igt_subtest_group_restore(int save, int desc);
#define igt_subtest_group \
	for (volatile int igt_unique(__tmpint) = 0, igt_unique(__save) = 0, \
	     igt_unique(__desc) = 0; \
	     igt_unique(__tmpint) < 1 && \
	     (__igt_subtest_group_save((int *)&igt_unique(__save), \
				       (int *)&igt_unique(__desc)), true); \
	     igt_unique(__tmpint)++, \
	     __igt_subtest_group_restore(igt_unique(__save), \
					 igt_unique(__desc)))

const char *igt_subtest_name(void);
bool igt_only_list_subtests(void);
const char *igt_test_name(void);

#define igt_main_args(short_opts, long_opts, help_str, opt_handler, handler_data) \
	static void igt_unique(__real_main)(void); \
	int main(int argc, char **argv) { \
		igt_subtest_init_parse_opts(&argc, argv, short_opts, long_opts, \
					    help_str, opt_handler, \
					    handler_data); \
		igt_unique(__real_main)(); \
		igt_exit(); \
	} \
	static void igt_unique(__real_main)(void)

/* Used as `igt_main { ... }` instead of main(). */
#define igt_main igt_main_args(NULL, NULL, NULL, NULL, NULL)

/* results */
__noreturn __attribute__((format(printf, 1, 2)))
void igt_skip(const char *f, ...);
__noreturn __attribute__((format(printf, 5, 6)))
void __igt_skip_check(const char *file, const int line, const char *func,
		      const char *check, const char *format, ...);
#define igt_skip_check(E, ...) \
	__igt_skip_check(__FILE__, __LINE__, __func__, E, __VA_ARGS__)
void igt_success(void);
bool igt_can_fail(void);
__noreturn void igt_fail(int exitcode);
__noreturn __attribute__((format(printf, 6, 7)))
void __igt_fail_assert(const char *domain, const char *file, const int line,
		       const char *func, const char *assertion,
		       const char *format, ...);
__noreturn __attribute__((format(printf, 6, 7)))
void __igt_abort(const char *domain, const char *file, const int line,
		 const char *func, const char *expression,
		 const char *format, ...);
__noreturn void igt_exit(void);

__attribute__((format(printf, 1, 2)))
void igt_describe_f(const char *fmt, ...);
#define igt_describe(dsc) igt_describe_f("%s", dsc)

/* assertions: a failure ends the current subtest (or fixture) as FAIL */
#define igt_assert(expr) \
	do { if (!(expr)) \
		__igt_fail_assert(IGT_LOG_DOMAIN, __FILE__, __LINE__, \
				  __func__, #expr, NULL); \
	} while (0)

#define igt_assert_f(expr, ...) \
	do { if (!(expr)) \
		__igt_fail_assert(IGT_LOG_DOMAIN, __FILE__, __LINE__, \
				  __func__, #expr, __VA_ARGS__); \
	} while (0)

#define igt_fail_on(expr) igt_assert(!(expr))
#define igt_fail_on_f(expr, ...) igt_assert_f(!(expr), __VA_ARGS__)

#define igt_assert_cmpint(n1, cmp, ncmp, n2) \
	do { \
		int __n1 = (n1), __n2 = (n2); \
		if (__n1 cmp __n2) ; else \
		__igt_fail_assert(IGT_LOG_DOMAIN, __FILE__, __LINE__, __func__, \
				  #n1 " " #cmp " " #n2, \
				  "error: %d " #ncmp " %d\n", __n1, __n2); \
	} while (0)

#define igt_assert_cmpuint(n1, cmp, ncmp, n2) \
	do { \
		uint32_t __n1 = (n1), __n2 = (n2); \
		if (__n1 cmp __n2) ; else \
		__igt_fail_assert(IGT_LOG_DOMAIN, __FILE__, __LINE__, __func__, \
				  #n1 " " #cmp " " #n2, \
				  "error: %#x " #ncmp " %#x\n", __n1, __n2); \
	} while (0)

#define igt_assert_cmps64(n1, cmp, ncmp, n2) \
	do { \
		int64_t __n1 = (n1), __n2 = (n2); \
		if (__n1 cmp __n2) ; else \
		__igt_fail_assert(IGT_LOG_DOMAIN, __FILE__, __LINE__, __func__, \
				  #n1 " " #cmp " " #n2, \
				  "error: %lld " #ncmp " %lld\n", \
				  (long long)__n1, (long long)__n2); \
	} while (0)

#define igt_assert_cmpu64(n1, cmp, ncmp, n2) \
	do { \
		uint64_t __n1 = (n1), __n2 = (n2); \
		if (__n1 cmp __n2) ; else \
		__igt_fail_assert(IGT_LOG_DOMAIN, __FILE__, __LINE__, __func__, \
				  #n1 " " #cmp " " #n2, \
				  "error: %#llx " #ncmp " %#llx\n", \
				  (unsigned long long)__n1, \
				  (unsigned long long)__n2); \
	} while (0)

#define igt_assert_cmpdouble(n1, cmp, ncmp, n2) \
	do { \
		double __n1 = (n1), __n2 = (n2); \
		if (__n1 cmp __n2) ; else \
		__igt_fail_assert(IGT_LOG_DOMAIN, __FILE__, __LINE__, __func__, \
				  #n1 " " #cmp " " #n2, \
				  "error: %#lf " #ncmp " %#lf\n", __n1, __n2); \
	} while (0)

#define igt_assert_eq(n1, n2) igt_assert_cmpint(n1, ==, !=, n2)
#define igt_assert_neq(n1, n2) igt_assert_cmpint(n1, !=, ==, n2)
#define igt_assert_lte(n1, n2) igt_assert_cmpint(n1, <=, >, n2)
#define igt_assert_lt(n1, n2) igt_assert_cmpint(n1, <, >=, n2)
#define igt_assert_eq_u32(n1, n2) igt_assert_cmpuint(n1, ==, !=, n2)
#define igt_assert_neq_u32(n1, n2) igt_assert_cmpuint(n1, !=, ==, n2)
#define igt_assert_lte_u32(n1, n2) igt_assert_cmpuint(n1, <=, >, n2)
#define igt_assert_lt_u32(n1, n2) igt_assert_cmpuint(n1, <, >=, n2)
#define igt_assert_eq_s64(n1, n2) igt_assert_cmps64(n1, ==, !=, n2)
#define igt_assert_lte_s64(n1, n2) igt_assert_cmps64(n1, <=, >, n2)
#define igt_assert_lt_s64(n1, n2) igt_assert_cmps64(n1, <, >=, n2)
#define igt_assert_eq_u64(n1, n2) igt_assert_cmpu64(n1, ==, !=, n2)
#define igt_assert_neq_u64(n1, n2) igt_assert_cmpu64(n1, !=, ==, n2)
#define igt_assert_lte_u64(n1, n2) igt_assert_cmpu64(n1, <=, >, n2)
#define igt_assert_lt_u64(n1, n2) igt_assert_cmpu64(n1, <, >=, n2)
#define igt_assert_eq_double(n1, n2) igt_assert_cmpdouble(n1, ==, !=, n2)
#define igt_assert_lt_double(n1, n2) igt_assert_cmpdouble(n1, <, >=, n2)

#define igt_assert_fd(fd) \
	igt_assert_f(fd >= 0, "file descriptor " #fd " failed\n")

/* requirements: an unmet one ends the current subtest (or fixture) as SKIP */
#define igt_require(expr) do { \
	if (!(expr)) igt_skip_check(#expr, NULL); \
	else igt_debug("Test requirement passed: %s\n", #expr); \
} while (0)

#define igt_skip_on(expr) do { \
	if ((expr)) igt_skip_check("!(" #expr ")", NULL); \
	else igt_debug("Test requirement passed: !(%s)\n", #expr); \
} while (0)

#define igt_require_f(expr, ...) do { \
	if (!(expr)) igt_skip_check(#expr, __VA_ARGS__); \
	else igt_debug("Test requirement passed: %s\n", #expr); \
} while (0)

#define igt_skip_on_f(expr, ...) do { \
	if ((expr)) igt_skip_check("!(" #expr ")", __VA_ARGS__); \
	else igt_debug("Test requirement passed: !(%s)\n", #expr); \
} while (0)

#define igt_require_fd(fd) \
	igt_require_f(fd >= 0, "file descriptor " #fd " failed\n")

/* abort: the environment is broken, stop everything (exit 112) */
#define igt_abort_on_f(expr, ...) \
	do { if ((expr)) \
		__igt_abort(IGT_LOG_DOMAIN, __FILE__, __LINE__, __func__, \
			    #expr, __VA_ARGS__); \
	} while (0)

/* exit handlers, also run on fatal signals */
typedef void (*igt_exit_handler_t)(int sig);
void igt_install_exit_handler(igt_exit_handler_t fn);

/* logging */
enum igt_log_level {
	IGT_LOG_DEBUG,
	IGT_LOG_INFO,
	IGT_LOG_WARN,
	IGT_LOG_CRITICAL,
	IGT_LOG_NONE,
};
extern enum igt_log_level igt_log_level;
__attribute__((format(printf, 3, 4)))
void igt_log(const char *domain, enum igt_log_level level,
	     const char *format, ...);
__attribute__((format(printf, 3, 0)))
void igt_vlog(const char *domain, enum igt_log_level level,
	      const char *format, va_list args);
#define igt_debug(...) igt_log(IGT_LOG_DOMAIN, IGT_LOG_DEBUG, __VA_ARGS__)
#define igt_info(...) igt_log(IGT_LOG_DOMAIN, IGT_LOG_INFO, __VA_ARGS__)
#define igt_warn(...) igt_log(IGT_LOG_DOMAIN, IGT_LOG_WARN, __VA_ARGS__)
#define igt_critical(...) igt_log(IGT_LOG_DOMAIN, IGT_LOG_CRITICAL, __VA_ARGS__)

/* timeouts and time */
void igt_set_timeout(unsigned int seconds, const char *op);
void igt_reset_timeout(void);
int igt_gettime(struct timespec *ts);
double igt_time_elapsed(struct timespec *then, struct timespec *now);
uint64_t igt_nsec_elapsed(struct timespec *start);
static inline uint32_t igt_seconds_elapsed(struct timespec *start)
{
	return igt_nsec_elapsed(start) >> 30;
}

int igt_system(const char *command);

#endif /* IGT_CORE_H */
