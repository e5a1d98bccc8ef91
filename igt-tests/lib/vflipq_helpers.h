/* SPDX-License-Identifier: MIT */
/*
 * vflipq test helpers.  They use only libdrm and upstream libigt, which
 * the tests link (igt_core; igt_pipe_crc for CRCs, igt_fb for
 * framebuffers, igt_kms's igt_display for the display model).  Every name
 * is prefixed vfq_ / VFQ_ to stay clear of IGT's own helpers.
 *
 *   vflipq_helpers.c  device discovery, caps, topology, properties, atomic
 *                     requests, modes, pipes, events
 *   vflipq_fb.c       framebuffers (IGT's igt_fb, raw dumb buffers where a
 *                     test needs them), pixel formats, patterns
 *   vflipq_capture.c  CRC (debugfs) and writeback capture
 *   vflipq_display.c  IGT's display model (igt_display_t) on vfq_dev's pipes
 *   vflipq_sys.c      configfs, module load/unload, kernel log, counters
 */
#ifndef VFLIPQ_HELPERS_H
#define VFLIPQ_HELPERS_H

#include <stdbool.h>
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>

#include <igt.h>

#include "truth.h"
#include "vflipq_drm.h"

/*
 * igt-gpu-tools since 2025 spells igt_main/igt_fixture as function-like
 * macros; the Makefile detects that and the tests keep the classic spelling.
 */
#ifdef VFLIPQ_IGT_FUNCLIKE_BLOCKS
#undef igt_main
#define igt_main int igt_main_args(NULL, NULL, NULL, NULL, NULL)
#undef igt_fixture
#define igt_fixture \
	for (volatile int igt_unique(__tmpint) = 0; \
	     igt_unique(__tmpint) < 1 && __igt_fixture() && \
	     (sigsetjmp(igt_subtest_jmpbuf, 1) == 0); \
	     igt_unique(__tmpint)++, __igt_fixture_complete())
#endif

#define VFQ_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Cap bits a device may report beyond those its display configuration
 * implies: the flip queue and the cross-adapter scan-out tiers.  (1.x's
 * per-flip rotation and batch bits, 11 to 13, are never set since 2.0:
 * every 2.0 flip queue has them all.)
 */
#define VFQ_CAPS_CASO (VFLIPQ_CAP_CASO_COPY | VFLIPQ_CAP_CASO_TEXTURE | \
		       VFLIPQ_CAP_CASO_SCANOUT | VFLIPQ_CAP_HYBRID_INTEGRATED)
#define VFQ_CAPS_EXTRA (VFLIPQ_CAP_FLIP_QUEUE | VFQ_CAPS_CASO)
/* The 1.x cap bits 2.0 retired (FLIPQ_ROTATION, _SUBMIT_MANY, _SUBMIT_IRQ) */
#define VFQ_CAPS_RETIRED (0x7ull << 11)
#define VFQ_MAX_CRTCS 8
#define VFQ_MAX_OVERLAYS 8
#define VFQ_DRIVER_NAME "vflipq"

/* ------------------------------------------------------------------ */
/* device discovery and caps (vflipq_helpers.c)                        */

/* Card indices (N of /dev/dri/cardN) driven by @driver, ascending. */
int vfq_driver_cards(const char *driver, int *cards, int max);
/* open(/dev/dri/cardN); fd or -errno */
int vfq_open_card(int card);
bool vfq_is_driver(int fd, const char *driver);
/* First card driven by @driver: fd, or -ENODEV. */
int vfq_open_driver(const char *driver);
/* vflipq card whose caps name is @name: fd, or -ENOENT. */
int vfq_open_named(const char *name);
/* The module-parameter device ("default"); skips when there is none. */
int vfq_open_default(void);
/* N of the /dev/dri/cardN this fd is open on, -1 if not a card node. */
int vfq_card_index(int fd);
/* DRM_IOCTL_VFLIPQ_GET_CAPS with zeroed input; 0 or -errno. */
int vfq_get_caps(int fd, struct drm_vflipq_get_caps *caps);

