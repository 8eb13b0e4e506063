// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpux job queues: DRM_IOCTL_VPUX_QUEUE_CREATE / QUEUE_DESTROY
 * and SUBMIT's queue_id. A queue runs its jobs one at a time in
 * submission order; jobs of different queues run at the same time. Also
 * BO_WAIT and the dma-buf of a DEVICE_READONLY BO two concurrent readers
 * share, and CAP_SYS_NICE for HIGH and REALTIME.
 *
 * The model runs each engine's op to its end as fast as the host copies
 * (debugfs "slow" only stretches its cycle count), so a job that must be
 * running while another finishes is a long chain of DMA ops (one op at a
 * time, the next started only once the previous completed): the other
 * job's op runs in between, and the chain's length is calibrated so that
 * it takes at least MIN_LONG_MS on this machine.
 */
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>

#include "kselftest_harness.h"
#include "vpux_common.h"
#include "vpux_job_util.h"
#include "vpux_vgem.h"	/* dmabuf_sync_file() */

#define SZ		8192
#define MIN_LONG_MS	300
#define LONG_ROWS	256		/* 1 MiB per op */
#define LONG_BO		(LONG_ROWS * 4096)
#define MAX_CHAIN	512

FIXTURE(queue) {
	int fd;
	int minor;
	long resets;
	struct bo task, a, b;
	struct drm_vpux_buf list[2];
	/* the long job: its task BO, source and destination */
	struct bo ltask, lsrc, ldst;
	unsigned int lops;	/* chain length, calibrated */
};

FIXTURE_SETUP(queue)
{
	int i;

	self->resets = -1;
	self->fd = vpux_open_nth(0, &self->minor);
	if (self->fd == -ENODEV)
		SKIP(return, "no vpux device (is vpux_accel loaded?)");
	ASSERT_GE(self->fd, 0);
	self->resets = dbg_read(self->minor, "resets");
	ASSERT_EQ(0, bo_new(self->fd, 4096, 0, &self->task));
	ASSERT_EQ(0, bo_new(self->fd, SZ, 0, &self->a));
	ASSERT_EQ(0, bo_new(self->fd, SZ, 0, &self->b));
	for (i = 0; i < SZ; i++)
		self->a.map[i] = (unsigned char)(i * 13 + 5);
	self->list[0] = (struct drm_vpux_buf){ .handle = self->a.handle, .size = SZ };
	self->list[1] = (struct drm_vpux_buf){ .handle = self->b.handle, .size = SZ };
}

FIXTURE_TEARDOWN(queue)
{
	if (self->fd < 0)
		return;
	/* no test here may cause a hang recovery */
	if (self->resets >= 0)
		EXPECT_EQ(self->resets, dbg_read(self->minor, "resets"));
	close(self->fd);
}

/* A 64-byte copy a -> b (@dst instead of b if non-zero) on queue @q */
static int short_job(FIXTURE_DATA(queue) *self, __u32 q, __u32 prio,
		     __u32 dst, __u64 *seqno)
{
	struct drm_vpux_buf l[2] = { self->list[0], self->list[1] };
	struct drm_vpux_submit s;
	int ret;

	if (dst)
		l[1].handle = dst;
	submit_args(&s, &self->task, 0, copy_task(&self->task, 0, 64), l, 2);
	/* the default queue is NORMAL: another priority is a queue's */
	if (!q && prio != DRM_VPUX_PRIORITY_NORMAL) {
		ret = queue_create(self->fd, prio, &s.queue_id);
		if (ret)
			return ret;
	} else {
		s.queue_id = q;
	}
	ret = vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s);
	if (!ret && seqno)
		*seqno = s.seqno;
	if (s.queue_id != q)	/* its job still runs */
		queue_destroy(self->fd, s.queue_id);
	return ret;
}

/* The long chain (self->lops ops) lsrc -> ldst on queue @q, or -errno */
static int long_job(FIXTURE_DATA(queue) *self, __u32 q, struct bo *src,
		    __u64 *seqno)
{
	struct drm_vpux_buf l[2] = {
		{ .handle = src ? src->handle : self->lsrc.handle, .size = LONG_BO },
		{ .handle = self->ldst.handle, .size = LONG_BO },
	};
	struct drm_vpux_submit s;
	int ret;

	submit_args(&s, &self->ltask, 0, chain_task(self->ltask.map, self->lops,
						     LONG_ROWS), l, 2);
	s.queue_id = q;
	ret = vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s);
	if (!ret)
		*seqno = s.seqno;
	return ret;
}

