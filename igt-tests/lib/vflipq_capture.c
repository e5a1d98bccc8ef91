// SPDX-License-Identifier: MIT
/*
 * vflipq helpers: CRTC CRCs through debugfs and writeback captures.
 */
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <unistd.h>

#include "vflipq_hash.h"
#include "vflipq_helpers.h"
#include "vflipq_pxref.h"

/* ---- CRC ---------------------------------------------------------- */

int vfq_sink_bpc_set(int drm_fd, int bpc)
{
	char path[128], v[16];
	int card = vfq_card_index(drm_fd), ret;

	if (card < 0)
		return -ENODEV;
	snprintf(path, sizeof(path), "/sys/kernel/debug/dri/%d/vflipq_sink_bpc",
		 card);
	snprintf(v, sizeof(v), "%d", bpc);
	ret = vfq_file_write(path, v);
	return ret < 0 ? ret : 0;
}

void vfq_sink_bpc(int drm_fd, int bpc)
{
	int ret = vfq_sink_bpc_set(drm_fd, bpc);

	igt_assert_f(ret == 0, "setting the sink depth to %d: %s\n", bpc,
		     strerror(-ret));
}

int vfq_crtc_bpc(int drm_fd, uint32_t crtc_id)
{
	char path[128], head[32];
	static char buf[1 << 16];
	int card = vfq_card_index(drm_fd), ret;
	const char *p, *end;

	igt_assert_lte(0, card);
	snprintf(path, sizeof(path), "/sys/kernel/debug/dri/%d/state", card);
	ret = vfq_file_read(path, buf, sizeof(buf));
	igt_assert_f(ret > 0, "%s: %s\n", path, strerror(-ret));
	snprintf(head, sizeof(head), "crtc[%u]:", crtc_id);
	p = strstr(buf, head);
	igt_assert_f(p, "%s has no %s\n", path, head);
	/* the CRTC's block ends at the next line that is not indented */
	for (end = strchr(p, '\n'); end && end[1] == '\t';)
		end = strchr(end + 1, '\n');
	p = strstr(p, "vflipq.bpc=");
	igt_assert_f(p && (!end || p < end), "%s: %s has no vflipq.bpc\n",
		     path, head);
	return atoi(p + strlen("vflipq.bpc="));
}

igt_pipe_crc_t *vfq_crc_start(int drm_fd, int crtc_index)
{
	igt_pipe_crc_t *pc;

	pc = igt_pipe_crc_new_nonblock(drm_fd, crtc_index,
				       IGT_PIPE_CRC_SOURCE_AUTO);
	igt_pipe_crc_start(pc);
	return pc;
}

/*
 * IGT does not hand out the data file to poll(), so the deadline is kept
 * by sleeping: a millisecond is a sixteenth of a 60 Hz frame, and wakes
 * the guest far less than the composer does.
 */
int vfq_crc_read(igt_pipe_crc_t *pc, int timeout_ms, uint32_t *frame,
		 uint32_t *value)
{
	uint64_t deadline = vfq_now_ns() + timeout_ms * 1000000ull;

	for (;;) {
		igt_crc_t *crcs = NULL;
		int n = igt_pipe_crc_get_crcs(pc, 1, &crcs);

		if (n == 1) {
			igt_assert_eq(crcs[0].n_words, 1);
			*frame = crcs[0].has_valid_frame ? crcs[0].frame :
							   UINT32_MAX;
			*value = crcs[0].crc[0];
			free(crcs);
			return 1;
		}
		free(crcs);
		if ((int64_t)(deadline - vfq_now_ns()) <= 0)
			return 0;
		usleep(1000);
	}
}

void vfq_crc_collect(igt_pipe_crc_t *pc, uint32_t min_frame, int n,
		     uint32_t *values)
{
	int got = 0, skipped = 0;

	while (got < n) {
		uint32_t frame, value;

		igt_assert_f(vfq_crc_read(pc, 3000, &frame, &value) == 1,
			     "no CRC within 3 s (%d of %d read)\n", got, n);
		/* without frame numbers, drop two to get past old frames */
		if (frame == UINT32_MAX ? skipped < 2 :
		    (int32_t)(frame - min_frame) < 0) {
			skipped++;
			continue;
		}
		igt_debug("CRC frame %u: %08x\n", frame, value);
		values[got++] = value;
	}
}

uint64_t vfq_crtc_sequence(int fd, uint32_t crtc_id)
{
	uint64_t seq = 0, ns = 0;

	igt_assert_eq(drmCrtcGetSequence(fd, crtc_id, &seq, &ns), 0);
	return seq;
}

/* ---- writeback ---------------------------------------------------- */

