// SPDX-License-Identifier: MIT
/*
 * vflipq-scanout: what a CRTC shows while another program (a compositor,
 * kmscube, modetest) is the DRM master.  Reads the framebuffers of the
 * planes on the CRTC (GETFB2 hands out their GEM handles to root), composes
 * them as the driver does and writes a PNG.  With --crc it proves the
 * picture is what the driver scanned out: the CRC of the composed frame,
 * computed as the driver computes it, must be one of the CRCs the driver
 * reports in debugfs for the frames around the copy.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <drm_fourcc.h>

#include "kms.h"
#include "png.h"
#include "vflipq_hash.h"
#include "vflipq_pxref.h"

#define MAX_LAYERS 16
#define MAX_POINTS 16
#define CRC_TRIES 10
/* CRCs read per try: the frames around the copy (the composer may run late). */
#define CRC_WINDOW_MS 400

/* The driver's intermediate pixel (struct vflipq_px): 16 bits, a r g b. */
struct px {
	uint16_t a, r, g, b;
};

struct layer {
	uint32_t plane_id, fb_id, fourcc, pitch, zpos;
	int32_t x, y;		/* on the CRTC */
	uint32_t w, h;		/* on the CRTC = in the fb (no scaling) */
	uint32_t sx, sy;	/* source origin in the fb */
	uint16_t alpha;
	uint8_t *pix;		/* copy of the visible part's rows */
};

struct opts {
	int card, crtc;
	const char *out;
	bool crc, ids;
	bool have_bg;
	uint32_t bg;
	int n_points;
	int px[MAX_POINTS], py[MAX_POINTS];
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ull + ts.tv_nsec / 1000000;
}

static uint64_t prop(int fd, uint32_t plane, const char *name)
{
	uint64_t v = 0;

	kms_prop_get(fd, plane, DRM_MODE_OBJECT_PLANE, name, &v);
	return v;
}

/* The planes on @crtc_id, with copies of their pixels; -1 if unsupported. */
static int snapshot(int fd, uint32_t crtc_id, struct layer *l, int *n)
{
	drmModePlaneRes *pr = drmModeGetPlaneResources(fd);
	int ret = 0;

	*n = 0;
	if (!pr)
		return -1;
	for (uint32_t i = 0; i < pr->count_planes && !ret; i++) {
		uint32_t id = pr->planes[i];
		struct drm_mode_fb_cmd2 fb = { 0 };
		struct drm_mode_map_dumb map = { 0 };
		struct layer *y = &l[*n];
		uint8_t *m;
		size_t len;

		if (prop(fd, id, "CRTC_ID") != crtc_id || !prop(fd, id, "FB_ID"))
			continue;
		if (*n == MAX_LAYERS)
			return -1;
		memset(y, 0, sizeof(*y));
		y->plane_id = id;
		y->fb_id = prop(fd, id, "FB_ID");
		y->x = (int32_t)prop(fd, id, "CRTC_X");
		y->y = (int32_t)prop(fd, id, "CRTC_Y");
		y->w = prop(fd, id, "CRTC_W");
		y->h = prop(fd, id, "CRTC_H");
		y->sx = prop(fd, id, "SRC_X") >> 16;
		y->sy = prop(fd, id, "SRC_Y") >> 16;
		y->zpos = prop(fd, id, "zpos");
		y->alpha = kms_prop_get(fd, id, DRM_MODE_OBJECT_PLANE, "alpha",
					&(uint64_t){ 0 }) ? 0xffff :
			   prop(fd, id, "alpha");
		if (prop(fd, id, "SRC_W") >> 16 != y->w ||
		    prop(fd, id, "SRC_H") >> 16 != y->h) {
			fprintf(stderr, "scanout: plane %u is scaled\n", id);
			ret = -1;
			break;
		}
		fb.fb_id = y->fb_id;
		if (drmIoctl(fd, DRM_IOCTL_MODE_GETFB2, &fb) || !fb.handles[0]) {
			fprintf(stderr, "scanout: GETFB2 %u: %s\n", y->fb_id,
				fb.handles[0] ? strerror(errno) : "no handle (not root?)");
			ret = -1;
			break;
		}
		y->fourcc = fb.pixel_format;
		y->pitch = fb.pitches[0];
		if (y->fourcc != DRM_FORMAT_XRGB8888 &&
		    y->fourcc != DRM_FORMAT_ARGB8888) {
			fprintf(stderr, "scanout: plane %u: format %s not supported\n",
				id, kms_fourcc_str(y->fourcc));
			ret = -1;
		}
		map.handle = fb.handles[0];
		len = (size_t)fb.offsets[0] + (size_t)fb.pitches[0] * fb.height;
		if (!ret && drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map))
			ret = -1;
		m = ret ? MAP_FAILED : mmap(NULL, len, PROT_READ, MAP_SHARED,
					    fd, map.offset);
		if (m == MAP_FAILED) {
			fprintf(stderr, "scanout: cannot map fb %u\n", y->fb_id);
			ret = -1;
		} else {
			y->pix = malloc((size_t)y->pitch * y->h);
			if (y->pix)
				memcpy(y->pix, m + fb.offsets[0] +
				       (size_t)y->sy * y->pitch, (size_t)y->pitch * y->h);
			munmap(m, len);
			ret = y->pix ? 0 : -1;
		}
		for (int k = 0; k < 4; k++)
			if (fb.handles[k] && (k == 0 || fb.handles[k] != fb.handles[0]))
				drmCloseBufferHandle(fd, fb.handles[k]);
		if (!ret)
			(*n)++;
	}
	drmModeFreePlaneResources(pr);
	return ret;
}

