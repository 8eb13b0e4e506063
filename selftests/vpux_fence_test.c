// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpux jobs held back by in-syncobjs whose fence the test controls (a
 * vgem fence, vpux_vgem.h): a job must not run before its in-fence
 * signals, as a binary syncobj and as a chain point of a timeline; a
 * queue holds every later job behind a held one while other queues run
 * on (uapi 1.5); and SUBMIT copies the task (uapi 1.5), so rewriting the
 * task memory after SUBMIT, held job or not, changes nothing, and
 * rewriting it during SUBMIT gives one of the two versions, never a mix
 * of what was checked and what runs. The tests that need vgem skip
 * without it (no /dev/dri node of driver "vgem").
 */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "vpux_common.h"
#include "vpux_job_util.h"
#include "vpux_vgem.h"

#define SZ		8192
#define HOLD_NS		300000000ll	/* how long a held job is watched */

FIXTURE(fence) {
	int fd;
	int minor;
	int vgem;
	struct bo task, a, b, c;
	struct drm_vpux_buf list[3];
	struct held h;
};

FIXTURE_SETUP(fence)
{
	int i;

	self->vgem = -1;
	self->h.dmabuf = -1;
	self->fd = vpux_open_nth(0, &self->minor);
	if (self->fd == -ENODEV)
		SKIP(return, "no vpux device (is vpux_accel loaded?)");
	ASSERT_GE(self->fd, 0);
	self->vgem = vgem_open();
	/*
	 * The task memory and the source are DEVICE_READONLY: jobs using
	 * them wait only for writers of them, none, so that the jobs here
	 * are ordered by their in-fences and queues alone, not by the
	 * implicit fences of a BO they share.
	 */
	ASSERT_EQ(0, bo_new(self->fd, 4096, DRM_VPUX_BO_DEVICE_READONLY, &self->task));
	ASSERT_EQ(0, bo_new(self->fd, SZ, DRM_VPUX_BO_DEVICE_READONLY, &self->a));
	ASSERT_EQ(0, bo_new(self->fd, SZ, 0, &self->b));
	ASSERT_EQ(0, bo_new(self->fd, SZ, 0, &self->c));
	for (i = 0; i < SZ; i++)
		self->a.map[i] = (unsigned char)(i * 29 + 11);
	self->list[0] = (struct drm_vpux_buf){ .handle = self->a.handle, .size = SZ };
	self->list[1] = (struct drm_vpux_buf){ .handle = self->b.handle, .size = SZ };
	self->list[2] = (struct drm_vpux_buf){ .handle = self->c.handle, .size = SZ };
}

FIXTURE_TEARDOWN(fence)
{
	if (self->h.vgem)
		held_free(&self->h);
	if (self->vgem >= 0)
		close(self->vgem);
	if (self->fd >= 0)
		close(self->fd);
}

#define NEED_VGEM() do { \
	if (self->vgem < 0) \
		SKIP(return, "no vgem (CONFIG_DRM_VGEM, modprobe vgem)"); \
	ASSERT_EQ(0, held_new(self->vgem, &self->h)); \
} while (0)

static int zero(const unsigned char *p, size_t n)
{
	while (n--)
		if (*p++)
			return 0;
	return 1;
}

/* SUBMIT @len bytes a -> b with one in-syncobj (@h, @point) and @out */
static int held_copy(FIXTURE_DATA(fence) *self, __u32 h, __u64 point,
		     __u32 out, __u32 len, __u64 *seqno)
{
	struct drm_vpux_syncobj in = { .handle = h, .point = point };
	struct drm_vpux_submit s;
	int ret;

	submit_args(&s, &self->task, 0, copy_task(&self->task, 0, len),
		    self->list, 2);
	s.in_syncobjs = (uintptr_t)&in;
	s.in_syncobj_count = 1;
	s.out_syncobj = out;
	ret = vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s);
	if (!ret)
		*seqno = s.seqno;
	return ret;
}

