// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpux access rules across files and calls:
 *  - copyout: an ioctl whose arguments cannot be written back (they sit
 *    on a read-only page) fails with -EFAULT and leaves nothing behind:
 *    SUBMIT runs no job, BO_CREATE and QUEUE_CREATE keep no handle or
 *    queue;
 *  - readonly: what the device may not write stays unwritten through
 *    imports (PRIME between files, a foreign dma-buf not open for
 *    writing), and SUBMIT refuses a job that would write it with -EACCES.
 * Needs vpux_accel loaded; the foreign dma-buf tests need vgem.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "kselftest_harness.h"
#include "vpux_common.h"
#include "task_builder.h"
#include "vpux_job_util.h"

#define SZ 8192

/* A page of its own for ioctl arguments, made read-only by args_seal(). */
static void *args_page(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static int args_seal(void *p)
{
	return mprotect(p, 4096, PROT_READ) ? -errno : 0;
}

static int file_bo_used(int fd, __u64 *v)
{
	return vpux_get_param(fd, DRM_VPUX_PARAM_FILE_BO_MEMORY_USED, v);
}

FIXTURE(copyout) {
	int fd;
	struct bo task, a, b;
	struct drm_vpux_buf list[2];
};

FIXTURE_SETUP(copyout)
{
	int i;

	self->fd = vpux_open_nth(0, NULL);
	if (self->fd == -ENODEV)
		SKIP(return, "no vpux device (is vpux_accel loaded?)");
	ASSERT_GE(self->fd, 0);
	if (uapi_minor(self->fd) < 5)
		SKIP(return, "needs uapi 1.5");
	ASSERT_EQ(0, bo_new(self->fd, 4096, 0, &self->task));
	ASSERT_EQ(0, bo_new(self->fd, SZ, 0, &self->a));
	ASSERT_EQ(0, bo_new(self->fd, SZ, 0, &self->b));
	for (i = 0; i < SZ; i++)
		self->a.map[i] = (unsigned char)(i * 5 + 1);
	self->list[0] = (struct drm_vpux_buf){ .handle = self->a.handle, .size = SZ };
	self->list[1] = (struct drm_vpux_buf){ .handle = self->b.handle, .size = SZ };
}

FIXTURE_TEARDOWN(copyout)
{
	if (self->fd >= 0)
		close(self->fd);
}

/*
 * SUBMIT whose struct is on a read-only page: -EFAULT, and no job: the
 * destination stays zero, no job of the file used it, the out-syncobj
 * got no fence and the next job takes the seqno the failed one would
 * have had.
 */
TEST_F(copyout, submit_on_readonly_page_runs_nothing)
{
	struct drm_vpux_submit s, *ro = args_page();
	struct drm_syncobj_wait sw = { 0 };
	struct drm_vpux_bo_wait bw;
	struct drm_vpux_wait w;
	__u64 first;
	__u32 sync;
	int i;

	ASSERT_NE(NULL, ro);
	ASSERT_EQ(0, syncobj_new(self->fd, &sync));
	/*
	 * A first job, for its seqno, that does not touch b: without entry
	 * 2 the core refuses the copy, and the job completes as an error.
	 */
	submit_args(&s, &self->task, 0, copy_task(&self->task, 0, SZ),
		    self->list, 1);
	ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s));
	first = s.seqno;
	ASSERT_EQ(0, job_wait(self->fd, first, 5000000000ll, &w));

	submit_args(ro, &self->task, 0, copy_task(&self->task, 0, SZ),
		    self->list, 2);
	ro->out_syncobj = sync;
	ASSERT_EQ(0, args_seal(ro));
	EXPECT_EQ(-EFAULT, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, ro));

	/* nothing used b: no job of this file, and b was never written */
	ASSERT_EQ(0, bo_wait15(self->fd, self->b.handle, 5000000000ll, &bw));
	EXPECT_EQ(0ull, bw.seqno);
	usleep(100000);
	for (i = 0; i < SZ; i++)
		if (self->b.map[i])
			break;
	EXPECT_EQ(SZ, i);
	/* the out-syncobj has no fence */
	sw.handles = (uintptr_t)&sync;
	sw.count_handles = 1;
	EXPECT_EQ(-EINVAL, vpux_ioctl(self->fd, DRM_IOCTL_SYNCOBJ_WAIT, &sw));
	/* the seqno was not taken */
	submit_args(&s, &self->task, 0, copy_task(&self->task, 0, SZ),
		    self->list, 2);
	ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s));
	EXPECT_EQ(first + 1, s.seqno);
	ASSERT_EQ(0, job_wait(self->fd, s.seqno, 5000000000ll, &w));
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
	EXPECT_EQ(0, memcmp(self->a.map, self->b.map, SZ));
	munmap(ro, 4096);
}

