// SPDX-License-Identifier: MIT
/*
 * Every swap chain of a display adapter reads the adapter's one DRM fd, so
 * whichever chain reads gets the events of all of them.  Each event goes to
 * the mailbox of the chain owning its CRTC, and an owner asleep in poll()
 * is woken through its mailbox's eventfd.  Depositing and signalling on one
 * side, draining the eventfd and taking the mail on the other, both happen
 * under the router's lock: a wake-up is never lost between them.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <drm.h>

#include "events.h"
#include "vflipq_drm.h"

void present_router_init(struct present_router *r, bool crtc_in_event)
{
	pthread_mutex_init(&r->lock, NULL);
	r->crtc_in_event = crtc_in_event;
	r->boxes = NULL;
}

void present_router_fini(struct present_router *r)
{
	pthread_mutex_destroy(&r->lock);
}

int present_router_attach(struct present_router *r, struct present_mailbox *mb,
			  uint32_t crtc_id)
{
	uint64_t v;

	if (mb->wake_fd < 0) {
		mb->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (mb->wake_fd < 0)
			return -errno;
	}
	pthread_mutex_lock(&r->lock);
	if (!mb->attached) {
		mb->next = r->boxes;
		r->boxes = mb;
		mb->attached = true;
	}
	/* what came for the old CRTC is no news on the new one */
	mb->crtc_id = crtc_id;
	memset(&mb->mail, 0, sizeof(mb->mail));
	mb->wake = false;
	while (read(mb->wake_fd, &v, sizeof(v)) == sizeof(v))
		;
	pthread_mutex_unlock(&r->lock);
	return 0;
}

void present_router_detach(struct present_router *r, struct present_mailbox *mb)
{
	pthread_mutex_lock(&r->lock);
	for (struct present_mailbox **pp = &r->boxes; *pp; pp = &(*pp)->next) {
		if (*pp == mb) {
			*pp = mb->next;
			break;
		}
	}
	mb->attached = false;
	mb->next = NULL;
	pthread_mutex_unlock(&r->lock);
	if (mb->wake_fd >= 0)
		close(mb->wake_fd);
	mb->wake_fd = -1;
}

static struct present_mailbox *box_of(struct present_mailbox *boxes, uint32_t crtc_id)
{
	for (struct present_mailbox *mb = boxes; mb; mb = mb->next)
		if (mb->crtc_id == crtc_id)
			return mb;
	return NULL;
}

static void deposit_flip(struct present_mail *m, const struct drm_event_vblank *v)
{
	if (m->nflips == PRESENT_MAIL_FLIPS) {
		/* keep the newest: they carry the latest vblank */
		memmove(&m->flips[0], &m->flips[1], (PRESENT_MAIL_FLIPS - 1) * sizeof(m->flips[0]));
		m->nflips--;
		m->dropped++;
	}
	m->flips[m->nflips].ns = (uint64_t)v->tv_sec * 1000000000ull + v->tv_usec * 1000ull;
	m->flips[m->nflips].seq = v->sequence;
	m->nflips++;
}

unsigned int present_route_events(struct present_mailbox *boxes, struct present_mailbox *self,
				  bool by_crtc, const void *buf, size_t len)
{
	const char *p = buf;
	unsigned int n = 0;

	for (size_t off = 0; off + sizeof(struct drm_event) <= len;) {
		struct drm_event e;
		struct present_mailbox *mb = NULL;
		uint32_t crtc = 0;
		bool flip;

		memcpy(&e, p + off, sizeof(e));
		if (e.length < sizeof(e) || e.length > len - off)
			break;	/* malformed: nothing after it can be trusted */
		flip = e.type == DRM_EVENT_FLIP_COMPLETE && e.length >= sizeof(struct drm_event_vblank);
		if (flip) {
			struct drm_event_vblank v;

			memcpy(&v, p + off, sizeof(v));
			crtc = v.crtc_id;
		} else if (e.type == DRM_VFLIPQ_EVENT_FLIPQ &&
			   e.length >= sizeof(struct drm_vflipq_event_flipq)) {
			struct drm_vflipq_event_flipq q;

			memcpy(&q, p + off, sizeof(q));
			crtc = q.crtc_id;
		} else {
			off += e.length;
			continue;	/* not ours (a vblank the application asked for) */
		}
		/* no CRTC in the event (pre-4.12 kernels): the old guess, the reader */
		mb = by_crtc && crtc ? box_of(boxes, crtc) : self;
		if (mb) {
			if (flip) {
				struct drm_event_vblank v;

				memcpy(&v, p + off, sizeof(v));
				deposit_flip(&mb->mail, &v);
			} else {
				mb->mail.flipq_irq = true;
			}
			if (mb != self)
				mb->wake = true;
			n++;
		}
		/* a CRTC nobody presents on: someone else's flip, dropped */
		off += e.length;
	}
	return n;
}

int present_router_pump(struct present_router *r, int fd, struct present_mailbox *self,
			struct present_mail *out)
{
	char buf[4096];
	uint64_t v;
	int ret = 0;

	pthread_mutex_lock(&r->lock);
	/* drained before the mail is taken: a later deposit signals again */
	while (self->wake_fd >= 0 && read(self->wake_fd, &v, sizeof(v)) == sizeof(v))
		;
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t len;

		/* under the lock: no other reader empties the fd between the
		 * poll and the read, which would then block */
		if (poll(&p, 1, 0) <= 0 || !(p.revents & POLLIN))
			break;
		len = read(fd, buf, sizeof(buf));
		if (len < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			ret = -errno;
			break;
		}
		if (len == 0)
			break;
		present_route_events(r->boxes, self, r->crtc_in_event, buf, (size_t)len);
	}
	for (struct present_mailbox *mb = r->boxes; mb; mb = mb->next) {
		if (!mb->wake)
			continue;
		v = 1;
		/* fails only with the counter near 2^64: readable anyway */
		if (mb->wake_fd >= 0 && write(mb->wake_fd, &v, sizeof(v)) != sizeof(v))
			v = 0;
		mb->wake = false;
	}
	*out = self->mail;
	memset(&self->mail, 0, sizeof(self->mail));
	pthread_mutex_unlock(&r->lock);
	return ret;
}
