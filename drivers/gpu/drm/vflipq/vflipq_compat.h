/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Interfaces that differ between the kernels vflipq builds against (6.1,
 * 6.12, 7.2 and 7.3).  Kbuild probes the headers and defines VFLIPQ_HAVE_*
 * (drivers/gpu/drm/vflipq/Kbuild); nothing here tests version numbers, and
 * this is the only file of the driver that tests VFLIPQ_HAVE_*.  Each entry
 * names the first kernel with the new interface and the upstream change.
 */
#ifndef _VFLIPQ_COMPAT_H_
#define _VFLIPQ_COMPAT_H_

#include <linux/dma-fence.h>
#include <linux/export.h>
#include <linux/hrtimer.h>
#include <linux/mm.h>

#include <drm/drm_connector.h>
#include <drm/drm_crtc.h>
#include <drm/drm_encoder.h>
#include <drm/drm_fourcc.h>
#include <drm/drm_prime.h>

#if defined(VFLIPQ_HAVE_FBDEV_SHMEM_DRIVER_OPS)
#include <drm/drm_fbdev_shmem.h>
#ifdef VFLIPQ_HAVE_DRM_CLIENTS_DIR
#include <drm/clients/drm_client_setup.h>
#else
#include <drm/drm_client_setup.h>
#endif
#elif defined(VFLIPQ_HAVE_FBDEV_TTM_SETUP)
#include <drm/drm_fbdev_ttm.h>
#elif defined(VFLIPQ_HAVE_FBDEV_GENERIC_H)
#include <drm/drm_fbdev_generic.h>
#else
#include <drm/drm_fb_helper.h>
#endif

/*
 * VISIBLE_IF_KUNIT and EXPORT_SYMBOL_IF_KUNIT(), which open the DRM-free
 * parts to the KUnit suites of tests/: 6.2 ("kunit: add macro to allow
 * conditionally exposing static symbols to tests") added
 * <kunit/visibility.h>; before, its definitions.
 */
#ifdef VFLIPQ_HAVE_KUNIT_VISIBILITY
#include <kunit/visibility.h>
#elif IS_ENABLED(CONFIG_KUNIT)
#define VISIBLE_IF_KUNIT
/* as <kunit/visibility.h> */
#define EXPORT_SYMBOL_IF_KUNIT(symbol) \
	EXPORT_SYMBOL_NS(symbol, EXPORTED_FOR_KUNIT_TESTING)
#else
#define VISIBLE_IF_KUNIT static
/* as <kunit/visibility.h> */
#define EXPORT_SYMBOL_IF_KUNIT(...)
#endif

/*
 * "Colorspace" with the values a compositor's HDR path sets: 6.5 ("drm/
 * connector: Allow drivers to pass list of supported colorspaces") added
 * the list; before, the property offers every DisplayPort colorimetry.
 */
static inline int
vflipq_create_colorspace_property(struct drm_connector *connector)
{
#ifdef VFLIPQ_HAVE_COLORSPACE_LIST
	return drm_mode_create_dp_colorspace_property(connector,
						      BIT(DRM_MODE_COLORIMETRY_BT2020_RGB) |
						      BIT(DRM_MODE_COLORIMETRY_BT2020_YCC));
#else
	return drm_mode_create_dp_colorspace_property(connector);
#endif
}

/*
 * 7.2: drm_connector_attach_hdr_output_metadata_property() returns void
 * (it returned int, always 0, up to 7.1).
 */
static inline int
vflipq_attach_hdr_output_metadata_property(struct drm_connector *connector)
{
#ifdef VFLIPQ_HAVE_HDR_ATTACH_VOID
	drm_connector_attach_hdr_output_metadata_property(connector);
	return 0;
#else
	return drm_connector_attach_hdr_output_metadata_property(connector);
#endif
}

