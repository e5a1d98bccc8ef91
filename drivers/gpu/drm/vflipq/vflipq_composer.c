// SPDX-License-Identifier: GPL-2.0-only
/*
 * The software composer: blends the visible planes of a CRTC into one
 * frame, row by row, feeding the frame hash (reported as the CRTC's CRC,
 * vflipq_hash.h) and the writeback connector.  It only runs while somebody
 * consumes its output (CRC capture or a pending writeback job): scan-out
 * itself needs no composition.
 */

#include <linux/bitops.h>
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
 * The topmost layer above @lo that is opaque across columns [@x1, @x2) of
 * row @y: nothing below it (background included) shows there.  @lo if none.
 */
static int top_opaque(const struct vflipq_layer *layers, unsigned int n,
		      int lo, int y, int x1, int x2)
{
	int i;

	for (i = (int)n - 1; i > lo; i--)
		if (layers[i].opaque && layer_in_row(&layers[i], y) &&
		    layers[i].dst.x1 <= x1 && layers[i].dst.x2 >= x2)
			return i;
	return lo;
}

/* Hash of columns [@x1, @x2) of an opaque layer's pixels in row @y. */
static u64 hash_plane_cols(u64 h, const struct vflipq_layer *l, int y,
			   int x1, int x2, unsigned int bpc)
{
	int sx, sy;

	if (x1 >= x2)
		return h;
	layer_walk(l, y, x1, &sx, &sy);
	return l->reader->hash_row(h, &l->src, sx, sy, l->xform.ux,
				   l->xform.uy, x2 - x1, bpc);
}

/*
 * The hashes of the tiles of width @tw that columns [@x1, @x2) of an
 * opaque layer's row @y cut into, from @x1 on, into @out; the output depth
 * is 8 or 16 (vflipq_hash_row_ok()).
 */
static void hash_plane_tiles(const struct vflipq_layer *l, int y, int x1,
			     int x2, unsigned int tw, u64 *out,
			     unsigned int bpc)
{
	int sx, sy;

	layer_walk(l, y, x1, &sx, &sy);
	l->reader->hash_tiles(&l->src, sx, sy, l->xform.ux, l->xform.uy,
			      x2 - x1, tw, bpc, out);
}

/**
 * struct vflipq_frame - one composition
 * @layers: the frame's layers, bottom first
 * @n: number of layers
 * @cm: colour pipeline
 * @w: CRTC width
 * @bpc: output depth, the depth of the frame hash's input
 * @wb: writeback job, or NULL
 * @tiles: the hash cache, whose tile hashes the composition refreshes
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

/*
 * Columns [@x1, @x2) of row @y composed in 16 bits into the output row,
 * from the topmost layer above @base that is opaque across them (nothing
 * below it shows there), else from @base, else from the background.
 */
static void compose_cols(struct vflipq_line_bufs *lb,
			 const struct vflipq_frame *f, int base, int y,
			 int x1, int x2)
{
	static const struct vflipq_px background = { .a = 0xffff };
	int from = top_opaque(f->layers, f->n, base, y, x1, x2), i, x;

	if (from >= 0)
		compose_plane_row(lb, &f->layers[from], y, x1, x2);
	else
		for (x = x1; x < x2; x++)
			lb->out[x] = background;
	for (i = from + 1; i < (int)f->n; i++) {
		const struct vflipq_layer *l = &f->layers[i];
		int l1 = max(l->dst.x1, x1), l2 = min(l->dst.x2, x2);

		if (layer_in_row(l, y) && l1 < l2)
			compose_plane_row(lb, l, y, l1, l2);
	}
}

/* How a run of columns of a row reaches the hash (compose_tiles()). */
enum vflipq_run_kind {
	RUN_BASE,	/* only the base: from its framebuffer */
	RUN_TOP,	/* an opaque layer on top: from its framebuffer */
	RUN_BLEND8,	/* one 8-bit layer over the 8-bit base, in 8 bits */
	RUN_COMPOSED,	/* composed in 16 bits into the output row */
};

/**
 * struct vflipq_run - columns of a row that the same layers cover
 * @x1: first column
 * @x2: column after the last
 * @kind: how they reach the hash
 * @layer: the layer of %RUN_TOP and %RUN_BLEND8
 */
struct vflipq_run {
	int x1, x2;
	enum vflipq_run_kind kind;
	unsigned int layer;
};

