/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Interfaces that differ between the kernels vflipq builds against (6.1 and
 * 6.12).  Kbuild probes the headers and defines VFLIPQ_HAVE_*; nothing here
 * tests version numbers.
 */
#ifndef _VFLIPQ_COMPAT_H_
#define _VFLIPQ_COMPAT_H_

#include <linux/mm.h>

#include <drm/drm_connector.h>

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
 * Async page flips need nothing here: mode_config.async_page_flip enables
 * DRM_MODE_PAGE_FLIP_ASYNC on the legacy page-flip ioctl on every
 * supported kernel, and from 6.8 on ("drm: allow DRM_MODE_PAGE_FLIP_ASYNC
 * for atomic commits", "drm: introduce DRM_CAP_ATOMIC_ASYNC_PAGE_FLIP")
 * also on the atomic ioctl, where the core only lets such a commit change
 * the primary plane's FB_ID.  On 6.1 the atomic ioctl refuses the flag
 * with -EINVAL.
 */

static inline void vflipq_vma_forbid_write(struct vm_area_struct *vma)
{
#ifdef VFLIPQ_HAVE_VM_FLAGS_CLEAR
	vm_flags_clear(vma, VM_MAYWRITE);
#else
	vma->vm_flags &= ~VM_MAYWRITE;
#endif
}

#endif /* _VFLIPQ_COMPAT_H_ */
