// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hostile ELF kernels through /dev/accel: code the model's SHAVE cores
 * run (vpux_shave_elf.h) that reads outside its windows, writes its own
 * code (WIN_D), loops forever, overflows its stack or jumps into its
 * data. Each fails its own job alone (status ERROR, the engine's error,
 * the SHAVE op named), nothing it aimed at changes, and the same file's
 * next job and another file's job running on the NPU meanwhile complete
 * with the right bytes.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "vpux_common.h"
#include "vpux_job_util.h"

#define SZ		4096
#define SHAVE_ELF	0x100u		/* VPUX_SHAVE_KERNEL_ELF */
#define CODE_OFF	1024u		/* the code, in the task BO */
#define ARGS_OFF	1536u		/* WIN_E: 64 bytes, in the task BO */
#define ERR_ENGINE	200u		/* DLA_ERR_ENGINE */

/* RV32I encodings */
#define LI_A0_0		0x00000513u	/* addi a0, zero, 0 */
#define RET		0x00008067u	/* jalr zero, 0(ra) */
#define LUI_T0(hi)	((__u32)(hi) << 12 | 5u << 7 | 0x37u)
#define LW_T1_T0	0x0002a303u	/* lw t1, 0(t0) */
#define SW_ZERO_T0	0x0002a023u	/* sw zero, 0(t0) */
#define SW_ONE_T0	0x0012a023u	/* sw ra, 0(t0): ra is never 0 */
#define JR_T0		0x00028067u	/* jalr zero, 0(t0) */
#define J_SELF		0x0000006fu	/* jal zero, . */
#define ADDI_SP_M512	0xe0010113u	/* addi sp, sp, -512 */
#define SW_ZERO_SP	0x00012023u	/* sw zero, 0(sp) */

FIXTURE(shave) {
	int fd, other;
	struct bo task, win, otask, src, dst;
	struct drm_vpux_buf list[1], olist[2];
};

FIXTURE_SETUP(shave)
{
	int i;

	self->other = -1;
	self->fd = vpux_open_nth(0, NULL);
	if (self->fd == -ENODEV)
		SKIP(return, "no vpux device (is vpux_accel loaded?)");
	ASSERT_GE(self->fd, 0);
	self->other = vpux_open_nth(0, NULL);
	ASSERT_GE(self->other, 0);
	ASSERT_EQ(0, bo_new(self->fd, SZ, 0, &self->task));
	ASSERT_EQ(0, bo_new(self->fd, SZ, 0, &self->win));
	ASSERT_EQ(0, bo_new(self->other, SZ, 0, &self->otask));
	ASSERT_EQ(0, bo_new(self->other, SZ, 0, &self->src));
	ASSERT_EQ(0, bo_new(self->other, SZ, 0, &self->dst));
	for (i = 0; i < SZ; i++)
		self->src.map[i] = (unsigned char)(i * 13 + 5);
	memset(self->win.map, 0xa5, SZ);
	self->list[0] = (struct drm_vpux_buf){ .handle = self->win.handle,
					       .size = SZ };
	self->olist[0] = (struct drm_vpux_buf){ .handle = self->src.handle,
						.size = SZ };
	self->olist[1] = (struct drm_vpux_buf){ .handle = self->dst.handle,
						.size = SZ };
}

FIXTURE_TEARDOWN(shave)
{
	if (self->other >= 0)
		close(self->other);
	if (self->fd >= 0)
		close(self->fd);
}

/*
 * Submit one ELF op running @code (@n words) with @budget (units of 1024
 * instructions); WIN_F is the fixture's window BO. Returns the seqno.
 */
static __u64 submit_kernel_on(FIXTURE_DATA(shave) *self, const __u32 *code,
			      unsigned int n, __u32 budget,
			      struct dla_buf_ref win_f, __u32 queue)
{
	struct dla_shave_task_op *k;
	struct drm_vpux_submit s;
	struct tb t;

	tb_init(&t, self->task.map, 0, 0, 0, 1);
	k = (struct dla_shave_task_op *)&t.shave[0];
	memset(k, 0, sizeof(*k));
	k->kernel_id = SHAVE_ELF;
	k->args = tb_ref(0, ARGS_OFF, 64);
	k->code = tb_ref(0, CODE_OFF, 4 * n);
	k->win_f = win_f;
	k->stack_size = 256;
	k->kernel = 3;
	k->invocation = 4;
	k->budget = budget;
	memcpy(self->task.map + CODE_OFF, code, 4 * n);
	memset(self->task.map + ARGS_OFF, 0, 64);
	submit_args(&s, &self->task, 0, SZ, self->list, 1);
	s.queue_id = queue;
	if (vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s))
		return 0;
	return s.seqno;
}

static __u64 submit_kernel(FIXTURE_DATA(shave) *self, const __u32 *code,
			   unsigned int n, __u32 budget)
{
	return submit_kernel_on(self, code, n, budget, tb_ref(1, 0, SZ), 0);
}

/*
 * On @queue of the fixture's file: src -> CMX @tile -> win, the task at
 * @off of @task. Returns the seqno, 0 on failure.
 */
