/* SPDX-License-Identifier: MIT */
#ifndef VFLIPQ_PIXFMT_H
#define VFLIPQ_PIXFMT_H

#include <stdint.h>

/* Writeback formats this tool can read back: name <-> fourcc. */
int pixfmt_from_name(const char *name, uint32_t *fourcc);
const char *pixfmt_names(void);

/*
 * Convert one row of @w pixels in @fourcc to 8-bit RGB (alpha dropped: the
 * composer's output is opaque).  Returns -1 for an unsupported format.
 */
int pixfmt_row_to_rgb8(uint32_t fourcc, const void *src, uint32_t w,
		       uint8_t *rgb);

#endif