/*
 * Lay out the long job's BOs and lengthen its chain until it takes at
 * least MIN_LONG_MS alone. 0, or -errno.
 */
static int long_job_init(struct __test_metadata *_metadata,
			 FIXTURE_DATA(queue) *self)
{
	struct drm_vpux_wait w;
	__u64 seq;
	__s64 t0, ms = 0;
	int ret;

	ret = bo_new(self->fd, tb_bytes_chain(MAX_CHAIN), 0, &self->ltask);
	if (!ret)
		ret = bo_new(self->fd, LONG_BO, 0, &self->lsrc);
	if (!ret)
		ret = bo_new(self->fd, LONG_BO, 0, &self->ldst);
	if (ret)
		return ret;
	memset(self->lsrc.map, 0x3c, LONG_BO);
	for (self->lops = 8; self->lops <= MAX_CHAIN; self->lops *= 2) {
		t0 = now_ns();
		ret = long_job(self, 0, NULL, &seq);
		if (!ret)
			ret = job_wait(self->fd, seq, 60000000000ll, &w);
		if (ret)
			return ret;
		if (w.status != DRM_VPUX_STATUS_DONE)
			return -EIO;
		ms = (now_ns() - t0) / 1000000;
		if (ms >= MIN_LONG_MS)
			break;
	}
	if (self->lops > MAX_CHAIN)
		self->lops = MAX_CHAIN;
	TH_LOG("long job: %u ops of 1 MiB, %lld ms alone", self->lops, (long long)ms);
	return 0;
}

TEST_F(queue, ids_and_destroy)
{
	__u32 id[8], i, j;
	__u64 seq;
	struct drm_vpux_wait w;

	for (i = 0; i < 8; i++) {
		ASSERT_EQ(0, queue_create(self->fd, i % 2 ? DRM_VPUX_PRIORITY_LOW :
					  DRM_VPUX_PRIORITY_NORMAL, &id[i]));
		EXPECT_GE(id[i], 1u);
		for (j = 0; j < i; j++)
			EXPECT_NE(id[j], id[i]);
	}
	/* a job on a queue, then the queue is gone: the job still completes */
	ASSERT_EQ(0, short_job(self, id[0], DRM_VPUX_PRIORITY_NORMAL, 0, &seq));
	EXPECT_EQ(0, queue_destroy(self->fd, id[0]));
	ASSERT_EQ(0, job_wait(self->fd, seq, 10000000000ll, &w));
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
	EXPECT_EQ(0, memcmp(self->a.map, self->b.map, 64));
	/* its id is gone at once */
	EXPECT_EQ(-ENOENT, queue_destroy(self->fd, id[0]));
	EXPECT_EQ(-ENOENT, short_job(self, id[0], DRM_VPUX_PRIORITY_NORMAL, 0, NULL));
	EXPECT_EQ(-ENOENT, queue_destroy(self->fd, 0));
	EXPECT_EQ(-ENOENT, queue_destroy(self->fd, 0x7fffffff));
	for (i = 1; i < 8; i++)
		EXPECT_EQ(0, queue_destroy(self->fd, id[i]));
}

TEST_F(queue, bad_args)
{
	struct drm_vpux_queue_create c;
	struct drm_vpux_queue_destroy d;
	__u32 q;

	memset(&c, 0, sizeof(c));
	c.flags = 1;
	EXPECT_EQ(-EINVAL, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_QUEUE_CREATE, &c));
	memset(&c, 0, sizeof(c));
	c.pad = 1;
	EXPECT_EQ(-EINVAL, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_QUEUE_CREATE, &c));
	memset(&c, 0, sizeof(c));
	c.priority = DRM_VPUX_PRIORITY_REALTIME + 1;
	EXPECT_EQ(-EINVAL, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_QUEUE_CREATE, &c));
	c.priority = ~0u;
	EXPECT_EQ(-EINVAL, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_QUEUE_CREATE, &c));

	ASSERT_EQ(0, queue_create(self->fd, DRM_VPUX_PRIORITY_NORMAL, &q));
	d = (struct drm_vpux_queue_destroy){ .queue_id = q, .pad = 1 };
	EXPECT_EQ(-EINVAL, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_QUEUE_DESTROY, &d));
	/* SUBMIT: a queue of this file */
	do {
		struct drm_vpux_submit s;

		submit_args(&s, &self->task, 0, copy_task(&self->task, 0, 64),
			    self->list, 2);
		s.queue_id = q + 1000;
		EXPECT_EQ(-ENOENT, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s));
		s.queue_id = q;
		EXPECT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s));
	} while (0);
	EXPECT_EQ(0, queue_destroy(self->fd, q));
}

