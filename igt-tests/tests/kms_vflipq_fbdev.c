// SPDX-License-Identifier: MIT
/*
 * fbdev emulation, a device's opt-in (configfs "fbdev", module parameter
 * "fbdev"): one /dev/fbN per device that asks, none otherwise; what is
 * written into it, through mmap or write(), is what the CRTC shows (its
 * CRC against the reference computed here); it comes back on screen when a
 * DRM master goes away; the device can be removed while the fbdev node is
 * open and mapped.  Kernels without fbdev emulation refuse the device.
 */
/**
 * TEST: kms vflipq fbdev
 * Category: Display
 * Mega feature: General Display Features
 * Sub-category: fbdev
 * Functionality: fbdev emulation
 * Driver requirement: vflipq
 * Description: vflipq's opt-in fbdev emulation: one /dev/fbN per device that
 *              asks, what is written into it is what the CRTC shows, it comes
 *              back when the DRM master goes away, and the device can be
 *              removed while it is open and mapped.
 *
 * SUBTEST: node-per-device
 * Description: Without fbdev emulation in the kernel, a device that asks for
 *              it is refused with EOPNOTSUPP; with it, only devices that ask
 *              get a /dev/fbN
 *
 * SUBTEST: screeninfo
 * Description: The screen info is the preferred mode in XRGB8888
 *
 * SUBTEST: mmap-reaches-screen
 * Description: What is drawn into the fbdev's mapping is what the CRTC shows
 *              (CRC against the reference)
 *
 * SUBTEST: write-reaches-screen
 * Description: What is written to the fbdev with write() is what the CRTC
 *              shows
 *
 * SUBTEST: restore-after-master
 * Description: When the last DRM master closes, the fbdev's picture is back on
 *              screen
 *
 * SUBTEST: unplug-while-open
 * Description: The device goes away while its fbdev is open and mapped: no
 *              kernel splat, the mapping stays usable, close works
 */

#include <dirent.h>
#include <fcntl.h>
#include <linux/fb.h>
#include <linux/kd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "igt.h"
#include "vflipq_helpers.h"

IGT_TEST_DESCRIPTION("vflipq's opt-in fbdev emulation");

#define DEV "igt-fbdev"
#define W 640
#define H 480
/* rows of solid colour, so that the reference CRC is cheap in the guest */
#define BAND 40

static struct vfq_kmsg kmsg;
static int tty_fd = -1;

static void cleanup_handler(int sig)
{
	(void)sig;
	if (tty_fd >= 0)
		ioctl(tty_fd, KDSETMODE, KD_TEXT);
	vfq_cfs_cleanup();
}

/*
 * CONFIG_DRM_FBDEV_EMULATION: drm_fb_helper.c, built only with it, gives
 * drm_kms_helper (which vflipq needs, so it is loaded) this parameter.
 */
static bool kernel_has_fbdev(void)
{
	return access("/sys/module/drm_kms_helper/parameters/fbdev_emulation",
		      F_OK) == 0;
}

/*
 * The N of the /dev/fbN whose parent is platform device vflipq.<id>, or -1:
 * the fbdev client registers its fb_info with the DRM device's parent.
 */
static int fb_of_device(int device_id)
{
	char want[32], path[300], link[300];
	struct dirent *de;
	DIR *d;
	int found = -1;

	snprintf(want, sizeof(want), "vflipq.%d", device_id);
	d = opendir("/sys/class/graphics");
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		ssize_t n;
		const char *base;

		if (strncmp(de->d_name, "fb", 2))
			continue;
		snprintf(path, sizeof(path), "/sys/class/graphics/%s/device",
			 de->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n < 0)
			continue;
		link[n] = '\0';
		base = strrchr(link, '/');
		base = base ? base + 1 : link;
		if (!strcmp(base, want)) {
			igt_assert_f(found < 0, "two fbdev nodes for %s\n",
				     want);
			found = atoi(de->d_name + 2);
		}
	}
	closedir(d);
	return found;
}

static int create_device(const char *name, const char *fbdev)
{
	return vfq_cfs_create(name, (const char *[]){
		"crtcs", "1", "overlays", "0", "cursor", "0",
		"writeback", "0", "modes", "640x480@60",
		"preferred_mode", "640x480@60", "fbdev", fbdev, NULL });
}

/*
 * The framebuffer console draws into the first fbdev (a blinking cursor):
 * switch the VT to graphics mode as IGT does, so that only the test
 * writes there.  Kernels without a VT have no console on it.
 */