/* ------------------------------------------------------------------ */
/* topology                                                           */

struct vfq_pipe {
	int index;			/* CRTC index in the resources */
	uint32_t crtc_id;
	uint32_t conn_id;		/* the VIRTUAL connector */
	uint32_t encoder_id;
	uint32_t wb_conn_id;		/* 0 without writeback */
	uint32_t primary;
	uint32_t cursor;		/* 0 without cursor */
	int n_overlays;
	uint32_t overlays[VFQ_MAX_OVERLAYS];	/* by default zpos */
};

struct vfq_dev {
	int fd;
	struct drm_vflipq_get_caps caps;
	int n_pipes;
	struct vfq_pipe pipe[VFQ_MAX_CRTCS];
	int n_planes;
	int n_connectors;		/* incl. writeback */
};

/*
 * Sets the atomic, universal-plane and writeback client caps on @fd, reads
 * the caps and maps every CRTC to its connector, writeback connector and
 * planes.  Fails the test when the topology is not one the spec allows.
 */
void vfq_dev_init(struct vfq_dev *dev, int fd);
void vfq_dev_fini(struct vfq_dev *dev);	/* closes dev->fd */
/*
 * Everything off: planes detached, connectors (and writeback) detached,
 * CRTCs inactive without mode; plane alpha, blend mode, rotation and zpos
 * back to their defaults.  Asserts the commit succeeds.
 */
void vfq_dev_reset(struct vfq_dev *dev);
int vfq_plane_type(int fd, uint32_t plane_id);	/* DRM_PLANE_TYPE_* */

/* ------------------------------------------------------------------ */
/* properties and atomic requests                                     */

/* Look up property @name on an object; false when absent. */
bool vfq_prop_lookup(int fd, uint32_t obj, uint32_t type, const char *name,
		     uint32_t *prop_id, uint64_t *value);
/* Asserting variants. */
uint32_t vfq_prop_id(int fd, uint32_t obj, uint32_t type, const char *name);
uint64_t vfq_prop_get(int fd, uint32_t obj, uint32_t type, const char *name);
/* Property metadata (caller frees with drmModeFreeProperty); asserts. */
drmModePropertyRes *vfq_prop_info(int fd, uint32_t obj, uint32_t type,
				  const char *name);
/* Value of enum entry @entry of an enum/bitmask property; asserts. */
uint64_t vfq_prop_enum_value(int fd, uint32_t obj, uint32_t type,
			     const char *name, const char *entry);

drmModeAtomicReq *vfq_req_new(void);
void vfq_req_set(drmModeAtomicReq *req, int fd, uint32_t obj, uint32_t type,
		 const char *name, uint64_t value);
/* Commit and free @req; 0 or -errno. */
int vfq_req_commit(int fd, drmModeAtomicReq *req, uint32_t flags,
		   void *user_data);
/* Plane on @crtc at (x, y), w x h, source the whole w x h of @fb at 0,0. */
void vfq_req_plane(drmModeAtomicReq *req, int fd, uint32_t plane,
		   uint32_t crtc, uint32_t fb, int x, int y, int w, int h);
/* Explicit source (pixels) and destination rectangles. */
void vfq_req_plane_src(drmModeAtomicReq *req, int fd, uint32_t plane,
		       uint32_t crtc, uint32_t fb,
		       int sx, int sy, int sw, int sh,
		       int cx, int cy, int cw, int ch);
void vfq_req_plane_off(drmModeAtomicReq *req, int fd, uint32_t plane);

/* ------------------------------------------------------------------ */
/* modes and pipes                                                    */

/* Mode WxH with vrefresh @refresh on @conn; false when not listed. */
bool vfq_find_mode(int fd, uint32_t conn, int w, int h, int refresh,
		   drmModeModeInfo *mode);
