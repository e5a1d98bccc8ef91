/* SPDX-License-Identifier: MIT */
/*
 * vflipq-bench: benchmarks of vflipq against the kernel's vkms, run in the
 * test VM by "make bench".  Each benchmark prints one "BENCH {json}" line
 * per driver with its raw per-run values; the host turns them into
 * out/bench.json and out/bench.md (userspace/bench/report.py).
 */
#ifndef VFLIPQ_BENCH_H
#define VFLIPQ_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <xf86drm.h>
#include <xf86drmMode.h>

#include "vflipq_drm.h"

#define MAX_PLANES 16
#define MAX_PIPES 8

/* ---- util.c ------------------------------------------------------------ */

extern const char *bench_data_dir;	/* raw sample files go here */

uint64_t now_ns(void);
void sleep_ns(uint64_t ns);
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int cmp_double(const void *a, const void *b);
/* Sorts @v in place; p in [0, 100]. */
double percentile(double *v, size_t n, double p);
double median(double *v, size_t n);
FILE *data_file(const char *name);

/*
 * One "BENCH {...}" line: name, driver, unit, better ("higher"/"lower"),
 * the per-run values, and optional extra key/values (already JSON).
 */
void emit(const char *name, const char *driver, const char *unit,
	  const char *better, const double *runs, int nruns,
	  const char *extra_json);

/* ---- kms.c ------------------------------------------------------------- */

struct bench_plane {
	uint32_t id;
	int type;		/* DRM_PLANE_TYPE_* */
	uint32_t possible_crtcs;
};

struct bench_pipe {
	int index;		/* CRTC index (debugfs crtc-N) */
	uint32_t crtc_id;
	uint32_t conn_id;
	uint32_t primary, cursor;
	uint32_t overlays[MAX_PLANES];
	int n_overlays;
};

struct bench_dev {
	int fd;
	int card;		/* /dev/dri/cardN, /sys/kernel/debug/dri/N */
	char driver[32];
	int n_pipes;
	struct bench_pipe pipe[MAX_PIPES];
	bool is_vflipq;
	struct drm_vflipq_get_caps caps;	/* vflipq only */
};

struct bench_fb {
	uint32_t fb_id, handle, format;
	uint32_t width, height, pitch, cpp;
	size_t size;
	uint8_t *map;
};

/*
 * Open the card of @driver; for vflipq, @name picks the device by its caps
 * name ("default", or a configfs directory), NULL for any.
 */
int bench_open(struct bench_dev *dev, const char *driver, const char *name);
/* The same without KMS set-up (render-only devices): fd or -ENODEV. */
int bench_open_card(const char *driver, const char *name,
		    struct drm_vflipq_get_caps *caps, int *card);
void bench_close(struct bench_dev *dev);

/* 1920x1080 at @hz (DMT 1080p60 timings with a scaled pixel clock). */
void bench_mode_1080p(drmModeModeInfo *m, double hz);
/* Frame duration as the DRM vblank core computes it (integer ns). */
uint64_t bench_mode_period_ns(const drmModeModeInfo *m);

void bench_fb_create(int fd, uint32_t w, uint32_t h, uint32_t format,
		     struct bench_fb *fb);
void bench_fb_destroy(int fd, struct bench_fb *fb);
/* Map a dumb buffer of @fd read-write (shared). */
uint8_t *bench_map_dumb(int fd, uint32_t handle, size_t size);
/* Fill with a pattern that depends on @seed (premultiplied where alpha). */
void bench_fb_fill(struct bench_fb *fb, unsigned int seed, bool alpha_ramp);
/* Write @counter into the first pixels (opaque, all counter bits visible). */
void bench_fb_stamp(struct bench_fb *fb, uint32_t counter);

uint32_t bench_prop_id(int fd, uint32_t obj, uint32_t type, const char *name);
bool bench_has_prop(int fd, uint32_t obj, uint32_t type, const char *name);

/* A raw atomic request (object/property/value triples). */
struct bench_req {
	uint32_t objs[64];
	uint32_t count_props[64];
	uint32_t props[512];
	uint64_t values[512];
	int n_objs, n_props;
};

