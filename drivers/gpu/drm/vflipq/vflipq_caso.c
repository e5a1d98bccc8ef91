// SPDX-License-Identifier: GPL-2.0-only
/*
 * Cross-adapter scan-out (CASO): what makes an imported buffer a valid
 * cross-adapter buffer, whether this adapter scans it out (tier 3 and the
 * tier-3 minimum), the NO_SCANOUT query, and the display bandwidth budget
 * that atomic check enforces across the CRTCs.
 */

#include <linux/mm.h>

#include <drm/drm_atomic.h>
#include <drm/drm_blend.h>
#include <drm/drm_file.h>
#include <drm/drm_fourcc.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_framebuffer_helper.h>
#include <drm/drm_modeset_lock.h>
#include <drm/drm_print.h>

#include "vflipq_drm.h"
#include "vflipq_drv.h"

/* The DXGI DisplayScanOut list, with the X variants of the same layout. */
static const u32 vflipq_caso_min_formats[] = {
	DRM_FORMAT_ABGR16161616F,
	DRM_FORMAT_XBGR16161616F,
	DRM_FORMAT_ABGR2101010,
	DRM_FORMAT_XBGR2101010,
	DRM_FORMAT_ABGR8888,
	DRM_FORMAT_XBGR8888,
	DRM_FORMAT_ARGB8888,
	DRM_FORMAT_XRGB8888,
};

static bool in_list(const u32 *list, unsigned int n, u32 format)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (list[i] == format)
			return true;
	return false;
}

/* Imported from another device: PRIME of our own buffers is not. */
bool vflipq_fb_is_cross_adapter(const struct drm_framebuffer *fb)
{
	unsigned int i;

	for (i = 0; i < fb->format->num_planes; i++)
		if (fb->obj[i] && fb->obj[i]->import_attach)
			return true;
	return false;
}

bool vflipq_fb_owned_by(struct drm_framebuffer *fb, struct drm_file *file)
{
	struct drm_framebuffer *f;
	bool found = false;

	mutex_lock(&file->fbs_lock);
	list_for_each_entry(f, &file->fbs, filp_head) {
		if (f == fb) {
			found = true;
			break;
		}
	}
	mutex_unlock(&file->fbs_lock);
	return found;
}

/*
 * A cross-adapter buffer is linear, one allocation, starts page-aligned
 * and has rows a multiple of 128 bytes.  The size check repeats the
 * core's on purpose: it is what the cross-adapter contract promises.
 */
static int vflipq_caso_check_buffer(struct drm_device *drm,
				    const struct drm_framebuffer *fb)
{
	const struct drm_format_info *info = fb->format;
	unsigned int i;

	if (fb->modifier != DRM_FORMAT_MOD_LINEAR) {
		drm_dbg_kms(drm, "cross-adapter buffer not linear\n");
		return -EINVAL;
	}
	if (fb->offsets[0] % PAGE_SIZE) {
		drm_dbg_kms(drm, "cross-adapter buffer not page-aligned\n");
		return -EINVAL;
	}
	for (i = 0; i < info->num_planes; i++) {
		unsigned int w = drm_format_info_plane_width(info, fb->width, i);
		unsigned int h = drm_format_info_plane_height(info, fb->height,
							      i);
		u64 end;

		if (fb->obj[i] != fb->obj[0]) {
			drm_dbg_kms(drm, "cross-adapter buffer: one allocation\n");
			return -EINVAL;
		}
		if (fb->pitches[i] % VFLIPQ_CASO_PITCH_ALIGN) {
			drm_dbg_kms(drm, "cross-adapter pitch %u not a multiple of %u\n",
				    fb->pitches[i], VFLIPQ_CASO_PITCH_ALIGN);
			return -EINVAL;
		}
		end = (u64)fb->pitches[i] * (h - 1) +
		      drm_format_info_min_pitch(info, i, w) + fb->offsets[i];
		if (end > fb->obj[0]->size) {
			drm_dbg_kms(drm, "cross-adapter buffer too small\n");
			return -EINVAL;
		}
	}
	return 0;
}

/* ADDFB2, with the cross-adapter rules for imported buffers. */
struct drm_framebuffer *vflipq_fb_create(struct drm_device *drm,
					 struct drm_file *file,
					 const struct drm_format_info *info,
					 const struct drm_mode_fb_cmd2 *cmd)
{
	struct drm_framebuffer *fb = vflipq_gem_fb_create(drm, file, info, cmd);
	int ret;

	if (IS_ERR(fb) || !vflipq_fb_is_cross_adapter(fb))
		return fb;

	ret = vflipq_caso_check_buffer(drm, fb);
	if (ret) {
		drm_dbg_kms(drm, "not a valid cross-adapter buffer\n");
		drm_framebuffer_put(fb);
		return ERR_PTR(ret);
	}
	return fb;
}

