// SPDX-License-Identifier: MIT
/* present_strerror(), present_version(). */
#include "present.h"

const char *present_strerror(int code)
{
	switch (code) {
	case PRESENT_OK: return "success";
	case PRESENT_E_INVALID_ARG: return "invalid argument";
	case PRESENT_E_NOT_SUPPORTED: return "not supported by the device";
	case PRESENT_E_DEVICE_REMOVED: return "device removed";
	case PRESENT_E_WAS_STILL_DRAWING: return "was still drawing (frame latency reached)";
	case PRESENT_E_TIMEOUT: return "timed out";
	case PRESENT_E_NO_MEMORY: return "out of memory";
	case PRESENT_E_IO: return "I/O error from the kernel";
	case PRESENT_E_BUSY: return "busy (not DRM master, CRTC off or resource held)";
	case PRESENT_E_NOT_FOUND: return "not found";
	case PRESENT_E_ACCESS: return "permission denied";
	case PRESENT_E_OCCLUDED: return "occluded (nothing would be shown)";
	case PRESENT_E_MORE_DATA: return "buffer too small";
	case PRESENT_E_DISCONNECTED: return "output disconnected";
	default: return "unknown error";
	}
}

const char *present_version(void)
{
	return PRESENT_VERSION_STRING;
}
