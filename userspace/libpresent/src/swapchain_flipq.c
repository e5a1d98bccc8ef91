// SPDX-License-Identifier: MIT
/*
 * The flip-queue back end: the completion log, the interrupt target and
 * queued flips.
 *
 * One exception to "libdrm for every DRM call": DRM_IOCTL_VFLIPQ_FLIPQ_SUBMIT
 * goes through ioctl(2).  drmIoctl() (and drmCommandWriteRead(), built on it) repeats a
 * call failing with EAGAIN until it succeeds, which would spin on a refused
 * submission and hide the drain hints the driver returns with -EAGAIN.
 * present_adapter_removed() (adapter.c) also probes with ioctl(2) for the
 * same reason (one attempt, the errno as is).
 */
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "swapchain_internal.h"

static int flipq_setup(struct present_swapchain *sc)
{
	struct drm_vflipq_set_log s = { .crtc_id = sc->out.crtc_id, .plane_id = sc->path.plane_id,
					.num_entries = LOG_ENTRIES };
	struct drm_vflipq_update_log u = { .crtc_id = sc->out.crtc_id, .plane_id = sc->path.plane_id };
	struct drm_mode_map_dumb m = { 0 };
	void *p;

	if (drmIoctl(sc->dfd, DRM_IOCTL_VFLIPQ_FLIPQ_SET_LOG, &s))
		return -errno;
	m.handle = s.handle;
	if (drmIoctl(sc->dfd, DRM_IOCTL_MODE_MAP_DUMB, &m))
		return -errno;
	p = mmap(NULL, s.size, PROT_READ, MAP_SHARED, sc->dfd, m.offset);
	if (p == MAP_FAILED)
		return -errno;
	sc->flipq.log = p;
	sc->flipq.log_handle = s.handle;
	sc->flipq.log_size = s.size;
	if (drmIoctl(sc->dfd, DRM_IOCTL_VFLIPQ_FLIPQ_UPDATE_LOG, &u) == 0)
		sc->flipq.log_next = u.first_free;
	/* PresentIds only grow per plane, across swap chains too: start
	 * above what an earlier chain (of any process) used -- the shown one
	 * and, for cancelled ones above it, the clock in microseconds */
	sc->flipq.next_present_id = u.present_id_shown + 1;
	if (sc->flipq.next_present_id < present_now_ns() / 1000)
		sc->flipq.next_present_id = present_now_ns() / 1000;
	return 0;
}

/*
 * The flip queue when the display adapter has one (PRESENT_NO_FLIPQ: page
 * flips anyway, to compare), else atomic page flips, one in flight.
 */
void sc_flipq_start(struct present_swapchain *sc)
{
	const struct present_adapter_info *info = &sc->display->info;

	sc->flipq.next_present_id = 1;
	sc->flipq.depth = 1;
	if (info->is_vflipq && info->flipq_depth > 1 &&
	    (info->vflipq_caps & VFLIPQ_CAP_FLIP_QUEUE) && !getenv("PRESENT_NO_FLIPQ") &&
	    flipq_setup(sc) == 0) {
		sc->flipq.on = true;
		sc->flipq.depth = info->flipq_depth;
	}
}

/* The chain moved to another CRTC (torn down before the move). */
void sc_flipq_move(struct present_swapchain *sc)
{
	if (sc->flipq.on && flipq_setup(sc)) {
		/* the new CRTC takes page flips instead */
		sc->flipq.on = false;
		sc->flipq.depth = 1;
	}
}

/* The PresentId of the next frame (0 means none to the driver). */
uint64_t sc_flipq_next_id(struct present_swapchain *sc)
{
	uint64_t id = sc->flipq.next_present_id++;

	return id ? id : sc->flipq.next_present_id++;
}

void sc_flipq_teardown(struct present_swapchain *sc)
{
	struct drm_vflipq_set_log s = { .crtc_id = sc->out.crtc_id, .plane_id = sc->path.plane_id };

	if (!sc->flipq.log)
		return;
	munmap((void *)sc->flipq.log, sc->flipq.log_size);
	drmCloseBufferHandle(sc->dfd, sc->flipq.log_handle);
	drmIoctl(sc->dfd, DRM_IOCTL_VFLIPQ_FLIPQ_SET_LOG, &s);
	sc->flipq.log = NULL;
}

/* A FLIPQ_SUBMIT without flips only sets the interrupt target. */
void sc_set_irq_target(struct present_swapchain *sc, uint64_t target)
{
	struct drm_vflipq_flipq_submit t = {
		.crtc_id = sc->out.crtc_id, .flags = VFLIPQ_SUBMIT_IRQ_TARGET,
		.flip_size = sizeof(struct drm_vflipq_flip),
		.plane_size = sizeof(struct drm_vflipq_flip_plane),
		.irq_plane_id = sc->path.plane_id, .irq_target = target,
	};

	if (drmIoctl(sc->dfd, DRM_IOCTL_VFLIPQ_FLIPQ_SUBMIT, &t))
		sc_errno(sc, errno, "FLIPQ_SUBMIT (interrupt target)");
}

