// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpux uapi tests: device nodes and DRM_IOCTL_VPUX_GET_PARAM.
 * Needs vpux_accel loaded; the two-device tests need two NPUs
 * (vpux_sim num_devices=2) and are skipped otherwise.
 */
#include <stdint.h>
#include <sys/mman.h>

#include "kselftest_harness.h"
#include "vpux_common.h"

FIXTURE(dev) {
	int fd;
	int minor;
};

FIXTURE_SETUP(dev)
{
	self->fd = vpux_open_nth(0, &self->minor);
	if (self->fd == -ENODEV)
		SKIP(return, "no vpux device (is vpux_accel loaded?)");
	ASSERT_GE(self->fd, 0);
}

FIXTURE_TEARDOWN(dev)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST(open_close)
{
	int i, fd;

	fd = vpux_open_nth(0, NULL);
	if (fd == -ENODEV)
		SKIP(return, "no vpux device");
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, close(fd));
	/* repeated opens of the same node are independent files */
	for (i = 0; i < 64; i++) {
		fd = vpux_open_nth(0, NULL);
		ASSERT_GE(fd, 0);
		ASSERT_EQ(0, close(fd));
	}
}

TEST_F(dev, version)
{
	char name[32] = "";
	struct drm_version v = { .name = name, .name_len = sizeof(name) - 1 };

	ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_VERSION, &v));
	EXPECT_STREQ(VPUX_DRIVER_NAME, name);
	EXPECT_EQ(DRM_VPUX_UAPI_VERSION_MAJOR, v.version_major);
	EXPECT_GE(v.version_minor, DRM_VPUX_UAPI_VERSION_MINOR);
}

TEST_F(dev, param_identity)
{
	__u64 v;

	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_DEVICE_ID, &v));
	EXPECT_NE(0ull, v);
	EXPECT_LE(v, 0xffffull);
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_DEVICE_REVISION, &v));
	EXPECT_EQ(1ull, v >> 16);
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_UAPI_VERSION, &v));
	EXPECT_EQ((__u64)DRM_VPUX_UAPI_VERSION_MAJOR, v >> 16);
	EXPECT_GE(v & 0xffff, (__u64)DRM_VPUX_UAPI_VERSION_MINOR);
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_SERIAL, &v));
}

TEST_F(dev, param_engines)
{
	__u64 dma, dpu, shave;

	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_NUM_DMA_ENGINES, &dma));
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_NUM_DPU_ENGINES, &dpu));
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_NUM_SHAVE_ENGINES, &shave));
	EXPECT_GE(dma, 1ull);
	EXPECT_GE(dpu, 1ull);
	EXPECT_GE(shave, 1ull);
	EXPECT_LE(dma + dpu + shave, 16ull);
}

TEST_F(dev, param_memory)
{
	__u64 tiles, cmx, base, size, ctx;

	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_NUM_TILES, &tiles));
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_CMX_SIZE, &cmx));
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_VA_BASE, &base));
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_VA_SIZE, &size));
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_NUM_CONTEXTS, &ctx));
	EXPECT_GE(tiles, 1ull);
	EXPECT_GE(cmx, 4096ull);
	EXPECT_EQ(0ull, cmx % 4096);
	EXPECT_NE(0ull, size);
	EXPECT_EQ(0ull, base % 4096);
	EXPECT_EQ(0ull, size % 4096);
	EXPECT_GT(base + size, base);	/* no wrap-around */
	EXPECT_GE(ctx, 1ull);
}

TEST_F(dev, param_caps_clock)
{
	__u64 caps, khz;

	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_CAPABILITIES, &caps));
	/* no bit outside the ones this header defines */
	EXPECT_EQ(0ull, caps & ~(__u64)(DRM_VPUX_CAP_DMA_4D | DRM_VPUX_CAP_DPU_INT8 |
				     DRM_VPUX_CAP_SHAVE | DRM_VPUX_CAP_MMU |
				     DRM_VPUX_CAP_CYCLES |
				     DRM_VPUX_CAP_FAULT_INJECT |
				     DRM_VPUX_CAP_PLANS));
	EXPECT_NE(0ull, caps & DRM_VPUX_CAP_MMU);
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_CLOCK_KHZ, &khz));
	EXPECT_NE(0ull, khz);
}

