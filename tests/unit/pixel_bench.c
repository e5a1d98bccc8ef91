// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host microbenchmark of the composer's per-pixel row functions
 * (vflipq_formats.c) on 1920-pixel rows, one function per scene path, for
 * instruction counts under valgrind's callgrind: TCG's cost follows guest
 * instructions, not host time.  Each path runs ROWS rows in a function of
 * its own (bench_<path>), so that callgrind's inclusive count of that
 * function divided by ROWS * W is the path's instructions per pixel:
 *
 *	valgrind --tool=callgrind --callgrind-out-file=cg.out pixel_bench
 *	callgrind_annotate --inclusive=yes cg.out | grep bench_
 *
 * Run without valgrind it prints each path's result, a check that the
 * work was not optimised away.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>
#include <drm/drm_blend.h>
#include <drm/drm_fourcc.h>

#include "vflipq_formats.h"

/* The shim has no <linux/compiler.h>: each path its own function. */
#ifndef noinline
#define noinline __attribute__((__noinline__))
#endif

#define W	1920
#define ROWS	64

static u8 fg32[W * 4], bg32[W * 4], fg64[W * 8];
static struct vflipq_px out[W];
static u64 sink;

static u32 rnd(void)
{
	static u32 s = 2463534242u;

	s ^= s << 13;
	s ^= s >> 17;
	s ^= s << 5;
	return s;
}

/* Premultiplied 8-bit pixels: a mix of opaque, transparent and partial. */
static void fill(void)
{
	unsigned int i;

	for (i = 0; i < W; i++) {
		u32 v = rnd(), a;
		u32 r = v & 0xff, g = v >> 8 & 0xff, b = v >> 16 & 0xff;
		u16 h[4];

		switch (i / 64 % 3) {
		case 0:
			a = 255;
			break;
		case 1:
			a = 0;
			break;
		default:
			a = v >> 24;
			break;
		}
		r = r * a / 255;
		g = g * a / 255;
		b = b * a / 255;
		v = a << 24 | r << 16 | g << 8 | b;
		memcpy(fg32 + 4 * i, &v, 4);
		v = rnd();
		memcpy(bg32 + 4 * i, &v, 4);
		/* Halves in [0, 1], alpha and premultiplied colour. */
		h[0] = rnd() % 0x3c01;
		h[1] = rnd() % 0x3c01;
		h[2] = rnd() % 0x3c01;
		h[3] = rnd() % 0x3c01;
		memcpy(fg64 + 8 * i, h, 8);
	}
}

static const struct vflipq_src src32 = { .base = { fg32 }, .pitch = { W * 4 } };
static const struct vflipq_src srcbg = { .base = { bg32 }, .pitch = { W * 4 } };
static const struct vflipq_src src64 = { .base = { fg64 }, .pitch = { W * 8 } };

/* A path's result: its hash, or a digest of the composed row. */
static void report(const char *name, u64 h)
{
	unsigned int i;

	for (i = 0; i < W; i++)
		h = (h ^ vflipq_px_load(&out[i])) * 0x100000001b3ULL;
	printf("%-28s %016llx\n", name, (unsigned long long)h);
}

#define BENCH(name, body)						\
static noinline void bench_##name(void)				\
{									\
	unsigned int r;							\
	u64 h = 0;							\
									\
	for (r = 0; r < ROWS; r++) {					\
		body;							\
	}								\
	sink ^= h;							\
	report(#name, h);						\
}

static void reset_out(void)
{
	vflipq_format_ops(DRM_FORMAT_XRGB8888)->read_row(&srcbg, 0, 0, 1, 0,
							  W, out);
}

#define OPS(f) vflipq_format_ops(DRM_FORMAT_##f)
#define ROW(b) ((struct vflipq_row){ .p = (b), .step = 4 })

/* Primary: an opaque XRGB8888 row straight into the hash. */
BENCH(hash8_xrgb, h = OPS(XRGB8888)->hash_row(h, &src32, 0, 0, 1, 0, W, 8))
/* Overlay or cursor over the primary, the fused 8-bit blend and hash. */
BENCH(blend_hash8_argb, h = OPS(ARGB8888)->blend_hash8_row(h, ROW(fg32),
		ROW(bg32), VFLIPQ_RGB8_RGB, W))
/* Reading rows into the 16-bit composer pixels. */
BENCH(read_xrgb8888, OPS(XRGB8888)->read_row(&srcbg, 0, 0, 1, 0, W, out))
BENCH(read_xrgb2101010, OPS(XRGB2101010)->read_row(&src32, 0, 0, 1, 0, W, out))
BENCH(read_argb16f, OPS(ARGB16161616F)->read_row(&src64, 0, 0, 1, 0, W, out))
/* The 16-bit blends (out is rewritten each row; its values drift). */
BENCH(blend_argb8888_opaque, OPS(ARGB8888)->blend_row(&src32, 0, 0, 1, 0, W,
		out, DRM_BLEND_ALPHA_OPAQUE, DRM_MODE_BLEND_PREMULTI))
BENCH(blend_argb8888_pa, OPS(ARGB8888)->blend_row(&src32, 0, 0, 1, 0, W,
		out, 0x8000, DRM_MODE_BLEND_PREMULTI))
BENCH(blend_argb8888_coverage, OPS(ARGB8888)->blend_row(&src32, 0, 0, 1, 0, W,
		out, 0x8000, DRM_MODE_BLEND_COVERAGE))
BENCH(blend_argb2101010_opaque, OPS(ARGB2101010)->blend_row(&src32, 0, 0, 1,
		0, W, out, DRM_BLEND_ALPHA_OPAQUE, DRM_MODE_BLEND_PREMULTI))
BENCH(blend_argb16f_opaque, OPS(ARGB16161616F)->blend_row(&src64, 0, 0, 1, 0,
		W, out, DRM_BLEND_ALPHA_OPAQUE, DRM_MODE_BLEND_PREMULTI))
BENCH(blend_argb16f_pa, OPS(ARGB16161616F)->blend_row(&src64, 0, 0, 1, 0, W,
		out, 0x8000, DRM_MODE_BLEND_PREMULTI))
/* Composed 16-bit pixels into the hash at 8 and at 16 bits. */
BENCH(hash_px_row8, h = vflipq_hash_px_row(h, out, W, 8))
BENCH(hash_px_row16, h = vflipq_hash_px_row(h, out, W, 16))

int main(void)
{
	vflipq_formats_init();
	fill();
	bench_hash8_xrgb();
	bench_blend_hash8_argb();
	bench_read_xrgb8888();
	bench_read_xrgb2101010();
	bench_read_argb16f();
	reset_out();
	bench_blend_argb8888_opaque();
	reset_out();
	bench_blend_argb8888_pa();
	reset_out();
	bench_blend_argb8888_coverage();
	reset_out();
	bench_blend_argb2101010_opaque();
	reset_out();
	bench_blend_argb16f_opaque();
	reset_out();
	bench_blend_argb16f_pa();
	bench_hash_px_row8();
	bench_hash_px_row16();
	return (int)(sink & 0);
}
