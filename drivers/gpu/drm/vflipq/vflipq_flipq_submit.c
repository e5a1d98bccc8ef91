// SPDX-License-Identifier: GPL-2.0-only
/*
 * FLIPQ_SUBMIT: flips into the hardware queue.  A submission takes the
 * modeset locks of its CRTC and planes (against commits changing what the
 * queue flips), turns each plane into a buffer the engine can scan out,
 * then queues under engine.lock.  A batch does the expensive parts once:
 * one ioctl, one set of locks, one catch-up of the sleeping engine and one
 * look at when it must next wake.
 */

#include <linux/bitops.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_atomic_helper.h>
#include <drm/drm_crtc.h>
#include <drm/drm_file.h>
#include <drm/drm_fourcc.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_gem.h>
#include <drm/drm_modes.h>
#include <drm/drm_modeset_lock.h>
#include <drm/drm_plane.h>
#include <drm/drm_property.h>
#include <drm/drm_rect.h>

#include "vflipq_drm.h"
#include "vflipq_drv.h"
#include "vflipq_trace.h"

/* The 2.0 sizes: the smallest a caller may pass (uapi.rst, "ABI rules"). */
static_assert(sizeof(struct drm_vflipq_flip_plane) == 64);
static_assert(sizeof(struct drm_vflipq_flip) == 56);
static_assert(sizeof(struct drm_vflipq_flipq_submit) == 64);
static_assert(offsetof(struct drm_vflipq_flipq_submit, irq_target) == 40);

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

/* Checks on one requested plane's own fields (fq_prepare() does the rest). */
static int fq_plane_check(const struct drm_vflipq_flip_plane *r)
{
	if (r->flags & ~(VFLIPQ_FLIP_PLANE_GEOMETRY |
			 VFLIPQ_FLIP_PLANE_ROTATION) ||
	    r->mode > VFLIPQ_FLIP_IMMEDIATE_NO_TEARING || !r->present_id ||
	    r->pad)
		return -EINVAL;
	if (!(r->flags & VFLIPQ_FLIP_PLANE_ROTATION) && r->rotation)
		return -EINVAL;
	if (!(r->flags & VFLIPQ_FLIP_PLANE_GEOMETRY) &&
	    (r->crtc_x || r->crtc_y || r->crtc_w || r->crtc_h || r->src_x ||
	     r->src_y || r->src_w || r->src_h))
		return -EINVAL;
	if ((r->flags & VFLIPQ_FLIP_PLANE_GEOMETRY) &&
	    (!r->crtc_w || !r->crtc_h || r->crtc_w > INT_MAX ||
	     r->crtc_h > INT_MAX))
		return -EINVAL;
	return 0;
}

/* The plane's current geometry with what the flip changes. */
static void fq_buf_geometry(struct vflipq_fq_buf *buf,
			    const struct drm_plane_state *cur,
			    const struct drm_vflipq_flip_plane *r)
{
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
}

/*
 * Turn one requested plane into a buffer the engine can scan out: the same
 * checks an atomic commit would make, on the plane's current geometry with
 * what the flip changes.
 */
static int fq_prepare(struct vflipq_output *out, struct drm_file *file,
		      struct vflipq_plane *vplane,
		      const struct drm_vflipq_flip_plane *r,
		      struct vfq_submit_plane *sp)
{
	struct drm_plane *plane = &vplane->base;
	const struct drm_plane_state *cur = plane->state;
	struct drm_framebuffer *fb;
	struct vflipq_fq_buf *buf;
	int ret;

	if ((r->flags & VFLIPQ_FLIP_PLANE_ROTATION) &&
	    !plane_has_rotation(plane, r->rotation))
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
	fq_buf_geometry(buf, cur, r);
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

