// SPDX-License-Identifier: MIT
/*
 * Kernel memory of a driver with a 1080p triple-buffered swap chain per
 * CRTC: /proc/meminfo before (device open, nothing allocated) and after
 * (3 XRGB8888 1920x1080 dumb framebuffers per CRTC, written by the CPU,
 * every CRTC lit at 1920x1080@60 and flipped through its 3 buffers).
 * Counted: slab memory, VmallocUsed and Shmem (the GEM shmem pages of the
 * buffers); the bench process's own page tables are not.  A device with
 * fewer CRTCs than asked (vkms: 1) is measured on what it has and the
 * result scaled, reported with "scaled_from_crtcs".
 *
 * Slab memory is counted in objects, not pages: meminfo's Slab counts the
 * pages of the slab caches, and SLUB keeps freed objects' pages on its
 * per-CPU and partial lists (drop_caches, run first, frees thousands of
 * page-cache xarray nodes, dentries and inodes and leaves their pages
 * there).  New objects then fill those holes unseen until a cache runs
 * out and takes whole new slabs (up to 32 KiB each): a small allocation
 * reads as almost nothing, a larger one as more than it is.  So every
 * cache is shrunk (/sys/kernel/slab/<cache>/shrink: per-CPU slabs
 * flushed, empty ones freed), the objects in use are summed from
 * /proc/slabinfo (active_objs x objsize), and the slab memory outside the
 * caches (kmalloc() above 8 KiB, such as a buffer's page array, goes to
 * the page allocator but is counted in meminfo's SUnreclaim) is meminfo's
 * Slab minus the caches' pages.  meminfo is read after a write to
 * /proc/sys/vm/stat_refresh: its counters are batched per CPU.
 *
 *   vflipq-bench memory --driver vflipq|vkms [--name N] [--crtcs 4] [--reps 3]
 *                       [--suffix S]   (appended to the result names)
 */
#include <dirent.h>
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

/* Write @val to a control file of the kernel, if it exists. */
static void poke(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0)
		return;
	if (write(fd, val, strlen(val)) < 0)
		note("%s: %s", path, strerror(errno));
	close(fd);
}

/* Fold the per-CPU batches of the counters that meminfo shows. */
static void refresh_vmstat(void)
{
	poke("/proc/sys/vm/stat_refresh", "1");
}

static void drop_caches(void)
{
	poke("/proc/sys/vm/drop_caches", "3");
}

/* Flush every cache's per-CPU slabs and free its empty slabs. */
static void shrink_slabs(void)
{
	DIR *d = opendir("/sys/kernel/slab");
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[384];

		/* Merged caches appear again as symbolic links. */
		if (e->d_name[0] == '.' || e->d_type == DT_LNK)
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/slab/%s/shrink",
			 e->d_name);
		poke(path, "1");
	}
	closedir(d);
}

/* KiB of objects in use per slab cache, to name what grew. */
#define MAX_CACHES 512
struct slab_snap {
	int n;
	char name[MAX_CACHES][48];
	double kib[MAX_CACHES];
};

/*
 * KiB of slab objects in use and of the pages of the caches holding them
 * (per cache into @snap); false without /proc/slabinfo.  Exact right after
 * shrink_slabs(): no per-CPU slab then hides its free objects from the
 * count.
 */
static bool slabinfo(double *obj_kib, double *pages_kib,
		     struct slab_snap *snap)
{
	long page_kib = sysconf(_SC_PAGESIZE) / 1024;
	char line[512];
	FILE *f = fopen("/proc/slabinfo", "r");

	*obj_kib = *pages_kib = 0;
	snap->n = 0;
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		unsigned long active, num, size, perslab, pages, aslabs, nslabs;
		char name[48];

		if (sscanf(line, "%47s %lu %lu %lu %lu %lu : tunables %*u %*u "
			   "%*u : slabdata %lu %lu", name, &active, &num, &size,
			   &perslab, &pages, &aslabs, &nslabs) != 8)
			continue;	/* the two header lines */
		*obj_kib += (double)active * size / 1024.0;
		*pages_kib += (double)nslabs * pages * page_kib;
		if (snap->n < MAX_CACHES) {
			memcpy(snap->name[snap->n], name, sizeof(name));
			snap->kib[snap->n++] = (double)active * size / 1024.0;
		}
	}
	fclose(f);
	return true;
}

