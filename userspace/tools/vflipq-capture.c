// SPDX-License-Identifier: MIT
/*
 * vflipq-capture: light up one CRTC of a vflipq card with a demo scene
 * (primary + translucent overlay + cursor), capture one frame through the
 * CRTC's writeback connector and save it as a PNG.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/sync_file.h>
#include <drm_fourcc.h>

#include "vflipq_drm.h"
#include "compose.h"
#include "kms.h"
#include "pixfmt.h"
#include "png.h"
#include "scene.h"

#define FENCE_TIMEOUT_MS 5000
#define PLANE_ALPHA 0xbfff	/* ~0.75 */
#define CURSOR_SIZE 64

static const char *const blend_names[] = {
	[BLEND_NONE] = "None",
	[BLEND_PREMULTI] = "Pre-multiplied",
	[BLEND_COVERAGE] = "Coverage",
};

struct opts {
	int card, crtc;
	uint32_t w, h, refresh;
	const char *out;
	uint32_t wb_fourcc;
	enum compose_blend blend;
	bool verify, wb_only;
};

struct layer {
	const char *role;
	uint32_t plane_id;
	struct kms_dumb fb;
	int32_t x, y;
	uint16_t alpha;
	enum compose_blend blend;
};

struct ctx {
	int fd, card;
	drmModeRes *res;
	int crtc_idx;
	uint32_t crtc_id, conn_id, wb_conn_id;
	char conn_name[32], wb_name[32];
	drmModeModeInfo mode;
	uint32_t mode_blob;
	struct layer primary, overlay, cursor;
	uint32_t unused_planes[32];
	int n_unused;
	struct kms_dumb wb;
	bool lit;	/* the scene commit went through */
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: vflipq-capture [options]\n"
		"  --card N        use /dev/dri/cardN (default: first vflipq card)\n"
		"  --crtc I        CRTC index (default 0)\n"
		"  --mode WxH@R    mode (default 640x480@60)\n"
		"  --out PATH      PNG to write (default ./writeback.png)\n"
		"  --format FMT    writeback format: %s (default xrgb8888)\n"
		"  --blend MODE    overlay blend: premulti, coverage, none\n"
		"  --verify        exit 1 if the capture differs from the software reference\n"
		"  --wb-only       drive the CRTC with the writeback connector alone\n",
		pixfmt_names());
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		KMS_OPTS_CARD_CRTC,
		{ "mode", required_argument, NULL, 'm' },
		{ "out", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "blend", required_argument, NULL, 'b' },
		{ "verify", no_argument, NULL, 'v' },
		{ "wb-only", no_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c;

	*o = (struct opts){ .card = -1, .w = 640, .h = 480, .refresh = 60,
			    .out = "writeback.png",
			    .wb_fourcc = DRM_FORMAT_XRGB8888,
			    .blend = BLEND_PREMULTI };
	while ((c = kms_getopt(argc, argv, "h", lo, &o->card, &o->crtc)) != -1) {
		switch (c) {
		case 'm':
			if (sscanf(optarg, "%ux%u@%u%c", &o->w, &o->h,
				   &o->refresh, &(char){ 0 }) != 3) {
				fprintf(stderr, "bad mode \"%s\", want WxH@R\n",
					optarg);
				return -1;
			}
			break;
		case 'o':
			o->out = optarg;
			break;
		case 'f':
			if (pixfmt_from_name(optarg, &o->wb_fourcc)) {
				fprintf(stderr, "unknown format \"%s\" (%s)\n",
					optarg, pixfmt_names());
				return -1;
			}
			break;
		case 'b':
			if (!strcmp(optarg, "premulti"))
				o->blend = BLEND_PREMULTI;
			else if (!strcmp(optarg, "coverage"))
				o->blend = BLEND_COVERAGE;
			else if (!strcmp(optarg, "none"))
				o->blend = BLEND_NONE;
			else {
				fprintf(stderr, "unknown blend \"%s\"\n", optarg);
				return -1;
			}
			break;
		case 'v':
			o->verify = true;
			break;
		case 'w':
			o->wb_only = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return -1;
	}
	return 0;
}

static bool connector_drives(int fd, drmModeConnector *conn, int crtc_idx)
{
	for (int i = 0; i < conn->count_encoders; i++) {
		drmModeEncoder *enc = drmModeGetEncoder(fd, conn->encoders[i]);
		bool ok = enc && (enc->possible_crtcs & (1u << crtc_idx));

		drmModeFreeEncoder(enc);
		if (ok)
			return true;
	}
	return false;
}

static int pick_mode(struct ctx *c, const drmModeConnector *conn,
		     const struct opts *o)
{
	for (int m = 0; m < conn->count_modes; m++) {
		const drmModeModeInfo *mi = &conn->modes[m];

		if (mi->hdisplay == o->w && mi->vdisplay == o->h &&
		    mi->vrefresh == o->refresh) {
			c->mode = *mi;
			return 0;
		}
	}
	fprintf(stderr, "%s has no mode %ux%u@%u; it has:", c->conn_name, o->w,
		o->h, o->refresh);
	for (int m = 0; m < conn->count_modes; m++)
		fprintf(stderr, " %s@%u", conn->modes[m].name,
			conn->modes[m].vrefresh);
	fprintf(stderr, "\n");
	return -1;
}

/*
 * The display connector CRTC I drives by default: a display connector may
 * be driven by several CRTCs (every one on vflipq), so the I-th display
 * connector when CRTC I can drive it (the driver's pairing), else the first
 * one CRTC I can drive.  -1: none.
 */
static int display_connector(struct ctx *c)
{
	int first = -1, k = 0;

	for (int i = 0; i < c->res->count_connectors; i++) {
		drmModeConnector *conn =
			drmModeGetConnector(c->fd, c->res->connectors[i]);
		bool disp = conn &&
			    conn->connector_type != DRM_MODE_CONNECTOR_WRITEBACK;
		bool ok = disp && connector_drives(c->fd, conn, c->crtc_idx);

		drmModeFreeConnector(conn);
		if (ok && k == c->crtc_idx)
			return i;
		if (ok && first < 0)
			first = i;
		k += disp;
	}
	return first;
}

/* The CRTC's display connector (takes the mode) and writeback connector. */
static int find_connectors(struct ctx *c, const struct opts *o)
{
	int disp = display_connector(c);
	int ret = 0;

	for (int i = 0; i < c->res->count_connectors && !ret; i++) {
		drmModeConnector *conn =
			drmModeGetConnector(c->fd, c->res->connectors[i]);
		bool wb = conn &&
			  conn->connector_type == DRM_MODE_CONNECTOR_WRITEBACK;
		uint32_t *id = wb ? &c->wb_conn_id : &c->conn_id;
		char *name = wb ? c->wb_name : c->conn_name;
		const char *type;

		if (!conn || *id || (!wb && i != disp) ||
		    !connector_drives(c->fd, conn, c->crtc_idx)) {
			drmModeFreeConnector(conn);
			continue;
		}
		type = drmModeGetConnectorTypeName(conn->connector_type);
		snprintf(name, sizeof(c->conn_name), "%s-%u", type ? type : "?",
			 conn->connector_type_id);
		*id = conn->connector_id;
		if (!wb)
			ret = pick_mode(c, conn, o);
		drmModeFreeConnector(conn);
	}
	if (ret)
		return -1;
	if (!c->conn_id) {
		fprintf(stderr, "no connector can be driven by CRTC %d\n",
			c->crtc_idx);
		return -1;
	}
	if (!c->wb_conn_id) {
		fprintf(stderr, "CRTC %d has no writeback connector (driver loaded with writeback=0?)\n",
			c->crtc_idx);
		return -1;
	}
	return 0;
}

/* First primary, first overlay, first cursor plane of the CRTC. */
static int find_planes(struct ctx *c)
{
	drmModePlaneRes *pr = drmModeGetPlaneResources(c->fd);
	int ret = 0;

	if (!pr) {
		fprintf(stderr, "GETPLANERESOURCES: %s\n", strerror(errno));
		return -1;
	}
	for (uint32_t i = 0; i < pr->count_planes; i++) {
		drmModePlane *p = drmModeGetPlane(c->fd, pr->planes[i]);
		struct layer *l = NULL;
		uint32_t want;

		if (!p)
			continue;
		if (!(p->possible_crtcs & (1u << c->crtc_idx))) {
			drmModeFreePlane(p);
			continue;
		}
		switch (kms_plane_type(c->fd, p->plane_id)) {
		case DRM_PLANE_TYPE_PRIMARY:
			l = &c->primary;
			break;
		case DRM_PLANE_TYPE_OVERLAY:
			l = &c->overlay;
			break;
		case DRM_PLANE_TYPE_CURSOR:
			l = &c->cursor;
			break;
		}
		want = l == &c->primary ? DRM_FORMAT_XRGB8888 : DRM_FORMAT_ARGB8888;
		if (l && !l->plane_id && kms_plane_has_format(p, want))
			l->plane_id = p->plane_id;
		else if (c->n_unused < (int)(sizeof(c->unused_planes) /
					     sizeof(c->unused_planes[0])))
			c->unused_planes[c->n_unused++] = p->plane_id;
		drmModeFreePlane(p);
	}
	drmModeFreePlaneResources(pr);
	if (!c->primary.plane_id) {
		fprintf(stderr, "CRTC %d has no XRGB8888 primary plane\n",
			c->crtc_idx);
		ret = -1;
	}
	return ret;
}

static int build_scene(struct ctx *c, const struct opts *o)
{
	uint32_t w = c->mode.hdisplay, h = c->mode.vdisplay;
	uint64_t cap;

	c->primary.role = "primary";
	if (kms_dumb_create(c->fd, w, h, DRM_FORMAT_XRGB8888, &c->primary.fb))
		return -1;
	scene_primary(c->primary.fb.map, c->primary.fb.pitch, w, h);
	c->primary.alpha = 0xffff;
	c->primary.blend = BLEND_PREMULTI;

	if (c->overlay.plane_id) {
		/* Straddles the bars/ramps boundary so both show through. */
		uint32_t s = (w < h ? w : h) / 2;

		c->overlay.role = "overlay";
		if (kms_dumb_create(c->fd, s, s, DRM_FORMAT_ARGB8888,
				    &c->overlay.fb))
			return -1;
		scene_disc(c->overlay.fb.map, c->overlay.fb.pitch, s,
			   o->blend != BLEND_COVERAGE);
		c->overlay.x = (int32_t)(w - s) / 2;
		c->overlay.y = (int32_t)(h * 2 / 3) - (int32_t)s / 2;
		c->overlay.alpha = PLANE_ALPHA;
		c->overlay.blend = o->blend;
	}
	if (c->cursor.plane_id) {
		uint32_t s = CURSOR_SIZE;

		if (!drmGetCap(c->fd, DRM_CAP_CURSOR_WIDTH, &cap) && cap < s)
			s = (uint32_t)cap;
		c->cursor.role = "cursor";
		if (kms_dumb_create(c->fd, s, s, DRM_FORMAT_ARGB8888,
				    &c->cursor.fb))
			return -1;
		scene_cursor(c->cursor.fb.map, c->cursor.fb.pitch, s);
		/* Tip on the disc's upper-right edge: three layers stack. */
		c->cursor.x = (int32_t)(w * 5 / 8);
		c->cursor.y = (int32_t)(h * 2 / 3) - (int32_t)(w < h ? w : h) / 6;
		c->cursor.alpha = 0xffff;
		c->cursor.blend = BLEND_PREMULTI;
	}
	return 0;
}

static int add_plane(drmModeAtomicReq *req, struct ctx *c, struct layer *l)
{
	uint32_t id = l->plane_id, T = DRM_MODE_OBJECT_PLANE;
	uint64_t v;
	int r = 0;

	r |= kms_set(req, c->fd, id, T, "FB_ID", l->fb.fb_id, false);
	r |= kms_set(req, c->fd, id, T, "CRTC_ID", c->crtc_id, false);
	r |= kms_set(req, c->fd, id, T, "SRC_X", 0, false);
	r |= kms_set(req, c->fd, id, T, "SRC_Y", 0, false);
	r |= kms_set(req, c->fd, id, T, "SRC_W", (uint64_t)l->fb.width << 16, false);
	r |= kms_set(req, c->fd, id, T, "SRC_H", (uint64_t)l->fb.height << 16, false);
	r |= kms_set(req, c->fd, id, T, "CRTC_X", (uint64_t)(int64_t)l->x, false);
	r |= kms_set(req, c->fd, id, T, "CRTC_Y", (uint64_t)(int64_t)l->y, false);
	r |= kms_set(req, c->fd, id, T, "CRTC_W", l->fb.width, false);
	r |= kms_set(req, c->fd, id, T, "CRTC_H", l->fb.height, false);
	/* Atomic state outlives its client: reset what an earlier one set. */
	if (!kms_prop_enum(c->fd, id, T, "rotation", "rotate-0", &v))
		r |= kms_set(req, c->fd, id, T, "rotation", 1ull << v, true);
	/* Lets the tool run on drivers without blending (vkms) for comparison. */
	if (!kms_prop(c->fd, id, T, "alpha", NULL) && l->alpha != 0xffff) {
		fprintf(stderr, "note: %s plane %u has no alpha property, drawing it opaque\n",
			l->role, id);
		l->alpha = 0xffff;
	}
	r |= kms_set(req, c->fd, id, T, "alpha", l->alpha, l->alpha == 0xffff);
	if (!kms_prop_enum(c->fd, id, T, "pixel blend mode",
			   blend_names[l->blend], &v))
		r |= kms_set(req, c->fd, id, T, "pixel blend mode", v, true);
	else if (l->blend != BLEND_PREMULTI) {
		fprintf(stderr, "%s plane %u cannot blend \"%s\"\n", l->role,
			id, blend_names[l->blend]);
		r = -1;
	}
	if (l == &c->overlay)
		r |= kms_set(req, c->fd, id, T, "zpos", 1, true);
	return r ? -1 : 0;
}

static int commit_scene(struct ctx *c, const struct opts *o)
{
	drmModeAtomicReq *req = drmModeAtomicAlloc();
	uint32_t C = DRM_MODE_OBJECT_CONNECTOR, P = DRM_MODE_OBJECT_PLANE;
	int r = 0;

	if (!req)
		return -1;
	if (drmModeCreatePropertyBlob(c->fd, &c->mode, sizeof(c->mode),
				      &c->mode_blob)) {
		fprintf(stderr, "mode blob: %s\n", strerror(errno));
		drmModeAtomicFree(req);
		return -1;
	}
	r |= kms_set(req, c->fd, c->crtc_id, DRM_MODE_OBJECT_CRTC, "MODE_ID",
		     c->mode_blob, false);
	r |= kms_set(req, c->fd, c->crtc_id, DRM_MODE_OBJECT_CRTC, "ACTIVE", 1,
		     false);
	r |= kms_set(req, c->fd, c->conn_id, C, "CRTC_ID",
		     o->wb_only ? 0 : c->crtc_id, false);
	/* Routed now so that queueing a job later needs no modeset. */
	r |= kms_set(req, c->fd, c->wb_conn_id, C, "CRTC_ID", c->crtc_id, false);
	r |= add_plane(req, c, &c->primary);
	if (c->overlay.plane_id)
		r |= add_plane(req, c, &c->overlay);
	if (c->cursor.plane_id)
		r |= add_plane(req, c, &c->cursor);
	for (int i = 0; i < c->n_unused; i++) {
		r |= kms_set(req, c->fd, c->unused_planes[i], P, "FB_ID", 0, false);
		r |= kms_set(req, c->fd, c->unused_planes[i], P, "CRTC_ID", 0, false);
	}
	if (!r && drmModeAtomicCommit(c->fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET,
				      NULL)) {
		fprintf(stderr, "scene commit (modeset): %s\n", strerror(errno));
		r = -1;
	}
	drmModeAtomicFree(req);
	c->lit = !r;
	return r ? -1 : 0;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int wb_supports(struct ctx *c, uint32_t fourcc)
{
	uint64_t blob_id;
	drmModePropertyBlobRes *blob;
	int ok = 0;

	if (kms_prop_get(c->fd, c->wb_conn_id, DRM_MODE_OBJECT_CONNECTOR,
			 "WRITEBACK_PIXEL_FORMATS", &blob_id))
		return 0;
	blob = drmModeGetPropertyBlob(c->fd, (uint32_t)blob_id);
	if (!blob)
		return 0;
	for (uint32_t i = 0; i < blob->length / 4; i++)
		ok |= ((uint32_t *)blob->data)[i] == fourcc;
	drmModeFreePropertyBlob(blob);
	return ok;
}

/* Queue one writeback job and wait for its out-fence. */
static int capture(struct ctx *c, double *ms)
{
	drmModeAtomicReq *req = drmModeAtomicAlloc();
	uint32_t C = DRM_MODE_OBJECT_CONNECTOR;
	int32_t fence = -1;
	struct pollfd pfd;
	struct sync_file_info info = { 0 };
	double t0;
	int r = 0, n;

	if (!req)
		return -1;
	r |= kms_set(req, c->fd, c->wb_conn_id, C, "WRITEBACK_FB_ID",
		     c->wb.fb_id, false);
	r |= kms_set(req, c->fd, c->wb_conn_id, C, "WRITEBACK_OUT_FENCE_PTR",
		     (uint64_t)(uintptr_t)&fence, false);
	t0 = now_ms();
	if (!r && drmModeAtomicCommit(c->fd, req, 0, NULL)) {
		fprintf(stderr, "writeback commit: %s\n", strerror(errno));
		r = -1;
	}
	drmModeAtomicFree(req);
	if (r)
		return -1;
	if (fence < 0) {
		fprintf(stderr, "writeback commit returned no out-fence\n");
		return -1;
	}
	pfd = (struct pollfd){ .fd = fence, .events = POLLIN };
	do
		n = poll(&pfd, 1, FENCE_TIMEOUT_MS);
	while (n < 0 && errno == EINTR);
	*ms = now_ms() - t0;
	if (n <= 0) {
		if (n)
			fprintf(stderr, "poll out-fence: %s\n", strerror(errno));
		else
			fprintf(stderr, "writeback out-fence not signalled after %d ms\n",
				FENCE_TIMEOUT_MS);
		close(fence);
		return -1;
	}
	/* A fence can signal with an error: the job was dropped. */
	if (!ioctl(fence, SYNC_IOC_FILE_INFO, &info) && info.status < 0) {
		fprintf(stderr, "writeback fence signalled with error %d (%s)\n",
			info.status, strerror(-info.status));
		close(fence);
		return -1;
	}
	close(fence);
	return 0;
}

/* Writeback converted to 8-bit RGB, w * h * 3 bytes (caller frees). */
static uint8_t *readback(struct ctx *c)
{
	uint32_t w = c->wb.width, h = c->wb.height;
	uint8_t *rgb = malloc((size_t)w * h * 3);

	if (!rgb) {
		fprintf(stderr, "out of memory\n");
		return NULL;
	}
	for (uint32_t y = 0; y < h; y++)
		pixfmt_row_to_rgb8(c->wb.fourcc,
				   (uint8_t *)c->wb.map + (size_t)y * c->wb.pitch,
				   w, rgb + (size_t)y * w * 3);
	return rgb;
}

/*
 * Compare with the software composite of the same scene.  The contract
 * allows +-1 (8-bit) on blended pixels.  Returns the largest difference.
 */
static int check_reference(struct ctx *c, const uint8_t *rgb)
{
	struct layer *in[3] = { &c->primary, &c->overlay, &c->cursor };
	uint32_t w = c->wb.width, h = c->wb.height;
	size_t n = (size_t)w * h * 3, bad = 0, first = 0;
	struct compose_layer ls[3];
	uint8_t *ref = malloc(n);
	int nl = 0, max = 0;

	if (!ref) {
		fprintf(stderr, "out of memory\n");
		return 255;
	}
	for (int i = 0; i < 3; i++) {
		if (!in[i]->plane_id)
			continue;
		ls[nl++] = (struct compose_layer){
			.map = in[i]->fb.map, .pitch = in[i]->fb.pitch,
			.w = in[i]->fb.width, .h = in[i]->fb.height,
			.x = in[i]->x, .y = in[i]->y,
			.has_alpha = in[i]->fb.fourcc == DRM_FORMAT_ARGB8888,
			.alpha = in[i]->alpha, .blend = in[i]->blend };
	}
	compose_ref(ls, nl, w, h, ref);
	for (size_t i = 0; i < n; i++) {
		int d = abs((int)rgb[i] - (int)ref[i]);

		if (d > 1 && !bad++)
			first = i / 3;
		if (d > max)
			max = d;
	}
	printf("reference: max channel difference %d, %zu channels off by more than 1%s\n",
	       max, bad, max > 1 ? " - MISMATCH" : "");
	if (bad)
		printf("           first at (%zu,%zu): got %u,%u,%u want %u,%u,%u\n",
		       first % w, first / w, rgb[first * 3], rgb[first * 3 + 1],
		       rgb[first * 3 + 2], ref[first * 3], ref[first * 3 + 1],
		       ref[first * 3 + 2]);
	free(ref);
	return max;
}

static int save_and_check(struct ctx *c, const struct opts *o)
{
	uint8_t *rgb = readback(c);
	int ret = 0;

	if (!rgb)
		return -1;
	if (png_write(o->out, c->wb.width, c->wb.height, 3, rgb,
		      (size_t)c->wb.width * 3)) {
		fprintf(stderr, "write %s: %s\n", o->out, strerror(errno));
		ret = -1;
	} else if (check_reference(c, rgb) > 1 && o->verify) {
		fprintf(stderr, "writeback differs from the software reference\n");
		ret = -1;
	}
	free(rgb);
	return ret;
}

static void disable_scene(struct ctx *c)
{
	struct layer *ls[3] = { &c->primary, &c->overlay, &c->cursor };
	drmModeAtomicReq *req = drmModeAtomicAlloc();
	uint32_t C = DRM_MODE_OBJECT_CONNECTOR, P = DRM_MODE_OBJECT_PLANE;
	int r = 0;

	if (!req)
		return;
	for (int i = 0; i < 3; i++) {
		if (!ls[i]->plane_id)
			continue;
		r |= kms_set(req, c->fd, ls[i]->plane_id, P, "FB_ID", 0, false);
		r |= kms_set(req, c->fd, ls[i]->plane_id, P, "CRTC_ID", 0, false);
	}
	r |= kms_set(req, c->fd, c->conn_id, C, "CRTC_ID", 0, false);
	r |= kms_set(req, c->fd, c->wb_conn_id, C, "CRTC_ID", 0, false);
	r |= kms_set(req, c->fd, c->crtc_id, DRM_MODE_OBJECT_CRTC, "ACTIVE", 0,
		     false);
	r |= kms_set(req, c->fd, c->crtc_id, DRM_MODE_OBJECT_CRTC, "MODE_ID", 0,
		     false);
	if (!r && drmModeAtomicCommit(c->fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET,
				      NULL))
		fprintf(stderr, "warning: disabling CRTC %d: %s\n", c->crtc_idx,
			strerror(errno));
	drmModeAtomicFree(req);
}

static void teardown(struct ctx *c)
{
	if (c->lit)
		disable_scene(c);
	kms_dumb_destroy(c->fd, &c->primary.fb);
	kms_dumb_destroy(c->fd, &c->overlay.fb);
	kms_dumb_destroy(c->fd, &c->cursor.fb);
	kms_dumb_destroy(c->fd, &c->wb);
	if (c->mode_blob)
		drmModeDestroyPropertyBlob(c->fd, c->mode_blob);
	drmModeFreeResources(c->res);
	close(c->fd);
}

static void print_card(struct ctx *c)
{
	drmVersionPtr v = drmGetVersion(c->fd);
	struct drm_vflipq_get_caps caps = { 0 };

	printf("card:      /dev/dri/card%d  %s (%s)\n", c->card,
	       v ? v->name : "?", v ? v->desc : "?");
	if (v && !strcmp(v->name, "vflipq") &&
	    !drmIoctl(c->fd, DRM_IOCTL_VFLIPQ_GET_CAPS, &caps))
		printf("device:    \"%.32s\" id %u, uapi %u.%u, %u CRTCs, %u overlays/CRTC, caps 0x%llx\n",
		       caps.name, caps.device_id, caps.version_major,
		       caps.version_minor, caps.num_crtcs, caps.num_overlays,
		       (unsigned long long)caps.caps);
	drmFreeVersion(v);
}

static void print_layer(const struct layer *l)
{
	if (!l->plane_id)
		return;
	printf("  %-8s plane %u  %s %ux%u at %d,%d  alpha %.2f  %s\n", l->role,
	       l->plane_id, kms_fourcc_str(l->fb.fourcc), l->fb.width,
	       l->fb.height, l->x, l->y, l->alpha / 65535.0,
	       blend_names[l->blend]);
}

int main(int argc, char **argv)
{
	struct opts o;
	struct ctx c = { .fd = -1 };
	double ms = 0;
	int ret = 1;

	/* Keeps the summary in order with errors when both go to one log. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (parse_args(argc, argv, &o))
		return 1;
	c.fd = kms_open_tool(o.card, KMS_OPEN_WRITEBACK, &c.card, &c.res);
	if (c.fd < 0)
		return 1;
	print_card(&c);
	c.crtc_idx = o.crtc;
	if (o.crtc >= c.res->count_crtcs) {
		fprintf(stderr, "no CRTC %d (card has %d)\n", o.crtc,
			c.res->count_crtcs);
		goto out;
	}
	c.crtc_id = c.res->crtcs[o.crtc];
	if (find_connectors(&c, &o) || find_planes(&c))
		goto out;
	if (!wb_supports(&c, o.wb_fourcc)) {
		fprintf(stderr, "%s cannot write %s\n", c.wb_name,
			kms_fourcc_str(o.wb_fourcc));
		goto out;
	}
	if (build_scene(&c, &o) ||
	    kms_dumb_create(c.fd, c.mode.hdisplay, c.mode.vdisplay, o.wb_fourcc,
			    &c.wb))
		goto out;
	/* Pixels the composer never writes stay a visible mid grey. */
	memset(c.wb.map, 0x80, c.wb.size);
	printf("crtc:      %d (id %u) -> %s, writeback %s\n", c.crtc_idx,
	       c.crtc_id, o.wb_only ? "(none)" : c.conn_name, c.wb_name);
	printf("mode:      %s@%u (%u kHz)\n", c.mode.name, c.mode.vrefresh,
	       c.mode.clock);
	if (commit_scene(&c, &o))
		goto out;
	/* After the commit: it may have fallen back to opaque planes. */
	printf("planes:\n");
	print_layer(&c.primary);
	print_layer(&c.overlay);
	print_layer(&c.cursor);
	if (capture(&c, &ms))
		goto out;
	printf("writeback: %s %ux%u, captured in %.1f ms -> %s\n",
	       kms_fourcc_str(o.wb_fourcc), c.wb.width, c.wb.height, ms, o.out);
	if (save_and_check(&c, &o))
		goto out;
	ret = 0;
out:
	teardown(&c);
	return ret;
}