/* Asserting variant. */
void vfq_get_mode(int fd, uint32_t conn, int w, int h, int refresh,
		  drmModeModeInfo *mode);
/* Exact refresh rate of a mode in Hz. */
double vfq_mode_hz(const drmModeModeInfo *mode);
/* The frame duration of @mode as the DRM core computes it, ns. */
uint64_t vfq_mode_period(const drmModeModeInfo *mode);
uint32_t vfq_mode_blob(int fd, const drmModeModeInfo *mode);

/*
 * Adds a modeset of @pipe to @req: connector -> CRTC, MODE_ID, ACTIVE and the
 * primary plane full-screen with @fb (which must be the mode's size).
 * *@blob receives the mode blob (destroy after the commit).
 */
void vfq_req_pipe_on(drmModeAtomicReq *req, struct vfq_dev *dev, int pipe,
		     const drmModeModeInfo *mode, uint32_t fb, uint32_t *blob);
/* Blocking modeset of one pipe; asserts success. */
void vfq_pipe_on(struct vfq_dev *dev, int pipe, const drmModeModeInfo *mode,
		 uint32_t fb);
/* Blocking disable of one pipe and its planes/connectors; asserts. */
void vfq_pipe_off(struct vfq_dev *dev, int pipe);

/* ------------------------------------------------------------------ */
/* IGT's display model on vfq_dev's pipes (vflipq_display.c)          */

/*
 * Tests of ordinary KMS set outputs, planes and properties through IGT's
 * igt_display_t and commit with igt_display_commit2() or
 * igt_display_try_commit_atomic(); the vfq_req_* helpers stay for what IGT
 * would hide (exact property sets, deliberately invalid requests, event
 * timing).  vfq_display_init(): igt_display_require() on dev->fd, after
 * vfq_dev_init(); asserts (never skips) that IGT's pipe i is vfq pipe i;
 * leaves igt_display_reset()'s state pending for the first commit.
 */
struct vfq_fb;
void vfq_display_init(igt_display_t *display, struct vfq_dev *dev);
/* The igt output of @pipe's VIRTUAL connector; asserts. */
igt_output_t *vfq_output(igt_display_t *display, struct vfq_dev *dev,
			 int pipe);
/* The igt plane of KMS plane @plane_id on @pipe (vfq_pipe's ids); asserts. */
igt_plane_t *vfq_display_plane(igt_display_t *display, int pipe,
			       uint32_t plane_id);
/*
 * Pending, not committed: @pipe's output on it with @mode
 * (igt_output_override_mode()), the primary full-screen on @fb (NULL: off;
 * vfq_display_plane_fb(), so also a framebuffer IGT did not make).
 */
void vfq_display_pipe(igt_display_t *display, struct vfq_dev *dev, int pipe,
		      const drmModeModeInfo *mode, struct vfq_fb *fb);
/*
 * igt_display_reset() and its commit: every output, CRTC and plane off
 * (and CTM, LUTs, alpha, blend mode, rotation to defaults, not zpos: the
 * tests that change zpos use vfq_dev_reset()).
 */
void vfq_display_off(igt_display_t *display);
/*
 * Blocking modeset turning @pipe off: its output and writeback connector
 * detached, every plane of it without fb, the CRTC inactive without a mode
 * (CTM and LUTs as they are); the other pipes untouched.
 */
void vfq_display_pipe_off(igt_display_t *display, struct vfq_dev *dev,
			  int pipe);

/* ------------------------------------------------------------------ */
/* events                                                             */

struct vfq_event {
	uint32_t type;		/* DRM_EVENT_* */
	uint32_t crtc_id;
	uint64_t sequence;
	uint64_t ts_ns;		/* CLOCK_MONOTONIC */
	uint64_t user_data;
};