/* The same SUBMIT from a writable page is fine, with the 1.3 struct size too. */
TEST_F(copyout, submit_on_writable_page_still_works)
{
	struct drm_vpux_submit *s = args_page();
	struct drm_vpux_wait w;
	/* uapi 1.3's struct ended before .profile */
	unsigned long req13 = DRM_IOWR(DRM_COMMAND_BASE + DRM_VPUX_SUBMIT,
				       char[offsetof(struct drm_vpux_submit, profile)]);

	ASSERT_NE(NULL, s);
	submit_args(s, &self->task, 0, copy_task(&self->task, 0, SZ),
		    self->list, 2);
	ASSERT_EQ(0, vpux_ioctl(self->fd, req13, s));
	EXPECT_NE(0ull, s->seqno);
	ASSERT_EQ(0, job_wait(self->fd, s->seqno, 5000000000ll, &w));
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
	EXPECT_EQ(0, memcmp(self->a.map, self->b.map, SZ));
	munmap(s, 4096);
}

/*
 * BO_CREATE whose struct is on a read-only page: -EFAULT, and no BO: the
 * file pins what it pinned before, and the handle the BO would have had
 * names nothing.
 */
TEST_F(copyout, bo_create_on_readonly_page_leaves_no_bo)
{
	struct drm_vpux_bo_create *ro = args_page(), c = { .size = 1 << 20 };
	struct drm_vpux_bo_info info = { 0 };
	struct drm_gem_close gc = { 0 };
	__u64 before, after;

	ASSERT_NE(NULL, ro);
	/* handles are the lowest free number: learn the next one */
	ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_BO_CREATE, &c));
	gc.handle = c.handle;
	ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_GEM_CLOSE, &gc));
	ASSERT_EQ(0, file_bo_used(self->fd, &before));

	ro->size = 1 << 20;
	ASSERT_EQ(0, args_seal(ro));
	EXPECT_EQ(-EFAULT, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_BO_CREATE, ro));
	ASSERT_EQ(0, file_bo_used(self->fd, &after));
	EXPECT_EQ(before, after);
	info.handle = c.handle;
	EXPECT_EQ(-ENOENT, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_BO_INFO, &info));
	munmap(ro, 4096);
}

/*
 * QUEUE_CREATE whose struct is on a read-only page: -EFAULT, and no
 * queue: its id names nothing and the file can still create
 * DRM_VPUX_MAX_QUEUES queues.
 */
TEST_F(copyout, queue_create_on_readonly_page_leaves_no_queue)
{
	struct drm_vpux_queue_create *ro = args_page();
	__u32 id, next;
	int i;

	ASSERT_NE(NULL, ro);
	ASSERT_EQ(0, queue_create(self->fd, DRM_VPUX_PRIORITY_NORMAL, &next));
	ASSERT_EQ(0, queue_destroy(self->fd, next));

	ro->priority = DRM_VPUX_PRIORITY_NORMAL;
	ASSERT_EQ(0, args_seal(ro));
	EXPECT_EQ(-EFAULT, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_QUEUE_CREATE, ro));
	EXPECT_EQ(-ENOENT, queue_destroy(self->fd, next));
	for (i = 0; i < DRM_VPUX_MAX_QUEUES; i++)
		ASSERT_EQ(0, queue_create(self->fd, DRM_VPUX_PRIORITY_NORMAL, &id));
	EXPECT_EQ(-ENOSPC, queue_create(self->fd, DRM_VPUX_PRIORITY_NORMAL, &id));
	munmap(ro, 4096);
}

TEST_HARNESS_MAIN
