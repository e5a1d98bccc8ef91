// SPDX-License-Identifier: MIT
/*
 * Host check of the framebuffer helpers (lib/vflipq_fb.c) on IGT's igt_fb,
 * against the libigt the tests link, without a DRM device: this binary
 * defines ioctl(), so libigt's and libdrm's calls on the fake device's fd
 * (a memfd) reach a small model of vflipq's dumb buffers and ADDFB2, and
 * mmap() of a dumb buffer is a real mapping of the memfd.
 *
 * What the VM cannot tell cheaply, and a newer IGT may change: the layout
 * IGT gives each format the tests use (the checks drm_framebuffer_init()
 * makes, the fields struct vfq_fb copies), the opaque-black clear, that
 * every buffer, fb, mapping and file goes at vfq_fb_destroy() (also after
 * the test removed the fb itself), that IGT's cairo paints exact 8-bit
 * colours, and that a refused fb fails the test rather than skipping it
 * (the fail-* subtests, which run-fb-selftest.sh expects to fail).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fourcc.h"
#include "vflipq_helpers.h"

#define FAKE_NAME "vfq-fake-drm"
#define FAKE_SPACE (1ull << 30)	/* sparse: buffers are never reused */
#define FAKE_MAX 64

static struct {
	int fd;
	uint64_t next;
	struct { bool live; uint64_t offset, size; } bo[FAKE_MAX];
	struct { bool live; struct drm_mode_fb_cmd2 cmd; } fb[FAKE_MAX];
	int bad_ids;		/* RMFB/DESTROY_DUMB of what is not there */
	bool refuse_addfb;
	int open_fds;		/* of the process, with the fake device's */
} fake = { .fd = -1 };

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

/* vflipq_dumb_create(): rows of 128 bytes, height a multiple of 4. */
static int fake_create_dumb(struct drm_mode_create_dumb *c)
{
	uint64_t pitch = align_up(((uint64_t)c->width * c->bpp + 7) / 8,
				  VFLIPQ_CASO_PITCH_ALIGN);
	uint64_t size = align_up(pitch * align_up(c->height, 4), 4096);

	for (int i = 0; i < FAKE_MAX; i++) {
		if (fake.bo[i].live)
			continue;
		if (!c->width || !c->height || !c->bpp ||
		    fake.next + size > FAKE_SPACE)
			return -EINVAL;
		fake.bo[i].live = true;
		fake.bo[i].offset = fake.next;
		fake.bo[i].size = size;
		fake.next += size;
		c->handle = i + 1;
		c->pitch = pitch;
		c->size = size;
		return 0;
	}
	return -ENOSPC;
}

static bool bo_live(uint32_t h)
{
	return h && h <= FAKE_MAX && fake.bo[h - 1].live;
}

/* drm_framebuffer_check() and the GEM size check, for these formats. */
static int fake_addfb2(struct drm_mode_fb_cmd2 *c)
{
	const struct fourcc_info *f = fourcc_info(c->pixel_format);

	if (!f || fake.refuse_addfb || !c->width || !c->height)
		return -EINVAL;
	for (int i = 0; i < f->planes; i++) {
		uint32_t w = i ? (c->width + f->hsub - 1) / f->hsub : c->width;
		uint32_t h = i ? (c->height + f->vsub - 1) / f->vsub :
			     c->height;
		uint64_t min = (uint64_t)w * f->cpp[i];

		if (!bo_live(c->handles[i]) || c->pitches[i] < min ||
		    c->offsets[i] + (uint64_t)c->pitches[i] * (h - 1) + min >
		    fake.bo[c->handles[i] - 1].size)
			return -EINVAL;
		if ((c->flags & DRM_MODE_FB_MODIFIERS) &&
		    c->modifier[i] != DRM_FORMAT_MOD_LINEAR)
			return -EINVAL;
	}
	for (int i = 0; i < FAKE_MAX; i++) {
		if (fake.fb[i].live)
			continue;
		fake.fb[i].live = true;
		c->fb_id = i + 1;
		fake.fb[i].cmd = *c;
		return 0;
	}
	return -ENOSPC;
}

