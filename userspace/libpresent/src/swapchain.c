// SPDX-License-Identifier: MIT
/*
 * Swap chains: create, destroy, buffers, present.  The rest of a chain lives
 * in the swapchain_*.c files next to this one (swapchain_internal.h has
 * the map).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <drm_fourcc.h>

#include "swapchain_internal.h"

int sc_fail(struct present_swapchain *sc, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(sc->err, sizeof(sc->err), fmt, ap);
	va_end(ap);
	return code;
}

/* errno of a failed DRM call -> code; latches device removal. */
int sc_errno(struct present_swapchain *sc, int err, const char *what)
{
	int code = adapter_check_err(sc->display, err);

	if (sc->render && sc->render != sc->display && (err == ENODEV || err == ENXIO))
		sc->render->removed = true;
	return sc_fail(sc, code, "%s: %s", what, strerror(err));
}

bool sc_removed(struct present_swapchain *sc)
{
	return sc->display->removed || sc->render->removed;
}

/* PRESENT_E_DEVICE_REMOVED (with its message) once the display adapter
 * went away, else 0. */
int sc_check_removed(struct present_swapchain *sc)
{
	if (sc_removed(sc) || present_adapter_removed(sc->display))
		return sc_fail(sc, PRESENT_E_DEVICE_REMOVED, "device removed");
	return 0;
}

static bool format_allowed(uint32_t f)
{
	switch (f) {
	case DRM_FORMAT_XRGB8888: case DRM_FORMAT_ARGB8888:
	case DRM_FORMAT_XBGR8888: case DRM_FORMAT_ABGR8888:
	case DRM_FORMAT_XRGB2101010: case DRM_FORMAT_ARGB2101010:
	case DRM_FORMAT_XBGR2101010: case DRM_FORMAT_ABGR2101010:
	case DRM_FORMAT_ABGR16161616F:
		return true;
	}
	return false;
}

static int check_desc(const struct present_swapchain_desc *d)
{
	if (d->width > 8192 || d->height > 8192 || (!d->width) != (!d->height))
		return PRESENT_E_INVALID_ARG;
	if (d->format && !format_allowed(d->format))
		return PRESENT_E_INVALID_ARG;
	if (d->buffer_count < 2 || d->buffer_count > MAX_BUFS)
		return PRESENT_E_INVALID_ARG;
	if ((unsigned int)d->swap_effect > PRESENT_SWAP_BLT_DISCARD)
		return PRESENT_E_INVALID_ARG;
	if (d->samples > 8 || (d->samples & (d->samples - 1)))
		return PRESENT_E_INVALID_ARG;
	if (d->rotation % 90 || d->rotation > 270)
		return PRESENT_E_INVALID_ARG;
	if (d->flags & ~(PRESENT_SWAPCHAIN_FRAME_LATENCY_WAITABLE | PRESENT_SWAPCHAIN_ALLOW_TEARING))
		return PRESENT_E_INVALID_ARG;
	/* DXGI: flip effects need 2+ buffers, MSAA only with blt effects... we
	 * accept MSAA everywhere and resolve in the blt when needed */
	return 0;
}

/* Why @display cannot show a chain of @desc rendered by @render, or 0. */
static int check_create(struct present_adapter *render, struct present_adapter *display,
			const struct present_swapchain_desc *desc)
{
	if (check_desc(desc))
		return present_fail(display->err, PRESENT_E_INVALID_ARG, "invalid swap chain description");
	if (present_adapter_removed(display) || present_adapter_removed(render))
		return present_fail(display->err, PRESENT_E_DEVICE_REMOVED, "device removed");
	if (!(display->info.role & PRESENT_ROLE_DISPLAY))
		return present_fail(display->err, PRESENT_E_INVALID_ARG, "adapter %s cannot display",
				    display->info.name);
	if (render->sys != display->sys)
		return present_fail(display->err, PRESENT_E_INVALID_ARG, "adapters of different systems");
	return 0;
}