/* drmWaitVBlank request-type bits selecting CRTC index @pipe. */
uint32_t vfq_vbl_flag(int pipe);
/*
 * drmWaitVBlank on CRTC index @pipe: @type is DRM_VBLANK_RELATIVE/ABSOLUTE
 * (| DRM_VBLANK_EVENT ...).  0 or -errno; *reply_seq / *reply_ns when set.
 */
int vfq_wait_vblank(int fd, int pipe, uint32_t type, uint32_t seq,
		    unsigned long signal, uint32_t *reply_seq,
		    uint64_t *reply_ns);

/* The vblank counter of CRTC index @pipe advances: the CRTC runs. */
void vfq_assert_running(int fd, int pipe);
/* drmWaitVBlank on CRTC index @pipe fails with EINVAL: the CRTC is off. */
void vfq_assert_stopped(int fd, int pipe);
/* Asserts that the sync_file @fd signals within @timeout_ms. */
void vfq_wait_fence(int fd, int timeout_ms);
/* Next DRM event on @fd within @timeout_ms: 1, 0 on timeout; asserts I/O. */
int vfq_read_event(int fd, int timeout_ms, struct vfq_event *ev);
/* Drop every pending event (waits up to @timeout_ms for stragglers). */
void vfq_drain_events(int fd, int timeout_ms);
uint64_t vfq_now_ns(void);	/* CLOCK_MONOTONIC */

/* ------------------------------------------------------------------ */
/* framebuffers and pixels (vflipq_fb.c)                              */

/* 16-bit unorm colour. */
struct vfq_color {
	uint16_t r, g, b, a;
};

static inline struct vfq_color vfq_rgba8(int r, int g, int b, int a)
{
	return (struct vfq_color){ r * 257, g * 257, b * 257, a * 257 };
}

static inline struct vfq_color vfq_rgb8(int r, int g, int b)
{
	return vfq_rgba8(r, g, b, 255);
}

/* 10-bit channel values, alpha 2-bit 0..3 */
struct vfq_color vfq_rgba10(int r, int g, int b, int a2);
/* Value of a 16-bit channel at @bits precision (rounded). */
int vfq_chan(uint16_t v, int bits);

/*
 * A framebuffer as the tests read it.  vfq_fb_create() makes it through
 * IGT (@igt owns the buffer, the fb and the mapping, and the other fields
 * are copied from it); vfq_bo_create() and vfq_fb_wrap() fill the fields
 * themselves and leave @igt zeroed (see vflipq_fb.c for which tests need
 * that raw control).  A test may RMFB @fb_id itself and zero it:
 * vfq_fb_destroy() then frees only the rest.
 */
struct vfq_fb {
	int fd;
	uint32_t fb_id;		/* 0 until added */
	uint32_t format;
	uint64_t modifier;
	int width, height;
	uint32_t handle;	/* GEM handle on @fd */
	uint32_t pitch;		/* of plane 0 */
	uint64_t size;
	uint32_t offsets[4], pitches[4];
	int n_planes;
	uint8_t *map;		/* CPU mapping of the whole buffer */
	struct igt_fb igt;	/* vfq_fb_create()'s; gem_handle 0 otherwise */
};

const char *vfq_format_name(uint32_t format);
/* Bits per pixel of plane 0 (8 for NV12 luma); 0 for unknown formats. */
int vfq_format_cpp_bits(uint32_t format);
/* Precision of the colour channels of a format (8, 10, 5/6 -> 5, 16). */
int vfq_format_depth(uint32_t format);
bool vfq_format_has_alpha(uint32_t format);

/*
 * Raw dumb buffer for a w x h @format fb, mapped; no ADDFB.  0 or -errno.
 * For buffers IGT's igt_fb cannot make (other devices' dumb buffers, fbs
 * with chosen offsets, ADDFB2 that must be refused); else vfq_fb_create().
 */
int vfq_bo_create(int fd, int w, int h, uint32_t format, struct vfq_fb *fb);
/*
 * A render adapter's rendering in progress: an unsignalled write fence of
 * vgem (@vgem, its card) on its buffer @handle, until signalled.  Both
 * assert; the first returns the fence's id.
 */