/* Each layer's two edges cut the columns once more, at most. */
#define VFLIPQ_MAX_RUNS	(2 * VFLIPQ_MAX_LAYERS + 1)

/* The kind of columns [@x1, @x2) of row @y over the base @base. */
static enum vflipq_run_kind run_kind(const struct vflipq_frame *f, int base,
				     int y, int x1, int x2,
				     unsigned int *layer)
{
	const struct vflipq_layer *b = &f->layers[base], *top = NULL;
	unsigned int i, count = 0;

	for (i = base + 1; i < f->n; i++) {
		const struct vflipq_layer *l = &f->layers[i];

		if (layer_in_row(l, y) && l->dst.x1 <= x1 && l->dst.x2 >= x2) {
			top = l;
			*layer = i;
			count++;
		}
	}
	if (!top)
		return RUN_BASE;
	if (top->opaque && top->reader->hash_row)
		return RUN_TOP;
	if (count == 1 && f->bpc == 8 && b->reader->rgb8 &&
	    top->reader->blend_hash8_row &&
	    top->alpha == DRM_BLEND_ALPHA_OPAQUE &&
	    top->blend == DRM_MODE_BLEND_PREMULTI)
		return RUN_BLEND8;
	return RUN_COMPOSED;
}

/*
 * Cut columns [@cx1, @cx2) of row @y at the edges of the layers above
 * @base and say how each run reaches the hash.  Return: the number of runs.
 */
static unsigned int split_row(const struct vflipq_frame *f, int base, int y,
			      int cx1, int cx2, struct vflipq_run *runs)
{
	int xs[VFLIPQ_MAX_RUNS + 1];
	unsigned int nx = 0, nr = 0, i, j, k, layer = 0;
	enum vflipq_run_kind kind;

	xs[nx++] = cx1;
	xs[nx++] = cx2;
	for (i = base + 1; i < f->n; i++) {
		const struct vflipq_layer *l = &f->layers[i];
		const int edge[2] = { l->dst.x1, l->dst.x2 };

		if (!layer_in_row(l, y))
			continue;
		/* Insertion sort: a handful of edges. */
		for (j = 0; j < 2; j++) {
			if (edge[j] <= cx1 || edge[j] >= cx2)
				continue;
			for (k = nx++; xs[k - 1] > edge[j]; k--)
				xs[k] = xs[k - 1];
			xs[k] = edge[j];
		}
	}

	for (i = 0; i + 1 < nx; i++) {
		if (xs[i] == xs[i + 1])
			continue;
		kind = run_kind(f, base, y, xs[i], xs[i + 1], &layer);
		if (nr && runs[nr - 1].kind == kind &&
		    (kind == RUN_BASE || kind == RUN_COMPOSED ||
		     runs[nr - 1].layer == layer)) {
			runs[nr - 1].x2 = xs[i + 1];
			continue;
		}
		runs[nr++] = (struct vflipq_run){
			.x1 = xs[i], .x2 = xs[i + 1], .kind = kind,
			.layer = layer,
		};
	}
	return nr;
}

/* Hash of columns [@x1, @x2) of run @r of row @y, from state @h. */
static u64 hash_run(u64 h, struct vflipq_line_bufs *lb,
		    const struct vflipq_frame *f, int base,
		    const struct vflipq_run *r, int y, int x1, int x2)
{
	const struct vflipq_layer *b, *l;
	int sx, sy, bx, by;

	switch (r->kind) {
	case RUN_BASE:
		return hash_plane_cols(h, &f->layers[base], y, x1, x2,
				       f->bpc);
	case RUN_TOP:
		return hash_plane_cols(h, &f->layers[r->layer], y, x1, x2,
				       f->bpc);
	case RUN_BLEND8:
		b = &f->layers[base];
		l = &f->layers[r->layer];
		layer_walk(l, y, x1, &sx, &sy);
		layer_walk(b, y, x1, &bx, &by);
		return l->reader->blend_hash8_row(h,
			vflipq_row_at(&l->src, sx, sy, l->xform.ux,
				      l->xform.uy, 4),
			vflipq_row_at(&b->src, bx, by, b->xform.ux,
				      b->xform.uy, 4),
			b->reader->rgb8, x2 - x1);
	default:
		/* RUN_COMPOSED, the only kind in a row without a base. */
		return vflipq_hash_px_row(h, lb->out + x1, x2 - x1, f->bpc);
	}
}

