// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpux buffer objects: DRM_IOCTL_VPUX_BO_CREATE / BO_INFO, CPU mmap,
 * GEM close, PRIME export/import between files, per-file address spaces.
 * Needs vpux_accel loaded.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "vpux_common.h"
#include "vpux_job_util.h"

static int bo_create(int fd, __u64 size, __u32 flags, __u32 *handle,
		     __u64 *addr)
{
	struct drm_vpux_bo_create c = { .size = size, .flags = flags };
	int ret = vpux_ioctl(fd, DRM_IOCTL_VPUX_BO_CREATE, &c);

	if (!ret) {
		*handle = c.handle;
		if (addr)
			*addr = c.device_addr;
	}
	return ret;
}

static int bo_info(int fd, __u32 handle, struct drm_vpux_bo_info *info)
{
	memset(info, 0, sizeof(*info));
	info->handle = handle;
	return vpux_ioctl(fd, DRM_IOCTL_VPUX_BO_INFO, info);
}

static int gem_close(int fd, __u32 handle)
{
	struct drm_gem_close c = { .handle = handle };

	return vpux_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
}

static void *bo_mmap(int fd, __u32 handle, size_t size)
{
	struct drm_vpux_bo_info info;

	if (bo_info(fd, handle, &info))
		return MAP_FAILED;
	return mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    info.mmap_offset);
}

FIXTURE(bo) {
	int fd;
	__u64 va_base, va_size;
	long saved_limit_mb;	/* to restore, or -1 */
	long saved_file_limit_mb;	/* to restore, or -1 */
	long saved_user_limit_mb;	/* to restore, or -1 */
};

FIXTURE_SETUP(bo)
{
	self->saved_limit_mb = -1;
	self->saved_file_limit_mb = -1;
	self->saved_user_limit_mb = -1;
	self->fd = vpux_open_nth(0, NULL);
	if (self->fd == -ENODEV)
		SKIP(return, "no vpux device (is vpux_accel loaded?)");
	ASSERT_GE(self->fd, 0);
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_VA_BASE, &self->va_base));
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_VA_SIZE, &self->va_size));
}

static int write_limit_mb(long mb);
static int write_user_limit_mb(long mb);

