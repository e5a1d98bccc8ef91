// SPDX-License-Identifier: MIT
/*
 * Event routing of a display adapter's shared fd: flip events go to the
 * chain owning their CRTC whichever chain reads them, and that chain's
 * eventfd wakes it.  A pipe stands in for the DRM fd.
 */
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include <drm.h>

#include "events.h"
#include "vflipq_drm.h"
#include "test.h"

static size_t put_flip(char *buf, size_t off, uint32_t crtc, uint32_t seq, uint32_t usec)
{
	struct drm_event_vblank v = {
		.base = { .type = DRM_EVENT_FLIP_COMPLETE, .length = sizeof(v) },
		.tv_sec = 1, .tv_usec = usec, .sequence = seq, .crtc_id = crtc,
	};

	memcpy(buf + off, &v, sizeof(v));
	return off + sizeof(v);
}

static size_t put_flipq(char *buf, size_t off, uint32_t crtc)
{
	struct drm_vflipq_event_flipq q = {
		.base = { .type = DRM_VFLIPQ_EVENT_FLIPQ, .length = sizeof(q) },
		.crtc_id = crtc, .present_id = 7,
	};

	memcpy(buf + off, &q, sizeof(q));
	return off + sizeof(q);
}

static bool readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

static void test_route(void)
{
	struct present_mailbox a = { .crtc_id = 31 }, b = { .crtc_id = 32 };
	struct drm_event other = { .type = DRM_EVENT_VBLANK, .length = sizeof(struct drm_event_vblank) };
	char buf[512] = { 0 };
	size_t len = 0;
	unsigned int n;

	a.next = &b;
	len = put_flip(buf, len, 32, 100, 5);	/* b's, read by a */
	len = put_flip(buf, len, 31, 200, 6);
	len = put_flip(buf, len, 99, 300, 7);	/* a CRTC nobody presents on */
	memcpy(buf + len, &other, sizeof(other));
	len += sizeof(struct drm_event_vblank);	/* an application's vblank */
	len = put_flipq(buf, len, 32);
	n = present_route_events(&a, &a, true, buf, len);
	CHECK(n == 3, "deposited %u", n);
	CHECK(a.mail.nflips == 1 && a.mail.flips[0].seq == 200, "a: %u", a.mail.nflips);
	CHECK(a.mail.flips[0].ns == 1000006000ull, "a: time %llu",
	      (unsigned long long)a.mail.flips[0].ns);
	CHECK(!a.wake, "the reader is not woken");
	CHECK(b.mail.nflips == 1 && b.mail.flips[0].seq == 100, "b: %u", b.mail.nflips);
	CHECK(b.mail.flipq_irq, "b: flip-queue interrupt");
	CHECK(b.wake, "b woken");

	/* no CRTC in the events (old kernels): the reader takes them */
	memset(&a.mail, 0, sizeof(a.mail));
	memset(&b.mail, 0, sizeof(b.mail));
	b.wake = false;
	len = put_flip(buf, 0, 0, 1, 0);
	n = present_route_events(&a, &b, true, buf, len);
	CHECK(n == 1 && b.mail.nflips == 1 && !a.mail.nflips && !b.wake, "crtc 0 -> reader");
	len = put_flip(buf, 0, 31, 2, 0);
	n = present_route_events(&a, &b, false, buf, len);
	CHECK(n == 1 && b.mail.nflips == 2 && !a.mail.nflips, "no CRTC cap -> reader");

	/* a truncated or zero-length event stops the walk (never loops) */
	memset(&b.mail, 0, sizeof(b.mail));
	len = put_flip(buf, 0, 32, 1, 0);
	n = present_route_events(&a, &a, true, buf, len - 4);
	CHECK(n == 0 && !b.mail.nflips, "truncated");
	memset(buf, 0, sizeof(struct drm_event));
	n = present_route_events(&a, &a, true, buf, 64);
	CHECK(n == 0, "zero length");

	/* a full box keeps the newest flips */
	for (uint32_t i = 0; i < PRESENT_MAIL_FLIPS + 3; i++) {
		len = put_flip(buf, 0, 32, i, 0);
		present_route_events(&a, &a, true, buf, len);
	}
	CHECK(b.mail.nflips == PRESENT_MAIL_FLIPS && b.mail.dropped == 3, "full: %u %u",
	      b.mail.nflips, b.mail.dropped);
	CHECK(b.mail.flips[PRESENT_MAIL_FLIPS - 1].seq == PRESENT_MAIL_FLIPS + 2, "newest kept");
	CHECK(b.mail.flips[0].seq == 3, "oldest dropped");
}

static void test_pump(void)
{
	struct present_router r;
	struct present_mailbox a = { .wake_fd = -1 }, b = { .wake_fd = -1 };
	struct present_mail m;
	char buf[256];
	int pfd[2];
	size_t len;

	CHECK(pipe(pfd) == 0, "pipe");
	present_router_init(&r, true);
	CHECK(present_router_attach(&r, &a, 31) == 0, "attach a");
	CHECK(present_router_attach(&r, &b, 32) == 0, "attach b");
	CHECK(!readable(a.wake_fd) && !readable(b.wake_fd), "nothing yet");

	len = put_flip(buf, 0, 32, 10, 0);
	len = put_flip(buf, len, 31, 11, 0);
	CHECK(write(pfd[1], buf, len) == (ssize_t)len, "write");
	/* a reads both: keeps its own, b's waits in b's box and wakes b */
	CHECK(present_router_pump(&r, pfd[0], &a, &m) == 0, "pump a");
	CHECK(m.nflips == 1 && m.flips[0].seq == 11, "a got %u", m.nflips);
	CHECK(!readable(pfd[0]), "fd drained");
	CHECK(readable(b.wake_fd), "b woken");
	CHECK(!readable(a.wake_fd), "a not woken");
	CHECK(present_router_pump(&r, pfd[0], &a, &m) == 0 && !m.nflips, "a: nothing more");
	CHECK(present_router_pump(&r, pfd[0], &b, &m) == 0, "pump b");
	CHECK(m.nflips == 1 && m.flips[0].seq == 10, "b got %u", m.nflips);
	CHECK(!readable(b.wake_fd), "b's wake-up consumed with its mail");

	/* moved to another CRTC: old mail dropped, new CRTC routed */
	len = put_flip(buf, 0, 32, 12, 0);
	CHECK(write(pfd[1], buf, len) == (ssize_t)len, "write");
	CHECK(present_router_pump(&r, pfd[0], &a, &m) == 0, "pump a");
	CHECK(readable(b.wake_fd), "b woken again");
	CHECK(present_router_attach(&r, &b, 33) == 0, "move b");
	CHECK(!readable(b.wake_fd) && !b.mail.nflips, "move drops the old CRTC's mail");

	/* detached: its CRTC's events are nobody's */
	present_router_detach(&r, &b);
	CHECK(b.wake_fd == -1 && r.boxes == &a && !a.next, "detached");
	len = put_flip(buf, 0, 33, 13, 0);
	CHECK(write(pfd[1], buf, len) == (ssize_t)len, "write");
	CHECK(present_router_pump(&r, pfd[0], &a, &m) == 0 && !m.nflips, "dropped");
	present_router_detach(&r, &a);
	present_router_fini(&r);
	close(pfd[0]);
	close(pfd[1]);
}

int main(void)
{
	test_route();
	test_pump();
	return test_done("events_test");
}