TEST_F(queue, limit_per_file)
{
	__u32 id[64], extra, other;
	__u64 max;
	int fd2, i;

	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_MAX_QUEUES, &max));
	ASSERT_LE(max, 64ull);
	ASSERT_GT(max, 5ull);
	for (i = 0; i < (int)max; i++)
		ASSERT_EQ(0, queue_create(self->fd, i % 2, &id[i])) TH_LOG("queue %d", i);
	EXPECT_EQ(-ENOSPC, queue_create(self->fd, DRM_VPUX_PRIORITY_NORMAL, &extra));
	/* the limit is per file */
	fd2 = vpux_open_nth(0, NULL);
	ASSERT_GE(fd2, 0);
	EXPECT_EQ(0, queue_create(fd2, DRM_VPUX_PRIORITY_NORMAL, &other));
	close(fd2);
	/* a destroyed queue makes room */
	ASSERT_EQ(0, queue_destroy(self->fd, id[5]));
	EXPECT_EQ(0, queue_create(self->fd, DRM_VPUX_PRIORITY_NORMAL, &extra));
	EXPECT_EQ(-ENOSPC, queue_create(self->fd, DRM_VPUX_PRIORITY_NORMAL, &extra));
	/* and the jobs still run, on a queue and on the default one */
	do {
		struct drm_vpux_wait w;
		__u64 seq;

		ASSERT_EQ(0, short_job(self, extra, DRM_VPUX_PRIORITY_NORMAL, 0, &seq));
		ASSERT_EQ(0, job_wait(self->fd, seq, 10000000000ll, &w));
		EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
		ASSERT_EQ(0, short_job(self, 0, DRM_VPUX_PRIORITY_NORMAL, 0, &seq));
		ASSERT_EQ(0, job_wait(self->fd, seq, 10000000000ll, &w));
		EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
	} while (0);
}

TEST_F(queue, another_files_queue)
{
	struct drm_vpux_wait w;
	__u32 theirs, mine;
	__u64 seq;
	int fd2;

	fd2 = vpux_open_nth(0, NULL);
	ASSERT_GE(fd2, 0);
	/* ids are per file: fd2's first queue may have the id of mine */
	ASSERT_EQ(0, queue_create(fd2, DRM_VPUX_PRIORITY_NORMAL, &theirs));
	ASSERT_EQ(0, queue_create(fd2, DRM_VPUX_PRIORITY_NORMAL, &theirs));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VPUX_PRIORITY_NORMAL, &mine));
	ASSERT_NE(theirs, mine);
	EXPECT_EQ(-ENOENT, short_job(self, theirs, DRM_VPUX_PRIORITY_NORMAL, 0, NULL));
	EXPECT_EQ(-ENOENT, queue_destroy(self->fd, theirs));
	/* nothing happened to fd2's queue */
	do {
		struct bo t, a, b;
		struct drm_vpux_buf l[2];
		struct drm_vpux_submit s;

		ASSERT_EQ(0, bo_new(fd2, 4096, 0, &t));
		ASSERT_EQ(0, bo_new(fd2, SZ, 0, &a));
		ASSERT_EQ(0, bo_new(fd2, SZ, 0, &b));
		memset(a.map, 0x77, SZ);
		l[0] = (struct drm_vpux_buf){ .handle = a.handle, .size = SZ };
		l[1] = (struct drm_vpux_buf){ .handle = b.handle, .size = SZ };
		submit_args(&s, &t, 0, copy_task(&t, 0, SZ), l, 2);
		s.queue_id = theirs;
		ASSERT_EQ(0, vpux_ioctl(fd2, DRM_IOCTL_VPUX_SUBMIT, &s));
		ASSERT_EQ(0, job_wait(fd2, s.seqno, 10000000000ll, &w));
		EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
		EXPECT_EQ(0x77, b.map[SZ - 1]);
	} while (0);
	EXPECT_EQ(0, queue_destroy(fd2, theirs));
	/* my queue runs */
	ASSERT_EQ(0, short_job(self, mine, DRM_VPUX_PRIORITY_NORMAL, 0, &seq));
	ASSERT_EQ(0, job_wait(self->fd, seq, 10000000000ll, &w));
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
	close(fd2);
}

