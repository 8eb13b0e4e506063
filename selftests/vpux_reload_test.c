// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpux module lifetime: unload refused while a file is open, clean unload
 * and reload, devices gone and back. Needs root, vpux_accel loaded, and
 * VPUX_MODULE naming the .ko to reload (VPUX_MODULE_PARAMS: its params).
 */
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "kselftest_harness.h"
#include "vpux_common.h"

static int unload(void)
{
	return syscall(__NR_delete_module, "vpux_accel", O_NONBLOCK) ? -errno : 0;
}

static int load(const char *path, const char *params)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = syscall(__NR_finit_module, fd, params, 0) ? -errno : 0;
	close(fd);
	return ret;
}

static int module_loaded(void)
{
	struct stat st;

	return !stat("/sys/module/vpux_accel", &st);
}

FIXTURE(reload) {
	const char *path;
	const char *params;
	int ndev;
};

FIXTURE_SETUP(reload)
{
	self->path = getenv("VPUX_MODULE");
	self->params = getenv("VPUX_MODULE_PARAMS");
	if (!self->params)
		self->params = "";
	if (geteuid())
		SKIP(return, "needs root");
	if (!module_loaded())
		SKIP(return, "vpux_accel not loaded");
	if (!self->path || access(self->path, R_OK))
		SKIP(return, "set VPUX_MODULE to the vpux_accel.ko to reload");
	self->ndev = vpux_count_devices();
	ASSERT_GE(self->ndev, 1);
}

FIXTURE_TEARDOWN(reload)
{
	/* leave the module loaded for whoever runs next */
	if (self->path && !module_loaded())
		load(self->path, self->params);
}

TEST_F(reload, busy_while_open)
{
	int fd = vpux_open_nth(0, NULL);

	ASSERT_GE(fd, 0);
	EXPECT_EQ(-EWOULDBLOCK, unload());
	EXPECT_TRUE(module_loaded());
	/* the refused unload left the device working */
	EXPECT_TRUE(vpux_is_vpux(fd));
	close(fd);
}

TEST_F(reload, cycle)
{
	__u64 v;
	int i, fd;

	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, unload()) TH_LOG("unload #%d", i);
		EXPECT_FALSE(module_loaded());
		EXPECT_EQ(0, vpux_count_devices());
		ASSERT_EQ(0, load(self->path, self->params)) TH_LOG("load #%d", i);
		EXPECT_EQ(self->ndev, vpux_count_devices());
		fd = vpux_open_nth(0, NULL);
		ASSERT_GE(fd, 0);
		EXPECT_EQ(0, vpux_get_param(fd, DRM_VPUX_PARAM_DEVICE_ID, &v));
		close(fd);
	}
}

TEST_F(reload, double_load_refused)
{
	EXPECT_EQ(-EEXIST, load(self->path, self->params));
	EXPECT_TRUE(module_loaded());
}

TEST_HARNESS_MAIN
