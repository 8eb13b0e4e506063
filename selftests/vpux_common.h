/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers shared by the vpux kselftests: find the vpux accel nodes and
 * issue the driver's ioctls without any library.
 */
#ifndef VPUX_SELFTEST_COMMON_H
#define VPUX_SELFTEST_COMMON_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <drm/vpux_accel.h>

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

/* Open the @nth vpux accel node (0-based); -ENODEV if there is none. */
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

#endif /* VPUX_SELFTEST_COMMON_H */