int vfq_wb_formats(struct vfq_dev *dev, int pipe, uint32_t *formats, int max)
{
	uint64_t blob_id = vfq_prop_get(dev->fd, dev->pipe[pipe].wb_conn_id,
					DRM_MODE_OBJECT_CONNECTOR,
					"WRITEBACK_PIXEL_FORMATS");
	drmModePropertyBlobRes *blob;
	int n;

	blob = drmModeGetPropertyBlob(dev->fd, blob_id);
	igt_assert_f(blob, "WRITEBACK_PIXEL_FORMATS blob %llu unreadable\n",
		     (unsigned long long)blob_id);
	n = blob->length / sizeof(uint32_t);
	for (int i = 0; i < n && i < max; i++)
		formats[i] = ((const uint32_t *)blob->data)[i];
	drmModeFreePropertyBlob(blob);
	return n;
}

int vfq_wb_capture(struct vfq_dev *dev, int pipe, struct vfq_fb *out,
		   int timeout_ms)
{
	struct vfq_pipe *p = &dev->pipe[pipe];
	const uint32_t t = DRM_MODE_OBJECT_CONNECTOR;
	drmModeAtomicReq *req = vfq_req_new();
	int32_t fence = -1;
	struct pollfd pfd;
	int ret;

	igt_assert(p->wb_conn_id);
	vfq_req_set(req, dev->fd, p->wb_conn_id, t, "CRTC_ID", p->crtc_id);
	vfq_req_set(req, dev->fd, p->wb_conn_id, t, "WRITEBACK_FB_ID",
		    out->fb_id);
	vfq_req_set(req, dev->fd, p->wb_conn_id, t, "WRITEBACK_OUT_FENCE_PTR",
		    (uint64_t)(uintptr_t)&fence);
	ret = vfq_req_commit(dev->fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	if (ret)
		return ret;
	igt_assert_f(fence >= 0, "writeback commit returned no out-fence\n");

	pfd.fd = fence;
	pfd.events = POLLIN;
	do {
		ret = poll(&pfd, 1, timeout_ms);
	} while (ret < 0 && errno == EINTR);
	close(fence);
	if (ret < 0)
		return -errno;
	return ret == 0 ? -ETIME : 0;
}

void vfq_wb_capture_ok(struct vfq_dev *dev, int pipe, struct vfq_fb *out)
{
	int ret = vfq_wb_capture(dev, pipe, out, 10000);

	igt_assert_f(ret == 0, "writeback of CRTC %d into %s failed: %s\n",
		     pipe, vfq_format_name(out->format), strerror(-ret));
}

/*
 * The frame hash of the pixels' bytes (driver.rst "CRC"), userspace's own
 * implementation (userspace/common/vflipq_hash.h), never the driver's:
 * @h after @px at depth @bpc.
 */
static uint64_t px_hash(uint64_t h, struct vfq_color px, int bpc,
			unsigned int *words)
{
	const uint16_t c[4] = { px.a, px.r, px.g, px.b };
	uint8_t b[8];
	unsigned int n = pxref_crc_bytes(c, bpc, b) / 4;

	if (words)
		*words = n;
	return vfq_hash_words(h, b, n);
}

uint32_t vfq_frame_crc(const struct vfq_color *px, int w, int h, int bpc)
{
	uint64_t hash = 0;

	for (int i = 0; i < w * h; i++)
		hash = px_hash(hash, px[i], bpc, NULL);
	return vfq_hash_fold(vfq_hash_final(hash));
}

/*
 * The hash of a solid row: @w times one pixel of hash @p and @m words, by
 * doubling (H(A || A) = H(A) K^|A| + H(A)): a few products per row instead
 * of a step per pixel (a 640x480 frame pixel by pixel is slow in the TCG
 * guest).
 */
static uint64_t solid_row(uint64_t p, unsigned int m, int w)
{
	uint64_t r = 0, km = vfq_hash_pow(m);
	int bit = 31;

	while (bit >= 0 && !(w >> bit & 1))
		bit--;
	for (; bit >= 0; bit--) {
		/* r covers the top bits of w so far: double it, add one pixel */
		r = vfq_hash_cat(r, r, vfq_hash_pow((uint64_t)m * (w >> (bit + 1))));
		if (w >> bit & 1)
			r = vfq_hash_cat(r, p, km);
	}
	return r;
}

uint32_t vfq_frame_crc_rows(const struct vfq_color *rows, int w, int h,
			    int bpc)
{
	uint64_t cache[4], krow = 0, hash = 0;
	struct vfq_color key[4];
	int n = 0, i;

	igt_assert(w > 0);
	for (int y = 0; y < h; y++) {
		for (i = 0; i < n; i++)
			if (!memcmp(&key[i], &rows[y], sizeof(key[i])))
				break;
		if (i == n) {
			unsigned int m;
			uint64_t p = vfq_hash_final(px_hash(0, rows[y], bpc, &m));

			i = n < 4 ? n++ : y % 4;
			key[i] = rows[y];
			cache[i] = solid_row(p, m, w);
			krow = vfq_hash_pow((uint64_t)m * w);
		}
		hash = vfq_hash_cat(hash, cache[i], krow);
	}
	return vfq_hash_fold(hash);
}
