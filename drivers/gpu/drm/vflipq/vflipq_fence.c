// SPDX-License-Identifier: GPL-2.0-only
/*
 * Out-fences that outlive their device.  A sync_file keeps its fence as
 * long as userspace keeps the file, long after the device that made the
 * fence is gone; the DRM core's CRTC and writeback out-fences take their
 * lock from the CRTC or the writeback connector and their names through
 * them and their drm_device (Documentation/vflipq/locking.rst, "Out-fence
 * lifetime").  So every out-fence vflipq hands out belongs to a fence
 * context of vflipq's own: the lock, the timeline and the driver name are
 * in the context, each fence holds a reference on it, and the fence's
 * release drops that reference.  The device only holds one reference per
 * context, like any fence.
 *
 * The atomic ioctl makes the fences (prepare_signaling()) before it calls
 * the commit and installs their file descriptors after it: the commit hook
 * takes every one over with vflipq_fence_adopt_commit() while only the
 * ioctl itself knows of it, before anybody could lock it or read a name.
 */

#include <linux/atomic.h>
#include <linux/dma-fence.h>
#include <linux/kref.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include <drm/drm_atomic.h>
#include <drm/drm_vblank.h>
#include <drm/drm_writeback.h>

#include "vflipq_compat.h"
#include "vflipq_drv.h"
#include "vflipq_fence.h"

/**
 * struct vflipq_fence_ctx - a timeline whose fences may outlive the device
 * @ref: one per fence not yet released, one for the device until it is
 *	released
 * @lock: the lock of every fence of the context (irqsafe, taken by the
 *	dma-fence core)
 * @context: dma-fence context number
 * @seqno: last sequence number handed out
 * @rcu: the names are read under RCU (dma_fence_timeline_name()): freed a
 *	grace period after the last fence
 * @timeline: the timeline name
 */
struct vflipq_fence_ctx {
	struct kref ref;
	/* the fences' signalling and callbacks */
	spinlock_t lock;
	u64 context;
	atomic64_t seqno;
	struct rcu_head rcu;
	char timeline[32];
};

/*
 * The fences' ops are in this module, so a context that outlives its
 * device holds the module until its last fence is released; the fence's
 * release lets it go with vflipq_module_put_deferred().
 */
static atomic_t vflipq_fence_ctxs = ATOMIC_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(vflipq_fence_drained);

/* The device dropped the last reference: it still holds the module. */
static void vflipq_fence_ctx_free_now(struct kref *ref)
{
	struct vflipq_fence_ctx *ctx =
		container_of(ref, struct vflipq_fence_ctx, ref);

	kfree_rcu(ctx, rcu);
	atomic_dec(&vflipq_fence_ctxs);
}

/* The last fence went: the module goes from the work, if at all. */
static void vflipq_fence_ctx_free(struct kref *ref)
{
	struct vflipq_fence_ctx *ctx =
		container_of(ref, struct vflipq_fence_ctx, ref);

	kfree_rcu(ctx, rcu);
	atomic_dec(&vflipq_fence_ctxs);
	wake_up_all(&vflipq_fence_drained);
	vflipq_module_put_deferred();
}

static struct vflipq_fence_ctx *to_fence_ctx(struct dma_fence *fence)
{
	return container_of(vflipq_fence_lock(fence), struct vflipq_fence_ctx,
			    lock);
}

static const char *vflipq_fence_driver_name(struct dma_fence *fence)
{
	return VFLIPQ_DRIVER_NAME;
}

static const char *vflipq_fence_timeline_name(struct dma_fence *fence)
{
	return to_fence_ctx(fence)->timeline;
}

static void vflipq_fence_release(struct dma_fence *fence)
{
	struct vflipq_fence_ctx *ctx = to_fence_ctx(fence);

	dma_fence_free(fence);
	kref_put(&ctx->ref, vflipq_fence_ctx_free);
}

