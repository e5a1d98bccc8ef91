// SPDX-License-Identifier: GPL-2.0-only
/*
 * CRTCs: vblank emulated by an hrtimer, atomic state, CRC sources.
 */

#include <linux/bitops.h>
#include <linux/dma-fence.h>
#include <linux/jiffies.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/wait.h>

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_drv.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <drm/drm_vblank.h>

#include "vflipq_drv.h"

/*
 * The frame duration of @mode, as drm_calc_timestamping_constants() gives
 * it to the vblank core (a field of an interlaced mode): the engine's grid
 * and the vblank core's count must agree.  Computed here from the mode,
 * not read from the vblank core's data, which no helper exports.
 */
static u64 vflipq_mode_frame_ns(const struct drm_display_mode *mode)
{
	u64 ns;

	if (mode->crtc_clock <= 0)
		return 0;
	ns = div_u64((u64)mode->crtc_htotal * mode->crtc_vtotal * 1000000,
		     mode->crtc_clock);
	if (mode->flags & DRM_MODE_FLAG_INTERLACE)
		ns /= 2;
	return ns;
}

/* The last point of the grid @base + k * @p at or before @t (@base if none). */
static ktime_t grid_floor(ktime_t base, u64 p, ktime_t t)
{
	u64 k;

	if (ktime_before(t, base) || !p)
		return base;
	k = div64_u64(ktime_to_ns(ktime_sub(t, base)), p);
	/* k * period stays far below 2^63 for any uptime of this driver. */
	return ktime_add_ns(base, k * p);
}

/* The last vblank of the engine's grid at or before @t. */
ktime_t vflipq_grid_floor(const struct vflipq_output *out, ktime_t t)
{
	return grid_floor(out->engine.phase, vflipq_vrr_grid_period(out), t);
}

/*
 * Emulated interrupt latency: the engine's timer fires this long after
 * each vblank of a fixed-rate grid.  Real vblank interrupts come late when
 * the CPU is busy or, in a VM, not running at all; this makes every one
 * late on purpose, so that a test sees what a starved machine does to the
 * commits that come in between, on any host.
 */
static unsigned int vblank_irq_delay_us;
module_param(vblank_irq_delay_us, uint, 0644);
MODULE_PARM_DESC(vblank_irq_delay_us, "Emulated vblank interrupt latency in microseconds, for tests of late interrupts (at most 100000, default 0)");

/* When the engine's timer fires for the vblank at @vblank. */
static ktime_t vflipq_engine_irq_time(const struct vflipq_output *out,
				      ktime_t vblank)
{
	if (out->engine.vrr)
		return vblank;
	return ktime_add_us(vblank, min(READ_ONCE(vblank_irq_delay_us),
					100000U));
}

/*
 * The last vblank the engine reported, or (engine stopped, or asleep until
 * a vblank the flip queue asked for) the last one of its grid.  Under
 * engine.lock.
 */
ktime_t vflipq_engine_last_vblank(const struct vflipq_output *out)
{
	lockdep_assert_held(&out->engine.lock);
	if (out->engine.reporting)
		return out->engine.reporting;
	if (!out->engine.running || out->engine.lazy)
		return vflipq_grid_floor(out, ktime_get());
	if (out->engine.vrr)
		return out->engine.phase;
	return out->engine.last_vblank;
}

/* Whether the engine has work; under engine.lock. */
static bool vflipq_engine_needed(struct vflipq_output *out)
{
	lockdep_assert_held(&out->engine.lock);
	return out->engine.active && (out->engine.vblank_wanted || out->composer.users ||
			       vflipq_flipq_needed(out));
}

/*
 * The engine's next expiry after @now_vblank: the next vblank, or, when
 * only the flip queue needs the engine, the vblank the queue asked for
 * (vfq_next_wake()).  Under engine.lock, the queue caught up.
 */
static ktime_t vflipq_engine_next(struct vflipq_output *out,
				  ktime_t now_vblank)
{
	ktime_t next = ktime_add_ns(now_vblank, vflipq_vrr_grid_period(out));
	u64 wake;

	lockdep_assert_held(&out->engine.lock);
	out->engine.lazy = false;
	if (out->engine.vrr || out->engine.vblank_wanted || out->composer.users)
		return next;
	wake = vflipq_flipq_wake(out);
	if (wake == ~0ULL || wake <= ktime_to_ns(next))
		return next;
	out->engine.lazy = true;
	return ns_to_ktime(wake);
}

/*
 * Start the engine if it is stopped: it resumes on its grid, so vblank
 * timestamps stay in phase with the mode set however long it slept.  An
 * engine asleep until a later vblank catches up and wakes earlier if it
 * must.  Called with engine.lock held.
 */
void vflipq_engine_kick_locked(struct vflipq_output *out)
{
	struct hrtimer *timer = &out->engine.timer;
	ktime_t now_vblank, next;

	lockdep_assert_held(&out->engine.lock);
	if (!vflipq_engine_needed(out))
		return;
	if (out->engine.running) {
		if (!out->engine.lazy)
			return;
		vflipq_flipq_sync_locked(out);
		now_vblank = vflipq_grid_floor(out, ktime_get());
		out->engine.last_vblank = now_vblank;
		next = vflipq_engine_irq_time(out,
					      vflipq_engine_next(out,
								 now_vblank));
		/*
		 * Not queued: the callback runs, and either waits for this
		 * lock and then finds the timer queued (it leaves it alone),
		 * or has left it and its re-arm yields to this one.
		 */
		if (!hrtimer_is_queued(timer) ||
		    ktime_compare(next, hrtimer_get_expires(timer)))
			hrtimer_start(timer, next, HRTIMER_MODE_ABS);
		return;
	}
	now_vblank = vflipq_grid_floor(out, ktime_get());
	/* With VRR the frames repeated while asleep were vblanks too. */
	vflipq_vrr_vblank(out, now_vblank);
	out->engine.last_vblank = now_vblank;
	next = ktime_add_ns(now_vblank, vflipq_vrr_grid_period(out));
	out->engine.running = true;
	out->engine.lazy = false;
	hrtimer_start(timer, vflipq_engine_irq_time(out, next),
		      HRTIMER_MODE_ABS);
}

