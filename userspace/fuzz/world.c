// SPDX-License-Identifier: MIT
/*
 * vflipq-fuzz: the world (devices: default, configfs display, configfs
 * render-only, vgem; clients, one fd each) set up and torn down, and the
 * mapping faults the operations provoke.  The rest of the world:
 * devices.c, topology.c, clients.c, pickers.c, pipes.c (README.md).
 */
#include <execinfo.h>
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "fuzz.h"

struct world W;

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* ---- mapping faults ------------------------------------------------------ */

static sigjmp_buf touch_jmp;
static volatile sig_atomic_t touching;

static void fault_handler(int sig)
{
	void *bt[32];
	char msg[128];
	int n;

	if (touching)
		siglongjmp(touch_jmp, 1);
	/* A bug of ours: say where, for the report. */
	n = snprintf(msg, sizeof(msg), "vflipq-fuzz: signal %d at iteration %"
		     PRIu64 "\n", sig, fz_iter);
	if (write(STDOUT_FILENO, msg, n) < 0)
		n = 0;
	n = backtrace(bt, 32);
	backtrace_symbols_fd(bt, n, STDOUT_FILENO);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void __attribute__((noinline)) poke(volatile uint8_t *b, bool write)
{
	uint8_t v = *b;

	if (write)
		*b = v ^ 0x5a;
}

void touch(void *p, size_t len, struct rng *r, bool write)
{
	volatile uint8_t *volatile b =
		(uint8_t *)p + (len ? rng_u64(r) % len : 0);
	volatile bool w = write;

	if (sigsetjmp(touch_jmp, 1)) {
		touching = 0;
		fz_stats.faults++;
		fz_count(C_TOUCH, EFAULT);
		return;
	}
	touching = 1;
	poke(b, w);
	touching = 0;
	fz_count(C_TOUCH, 0);
}

/* ---- setup and teardown --------------------------------------------------------------- */

static const struct {
	const char *label;
	enum client_kind kind;
	int dev;
} client_defs[NCLIENTS] = {
	[CL_MASTER] = { "default/master", K_MASTER, DEV_DEFAULT },
	[CL_SECOND] = { "default/second", K_SECOND, DEV_DEFAULT },
	[CL_LEASE] = { "default/lessee", K_LEASE, DEV_DEFAULT },
	[CL_DMASTER] = { "disp/master", K_MASTER, DEV_DISP },
	[CL_DSECOND] = { "disp/second", K_SECOND, DEV_DISP },
	[CL_RENDER] = { "render/renderD", K_RENDER, DEV_RENDER },
	[CL_RCARD] = { "render/card", K_RCARD, DEV_RENDER },
	[CL_VGEM] = { "vgem", K_VGEM, -1 },
};

void world_init(uint64_t seed)
{
	struct sigaction sa = { .sa_handler = fault_handler };
	struct stat st;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);

	memset(&W, 0, sizeof(W));
	for (int i = 0; i < NDMABUF; i++)
		W.dmabuf[i] = -1;
	for (int i = 0; i < NFENCE; i++)
		W.fence[i] = -1;
	W.dev[DEV_DEFAULT].name = "default";
	W.dev[DEV_DISP].name = "fuzz-disp";
	W.dev[DEV_DISP].cfs = true;
	W.dev[DEV_RENDER].name = "fuzz-render";
	W.dev[DEV_RENDER].cfs = true;
	for (int i = 0; i < NDEVS; i++) {
		W.dev[i].card = W.dev[i].render = -1;
		for (int k = 0; k < MAX_CRTCS; k++)
			W.dev[i].fq_owner[k] = -1;
	}
	for (int i = 0; i < NCLIENTS; i++) {
		W.cl[i].label = client_defs[i].label;
		W.cl[i].kind = client_defs[i].kind;
		W.cl[i].dev = client_defs[i].dev;
		W.cl[i].fd = -1;
	}

	W.dev[DEV_DEFAULT].card = find_card("vflipq", "default");
	if (W.dev[DEV_DEFAULT].card < 0) {
		fprintf(stderr, "vflipq-fuzz: no vflipq device named \"default\"\n");
		exit(1);
	}
	W.dev[DEV_DEFAULT].present = true;
	W.vgem_card = find_card("vgem", NULL);
	W.have_cfs = stat(CFS_ROOT, &st) == 0;
	if (W.have_cfs)
		make_cfs_devices(seed);
	else
		fz_log("vflipq-fuzz: no %s: configfs devices skipped\n", CFS_ROOT);

	if (client_open(&W.cl[CL_MASTER]) < 0) {
		fprintf(stderr, "vflipq-fuzz: cannot open the default device: %s\n",
			strerror(errno));
		exit(1);
	}
	for (int i = 0; i < NCLIENTS; i++)
		client_open(&W.cl[i]);
	fz_log("vflipq-fuzz: default card%d (%d CRTCs, %d planes), vgem card%d,"
	       " disp card%d, render card%d renderD%d\n",
	       W.dev[DEV_DEFAULT].card, W.dev[DEV_DEFAULT].ncrtcs,
	       W.dev[DEV_DEFAULT].nplanes, W.vgem_card, W.dev[DEV_DISP].card,
	       W.dev[DEV_RENDER].card, W.dev[DEV_RENDER].render);
	if (fz_verbose)
		for (int i = 0; i < NCLIENTS; i++)
			fz_log("vflipq-fuzz: client %s: fd %d\n", W.cl[i].label,
			       W.cl[i].fd);
}

void world_fini(void)
{
	for (int i = 0; i < NCLIENTS; i++)
		client_close(&W.cl[i], true);
	for (int i = 0; i < NDMABUF; i++)
		dmabuf_forget(i);
	for (int i = 0; i < NFENCE; i++)
		fence_forget(i);
	if (W.have_cfs)
		cfs_cleanup_all();
}
