// SPDX-License-Identifier: GPL-2.0-only
/*
 * Planes: primary, overlays and cursor, all with zpos, alpha, blend mode and
 * rotation.  Planes never scale; rotation and reflection are free because
 * the composer walks the source in any direction.
 */

#include <linux/dma-fence.h>
#include <linux/slab.h>

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_blend.h>
#include <drm/drm_fourcc.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_gem_atomic_helper.h>
#include <drm/drm_print.h>

#include "vflipq_drv.h"

static const u64 vflipq_modifiers[] = {
	DRM_FORMAT_MOD_LINEAR,
	DRM_FORMAT_MOD_INVALID,
};

/*
 * The duplicate starts as the plane is, with what atomic_check derived for
 * the composer: a plane the helpers add to a commit (a mode set, a change
 * of the CRTC's plane set) is checked again, one added after the plane
 * checks would not be.
 */
static struct drm_plane_state *
vflipq_plane_duplicate_state(struct drm_plane *plane)
{
	struct vflipq_plane_state *old = to_vflipq_plane_state(plane->state);
	struct vflipq_plane_state *state;

	state = kzalloc(sizeof(*state), GFP_KERNEL);
	if (!state)
		return NULL;

	__drm_gem_duplicate_shadow_plane_state(plane, &state->base);
	state->src = old->src;
	state->dst = old->dst;
	state->xform = old->xform;
	state->reader = old->reader;
	/*
	 * Not checked again means unchanged: nothing damaged, as tracked as
	 * before.  vflipq_damage_record() overrides all three when checked.
	 */
	state->damage = (struct drm_rect){ };
	state->seq = vflipq_damage_next_seq();
	state->prev_seq = old->seq;
	state->tracked = old->tracked;
	return &state->base.base;
}

static void vflipq_plane_destroy_state(struct drm_plane *plane,
				       struct drm_plane_state *base)
{
	struct vflipq_plane_state *state = to_vflipq_plane_state(base);

	__drm_gem_destroy_shadow_plane_state(&state->base);
	kfree(state);
}

static void vflipq_plane_reset(struct drm_plane *plane)
{
	struct vflipq_plane_state *state;

	if (plane->state) {
		vflipq_plane_destroy_state(plane, plane->state);
		plane->state = NULL;
	}

	state = kzalloc(sizeof(*state), GFP_KERNEL);
	if (!state)
		return;

	state->seq = vflipq_damage_next_seq();
	__drm_gem_reset_shadow_plane(plane, &state->base);
}

static bool vflipq_plane_format_mod_supported(struct drm_plane *plane,
					      u32 format, u64 modifier)
{
	return modifier == DRM_FORMAT_MOD_LINEAR;
}

static void vflipq_plane_print_state(struct drm_printer *p,
				     const struct drm_plane_state *state)
{
	vflipq_damage_print(p, to_vflipq_plane_state((struct drm_plane_state *)state));
}

/**
 * vflipq_plane_state_seen - the state of a plane as a commit's check sees it
 * @state: the commit, being checked
 * @plane: a plane
 *
 * The state the commit gives the plane, or for a plane the commit leaves
 * alone its current state, read under the plane's modeset lock (taken
 * through the commit's acquire context) without adding the plane to the
 * commit: a TEST_ONLY check leaves nothing behind, and the commit neither
 * waits for nor stalls on commits in flight on that plane.  A current
 * state stays valid as long as the commit holds the lock, and after it as
 * long as the plane keeps it (vflipq_commit_wait_composer()).
 *
 * Return: the state, or an ERR_PTR (-EDEADLK: the caller backs off).
 */
struct drm_plane_state *vflipq_plane_state_seen(struct drm_atomic_state *state,
						struct drm_plane *plane)
{
	struct drm_plane_state *ps = drm_atomic_get_new_plane_state(state, plane);
	int ret;

	if (ps)
		return ps;
	ret = drm_modeset_lock(&plane->mutex, state->acquire_ctx);
	return ret ? ERR_PTR(ret) : plane->state;
}

