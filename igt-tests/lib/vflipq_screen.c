// SPDX-License-Identifier: MIT
/*
 * The on-screen oracle: which image the display showed at each vblank,
 * established from outside the flip-queue bookkeeping.  Every image the
 * test puts on screen is a marker with its own CRC, learnt through plain
 * KMS commits; the standard debugfs CRC interface then names, with its own
 * frame counter (the DRM vblank counter of the CRTC), the marker shown at
 * every vblank.  Nothing here reads the flip queue's log or events.
 */
#include <inttypes.h>

#include "vflipq_helpers.h"

void vfq_screen_learn(struct vfq_screen *s, struct vfq_dev *dev, int pipe,
		      const uint32_t *fb_ids, int n, int w, int h)
{
	int i, j;

	igt_assert(n > 0 && n <= VFQ_SCREEN_MAX_MARKERS);
	memset(s, 0, sizeof(*s));
	s->fd = dev->fd;
	s->crtc_id = dev->pipe[pipe].crtc_id;
	s->n = n;
	s->crc = vfq_crc_start(dev->fd, dev->pipe[pipe].index);
	/* Last to first: the first marker stays on screen. */
	for (i = n - 1; i >= 0; i--) {
		uint64_t seq;
		uint32_t v;

		igt_assert_eq(drmModeSetPlane(dev->fd, dev->pipe[pipe].primary,
					      s->crtc_id, fb_ids[i], 0, 0, 0,
					      w, h, 0, 0, (uint32_t)w << 16,
					      (uint32_t)h << 16), 0);
		/* The commit is done: the second vblank on composes it. */
		seq = vfq_crtc_sequence(dev->fd, s->crtc_id);
		vfq_crc_collect(s->crc, (uint32_t)seq + 2, 1, &v);
		s->crc_of[i] = v;
		for (j = i + 1; j < n; j++)
			igt_assert_f(s->crc_of[j] != v,
				     "markers %d and %d share CRC %08x\n", i, j,
				     v);
	}
}

int vfq_screen_marker(const struct vfq_screen *s, uint32_t crc)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (s->crc_of[i] == crc)
			return i;
	return VFQ_SCREEN_UNKNOWN;
}

void vfq_screen_record(struct vfq_screen *s, uint64_t first, int count,
		       int *marker)
{
	uint32_t last = (uint32_t)(first + count - 1);
	int i;

	for (i = 0; i < count; i++)
		marker[i] = VFQ_SCREEN_NO_CRC;
	for (;;) {
		uint32_t frame, value;
		int32_t d;

		igt_assert_f(vfq_crc_read(s->crc, 3000, &frame, &value) == 1,
			     "no CRC within 3 s (waiting for frame %u)\n",
			     last);
		igt_assert_f(frame != UINT32_MAX, "CRC without frame number\n");
		d = (int32_t)(frame - (uint32_t)first);
		if (d >= 0 && d < count) {
			marker[d] = vfq_screen_marker(s, value);
			igt_assert_f(marker[d] != VFQ_SCREEN_UNKNOWN,
				     "frame %u: CRC %08x is no marker\n",
				     frame, value);
		}
		if ((int32_t)(frame - last) >= 0)
			return;
	}
}

void vfq_screen_stop(struct vfq_screen *s)
{
	igt_pipe_crc_free(s->crc);
	s->crc = NULL;
}

void vfq_vblank_grid(int fd, uint32_t crtc_id, uint64_t *seq, uint64_t *ns)
{
	igt_assert_eq(drmCrtcGetSequence(fd, crtc_id, seq, ns), 0);
}

/*
 * The grid's origin is where the mode set's CRTC enable starts it: the
 * instant of the enable, or, on a device with vblank_align (the default),
 * the last multiple of the frame duration at or before it
 * (Documentation/vflipq/driver.rst, "Aligned vblanks").  The DRM core
 * resets the vblank timestamp there (drm_crtc_vblank_on()), and the
 * engine's event sequence counts vblanks from it.  A CRTC whose vblanks
 * are off refuses DRM_IOCTL_CRTC_GET_SEQUENCE, so polling it across a
 * nonblocking mode set bounds the enable: after the start of the last
 * refusal, less 1 ms for the few instructions between the engine's phase
 * and drm_crtc_vblank_on(), and before the end of the first answer.
 */
