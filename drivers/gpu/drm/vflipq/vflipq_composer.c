// SPDX-License-Identifier: GPL-2.0-only
/*
 * The software composer: blends the visible planes of a CRTC into one
 * frame, row by row, feeding the CRC and the writeback connector.  It only
 * runs while somebody consumes its output (CRC capture or a pending
 * writeback job): scan-out itself needs no composition.
 */

#include <linux/bitops.h>
#include <linux/crc32.h>
#include <linux/minmax.h>
#include <linux/slab.h>

#include <drm/drm_blend.h>
#include <drm/drm_crtc.h>
#include <drm/drm_debugfs_crc.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_fourcc.h>
#include <drm/drm_print.h>
#include <drm/drm_vblank.h>
#include <drm/drm_writeback.h>

#include "vflipq_blend.h"
#include "vflipq_drv.h"
#include "vflipq_tiles.h"
#include "vflipq_trace.h"

static void blend_row(struct vflipq_px *dst, const struct vflipq_px *src,
		      unsigned int n, u32 pa, u16 mode)
{
	unsigned int i;

	/* One loop per mode keeps the switch out of the pixel loop. */
	switch (mode) {
	case DRM_MODE_BLEND_PIXEL_NONE:
		for (i = 0; i < n; i++)
			vflipq_blend_px(&dst[i], &src[i], pa,
					DRM_MODE_BLEND_PIXEL_NONE);
		break;
	case DRM_MODE_BLEND_COVERAGE:
		for (i = 0; i < n; i++)
			vflipq_blend_px(&dst[i], &src[i], pa,
					DRM_MODE_BLEND_COVERAGE);
		break;
	default:
		/* The common case: an opaque plane with per-pixel alpha. */
		if (pa == DRM_BLEND_ALPHA_OPAQUE) {
			for (i = 0; i < n; i++)
				vflipq_blend_premulti_opaque_px(&dst[i],
								&src[i]);
			break;
		}
		for (i = 0; i < n; i++)
			vflipq_blend_px(&dst[i], &src[i], pa,
					DRM_MODE_BLEND_PREMULTI);
		break;
	}
}

static int ensure_line_bufs(struct vflipq_line_bufs *lb, unsigned int width)
{
	struct vflipq_px *out, *stage;

	if (lb->width >= width)
		return 0;

	out = kvmalloc_array(width, sizeof(*out), GFP_KERNEL);
	stage = kvmalloc_array(width, sizeof(*stage), GFP_KERNEL);
	if (!out || !stage) {
		kvfree(out);
		kvfree(stage);
		return -ENOMEM;
	}
	kvfree(lb->out);
	kvfree(lb->stage);
	lb->out = out;
	lb->stage = stage;
	lb->width = width;
	return 0;
}

/**
 * struct vflipq_layer - one plane as the composer sees it for one frame
 * @src: CPU view of the framebuffer
 * @dst: destination rectangle
 * @xform: source walk
 * @reader: row reader
 * @alpha: plane alpha
 * @blend: blend mode
 * @has_alpha: the format carries per-pixel alpha
 * @opaque: the plane replaces what is below it (plane alpha opaque, and
 *	blend mode "None" or no per-pixel alpha)
 * @buf: flip-queue image held for this frame, or NULL for the plane state
 */
struct vflipq_layer {
	struct vflipq_src src;
	struct drm_rect dst;
	struct vflipq_xform xform;
	const struct vflipq_format_ops *reader;
	u16 alpha;
	u16 blend;
	bool has_alpha;
	bool opaque;
	struct vflipq_fq_buf *buf;
};

/**
 * struct vflipq_place - where a plane state puts its framebuffer
 * @dst: &vflipq_plane_state.dst
 * @xform: &vflipq_plane_state.xform
 * @damage: &vflipq_plane_state.damage
 * @seq: &vflipq_plane_state.seq
 * @prev_seq: &vflipq_plane_state.prev_seq
 * @tracked: &vflipq_plane_state.tracked
 *
 * What a legacy cursor update may rewrite in the state while the composer
 * reads it, copied out in one piece (&vflipq_output.cursor_seq).
 */
struct vflipq_place {
	struct drm_rect dst;
	struct vflipq_xform xform;
	struct drm_rect damage;
	u64 seq;
	u64 prev_seq;
	bool tracked;
};

static void read_place(struct vflipq_output *out,
		       const struct vflipq_plane_state *ps,
		       struct vflipq_place *p)
{
	unsigned int seq;