/*
 * The job @seqno writing b is held: not done within HOLD_NS, its
 * out-syncobj @out (if any) unsignalled, b untouched and busy.
 */
static void expect_held(struct __test_metadata *_metadata,
			FIXTURE_DATA(fence) *self, __u64 seqno, __u32 out)
{
	struct drm_vpux_wait w;

	EXPECT_EQ(-ETIMEDOUT, job_wait(self->fd, seqno, HOLD_NS, &w))
		TH_LOG("the job ran before its in-fence signalled (status %u)", w.status);
	if (out)
		EXPECT_EQ(-ETIME, syncobj_wait_point(self->fd, out, 0, 1000000));
	EXPECT_EQ(-ETIMEDOUT, wait_bo(self->fd, self->b.handle, 0, &w));
	EXPECT_TRUE(zero(self->b.map, SZ)) TH_LOG("the held job wrote its destination");
}

/* The job @seqno ran to its end and b is a's first @len bytes */
static void expect_ran(struct __test_metadata *_metadata,
		       FIXTURE_DATA(fence) *self, __u64 seqno, __u32 len)
{
	struct drm_vpux_wait w;

	ASSERT_EQ(0, job_wait(self->fd, seqno, 10000000000ll, &w));
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
	EXPECT_EQ(0, memcmp(self->a.map, self->b.map, len));
	EXPECT_TRUE(zero(self->b.map + len, SZ - len));
}

TEST_F(fence, binary_in_syncobj_holds_a_job)
{
	__u32 sync, out;
	__u64 seq;

	NEED_VGEM();
	ASSERT_EQ(0, held_syncobj(self->fd, &self->h, &sync));
	ASSERT_EQ(0, syncobj_new(self->fd, &out));
	ASSERT_EQ(0, held_copy(self, sync, 0, out, SZ, &seq));
	expect_held(_metadata, self, seq, out);
	/* the file's other jobs are not held: a -> c on a LOW queue */
	do {
		struct drm_vpux_buf l[2] = { self->list[0], self->list[2] };
		struct drm_vpux_submit s;
		struct drm_vpux_wait w;
		__u32 low;

		ASSERT_EQ(0, queue_create(self->fd, DRM_VPUX_PRIORITY_LOW, &low));
		submit_args(&s, &self->task, 1024, copy_task(&self->task, 1024, SZ),
			    l, 2);
		s.queue_id = low;
		ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s));
		ASSERT_EQ(0, job_wait(self->fd, s.seqno, 10000000000ll, &w));
		EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
		EXPECT_EQ(0, memcmp(self->a.map, self->c.map, SZ));
	} while (0);
	expect_held(_metadata, self, seq, out);
	ASSERT_EQ(0, held_signal(&self->h));
	expect_ran(_metadata, self, seq, SZ);
	EXPECT_EQ(0, syncobj_wait_point(self->fd, out, 0, 1000000000ll));
}

TEST_F(fence, timeline_chain_point_holds_a_job)
{
	__u32 tl, out;
	__u64 seq;

	NEED_VGEM();
	ASSERT_EQ(0, held_timeline(self->fd, &self->h, &tl));
	/* point 2 was signalled by the CPU, yet it is not: point 1 is not */
	EXPECT_EQ(-ETIME, syncobj_wait_point(self->fd, tl, 2, 1000000));
	ASSERT_EQ(0, syncobj_new(self->fd, &out));
	ASSERT_EQ(0, held_copy(self, tl, 2, out, SZ, &seq));
	expect_held(_metadata, self, seq, out);
	ASSERT_EQ(0, held_signal(&self->h));
	expect_ran(_metadata, self, seq, SZ);
	EXPECT_EQ(0, syncobj_wait_point(self->fd, tl, 2, 1000000000ll));
}

/*
 * A held job holds the jobs behind it in its queue, the file's default
 * queue of its priority included, and nothing else: another queue's job
 * and another priority's job run meanwhile.
 */
