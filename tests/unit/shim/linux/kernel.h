/* SPDX-License-Identifier: GPL-2.0-only */
/* Host build of kernel code: what vflipq_formats.c and vflipq_config.c use. */
#ifndef _SHIM_LINUX_KERNEL_H
#define _SHIM_LINUX_KERNEL_H
#include <ctype.h>
#include <endian.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <linux/types.h>
#include <linux/minmax.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define U16_MAX ((u16)~0U)
#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif

#define le16_to_cpu(v) le16toh(v)
#define le32_to_cpu(v) le32toh(v)
#define le64_to_cpu(v) le64toh(v)
#define cpu_to_le16(v) htole16(v)
#define cpu_to_le32(v) htole32(v)
#define cpu_to_le64(v) htole64(v)

static inline char *skip_spaces(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return (char *)s;
}

static inline char *strim(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return skip_spaces(s);
}

/* The kernel's: copies at most @size - 1 bytes, -E2BIG when truncated. */
static inline ssize_t strscpy(char *dst, const char *src, size_t size)
{
	size_t n = strnlen(src, size);

	if (!size)
		return -7;
	if (n == size) {
		memcpy(dst, src, size - 1);
		dst[size - 1] = '\0';
		return -7;
	}
	memcpy(dst, src, n + 1);
	return n;
}

static inline int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!size)
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n < 0 ? 0 : (size_t)n >= size ? (int)size - 1 : n;
}
#endif