	do {
		seq = read_seqbegin(&out->cursor_seq);
		p->dst = ps->dst;
		p->xform = ps->xform;
		p->damage = ps->damage;
		p->seq = ps->seq;
		p->prev_seq = ps->prev_seq;
		p->tracked = ps->tracked;
	} while (read_seqretry(&out->cursor_seq, seq));
}

/*
 * What a plane scans out this frame: the image the flip queue latched if
 * there is one, else the committed state, at @place.  @snap: the
 * flip-queue images at the vblank being composed
 * (vflipq_crtc_state.frame_scanout), or NULL for the images of now.
 */
static void layer_init(struct vflipq_output *out,
		       const struct vflipq_plane_state *ps,
		       const struct vflipq_place *place,
		       struct vflipq_fq_buf *const *snap,
		       struct vflipq_layer *l)
{
	const struct drm_plane_state *st = &ps->base.base;
	struct vflipq_plane *vplane = container_of(st->plane,
						   struct vflipq_plane, base);
	struct vflipq_fq_buf *buf;

	l->alpha = st->alpha;
	l->blend = st->pixel_blend_mode;
	if (!snap) {
		buf = vflipq_flipq_scanout_get(out, vplane->fq_index);
	} else {
		buf = vplane->fq_index < VFQ_MAX_PLANES ?
		      snap[vplane->fq_index] : NULL;
		if (buf)
			kref_get(&buf->ref);
	}
	l->buf = buf;
	if (buf) {
		vflipq_src_init(&l->src, buf->data, buf->fb->pitches,
				buf->fb->format->num_planes);
		l->dst = buf->dst;
		l->xform = buf->xform;
		l->reader = buf->reader;
		l->has_alpha = buf->fb->format->has_alpha;
	} else {
		vflipq_src_init(&l->src, ps->base.data, st->fb->pitches,
				st->fb->format->num_planes);
		l->dst = place->dst;
		l->xform = place->xform;
		l->reader = ps->reader;
		l->has_alpha = st->fb->format->has_alpha;
	}
	l->opaque = l->alpha == DRM_BLEND_ALPHA_OPAQUE &&
		    (l->blend == DRM_MODE_BLEND_PIXEL_NONE || !l->has_alpha);
}

/* Source walk of columns @x1.. of the layer in CRTC row @y. */
static void layer_walk(const struct vflipq_layer *l, int y, int x1,
		       int *sx, int *sy)
{
	const struct vflipq_xform *xf = &l->xform;
	int row = y - l->dst.y1, col = x1 - l->dst.x1;

	*sx = xf->ox + row * xf->vx + col * xf->ux;
	*sy = xf->oy + row * xf->vy + col * xf->uy;
}

/* Columns [@x1, @x2) of the layer (inside its dst) onto the output row. */
static void compose_plane_row(struct vflipq_line_bufs *lb,
			      const struct vflipq_layer *l, int y,
			      int x1, int x2)
{
	unsigned int n = x2 - x1;
	struct vflipq_px *dst = lb->out + x1;
	int sx, sy;

	layer_walk(l, y, x1, &sx, &sy);
	/* Opaque planes are read straight into the output row. */
	if (l->opaque) {
		unsigned int i;

		l->reader->read_row(&l->src, sx, sy, l->xform.ux, l->xform.uy,
				    n, dst);
		/* "None" ignores the pixel alpha: the output stays opaque. */
		if (l->has_alpha)
			for (i = 0; i < n; i++)
				dst[i].a = 0xffff;
		return;
	}
	/* One pass where the format allows it. */
	if (l->reader->blend_row) {
		l->reader->blend_row(&l->src, sx, sy, l->xform.ux,
				     l->xform.uy, n, dst, l->alpha, l->blend);
		return;
	}
	l->reader->read_row(&l->src, sx, sy, l->xform.ux, l->xform.uy, n,
			    lb->stage);
	blend_row(dst, lb->stage, n, l->alpha, l->blend);
}

static bool layer_in_row(const struct vflipq_layer *l, int y)
{
	return y >= l->dst.y1 && y < l->dst.y2;
}

/*
 * The topmost opaque layer covering row @y of a @w wide CRTC: nothing
 * below it (background included) can show in that row.  -1 if none.
 */
static int row_base(const struct vflipq_layer *layers, unsigned int n,
		    int y, int w)
{
	int i;

	for (i = n - 1; i >= 0; i--)
		if (layers[i].opaque && layer_in_row(&layers[i], y) &&
		    layers[i].dst.x1 <= 0 && layers[i].dst.x2 >= w)
			return i;
	return -1;
}

