/* SPDX-License-Identifier: MIT */
/*
 * A solid-colour XRGB8888 framebuffer on a dumb buffer, with libdrm only: for
 * the fuzzer's smoke test and for test processes that cannot use the igt
 * helpers (forked children report errors instead of asserting).
 */
#ifndef VFLIPQ_DUMB_FB_H
#define VFLIPQ_DUMB_FB_H

#include <stdint.h>

uint32_t dumb_fb_xrgb8888(int fd, uint32_t w, uint32_t h, uint32_t pixel);

#endif
