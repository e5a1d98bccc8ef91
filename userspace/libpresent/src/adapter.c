// SPDX-License-Identifier: MIT
/*
 * Adapter enumeration: drmGetDevices2(), GET_CAPS for vflipq devices, KMS
 * resources for the outputs, hybrid pair and default selection.
 */
#include <fcntl.h>
#include <sys/ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

int present_fail(char *buf, int code, const char *fmt, ...)
{
	va_list ap;

	if (buf) {
		va_start(ap, fmt);
		vsnprintf(buf, 256, fmt, ap);
		va_end(ap);
	}
	return code;
}

int present_errno(int err)
{
	switch (err) {
	case 0: return 0;
	case ENODEV: case ENXIO: return PRESENT_E_DEVICE_REMOVED;
	case EINVAL: case ERANGE: case ENOENT: return PRESENT_E_INVALID_ARG;
	case EOPNOTSUPP: return PRESENT_E_NOT_SUPPORTED;
	case ENOMEM: case ENOSPC: return PRESENT_E_NO_MEMORY;
	case EBUSY: case EAGAIN: return PRESENT_E_BUSY;
	case EACCES: case EPERM: return PRESENT_E_ACCESS;
	case ETIMEDOUT: case ETIME: return PRESENT_E_TIMEOUT;
	default: return PRESENT_E_IO;
	}
}

int adapter_check_err(struct present_adapter *ad, int err)
{
	if (ad && (err == ENODEV || err == ENXIO))
		ad->removed = true;
	return present_errno(err);
}

uint64_t present_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

const char *present_role_name(unsigned int role)
{
	switch (role & PRESENT_ROLE_BOTH) {
	case PRESENT_ROLE_RENDER: return "render";
	case PRESENT_ROLE_DISPLAY: return "display";
	case PRESENT_ROLE_BOTH: return "render+display";
	default: return "none";
	}
}

static void mode_from_info(const struct present_adapter *ad, struct present_mode *m,
			   const drmModeModeInfo *mi)
{
	uint64_t pixels = (uint64_t)mi->htotal * mi->vtotal;

	memset(m, 0, sizeof(*m));
	m->width = mi->hdisplay;
	m->height = mi->vdisplay;
	if (pixels && mi->clock) {
		m->refresh_mhz = (uint32_t)((uint64_t)mi->clock * 1000000ull / pixels);
		m->period_ns = pixels * 1000000ull / mi->clock;
		m->boost_period_ns = present_boost_period(m->period_ns, ad->info.refresh_min_ns,
							  mi->htotal, mi->vdisplay, mi->clock);
	}
	m->preferred = mi->type & DRM_MODE_TYPE_PREFERRED;
	snprintf(m->name, sizeof(m->name), "%s", mi->name);
}

static void free_outputs(struct present_adapter *ad)
{
	for (uint32_t i = 0; ad->modes && i < ad->info.num_outputs; i++)
		free(ad->modes[i]);
	free(ad->modes);
	free(ad->outputs);
	free(ad->crtc_ids);
	ad->modes = NULL;
	ad->outputs = NULL;
	ad->crtc_ids = NULL;
	ad->num_crtc_ids = 0;
	ad->info.num_outputs = 0;
}

static int crtc_index(struct present_adapter *ad, uint32_t crtc_id)
{
	for (uint32_t i = 0; i < ad->num_crtc_ids; i++)
		if (ad->crtc_ids[i] == crtc_id)
			return (int)i;
	return -1;
}

static int lowest_bit(uint32_t mask)
{
	return mask ? __builtin_ctz(mask) : -1;
}

/*
 * The CRTC an output without one would get: a writeback connector's only
 * CRTC; for a display connector, whose encoder may drive several CRTCs
 * (every one on vflipq), the first one that no display connector lit or
 * earlier in the list was given, so that connector i of a fresh vflipq
 * device gets CRTC i and two outputs never default to the same CRTC while
 * one is free.  @possible: each output's possible_crtcs.
 */
static void default_crtcs(struct present_adapter *ad, const uint32_t *possible)
{
	uint32_t taken = 0;

	for (uint32_t i = 0; i < ad->info.num_outputs; i++)
		if (ad->outputs[i].crtc_id && !ad->outputs[i].writeback)
			taken |= 1u << ad->outputs[i].crtc_index;
	for (uint32_t i = 0; i < ad->info.num_outputs; i++) {
		struct present_output *o = &ad->outputs[i];
		uint32_t mask = possible[i];
		int b;

		if (o->crtc_id)
			continue;
		b = o->writeback ? -1 : lowest_bit(mask & ~taken);
		if (b < 0)
			b = lowest_bit(mask);
		o->crtc_index = b < 0 ? 0 : (uint32_t)b;
		if (!o->writeback && b >= 0)
			taken |= 1u << b;
	}
}

