// SPDX-License-Identifier: MIT
#include <xf86drm.h>

#include "ioctl_wrappers.h"

int (*igt_ioctl)(int fd, unsigned long request, void *arg) = drmIoctl;