static const struct drm_plane_funcs vflipq_plane_funcs = {
	.update_plane		= drm_atomic_helper_update_plane,
	.disable_plane		= drm_atomic_helper_disable_plane,
	.reset			= vflipq_plane_reset,
	.atomic_duplicate_state	= vflipq_plane_duplicate_state,
	.atomic_destroy_state	= vflipq_plane_destroy_state,
	.format_mod_supported	= vflipq_plane_format_mod_supported,
	VFLIPQ_PLANE_FORMAT_MOD_ASYNC
	.atomic_print_state	= vflipq_plane_print_state,
};

static bool plane_changes(const struct drm_plane_state *a,
			  const struct drm_plane_state *b)
{
	return a->fb != b->fb || a->crtc != b->crtc ||
	       a->crtc_x != b->crtc_x || a->crtc_y != b->crtc_y ||
	       a->crtc_w != b->crtc_w || a->crtc_h != b->crtc_h ||
	       a->src_x != b->src_x || a->src_y != b->src_y ||
	       a->src_w != b->src_w || a->src_h != b->src_h ||
	       a->rotation != b->rotation;
}

/*
 * A plane with queued flips belongs to the flip queue: ordinary commits
 * that change it are refused until the queue drained.  Two kinds of commit
 * go through and cancel the queue instead: a mode set, and disabling the
 * plane (which is also how the core removes a framebuffer on screen).
 */
static int vflipq_plane_check_queue(struct drm_plane *plane,
				    struct drm_atomic_state *state)
{
	struct drm_plane_state *old = drm_atomic_get_old_plane_state(state, plane);
	struct drm_plane_state *new = drm_atomic_get_new_plane_state(state, plane);
	struct vflipq_plane *vplane = container_of(plane, struct vflipq_plane,
						   base);
	struct drm_crtc_state *crtc_state;

	if (!plane_changes(old, new) || !vflipq_flipq_plane_busy(vplane))
		return 0;
	if (!new->fb && !new->crtc)
		return 0;
	crtc_state = drm_atomic_get_new_crtc_state(state, &vplane->out->crtc);
	if (crtc_state && vflipq_scanout_changes(crtc_state))
		return 0;
	return -EBUSY;
}

static int vflipq_plane_atomic_check(struct drm_plane *plane,
				     struct drm_atomic_state *state)
{
	struct drm_plane_state *new = drm_atomic_get_new_plane_state(state, plane);
	struct vflipq_plane_state *vstate = to_vflipq_plane_state(new);
	struct drm_framebuffer *fb = new->fb;
	struct drm_crtc_state *crtc_state;
	int ret;

	ret = vflipq_plane_check_queue(plane, state);
	if (ret)
		return ret;

	/* The commit helpers WARN on a fence to wait for with nothing to show. */
	if (new->fence && !fb)
		return -EINVAL;

	if (!fb || !new->crtc)
		return 0;

	if (fb->modifier != DRM_FORMAT_MOD_LINEAR)
		return -EINVAL;
	ret = vflipq_damage_check(new);
	if (ret)
		return ret;
	ret = vflipq_caso_check_scanout(to_vflipq_device(plane->dev), fb);
	if (ret)
		return ret;

	crtc_state = drm_atomic_get_crtc_state(state, new->crtc);
	if (IS_ERR(crtc_state))
		return PTR_ERR(crtc_state);

	ret = drm_atomic_helper_check_plane_state(new, crtc_state,
						  DRM_PLANE_NO_SCALING,
						  DRM_PLANE_NO_SCALING,
						  true, true);
	if (ret)
		return ret;
	if (!new->visible)
		return 0;

	/* Sub-pixel source offsets would need filtering, which we lack. */
	if ((new->src.x1 | new->src.y1 | new->src.x2 | new->src.y2) & 0xffff)
		return -EINVAL;

	vstate->reader = vflipq_format_ops(fb->format->format);
	if (!vstate->reader)
		return -EINVAL;