TEST_F(dev, param_every_defined)
{
	__u32 p;
	__u64 v;

	for (p = 0; p < VPUX_TEST_PARAMS; p++)
		EXPECT_EQ(0, vpux_get_param(self->fd, p, &v)) {
			TH_LOG("param %u failed", p);
		}
}

TEST_F(dev, param_unknown)
{
	static const __u32 bad[] = {
		VPUX_TEST_PARAMS, VPUX_TEST_PARAMS + 1, 0x7fffffff,
		0xffffffff,
	};
	unsigned int i;
	__u64 v = 0xdeadbeef;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(-EINVAL, vpux_get_param(self->fd, bad[i], &v));
		EXPECT_EQ(0xdeadbeefull, v);
	}
}

TEST_F(dev, param_bad_padding)
{
	struct drm_vpux_get_param gp = {
		.param = DRM_VPUX_PARAM_DEVICE_ID,
		.pad = 1,
	};

	EXPECT_EQ(-EINVAL, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_GET_PARAM, &gp));
	gp.pad = 0x80000000;
	EXPECT_EQ(-EINVAL, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_GET_PARAM, &gp));
	gp.pad = 0;
	EXPECT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_GET_PARAM, &gp));
}

TEST_F(dev, param_bad_pointer)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p;

	EXPECT_EQ(-EFAULT, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_GET_PARAM, NULL));
	EXPECT_EQ(-EFAULT, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_GET_PARAM,
				      (void *)16));
	/* an address that was valid and no longer is */
	p = mmap(NULL, page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, munmap(p, page));
	EXPECT_EQ(-EFAULT, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_GET_PARAM, p));
	/* read-only memory: the driver writes the value back */
	p = mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(-EFAULT, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_GET_PARAM, p));
	munmap(p, page);
}

TEST_F(dev, unknown_ioctl)
{
	struct drm_vpux_get_param gp = { .param = DRM_VPUX_PARAM_DEVICE_ID };
	unsigned long req = DRM_IOWR(DRM_COMMAND_BASE + 0x3f,
				     struct drm_vpux_get_param);

	EXPECT_EQ(-EINVAL, vpux_ioctl(self->fd, req, &gp));
}

/* uapi 1.5's limits: in range, and equal to the header's where it fixes them */
TEST_F(dev, param_limits)
{
	__u64 ops, bars, deps, addr, in, slots, ring, queues, ctx, limit, flimit;

	if (vpux_get_param(self->fd, DRM_VPUX_PARAM_MAX_OPS_PER_TASK, &ops) == -EINVAL)
		SKIP(return, "the driver is older than uapi 1.5");
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_MAX_BARRIERS, &bars));
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_MAX_DEPS_PER_TASK, &deps));
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_MAX_ADDR_ENTRIES, &addr));
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_MAX_IN_SYNCOBJS, &in));
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_TASK_SLOTS, &slots));
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_JOB_RING, &ring));
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_MAX_QUEUES, &queues));
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_NUM_CONTEXTS, &ctx));
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_BO_MEMORY_LIMIT, &limit));
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_FILE_BO_MEMORY_LIMIT,
				    &flimit));
	/* the task format's bounds: op indices below 2^24, barrier ids 16-bit */
	EXPECT_GE(ops, 1ull);
	EXPECT_LT(ops, 1ull << 24);
	EXPECT_GE(bars, 1ull);
	EXPECT_LE(bars, 65535ull);
	EXPECT_GE(deps, 1ull);
	/* the limits the driver is built with; the uapi has no #define */
	EXPECT_EQ(64ull, addr);
	EXPECT_EQ(64ull, in);
	EXPECT_EQ(64ull, queues);
	/* WAIT reports a file's last 256 jobs */
	EXPECT_EQ(256ull, ring);
	/* every running task holds an MMU context slot, and one stays free */
	EXPECT_GE(slots, 1ull);
	EXPECT_LE(slots, 32ull);
	EXPECT_LT(slots, ctx);
	EXPECT_GE(flimit, 4096ull);
	EXPECT_LE(flimit, limit);
}

