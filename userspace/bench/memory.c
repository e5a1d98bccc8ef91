// SPDX-License-Identifier: MIT
/*
 * Kernel memory of a driver with a 1080p triple-buffered swap chain per
 * CRTC: /proc/meminfo before (device open, nothing allocated) and after
 * (3 XRGB8888 1920x1080 dumb framebuffers per CRTC, written by the CPU,
 * every CRTC lit at 1920x1080@60 and flipped through its 3 buffers).
 * Counted: Slab (reclaimable + unreclaimable), VmallocUsed and Shmem (the
 * GEM shmem pages of the buffers); the bench process's own page tables are
 * not.  A device with fewer CRTCs than asked (vkms: 1) is measured on what
 * it has and the result scaled, reported with "scaled_from_crtcs".
 *
 *   vflipq-bench memory --driver vflipq|vkms [--name N] [--crtcs 4] [--reps 3]
 *                       [--suffix S]   (appended to the result names)
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "bench.h"

static const char *const fields[] = {
	"SReclaimable", "SUnreclaim", "VmallocUsed", "Shmem", "Percpu",
	"KernelStack", "PageTables",
};
#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

static void meminfo(long *v)
{
	char line[256];
	FILE *f;

	/* Let deferred frees (RCU, workqueues) settle first. */
	sync();
	sleep_ns(300000000ull);
	f = fopen("/proc/meminfo", "r");
	if (!f)
		die("/proc/meminfo: %s", strerror(errno));
	memset(v, 0, sizeof(long) * NFIELDS);
	while (fgets(line, sizeof(line), f)) {
		for (size_t i = 0; i < NFIELDS; i++) {
			size_t l = strlen(fields[i]);

			if (!strncmp(line, fields[i], l) && line[l] == ':')
				v[i] = atol(line + l + 1);
		}
	}
	fclose(f);
}

static void drop_caches(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

	if (fd >= 0) {
		if (write(fd, "3", 1) != 1)
			note("drop_caches: %s", strerror(errno));
		close(fd);
	}
}