static int fake_ioctl(unsigned long req, void *arg)
{
	switch (req) {
	case DRM_IOCTL_VERSION: {
		struct drm_version *v = arg;

		if (v->name && v->name_len)
			snprintf(v->name, v->name_len, "%s", VFQ_DRIVER_NAME);
		v->name_len = strlen(VFQ_DRIVER_NAME);
		v->date_len = v->desc_len = 0;
		return 0;
	}
	case DRM_IOCTL_GET_CAP: {
		struct drm_get_cap *cap = arg;

		if (cap->capability != DRM_CAP_ADDFB2_MODIFIERS)
			return -EINVAL;
		cap->value = 1;
		return 0;
	}
	case DRM_IOCTL_MODE_CREATE_DUMB:
		return fake_create_dumb(arg);
	case DRM_IOCTL_MODE_MAP_DUMB: {
		struct drm_mode_map_dumb *m = arg;

		if (!bo_live(m->handle))
			return -ENOENT;
		m->offset = fake.bo[m->handle - 1].offset;
		return 0;
	}
	case DRM_IOCTL_MODE_DESTROY_DUMB:
	case DRM_IOCTL_GEM_CLOSE: {
		uint32_t h = *(uint32_t *)arg;

		if (!bo_live(h)) {
			fake.bad_ids++;
			return -EINVAL;
		}
		fake.bo[h - 1].live = false;
		return 0;
	}
	case DRM_IOCTL_MODE_ADDFB2:
		return fake_addfb2(arg);
	case DRM_IOCTL_MODE_RMFB: {
		uint32_t id = *(uint32_t *)arg;

		if (!id || id > FAKE_MAX || !fake.fb[id - 1].live) {
			fake.bad_ids++;
			return -ENOENT;
		}
		fake.fb[id - 1].live = false;
		return 0;
	}
	case DRM_IOCTL_MODE_DIRTYFB:
		return -ENOSYS;	/* vflipq has no dirty hook */
	default:
		igt_warn("fake device: ioctl %#lx not modelled\n", req);
		return -ENOTTY;
	}
}

/* Interposes libc's for every library of this process. */
int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;
	int ret;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (fake.fd < 0 || fd != fake.fd)
		return syscall(SYS_ioctl, fd, req, arg);
	ret = fake_ioctl(req, arg);
	if (ret < 0) {
		errno = -ret;
		return -1;
	}
	return 0;
}

/* Mappings of the fake device's memfd this process has. */
static int fake_maps(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int n = 0;

	igt_assert(f);
	while (fgets(line, sizeof(line), f))
		n += strstr(line, FAKE_NAME) != NULL;
	fclose(f);
	return n;
}