TEST_F(fence, a_held_job_holds_its_queue_only)
{
	struct drm_vpux_syncobj in;
	struct drm_vpux_submit s;
	struct drm_vpux_wait w;
	struct bo d[3];
	struct drm_vpux_buf l[2];
	__u64 held, behind, behind_def, other_q, other_prio;
	__u32 sync, q1, q2;
	int i;

	NEED_VGEM();
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, bo_new(self->fd, SZ, 0, &d[i]));
	ASSERT_EQ(0, held_syncobj(self->fd, &self->h, &sync));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VPUX_PRIORITY_NORMAL, &q1));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VPUX_PRIORITY_NORMAL, &q2));
	in = (struct drm_vpux_syncobj){ .handle = sync };
	l[0] = self->list[0];

	/* q1: a -> b held, then a -> d0 with no dependency */
	submit_args(&s, &self->task, 0, copy_task(&self->task, 0, SZ), self->list, 2);
	s.queue_id = q1;
	s.in_syncobjs = (uintptr_t)&in;
	s.in_syncobj_count = 1;
	ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s));
	held = s.seqno;
	l[1] = (struct drm_vpux_buf){ .handle = d[0].handle, .size = SZ };
	submit_args(&s, &self->task, 1024, copy_task(&self->task, 1024, SZ), l, 2);
	s.queue_id = q1;
	ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s));
	behind = s.seqno;
	/* the default NORMAL queue: held a -> c, then a -> d1 */
	do {
		struct drm_vpux_buf lc[2] = { self->list[0], self->list[2] };

		submit_args(&s, &self->task, 2048, copy_task(&self->task, 2048, SZ),
			    lc, 2);
		s.in_syncobjs = (uintptr_t)&in;
		s.in_syncobj_count = 1;
		ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s));
	} while (0);
	l[1] = (struct drm_vpux_buf){ .handle = d[1].handle, .size = SZ };
	submit_args(&s, &self->task, 3072, copy_task(&self->task, 3072, SZ), l, 2);
	ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s));
	behind_def = s.seqno;

	/* q2 and the default LOW queue run */
	l[1] = (struct drm_vpux_buf){ .handle = d[2].handle, .size = 64 };
	submit_args(&s, &self->task, 0, 0, l, 2);
	do {
		struct bo t2;

		ASSERT_EQ(0, bo_new(self->fd, 4096, 0, &t2));
		s.task = (struct drm_vpux_buf){ .handle = t2.handle,
						.size = copy_task(&t2, 0, 64) };
		s.queue_id = q2;
		ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s));
		other_q = s.seqno;
		ASSERT_EQ(0, job_wait(self->fd, other_q, 10000000000ll, &w));
		EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
		ASSERT_EQ(0, queue_create(self->fd, DRM_VPUX_PRIORITY_LOW,
					  &s.queue_id));
		ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s));
		other_prio = s.seqno;
		ASSERT_EQ(0, job_wait(self->fd, other_prio, 10000000000ll, &w));
		EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
	} while (0);
	EXPECT_EQ(0, memcmp(self->a.map, d[2].map, 64));

	/* the jobs behind the held ones wait for them */
	EXPECT_EQ(-ETIMEDOUT, job_wait(self->fd, behind, HOLD_NS, &w))
		TH_LOG("a job ran before the held job ahead of it in its queue");
	EXPECT_EQ(-ETIMEDOUT, job_wait(self->fd, behind_def, 0, &w))
		TH_LOG("a job ran before the held job ahead of it in the default queue");
	EXPECT_TRUE(zero(d[0].map, SZ));
	EXPECT_TRUE(zero(d[1].map, SZ));
	expect_held(_metadata, self, held, 0);

	ASSERT_EQ(0, held_signal(&self->h));
	expect_ran(_metadata, self, held, SZ);
	ASSERT_EQ(0, job_wait(self->fd, behind, 10000000000ll, &w));
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
	ASSERT_EQ(0, job_wait(self->fd, behind_def, 10000000000ll, &w));
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
	EXPECT_EQ(0, memcmp(self->a.map, d[0].map, SZ));
	EXPECT_EQ(0, memcmp(self->a.map, d[1].map, SZ));
	EXPECT_EQ(0, memcmp(self->a.map, self->c.map, SZ));
}