/*
 * One queue: a long job, then a short one that shares nothing with it.
 * The short one must not finish while the long one runs (checked in
 * that order, so that a "done" then "not done" is a real inversion);
 * both finish DONE.
 */
TEST_F_TIMEOUT(queue, jobs_of_a_queue_finish_in_order, 120)
{
	struct drm_vpux_wait w;
	struct bo dst;
	__u64 first, second;
	__u32 q;
	int polls = 0, rb, ra;

	ASSERT_EQ(0, long_job_init(_metadata, self));
	ASSERT_EQ(0, bo_new(self->fd, SZ, 0, &dst));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VPUX_PRIORITY_NORMAL, &q));
	ASSERT_EQ(0, long_job(self, q, NULL, &first));
	ASSERT_EQ(0, short_job(self, q, DRM_VPUX_PRIORITY_NORMAL, dst.handle, &second));
	for (;;) {
		rb = job_wait(self->fd, second, 0, &w);
		ra = job_wait(self->fd, first, 0, &w);
		polls++;
		if (!rb) {
			ASSERT_EQ(0, ra) TH_LOG("the later job of the queue finished first (poll %d)",
						polls);
			break;
		}
		ASSERT_EQ(-ETIMEDOUT, rb);
		usleep(1000);
	}
	ASSERT_EQ(0, job_wait(self->fd, first, 0, &w));
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
	ASSERT_EQ(0, job_wait(self->fd, second, 0, &w));
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
	EXPECT_EQ(0, memcmp(self->a.map, dst.map, 64));
	EXPECT_EQ(0, memcmp(self->lsrc.map, self->ldst.map, LONG_BO));
	TH_LOG("the short job finished after the long one (%d polls)", polls);
}

/*
 * Two queues: the same long job on one, the short one on another. The
 * short one finishes while the long one still runs.
 */
TEST_F_TIMEOUT(queue, jobs_of_two_queues_overlap, 120)
{
	struct drm_vpux_wait w;
	struct bo dst;
	__u64 first, second;
	__u32 q1, q2;

	ASSERT_EQ(0, long_job_init(_metadata, self));
	ASSERT_EQ(0, bo_new(self->fd, SZ, 0, &dst));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VPUX_PRIORITY_NORMAL, &q1));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VPUX_PRIORITY_NORMAL, &q2));
	ASSERT_EQ(0, long_job(self, q1, NULL, &first));
	ASSERT_EQ(0, short_job(self, q2, DRM_VPUX_PRIORITY_NORMAL, dst.handle, &second));
	ASSERT_EQ(0, job_wait(self->fd, second, 30000000000ll, &w));
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
	EXPECT_EQ(-ETIMEDOUT, job_wait(self->fd, first, 0, &w))
		TH_LOG("the long job of the other queue was already done");
	EXPECT_EQ(0, memcmp(self->a.map, dst.map, 64));
	ASSERT_EQ(0, job_wait(self->fd, first, 60000000000ll, &w));
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
	EXPECT_EQ(0, memcmp(self->lsrc.map, self->ldst.map, LONG_BO));
}

/*
 * Closing a file does not wait for its jobs: they hold what they use and
 * run to their end. The long job's destination is exported first; the
 * file is closed (every mapping gone, so close() really releases it)
 * while the job runs, and the dma-buf shows the job going on and
 * completing in full afterwards.
 */
