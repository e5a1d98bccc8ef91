// SPDX-License-Identifier: GPL-2.0-only
/*
 * The display adapter's copy engine (CASO tiers 1 and 2): moves rectangles
 * between local and cross-adapter buffers, converting formats and
 * stretching at tier 2.  Copies run in order on the device's copy queue,
 * after the fences they depend on; each one is a dma_fence that userspace
 * gets as a sync_file and that the destination carries as its implicit
 * write fence, so scan-out of the destination waits for the copy.
 */

#include <linux/dma-fence.h>
#include <linux/dma-resv.h>
#include <linux/file.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sync_file.h>

#include <drm/drm_file.h>
#include <drm/drm_fourcc.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>

#include "vflipq_drm.h"
#include "vflipq_drv.h"

/* Fences of other devices are waited for this long, then the copy fails. */
#define VFLIPQ_COPY_WAIT_JIFFIES	(10 * HZ)

/**
 * struct vflipq_copy_job - one copy-engine operation
 * @fence: completion; first member, freed with it (dma_fence_free)
 * @lock: the fence's lock, inside the job: a sync_file or another
 *	device's reservation object may keep the fence after the device
 *	is gone
 * @work: runs the copy on the device's copy queue
 * @vdev: device
 * @src: source framebuffer (reference)
 * @dst: destination framebuffer (reference)
 * @s: source rectangle
 * @d: destination rectangle
 * @wait: fences to wait for first: the source's writers, the
 *	destination's readers and writers
 */
struct vflipq_copy_job {
	struct dma_fence fence;
	/* the fence's lock */
	spinlock_t lock;
	struct work_struct work;
	struct vflipq_device *vdev;
	struct drm_framebuffer *src;
	struct drm_framebuffer *dst;
	struct drm_rect s;
	struct drm_rect d;
	struct dma_fence *wait[2];
};

static const char *vflipq_copy_driver_name(struct dma_fence *f)
{
	return VFLIPQ_DRIVER_NAME;
}

static const char *vflipq_copy_timeline_name(struct dma_fence *f)
{
	return "copy-engine";
}

/*
 * A sync_file or another driver's reservation object can keep the fence
 * long after the device and its fds are gone, and the fence core calls
 * through ->ops until the last reference drops: every fence pins the
 * module, released as the very last thing the module's code does for it.
 */
static void vflipq_copy_fence_release(struct dma_fence *f)
{
	dma_fence_free(f);
	module_put(THIS_MODULE);
}

static const struct dma_fence_ops vflipq_copy_fence_ops = {
	.get_driver_name = vflipq_copy_driver_name,
	.get_timeline_name = vflipq_copy_timeline_name,
	.release = vflipq_copy_fence_release,
};

/*
 * Same format and size: rows are copied as bytes.  Otherwise each
 * destination row is point-sampled from one source row through the
 * 16-bit composer pixels.
 */
static int vflipq_copy_rows(struct vflipq_copy_job *job,
			    const struct iosys_map *sdata,
			    const struct iosys_map *ddata)
{
	const struct drm_framebuffer *src = job->src, *dst = job->dst;
	unsigned int sw = drm_rect_width(&job->s), sh = drm_rect_height(&job->s);
	unsigned int dw = drm_rect_width(&job->d), dh = drm_rect_height(&job->d);
	unsigned int cpp = dst->format->cpp[0], x, y;
	const struct vflipq_format_ops *rd, *wr;
	struct vflipq_px *in, *out;
	struct vflipq_src view;
	u8 *drow;

	drow = (u8 *)ddata[0].vaddr + (size_t)job->d.y1 * dst->pitches[0] +
	       (size_t)job->d.x1 * cpp;

	if (src->format->format == dst->format->format && sw == dw &&
	    sh == dh && src->format->num_planes == 1) {
		const u8 *srow = (const u8 *)sdata[0].vaddr +
				 (size_t)job->s.y1 * src->pitches[0] +
				 (size_t)job->s.x1 * cpp;

		for (y = 0; y < dh; y++)
			memcpy(drow + (size_t)y * dst->pitches[0],
			       srow + (size_t)y * src->pitches[0],
			       (size_t)dw * cpp);
		return 0;
	}

	rd = vflipq_format_ops(src->format->format);
	wr = vflipq_format_ops(dst->format->format);
	in = kvmalloc_array(sw, sizeof(*in), GFP_KERNEL);
	out = kvmalloc_array(dw, sizeof(*out), GFP_KERNEL);
	if (!in || !out) {
		kvfree(in);
		kvfree(out);
		return -ENOMEM;
	}
	vflipq_src_init(&view, sdata, src->pitches, src->format->num_planes);
	for (y = 0; y < dh; y++) {
		unsigned int sy = job->s.y1 + (u64)y * sh / dh;

		rd->read_row(&view, job->s.x1, sy, 1, 0, sw, in);
		for (x = 0; x < dw; x++)
			out[x] = in[(u64)x * sw / dw];
		wr->write_row(drow + (size_t)y * dst->pitches[0], out, dw);
	}
	kvfree(in);
	kvfree(out);
	return 0;
}

