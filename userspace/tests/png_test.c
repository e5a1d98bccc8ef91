// SPDX-License-Identifier: MIT
/*
 * png_write() against libpng's own decoder: every image read back must hold
 * exactly the pixels written (padded strides, RGB and RGBA, rows longer
 * than zlib's window), a smooth 640x480 frame must come out compressed,
 * and bad arguments must be refused with EINVAL.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libpng16/png.h>

#include "../libpresent/tests/test.h"
#include "../tools/png.h"

typedef uint8_t (*pixel_fn)(uint32_t x, uint32_t y, uint32_t c);

static uint8_t pattern(uint32_t x, uint32_t y, uint32_t c)
{
	return (uint8_t)(x * (c + 1) * 37 + y * (c + 3) * 11 + c * 71 + x * y);
}

/* A frame like a capture: two ramps, a flat channel and a white bar. */
static uint8_t smooth(uint32_t x, uint32_t y, uint32_t c)
{
	if (x >= 200 && x < 232)
		return 255;
	return (uint8_t)(c == 0 ? x * 255 / 640 : c == 1 ? y * 255 / 480 : 96);
}

static uint8_t *make(uint32_t w, uint32_t h, uint32_t ch, size_t stride, pixel_fn fn)
{
	uint8_t *px = malloc(stride * h);

	if (!px)
		return NULL;
	/* The padding must not leak into the image. */
	memset(px, 0xee, stride * h);
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++)
			for (uint32_t c = 0; c < ch; c++)
				px[y * stride + x * ch + c] = fn(x, y, c);
	return px;
}

/* Decode @path with libpng; 0 when it holds exactly @w x @h x @ch of @fn. */
static int decode_equal(const char *path, uint32_t w, uint32_t h, uint32_t ch, pixel_fn fn)
{
	png_image img = { .version = PNG_IMAGE_VERSION };
	uint8_t *got;
	int bad = 0;

	if (!png_image_begin_read_from_file(&img, path)) {
		fprintf(stderr, "%s: %s\n", path, img.message);
		return -1;
	}
	/* The file's own colour type, before any conversion. */
	if (img.width != w || img.height != h ||
	    img.format != (ch == 4 ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB)) {
		fprintf(stderr, "%s: %ux%u format %#x\n", path, img.width, img.height,
			img.format);
		png_image_free(&img);
		return -1;
	}
	got = malloc(PNG_IMAGE_SIZE(img));
	if (!got || !png_image_finish_read(&img, NULL, got, 0, NULL)) {
		fprintf(stderr, "%s: %s\n", path, got ? img.message : "no memory");
		free(got);
		png_image_free(&img);
		return -1;
	}
	for (uint32_t y = 0; y < h && !bad; y++)
		for (uint32_t x = 0; x < w && !bad; x++)
			for (uint32_t c = 0; c < ch; c++)
				if (got[((size_t)y * w + x) * ch + c] != fn(x, y, c)) {
					fprintf(stderr, "%s: pixel (%u,%u) differs\n", path, x, y);
					bad = 1;
					break;
				}
	free(got);
	return bad ? -1 : 0;
}

static void roundtrip(const char *dir, uint32_t w, uint32_t h, uint32_t ch)
{
	size_t stride = (size_t)w * ch + 7;
	uint8_t *px = make(w, h, ch, stride, pattern);
	char path[512];

	snprintf(path, sizeof(path), "%s/%ux%u-%u.png", dir, w, h, ch);
	CHECK(px && png_write(path, w, h, ch, px, stride) == 0, "png_write %s: %s", path,
	      strerror(errno));
	CHECK(decode_equal(path, w, h, ch, pattern) == 0, "%s does not decode to its pixels",
	      path);
	unlink(path);
	free(px);
}

static void compressed(const char *dir)
{
	const uint32_t w = 640, h = 480;
	uint8_t *px = make(w, h, 3, (size_t)w * 3, smooth);
	char path[512];
	struct stat st = { 0 };

	snprintf(path, sizeof(path), "%s/smooth.png", dir);
	CHECK(px && png_write(path, w, h, 3, px, (size_t)w * 3) == 0, "png_write %s", path);
	CHECK(decode_equal(path, w, h, 3, smooth) == 0, "%s does not decode", path);
	/*
	 * Raw, this frame is 921,600 bytes (the stored-block encoder this one
	 * replaced wrote 922 KB); rows of ramps, flat runs and a bar deflate
	 * far below 1/20 of that.
	 */
	CHECK(stat(path, &st) == 0 && st.st_size < (off_t)w * h * 3 / 20,
	      "%s: %lld bytes, not compressed", path, (long long)st.st_size);
	unlink(path);
	free(px);
}

static void refuses(const char *dir, uint32_t w, uint32_t h, uint32_t ch, size_t stride)
{
	uint8_t px[64] = { 0 };
	char path[512];

	snprintf(path, sizeof(path), "%s/invalid.png", dir);
	errno = 0;
	CHECK(png_write(path, w, h, ch, px, stride) == -1 && errno == EINVAL,
	      "png_write(%u, %u, %u, stride %zu) not refused", w, h, ch, stride);
	CHECK(access(path, F_OK) != 0, "%s created for a refused call", path);
}

int main(void)
{
	char dir[] = "/tmp/png-test.XXXXXX";
	char path[600];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	roundtrip(dir, 1, 1, 3);
	roundtrip(dir, 17, 9, 4);
	roundtrip(dir, 300, 250, 3);
	roundtrip(dir, 9000, 7, 4);	/* a row longer than zlib's 32 KiB window */
	compressed(dir);
	refuses(dir, 0, 1, 3, 3);
	refuses(dir, 1, 0, 3, 3);
	refuses(dir, 1, 1, 2, 3);
	refuses(dir, 4, 1, 3, 11);
	snprintf(path, sizeof(path), "%s/no-such-dir/x.png", dir);
	errno = 0;
	CHECK(png_write(path, 1, 1, 3, (const uint8_t *)"abc", 3) == -1 && errno == ENOENT,
	      "unwritable path: errno %d", errno);
	CHECK(rmdir(dir) == 0, "%s: files left behind", dir);
	return test_done("png");
}
