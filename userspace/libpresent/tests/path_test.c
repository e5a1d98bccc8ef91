// SPDX-License-Identifier: MIT
/*
 * The path decision over every combination of: same adapter or hybrid,
 * tier 0-3, blt effect, opt-out, static check, size/format mismatch,
 * rotation 0/90/180/270 (the plane rotating it or not), MSAA (supported or
 * not).  Checks each result against an independent statement of the rules,
 * plus a few exact reasons.
 */
#include <string.h>

#include "present.h"
#include "test.h"

/* @proxy: a surface of the output's size and format sits between the back
 * buffer and the screen (a blt converts into it) */
static enum present_path_kind expect(const struct present_path_facts *f, unsigned int *copies,
				     bool *proxy)
{
	bool drop_rot = f->rotation && !f->rotation_ok;
	bool drop_msaa = f->samples > 1 && !f->msaa_ok;
	bool mismatch = f->size_mismatch || f->format_mismatch || drop_rot || drop_msaa;

	*proxy = false;
	if (f->blt_effect) {
		*copies = f->same_adapter ? 1 : 2;
		return PRESENT_PATH_BLT;
	}
	if (f->same_adapter) {
		*copies = mismatch || f->opt_out || !f->static_check ? 1 : 0;
		*proxy = mismatch || (!f->opt_out && !f->static_check);
		if (mismatch)
			return PRESENT_PATH_PROXY_FLIP;
		if (f->opt_out)
			return PRESENT_PATH_BLT;
		return f->static_check ? PRESENT_PATH_DIRECT_FLIP : PRESENT_PATH_PROXY_FLIP;
	}
	if (f->tier == 3 && !mismatch && !f->opt_out && f->static_check) {
		*copies = 1;
		return PRESENT_PATH_CASO_ONE_COPY;
	}
	*copies = 2;
	/* a two-copy path converts into a proxy; one that rotates on the CPU
	 * too, except at tier 0, where the CPU copy is the plain path */
	*proxy = mismatch || (f->tier != 0 && f->rotation);
	if (f->tier == 0 || (f->tier == 1 && mismatch) || f->rotation)
		return PRESENT_PATH_TWO_COPY_CPU;	/* no copy engine rotates */
	return PRESENT_PATH_TWO_COPY_ENGINE;
}

/* Every combination of the facts against expect(), the rules in words. */
static void check_decision(const struct present_path_facts *f, unsigned int bits)
{
	unsigned int tier = f->tier, rot = f->rotation, copies;
	struct present_path p;
	bool proxy;
	int ret = present_decide_path(f, &p);
	enum present_path_kind want = expect(f, &copies, &proxy);

	CHECK(ret == 0, "ret %d", ret);
	CHECK(p.kind == want, "bits %#x tier %u rot %u: got %s want %s (%s)", bits, tier, rot,
	      present_path_name(p.kind), present_path_name(want), p.reason);
	CHECK(p.copies == copies, "bits %#x tier %u: copies %u want %u", bits, tier,
	      p.copies, copies);
	CHECK(p.proxy == proxy, "bits %#x tier %u rot %u: proxy %d want %d (%s)", bits, tier,
	      rot, p.proxy, proxy, p.reason);
	CHECK(p.reason[0] != 0 && strlen(p.reason) < sizeof(p.reason) - 1,
	      "reason missing or truncated: %s", p.reason);
	/* the plane rotates scanned-out buffers, blts rotate the rest */
	CHECK(p.dropped_rotation == (rot && p.kind != PRESENT_PATH_DIRECT_FLIP &&
				     p.kind != PRESENT_PATH_CASO_ONE_COPY),
	      "bits %#x tier %u rot %u: dropped_rotation %d (%s)", bits, tier, rot,
	      p.dropped_rotation, p.reason);
	CHECK(!rot || p.dropped_rotation || strstr(p.reason, "plane rotated"),
	      "reason lacks the plane rotation: %s", p.reason);
	CHECK(!rot || f->rotation_ok || f->blt_effect ||
	      strstr(p.reason, "the plane cannot rotate"),
	      "reason lacks the rotation fallback: %s", p.reason);
	CHECK(p.dropped_msaa == (f->samples > 1 && !f->msaa_ok) || f->blt_effect, "dropped_msaa");
}

static void test_all_facts(void)
{
	struct present_path_facts f;
	unsigned int combos = 0;

	for (unsigned int bits = 0; bits < (1u << 10); bits++)
	for (unsigned int tier = 0; tier <= 3; tier++)
	for (unsigned int rot = 0; rot <= 270; rot += 90) {
		memset(&f, 0, sizeof(f));
		f.same_adapter = bits & 1;
		f.blt_effect = bits & 2;
		f.opt_out = bits & 4;
		f.static_check = bits & 8;
		f.size_mismatch = bits & 16;
		f.format_mismatch = bits & 32;
		f.rotation_ok = bits & 64;
		f.msaa_ok = bits & 128;
		f.samples = bits & 256 ? 4 : 1;
		f.rotation = rot;
		f.tier = tier;
		if (bits & 512)
			continue;	/* spare bit */
		combos++;
		check_decision(&f, bits);
	}
	CHECK(combos == 512 * 4 * 4, "combos %u", combos);
}

