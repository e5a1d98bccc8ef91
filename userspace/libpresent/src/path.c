// SPDX-License-Identifier: MIT
/*
 * The path decision (pure, a table of rules) and the interval -> target
 * mapping (pure).
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

/*
 * The path decision is a table of rules over the facts: the first rule
 * whose condition holds gives the path, the copies per frame, whether a
 * proxy surface is in between and the reason.  The facts come first in a
 * derived form (struct path_ctx): which fallbacks the driver forces, and
 * their words for the reason.
 */
struct path_ctx {
	const struct present_path_facts *f;
	bool drop_rotation;	/* the plane cannot scan the rotation out */
	bool drop_msaa;		/* the driver does not scan MSAA out */
	bool mismatch;		/* back buffer size or format != the output's */
	bool fallback;		/* any of the three: a copy must convert */
	char why[160];		/* the fallbacks, in words */
	char rot[32];		/* ", plane rotated N" or "" */
};

enum path_proxy { PROXY_NO, PROXY_YES, PROXY_IF_FALLBACK };

struct path_rule {
	bool (*when)(const struct path_ctx *c);
	enum present_path_kind kind;
	unsigned int copies;
	enum path_proxy proxy;
	void (*reason)(const struct path_ctx *c, char *buf, size_t size);
};

/* ---- conditions ---- */

static bool blt_same(const struct path_ctx *c)
{
	return c->f->blt_effect && c->f->same_adapter;
}

static bool blt_across(const struct path_ctx *c)
{
	return c->f->blt_effect;
}

static bool same_fallback(const struct path_ctx *c)
{
	return c->f->same_adapter && c->fallback;
}

static bool same_opt_out(const struct path_ctx *c)
{
	return c->f->same_adapter && c->f->opt_out;
}

static bool same_check_failed(const struct path_ctx *c)
{
	return c->f->same_adapter && !c->f->static_check;
}

static bool same(const struct path_ctx *c)
{
	return c->f->same_adapter;
}

static bool tier3_scans_out(const struct path_ctx *c)
{
	const struct present_path_facts *f = c->f;

	return f->tier == 3 && !c->fallback && !f->opt_out && f->static_check;
}

/* a stretch/convert needs tier 2, so the copy engine of a tier 3 can do it */
static bool tier3_unrotated(const struct path_ctx *c)
{
	return c->f->tier == 3 && !c->f->rotation;
}

static bool tier0(const struct path_ctx *c)
{
	return c->f->tier == 0;
}

/* tier 1 cannot convert or stretch, no copy engine rotates: the CPU does */
static bool cpu_converts(const struct path_ctx *c)
{
	const struct present_path_facts *f = c->f;

	return (f->tier == 1 && (c->mismatch || c->drop_msaa)) || f->rotation;
}

static bool always(const struct path_ctx *c)
{
	(void)c;
	return true;
}

/* ---- reasons ---- */

static void r_blt_same(const struct path_ctx *c, char *buf, size_t size)
{
	(void)c;
	snprintf(buf, size, "blt swap effect: blt present");
}

static void r_blt_across(const struct path_ctx *c, char *buf, size_t size)
{
	(void)c;
	snprintf(buf, size, "blt swap effect: blt present across adapters");
}

static void r_proxy_fallback(const struct path_ctx *c, char *buf, size_t size)
{
	snprintf(buf, size, "%s: proxy surface, blt then flip", c->why);
}

static void r_opt_out_blt(const struct path_ctx *c, char *buf, size_t size)
{
	(void)c;
	snprintf(buf, size, "driver opts the back buffer out of scan-out: blt present");
}

static void r_proxy_check(const struct path_ctx *c, char *buf, size_t size)
{
	(void)c;
	snprintf(buf, size, "static TEST_ONLY check failed: proxy surface, blt then flip");
}

static void r_direct(const struct path_ctx *c, char *buf, size_t size)
{
	snprintf(buf, size, "same adapter renders and displays: direct flip (zero copies)%s",
		 c->rot);
}

static void r_caso(const struct path_ctx *c, char *buf, size_t size)
{
	snprintf(buf, size,
		 "tier 3 display adapter: CASO one-copy (scans out the cross-adapter buffer)%s",
		 c->rot);
}

static void r_tier3_engine(const struct path_ctx *c, char *buf, size_t size)
{
	const char *r = c->fallback ? c->why :
			c->f->opt_out ? "driver opts the cross-adapter buffer out of scan-out" :
			"static TEST_ONLY check failed";

	snprintf(buf, size, "tier 3 display adapter, %s: two-copy (copy engine)", r);
}

static void r_tier0_cpu(const struct path_ctx *c, char *buf, size_t size)
{
	snprintf(buf, size, "tier 0 display adapter: two-copy (CPU second copy)%s%s",
		 c->fallback ? ", " : "", c->fallback ? c->why : "");
}

static void r_cpu(const struct path_ctx *c, char *buf, size_t size)
{
	snprintf(buf, size, "tier %u display adapter%s%s: two-copy (CPU second copy: %s)",
		 c->f->tier, c->fallback ? ", " : "", c->fallback ? c->why : "",
		 c->f->rotation ? "the copy engine cannot rotate" : "tier 1 cannot convert");
}