	ret = vflipq_fb_vmap(fb, buf->data);
	if (ret)
		goto err_buf;

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
		spin_lock_irq(&o->engine.lock);
		vflipq_flipq_sync_locked(o);
		pending = vfq_pending_total(&o->flipq.core) > 0;
		spin_unlock_irq(&o->engine.lock);
	}
	return pending;
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
		ret = fq_plane_check(&req[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * One submission of a call: what was asked and what it became.  Its
 * planes' entries live in one array for the whole call (fq_jobs_planes()),
 * sized by the planes the submissions name: a job with room for
 * VFQ_MAX_PLANES would be 1.6 KiB, and a batch of 16 single-plane flips
 * would go to the page allocator (and init_on_alloc clear its 32 KiB) on
 * every call.
 * Not zeroed as a whole: fq_job_init() sets what is read before being
 * written.
 */
struct fq_job {
	struct drm_vflipq_flip args;
	struct drm_vflipq_flip_plane *req;
	struct vflipq_plane **vplanes;
	struct vfq_submit s;
	/* planes of @s holding a buffer */
	unsigned int prepared;
	struct vfq_drain drain;
};

/* What a job keeps per plane: s.p, req and vplanes. */
#define FQ_PLANE_BYTES (sizeof(struct vfq_submit_plane) + \
			sizeof(struct drm_vflipq_flip_plane) + \
			sizeof(struct vflipq_plane *))

/*
 * Room for the planes of @jobs (their args read and checked), handed out
 * in order; kvfree() it after the jobs.  NULL when out of memory.
 */
static void *fq_jobs_planes(struct fq_job *jobs, unsigned int n)
{
	struct vfq_submit_plane *sp;
	struct drm_vflipq_flip_plane *req;
	struct vflipq_plane **vp;
	unsigned int j, total = 0;
	void *mem;

	for (j = 0; j < n; j++)
		total += jobs[j].args.num_planes;
	/* Each array's entries are 8-byte aligned: they follow each other. */
	static_assert(sizeof(*sp) % 8 == 0 && sizeof(*req) % 8 == 0);
	mem = kvmalloc_array(total, FQ_PLANE_BYTES, GFP_KERNEL);
	if (!mem)
		return NULL;
	sp = mem;
	req = (void *)(sp + total);
	vp = (void *)(req + total);
	for (j = 0; j < n; j++) {
		jobs[j].s.p = sp;
		jobs[j].req = req;
		jobs[j].vplanes = vp;
		sp += jobs[j].args.num_planes;
		req += jobs[j].args.num_planes;
		vp += jobs[j].args.num_planes;
	}
	return mem;
}

static void fq_job_init(struct fq_job *job)
{
	job->prepared = 0;
	job->s.nplanes = 0;
	job->s.duration_ns = 0;
	job->s.others_pending = false;
	memset(&job->drain, 0, sizeof(job->drain));
}

/*
 * Checks on one flip's own fields, before anything is looked up.  A target
 * past VFLIPQ_TARGET_NS_MAX would become a negative ktime where the queue
 * arms a timer for it: an expiry in the past, which the hrtimer core runs
 * again at once, in the same interrupt, for as long as the flip is queued.
 */
static int fq_job_check(const struct drm_vflipq_flip *args)
{
	if (args->flags || args->target_ns > VFLIPQ_TARGET_NS_MAX ||
	    memchr_inv(args->reserved, 0, sizeof(args->reserved)) ||
	    !args->num_planes || args->num_planes > VFQ_MAX_PLANES)
		return -EINVAL;
	return 0;
}

static void fq_job_put(struct fq_job *job)
{
	unsigned int i;

	for (i = 0; i < job->prepared; i++)
		vflipq_fq_buf_put(job->s.p[i].buf);
	job->prepared = 0;
}

/*
 * Look up and lock the planes of @jobs.  Return: 0, -EINVAL when a plane is
 * not one of the CRTC's, or the errno of a lock.
 */
static int fq_lock_planes(struct vflipq_output *out, struct drm_file *file,
			  struct fq_job *jobs, unsigned int n,
			  struct drm_modeset_acquire_ctx *ctx)
{
	unsigned int j, i;
	int ret;

	ret = drm_modeset_lock(&out->crtc.mutex, ctx);
	if (ret)
		return ret;
	for (j = 0; j < n; j++) {
		for (i = 0; i < jobs[j].args.num_planes; i++) {
			struct vflipq_plane *vplane;

			vplane = vflipq_fq_plane(out, file,
						 jobs[j].req[i].plane_id);
			if (!vplane)
				return -EINVAL;
			ret = drm_modeset_lock(&vplane->base.mutex, ctx);
			if (ret)
				return ret;
			jobs[j].vplanes[i] = vplane;
		}
	}
	return 0;
}

/* How many jobs back a plane looks for a buffer to share. */
#define FQ_SHARE_BACK 4

/*
 * Whether two requests make the same buffer: the same framebuffer and the
 * same geometry and rotation asked (fq_plane_check() zeroed the fields a
 * request's flags leave out).
 */
static bool fq_same_buffer(const struct drm_vflipq_flip_plane *a,
			   const struct drm_vflipq_flip_plane *b)
{
	const size_t from = offsetof(struct drm_vflipq_flip_plane, crtc_x);
	const size_t to = offsetofend(struct drm_vflipq_flip_plane, rotation);

	return a->fb_id == b->fb_id && a->flags == b->flags &&
	       !memcmp((const u8 *)a + from, (const u8 *)b + from, to - from);
}

/*
 * Plane @i of job @j as a plane of one of the jobs just before it made it,
 * or NULL.  A buffer is immutable once prepared and depends only on the
 * request and the plane and CRTC states, which the call holds locked: a
 * swap chain's few framebuffers recurring in a batch are looked up and
 * checked once per call, not once per flip.
 */
static const struct vfq_submit_plane *
fq_prepared_twin(const struct fq_job *jobs, unsigned int j, unsigned int i)
{
	const struct drm_vflipq_flip_plane *r = &jobs[j].req[i];
	unsigned int k, m;

	for (k = j; k-- > 0 && j - k <= FQ_SHARE_BACK;)
		for (m = 0; m < jobs[k].s.nplanes; m++)
			if (jobs[k].vplanes[m] == jobs[j].vplanes[i] &&
			    fq_same_buffer(&jobs[k].req[m], r))
				return &jobs[k].s.p[m];
	return NULL;
}

/*
 * Buffers for the planes of job @j of @jobs (the ones before it prepared);
 * 0 or its error.
 */
static int fq_job_prepare(struct vflipq_output *out, struct drm_file *file,
			  struct fq_job *jobs, unsigned int j)
{
	struct fq_job *job = &jobs[j];
	const struct vfq_submit_plane *twin;
	struct vfq_submit_plane *sp;
	int ret;

	for (job->prepared = 0; job->prepared < job->args.num_planes;
	     job->prepared++) {
		sp = &job->s.p[job->prepared];
		twin = fq_prepared_twin(jobs, j, job->prepared);
		if (twin) {
			struct vflipq_fq_buf *buf = twin->buf;

			kref_get(&buf->ref);
			*sp = *twin;
			sp->present_id = job->req[job->prepared].present_id;
			sp->mode = job->req[job->prepared].mode;
			continue;
		}
		ret = fq_prepare(out, file, job->vplanes[job->prepared],
				 &job->req[job->prepared], sp);
		if (ret) {
			fq_job_put(job);
			return ret;
		}
	}
	job->s.nplanes = job->args.num_planes;
	job->s.target_ns = job->args.target_ns;
	return 0;
}

/* Queue one prepared job; under engine.lock, the queue caught up. */
static int fq_job_queue(struct vflipq_output *out, struct drm_file *file,
			struct fq_job *job, bool others_pending)
{
	struct vfq_submit *s = &job->s;
	int ret;

	lockdep_assert_held(&out->engine.lock);
	s->others_pending = others_pending;
	if (job->args.duration_ns) {
		s->duration_ns = vflipq_flipq_snap_period(out,
							  job->args.duration_ns);
		if (!s->duration_ns)
			return -EINVAL;
	}
	/* The queue schedules on the mode's grid: not while VRR is on. */
	ret = out->engine.vrr ? -EBUSY : vflipq_fq_claim(out, file);
	if (!ret)
		ret = vfq_submit(&out->flipq.core, s, ktime_get_ns(),
				 &job->drain);
	if (!ret)
		job->prepared = 0;	/* the queue owns the buffers now */
	return ret;
}

/* An interrupt target set with the flips (VFLIPQ_SUBMIT_IRQ_TARGET). */
struct fq_irq {
	unsigned int plane;	/* vflipq_plane.fq_index */
	u64 target;
};

/*
 * Queue the first @n prepared jobs in order, stopping at the first one
 * the queue refuses.  Other CRTCs' queues matter only to a new pixel size
 * (a drain hint) and are looked at, under their own locks, only when a
 * job brings one.  @irq, if any, is set under the lock that queues the
 * last job, so that no vblank handles that job before it: only once all
 * are queued.  Return: the jobs queued; *@err the refused one's error.
 */
static unsigned int fq_queue_jobs(struct vflipq_output *out,
				  struct drm_file *file, struct fq_job *jobs,
				  unsigned int n, const struct fq_irq *irq,
				  int *err)
{
	bool others_known = false, others = false;
	unsigned int queued = 0, before;
	int ret = 0;

	while (queued < n && !ret) {
		before = queued;
		spin_lock_irq(&out->engine.lock);
		vflipq_flipq_sync_locked(out);
		for (; queued < n; queued++) {
			if (!others_known &&
			    vfq_submit_changes_cpp(&out->flipq.core,
						   &jobs[queued].s))
				break;
			ret = fq_job_queue(out, file, &jobs[queued], others);
			if (ret)
				break;
		}
		if (irq && queued == n)
			vfq_set_irq_target(&out->flipq.core, irq->plane,
					   irq->target);
		if (queued > before) {
			vflipq_fq_wake_engine(out);
			vflipq_flipq_arm_immediate(out);
		}
		spin_unlock_irq(&out->engine.lock);
		if (!ret && queued < n) {
			others = fq_others_pending(out);
			others_known = true;
		}
	}
	*err = ret;
	return queued;
}

/*
 * Queue @jobs (all of @out's CRTC, fields checked, planes copied in) in order
 * until one fails.  Return: the jobs queued; *@err the error of the first
 * that was not (0 when all were), its drain hints in its &fq_job.drain.
 */
static unsigned int fq_submit_jobs(struct vflipq_output *out,
				   struct drm_file *file, struct fq_job *jobs,
				   unsigned int n, const struct fq_irq *irq,
				   int *err)
{
	struct drm_modeset_acquire_ctx ctx;
	unsigned int j, ok, queued = 0;
	int ret, job_err = 0;

	drm_modeset_acquire_init(&ctx, DRM_MODESET_ACQUIRE_INTERRUPTIBLE);
retry:
	/* A plane that is not the CRTC's makes the whole call malformed. */
	ret = fq_lock_planes(out, file, jobs, n, &ctx);
	if (ret == -EDEADLK) {
		drm_modeset_backoff(&ctx);
		goto retry;
	}
	if (!ret && !out->crtc.state->active)
		ret = -EBUSY;
	if (ret)
		goto out_locks;

	for (j = 0; j < n; j++) {
		job_err = fq_job_prepare(out, file, jobs, j);
		if (job_err)
			break;
	}
	ok = j;

	queued = fq_queue_jobs(out, file, jobs, ok, ok == n ? irq : NULL,
			       &ret);
	for (j = 0; j < queued; j++)
		for (unsigned int i = 0; i < jobs[j].s.nplanes; i++)
			trace_vflipq_flip_queue(out->crtc.base.id,
						jobs[j].req[i].plane_id,
						jobs[j].req[i].present_id,
						jobs[j].args.target_ns,
						jobs[j].req[i].mode);
	for (j = queued; j < ok; j++)
		fq_job_put(&jobs[j]);
	if (!ret && queued == ok)
		ret = job_err;

out_locks:
	drm_modeset_drop_locks(&ctx);
	drm_modeset_acquire_fini(&ctx);
	*err = ret;
	return queued;
}

/* The drain hints of a refused job, as FLIPQ_SUBMIT reports them. */
static void fq_job_hints(const struct fq_job *job, u32 *flags, u32 *planes)
{
	unsigned int i;

	*flags = job->drain.flags;
	*planes = 0;
	for (i = 0; i < job->s.nplanes; i++)
		if (job->drain.plane_mask & BIT(job->s.p[i].plane))
			*planes |= BIT(i);
}

/* Hints into the caller's copy of a refused flip. */
static int fq_put_hints(const struct drm_vflipq_flipq_submit *args,
			unsigned int index, const struct fq_job *job)
{
	u64 ptr = args->flips_ptr + (u64)index * args->flip_size;
	u32 hints[2];

	fq_job_hints(job, &hints[0], &hints[1]);
	static_assert(offsetof(struct drm_vflipq_flip, drain_planes) ==
		      offsetof(struct drm_vflipq_flip, drain_flags) + 4);
	if (copy_to_user(u64_to_user_ptr(ptr +
					 offsetof(struct drm_vflipq_flip,
						  drain_flags)),
			 hints, sizeof(hints)))
		return -EFAULT;
	return 0;
}

/* The call's own fields, before anything is read from its arrays. */
static int fq_submit_check(const struct drm_vflipq_flipq_submit *args,
			   bool dirty)
{
	bool want_irq = args->flags & VFLIPQ_SUBMIT_IRQ_TARGET;

	if ((args->flags & ~VFLIPQ_SUBMIT_IRQ_TARGET) || dirty || args->pad ||
	    memchr_inv(args->reserved, 0, sizeof(args->reserved)) ||
	    (!want_irq && (args->irq_plane_id || args->irq_target)) ||
	    (!want_irq && !args->num_flips) ||
	    args->num_flips > VFQ_MAX_DEPTH ||
	    args->flip_size < sizeof(struct drm_vflipq_flip) ||
	    args->flip_size > PAGE_SIZE ||
	    args->plane_size < sizeof(struct drm_vflipq_flip_plane) ||
	    args->plane_size > PAGE_SIZE)
		return -EINVAL;
	return 0;
}

/*
 * Every flip of the call and its planes read and checked, into @jobs;
 * *@planes is the room for the planes (kvfree() it).  0 or -errno.
 */
static int fq_read_jobs(const struct drm_vflipq_flipq_submit *args,
			struct fq_job *jobs, void **planes)
{
	unsigned int j;
	int ret;

	for (j = 0; j < args->num_flips; j++) {
		struct drm_vflipq_flip *a = &jobs[j].args;

		fq_job_init(&jobs[j]);
		ret = copy_struct_from_user(a, sizeof(*a),
					    u64_to_user_ptr(args->flips_ptr +
							    (u64)j *
							    args->flip_size),
					    args->flip_size);
		if (ret)
			return ret == -E2BIG ? -EINVAL : ret;
		ret = fq_job_check(a);
		if (ret)
			return ret;
	}
	*planes = fq_jobs_planes(jobs, args->num_flips);
	if (!*planes)
		return -ENOMEM;
	for (j = 0; j < args->num_flips; j++) {
		ret = fq_copy_planes(jobs[j].req, jobs[j].args.planes_ptr,
				     jobs[j].args.num_planes,
				     args->plane_size);
		if (ret)
			return ret;
	}
	return 0;
}

int vflipq_ioctl_flipq_submit(struct drm_device *drm, void *data,
			      struct drm_file *file)
{
	struct drm_vflipq_flipq_submit *args = data;
	bool want_irq = args->flags & VFLIPQ_SUBMIT_IRQ_TARGET;
	struct fq_irq irq = { .target = args->irq_target };
	struct vflipq_plane *vplane = NULL;
	struct vflipq_output *out;
	struct fq_job *jobs = NULL;
	void *planes = NULL;
	unsigned int queued = 0;
	int ret;

	/* Reported whatever the result, a refusal of the call itself too. */
	ret = fq_submit_check(args, args->num_queued);
	args->num_queued = 0;
	if (ret)
		return ret;

	/* Before the allocation: a device without a queue says so first. */
	out = vflipq_fq_output(drm, file, args->crtc_id, &ret);
	if (!out)
		return ret;
	if (want_irq) {
		vplane = vflipq_fq_plane(out, file, args->irq_plane_id);
		if (!vplane)
			return -EINVAL;
		irq.plane = vplane->fq_index;
	}
	if (!args->num_flips)
		return vflipq_flipq_set_irq_target(out, file, vplane,
						   args->irq_target);

	jobs = kvmalloc_array(args->num_flips, sizeof(*jobs), GFP_KERNEL);
	if (!jobs)
		return -ENOMEM;
	/* Every flip read and checked before any is queued. */
	ret = fq_read_jobs(args, jobs, &planes);
	if (!ret)
		queued = fq_submit_jobs(out, file, jobs, args->num_flips,
					want_irq ? &irq : NULL, &ret);
	if (ret == -EAGAIN && fq_put_hints(args, queued, &jobs[queued]))
		ret = -EFAULT;
	args->num_queued = queued;
	kvfree(planes);
	kvfree(jobs);
	return ret;
}