FIXTURE_TEARDOWN(bo)
{
	if (self->saved_limit_mb >= 0)
		EXPECT_EQ(0, write_limit_mb(self->saved_limit_mb));
	if (self->saved_file_limit_mb >= 0)
		EXPECT_EQ(0, write_file_limit_mb(self->saved_file_limit_mb));
	if (self->saved_user_limit_mb >= 0)
		EXPECT_EQ(0, write_user_limit_mb(self->saved_user_limit_mb));
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(bo, create_info)
{
	struct drm_vpux_bo_info info;
	__u32 h;
	__u64 addr;

	ASSERT_EQ(0, bo_create(self->fd, 8192, 0, &h, &addr));
	EXPECT_NE(0u, h);
	EXPECT_EQ(0ull, addr & 4095);
	EXPECT_GE(addr, self->va_base);
	EXPECT_LE(addr + 8192, self->va_base + self->va_size);
	ASSERT_EQ(0, bo_info(self->fd, h, &info));
	EXPECT_EQ(8192ull, info.size);
	EXPECT_EQ(addr, info.device_addr);
	EXPECT_EQ(DRM_VPUX_BO_CACHED, info.flags);
	EXPECT_NE(0ull, info.mmap_offset);
	EXPECT_EQ(0, gem_close(self->fd, h));
}

TEST_F(bo, size_rounded_to_pages)
{
	struct drm_vpux_bo_info info;
	__u32 h;

	ASSERT_EQ(0, bo_create(self->fd, 1, 0, &h, NULL));
	ASSERT_EQ(0, bo_info(self->fd, h, &info));
	EXPECT_EQ(4096ull, info.size);
	ASSERT_EQ(0, bo_create(self->fd, 4097, 0, &h, NULL));
	ASSERT_EQ(0, bo_info(self->fd, h, &info));
	EXPECT_EQ(8192ull, info.size);
}

TEST_F(bo, bad_size)
{
	__u32 h = 0;

	EXPECT_EQ(-EINVAL, bo_create(self->fd, 0, 0, &h, NULL));
	EXPECT_EQ(-EINVAL, bo_create(self->fd, self->va_size + 1, 0, &h, NULL));
	EXPECT_EQ(-EINVAL, bo_create(self->fd, ~0ull, 0, &h, NULL));
	EXPECT_EQ(0u, h);
}

TEST_F(bo, bad_flags)
{
	__u32 h = 0, bit;

	EXPECT_EQ(-EINVAL, bo_create(self->fd, 4096,
				     DRM_VPUX_BO_CACHED | DRM_VPUX_BO_WC, &h, NULL));
	/* IMPORTED is reported, never requested */
	EXPECT_EQ(-EINVAL, bo_create(self->fd, 4096, DRM_VPUX_BO_IMPORTED, &h, NULL));
	for (bit = 4; bit < 32; bit++)
		EXPECT_EQ(-EINVAL, bo_create(self->fd, 4096, 1u << bit, &h, NULL))
			TH_LOG("flag bit %u", bit);
	EXPECT_EQ(0u, h);
}

TEST_F(bo, flags_reported)
{
	static const __u32 flags[] = {
		DRM_VPUX_BO_CACHED, DRM_VPUX_BO_WC,
		DRM_VPUX_BO_WC | DRM_VPUX_BO_DEVICE_READONLY,
		DRM_VPUX_BO_DEVICE_READONLY,
	};
	static const __u32 want[] = {
		DRM_VPUX_BO_CACHED, DRM_VPUX_BO_WC,
		DRM_VPUX_BO_WC | DRM_VPUX_BO_DEVICE_READONLY,
		DRM_VPUX_BO_CACHED | DRM_VPUX_BO_DEVICE_READONLY,
	};
	struct drm_vpux_bo_info info;
	unsigned int i;
	__u32 h;

	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		ASSERT_EQ(0, bo_create(self->fd, 4096, flags[i], &h, NULL));
		ASSERT_EQ(0, bo_info(self->fd, h, &info));
		EXPECT_EQ(want[i], info.flags);
	}
}

TEST_F(bo, info_bad_handle)
{
	struct drm_vpux_bo_info info;

	EXPECT_EQ(-ENOENT, bo_info(self->fd, 0, &info));
	EXPECT_EQ(-ENOENT, bo_info(self->fd, 12345, &info));
}

TEST_F(bo, mmap_zeroed_and_coherent)
{
	const size_t size = 64 * 1024;
	unsigned char *p;
	unsigned int round;
	size_t i;
	__u32 h;

	for (round = 0; round < 4; round++) {
		ASSERT_EQ(0, bo_create(self->fd, size,
				       round & 1 ? DRM_VPUX_BO_WC : 0, &h, NULL));
		p = bo_mmap(self->fd, h, size);
		ASSERT_NE(MAP_FAILED, p);
		/* new pages start zeroed, whatever the last BO held */
		for (i = 0; i < size; i++)
			if (p[i])
				break;
		EXPECT_EQ(size, i) TH_LOG("round %u: byte %zu not zero", round, i);
		memset(p, 0xa5 + round, size);
		munmap(p, size);
		/* a second mapping sees the data */
		p = bo_mmap(self->fd, h, size);
		ASSERT_NE(MAP_FAILED, p);
		EXPECT_EQ(0xa5 + round, p[size - 1]);
		munmap(p, size);
		EXPECT_EQ(0, gem_close(self->fd, h));
	}
}

TEST_F(bo, mmap_beyond_bo_fails)
{
	struct drm_vpux_bo_info info;
	void *p;
	__u32 h;

	ASSERT_EQ(0, bo_create(self->fd, 4096, 0, &h, NULL));
	ASSERT_EQ(0, bo_info(self->fd, h, &info));
	p = mmap(NULL, 8192, PROT_READ, MAP_SHARED, self->fd, info.mmap_offset);
	EXPECT_EQ(MAP_FAILED, p);
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fd, 0x10000000ull << 12);
	EXPECT_EQ(MAP_FAILED, p);
}

