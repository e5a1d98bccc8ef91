/* SPDX-License-Identifier: MIT */
/*
 * libpresent adapters and outputs.
 *
 * An adapter is one DRM device (vflipq or any other KMS/render driver),
 * found with drmGetDevices2().  Each has a role: render (vflipq with
 * VFLIPQ_CAP_RENDER_ONLY, or another driver without CRTCs), display (vflipq
 * with VFLIPQ_CAP_DISPLAY) or both (both vflipq caps, or another driver
 * with CRTCs).  Any display adapter can also hold the buffers of a
 * same-adapter swap chain (dumb buffers): that is the direct-flip path.  vflipq
 * devices report their CASO tier and flip-queue depth; other drivers have
 * tier 0 and depth 1.  A hybrid pair is a render-only adapter plus a display
 * adapter.
 */
#ifndef PRESENT_ADAPTER_H
#define PRESENT_ADAPTER_H

#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Adapter roles (a bit mask). */
#define PRESENT_ROLE_RENDER	(1u << 0)
#define PRESENT_ROLE_DISPLAY	(1u << 1)
#define PRESENT_ROLE_BOTH	(PRESENT_ROLE_RENDER | PRESENT_ROLE_DISPLAY)

/* CASO tiers, as VFLIPQ_CASO_TIER_*. */
enum present_caso_tier {
	PRESENT_CASO_NONE	= 0,
	PRESENT_CASO_COPY	= 1,
	PRESENT_CASO_TEXTURE	= 2,
	PRESENT_CASO_SCANOUT	= 3,
};

/** struct present_mode - one display mode of an output */
struct present_mode {
	uint32_t width, height;
	uint32_t refresh_mhz;		/* vertical refresh, millihertz */
	uint64_t period_ns;		/* frame period from the mode timings */
	bool preferred;
	char name[32];
	uint64_t boost_period_ns;	/* fastest integer multiple of this
					   refresh the output can boost to
					   (present_boost_period()), 0: none */
};

/** struct present_output - one connector of a display adapter */
struct present_output {
	uint32_t connector_id;
	uint32_t crtc_id;		/* current CRTC, 0: none */
	uint32_t crtc_index;		/* index of that CRTC; when none, of
					   the first possible one no other
					   display output has (connector i
					   of a fresh vflipq device: i) */
	bool connected;
	bool writeback;			/* a writeback connector */
	char name[32];			/* "Virtual-1", "Writeback-1", ... */
	struct present_mode current;	/* width 0: CRTC off */
	uint32_t num_modes;
	const struct present_mode *modes;	/* owned by the adapter */
};

/** struct present_adapter_info - what present_adapter_info() reports */
struct present_adapter_info {
	uint32_t index;			/* position in the enumeration */
	char driver[32];		/* DRM driver name ("vflipq", ...) */
	char name[32];			/* vflipq device name, else driver */
	char primary_node[64];		/* /dev/dri/cardN, "" if none */
	char render_node[64];		/* /dev/dri/renderDN, "" if none */
	bool is_vflipq;
	unsigned int role;		/* PRESENT_ROLE_* */
	enum present_caso_tier caso_tier;
	uint32_t flipq_depth;		/* 1: no hardware flip queue */
	uint32_t num_crtcs;
	uint64_t vflipq_caps;		/* VFLIPQ_CAP_*, 0 for other drivers */
	uint32_t num_outputs;
	/* Frame periods the outputs can run at (variable refresh: the flip
	 * queue's accepted duration_ns range, vflipq uAPI 2 with a flip
	 * queue); 0, 0: fixed refresh, no boost */
	uint64_t refresh_min_ns, refresh_max_ns;
};

/* Opaque handles.  An adapter belongs to its present_system. */
struct present_system;
struct present_adapter;

/**
 * present_system_open() - enumerate every DRM device of the machine
 * @out: set to the new system object
 *
 * Opens each device once (primary node when it has one, else the render
 * node) and queries role, tier, queue depth and outputs.  Devices that
 * cannot be opened are skipped.  Returns 0 (even with no adapters),
 * PRESENT_E_INVALID_ARG, PRESENT_E_NO_MEMORY or PRESENT_E_IO.
 */
PRESENT_API int present_system_open(struct present_system **out);

/**
 * present_system_close() - close every adapter and free @sys (NULL: no-op)
 *
 * Swap chains created on its adapters must be destroyed first.
 */
PRESENT_API void present_system_close(struct present_system *sys);