/*
 * The engine's interrupt goes to the CPU of the client that waits for it,
 * as an interrupt's affinity follows its consumer (accelerated RFS steers a
 * network queue's interrupt so): the event then wakes a task that sleeps on
 * the CPU taking the interrupt, without an inter-processor interrupt.  Under
 * TCG, where QEMU runs both vCPUs in one host thread, such a wake-up waits
 * for the other vCPU's turn (Documentation/vflipq/driver.rst, "Where the
 * vblank interrupt runs").  Called in the client's context under
 * engine.lock: an hrtimer started again with the same expiry moves to the
 * calling CPU; one whose callback is running is left alone, its callback
 * re-arms it where it runs.
 */
void vflipq_engine_follow_locked(struct vflipq_output *out)
{
	struct hrtimer *timer = &out->engine.timer;
	int cpu = smp_processor_id();

	lockdep_assert_held(&out->engine.lock);
	if (out->engine.cpu == cpu || !hrtimer_is_queued(timer))
		return;
	hrtimer_start(timer, hrtimer_get_expires(timer), HRTIMER_MODE_ABS);
	WRITE_ONCE(out->engine.cpu, cpu);
}

void vflipq_engine_follow(struct vflipq_output *out)
{
	unsigned long flags;

	/* Most commits come from the CPU of the one before. */
	if (READ_ONCE(out->engine.cpu) == raw_smp_processor_id())
		return;
	spin_lock_irqsave(&out->engine.lock, flags);
	vflipq_engine_follow_locked(out);
	spin_unlock_irqrestore(&out->engine.lock, flags);
}

void vflipq_engine_update(struct vflipq_output *out)
{
	unsigned long flags;

	spin_lock_irqsave(&out->engine.lock, flags);
	vflipq_engine_kick_locked(out);
	spin_unlock_irqrestore(&out->engine.lock, flags);
}

/**
 * struct vflipq_vblank_step - one vblank, from the engine to its consumers
 * @vblank: the vblank reported
 * @passed: vblanks of the grid since the one reported before
 * @period: their spacing when it was regular (0: tell the core in one)
 * @report: the DRM core wants vblank interrupts
 * @compose: somebody wants the frame composed (CRC, writeback)
 * @fq_work: the flip queue raised interrupts
 * @frame: the DRM vblank count of @vblank, once reported
 * @gen: &vflipq_flipq.scanout_gen of @snap
 * @snap: the flip-queue images of @vblank (references)
 */
struct vflipq_vblank_step {
	ktime_t vblank;
	u64 passed;
	u64 period;
	bool report;
	bool compose;
	bool fq_work;
	u64 frame;
	u64 gen;
	struct vflipq_fq_buf *snap[VFQ_MAX_PLANES];
};

enum vflipq_engine_result {
	VFLIPQ_ENGINE_STOP,	/* the timer stays off (or was moved) */
	VFLIPQ_ENGINE_IDLE,	/* no vblank since the last one reported */
	VFLIPQ_ENGINE_VBLANK,	/* @step holds a new vblank */
};

/* With VRR on the frame repeats at the range's maximum; from the timer. */
static void vflipq_engine_advance_vrr(struct vflipq_output *out,
				      struct vflipq_vblank_step *step)
{
	struct hrtimer *timer = &out->engine.timer;
	u64 p = vflipq_vrr_grid_period(out);
	u64 k;

	step->passed = hrtimer_forward_now(timer, ns_to_ktime(p));
	step->vblank = ktime_sub_ns(hrtimer_get_expires(timer), p);
	/*
	 * The queue refuses flips while VRR is on (the frame ends when a
	 * flip comes); those queued before latch at the engine's own
	 * vblanks, the missed ones caught up in order.
	 */
	for (k = min_t(u64, step->passed, VFLIPQ_MAX_CATCH_UP); k-- > 1;) {
		step->fq_work |= vflipq_flipq_tick(out,
						   ktime_sub_ns(step->vblank,
								k * p));
		if (out->engine.period_changed)
			break;
	}
	if (!out->engine.period_changed)
		step->fq_work |= vflipq_flipq_tick(out, step->vblank);
	if (out->engine.period_changed)
		hrtimer_set_expires(timer, ktime_add_ns(step->vblank,
							out->engine.period_ns));
}

/*
 * A fixed-rate grid at @now: queued flips latch at every vblank since the
 * last one handled, in order (a flip may change the grid on the way); the
 * DRM core and the composer hear of the last one.  False if none passed.
 */
static bool vflipq_engine_advance_fixed(struct vflipq_output *out,
					ktime_t now,
					struct vflipq_vblank_step *step)
{
	step->fq_work = vflipq_flipq_catch_up(out, ktime_to_ns(now));
	step->vblank = vflipq_grid_floor(out, now);
	if (!ktime_after(step->vblank, out->engine.last_vblank))
		return false;
	step->passed = div64_u64(ktime_to_ns(ktime_sub(step->vblank,
						       out->engine.last_vblank)),
				 out->engine.period_ns ?: 1);
	/* A flip that changed the period on the way: no regular spacing. */
	if (ktime_sub_ns(step->vblank, step->passed * out->engine.period_ns) ==
	    out->engine.last_vblank)
		step->period = out->engine.period_ns;
	out->engine.last_vblank = step->vblank;
	return true;
}

