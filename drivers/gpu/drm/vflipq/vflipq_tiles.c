// SPDX-License-Identifier: GPL-2.0-only
/*
 * The composer's CRC cache (vflipq_tiles.h).  Only the composer worker of
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

#include "vflipq_tiles.h"

/*
 * The cache of frames @w x @h at output depth @bpc; a new one, all tiles
 * unknown, when either changed: the tile CRCs are of pixels at that depth.
 */
struct vflipq_tiles *vflipq_tiles_get(struct vflipq_tiles **tp,
				      unsigned int w, unsigned int h,
				      unsigned int bpc)
{
	struct vflipq_tiles *t = *tp;
	size_t px = vflipq_crc_px_bytes(bpc);
	unsigned int k;

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
	t->tile_crc = kvmalloc_array(size_mul(h, t->nt), sizeof(u32),
				     GFP_KERNEL);
	t->row_crc = kvmalloc_array(h, sizeof(u32), GFP_KERNEL);
	t->dirty = kvmalloc_array(h, sizeof(u64), GFP_KERNEL);
	if (!t->tile_crc || !t->row_crc || !t->dirty) {
		vflipq_tiles_free(t);
		return NULL;
	}
	t->w = w;
	t->h = h;
	t->bpc = bpc;
	for (k = 0; k < VFLIPQ_TILE_SPANS; k++)
		vflipq_crc_shift_init(&t->tile[k], ((size_t)t->tw * px) << k);
	vflipq_crc_shift_init(&t->last, (size_t)(w - (t->nt - 1) * t->tw) * px);
	vflipq_crc_shift_init(&t->row, (size_t)w * px);
	*tp = t;
	return t;
}

void vflipq_tiles_free(struct vflipq_tiles *t)
{
	if (!t)
		return;
	kvfree(t->tile_crc);
	kvfree(t->row_crc);
	kvfree(t->dirty);
	kvfree(t);
}

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

/**
 * vflipq_tiles_keep - remember the layers of the frame just composed
 * @t: the cache, with that frame's layers in @t->next
 * @n: number of layers
 * @valid: the tile CRCs are those of these layers alone (false when
 *	colour management changed the rows: the keys do not cover it)
 */
void vflipq_tiles_keep(struct vflipq_tiles *t, unsigned int n, bool valid)
{
	memcpy(t->keys, t->next, n * sizeof(*t->next));
	t->n = n;
	t->valid = valid;
}

/*
 * @crc followed by the zero bytes from the end of tile @p to the end of
 * tile @i (@p < @i): whole tiles by powers of two, the narrower last tile
 * of the row by its own operator.
 */
static inline u32 shift_tiles(const struct vflipq_tiles *t, u32 crc,
			      unsigned int p, unsigned int i)
{
	unsigned int n = i - p, k;

	if (i == t->nt - 1)
		n--;
	for (k = 0; n; k++, n >>= 1)
		if (n & 1)
			crc = vflipq_crc_shift(&t->tile[k], crc);
	if (i == t->nt - 1)
		crc = vflipq_crc_shift(&t->last, crc);
	return crc;
}

/**
 * vflipq_tiles_fold_row - row @y's CRC, once its dirty tiles are recomposed
 * @t: the cache
 * @y: row
 *
 * Joining the CRCs of a row's tiles costs a step per tile of the row.  But
 * crc32_le() from 0 is linear in the bytes of a row of a given length: the
 * row's CRC changes by the CRC of the difference, which is zero outside
 * the dirty tiles.  That costs a step per dirty tile, and a few more to
 * reach the end of the row: damage work stays proportional to the damage.
 */
void vflipq_tiles_fold_row(struct vflipq_tiles *t, unsigned int y)
{
	const u32 *tc = t->tile_crc + (size_t)y * t->nt;
	u64 dirty = t->dirty[y];
	unsigned int i, p;
	u32 crc = tc[0];

	if (!vflipq_tiles_by_delta(t, dirty)) {
		for (i = 1; i + 1 < t->nt; i++)
			crc = vflipq_crc_cat(&t->tile[0], crc, tc[i]);
		if (t->nt > 1)
			crc = vflipq_crc_cat(&t->last, crc, tc[t->nt - 1]);
		t->row_crc[y] = crc;
		return;
	}
	if (!dirty)
		return;
	p = __ffs64(dirty);
	crc = tc[p] ^ t->old[p];
	for (dirty &= dirty - 1; dirty; dirty &= dirty - 1) {
		i = __ffs64(dirty);
		crc = shift_tiles(t, crc, p, i) ^ tc[i] ^ t->old[i];
		p = i;
	}
	if (p + 1 < t->nt)
		crc = shift_tiles(t, crc, p, t->nt - 1);
	t->row_crc[y] ^= crc;
}

/* crc32_le(0, frame), the frame's pixels at the output depth. */
u32 vflipq_tiles_frame_crc(const struct vflipq_tiles *t)
{
	u32 crc = t->row_crc[0];
	unsigned int y;

	for (y = 1; y < t->h; y++)
		crc = vflipq_crc_cat(&t->row, crc, t->row_crc[y]);
	return crc;
}
