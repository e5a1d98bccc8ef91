/* SPDX-License-Identifier: MIT */
/*
 * The pixel formats userspace knows (libpresent, tools, benchmarks, fuzzer,
 * igt tests): one table of fourcc, name, planes, bytes per pixel of each
 * plane and chroma subsampling.  Which formats a program accepts is its own
 * policy; how many bytes a pixel takes is this table's.
 */
#ifndef VFLIPQ_FOURCC_H
#define VFLIPQ_FOURCC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FOURCC_MAX_PLANES	3

/**
 * struct fourcc_info - one pixel format
 * @fourcc: DRM_FORMAT_* code
 * @name: drm_fourcc.h's name without DRM_FORMAT_ ("XRGB8888")
 * @planes: number of planes (NV12: 2)
 * @cpp: bytes per pixel of each plane (a chroma plane: per sample pair)
 * @hsub: horizontal subsampling of the planes after the first (1: none)
 * @vsub: vertical subsampling of the planes after the first (1: none)
 * @depth: bits of the widest colour channel (RGB565: 5)
 * @alpha: the format has an alpha channel
 *
 * As the kernel's struct drm_format_info: YUYV is one plane of 2 bytes per
 * pixel with hsub 2, NV12 a luma plane of 1 byte and a chroma plane of 2
 * bytes per sample pair, subsampled 2x2.
 */
struct fourcc_info {
	uint32_t fourcc;
	const char *name;
	uint8_t planes;
	uint8_t cpp[FOURCC_MAX_PLANES];
	uint8_t hsub, vsub;
	uint8_t depth;
	bool alpha;
};

/* The format's entry, NULL when the table does not have it. */
const struct fourcc_info *fourcc_info(uint32_t fourcc);
/* Bytes per pixel of plane 0, 0 for a format the table does not have. */
uint32_t fourcc_cpp(uint32_t fourcc);
/* "XRGB8888", "unknown" for a format the table does not have. */
const char *fourcc_name(uint32_t fourcc);
/* The whole table (*n entries), for tests and listings. */
const struct fourcc_info *fourcc_table(size_t *n);

#endif