uint32_t vfq_vgem_fence_write(int vgem, uint32_t handle);
void vfq_vgem_fence_signal(int vgem, uint32_t fence);
/* ADDFB2 of the buffer with @modifier (LINEAR: no modifier flag); 0/-errno. */
int vfq_fb_add(struct vfq_fb *fb, uint64_t modifier, bool with_modifier);
/*
 * A linear single-plane fb around a GEM handle @fd already has (imported,
 * or another process's surface): no CPU mapping.  ADDFB's 0 or -errno.
 */
int vfq_fb_wrap(struct vfq_fb *fb, int fd, uint32_t handle, uint32_t format,
		int w, int h, uint32_t pitch, uint64_t size);
/*
 * A linear w x h @format fb through IGT's igt_create_fb(), mapped with
 * igt_fb_map_buffer() and cleared to opaque black.  Fails the test (never
 * skips) when the buffer or its ADDFB2 fails.
 */
void vfq_fb_create(int fd, int w, int h, uint32_t format, struct vfq_fb *fb);
/*
 * Frees whichever kind @fb is: unmap, RMFB (if still added), GEM close;
 * vfq_fb_create()'s through igt_fb_unmap_buffer() and igt_remove_fb().
 */
void vfq_fb_destroy(struct vfq_fb *fb);

void vfq_fb_put(struct vfq_fb *fb, int x, int y, struct vfq_color c);
struct vfq_color vfq_fb_get(const struct vfq_fb *fb, int x, int y);
void vfq_fb_fill_rect(struct vfq_fb *fb, int x, int y, int w, int h,
		      struct vfq_color c);
void vfq_fb_fill(struct vfq_fb *fb, struct vfq_color c);

/* NV12 only: write luma at (x, y) and chroma of its 2x2 block. */
void vfq_fb_put_yuv(struct vfq_fb *fb, int x, int y, int Y, int U, int V);
/* BT.601 limited-range YCbCr (8-bit) to 8-bit RGB, as driver.rst defines. */
struct vfq_color vfq_yuv601_to_rgb(int Y, int U, int V);

/* Deterministic opaque 8-bit colour for pixel (x, y) of pattern @seed. */
struct vfq_color vfq_pattern8(int x, int y, uint32_t seed);
/* Same with 10-bit channels. */
struct vfq_color vfq_pattern10(int x, int y, uint32_t seed);
/* Fill the whole fb with vfq_pattern8 (or 10 for 10-bit formats). */
void vfq_fb_pattern(struct vfq_fb *fb, uint32_t seed);
/*
 * Where pixel (x, y) of a w x h fb lands on a plane of rotation @rot
 * (DRM_MODE_ROTATE_* | DRM_MODE_REFLECT_*), as drm_rect_rotate() says.
 */
void vfq_rotate_point(uint32_t rot, int w, int h, int x, int y, int *dx,
		      int *dy);

/* Expected colour of pixel (x, y) for vfq_fb_check(). */
typedef struct vfq_color (*vfq_expect_fn)(int x, int y, void *data);
/*
 * Compare R, G, B of every pixel of @fb at @bits precision with @expect,
 * allowing +-@tol; logs the first mismatches, returns how many there are.
 * A pixel whose expected alpha is 0 is not checked.
 */
int vfq_fb_check(const struct vfq_fb *fb, vfq_expect_fn expect, void *data,
		 int bits, int tol);

/* ------------------------------------------------------------------ */
/* CRC and writeback (vflipq_capture.c)                               */

/*
 * CRC capture is IGT's igt_pipe_crc, opened with
 * igt_pipe_crc_new_nonblock(fd, crtc_index, IGT_PIPE_CRC_SOURCE_AUTO).
 * What IGT has no counterpart for: a read with a deadline.
 *
 * The next CRC of @pc within @timeout_ms: 1, or 0 when none came (some
 * tests assert that none comes; IGT's blocking reads fail the test after
 * 5 s instead).  *@frame = UINT32_MAX for a CRC without a frame number.
 */