/* Connector @c as the adapter's next output; @possible: its CRTCs. */
static void read_output(struct present_adapter *ad, const drmModeConnector *c,
			uint32_t *possible)
{
	struct present_output *o = &ad->outputs[ad->info.num_outputs];

	o->connector_id = c->connector_id;
	o->connected = c->connection == DRM_MODE_CONNECTED;
	o->writeback = c->connector_type == DRM_MODE_CONNECTOR_WRITEBACK;
	snprintf(o->name, sizeof(o->name), "%s-%u",
		 drmModeGetConnectorTypeName(c->connector_type) ?: "Unknown",
		 c->connector_type_id);
	o->crtc_index = 0;
	if (c->count_encoders) {
		drmModeEncoder *e = drmModeGetEncoder(ad->fd, c->encoder_id ? c->encoder_id :
						      c->encoders[0]);
		if (e) {
			if (c->encoder_id && e->crtc_id)
				o->crtc_id = e->crtc_id;
			*possible = e->possible_crtcs;
			drmModeFreeEncoder(e);
		}
	}
	if (o->crtc_id) {
		drmModeCrtc *crtc = drmModeGetCrtc(ad->fd, o->crtc_id);
		int idx = crtc_index(ad, o->crtc_id);

		if (idx >= 0)
			o->crtc_index = idx;
		if (crtc && crtc->mode_valid)
			mode_from_info(ad, &o->current, &crtc->mode);
		drmModeFreeCrtc(crtc);
	}
	if (c->count_modes) {
		struct present_mode *m = calloc(c->count_modes, sizeof(*m));

		if (m) {
			for (int k = 0; k < c->count_modes; k++)
				mode_from_info(ad, &m[k], &c->modes[k]);
			o->num_modes = c->count_modes;
		}
		ad->modes[ad->info.num_outputs] = m;
		o->modes = m;
	}
	ad->info.num_outputs++;
}

static int read_outputs(struct present_adapter *ad)
{
	uint32_t *possible;
	drmModeRes *res;
	int ret = 0;

	free_outputs(ad);
	ad->outputs_fp = PRESENT_FP_NO_OUTPUTS;
	res = drmModeGetResources(ad->fd);
	if (!res) {
		int e = errno;
		/* a render node or a device without KMS: no outputs */
		if (e == ENODEV || e == ENXIO)
			return adapter_check_err(ad, e);
		return 0;
	}
	ad->info.num_crtcs = res->count_crtcs;
	ad->num_crtc_ids = res->count_crtcs;
	ad->crtc_ids = calloc(res->count_crtcs + 1, sizeof(uint32_t));
	ad->outputs = calloc(res->count_connectors + 1, sizeof(*ad->outputs));
	ad->modes = calloc(res->count_connectors + 1, sizeof(*ad->modes));
	possible = calloc(res->count_connectors + 1, sizeof(*possible));
	if (!ad->crtc_ids || !ad->outputs || !ad->modes || !possible) {
		free(possible);
		drmModeFreeResources(res);
		free_outputs(ad);
		return present_fail(ad->err, PRESENT_E_NO_MEMORY, "out of memory");
	}
	memcpy(ad->crtc_ids, res->crtcs, res->count_crtcs * sizeof(uint32_t));
	/* of what is read here, so that a change after the probe shows */
	ad->outputs_fp = present_fp_outputs_begin(res->count_connectors);
	for (int i = 0; i < res->count_connectors; i++) {
		drmModeConnector *c = drmModeGetConnector(ad->fd, res->connectors[i]);

		ad->outputs_fp = present_fp_connector(ad->outputs_fp, res->connectors[i], c);
		if (!c)
			continue;
		read_output(ad, c, &possible[ad->info.num_outputs]);
		drmModeFreeConnector(c);
	}
	drmModeFreeResources(res);
	default_crtcs(ad, possible);
	free(possible);
	return ret;
}

