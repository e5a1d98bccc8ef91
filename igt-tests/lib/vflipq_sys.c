// SPDX-License-Identifier: MIT
/*
 * vflipq helpers: configfs devices, module load/unload, kernel log watching,
 * dma-buf and fd counters.
 */
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "igt_kmod.h"
#include "vflipq_helpers.h"

/* ---- files -------------------------------------------------------- */

int vfq_file_write(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t len;
	int err;

	if (fd < 0)
		return -errno;
	len = write(fd, value, strlen(value));
	err = errno;
	close(fd);
	igt_debug("write \"%s\" > %s: %s\n", value, path,
		  len < 0 ? strerror(err) : "ok");
	return len < 0 ? -err : (int)len;
}

int vfq_file_read(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = 0, total = 0;
	int err;

	if (fd < 0)
		return -errno;
	while ((size_t)total < len - 1 &&
	       (n = read(fd, buf + total, len - 1 - total)) > 0)
		total += n;
	err = errno;
	close(fd);
	if (n < 0 && total == 0)
		return -err;
	buf[total] = '\0';
	while (total > 0 && buf[total - 1] == '\n')
		buf[--total] = '\0';
	return total;
}

/* ---- configfs ----------------------------------------------------- */

static void cfs_path(char *path, size_t len, const char *dev,
		     const char *attr)
{
	if (attr)
		snprintf(path, len, "%s/%s/%s", VFQ_CONFIGFS_ROOT, dev, attr);
	else
		snprintf(path, len, "%s/%s", VFQ_CONFIGFS_ROOT, dev);
}

int vfq_cfs_write(const char *dev, const char *attr, const char *value)
{
	char path[512];

	cfs_path(path, sizeof(path), dev, attr);
	return vfq_file_write(path, value);
}

int vfq_cfs_read(const char *dev, const char *attr, char *buf, size_t len)
{
	char path[512];

	cfs_path(path, sizeof(path), dev, attr);
	return vfq_file_read(path, buf, len);
}

int vfq_cfs_read_int(const char *dev, const char *attr)
{
	char buf[64], *end;
	long v;
	int ret = vfq_cfs_read(dev, attr, buf, sizeof(buf));

	igt_assert_f(ret > 0, "reading %s/%s: %s\n", dev, attr,
		     ret < 0 ? strerror(-ret) : "empty");
	v = strtol(buf, &end, 0);
	igt_assert_f(*end == '\0', "%s/%s: \"%s\" is not a number\n", dev,
		     attr, buf);
	return v;
}

int vfq_cfs_mkdir(const char *dev)
{
	char path[512];

	cfs_path(path, sizeof(path), dev, NULL);
	return mkdir(path, 0755) ? -errno : 0;
}

int vfq_cfs_rmdir(const char *dev)
{
	char path[512];

	cfs_path(path, sizeof(path), dev, NULL);
	return rmdir(path) ? -errno : 0;
}

bool vfq_cfs_available(void)
{
	struct stat st;

	return stat(VFQ_CONFIGFS_ROOT, &st) == 0 && S_ISDIR(st.st_mode);
}

void vfq_cfs_cleanup(void)
{
	DIR *dir = opendir(VFQ_CONFIGFS_ROOT);
	struct dirent *de;

	if (!dir)
		return;
	while ((de = readdir(dir))) {
		if (strncmp(de->d_name, VFQ_CFS_PREFIX,
			    strlen(VFQ_CFS_PREFIX)))
			continue;
		vfq_cfs_write(de->d_name, "enabled", "0");
		if (vfq_cfs_rmdir(de->d_name))
			igt_warn("cannot remove configfs device %s: %s\n",
				 de->d_name, strerror(errno));
	}
	closedir(dir);
}

int vfq_cfs_enable(const char *dev)
{
	char node[64];
	int ret, card;

	ret = vfq_cfs_write(dev, "enabled", "1");
	igt_assert_f(ret >= 0, "enabling %s: %s\n", dev, strerror(-ret));
	card = vfq_cfs_read_int(dev, "card");
	igt_assert_f(card >= 0 && card < 64, "%s: card %d after enable\n",
		     dev, card);
	snprintf(node, sizeof(node), "/dev/dri/card%d", card);
	for (int i = 0; i < 200 && access(node, F_OK); i++)
		usleep(10000);
	igt_assert_f(access(node, F_OK) == 0, "%s did not appear\n", node);
	return card;
}

int vfq_cfs_create(const char *dev, const char *const *attrs_values)
{
	int ret;

	ret = vfq_cfs_mkdir(dev);
	igt_assert_f(ret == 0, "mkdir %s/%s: %s\n", VFQ_CONFIGFS_ROOT, dev,
		     strerror(-ret));
	for (int i = 0; attrs_values && attrs_values[i]; i += 2) {
		ret = vfq_cfs_write(dev, attrs_values[i], attrs_values[i + 1]);
		igt_assert_f(ret >= 0, "%s/%s = \"%s\": %s\n", dev,
			     attrs_values[i], attrs_values[i + 1],
			     strerror(-ret));
	}
	return vfq_cfs_enable(dev);
}

/* ---- modules ------------------------------------------------------ */

bool vfq_module_loaded(const char *name)
{
	FILE *f = fopen("/proc/modules", "re");
	char line[512];
	size_t n = strlen(name);
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = strncmp(line, name, n) == 0 && line[n] == ' ';
	fclose(f);
	return found;
}