/* CRC of columns [@x1, @x2) of an opaque layer's pixels in row @y. */
static u32 crc_plane_cols(u32 crc, const struct vflipq_layer *l, int y,
			  int x1, int x2, unsigned int bpc)
{
	int sx, sy;

	if (x1 >= x2)
		return crc;
	layer_walk(l, y, x1, &sx, &sy);
	return l->reader->crc_row(crc, &l->src, sx, sy, l->xform.ux,
				  l->xform.uy, x2 - x1, bpc);
}

/* CRC of @n composed pixels at output depth @bpc. */
static u32 crc_out_cols(u32 crc, const struct vflipq_px *px, unsigned int n,
			unsigned int bpc)
{
	/* At 16 bits the pixels are the CRC input as they are. */
	if (bpc == 16)
		return crc32_le(crc, (const u8 *)px, n * sizeof(*px));
	return vflipq_crc_px_row(crc, px, n, bpc);
}

/**
 * struct vflipq_frame - one composition
 * @layers: the frame's layers, bottom first
 * @n: number of layers
 * @cm: colour pipeline
 * @w: CRTC width
 * @bpc: output depth, the depth of the CRC input
 * @wb: writeback job, or NULL
 * @tiles: the CRC cache, whose tile CRCs the composition refreshes
 */
struct vflipq_frame {
	struct vflipq_layer layers[VFLIPQ_MAX_LAYERS];
	unsigned int n;
	struct vflipq_color cm;
	int w;
	unsigned int bpc;
	struct vflipq_wb_job *wb;
	struct vflipq_tiles *tiles;
};

/**
 * compose_tiles - compose tiles [@t1, @t2) of a row and refresh their CRCs
 * @lb: line buffers
 * @f: the frame
 * @y: CRTC row
 * @t1: first tile
 * @t2: tile after the last
 *
 * Only the layers from the row's base (row_base()) up take part.  When
 * nothing else needs the 16-bit row (no writeback, no colour management)
 * and the base has a CRC shortcut at the output depth, the columns that
 * only the base covers are fed to the CRC from the framebuffer directly
 * and only the columns under the upper layers are composed in 16 bits:
 * crc32_le() of a tile in pieces equals crc32_le() of the whole tile.
 */
static void compose_tiles(struct vflipq_line_bufs *lb,
			  const struct vflipq_frame *f, int y,
			  unsigned int t1, unsigned int t2)
{
	static const struct vflipq_px background = { .a = 0xffff };
	const struct vflipq_tiles *t = f->tiles;
	int cx1 = t1 * t->tw, cx2 = min_t(int, t2 * t->tw, f->w);
	int base = row_base(f->layers, f->n, y, f->w);
	const struct vflipq_layer *b = base >= 0 ? &f->layers[base] : NULL;
	u32 *tc = t->tile_crc + (size_t)y * t->nt;
	int x1 = cx2, x2 = cx1, x;
	unsigned int i;

	for (i = base + 1; i < f->n; i++) {
		const struct vflipq_layer *l = &f->layers[i];

		if (!layer_in_row(l, y) || l->dst.x2 <= cx1 ||
		    l->dst.x1 >= cx2)
			continue;
		x1 = min(x1, max(l->dst.x1, cx1));
		x2 = max(x2, min(l->dst.x2, cx2));
	}
	if (!b || f->wb || f->cm.active || !b->reader->crc_row ||
	    !vflipq_crc_row_ok(f->bpc)) {
		x1 = cx1;
		x2 = cx2;
	} else if (x1 >= x2) {
		/* Only the base: all of it goes to the CRC directly. */
		x1 = cx2;
		x2 = cx2;
	}

	if (x1 < x2) {
		if (b)
			compose_plane_row(lb, b, y, x1, x2);
		else
			for (x = x1; x < x2; x++)
				lb->out[x] = background;
		for (i = base + 1; i < f->n; i++) {
			const struct vflipq_layer *l = &f->layers[i];
			int l1 = max(l->dst.x1, x1), l2 = min(l->dst.x2, x2);

			if (layer_in_row(l, y) && l1 < l2)
				compose_plane_row(lb, l, y, l1, l2);
		}
		/* Without colour management the row is final as blended. */
		if (f->cm.active)
			vflipq_color_apply_row(&f->cm, lb->out + x1, x2 - x1);
	}

	for (i = t1; i < t2; i++) {
		int a = i * t->tw, z = min_t(int, a + t->tw, f->w);
		u32 crc = 0;

		if (b)
			crc = crc_plane_cols(crc, b, y, a, min(z, x1), f->bpc);
		if (max(a, x1) < min(z, x2))
			crc = crc_out_cols(crc, lb->out + max(a, x1),
					   min(z, x2) - max(a, x1), f->bpc);
		if (b)
			crc = crc_plane_cols(crc, b, y, max(a, x2), z, f->bpc);
		tc[i] = crc;
	}
}