/*
 * SUBMIT copied the task: a held job whose task memory is then
 * overwritten, with garbage or with another valid task, runs what was
 * submitted once released.
 */
TEST_F(fence, task_rewritten_after_submit_runs_as_submitted)
{
	unsigned char saved[4096];
	__u32 sync;
	__u64 seq;
	size_t size;
	struct tb t;

	NEED_VGEM();
	ASSERT_EQ(0, held_syncobj(self->fd, &self->h, &sync));
	/* a[0..SZ) -> b */
	ASSERT_EQ(0, held_copy(self, sync, 0, 0, SZ, &seq));
	memcpy(saved, self->task.map, sizeof(saved));
	memset(self->task.map, 0xff, 4096);
	expect_held(_metadata, self, seq, 0);
	ASSERT_EQ(0, held_signal(&self->h));
	expect_ran(_metadata, self, seq, SZ);
	held_free(&self->h);

	/* again, the memory now a valid task copying a[0..64) -> c[100..) */
	memset(self->b.map, 0, SZ);
	ASSERT_EQ(0, held_new(self->vgem, &self->h));
	ASSERT_EQ(0, held_syncobj(self->fd, &self->h, &sync));
	do {
		struct drm_vpux_syncobj in = { .handle = sync };
		struct drm_vpux_submit s;

		size = copy_task(&self->task, 0, SZ);
		submit_args(&s, &self->task, 0, size, self->list, 3);
		s.in_syncobjs = (uintptr_t)&in;
		s.in_syncobj_count = 1;
		ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s));
		seq = s.seqno;
	} while (0);
	tb_init(&t, self->task.map, 0, 1, 0, 0);
	dma_op(&t.dma[0], 1, 0, 3, 100, 64);
	ASSERT_EQ(size, t.size);
	expect_held(_metadata, self, seq, 0);
	ASSERT_EQ(0, held_signal(&self->h));
	expect_ran(_metadata, self, seq, SZ);
	EXPECT_TRUE(zero(self->c.map, SZ)) TH_LOG("the job ran the task written after SUBMIT");
	(void)saved;
}

/*
 * A second process flips one word of the task memory (the copy's
 * destination offset) between a valid value and one the core refuses
 * (the copy would end past the destination) while this one submits. Each
 * job either ran the valid version (b is a's copy) or was refused as the
 * other (STATUS_ERROR, BUF_RANGE) or as changed while read (CHANGED),
 * with nothing written: never checked as one and run as the other (a
 * write past b's end faults, at the guard page).
 */