TEST_F(bo, addresses_disjoint_with_guard)
{
	enum { N = 32 };
	__u64 addr[N], size[N];
	__u32 h[N];
	int i, j;

	for (i = 0; i < N; i++) {
		size[i] = 4096ull * (1 + i % 5);
		ASSERT_EQ(0, bo_create(self->fd, size[i], 0, &h[i], &addr[i]));
	}
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++) {
			if (i == j)
				continue;
			/* one unmapped guard page follows every BO */
			EXPECT_TRUE(addr[i] + size[i] + 4096 <= addr[j] ||
				    addr[j] + size[j] + 4096 <= addr[i])
				TH_LOG("bo %d [%#llx+%#llx] and %d [%#llx+%#llx]",
				       i, addr[i], size[i], j, addr[j], size[j]);
		}
	/* freed addresses are reused */
	ASSERT_EQ(0, gem_close(self->fd, h[0]));
	ASSERT_EQ(0, bo_create(self->fd, size[0], 0, &h[0], &addr[1]));
	EXPECT_EQ(addr[0], addr[1]);
}

TEST_F(bo, gem_close)
{
	struct drm_vpux_bo_info info;
	__u32 h;

	ASSERT_EQ(0, bo_create(self->fd, 4096, 0, &h, NULL));
	EXPECT_EQ(0, gem_close(self->fd, h));
	EXPECT_EQ(-ENOENT, bo_info(self->fd, h, &info));
	EXPECT_EQ(-EINVAL, gem_close(self->fd, h));
	EXPECT_EQ(-EINVAL, gem_close(self->fd, 0));
}

TEST_F(bo, other_file_cannot_see_handles)
{
	struct drm_vpux_bo_info info;
	__u32 h;
	int fd2;

	ASSERT_EQ(0, bo_create(self->fd, 4096, 0, &h, NULL));
	fd2 = vpux_open_nth(0, NULL);
	ASSERT_GE(fd2, 0);
	EXPECT_EQ(-ENOENT, bo_info(fd2, h, &info));
	EXPECT_EQ(-EINVAL, gem_close(fd2, h));
	/* still there for its owner */
	EXPECT_EQ(0, bo_info(self->fd, h, &info));
	close(fd2);
}

TEST_F(bo, prime_share_between_files)
{
	struct drm_prime_handle exp = { .flags = DRM_CLOEXEC | DRM_RDWR };
	struct drm_prime_handle imp = { 0 };
	struct drm_vpux_bo_info info;
	const size_t size = 3 * 4096;
	unsigned char *a, *b;
	__u64 addr;
	__u32 h, h_again;
	int fd2;

	ASSERT_EQ(0, bo_create(self->fd, size, 0, &h, &addr));
	a = bo_mmap(self->fd, h, size);
	ASSERT_NE(MAP_FAILED, a);
	memset(a, 0x3c, size);

	exp.handle = h;
	ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &exp));
	ASSERT_GE(exp.fd, 0);

	/* importing into the exporting file gives back the same handle */
	imp.fd = exp.fd;
	ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp));
	EXPECT_EQ(h, imp.handle);

	fd2 = vpux_open_nth(0, NULL);
	ASSERT_GE(fd2, 0);
	imp.handle = 0;
	ASSERT_EQ(0, vpux_ioctl(fd2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp));
	ASSERT_EQ(0, bo_info(fd2, imp.handle, &info));
	EXPECT_EQ(size, info.size);
	EXPECT_TRUE(!!(info.flags & DRM_VPUX_BO_IMPORTED));
	EXPECT_GE(info.device_addr, self->va_base);
	/* a second import in the same file is the same BO */
	ASSERT_EQ(0, vpux_ioctl(fd2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp));
	h_again = imp.handle;
	ASSERT_EQ(0, bo_info(fd2, h_again, &info));
	EXPECT_EQ(size, info.size);

	b = bo_mmap(fd2, imp.handle, size);
	ASSERT_NE(MAP_FAILED, b);
	EXPECT_EQ(0x3c, b[0]);
	EXPECT_EQ(0x3c, b[size - 1]);
	b[100] = 0x77;
	EXPECT_EQ(0x77, a[100]);

	/* the exporter goes away; the importer keeps the pages */
	munmap(a, size);
	close(exp.fd);
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(0x77, b[100]);
	EXPECT_EQ(0x3c, b[size - 1]);
	munmap(b, size);
	EXPECT_EQ(0, gem_close(fd2, imp.handle));
	close(fd2);
}