TEST_F_TIMEOUT(queue, close_does_not_wait_for_running_jobs, 120)
{
	struct drm_prime_handle ex = { .flags = DRM_CLOEXEC };
	struct bo *maps[] = { &self->task, &self->a, &self->b, &self->ltask,
			      &self->lsrc, &self->ldst };
	struct pollfd pfd = { .events = POLLOUT };
	unsigned char *view;
	__s64 t0, close_ms;
	__u64 seq;
	size_t i;

	ASSERT_EQ(0, long_job_init(_metadata, self));
	memset(self->ldst.map, 0, LONG_BO);
	ex.handle = self->ldst.handle;
	ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ex));
	pfd.fd = ex.fd;
	ASSERT_EQ(0, long_job(self, 0, NULL, &seq));
	for (i = 0; i < sizeof(maps) / sizeof(maps[0]); i++)
		munmap(maps[i]->map, maps[i]->size);

	t0 = now_ns();
	close(self->fd);
	close_ms = (now_ns() - t0) / 1000000;
	self->fd = -1;
	/* the job alone takes MIN_LONG_MS or more */
	EXPECT_LT(close_ms, MIN_LONG_MS / 2)
		TH_LOG("close took %lld ms: it waited for the job", (long long)close_ms);
	EXPECT_EQ(0, poll(&pfd, 1, 0))
		TH_LOG("the job was over when close returned");
	ASSERT_EQ(1, poll(&pfd, 1, 60000));
	view = mmap(NULL, LONG_BO, PROT_READ, MAP_SHARED, ex.fd, 0);
	ASSERT_NE(MAP_FAILED, view);
	for (i = 0; i < LONG_BO; i++)
		if (view[i] != 0x3c)
			break;
	EXPECT_EQ((size_t)LONG_BO, i)
		TH_LOG("the destination is wrong from byte %zu", i);
	munmap(view, LONG_BO);
	close(ex.fd);
}

/*
 * Two jobs read one DEVICE_READONLY BO from two queues: the long one
 * first, the short one second, so the later one finishes first. The BO
 * is busy until both are done, for BO_WAIT,
 * for another file that imported it, and for an importer of its dma-buf
 * (poll() on the dma-buf, and on a sync_file exported from it). Every
 * view is sampled before the long job's state, so a "busy" view is
 * required exactly when the long job was still running after it.
 */
TEST_F_TIMEOUT(queue, shared_readonly_bo_busy_until_both_readers_done, 120)
{
	struct drm_prime_handle ex = { .flags = DRM_CLOEXEC };
	struct drm_prime_handle im = { 0 };
	struct drm_vpux_bo_wait bw;
	struct drm_vpux_wait w;
	struct bo ro, dst;
	__u64 first, second;
	__u32 q1, q2;
	int fd2, busy = 0, samples = 0;

	ASSERT_EQ(0, long_job_init(_metadata, self));
	ASSERT_EQ(0, bo_new(self->fd, LONG_BO, DRM_VPUX_BO_DEVICE_READONLY, &ro));
	ASSERT_EQ(0, bo_new(self->fd, SZ, 0, &dst));
	memset(ro.map, 0x96, LONG_BO);
	ex.handle = ro.handle;
	ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ex));
	fd2 = vpux_open_nth(0, NULL);
	ASSERT_GE(fd2, 0);
	im.fd = ex.fd;
	ASSERT_EQ(0, vpux_ioctl(fd2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &im));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VPUX_PRIORITY_NORMAL, &q1));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VPUX_PRIORITY_NORMAL, &q2));

	/* idle before */
	ASSERT_EQ(0, bo_wait15(self->fd, ro.handle, 0, &bw));
	EXPECT_EQ(0ull, bw.seqno);

	ASSERT_EQ(0, long_job(self, q1, &ro, &first));
	do {
		struct drm_vpux_buf l[2] = {
			{ .handle = ro.handle, .size = LONG_BO },
			{ .handle = dst.handle, .size = SZ },
		};
		struct drm_vpux_submit s;

		submit_args(&s, &self->task, 0, copy_task(&self->task, 0, SZ), l, 2);
		s.queue_id = q2;
		ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s));
		second = s.seqno;
	} while (0);
	ASSERT_EQ(0, job_wait(self->fd, second, 30000000000ll, &w));
	ASSERT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
	for (;;) {
		struct pollfd pd = { .fd = ex.fd, .events = POLLOUT };
		struct drm_vpux_bo_wait bw2;
		int r15, rimp, pdma, psf, sf, ra;

		r15 = bo_wait15(self->fd, ro.handle, 0, &bw);
		rimp = bo_wait15(fd2, im.handle, 0, &bw2);
		pdma = poll(&pd, 1, 0);
		sf = dmabuf_sync_file(ex.fd);
		ASSERT_GE(sf, 0);
		pd = (struct pollfd){ .fd = sf, .events = POLLIN };
		psf = poll(&pd, 1, 0);
		close(sf);
		ra = job_wait(self->fd, first, 0, &w);
		samples++;
		if (ra == 0)
			break;
		ASSERT_EQ(-ETIMEDOUT, ra);
		/* the long job ran on after every view was sampled */
		busy++;
		EXPECT_EQ(-ETIMEDOUT, r15) TH_LOG("BO_WAIT: idle while a reader runs");
		EXPECT_EQ(-ETIMEDOUT, rimp) TH_LOG("the importing file: idle while a reader runs");
		EXPECT_EQ(0, pdma) TH_LOG("the dma-buf polls writable while a reader runs");
		EXPECT_EQ(0, psf) TH_LOG("its sync_file is signalled while a reader runs");
		if (r15 == 0 || rimp == 0 || pdma || psf)
			break;
		usleep(2000);
	}
	EXPECT_GE(busy, 1) TH_LOG("the long job was over before the short one: not measured");
	TH_LOG("%d samples while the first reader ran", busy);
	/* both done: every view idle, BO_WAIT reports the file's last job */
	ASSERT_EQ(0, job_wait(self->fd, first, 60000000000ll, &w));
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
	ASSERT_EQ(0, bo_wait15(self->fd, ro.handle, 0, &bw));
	EXPECT_EQ(second, bw.seqno);
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, bw.status);
	EXPECT_EQ(0, bo_wait15(fd2, im.handle, 0, &bw));
	EXPECT_EQ(0ull, bw.seqno);	/* no job of fd2 used it */
	do {
		struct pollfd pd = { .fd = ex.fd, .events = POLLOUT };

		EXPECT_EQ(1, poll(&pd, 1, 0));
	} while (0);
	EXPECT_EQ(0, memcmp(ro.map, dst.map, SZ));
	EXPECT_EQ(0, memcmp(ro.map, self->ldst.map, LONG_BO));
	close(ex.fd);
	close(fd2);
	(void)samples;
}