static void vt_graphics(void)
{
	tty_fd = open("/dev/tty0", O_RDWR | O_CLOEXEC);
	if (tty_fd >= 0)
		igt_assert_eq(ioctl(tty_fd, KDSETMODE, KD_GRAPHICS), 0);
}

static void vt_text(void)
{
	if (tty_fd >= 0) {
		ioctl(tty_fd, KDSETMODE, KD_TEXT);
		close(tty_fd);
	}
	tty_fd = -1;
}

static struct vfq_color band_color(int band, uint32_t seed)
{
	uint32_t v = (band + 1) * 2654435761u ^ seed * 40503u;

	return vfq_rgba8(v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, 255);
}

/* Row y of pattern @seed as XRGB8888 into @row, and as a colour. */
static struct vfq_color pattern_row(uint32_t *row, int y, uint32_t seed)
{
	struct vfq_color c = band_color(y / BAND, seed);
	uint32_t px = (uint32_t)(c.r >> 8) << 16 | (c.g >> 8) << 8 | c.b >> 8;

	for (int x = 0; x < W; x++)
		row[x] = px;
	return c;
}

/* The CRC of pattern @seed with rows @y0 to @y1 - 1 of pattern @seed2. */
static uint32_t pattern_crc2(uint32_t seed, uint32_t seed2, int y0, int y1)
{
	static struct vfq_color rows[H];
	static uint32_t row[W];

	for (int y = 0; y < H; y++)
		rows[y] = pattern_row(row, y, y >= y0 && y < y1 ? seed2 : seed);
	return vfq_frame_crc_rows(rows, W, H, 8);
}

static uint32_t pattern_crc(uint32_t seed)
{
	return pattern_crc2(seed, seed, 0, 0);
}

struct fbdev {
	int fd;
	struct fb_var_screeninfo var;
	struct fb_fix_screeninfo fix;
	uint8_t *map;
};

static void fbdev_open(struct fbdev *f, int n)
{
	char path[32];

	snprintf(path, sizeof(path), "/dev/fb%d", n);
	f->fd = open(path, O_RDWR | O_CLOEXEC);
	igt_assert_f(f->fd >= 0, "%s: %s\n", path, strerror(errno));
	igt_assert_eq(ioctl(f->fd, FBIOGET_VSCREENINFO, &f->var), 0);
	igt_assert_eq(ioctl(f->fd, FBIOGET_FSCREENINFO, &f->fix), 0);
	/*
	 * Show it, as fbdev applications do: without a framebuffer console
	 * (none on kernels without a VT) nothing else lights the CRTCs.
	 */
	f->var.activate = FB_ACTIVATE_NOW | FB_ACTIVATE_FORCE;
	igt_assert_eq(ioctl(f->fd, FBIOPUT_VSCREENINFO, &f->var), 0);
	f->map = mmap(NULL, f->fix.smem_len, PROT_READ | PROT_WRITE,
		      MAP_SHARED, f->fd, 0);
	igt_assert(f->map != MAP_FAILED);
}

static void fbdev_close(struct fbdev *f)
{
	igt_assert_eq(munmap(f->map, f->fix.smem_len), 0);
	igt_assert_eq(close(f->fd), 0);
}

/*
 * Rows @y0 to @y1 - 1 of pattern @seed into the fbdev: through the mapping,
 * or with one pwrite() from the first row's start to the last one's end.
 * Not a row at a time: 6.12's fbdev emulation turns a write() that ends
 * where its only row ends into an empty damage rectangle, and the shadow
 * buffer it wrote never reaches the screen (drm_fb_helper_memory_range_to_clip();
 * 7.2's is right).
 */
static void fbdev_draw_rows(struct fbdev *f, uint32_t seed, int y0, int y1,
			    bool with_write)
{
	size_t ll = f->fix.line_length;
	uint8_t *buf = with_write ? calloc(y1 - y0, ll) : f->map + y0 * ll;

	igt_assert(buf);
	for (int y = y0; y < y1; y++)
		pattern_row((uint32_t *)(buf + (y - y0) * ll), y, seed);
	if (with_write) {
		ssize_t len = (y1 - y0 - 1) * ll + W * 4;

		igt_assert_eq(pwrite(f->fd, buf, len, y0 * ll), len);
		free(buf);
	}
}

static void fbdev_draw(struct fbdev *f, uint32_t seed, bool with_write)
{
	fbdev_draw_rows(f, seed, 0, H, with_write);
}

/*
 * The screen shows @want within a second, and still does at the next
 * frame.  Not at once: on 6.12 userspace draws into a shadow buffer that
 * the fbdev emulation copies to the scanned-out one after its deferred-I/O
 * delay (HZ/20).  The card is open only meanwhile: the fbdev client shows
 * its picture again when the last file of the device closes, and the
 * tests rely on that.
 */
