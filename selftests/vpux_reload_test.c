// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpux module lifetime: unload refused while a file is open, clean unload
 * and reload, devices gone and back, unload right after a process with
 * jobs in flight was killed, and the device unbound (hot-unplugged) under
 * a file with jobs in flight. Needs root, vpux_accel loaded, and
 * VPUX_MODULE naming the .ko to reload (VPUX_MODULE_PARAMS: its params).
 */
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "vpux_common.h"
#include "vpux_job_util.h"

#define JOB_BUF		(64 * 1024)

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

/*
 * Open device @nth and queue @n copies of JOB_BUF bytes of 0x3c on it;
 * the fd, or a negative errno. The BOs are unmapped again (a mapping
 * keeps the file, and so the module, in use) except the destination
 * when @dst asks for it.
 */
static int queue_jobs(int nth, int n, struct drm_vpux_submit *last,
		      unsigned char **dst)
{
	struct drm_vpux_buf list[2];
	struct drm_vpux_submit s;
	struct bo t = { 0 }, a = { 0 }, b = { 0 };
	int fd = vpux_open_nth(nth, NULL), i, ret;

	if (fd < 0)
		return fd;
	ret = bo_new(fd, 4096, 0, &t);
	if (!ret)
		ret = bo_new(fd, JOB_BUF, 0, &a);
	if (!ret)
		ret = bo_new(fd, JOB_BUF, 0, &b);
	if (!ret) {
		memset(a.map, 0x3c, JOB_BUF);
		list[0] = (struct drm_vpux_buf){ .handle = a.handle, .size = JOB_BUF };
		list[1] = (struct drm_vpux_buf){ .handle = b.handle, .size = JOB_BUF };
		submit_args(&s, &t, 0, copy_task(&t, 0, JOB_BUF), list, 2);
	}
	for (i = 0; !ret && i < n; i++)
		ret = vpux_ioctl(fd, DRM_IOCTL_VPUX_SUBMIT, &s);
	if (t.map && t.map != MAP_FAILED)
		munmap(t.map, 4096);
	if (a.map && a.map != MAP_FAILED)
		munmap(a.map, JOB_BUF);
	if (b.map && b.map != MAP_FAILED && (ret || !dst))
		munmap(b.map, JOB_BUF);
	if (ret) {
		close(fd);
		return ret;
	}
	if (last)
		*last = s;
	if (dst)
		*dst = b.map;
	return fd;
}

/* Unload, retrying while files being released still hold the module. */
static int unload_within(int seconds)
{
	__s64 end = now_ns() + seconds * 1000000000ll;
	int ret;

	while ((ret = unload()) == -EWOULDBLOCK && now_ns() < end)
		usleep(10000);
	return ret;
}

/* A job on a fresh file of device 0 works. */
static int one_job_works(void)
{
	struct drm_vpux_submit s;
	struct drm_vpux_wait w;
	unsigned char *dst;
	int fd = queue_jobs(0, 1, &s, &dst), ret;

	if (fd < 0)
		return fd;
	ret = job_wait(fd, s.seqno, 30000000000ll, &w);
	if (!ret && (w.status != DRM_VPUX_STATUS_DONE || dst[0] != 0x3c ||
		     dst[JOB_BUF - 1] != 0x3c))
		ret = -EIO;
	munmap(dst, JOB_BUF);
	close(fd);
	return ret;
}

TEST_F_TIMEOUT(reload, unload_after_killing_a_process_with_jobs_in_flight, 120)
{
	int pipefd[2], i;
	pid_t pid;
	char c;

	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, pipe(pipefd));
		pid = fork();
		ASSERT_GE(pid, 0);
		if (!pid) {
			int fd = queue_jobs(0, 200, NULL, NULL);

			c = fd >= 0 ? 'y' : 'n';
			if (write(pipefd[1], &c, 1) != 1)
				_exit(1);
			pause();
			_exit(0);
		}
		close(pipefd[1]);
		ASSERT_EQ(1, read(pipefd[0], &c, 1));
		close(pipefd[0]);
		EXPECT_EQ('y', c);
		/* killed mid-job; its file is released as the process exits */
		kill(pid, SIGKILL);
		ASSERT_EQ(0, unload_within(60)) TH_LOG("unload #%d", i);
		ASSERT_EQ(pid, waitpid(pid, NULL, 0));
		EXPECT_FALSE(module_loaded());
		ASSERT_EQ(0, load(self->path, self->params));
		EXPECT_EQ(0, one_job_works());
	}
}

#define DRV_DIR "/sys/bus/platform/drivers/vpux-npu/"

/*
 * The model's count of register accesses made while no driver was bound
 * to the NPU of accel minor @minor: a file of the NPU device's parent,
 * the model instance (vpux-sim.N/unbound_reg_accesses).
 */
static int unbound_accesses_path(int minor, char *path, size_t len)
{
	char link[96], dev[PATH_MAX - 32], *slash;

	snprintf(link, sizeof(link), "/sys/class/accel/accel%d/device", minor);
	if (!realpath(link, dev))
		return -errno;
	slash = strrchr(dev, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	snprintf(path, len, "%s/unbound_reg_accesses", dev);
	return 0;
}

TEST_F_TIMEOUT(reload, unbind_with_jobs_in_flight, 120)
{
	struct drm_vpux_submit s;
	struct drm_vpux_wait w;
	char name[128], late[PATH_MAX];
	long accesses;
	__u64 v;
	int fd, minor, probe;

	probe = vpux_open_nth(0, &minor);
	ASSERT_GE(probe, 0);
	close(probe);
	ASSERT_EQ(0, vpux_dev_name(minor, name, sizeof(name)));
	ASSERT_EQ(0, unbound_accesses_path(minor, late, sizeof(late)));
	accesses = file_read_long(late);
	ASSERT_GE(accesses, 0) TH_LOG("%s", late);

	fd = queue_jobs(0, 200, &s, NULL);
	ASSERT_GE(fd, 0);
	/* the device goes away under an open file with queued jobs */
	ASSERT_EQ(0, file_write(DRV_DIR "unbind", name));
	EXPECT_EQ(self->ndev - 1, vpux_count_devices());
	/* the file stays valid, but every ioctl says the device is gone */
	EXPECT_EQ(-ENODEV, vpux_get_param(fd, DRM_VPUX_PARAM_DEVICE_ID, &v));
	EXPECT_EQ(-ENODEV, job_wait(fd, s.seqno, 0, &w));
	EXPECT_EQ(-ENODEV, vpux_ioctl(fd, DRM_IOCTL_VPUX_SUBMIT, &s));
	/* the module stays while the file is open */
	EXPECT_EQ(-EWOULDBLOCK, unload());
	close(fd);
	/*
	 * remove() stopped the engines and masked the interrupt while the
	 * registers were there: once it returned, nothing touched them,
	 * not the file's release (its jobs, BOs and address space), not
	 * the engines' last work, not the interrupt
	 */
	usleep(300000);
	EXPECT_EQ(accesses, file_read_long(late));

	/* bound again: a new device that works */
	ASSERT_EQ(0, file_write(DRV_DIR "bind", name));
	EXPECT_EQ(self->ndev, vpux_count_devices());
	EXPECT_EQ(0, one_job_works());
	/* and the module unloads cleanly */
	ASSERT_EQ(0, unload_within(60));
	ASSERT_EQ(0, load(self->path, self->params));
	EXPECT_EQ(0, one_job_works());
}

TEST_HARNESS_MAIN
