// SPDX-License-Identifier: GPL-2.0-only
/*
 * Flip-queue ioctls.  Each one takes the modeset lock of its CRTC, which
 * serialises them against each other and against commits on that CRTC;
 * the engine is only ever touched under engine_lock.  Every field is
 * validated before anything changes.
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

/* A 1.2 caller's plane ends at @src_h and cannot ask for a rotation. */
#define FQ_PLANE_SIZE_1_2 offsetofend(struct drm_vflipq_flip_plane, src_h)
static_assert(FQ_PLANE_SIZE_1_2 == 56);
static_assert(sizeof(struct drm_vflipq_flip_plane) == 64);

static bool all_zero(const void *p, size_t len)
{
	return !memchr_inv(p, 0, len);
}

static struct vflipq_output *fq_output(struct drm_device *drm,
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

static struct vflipq_plane *fq_plane(struct vflipq_output *out,
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

	*out = fq_output(drm, file, crtc_id, &ret);
	if (!*out)
		return ret;
	*vplane = fq_plane(*out, file, plane_id);
	return *vplane ? 0 : -EINVAL;
}

static bool plane_has_format(struct drm_plane *plane, u32 format)
{
	unsigned int i;

	for (i = 0; i < plane->format_count; i++)
		if (plane->format_types[i] == format)
			return true;
	return false;
}

/*
 * What the plane's rotation property admits, exactly: a queued flip must
 * not show anything an atomic commit could not have asked for.
 */
static bool plane_has_rotation(struct drm_plane *plane, u32 rotation)
{
	struct drm_property_enum *e;
	u32 supported = DRM_MODE_ROTATE_0;

	if (plane->rotation_property) {
		supported = 0;
		list_for_each_entry(e, &plane->rotation_property->enum_list,
				    head)
			supported |= BIT(e->value);
	}
	return !(rotation & ~supported) &&
	       hweight32(rotation & DRM_MODE_ROTATE_MASK) == 1;
}

/* src within the framebuffer, computed without overflow (16.16 values). */
static bool src_in_fb(const struct vflipq_fq_buf *buf)
{
	return (u64)buf->src_x + buf->src_w <= (u64)buf->fb->width << 16 &&
	       (u64)buf->src_y + buf->src_h <= (u64)buf->fb->height << 16;
}

/*
 * What an atomic check makes of a plane that cannot scale but can be
 * positioned (drm_atomic_helper_check_plane_state() with
 * DRM_PLANE_NO_SCALING): @buf's source and destination clipped to the
 * mode, the source in whole pixels.  0, or -EINVAL if the flip would
 * scale, show nothing or start mid-pixel.
 */
static int fq_clip(struct vflipq_fq_buf *buf,
		   const struct drm_crtc_state *crtc_state)
{
	const struct drm_framebuffer *fb = buf->fb;
	struct drm_rect src, clip = { };

	drm_rect_init(&src, buf->src_x, buf->src_y, buf->src_w, buf->src_h);
	drm_rect_init(&buf->dst, buf->crtc_x, buf->crtc_y, buf->crtc_w,
		      buf->crtc_h);
	drm_rect_rotate(&src, fb->width << 16, fb->height << 16, buf->rotation);
	if (drm_rect_calc_hscale(&src, &buf->dst, DRM_PLANE_NO_SCALING,
				 DRM_PLANE_NO_SCALING) < 0 ||
	    drm_rect_calc_vscale(&src, &buf->dst, DRM_PLANE_NO_SCALING,
				 DRM_PLANE_NO_SCALING) < 0)
		return -EINVAL;
	if (crtc_state->enable)
		drm_mode_get_hv_timing(&crtc_state->mode, &clip.x2, &clip.y2);
	if (!drm_rect_clip_scaled(&src, &buf->dst, &clip))
		return -EINVAL;
	drm_rect_rotate_inv(&src, fb->width << 16, fb->height << 16,
			    buf->rotation);
	if ((src.x1 | src.y1 | src.x2 | src.y2) & 0xffff)
		return -EINVAL;
	drm_rect_init(&buf->src, src.x1 >> 16, src.y1 >> 16,
		      drm_rect_width(&src) >> 16, drm_rect_height(&src) >> 16);
	return 0;
}

/*
 * Turn one requested plane into a buffer the engine can scan out: the same
 * checks an atomic commit would make, on the plane's current geometry with
 * what the flip changes.
 */
static int fq_prepare(struct vflipq_output *out, struct drm_file *file,
		      struct vflipq_plane *vplane,
		      const struct drm_vflipq_flip_plane *r, u32 plane_size,
		      struct vfq_submit_plane *sp)
{
	struct drm_plane *plane = &vplane->base;
	const struct drm_plane_state *cur = plane->state;
	struct drm_framebuffer *fb;
	struct vflipq_fq_buf *buf;
	int ret;

	if (r->flags & ~(VFLIPQ_FLIP_PLANE_GEOMETRY |
			 VFLIPQ_FLIP_PLANE_ROTATION) ||
	    r->mode > VFLIPQ_FLIP_IMMEDIATE_NO_TEARING || !r->present_id ||
	    r->pad)
		return -EINVAL;
	/*
	 * A plane too short to hold @rotation would read as rotation 0 here:
	 * refuse the flag instead of guessing what its caller meant.
	 */
	if (r->flags & VFLIPQ_FLIP_PLANE_ROTATION) {
		if (plane_size < offsetofend(struct drm_vflipq_flip_plane,
					     rotation) ||
		    !plane_has_rotation(plane, r->rotation))
			return -EINVAL;
	} else if (r->rotation) {
		return -EINVAL;
	}
	if (!(r->flags & VFLIPQ_FLIP_PLANE_GEOMETRY) &&
	    (r->crtc_x || r->crtc_y || r->crtc_w || r->crtc_h || r->src_x ||
	     r->src_y || r->src_w || r->src_h))
		return -EINVAL;
	if ((r->flags & VFLIPQ_FLIP_PLANE_GEOMETRY) &&
	    (!r->crtc_w || !r->crtc_h || r->crtc_w > INT_MAX ||
	     r->crtc_h > INT_MAX))
		return -EINVAL;
	/* The queue changes what a plane on screen shows. */
	if (cur->crtc != &out->crtc || !cur->fb || !cur->visible)
		return -EINVAL;

	fb = drm_framebuffer_lookup(out->crtc.dev, file, r->fb_id);
	if (!fb)
		return -EINVAL;
	ret = -EINVAL;
	/*
	 * KMS lets any client name any framebuffer; the queue only takes the
	 * submitter's own, so one client cannot make another's buffers
	 * outlive it in a queue.
	 */
	if (!vflipq_fb_owned_by(fb, file) ||
	    fb->modifier != DRM_FORMAT_MOD_LINEAR ||
	    !plane_has_format(plane, fb->format->format) ||
	    vflipq_caso_check_scanout(out->vdev, fb))
		goto err_fb;

	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (!buf) {
		ret = -ENOMEM;
		goto err_fb;
	}
	buf->fb = fb;
	buf->crtc_x = cur->crtc_x;
	buf->crtc_y = cur->crtc_y;
	buf->crtc_w = cur->crtc_w;
	buf->crtc_h = cur->crtc_h;
	buf->src_x = cur->src_x;
	buf->src_y = cur->src_y;
	buf->src_w = cur->src_w;
	buf->src_h = cur->src_h;
	buf->rotation = cur->rotation;
	if (r->flags & VFLIPQ_FLIP_PLANE_GEOMETRY) {
		buf->crtc_x = r->crtc_x;
		buf->crtc_y = r->crtc_y;
		buf->crtc_w = r->crtc_w;
		buf->crtc_h = r->crtc_h;
		buf->src_x = r->src_x;
		buf->src_y = r->src_y;
		buf->src_w = r->src_w;
		buf->src_h = r->src_h;
	}
	/* Before the clip: 90 and 270 swap which source fits the destination. */
	if (r->flags & VFLIPQ_FLIP_PLANE_ROTATION)
		buf->rotation = r->rotation;
	if (!src_in_fb(buf) || fq_clip(buf, out->crtc.state))
		goto err_buf;
	/*
	 * Atomic check admitted the plane's current size against the display
	 * bandwidth budget; a queued flip may not grow it behind its back.
	 */
	if (out->vdev->config.bandwidth &&
	    (u64)drm_rect_width(&buf->dst) * drm_rect_height(&buf->dst) >
	    (u64)drm_rect_width(&cur->dst) * drm_rect_height(&cur->dst)) {
		ret = -ENOSPC;
		goto err_buf;
	}

	ret = drm_gem_fb_vmap(fb, buf->map, buf->data);
	if (ret)
		goto err_buf;
	if (buf->map[0].is_iomem) {
		drm_gem_fb_vunmap(fb, buf->map);
		ret = -EINVAL;
		goto err_buf;
	}

	vflipq_fq_buf_init(buf, out->vdev, fb);
	buf->reader = vflipq_format_ops(fb->format->format);
	vflipq_xform_init(&buf->xform, buf->src.x1, buf->src.y1,
			  drm_rect_width(&buf->src), drm_rect_height(&buf->src),
			  buf->rotation);

	sp->plane = vplane->fq_index;
	sp->present_id = r->present_id;
	sp->mode = r->mode;
	sp->buf = buf;
	sp->cfg = (struct vfq_plane_cfg) {
		.format = fb->format->format,
		.cpp = fb->format->cpp[0],
		.crtc_x = buf->crtc_x, .crtc_y = buf->crtc_y,
		.crtc_w = buf->crtc_w, .crtc_h = buf->crtc_h,
		.src_x = buf->src_x, .src_y = buf->src_y,
		.src_w = buf->src_w, .src_h = buf->src_h,
		.rotation = buf->rotation,
	};
	return 0;

err_buf:
	kfree(buf);
err_fb:
	drm_framebuffer_put(fb);
	return ret;
}

static bool fq_others_pending(struct vflipq_output *out)
{
	struct vflipq_device *vdev = out->vdev;
	bool pending = false;
	unsigned int i;

	for (i = 0; i < vdev->config.crtcs && !pending; i++) {
		struct vflipq_output *o = vdev->outputs[i];

		if (o == out)
			continue;
		spin_lock_irq(&o->engine_lock);
		vflipq_flipq_sync_locked(o);
		pending = vfq_pending_total(&o->flipq.core) > 0;
		spin_unlock_irq(&o->engine_lock);
	}
	return pending;
}

/*
 * The queue of a CRTC belongs to one file at a time (with leases several
 * files can be master): another one gets -EBUSY until the owner is gone.
 * Called with engine_lock held.
 */
static int fq_claim(struct vflipq_output *out, struct drm_file *file)
{
	lockdep_assert_held(&out->engine_lock);
	if (out->flipq.owner && out->flipq.owner != file)
		return -EBUSY;
	out->flipq.owner = file;
	return 0;
}

/* Under engine_lock: the engine must run while anything is wanted. */
static void fq_wake_engine(struct vflipq_output *out)
{
	lockdep_assert_held(&out->engine_lock);
	vfq_power_update(&out->flipq.core, ktime_get_ns(),
			 out->vblank_wanted || out->composer_users);
	vflipq_engine_kick_locked(out);
}

static int fq_copy_planes(struct drm_vflipq_flip_plane *req, u64 ptr,
			  u32 n, u32 size)
{
	u32 i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = copy_struct_from_user(&req[i], sizeof(req[i]),
					    u64_to_user_ptr(ptr + (u64)i * size),
					    size);
		if (ret)
			return ret == -E2BIG ? -EINVAL : ret;
	}
	return 0;
}