/* ---- CAP_SYS_NICE ---- */

static int sys_nice(int drop)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -errno;
	if (!drop)
		return !!(d[CAP_SYS_NICE / 32].effective & (1u << (CAP_SYS_NICE % 32)));
	d[CAP_SYS_NICE / 32].effective &= ~(1u << (CAP_SYS_NICE % 32));
	return syscall(SYS_capset, &h, d) ? -errno : 0;
}

/*
 * HIGH and REALTIME need CAP_SYS_NICE, for QUEUE_CREATE and for SUBMIT
 * to a default queue; LOW and NORMAL do not. The test runs in a process
 * of its own (the harness forks one per test), which drops the
 * capability from its effective set.
 */
TEST_F(queue, high_priority_needs_cap_sys_nice)
{
	static const __u32 prios[] = {
		DRM_VPUX_PRIORITY_LOW, DRM_VPUX_PRIORITY_NORMAL,
		DRM_VPUX_PRIORITY_HIGH, DRM_VPUX_PRIORITY_REALTIME,
	};
	struct drm_vpux_wait w;
	unsigned int i;
	__u64 seq;
	__u32 q;

	if (sys_nice(0) != 1)
		SKIP(return, "the test runs without CAP_SYS_NICE to begin with");
	/* with the capability, every priority is granted */
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, queue_create(self->fd, prios[i], &q)) TH_LOG("priority %u", i);
		EXPECT_EQ(0, queue_destroy(self->fd, q));
		ASSERT_EQ(0, short_job(self, 0, prios[i], 0, &seq));
		ASSERT_EQ(0, job_wait(self->fd, seq, 10000000000ll, &w));
		EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
	}
	ASSERT_EQ(0, sys_nice(1));
	ASSERT_EQ(0, sys_nice(0));
	for (i = 0; i < 4; i++) {
		int want = prios[i] >= DRM_VPUX_PRIORITY_HIGH ? -EPERM : 0;

		memset(self->b.map, 0, 64);
		EXPECT_EQ(want, queue_create(self->fd, prios[i], &q)) TH_LOG("priority %u", i);
		if (!want)
			EXPECT_EQ(0, queue_destroy(self->fd, q));
		EXPECT_EQ(want, short_job(self, 0, prios[i], 0, &seq)) TH_LOG("priority %u", i);
		if (want)
			continue;
		ASSERT_EQ(0, job_wait(self->fd, seq, 10000000000ll, &w));
		EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
		EXPECT_EQ(0, memcmp(self->a.map, self->b.map, 64));
	}
	/* a refusal is no ban: the file runs on */
	ASSERT_EQ(0, short_job(self, 0, DRM_VPUX_PRIORITY_NORMAL, 0, &seq));
	ASSERT_EQ(0, job_wait(self->fd, seq, 10000000000ll, &w));
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
}

TEST_HARNESS_MAIN