int vfq_module_unload(const char *name)
{
	if (syscall(SYS_delete_module, name, O_NONBLOCK))
		return -errno;
	return 0;
}

/*
 * Through libkmod, not a modprobe child: the kernel's errno comes back as
 * it is, and a refusal a test asks for is not logged as an igt_warn (which
 * igt_system() makes of a child's stderr, and run-tests counts as failed).
 */
int vfq_module_load(const char *name, const char *params)
{
	return igt_kmod_load(name, params ? params : "");
}

/* ---- kernel log --------------------------------------------------- */

void vfq_kmsg_open(struct vfq_kmsg *k)
{
	k->fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (k->fd < 0) {
		igt_debug("/dev/kmsg: %s\n", strerror(errno));
		return;
	}
	lseek(k->fd, 0, SEEK_END);
}

int vfq_kmsg_splats(struct vfq_kmsg *k)
{
	static const char *const bad[] = {
		"WARNING:", "BUG:", "BUG ", "Oops", "Call Trace",
		"refcount_t:", "UBSAN:", "KASAN:", "general protection",
		"list_add corruption", "list_del corruption",
		"possible circular locking", "suspicious RCU usage",
		"kernel NULL pointer", "use-after-free",
	};
	char rec[8192];
	int count = 0;

	if (k->fd < 0)
		return 0;
	for (;;) {
		ssize_t len = read(k->fd, rec, sizeof(rec) - 1);
		char *msg;

		if (len < 0 && errno == EPIPE)
			continue;	/* overwritten records */
		if (len <= 0)
			break;
		rec[len] = '\0';
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		for (size_t i = 0; i < VFQ_ARRAY_SIZE(bad); i++) {
			if (strstr(msg, bad[i])) {
				igt_warn("kernel: %s", msg);
				count++;
				break;
			}
		}
	}
	return count;
}

void vfq_kmsg_close(struct vfq_kmsg *k)
{
	if (k->fd >= 0)
		close(k->fd);
	k->fd = -1;
}

/* ---- counters ----------------------------------------------------- */

int vfq_dmabuf_count(void)
{
	FILE *f = fopen("/sys/kernel/debug/dma_buf/bufinfo", "re");
	char line[512];
	int total = -1;

	if (!f)
		return -1;
	/* "Total N objects, M bytes" (not the per-buffer "Total N devices
	 * attached" lines) */
	while (fgets(line, sizeof(line), f)) {
		int n;

		if (sscanf(line, "Total %d objects", &n) == 1 &&
		    strstr(line, " objects"))
			total = n;
	}
	fclose(f);
	return total;
}

int vfq_open_fd_count(void)
{
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0;

	if (!dir)
		return -1;
	while ((de = readdir(dir)))
		if (de->d_name[0] != '.')
			n++;
	closedir(dir);
	return n - 1;	/* the directory's own fd */
}

/* ---- debugfs configuration ------------------------------------------ */

static int split_lines(char *buf, char **lines, int max)
{
	int n = 0;

	for (char *save = NULL, *l = strtok_r(buf, "\n", &save); l && n < max;
	     l = strtok_r(NULL, "\n", &save))
		lines[n++] = l;
	return n;
}

bool vfq_vblank_aligned(int fd)
{
	char path[128], got[4096];
	int ret;

	snprintf(path, sizeof(path), "/sys/kernel/debug/dri/%d/vflipq_config",
		 vfq_card_index(fd));
	ret = vfq_file_read(path, got, sizeof(got));
	igt_assert_f(ret > 0, "%s: %s\n", path, strerror(-ret));
	if (strstr(got, "\nvblank_align=1\n"))
		return true;
	igt_assert_f(strstr(got, "\nvblank_align=0\n"),
		     "%s has no vblank_align line\n", path);
	return false;
}

void vfq_check_debugfs_config(int card, const char *want)
{
	char path[128], got[4096], exp[4096], *gl[64], *wl[64];
	int ng, nw, gm = 0, wm = 0, ret;

	snprintf(path, sizeof(path), "/sys/kernel/debug/dri/%d/vflipq_config",
		 card);
	ret = vfq_file_read(path, got, sizeof(got));
	igt_assert_f(ret > 0, "%s: %s\n", path, strerror(-ret));
	igt_debug("%s:\n%s\n", path, got);
	snprintf(exp, sizeof(exp), "%s", want);
	ng = split_lines(got, gl, 64);
	nw = split_lines(exp, wl, 64);

	for (int i = 0; i < nw; i++) {
		bool found = false;

		if (!strncmp(wl[i], "mode=", 5))
			continue;
		for (int j = 0; j < ng && !found; j++)
			found = !strcmp(gl[j], wl[i]);
		igt_assert_f(found, "%s lacks \"%s\"\n", path, wl[i]);
	}
	/* the mode lines, in order */
	for (;;) {
		while (gm < ng && strncmp(gl[gm], "mode=", 5))
			gm++;
		while (wm < nw && strncmp(wl[wm], "mode=", 5))
			wm++;
		if (gm == ng || wm == nw)
			break;
		igt_assert_f(!strcmp(gl[gm], wl[wm]), "%s: \"%s\", expected "
			     "\"%s\"\n", path, gl[gm], wl[wm]);
		gm++;
		wm++;
	}
	igt_assert_f(gm == ng && wm == nw, "%s: %s mode lines\n", path,
		     gm < ng ? "extra" : "missing");
}