/* A chain with nothing on the display yet, NULL: out of memory. */
static struct present_swapchain *chain_alloc(struct present_adapter *render,
					     struct present_adapter *display,
					     const struct present_swapchain_desc *desc)
{
	struct present_swapchain *sc = calloc(1, sizeof(*sc));
	pthread_mutexattr_t ma;

	if (!sc)
		return NULL;
	/* recursive: public calls nest (present -> dispatch) */
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&sc->lock, &ma);
	pthread_mutexattr_destroy(&ma);
	sc->render = render;
	sc->display = display;
	sc->dfd = display->fd;
	sc->desc = *desc;
	if (!sc->desc.format)
		sc->desc.format = DRM_FORMAT_XRGB8888;
	if (!sc->desc.samples)
		sc->desc.samples = 1;
	sc_events_init(sc);
	sc_queue_init(sc);
	sc_stats_init(sc);
	sc_feedback_init(sc);
	return sc;
}

/* A width of 0: the buffers take the output's size, turned as they are. */
static void default_size(const drmModeModeInfo *m, struct present_swapchain_desc *d)
{
	bool swap = d->rotation == 90 || d->rotation == 270;

	if (d->width)
		return;
	d->width = swap ? m->vdisplay : m->hdisplay;
	d->height = swap ? m->hdisplay : m->vdisplay;
}

/* Light @output with the blank buffer and build the chain's buffers. */
static int chain_light(struct present_swapchain *sc, int output)
{
	int ret = sc_setup_output(sc, output);

	if (ret)
		return ret;
	default_size(&sc->out.mode, &sc->desc);
	ret = sc_build(sc);
	if (!ret)
		ret = sc_bufs_new_blank(sc);
	if (!ret)
		ret = sc_commit_modeset(sc, sc->bufs.blank.fb_id, sc->path.scan.w, sc->path.scan.h, false);
	if (!ret && (sc->desc.flags & PRESENT_SWAPCHAIN_FRAME_LATENCY_WAITABLE))
		ret = sc_events_open_waitable(sc);
	return ret;
}

int present_swapchain_create(struct present_adapter *render, struct present_adapter *display,
			     int output, const struct present_swapchain_desc *desc,
			     struct present_swapchain **out)
{
	struct present_swapchain *sc;
	int ret;

	if (out)
		*out = NULL;
	if (!display || !desc || !out)
		return PRESENT_E_INVALID_ARG;
	if (!render)
		render = display;
	ret = check_create(render, display, desc);
	if (ret)
		return ret;
	sc = chain_alloc(render, display, desc);
	if (!sc)
		return PRESENT_E_NO_MEMORY;
	ret = chain_light(sc, output);
	if (ret) {
		snprintf(display->err, sizeof(display->err), "%s", sc->err);
		present_swapchain_destroy(sc);
		return ret;
	}
	sc_flipq_start(sc);
	sc_reference_vblank(sc);
	sc_update_waitable(sc);
	*out = sc;
	return 0;
}

void present_swapchain_destroy(struct present_swapchain *sc)
{
	if (!sc)
		return;
	/* waits for a call of another thread to return; calls after destroy
	 * are the application's bug, as in DXGI after the final Release */
	pthread_mutex_lock(&sc->lock);
	if (!sc_removed(sc)) {
		sc_cancel_queued(sc);
		/* leave the blank buffer on screen so nothing we free is shown,
		 * the plane unrotated as other clients expect it */
		if (sc->bufs.blank.fb_id && sc->path.plane_id) {
			sc_plane_unrotated(sc);
			sc_show_blank(sc);
		}
	}
	sc_flipq_teardown(sc);
	sc_bufs_fini(sc);
	sc_events_fini(sc);
	sc_stats_fini(sc);
	sc_feedback_fini(sc);
	pthread_mutex_unlock(&sc->lock);
	pthread_mutex_destroy(&sc->lock);
	free(sc);
}

int present_swapchain_get_buffer(struct present_swapchain *sc, unsigned int index,
				 struct present_buffer *out)
{
	if (!sc || !out)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	if (index >= sc->desc.buffer_count)
		return sc_fail(sc, PRESENT_E_INVALID_ARG, "buffer %u of %u", index, sc->desc.buffer_count);
	if (index && sc->desc.swap_effect == PRESENT_SWAP_BLT_DISCARD)
		return sc_fail(sc, PRESENT_E_INVALID_ARG, "blt-discard: only buffer 0 is accessible");
	if (sc_removed(sc))
		return sc_fail(sc, PRESENT_E_DEVICE_REMOVED, "device removed");
	out->map = sc->bufs.back[index].map;
	out->pitch = sc->bufs.back[index].pitch;
	out->width = sc->bufs.back[index].width;
	out->height = sc->bufs.back[index].height;
	out->format = sc->bufs.back[index].format;
	out->size = sc->bufs.back[index].size;
	out->dmabuf_fd = -1;
	return 0;
}

