// SPDX-License-Identifier: MIT
/*
 * vflipq-fuzz: the smoke test after the run.  Everything the fuzzer opened
 * is closed and its configfs devices are gone; the default device must
 * still answer GET_CAPS, take a mode set from a reset state, complete a
 * page flip with its event, and have nothing left in its flip queues.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "dumb_fb.h"
#include "fuzz.h"

#define SMOKE_USER_DATA 0x5eed5eedull

static int fail(const char *what, int err)
{
	printf("smoke: FAIL: %s%s%s\n", what, err ? ": " : "",
	       err ? strerror(err) : "");
	return -1;
}

static uint32_t obj_prop(int fd, uint32_t obj, uint32_t type, const char *name,
			 uint64_t *value)
{
	drmModeObjectPropertiesPtr props = drmModeObjectGetProperties(fd, obj, type);
	uint32_t id = 0;

	for (uint32_t i = 0; props && i < props->count_props && !id; i++) {
		drmModePropertyPtr p = drmModeGetProperty(fd, props->props[i]);

		if (p && !strcmp(p->name, name)) {
			id = p->prop_id;
			if (value)
				*value = props->prop_values[i];
		}
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
	return id;
}

static void add(drmModeAtomicReqPtr req, int fd, uint32_t obj, uint32_t type,
		const char *name, uint64_t value)
{
	uint32_t id = obj_prop(fd, obj, type, name, NULL);

	if (id)
		drmModeAtomicAddProperty(req, obj, id, value);
}

/* Everything off and every property the fuzzer may have bent back. */
static int reset_all(int fd)
{
	drmModeAtomicReqPtr req = drmModeAtomicAlloc();
	drmModePlaneResPtr pres = drmModeGetPlaneResources(fd);
	drmModeResPtr res = drmModeGetResources(fd);
	int ret;

	if (!req || !pres || !res)
		return -ENOMEM;
	for (uint32_t i = 0; i < pres->count_planes; i++) {
		uint32_t p = pres->planes[i];
		const uint32_t t = DRM_MODE_OBJECT_PLANE;

		add(req, fd, p, t, "FB_ID", 0);
		add(req, fd, p, t, "CRTC_ID", 0);
		add(req, fd, p, t, "rotation", DRM_MODE_ROTATE_0);
		add(req, fd, p, t, "alpha", 0xffff);
	}
	for (int i = 0; i < res->count_connectors; i++) {
		uint32_t c = res->connectors[i];
		const uint32_t t = DRM_MODE_OBJECT_CONNECTOR;

		add(req, fd, c, t, "CRTC_ID", 0);
		add(req, fd, c, t, "WRITEBACK_FB_ID", 0);
	}
	for (int i = 0; i < res->count_crtcs; i++) {
		uint32_t c = res->crtcs[i];
		const uint32_t t = DRM_MODE_OBJECT_CRTC;

		add(req, fd, c, t, "ACTIVE", 0);
		add(req, fd, c, t, "MODE_ID", 0);
		add(req, fd, c, t, "GAMMA_LUT", 0);
		add(req, fd, c, t, "DEGAMMA_LUT", 0);
		add(req, fd, c, t, "CTM", 0);
		add(req, fd, c, t, "VRR_ENABLED", 0);
	}
	ret = drmModeAtomicCommit(fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL) ?
	      errno : 0;
	drmModeAtomicFree(req);
	drmModeFreePlaneResources(pres);
	drmModeFreeResources(res);
	return ret;
}

/* Every plane of every CRTC of card @card reports "pending 0". */
static int check_flipq_idle(int card)
{
	char path[96], line[512];
	FILE *f;
	int busy = 0, lines = 0;

	snprintf(path, sizeof(path), "/sys/kernel/debug/dri/%d/vflipq_flipq", card);
	for (int tries = 0; tries < 50; tries++) {
		f = fopen(path, "re");
		if (!f)
			return 0;	/* no debugfs: nothing to check */
		busy = lines = 0;
		while (fgets(line, sizeof(line), f)) {
			char *p = strstr(line, " pending ");

			if (!p)
				continue;
			lines++;
			if (strtoul(p + 9, NULL, 10))
				busy++;
		}
		fclose(f);
		if (!busy)
			break;
		usleep(20000);
	}
	if (busy)
		printf("smoke: %s: %d of %d planes still have pending flips\n",
		       path, busy, lines);
	return busy ? -1 : 0;
}

