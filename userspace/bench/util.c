// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

const char *bench_data_dir = ".";

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

void sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000ull,
			       .tv_nsec = ns % 1000000000ull };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

void die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "vflipq-bench: error: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(1);
}

void note(const char *fmt, ...)
{
	va_list ap;

	printf("vflipq-bench: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double percentile(double *v, size_t n, double p)
{
	double pos;
	size_t i;

	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	pos = p / 100.0 * (double)(n - 1);
	i = (size_t)pos;
	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (pos - (double)i) * (v[i + 1] - v[i]);
}

double median(double *v, size_t n)
{
	return percentile(v, n, 50);
}

FILE *data_file(const char *name)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", bench_data_dir, name);
	f = fopen(path, "w");
	if (!f)
		die("cannot write %s: %s", path, strerror(errno));
	return f;
}

void emit(const char *name, const char *driver, const char *unit,
	  const char *better, const double *runs, int nruns,
	  const char *extra_json)
{
	printf("BENCH {\"name\": \"%s\", \"driver\": \"%s\", \"unit\": \"%s\", "
	       "\"better\": \"%s\", \"runs\": [", name, driver, unit, better);
	for (int i = 0; i < nruns; i++)
		printf("%s%.6g", i ? ", " : "", runs[i]);
	printf("]%s%s}\n", extra_json && *extra_json ? ", " : "",
	       extra_json ? extra_json : "");
	fflush(stdout);
}