static void free_layers(struct layer *l, int n)
{
	for (int i = 0; i < n; i++)
		free(l[i].pix);
}

static int cmp_zpos(const void *a, const void *b)
{
	const struct layer *x = a, *y = b;

	return x->zpos < y->zpos ? -1 : x->zpos > y->zpos;
}

/*
 * Compose as the driver does for opaque layers (black opaque background,
 * 8-bit channels widened by 257, the topmost layer wins); translucent ones
 * are blended pre-multiplied, close to but not bit-exact with the driver.
 * Returns whether the result is exact (every layer opaque).
 */
static bool compose(struct layer *l, int n, uint32_t w, uint32_t h,
		    struct px *out)
{
	bool exact = true;

	qsort(l, n, sizeof(*l), cmp_zpos);
	for (size_t i = 0; i < (size_t)w * h; i++)
		out[i] = (struct px){ .a = 0xffff };
	for (int i = 0; i < n; i++) {
		const struct layer *y = &l[i];

		for (uint32_t r = 0; r < y->h; r++) {
			int64_t cy = (int64_t)y->y + r;
			const uint32_t *row = (const uint32_t *)(y->pix + (size_t)r * y->pitch) + y->sx;

			if (cy < 0 || cy >= h)
				continue;
			for (uint32_t c = 0; c < y->w; c++) {
				int64_t cx = (int64_t)y->x + c;
				uint32_t v = row[c];
				unsigned int a8 = y->fourcc == DRM_FORMAT_ARGB8888 ? v >> 24 : 0xff;
				struct px *d = &out[cy * w + cx];
				uint32_t a = a8 * 257u * y->alpha / 0xffff;

				if (cx < 0 || cx >= w)
					continue;
				if (a == 0xffff) {
					*d = (struct px){ 0xffff, (v >> 16 & 0xff) * 257,
							  (v >> 8 & 0xff) * 257, (v & 0xff) * 257 };
					continue;
				}
				exact = false;
				d->r = ((v >> 16 & 0xff) * 257u * y->alpha / 0xffff) + d->r * (0xffff - a) / 0xffff;
				d->g = ((v >> 8 & 0xff) * 257u * y->alpha / 0xffff) + d->g * (0xffff - a) / 0xffff;
				d->b = ((v & 0xff) * 257u * y->alpha / 0xffff) + d->b * (0xffff - a) / 0xffff;
			}
		}
	}
	return exact;
}

/*
 * The CRC of the composed frame at output depth @bpc (driver.rst "CRC"):
 * the folded frame hash of its pixels' bytes (common/vflipq_hash.h).
 */
