// SPDX-License-Identifier: GPL-2.0-only
/*
 * Out-fences that outlive their device.  The DRM core's CRTC and writeback
 * out-fences take their lock from the CRTC or the writeback connector, read
 * their timeline name there and their driver name through its drm_device,
 * but a sync_file keeps such a fence long after the device is freed.  So
 * the outputs, which embed both, are allocated on their own, each output
 * holds a reference on every out-fence it handed out, and when the device
 * is released an output whose fences are referenced elsewhere goes to the
 * keeper, which frees it once only its own references are left.
 */

#include <linux/dma-fence.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include <drm/drm_atomic.h>
#include <drm/drm_drv.h>
#include <drm/drm_vblank.h>

#include "vflipq_drv.h"

/* How often the keeper looks at the fences of removed devices. */
#define VFLIPQ_KEEP_POLL	msecs_to_jiffies(500)

/**
 * struct vflipq_kept_fence - an out-fence an output keeps a reference on
 * @node: in &vflipq_output.fences
 * @fence: the fence (one reference)
 * @gp: RCU grace-period cookie of when @fence was first seen unused
 * @unused: @fence had no other reference when last looked at
 */
struct vflipq_kept_fence {
	struct list_head node;
	struct dma_fence *fence;
	unsigned long gp;
	bool unused;
};

/*
 * Stands in for a freed device: the fences' get_driver_name() reads
 * crtc->dev->driver->name (connector->dev for writeback).
 */
static const struct drm_driver vflipq_gone_driver = {
	.name = VFLIPQ_DRIVER_NAME,
};

static struct drm_device vflipq_gone_drm = {
	.driver = &vflipq_gone_driver,
};

/* Outputs of released devices whose fences are still referenced. */
static LIST_HEAD(vflipq_kept);
static DEFINE_SPINLOCK(vflipq_kept_lock);
static DECLARE_WAIT_QUEUE_HEAD(vflipq_kept_drained);
static void vflipq_keep_work(struct work_struct *work);
static DECLARE_DELAYED_WORK(vflipq_keep_dwork, vflipq_keep_work);

void vflipq_fence_keep_init(struct vflipq_output *out)
{
	spin_lock_init(&out->fences_lock);
	INIT_LIST_HEAD(&out->fences);
	INIT_LIST_HEAD(&out->keep_node);
}

/*
 * Drop the references nobody else shares any more.  A fence with no other
 * reference may still be found by an RCU reader (dma_resv) that looked it
 * up before the last other reference went, and that reader may still take
 * one with dma_fence_get_rcu(): so a fence goes only when it was seen
 * unused twice, a full grace period apart.  Returns whether any are left.
 */
static bool vflipq_fences_prune(struct vflipq_output *out)
{
	struct vflipq_kept_fence *k, *tmp;
	bool left;

	spin_lock(&out->fences_lock);
	list_for_each_entry_safe(k, tmp, &out->fences, node) {
		if (kref_read(&k->fence->refcount) > 1) {
			k->unused = false;
		} else if (!k->unused) {
			k->unused = true;
			k->gp = start_poll_synchronize_rcu();
		} else if (poll_state_synchronize_rcu(k->gp)) {
			list_del(&k->node);
			dma_fence_put(k->fence);
			kfree(k);
		}
	}
	left = !list_empty(&out->fences);
	spin_unlock(&out->fences_lock);
	return left;
}

static int vflipq_fences_add(struct vflipq_output *out, struct dma_fence *fence)
{
	struct vflipq_kept_fence *k = kzalloc(sizeof(*k), GFP_KERNEL);

	if (!k)
		return -ENOMEM;
	k->fence = dma_fence_get(fence);
	/* Each commit also drops what went unused: the list stays short. */
	vflipq_fences_prune(out);
	spin_lock(&out->fences_lock);
	list_add_tail(&k->node, &out->fences);
	spin_unlock(&out->fences_lock);
	return 0;
}

/**
 * vflipq_fence_keep_track - keep the out-fences of a commit
 * @state: the commit, before drm_atomic_helper_commit() (a nonblocking
 *	commit consumes the CRTC events once it is queued)
 *
 * The atomic ioctl created the out-fences (prepare_signaling()) before the
 * commit: a CRTC's hangs off its event, a writeback connector's off its job.
 *
 * Return: 0 or -ENOMEM.
 */