/* The caches that changed most from @a to @b, as text. */
static void slab_growth(const struct slab_snap *a, const struct slab_snap *b,
			char *out, size_t len)
{
	double d[MAX_CACHES];
	size_t pos = 0;

	for (int i = 0; i < b->n; i++) {
		d[i] = b->kib[i];
		for (int j = 0; j < a->n; j++)
			if (!strcmp(a->name[j], b->name[i])) {
				d[i] -= a->kib[j];
				break;
			}
	}
	out[0] = 0;
	for (int k = 0; k < 6; k++) {
		int best = -1;

		for (int i = 0; i < b->n; i++)
			if ((d[i] >= 4 || d[i] <= -4) &&
			    (best < 0 || d[i] * d[i] > d[best] * d[best]))
				best = i;
		if (best < 0 || pos >= len)
			break;
		pos += snprintf(out + pos, len - pos, "%s%s %+.0f", k ? ", " : "",
				b->name[best], d[best]);
		d[best] = 0;
	}
}

static void meminfo(long *v, double *slab_obj_kib, double *slab_pages_kib,
		    bool *objects, struct slab_snap *snap)
{
	char line[256];
	FILE *f;

	double prev = -1;

	/*
	 * Let deferred frees (RCU callbacks of drop_caches' dentries and
	 * inodes, of the last run's buffers, workqueues) settle first: until
	 * the objects in use stop moving, for at most 3 s.
	 */
	sync();
	for (int i = 0; i < 15; i++) {
		sleep_ns(200000000ull);
		shrink_slabs();
		*objects = slabinfo(slab_obj_kib, slab_pages_kib, snap);
		if (!*objects || (prev >= 0 && *slab_obj_kib - prev < 8 &&
				  prev - *slab_obj_kib < 8))
			break;
		prev = *slab_obj_kib;
	}
	/*
	 * meminfo's counters are per-CPU batched (folded past a threshold or
	 * once a second): without this each reading is off by up to tens of
	 * pages per CPU.
	 */
	refresh_vmstat();
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
	double slab_pages[16], large[16];
	static struct slab_snap snap0, snap1;
	bool objects = true;
	char grew[512];
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
		double o0, o1, p0, p1;
		bool ok0, ok1;
		struct bench_req r;
		uint32_t blob;
		int ret;

		drop_caches();
		meminfo(m0, &o0, &p0, &ok0, &snap0);
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
		meminfo(m1, &o1, &p1, &ok1, &snap1);
		slab_growth(&snap0, &snap1, grew, sizeof(grew));
		for (size_t i = 0; i < NFIELDS; i++)
			d[i] = m1[i] - m0[i];
		/* What meminfo alone says, for comparison: pages. */
		slab_pages[rep] = (d[0] + d[1]) * scale;
		if (ok0 && ok1) {
			/* Slab outside the caches: large kmalloc()s. */
			large[rep] = ((d[0] + d[1]) - (p1 - p0)) * scale;
			slab[rep] = (o1 - o0) * scale + large[rep];
		} else {
			objects = false;
			large[rep] = 0;
			slab[rep] = slab_pages[rep];
		}
		vmalloc[rep] = d[2] * scale;
		shmem[rep] = d[3] * scale;
		runs[rep] = slab[rep] + vmalloc[rep] + shmem[rep];
		ovh[rep] = runs[rep] - buf_kib * scale;
		note("%s memory run %d (%d CRTC%s%s): slab objects %+.0f "
		     "(of which large kmalloc %+.0f; meminfo Slab pages %+ld), "
		     "vmalloc %+ld, shmem %+ld, percpu %+ld, kernel stack %+ld, "
		     "page tables %+ld KiB; buffers %.0f KiB; caches: %s",
		     driver, rep + 1, used, used > 1 ? "s" : "",
		     scale != 1 ? ", unscaled" : "", slab[rep] / scale,
		     large[rep] / scale, d[0] + d[1], d[2], d[3], d[4], d[5],
		     d[6], buf_kib, grew[0] ? grew : "-");
		bench_reset(&dev);
		for (int i = 0; i < 3 * used; i++)
			bench_fb_destroy(dev.fd, &fbs[i]);
	}
	snprintf(extra, sizeof(extra),
		 "\"crtcs\": %d, \"scaled_from_crtcs\": %d, "
		 "\"slab_kib\": %.0f, \"slab_large_kmalloc_kib\": %.0f, "
		 "\"slab_pages_kib\": %.0f, \"slab_counted_as\": \"%s\", "
		 "\"vmalloc_kib\": %.0f, "
		 "\"shmem_kib\": %.0f, \"buffer_payload_kib\": %.0f",
		 want, used, median(slab, reps), median(large, reps),
		 median(slab_pages, reps), objects ? "objects" : "pages",
		 median(vmalloc, reps), median(shmem, reps), buf_kib * scale);
	snprintf(rname, sizeof(rname), "driver_kernel_memory_kib%s", suffix);
	emit(rname, driver, "KiB", "lower", runs, reps, extra);
	snprintf(rname, sizeof(rname), "driver_kernel_memory_overhead_kib%s",
		 suffix);
	emit(rname, driver, "KiB", "lower", ovh, reps, extra);
	bench_close(&dev);
	return 0;
}