static const struct dma_fence_ops vflipq_fence_ops = {
	.get_driver_name	= vflipq_fence_driver_name,
	.get_timeline_name	= vflipq_fence_timeline_name,
	.release		= vflipq_fence_release,
};

/**
 * vflipq_fence_ctx_create - a fence context for one CRTC or writeback
 *	connector
 * @fmt: printf format of the timeline name
 *
 * Return: the context, holding the device's reference, or NULL.
 */
struct vflipq_fence_ctx *vflipq_fence_ctx_create(const char *fmt, ...)
{
	struct vflipq_fence_ctx *ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	va_list args;

	if (!ctx)
		return NULL;
	kref_init(&ctx->ref);
	spin_lock_init(&ctx->lock);
	ctx->context = dma_fence_context_alloc(1);
	va_start(args, fmt);
	vsnprintf(ctx->timeline, sizeof(ctx->timeline), fmt, args);
	va_end(args);
	atomic_inc(&vflipq_fence_ctxs);
	return ctx;
}

/**
 * vflipq_fence_ctx_release - drop the device's reference on a context
 * @ctx: the context (NULL: nothing)
 *
 * A context whose fences are all gone goes right away.  Otherwise it
 * stays, and holds the module, until its last fence is released; the pin
 * is taken first, since that may happen as soon as the reference is
 * dropped.
 */
void vflipq_fence_ctx_release(struct vflipq_fence_ctx *ctx)
{
	if (!ctx)
		return;
	__module_get(THIS_MODULE);
	if (kref_put(&ctx->ref, vflipq_fence_ctx_free_now))
		module_put(THIS_MODULE);
}

/*
 * @fence was made by the DRM core in this commit's ioctl and nobody else
 * has seen it yet: it has not been locked, and its sync_file is not
 * installed.  From here on it locks, names and releases through @ctx.
 */
static void vflipq_fence_adopt(struct vflipq_fence_ctx *ctx,
			       struct dma_fence *fence)
{
	kref_get(&ctx->ref);
	vflipq_fence_rebind(fence, &vflipq_fence_ops, &ctx->lock);
	fence->context = ctx->context;
	fence->seqno = atomic64_inc_return(&ctx->seqno);
}

/**
 * vflipq_fence_adopt_commit - take over the out-fences of a commit
 * @state: the commit, before drm_atomic_helper_commit() (a nonblocking
 *	commit consumes the CRTC events once it is queued)
 *
 * A CRTC's out-fence hangs off its event, a writeback connector's off its
 * job.
 */
void vflipq_fence_adopt_commit(struct drm_atomic_state *state)
{
	struct drm_connector_state *conn_state;
	struct drm_writeback_connector *wb;
	struct drm_crtc_state *crtc_state;
	struct drm_connector *conn;
	struct drm_crtc *crtc;
	int i;

	for_each_new_crtc_in_state(state, crtc, crtc_state, i) {
		if (crtc_state->event && crtc_state->event->base.fence)
			vflipq_fence_adopt(crtc_to_output(crtc)->crtc_fences,
					   crtc_state->event->base.fence);
	}
	for_each_new_connector_in_state(state, conn, conn_state, i) {
		struct drm_writeback_job *job = conn_state->writeback_job;

		if (conn->connector_type != DRM_MODE_CONNECTOR_WRITEBACK ||
		    !job || !job->out_fence)
			continue;
		wb = drm_connector_to_writeback(conn);
		vflipq_fence_adopt(wb_to_output(wb)->wb.fences, job->out_fence);
	}
}

/**
 * vflipq_fence_exit - wait for the last out-fence at module exit
 *
 * A released device's contexts hold the module, so contexts are left here
 * only of the default device, removed by this exit, when userspace still
 * holds its out-fences: nothing else can be done with them than to wait.
 */
void vflipq_fence_exit(void)
{
	if (atomic_read(&vflipq_fence_ctxs))
		pr_info("vflipq: waiting for userspace to close the default device's out-fences\n");
	wait_event_idle(vflipq_fence_drained, !atomic_read(&vflipq_fence_ctxs));
}