/* The reasons name what decided the path, in the words users see. */
static void test_reasons(void)
{
	struct present_path_facts f;
	struct present_path p;

	memset(&f, 0, sizeof(f));
	f.tier = 2; f.static_check = true; f.samples = 1;
	present_decide_path(&f, &p);
	CHECK(strstr(p.reason, "tier 2 display adapter: two-copy") != NULL, "%s", p.reason);
	f.tier = 3;
	present_decide_path(&f, &p);
	CHECK(p.kind == PRESENT_PATH_CASO_ONE_COPY && strstr(p.reason, "tier 3") && strstr(p.reason, "one-copy"),
	      "%s", p.reason);
	f.opt_out = true;
	present_decide_path(&f, &p);
	CHECK(p.kind == PRESENT_PATH_TWO_COPY_ENGINE && strstr(p.reason, "opts"), "%s", p.reason);
	f.opt_out = false; f.static_check = false;
	present_decide_path(&f, &p);
	CHECK(strstr(p.reason, "static") != NULL, "%s", p.reason);
	f.same_adapter = true; f.static_check = true;
	present_decide_path(&f, &p);
	CHECK(p.kind == PRESENT_PATH_DIRECT_FLIP && strstr(p.reason, "zero copies"), "%s", p.reason);
	f.tier = 0;
	f.same_adapter = false;
	present_decide_path(&f, &p);
	CHECK(p.kind == PRESENT_PATH_TWO_COPY_CPU && strstr(p.reason, "CPU"), "%s", p.reason);
	f.same_adapter = true; f.rotation = 90; f.samples = 4;
	present_decide_path(&f, &p);
	CHECK(p.kind == PRESENT_PATH_PROXY_FLIP && p.dropped_rotation && p.dropped_msaa &&
	      strstr(p.reason, "rotate") && strstr(p.reason, "MSAA"), "%s", p.reason);
	CHECK(strstr(p.reason, "the plane cannot rotate 90") != NULL, "%s", p.reason);
	f.rotation_ok = true;
	present_decide_path(&f, &p);
	CHECK(p.kind == PRESENT_PATH_PROXY_FLIP && p.dropped_rotation && p.dropped_msaa &&
	      !strstr(p.reason, "rotate"), "MSAA dropped, the proxy blt rotates: %s", p.reason);
	f.samples = 1;
	present_decide_path(&f, &p);
	CHECK(p.kind == PRESENT_PATH_DIRECT_FLIP && !p.dropped_rotation &&
	      strstr(p.reason, "plane rotated 90"), "%s", p.reason);
	f.same_adapter = false; f.tier = 3; f.rotation = 270;
	present_decide_path(&f, &p);
	CHECK(p.kind == PRESENT_PATH_CASO_ONE_COPY && !p.dropped_rotation &&
	      strstr(p.reason, "plane rotated 270"), "%s", p.reason);
	/* tier 3 that cannot scan out: no engine rotates, the CPU copies */
	f.size_mismatch = true;
	present_decide_path(&f, &p);
	CHECK(p.kind == PRESENT_PATH_TWO_COPY_CPU && p.dropped_rotation &&
	      strstr(p.reason, "cannot rotate"), "%s", p.reason);
	f.size_mismatch = false; f.tier = 1;
	present_decide_path(&f, &p);
	CHECK(p.kind == PRESENT_PATH_TWO_COPY_CPU && p.dropped_rotation &&
	      strstr(p.reason, "copy engine cannot rotate"), "%s", p.reason);
	f.rotation_ok = false; f.tier = 3;
	present_decide_path(&f, &p);
	CHECK(p.kind == PRESENT_PATH_TWO_COPY_CPU && strstr(p.reason, "the plane cannot rotate 270"),
	      "%s", p.reason);
}

static void test_bad_args(void)
{
	struct present_path_facts f = { .static_check = true, .samples = 1 };
	struct present_path p;

	CHECK(present_decide_path(NULL, &p) == PRESENT_E_INVALID_ARG, "NULL facts");
	CHECK(present_decide_path(&f, NULL) == PRESENT_E_INVALID_ARG, "NULL out");
	f.tier = 4;
	CHECK(present_decide_path(&f, &p) == PRESENT_E_INVALID_ARG, "tier 4");
	CHECK(strcmp(present_path_name(PRESENT_PATH_CASO_ONE_COPY), "caso-one-copy") == 0, "name");
}

int main(void)
{
	test_all_facts();
	test_reasons();
	test_bad_args();
	return test_done("path_test");
}