bool vfq_pipe_on_window(struct vfq_dev *dev, int pipe,
			const drmModeModeInfo *mode, uint32_t fb,
			uint64_t *seq, uint64_t *ns, uint64_t *lo,
			uint64_t *hi)
{
	uint32_t crtc_id = dev->pipe[pipe].crtc_id, blob;
	drmModeAtomicReq *req = vfq_req_new();
	uint64_t deadline, r1, asked;
	bool refused;
	int ret;

	vfq_req_pipe_on(req, dev, pipe, mode, fb, &blob);
	/*
	 * The CRTC must be seen off first, here too: the commit worker may
	 * enable it before the first poll after the commit.
	 */
	refused = drmCrtcGetSequence(dev->fd, crtc_id, seq, ns) != 0;
	asked = vfq_now_ns();
	ret = vfq_req_commit(dev->fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET |
			     DRM_MODE_ATOMIC_NONBLOCK, NULL);
	igt_assert_f(ret == 0, "modeset of CRTC %d failed: %s\n", pipe,
		     strerror(-ret));
	deadline = vfq_now_ns() + 2000000000ull;
	for (;;) {
		ret = drmCrtcGetSequence(dev->fd, crtc_id, seq, ns);
		r1 = vfq_now_ns();
		if (ret == 0 && *ns)
			break;
		refused = true;
		igt_assert_f(r1 < deadline, "CRTC %d: no vblank 2 s after its "
			     "mode set\n", pipe);
	}
	drmModeDestroyPropertyBlob(dev->fd, blob);
	/* The mode set is done once the second vblank after it passed. */
	igt_assert_eq(vfq_wait_vblank(dev->fd, pipe, DRM_VBLANK_RELATIVE, 2, 0,
				      NULL, NULL), 0);
	vfq_drain_events(dev->fd, 0);
	if (!refused) {
		igt_info("grid origin: the first poll already saw vblanks\n");
		return false;
	}
	/*
	 * Not the last refusal: atomic_enable stamps the grid's origin, then
	 * turns vblank on (drm_crtc_vblank_on(), outside the engine's lock),
	 * and a vCPU that loses the host in between leaves an origin before
	 * polls that were still refused (by up to a few ms).
	 */
	*lo = asked;
	*hi = r1;
	return true;
}

bool vfq_pipe_on_origin(struct vfq_dev *dev, int pipe,
			const drmModeModeInfo *mode, uint32_t fb,
			uint64_t period, uint64_t *seq, uint64_t *ns)
{
	uint64_t lo, hi, origin;

	if (!vfq_pipe_on_window(dev, pipe, mode, fb, seq, ns, &lo, &hi))
		return false;
	if (!vfq_vblank_aligned(dev->fd)) {
		/*
		 * The first answer is the origin when it came less than a
		 * period after the window opened: before the next vblank.
		 */
		if (hi - lo >= period) {
			igt_info("grid origin: poll too slow (%" PRIu64 " us "
				 "from the last refusal)\n",
				 (hi - lo) / 1000 - 1000);
			return false;
		}
		return true;
	}
	/*
	 * The origin is the multiple of @period the window lies in, and the
	 * first answer, which came before the next multiple, is that one.
	 */
	origin = hi - hi % period;
	if (lo < origin) {
		igt_info("grid origin: the enable's window spans the vblank "
			 "at %" PRIu64 "\n", origin);
		return false;
	}
	igt_assert_f(*ns == origin, "CRTC %d: grid origin at %" PRIu64 " ns, "
		     "expected %" PRIu64 ", the last multiple of %" PRIu64
		     " before the enable\n", pipe, *ns, origin, period);
	return true;
}

