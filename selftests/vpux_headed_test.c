// SPDX-License-Identifier: GPL-2.0-only
/*
 * Headed mode (vpux_accel mode=headed): the engine core runs as firmware
 * on the NPU's management core. A job gives the same result and profile
 * as headless; the firmware's log is readable; a firmware that crashes
 * mid-job (an injected trap) or freezes (its heartbeat stops) fails the
 * job on the NPU with ABORTED / -EIO, is reloaded, and the next job runs.
 * Every test skips on a device that is not headed.
 */
#include "kselftest_harness.h"
#include "vpux_common.h"
#include "vpux_job_util.h"

#define SZ	65536

FIXTURE(headed) {
	int fd;
	int minor;
	struct bo task, a, b;
	struct drm_vpux_buf list[2];
};

FIXTURE_SETUP(headed)
{
	__u64 mode = ~0ull;

	self->fd = vpux_open_nth(0, &self->minor);
	if (self->fd == -ENODEV)
		SKIP(return, "no vpux device (is vpux_accel loaded?)");
	ASSERT_GE(self->fd, 0);
	if (vpux_get_param(self->fd, DRM_VPUX_PARAM_FW_MODE, &mode) ||
	    mode != DRM_VPUX_FW_MODE_HEADED)
		SKIP(return, "the device is not headed (mode %llu)",
		     (unsigned long long)mode);
	ASSERT_EQ(0, bo_new(self->fd, 4096, 0, &self->task));
	ASSERT_EQ(0, bo_new(self->fd, SZ, 0, &self->a));
	ASSERT_EQ(0, bo_new(self->fd, SZ, 0, &self->b));
	self->list[0] = (struct drm_vpux_buf){ .handle = self->a.handle, .size = SZ };
	self->list[1] = (struct drm_vpux_buf){ .handle = self->b.handle, .size = SZ };
}

FIXTURE_TEARDOWN(headed)
{
	close(self->fd);
}

/* Submit a copy of a into b on a fresh file; its result in @w. */
static int copy_job(int fd, struct bo *task, struct drm_vpux_buf *list,
		    struct drm_vpux_wait *w)
{
	struct drm_vpux_submit s;

	submit_args(&s, task, 0, copy_task(task, 0, SZ), list, 2);
	if (vpux_ioctl(fd, DRM_IOCTL_VPUX_SUBMIT, &s))
		return -1;
	return job_wait(fd, s.seqno, 60000000000ll, w);
}

TEST_F(headed, copy_runs_on_the_firmware)
{
	struct drm_vpux_wait w;

	memset(self->a.map, 0x5a, SZ);
	ASSERT_EQ(0, copy_job(self->fd, &self->task, self->list, &w));
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
	EXPECT_EQ(0, wait_error(&w));
	EXPECT_EQ(0, memcmp(self->a.map, self->b.map, SZ));
	/* the device's cycles come from the firmware's status */
	EXPECT_NE(0ull, w.device_cycles);
}

/* A task the engine core refuses: the same error as headless, at SUBMIT */
TEST_F(headed, refused_task_same_error)
{
	struct drm_vpux_submit s;
	struct drm_vpux_wait w;
	struct dla_task_desc *d;
	size_t size = copy_task(&self->task, 0, SZ);

	d = (struct dla_task_desc *)self->task.map;
	d->magic = 0;
	submit_args(&s, &self->task, 0, size, self->list, 2);
	ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s));
	ASSERT_EQ(0, job_wait(self->fd, s.seqno, 60000000000ll, &w));
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_ERROR, w.status);
	EXPECT_EQ((__u32)DLA_ERR_BAD_MAGIC, w.core_error);
}

/*
 * The firmware runs plans (ABI 1.1: the staging buffer carries the
 * symbol values): the driver says so, so vpux_job_test's plan cases run
 * here instead of skipping.
 */
TEST_F(headed, plans_are_reported)
{
	__u64 caps = 0;

	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_CAPABILITIES, &caps));
	EXPECT_NE(0ull, caps & DRM_VPUX_CAP_PLANS);
}

TEST_F(headed, log_is_readable)
{
	char path[200], buf[4096];
	ssize_t n;
	int fd;

	ASSERT_EQ(0, dbg_path(self->minor, "fw_log", path, sizeof(path)));
	fd = open(path, O_RDONLY);
	if (fd < 0)
		SKIP(return, "no debugfs");
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	ASSERT_GT(n, 0);
	buf[n] = '\0';
	/* the firmware logs its start */
	EXPECT_NE(NULL, strchr(buf, '\n'));
}

/*
 * The firmware traps while a job is on the NPU (an engine holds the job's
 * op: an injected hang): the job fails with ABORTED / -EIO, the firmware
 * is reloaded, and a new job runs.
 */
TEST_F_TIMEOUT(headed, crash_mid_job_recovers, 120)
{
	struct drm_vpux_submit s;
	struct drm_vpux_wait w;
	long reloads = dbg_read(self->minor, "fw_reloads");

	if (reloads < 0)
		SKIP(return, "no debugfs");
	ASSERT_EQ(0, dbg_write(self->minor, "inject", "hang 0 1"));
	submit_args(&s, &self->task, 0, copy_task(&self->task, 0, SZ),
		    self->list, 2);
	ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s));
	usleep(200000);
	ASSERT_EQ(0, dbg_write(self->minor, "fw_inject", "trap"));
	ASSERT_EQ(0, job_wait(self->fd, s.seqno, 60000000000ll, &w));
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_ABORTED, w.status);
	EXPECT_EQ(-EIO, w.sys_error);
	EXPECT_EQ(reloads + 1, dbg_read(self->minor, "fw_reloads"));
	EXPECT_EQ(0, fresh_file_copy(SZ, 0x3c));
}

/*
 * The firmware stops (frozen: its heartbeat stands still) with a job on
 * the NPU: the watchdog notices, the job fails, the firmware is reloaded.
 */
TEST_F_TIMEOUT(headed, heartbeat_loss_recovers, 120)
{
	struct drm_vpux_submit s;
	struct drm_vpux_wait w;
	long reloads = dbg_read(self->minor, "fw_reloads");
	long timeout = dbg_read(self->minor, "job_timeout_ms");
	char v[16];

	if (reloads < 0 || timeout < 0)
		SKIP(return, "no debugfs");
	ASSERT_EQ(0, dbg_write(self->minor, "job_timeout_ms", "300"));
	ASSERT_EQ(0, dbg_write(self->minor, "fw_inject", "freeze"));
	submit_args(&s, &self->task, 0, copy_task(&self->task, 0, SZ),
		    self->list, 2);
	ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s));
	ASSERT_EQ(0, job_wait(self->fd, s.seqno, 60000000000ll, &w));
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_ABORTED, w.status);
	EXPECT_EQ(-EIO, w.sys_error);
	EXPECT_EQ(reloads + 1, dbg_read(self->minor, "fw_reloads"));
	EXPECT_EQ(0, fresh_file_copy(SZ, 0x6d));
	snprintf(v, sizeof(v), "%ld", timeout);
	dbg_write(self->minor, "job_timeout_ms", v);
}

TEST_HARNESS_MAIN
