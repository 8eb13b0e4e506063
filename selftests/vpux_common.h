/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers shared by the vpux kselftests: find the vpux accel nodes, issue
 * the driver's ioctls without any library, read and write the device's
 * sysfs/debugfs files, and the monotonic clock.
 */
#ifndef VPUX_SELFTEST_COMMON_H
#define VPUX_SELFTEST_COMMON_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <drm/vpux_accel.h>

#include "dla_err.h"

#define VPUX_DRIVER_NAME	"vpux_accel"
#define VPUX_MAX_MINORS		64

static inline int vpux_ioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, req, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret == -1 ? -errno : 0;
}

/* 1 if @fd is a DRM node of the vpux driver. */
static inline int vpux_is_vpux(int fd)
{
	char name[32] = "";
	struct drm_version v = {
		.name = name,
		.name_len = sizeof(name) - 1,
	};

	if (vpux_ioctl(fd, DRM_IOCTL_VERSION, &v))
		return 0;
	return !strcmp(name, VPUX_DRIVER_NAME);
}

/*
 * 0 if the driver behind @fd speaks the uapi major these tests are built
 * for; else -EPROTO, with a message naming both versions
 */
static inline int vpux_check_major(int fd, const char *path)
{
	struct drm_version v = { 0 };

	if (vpux_ioctl(fd, DRM_IOCTL_VERSION, &v))
		return -ENODEV;
	if (v.version_major == DRM_VPUX_UAPI_VERSION_MAJOR)
		return 0;
	fprintf(stderr, "%s: " VPUX_DRIVER_NAME " uapi %d.%d, these tests are built for uapi %d.x (uapi/drm/vpux_accel.h)\n",
		path, v.version_major, v.version_minor,
		DRM_VPUX_UAPI_VERSION_MAJOR);
	return -EPROTO;
}

/*
 * Open the @nth vpux accel node (0-based); -ENODEV if there is none,
 * -EPROTO if its driver speaks another uapi major
 */
static inline int vpux_open_nth(int nth, int *minor_out)
{
	char path[64];
	int minor, fd;

	for (minor = 0; minor < VPUX_MAX_MINORS; minor++) {
		snprintf(path, sizeof(path), "/dev/accel/accel%d", minor);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (vpux_is_vpux(fd) && nth-- == 0) {
			if (vpux_check_major(fd, path)) {
				close(fd);
				return -EPROTO;
			}
			if (minor_out)
				*minor_out = minor;
			return fd;
		}
		close(fd);
	}
	return -ENODEV;
}

static inline int vpux_count_devices(void)
{
	int n = 0, fd;

	while ((fd = vpux_open_nth(n, NULL)) >= 0) {
		close(fd);
		n++;
	}
	return n;
}

static inline int vpux_get_param(int fd, __u32 param, __u64 *value)
{
	struct drm_vpux_get_param gp = { .param = param };
	int ret = vpux_ioctl(fd, DRM_IOCTL_VPUX_GET_PARAM, &gp);

	if (!ret)
		*value = gp.value;
	return ret;
}

/* The parameters these tests know: 0 .. VPUX_TEST_PARAMS - 1 */
#define VPUX_TEST_PARAMS	(DRM_VPUX_PARAM_CYCLES + 1)

/* A GET_PARAM value the tests need; 0 when the kernel has none such */
static inline __u64 vpux_param(int fd, __u32 param)
{
	__u64 v = 0;

	return vpux_get_param(fd, param, &v) ? 0 : v;
}

/* A WAIT result's error as one number: -core_error, else sys_error */
static inline int wait_error(const struct drm_vpux_wait *w)
{
	return w->core_error ? -(int)w->core_error : w->sys_error;
}

static inline __s64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/* The platform device of accel minor @minor: its name, e.g. vpux-npu.0 */
static inline int vpux_dev_name(int minor, char *name, size_t len)
{
	char link[96], dev[128];
	ssize_t n;

	snprintf(link, sizeof(link), "/sys/class/accel/accel%d/device", minor);
	n = readlink(link, dev, sizeof(dev) - 1);
	if (n < 0)
		return -errno;
	dev[n] = '\0';
	snprintf(name, len, "%s", strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev);
	return 0;
}

/* A number from a sysfs, debugfs or module parameter file, or -errno. */
static inline long file_read_long(const char *path)
{
	char buf[32] = "";
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return strtol(buf, NULL, 0);
}

#define FILE_LIMIT_PARAM "/sys/module/vpux_accel/parameters/file_memory_limit_mb"

/* Write @val to such a file: 0 or -errno. */
static inline int file_write(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* The module's file_memory_limit_mb (0: the default): 0 or -errno. */
/* Write the number @val to such a file: 0 or -errno. */
static inline int file_write_long(const char *path, long val)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld\n", val);
	return file_write(path, buf);
}

static inline int write_file_limit_mb(long mb)
{
	return file_write_long(FILE_LIMIT_PARAM, mb);
}

/* debugfs of accel minor @minor is named after its device (vpux-npu.N) */
static inline int dbg_path(int minor, const char *name, char *path, size_t len)
{
	char dev[128];
	int ret = vpux_dev_name(minor, dev, sizeof(dev));

	if (ret)
		return ret;
	snprintf(path, len, "/sys/kernel/debug/accel/%s/%s", dev, name);
	return 0;
}

/* read a number / write a string */
static inline long dbg_read(int minor, const char *name)
{
	char path[200];

	if (dbg_path(minor, name, path, sizeof(path)))
		return -ENOENT;
	return file_read_long(path);
}

static inline int dbg_write(int minor, const char *name, const char *val)
{
	char path[200];

	if (dbg_path(minor, name, path, sizeof(path)))
		return -ENOENT;
	return file_write(path, val);
}

/* Read a whole text file into @buf (NUL-terminated): its length or -errno. */
static inline ssize_t file_read_text(const char *path, char *buf, size_t len)
{
	ssize_t n, got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while (got < (ssize_t)len - 1 &&
	       (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += n;
	close(fd);
	buf[got] = '\0';
	return got;
}

/* Read a whole debugfs text file into @buf (NUL-terminated): 0 or -errno. */
static inline int dbg_read_text(int minor, const char *name, char *buf,
				size_t len)
{
	char path[200];
	ssize_t ret;

	if (dbg_path(minor, name, path, sizeof(path)))
		return -ENOENT;
	ret = file_read_text(path, buf, len);
	return ret < 0 ? (int)ret : 0;
}

/*
 * debugfs "engines" into @text: 1 if engine @e (or any engine, for -1)
 * is busy, 0 if not, <0 an error.
 */
static inline int dbg_engine_busy(int minor, int e, char *text, size_t len)
{
	char *line, *save = NULL;
	int ret = dbg_read_text(minor, "engines", text, len), busy = 0;
	char copy[2048];

	if (ret)
		return ret;
	snprintf(copy, sizeof(copy), "%s", text);
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		int n;

		if (sscanf(line, "engine %d", &n) != 1 || (e >= 0 && n != e))
			continue;
		if (strstr(line, ": busy "))
			busy = 1;
	}
	return busy;
}

/* splitmix64: the seeded generator of the fuzzer, the soak and the fault injector */
static inline uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

#endif /* VPUX_SELFTEST_COMMON_H */
