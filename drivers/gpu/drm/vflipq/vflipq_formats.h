/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _VFLIPQ_FORMATS_H_
#define _VFLIPQ_FORMATS_H_

#include <linux/types.h>

/* Composer pixel: 16 bits per channel, premultiplied once blended. */
struct vflipq_px {
	u16 a, r, g, b;
};

/*
 * A composer pixel as one 64-bit word in memory order, so that a row moves
 * with one load or store per pixel instead of four.
 */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define VFLIPQ_PX_SHIFT(i) (16 * (i))
#else
#define VFLIPQ_PX_SHIFT(i) (48 - 16 * (i))
#endif

static __always_inline u64 vflipq_px_pack(u64 a, u64 r, u64 g, u64 b)
{
	return a << VFLIPQ_PX_SHIFT(0) | r << VFLIPQ_PX_SHIFT(1) |
	       g << VFLIPQ_PX_SHIFT(2) | b << VFLIPQ_PX_SHIFT(3);
}

/* Channel @i (0 a, 1 r, 2 g, 3 b) of a packed pixel. */
static __always_inline u32 vflipq_px_ch(u64 v, unsigned int i)
{
	return (u16)(v >> VFLIPQ_PX_SHIFT(i));
}

/*
 * Two 16-bit channels in the 32-bit lanes of a word, so that one 64-bit
 * multiply scales both (vflipq_mul16x2()): red and blue, or alpha and
 * green, which lie 32 bits apart in a packed pixel.  Channel @i is in the
 * lane at bit VFLIPQ_PX_SHIFT(i) & 32 of its pair.
 */
#define VFLIPQ_PX_LANES		0x0000ffff0000ffffULL
#define VFLIPQ_PX_RB_SHIFT	(VFLIPQ_PX_SHIFT(1) & 31)
#define VFLIPQ_PX_AG_SHIFT	(VFLIPQ_PX_SHIFT(0) & 31)

static __always_inline u64 vflipq_px_rb(u64 v)
{
	return v >> VFLIPQ_PX_RB_SHIFT & VFLIPQ_PX_LANES;
}

static __always_inline u64 vflipq_px_ag(u64 v)
{
	return v >> VFLIPQ_PX_AG_SHIFT & VFLIPQ_PX_LANES;
}

/* Channel @i of a pair from vflipq_px_rb() or vflipq_px_ag(). */
static __always_inline u32 vflipq_px_lane(u64 pair, unsigned int i)
{
	return (u16)(pair >> (VFLIPQ_PX_SHIFT(i) & 32));
}