int vflipq_ioctl_flipq_submit(struct drm_device *drm, void *data,
			      struct drm_file *file)
{
	struct drm_vflipq_flip_submit *args = data;
	struct drm_vflipq_flip_plane *req;
	struct vflipq_plane *vplanes[VFQ_MAX_PLANES];
	struct drm_modeset_acquire_ctx ctx;
	struct vfq_submit *s;
	struct vflipq_output *out;
	struct vfq_drain drain;
	unsigned int i, prepared = 0;
	int ret;

	args->drain_flags = 0;
	args->drain_planes = 0;
	if (args->flags || !all_zero(args->reserved, sizeof(args->reserved)) ||
	    !args->num_planes || args->num_planes > VFQ_MAX_PLANES ||
	    args->plane_size < offsetofend(struct drm_vflipq_flip_plane,
					   present_id) ||
	    args->plane_size > PAGE_SIZE)
		return -EINVAL;

	out = fq_output(drm, file, args->crtc_id, &ret);
	if (!out)
		return ret;

	req = kcalloc(VFQ_MAX_PLANES, sizeof(*req), GFP_KERNEL);
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!req || !s) {
		ret = -ENOMEM;
		goto out_free;
	}
	ret = fq_copy_planes(req, args->planes_ptr, args->num_planes,
			     args->plane_size);
	if (ret)
		goto out_free;

	drm_modeset_acquire_init(&ctx, DRM_MODESET_ACQUIRE_INTERRUPTIBLE);