static uint32_t frame_crc(const struct px *f, uint32_t w, uint32_t h,
			  unsigned int bpc)
{
	uint64_t hash = 0;

	for (size_t i = 0; i < (size_t)w * h; i++) {
		const uint16_t c[4] = { f[i].a, f[i].r, f[i].g, f[i].b };
		uint8_t b[8];

		hash = vfq_hash_words(hash, b, pxref_crc_bytes(c, bpc, b) / 4);
	}
	return vfq_hash_fold(vfq_hash_final(hash));
}

/*
 * The CRTC's output depth, from its "vflipq.bpc" in debugfs "state"; 16,
 * the composer's depth, from a driver that does not print it.
 */
static unsigned int crtc_bpc(int card, uint32_t crtc_id)
{
	static char buf[1 << 16];
	char path[128], head[32];
	unsigned int bpc = 16;
	const char *p, *end;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/dri/%d/state", card);
	f = fopen(path, "r");
	if (!f)
		return bpc;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	snprintf(head, sizeof(head), "crtc[%u]:", crtc_id);
	p = strstr(buf, head);
	if (!p)
		return bpc;
	for (end = strchr(p, '\n'); end && end[1] == '\t';)
		end = strchr(end + 1, '\n');
	p = strstr(p, "vflipq.bpc=");
	if (p && (!end || p < end))
		bpc = strtoul(p + strlen("vflipq.bpc="), NULL, 10);
	return bpc >= 6 && bpc <= 16 ? bpc : 16;
}

static int crc_open(int card, int crtc)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "/sys/kernel/debug/dri/%d/crtc-%d/crc/control",
		 card, crtc);
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, "auto", 4) != 4) {
		fprintf(stderr, "scanout: %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	snprintf(path, sizeof(path), "/sys/kernel/debug/dri/%d/crtc-%d/crc/data",
		 card, crtc);
	fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		fprintf(stderr, "scanout: %s: %s\n", path, strerror(errno));
	return fd;
}

/* Reads CRC lines for @ms; 1 and *frame if @want is among them. */
static int crc_find(int fd, int ms, uint32_t want, unsigned int *frame,
		    int *seen)
{
	uint64_t end = now_ms() + ms;
	char line[64];
	int found = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int64_t left = (int64_t)(end - now_ms());
		unsigned int f, c;
		ssize_t len;

		if (left <= 0 || poll(&p, 1, (int)left) <= 0)
			break;
		/* One "0xFFFFFFFF 0xCCCCCCCC\n" line per read. */
		len = read(fd, line, sizeof(line) - 1);
		if (len <= 0)
			continue;
		line[len] = 0;
		if (sscanf(line, "%x %x", &f, &c) != 2)
			continue;
		(*seen)++;
		if (c == want && !found) {
			*frame = f;
			found = 1;
		}
	}
	return found;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		KMS_OPTS_CARD_CRTC,
		{ "out", required_argument, NULL, 'o' },
		{ "crc", no_argument, NULL, 'k' },
		{ "bg", required_argument, NULL, 'b' },
		{ "pixel", required_argument, NULL, 'p' },
		{ "ids", no_argument, NULL, 'i' },
		{ 0 }
	};
	int c;

	*o = (struct opts){ .card = -1 };
	while ((c = kms_getopt(argc, argv, "", lo, &o->card, &o->crtc)) != -1) {
		switch (c) {
		case 'o':
			o->out = optarg;
			break;
		case 'k':
			o->crc = true;
			break;
		case 'i':
			o->ids = true;
			break;
		case 'b':
			o->have_bg = true;
			o->bg = strtoul(optarg, NULL, 16);
			break;
		case 'p':
			if (o->n_points == MAX_POINTS ||
			    sscanf(optarg, "%d,%d", &o->px[o->n_points],
				   &o->py[o->n_points]) != 2)
				return -1;
			o->n_points++;
			break;
		default:
			return -1;
		}
	}
	return optind == argc ? 0 : -1;
}

static uint32_t rgb8(const struct px *p)
{
	return (p->r >> 8) << 16 | (p->g >> 8) << 8 | p->b >> 8;
}