/*
 * Async page flips: mode_config.async_page_flip enables
 * DRM_MODE_PAGE_FLIP_ASYNC on the legacy page-flip ioctl on every supported
 * kernel, and from 6.8 on ("drm: allow DRM_MODE_PAGE_FLIP_ASYNC for atomic
 * commits", "drm: introduce DRM_CAP_ATOMIC_ASYNC_PAGE_FLIP") also on the
 * atomic ioctl, where the core only lets such a commit change the primary
 * plane's FB_ID.  vflipq offers them only where the core can also say which
 * formats an async flip takes: the IN_FORMATS_ASYNC plane property
 * (drm_plane_funcs.format_mod_supported_async, "drm/plane: Add new plane
 * property IN_FORMATS_ASYNC": in 7.2, not in 6.12).  Generic clients that
 * know the property expect it next to the caps (upstream IGT 2.5 warns on
 * every KMS test otherwise), so 6.1 and 6.12 get no async page flips.
 */
#ifdef VFLIPQ_HAVE_IN_FORMATS_ASYNC
#define VFLIPQ_ASYNC_PAGE_FLIP	true
/* An async flip takes every format a synchronous one does. */
#define VFLIPQ_PLANE_FORMAT_MOD_ASYNC \
	.format_mod_supported_async = vflipq_plane_format_mod_supported,
#else
#define VFLIPQ_ASYNC_PAGE_FLIP	false
#define VFLIPQ_PLANE_FORMAT_MOD_ASYNC
#endif

/*
 * 7.2: struct drm_atomic_state is renamed struct drm_atomic_commit
 * (5164f7e7ff8e), in every helper and callback prototype.  The driver keeps
 * the old spelling, which on 7.2+ names the new type: a rename of every
 * callback is left for when 6.x support goes.
 */
#ifdef VFLIPQ_HAVE_DRM_ATOMIC_COMMIT
#define drm_atomic_state drm_atomic_commit
#define vflipq_atomic_state_get drm_atomic_commit_get
#define vflipq_atomic_state_put drm_atomic_commit_put
#else
#define vflipq_atomic_state_get drm_atomic_state_get
#define vflipq_atomic_state_put drm_atomic_state_put
#endif

/*
 * In 7.2, not in 6.12: drm_plane_helper_funcs.atomic_async_check() is told
 * whether it is asked for an async page flip (flip true: the atomic ioctl's
 * DRM_MODE_PAGE_FLIP_ASYNC changing a plane other than the primary) or for
 * a legacy cursor update (flip false) ("drm/atomic: Let drivers decide
 * which planes to async flip").  VFLIPQ_ASYNC_CHECK_ARGS is the
 * prototype's tail, vflipq_async_check_flip() what the caller asked.
 */
#ifdef VFLIPQ_HAVE_ASYNC_CHECK_FLIP
#define VFLIPQ_ASYNC_CHECK_ARGS	struct drm_atomic_state *state, bool flip
#define vflipq_async_check_flip()	(flip)
#else
#define VFLIPQ_ASYNC_CHECK_ARGS	struct drm_atomic_state *state
#define vflipq_async_check_flip()	false
#endif

/*
 * 6.3: vm_flags became read-only behind accessors ("mm: introduce
 * vma->vm_flags wrapper functions").
 */
static inline void vflipq_vma_forbid_write(struct vm_area_struct *vma)
{
#ifdef VFLIPQ_HAVE_VM_FLAGS_CLEAR
	vm_flags_clear(vma, VM_MAYWRITE);
#else
	vma->vm_flags &= ~VM_MAYWRITE;
#endif
}

/*
 * 6.13: hrtimer_setup() sets the callback together with the rest ("hrtimers:
 * Introduce hrtimer_setup() to replace hrtimer_init()"); hrtimer_init()
 * itself was removed once every user had moved (absent from 7.2).
 */