static void assert_screen(const char *name, uint32_t want)
{
	int fd = vfq_open_card(vfq_cfs_read_int(name, "card"));
	uint32_t frame, got = 0, next = 0;
	drmModeRes *res;
	igt_pipe_crc_t *crc;
	int n;

	igt_assert_fd(fd);
	res = drmModeGetResources(fd);
	igt_assert(res && res->count_crtcs == 1);
	crc = vfq_crc_start(fd, 0);
	/* 60 frames at 60 Hz */
	for (n = 0; n < 60 && got != want; n++)
		igt_assert_eq(vfq_crc_read(crc, 3000, &frame, &got), 1);
	igt_assert_eq(vfq_crc_read(crc, 3000, &frame, &next), 1);
	igt_pipe_crc_free(crc);
	drmModeFreeResources(res);
	close(fd);
	igt_assert_f(got == want, "CRC %08x after %d frames, want %08x\n",
		     got, n, want);
	igt_assert_eq_u32(next, want);
}

/*
 * Pattern @seed drawn whole, then rows @y0 to @y1 - 1 of pattern @seed2
 * over it (part of the frame, from an offset), each checked on screen:
 * through the mapping, or with write().
 */
static void draw_and_check(struct fbdev *f, uint32_t seed, uint32_t seed2,
			   int y0, int y1, bool with_write)
{
	uint32_t a = pattern_crc(seed);
	uint32_t b = pattern_crc2(seed, seed2, y0, y1);

	igt_assert_neq_u32(a, b);
	fbdev_draw(f, seed, with_write);
	assert_screen(DEV, a);
	fbdev_draw_rows(f, seed2, y0, y1, with_write);
	assert_screen(DEV, b);
}

static int open_fb_of(const char *name)
{
	int n = fb_of_device(vfq_cfs_read_int(name, "device_id"));

	igt_assert_f(n >= 0, "no /dev/fbN for %s\n", name);
	return n;
}

