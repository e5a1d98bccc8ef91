// SPDX-License-Identifier: GPL-2.0-only
/*
 * Flip-queue ioctls other than the submissions (vflipq_flipq_submit.c).
 * Each one takes the modeset lock of its CRTC, which serialises them
 * against each other and against commits on that CRTC; the engine is only
 * ever touched under engine.lock.  Every field is validated before
 * anything changes.
 */

#include <linux/bitops.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_atomic_helper.h>
#include <drm/drm_crtc.h>
#include <drm/drm_file.h>
#include <drm/drm_fourcc.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_framebuffer_helper.h>
#include <drm/drm_modes.h>
#include <drm/drm_modeset_lock.h>
#include <drm/drm_plane.h>
#include <drm/drm_property.h>
#include <drm/drm_rect.h>

#include "vflipq_drm.h"
#include "vflipq_drv.h"
#include "vflipq_trace.h"

static bool all_zero(const void *p, size_t len)
{
	return !memchr_inv(p, 0, len);
}

struct vflipq_output *vflipq_fq_output(struct drm_device *drm,
				       struct drm_file *file, u32 crtc_id,
				       int *err)
{
	struct drm_crtc *crtc;
	struct vflipq_output *out;

	/* A render-only adapter has no CRTC (and no mode config to look in). */
	*err = -EOPNOTSUPP;
	if (!to_vflipq_device(drm)->config.crtcs)
		return NULL;
	*err = -EINVAL;
	crtc = drm_crtc_find(drm, file, crtc_id);
	if (!crtc)
		return NULL;
	out = crtc_to_output(crtc);
	if (out->flipq.core.depth <= 1) {
		*err = -EOPNOTSUPP;
		return NULL;
	}
	*err = 0;
	return out;
}

struct vflipq_plane *vflipq_fq_plane(struct vflipq_output *out,
				     struct drm_file *file, u32 plane_id)
{
	struct drm_plane *plane = drm_plane_find(out->crtc.dev, file, plane_id);
	struct vflipq_plane *vplane;

	if (!plane)
		return NULL;
	vplane = container_of(plane, struct vflipq_plane, base);
	return vplane->out == out ? vplane : NULL;
}

/* The output of @crtc_id and its plane @plane_id; 0 or -errno. */
static int fq_output_plane(struct drm_device *drm, struct drm_file *file,
			   u32 crtc_id, u32 plane_id, struct vflipq_output **out,
			   struct vflipq_plane **vplane)
{
	int ret;

	*out = vflipq_fq_output(drm, file, crtc_id, &ret);
	if (!*out)
		return ret;
	*vplane = vflipq_fq_plane(*out, file, plane_id);
	return *vplane ? 0 : -EINVAL;
}

/*
 * The queue of a CRTC belongs to one file at a time (with leases several
 * files can be master): another one gets -EBUSY until the owner is gone.
 * Called with engine.lock held.
 */
int vflipq_fq_claim(struct vflipq_output *out, struct drm_file *file)
{
	lockdep_assert_held(&out->engine.lock);
	if (out->flipq.owner && out->flipq.owner != file)
		return -EBUSY;
	out->flipq.owner = file;
	return 0;
}

/*
 * Under engine.lock, in the submitting client's context: the engine must
 * run while anything is wanted, and its interrupt comes to this CPU.
 */
void vflipq_fq_wake_engine(struct vflipq_output *out)
{
	lockdep_assert_held(&out->engine.lock);
	vfq_power_update(&out->flipq.core, ktime_get_ns(),
			 out->engine.vblank_wanted || out->composer.users);
	vflipq_engine_kick_locked(out);
	vflipq_engine_follow_locked(out);
}

int vflipq_ioctl_flipq_cancel(struct drm_device *drm, void *data,
			      struct drm_file *file)
{
	struct drm_vflipq_flip_cancel *args = data;
	struct drm_vflipq_cancel_plane req[VFQ_MAX_PLANES];
	struct vfq_cancel_plane creq[VFQ_MAX_PLANES];
	struct vflipq_output *out;
	unsigned int i;
	int ret;

	if (args->flags || !all_zero(args->reserved, sizeof(args->reserved)) ||
	    !args->num_planes || args->num_planes > VFQ_MAX_PLANES ||
	    args->plane_size < sizeof(req[0]) || args->plane_size > PAGE_SIZE)
		return -EINVAL;

	out = vflipq_fq_output(drm, file, args->crtc_id, &ret);
	if (!out)
		return ret;

	for (i = 0; i < args->num_planes; i++) {
		ret = copy_struct_from_user(&req[i], sizeof(req[i]),
					    u64_to_user_ptr(args->planes_ptr +
							    (u64)i * args->plane_size),
					    args->plane_size);
		if (ret)
			return ret == -E2BIG ? -EINVAL : ret;
		if (req[i].pad || req[i].present_id_cancelled)
			return -EINVAL;
	}

	ret = drm_modeset_lock_single_interruptible(&out->crtc.mutex);
	if (ret)
		return ret;
	for (i = 0; i < args->num_planes; i++) {
		struct vflipq_plane *vplane;

		vplane = vflipq_fq_plane(out, file, req[i].plane_id);

		if (!vplane) {
			ret = -EINVAL;
			goto out_unlock;
		}
		creq[i] = (struct vfq_cancel_plane) {
			.plane = vplane->fq_index,
			.requested = req[i].present_id_cancel_requested,
		};
	}

