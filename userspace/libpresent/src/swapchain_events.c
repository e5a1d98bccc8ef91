// SPDX-License-Identifier: MIT
/*
 * A chain's ends of the event plumbing: its mailbox at the display
 * adapter's router (events.c), the sleep on the DRM fd and the mailbox,
 * and the waitable object applications poll.
 */
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "swapchain_internal.h"

void sc_events_init(struct present_swapchain *sc)
{
	sc->ev.efd = -1;
	sc->ev.mbox.wake_fd = -1;
}

void sc_events_fini(struct present_swapchain *sc)
{
	present_router_detach(&sc->display->events, &sc->ev.mbox);
	if (sc->ev.efd >= 0)
		close(sc->ev.efd);
	sc->ev.efd = -1;
}

/* Take the events of the chain's CRTC (again, after a move); 0 or -errno. */
int sc_events_attach(struct present_swapchain *sc)
{
	return present_router_attach(&sc->display->events, &sc->ev.mbox, sc->out.crtc_id);
}

/* The waitable object of PRESENT_SWAPCHAIN_FRAME_LATENCY_WAITABLE. */
int sc_events_open_waitable(struct present_swapchain *sc)
{
	sc->ev.efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (sc->ev.efd < 0)
		return sc_errno(sc, errno, "eventfd");
	return 0;
}

/* Read the adapter's pending events, hand this chain's over in @out. */
int sc_events_pump(struct present_swapchain *sc, struct present_mail *out)
{
	int ret = present_router_pump(&sc->display->events, sc->dfd, &sc->ev.mbox, out);

	return ret ? sc_errno(sc, -ret, "read events") : 0;
}

/* Sleep until the DRM fd or the mailbox (another chain read our event)
 * is readable, or @ms; poll(2)'s result. */
int sc_events_wait(struct present_swapchain *sc, int ms)
{
	struct pollfd p[2] = { { .fd = sc->dfd, .events = POLLIN },
			       { .fd = sc->ev.mbox.wake_fd, .events = POLLIN } };
	int r;

	sc_stats_wakeup(sc);
	r = poll(p, 2, ms);
	if (r < 0 && errno != EINTR)
		return sc_errno(sc, errno, "poll");
	if (p[0].revents & (POLLERR | POLLHUP | POLLNVAL)) {
		present_adapter_removed(sc->display);
		if (sc_removed(sc))
			return sc_fail(sc, PRESENT_E_DEVICE_REMOVED, "device removed");
	}
	return r < 0 ? 1 : r;
}

void sc_update_waitable(struct present_swapchain *sc)
{
	bool want;
	uint64_t v;

	if (sc->ev.efd < 0)
		return;
	want = sc_ready(sc);
	if (want && !sc->ev.efd_signalled) {
		v = 1;
		if (write(sc->ev.efd, &v, sizeof(v)) == sizeof(v))
			sc->ev.efd_signalled = true;
	} else if (!want && sc->ev.efd_signalled) {
		if (read(sc->ev.efd, &v, sizeof(v)) == sizeof(v))
			sc->ev.efd_signalled = false;
	}
}

int present_swapchain_waitable_fd(struct present_swapchain *sc)
{
	if (!sc)
		return PRESENT_E_INVALID_ARG;
	if (sc->ev.efd < 0)
		return sc_fail(sc, PRESENT_E_NOT_SUPPORTED, "created without the waitable flag");
	return sc->ev.efd;
}
