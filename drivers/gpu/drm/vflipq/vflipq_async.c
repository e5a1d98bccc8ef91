// SPDX-License-Identifier: GPL-2.0-only
/*
 * Async page flips: the commit tail of an async flip does not wait for the
 * composer.
 *
 * Before the commit lets go of the outgoing framebuffers (the last
 * reference to one unmaps it), the composition of the outgoing CRTC state
 * must be over.
 * The DRM core starts a commit only once the commit two before it on the
 * same CRTC is cleaned up (stall_checks() waits for its cleanup_done), so a
 * commit tail that flushed the composer paced back-to-back async flips by
 * the composer: with CRC capture on a loaded host it composes about one
 * frame per vblank, and 20 async flips took 20 vblanks.  An async flip
 * cleans its planes up in its commit tail, in the order the helpers define
 * (drm_atomic_helper_cleanup_planes() before cleanup_done), and hands only
 * its last reference on the commit to the CRTC's ordered composer queue:
 * it is dropped after every composition of the outgoing state, which the
 * vblank timer only queues while that state is still the composer's (see
 * vflipq_vblank_simulate()).  The plane cleanup has nothing to wait for:
 * vflipq's planes have no cleanup_fb or end_fb_access hook, and what the
 * composer reads, the old plane states with their framebuffer references
 * and mappings and the old CRTC state, lives as long as the commit.
 */

#include <linux/slab.h>
#include <linux/workqueue.h>

#include <drm/drm_atomic.h>

#include "vflipq_drv.h"

struct vflipq_async_put {
	struct work_struct work;
	struct drm_atomic_state *state;
};

static void vflipq_async_put_work(struct work_struct *work)
{
	struct vflipq_async_put *c =
		container_of(work, struct vflipq_async_put, work);

	vflipq_atomic_state_put(c->state);
	kfree(c);
}

/**
 * vflipq_async_commit_crtc - the CRTC an async-flip-only commit flips
 * @old_state: the commit, in its commit tail before
 *	drm_atomic_helper_commit_hw_done()
 *
 * Must be asked before hw_done: from then on the next commit on the CRTC
 * may run to its end and free the CRTC state this one swapped in, which
 * @old_state points at but does not own.
 *
 * Return: the only CRTC of @old_state if it flips async, else NULL.
 */
struct drm_crtc *vflipq_async_commit_crtc(struct drm_atomic_state *old_state)
{
	struct drm_crtc_state *crtc_state;
	struct drm_crtc *crtc, *only = NULL;
	int i;

	for_each_new_crtc_in_state(old_state, crtc, crtc_state, i) {
		if (only || !crtc_state->async_flip)
			return NULL;
		only = crtc;
	}
	return only;
}

/**
 * vflipq_async_defer_put - keep an async flip's commit until the composer
 *	is done with its outgoing state
 * @old_state: the commit, in its commit tail, hardware done and event sent
 * @crtc: what vflipq_async_commit_crtc() returned for it
 *
 * A commit whose only CRTC flips async leaves the composer alone: a
 * reference on the commit, and with it the outgoing plane and CRTC states,
 * goes behind the compositions queued on that CRTC.  Any other commit, or
 * when memory is short, the caller flushes the composer itself.
 *
 * Return: whether the reference was taken.
 */
bool vflipq_async_defer_put(struct drm_atomic_state *old_state,
			    struct drm_crtc *crtc)
{
	struct vflipq_async_put *c;

	if (!crtc)
		return false;
	c = kmalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return false;
	INIT_WORK(&c->work, vflipq_async_put_work);
	c->state = vflipq_atomic_state_get(old_state);
	queue_work(crtc_to_output(crtc)->composer.wq, &c->work);
	return true;
}