/*
 * The layer as the CRC cache compares it.  Its damage in CRTC coordinates
 * is exact only for an upright plane; any other gets its whole rectangle.
 */
static void layer_key(const struct vflipq_layer *l,
		      const struct vflipq_place *p,
		      struct vflipq_tile_key *k)
{
	const struct vflipq_xform *xf = &l->xform;

	*k = (struct vflipq_tile_key){
		.dst = l->dst, .xform = l->xform, .reader = l->reader,
		.alpha = l->alpha, .blend = l->blend,
	};
	/* A flip-queue image: recomposed every frame. */
	if (l->buf)
		return;
	k->seq = p->seq;
	k->prev_seq = p->prev_seq;
	k->tracked = p->tracked;
	if (!drm_rect_visible(&p->damage))
		return;
	k->damage = l->dst;
	if (xf->ux == 1 && !xf->uy && !xf->vx && xf->vy == 1) {
		struct drm_rect d = p->damage;

		drm_rect_translate(&d, l->dst.x1 - xf->ox, l->dst.y1 - xf->oy);
		if (drm_rect_intersect(&d, &l->dst))
			k->damage = d;
		else
			k->damage = (struct drm_rect){ };
	}
}

static int compose(struct vflipq_output *out, struct vflipq_crtc_state *cs,
		   struct vflipq_fq_buf *const *snap, struct vflipq_wb_job *wb,
		   u32 *crc)
{
	struct vflipq_line_bufs *lb = &out->line_bufs;
	unsigned int w = cs->base.mode.hdisplay;
	unsigned int h = cs->base.mode.vdisplay;
	struct vflipq_frame frame, *f = &frame;
	struct vflipq_tile_key *keys;
	u8 *wb_row = NULL;
	unsigned int i, marked;
	int y, ret;

	if (cs->num_active_planes > ARRAY_SIZE(f->layers))
		return -EINVAL;
	ret = ensure_line_bufs(lb, w);
	if (ret)
		return ret;
	f->bpc = cs->bpc;
	f->tiles = vflipq_tiles_get(&out->tiles, w, h, f->bpc);
	if (!f->tiles)
		return -ENOMEM;
	keys = f->tiles->next;

	f->n = cs->num_active_planes;
	f->w = w;
	f->wb = wb;
	for (i = 0; i < f->n; i++) {
		struct vflipq_place place;

		read_place(out, cs->active_planes[i], &place);
		layer_init(out, cs->active_planes[i], &place, snap,
			   &f->layers[i]);
		layer_key(&f->layers[i], &place, &keys[i]);
	}
	vflipq_color_init(&f->cm, &cs->base);
	if (wb)
		wb_row = wb->data[0].vaddr;

	marked = vflipq_tiles_mark(f->tiles, f->n, wb || f->cm.active);
	trace_vflipq_compose_begin(out->crtc.base.id, marked,
				   f->tiles->h * f->tiles->nt);
	for (y = 0; y < h; y++) {
		u64 dirty = f->tiles->dirty[y];
		unsigned int t1, t2;

		if (!dirty)
			continue;
		/* Each run of dirty tiles is composed in one go. */
		while (dirty) {
			t1 = __ffs64(dirty);
			t2 = t1;
			while (t2 < 64 && (dirty & BIT_ULL(t2)))
				t2++;
			dirty &= ~GENMASK_ULL(t2 - 1, t1);
			compose_tiles(lb, f, y, t1, t2);
		}
		vflipq_tiles_fold_row(f->tiles, y);
		if (wb_row)
			wb->writer->write_row(wb_row + (size_t)y *
					      wb->fb->pitches[0], lb->out, w);
	}
	*crc = vflipq_tiles_frame_crc(f->tiles);
	vflipq_tiles_keep(f->tiles, f->n, !f->cm.active);
	trace_vflipq_compose_end(out->crtc.base.id, marked);

	for (i = 0; i < f->n; i++)
		if (f->layers[i].buf)
			vflipq_fq_buf_put(f->layers[i].buf);
	atomic64_inc(&out->frames_composed);
	return 0;
}

/**
 * vflipq_composer_worker - compose one frame of a CRTC state
 * @work: &vflipq_crtc_state.composer_work
 *
 * Queued by the vblank timer on the CRTC's ordered workqueue and flushed by
 * the commit tail before the state it belongs to is freed.
 */