TEST_F_TIMEOUT(fence, task_rewritten_during_submit, 120)
{
	enum { JOBS = 60 };
	struct drm_vpux_submit s;
	struct drm_vpux_wait w;
	unsigned int done = 0, range = 0, changed = 0, i;
	volatile __u32 *word;
	__u32 good, bad;
	size_t size;
	pid_t pid;
	struct tb t;

	tb_init(&t, self->task.map, 0, 1, 0, 0);
	dma_op(&t.dma[0], 1, 0, 2, 0, 64);
	size = t.size;
	word = (volatile __u32 *)&t.dma[0].dst.offset;
	good = 0;
	bad = SZ - 32;
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		for (;;) {
			*word = bad;
			*word = good;
		}
	}
	for (i = 0; i < JOBS; i++) {
		memset(self->b.map, 0, SZ);
		submit_args(&s, &self->task, 0, size, self->list, 2);
		if (vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s) ||
		    job_wait(self->fd, s.seqno, 10000000000ll, &w)) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			ASSERT_TRUE(0) TH_LOG("job %u: SUBMIT or WAIT failed", i);
		}
		if (w.status == DRM_VPUX_STATUS_DONE) {
			EXPECT_EQ(0, memcmp(self->a.map, self->b.map, 64)) TH_LOG("job %u", i);
			EXPECT_TRUE(zero(self->b.map + 64, SZ - 64)) TH_LOG("job %u", i);
			done++;
			continue;
		}
		EXPECT_EQ((__u32)DRM_VPUX_STATUS_ERROR, w.status) TH_LOG("job %u", i);
		EXPECT_EQ(0, w.sys_error) TH_LOG("job %u", i);
		EXPECT_TRUE(w.core_error == DLA_ERR_BUF_RANGE ||
			    w.core_error == DLA_ERR_CHANGED)
			TH_LOG("job %u: core error %u", i, w.core_error);
		EXPECT_TRUE(zero(self->b.map, SZ)) TH_LOG("job %u: refused, yet wrote", i);
		range += w.core_error == DLA_ERR_BUF_RANGE;
		changed += w.core_error == DLA_ERR_CHANGED;
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	TH_LOG("%u jobs: %u ran the valid task, %u refused it as out of range, %u as changed",
	       JOBS, done, range, changed);
	/* the file was never banned, and runs a job as usual */
	*word = good;
	submit_args(&s, &self->task, 0, size, self->list, 2);
	memset(self->b.map, 0, SZ);
	ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s));
	ASSERT_EQ(0, job_wait(self->fd, s.seqno, 10000000000ll, &w));
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
	EXPECT_EQ(0, memcmp(self->a.map, self->b.map, 64));
}

/* ---- failed in-fences (uapi.rst: the job ends ABORTED, -ECANCELED) ---- */

/*
 * SUBMIT a job of @fd on @queue whose task lies at @off of @task: a copy
 * of @len bytes from list[0] to list[1], or, @bad, a copy reading past
 * list[0] that the engine core refuses (ERROR, DLA_ERR_BUF_RANGE). With
 * in-syncobj @in (0: none), out-syncobj @out (0: none) at @out_point.
 */
static int job_sub(int fd, struct bo *task, size_t off, struct drm_vpux_buf *list,
		   __u32 queue, int bad, __u32 in, __u32 out, __u64 out_point,
		   __u64 *seqno)
{
	struct drm_vpux_syncobj sin = { .handle = in };
	struct drm_vpux_submit s;
	struct tb t;
	size_t size;
	int ret;

	size = copy_task(task, off, SZ);
	if (bad) {
		tb_init(&t, task->map + off, 0, 1, 0, 0);
		dma_op(&t.dma[0], 1, 4096, 2, 0, SZ);
	}
	submit_args(&s, task, off, size, list, 2);
	s.queue_id = queue;
	if (in) {
		s.in_syncobjs = (uintptr_t)&sin;
		s.in_syncobj_count = 1;
	}
	s.out_syncobj = out;
	s.out_point = out_point;
	ret = vpux_ioctl(fd, DRM_IOCTL_VPUX_SUBMIT, &s);
	if (!ret)
		*seqno = s.seqno;
	return ret;
}

/* Job @seqno of @fd ends with @status and @sys_error */
static void expect_end(struct __test_metadata *_metadata, int fd, __u64 seqno,
		       __u32 status, int sys_error)
{
	struct drm_vpux_wait w;

	ASSERT_EQ(0, job_wait(fd, seqno, 10000000000ll, &w));
	EXPECT_EQ(status, w.status) TH_LOG("job %llu", (unsigned long long)seqno);
	EXPECT_EQ(sys_error, w.sys_error);
}

/*
 * A job the engine core refuses fails its out-syncobj; jobs with that
 * syncobj as in-fence never run: on another queue, and on the refused
 * job's own queue, where the scheduler does not wait for the fence (the
 * queue's order does) and the failure must be seen before it signals.
 * A long job ahead of them in the queue, held behind a vgem fence until
 * all are submitted, makes the refused job and the one behind it wait
 * on the device side, so that both start in one go when it ends.
 */