static void probe_adapter(struct present_adapter *ad, const char *primary, const char *render)
{
	struct drm_vflipq_get_caps caps;
	drmVersionPtr v;

	snprintf(ad->info.primary_node, sizeof(ad->info.primary_node), "%s", primary ?: "");
	snprintf(ad->info.render_node, sizeof(ad->info.render_node), "%s", render ?: "");
	v = drmGetVersion(ad->fd);
	if (v) {
		snprintf(ad->info.driver, sizeof(ad->info.driver), "%s", v->name);
		drmFreeVersion(v);
	}
	memcpy(ad->info.name, ad->info.driver, sizeof(ad->info.name));
	ad->info.flipq_depth = 1;
	ad->info.is_vflipq = !strcmp(ad->info.driver, "vflipq");

	/* Atomic + writeback connectors, for display (harmless elsewhere). */
	drmSetClientCap(ad->fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1);
	ad->atomic = drmSetClientCap(ad->fd, DRM_CLIENT_CAP_ATOMIC, 1) == 0;
	if (ad->atomic)
		drmSetClientCap(ad->fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1);

	if (ad->info.is_vflipq) {
		memset(&caps, 0, sizeof(caps));
		if (drmIoctl(ad->fd, DRM_IOCTL_VFLIPQ_GET_CAPS, &caps) == 0) {
			/* The flip queue speaks uAPI 2.0's FLIPQ_SUBMIT only:
			 * another major's queue is not used (the other paths are) */
			if (caps.version_major != VFLIPQ_UAPI_VERSION_MAJOR) {
				caps.caps &= ~VFLIPQ_CAP_FLIP_QUEUE;
				caps.flipq_depth = 1;
			}
			ad->info.vflipq_caps = caps.caps;
			ad->info.caso_tier = caps.caso_tier;
			ad->info.flipq_depth = caps.flipq_depth ? caps.flipq_depth : 1;
			ad->info.num_crtcs = caps.num_crtcs;
			snprintf(ad->info.name, sizeof(ad->info.name), "%.31s", caps.name);
			if (caps.caps & VFLIPQ_CAP_RENDER_ONLY)
				ad->info.role |= PRESENT_ROLE_RENDER;
			if (caps.caps & VFLIPQ_CAP_DISPLAY)
				ad->info.role |= PRESENT_ROLE_DISPLAY;
			/* a flip-queue flip sets the CRTC's frame period
			 * (duration_ns) within this documented range */
			if ((caps.caps & VFLIPQ_CAP_FLIP_QUEUE) && caps.flipq_depth > 1) {
				ad->info.refresh_min_ns = VRR_MIN_PERIOD_NS;
				ad->info.refresh_max_ns = VRR_MAX_PERIOD_NS;
			}
		}
	}
	read_outputs(ad);
	if (!ad->info.is_vflipq)
		ad->info.role = ad->num_crtc_ids ? PRESENT_ROLE_BOTH : PRESENT_ROLE_RENDER;
	else if (!ad->info.role)
		ad->info.role = ad->num_crtc_ids ? PRESENT_ROLE_DISPLAY : PRESENT_ROLE_RENDER;
}

static int node_num(const char *node)
{
	const char *p = node + strlen(node);

	while (p > node && p[-1] >= '0' && p[-1] <= '9')
		p--;
	return atoi(p);
}

static int cmp_adapter(const void *a, const void *b)
{
	const struct present_adapter *x = a, *y = b;
	int nx = x->info.primary_node[0] ? node_num(x->info.primary_node) :
		 1000 + node_num(x->info.render_node);
	int ny = y->info.primary_node[0] ? node_num(y->info.primary_node) :
		 1000 + node_num(y->info.render_node);

	return nx - ny;
}

/* The devices libdrm lists, one adapter each. */
static void add_listed_devices(struct present_system *sys)
{
	drmDevicePtr devs[PRESENT_MAX_ADAPTERS];
	int n = drmGetDevices2(0, devs, PRESENT_MAX_ADAPTERS);

	if (n < 0)
		n = 0;	/* no DRM at all: an empty system */
	for (int i = 0; i < n && sys->count < PRESENT_MAX_ADAPTERS; i++) {
		struct present_adapter *ad = &sys->adapters[sys->count];
		const char *primary = NULL, *render = NULL;

		if (devs[i]->available_nodes & (1 << DRM_NODE_PRIMARY))
			primary = devs[i]->nodes[DRM_NODE_PRIMARY];
		if (devs[i]->available_nodes & (1 << DRM_NODE_RENDER))
			render = devs[i]->nodes[DRM_NODE_RENDER];
		if (!primary && !render)
			continue;
		ad->fd = open(primary ? primary : render, O_RDWR | O_CLOEXEC);
		if (ad->fd < 0)
			continue;
		if (primary) {
			/* the render node that really belongs to this card */
			char *rn = drmGetRenderDeviceNameFromFd(ad->fd);

			probe_adapter(ad, primary, rn ? rn : NULL);
			free(rn);
		} else {
			probe_adapter(ad, NULL, render);
		}
		ad->sys = sys;
		sys->count++;
	}
	drmFreeDevices(devs, n);
}