int present_swapchain_current_back_buffer(struct present_swapchain *sc)
{
	if (!sc)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	if (sc_removed(sc))
		return sc_fail(sc, PRESENT_E_DEVICE_REMOVED, "device removed");
	return (int)sc->bufs.cur;
}

int present_swapchain_resize(struct present_swapchain *sc, unsigned int count, uint32_t width,
			     uint32_t height, uint32_t format)
{
	struct present_swapchain_desc nd;
	int ret;

	if (!sc)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	nd = sc->desc;
	if (count)
		nd.buffer_count = count;
	nd.width = width;
	nd.height = height;
	if (format)
		nd.format = format;
	if (check_desc(&nd))
		return sc_fail(sc, PRESENT_E_INVALID_ARG, "invalid resize arguments");
	if (present_adapter_removed(sc->display) || present_adapter_removed(sc->render))
		return sc_fail(sc, PRESENT_E_DEVICE_REMOVED, "device removed");
	sc_cancel_queued(sc);
	/* the blank buffer goes on screen while the buffers are replaced */
	sc_show_blank(sc);
	sc_free_buffers(sc);
	default_size(&sc->out.mode, &nd);
	sc->desc = nd;
	ret = sc_build(sc);
	/* the plane as the new path scans (rotated or not) */
	if (!ret)
		ret = sc_show_blank(sc);
	sc_update_waitable(sc);
	return ret;
}

int present_swapchain_path(struct present_swapchain *sc, struct present_path *out)
{
	if (!sc || !out)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	*out = sc->path.decision;
	return 0;
}

/* Why a present with @interval and @flags is refused whatever is queued. */
static int check_present(struct present_swapchain *sc, unsigned int interval, unsigned int flags)
{
	if (interval > 4 || (flags & ~(PRESENT_DO_NOT_WAIT | PRESENT_ALLOW_TEARING |
				       PRESENT_RESTART | PRESENT_TEST)))
		return sc_fail(sc, PRESENT_E_INVALID_ARG, "sync interval %u / flags %#x", interval, flags);
	if ((flags & PRESENT_ALLOW_TEARING) &&
	    (interval || !(sc->desc.flags & PRESENT_SWAPCHAIN_ALLOW_TEARING)))
		return sc_fail(sc, PRESENT_E_INVALID_ARG,
			       "allow-tearing needs interval 0 and a chain created with it");
	if (sc_removed(sc) || present_adapter_removed(sc->display) || present_adapter_removed(sc->render))
		return sc_fail(sc, PRESENT_E_DEVICE_REMOVED, "device removed");
	return 0;
}

/* Until a flip completes (or any event comes), 2 s at the most. */
static int wait_a_flip(struct present_swapchain *sc)
{
	int ret = present_swapchain_dispatch(sc, 2000);

	if (ret == PRESENT_E_TIMEOUT)
		return sc_fail(sc, PRESENT_E_IO, "no flip completed in 2 s");
	return ret < 0 ? ret : 0;
}