int sc_read_log(struct present_swapchain *sc)
{
	struct drm_vflipq_update_log u = { .crtc_id = sc->out.crtc_id, .plane_id = sc->path.plane_id };
	int n = 0;

	if (drmIoctl(sc->dfd, DRM_IOCTL_VFLIPQ_FLIPQ_UPDATE_LOG, &u))
		return sc_errno(sc, errno, "UPDATE_LOG");
	while (sc->flipq.log_next != u.first_free) {
		struct drm_vflipq_log_entry e = sc->flipq.log[sc->flipq.log_next % LOG_ENTRIES];

		sc->flipq.log_next = (sc->flipq.log_next + 1) % LOG_ENTRIES;
		/* entries older than the head belong to an earlier chain */
		while (sc->queue.nframes && sc->queue.frames[0].present_id < e.present_id) {
			/* never logged (should not happen): count as cancelled */
			sc_retire_head(sc, 0);
			n++;
		}
		if (sc->queue.nframes && sc->queue.frames[0].present_id == e.present_id) {
			sc_retire_head(sc, e.timestamp_ns == VFLIPQ_TIMESTAMP_CANCELLED ? 0 :
				       e.timestamp_ns);
			n++;
		}
	}
	return n;
}

/*
 * One flip, and the interrupt moved to it (the chain sleeps until its last
 * queued frame is on screen): the driver sets the target as it queues the
 * flip, so no vblank shows the flip before.
 */
static int sc_submit_call(struct present_swapchain *sc, struct drm_vflipq_flip *fl,
			  uint64_t present_id)
{
	struct drm_vflipq_flipq_submit m = {
		.crtc_id = sc->out.crtc_id, .flags = VFLIPQ_SUBMIT_IRQ_TARGET,
		.flips_ptr = (uintptr_t)fl, .num_flips = 1, .flip_size = sizeof(*fl),
		.plane_size = sizeof(struct drm_vflipq_flip_plane),
		.irq_plane_id = sc->path.plane_id, .irq_target = present_id,
	};

	/* ioctl(2), not drmIoctl(): see the top of this file */
	return ioctl(sc->dfd, DRM_IOCTL_VFLIPQ_FLIPQ_SUBMIT, &m) ? -errno : 0;
}

/*
 * A queued flip changes the buffer; the plane keeps (with no
 * VFLIPQ_FLIP_PLANE_GEOMETRY) the rectangles sc_show_blank() or the modeset
 * set up for the path's buffers.  Each flip also carries the chain's
 * rotation, so a commit of another client in between cannot leave the
 * buffers turned the wrong way.  The chain's interrupt moves to the flip
 * (sc_submit_call()).
 */
static int submit_flipq(struct present_swapchain *sc, struct frame *f, uint32_t fb,
			uint32_t mode)
{
	struct drm_vflipq_flip_plane p = {
		.plane_id = sc->path.plane_id, .fb_id = fb, .present_id = f->present_id, .mode = mode,
	};
	struct drm_vflipq_flip s = {
		.target_ns = f->target_ns, .duration_ns = sc->pace.next_duration_ns,
		.planes_ptr = (uintptr_t)&p, .num_planes = 1,
	};

	if (sc->path.rot_prop) {
		p.flags |= VFLIPQ_FLIP_PLANE_ROTATION;
		p.rotation = sc->path.scan.rot;
	}
	for (int tries = 0; tries < 100; tries++) {
		int err = sc_submit_call(sc, &s, f->present_id);

		if (!err) {
			sc_pacing_duration_sent(sc);
			return 0;
		}
		if (err == -EINTR)
			continue;
		if (err != -EAGAIN)
			return sc_errno(sc, -err, "FLIPQ_SUBMIT");
		/* drain hint: wait for the pending flips, then resubmit */
		if (!sc->queue.nframes)
			return sc_fail(sc, PRESENT_E_IO, "FLIPQ_SUBMIT: retry with nothing pending");
		sc_stats_drain_wait(sc);
		while (sc->queue.nframes) {
			int r = present_swapchain_dispatch(sc, 1000);

			if (r < 0 && r != PRESENT_E_TIMEOUT)
				return r;
		}
		s.drain_flags = s.drain_planes = 0;
	}
	return sc_fail(sc, PRESENT_E_BUSY, "FLIPQ_SUBMIT: still refused after draining");
}

/* Frame @f to the driver, as a queued flip or else an atomic page flip;
 * @tear: on screen at once, torn. */
int sc_submit(struct present_swapchain *sc, struct frame *f, bool tear)
{
	uint32_t fb = sc->bufs.scan_fb[f->buf];

	if (sc->flipq.on)
		return submit_flipq(sc, f, fb, tear ? VFLIPQ_FLIP_IMMEDIATE : VFLIPQ_FLIP_ON_NEXT_VSYNC);
	return sc_submit_atomic(sc, f, fb, tear);
}