void vflipq_composer_worker(struct work_struct *work)
{
	struct vflipq_crtc_state *cs =
		container_of(work, struct vflipq_crtc_state, composer_work);
	struct drm_crtc *crtc = cs->base.crtc;
	struct vflipq_output *out = crtc_to_output(crtc);
	struct vflipq_wb_job *wb;
	bool crc_pending, wb_pending, force, replaced, overtaken;
	struct vflipq_fq_buf *snap[VFQ_MAX_PLANES];
	u64 frame_start, frame_end, gen;
	unsigned int i;
	u32 crc = 0;
	int ret;

	spin_lock_irq(&out->composer_lock);
	frame_start = cs->frame_start;
	frame_end = cs->frame_end;
	gen = cs->frame_gen;
	memcpy(snap, cs->frame_scanout, sizeof(snap));
	memset(cs->frame_scanout, 0, sizeof(cs->frame_scanout));
	crc_pending = cs->crc_pending;
	force = cs->force_compose;
	wb_pending = cs->wb_pending;
	wb = cs->active_writeback;
	cs->frame_start = 0;
	cs->frame_end = 0;
	cs->crc_pending = false;
	cs->force_compose = false;
	spin_unlock_irq(&out->composer_lock);

	/* The vblank timer raced with an earlier run that did the work. */
	if (!crc_pending && !force)
		return;

	/*
	 * A frame asked for by the vblank timer shows the flip-queue images
	 * of that vblank, however late this worker runs.
	 */
	ret = compose(out, cs, crc_pending ? snap : NULL,
		      wb_pending ? wb : NULL, &crc);
	for (i = 0; i < ARRAY_SIZE(snap); i++)
		if (snap[i])
			vflipq_fq_buf_put(snap[i]);

	if (wb_pending) {
		drm_writeback_signal_completion(&out->wb, ret);
		spin_lock_irq(&out->composer_lock);
		cs->wb_pending = false;
		cs->active_writeback = NULL;
		spin_unlock_irq(&out->composer_lock);
	}
	if (ret || !crc_pending)
		return;

	/*
	 * A flip that replaced these images while this composition read them
	 * handed them back to their owner, and once the owner has read the
	 * log past it (FLIPQ_UPDATE_LOG) it may have redrawn them: the CRC
	 * would then mix frames that were never on screen.  The frames it
	 * covers get no CRC, like those a flip overtook before their
	 * composition started.  (The flip-queue event may reach the client
	 * before this composition ends: the engine sends it at the vblank.
	 * The log read, not the event, is what allows the redraw.)
	 */
	spin_lock_irq(&out->engine_lock);
	replaced = out->flipq.log_read_gen > gen;
	spin_unlock_irq(&out->engine_lock);
	if (replaced)
		return;

	/*
	 * The same for an async flip that replaced this state: its event
	 * went out at once and handed the buffers read here back to the
	 * client, which may have drawn into them already (hardware would
	 * have stopped reading them when the flip latched).  The flip marks
	 * the state before its event goes out, so a composition that read
	 * such drawing sees the mark once its reads are ordered before this.
	 */
	smp_rmb();
	spin_lock_irq(&out->lock);
	overtaken = cs->overtaken;
	spin_unlock_irq(&out->lock);
	if (overtaken)
		return;

	/* The worker can fall behind the vblank timer: report every frame. */
	while (frame_start <= frame_end)
		drm_crtc_add_crc_entry(crtc, true, frame_start++, &crc);
}

/**
 * vflipq_composer_get - keep the composer running
 * @out: output
 *
 * The composer runs from the vblank timer, so each user holds a vblank
 * reference while it wants frames.  Callers only get here with the CRTC
 * active (CRC open and writeback jobs both require it), but the vblank core
 * may still refuse; the caller remembers whether it got a reference.
 *
 * Return: true if a vblank reference was taken.
 */
bool vflipq_composer_get(struct vflipq_output *out)
{
	bool ref = !drm_crtc_vblank_get(&out->crtc);

	spin_lock_irq(&out->lock);
	out->composer_users++;
	spin_unlock_irq(&out->lock);
	vflipq_engine_update(out);
	return ref;
}

void vflipq_composer_put(struct vflipq_output *out, bool vblank_ref)
{
	spin_lock_irq(&out->lock);
	if (!WARN_ON(!out->composer_users))
		out->composer_users--;
	spin_unlock_irq(&out->lock);

	if (vblank_ref)
		drm_crtc_vblank_put(&out->crtc);
}