static inline void
vflipq_hrtimer_setup(struct hrtimer *timer,
		     enum hrtimer_restart (*fn)(struct hrtimer *),
		     clockid_t clock, enum hrtimer_mode mode)
{
#ifdef VFLIPQ_HAVE_HRTIMER_SETUP
	hrtimer_setup(timer, fn, clock, mode);
#else
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
#endif
}

/*
 * 6.12: the file-mode flag for mmap offsets beyond the signed range became a
 * file_operations flag, FOP_UNSIGNED_OFFSET (set by DEFINE_DRM_GEM_FOPS,
 * which vflipq's own fops stand in for).
 */
#ifdef VFLIPQ_HAVE_FOP_UNSIGNED_OFFSET
#define VFLIPQ_COMPAT_FOPS .fop_flags = FOP_UNSIGNED_OFFSET,
#else
#define VFLIPQ_COMPAT_FOPS
#endif

/*
 * struct drm_driver members that newer kernels dropped:
 * - 6.6: PRIME fd/handle conversion and mmap are the core's default and
 *   .gem_prime_mmap is gone ("drm: Remove struct drm_driver.gem_prime_mmap");
 *   older kernels need the helpers spelled out.
 * - 6.14: the driver date is gone (cb2e1c2136f7 "drm: remove driver date
 *   from struct drm_driver and all drivers"); older kernels copy it to
 *   DRM_IOCTL_VERSION with strlen() and so need one.
 */
#ifdef VFLIPQ_HAVE_GEM_PRIME_MMAP
#define VFLIPQ_COMPAT_PRIME_OPS \
	.prime_handle_to_fd	= drm_gem_prime_handle_to_fd, \
	.prime_fd_to_handle	= drm_gem_prime_fd_to_handle, \
	.gem_prime_mmap		= drm_gem_prime_mmap,
#else
#define VFLIPQ_COMPAT_PRIME_OPS
#endif
#ifdef VFLIPQ_HAVE_DRIVER_DATE
#define VFLIPQ_COMPAT_DATE .date = "20261122",
#else
#define VFLIPQ_COMPAT_DATE
#endif

/*
 * The fbdev client of a device that asks for one (vflipq_config.fbdev),
 * XRGB8888, created after drm_dev_register():
 * - 6.13 ("drm/fbdev-shmem: Implement fbdev dumb-buffer callbacks" and
 *   "drm: Add client-agnostic setup helper"): drm_driver.fbdev_probe
 *   (DRM_FBDEV_SHMEM_DRIVER_OPS, the GEM buffer mapped to userspace
 *   through deferred I/O) and drm_client_setup*(), whose header moved to
 *   drm/clients/ in 6.15;
 * - 6.11 to 6.12: not drm_fbdev_shmem_setup(), whose deferred I/O there
 *   still set page->mapping of the shmem pages it mapped: once a process
 *   had written through an fbdev mapping, freeing the buffer (the device's
 *   removal) spun for ever in shmem_undo_range() (seen on 6.12; 7.2, whose
 *   deferred I/O leaves the pages alone, is fine).  drm_fbdev_ttm_setup()
 *   is the generic shadow-buffer emulation (vmap, not TTM, despite the
 *   name): userspace maps a vmalloc shadow, which its damage worker
 *   copies into the GEM buffer;
 * - up to 6.10: the generic emulation, drm_fbdev_generic_setup() (declared
 *   in drm_fb_helper.h up to 6.1), which maps the GEM buffer itself with
 *   drm_gem_prime_mmap() when the driver has no dirty callback.
 * Each is a no-op stub without CONFIG_DRM_FBDEV_EMULATION;
 * vflipq_device_create() refuses such a device first.
 */
