// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hardware flip queue scheduling core.  See vflipq_fq_core.h for the contract
 * and Documentation/vflipq/flip-queue.rst for the rules implemented here;
 * the KUnit suite tests/vflipq_fq_core_test.c exercises every rule against a
 * simulated clock.
 */

#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "vflipq_compat.h"
#include "vflipq_fq_core.h"

static bool flip_ready(struct vfq_crtc *c, unsigned int pi,
		       const struct vfq_flip *f);

static struct vfq_flip *q_at(struct vfq_plane *p, unsigned int i)
{
	return &p->q[(p->head + i) % VFQ_RING];
}

static const struct vfq_flip *q_peek(const struct vfq_plane *p,
				     unsigned int i)
{
	return &p->q[(p->head + i) % VFQ_RING];
}

static void q_pop_front(struct vfq_plane *p)
{
	p->head = (p->head + 1) % VFQ_RING;
	p->count--;
}

static void log_write(struct vfq_crtc *c, unsigned int pi, u64 id, u64 ts)
{
	struct vfq_plane *p = &c->planes[pi];
	struct vfq_log_entry *e;

	if (!p->log_len)
		return;
	e = &p->log[p->log_next];
	e->present_id = id;
	e->timestamp_ns = ts;
	if (c->ops->logged)
		c->ops->logged(c->ctx, pi, id, ts, p->log_next);
	p->log_next = (p->log_next + 1) % p->log_len;
}

static void fire(struct vfq_crtc *c, unsigned int pi, u64 seq, u64 ts,
		 bool *raised)
{
	c->stats.events++;
	*raised = true;
	c->ops->event(c->ctx, pi, seq, ts, c->planes[pi].log_next);
}

static void update_last_target(struct vfq_plane *p)
{
	unsigned int i;

	p->last_target_ns = 0;
	for (i = p->count; i-- > 0;) {
		if (!q_peek(p, i)->tombstone) {
			p->last_target_ns = q_peek(p, i)->target_ns;
			break;
		}
	}
}

void vfq_init(struct vfq_crtc *c, const struct vfq_ops *ops, void *ctx,
	      unsigned int depth, unsigned int nplanes)
{
	unsigned int i;

	memset(c, 0, sizeof(*c));
	c->ops = ops;
	c->ctx = ctx;
	c->depth = depth > VFQ_MAX_DEPTH ? VFQ_MAX_DEPTH : depth;
	c->nplanes = nplanes > VFQ_MAX_PLANES ? VFQ_MAX_PLANES : nplanes;
	c->power = VFQ_POWER_ON;
	for (i = 0; i < VFQ_MAX_PLANES; i++)
		c->planes[i].irq_target = VFQ_IRQ_NONE;
}
EXPORT_SYMBOL_IF_KUNIT(vfq_init);

void vfq_set_timing(struct vfq_crtc *c, u64 period_ns, u64 phase_ns,
		    u64 phase_seq)
{
	c->period_ns = period_ns;
	c->phase_ns = phase_ns;
	c->phase_seq = phase_seq;
	c->handled_ns = phase_ns;
}
EXPORT_SYMBOL_IF_KUNIT(vfq_set_timing);

/* The first vblank of the grid at or after @t_ns, and its sequence. */
u64 vfq_vblank_at_or_after(const struct vfq_crtc *c, u64 t_ns, u64 *seq)
{
	u64 k;

	if (t_ns >= c->phase_ns) {
		k = div64_u64(t_ns - c->phase_ns + c->period_ns - 1,
			      c->period_ns);
		if (seq)
			*seq = c->phase_seq + k;
		return c->phase_ns + k * c->period_ns;
	}
	k = div64_u64(c->phase_ns - t_ns, c->period_ns);
	if (seq)
		*seq = c->phase_seq - k;
	return c->phase_ns - k * c->period_ns;
}
EXPORT_SYMBOL_IF_KUNIT(vfq_vblank_at_or_after);

/*
 * Somebody else (an ordinary commit) now decides what the plane shows: the
 * queue hands back the buffer it had on screen.
 */