/* Lines for the caller's assertions: bounding box of non-background, points. */
static void report(const struct opts *o, const struct px *f, uint32_t w,
		   uint32_t h)
{
	if (o->have_bg) {
		uint32_t x0 = w, y0 = h, x1 = 0, y1 = 0;
		uint64_t count = 0;

		for (uint32_t y = 0; y < h; y++)
			for (uint32_t x = 0; x < w; x++) {
				if (rgb8(&f[(size_t)y * w + x]) == o->bg)
					continue;
				count++;
				x0 = x < x0 ? x : x0;
				y0 = y < y0 ? y : y0;
				x1 = x > x1 ? x : x1;
				y1 = y > y1 ? y : y1;
			}
		if (!count)
			x0 = y0 = 0;
		printf("scanout: not-bg %06x: count %llu bbox %u %u %u %u\n",
		       o->bg, (unsigned long long)count, x0, y0,
		       count ? x1 + 1 : 0, count ? y1 + 1 : 0);
	}
	for (int i = 0; i < o->n_points; i++) {
		if (o->px[i] < 0 || o->py[i] < 0 || (uint32_t)o->px[i] >= w ||
		    (uint32_t)o->py[i] >= h)
			printf("scanout: pixel %d,%d outside\n", o->px[i], o->py[i]);
		else
			printf("scanout: pixel %d,%d %06x\n", o->px[i], o->py[i],
			       rgb8(&f[(size_t)o->py[i] * w + o->px[i]]));
	}
}

static int write_png(const char *path, const struct px *f, uint32_t w,
		     uint32_t h)
{
	uint8_t *rgb = malloc((size_t)w * h * 3);
	int ret;

	if (!rgb)
		return -1;
	for (size_t i = 0; i < (size_t)w * h; i++) {
		rgb[i * 3] = f[i].r >> 8;
		rgb[i * 3 + 1] = f[i].g >> 8;
		rgb[i * 3 + 2] = f[i].b >> 8;
	}
	ret = png_write(path, w, h, 3, rgb, (size_t)w * 3);
	free(rgb);
	return ret;
}

/* The object ids a shell script needs to drive modetest and proptest. */
static void print_ids(int fd, const drmModeRes *res)
{
	static const char *const types[] = { "overlay", "primary", "cursor" };
	drmModePlaneRes *pr = drmModeGetPlaneResources(fd);

	for (int i = 0; i < res->count_crtcs; i++)
		printf("crtc %d %u\n", i, res->crtcs[i]);
	for (int i = 0; i < res->count_connectors; i++) {
		drmModeConnector *c = drmModeGetConnectorCurrent(fd, res->connectors[i]);

		if (!c)
			continue;
		printf("connector %u %s-%u %s\n", c->connector_id,
		       drmModeGetConnectorTypeName(c->connector_type),
		       c->connector_type_id,
		       c->connection == DRM_MODE_CONNECTED ? "connected" :
		       c->connection == DRM_MODE_DISCONNECTED ? "disconnected" :
							       "unknown");
		drmModeFreeConnector(c);
	}
	for (uint32_t i = 0; pr && i < pr->count_planes; i++) {
		drmModePlane *p = drmModeGetPlane(fd, pr->planes[i]);
		int t = kms_plane_type(fd, pr->planes[i]);

		if (!p)
			continue;
		printf("plane %u %s %#x\n", p->plane_id,
		       t >= 0 && t < 3 ? types[t] : "?", p->possible_crtcs);
		drmModeFreePlane(p);
	}
	drmModeFreePlaneResources(pr);
}

static bool same_fbs(int fd, const struct layer *l, int n)
{
	for (int i = 0; i < n; i++)
		if (prop(fd, l[i].plane_id, "FB_ID") != l[i].fb_id)
			return false;
	return true;
}