static int vflipq_copy_run(struct vflipq_copy_job *job)
{
	struct iosys_map sdata[DRM_FORMAT_MAX_PLANES];
	struct iosys_map ddata[DRM_FORMAT_MAX_PLANES];
	int ret;

	ret = vflipq_fb_vmap(job->src, sdata);
	if (ret)
		return ret;
	ret = vflipq_fb_vmap(job->dst, ddata);
	if (ret)
		return ret;
	return vflipq_copy_rows(job, sdata, ddata);
}

static void vflipq_copy_work(struct work_struct *work)
{
	struct vflipq_copy_job *job =
		container_of(work, struct vflipq_copy_job, work);
	struct vflipq_device *vdev = job->vdev;
	int ret = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(job->wait); i++) {
		if (!job->wait[i])
			continue;
		if (dma_fence_wait_timeout(job->wait[i], false,
					   VFLIPQ_COPY_WAIT_JIFFIES) <= 0)
			ret = -ETIMEDOUT;
		dma_fence_put(job->wait[i]);
	}
	if (!ret)
		ret = vflipq_copy_run(job);

	if (ret) {
		dma_fence_set_error(&job->fence, ret);
	} else {
		atomic64_inc(&vdev->copies);
		atomic64_add((u64)drm_rect_width(&job->d) *
			     drm_rect_height(&job->d) *
			     job->dst->format->cpp[0], &vdev->bytes_copied);
	}
	dma_fence_signal(&job->fence);
	drm_framebuffer_put(job->src);
	drm_framebuffer_put(job->dst);
	dma_fence_put(&job->fence);
}

static int copy_rect(const struct drm_vflipq_rect *r,
		     const struct drm_framebuffer *fb, struct drm_rect *out)
{
	if (!r->w || !r->h || (u64)r->x + r->w > fb->width ||
	    (u64)r->y + r->h > fb->height)
		return -EINVAL;
	drm_rect_init(out, r->x, r->y, r->w, r->h);
	return 0;
}

static struct drm_framebuffer *copy_fb(struct drm_device *drm,
				       struct drm_file *file, u32 id)
{
	struct drm_framebuffer *fb = drm_framebuffer_lookup(drm, file, id);

	if (fb && (!vflipq_fb_owned_by(fb, file) ||
		   fb->modifier != DRM_FORMAT_MOD_LINEAR)) {
		drm_framebuffer_put(fb);
		fb = NULL;
	}
	return fb;
}

/* Validate the request into @job (framebuffer references included). */
static int copy_prepare(struct vflipq_device *vdev, struct drm_file *file,
			const struct drm_vflipq_copy *args,
			struct vflipq_copy_job *job)
{
	const struct vflipq_format_ops *rd, *wr;
	struct drm_rect overlap;
	bool texture;
	int ret;

	job->src = copy_fb(&vdev->drm, file, args->src_fb);
	job->dst = copy_fb(&vdev->drm, file, args->dst_fb);
	if (!job->src || !job->dst)
		return -EINVAL;
	ret = copy_rect(&args->src_rect, job->src, &job->s);
	if (!ret)
		ret = copy_rect(&args->dst_rect, job->dst, &job->d);
	if (ret)
		return ret;

	rd = vflipq_format_ops(job->src->format->format);
	wr = vflipq_format_ops(job->dst->format->format);
	if (!rd || !wr || !wr->write_row || job->dst->format->num_planes != 1)
		return -EINVAL;
	/* Rows are copied top-down: overlapping in-place copies are refused. */
	overlap = job->s;
	if (job->src->obj[0] == job->dst->obj[0] &&
	    drm_rect_intersect(&overlap, &job->d))
		return -EINVAL;