static int bo_create_close(int fd, __u64 size, __u32 *handle, int close_it)
{
	struct drm_vpux_bo_create c = { .size = size };
	struct drm_gem_close g = { 0 };
	int ret;

	if (!close_it) {
		ret = vpux_ioctl(fd, DRM_IOCTL_VPUX_BO_CREATE, &c);
		*handle = c.handle;
		return ret;
	}
	g.handle = *handle;
	return vpux_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &g);
}

/*
 * FILE_BO_MEMORY_USED is the calling file's: a BO grows it by at least
 * its size (page tables may come on top) and no other file's figure;
 * closing the BO gives it back. The device's figure grows alike.
 */
TEST_F(dev, param_file_bo_memory_used)
{
	const __u64 size = 1 << 20;
	__u64 used0, used1, used2, dev0, dev1, other0, other1;
	__u32 h;
	int fd2;

	if (vpux_get_param(self->fd, DRM_VPUX_PARAM_FILE_BO_MEMORY_USED, &used0) == -EINVAL)
		SKIP(return, "the driver is older than uapi 1.5");
	fd2 = vpux_open_nth(0, NULL);
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, vpux_get_param(fd2, DRM_VPUX_PARAM_FILE_BO_MEMORY_USED, &other0));
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_BO_MEMORY_USED, &dev0));
	ASSERT_EQ(0, bo_create_close(self->fd, size, &h, 0));
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_FILE_BO_MEMORY_USED, &used1));
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_BO_MEMORY_USED, &dev1));
	ASSERT_EQ(0, vpux_get_param(fd2, DRM_VPUX_PARAM_FILE_BO_MEMORY_USED, &other1));
	EXPECT_GE(used1, used0 + size);
	EXPECT_LT(used1, used0 + 2 * size);
	EXPECT_GE(dev1, dev0 + size);
	EXPECT_EQ(other0, other1);
	ASSERT_EQ(0, bo_create_close(self->fd, size, &h, 1));
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_FILE_BO_MEMORY_USED, &used2));
	EXPECT_LE(used2, used1 - size);
	EXPECT_GE(used2, used0);
	close(fd2);
}

TEST(two_devices)
{
	__u64 serial[2], id[2];
	int fd[2], minor[2], i;

	if (vpux_count_devices() < 2)
		SKIP(return, "needs two NPUs (vpux_sim num_devices=2)");
	for (i = 0; i < 2; i++) {
		fd[i] = vpux_open_nth(i, &minor[i]);
		ASSERT_GE(fd[i], 0);
		ASSERT_EQ(0, vpux_get_param(fd[i], DRM_VPUX_PARAM_SERIAL, &serial[i]));
		ASSERT_EQ(0, vpux_get_param(fd[i], DRM_VPUX_PARAM_DEVICE_ID, &id[i]));
	}
	EXPECT_NE(minor[0], minor[1]);
	EXPECT_NE(serial[0], serial[1]);
	EXPECT_EQ(id[0], id[1]);
	/* closing one device leaves the other answering */
	close(fd[0]);
	EXPECT_EQ(0, vpux_get_param(fd[1], DRM_VPUX_PARAM_SERIAL, &serial[0]));
	EXPECT_EQ(serial[1], serial[0]);
	close(fd[1]);
}

TEST_HARNESS_MAIN