int main(int argc, char **argv)
{
	struct layer layers[MAX_LAYERS];
	int fd, card, crc_fd = -1, n = 0, ret = 1, seen = 0;
	struct opts o;
	drmModeRes *res;
	drmModeCrtc *crtc = NULL;
	struct px *frame = NULL;
	unsigned int match_frame = 0;
	bool exact = false, matched = false;
	uint32_t crc = 0;

	if (parse_args(argc, argv, &o)) {
		fprintf(stderr, "usage: vflipq-scanout [--card N] [--crtc I] [--out PNG] "
			"[--crc] [--bg RRGGBB] [--pixel X,Y]... | --ids\n");
		return 1;
	}
	fd = kms_open_tool(o.card, KMS_OPEN_NOT_MASTER, &card, &res);
	if (fd < 0)
		return 1;
	if (o.ids) {
		printf("card %d\n", card);
		print_ids(fd, res);
		ret = 0;
		goto out;
	}
	if (o.crtc < res->count_crtcs)
		crtc = drmModeGetCrtc(fd, res->crtcs[o.crtc]);
	if (!crtc || !crtc->mode_valid) {
		fprintf(stderr, "scanout: CRTC %d is not on\n", o.crtc);
		goto out;
	}
	frame = calloc((size_t)crtc->mode.hdisplay * crtc->mode.vdisplay,
		       sizeof(*frame));
	if (!frame)
		goto out;
	if (o.crc) {
		crc_fd = crc_open(card, o.crtc);
		if (crc_fd < 0)
			goto out;
		/* The first frames after opening may predate the copy. */
		crc_find(crc_fd, 100, 0, &match_frame, &seen);
	}
	for (int t = 0; t < (o.crc ? CRC_TRIES : 1) && !matched; t++) {
		bool stable;

		free_layers(layers, n);
		if (snapshot(fd, crtc->crtc_id, layers, &n))
			goto out;
		stable = same_fbs(fd, layers, n);
		exact = compose(layers, n, crtc->mode.hdisplay,
				crtc->mode.vdisplay, frame);
		crc = frame_crc(frame, crtc->mode.hdisplay, crtc->mode.vdisplay,
				crtc_bpc(card, crtc->crtc_id));
		if (!o.crc)
			break;
		if (!exact) {
			fprintf(stderr, "scanout: translucent layers, CRC not comparable\n");
			break;
		}
		/*
		 * A matching CRC proves the copy is a frame the driver
		 * composed, even if the client flipped during the copy
		 * (modetest -v flips every vblank).
		 */
		matched = crc_find(crc_fd, CRC_WINDOW_MS, crc, &match_frame,
				   &seen);
		if (!matched && stable)
			fprintf(stderr, "scanout: try %d: crc %08x not seen\n",
				t, crc);
	}
	printf("scanout: crtc %d %ux%u, %d plane(s):", o.crtc,
	       crtc->mode.hdisplay, crtc->mode.vdisplay, n);
	for (int i = 0; i < n; i++)
		printf(" [plane %u fb %u %s %ux%u+%d+%d]", layers[i].plane_id,
		       layers[i].fb_id, kms_fourcc_str(layers[i].fourcc),
		       layers[i].w, layers[i].h, layers[i].x, layers[i].y);
	/* The vblank period as the DRM core computes it (framedur_ns). */
	printf("\nscanout: period_ns %llu\n",
	       1000000ull * crtc->mode.htotal * crtc->mode.vtotal /
	       crtc->mode.clock);
	printf("scanout: frame crc %08x", crc);
	if (o.crc && matched)
		printf(" = driver's frame %u (%d CRCs read)\n", match_frame, seen);
	else if (o.crc)
		printf(" not among the driver's %d CRCs\n", seen);
	else
		printf("\n");
	report(&o, frame, crtc->mode.hdisplay, crtc->mode.vdisplay);
	if (o.out && write_png(o.out, frame, crtc->mode.hdisplay,
			       crtc->mode.vdisplay)) {
		fprintf(stderr, "scanout: %s: %s\n", o.out, strerror(errno));
		goto out;
	}
	ret = o.crc && !matched ? 2 : 0;
out:
	free_layers(layers, n);
	free(frame);
	if (crc_fd >= 0)
		close(crc_fd);
	drmModeFreeCrtc(crtc);
	drmModeFreeResources(res);
	close(fd);
	return ret;
}