	spin_lock_irq(&out->engine.lock);
	vflipq_flipq_sync_locked(out);
	ret = vflipq_fq_claim(out, file);
	if (!ret)
		ret = vfq_cancel(&out->flipq.core, creq, args->num_planes,
				 ktime_get_ns());
	spin_unlock_irq(&out->engine.lock);
	if (ret)
		goto out_unlock;

	for (i = 0; i < args->num_planes; i++) {
		u64 __user *dst;

		trace_vflipq_flip_cancel(out->crtc.base.id, req[i].plane_id,
					 creq[i].requested, creq[i].cancelled);
		dst = u64_to_user_ptr(args->planes_ptr +
			(u64)i * args->plane_size +
			offsetof(struct drm_vflipq_cancel_plane,
				 present_id_cancelled));

		if (put_user(creq[i].cancelled, dst)) {
			ret = -EFAULT;
			break;
		}
	}
out_unlock:
	drm_modeset_unlock(&out->crtc.mutex);
	return ret;
}

int vflipq_ioctl_flipq_set_log(struct drm_device *drm, void *data,
			       struct drm_file *file)
{
	struct drm_vflipq_set_log *args = data;
	struct vflipq_log *log = NULL, *old;
	struct vflipq_plane *vplane;
	struct vflipq_output *out;
	u32 handle = 0;
	int ret;

	if (args->flags || args->pad || args->handle || args->size ||
	    !all_zero(args->reserved, sizeof(args->reserved)) ||
	    args->num_entries > VFLIPQ_LOG_MAX_ENTRIES)
		return -EINVAL;

	ret = fq_output_plane(drm, file, args->crtc_id, args->plane_id, &out,
			      &vplane);
	if (ret)
		return ret;

	ret = drm_modeset_lock_single_interruptible(&out->crtc.mutex);
	if (ret)
		return ret;

	/* Submits need this lock too: the plane stays idle from here on. */
	spin_lock_irq(&out->engine.lock);
	vflipq_flipq_sync_locked(out);
	if (out->flipq.core.planes[vplane->fq_index].count ||
	    (out->flipq.owner && out->flipq.owner != file))
		ret = -EBUSY;
	spin_unlock_irq(&out->engine.lock);
	if (ret)
		goto out_unlock;

	if (args->num_entries) {
		log = vflipq_log_create(drm, args->num_entries);
		if (IS_ERR(log)) {
			ret = PTR_ERR(log);
			goto out_unlock;
		}
		ret = drm_gem_handle_create(file, &log->base, &handle);
		if (ret) {
			drm_gem_object_put(&log->base);
			goto out_unlock;
		}
	}

	spin_lock_irq(&out->engine.lock);
	vflipq_flipq_sync_locked(out);
	vfq_set_log(&out->flipq.core, vplane->fq_index, log ? log->entries : NULL,
		    args->num_entries);
	old = out->flipq.logs[vplane->fq_index];
	out->flipq.logs[vplane->fq_index] = log;
	vflipq_fq_claim(out, file);
	spin_unlock_irq(&out->engine.lock);

	if (old)
		drm_gem_object_put(&old->base);
	args->handle = handle;
	args->size = log ? log->base.size : 0;
out_unlock:
	drm_modeset_unlock(&out->crtc.mutex);
	return ret;
}

int vflipq_ioctl_flipq_update_log(struct drm_device *drm, void *data,
				  struct drm_file *file)
{
	struct drm_vflipq_update_log *args = data;
	struct vflipq_plane *vplane;
	struct vflipq_output *out;
	unsigned int pi;
	int ret;

	if (args->flags || args->first_free || args->present_id_shown ||
	    !all_zero(args->reserved, sizeof(args->reserved)))
		return -EINVAL;

	ret = fq_output_plane(drm, file, args->crtc_id, args->plane_id, &out,
			      &vplane);
	if (ret)
		return ret;
	pi = vplane->fq_index;

	/*
	 * The engine writes the log as it goes: reading it is enough.  The
	 * entries reported hand the images they replaced back to the client
	 * before the composer may be done with them (the event waits for it):
	 * the composer must then not trust what it read (vflipq_composer.c).
	 */
	spin_lock_irq(&out->engine.lock);
	vflipq_flipq_sync_locked(out);
	ret = out->flipq.owner && out->flipq.owner != file ? -EBUSY : 0;
	args->first_free = vfq_log_first_free(&out->flipq.core, pi);
	args->present_id_shown = out->flipq.core.planes[pi].shown_id;
	if (!ret)
		out->flipq.log_read_gen = out->flipq.scanout_gen;
	spin_unlock_irq(&out->engine.lock);
	if (ret) {
		args->first_free = 0;
		args->present_id_shown = 0;
	}
	return ret;
}

/*
 * FLIPQ_SUBMIT without flips: the interrupt target of @vplane, at once (a
 * submission with flips sets it under the lock that queues the last one).
 */
int vflipq_flipq_set_irq_target(struct vflipq_output *out,
				struct drm_file *file,
				struct vflipq_plane *vplane, u64 target)
{
	int ret;

	ret = drm_modeset_lock_single_interruptible(&out->crtc.mutex);
	if (ret)
		return ret;
	spin_lock_irq(&out->engine.lock);
	vflipq_flipq_sync_locked(out);
	ret = vflipq_fq_claim(out, file);
	if (!ret) {
		vfq_set_irq_target(&out->flipq.core, vplane->fq_index, target);
		vflipq_fq_wake_engine(out);
	}
	spin_unlock_irq(&out->engine.lock);
	drm_modeset_unlock(&out->crtc.mutex);
	return ret;
}