static u32 scanout_reasons(const struct vflipq_device *vdev, u32 width,
			   u32 height, u32 format, bool cross_adapter)
{
	u32 reasons = 0;

	if (!vdev->config.crtcs)
		reasons |= VFLIPQ_NO_SCANOUT_NO_DISPLAY;
	if (!in_list(vflipq_overlay_formats, vflipq_num_overlay_formats,
		     format))
		reasons |= VFLIPQ_NO_SCANOUT_FORMAT;
	if (width > VFLIPQ_MAX_DIM || height > VFLIPQ_MAX_DIM)
		reasons |= VFLIPQ_NO_SCANOUT_SIZE;
	if (!cross_adapter)
		return reasons;
	if (!(vdev->config.caso_caps & VFLIPQ_CASO_SCANOUT))
		reasons |= VFLIPQ_NO_SCANOUT_TIER;
	/* Beyond the tier-3 minimum the driver opts out. */
	if (width > VFLIPQ_CASO_SCANOUT_MAX_WIDTH ||
	    height > VFLIPQ_CASO_SCANOUT_MAX_HEIGHT ||
	    !in_list(vflipq_caso_min_formats,
		     ARRAY_SIZE(vflipq_caso_min_formats), format))
		reasons |= VFLIPQ_NO_SCANOUT_BEYOND_MIN;
	return reasons;
}

/*
 * May @fb go on a plane?  Local buffers always; cross-adapter ones only on
 * a tier-3 adapter and within what the query answers OK for.
 */
int vflipq_caso_check_scanout(struct vflipq_device *vdev,
			      const struct drm_framebuffer *fb)
{
	if (!vflipq_fb_is_cross_adapter(fb))
		return 0;
	if (scanout_reasons(vdev, fb->width, fb->height, fb->format->format,
			    true)) {
		drm_dbg_kms(&vdev->drm,
			    "cross-adapter fb %u not scanned out (tier %u)\n",
			    fb->base.id, vflipq_caso_tier(vdev->config.caso_caps));
		return -EINVAL;
	}
	return 0;
}

int vflipq_ioctl_scanout_query(struct drm_device *drm, void *data,
			       struct drm_file *file)
{
	struct vflipq_device *vdev = to_vflipq_device(drm);
	struct drm_vflipq_scanout_query *q = data;
	u32 reasons;

	if (q->flags & ~(VFLIPQ_SCANOUT_CROSS_ADAPTER |
			 VFLIPQ_SCANOUT_PRIMARY) ||
	    q->result || q->reasons || q->reserved[0] || q->reserved[1] ||
	    !q->width || !q->height ||
	    q->rotation & ~(DRM_MODE_ROTATE_MASK | DRM_MODE_REFLECT_MASK) ||
	    hweight32(q->rotation & DRM_MODE_ROTATE_MASK) > 1)
		return -EINVAL;

	reasons = scanout_reasons(vdev, q->width, q->height, q->format,
				  q->flags & VFLIPQ_SCANOUT_CROSS_ADAPTER);
	/* Planes are single-sampled, linear, and rotate any way. */
	if (q->samples > 1)
		reasons |= VFLIPQ_NO_SCANOUT_MSAA;
	if (q->modifier != DRM_FORMAT_MOD_LINEAR)
		reasons |= VFLIPQ_NO_SCANOUT_MODIFIER;

	q->reasons = reasons;
	q->result = reasons ? VFLIPQ_SCANOUT_NO_SCANOUT : VFLIPQ_SCANOUT_OK;
	return 0;
}

/* The state a check sees of @crtc: in the commit, or current (locked). */
static struct drm_crtc_state *bw_crtc_state(struct drm_atomic_state *state,
					    struct drm_crtc *crtc, int *ret)
{
	struct drm_crtc_state *cs = drm_atomic_get_new_crtc_state(state, crtc);

	if (cs)
		return cs;
	*ret = drm_modeset_lock(&crtc->mutex, state->acquire_ctx);
	return *ret ? NULL : crtc->state;
}

/*
 * Display bandwidth in pixels per second over every active CRTC: each
 * visible plane costs its size times the refresh, twice over when rotated
 * by 90 or 270 degrees (column reads).  The states of CRTCs and planes
 * outside the commit are only read, so a TEST_ONLY check leaves nothing
 * behind.
 */
int vflipq_caso_check_bandwidth(struct drm_device *drm,
				struct drm_atomic_state *state)
{
	struct vflipq_device *vdev = to_vflipq_device(drm);
	u64 total = 0;
	struct drm_crtc *crtc;
	int ret = 0;

	if (!vdev->config.bandwidth)
		return 0;

	drm_for_each_crtc(crtc, drm) {
		struct drm_crtc_state *cs = bw_crtc_state(state, crtc, &ret);
		struct drm_plane *plane;
		u64 refresh;

		if (ret)
			return ret;
		if (!cs->active)
			continue;
		refresh = drm_mode_vrefresh(&cs->mode);
		drm_for_each_plane_mask(plane, drm, cs->plane_mask) {
			struct drm_plane_state *ps =
				vflipq_plane_state_seen(state, plane);
			u64 px;

			if (IS_ERR(ps))
				return PTR_ERR(ps);
			if (!ps->visible)
				continue;
			px = (u64)drm_rect_width(&ps->dst) *
			     drm_rect_height(&ps->dst) * refresh;
			if (drm_rotation_90_or_270(ps->rotation))
				px *= 2;
			total += px;
		}
	}
	if (total > vdev->config.bandwidth) {
		drm_dbg_atomic(drm, "bandwidth %llu px/s over the budget %llu\n",
			       total, vdev->config.bandwidth);
		return -ENOSPC;
	}
	return 0;
}