retry:
	ret = drm_modeset_lock(&out->crtc.mutex, &ctx);
	if (ret)
		goto out_locks;
	for (i = 0; i < args->num_planes; i++) {
		vplanes[i] = fq_plane(out, file, req[i].plane_id);
		if (!vplanes[i]) {
			ret = -EINVAL;
			goto out_locks;
		}
		ret = drm_modeset_lock(&vplanes[i]->base.mutex, &ctx);
		if (ret)
			goto out_locks;
	}
	if (!out->crtc.state->active) {
		ret = -EBUSY;
		goto out_locks;
	}

	for (prepared = 0; prepared < args->num_planes; prepared++) {
		ret = fq_prepare(out, file, vplanes[prepared], &req[prepared],
				 args->plane_size, &s->p[prepared]);
		if (ret)
			goto out_bufs;
	}
	s->nplanes = args->num_planes;
	s->target_ns = args->target_ns;
	s->others_pending = fq_others_pending(out);

	spin_lock_irq(&out->engine_lock);
	vflipq_flipq_sync_locked(out);
	if (args->duration_ns) {
		s->duration_ns = vflipq_flipq_snap_period(out,
							  args->duration_ns);
		if (!s->duration_ns) {
			spin_unlock_irq(&out->engine_lock);
			ret = -EINVAL;
			goto out_bufs;
		}
	}
	/* The queue schedules on the mode's grid: not while VRR is on. */
	ret = out->vrr ? -EBUSY : fq_claim(out, file);
	if (!ret)
		ret = vfq_submit(&out->flipq.core, s, ktime_get_ns(), &drain);
	if (!ret) {
		fq_wake_engine(out);
		vflipq_flipq_arm_immediate(out);
	}
	spin_unlock_irq(&out->engine_lock);

	for (i = 0; !ret && i < s->nplanes; i++)
		trace_vflipq_flip_queue(out->crtc.base.id,
					req[i].plane_id, req[i].present_id,
					args->target_ns, req[i].mode);

	if (ret == -EAGAIN) {
		args->drain_flags = drain.flags;
		for (i = 0; i < s->nplanes; i++)
			if (drain.plane_mask & BIT(s->p[i].plane))
				args->drain_planes |= BIT(i);
	}
	if (!ret)
		prepared = 0;	/* the queue owns the buffers now */