	vstate->dst = new->dst;
	drm_rect_init(&vstate->src, new->src.x1 >> 16, new->src.y1 >> 16,
		      drm_rect_width(&new->src) >> 16,
		      drm_rect_height(&new->src) >> 16);
	vflipq_xform_init(&vstate->xform, vstate->src.x1, vstate->src.y1,
			  drm_rect_width(&vstate->src),
			  drm_rect_height(&vstate->src), new->rotation);
	vflipq_damage_record(drm_atomic_get_old_plane_state(state, plane),
			     vstate);
	return 0;
}

static int vflipq_plane_prepare_fb(struct drm_plane *plane,
				   struct drm_plane_state *state)
{
	struct drm_shadow_plane_state *shadow = to_drm_shadow_plane_state(state);
	struct drm_framebuffer *fb = state->fb;
	int ret;

	if (!fb)
		return 0;

	/*
	 * A signalled in-fence has nothing left to wait for, and waiting on
	 * it would still take its lock: a CRTC or writeback out-fence keeps
	 * that lock in its device, which may have been removed and freed
	 * since (a sync_file outlives the device that made it).
	 */
	if (state->fence && dma_fence_is_signaled(state->fence)) {
		dma_fence_put(state->fence);
		state->fence = NULL;
	}

	ret = drm_gem_plane_helper_prepare_fb(plane, state);
	if (ret)
		return ret;

	/* The framebuffer's own mapping: the state holds a reference. */
	return vflipq_fb_vmap(fb, shadow->data);
}

/*
 * There are no registers to program: the scan-out engine (the composer)
 * reads the committed plane state, which atomic_check already reduced to
 * rectangles and a source walk.
 */
static void vflipq_plane_atomic_update(struct drm_plane *plane,
				       struct drm_atomic_state *state)
{
	struct drm_plane_state *old = drm_atomic_get_old_plane_state(state, plane);
	struct drm_plane_state *new = drm_atomic_get_new_plane_state(state, plane);
	struct vflipq_plane *vplane = container_of(plane, struct vflipq_plane,
						   base);
	struct drm_crtc_state *crtc_state =
		drm_atomic_get_new_crtc_state(state, &vplane->out->crtc);

	/*
	 * What the flip queue put on screen gives way to a commit that
	 * decides what the plane shows: one that names the plane, moves or
	 * disables it, or sets a mode.  A plane only pulled in with its CRTC
	 * keeps the queue's image.
	 */
	if (to_vflipq_plane_state(new)->named || old->fb != new->fb ||
	    old->crtc != new->crtc ||
	    (crtc_state && vflipq_scanout_changes(crtc_state)))
		vflipq_flipq_plane_taken(vplane);
	if (new->fb && new->fb != old->fb && new->visible &&
	    vflipq_fb_is_cross_adapter(new->fb))
		atomic64_inc(&to_vflipq_device(plane->dev)->imported_scanouts);
}

/*
 * Legacy cursor updates that the composer can take in place, without a
 * commit that waits for the next vblank (Documentation/vflipq/locking.rst,
 * "Cursor updates in place"): the cursor moves, nothing else changes.  The
 * composer then reads what moves under &vflipq_output.cursor_seq; the
 * framebuffer, its mapping and everything else it reads stay as they are,
 * so nothing it may be reading goes away.
 */
static bool cursor_only_moves(const struct drm_plane_state *old,
			      const struct drm_plane_state *new)
{
	return old->fb == new->fb && old->crtc == new->crtc &&
	       old->crtc_w == new->crtc_w && old->crtc_h == new->crtc_h &&
	       old->src_x == new->src_x && old->src_y == new->src_y &&
	       old->src_w == new->src_w && old->src_h == new->src_h &&
	       old->rotation == new->rotation && old->alpha == new->alpha &&
	       old->pixel_blend_mode == new->pixel_blend_mode &&
	       old->zpos == new->zpos &&
	       old->normalized_zpos == new->normalized_zpos &&
	       old->color_encoding == new->color_encoding &&
	       old->color_range == new->color_range;
}