static __u64 submit_cmx_copy(FIXTURE_DATA(shave) *self, struct bo *task,
			     __u32 off, unsigned int tile, __u32 queue)
{
	struct drm_vpux_buf list[2] = {
		{ .handle = self->src.handle, .size = SZ },
		{ .handle = self->win.handle, .size = SZ },
	};
	struct drm_vpux_submit s;
	struct tb t;

	tb_init(&t, task->map + off, 1, 2, 0, 0);
	tb_copy(&t.dma[0], tb_ref(1, 0, SZ), tb_cmx(tile, 0, SZ), SZ);
	tb_update(&t, &t.dma[0].deps, 0);
	tb_copy(&t.dma[1], tb_cmx(tile, 0, SZ), tb_ref(2, 0, SZ), SZ);
	tb_wait(&t, &t.dma[1].deps, 0);
	submit_args(&s, task, off, t.size, list, 2);
	s.queue_id = queue;
	if (vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s))
		return 0;
	return s.seqno;
}

/* Run @code; WAIT's answer in *@w; 0 or -1 */
static int run_kernel(FIXTURE_DATA(shave) *self, const __u32 *code,
		      unsigned int n, __u32 budget, struct drm_vpux_wait *w)
{
	__u64 seqno = submit_kernel(self, code, n, budget);

	if (!seqno)
		return -1;
	return job_wait(self->fd, seqno, 60000000000ll, w);
}

/* The other file copies src to dst; 0 when it completed with the bytes */
static int other_copy(FIXTURE_DATA(shave) *self)
{
	struct drm_vpux_submit s;
	struct drm_vpux_wait w;

	memset(self->dst.map, 0, SZ);
	submit_args(&s, &self->otask, 0, copy_task(&self->otask, 0, SZ),
		    self->olist, 2);
	if (vpux_ioctl(self->other, DRM_IOCTL_VPUX_SUBMIT, &s) ||
	    job_wait(self->other, s.seqno, 60000000000ll, &w))
		return -1;
	if (w.status != DRM_VPUX_STATUS_DONE)
		return -2;
	return memcmp(self->src.map, self->dst.map, SZ) ? -3 : 0;
}

/* A hostile kernel fails alone: its job, not the NPU or the file */
static void hostile(struct __test_metadata *_metadata,
		    FIXTURE_DATA(shave) *self, const __u32 *code,
		    unsigned int n)
{
	static const __u32 good[] = { LI_A0_0, RET };
	struct drm_vpux_wait w;
	unsigned int i;

	ASSERT_EQ(0, run_kernel(self, code, n, 4, &w));
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_ERROR, w.status);
	EXPECT_EQ(ERR_ENGINE, w.core_error);
	/* the SHAVE op, index 0 (kind << 24 | index) */
	EXPECT_EQ(2u << 24, w.fail_op);
	/* nothing stored: WIN_F is written back only on success */
	for (i = 0; i < SZ; i++)
		if (self->win.map[i] != 0xa5)
			break;
	EXPECT_EQ((unsigned int)SZ, i);
	/* nor into its code */
	EXPECT_EQ(0, memcmp(self->task.map + CODE_OFF, code, 4 * n));
	/* neither the file nor the NPU is blamed */
	ASSERT_EQ(0, run_kernel(self, good, 2, 0, &w));
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
	EXPECT_EQ(0, other_copy(self));
}

TEST_F(shave, a_kernel_that_returns_completes)
{
	static const __u32 code[] = { LUI_T0(0xf0000), SW_ONE_T0, LI_A0_0, RET };
	struct drm_vpux_wait w;

	ASSERT_EQ(0, run_kernel(self, code, 4, 0, &w));
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
	/* its store into WIN_F reached the BO */
	EXPECT_NE(0xa5, self->win.map[0]);
	EXPECT_EQ(0xa5, self->win.map[4]);
}

TEST_F(shave, a_read_outside_the_windows_fails_alone)
{
	static const __u32 code[] = { LUI_T0(0x12345), LW_T1_T0, LI_A0_0, RET };

	hostile(_metadata, self, code, 4);
}

TEST_F(shave, a_write_to_its_code_fails_alone)
{
	static const __u32 code[] = { LUI_T0(0xd0000), SW_ZERO_T0, LI_A0_0, RET };

	hostile(_metadata, self, code, 4);
}

TEST_F(shave, an_endless_loop_ends_at_its_budget)
{
	static const __u32 code[] = { J_SELF };

	hostile(_metadata, self, code, 1);
}

TEST_F(shave, a_stack_overflow_fails_alone)
{
	static const __u32 code[] = { ADDI_SP_M512, SW_ZERO_SP, LI_A0_0, RET };

	hostile(_metadata, self, code, 4);
}

TEST_F(shave, a_jump_into_data_fails_alone)
{
	static const __u32 code[] = { LUI_T0(0xe0000), JR_T0 };

	hostile(_metadata, self, code, 2);
}

