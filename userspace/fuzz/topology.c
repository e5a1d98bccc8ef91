// SPDX-License-Identifier: MIT
/*
 * vflipq-fuzz: what a device has (CRTCs, planes, connectors, their
 * properties), read again after every configfs change.
 */
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include "fuzz.h"

static int add_prop(struct fdev *d, int fd, uint32_t id)
{
	drmModePropertyPtr p;
	struct prop *pr;

	for (int i = 0; i < d->nprops; i++)
		if (d->props[i].id == id)
			return i;
	if (d->nprops == MAX_PROPS)
		return -1;
	p = drmModeGetProperty(fd, id);
	if (!p)
		return -1;
	pr = &d->props[d->nprops];
	memset(pr, 0, sizeof(*pr));
	pr->id = id;
	snprintf(pr->name, sizeof(pr->name), "%s", p->name);
	pr->flags = p->flags;
	if (p->flags & (DRM_MODE_PROP_ENUM | DRM_MODE_PROP_BITMASK)) {
		for (int i = 0; i < p->count_enums && pr->nvals < 24; i++)
			pr->vals[pr->nvals++] = p->enums[i].value;
	} else {
		for (int i = 0; i < p->count_values && pr->nvals < 24; i++)
			pr->vals[pr->nvals++] = p->values[i];
	}
	drmModeFreeProperty(p);
	return d->nprops++;
}

static void get_obj_props(struct fdev *d, int fd, struct kobj *o, uint32_t type)
{
	drmModeObjectPropertiesPtr props = drmModeObjectGetProperties(fd, o->id,
								      type);

	o->nprops = 0;
	if (!props)
		return;
	for (uint32_t i = 0; i < props->count_props && o->nprops < OBJ_PROPS; i++) {
		int k = add_prop(d, fd, props->props[i]);

		if (k >= 0)
			o->props[o->nprops++] = k;
	}
	drmModeFreeObjectProperties(props);
}

int prop_find(const struct fdev *d, const struct kobj *o, const char *name)
{
	for (int i = 0; i < o->nprops; i++)
		if (!strcmp(d->props[o->props[i]].name, name))
			return o->props[i];
	return -1;
}

uint32_t prop_id(const struct fdev *d, const struct kobj *o, const char *name)
{
	int k = prop_find(d, o, name);

	return k < 0 ? 0 : d->props[k].id;
}

static int crtc_index_of_mask(uint32_t mask)
{
	return mask ? __builtin_ctz(mask) : -1;
}

/*
 * A Virtual connector may be driven by every CRTC; the k-th one's default
 * CRTC is CRTC k (the driver's pairing), a writeback connector's is its
 * only one.
 */
static int default_crtc(uint32_t mask, int k)
{
	return k < 32 && (mask & (1u << k)) ? k : crtc_index_of_mask(mask);
}