static int leftover_cfs(void)
{
	DIR *dir = opendir("/sys/kernel/config/vflipq");
	struct dirent *de;
	int n = 0;

	if (!dir)
		return 0;
	while ((de = readdir(dir)))
		if (!strncmp(de->d_name, "fuzz-", 5)) {
			printf("smoke: configfs device %s left behind\n", de->d_name);
			n++;
		}
	closedir(dir);
	return n;
}

static int smoke_on(int fd, int card)
{
	struct drm_vflipq_get_caps caps = { 0 };
	struct drm_vflipq_get_counters cnt = { 0 };
	struct drm_mode_crtc_page_flip_target pf = { 0 };
	drmModeAtomicReqPtr req;
	drmModeResPtr res;
	drmModePlaneResPtr pres;
	drmModeConnectorPtr conn = NULL;
	drmModeModeInfo mode;
	uint32_t crtc = 0, primary = 0, blob = 0, fb1, fb2;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char buf[1024] __attribute__((aligned(8)));
	bool got = false;
	int ret;

	if (ioctl(fd, DRM_IOCTL_VFLIPQ_GET_CAPS, &caps))
		return fail("GET_CAPS", errno);
	if (strcmp(caps.name, "default") ||
	    caps.version_major != VFLIPQ_UAPI_VERSION_MAJOR || !caps.num_crtcs)
		return fail("GET_CAPS answers nonsense", 0);
	for (int i = 0; i < 8; i++)
		if (caps.reserved[i])
			return fail("GET_CAPS reserved not zero", 0);
	if (drmSetMaster(fd))
		return fail("SET_MASTER", errno);
	drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1);
	if (drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1))
		return fail("atomic client cap", errno);
	drmSetClientCap(fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1);
	ret = reset_all(fd);
	if (ret)
		return fail("resetting every CRTC, plane and connector", ret);

	res = drmModeGetResources(fd);
	pres = drmModeGetPlaneResources(fd);
	if (!res || !pres || !res->count_crtcs)
		return fail("GETRESOURCES", errno);
	crtc = res->crtcs[0];
	for (int i = 0; i < res->count_connectors && !conn; i++) {
		drmModeConnectorPtr c = drmModeGetConnector(fd, res->connectors[i]);
		drmModeEncoderPtr e;

		if (!c)
			continue;
		e = c->count_encoders ? drmModeGetEncoder(fd, c->encoders[0]) : NULL;
		if (c->connector_type != DRM_MODE_CONNECTOR_WRITEBACK &&
		    c->count_modes && e && e->possible_crtcs & 1)
			conn = c;
		else
			drmModeFreeConnector(c);
		drmModeFreeEncoder(e);
	}
	for (uint32_t i = 0; i < pres->count_planes && !primary; i++) {
		drmModePlanePtr p = drmModeGetPlane(fd, pres->planes[i]);
		uint64_t type = 0;

		if (p && p->possible_crtcs & 1 &&
		    obj_prop(fd, p->plane_id, DRM_MODE_OBJECT_PLANE, "type", &type) &&
		    type == DRM_PLANE_TYPE_PRIMARY)
			primary = p->plane_id;
		drmModeFreePlane(p);
	}
	drmModeFreeResources(res);
	drmModeFreePlaneResources(pres);
	if (!conn || !primary)
		return fail("no connector or primary plane for CRTC 0", 0);
	mode = conn->modes[0];
	for (int i = 0; i < conn->count_modes; i++)
		if (conn->modes[i].hdisplay == 640 && conn->modes[i].vdisplay == 480)
			mode = conn->modes[i];

	fb1 = dumb_fb_xrgb8888(fd, mode.hdisplay, mode.vdisplay, 0xff0000);
	fb2 = dumb_fb_xrgb8888(fd, mode.hdisplay, mode.vdisplay, 0x00ff00);
	if (!fb1 || !fb2)
		return fail("framebuffers", errno);
	if (drmModeCreatePropertyBlob(fd, &mode, sizeof(mode), &blob))
		return fail("mode blob", errno);
	req = drmModeAtomicAlloc();
	add(req, fd, conn->connector_id, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", crtc);
	add(req, fd, crtc, DRM_MODE_OBJECT_CRTC, "MODE_ID", blob);
	add(req, fd, crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE", 1);
	add(req, fd, primary, DRM_MODE_OBJECT_PLANE, "FB_ID", fb1);
	add(req, fd, primary, DRM_MODE_OBJECT_PLANE, "CRTC_ID", crtc);
	/* A disabled plane keeps the rectangles the fuzzer last committed. */
	add(req, fd, primary, DRM_MODE_OBJECT_PLANE, "SRC_X", 0);
	add(req, fd, primary, DRM_MODE_OBJECT_PLANE, "SRC_Y", 0);
	add(req, fd, primary, DRM_MODE_OBJECT_PLANE, "CRTC_X", 0);
	add(req, fd, primary, DRM_MODE_OBJECT_PLANE, "CRTC_Y", 0);
	add(req, fd, primary, DRM_MODE_OBJECT_PLANE, "SRC_W", (uint64_t)mode.hdisplay << 16);
	add(req, fd, primary, DRM_MODE_OBJECT_PLANE, "SRC_H", (uint64_t)mode.vdisplay << 16);
	add(req, fd, primary, DRM_MODE_OBJECT_PLANE, "CRTC_W", mode.hdisplay);
	add(req, fd, primary, DRM_MODE_OBJECT_PLANE, "CRTC_H", mode.vdisplay);
	ret = drmModeAtomicCommit(fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL) ?
	      errno : 0;
	drmModeAtomicFree(req);
	drmModeDestroyPropertyBlob(fd, blob);
	drmModeFreeConnector(conn);
	if (ret)
		return fail("mode set", ret);

	pf.crtc_id = crtc;
	pf.fb_id = fb2;
	pf.flags = DRM_MODE_PAGE_FLIP_EVENT;
	pf.user_data = SMOKE_USER_DATA;
	for (int i = 0; i < 100; i++) {
		ret = ioctl(fd, DRM_IOCTL_MODE_PAGE_FLIP, &pf) ? errno : 0;
		if (ret != EBUSY)
			break;
		usleep(10000);
	}
	if (ret)
		return fail("page flip", ret);
	while (!got) {
		ssize_t len, off = 0;

		if (poll(&pfd, 1, 2000) <= 0)
			return fail("no flip event within 2 s", 0);
		len = read(fd, buf, sizeof(buf));
		if (len < 0 && errno == EAGAIN)
			continue;
		if (len <= 0)
			return fail("reading events", errno);
		while (off + (ssize_t)sizeof(struct drm_event_vblank) <= len) {
			struct drm_event_vblank *e = (void *)(buf + off);

			if (e->base.type == DRM_EVENT_FLIP_COMPLETE &&
			    e->user_data == SMOKE_USER_DATA) {
				if (e->crtc_id != crtc)
					return fail("flip event for another CRTC", 0);
				got = true;
			}
			if (e->base.length < sizeof(struct drm_event))
				break;
			off += e->base.length;
		}
	}
	cnt.crtc_id = crtc;
	if (ioctl(fd, DRM_IOCTL_VFLIPQ_GET_COUNTERS, &cnt))
		return fail("GET_COUNTERS", errno);
	if (!cnt.vblank_irqs)
		return fail("no vblank counted", 0);
	ret = reset_all(fd);
	if (ret)
		return fail("switching everything off", ret);
	drmModeRmFB(fd, fb1);
	drmModeRmFB(fd, fb2);
	printf("smoke: card%d: GET_CAPS, mode set %s, page flip with event: ok\n",
	       card, mode.name);
	return 0;
}

int smoke_test(void)
{
	int card = W.dev[DEV_DEFAULT].card, fd, ret;
	char path[64];

	if (leftover_cfs())
		return fail("configfs devices left behind", 0);
	snprintf(path, sizeof(path), "/dev/dri/card%d", card);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return fail(path, errno);
	ret = smoke_on(fd, card);
	close(fd);
	if (!ret && check_flipq_idle(card))
		ret = fail("flips still pending after every client closed", 0);
	return ret;
}