/*
 * The engine's own part of a vblank, under engine.lock: whether it runs
 * on, which vblank passed, the flips latched there and the images to
 * compose.  @from_timer: the engine's timer, which is re-armed; else a
 * commit bringing the engine up to date (vflipq_engine_sync_locked()).
 * The caller holds &vflipq_composer.lock (users).
 */
static enum vflipq_engine_result
vflipq_engine_advance(struct vflipq_output *out, bool from_timer,
		      struct vflipq_vblank_step *step)
{
	struct hrtimer *timer = &out->engine.timer;
	enum vflipq_engine_result ret = VFLIPQ_ENGINE_VBLANK;

	lockdep_assert_held(&out->composer.lock);
	memset(step, 0, sizeof(*step));
	spin_lock(&out->engine.lock);
	if (from_timer) {
		if (!vflipq_engine_needed(out)) {
			out->engine.running = false;
			out->engine.lazy = false;
			ret = VFLIPQ_ENGINE_STOP;
			goto unlock;
		}
		/* A kick moved the timer of the sleeping engine. */
		if (hrtimer_is_queued(timer)) {
			ret = VFLIPQ_ENGINE_STOP;
			goto unlock;
		}
		out->stats.timer_expirations++;
		WRITE_ONCE(out->engine.cpu, smp_processor_id());
	} else if (!out->engine.running || out->engine.lazy || out->engine.vrr) {
		ret = VFLIPQ_ENGINE_IDLE;
		goto unlock;
	}

	if (out->engine.vrr) {
		vflipq_engine_advance_vrr(out, step);
	} else {
		if (!vflipq_engine_advance_fixed(out, ktime_get(), step))
			ret = VFLIPQ_ENGINE_IDLE;
		if (from_timer) {
			ktime_t next = vflipq_engine_next(out, out->engine.last_vblank);

			hrtimer_set_expires(timer,
					    vflipq_engine_irq_time(out, next));
		}
	}
	out->engine.period_changed = false;
	if (ret != VFLIPQ_ENGINE_VBLANK)
		goto unlock;

	vflipq_vrr_vblank(out, step->vblank);
	step->report = out->engine.vblank_wanted;
	if (step->report)
		out->stats.vblank_irqs++;
	step->compose = out->composer.users > 0;
	if (step->compose)
		step->gen = vflipq_flipq_snapshot_locked(out, step->snap);
unlock:
	spin_unlock(&out->engine.lock);
	return ret;
}

/*
 * The vblanks a late interrupt (or a commit's catch-up) passed before the
 * last, told to the DRM core one by one and oldest first, each with its own
 * time, as the flip queue latches at each (vflipq_flipq_catch_up()): an
 * event asked for one of them carries that vblank's sequence and time,
 * where a core told of the last alone would count them all but send such
 * an event with the last one.  Beyond VFLIPQ_MAX_CATCH_UP the oldest are
 * counted in one.  None is told at or before a time the core was already
 * given (@told): from an earlier one it would count backwards.
 */
static void vflipq_engine_report_passed(struct vflipq_output *out,
					const struct vflipq_vblank_step *step)
{
	u64 k = min_t(u64, step->passed, VFLIPQ_MAX_CATCH_UP);
	bool fresh;

	/* The usual vblank passed alone: no extra lock on the hot path. */
	if (!step->period || k <= 1)
		return;
	while (k-- > 1) {
		ktime_t t = ktime_sub_ns(step->vblank, k * step->period);

		spin_lock(&out->engine.lock);
		fresh = ktime_after(t, out->engine.told);
		if (fresh)
			out->engine.reporting = t;
		spin_unlock(&out->engine.lock);
		if (fresh)
			drm_crtc_handle_vblank(&out->crtc);
	}
	spin_lock(&out->engine.lock);
	out->engine.reporting = 0;
	spin_unlock(&out->engine.lock);
}

/*
 * Tell the DRM core of the vblank (the events of commits flushed before it
 * go out) and pick the state whose frame it is, both under
 * &vflipq_composer.lock, which a commit holds from its catch-up to arming its
 * event and handing the composer its state (vflipq_crtc_atomic_flush()):
 * the frame of a vblank shows the state its events announce.
 *
 * Return: the state to compose for this vblank, or NULL.
 */
static struct vflipq_crtc_state *
vflipq_engine_report(struct vflipq_output *out, struct vflipq_vblank_step *step)
{
	lockdep_assert_held(&out->composer.lock);
	if (step->passed > 1)
		drm_dbg_driver(out->crtc.dev, "crtc %u: %llu vblanks in one\n",
			       out->index, step->passed);
	if (step->report) {
		vflipq_engine_report_passed(out, step);
		drm_crtc_handle_vblank(&out->crtc);
	}
	if (!step->compose || !out->composer.state)
		return NULL;
	step->frame = drm_crtc_accurate_vblank_count(&out->crtc);
	return out->composer.state;
}

/*
 * Queue the composition of @state's frame at @step's vblank.  @if_current:
 * only while @state is still the composer's (the engine's timer); a commit
 * that just replaced it (vflipq_crtc_atomic_flush()) queues it in any case,
 * before its commit tail waits for or defers behind the compositions of
 * the outgoing state.
 *
 * The engine picked @state under &vflipq_composer.lock and let go of it
 * since (vflipq_engine_report()): a commit that switched away from it may
 * have queued its last reference on the state behind the compositions
 * queued so far (async flips, vflipq_async.c), or flushed them and freed
 * it (a legacy cursor update or an async flip completes its flip_done
 * without a vblank).  So the state is looked at, its frame booked and its
 * composition queued only while it is still the composer's, all under
 * that lock; otherwise its frames get no CRC, and the caller puts the
 * step's flip-queue images back.
 */