void refresh_topology(struct fdev *d, int fd)
{
	drmModeResPtr res;
	drmModePlaneResPtr pres;
	int np[MAX_CRTCS] = { 0 };
	int nvirtual = 0;

	d->ncrtcs = d->nplanes = d->nconns = d->nmodes = d->nprops = 0;
	memset(d->crtc_nplanes, 0, sizeof(d->crtc_nplanes));
	memset(d->last_pid, 0, sizeof(d->last_pid));
	memset(d->last_target, 0, sizeof(d->last_target));
	memset(d->crtc_on, 0, sizeof(d->crtc_on));
	for (int i = 0; i < MAX_CRTCS; i++)
		d->fq_owner[i] = -1;
	d->topo_valid = true;

	memset(&d->caps, 0, sizeof(d->caps));
	ioctl(fd, DRM_IOCTL_VFLIPQ_GET_CAPS, &d->caps);
	drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1);
	drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1);
	drmSetClientCap(fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1);
	res = drmModeGetResources(fd);
	if (!res)
		return;
	for (int i = 0; i < res->count_crtcs && d->ncrtcs < MAX_CRTCS; i++) {
		drmModeCrtcPtr c = drmModeGetCrtc(fd, res->crtcs[i]);
		struct kobj *o = &d->crtcs[d->ncrtcs];

		o->id = res->crtcs[i];
		get_obj_props(d, fd, o, DRM_MODE_OBJECT_CRTC);
		if (c) {
			d->crtc_on[d->ncrtcs] = c->mode_valid;
			if (c->mode_valid && c->mode.clock)
				d->period_ns[d->ncrtcs] =
					(uint64_t)c->mode.htotal * c->mode.vtotal *
					1000000ull / c->mode.clock;
			drmModeFreeCrtc(c);
		}
		if (!d->period_ns[d->ncrtcs])
			d->period_ns[d->ncrtcs] = 16666667;
		d->ncrtcs++;
	}
	for (int i = 0; i < res->count_connectors && d->nconns < MAX_CONNS; i++) {
		drmModeConnectorPtr c = drmModeGetConnector(fd, res->connectors[i]);
		struct kobj *o = &d->conns[d->nconns];

		if (!c)
			continue;
		o->id = c->connector_id;
		d->conn_wb[d->nconns] =
			c->connector_type == DRM_MODE_CONNECTOR_WRITEBACK;
		d->conn_crtc[d->nconns] = -1;
		if (c->count_encoders) {
			drmModeEncoderPtr e = drmModeGetEncoder(fd, c->encoders[0]);

			if (e) {
				d->conn_crtc[d->nconns] = d->conn_wb[d->nconns] ?
					crtc_index_of_mask(e->possible_crtcs) :
					default_crtc(e->possible_crtcs,
						     nvirtual++);
				drmModeFreeEncoder(e);
			}
		}
		if (!d->conn_wb[d->nconns] && !d->nmodes)
			for (int m = 0; m < c->count_modes && d->nmodes < 16; m++)
				d->modes[d->nmodes++] = c->modes[m];
		get_obj_props(d, fd, o, DRM_MODE_OBJECT_CONNECTOR);
		drmModeFreeConnector(c);
		d->nconns++;
	}
	drmModeFreeResources(res);

	pres = drmModeGetPlaneResources(fd);
	if (!pres)
		return;
	for (uint32_t i = 0; i < pres->count_planes && d->nplanes < MAX_PLANES; i++) {
		drmModePlanePtr p = drmModeGetPlane(fd, pres->planes[i]);
		struct kobj *o = &d->planes[d->nplanes];
		int k;

		if (!p)
			continue;
		o->id = p->plane_id;
		d->plane_crtc[d->nplanes] = crtc_index_of_mask(p->possible_crtcs);
		drmModeFreePlane(p);
		get_obj_props(d, fd, o, DRM_MODE_OBJECT_PLANE);
		d->plane_type[d->nplanes] = DRM_PLANE_TYPE_OVERLAY;
		k = prop_find(d, o, "type");
		if (k >= 0) {
			drmModeObjectPropertiesPtr props =
				drmModeObjectGetProperties(fd, o->id,
							   DRM_MODE_OBJECT_PLANE);

			for (uint32_t j = 0; props && j < props->count_props; j++)
				if (props->props[j] == d->props[k].id)
					d->plane_type[d->nplanes] =
						props->prop_values[j];
			drmModeFreeObjectProperties(props);
		}
		d->nplanes++;
	}
	drmModeFreePlaneResources(pres);

	/* Flip-queue order: primary, overlays (ascending ids), cursor. */
	for (int pass = 0; pass < 3; pass++) {
		static const int order[] = { DRM_PLANE_TYPE_PRIMARY,
					     DRM_PLANE_TYPE_OVERLAY,
					     DRM_PLANE_TYPE_CURSOR };

		for (int i = 0; i < d->nplanes; i++) {
			int c = d->plane_crtc[i];

			if (d->plane_type[i] != order[pass] || c < 0 ||
			    c >= d->ncrtcs || np[c] >= FQ_PLANES)
				continue;
			d->crtc_plane[c][np[c]++] = i;
		}
	}
	memcpy(d->crtc_nplanes, np, sizeof(np));
}