int vfq_crc_read(igt_pipe_crc_t *pc, int timeout_ms, uint32_t *frame,
		 uint32_t *value);
/* Asserting: @n consecutive values, skipping frames before @min_frame. */
void vfq_crc_collect(igt_pipe_crc_t *pc, uint32_t min_frame, int n,
		     uint32_t *values);
/* igt_pipe_crc_new_nonblock() on @crtc_index, started. */
igt_pipe_crc_t *vfq_crc_start(int drm_fd, int crtc_index);
/*
 * The CRC vflipq reports for a composed frame of @w x @h 16-bit pixels at
 * output depth @bpc (Documentation/vflipq/driver.rst, "CRC"): the folded
 * frame hash of userspace/common/vflipq_hash.h, computed here without the
 * driver's code; a reference for exact checks.
 */
uint32_t vfq_frame_crc(const struct vfq_color *px, int w, int h, int bpc);
/* The same for a frame whose row y is @rows[y] throughout; fast. */
uint32_t vfq_frame_crc_rows(const struct vfq_color *rows, int w, int h,
			    int bpc);
/*
 * The depth every virtual sink of the device advertises (debugfs
 * vflipq_sink_bpc, 6-16, 8 when the device is created); a CRTC takes it at
 * its next modeset, with its connector's "max bpc" as the upper bound.
 * Tests that set it put 8 back.  vfq_sink_bpc_set(): 0 or -errno.
 */
int vfq_sink_bpc_set(int drm_fd, int bpc);
void vfq_sink_bpc(int drm_fd, int bpc);	/* asserting */
/* A CRTC's output depth, the depth of its CRC (debugfs "state"). */
int vfq_crtc_bpc(int drm_fd, uint32_t crtc_id);
/* Current vblank count of a CRTC (drmCrtcGetSequence). */
uint64_t vfq_crtc_sequence(int fd, uint32_t crtc_id);

/*
 * The on-screen oracle (vflipq_screen.c): each image a test shows is a
 * marker with a distinct CRC; the CRC per vblank (frame counter of the
 * debugfs CRC interface = DRM vblank counter) says which marker the
 * display showed at that vblank, independently of the flip queue's log.
 */
#define VFQ_SCREEN_MAX_MARKERS 8
#define VFQ_SCREEN_NO_CRC (-1)	/* no CRC for that frame (see driver.rst) */
#define VFQ_SCREEN_UNKNOWN (-2)	/* a CRC that is no marker */
struct vfq_screen {
	igt_pipe_crc_t *crc;
	int fd;
	uint32_t crtc_id;
	int n;
	uint32_t crc_of[VFQ_SCREEN_MAX_MARKERS];
};

/*
 * Start CRC capture on @pipe (on, with a @w x @h mode)
 * and learn the CRC of the @n framebuffers by showing each with a plain
 * SETPLANE; asserts they differ.  @fb_ids[0] is on screen afterwards.
 */
void vfq_screen_learn(struct vfq_screen *s, struct vfq_dev *dev, int pipe,
		      const uint32_t *fb_ids, int n, int w, int h);
/* Marker index of @crc, or VFQ_SCREEN_UNKNOWN. */
int vfq_screen_marker(const struct vfq_screen *s, uint32_t crc);
/*
 * Marker shown at vblanks @first .. @first + @count - 1 into @marker[]
 * (VFQ_SCREEN_NO_CRC where the CRC interface reported none); asserts every
 * CRC reported is a marker.  Returns once frame @first + @count - 1 is in.
 */
void vfq_screen_record(struct vfq_screen *s, uint64_t first, int count,
		       int *marker);