	/* Anything but a plain copy reads like a texture: tier 2. */
	texture = job->src->format->format != job->dst->format->format ||
		  args->src_rect.w != args->dst_rect.w ||
		  args->src_rect.h != args->dst_rect.h;
	if (texture && !(vdev->config.caso_caps & VFLIPQ_CASO_TEXTURE))
		return -EOPNOTSUPP;
	return 0;
}

static int copy_add_fence(struct dma_resv *resv, struct dma_fence *fence,
			  enum dma_resv_usage usage)
{
	int ret = dma_resv_lock_interruptible(resv, NULL);

	if (ret)
		return ret;
	ret = dma_resv_reserve_fences(resv, 1);
	if (!ret)
		dma_resv_add_fence(resv, fence, usage);
	dma_resv_unlock(resv);
	return ret;
}

/*
 * What the copy waits for, taken now, before its own fence joins the
 * destination: the source's writers, the destination's readers and writers.
 */
static int copy_take_waits(struct vflipq_copy_job *job)
{
	int ret;

	ret = dma_resv_get_singleton(job->src->obj[0]->resv,
				     DMA_RESV_USAGE_WRITE, &job->wait[0]);
	if (!ret)
		ret = dma_resv_get_singleton(job->dst->obj[0]->resv,
					     DMA_RESV_USAGE_READ, &job->wait[1]);
	return ret;
}

static void copy_job_init(struct vflipq_device *vdev,
			  struct vflipq_copy_job *job)
{
	job->vdev = vdev;
	INIT_WORK(&job->work, vflipq_copy_work);
	spin_lock_init(&job->lock);
	/* Dropped by vflipq_copy_fence_release(): the ioctl's fd pins us now. */
	__module_get(THIS_MODULE);
	dma_fence_init(&job->fence, &vflipq_copy_fence_ops, &job->lock,
		       vdev->copy_context, atomic64_inc_return(&vdev->copy_seqno));
}

/*
 * Writers of the source wait for the copy to have read it, readers and
 * writers of the destination for it to have written.
 */
static int copy_publish_fence(struct vflipq_copy_job *job)
{
	int ret;

	ret = copy_add_fence(job->src->obj[0]->resv, &job->fence,
			     DMA_RESV_USAGE_READ);
	if (!ret)
		ret = copy_add_fence(job->dst->obj[0]->resv, &job->fence,
				     DMA_RESV_USAGE_WRITE);
	return ret;
}

int vflipq_ioctl_copy(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct vflipq_device *vdev = to_vflipq_device(drm);
	struct drm_vflipq_copy *args = data;
	struct vflipq_copy_job *job;
	struct sync_file *sf;
	int fd, ret;

	if (args->flags || args->out_fence_fd || args->reserved[0] ||
	    args->reserved[1])
		return -EINVAL;
	/* Framebuffers need a display adapter (a render-only one has none). */
	if (!(vdev->config.caso_caps & VFLIPQ_CASO_COPY) || !vdev->config.crtcs)
		return -EOPNOTSUPP;

	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job)
		return -ENOMEM;
	ret = copy_prepare(vdev, file, args, job);
	if (ret)
		goto err_fbs;

	ret = copy_take_waits(job);
	if (ret)
		goto err_fences;
	copy_job_init(vdev, job);

	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0) {
		ret = fd;
		goto err_fence;
	}
	sf = sync_file_create(&job->fence);
	if (!sf) {
		ret = -ENOMEM;
		goto err_fd;
	}

	ret = copy_publish_fence(job);
	if (ret)
		goto err_sf;

	queue_work(vdev->copy_wq, &job->work);
	fd_install(fd, sf->file);
	args->out_fence_fd = fd;
	return 0;

err_sf:
	fput(sf->file);
err_fd:
	put_unused_fd(fd);
err_fence:
	/* Never queued: complete it as failed so no waiter is left hanging. */
	dma_fence_set_error(&job->fence, ret);
	dma_fence_signal(&job->fence);
	dma_fence_put(job->wait[0]);
	dma_fence_put(job->wait[1]);
	drm_framebuffer_put(job->src);
	drm_framebuffer_put(job->dst);
	dma_fence_put(&job->fence);
	return ret;

err_fences:
	dma_fence_put(job->wait[0]);
err_fbs:
	if (job->src)
		drm_framebuffer_put(job->src);
	if (job->dst)
		drm_framebuffer_put(job->dst);
	kfree(job);
	return ret;
}