/**
 * compose_tiles - compose tiles [@t1, @t2) of a row and refresh their
 *	hashes
 * @lb: line buffers
 * @f: the frame
 * @y: CRTC row
 * @t1: first tile
 * @t2: tile after the last
 *
 * Only the layers from the row's base (its topmost layer opaque across the
 * whole row, top_opaque()) up take part.  When
 * nothing else needs the 16-bit row (no writeback, no colour management)
 * and the base has a hash shortcut at the output depth, the row is cut at
 * the edges of the upper layers into runs (split_row()), and only the runs
 * that need it are composed in 16 bits: the columns only the base covers,
 * or whose topmost layer is opaque, go to the hash from that framebuffer;
 * at output depth 8, one 8-bit layer over an 8-bit base is blended in 8
 * bits on the way to the hash (&vflipq_format_ops.blend_hash8_row).
 * Hashing a tile in pieces, each from the state the one before left,
 * gives the hash of the whole tile.
 * Not inlined: its runs would add to compose()'s frame, already large.
 */
static noinline_for_stack void
compose_tiles(struct vflipq_line_bufs *lb, const struct vflipq_frame *f,
	      int y, unsigned int t1, unsigned int t2)
{
	const struct vflipq_tiles *t = f->tiles;
	int cx1 = t1 * t->tw, cx2 = min_t(int, t2 * t->tw, f->w);
	int base = top_opaque(f->layers, f->n, -1, y, 0, f->w);
	const struct vflipq_layer *b = base >= 0 ? &f->layers[base] : NULL;
	u64 *tc = t->tile_hash + (size_t)y * t->nt;
	struct vflipq_run runs[VFLIPQ_MAX_RUNS];
	unsigned int i, k, r = 0, nr;

	if (!b || f->wb || f->cm.active || !b->reader->hash_row ||
	    !vflipq_hash_row_ok(f->bpc)) {
		runs[0] = (struct vflipq_run){
			.x1 = cx1, .x2 = cx2, .kind = RUN_COMPOSED,
		};
		nr = 1;
	} else {
		nr = split_row(f, base, y, cx1, cx2, runs);
	}

	for (k = 0; k < nr; k++) {
		if (runs[k].kind != RUN_COMPOSED)
			continue;
		compose_cols(lb, f, base, y, runs[k].x1, runs[k].x2);
		/* Without colour management the row is final as blended. */
		if (f->cm.active)
			vflipq_color_apply_row(&f->cm, lb->out + runs[k].x1,
					       runs[k].x2 - runs[k].x1);
	}

	for (i = t1; i < t2; i++) {
		int a = i * t->tw, z = min_t(int, a + t->tw, f->w);
		u64 h = 0;

		while (r < nr && runs[r].x2 <= a)
			r++;
		/* The whole tiles a framebuffer's run covers: one call. */
		if (r < nr && runs[r].x1 <= a && runs[r].x2 >= z &&
		    (runs[r].kind == RUN_BASE || runs[r].kind == RUN_TOP)) {
			const struct vflipq_run *run = &runs[r];
			unsigned int last = run->x2 >= f->w ? t2 :
				min_t(unsigned int, t2, run->x2 / t->tw);

			hash_plane_tiles(&f->layers[run->kind == RUN_BASE ?
						    base : run->layer],
					 y, a, min_t(int, last * t->tw, f->w),
					 t->tw, tc + i, f->bpc);
			i = last - 1;
			continue;
		}
		for (k = r; k < nr && runs[k].x1 < z; k++)
			h = hash_run(h, lb, f, base, &runs[k], y,
				     max(a, runs[k].x1), min(z, runs[k].x2));
		tc[i] = vflipq_hash_final(h);
	}
}

/*
 * The layer as the hash cache compares it.  Its damage in CRTC coordinates
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
	struct vflipq_line_bufs *lb = &out->composer.line_bufs;
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
	f->tiles = vflipq_tiles_get(&out->composer.tiles, w, h, f->bpc);
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
		vflipq_tiles_save_row(f->tiles, y);
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
	/* The 32 bits of the frame hash a CRC entry reports. */
	*crc = vflipq_hash_fold(vflipq_tiles_frame_hash(f->tiles));
	vflipq_tiles_keep(f->tiles, f->n, !f->cm.active);
	trace_vflipq_compose_end(out->crtc.base.id, marked);

	for (i = 0; i < f->n; i++)
		if (f->layers[i].buf)
			vflipq_fq_buf_put(f->layers[i].buf);
	atomic64_inc(&out->stats.frames_composed);
	return 0;
}

