/* SPDX-License-Identifier: GPL-2.0-only */
/* The reference the unit tests hold the driver's CRC arithmetic to. */
#ifndef _UNIT_REF_CRC_H
#define _UNIT_REF_CRC_H

#include <stddef.h>
#include <linux/types.h>

/* The kernel's crc32_le(), bit by bit: reflected 0xedb88320, no inversion. */
static inline u32 ref_crc32_le(u32 crc, const u8 *p, size_t n)
{
	while (n--) {
		crc ^= *p++;
		for (int i = 0; i < 8; i++)
			crc = crc & 1 ? (crc >> 1) ^ 0xedb88320 : crc >> 1;
	}
	return crc;
}
#endif