TEST_F(fence, refused_in_fence_aborts_the_job)
{
	struct drm_vpux_buf lc[2] = { self->list[0], self->list[2] };
	__u64 bad, other_q, same_q;
	__u32 held, failed, q1;

	struct drm_vpux_syncobj in = { 0 };
	struct drm_vpux_buf ll[2];
	struct drm_vpux_submit s;
	struct bo lt, ls, ld;
	__u64 long_job;

	NEED_VGEM();
	ASSERT_EQ(0, held_syncobj(self->fd, &self->h, &held));
	ASSERT_EQ(0, syncobj_new(self->fd, &failed));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VPUX_PRIORITY_NORMAL, &q1));
	ASSERT_EQ(0, bo_new(self->fd, 4096, 0, &lt));
	ASSERT_EQ(0, bo_new(self->fd, 64 * 4096, 0, &ls));
	ASSERT_EQ(0, bo_new(self->fd, 64 * 4096, 0, &ld));
	ll[0] = (struct drm_vpux_buf){ .handle = ls.handle, .size = 64 * 4096 };
	ll[1] = (struct drm_vpux_buf){ .handle = ld.handle, .size = 64 * 4096 };
	submit_args(&s, &lt, 0, chain_task(lt.map, 16, 64), ll, 2);
	in.handle = held;
	s.in_syncobjs = (uintptr_t)&in;
	s.in_syncobj_count = 1;
	s.queue_id = q1;
	ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s));
	long_job = s.seqno;
	ASSERT_EQ(0, job_sub(self->fd, &self->task, 0, self->list, q1, 1, 0,
			     failed, 0, &bad));
	ASSERT_EQ(0, job_sub(self->fd, &self->task, 1024, self->list, 0, 0,
			     failed, 0, 0, &other_q));
	ASSERT_EQ(0, job_sub(self->fd, &self->task, 2048, lc, q1, 0, failed, 0,
			     0, &same_q));
	ASSERT_EQ(0, held_signal(&self->h));
	expect_end(_metadata, self->fd, long_job, DRM_VPUX_STATUS_DONE, 0);
	expect_end(_metadata, self->fd, bad, DRM_VPUX_STATUS_ERROR, 0);
	expect_end(_metadata, self->fd, other_q, DRM_VPUX_STATUS_ABORTED, -ECANCELED);
	expect_end(_metadata, self->fd, same_q, DRM_VPUX_STATUS_ABORTED, -ECANCELED);
	EXPECT_TRUE(zero(self->b.map, SZ)) TH_LOG("a job behind a failed fence ran");
	EXPECT_TRUE(zero(self->c.map, SZ)) TH_LOG("a job behind a failed fence ran");
	/* the file is not banned: the next job runs */
	ASSERT_EQ(0, job_sub(self->fd, &self->task, 3072, self->list, q1, 0, 0,
			     0, 0, &other_q));
	expect_end(_metadata, self->fd, other_q, DRM_VPUX_STATUS_DONE, 0);
	EXPECT_EQ(0, memcmp(self->a.map, self->b.map, SZ));
}

/* Another file's failed job, through its syncobj exported as an fd */
TEST_F(fence, failed_in_fence_of_another_file_aborts_the_job)
{
	struct drm_syncobj_handle exp = { 0 }, imp = { 0 };
	struct drm_vpux_buf l2[2];
	struct bo t2, a2, b2;
	__u32 out2;
	__u64 bad, seq;
	int fd2;

	fd2 = vpux_open_nth(0, NULL);
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, bo_new(fd2, 4096, 0, &t2));
	ASSERT_EQ(0, bo_new(fd2, SZ, 0, &a2));
	ASSERT_EQ(0, bo_new(fd2, SZ, 0, &b2));
	l2[0] = (struct drm_vpux_buf){ .handle = a2.handle, .size = SZ };
	l2[1] = (struct drm_vpux_buf){ .handle = b2.handle, .size = SZ };
	ASSERT_EQ(0, syncobj_new(fd2, &out2));
	ASSERT_EQ(0, job_sub(fd2, &t2, 0, l2, 0, 1, 0, out2, 0, &bad));
	exp.handle = out2;
	ASSERT_EQ(0, vpux_ioctl(fd2, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &exp));
	imp.fd = exp.fd;
	ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &imp));
	close(exp.fd);
	expect_end(_metadata, fd2, bad, DRM_VPUX_STATUS_ERROR, 0);
	close(fd2);

	ASSERT_EQ(0, job_sub(self->fd, &self->task, 0, self->list, 0, 0,
			     imp.handle, 0, 0, &seq));
	expect_end(_metadata, self->fd, seq, DRM_VPUX_STATUS_ABORTED, -ECANCELED);
	EXPECT_TRUE(zero(self->b.map, SZ)) TH_LOG("a job behind a failed fence ran");
}