TEST_F(bo, prime_bad_fd)
{
	struct drm_prime_handle imp = { .fd = -1 };
	struct drm_prime_handle exp = { .handle = 999, .flags = DRM_CLOEXEC };

	EXPECT_NE(0, vpux_ioctl(self->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp));
	EXPECT_EQ(-ENOENT, vpux_ioctl(self->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &exp));
}

TEST_F(bo, close_file_with_many_bos)
{
	__u32 h;
	int i, fd2;

	for (i = 0; i < 8; i++) {
		fd2 = vpux_open_nth(0, NULL);
		ASSERT_GE(fd2, 0);
		for (int j = 0; j < 64; j++)
			ASSERT_EQ(0, bo_create(fd2, 4096ull << (j % 4), 0, &h, NULL));
		close(fd2);
	}
}

#define LIMIT_PARAM "/sys/module/vpux_accel/parameters/bo_memory_limit_mb"

#define USER_LIMIT_PARAM "/sys/module/vpux_accel/parameters/user_memory_limit_mb"

static int write_user_limit_mb(long mb)
{
	return file_write_long(USER_LIMIT_PARAM, mb);
}

static long read_limit_mb(void)
{
	return file_read_long(LIMIT_PARAM);
}

static int write_limit_mb(long mb)
{
	return file_write_long(LIMIT_PARAM, mb);
}

/*
 * Page tables are pinned and charged too: a few pages on top of the BOs
 * (a level-3 table maps 2 MiB, a level-2 table 1 GiB).
 */
#define PT_SLACK	(64ull << 10)

/* The device's BOs pin at most bo_memory_limit_mb; beyond, -ENOMEM. */
TEST_F(bo, memory_limit)
{
	__u64 limit, used, used2, auto_limit;
	__u32 h[64], extra;
	long old;
	int n = 0, i, fd2, ret;

	old = read_limit_mb();
	if (old < 0)
		SKIP(return, "no %s", LIMIT_PARAM);
	if (geteuid())
		SKIP(return, "needs root");
	self->saved_limit_mb = old;
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_BO_MEMORY_LIMIT, &auto_limit));
	if (!old)
		EXPECT_GT(auto_limit, 0ull);
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_BO_MEMORY_USED, &used));

	/* room for 8 MiB more than what is pinned now (other tests' BOs) */
	ASSERT_EQ(0, write_limit_mb((long)(used >> 20) + 9));
	/* this user alone may take the whole device here */
	self->saved_user_limit_mb = file_read_long(USER_LIMIT_PARAM);
	ASSERT_GE(self->saved_user_limit_mb, 0);
	ASSERT_EQ(0, write_user_limit_mb((long)(used >> 20) + 64));
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_BO_MEMORY_LIMIT, &limit));
	EXPECT_EQ(((used >> 20) + 9) << 20, limit);

	/* 1 MiB BOs from two files until the device's budget is spent */
	fd2 = vpux_open_nth(0, NULL);
	ASSERT_GE(fd2, 0);
	for (n = 0; n < 64; n++) {
		ret = bo_create(n & 1 ? fd2 : self->fd, 1 << 20, 0, &h[n], NULL);
		if (ret)
			break;
	}
	EXPECT_EQ(-ENOMEM, ret);
	EXPECT_GE(n, 8);
	EXPECT_LE(n, 9);
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_BO_MEMORY_USED, &used2));
	EXPECT_LE(used2, limit);
	EXPECT_GE(used2, used + ((__u64)n << 20));
	EXPECT_LE(used2, used + ((__u64)n << 20) + PT_SLACK);
	/* a refused BO leaves nothing behind; a small one still fits or not */
	EXPECT_EQ(-ENOMEM, bo_create(self->fd, limit, 0, &extra, NULL));

	/* freeing gives the budget back */
	EXPECT_EQ(0, gem_close(self->fd, h[0]));
	EXPECT_EQ(0, bo_create(self->fd, 1 << 20, 0, &h[0], NULL));
	/* closing a file frees its BOs */
	close(fd2);
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_BO_MEMORY_USED, &used2));
	EXPECT_GE(used2, used + ((__u64)((n + 1) / 2) << 20));
	EXPECT_LE(used2, used + ((__u64)((n + 1) / 2) << 20) + PT_SLACK);
	for (i = 0; i < n; i += 2)
		EXPECT_EQ(0, gem_close(self->fd, h[i]));
	/* what stays is this file's page tables */
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_BO_MEMORY_USED, &used2));
	EXPECT_GE(used2, used);
	EXPECT_LE(used2, used + PT_SLACK);

	ASSERT_EQ(0, write_limit_mb(old));
	self->saved_limit_mb = -1;
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_BO_MEMORY_LIMIT, &limit));
	EXPECT_EQ(auto_limit, limit);
}