TEST_F(shave, another_file_runs_while_a_kernel_spins)
{
	static const __u32 code[] = { J_SELF };
	struct drm_vpux_wait w;
	__u64 seqno;

	/* 4096 x 1024 instructions: long enough to be running meanwhile */
	seqno = submit_kernel(self, code, 1, 4096);
	ASSERT_NE(0ull, seqno);
	EXPECT_EQ(0, other_copy(self));
	/* still spinning when the other file's job is done and right */
	memset(&w, 0, sizeof(w));
	w.seqno = seqno;
	w.timeout_ns = 0;
	EXPECT_EQ(-ETIMEDOUT, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_WAIT, &w));
	ASSERT_EQ(0, job_wait(self->fd, seqno, 120000000000ll, &w));
	EXPECT_TRUE(w.status == DRM_VPUX_STATUS_ERROR ||
		    w.status == DRM_VPUX_STATUS_TIMEOUT);
}

/*
 * One file's jobs on other CMX tiles run together (issue #33's pipelined
 * requests through /dev/accel): while a kernel spins on tile 0 (queue
 * A), a copy through tile 1 (queue B) completes; a copy through tile 0
 * queued behind the kernel on queue A waits for it, then completes.
 */
TEST_F(shave, cmx_jobs_on_other_tiles_run_together)
{
	static const __u32 code[] = { J_SELF };
	struct drm_vpux_wait w;
	__u64 spin, other, same;
	bool hung;
	__s64 t0;
	__u32 qa, qb;
	struct bo t2, spare;
	int i;

	ASSERT_EQ(0, bo_new(self->fd, SZ, 0, &t2));
	/* the copies read the fixture's src: make it this file's */
	ASSERT_EQ(0, bo_new(self->fd, SZ, 0, &self->src));
	for (i = 0; i < SZ; i++)
		self->src.map[i] = (unsigned char)(i * 29 + 1);
	ASSERT_EQ(0, queue_create(self->fd, DRM_VPUX_PRIORITY_NORMAL, &qa));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VPUX_PRIORITY_NORMAL, &qb));
	/* both tiles this file's first (their first use waits for a clear) */
	other = submit_cmx_copy(self, &t2, 0, 1, qb);
	ASSERT_EQ(0, job_wait(self->fd, other, 60000000000ll, &w));
	same = submit_cmx_copy(self, &t2, 2048, 0, qb);
	ASSERT_EQ(0, job_wait(self->fd, same, 60000000000ll, &w));
	/* the kernel's job shares no BO with the copies (implicit sync) */
	ASSERT_EQ(0, bo_new(self->fd, SZ, 0, &spare));
	self->list[0].handle = spare.handle;
	spin = submit_kernel_on(self, code, 1, 16384, tb_cmx(0, 0, SZ), qa);
	ASSERT_NE(0ull, spin);
	other = submit_cmx_copy(self, &t2, 0, 1, qb);
	ASSERT_NE(0ull, other);
	t0 = now_ns();
	ASSERT_EQ(0, job_wait(self->fd, other, 60000000000ll, &w));
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
	EXPECT_EQ(0, memcmp(self->src.map, self->win.map, SZ));
	/* the kernel on tile 0 is still running */
	memset(&w, 0, sizeof(w));
	w.seqno = spin;
	EXPECT_EQ(-ETIMEDOUT, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_WAIT, &w))
		TH_LOG("the copy took %lld ms; the kernel: status %u core_error %u",
		       (long long)(now_ns() - t0) / 1000000, w.status, w.core_error);
	/*
	 * A copy through tile 0 on the kernel's queue waits for it: CMX is
	 * the file's, not the job's (vpux_cmx.c), so what keeps a file's
	 * jobs on one tile apart is their queue's order, as libvpux uses it
	 */
	memset(self->win.map, 0, SZ);
	same = submit_cmx_copy(self, &t2, 2048, 0, qa);
	ASSERT_NE(0ull, same);
	usleep(100000);
	memset(&w, 0, sizeof(w));
	w.seqno = spin;
	if (vpux_ioctl(self->fd, DRM_IOCTL_VPUX_WAIT, &w) == -ETIMEDOUT) {
		memset(&w, 0, sizeof(w));
		w.seqno = same;
		EXPECT_EQ(-ETIMEDOUT,
			  vpux_ioctl(self->fd, DRM_IOCTL_VPUX_WAIT, &w));
	}
	ASSERT_EQ(0, job_wait(self->fd, spin, 120000000000ll, &w));
	EXPECT_TRUE(w.status == DRM_VPUX_STATUS_ERROR ||
		    w.status == DRM_VPUX_STATUS_TIMEOUT);
	hung = w.status == DRM_VPUX_STATUS_TIMEOUT;
	ASSERT_EQ(0, job_wait(self->fd, same, 60000000000ll, &w));
	/*
	 * A slow kernel (KASAN) may call the spin a hang before its budget
	 * ends: the file is banned then, and its queued job ends ABORTED
	 */
	if (hung) {
		EXPECT_EQ((__u32)DRM_VPUX_STATUS_ABORTED, w.status);
		return;
	}
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
	EXPECT_EQ(0, memcmp(self->src.map, self->win.map, SZ));
}

TEST_HARNESS_MAIN