int bench_memory(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "driver", required_argument, NULL, 'd' },
		{ "name", required_argument, NULL, 'n' },
		{ "crtcs", required_argument, NULL, 'c' },
		{ "reps", required_argument, NULL, 'r' },
		{ "suffix", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	const char *driver = "vflipq", *name = NULL, *suffix = "";
	char rname[96];
	int want = 4, reps = 3, c, used;
	double runs[16], ovh[16], slab[16], vmalloc[16], shmem[16];
	struct bench_fb fbs[3 * MAX_PIPES];
	struct bench_dev dev;
	drmModeModeInfo mode;
	double scale, buf_kib;
	char extra[512];

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'd': driver = optarg; break;
		case 'n': name = optarg; break;
		case 'c': want = atoi(optarg); break;
		case 'r': reps = atoi(optarg); break;
		case 's': suffix = optarg; break;
		default: return 2;
		}
	}
	if (reps < 1 || reps > 16 || want < 1 || want > MAX_PIPES)
		die("memory: --reps 1-16, --crtcs 1-%d", MAX_PIPES);
	if (!name && !strcmp(driver, "vflipq"))
		name = "default";
	if (bench_open(&dev, driver, name))
		die("no %s device%s%s", driver, name ? " named " : "",
		    name ? name : "");
	used = dev.n_pipes < want ? dev.n_pipes : want;
	scale = (double)want / used;
	bench_mode_1080p(&mode, 60);
	bench_reset(&dev);
	buf_kib = 0;

	for (int rep = 0; rep < reps; rep++) {
		long m0[NFIELDS], m1[NFIELDS], d[NFIELDS];
		struct bench_req r;
		uint32_t blob;
		int ret;

		drop_caches();
		meminfo(m0);
		for (int i = 0; i < 3 * used; i++) {
			bench_fb_create(dev.fd, 1920, 1080, DRM_FORMAT_XRGB8888,
					&fbs[i]);
			bench_fb_fill(&fbs[i], i, false);
		}
		buf_kib = 3.0 * used * fbs[0].size / 1024.0;
		if (drmModeCreatePropertyBlob(dev.fd, &mode, sizeof(mode), &blob))
			die("mode blob: %s", strerror(errno));
		req_init(&r);
		for (int p = 0; p < used; p++) {
			struct bench_pipe *bp = &dev.pipe[p];

			req_add(&r, dev.fd, bp->crtc_id, DRM_MODE_OBJECT_CRTC,
				"MODE_ID", blob);
			req_add(&r, dev.fd, bp->crtc_id, DRM_MODE_OBJECT_CRTC,
				"ACTIVE", 1);
			req_add(&r, dev.fd, bp->conn_id,
				DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID",
				bp->crtc_id);
			req_plane(&r, dev.fd, bp->primary, bp->crtc_id,
				  &fbs[3 * p], 0, 0);
		}
		ret = req_commit(dev.fd, &r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
		if (ret)
			die("%s: mode set of %d CRTCs: %s", driver, used,
			    strerror(-ret));
		drmModeDestroyPropertyBlob(dev.fd, blob);
		/* Two rounds through each swap chain. */
		for (int k = 1; k <= 6; k++) {
			struct bench_events ev = { 0 };

			req_init(&r);
			for (int p = 0; p < used; p++)
				req_add(&r, dev.fd, dev.pipe[p].primary,
					DRM_MODE_OBJECT_PLANE, "FB_ID",
					fbs[3 * p + k % 3].fb_id);
			ret = req_commit(dev.fd, &r, DRM_MODE_ATOMIC_NONBLOCK |
					 DRM_MODE_PAGE_FLIP_EVENT, NULL);
			if (ret)
				die("%s: flip: %s", driver, strerror(-ret));
			while (ev.flips < used)
				if (!bench_read_events(dev.fd, 2000, &ev))
					die("%s: flip events missing", driver);
		}
		meminfo(m1);
		for (size_t i = 0; i < NFIELDS; i++)
			d[i] = m1[i] - m0[i];
		slab[rep] = (d[0] + d[1]) * scale;
		vmalloc[rep] = d[2] * scale;
		shmem[rep] = d[3] * scale;
		runs[rep] = slab[rep] + vmalloc[rep] + shmem[rep];
		ovh[rep] = runs[rep] - buf_kib * scale;
		note("%s memory run %d (%d CRTC%s%s): slab %+ld, vmalloc %+ld, "
		     "shmem %+ld, percpu %+ld, kernel stack %+ld, page tables "
		     "%+ld KiB; buffers %.0f KiB", driver, rep + 1, used,
		     used > 1 ? "s" : "", scale != 1 ? ", unscaled" : "",
		     d[0] + d[1], d[2], d[3], d[4], d[5], d[6], buf_kib);
		bench_reset(&dev);
		for (int i = 0; i < 3 * used; i++)
			bench_fb_destroy(dev.fd, &fbs[i]);
	}
	snprintf(extra, sizeof(extra),
		 "\"crtcs\": %d, \"scaled_from_crtcs\": %d, "
		 "\"slab_kib\": %.0f, \"vmalloc_kib\": %.0f, "
		 "\"shmem_kib\": %.0f, \"buffer_payload_kib\": %.0f",
		 want, used, median(slab, reps), median(vmalloc, reps),
		 median(shmem, reps), buf_kib * scale);
	snprintf(rname, sizeof(rname), "driver_kernel_memory_kib%s", suffix);
	emit(rname, driver, "KiB", "lower", runs, reps, extra);
	snprintf(rname, sizeof(rname), "driver_kernel_memory_overhead_kib%s",
		 suffix);
	emit(rname, driver, "KiB", "lower", ovh, reps, extra);
	bench_close(&dev);
	return 0;
}