/* Whether the CRTC's current state composes @ps: then the move shows. */
static bool composed_now(struct vflipq_output *out,
			 const struct drm_plane_state *ps)
{
	struct vflipq_crtc_state *cs = to_vflipq_crtc_state(out->crtc.state);
	unsigned int i;

	for (i = 0; i < cs->num_active_planes; i++)
		if (&cs->active_planes[i]->base.base == ps)
			return true;
	return false;
}

/**
 * vflipq_plane_async_ok - whether a checked cursor update can be taken in place
 * @plane: the plane
 * @state: the commit, the plane's new state checked by atomic_check
 *
 * Only a move of a visible cursor that stays visible on a lit CRTC: same
 * framebuffer, size, source, rotation, alpha and blend mode, no in-fence,
 * no mode set, no flip-queue image on the plane.  The plane's current state
 * must be the one the CRTC's current state composes, whose layer list then
 * stays right.  Anything else is an ordinary commit.
 *
 * Return: 0 or a negative error code (the commit is then synchronous).
 */
static int vflipq_plane_async_ok(struct drm_plane *plane,
				 struct drm_atomic_state *state)
{
	struct drm_plane_state *old = drm_atomic_get_old_plane_state(state, plane);
	struct drm_plane_state *new = drm_atomic_get_new_plane_state(state, plane);
	struct vflipq_plane *vplane = container_of(plane, struct vflipq_plane,
						   base);
	struct vflipq_output *out = vplane->out;
	struct drm_crtc_state *crtc_state;
	struct vflipq_fq_buf *buf;

	if (plane->type != DRM_PLANE_TYPE_CURSOR || !old || !new ||
	    new->crtc != &out->crtc || !cursor_only_moves(old, new) ||
	    !old->visible || !new->visible || new->fence)
		return -EINVAL;
	crtc_state = drm_atomic_get_new_crtc_state(state, &out->crtc);
	if (crtc_state && (!crtc_state->active || crtc_state->event ||
			   drm_atomic_crtc_needs_modeset(crtc_state) ||
			   crtc_state->color_mgmt_changed))
		return -EINVAL;
	if (!out->crtc.state->active || !composed_now(out, old))
		return -EINVAL;
	if (vflipq_flipq_plane_busy(vplane))
		return -EBUSY;
	buf = vflipq_flipq_scanout_get(out, vplane->fq_index);
	if (buf) {
		vflipq_fq_buf_put(buf);
		return -EBUSY;
	}
	return 0;
}

/* Async page flips (7.2's flip = true) stay the primary plane's. */
static int vflipq_plane_atomic_async_check(struct drm_plane *plane,
					   VFLIPQ_ASYNC_CHECK_ARGS)
{
	if (vflipq_async_check_flip())
		return -EINVAL;
	return vflipq_plane_async_ok(plane, state);
}

/*
 * The move, into the plane's current state, which the composer may be
 * reading: under the write side of cursor_seq.  What atomic_check derived
 * for the new position (clipped rectangles, source walk, and the damage
 * bookkeeping a commit of the move would record) replaces the old.  The
 * hash cache sees the layer's new rectangle and recomposes the old and the
 * new one (vflipq_tiles.c).  The framebuffer is the same: nothing to swap,
 * nothing to keep alive.
 */
static void vflipq_plane_atomic_async_update(struct drm_plane *plane,
					     struct drm_atomic_state *state)
{
	struct drm_plane_state *new = drm_atomic_get_new_plane_state(state, plane);
	struct drm_plane_state *cur = plane->state;
	struct vflipq_plane_state *vnew = to_vflipq_plane_state(new);
	struct vflipq_plane_state *vcur = to_vflipq_plane_state(cur);
	struct vflipq_output *out = container_of(plane, struct vflipq_plane,
						 base)->out;