/*
 * drmGetDevices2() folds platform devices with equal bus info into one
 * entry (every configfs vflipq device is a bare platform device), so add
 * the primary nodes it did not report.
 */
static void add_unlisted_cards(struct present_system *sys)
{
	for (int card = 0; card < 64 && sys->count < PRESENT_MAX_ADAPTERS; card++) {
		struct present_adapter *ad = &sys->adapters[sys->count];
		char node[64], *rn;
		bool seen = false;

		snprintf(node, sizeof(node), DRM_DIR_NAME "/card%d", card);
		for (int i = 0; i < sys->count && !seen; i++)
			seen = !strcmp(sys->adapters[i].info.primary_node, node);
		if (seen || access(node, F_OK))
			continue;
		ad->fd = open(node, O_RDWR | O_CLOEXEC);
		if (ad->fd < 0)
			continue;
		rn = drmGetRenderDeviceNameFromFd(ad->fd);
		probe_adapter(ad, node, rn);
		free(rn);
		ad->sys = sys;
		sys->count++;
	}
}

int present_system_open(struct present_system **out)
{
	struct present_system *sys;

	if (!out)
		return PRESENT_E_INVALID_ARG;
	*out = NULL;
	sys = calloc(1, sizeof(*sys));
	if (!sys)
		return PRESENT_E_NO_MEMORY;
	sys->nodes_fp = present_nodes_fingerprint();
	add_listed_devices(sys);
	add_unlisted_cards(sys);
	qsort(sys->adapters, sys->count, sizeof(sys->adapters[0]), cmp_adapter);
	for (int i = 0; i < sys->count; i++) {
		uint64_t cap = 0;

		/* pointers into the array moved with qsort: fix them up (and
		 * set the mutex up only where it stays) */
		sys->adapters[i].info.index = i;
		drmGetCap(sys->adapters[i].fd, DRM_CAP_CRTC_IN_VBLANK_EVENT, &cap);
		present_router_init(&sys->adapters[i].events, cap != 0);
		for (uint32_t k = 0; k < sys->adapters[i].info.num_outputs; k++)
			sys->adapters[i].outputs[k].modes = sys->adapters[i].modes[k];
	}
	*out = sys;
	return 0;
}

void present_system_close(struct present_system *sys)
{
	if (!sys)
		return;
	for (int i = 0; i < sys->count; i++) {
		free_outputs(&sys->adapters[i]);
		present_router_fini(&sys->adapters[i].events);
		if (sys->adapters[i].fd >= 0)
			close(sys->adapters[i].fd);
	}
	free(sys);
}

int present_system_count(const struct present_system *sys)
{
	return sys ? sys->count : PRESENT_E_INVALID_ARG;
}

struct present_adapter *present_system_adapter(struct present_system *sys, unsigned int index)
{
	if (!sys || index >= (unsigned int)sys->count)
		return NULL;
	return &sys->adapters[index];
}

static bool has_connected(const struct present_adapter *ad)
{
	for (uint32_t i = 0; i < ad->info.num_outputs; i++)
		if (ad->outputs[i].connected && !ad->outputs[i].writeback)
			return true;
	return false;
}

static struct present_adapter *best_display(struct present_system *sys, unsigned int min_tier)
{
	struct present_adapter *best = NULL;

	for (int i = 0; i < sys->count; i++) {
		struct present_adapter *ad = &sys->adapters[i];

		if (ad->removed || !(ad->info.role & PRESENT_ROLE_DISPLAY) || !has_connected(ad) ||
		    ad->info.caso_tier < min_tier)
			continue;
		if (!best || ad->info.caso_tier > best->info.caso_tier)
			best = ad;
	}
	return best;
}

/* A render-only adapter: vflipq ones (cross-adapter buffers with the
 * CASO pitch) before other render devices (vgem, ...). */
static struct present_adapter *best_render(struct present_system *sys)
{
	struct present_adapter *r = NULL;

	for (int i = 0; i < sys->count; i++) {
		struct present_adapter *ad = &sys->adapters[i];

		if (ad->info.role != PRESENT_ROLE_RENDER || ad->removed)
			continue;
		if (!r || (ad->info.is_vflipq && !r->info.is_vflipq))
			r = ad;
	}
	return r;
}