#ifdef VFLIPQ_HAVE_FBDEV_SHMEM_DRIVER_OPS
#define VFLIPQ_COMPAT_FBDEV_OPS DRM_FBDEV_SHMEM_DRIVER_OPS,
static inline void vflipq_fbdev_setup(struct drm_device *drm)
{
	drm_client_setup_with_fourcc(drm, DRM_FORMAT_XRGB8888);
}
#else
#define VFLIPQ_COMPAT_FBDEV_OPS
static inline void vflipq_fbdev_setup(struct drm_device *drm)
{
#ifdef VFLIPQ_HAVE_FBDEV_TTM_SETUP
	drm_fbdev_ttm_setup(drm, 32);
#else
	drm_fbdev_generic_setup(drm, 32);
#endif
}
#endif

/*
 * 6.17: drm_mode_config_funcs.fb_create and drm_gem_fb_create() receive the
 * format info the core already looked up (81112eaac559 "drm: Pass the format
 * info to .fb_create()", 04a5889cf75a "drm/gem: Pass along the format info
 * from .fb_create() to drm_helper_mode_fill_fb_struct()").
 * vflipq_fb_create() (vflipq_caso.c) has the new prototype; VFLIPQ_FB_CREATE
 * is what goes into drm_mode_config_funcs: on older kernels a wrapper with
 * the old prototype that looks the info up the way the core does.
 */
struct drm_framebuffer *vflipq_fb_create(struct drm_device *drm,
					 struct drm_file *file,
					 const struct drm_format_info *info,
					 const struct drm_mode_fb_cmd2 *cmd);

#ifdef VFLIPQ_HAVE_FB_CREATE_INFO
#define VFLIPQ_FB_CREATE vflipq_fb_create
#else
static inline struct drm_framebuffer *
vflipq_fb_create_compat(struct drm_device *drm, struct drm_file *file,
			const struct drm_mode_fb_cmd2 *cmd)
{
	return vflipq_fb_create(drm, file, drm_get_format_info(drm, cmd), cmd);
}

#define VFLIPQ_FB_CREATE vflipq_fb_create_compat
#endif

/*
 * The lock and the ops of a struct dma_fence: in 7.2, not in 6.12, a fence
 * initialised without a lock uses one inside it (DMA_FENCE_FLAG_INLINE_LOCK_BIT),
 * the external one became &dma_fence.extern_lock, and the ops are
 * RCU-protected (the core detaches them when a fence without release or
 * wait ops signals).  vflipq_fence_rebind() is for a fence nobody else has
 * seen yet (vflipq_fence.c).
 */
static inline spinlock_t *vflipq_fence_lock(struct dma_fence *fence)
{
#ifdef VFLIPQ_HAVE_FENCE_EXTERN_LOCK
	return fence->extern_lock;
#else
	return fence->lock;
#endif
}

static inline void vflipq_fence_rebind(struct dma_fence *fence,
				       const struct dma_fence_ops *ops,
				       spinlock_t *lock)
{
#ifdef VFLIPQ_HAVE_FENCE_EXTERN_LOCK
	fence->extern_lock = lock;
#else
	fence->lock = lock;
#endif
#ifdef VFLIPQ_HAVE_FENCE_RCU_OPS
	RCU_INIT_POINTER(fence->ops, ops);
#else
	fence->ops = ops;
#endif
}

/*
 * Encoders that may not share a CRTC: 6.14 ("drm: add clone mode check for
 * CRTC") made drm_atomic_helper_check_modeset() refuse an encoder_mask
 * outside possible_clones, and the stable series took it (6.1 and 6.12 as
 * vflipq tests them have it).  The core's check is a static function that
 * no header shows, so no probe can tell whether a kernel DKMS builds for
 * has it: this copy runs everywhere, a second look where the core looked.
 */
static inline int vflipq_check_clones(const struct drm_crtc_state *crtc_state)
{
	struct drm_encoder *enc;

	drm_for_each_encoder_mask(enc, crtc_state->crtc->dev,
				  crtc_state->encoder_mask)
		if ((crtc_state->encoder_mask & enc->possible_clones) !=
		    crtc_state->encoder_mask)
			return -EINVAL;
	return 0;
}

#endif /* _VFLIPQ_COMPAT_H_ */