/*
 * Frames presented by someone else (a swap chain): frame i was shown at the
 * vblank @shown_ns[i] (0: never shown), its content has the CRC @crc_of[i].
 * Every vblank from the first frame's on must then have shown the last
 * frame shown at or before it: the CRC of each vblank that has one (its
 * frame counter is the DRM vblank counter) must be exactly that frame's.
 * Event times in microseconds (page flips: the vblank's time cut to 1 us)
 * are placed on the grid within 1 us.  Returns how many frames after the
 * first were decided: the CRCs of their own vblank and of the one before
 * are both known.
 */
#define VFQ_SCREEN_MAX_VBLANKS 256
int vfq_screen_check_frames(igt_pipe_crc_t *crc, int fd, uint32_t crtc_id,
			    uint64_t period, const uint64_t *shown_ns,
			    const uint32_t *crc_of, int n)
{
	static uint32_t val[VFQ_SCREEN_MAX_VBLANKS];
	static bool have[VFQ_SCREEN_MAX_VBLANKS];
	static int want[VFQ_SCREEN_MAX_VBLANKS];
	uint64_t seq0, ts0, first = 0, last = 0;
	int decided = 0, i, k, prev = -1;

	vfq_vblank_grid(fd, crtc_id, &seq0, &ts0);
	memset(have, 0, sizeof(have));
	for (k = 0; k < VFQ_SCREEN_MAX_VBLANKS; k++)
		want[k] = -1;
	for (i = 0; i < n; i++) {
		uint64_t d, q, s;

		if (!shown_ns[i])
			continue;
		/* a page-flip event's time is the vblank's, cut to 1 us */
		igt_assert_f(shown_ns[i] <= ts0, "frame %d shown after the "
			     "last vblank\n", i);
		d = ts0 - shown_ns[i];
		q = d / period;
		igt_assert_f(d - q * period < 1000,
			     "frame %d: %" PRIu64 " is no vblank of the CRTC\n",
			     i, shown_ns[i]);
		s = seq0 - q;
		if (prev < 0)
			first = s;
		igt_assert_f(prev < 0 || s > last, "frames %d and %d shown at "
			     "the same vblank\n", prev, i);
		/* the DRM core keeps 128 CRCs: later ones are lost anyway */
		if (s - first >= VFQ_SCREEN_MAX_VBLANKS)
			break;
		for (k = s - first; k < VFQ_SCREEN_MAX_VBLANKS; k++)
			want[k] = i;
		last = s;
		prev = i;
	}
	igt_assert_f(prev >= 0, "no frame was shown\n");
	if (seq0 - first >= VFQ_SCREEN_MAX_VBLANKS)
		seq0 = first + VFQ_SCREEN_MAX_VBLANKS - 1;
	/* every vblank up to seq0 is composed by now, or never */
	for (;;) {
		uint32_t frame, v;

		if (vfq_crc_read(crc, 500, &frame, &v) != 1)
			break;
		k = (int32_t)(frame - (uint32_t)first);
		if (k >= 0 && k < VFQ_SCREEN_MAX_VBLANKS) {
			val[k] = v;
			have[k] = true;
		}
		if ((int32_t)(frame - (uint32_t)seq0) >= 0)
			break;
	}
	for (k = 0; k <= (int)(seq0 - first); k++) {
		int shown = -1;

		if (!have[k])
			continue;
		for (i = 0; i < n && shown < 0; i++)
			if (crc_of[i] == val[k])
				shown = i;
		igt_debug("vblank %" PRIu64 ": frame %d, CRC %08x (frame %d)\n",
			  first + k, want[k], val[k], shown);
		igt_assert_f(val[k] == crc_of[want[k]],
			     "vblank %" PRIu64 " showed frame %d (-1: none; "
			     "CRC %08x), expected frame %d\n", first + k,
			     shown, val[k], want[k]);
	}
	for (k = 1; k <= (int)(last - first); k++)
		if (want[k] != want[k - 1] && have[k] && have[k - 1])
			decided++;
	return decided;
}