int present_system_find(struct present_system *sys, const char *spec, unsigned int role,
			struct present_adapter **out)
{
	if (!sys || !out || (role & ~PRESENT_ROLE_BOTH))
		return PRESENT_E_INVALID_ARG;
	*out = NULL;
	if (spec && *spec) {
		char *end;
		long idx = strtol(spec, &end, 10);

		for (int i = 0; i < sys->count; i++) {
			struct present_adapter *ad = &sys->adapters[i];
			const char *p = strrchr(ad->info.primary_node, '/');
			const char *r = strrchr(ad->info.render_node, '/');
			bool match = (!*end && idx == i) ||
				!strcmp(spec, ad->info.primary_node) ||
				!strcmp(spec, ad->info.render_node) ||
				(p && !strcmp(spec, p + 1)) || (r && !strcmp(spec, r + 1)) ||
				!strcmp(spec, ad->info.name);

			if (match && (ad->info.role & role) == role) {
				*out = ad;
				return 0;
			}
		}
		/* then the driver name */
		for (int i = 0; i < sys->count; i++)
			if (!strcmp(spec, sys->adapters[i].info.driver) &&
			    (sys->adapters[i].info.role & role) == role) {
				*out = &sys->adapters[i];
				return 0;
			}
		return PRESENT_E_NOT_FOUND;
	}
	if (role == PRESENT_ROLE_RENDER) {
		*out = best_render(sys);
		if (*out)
			return 0;
	}
	*out = best_display(sys, 0);
	if (!*out && !role && sys->count)
		*out = &sys->adapters[0];
	return *out ? 0 : PRESENT_E_NOT_FOUND;
}

int present_system_hybrid_pair(struct present_system *sys, unsigned int min_tier,
			       struct present_adapter **render, struct present_adapter **display)
{
	struct present_adapter *r = NULL, *d;

	if (!sys || !render || !display || min_tier > 3)
		return PRESENT_E_INVALID_ARG;
	r = best_render(sys);
	d = best_display(sys, min_tier);
	if (!r || !d)
		return PRESENT_E_NOT_FOUND;
	*render = r;
	*display = d;
	return 0;
}

bool present_adapter_removed(struct present_adapter *ad)
{
	struct drm_vflipq_get_caps caps;
	uint64_t v;

	if (!ad)
		return true;
	if (ad->removed)
		return true;
	memset(&caps, 0, sizeof(caps));
	if (ad->info.is_vflipq) {
		if (ioctl(ad->fd, DRM_IOCTL_VFLIPQ_GET_CAPS, &caps))
			adapter_check_err(ad, errno);
	} else if (drmGetCap(ad->fd, DRM_CAP_DUMB_BUFFER, &v)) {
		adapter_check_err(ad, errno);
	}
	return ad->removed;
}

int present_adapter_info(struct present_adapter *ad, struct present_adapter_info *info)
{
	if (!ad || !info)
		return PRESENT_E_INVALID_ARG;
	*info = ad->info;
	return ad->removed ? PRESENT_E_DEVICE_REMOVED : 0;
}

int present_adapter_output(struct present_adapter *ad, unsigned int index,
			   const struct present_output **out)
{
	if (!ad || !out)
		return PRESENT_E_INVALID_ARG;
	if (index >= ad->info.num_outputs)
		return present_fail(ad->err, PRESENT_E_NOT_FOUND, "no output %u", index);
	*out = &ad->outputs[index];
	return 0;
}

int present_adapter_default_output(struct present_adapter *ad)
{
	if (!ad)
		return PRESENT_E_INVALID_ARG;
	for (uint32_t i = 0; i < ad->info.num_outputs; i++)
		if (ad->outputs[i].connected && !ad->outputs[i].writeback && ad->outputs[i].num_modes)
			return (int)i;
	return present_fail(ad->err, PRESENT_E_NOT_FOUND, "no connected output");
}

int present_adapter_refresh(struct present_adapter *ad)
{
	uint64_t fp;
	int ret;

	if (!ad)
		return PRESENT_E_INVALID_ARG;
	if (present_adapter_removed(ad))
		return PRESENT_E_DEVICE_REMOVED;
	fp = ad->outputs_fp;
	ret = read_outputs(ad);
	/* what changed since the system was opened stays a change */
	if (ad->outputs_fp != fp)
		ad->sys->stale = true;
	return ret;
}

int present_adapter_fd(struct present_adapter *ad)
{
	return ad ? ad->fd : PRESENT_E_INVALID_ARG;
}

const char *present_adapter_last_error(const struct present_adapter *ad)
{
	return ad ? ad->err : "invalid adapter";
}