int vflipq_fence_keep_track(struct drm_atomic_state *state)
{
	struct drm_connector_state *conn_state;
	struct drm_writeback_connector *wb;
	struct drm_crtc_state *crtc_state;
	struct drm_connector *conn;
	struct drm_crtc *crtc;
	int i, ret;

	for_each_new_crtc_in_state(state, crtc, crtc_state, i) {
		if (!crtc_state->event || !crtc_state->event->base.fence)
			continue;
		ret = vflipq_fences_add(crtc_to_output(crtc),
					crtc_state->event->base.fence);
		if (ret)
			return ret;
	}
	for_each_new_connector_in_state(state, conn, conn_state, i) {
		struct drm_writeback_job *job = conn_state->writeback_job;

		if (conn->connector_type != DRM_MODE_CONNECTOR_WRITEBACK ||
		    !job || !job->out_fence)
			continue;
		wb = drm_connector_to_writeback(conn);
		ret = vflipq_fences_add(wb_to_output(wb), job->out_fence);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * vflipq_fence_keep_crtc_cleaned - make a cleaned-up CRTC serve its fences
 * @out: output whose CRTC drm_crtc_cleanup() just zeroed
 *
 * A zeroed spinlock is not a valid one (lockdep: "non-static key"), and a
 * fence still asks for its timeline and driver names.
 */
void vflipq_fence_keep_crtc_cleaned(struct vflipq_output *out)
{
	spin_lock_init(&out->crtc.fence_lock);
	strscpy(out->crtc.timeline_name, out->crtc_timeline,
		sizeof(out->crtc.timeline_name));
	out->crtc.dev = &vflipq_gone_drm;
}

/**
 * vflipq_fence_keep_wb_cleaned - make a cleaned-up writeback connector
 *	serve its fences
 * @out: output whose writeback connector drm_connector_cleanup() just
 *	zeroed (only its &drm_writeback_connector.base: the fence lock and the
 *	timeline name lie outside it)
 */
void vflipq_fence_keep_wb_cleaned(struct vflipq_output *out)
{
	out->wb.base.dev = &vflipq_gone_drm;
}

static void vflipq_keep_work(struct work_struct *work)
{
	struct vflipq_output *out, *tmp;
	bool empty;

	spin_lock(&vflipq_kept_lock);
	list_for_each_entry_safe(out, tmp, &vflipq_kept, keep_node) {
		if (vflipq_fences_prune(out))
			continue;
		list_del(&out->keep_node);
		kfree(out);
	}
	empty = list_empty(&vflipq_kept);
	if (!empty)
		schedule_delayed_work(&vflipq_keep_dwork, VFLIPQ_KEEP_POLL);
	spin_unlock(&vflipq_kept_lock);

	if (empty) {
		wake_up_all(&vflipq_kept_drained);
		/* Module exit waits for this work: its code stays till then. */
		module_put(THIS_MODULE);
	}
}

/* Hand @out to the keeper, which holds the module while it has any. */
static void vflipq_keep(struct vflipq_output *out)
{
	bool first;

	spin_lock(&vflipq_kept_lock);
	first = list_empty(&vflipq_kept);
	list_add_tail(&out->keep_node, &vflipq_kept);
	if (first) {
		__module_get(THIS_MODULE);
		schedule_delayed_work(&vflipq_keep_dwork, VFLIPQ_KEEP_POLL);
	}
	spin_unlock(&vflipq_kept_lock);
}

/**
 * vflipq_fence_keep_release - free the outputs of a released device
 * @outs: the device's outputs, their DRM objects cleaned up (NULL entries,
 *	of a device whose setup failed, are skipped)
 * @n: number of entries in @outs
 *
 * Usually the outputs' fences have no other reference: after one grace
 * period, shared by all outputs, they go, and so do the outputs.  An output
 * whose fences are still referenced goes to the keeper, which holds the
 * module, so that neither it nor the memory the fences point into can go
 * before the last of them.
 */
void vflipq_fence_keep_release(struct vflipq_output **outs, unsigned int n)
{
	bool left = false;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (outs[i] && vflipq_fences_prune(outs[i]))
			left = true;
	if (left)
		synchronize_rcu();
	for (i = 0; i < n; i++) {
		if (!outs[i])
			continue;
		if (left && vflipq_fences_prune(outs[i]))
			vflipq_keep(outs[i]);
		else
			kfree(outs[i]);
	}
}

static bool vflipq_kept_empty(void)
{
	bool empty;

	spin_lock(&vflipq_kept_lock);
	empty = list_empty(&vflipq_kept);
	spin_unlock(&vflipq_kept_lock);
	return empty;
}

/**
 * vflipq_fence_keep_exit - wait for the keeper at module exit
 *
 * The keeper holds the module, so it is empty here unless the default
 * device, removed by this exit, left out-fences that userspace still holds:
 * nothing else can be done with them than to wait.  The last run of the
 * work may still be returning from its module_put().
 */
void vflipq_fence_keep_exit(void)
{
	if (!vflipq_kept_empty())
		pr_info("vflipq: waiting for userspace to close the default device's out-fences\n");
	wait_event_idle(vflipq_kept_drained, vflipq_kept_empty());
	cancel_delayed_work_sync(&vflipq_keep_dwork);
}
