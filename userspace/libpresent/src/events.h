/* SPDX-License-Identifier: MIT */
/*
 * Routing of the DRM events of a display adapter's fd (shared by all its
 * swap chains) to the chain that owns each event's CRTC.
 */
#ifndef PRESENT_EVENTS_H
#define PRESENT_EVENTS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PRESENT_MAIL_FLIPS	8

struct present_vblank_event {
	uint64_t ns;			/* CLOCK_MONOTONIC, from tv_sec/tv_usec */
	uint64_t seq;
};

/* What a chain's mailbox received since its owner last looked. */
struct present_mail {
	unsigned int nflips;		/* page flips completed, oldest first */
	struct present_vblank_event flips[PRESENT_MAIL_FLIPS];
	unsigned int dropped;		/* flips beyond the box (oldest lost) */
	bool flipq_irq;			/* a flip-queue interrupt came */
};

struct present_mailbox {
	uint32_t crtc_id;
	int wake_fd;			/* eventfd: mail for a poll()ing owner */
	bool attached;
	bool wake;			/* mail deposited by another chain */
	struct present_mail mail;
	struct present_mailbox *next;
};

/*
 * One per display adapter.  Lock order: a chain's lock, then this one;
 * nothing holding this lock takes a chain's lock.
 */
struct present_router {
	pthread_mutex_t lock;
	bool crtc_in_event;		/* DRM_CAP_CRTC_IN_VBLANK_EVENT */
	struct present_mailbox *boxes;
};

void present_router_init(struct present_router *r, bool crtc_in_event);
void present_router_fini(struct present_router *r);

/* (Re)attach @mb for @crtc_id, its old mail dropped; 0 or -errno. */
int present_router_attach(struct present_router *r, struct present_mailbox *mb,
			  uint32_t crtc_id);
void present_router_detach(struct present_router *r, struct present_mailbox *mb);

/*
 * Read every pending event of @fd, deposit each in its CRTC's mailbox and
 * wake the other owners; then hand @self's mail over in @out.  0 or -errno.
 */
int present_router_pump(struct present_router *r, int fd, struct present_mailbox *self,
			struct present_mail *out);

/*
 * The pure part of present_router_pump(): deposit the events in @buf
 * (@len bytes) in the mailboxes of the list @boxes; an event without a
 * CRTC (or any when !@by_crtc) goes to @self.  Returns how many events were
 * deposited; a mailbox other than @self that got mail has ->wake set.
 */
unsigned int present_route_events(struct present_mailbox *boxes, struct present_mailbox *self,
				  bool by_crtc, const void *buf, size_t len);

#endif