static void r_engine(const struct path_ctx *c, char *buf, size_t size)
{
	snprintf(buf, size, "tier %u display adapter: two-copy (copy engine)%s%s", c->f->tier,
		 c->fallback ? ", " : "", c->fallback ? c->why : "");
}

/*
 * In order, first match wins.  Blt swap effects blt whatever the driver
 * does; then the progressive fallback, as DXGI: drop rotation, then MSAA,
 * until the driver accepts, the blt into the proxy or copy rotating and
 * resolving.
 */
static const struct path_rule rules[] = {
	{ blt_same,          PRESENT_PATH_BLT,             1, PROXY_NO,          r_blt_same },
	{ blt_across,        PRESENT_PATH_BLT,             2, PROXY_NO,          r_blt_across },
	{ same_fallback,     PRESENT_PATH_PROXY_FLIP,      1, PROXY_YES,         r_proxy_fallback },
	{ same_opt_out,      PRESENT_PATH_BLT,             1, PROXY_NO,          r_opt_out_blt },
	{ same_check_failed, PRESENT_PATH_PROXY_FLIP,      1, PROXY_YES,         r_proxy_check },
	{ same,              PRESENT_PATH_DIRECT_FLIP,     0, PROXY_NO,          r_direct },
	{ tier3_scans_out,   PRESENT_PATH_CASO_ONE_COPY,   1, PROXY_NO,          r_caso },
	{ tier3_unrotated,   PRESENT_PATH_TWO_COPY_ENGINE, 2, PROXY_IF_FALLBACK, r_tier3_engine },
	{ tier0,             PRESENT_PATH_TWO_COPY_CPU,    2, PROXY_IF_FALLBACK, r_tier0_cpu },
	{ cpu_converts,      PRESENT_PATH_TWO_COPY_CPU,    2, PROXY_YES,         r_cpu },
	{ always,            PRESENT_PATH_TWO_COPY_ENGINE, 2, PROXY_IF_FALLBACK, r_engine },
};

static void derive(const struct present_path_facts *f, struct path_ctx *c)
{
	size_t n;

	memset(c, 0, sizeof(*c));
	c->f = f;
	c->drop_rotation = f->rotation && !f->rotation_ok;
	c->drop_msaa = f->samples > 1 && !f->msaa_ok;
	c->mismatch = f->size_mismatch || f->format_mismatch;
	c->fallback = c->drop_rotation || c->drop_msaa || c->mismatch;
	if (c->drop_rotation)
		snprintf(c->why, sizeof(c->why), "the plane cannot rotate %u", f->rotation);
	if (c->drop_msaa) {
		n = strlen(c->why);
		snprintf(c->why + n, sizeof(c->why) - n, "%sdriver does not scan out MSAA",
			 n ? ", " : "");
	}
	if (c->mismatch) {
		n = strlen(c->why);
		snprintf(c->why + n, sizeof(c->why) - n, "%sback buffer %s%s%s the output",
			 n ? ", " : "",
			 f->size_mismatch ? "size" : "",
			 f->size_mismatch && f->format_mismatch ? "/" : "",
			 f->format_mismatch ? "format does not match" : " does not match");
	}
	if (f->rotation)
		snprintf(c->rot, sizeof(c->rot), ", plane rotated %u", f->rotation);
}

int present_decide_path(const struct present_path_facts *f, struct present_path *out)
{
	const struct path_rule *r = rules;
	struct path_ctx c;

	if (!f || !out || f->tier > 3)
		return PRESENT_E_INVALID_ARG;
	derive(f, &c);
	while (!r->when(&c))
		r++;	/* the last rule always matches */
	memset(out, 0, sizeof(*out));
	out->kind = r->kind;
	out->copies = r->copies;
	out->proxy = r->proxy == PROXY_YES || (r->proxy == PROXY_IF_FALLBACK && c.fallback);
	/*
	 * Only a scanned-out back buffer rotates on the plane: every copy
	 * path rotates in its blt, whatever the plane could do.  A blt swap
	 * effect resolves MSAA as part of its blt, not as a fallback.
	 */
	out->dropped_rotation = f->rotation && r->kind != PRESENT_PATH_DIRECT_FLIP &&
				r->kind != PRESENT_PATH_CASO_ONE_COPY;
	out->dropped_msaa = c.drop_msaa && !f->blt_effect;
	r->reason(&c, out->reason, sizeof(out->reason));
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

/*
 * A commit latches at the first vblank the driver handles after it.  Once
 * the vblank before @due_ns was reported (the previous flip's event, as a
 * rule) that is @due_ns itself: commit now, with a whole frame to spare.
 * Otherwise wait until half a frame before @due_ns: not at the target minus
 * half a period, which for an interval's target (half a frame before its
 * vblank) is the previous vblank itself, where a commit made before the
 * driver's interrupt for it ran latches a whole frame early.
 */
uint64_t present_commit_at(uint64_t due_ns, uint64_t grid_ns, uint64_t seen_ns)
{
	/* (half a frame of rounding between the two grids' views) */
	if (seen_ns + grid_ns + grid_ns / 2 > due_ns)
		return 0;
	return due_ns - grid_ns / 2;
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
