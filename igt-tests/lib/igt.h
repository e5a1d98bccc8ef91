/* SPDX-License-Identifier: MIT */
/*
 * Umbrella header, like igt-gpu-tools' lib/igt.h, but only for the subset
 * implemented here (core, aux, drmtest/ioctl wrappers).
 */
#ifndef IGT_H
#define IGT_H

#include "drmtest.h"
#include "igt_aux.h"
#include "igt_core.h"
#include "ioctl_wrappers.h"

#endif /* IGT_H */