/* What the vblank timer asked of one run of the composer. */
struct compose_request {
	u64 frame_start, frame_end, gen;
	struct vflipq_fq_buf *snap[VFQ_MAX_PLANES];
	bool crc_pending, wb_pending, force;
	struct vflipq_wb_job *wb;
};

static void compose_take_request(struct vflipq_output *out,
				 struct vflipq_crtc_state *cs,
				 struct compose_request *rq)
{
	spin_lock_irq(&out->composer.frame_lock);
	rq->frame_start = cs->frame_start;
	rq->frame_end = cs->frame_end;
	rq->gen = cs->frame_gen;
	memcpy(rq->snap, cs->frame_scanout, sizeof(rq->snap));
	memset(cs->frame_scanout, 0, sizeof(cs->frame_scanout));
	rq->crc_pending = cs->crc_pending;
	rq->force = cs->force_compose;
	rq->wb_pending = cs->wb_pending;
	rq->wb = cs->active_writeback;
	cs->frame_start = 0;
	cs->frame_end = 0;
	cs->crc_pending = false;
	cs->force_compose = false;
	spin_unlock_irq(&out->composer.frame_lock);
}

/*
 * Whether the CRC just computed is of frames that were on screen.
 *
 * A flip that replaced these images while this composition read them
 * handed them back to their owner, and once the owner has read the log
 * past it (FLIPQ_UPDATE_LOG) it may have redrawn them: the CRC would then
 * mix frames that were never on screen.  The frames it covers get no CRC,
 * like those a flip overtook before their composition started.  (The
 * flip-queue event may reach the client before this composition ends: the
 * engine sends it at the vblank.  The log read, not the event, is what
 * allows the redraw.)
 *
 * The same for an async flip that replaced this state: its event went out
 * at once and handed the buffers read here back to the client, which may
 * have drawn into them already (hardware would have stopped reading them
 * when the flip latched).  The flip marks the state before its event goes
 * out, so a composition that read such drawing sees the mark once its
 * reads are ordered before this.
 */
static bool compose_crc_holds(struct vflipq_output *out,
			      struct vflipq_crtc_state *cs, u64 gen)
{
	bool replaced, overtaken;

	spin_lock_irq(&out->engine.lock);
	replaced = out->flipq.log_read_gen > gen;
	spin_unlock_irq(&out->engine.lock);
	if (replaced)
		return false;

	/* The composition's reads before the async flip's mark (above). */
	smp_rmb();
	spin_lock_irq(&out->composer.lock);
	overtaken = cs->overtaken;
	spin_unlock_irq(&out->composer.lock);
	return !overtaken;
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
	struct compose_request rq;
	unsigned int i;
	u32 crc = 0;
	int ret;

	compose_take_request(out, cs, &rq);
	/* The vblank timer raced with an earlier run that did the work. */
	if (!rq.crc_pending && !rq.force)
		return;

	/*
	 * A frame asked for by the vblank timer shows the flip-queue images
	 * of that vblank, however late this worker runs.
	 */
	ret = compose(out, cs, rq.crc_pending ? rq.snap : NULL,
		      rq.wb_pending ? rq.wb : NULL, &crc);
	for (i = 0; i < ARRAY_SIZE(rq.snap); i++)
		if (rq.snap[i])
			vflipq_fq_buf_put(rq.snap[i]);

	if (rq.wb_pending) {
		drm_writeback_signal_completion(&out->wb.connector, ret);
		spin_lock_irq(&out->composer.frame_lock);
		cs->wb_pending = false;
		cs->active_writeback = NULL;
		spin_unlock_irq(&out->composer.frame_lock);
	}
	if (ret || !rq.crc_pending || !compose_crc_holds(out, cs, rq.gen))
		return;

	/* The worker can fall behind the vblank timer: report every frame. */
	while (rq.frame_start <= rq.frame_end)
		drm_crtc_add_crc_entry(crtc, true, rq.frame_start++, &crc);
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

	spin_lock_irq(&out->composer.lock);
	out->composer.users++;
	spin_unlock_irq(&out->composer.lock);
	vflipq_engine_update(out);
	return ref;
}

void vflipq_composer_put(struct vflipq_output *out, bool vblank_ref)
{
	spin_lock_irq(&out->composer.lock);
	if (!WARN_ON(!out->composer.users))
		out->composer.users--;
	spin_unlock_irq(&out->composer.lock);

	if (vblank_ref)
		drm_crtc_vblank_put(&out->crtc);
}