static void vflipq_engine_compose(struct vflipq_output *out,
				  struct vflipq_crtc_state *state,
				  struct vflipq_vblank_step *step,
				  bool if_current)
{
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&out->composer.lock, flags);
	if (if_current && out->composer.state != state) {
		spin_unlock_irqrestore(&out->composer.lock, flags);
		return;
	}
	spin_lock(&out->composer.frame_lock);
	/*
	 * Keep the oldest frame the pending composition covers, unless a
	 * queued flip changed the image since: the earlier frames showed an
	 * image nobody will compose, they get no CRC.
	 */
	if (!state->crc_pending || state->frame_gen != step->gen) {
		state->frame_start = step->frame;
		for (i = 0; i < VFQ_MAX_PLANES; i++)
			swap(step->snap[i], state->frame_scanout[i]);
	}
	state->frame_end = step->frame;
	state->frame_gen = step->gen;
	state->crc_pending = true;
	spin_unlock(&out->composer.frame_lock);

	queue_work(out->composer.wq, &state->composer_work);
	spin_unlock_irqrestore(&out->composer.lock, flags);
}

/* The flip-queue images the step still holds; the last ones go to a worker. */
static void vflipq_vblank_step_put(struct vflipq_vblank_step *step)
{
	unsigned int i;

	for (i = 0; i < VFQ_MAX_PLANES; i++)
		if (step->snap[i])
			vflipq_fq_buf_put(step->snap[i]);
}

/*
 * The display engine: one expiry per vblank on an absolute grid.  It stops
 * itself when nobody needs it; nothing ever cancels it synchronously while
 * DRM holds its vblank locks (the callback takes them too).
 */
static enum hrtimer_restart vflipq_vblank_simulate(struct hrtimer *timer)
{
	struct vflipq_output *out =
		container_of(timer, struct vflipq_output, engine.timer);
	struct vflipq_crtc_state *state = NULL;
	struct vflipq_vblank_step step;
	enum vflipq_engine_result ret;
	bool fence_cookie;

	fence_cookie = dma_fence_begin_signalling();
	spin_lock(&out->composer.lock);
	ret = vflipq_engine_advance(out, true, &step);
	if (ret == VFLIPQ_ENGINE_VBLANK)
		state = vflipq_engine_report(out, &step);
	spin_unlock(&out->composer.lock);

	if (step.fq_work)
		vflipq_flipq_send_events(out);
	if (state)
		vflipq_engine_compose(out, state, &step, true);
	vflipq_vblank_step_put(&step);
	dma_fence_end_signalling(fence_cookie);

	return ret == VFLIPQ_ENGINE_STOP ? HRTIMER_NORESTART : HRTIMER_RESTART;
}

/* Called by the vblank core with its spinlocks held: never wait here. */
static int vflipq_enable_vblank(struct drm_crtc *crtc)
{
	struct vflipq_output *out = crtc_to_output(crtc);
	unsigned long flags;

	spin_lock_irqsave(&out->engine.lock, flags);
	out->engine.vblank_wanted = true;
	vflipq_engine_kick_locked(out);
	spin_unlock_irqrestore(&out->engine.lock, flags);
	return 0;
}

static void vflipq_disable_vblank(struct drm_crtc *crtc)
{
	struct vflipq_output *out = crtc_to_output(crtc);
	unsigned long flags;

	spin_lock_irqsave(&out->engine.lock, flags);
	out->engine.vblank_wanted = false;
	spin_unlock_irqrestore(&out->engine.lock, flags);
}

static bool vflipq_get_vblank_timestamp(struct drm_crtc *crtc, int *max_error,
					ktime_t *vblank_time, bool in_vblank_irq)
{
	struct vflipq_output *out = crtc_to_output(crtc);
	unsigned long flags;

	spin_lock_irqsave(&out->engine.lock, flags);
	*vblank_time = vflipq_engine_last_vblank(out);
	if (ktime_after(*vblank_time, out->engine.told))
		out->engine.told = *vblank_time;
	spin_unlock_irqrestore(&out->engine.lock, flags);
	return true;
}

static struct drm_crtc_state *
vflipq_crtc_duplicate_state(struct drm_crtc *crtc)
{
	struct vflipq_crtc_state *state;

	if (WARN_ON(!crtc->state))
		return NULL;

	state = kzalloc(sizeof(*state), GFP_KERNEL);
	if (!state)
		return NULL;

	__drm_atomic_helper_crtc_duplicate_state(crtc, &state->base);
	INIT_WORK(&state->composer_work, vflipq_composer_worker);
	state->bpc = to_vflipq_crtc_state(crtc->state)->bpc;
	return &state->base;
}

static void vflipq_crtc_destroy_state(struct drm_crtc *crtc,
				      struct drm_crtc_state *base)
{
	struct vflipq_crtc_state *state = to_vflipq_crtc_state(base);
	unsigned int i;

	__drm_atomic_helper_crtc_destroy_state(base);
	WARN_ON(work_pending(&state->composer_work));
	for (i = 0; i < VFQ_MAX_PLANES; i++)
		if (state->frame_scanout[i])
			vflipq_fq_buf_put(state->frame_scanout[i]);
	kfree(state->active_planes);
	kfree(state);
}

static void vflipq_crtc_reset(struct drm_crtc *crtc)
{
	struct vflipq_crtc_state *state = kzalloc(sizeof(*state), GFP_KERNEL);

	if (crtc->state)
		vflipq_crtc_destroy_state(crtc, crtc->state);

	__drm_atomic_helper_crtc_reset(crtc, state ? &state->base : NULL);
	/* Only while vblank is off, as the reset just left it. */
	vflipq_vrr_init_crtc(crtc);
	if (state) {
		INIT_WORK(&state->composer_work, vflipq_composer_worker);
		state->bpc = 8;
	}
}

