// SPDX-License-Identifier: MIT
/*
 * The path decision (pure) and the interval -> target mapping (pure).
 * Both are unit-tested on the host (tests/path_test.c, tests/pace_test.c).
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "present.h"

const char *present_path_name(enum present_path_kind kind)
{
	switch (kind) {
	case PRESENT_PATH_DIRECT_FLIP: return "direct-flip";
	case PRESENT_PATH_CASO_ONE_COPY: return "caso-one-copy";
	case PRESENT_PATH_TWO_COPY_ENGINE: return "two-copy-engine";
	case PRESENT_PATH_TWO_COPY_CPU: return "two-copy-cpu";
	case PRESENT_PATH_PROXY_FLIP: return "proxy-blt-flip";
	case PRESENT_PATH_BLT: return "blt";
	}
	return "unknown";
}

static void set(struct present_path *p, enum present_path_kind kind, unsigned int copies,
		const char *fmt, const char *a, const char *b)
{
	p->kind = kind;
	p->copies = copies;
	snprintf(p->reason, sizeof(p->reason), fmt, a, b);
}

int present_decide_path(const struct present_path_facts *f, struct present_path *out)
{
	char why[160] = "", rot[32] = "";
	bool fallback;

	if (!f || !out || f->tier > 3)
		return PRESENT_E_INVALID_ARG;
	memset(out, 0, sizeof(*out));

	if (f->blt_effect) {
		/* blt into the display-side front buffer: one copy on the
		 * same adapter, two across adapters; the blt rotates */
		out->dropped_rotation = f->rotation != 0;
		set(out, PRESENT_PATH_BLT, f->same_adapter ? 1 : 2,
		    "blt swap effect: blt present%s%s", "",
		    f->same_adapter ? "" : " across adapters");
		return 0;
	}

	/* Progressive fallback, as DXGI: drop rotation, then MSAA, until the
	 * driver accepts; the blt into the proxy rotates/resolves. */
	if (f->rotation && !f->rotation_ok)
		snprintf(why, sizeof(why), "the plane cannot rotate %u", f->rotation);
	if (f->samples > 1 && !f->msaa_ok) {
		out->dropped_msaa = true;
		snprintf(why + strlen(why), sizeof(why) - strlen(why), "%sdriver does not scan out MSAA",
			 why[0] ? ", " : "");
	}
	if (f->size_mismatch || f->format_mismatch)
		snprintf(why + strlen(why), sizeof(why) - strlen(why), "%sback buffer %s%s%s the output",
			 why[0] ? ", " : "",
			 f->size_mismatch ? "size" : "",
			 f->size_mismatch && f->format_mismatch ? "/" : "",
			 f->format_mismatch ? "format does not match" : " does not match");
	fallback = why[0] != 0;
	if (f->rotation)
		snprintf(rot, sizeof(rot), ", plane rotated %u", f->rotation);
	/*
	 * Only a scanned-out back buffer rotates on the plane: every copy
	 * path rotates in its blt, whatever the plane could do.
	 */
	out->dropped_rotation = f->rotation != 0;

	if (f->same_adapter) {
		if (fallback) {
			out->proxy = true;
			set(out, PRESENT_PATH_PROXY_FLIP, 1, "%s%s: proxy surface, blt then flip", why, "");
		} else if (f->opt_out) {
			set(out, PRESENT_PATH_BLT, 1,
			    "driver opts the back buffer out of scan-out: blt present%s%s", "", "");
		} else if (!f->static_check) {
			out->proxy = true;
			set(out, PRESENT_PATH_PROXY_FLIP, 1,
			    "static TEST_ONLY check failed: proxy surface, blt then flip%s%s", "", "");
		} else {
			out->dropped_rotation = false;
			set(out, PRESENT_PATH_DIRECT_FLIP, 0,
			    "same adapter renders and displays: direct flip (zero copies)%s%s", rot, "");
		}
		return 0;
	}

	/* Hybrid pair. */
	if (f->tier == 3 && !fallback && !f->opt_out && f->static_check) {
		out->dropped_rotation = false;
		set(out, PRESENT_PATH_CASO_ONE_COPY, 1,
		    "tier 3 display adapter: CASO one-copy (scans out the cross-adapter buffer)%s%s",
		    rot, "");
		return 0;
	}
	if (f->tier == 3 && !f->rotation) {
		const char *r = fallback ? why :
			f->opt_out ? "driver opts the cross-adapter buffer out of scan-out" :
			"static TEST_ONLY check failed";
		/* a stretch/convert needs tier 2, so the engine can do it */
		set(out, PRESENT_PATH_TWO_COPY_ENGINE, 2, "tier 3 display adapter, %s: two-copy%s",
		    r, " (copy engine)");
		out->proxy = fallback;
		return 0;
	}
	if (f->tier == 0) {
		snprintf(out->reason, sizeof(out->reason),
			 "tier 0 display adapter: two-copy (CPU second copy)%s%s",
			 fallback ? ", " : "", fallback ? why : "");
		out->kind = PRESENT_PATH_TWO_COPY_CPU;
		out->copies = 2;
		out->proxy = fallback;
		return 0;
	}
	/* tier 1 cannot convert or stretch, no copy engine rotates: the CPU does */
	if ((f->tier == 1 && (f->size_mismatch || f->format_mismatch || out->dropped_msaa)) ||
	    f->rotation) {
		snprintf(out->reason, sizeof(out->reason),
			 "tier %u display adapter%s%s: two-copy (CPU second copy: %s)", f->tier,
			 fallback ? ", " : "", fallback ? why : "",
			 f->rotation ? "the copy engine cannot rotate" : "tier 1 cannot convert");
		out->kind = PRESENT_PATH_TWO_COPY_CPU;
		out->copies = 2;
		out->proxy = true;
		return 0;
	}
	snprintf(out->reason, sizeof(out->reason),
		 "tier %u display adapter: two-copy (copy engine)%s%s", f->tier,
		 fallback ? ", " : "", fallback ? why : "");
	out->kind = PRESENT_PATH_TWO_COPY_ENGINE;
	out->copies = 2;
	out->proxy = fallback;
	return 0;
}

