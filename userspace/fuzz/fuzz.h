/* SPDX-License-Identifier: MIT */
/*
 * vflipq-fuzz: a seeded, bounded ioctl fuzzer for vflipq (see main.c).
 *
 * Every operation draws its parameters from its own PRNG, seeded from the
 * run seed and the iteration number, so the sequence of operations and of
 * their random parameters depends on the seed only; which objects they
 * refer to (slot k of a table) may differ between runs when the kernel's
 * answers differ (timing: EBUSY, EAGAIN).
 */
#ifndef VFLIPQ_FUZZ_H
#define VFLIPQ_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "truth.h"
#include "vflipq_drm.h"

#ifndef DRM_IOCTL_MODE_CLOSEFB	/* libdrm before 2.4.121 */
struct drm_mode_closefb {
	uint32_t fb_id;
	uint32_t pad;
};
#define DRM_IOCTL_MODE_CLOSEFB DRM_IOWR(0xD0, struct drm_mode_closefb)
#endif

/* ---- PRNG: xorshift64*, seeded through splitmix64 ------------------------ */

struct rng {
	uint64_t s;
};

static inline uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static inline void rng_seed(struct rng *r, uint64_t seed)
{
	r->s = splitmix64(seed);
	if (!r->s)
		r->s = 0x2545f4914f6cdd1dull;
}

static inline uint64_t rng_u64(struct rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dull;
}

static inline uint32_t rng_u32(struct rng *r)
{
	return rng_u64(r) >> 32;
}

/* Uniform in [0, n); 0 when n is 0. */
static inline uint32_t rnd(struct rng *r, uint32_t n)
{
	return n ? (uint32_t)(((rng_u64(r) >> 32) * (uint64_t)n) >> 32) : 0;
}

/* Uniform in [lo, hi]. */
static inline int64_t rnd_range(struct rng *r, int64_t lo, int64_t hi)
{
	return lo + (int64_t)(rng_u64(r) % (uint64_t)(hi - lo + 1));
}

/* True with probability num/den. */
static inline bool chance(struct rng *r, uint32_t num, uint32_t den)
{
	return rnd(r, den) < num;
}

uint64_t rnd_interesting64(struct rng *r);
uint32_t rnd_interesting32(struct rng *r);
void rnd_fill(struct rng *r, void *p, size_t len);

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ---- calls and their statistics ------------------------------------------- */

#define FZ_CALLS(X) \
	X(GET_CAPS) X(FLIPQ_SUBMIT) X(FLIPQ_CANCEL) X(FLIPQ_SET_LOG) \
	X(FLIPQ_UPDATE_LOG) X(GET_COUNTERS) X(COPY) X(SCANOUT_QUERY) \
	X(FLIPQ_RETIRED) X(VFLIPQ_RAW) \
	X(ADDFB2) X(RMFB) X(CLOSEFB) X(ATOMIC) X(PAGE_FLIP) X(SETCRTC) \
	X(SETPLANE) X(CURSOR) X(DIRTYFB) X(GAMMA) X(CREATE_DUMB) X(MAP_DUMB) \
	X(DESTROY_DUMB) X(GEM_CLOSE) X(PRIME_EXPORT) X(PRIME_IMPORT) \
	X(GETRESOURCES) X(GETPLANERES) X(GETCRTC) X(GETPLANE) X(GETENCODER) \
	X(GETCONNECTOR) X(OBJ_GETPROPS) X(OBJ_SETPROP) X(GETPROPERTY) \
	X(GETPROPBLOB) X(CREATEBLOB) X(DESTROYBLOB) X(GETFB2) X(GET_CAP) \
	X(SET_CLIENT_CAP) X(VERSION) X(WAIT_VBLANK) X(CRTC_SEQUENCE) \
	X(SET_MASTER) X(DROP_MASTER) X(CREATE_LEASE) X(LEASE_QUERY) \
	X(REVOKE_LEASE) X(VGEM_FENCE) \
	X(OPEN) X(CLOSE) X(READ_EVENTS) X(POLL) X(MMAP) X(MUNMAP) \
	X(MPROTECT) X(TOUCH) X(DMABUF_SYNC) X(CFS_WRITE) X(CFS_READ) \
	X(CFS_MKDIR) X(CFS_RMDIR) X(CFS_ENABLE)

#define FZ_ENUM(n) C_##n,
enum fz_call { FZ_CALLS(FZ_ENUM) C_NUM };
#undef FZ_ENUM

#define FZ_MAX_ERRNO 134

struct fz_stats {
	uint64_t calls[C_NUM];
	uint64_t err[C_NUM][FZ_MAX_ERRNO + 1];	/* [0]: success */
	uint64_t total;
	uint64_t anomalies;
	uint64_t events, fq_events, faults;
};

