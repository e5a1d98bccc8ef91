/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The composer's hash cache: the frame hash (vflipq_hash.h) of every tile
 * (a piece of a row) of the last composed frame, so that a frame
 * recomposes only the tiles that can have changed
 * (Documentation/vflipq/driver.rst, "Damage").
 */
#ifndef _VFLIPQ_TILES_H_
#define _VFLIPQ_TILES_H_

#include <linux/bitops.h>
#include <linux/types.h>
#include <drm/drm_rect.h>

#include "vflipq_config.h"
#include "vflipq_formats.h"
#include "vflipq_hash.h"

/* The primary, the overlays and the cursor. */
#define VFLIPQ_MAX_LAYERS	(VFLIPQ_MAX_OVERLAYS + 2)

/* Tiles in a row: one bit each in a u64. */
#define VFLIPQ_MAX_TILES	64

/**
 * struct vflipq_tile_key - what a layer contributed to a composed frame
 * @seq: the plane state's vflipq_plane_state.seq; 0 for a flip-queue
 *	image, which is always recomposed
 * @prev_seq: the state it replaced (vflipq_plane_state.prev_seq)
 * @tracked: the state's content changes only through commits (its
 *	commit carried FB_DAMAGE_CLIPS, or left the plane alone)
 * @dst: destination rectangle
 * @damage: what the state's commit changed, in CRTC coordinates
 * @xform: source walk
 * @reader: row reader (the format)
 * @alpha: plane alpha
 * @blend: blend mode
 */
struct vflipq_tile_key {
	u64 seq;
	u64 prev_seq;
	bool tracked;
	struct drm_rect dst;
	struct drm_rect damage;
	struct vflipq_xform xform;
	const struct vflipq_format_ops *reader;
	u16 alpha;
	u16 blend;
};

/**
 * struct vflipq_tiles - hashes of the last composed frame, by tile
 * @w: frame width
 * @h: frame height
 * @tw: tile width in pixels (the last tile of a row may be narrower)
 * @nt: tiles per row, at most 64 (one bit each in @dirty)
 * @bpc: output depth the hashes are at (vflipq_crtc_state.bpc)
 * @tile_hash: the hash of each tile, canonical, row by row
 * @row_hash: the hash of each row, canonical
 * @dirty: per row, the tiles the frame being composed must recompose
 * @k_tile: K^(words of a whole tile), which joins one to a row
 * @k_last: the same for the last tile of a row
 * @k_row: the same for a row, which joins one to the frame
 * @end: @end[i] is K^(words from the end of tile i to the end of the row),
 *	the weight of tile i's hash in its row's
 * @old: the old hashes of the dirty tiles of the row being composed
 * @valid: @keys describe the frame the hashes are of
 * @n: layers in @keys
 * @keys: the layers of that frame, bottom first
 * @next: the layers of the frame being composed
 */
struct vflipq_tiles {
	unsigned int w, h, tw, nt, bpc;
	u64 *tile_hash;
	u64 *row_hash;
	u64 *dirty;
	u64 k_tile, k_last, k_row;
	u64 end[VFLIPQ_MAX_TILES];
	u64 old[VFLIPQ_MAX_TILES];
	bool valid;
	unsigned int n;
	struct vflipq_tile_key keys[VFLIPQ_MAX_LAYERS];
	struct vflipq_tile_key next[VFLIPQ_MAX_LAYERS];
};

struct vflipq_tiles *vflipq_tiles_get(struct vflipq_tiles **tp,
				      unsigned int w, unsigned int h,
				      unsigned int bpc);
void vflipq_tiles_free(struct vflipq_tiles *t);
unsigned int vflipq_tiles_mark(struct vflipq_tiles *t, unsigned int n,
			       bool all);
void vflipq_tiles_keep(struct vflipq_tiles *t, unsigned int n, bool valid);
void vflipq_tiles_fold_row(struct vflipq_tiles *t, unsigned int y);
u64 vflipq_tiles_frame_hash(const struct vflipq_tiles *t);

/*
 * Whether a row's hash is updated by what its @dirty tiles changed
 * (vflipq_tiles_fold_row()) rather than joined from all its tiles: when
 * that is cheaper, with fewer than half of its tiles dirty (an update
 * also saves the old hashes first, vflipq_tiles_save_row()).  A frame that
 * does not trust the cached hashes recomposes every tile of every row
 * (vflipq_tiles_mark()), so never updates one.
 */
static inline bool vflipq_tiles_by_delta(const struct vflipq_tiles *t,
					 u64 dirty)
{
	return hweight64(dirty) * 2 < t->nt;
}

/**
 * vflipq_tiles_save_row - keep the hashes of row @y's dirty tiles before
 *	they are recomposed
 * @t: the cache
 * @y: row
 *
 * vflipq_tiles_fold_row() may update the row's hash by what those tiles
 * changed, which needs their old hashes.  Inline: it runs for every dirty
 * row, and a call costs more than the copy under QEMU's TCG.
 */
static inline void
vflipq_tiles_save_row(struct vflipq_tiles *t, unsigned int y)
{
	const u64 *tc = t->tile_hash + (size_t)y * t->nt;
	u64 dirty = t->dirty[y];
	unsigned int i;

	if (!vflipq_tiles_by_delta(t, dirty))
		return;
	for (; dirty; dirty &= dirty - 1) {
		i = __ffs64(dirty);
		t->old[i] = tc[i];
	}
}

#endif /* _VFLIPQ_TILES_H_ */