void vfq_screen_stop(struct vfq_screen *s);
/*
 * Frames somebody else presented: frame i shown at the vblank @shown_ns[i]
 * (0: never), with content CRC @crc_of[i].  Asserts the CRC of every vblank
 * since the first frame's is that of the last frame shown at or before it;
 * returns how many frames after the first were decided (CRCs known on both
 * sides of their vblank).
 */
int vfq_screen_check_frames(igt_pipe_crc_t *crc, int fd, uint32_t crtc_id,
			    uint64_t period, const uint64_t *shown_ns,
			    const uint32_t *crc_of, int n);
/*
 * Nonblocking mode set of @pipe (off before) to @mode with @fb, done on
 * return.  *@seq, *@ns: the first vblank GET_SEQUENCE answered after the
 * CRTC's vblanks came on; [*@lo, *@hi]: CLOCK_MONOTONIC times between which
 * the CRTC was enabled (its grid's origin stamped): from the request of the
 * mode set to that first answer.  False when the first poll already saw
 * vblanks (no window).
 */
bool vfq_pipe_on_window(struct vfq_dev *dev, int pipe,
			const drmModeModeInfo *mode, uint32_t fb,
			uint64_t *seq, uint64_t *ns, uint64_t *lo,
			uint64_t *hi);
/*
 * The same, with *@seq, *@ns the DRM vblank counter and time of the grid's
 * origin: the mode set's CRTC enable, or with vblank_align the last
 * multiple of @period at or before it; false when the polling could not
 * tell it from the next vblank.
 */
bool vfq_pipe_on_origin(struct vfq_dev *dev, int pipe,
			const drmModeModeInfo *mode, uint32_t fb,
			uint64_t period, uint64_t *seq, uint64_t *ns);
/*
 * The display's reports checked against rules that hold at any load
 * (userspace/common/truth.h), asserted (vflipq_truth.c): one checker per
 * CRTC for events and presented frames, one per flip-queue plane for its
 * log.  Every event's vblank lies at or before its arrival and (a flip) at
 * or after the flip's start; sequence numbers strictly increase (async
 * flips: repeat) and agree with the timestamps on the CRTC's grid of
 * @period ns (0: no fixed grid, VRR).
 */
/* The event @ev of a flip started at @t_start and read at @t_read. */
void vfq_truth_event(struct vfq_truth *t, const char *what, uint64_t t_start,
		     const struct vfq_event *ev, uint64_t t_read);
/* A frame started at @t_start reported shown at the vblank of @ts. */
void vfq_truth_shown(struct vfq_truth *t, const char *what, uint64_t t_start,
		     uint64_t ts, uint64_t t_read);
/* A frame presented at @t_call for @target, reported shown at @ts. */
void vfq_truth_frame(struct vfq_truth *t, const char *what, uint64_t t_call,
		     uint64_t target, uint64_t ts, uint64_t t_read);
/* A vblank known otherwise (vfq_vblank_grid()): the next event is after it. */
void vfq_truth_vblank(struct vfq_truth *t, uint64_t seq, uint64_t ts);
/* A flip-queue log entry read at @t_read. */
void vfq_truth_logged(struct vfq_truth_queue *q, const char *what,
		      uint64_t id, uint64_t ts, uint64_t t_read);
/* The CRTC's last vblank: DRM counter and CLOCK_MONOTONIC time. */
void vfq_vblank_grid(int fd, uint32_t crtc_id, uint64_t *seq, uint64_t *ns);

/* Formats listed in WRITEBACK_PIXEL_FORMATS; count. */
int vfq_wb_formats(struct vfq_dev *dev, int pipe, uint32_t *formats,
		   int max);
/*
 * One writeback of @pipe's output into @out (same size as the mode): commit
 * the job with an out-fence and wait for it.  0, -errno of the commit, or
 * -ETIME when the fence does not signal within @timeout_ms.
 */