extern struct fz_stats fz_stats;
extern bool fz_verbose;
extern uint64_t fz_iter;
extern const char *const fz_call_names[C_NUM];

/* Account for one call: @err is 0 or a positive errno. */
void fz_count(enum fz_call c, int err);
/* ioctl(2) (never drmIoctl: no EAGAIN retry), counted; 0 or -errno. */
int fz_ioctl(enum fz_call c, int fd, unsigned long req, void *arg);
/* A kernel answer that breaks the uAPI contract (leaked bytes, ...). */
__attribute__((format(printf, 1, 2))) void fz_anomaly(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void fz_log(const char *fmt, ...);

/* ---- the world: devices, clients and what they own ------------------------ */

#define CFS_ROOT "/sys/kernel/config/vflipq"

#define MAX_CRTCS 8
#define MAX_PLANES 40
#define MAX_CONNS 16
#define MAX_PROPS 160
#define OBJ_PROPS 24
#define FQ_PLANES 12

struct prop {
	uint32_t id;
	char name[DRM_PROP_NAME_LEN];
	uint32_t flags;
	uint64_t vals[24];	/* range bounds, enum values, object type */
	int nvals;
};

struct kobj {
	uint32_t id;
	int nprops;
	int props[OBJ_PROPS];	/* indices into fdev.props */
};

enum { DEV_DEFAULT, DEV_DISP, DEV_RENDER, NDEVS };

struct fdev {
	const char *name;	/* caps name: "default" or the configfs dir */
	bool cfs;		/* created by us through configfs */
	bool present;		/* a DRM device exists */
	bool topo_valid;
	int card, render;	/* minors, -1 when none */
	uint32_t gen;		/* bumps at every removal */
	struct drm_vflipq_get_caps caps;

	int nprops;
	struct prop props[MAX_PROPS];
	int ncrtcs, nplanes, nconns;
	struct kobj crtcs[MAX_CRTCS];
	struct kobj planes[MAX_PLANES];
	struct kobj conns[MAX_CONNS];
	int plane_crtc[MAX_PLANES];	/* CRTC index */
	int plane_type[MAX_PLANES];
	int conn_crtc[MAX_CONNS];	/* default CRTC index (topology.c) */
	bool conn_wb[MAX_CONNS];
	int nmodes;
	drmModeModeInfo modes[16];
	/* per CRTC: its planes in flip-queue order and PresentId tracking */
	int crtc_nplanes[MAX_CRTCS];
	int crtc_plane[MAX_CRTCS][FQ_PLANES];
	uint64_t last_pid[MAX_CRTCS][FQ_PLANES];
	uint64_t last_target[MAX_CRTCS];
	bool crtc_on[MAX_CRTCS];
	uint64_t period_ns[MAX_CRTCS];
	int fq_owner[MAX_CRTCS];	/* client owning the queue, -1: none */
};

enum client_kind { K_MASTER, K_SECOND, K_LEASE, K_RENDER, K_RCARD, K_VGEM };

#define NBO 16
#define NFB 16
#define NFB_MADE 8	/* fbs slots kept for the structure-aware ones */
#define NBLOB 8
#define NLOG 6
#define NMAP 10

struct bo {
	uint32_t handle;	/* 0: empty slot */
	uint32_t w, h, bpp, pitch;
	uint64_t size;
	bool imported;
};

struct fbrec {
	uint32_t id;		/* 0: empty slot */
	uint32_t w, h, format;
};

struct maprec {
	void *p;		/* NULL: empty slot */
	size_t len;
	bool writable;
};

struct logrec {
	uint32_t handle;	/* 0: empty slot */
	uint64_t size;
	int crtc, plane;	/* CRTC index, flip-queue plane index */
};

struct client {
	const char *label;
	enum client_kind kind;
	int dev;		/* DEV_* or -1 (vgem) */
	int fd;			/* -1: closed */
	uint32_t gen;		/* device generation at open */
	uint32_t lessee_id;
	struct bo bos[NBO];
	struct fbrec fbs[NFB];
	uint32_t blobs[NBLOB];
	struct logrec logs[NLOG];
	struct maprec maps[NMAP];
	/* what this file's events said of each CRTC (truth.h), see read_events() */
	struct vfq_truth truth[MAX_CRTCS];
	int ntruth;
};

enum {
	CL_MASTER, CL_SECOND, CL_LEASE, CL_DMASTER, CL_DSECOND, CL_RENDER,
	CL_RCARD, CL_VGEM, NCLIENTS
};

#define NDMABUF 8
#define NFENCE 4

struct world {
	struct fdev dev[NDEVS];
	struct client cl[NCLIENTS];
	int dmabuf[NDMABUF];
	uint64_t dmabuf_size[NDMABUF];
	int fence[NFENCE];
	bool have_cfs;
	int vgem_card;
	/* scratch target the kernel writes fence fds into */
	int64_t out_fence;
	int32_t wb_fence;
};

extern struct world W;

/* ---- world.c, devices.c, topology.c, clients.c, pickers.c, pipes.c ------- */
void world_init(uint64_t seed);
void world_fini(void);
int client_open(struct client *c);
void client_close(struct client *c, bool unmap);
/* The client's fd, opening it first if closed; -1 if impossible. */
int client_fd(struct client *c);
struct fdev *client_dev(struct client *c);
bool client_is_card(const struct client *c);
void refresh_topology(struct fdev *d, int fd);
int prop_find(const struct fdev *d, const struct kobj *o, const char *name);
uint32_t prop_id(const struct fdev *d, const struct kobj *o, const char *name);
void cfs_cleanup_all(void);
/* The card number of a @driver device (vflipq: the one whose caps name is
 * @caps_name), -1 if none. */
int find_card(const char *driver, const char *caps_name);
/* fuzz-disp and fuzz-render, their parameters drawn from @seed. */
void make_cfs_devices(uint64_t seed);
/* Slot helpers (a full table frees the victim first). */
void bo_forget(struct client *c, int slot, bool close_handle);
int bo_store(struct client *c, struct rng *r, const struct bo *b);
void fb_forget(struct client *c, int slot, bool rm);
int fb_store(struct client *c, struct rng *r, const struct fbrec *f);
/* Slots [lo, hi) of the framebuffer table: the first NFB_MADE are make_fb()'s. */
int fb_store_in(struct client *c, struct rng *r, const struct fbrec *f, int lo, int hi);
void map_forget(struct client *c, int slot);
int map_store(struct client *c, struct rng *r, void *p, size_t len,
	      bool writable);
void log_forget(struct client *c, int slot);
int log_store(struct client *c, struct rng *r, const struct logrec *l);
void dmabuf_forget(int slot);
int dmabuf_store(struct rng *r, int fd, uint64_t size);
void fence_forget(int slot);
void fence_store(struct rng *r, int fd);
/* Touch one byte of a mapping; SIGSEGV/SIGBUS count as a fault. */
void touch(void *p, size_t len, struct rng *r, bool write);
uint64_t now_ns(void);

/* ---- ops_vflipq.c / ops_kms.c / ops_cfs.c ---------------------------------- */
typedef void (*fz_op_fn)(struct rng *r);

struct fz_op {
	const char *name;
	fz_op_fn fn;
	unsigned int weight;
};

extern const struct fz_op fz_vflipq_ops[];
extern const unsigned int fz_num_vflipq_ops;
extern const struct fz_op fz_kms_ops[];
extern const unsigned int fz_num_kms_ops;
extern const struct fz_op fz_cfs_ops[];
extern const unsigned int fz_num_cfs_ops;

/* Shared by the op files. */
struct client *pick_client(struct rng *r, bool vflipq_only);
struct client *pick_card_client(struct rng *r);
uint32_t pick_fb_id(struct rng *r, struct client *c, bool any_client);
uint32_t pick_handle(struct rng *r, struct client *c);
uint32_t pick_format(struct rng *r);
uint32_t pick_crtc_id(struct rng *r, struct fdev *d, int *idx);
uint32_t pick_plane_id(struct rng *r, struct fdev *d, int crtc, int *fqidx);
/* Bring a CRTC up (connector, mode, primary plane with an fb of ours). */
int pipe_up(struct rng *r, struct client *c, int crtc, bool blocking);
int pipe_down(struct client *c, int crtc, bool blocking);
/* A raw atomic request (objects in the order first added). */
struct areq {
	uint32_t objs[64], counts[64], props[256];
	uint64_t vals[256];
	int nobjs, nprops;
};
void areq_add(struct areq *a, uint32_t obj, uint32_t prop, uint64_t val);
int areq_commit(int fd, struct areq *a, uint32_t flags);
/* Size and format of framebuffer @id, from whichever client made it. */
bool fb_info(uint32_t id, struct fbrec *out);
/* configfs enabled/disabled device @dev: note it (card, generation). */
void cfs_device_changed(int dev);
/* The flip-queue owner @c of @d is gone: its sequences restart. */
void fq_owner_gone(struct fdev *d, struct client *c);

/* Create (or find) an fb of @c of w x h, format @format; 0 on failure. */
uint32_t make_fb(struct rng *r, struct client *c, uint32_t w, uint32_t h,
		 uint32_t format);
void read_events(struct client *c);

/* ---- smoke.c -------------------------------------------------------------- */
int smoke_test(void);

#endif /* VFLIPQ_FUZZ_H */