/*
 * One file pins at most file_memory_limit_mb (BOs and page tables, in
 * FILE_BO_MEMORY_USED); another file still gets memory.
 */
TEST_F(bo, file_memory_limit)
{
	__u64 limit, fused, fused2, dused, dused2;
	__u32 h[16], h2;
	long old;
	int n, i, fd2, ret = 0;

	old = file_read_long(FILE_LIMIT_PARAM);
	if (old < 0)
		SKIP(return, "no %s", FILE_LIMIT_PARAM);
	if (geteuid())
		SKIP(return, "needs root");
	self->saved_file_limit_mb = old;
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_FILE_BO_MEMORY_LIMIT, &limit));
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_BO_MEMORY_LIMIT, &dused));
	EXPECT_LE(limit, dused);
	/* the file's root page table is pinned from open on */
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_FILE_BO_MEMORY_USED, &fused));
	EXPECT_GE(fused, 4096ull);

	ASSERT_EQ(0, write_file_limit_mb(4));
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_FILE_BO_MEMORY_LIMIT, &limit));
	EXPECT_EQ(4ull << 20, limit);
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_BO_MEMORY_USED, &dused));
	for (n = 0; n < 16; n++) {
		ret = bo_create(self->fd, 1 << 20, 0, &h[n], NULL);
		if (ret)
			break;
	}
	/* 4 MiB less the page tables: 3 BOs of 1 MiB */
	EXPECT_EQ(-ENOMEM, ret);
	EXPECT_EQ(3, n);
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_FILE_BO_MEMORY_USED, &fused2));
	EXPECT_LE(fused2, limit);
	EXPECT_GE(fused2, fused + ((__u64)n << 20));
	/* the refusal left nothing behind, in the file or the device */
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_BO_MEMORY_USED, &dused2));
	EXPECT_EQ(dused + (fused2 - fused), dused2);

	/* another file has a budget of its own */
	fd2 = vpux_open_nth(0, NULL);
	ASSERT_GE(fd2, 0);
	EXPECT_EQ(0, bo_create(fd2, 1 << 20, 0, &h2, NULL));
	close(fd2);

	for (i = 0; i < n; i++)
		EXPECT_EQ(0, gem_close(self->fd, h[i]));
	EXPECT_EQ(0, bo_create(self->fd, 1 << 20, 0, &h[0], NULL));

	ASSERT_EQ(0, write_file_limit_mb(old));
	self->saved_file_limit_mb = -1;
}


/*
 * As user @uid: open @nfiles files spread over @ndev devices and create
 * 1 MiB BOs round robin until one fails. Writes the count and the last
 * error to @wfd, then (with @hold) waits for a byte on @rfd before the
 * files close.
 */