static const char *const vflipq_crc_sources[] = { "auto" };

const char *const *vflipq_get_crc_sources(struct drm_crtc *crtc,
					  size_t *count)
{
	*count = ARRAY_SIZE(vflipq_crc_sources);
	return vflipq_crc_sources;
}

static int vflipq_crc_parse_source(const char *name, bool *enabled)
{
	*enabled = false;
	if (!name)
		return 0;
	if (strcmp(name, "auto"))
		return -EINVAL;
	*enabled = true;
	return 0;
}

int vflipq_verify_crc_source(struct drm_crtc *crtc, const char *src_name,
			     size_t *values_cnt)
{
	bool enabled;

	if (vflipq_crc_parse_source(src_name, &enabled))
		return -EINVAL;
	*values_cnt = 1;
	return 0;
}

/*
 * The DRM core's release of crc/data calls set_crc_source(NULL) and then
 * still frees its entries under &drm_crtc_crc.lock, and the debugfs file
 * holds neither the device nor this module: when the device was unplugged
 * and its last DRM file closed first, the CRTC would be gone by then.  So a
 * capture pins both, and lets them go once the entries are seen freed.
 */
static void vflipq_crc_unpin(struct work_struct *work)
{
	struct vflipq_output *out = container_of(to_delayed_work(work),
						 struct vflipq_output,
						 crc.unpin);
	struct drm_crtc_crc *crc = &out->crtc.crc;
	bool released;

	mutex_lock(&out->crc.lock);
	if (out->crc.enabled || !out->crc.pinned) {
		mutex_unlock(&out->crc.lock);
		return;
	}
	spin_lock_irq(&crc->lock);
	released = !crc->entries;
	spin_unlock_irq(&crc->lock);
	if (!released) {
		mutex_unlock(&out->crc.lock);
		schedule_delayed_work(&out->crc.unpin, 1);
		return;
	}
	out->crc.pinned = false;
	mutex_unlock(&out->crc.lock);
	/* May free @out: the last use of it. */
	drm_dev_put(&out->vdev->drm);
	vflipq_module_put_deferred();
}

int vflipq_set_crc_source(struct drm_crtc *crtc, const char *src_name)
{
	struct vflipq_output *out = crtc_to_output(crtc);
	bool enabled;
	int ret;

	ret = vflipq_crc_parse_source(src_name, &enabled);
	if (ret)
		return ret;

	mutex_lock(&out->crc.lock);
	if (enabled != out->crc.enabled) {
		if (enabled) {
			out->crc.vblank_ref = vflipq_composer_get(out);
			if (!out->crc.pinned) {
				drm_dev_get(crtc->dev);
				__module_get(THIS_MODULE);
				out->crc.pinned = true;
			}
		} else {
			vflipq_composer_put(out, out->crc.vblank_ref);
			out->crc.vblank_ref = false;
			schedule_delayed_work(&out->crc.unpin, 0);
		}
		out->crc.enabled = enabled;
	}
	mutex_unlock(&out->crc.lock);
	return 0;
}

/* debugfs "state": the output depth, which the CRC depends on. */
static void vflipq_crtc_print_state(struct drm_printer *p,
				    const struct drm_crtc_state *state)
{
	const struct vflipq_crtc_state *vstate =
		container_of(state, struct vflipq_crtc_state, base);

	drm_printf(p, "\tvflipq.bpc=%u\n", vstate->bpc);
}

/*
 * The legacy page-flip ioctl with a target vblank (DRM_MODE_PAGE_FLIP_TARGET_*,
 * libdrm's drmModePageFlipTarget()), and without one: the DRM core computes
 * the target from drm_crtc_vblank_count() (the next vblank for a flip
 * without one) and refuses one more than a vblank ahead; the helper puts it
 * in the commit's &drm_crtc_state.target_vblank, which the commit tail
 * honours (vflipq_crtc_wait_target()).  The state says nothing of where it
 * came from (the helpers copy target_vblank into every later state of the
 * CRTC): atomic_check, which runs in the helper's commit, marks it from
 * @page_flip.
 *
 * The core takes a vblank reference for the target and leaves it to the
 * driver once the flip is committed.  The commit holds its own while it
 * needs one (its event, vflipq_crtc_wait_target()), so it goes back here.
 */
static int vflipq_crtc_page_flip_target(struct drm_crtc *crtc,
					struct drm_framebuffer *fb,
					struct drm_pending_vblank_event *event,
					u32 flags, u32 target,
					struct drm_modeset_acquire_ctx *ctx)
{
	struct vflipq_output *out = crtc_to_output(crtc);
	int ret;

	out->page_flip = true;
	ret = drm_atomic_helper_page_flip_target(crtc, fb, event, flags,
						 target, ctx);
	out->page_flip = false;
	if (!ret)
		drm_crtc_vblank_put(crtc);
	return ret;
}

static const struct drm_crtc_funcs vflipq_crtc_funcs = {
	.set_config		= drm_atomic_helper_set_config,
	.page_flip_target	= vflipq_crtc_page_flip_target,
	.reset			= vflipq_crtc_reset,
	.atomic_duplicate_state	= vflipq_crtc_duplicate_state,
	.atomic_destroy_state	= vflipq_crtc_destroy_state,
	.atomic_print_state	= vflipq_crtc_print_state,
	.enable_vblank		= vflipq_enable_vblank,
	.disable_vblank		= vflipq_disable_vblank,
	.get_vblank_timestamp	= vflipq_get_vblank_timestamp,
	.get_vblank_counter	= vflipq_vrr_get_vblank_counter,
	.get_crc_sources	= vflipq_get_crc_sources,
	.set_crc_source		= vflipq_set_crc_source,
	.verify_crc_source	= vflipq_verify_crc_source,
};

