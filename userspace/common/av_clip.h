/* SPDX-License-Identifier: MIT */
/*
 * A video file decoded frame by frame (libavformat + libavcodec), its frames
 * converted to XRGB8888 (libswscale): present-play's decoder, and the one
 * its igt test uses to learn what each frame looks like on the screen.  The
 * same file decodes to the same pixels in both.
 *
 * Frames come in presentation order; a frame's identity is its PTS, in
 * nanoseconds from the first frame's.  Functions return 0 (or a count) or a
 * negative AVERROR code; av_clip_error() names the last failure.
 */
#ifndef AV_CLIP_H
#define AV_CLIP_H

#include <stdint.h>

struct av_clip;

/** struct av_clip_frame - a decoded frame (valid until the next call) */
struct av_clip_frame {
	int64_t pts_ns;		/* from the first frame's PTS */
	int width, height;
	int av_format;		/* enum AVPixelFormat of the decoder's output */
	const uint8_t *data[4];	/* the decoder's planes */
	int linesize[4];
};

/* av_clip_open() - open @path's first video stream; 0 or AVERROR */
int av_clip_open(const char *path, struct av_clip **out);
/* av_clip_close() - free everything (NULL: no-op) */
void av_clip_close(struct av_clip *c);
/* av_clip_size() - the coded picture's width and height */
void av_clip_size(const struct av_clip *c, int *width, int *height);
/* av_clip_rate() - the stream's nominal frame rate in mHz (0: unknown) */
unsigned int av_clip_rate(const struct av_clip *c);
/*
 * av_clip_next() - decode the next frame into *@f: 1, 0 at the end of the
 * file, or AVERROR
 */
int av_clip_next(struct av_clip *c, struct av_clip_frame *f);
/*
 * av_clip_seek() - the next frame av_clip_next() returns is the first one
 * with a PTS at or after @pts_ns (decoded from the key frame before it);
 * 0 or AVERROR
 */
int av_clip_seek(struct av_clip *c, int64_t pts_ns);
/*
 * av_clip_to_xrgb() - convert @f to XRGB8888 at @dst (@pitch bytes a row),
 * scaled to @width x @height (bilinear; same size: no scaling); 0 or AVERROR
 */
int av_clip_to_xrgb(struct av_clip *c, const struct av_clip_frame *f, void *dst,
		    uint32_t pitch, int width, int height);
/* av_clip_error() - the last failure's detail ("") */
const char *av_clip_error(const struct av_clip *c);

#endif /* AV_CLIP_H */
