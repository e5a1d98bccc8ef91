// SPDX-License-Identifier: GPL-2.0-only
/*
 * FB_DAMAGE_CLIPS: every plane takes the property, and atomic check reduces
 * a commit's clips to one rectangle in framebuffer coordinates that the
 * plane state keeps, for the composer to limit its work to what changed
 * (vflipq_tiles.c).
 */

#include <linux/atomic.h>
#include <linux/limits.h>
#include <linux/minmax.h>

#include <drm/drm_atomic.h>
#include <drm/drm_damage_helper.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_plane.h>
#include <drm/drm_print.h>
#include <drm/drm_rect.h>

#include "vflipq_drv.h"

/**
 * vflipq_damage_check - validate a plane state's damage clips
 * @new: plane state with a framebuffer
 *
 * Every clip must be a non-empty rectangle inside the framebuffer (the
 * DRM core only checks that the blob holds whole rectangles).
 *
 * Return: 0 or -EINVAL.
 */
int vflipq_damage_check(const struct drm_plane_state *new)
{
	const struct drm_mode_rect *c = drm_plane_get_damage_clips(new);
	unsigned int i, n = drm_plane_get_damage_clips_count(new);

	for (i = 0; i < n; i++, c++) {
		if (c->x1 < 0 || c->y1 < 0 || c->x1 >= c->x2 ||
		    c->y1 >= c->y2 || c->x2 > new->fb->width ||
		    c->y2 > new->fb->height) {
			drm_dbg_atomic(new->plane->dev,
				       "[PLANE:%d] bad damage clip %d,%d-%d,%d\n",
				       new->plane->base.id, c->x1, c->y1,
				       c->x2, c->y2);
			return -EINVAL;
		}
	}
	return 0;
}

/* What the plane shows other than its content: any change is full damage. */
static bool geometry_changes(const struct drm_plane_state *a,
			     const struct drm_plane_state *b)
{
	return !a->visible || a->crtc != b->crtc ||
	       !drm_rect_equals(&a->src, &b->src) ||
	       !drm_rect_equals(&a->dst, &b->dst) ||
	       a->rotation != b->rotation || a->alpha != b->alpha ||
	       a->pixel_blend_mode != b->pixel_blend_mode;
}

/* Numbers plane states for the composer's hash cache; never 0. */
u64 vflipq_damage_next_seq(void)
{
	static atomic64_t seq = ATOMIC64_INIT(0);

	return atomic64_inc_return(&seq);
}

/**
 * vflipq_damage_record - the damage of a visible plane's new state
 * @old: the plane's state before the commit
 * @vnew: the new state, checked (@vnew->src is final)
 *
 * Without clips, or when anything but the framebuffer's content changes,
 * the whole visible source is damaged.  Otherwise the bounding box of the
 * clips (vflipq_damage_check() made sure they lie inside the
 * framebuffer), cut to the visible source, which may leave nothing.  As
 * in the DRM damage helpers, clips describe the change from the
 * framebuffer shown before, also when the commit flips to another one.
 *
 * A plane that the commit did not name (the helpers pulled it in) and
 * that stays as it was has no damage, and its content stays as tracked
 * as it was: a client that sends clips keeps its planes' cached CRCs when
 * it moves the cursor.
 */
void vflipq_damage_record(const struct drm_plane_state *old,
			  struct vflipq_plane_state *vnew)
{
	const struct vflipq_plane_state *vold =
		container_of(old, struct vflipq_plane_state, base.base);
	const struct drm_plane_state *new = &vnew->base.base;
	const struct drm_mode_rect *clips = drm_plane_get_damage_clips(new);
	unsigned int i, n = drm_plane_get_damage_clips_count(new);
	struct drm_rect d = { INT_MAX, INT_MAX, INT_MIN, INT_MIN };
	bool moved = geometry_changes(old, new);

	vnew->prev_seq = vold->seq;
	vnew->damage = vnew->src;
	vnew->tracked = n;
	if (!n && !vnew->named && !moved && old->fb == new->fb) {
		vnew->damage = (struct drm_rect){ };
		vnew->tracked = vold->tracked;
		return;
	}
	if (!n || moved)
		return;
	for (i = 0; i < n; i++) {
		d.x1 = min(d.x1, clips[i].x1);
		d.y1 = min(d.y1, clips[i].y1);
		d.x2 = max(d.x2, clips[i].x2);
		d.y2 = max(d.y2, clips[i].y2);
	}
	if (!drm_rect_intersect(&d, &vnew->src))
		d = (struct drm_rect){ };
	vnew->damage = d;
}

/* A mode set redraws every plane. */
void vflipq_damage_full(struct vflipq_plane_state *vstate)
{
	vstate->damage = vstate->src;
}

/* debugfs "state": the recorded damage, "none" for an empty rectangle. */
void vflipq_damage_print(struct drm_printer *p,
			 const struct vflipq_plane_state *vstate)
{
	if (drm_rect_visible(&vstate->damage))
		drm_printf(p, "\tvflipq.damage=" DRM_RECT_FMT "\n",
			   DRM_RECT_ARG(&vstate->damage));
	else
		drm_printf(p, "\tvflipq.damage=none\n");
}

/**
 * vflipq_damage_init_plane - offer FB_DAMAGE_CLIPS on a plane
 * @plane: the plane
 */
void vflipq_damage_init_plane(struct drm_plane *plane)
{
	drm_plane_enable_fb_damage_clips(plane);
}