static int cmp_zpos(const void *a, const void *b)
{
	const struct vflipq_plane_state *pa = *(struct vflipq_plane_state **)a;
	const struct vflipq_plane_state *pb = *(struct vflipq_plane_state **)b;

	return (int)pa->base.base.normalized_zpos -
	       (int)pb->base.base.normalized_zpos;
}

/*
 * The engine's timer fires once per frame of the mode, so a mode a client
 * made up must have a refresh rate the engine can keep: 1 to
 * VFLIPQ_MODE_MAX_REFRESH Hz (rounded), as for configfs modes.  IGT's
 * kms_invalid_mode: a clock of INT_MAX kHz would fire it every few
 * nanoseconds, a vscan whose product overflows 32 bits would stall it.
 * Computed in 64 bits, unlike drm_mode_vrefresh().
 */
static bool vflipq_mode_refresh_ok(const struct drm_display_mode *m)
{
	u64 lines = (u64)m->htotal * m->vtotal;
	u64 mhz;

	if (m->clock <= 0 || !lines)
		return false;
	if (m->flags & DRM_MODE_FLAG_DBLSCAN)
		lines *= 2;
	if (m->vscan > 1)
		lines *= m->vscan;
	mhz = div64_u64((u64)m->clock * 1000000 *
			(m->flags & DRM_MODE_FLAG_INTERLACE ? 2 : 1), lines);
	return mhz >= 500 && mhz < VFLIPQ_MODE_MAX_REFRESH * 1000ULL + 500;
}

/*
 * The layer list: the visible planes of the CRTC in blending order.  A
 * plane in the commit comes as the commit leaves it, any other as it is on
 * screen (vflipq_plane_state_seen()): the check adds no plane to the
 * commit, so that a commit waits for nothing on the planes it leaves alone
 * and a legacy cursor move stays a commit of the cursor alone, which the
 * helpers can take in place (drm_atomic_helper_async_check()).  The array
 * belongs to the state, so the composer reads it without locks; the plane
 * states it points at outlive every composition of it (the commit tail,
 * vflipq_commit_wait_composer()).
 */
static int vflipq_crtc_snapshot_planes(struct drm_atomic_state *state,
				       struct drm_crtc_state *crtc_state)
{
	struct vflipq_crtc_state *vstate = to_vflipq_crtc_state(crtc_state);
	bool modeset = drm_atomic_crtc_needs_modeset(crtc_state);
	struct drm_crtc *crtc = crtc_state->crtc;
	struct vflipq_plane_state **planes;
	struct drm_plane_state *ps;
	struct drm_plane *plane;
	unsigned int n = 0;

	kfree(vstate->active_planes);
	vstate->active_planes = NULL;
	vstate->num_active_planes = 0;
	if (!crtc_state->plane_mask)
		return 0;

	planes = kcalloc(hweight32(crtc_state->plane_mask), sizeof(*planes),
			 GFP_KERNEL);
	if (!planes)
		return -ENOMEM;

	drm_for_each_plane_mask(plane, crtc->dev, crtc_state->plane_mask) {
		ps = vflipq_plane_state_seen(state, plane);
		if (IS_ERR(ps)) {
			kfree(planes);
			return PTR_ERR(ps);
		}
		if (!ps->visible)
			continue;
		planes[n] = to_vflipq_plane_state(ps);
		/* The helpers add every plane to a mode set. */
		if (modeset && drm_atomic_get_new_plane_state(state, plane))
			vflipq_damage_full(planes[n]);
		n++;
	}
	if (!n) {
		kfree(planes);
		return 0;
	}
	sort(planes, n, sizeof(*planes), cmp_zpos, NULL);

	vstate->active_planes = planes;
	vstate->num_active_planes = n;
	return 0;
}

static int vflipq_crtc_atomic_check(struct drm_crtc *crtc,
				    struct drm_atomic_state *state)
{
	struct drm_crtc_state *crtc_state =
		drm_atomic_get_new_crtc_state(state, crtc);
	struct vflipq_crtc_state *vstate = to_vflipq_crtc_state(crtc_state);
	int ret;

	/*
	 * An ioctl that passed the DRM core's unplug check just before the
	 * device was removed must not light the pipe again once the removal's
	 * shutdown commit (which turns everything off, so it passes) is done:
	 * the engine would run on a device nobody can stop any more.  A pipe
	 * that is still lit may stay lit: the fbdev client, unregistered
	 * during the unplug, takes its framebuffer off the planes first.
	 */
	if (crtc_state->active &&
	    !drm_atomic_get_old_crtc_state(state, crtc)->active &&
	    drm_dev_is_unplugged(crtc->dev))
		return -ENODEV;

	/* An async flip only replaces framebuffers of a lit pipe. */
	if (crtc_state->async_flip &&
	    (!crtc_state->active || drm_atomic_crtc_needs_modeset(crtc_state) ||
	     crtc_state->color_mgmt_changed))
		return -EINVAL;

	ret = vflipq_check_clones(crtc_state);
	if (ret)
		return ret;

	ret = vflipq_color_check(crtc_state);
	if (ret)
		return ret;

	if (crtc_state->enable && drm_atomic_crtc_needs_modeset(crtc_state) &&
	    !vflipq_mode_refresh_ok(&crtc_state->mode))
		return -EINVAL;

	vstate->flip_target = crtc_to_output(crtc)->page_flip;

	/*
	 * The output depth changes only with a modeset, as a display engine's
	 * pipe depth does; "max bpc" changes force one (connectors_changed).
	 */
	if (drm_atomic_crtc_needs_modeset(crtc_state))
		vstate->bpc = vflipq_hdr_crtc_bpc(state, crtc);

	return vflipq_crtc_snapshot_planes(state, crtc_state);
}