igt_main
{
	igt_fixture {
		igt_require_f(vfq_cfs_available(), "no vflipq configfs\n");
		vfq_cfs_cleanup();
		igt_install_exit_handler(cleanup_handler);
	}

	igt_describe("Without fbdev emulation in the kernel, a device that "
		     "asks for it is refused with EOPNOTSUPP; with it, only "
		     "devices that ask get a /dev/fbN");
	igt_subtest("node-per-device") {
		int card, id;

		igt_assert_eq(vfq_cfs_mkdir(DEV), 0);
		igt_assert(vfq_cfs_write(DEV, "modes", "640x480@60") >= 0);
		igt_assert_eq(vfq_cfs_read_int(DEV, "fbdev"), 0);
		igt_assert(vfq_cfs_write(DEV, "fbdev", "1") >= 0);
		igt_assert_eq(vfq_cfs_read_int(DEV, "fbdev"), 1);
		if (!kernel_has_fbdev()) {
			igt_assert_eq(vfq_cfs_write(DEV, "enabled", "1"),
				      -EOPNOTSUPP);
			igt_assert_eq(vfq_cfs_read_int(DEV, "card"), -1);
		} else {
			card = vfq_cfs_enable(DEV);
			id = vfq_cfs_read_int(DEV, "device_id");
			igt_assert_lte(0, fb_of_device(id));
			igt_assert_eq(vfq_cfs_write(DEV, "fbdev", "0"), -EBUSY);
			vfq_check_debugfs_config(card, "fbdev=1\n"
						 "mode=640x480@60 preferred");
			igt_assert_eq(vfq_cfs_write(DEV, "enabled", "0"), 1);
			igt_assert_eq(fb_of_device(id), -1);

			/* the same device without: no node */
			igt_assert(vfq_cfs_write(DEV, "fbdev", "0") >= 0);
			card = vfq_cfs_enable(DEV);
			id = vfq_cfs_read_int(DEV, "device_id");
			igt_assert_eq(fb_of_device(id), -1);
			vfq_check_debugfs_config(card, "fbdev=0\n"
						 "mode=640x480@60 preferred");
			/* nor on the module-parameter device (fbdev=0) */
			igt_assert_eq(fb_of_device(0), -1);
		}
		igt_assert_eq(vfq_cfs_rmdir(DEV), 0);

		/* a render-only device has nothing to show it on */
		igt_assert_eq(vfq_cfs_mkdir(DEV), 0);
		igt_assert(vfq_cfs_write(DEV, "crtcs", "0") >= 0);
		igt_assert(vfq_cfs_write(DEV, "fbdev", "1") >= 0);
		igt_assert_eq(vfq_cfs_write(DEV, "enabled", "1"), -EINVAL);
		igt_assert_eq(vfq_cfs_rmdir(DEV), 0);
	}

	igt_subtest_group {
		struct fbdev f;

		igt_fixture {
			igt_require_f(kernel_has_fbdev(),
				      "no fbdev emulation in this kernel\n");
			create_device(DEV, "1");
			vt_graphics();
			fbdev_open(&f, open_fb_of(DEV));
		}

		igt_describe("The screen info is the preferred mode in XRGB8888");
		igt_subtest("screeninfo") {
			igt_assert_eq_u32(f.var.xres, W);
			igt_assert_eq_u32(f.var.yres, H);
			igt_assert_eq_u32(f.var.bits_per_pixel, 32);
			igt_assert_eq_u32(f.var.red.offset, 16);
			igt_assert_eq_u32(f.var.green.offset, 8);
			igt_assert_eq_u32(f.var.blue.offset, 0);
			igt_assert_eq_u32(f.var.red.length, 8);
			igt_assert_eq_u32(f.var.green.length, 8);
			igt_assert_eq_u32(f.var.blue.length, 8);
			igt_assert_lte(W * 4, (int)f.fix.line_length);
			igt_assert_lte((int)f.fix.line_length * H,
				       (int)f.fix.smem_len);
		}

		igt_describe("What is drawn into the fbdev's mapping is what "
			     "the CRTC shows (CRC against the reference)");
		igt_subtest("mmap-reaches-screen")
			draw_and_check(&f, 1, 2, 7, 250, false);

		igt_describe("What is written to the fbdev with write() is what "
			     "the CRTC shows");
		igt_subtest("write-reaches-screen")
			draw_and_check(&f, 4, 5, 100, 321, true);

		igt_describe("When the last DRM master closes, the fbdev's "
			     "picture is back on screen");
		igt_subtest("restore-after-master") {
			static struct vfq_color rows[H];
			struct vfq_color c = vfq_rgba8(0x12, 0x34, 0x56, 255);
			struct vfq_dev dev;
			drmModeModeInfo mode;
			struct vfq_fb fb;
			int fd;

			fbdev_draw(&f, 3, false);
			assert_screen(DEV, pattern_crc(3));

			/* the first opener of a device without master is one */
			fd = vfq_open_card(vfq_cfs_read_int(DEV, "card"));
			igt_assert_fd(fd);
			vfq_dev_init(&dev, fd);
			vfq_get_mode(fd, dev.pipe[0].conn_id, W, H, 60, &mode);
			vfq_fb_create(fd, W, H, DRM_FORMAT_XRGB8888, &fb);
			vfq_fb_fill(&fb, c);
			vfq_pipe_on(&dev, 0, &mode, fb.fb_id);
			for (int y = 0; y < H; y++)
				rows[y] = c;
			assert_screen(DEV, vfq_frame_crc_rows(rows, W, H, 8));
			vfq_fb_destroy(&fb);
			vfq_dev_fini(&dev);

			assert_screen(DEV, pattern_crc(3));
		}

		igt_fixture {
			fbdev_close(&f);
			vt_text();
			igt_assert_eq(vfq_cfs_rmdir(DEV), 0);
		}
	}

	igt_describe("The device goes away while its fbdev is open and mapped: "
		     "no kernel splat, the mapping stays usable, close works");
	igt_subtest("unplug-while-open") {
		struct fbdev f;
		int id;

		igt_require_f(kernel_has_fbdev(),
			      "no fbdev emulation in this kernel\n");
		create_device(DEV, "1");
		vt_graphics();
		id = vfq_cfs_read_int(DEV, "device_id");
		fbdev_open(&f, open_fb_of(DEV));
		fbdev_draw(&f, 6, false);

		vfq_kmsg_open(&kmsg);
		igt_assert_eq(vfq_cfs_write(DEV, "enabled", "0"), 1);
		igt_assert_eq(fb_of_device(id), -1);
		fbdev_draw(&f, 7, false);
		fbdev_close(&f);
		vt_text();
		igt_assert_eq(vfq_kmsg_splats(&kmsg), 0);
		vfq_kmsg_close(&kmsg);

		/* and comes back with a node of its own */
		vfq_cfs_enable(DEV);
		igt_assert_lte(0, open_fb_of(DEV));
		igt_assert_eq(vfq_cfs_rmdir(DEV), 0);
	}
}
