// SPDX-License-Identifier: GPL-2.0-only
/*
 * The composer's hash cache (vflipq_tiles.h).  Only the composer worker of
 * the output that owns it touches it: no lock.
 *
 * Which tiles a frame recomposes follows from comparing its layers with
 * those of the cached frame.  A layer whose state is the one composed last
 * time, or the next one of the same plane with the same geometry, changes
 * only where its commit said it did (FB_DAMAGE_CLIPS), provided that the
 * client tracks damage: a state whose commit named the plane without clips
 * may be drawn into while it is on screen (front-buffer rendering), so its
 * whole rectangle is recomposed every frame, as before this cache.  Any
 * other change recomposes the old and the new rectangle of the layer; a
 * change in the number of layers or the frame size recomposes all.
 */

#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "vflipq_compat.h"
#include "vflipq_tiles.h"

/*
 * The cache of frames @w x @h at output depth @bpc; a new one, all tiles
 * unknown, when either changed: the tile hashes are of pixels at that
 * depth.
 */
struct vflipq_tiles *vflipq_tiles_get(struct vflipq_tiles **tp,
				      unsigned int w, unsigned int h,
				      unsigned int bpc)
{
	struct vflipq_tiles *t = *tp;
	u64 wpp = vflipq_hash_px_bytes(bpc) / 4;
	unsigned int i;

	if (t && t->w == w && t->h == h && t->bpc == bpc)
		return t;
	vflipq_tiles_free(t);
	*tp = NULL;

	t = kvzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return NULL;
	/* At least 64 pixels a tile: the cost of a fold stays per row small. */
	t->tw = max(64U, DIV_ROUND_UP(w, 64));
	t->nt = DIV_ROUND_UP(w, t->tw);
	t->tile_hash = kvmalloc_array(size_mul(h, t->nt), sizeof(u64),
				      GFP_KERNEL);
	t->row_hash = kvmalloc_array(h, sizeof(u64), GFP_KERNEL);
	t->dirty = kvmalloc_array(h, sizeof(u64), GFP_KERNEL);
	if (!t->tile_hash || !t->row_hash || !t->dirty) {
		vflipq_tiles_free(t);
		return NULL;
	}
	t->w = w;
	t->h = h;
	t->bpc = bpc;
	t->k_tile = vflipq_hash_pow(t->tw * wpp);
	t->k_last = vflipq_hash_pow((w - (t->nt - 1) * t->tw) * wpp);
	t->k_row = vflipq_hash_pow(w * wpp);
	/* Tile i is followed by tile i + 1 and what follows that. */
	t->end[t->nt - 1] = 1;
	for (i = t->nt - 1; i > 0; i--) {
		u64 k = i == t->nt - 1 ? t->k_last : t->k_tile;

		t->end[i - 1] = vflipq_hash_final(vflipq_hash_mulmod(t->end[i], k));
	}
	*tp = t;
	return t;
}
EXPORT_SYMBOL_IF_KUNIT(vflipq_tiles_get);

void vflipq_tiles_free(struct vflipq_tiles *t)
{
	if (!t)
		return;
	kvfree(t->tile_hash);
	kvfree(t->row_hash);
	kvfree(t->dirty);
	kvfree(t);
}
EXPORT_SYMBOL_IF_KUNIT(vflipq_tiles_free);

/* Mark the tiles under @r, cut to the frame. */
static void mark_rect(struct vflipq_tiles *t, const struct drm_rect *r)
{
	int x1 = max(r->x1, 0), x2 = min_t(int, r->x2, t->w);
	int y1 = max(r->y1, 0), y2 = min_t(int, r->y2, t->h);
	unsigned int t1, t2;
	u64 mask;
	int y;

	if (x1 >= x2 || y1 >= y2)
		return;
	t1 = x1 / t->tw;
	t2 = (x2 - 1) / t->tw;
	mask = GENMASK_ULL(t2, t1);
	for (y = y1; y < y2; y++)
		t->dirty[y] |= mask;
}

static bool same_geometry(const struct vflipq_tile_key *a,
			  const struct vflipq_tile_key *b)
{
	return drm_rect_equals(&a->dst, &b->dst) &&
	       !memcmp(&a->xform, &b->xform, sizeof(a->xform)) &&
	       a->reader == b->reader && a->alpha == b->alpha &&
	       a->blend == b->blend;
}