out_bufs:
	for (i = 0; i < prepared; i++)
		vflipq_fq_buf_put(s->p[i].buf);
	prepared = 0;
out_locks:
	if (ret == -EDEADLK) {
		drm_modeset_backoff(&ctx);
		goto retry;
	}
	drm_modeset_drop_locks(&ctx);
	drm_modeset_acquire_fini(&ctx);
out_free:
	kfree(s);
	kfree(req);
	return ret;
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

	out = fq_output(drm, file, args->crtc_id, &ret);
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
		struct vflipq_plane *vplane = fq_plane(out, file, req[i].plane_id);

		if (!vplane) {
			ret = -EINVAL;
			goto out_unlock;
		}
		creq[i] = (struct vfq_cancel_plane) {
			.plane = vplane->fq_index,
			.requested = req[i].present_id_cancel_requested,
		};
	}

	spin_lock_irq(&out->engine_lock);
	vflipq_flipq_sync_locked(out);
	ret = fq_claim(out, file);
	if (!ret)
		ret = vfq_cancel(&out->flipq.core, creq, args->num_planes,
				 ktime_get_ns());
	spin_unlock_irq(&out->engine_lock);
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
	spin_lock_irq(&out->engine_lock);
	vflipq_flipq_sync_locked(out);
	if (out->flipq.core.planes[vplane->fq_index].count ||
	    (out->flipq.owner && out->flipq.owner != file))
		ret = -EBUSY;
	spin_unlock_irq(&out->engine_lock);
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

	spin_lock_irq(&out->engine_lock);
	vflipq_flipq_sync_locked(out);
	vfq_set_log(&out->flipq.core, vplane->fq_index, log ? log->entries : NULL,
		    args->num_entries);
	old = out->flipq.logs[vplane->fq_index];
	out->flipq.logs[vplane->fq_index] = log;
	fq_claim(out, file);
	spin_unlock_irq(&out->engine_lock);

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
	spin_lock_irq(&out->engine_lock);
	vflipq_flipq_sync_locked(out);
	ret = out->flipq.owner && out->flipq.owner != file ? -EBUSY : 0;
	args->first_free = vfq_log_first_free(&out->flipq.core, pi);
	args->present_id_shown = out->flipq.core.planes[pi].shown_id;
	if (!ret)
		out->flipq.log_read_gen = out->flipq.scanout_gen;
	spin_unlock_irq(&out->engine_lock);
	if (ret) {
		args->first_free = 0;
		args->present_id_shown = 0;
	}
	return ret;
}

int vflipq_ioctl_flipq_set_irq_target(struct drm_device *drm, void *data,
				      struct drm_file *file)
{
	struct drm_vflipq_set_irq_target *args = data;
	struct vflipq_plane *vplane;
	struct vflipq_output *out;
	int ret;

	if (args->flags || args->pad ||
	    !all_zero(args->reserved, sizeof(args->reserved)))
		return -EINVAL;

	ret = fq_output_plane(drm, file, args->crtc_id, args->plane_id, &out,
			      &vplane);
	if (ret)
		return ret;

	ret = drm_modeset_lock_single_interruptible(&out->crtc.mutex);
	if (ret)
		return ret;
	spin_lock_irq(&out->engine_lock);
	vflipq_flipq_sync_locked(out);
	ret = fq_claim(out, file);
	if (!ret) {
		vfq_set_irq_target(&out->flipq.core, vplane->fq_index, args->target);
		fq_wake_engine(out);
	}
	spin_unlock_irq(&out->engine_lock);
	drm_modeset_unlock(&out->crtc.mutex);
	return ret;
}