void req_init(struct bench_req *r);
void req_add(struct bench_req *r, int fd, uint32_t obj, uint32_t type,
	     const char *name, uint64_t value);
/* Add a plane at (x, y) showing the whole fb (no scaling). */
void req_plane(struct bench_req *r, int fd, uint32_t plane, uint32_t crtc,
	       const struct bench_fb *fb, int x, int y);
void req_plane_off(struct bench_req *r, int fd, uint32_t plane);
/* DRM_IOCTL_MODE_ATOMIC; returns 0 or -errno. */
int req_commit(int fd, struct bench_req *r, uint32_t flags, void *user);

/* Disable every plane and CRTC of the device (blocking commit). */
void bench_reset(struct bench_dev *dev);
/* Mode set of one pipe with its primary showing @fb; other planes off. */
void bench_pipe_on(struct bench_dev *dev, int pipe, const drmModeModeInfo *m,
		   const struct bench_fb *fb);

/*
 * Wait up to @timeout_ms for DRM events; returns the number of page-flip
 * events read (their user data and times via the optional callbacks).
 */
struct bench_events {
	int flips;			/* page-flip / vblank events */
	int flipq;			/* DRM_VFLIPQ_EVENT_FLIPQ */
	uint64_t flip_ts_ns;		/* last flip event timestamp (us res) */
	uint64_t flip_seq;
	struct drm_vflipq_event_flipq last_flipq;
};
int bench_read_events(int fd, int timeout_ms, struct bench_events *ev);

/* ---- fq.c: the flip-queue ioctls (vflipq) ------------------------------ */

/*
 * One ON_NEXT_VSYNC flip of @plane, a FLIPQ_SUBMIT batch of one; 0 or
 * -errno (-EAGAIN: queue full).
 */
int fq_submit_plane(int fd, uint32_t crtc, uint32_t plane, uint32_t fb,
		    uint64_t id, uint64_t target_ns);
/*
 * @n such flips in one FLIPQ_SUBMIT, PresentIds from @first_id, targets
 * @step_ns apart from @first_target_ns, buffers @fbs[i]; 0 or -errno, -EIO
 * when only some were queued.
 */
#define FQ_MANY_MAX 64
int fq_submit_plane_many(int fd, uint32_t crtc, uint32_t plane,
			 const uint32_t *fbs, uint64_t first_id,
			 uint64_t first_target_ns, uint64_t step_ns, int n);
/*
 * The same, also setting @plane's interrupt target to *@irq_target in the
 * same step as the last flip is queued (VFLIPQ_SUBMIT_IRQ_TARGET), only
 * when all are, unless it is NULL.
 */
int fq_submit_plane_many_irq(int fd, uint32_t crtc, uint32_t plane,
			     const uint32_t *fbs, uint64_t first_id,
			     uint64_t first_target_ns, uint64_t step_ns, int n,
			     const uint64_t *irq_target);
/* A log of @n entries for @plane (queued flips need one): its GEM handle. */
uint32_t fq_set_log(int fd, uint32_t crtc, uint32_t plane, uint32_t n,
		    uint64_t *size);
/*
 * @plane's interrupt target, at once: a FLIPQ_SUBMIT without flips, with
 * VFLIPQ_SUBMIT_IRQ_TARGET (1.x's FLIPQ_SET_IRQ_TARGET).
 */
void fq_set_irq_target(int fd, uint32_t crtc, uint32_t plane, uint64_t id);
struct drm_vflipq_get_counters fq_get_counters(int fd, uint32_t crtc);

/* ---- benchmarks ---------------------------------------------------------- */

int bench_memcpy(int argc, char **argv);
int bench_composer(int argc, char **argv);
int bench_damage(int argc, char **argv);
int bench_latency(int argc, char **argv);
int bench_flipq_events(int argc, char **argv);
int bench_flipq_ontime(int argc, char **argv);
int bench_submit_cost(int argc, char **argv);
int bench_memory(int argc, char **argv);
int bench_caso(int argc, char **argv);
int bench_idle(int argc, char **argv);

#endif
