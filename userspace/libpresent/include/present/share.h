/* SPDX-License-Identifier: MIT */
/*
 * libpresent sharing: share tokens, keyed mutex, surface queue.
 *
 * STUB -- owned by the sharing engineer (src/share*.c, this header and
 * tests/share*_test.c); it only has to stay valid C so <present.h> builds.
 * Use PRESENT_API on every public function and the PRESENT_E_* codes of
 * present/base.h.
 */
#ifndef PRESENT_SHARE_H
#define PRESENT_SHARE_H

#include "base.h"

#endif /* PRESENT_SHARE_H */