/**
 * vflipq_tiles_mark - choose the tiles a frame recomposes
 * @t: the cache, with the frame's layers in @t->next
 * @n: number of layers
 * @all: recompose everything (a writeback job needs every row)
 *
 * Return: the number of tiles marked.
 */
unsigned int vflipq_tiles_mark(struct vflipq_tiles *t, unsigned int n,
			       bool all)
{
	const struct vflipq_tile_key *keys = t->next;
	unsigned int i, y, marked = 0;
	u64 full = GENMASK_ULL(t->nt - 1, 0);

	if (all || !t->valid || t->n != n) {
		for (y = 0; y < t->h; y++)
			t->dirty[y] = full;
		return t->h * t->nt;
	}

	memset(t->dirty, 0, t->h * sizeof(*t->dirty));
	for (i = 0; i < n; i++) {
		const struct vflipq_tile_key *o = &t->keys[i], *k = &keys[i];

		if (k->seq && same_geometry(o, k)) {
			if (k->seq == o->seq) {
				if (!k->tracked)
					mark_rect(t, &k->dst);
				continue;
			}
			if (k->prev_seq == o->seq && k->tracked) {
				mark_rect(t, &k->damage);
				continue;
			}
		}
		mark_rect(t, &o->dst);
		mark_rect(t, &k->dst);
	}
	for (y = 0; y < t->h; y++)
		marked += hweight64(t->dirty[y]);
	return marked;
}
EXPORT_SYMBOL_IF_KUNIT(vflipq_tiles_mark);

/**
 * vflipq_tiles_keep - remember the layers of the frame just composed
 * @t: the cache, with that frame's layers in @t->next
 * @n: number of layers
 * @valid: the tile hashes are those of these layers alone (false when
 *	colour management changed the rows: the keys do not cover it)
 */
void vflipq_tiles_keep(struct vflipq_tiles *t, unsigned int n, bool valid)
{
	memcpy(t->keys, t->next, n * sizeof(*t->next));
	t->n = n;
	t->valid = valid;
}
EXPORT_SYMBOL_IF_KUNIT(vflipq_tiles_keep);

/**
 * vflipq_tiles_fold_row - row @y's hash, once its dirty tiles are recomposed
 * @t: the cache
 * @y: row
 *
 * Joining the hashes of a row's tiles costs a step per tile of the row.
 * But the hash is linear: the row's hash changes by the sum of each dirty
 * tile's change, weighted by K to the words that follow the tile in the
 * row (@t->end), mod p.  That costs a step per dirty tile: damage work
 * stays proportional to the damage.
 */
void vflipq_tiles_fold_row(struct vflipq_tiles *t, unsigned int y)
{
	const u64 *tc = t->tile_hash + (size_t)y * t->nt;
	u64 dirty = t->dirty[y];
	u64 h = tc[0], c, d = 0;
	unsigned int i;

	if (!vflipq_tiles_by_delta(t, dirty)) {
		/* States stay below 2^61 + 8 + p: no reduction but the last. */
		for (i = 1; i + 1 < t->nt; i++)
			h = vflipq_hash_mulmod(h, t->k_tile) + tc[i];
		if (t->nt > 1)
			h = vflipq_hash_mulmod(h, t->k_last) + tc[t->nt - 1];
		t->row_hash[y] = vflipq_hash_final(h);
		return;
	}
	for (; dirty; dirty &= dirty - 1) {
		i = __ffs64(dirty);
		/* new - old + p, below 2p: the change, never negative */
		c = tc[i] + VFLIPQ_HASH_P - t->old[i];
		d = vflipq_hash_fold61(d + vflipq_hash_mulmod(c, t->end[i]));
	}
	t->row_hash[y] = vflipq_hash_final(t->row_hash[y] + d);
}
EXPORT_SYMBOL_IF_KUNIT(vflipq_tiles_fold_row);

/* The frame's hash, canonical: its pixels at the output depth. */
u64 vflipq_tiles_frame_hash(const struct vflipq_tiles *t)
{
	u64 h = t->row_hash[0];
	unsigned int y;

	for (y = 1; y < t->h; y++)
		h = vflipq_hash_mulmod(h, t->k_row) + t->row_hash[y];
	return vflipq_hash_final(h);
}
EXPORT_SYMBOL_IF_KUNIT(vflipq_tiles_frame_hash);