static __always_inline u64 vflipq_px_load(const struct vflipq_px *p)
{
	u64 v;

	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

static __always_inline void vflipq_px_store(struct vflipq_px *p, u64 v)
{
	__builtin_memcpy(p, &v, sizeof(v));
}

/**
 * struct vflipq_src - CPU view of a framebuffer for the row readers
 * @base: first byte of each format plane (mapping + fb offset)
 * @pitch: bytes per row of each format plane
 */
struct vflipq_src {
	const u8 *base[2];
	unsigned int pitch[2];
};

/**
 * struct vflipq_xform - walk of the source for each destination pixel
 * @ox: source x (framebuffer pixels) of the first destination pixel
 * @oy: source y of the first destination pixel
 * @ux: source x step per destination column
 * @uy: source y step per destination column
 * @vx: source x step per destination row
 * @vy: source y step per destination row
 *
 * Rotation and reflection reduce to an integer affine walk because the
 * planes never scale.
 */
struct vflipq_xform {
	int ox, oy;
	int ux, uy;
	int vx, vy;
};

/**
 * struct vflipq_row - a run of source pixels in memory
 * @p: first pixel
 * @step: bytes from one pixel to the next (a plane's walk may go backwards
 *	or down a column)
 */
struct vflipq_row {
	const u8 *p;
	ptrdiff_t step;
};

static inline struct vflipq_row vflipq_row_at(const struct vflipq_src *src,
					      int x, int y, int ux, int uy,
					      unsigned int cpp)
{
	return (struct vflipq_row){
		.p = src->base[0] + (ptrdiff_t)y * src->pitch[0] +
		     (ptrdiff_t)x * cpp,
		.step = (ptrdiff_t)uy * src->pitch[0] + (ptrdiff_t)ux * cpp,
	};
}

/* The 8-bit RGB formats: 4 bytes a pixel, colour bytes r, g, b in some order. */
enum vflipq_rgb8 {
	VFLIPQ_RGB8_NONE,
	VFLIPQ_RGB8_RGB,	/* 0x..RRGGBB: XRGB8888, ARGB8888 */
	VFLIPQ_RGB8_BGR,	/* 0x..BBGGRR: XBGR8888, ABGR8888 */
};

struct vflipq_line_bufs {
	struct vflipq_px *out;
	struct vflipq_px *stage;
	unsigned int width;
};

/**
 * struct vflipq_format_ops - conversions of one DRM format
 * @format: DRM fourcc
 * @read_row: convert @n pixels, starting at source (@x, @y) and stepping
 *	(@ux, @uy), to composer pixels
 * @write_row: convert @n composer pixels to the format, contiguously
 * @hash_row: frame hash update (vflipq_hash.h) by the pixels that
 *	read_row() gives for @n pixels taken as opaque, at output depth @bpc
 *	(8 or 16 only, see vflipq_hash_row_ok()), without producing them:
 *	the state after them from state @h; NULL where no shortcut exists
 *	(the composer then reads the row and hashes it)
 * @hash_tiles: @hash_row from 0 for each piece of @n pixels cut every @tw
 *	(the last piece may be shorter), canonical (vflipq_hash_final()),
 *	into @out: the hashes of a row's tiles in one call; set exactly
 *	where @hash_row is
 * @blend_row: read like read_row() and blend onto @out at plane alpha @pa
 *	in blend mode @mode (vflipq_blend_px()), in one pass; NULL where the
 *	composer stages the row first
 * @blend_hash8_row: blend @n pixels of this format @fg in "Pre-multiplied"
 *	mode at plane alpha 0xffff onto @n opaque pixels @bg of an 8-bit RGB
 *	format in order @bg_order and feed the results to the frame hash
 *	from state @h at output depth 8; exactly the state that read_row(),
 *	blend_row() and vflipq_hash_px_row() give, without the 16-bit
 *	pixels; NULL where no such shortcut exists
 * @rgb8: whether and how this is an 8-bit RGB format (a base for
 *	@blend_hash8_row)
 */
struct vflipq_format_ops {
	u32 format;
	void (*read_row)(const struct vflipq_src *src, int x, int y,
			 int ux, int uy, unsigned int n,
			 struct vflipq_px *out);
	void (*write_row)(u8 *dst, const struct vflipq_px *in,
			  unsigned int n);
	u64 (*hash_row)(u64 h, const struct vflipq_src *src, int x, int y,
			int ux, int uy, unsigned int n, unsigned int bpc);
	void (*hash_tiles)(const struct vflipq_src *src, int x, int y, int ux,
			   int uy, unsigned int n, unsigned int tw,
			   unsigned int bpc, u64 *out);
	void (*blend_row)(const struct vflipq_src *src, int x, int y,
			  int ux, int uy, unsigned int n,
			  struct vflipq_px *out, u32 pa, u16 mode);
	u64 (*blend_hash8_row)(u64 h, struct vflipq_row fg,
			       struct vflipq_row bg, enum vflipq_rgb8 bg_order,
			       unsigned int n);
	enum vflipq_rgb8 rgb8;
};

/* The depths at which &vflipq_format_ops.hash_row works. */
static inline bool vflipq_hash_row_ok(unsigned int bpc)
{
	return bpc == 8 || bpc == 16;
}

/* Bytes a pixel gives the frame hash at output depth @bpc. */
static inline unsigned int vflipq_hash_px_bytes(unsigned int bpc)
{
	return bpc <= 8 ? 4 : 8;
}

struct iosys_map;

void vflipq_formats_init(void);
u64 vflipq_hash_px_row(u64 h, const struct vflipq_px *px, unsigned int n,
		       unsigned int bpc);
const struct vflipq_format_ops *vflipq_format_ops(u32 format);
void vflipq_src_init(struct vflipq_src *src, const struct iosys_map *data,
		     const u32 *pitches, unsigned int num_planes);
void vflipq_xform_init(struct vflipq_xform *xf, int src_x, int src_y,
		       int src_w, int src_h, unsigned int rotation);

extern const u32 vflipq_plane_formats[];
extern const unsigned int vflipq_num_plane_formats;
extern const u32 vflipq_overlay_formats[];
extern const unsigned int vflipq_num_overlay_formats;
extern const u32 vflipq_cursor_formats[];
extern const unsigned int vflipq_num_cursor_formats;
extern const u32 vflipq_wb_formats[];
extern const unsigned int vflipq_num_wb_formats;

#endif /* _VFLIPQ_FORMATS_H_ */