/**
 * present_system_is_current() - does @sys still describe the machine?
 *
 * As DXGI's IDXGIFactory1::IsCurrent(): 0 once a DRM device came or went,
 * or an output of one of @sys's adapters was plugged, unplugged or changed
 * its mode list since present_system_open(), and from then on for this
 * system: open a new one to enumerate again.  An application that stopped
 * presenting learns of a hotplug this way.  No output is probed (the
 * kernel's current connector state is read, which a driver updates before
 * its hotplug uevent): a few ioctls per adapter, cheap enough to ask every
 * frame.  Returns 1, 0 or PRESENT_E_INVALID_ARG.  Not to be called
 * concurrently with present_system_close().
 */
PRESENT_API int present_system_is_current(struct present_system *sys);

/**
 * present_system_count() - number of adapters found (negative: bad @sys)
 */
PRESENT_API int present_system_count(const struct present_system *sys);

/**
 * present_system_adapter() - adapter @index (0 .. count-1), or NULL
 */
PRESENT_API struct present_adapter *
present_system_adapter(struct present_system *sys, unsigned int index);

/**
 * present_system_find() - pick an adapter by name, index or role
 * @sys: the system
 * @spec: "3" (index), "card1"/"/dev/dri/card1" (node), a vflipq device name
 *        or driver name; NULL or "" picks the default for @role
 * @role: PRESENT_ROLE_* the adapter must have (0: any)
 * @out: the adapter found
 *
 * The default display adapter is the highest CASO tier display adapter with
 * a connected output (ties: lowest index); the default render adapter is a
 * render-only one if any, else the default display adapter.  Returns 0 or
 * PRESENT_E_NOT_FOUND / PRESENT_E_INVALID_ARG.
 */
PRESENT_API int present_system_find(struct present_system *sys, const char *spec,
				    unsigned int role, struct present_adapter **out);

/**
 * present_system_hybrid_pair() - find a hybrid pair
 * @render: set to a render-only adapter
 * @display: set to a display adapter (highest tier; @min_tier at least)
 * @min_tier: minimum CASO tier of the display adapter (0: any)
 *
 * Returns 0 or PRESENT_E_NOT_FOUND when the machine has no such pair.
 */
PRESENT_API int present_system_hybrid_pair(struct present_system *sys,
					   unsigned int min_tier,
					   struct present_adapter **render,
					   struct present_adapter **display);

/**
 * present_adapter_info() - fill @info for @ad
 *
 * Returns 0, PRESENT_E_INVALID_ARG or PRESENT_E_DEVICE_REMOVED (the info
 * is still filled with what was known).
 */
PRESENT_API int present_adapter_info(struct present_adapter *ad,
				     struct present_adapter_info *info);

/**
 * present_adapter_output() - output @index (0 .. num_outputs-1) of @ad
 *
 * @out points into the adapter (valid until present_adapter_refresh() or
 * present_system_close()).  Returns 0, PRESENT_E_INVALID_ARG or
 * PRESENT_E_NOT_FOUND.
 */
PRESENT_API int present_adapter_output(struct present_adapter *ad, unsigned int index,
				       const struct present_output **out);

/**
 * present_adapter_default_output() - index of the first connected,
 * non-writeback output with a CRTC possible, or PRESENT_E_NOT_FOUND
 */
PRESENT_API int present_adapter_default_output(struct present_adapter *ad);

/**
 * present_adapter_refresh() - re-read outputs and modes (after a hotplug or
 * a mode change).  Returns 0, PRESENT_E_DEVICE_REMOVED, PRESENT_E_IO.
 */
PRESENT_API int present_adapter_refresh(struct present_adapter *ad);

/**
 * present_adapter_fd() - the adapter's DRM file descriptor (owned by the
 * library; do not close).  Negative error code for a bad @ad.
 */
PRESENT_API int present_adapter_fd(struct present_adapter *ad);

/**
 * present_adapter_removed() - has the device gone away?  Probes it (a cheap
 * ioctl) and latches the answer: true stays true.
 */
PRESENT_API bool present_adapter_removed(struct present_adapter *ad);

/**
 * present_adapter_last_error() - detail of the last failure on @ad
 * ("" if none); static "invalid adapter" for NULL.
 */
PRESENT_API const char *present_adapter_last_error(const struct present_adapter *ad);

/** present_role_name() - "render", "display", "render+display" or "none" */
PRESENT_API const char *present_role_name(unsigned int role);

#ifdef __cplusplus
}
#endif
#endif /* PRESENT_ADAPTER_H */