/* Until the current back buffer can be presented (DO_NOT_WAIT: now or not). */
static int wait_ready(struct present_swapchain *sc, unsigned int flags)
{
	int ret = present_swapchain_dispatch(sc, 0);

	if (ret < 0)
		return ret;
	if (flags & PRESENT_RESTART)
		sc_cancel_queued(sc);
	while (!sc_ready(sc)) {
		if (flags & PRESENT_DO_NOT_WAIT)
			return sc_fail(sc, PRESENT_E_WAS_STILL_DRAWING, "frame latency reached");
		ret = wait_a_flip(sc);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * The current back buffer, copied as the path wants, to the driver; @app:
 * present_at()'s PresentId and target (app_id, want_ns), else NULL.
 */
static int submit_back_buffer(struct present_swapchain *sc, unsigned int interval, bool tear,
			      const struct frame *app)
{
	unsigned int b = sc->bufs.cur, d = sc_disp_index(sc);
	struct frame f = {
		.buf = d, .back = b, .interval = interval,
		.present_count = sc->stats.present_count + 1,
		.app_id = app ? app->app_id : 0, .want_ns = app ? app->want_ns : 0,
	};
	int ret = sc_do_copies(sc, b, d);

	if (ret)
		return ret;
	f.present_id = sc_flipq_next_id(sc);
	f.submit_ns = present_now_ns();
	if (app)
		sc_pace_at(sc, &f);
	else
		sc_pace_present(sc, &f);
	ret = sc_submit(sc, &f, tear);
	if (ret == PRESENT_E_INVALID_ARG && sc_redecide_after_failed_flip(sc) == 0) {
		/* as DWM after a failed present-time check: copy instead */
		ret = sc_do_copies(sc, b, d);
		if (!ret)
			ret = sc_submit(sc, &f, tear);
	}
	if (ret)
		return ret;
	sc_queue_push(sc, &f);
	if (app)
		sc_feedback_accepted(sc, f.app_id);
	sc_stats_presented(sc);
	sc_bufs_advance(sc);
	return 0;
}

/*
 * A frame was presented.  A blocking present returns once the next back
 * buffer can be drawn into (with 2 buffers: once this frame replaced it on
 * screen).
 */
static int present_done(struct present_swapchain *sc, unsigned int flags)
{
	while (!(flags & PRESENT_DO_NOT_WAIT) && sc_buf_busy(sc, sc_disp_index(sc))) {
		int ret = wait_a_flip(sc);

		if (ret)
			return ret;
	}
	sc_update_waitable(sc);
	return 0;
}

/*
 * A present its checks answered with @ret (0: go on): the output checked,
 * the current back buffer to the driver once there is room (@app as
 * submit_back_buffer()), and the wait of a blocking present.
 */
static int present_checked(struct present_swapchain *sc, int ret, unsigned int interval,
			   unsigned int flags, const struct frame *app)
{
	if (!ret)
		ret = sc_check_output(sc);
	if (ret || (flags & PRESENT_TEST))
		return ret;
	ret = wait_ready(sc, flags);
	if (!ret)
		ret = submit_back_buffer(sc, interval, flags & PRESENT_ALLOW_TEARING, app);
	return ret ? ret : present_done(sc, flags);
}

int present_swapchain_present(struct present_swapchain *sc, unsigned int interval,
			      unsigned int flags)
{
	int ret;

	if (!sc)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	ret = check_present(sc, interval, flags);
	return present_checked(sc, ret, interval, flags, NULL);
}

/* Why a present_at() is refused whatever is queued (see check_present()). */
static int check_present_at(struct present_swapchain *sc, uint64_t target_ns, uint64_t app_id,
			    unsigned int flags)
{
	int ret;

	if (!target_ns || (flags & ~(PRESENT_DO_NOT_WAIT | PRESENT_TEST)))
		return sc_fail(sc, PRESENT_E_INVALID_ARG, "target %llu / flags %#x",
			       (unsigned long long)target_ns, flags);
	ret = check_present(sc, 0, flags);
	if (ret)
		return ret;
	if (!sc->flipq.on)
		return sc_fail(sc, PRESENT_E_NOT_SUPPORTED, "present at a time needs the flip queue");
	if (sc_output_vrr(sc))
		return sc_fail(sc, PRESENT_E_NOT_SUPPORTED,
			       "present at a time with VRR_ENABLED: not implemented");
	return sc_feedback_check(sc, app_id);
}

int present_swapchain_present_at(struct present_swapchain *sc, uint64_t target_ns,
				 uint64_t app_present_id, unsigned int flags)
{
	const struct frame app = { .app_id = app_present_id, .want_ns = target_ns };
	int ret;

	if (!sc)
		return PRESENT_E_INVALID_ARG;
	SC_LOCK(sc);
	ret = check_present_at(sc, target_ns, app_present_id, flags);
	return present_checked(sc, ret, 0, flags, &app);
}

const char *present_swapchain_last_error(const struct present_swapchain *sc)
{
	return sc ? sc->err : "invalid swap chain";
}