uint64_t present_interval_target(uint64_t prev_vblank_ns, uint64_t period_ns,
				 unsigned int interval, uint64_t fastest_period_ns)
{
	uint64_t half;

	if (!interval || interval > 4 || !period_ns || !prev_vblank_ns)
		return 0;
	half = (fastest_period_ns && fastest_period_ns < period_ns ? fastest_period_ns : period_ns) / 2;
	return prev_vblank_ns + interval * period_ns - half;
}

bool present_on_target(uint64_t shown_ns, uint64_t target_ns, uint64_t grid_ns)
{
	/* no slack: one vblank earlier is early, one later is a miss */
	return shown_ns >= target_ns && shown_ns - target_ns < grid_ns;
}

/* A frame of @lines scan lines, as the driver rounds it (0: none). */
static uint64_t lines_ns(uint64_t lines, uint32_t htotal, uint32_t clock_khz)
{
	return lines * htotal * 1000000ull / clock_khz;
}

uint64_t present_boost_period(uint64_t period_ns, uint64_t min_period_ns, uint32_t htotal,
			      uint32_t vdisplay, uint32_t clock_khz)
{
	uint64_t line_x_clock, shortest;

	if (!period_ns || !min_period_ns || !htotal || !clock_khz)
		return 0;
	line_x_clock = (uint64_t)htotal * 1000000;
	/* variable refresh stretches or shrinks the vertical blank only: a
	 * frame keeps at least its visible lines plus one */
	shortest = lines_ns((uint64_t)vdisplay + 1, htotal, clock_khz);
	if (shortest < min_period_ns)
		shortest = min_period_ns;
	for (uint64_t k = period_ns / shortest; k >= 2; k--) {
		uint64_t d = period_ns / k;
		uint64_t vtotal = (d * clock_khz + line_x_clock / 2) / line_x_clock;
		uint64_t snapped = lines_ns(vtotal, htotal, clock_khz);

		/* the same rounding to whole lines as the driver's */
		if (d >= min_period_ns && vtotal > vdisplay && vtotal <= 65535 &&
		    snapped >= min_period_ns)
			return snapped;
	}
	return 0;
}

int present_latency_init(struct present_latency *l, uint32_t max)
{
	if (!l || max > 16)
		return PRESENT_E_INVALID_ARG;
	memset(l, 0, sizeof(*l));
	l->max = max ? max : 3;
	return 0;
}

bool present_latency_can_submit(const struct present_latency *l)
{
	return l && l->in_flight < l->max;
}

int present_latency_submit(struct present_latency *l)
{
	if (!l)
		return PRESENT_E_INVALID_ARG;
	if (l->in_flight >= l->max)
		return PRESENT_E_WAS_STILL_DRAWING;
	l->in_flight++;
	l->submitted++;
	return 0;
}

int present_latency_retire(struct present_latency *l, uint32_t n)
{
	if (!l || n > l->in_flight)
		return PRESENT_E_INVALID_ARG;
	l->in_flight -= n;
	l->retired += n;
	return 0;
}

int present_latency_set_max(struct present_latency *l, uint32_t max)
{
	if (!l || max < 1 || max > 16)
		return PRESENT_E_INVALID_ARG;
	l->max = max;
	return 0;
}