/* Files this process has open (vflipq_prime@no-leaks counts them). */
static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	igt_assert(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

static void check_all_gone(void)
{
	for (int i = 0; i < FAKE_MAX; i++) {
		igt_assert_f(!fake.bo[i].live, "buffer %d left\n", i + 1);
		igt_assert_f(!fake.fb[i].live, "fb %d left\n", i + 1);
	}
	igt_assert_eq(fake_maps(), 0);
	igt_assert_eq(fake.bad_ids, 0);
	igt_assert_eq(open_fds(), fake.open_fds);
}

static const uint32_t formats[] = {
	DRM_FORMAT_XRGB8888, DRM_FORMAT_ARGB8888, DRM_FORMAT_XBGR8888,
	DRM_FORMAT_ABGR8888, DRM_FORMAT_RGB565, DRM_FORMAT_XRGB2101010,
	DRM_FORMAT_ARGB2101010, DRM_FORMAT_XBGR2101010, DRM_FORMAT_ABGR2101010,
	DRM_FORMAT_XRGB16161616F, DRM_FORMAT_ARGB16161616F,
	DRM_FORMAT_XBGR16161616F, DRM_FORMAT_ABGR16161616F, DRM_FORMAT_NV12,
};

/* The sizes the tests use, and odd ones. */
static const int sizes[][2] = {
	{ 64, 64 }, { 128, 96 }, { 100, 30 }, { 640, 480 }, { 63, 33 },
};

/* The fields the tests read are ADDFB2's, and the same as IGT's. */
static void check_fields(const struct vfq_fb *fb, int w, int h,
			 uint32_t format)
{
	const struct drm_mode_fb_cmd2 *c;

	igt_assert(fb->fb_id && fb->fb_id <= FAKE_MAX &&
		   fake.fb[fb->fb_id - 1].live);
	c = &fake.fb[fb->fb_id - 1].cmd;
	igt_assert_eq(fb->fd, fake.fd);
	igt_assert_eq_u32(fb->format, format);
	igt_assert_eq_u32(c->pixel_format, format);
	igt_assert(fb->width == w && fb->height == h);
	igt_assert(c->width == (uint32_t)w && c->height == (uint32_t)h);
	igt_assert_eq_u64(fb->modifier, DRM_FORMAT_MOD_LINEAR);
	igt_assert_eq(fb->n_planes, format == DRM_FORMAT_NV12 ? 2 : 1);
	igt_assert_eq_u32(fb->pitch, fb->pitches[0]);
	igt_assert_eq_u64(fb->size, fake.bo[fb->handle - 1].size);
	for (int i = 0; i < fb->n_planes; i++) {
		igt_assert_eq_u32(c->handles[i], fb->handle);
		igt_assert_eq_u32(c->pitches[i], fb->pitches[i]);
		igt_assert_eq_u32(c->offsets[i], fb->offsets[i]);
	}
	igt_assert(fb->map);
}

/* Opaque black everywhere (NV12: limited-range Y 16, Cb Cr 128). */
static void check_black(const struct vfq_fb *fb)
{
	if (fb->format == DRM_FORMAT_NV12) {
		for (int y = 0; y < fb->height; y++)
			for (int x = 0; x < fb->width; x++)
				igt_assert_eq(fb->map[fb->offsets[0] +
					      y * fb->pitches[0] + x], 16);
		for (int y = 0; y < (fb->height + 1) / 2; y++)
			for (int x = 0; x < (fb->width + 1) / 2 * 2; x++)
				igt_assert_eq(fb->map[fb->offsets[1] +
					      y * fb->pitches[1] + x], 128);
		return;
	}
	for (int y = 0; y < fb->height; y++)
		for (int x = 0; x < fb->width; x++) {
			struct vfq_color c = vfq_fb_get(fb, x, y);

			igt_assert_f(!c.r && !c.g && !c.b && c.a == 65535,
				     "(%d,%d) of %s: %u,%u,%u,%u\n", x, y,
				     vfq_format_name(fb->format), c.r, c.g,
				     c.b, c.a);
		}
}

static struct vfq_color expect_pattern(int x, int y, void *data)
{
	const struct vfq_fb *fb = data;

	return vfq_format_depth(fb->format) == 10 ? vfq_pattern10(x, y, 5) :
						    vfq_pattern8(x, y, 5);
}

static void check_format(uint32_t format, int w, int h)
{
	struct vfq_fb fb, raw;

	vfq_fb_create(fake.fd, w, h, format, &fb);
	check_fields(&fb, w, h, format);
	check_black(&fb);
	/* the encoders write inside the buffer and read back exactly */
	vfq_fb_pattern(&fb, 5);
	if (format != DRM_FORMAT_NV12)
		igt_assert_eq(vfq_fb_check(&fb, expect_pattern, &fb,
					   vfq_format_depth(format) == 10 ?
					   10 : format == DRM_FORMAT_RGB565 ?
					   5 : 8,
					   format == DRM_FORMAT_RGB565), 0);
	/* one plane: the layout of a raw dumb buffer of the driver's */
	if (format != DRM_FORMAT_NV12) {
		igt_assert_eq(vfq_bo_create(fake.fd, w, h, format, &raw), 0);
		igt_assert_eq_u32(fb.pitch, raw.pitch);
		igt_assert_eq_u64(fb.size, raw.size);
		vfq_fb_destroy(&raw);
	}
	vfq_fb_destroy(&fb);
	igt_assert(!fb.fb_id && !fb.map && !fb.handle);
	vfq_fb_destroy(&fb);	/* twice: a no-op, as before */
	check_all_gone();
}

static void paint_and_check(void)
{
	struct vfq_fb fb;
	cairo_t *cr;

	vfq_fb_create(fake.fd, 640, 480, DRM_FORMAT_XRGB8888, &fb);
	cr = igt_get_cairo_ctx(fb.fd, &fb.igt);
	igt_paint_color(cr, 0, 0, 640, 480, 40 / 255.0, 80 / 255.0,
			120 / 255.0);
	igt_paint_color(cr, 100, 100, 50, 40, 1.0, 0.0, 0.0);
	igt_put_cairo_ctx(cr);
	igt_assert_eq(fake_maps(), 1);	/* cairo's went with its context */
	for (int y = 0; y < 480; y++)
		for (int x = 0; x < 640; x++) {
			bool in = x >= 100 && x < 150 && y >= 100 && y < 140;
			struct vfq_color c = vfq_fb_get(&fb, x, y);
			struct vfq_color e = in ? vfq_rgb8(255, 0, 0) :
					     vfq_rgb8(40, 80, 120);

			igt_assert_f(c.r == e.r && c.g == e.g && c.b == e.b,
				     "(%d,%d): %u,%u,%u\n", x, y, c.r, c.g,
				     c.b);
		}
	cr = igt_get_cairo_ctx(fb.fd, &fb.igt);
	igt_paint_test_pattern(cr, 640, 480);
	igt_put_cairo_ctx(cr);
	vfq_fb_destroy(&fb);
	check_all_gone();
}

igt_main
{
	igt_fixture {
		fake.fd = memfd_create(FAKE_NAME, MFD_CLOEXEC);
		igt_assert_fd(fake.fd);
		igt_assert_eq(ftruncate(fake.fd, FAKE_SPACE), 0);
		fake.open_fds = open_fds();
	}

	igt_subtest("formats") {
		for (size_t i = 0; i < VFQ_ARRAY_SIZE(formats); i++)
			for (size_t s = 0; s < VFQ_ARRAY_SIZE(sizes); s++)
				check_format(formats[i], sizes[s][0],
					     sizes[s][1]);
	}

	igt_subtest("destroy-after-test-rmfb") {
		struct vfq_fb fb;

		vfq_fb_create(fake.fd, 64, 64, DRM_FORMAT_XRGB8888, &fb);
		igt_assert_eq(drmModeRmFB(fake.fd, fb.fb_id), 0);
		fb.fb_id = 0;
		vfq_fb_destroy(&fb);
		check_all_gone();
	}

	igt_subtest("raw-buffers") {
		struct vfq_fb fb = { 0 };

		vfq_fb_destroy(&fb);	/* never created: a no-op */
		igt_assert_eq(vfq_bo_create(fake.fd, 64, 64, DRM_FORMAT_NV12,
					    &fb), 0);
		igt_assert_eq(vfq_fb_add(&fb, DRM_FORMAT_MOD_LINEAR, true), 0);
		check_fields(&fb, 64, 64, DRM_FORMAT_NV12);
		vfq_fb_destroy(&fb);
		check_all_gone();
	}

	igt_subtest("paint") {
		paint_and_check();
	}

	/* Must FAIL, not skip: run-fb-selftest.sh expects exit 98. */
	igt_subtest("fail-unknown-format") {
		struct vfq_fb fb;

		vfq_fb_create(fake.fd, 64, 64, fourcc_code('V', 'F', 'Q', '0'),
			      &fb);
	}

	igt_subtest("fail-addfb-refused") {
		struct vfq_fb fb;

		fake.refuse_addfb = true;
		vfq_fb_create(fake.fd, 64, 64, DRM_FORMAT_XRGB8888, &fb);
	}

	igt_fixture {
		close(fake.fd);
	}
}