static void user_fill(uid_t uid, int nfiles, int ndev, int wfd, int rfd)
{
	int fds[4], res[2] = { 0, 0 }, i;
	__u32 h;
	char c;

	if (setresgid(uid, uid, uid) || setresuid(uid, uid, uid))
		_exit(2);
	for (i = 0; i < nfiles; i++) {
		fds[i] = vpux_open_nth(i % ndev, NULL);
		if (fds[i] < 0)
			_exit(3);
	}
	for (res[0] = 0; res[0] < 64; res[0]++) {
		res[1] = bo_create(fds[res[0] % nfiles], 1 << 20, 0, &h, NULL);
		if (res[1])
			break;
	}
	if (write(wfd, res, sizeof(res)) != sizeof(res))
		_exit(4);
	if (rfd >= 0 && read(rfd, &c, 1) != 1)
		_exit(5);
	_exit(0);
}

/*
 * One user may pin user_memory_limit_mb on all NPUs together, whatever
 * the number of files and devices it opens; another user still gets
 * memory while the first holds all it may (Documentation/architecture.rst,
 * "Memory limits").
 */
TEST_F(bo, one_user_cannot_take_every_npu)
{
	static const char *const node[2] = { "/dev/accel/accel0",
					     "/dev/accel/accel1" };
	int a_res[2], b_res[2], to_a[2], from_a[2], from_b[2], ndev, i, st;
	struct stat sb[2];
	pid_t a, b;
	long old;

	old = file_read_long(USER_LIMIT_PARAM);
	if (old < 0)
		SKIP(return, "no %s", USER_LIMIT_PARAM);
	if (geteuid())
		SKIP(return, "needs root");
	ndev = vpux_count_devices() >= 2 ? 2 : 1;
	for (i = 0; i < ndev; i++)
		ASSERT_EQ(0, stat(node[i], &sb[i]));
	self->saved_user_limit_mb = old;
	self->saved_file_limit_mb = file_read_long(FILE_LIMIT_PARAM);
	ASSERT_EQ(0, write_user_limit_mb(6));
	/* a file may take all its user may */
	ASSERT_EQ(0, write_file_limit_mb(0));
	/* the nodes are root's: let the two test users in for a moment */
	for (i = 0; i < ndev; i++)
		ASSERT_EQ(0, chmod(node[i], 0666));
	ASSERT_EQ(0, pipe(to_a));
	ASSERT_EQ(0, pipe(from_a));
	ASSERT_EQ(0, pipe(from_b));

	/* user A: three files on every device it finds */
	a = fork();
	ASSERT_GE(a, 0);
	if (!a)
		user_fill(60001, 3, ndev, from_a[1], to_a[0]);
	ASSERT_EQ((ssize_t)sizeof(a_res), read(from_a[0], a_res, sizeof(a_res)));
	/* user B, while A holds everything it could get */
	b = fork();
	ASSERT_GE(b, 0);
	if (!b)
		user_fill(60002, 1, 1, from_b[1], -1);
	ASSERT_EQ((ssize_t)sizeof(b_res), read(from_b[0], b_res, sizeof(b_res)));
	ASSERT_EQ(1, write(to_a[1], "x", 1));
	ASSERT_EQ(b, waitpid(b, &st, 0));
	EXPECT_EQ(0, st);
	ASSERT_EQ(a, waitpid(a, &st, 0));
	EXPECT_EQ(0, st);
	for (i = 0; i < ndev; i++)
		EXPECT_EQ(0, chmod(node[i], sb[i].st_mode & 07777));

	/* 6 MiB less three files' page tables: 5 BOs, then -ENOMEM */
	TH_LOG("user A: %d BOs of 1 MiB on %d files over %d devices, then %d",
	       a_res[0], 3, ndev, a_res[1]);
	EXPECT_EQ(-ENOMEM, a_res[1]);
	EXPECT_EQ(5, a_res[0]);
	TH_LOG("user B: %d BOs of 1 MiB, then %d", b_res[0], b_res[1]);
	EXPECT_EQ(-ENOMEM, b_res[1]);
	EXPECT_EQ(5, b_res[0]);
}

TEST_HARNESS_MAIN