int vfq_wb_capture(struct vfq_dev *dev, int pipe, struct vfq_fb *out,
		   int timeout_ms);
/* Asserting variant with a generous timeout. */
void vfq_wb_capture_ok(struct vfq_dev *dev, int pipe, struct vfq_fb *out);

/* ------------------------------------------------------------------ */
/* configfs, modules, kernel log, counters (vflipq_sys.c)             */

#define VFQ_CONFIGFS_ROOT "/sys/kernel/config/vflipq"
/* Prefix of the configfs devices the tests create (cleaned up by name). */
#define VFQ_CFS_PREFIX "igt-"

/* write()/read() a sysfs-like file; bytes or -errno; reads strip "\n". */
int vfq_file_write(const char *path, const char *value);
int vfq_file_read(const char *path, char *buf, size_t len);
/* The device's vblank_align (debugfs vflipq_config); asserts it reads. */
bool vfq_vblank_aligned(int fd);
int vfq_cfs_write(const char *dev, const char *attr, const char *value);
int vfq_cfs_read(const char *dev, const char *attr, char *buf, size_t len);
/* Integer attribute; asserts it reads. */
int vfq_cfs_read_int(const char *dev, const char *attr);
int vfq_cfs_mkdir(const char *dev);	/* 0 or -errno */
int vfq_cfs_rmdir(const char *dev);	/* 0 or -errno */
bool vfq_cfs_available(void);
/* Disable and remove every VFQ_CFS_PREFIX device. */
void vfq_cfs_cleanup(void);
/* Enable an existing device, wait for its card node; returns the card. */
int vfq_cfs_enable(const char *dev);
/* mkdir, write attributes, enable; returns the card. */
int vfq_cfs_create(const char *dev, const char *const *attrs_values);

bool vfq_module_loaded(const char *name);
/* delete_module(2) without waiting; 0 or -errno. */
int vfq_module_unload(const char *name);
/* Load @name with @params (NULL: none), dependencies first; 0 or -errno. */
int vfq_module_load(const char *name, const char *params);

/* Kernel log watcher: marks the log position, reports splats since. */
struct vfq_kmsg {
	int fd;
};
void vfq_kmsg_open(struct vfq_kmsg *k);
/* Number of warning/bug lines logged since open (or the last check). */
int vfq_kmsg_splats(struct vfq_kmsg *k);
void vfq_kmsg_close(struct vfq_kmsg *k);

/*
 * Check debugfs dri/<card>/vflipq_config against @want ("key=value" lines,
 * modes as "mode=WxH@R[ preferred]" in order).  Every line of @want must be
 * there, mode lines exactly and in order; keys that @want lacks are
 * allowed (the file may grow).
 */
void vfq_check_debugfs_config(int card, const char *want);

/* Live dma-bufs ("Total N objects" of debugfs dma_buf/bufinfo), -1 if n/a. */
int vfq_dmabuf_count(void);
int vfq_open_fd_count(void);

/* ------------------------------------------------------------------ */
/* IGT's display model: framebuffers without an igt_fb                */

/*
 * Pending: igt_plane_set_fb() for a framebuffer IGT has no igt_fb of (an
 * ADDFB2 of another device's buffer, of a udmabuf): @plane on its pipe's
 * CRTC with @fb_id, the whole @w x @h as source, @w x @h on screen.  Its
 * position, colour encoding and range are left as they are.
 */
void vfq_display_plane_fb_id(igt_plane_t *plane, uint32_t fb_id, int w,
			     int h);
/*
 * Pending: the whole of @fb on @plane (NULL: off), through
 * igt_plane_set_fb() when IGT made it, else vfq_display_plane_fb_id()
 * (vfq_bo_create()'s framebuffers: plane offsets, explicit modifiers,
 * formats an ADDFB2 must refuse).
 */
void vfq_display_plane_fb(igt_plane_t *plane, struct vfq_fb *fb);

#endif /* VFLIPQ_HELPERS_H */
