// SPDX-License-Identifier: MIT
/*
 * A video file decoded frame by frame; see av_clip.h.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>

#include "av_clip.h"

struct av_clip {
	AVFormatContext *fmt;
	AVCodecContext *dec;
	AVPacket *pkt;
	AVFrame *frame;
	struct SwsContext *sws;
	int stream;
	int64_t start_pts;		/* stream time base; AV_NOPTS_VALUE: unknown */
	int64_t skip_below_ns;		/* frames before this PTS are dropped (seek) */
	bool draining, eof;
	char err[160];
};

static int fail(struct av_clip *c, int ret, const char *what)
{
	char e[AV_ERROR_MAX_STRING_SIZE];

	av_strerror(ret, e, sizeof(e));
	snprintf(c->err, sizeof(c->err), "%s: %s", what, e);
	return ret;
}

int av_clip_open(const char *path, struct av_clip **out)
{
	struct av_clip *c = calloc(1, sizeof(*c));
	const AVCodec *codec = NULL;
	int ret;

	*out = NULL;
	if (!c)
		return AVERROR(ENOMEM);
	*out = c;
	c->start_pts = AV_NOPTS_VALUE;
	ret = avformat_open_input(&c->fmt, path, NULL, NULL);
	if (ret < 0)
		return fail(c, ret, path);
	ret = avformat_find_stream_info(c->fmt, NULL);
	if (ret < 0)
		return fail(c, ret, "stream info");
	ret = av_find_best_stream(c->fmt, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
	if (ret < 0)
		return fail(c, ret, "no video stream");
	c->stream = ret;
	c->dec = avcodec_alloc_context3(codec);
	c->pkt = av_packet_alloc();
	c->frame = av_frame_alloc();
	if (!c->dec || !c->pkt || !c->frame)
		return fail(c, AVERROR(ENOMEM), "alloc");
	ret = avcodec_parameters_to_context(c->dec, c->fmt->streams[c->stream]->codecpar);
	if (ret < 0)
		return fail(c, ret, "codec parameters");
	/* PTS count from the stream's start (a seek may come before the
	 * first frame), else from the first frame decoded */
	c->start_pts = c->fmt->streams[c->stream]->start_time;
	/* One thread: the same output on every machine, and no helper
	 * threads waking up beside the player's own. */
	c->dec->thread_count = 1;
	ret = avcodec_open2(c->dec, codec, NULL);
	if (ret < 0)
		return fail(c, ret, "open decoder");
	return 0;
}

void av_clip_close(struct av_clip *c)
{
	if (!c)
		return;
	sws_freeContext(c->sws);
	av_frame_free(&c->frame);
	av_packet_free(&c->pkt);
	avcodec_free_context(&c->dec);
	avformat_close_input(&c->fmt);
	free(c);
}

void av_clip_size(const struct av_clip *c, int *width, int *height)
{
	*width = c->dec->width;
	*height = c->dec->height;
}

unsigned int av_clip_rate(const struct av_clip *c)
{
	AVRational r = c->fmt->streams[c->stream]->avg_frame_rate;

	if (r.num <= 0 || r.den <= 0)
		return 0;
	return (unsigned int)av_rescale(r.num, 1000, r.den);
}

static int64_t to_ns(const struct av_clip *c, int64_t pts)
{
	return av_rescale_q(pts, c->fmt->streams[c->stream]->time_base,
			    (AVRational){ 1, 1000000000 });
}

/* The decoder's next frame into c->frame: 1, 0 at the end, or AVERROR. */
static int decode_one(struct av_clip *c)
{
	int ret;

	for (;;) {
		ret = avcodec_receive_frame(c->dec, c->frame);
		if (ret == 0)
			return 1;
		if (ret == AVERROR_EOF)
			return 0;
		if (ret != AVERROR(EAGAIN))
			return fail(c, ret, "decode");
		if (c->draining)
			return 0;
		ret = av_read_frame(c->fmt, c->pkt);
		if (ret == AVERROR_EOF) {
			c->draining = true;
			ret = avcodec_send_packet(c->dec, NULL);
			if (ret < 0)
				return fail(c, ret, "drain");
			continue;
		}
		if (ret < 0)
			return fail(c, ret, "read");
		if (c->pkt->stream_index == c->stream)
			ret = avcodec_send_packet(c->dec, c->pkt);
		av_packet_unref(c->pkt);
		if (ret < 0)
			return fail(c, ret, "send packet");
	}
}

int av_clip_next(struct av_clip *c, struct av_clip_frame *f)
{
	int64_t pts;
	int ret;

	for (;;) {
		ret = decode_one(c);
		if (ret <= 0)
			return ret;
		pts = c->frame->best_effort_timestamp;
		if (pts == AV_NOPTS_VALUE)
			return fail(c, AVERROR_INVALIDDATA, "frame without PTS");
		if (c->start_pts == AV_NOPTS_VALUE)
			c->start_pts = pts;
		f->pts_ns = to_ns(c, pts - c->start_pts);
		if (f->pts_ns >= c->skip_below_ns)
			break;
	}
	c->skip_below_ns = 0;
	f->width = c->frame->width;
	f->height = c->frame->height;
	f->av_format = c->frame->format;
	for (int i = 0; i < 4; i++) {
		f->data[i] = c->frame->data[i];
		f->linesize[i] = c->frame->linesize[i];
	}
	return 1;
}

int av_clip_seek(struct av_clip *c, int64_t pts_ns)
{
	int64_t start = c->start_pts == AV_NOPTS_VALUE ? 0 : c->start_pts;
	int64_t ts = start + av_rescale_q(pts_ns, (AVRational){ 1, 1000000000 },
					  c->fmt->streams[c->stream]->time_base);
	int ret = av_seek_frame(c->fmt, c->stream, ts, AVSEEK_FLAG_BACKWARD);

	if (ret < 0)
		return fail(c, ret, "seek");
	avcodec_flush_buffers(c->dec);
	c->draining = false;
	c->skip_below_ns = pts_ns;
	return 0;
}

int av_clip_to_xrgb(struct av_clip *c, const struct av_clip_frame *f, void *dst,
		    uint32_t pitch, int width, int height)
{
	uint8_t *planes[4] = { dst };
	int strides[4] = { (int)pitch };
	int ret;

	/* AV_PIX_FMT_BGR0 is DRM's XRGB8888 in memory on little endian */
	c->sws = sws_getCachedContext(c->sws, f->width, f->height, f->av_format, width, height,
				      AV_PIX_FMT_BGR0, SWS_BILINEAR, NULL, NULL, NULL);
	if (!c->sws)
		return fail(c, AVERROR(EINVAL), "no conversion to XRGB8888");
	ret = sws_scale(c->sws, f->data, f->linesize, 0, f->height, planes, strides);
	if (ret < 0)
		return fail(c, ret, "convert");
	return 0;
}

const char *av_clip_error(const struct av_clip *c)
{
	return c ? c->err : "no memory";
}