	write_seqlock(&out->cursor_seq);
	cur->crtc_x = new->crtc_x;
	cur->crtc_y = new->crtc_y;
	cur->src = new->src;
	cur->dst = new->dst;
	vcur->src = vnew->src;
	vcur->dst = vnew->dst;
	vcur->xform = vnew->xform;
	vcur->damage = vnew->damage;
	vcur->seq = vnew->seq;
	vcur->prev_seq = vnew->prev_seq;
	vcur->tracked = vnew->tracked;
	write_sequnlock(&out->cursor_seq);
}

static const struct drm_plane_helper_funcs vflipq_plane_helper_funcs = {
	.atomic_check	= vflipq_plane_atomic_check,
	.atomic_update	= vflipq_plane_atomic_update,
	.prepare_fb	= vflipq_plane_prepare_fb,
	.atomic_async_check	= vflipq_plane_atomic_async_check,
	.atomic_async_update	= vflipq_plane_atomic_async_update,
};

static int vflipq_plane_props(struct drm_plane *plane, unsigned int zpos,
			      unsigned int zmin, unsigned int zmax)
{
	int ret;

	if (zmin == zmax)
		ret = drm_plane_create_zpos_immutable_property(plane, zpos);
	else
		ret = drm_plane_create_zpos_property(plane, zpos, zmin, zmax);
	if (ret)
		return ret;

	ret = drm_plane_create_alpha_property(plane);
	if (ret)
		return ret;

	ret = drm_plane_create_blend_mode_property(plane,
						   BIT(DRM_MODE_BLEND_PIXEL_NONE) |
						   BIT(DRM_MODE_BLEND_PREMULTI) |
						   BIT(DRM_MODE_BLEND_COVERAGE));
	if (ret)
		return ret;

	return drm_plane_create_rotation_property(plane, DRM_MODE_ROTATE_0,
						  DRM_MODE_ROTATE_MASK |
						  DRM_MODE_REFLECT_MASK);
}

/**
 * vflipq_plane_init - create one plane of an output
 * @out: output the plane belongs to (its only possible CRTC)
 * @type: primary, overlay or cursor
 * @overlay_index: index among the output's overlays (overlays only)
 *
 * Stacking: primary at zpos 0, overlays movable in [1, overlays], cursor
 * always on top.
 *
 * Return: the plane or an ERR_PTR.
 */
struct drm_plane *vflipq_plane_init(struct vflipq_output *out,
				    enum drm_plane_type type,
				    unsigned int overlay_index)
{
	struct drm_device *drm = &out->vdev->drm;
	unsigned int overlays = out->vdev->config.overlays;
	const u32 *formats = vflipq_plane_formats;
	unsigned int nformats = vflipq_num_plane_formats;
	unsigned int zpos = 0, zmin = 0, zmax = 0;
	struct vflipq_plane *vplane;
	int ret;

	switch (type) {
	case DRM_PLANE_TYPE_OVERLAY:
		formats = vflipq_overlay_formats;
		nformats = vflipq_num_overlay_formats;
		zpos = overlay_index + 1;
		zmin = 1;
		zmax = overlays;
		break;
	case DRM_PLANE_TYPE_CURSOR:
		formats = vflipq_cursor_formats;
		nformats = vflipq_num_cursor_formats;
		zpos = overlays + 1;
		zmin = zpos;
		zmax = zpos;
		break;
	default:
		break;
	}

	vplane = drmm_universal_plane_alloc(drm, struct vflipq_plane, base,
					    BIT(out->index),
					    &vflipq_plane_funcs, formats,
					    nformats, vflipq_modifiers, type,
					    NULL);
	if (IS_ERR(vplane))
		return ERR_CAST(vplane);
	vplane->out = out;

	drm_plane_helper_add(&vplane->base, &vflipq_plane_helper_funcs);
	vflipq_damage_init_plane(&vplane->base);
	ret = vflipq_plane_props(&vplane->base, zpos, zmin, zmax);
	if (ret)
		return ERR_PTR(ret);
	return &vplane->base;
}