void *vfq_forget_shown(struct vfq_crtc *c, unsigned int plane)
{
	void *buf;

	if (plane >= c->nplanes)
		return NULL;
	buf = c->planes[plane].shown_buf;
	c->planes[plane].shown_buf = NULL;
	return buf;
}

unsigned int vfq_pending(const struct vfq_crtc *c, unsigned int plane)
{
	return plane < c->nplanes ? c->planes[plane].live : 0;
}
EXPORT_SYMBOL_IF_KUNIT(vfq_pending);

unsigned int vfq_pending_total(const struct vfq_crtc *c)
{
	unsigned int i, n = 0;

	for (i = 0; i < c->nplanes; i++)
		n += c->planes[i].live;
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(vfq_pending_total);

/* A new rotation reprograms the scan-out walk as a new rectangle does. */
static bool cfg_geometry_differs(const struct vfq_plane_cfg *a,
				 const struct vfq_plane_cfg *b)
{
	return a->crtc_x != b->crtc_x || a->crtc_y != b->crtc_y ||
	       a->crtc_w != b->crtc_w || a->crtc_h != b->crtc_h ||
	       a->src_x != b->src_x || a->src_y != b->src_y ||
	       a->src_w != b->src_w || a->src_h != b->src_h ||
	       a->rotation != b->rotation;
}

/* A plane configured for another pixel size (a bandwidth re-plan). */
static bool cpp_changes(const struct vfq_plane *p,
			const struct vfq_submit_plane *sp)
{
	return p->cfg_valid && p->cfg.cpp != sp->cfg.cpp;
}

static int submit_validate(const struct vfq_crtc *c, const struct vfq_submit *s)
{
	u32 seen = 0;
	unsigned int i;

	if (!s->nplanes || s->nplanes > c->nplanes)
		return -EINVAL;

	for (i = 0; i < s->nplanes; i++) {
		const struct vfq_submit_plane *sp = &s->p[i];
		const struct vfq_plane *p;

		if (sp->plane >= c->nplanes || (seen & BIT(sp->plane)))
			return -EINVAL;
		seen |= BIT(sp->plane);
		p = &c->planes[sp->plane];

		if (!sp->present_id || sp->present_id <= p->last_id)
			return -EINVAL;
		if (sp->mode > VFQ_MODE_IMMEDIATE_NO_TEARING || !sp->buf)
			return -EINVAL;
		if (sp->mode == VFQ_MODE_IMMEDIATE && s->duration_ns)
			return -EINVAL;
		if (!p->log_len)
			return -EINVAL;
		if (p->live && s->target_ns < p->last_target_ns)
			return -EINVAL;
	}
	return 0;
}

/*
 * What the "hardware" cannot queue deeply: a full queue, or anything that
 * is more than an address change while earlier flips are pending.  Each
 * hint is only given when the scope it names has pending flips, so a
 * refusal can always be resolved by waiting.
 */
static u32 submit_drain(const struct vfq_crtc *c, const struct vfq_submit *s,
			u32 *mask)
{
	unsigned int i, crtc_pending = vfq_pending_total(c);
	u32 flags = 0;

	*mask = 0;
	/* A new refresh only once what runs at the old one has drained. */
	if (s->duration_ns && s->duration_ns != c->period_ns && crtc_pending)
		flags |= VFQ_DRAIN_ALL_PLANES;
	for (i = 0; i < s->nplanes; i++) {
		const struct vfq_submit_plane *sp = &s->p[i];
		const struct vfq_plane *p = &c->planes[sp->plane];

		/* Tombstones only wait behind live flips: draining frees them. */
		if (p->live >= c->depth || p->count >= VFQ_RING ||
		    (p->live && p->cfg_valid &&
		     cfg_geometry_differs(&p->cfg, &sp->cfg))) {
			flags |= VFQ_DRAIN_NEEDED;
			*mask |= BIT(sp->plane);
		}
		if (!p->cfg_valid || p->cfg.format == sp->cfg.format)
			continue;
		/* A new pixel size re-plans bandwidth across the device. */
		if (cpp_changes(p, sp) && s->others_pending)
			flags |= VFQ_DRAIN_ALL_SOURCES;
		else if (crtc_pending)
			flags |= VFQ_DRAIN_ALL_PLANES;
	}
	return flags;
}

/**
 * vfq_submit_changes_cpp - whether @s gives a plane a new pixel size
 * @c: CRTC
 * @s: the flip
 *
 * Only then does vfq_submit() look at &vfq_submit.others_pending, which
 * costs its caller a look at every other CRTC's queue.
 *
 * Return: true if a plane of @s already has a configuration of another
 * pixel size.
 */
bool vfq_submit_changes_cpp(const struct vfq_crtc *c,
			    const struct vfq_submit *s)
{
	unsigned int i;

	for (i = 0; i < s->nplanes; i++)
		if (s->p[i].plane < c->nplanes &&
		    cpp_changes(&c->planes[s->p[i].plane], &s->p[i]))
			return true;
	return false;
}

/**
 * vfq_submit - queue one interlocked flip
 * @c: CRTC
 * @s: the flip
 * @now_ns: current time
 * @drain: out, hints when -EAGAIN is returned
 *
 * Return: 0, -EINVAL for a malformed request (nothing changes), -EAGAIN
 * with @drain set when the flip cannot be queued behind pending ones.
 */
int vfq_submit(struct vfq_crtc *c, const struct vfq_submit *s, u64 now_ns,
	       struct vfq_drain *drain)
{
	unsigned int i;
	int ret;

	memset(drain, 0, sizeof(*drain));
	ret = submit_validate(c, s);
	if (ret)
		return ret;

	drain->flags = submit_drain(c, s, &drain->plane_mask);
	if (drain->flags)
		return -EAGAIN;

	c->submissions++;
	for (i = 0; i < s->nplanes; i++) {
		const struct vfq_submit_plane *sp = &s->p[i];
		struct vfq_plane *p = &c->planes[sp->plane];
		struct vfq_flip *f = q_at(p, p->count);

		f->present_id = sp->present_id;
		f->target_ns = s->target_ns;
		f->submission = c->submissions;
		f->mode = sp->mode;
		f->tombstone = false;
		f->nplanes = s->nplanes;
		f->duration_ns = s->duration_ns;
		f->buf = sp->buf;
		p->count++;
		p->live++;
		p->last_id = sp->present_id;
		p->last_target_ns = s->target_ns;
		p->cfg = sp->cfg;
		p->cfg_valid = true;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vfq_submit);

/* Log and drop the front entry as cancelled. */
static void cancel_front(struct vfq_crtc *c, unsigned int pi)
{
	struct vfq_plane *p = &c->planes[pi];
	struct vfq_flip *f = q_at(p, 0);

	log_write(c, pi, f->present_id, VFQ_TS_CANCELLED);
	c->stats.cancelled++;
	if (!f->tombstone) {
		c->ops->release(c->ctx, pi, f->buf);
		p->live--;
	}
	q_pop_front(p);
}

/* Every plane of an interlocked flip carries it: apply once per vblank. */
static void apply_duration(struct vfq_crtc *c, u64 duration, u64 ts, u64 seq)
{
	if (!duration || (duration == c->period_ns && c->phase_ns == ts))
		return;
	c->period_ns = duration;
	c->phase_ns = ts;
	c->phase_seq = seq;
	/* The new grid starts here (a tearing flip's time, too). */
	if (ts > c->handled_ns)
		c->handled_ns = ts;
	if (c->ops->period)
		c->ops->period(c->ctx, duration, ts, seq);
}

/* Returns whether the plane's interrupt target was reached. */
static bool show_front(struct vfq_crtc *c, unsigned int pi, u64 ts, u64 seq)
{
	struct vfq_plane *p = &c->planes[pi];
	struct vfq_flip *f = q_at(p, 0);
	void *old = p->shown_buf;
	u64 id = f->present_id;

	c->ops->show(c->ctx, pi, f->buf, id, ts, seq);
	if (old)
		c->ops->release(c->ctx, pi, old);
	p->shown_buf = f->buf;
	p->shown_id = id;
	log_write(c, pi, id, ts);
	c->stats.shown++;
	p->live--;
	q_pop_front(p);

	if (p->irq_armed && id >= p->irq_target) {
		p->irq_armed = false;
		return true;
	}
	return false;
}

/*
 * Ready when every plane's buffer of its interlocked submission is: the
 * planes of one flip never reach the screen on different vblanks.
 */
static bool flip_ready(struct vfq_crtc *c, unsigned int pi,
		       const struct vfq_flip *f)
{
	unsigned int qi, i;

	if (!c->ops->ready)
		return true;
	/*
	 * The engine asks this of every queued flip on its way to the next
	 * wake: a lone plane's flip is its own buffer, no ring walk.
	 */
	if (f->nplanes == 1)
		return c->ops->ready(c->ctx, pi, f->buf);
	for (qi = 0; qi < c->nplanes; qi++) {
		const struct vfq_plane *q = &c->planes[qi];

		/* Rings hold submissions in increasing order. */
		for (i = 0; i < q->count; i++) {
			const struct vfq_flip *g = q_peek(q, i);

			if (g->submission > f->submission)
				break;
			if (!g->tombstone && g->submission == f->submission &&
			    !c->ops->ready(c->ctx, qi, g->buf))
				return false;
		}
	}
	return true;
}

/* Tombstones at the front have nothing latched ahead of them any more. */
static void flush_tombstones(struct vfq_crtc *c, unsigned int pi)
{
	struct vfq_plane *p = &c->planes[pi];

	while (p->count && q_at(p, 0)->tombstone)
		cancel_front(c, pi);
}

/*
 * Show ring entry @last (live, due) on plane @pi: everything ahead of it is
 * logged cancelled, in order, and the tombstones right behind it follow;
 * the interrupt, if any, reports the log with all of that in it.  A new
 * frame duration carried by a flip that was collapsed still applies.
 */
static void latch(struct vfq_crtc *c, unsigned int pi, unsigned int last,
		  u64 ts, u64 seq, bool *raised)
{
	struct vfq_plane *p = &c->planes[pi];
	u64 duration = 0;
	unsigned int i;
	bool irq;

	for (i = 0; i <= last; i++)
		if (!q_peek(p, i)->tombstone && q_peek(p, i)->duration_ns)
			duration = q_peek(p, i)->duration_ns;
	apply_duration(c, duration, ts, seq);
	while (last--)
		cancel_front(c, pi);
	irq = show_front(c, pi, ts, seq);
	flush_tombstones(c, pi);
	if (irq)
		fire(c, pi, seq, ts, raised);
}

/**
 * vfq_vblank - what the display engine does at a vblank
 * @c: CRTC
 * @vblank_ns: time of this vblank
 * @seq: its sequence number
 *
 * Per plane: among the flips whose target has arrived, the newest is shown
 * and every older one is logged as cancelled, in PresentId order.
 */
void vfq_vblank(struct vfq_crtc *c, u64 vblank_ns, u64 seq)
{
	bool raised = false;
	unsigned int pi;

	c->stats.ticks++;
	c->handled_ns = vblank_ns;
	for (pi = 0; pi < c->nplanes; pi++) {
		struct vfq_plane *p = &c->planes[pi];
		int newest = -1;
		unsigned int i;

		for (i = 0; i < p->count; i++) {
			const struct vfq_flip *f = q_peek(p, i);

			if (f->tombstone)
				continue;
			if (f->target_ns > vblank_ns || !flip_ready(c, pi, f))
				break;
			newest = i;
		}
		if (newest >= 0)
			latch(c, pi, newest, vblank_ns, seq, &raised);
		else
			flush_tombstones(c, pi);

		if (p->irq_target == VFQ_IRQ_EVERY_VBLANK &&
		    c->power == VFQ_POWER_ON)
			fire(c, pi, seq, vblank_ns, &raised);
	}
	if (raised)
		c->stats.irqs++;
}
EXPORT_SYMBOL_IF_KUNIT(vfq_vblank);

/* The first vblank of the grid after @t_ns. */
static u64 vblank_after(const struct vfq_crtc *c, u64 t_ns)
{
	return vfq_vblank_at_or_after(c, t_ns + 1, NULL);
}

/* The vblank @f is due at, counting only vblanks after @after_ns. */
static u64 due_after(const struct vfq_crtc *c, const struct vfq_flip *f,
		     u64 after_ns)
{
	return vfq_vblank_at_or_after(c, max_t(u64, f->target_ns,
					       after_ns + 1), NULL);
}

/*
 * Plane @pi's next vblank after @after_ns at which vfq_vblank() may change
 * anything, or ~0.  Targets never decrease along a queue, so the front
 * flip decides (once due, a flip still being rendered is looked at again
 * at every vblank); front tombstones go at the next vblank.
 */
static u64 plane_next_change(const struct vfq_crtc *c, unsigned int pi,
			     u64 after_ns)
{
	const struct vfq_plane *p = &c->planes[pi];
	const struct vfq_flip *f;

	if (p->irq_target == VFQ_IRQ_EVERY_VBLANK && c->power == VFQ_POWER_ON)
		return vblank_after(c, after_ns);
	if (!p->count)
		return ~0ULL;
	f = q_peek(p, 0);
	if (f->tombstone)
		return vblank_after(c, after_ns);
	return due_after(c, f, after_ns);
}

static u64 next_change(const struct vfq_crtc *c, u64 after_ns)
{
	u64 next = ~0ULL;
	unsigned int pi;

	for (pi = 0; pi < c->nplanes; pi++)
		next = min_t(u64, next, plane_next_change(c, pi, after_ns));
	return next;
}

/* Enough for every entry of every ring, plus slack for late timers. */
#define VFQ_CATCH_UP_MAX	(VFQ_MAX_PLANES * VFQ_RING + 64)

/**
 * vfq_catch_up - the vblanks up to @now_ns the engine has not handled
 * @c: CRTC
 * @now_ns: current time
 *
 * Runs vfq_vblank() at every vblank after &vfq_crtc.handled_ns and at or
 * before @now_ns where it has work, in order and with that vblank's time
 * and sequence: the log and the events come out exactly as if the engine
 * had run at every vblank, since vfq_vblank() changes nothing at the
 * others.  The grid followed is the one in force at each vblank (a flip
 * may change the frame duration on the way).
 *
 * A bounded number of vblanks is handled per call; &vfq_crtc.handled_ns
 * says how far it got.
 */
void vfq_catch_up(struct vfq_crtc *c, u64 now_ns)
{
	unsigned int n = 0;
	u64 t, seq;

	while ((t = next_change(c, c->handled_ns)) <= now_ns) {
		if (n++ == VFQ_CATCH_UP_MAX)
			return;
		vfq_vblank_at_or_after(c, t, &seq);
		vfq_vblank(c, t, seq);
	}
	t = vfq_vblank_at_or_after(c, now_ns + 1, NULL);
	if (t - c->period_ns > c->handled_ns)
		c->handled_ns = t - c->period_ns;
}
EXPORT_SYMBOL_IF_KUNIT(vfq_catch_up);

/**
 * vfq_next_wake - when the engine next has to run for the queue
 * @c: CRTC, caught up (vfq_catch_up())
 *
 * The engine must run where somebody can tell: at the vblank that raises a
 * plane's interrupt, at the one that empties the queues (buffers go back),
 * about two periods later for the second phase of going quiet, and at every
 * vblank while a plane wants an event at each or a due flip waits for its
 * buffer.  Between those the queue is left alone; whoever reads it first
 * (an ioctl, debugfs, the composer) catches it up.
 *
 * Return: that vblank's time, or ~0 if the queue needs no vblank.
 */
u64 vfq_next_wake(struct vfq_crtc *c)
{
	u64 after = c->handled_ns, next = vblank_after(c, after);
	u64 wake = ~0ULL;
	unsigned int pi, i;

	if (c->power == VFQ_POWER_NO_PHASE)
		return ~0ULL;
	if (c->power == VFQ_POWER_KEEP_PHASE)
		return max_t(u64, next,
			     vfq_vblank_at_or_after(c, c->quiet_since_ns +
						    2 * c->period_ns, NULL));
	for (pi = 0; pi < c->nplanes; pi++) {
		const struct vfq_plane *p = &c->planes[pi];
		bool irq = p->irq_armed;
		u64 due = 0;

		if (p->irq_target == VFQ_IRQ_EVERY_VBLANK)
			return next;
		for (i = 0; i < p->count; i++) {
			const struct vfq_flip *f = q_peek(p, i);

			if (f->tombstone)
				continue;
			/* Shown no earlier than every flip ahead of it is due. */
			due = max_t(u64, due, due_after(c, f, after));
			/*
			 * Whether it will be ready then, only then can tell;
			 * a new frame duration moves every later vblank.
			 */
			if (!flip_ready(c, pi, f) ||
			    (f->duration_ns && f->duration_ns != c->period_ns))
				break;
			/*
			 * Later flips are due no earlier: once one decides
			 * the wake, the rest cannot bring it forward.
			 */
			if ((irq && f->present_id >= p->irq_target) ||
			    due >= wake)
				break;
		}
		if (due)
			wake = min_t(u64, wake, due);
	}
	/* Nothing queued and still on: the first phase of quiet is due. */
	return wake == ~0ULL ? next : wake;
}
EXPORT_SYMBOL_IF_KUNIT(vfq_next_wake);

/*
 * Earliest target after @now_ns of a pending tearing flip, or ~0 when
 * there is none.  A tearing flip already due but still being rendered is
 * left to the vblanks: re-arming for a past target would only spin.
 */
u64 vfq_next_immediate(struct vfq_crtc *c, u64 now_ns)
{
	u64 next = ~0ULL;
	unsigned int pi, i;

	for (pi = 0; pi < c->nplanes; pi++) {
		const struct vfq_plane *p = &c->planes[pi];

		for (i = 0; i < p->count; i++) {
			const struct vfq_flip *f = q_peek(p, i);

			if (f->tombstone || f->mode != VFQ_MODE_IMMEDIATE ||
			    f->target_ns >= next)
				continue;
			if (f->target_ns <= now_ns && !flip_ready(c, pi, f))
				continue;
			next = f->target_ns;
		}
	}
	return next;
}
EXPORT_SYMBOL_IF_KUNIT(vfq_next_immediate);

/**
 * vfq_immediate - tearing flips whose target has arrived, between vblanks
 * @c: CRTC
 * @now_ns: current time, the timestamp of what is shown now
 * @seq: sequence of the last vblank
 *
 * A tearing flip is shown at its target; older due flips on its plane are
 * cancelled.  Due flips that wait for a vblank stay queued.
 */
void vfq_immediate(struct vfq_crtc *c, u64 now_ns, u64 seq)
{
	bool raised = false;
	unsigned int pi, i;

	c->stats.ticks++;
	for (pi = 0; pi < c->nplanes; pi++) {
		struct vfq_plane *p = &c->planes[pi];
		int newest = -1;

		for (i = 0; i < p->count; i++) {
			const struct vfq_flip *f = q_peek(p, i);

			if (f->tombstone)
				continue;
			if (f->target_ns > now_ns || !flip_ready(c, pi, f))
				break;
			if (f->mode == VFQ_MODE_IMMEDIATE)
				newest = i;
		}
		if (newest >= 0)
			latch(c, pi, newest, now_ns, seq, &raised);
	}
	if (raised)
		c->stats.irqs++;
}
EXPORT_SYMBOL_IF_KUNIT(vfq_immediate);

/* First ring index of plane @pi that a cancel from @requested removes. */
static unsigned int cancel_start(struct vfq_crtc *c, unsigned int pi,
				 u64 requested, u64 now_ns)
{
	const struct vfq_plane *p = &c->planes[pi];
	unsigned int i;

	for (i = 0; i < p->count; i++) {
		const struct vfq_flip *f = q_peek(p, i);

		/*
		 * Due flips are latched for the next vblank and complete;
		 * one whose buffer is still being written is not latched yet.
		 */
		if (!f->tombstone && f->present_id >= requested &&
		    (f->target_ns > now_ns || !flip_ready(c, pi, f)))
			break;
	}
	return i;
}

/*
 * Whether a submission present on both planes would be cancelled on one and
 * kept on the other.  Rings hold submissions in increasing order and cancel
 * ranges are suffixes, so one merge walk decides.
 */
static bool splits(const struct vfq_plane *a, unsigned int a_start,
		   const struct vfq_plane *b, unsigned int b_start)
{
	unsigned int i = 0, j = 0;

	while (i < a->count && j < b->count) {
		const struct vfq_flip *fa = q_peek(a, i), *fb = q_peek(b, j);

		if (fa->tombstone || fa->submission < fb->submission) {
			i++;
		} else if (fb->tombstone || fb->submission < fa->submission) {
			j++;
		} else {
			bool cancel_a = i >= a_start, cancel_b = j >= b_start;

			if (cancel_a != cancel_b)
				return true;
			i++;
			j++;
		}
	}
	return false;
}

/*
 * Cancelled flips release their buffer at once but are logged only when
 * nothing live precedes them, so the log stays in PresentId order whatever
 * order the cancel requests come in.
 */
static void cancel_range(struct vfq_crtc *c, unsigned int pi,
			 unsigned int start)
{
	struct vfq_plane *p = &c->planes[pi];
	unsigned int k;

	for (k = start; k < p->count; k++) {
		struct vfq_flip *f = q_at(p, k);

		if (f->tombstone)
			continue;
		c->ops->release(c->ctx, pi, f->buf);
		f->buf = NULL;
		f->tombstone = true;
		p->live--;
	}
	flush_tombstones(c, pi);
	update_last_target(p);
}

/**
 * vfq_cancel - cancel from a PresentId to the last submitted flip
 * @c: CRTC
 * @req: per plane: the first PresentId to cancel; out, the first one that
 *	was cancelled (0: none)
 * @n: entries in @req
 * @now_ns: current time; flips already due are latched and complete
 *
 * Interlocked flips get one decision for all their planes.
 *
 * Return: 0, or -EINVAL for a malformed request or one that splits an
 * interlocked flip (nothing changes then).
 */
int vfq_cancel(struct vfq_crtc *c, struct vfq_cancel_plane *req,
	       unsigned int n, u64 now_ns)
{
	unsigned int start[VFQ_MAX_PLANES];
	unsigned int i, a, b;
	u32 seen = 0;

	if (!n || n > c->nplanes)
		return -EINVAL;
	for (i = 0; i < c->nplanes; i++)
		start[i] = c->planes[i].count;
	for (i = 0; i < n; i++) {
		if (req[i].plane >= c->nplanes || (seen & BIT(req[i].plane)) ||
		    !req[i].requested)
			return -EINVAL;
		seen |= BIT(req[i].plane);
		start[req[i].plane] = cancel_start(c, req[i].plane,
						   req[i].requested, now_ns);
	}

	for (a = 0; a < c->nplanes; a++)
		for (b = a + 1; b < c->nplanes; b++)
			if (splits(&c->planes[a], start[a], &c->planes[b],
				   start[b]))
				return -EINVAL;

	for (i = 0; i < n; i++) {
		unsigned int pi = req[i].plane;
		struct vfq_plane *p = &c->planes[pi];
		unsigned int s = start[pi];

		req[i].cancelled = s < p->count ? q_peek(p, s)->present_id : 0;
		if (s < p->count)
			cancel_range(c, pi, s);
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vfq_cancel);

/* Mode set, disable, owner gone: every pending flip is logged cancelled. */
void vfq_cancel_all(struct vfq_crtc *c)
{
	unsigned int pi;

	for (pi = 0; pi < c->nplanes; pi++) {
		while (c->planes[pi].count)
			cancel_front(c, pi);
		c->planes[pi].last_target_ns = 0;
	}
}
EXPORT_SYMBOL_IF_KUNIT(vfq_cancel_all);

/*
 * The client is gone: what it queued is cancelled, and the next one starts
 * its own PresentId sequence, without log or interrupt target.  What is on
 * screen stays there.
 */
void vfq_reset_client(struct vfq_crtc *c)
{
	unsigned int pi;

	vfq_cancel_all(c);
	for (pi = 0; pi < c->nplanes; pi++) {
		struct vfq_plane *p = &c->planes[pi];

		p->last_id = 0;
		p->shown_id = 0;
		p->cfg_valid = false;
		p->log = NULL;
		p->log_len = 0;
		p->log_next = 0;
		p->irq_target = VFQ_IRQ_NONE;
		p->irq_armed = false;
	}
}
EXPORT_SYMBOL_IF_KUNIT(vfq_reset_client);

/**
 * vfq_set_log - set, replace or drop (@log NULL) the log of a plane
 * @c: CRTC
 * @plane: plane index
 * @log: entries, @len of them
 * @len: number of entries
 *
 * Return: 0, -EINVAL for a bad plane or size, -EBUSY while flips are
 * pending on the plane.
 */
int vfq_set_log(struct vfq_crtc *c, unsigned int plane,
		struct vfq_log_entry *log, u32 len)
{
	struct vfq_plane *p;

	if (plane >= c->nplanes || (!log != !len))
		return -EINVAL;
	p = &c->planes[plane];
	if (p->count)
		return -EBUSY;
	p->log = log;
	p->log_len = len;
	p->log_next = 0;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vfq_set_log);

u32 vfq_log_first_free(const struct vfq_crtc *c, unsigned int plane)
{
	return plane < c->nplanes ? c->planes[plane].log_next : 0;
}
EXPORT_SYMBOL_IF_KUNIT(vfq_log_first_free);

void vfq_set_irq_target(struct vfq_crtc *c, unsigned int plane, u64 target)
{
	struct vfq_plane *p;

	if (plane >= c->nplanes)
		return;
	p = &c->planes[plane];
	p->irq_target = target;
	p->irq_armed = target != VFQ_IRQ_NONE && target != VFQ_IRQ_EVERY_VBLANK;
}
EXPORT_SYMBOL_IF_KUNIT(vfq_set_irq_target);

/**
 * vfq_power_update - two-phase quiet of the emulated display engine
 * @c: CRTC
 * @now_ns: current time
 * @external_need: somebody else needs vblanks (DRM vblank users, composer)
 *
 * With nothing due and no event wanted the engine first stops raising
 * events but keeps ticking on its grid; about two periods later it stops
 * its timer.  Anything wanted brings it back on.
 *
 * Return: the new power state.
 */
enum vfq_power vfq_power_update(struct vfq_crtc *c, u64 now_ns,
				bool external_need)
{
	bool want = external_need || vfq_pending_total(c);
	unsigned int pi;

	for (pi = 0; pi < c->nplanes && !want; pi++)
		if (c->planes[pi].irq_target == VFQ_IRQ_EVERY_VBLANK ||
		    c->planes[pi].count)
			want = true;

	if (want) {
		c->power = VFQ_POWER_ON;
	} else if (c->power == VFQ_POWER_ON) {
		c->power = VFQ_POWER_KEEP_PHASE;
		c->quiet_since_ns = now_ns;
	} else if (c->power == VFQ_POWER_KEEP_PHASE &&
		   now_ns - c->quiet_since_ns >= 2 * c->period_ns) {
		c->power = VFQ_POWER_NO_PHASE;
	}
	return c->power;
}
EXPORT_SYMBOL_IF_KUNIT(vfq_power_update);