/*
 * A timeline: point 1 is a job that fails, point 2 a job that does not.
 * A job waiting for point 1 does not run; one waiting for point 2 (which
 * signals only after point 1 did) runs: the error of a point is its own
 * job's, not the timeline's before it. The waiters are submitted while
 * point 1 is held, as a signalled point's fence is not kept.
 */
TEST_F(fence, failed_timeline_point_aborts_only_its_waiters)
{
	struct drm_vpux_buf lc[2] = { self->list[0], self->list[2] };
	struct drm_vpux_buf ld[2] = { self->list[0] };
	__u64 p1, p2, on1, on2;
	__u32 held, tl, q1, q2, q3;
	struct bo d;

	NEED_VGEM();
	ASSERT_EQ(0, bo_new(self->fd, SZ, 0, &d));
	ld[1] = (struct drm_vpux_buf){ .handle = d.handle, .size = SZ };
	ASSERT_EQ(0, held_syncobj(self->fd, &self->h, &held));
	ASSERT_EQ(0, syncobj_new(self->fd, &tl));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VPUX_PRIORITY_NORMAL, &q1));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VPUX_PRIORITY_NORMAL, &q2));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VPUX_PRIORITY_NORMAL, &q3));
	ASSERT_EQ(0, job_sub(self->fd, &self->task, 0, self->list, q1, 1, held,
			     tl, 1, &p1));
	ASSERT_EQ(0, job_sub(self->fd, &self->task, 1024, lc, q2, 0, 0, tl, 2, &p2));
	expect_end(_metadata, self->fd, p2, DRM_VPUX_STATUS_DONE, 0);
	EXPECT_EQ(-ETIME, syncobj_wait_point(self->fd, tl, 1, 0));
	do {
		struct drm_vpux_syncobj in = { .handle = tl, .point = 1 };
		struct drm_vpux_submit s;

		submit_args(&s, &self->task, 2048,
			    copy_task(&self->task, 2048, SZ), self->list, 2);
		s.in_syncobjs = (uintptr_t)&in;
		s.in_syncobj_count = 1;
		ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s));
		on1 = s.seqno;
		in.point = 2;
		submit_args(&s, &self->task, 3072,
			    copy_task(&self->task, 3072, SZ), ld, 2);
		s.queue_id = q3;
		s.in_syncobjs = (uintptr_t)&in;
		s.in_syncobj_count = 1;
		ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s));
		on2 = s.seqno;
	} while (0);
	ASSERT_EQ(0, held_signal(&self->h));
	expect_end(_metadata, self->fd, p1, DRM_VPUX_STATUS_ERROR, 0);
	expect_end(_metadata, self->fd, on1, DRM_VPUX_STATUS_ABORTED, -ECANCELED);
	expect_end(_metadata, self->fd, on2, DRM_VPUX_STATUS_DONE, 0);
	EXPECT_TRUE(zero(self->b.map, SZ)) TH_LOG("a job behind a failed point ran");
	EXPECT_EQ(0, memcmp(self->a.map, d.map, SZ));
}

TEST_HARNESS_MAIN
