/* SPDX-License-Identifier: MIT */
/* Subset of igt-gpu-tools' lib/ioctl_wrappers.h used by the vflipq tests. */
#ifndef IOCTL_WRAPPERS_H
#define IOCTL_WRAPPERS_H

/* The ioctl entry point every IGT helper goes through (drmIoctl by default). */
extern int (*igt_ioctl)(int fd, unsigned long request, void *arg);

#endif /* IOCTL_WRAPPERS_H */
