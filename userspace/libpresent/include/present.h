/* SPDX-License-Identifier: MIT */
/*
 * libpresent: DXGI flip-model swap chains and Direct3D 9Ex pacing and
 * frame statistics on top of vflipq (hardware flip queue, cross-adapter
 * scan-out) and, through plain atomic page flips, any KMS driver.
 *
 *   present/base.h       version macros, PRESENT_E_* codes, present_strerror()
 *   present/adapter.h    enumerate adapters, roles, CASO tier, outputs, modes
 *   present/swapchain.h  swap chains, path decision, present, pacing, stats
 *   present/share.h      shared surfaces, keyed mutex, surface queue
 *
 * See Documentation/vflipq/libpresent.rst.  Link with
 * `pkg-config --cflags --libs libpresent`.
 */
#ifndef PRESENT_H
#define PRESENT_H

#include "present/base.h"
#include "present/adapter.h"
#include "present/swapchain.h"
#include "present/share.h"

#endif /* PRESENT_H */