/*
 * Where a mode set's grid starts: at this instant, or (vblank_align) at the
 * last multiple of the frame duration.  Aligned outputs of one frame
 * duration, on every vflipq device, then have their vblanks at the same
 * instants, and the engines of those on one CPU (the CPU of the client
 * they follow, vflipq_engine_follow()) expire in one timer interrupt
 * instead of one each: a client of many outputs also wakes once for the
 * events of a vblank.  Nothing ties the phase of real displays together,
 * nor does DRM expect it either way; under TCG an interrupt, and the idle
 * exit and entry around it, is what the lit outputs cost
 * (Documentation/vflipq/driver.rst, "Aligned vblanks").
 */
static ktime_t vflipq_grid_origin(struct vflipq_output *out, ktime_t now)
{
	if (!out->vdev->config.vblank_align || !out->engine.period_ns)
		return now;
	return grid_floor(0, out->engine.period_ns, now);
}

/* A mode set restarts the scan-out: the grid starts anew. */
static void vflipq_crtc_atomic_enable(struct drm_crtc *crtc,
				      struct drm_atomic_state *state)
{
	struct vflipq_output *out = crtc_to_output(crtc);
	unsigned long flags;

	drm_calc_timestamping_constants(crtc, &crtc->state->adjusted_mode);

	spin_lock_irqsave(&out->engine.lock, flags);
	out->engine.period_ns = vflipq_mode_frame_ns(&crtc->state->adjusted_mode);
	out->engine.phase = vflipq_grid_origin(out, ktime_get());
	out->engine.phase_seq = 0;
	out->engine.vrr = false;	/* atomic_flush latches VRR_ENABLED */
	drm_mode_copy(&out->engine.mode, &crtc->state->adjusted_mode);
	out->engine.active = true;
	vflipq_flipq_mode_set(out);
	spin_unlock_irqrestore(&out->engine.lock, flags);

	drm_crtc_vblank_on(crtc);
}

static void vflipq_crtc_atomic_disable(struct drm_crtc *crtc,
				       struct drm_atomic_state *state)
{
	struct vflipq_output *out = crtc_to_output(crtc);
	unsigned long flags;

	drm_crtc_vblank_off(crtc);

	spin_lock_irqsave(&out->engine.lock, flags);
	out->engine.active = false;
	out->engine.vrr = false;
	spin_unlock_irqrestore(&out->engine.lock, flags);
	/* No DRM lock is held here: the engine can be waited for. */
	hrtimer_cancel(&out->engine.timer);
	vflipq_flipq_stop(out);
	spin_lock_irqsave(&out->engine.lock, flags);
	out->engine.running = false;
	out->engine.lazy = false;
	spin_unlock_irqrestore(&out->engine.lock, flags);
}

/**
 * vflipq_crtc_finish_writeback - complete the writeback job of a state
 * @old: CRTC state about to be replaced
 *
 * A writeback job waits for the next composed frame of the state that
 * queued it.  Before that state is replaced (new planes, or the pipe turns
 * off) the frame is composed now, as hardware finishes the frame it is
 * writing back before it latches the next configuration.
 */
void vflipq_crtc_finish_writeback(struct drm_crtc_state *old)
{
	struct vflipq_crtc_state *vold = to_vflipq_crtc_state(old);
	struct vflipq_output *out = crtc_to_output(old->crtc);
	bool pending;

	/*
	 * Without a job there is nothing to wait for here: a commit must not
	 * wait for a composition that only feeds the CRC (the commit tail
	 * flushes the old state's work before its planes go away anyway).
	 * If a running composition is writing the job back right now, the
	 * forced run below finds wb_pending cleared and only composes again.
	 */
	spin_lock_irq(&out->composer.frame_lock);
	pending = vold->wb_pending;
	if (pending)
		vold->force_compose = true;
	spin_unlock_irq(&out->composer.frame_lock);

	if (!pending)
		return;
	queue_work(out->composer.wq, &vold->composer_work);
	flush_workqueue(out->composer.wq);
}

/* Whether the CRTC's DRM vblank count reached @count (modulo 2^32). */
static bool vflipq_vblank_reached(struct drm_crtc *crtc, u32 count)
{
	return (s32)((u32)drm_crtc_vblank_count(crtc) - count) >= 0;
}

/**
 * vflipq_crtc_wait_target - hold a page flip back until its target vblank
 * @state: new CRTC state of a commit, in its commit tail before its planes
 *
 * A legacy page flip (vflipq_crtc_page_flip_target()) is never shown at a
 * vblank whose DRM count is before its &drm_crtc_state.target_vblank.  A
 * synchronous flip latches at the first vblank after the commit's
 * atomic_flush, so the commit goes on once the vblank before the target
 * has been counted; an async flip shows at once, in the frame of the last
 * vblank counted (its event says that vblank), so once the target itself
 * has.
 *
 * The target is a count of the DRM core's (drm_crtc_vblank_count()), and
 * so is what this compares it with.  The engine's own frame counter, the
 * hardware counter of get_vblank_counter(), counts the same vblanks but
 * from another origin (each mode set restarts it, the DRM count goes on),
 * so only its steps carry over.  The DRM count learns of a vblank when the
 * engine reports it and never runs ahead of the engine; a late interrupt
 * leaves it behind for a while, and atomic_flush catches it up before it
 * arms the event.  The core refuses a target more than one vblank ahead of
 * the count it read, which the count here has reached or passed: this
 * waits only if the two counts disagree, and then at most two frames.
 */
