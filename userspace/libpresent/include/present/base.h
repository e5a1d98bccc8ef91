/* SPDX-License-Identifier: MIT */
/*
 * libpresent base definitions shared by every public header: version,
 * error codes, present_strerror().  Include <present.h> rather than this.
 */
#ifndef PRESENT_BASE_H
#define PRESENT_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Library version (also in libpresent.pc). */
#define PRESENT_VERSION_MAJOR	0
#define PRESENT_VERSION_MINOR	1
#define PRESENT_VERSION_PATCH	0
#define PRESENT_VERSION_STRING	"0.1.0"

/* Exported symbol marker (every public function carries it). */
#define PRESENT_API __attribute__((visibility("default")))

/*
 * Error model: every function returning int returns 0 (or a documented
 * non-negative value) on success and one of these negative codes on
 * failure.  The library never calls exit() and never prints.  Objects keep
 * a human-readable "last error" string with the detail (see the *_last_error
 * functions); present_strerror() names the code itself.
 */
enum present_error {
	PRESENT_OK			= 0,
	PRESENT_E_INVALID_ARG		= -1,	/* bad argument or state */
	PRESENT_E_NOT_SUPPORTED		= -2,	/* device/driver cannot */
	PRESENT_E_DEVICE_REMOVED	= -3,	/* device went away: every
						   later call says so too */
	PRESENT_E_WAS_STILL_DRAWING	= -4,	/* do-not-wait and the frame
						   latency is reached */
	PRESENT_E_TIMEOUT		= -5,	/* a wait timed out */
	PRESENT_E_NO_MEMORY		= -6,	/* allocation failed */
	PRESENT_E_IO			= -7,	/* unexpected kernel error */
	PRESENT_E_BUSY			= -8,	/* resource busy (not master,
						   CRTC off, key held) */
	PRESENT_E_NOT_FOUND		= -9,	/* no such adapter/output/... */
	PRESENT_E_ACCESS		= -10,	/* permission denied */
	PRESENT_E_OCCLUDED		= -11,	/* test present: nothing would
						   be shown (output off) */
	PRESENT_E_MORE_DATA		= -12,	/* buffer too small */
	PRESENT_E_DISCONNECTED		= -13,	/* the output was unplugged:
						   move the swap chain */
	PRESENT_E_LAST			= -13,
};

/**
 * present_strerror() - name and meaning of an error code
 * @code: 0 or a PRESENT_E_* value (anything else: "unknown error")
 *
 * Returns a static string, never NULL.
 */
PRESENT_API const char *present_strerror(int code);

/**
 * present_version() - runtime library version
 *
 * Returns PRESENT_VERSION_STRING of the library actually loaded.
 */
PRESENT_API const char *present_version(void);

#ifdef __cplusplus
}
#endif
#endif /* PRESENT_BASE_H */