void vflipq_crtc_wait_target(const struct drm_crtc_state *state)
{
	const struct vflipq_crtc_state *vstate =
		container_of(state, struct vflipq_crtc_state, base);
	struct drm_crtc *crtc = state->crtc;
	u32 last = state->target_vblank - !state->async_flip;
	u64 frame_ns;
	s32 ahead;

	if (!vstate->flip_target ||
	    vflipq_vblank_reached(crtc, last))
		return;
	/* Counting needs vblank interrupts on. */
	if (drm_crtc_vblank_get(crtc))
		return;
	ahead = clamp_t(s32, last - (u32)drm_crtc_vblank_count(crtc), 1, 2);
	/* A frame lasts at most that long, VRR or not. */
	frame_ns = max(vflipq_mode_frame_ns(&state->adjusted_mode),
		       VFLIPQ_VRR_MAX_NS);
	if (!wait_event_timeout(*drm_crtc_vblank_waitqueue(crtc),
				vflipq_vblank_reached(crtc, last),
				nsecs_to_jiffies(ahead * frame_ns) + HZ / 10))
		drm_dbg_kms(crtc->dev,
			    "[CRTC:%d:%s] vblank %u not counted, flip goes on\n",
			    crtc->base.id, crtc->name, last);
	drm_crtc_vblank_put(crtc);
}

/*
 * The composer switches to the new state here, in one step with arming
 * the event.  Until then the vblank timer may still compose the old state,
 * which stays valid until the commit tail has flushed its composition.
 * (Holding the lock from atomic_begin on, as vkms does, breaks with
 * several CRTCs in one commit: the helpers begin every CRTC before
 * flushing any, and the first flush would re-enable interrupts under the
 * second CRTC's lock, which that CRTC's vblank timer takes.)
 *
 * The commit latches at the first vblank after this flush.  A vblank that
 * passed before it but whose interrupt has not run yet (a busy CPU, a
 * vCPU the host did not run) is handled here first, with the old state:
 * otherwise that late interrupt would send this commit's event stamped
 * with a vblank from before the commit, and compose the new state as the
 * frame of a vblank that showed the old one.
 */
static void vflipq_crtc_atomic_flush(struct drm_crtc *crtc,
				     struct drm_atomic_state *state)
{
	struct vflipq_output *out = crtc_to_output(crtc);
	struct vflipq_crtc_state *old = NULL;
	struct vflipq_vblank_step step;
	unsigned long flags;

	spin_lock_irqsave(&out->composer.lock, flags);
	if (vflipq_engine_advance(out, false, &step) == VFLIPQ_ENGINE_VBLANK)
		old = vflipq_engine_report(out, &step);
	if (crtc->state->event) {
		spin_lock(&crtc->dev->event_lock);
		if (drm_crtc_vblank_get(crtc) != 0) {
			drm_crtc_send_vblank_event(crtc, crtc->state->event);
		} else if (crtc->state->async_flip) {
			/*
			 * Shown at once, like the flip queue's tearing flips.
			 * The reference keeps the counter fresh: the event
			 * carries the last vblank before the flip.  The
			 * outgoing state is marked before the event goes out:
			 * the client may draw into the old buffer from then on.
			 */
			if (out->composer.state)
				out->composer.state->overtaken = true;
			drm_crtc_send_vblank_event(crtc, crtc->state->event);
			drm_crtc_vblank_put(crtc);
		} else {
			drm_crtc_arm_vblank_event(crtc, crtc->state->event);
		}
		spin_unlock(&crtc->dev->event_lock);
		crtc->state->event = NULL;
	}
	out->composer.state = to_vflipq_crtc_state(crtc->state);
	spin_unlock_irqrestore(&out->composer.lock, flags);

	if (step.fq_work)
		vflipq_flipq_send_events(out);
	if (old)
		vflipq_engine_compose(out, old, &step, false);
	vflipq_vblank_step_put(&step);

	vflipq_vrr_commit(out, crtc->state);
}

static const struct drm_crtc_helper_funcs vflipq_crtc_helper_funcs = {
	.atomic_check	= vflipq_crtc_atomic_check,
	.atomic_flush	= vflipq_crtc_atomic_flush,
	.atomic_enable	= vflipq_crtc_atomic_enable,
	.atomic_disable	= vflipq_crtc_atomic_disable,
};

static void vflipq_crtc_release(struct drm_device *drm, void *data)
{
	struct vflipq_output *out = data;

	hrtimer_cancel(&out->engine.timer);
	if (out->composer.wq)
		destroy_workqueue(out->composer.wq);
	kvfree(out->composer.line_bufs.out);
	kvfree(out->composer.line_bufs.stage);
	vflipq_tiles_free(out->composer.tiles);
}

int vflipq_crtc_init(struct vflipq_output *out)
{
	struct drm_device *drm = &out->vdev->drm;
	int ret;

	spin_lock_init(&out->composer.lock);
	spin_lock_init(&out->engine.lock);
	ret = drmm_mutex_init(drm, &out->crc.lock);
	if (ret)
		return ret;
	INIT_DELAYED_WORK(&out->crc.unpin, vflipq_crc_unpin);
	spin_lock_init(&out->composer.frame_lock);
	seqlock_init(&out->cursor_seq);
	vflipq_hrtimer_setup(&out->engine.timer, vflipq_vblank_simulate,
			     CLOCK_MONOTONIC, HRTIMER_MODE_ABS);

	ret = drmm_crtc_init_with_planes(drm, &out->crtc, out->primary,
					 out->cursor, &vflipq_crtc_funcs,
					 "crtc-%u", out->index);
	if (ret)
		return ret;
	drm_crtc_helper_add(&out->crtc, &vflipq_crtc_helper_funcs);
	ret = vflipq_color_init_crtc(&out->crtc);
	if (ret)
		return ret;

	out->composer.wq = alloc_ordered_workqueue("vflipq-%d-crtc%u", 0,
						   out->vdev->id, out->index);
	if (!out->composer.wq)
		return -ENOMEM;

	return drmm_add_action_or_reset(drm, vflipq_crtc_release, out);
}
