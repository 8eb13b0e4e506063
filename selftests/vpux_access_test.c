// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpux access rules across files and calls:
 *  - copyout: an ioctl whose arguments cannot be written back (they sit
 *    on a read-only page) fails with -EFAULT and leaves nothing behind:
 *    SUBMIT runs no job, BO_CREATE and QUEUE_CREATE keep no handle or
 *    queue;
 *  - readonly: what the device may not write stays unwritten through
 *    imports (PRIME between files, a foreign dma-buf not open for
 *    writing), and SUBMIT refuses a job that would write it with -EACCES;
 *    the CPU cannot map an import of a read-only dma-buf writable (mmap
 *    through the accel file, mprotect afterwards, a re-export), while a
 *    read-write import stays writable.
 * Needs vpux_accel loaded; the foreign dma-buf test needs vgem, the
 * MMU test debugfs.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "kselftest_harness.h"
#include "vpux_common.h"
#include "task_builder.h"
#include "vpux_job_util.h"
#include "vpux_vgem.h"

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

/* The same SUBMIT from a writable page is fine. */
TEST_F(copyout, submit_on_writable_page_still_works)
{
	struct drm_vpux_submit *s = args_page();
	struct drm_vpux_wait w;

	ASSERT_NE(NULL, s);
	submit_args(s, &self->task, 0, copy_task(&self->task, 0, SZ),
		    self->list, 2);
	ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, s));
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
 * DRM_VPUX_PARAM_MAX_QUEUES queues.
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
	for (i = 0; i < (int)vpux_param(self->fd, DRM_VPUX_PARAM_MAX_QUEUES); i++)
		ASSERT_EQ(0, queue_create(self->fd, DRM_VPUX_PRIORITY_NORMAL, &id));
	EXPECT_EQ(-ENOSPC, queue_create(self->fd, DRM_VPUX_PRIORITY_NORMAL, &id));
	munmap(ro, 4096);
}

/* ---- read-only buffers across imports ------------------------------- */

FIXTURE(readonly) {
	int fd;			/* the importer */
	int exp;		/* the exporter, another file */
	int minor;
	int ro_unchecked;	/* debugfs skip_readonly_check to reset */
	struct bo task, src, dst, prof;
};

FIXTURE_SETUP(readonly)
{
	int i;

	self->exp = -1;
	self->fd = vpux_open_nth(0, &self->minor);
	if (self->fd == -ENODEV)
		SKIP(return, "no vpux device (is vpux_accel loaded?)");
	ASSERT_GE(self->fd, 0);
	self->exp = vpux_open_nth(0, NULL);
	ASSERT_GE(self->exp, 0);
	ASSERT_EQ(0, bo_new(self->fd, 4096, 0, &self->task));
	ASSERT_EQ(0, bo_new(self->fd, 4096, 0, &self->src));
	ASSERT_EQ(0, bo_new(self->fd, 4096, 0, &self->dst));
	ASSERT_EQ(0, bo_new(self->fd, 4096, 0, &self->prof));
	for (i = 0; i < 4096; i++)
		self->src.map[i] = (unsigned char)(i * 3 + 11);
}

FIXTURE_TEARDOWN(readonly)
{
	if (self->fd < 0)
		return;
	if (self->ro_unchecked)
		EXPECT_EQ(0, dbg_write(self->minor, "skip_readonly_check", "N"));
	if (self->exp >= 0)
		close(self->exp);
	close(self->fd);
}

/* Export @handle of file @from (DRM_RDWR if @rdwr), import it into @to. */
static int share(int from, __u32 handle, int rdwr, int to, __u32 *out)
{
	struct drm_prime_handle ex = { .handle = handle, .flags = DRM_CLOEXEC };
	struct drm_prime_handle im = { 0 };
	int ret;

	if (rdwr)
		ex.flags |= DRM_RDWR;
	ret = vpux_ioctl(from, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ex);
	if (ret)
		return ret;
	im.fd = ex.fd;
	ret = vpux_ioctl(to, DRM_IOCTL_PRIME_FD_TO_HANDLE, &im);
	close(ex.fd);
	*out = im.handle;
	return ret;
}

static __u32 bo_flags(int fd, __u32 handle)
{
	struct drm_vpux_bo_info info = { .handle = handle };

	return vpux_ioctl(fd, DRM_IOCTL_VPUX_BO_INFO, &info) ? ~0u : info.flags;
}

/*
 * SUBMIT in the importer: one DMA copy of 4096 bytes from @from to @to
 * (GEM handles of self->fd), with the profile in @prof if not 0. Returns
 * SUBMIT's result; *@w the job's result when it was queued.
 */
static int copy_job(FIXTURE_DATA(readonly) *self, __u32 from, __u32 to,
		    __u32 prof, struct drm_vpux_wait *w)
{
	struct drm_vpux_buf l[2] = {
		{ .handle = from, .size = 4096 }, { .handle = to, .size = 4096 },
	};
	struct drm_vpux_submit s;
	int ret;

	submit_args(&s, &self->task, 0, copy_task(&self->task, 0, 4096), l, 2);
	if (prof) {
		s.flags = DRM_VPUX_SUBMIT_PROFILE;
		s.profile = (struct drm_vpux_buf){ .handle = prof, .size = 64 };
	}
	ret = vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s);
	if (!ret)
		ret = job_wait(self->fd, s.seqno, 10000000000ll, w);
	return ret;
}

static int all_bytes(const unsigned char *p, size_t n, unsigned char v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != v)
			return 0;
	return 1;
}

/*
 * mmap() of 4096 bytes of GEM handle @handle through the accel file @fd
 * (its BO_INFO mmap offset); MAP_FAILED with errno set on failure.
 */
static void *map_handle(int fd, __u32 handle, int prot, int flags)
{
	struct drm_vpux_bo_info info = { .handle = handle };
	int ret = vpux_ioctl(fd, DRM_IOCTL_VPUX_BO_INFO, &info);

	if (ret) {
		errno = -ret;
		return MAP_FAILED;
	}
	return mmap(NULL, 4096, prot, flags, fd, (off_t)info.mmap_offset);
}

/*
 * The CPU side of a read-only import @imp (of self->fd): no writable
 * mapping (shared or private) through the accel file, EACCES as mmap()
 * of the read-only dma-buf itself gives; a read-only one shows @fill,
 * the exporter's bytes, and follows the exporter's later writes to
 * @exp_map; mprotect() cannot make it writable.
 */
static void cpu_readonly(struct __test_metadata *_metadata,
			 FIXTURE_DATA(readonly) *self, __u32 imp,
			 unsigned char *exp_map, unsigned char fill)
{
	unsigned char *p;

	errno = 0;
	EXPECT_EQ(MAP_FAILED, map_handle(self->fd, imp, PROT_READ | PROT_WRITE,
					 MAP_SHARED));
	EXPECT_EQ(EACCES, errno);
	errno = 0;
	EXPECT_EQ(MAP_FAILED, map_handle(self->fd, imp, PROT_WRITE, MAP_SHARED));
	EXPECT_EQ(EACCES, errno);
	errno = 0;
	EXPECT_EQ(MAP_FAILED, map_handle(self->fd, imp, PROT_READ | PROT_WRITE,
					 MAP_PRIVATE));
	EXPECT_EQ(EACCES, errno);

	p = map_handle(self->fd, imp, PROT_READ, MAP_SHARED);
	ASSERT_NE(MAP_FAILED, p) TH_LOG("PROT_READ mmap: %s", strerror(errno));
	EXPECT_TRUE(all_bytes(p, 4096, fill));
	if (exp_map) {
		exp_map[7] = (unsigned char)~fill;
		EXPECT_EQ((unsigned char)~fill, p[7]);
		exp_map[7] = fill;
	}
	errno = 0;
	EXPECT_EQ(-1, mprotect(p, 4096, PROT_READ | PROT_WRITE));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(0, munmap(p, 4096));
}

/*
 * A DEVICE_READONLY BO of another file, exported without DRM_RDWR: the
 * import is DEVICE_READONLY too; a DMA into it, or a profile in it, fails
 * SUBMIT with -EACCES and the exporter's bytes stay; reading it works.
 */
/*
 * The exporter's DEVICE_READONLY BO @ro (filled with 0x5a), shared into
 * the test's file as @imp (@rdwr: exported with DRM_RDWR): the import is
 * DEVICE_READONLY; a DMA into it and a profile in it fail with -EACCES.
 */
static void readonly_import(struct __test_metadata *_metadata,
			    FIXTURE_DATA(readonly) *self, int rdwr,
			    struct bo *ro, __u32 *imp)
{
	struct drm_vpux_wait w;

	ASSERT_EQ(0, bo_new(self->exp, 4096, DRM_VPUX_BO_DEVICE_READONLY, ro));
	memset(ro->map, 0x5a, 4096);
	ASSERT_EQ(0, share(self->exp, ro->handle, rdwr, self->fd, imp));
	EXPECT_EQ(DRM_VPUX_BO_IMPORTED | DRM_VPUX_BO_DEVICE_READONLY,
		  bo_flags(self->fd, *imp));
	EXPECT_EQ(-EACCES, copy_job(self, self->src.handle, *imp, 0, &w));
	EXPECT_EQ(-EACCES, copy_job(self, self->src.handle, self->dst.handle,
				    *imp, &w));
}

TEST_F(readonly, readonly_bo_stays_readonly_through_import)
{
	struct drm_vpux_wait w;
	struct bo ro;
	__u32 imp;

	readonly_import(_metadata, self, 0, &ro, &imp);
	/* a source it is */
	ASSERT_EQ(0, copy_job(self, imp, self->dst.handle, 0, &w));
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
	EXPECT_TRUE(all_bytes(self->dst.map, 4096, 0x5a));
	/* nothing ever wrote it; the file is not banned */
	EXPECT_TRUE(all_bytes(ro.map, 4096, 0x5a));
	ASSERT_EQ(0, copy_job(self, self->src.handle, self->dst.handle, 0, &w));
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
}

/* The same with DRM_RDWR: the exporter's DEVICE_READONLY still holds. */
TEST_F(readonly, readonly_bo_stays_readonly_with_rdwr_export)
{
	struct bo ro;
	__u32 imp;

	readonly_import(_metadata, self, 1, &ro, &imp);
	EXPECT_TRUE(all_bytes(ro.map, 4096, 0x5a));
}

/*
 * A writable BO: exported with DRM_RDWR its import is writable (a DMA
 * into it and a profile in it land in the exporter's pages); exported
 * without, the import is read-only.
 */
TEST_F(readonly, export_mode_decides_for_writable_bo)
{
	struct drm_vpux_wait w;
	struct bo rw, ro;
	__u32 imp;

	ASSERT_EQ(0, bo_new(self->exp, 4096, 0, &rw));
	ASSERT_EQ(0, share(self->exp, rw.handle, 1, self->fd, &imp));
	EXPECT_EQ(DRM_VPUX_BO_IMPORTED, bo_flags(self->fd, imp));
	ASSERT_EQ(0, copy_job(self, self->src.handle, imp, 0, &w));
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
	EXPECT_EQ(0, memcmp(self->src.map, rw.map, 4096));
	ASSERT_EQ(0, copy_job(self, self->src.handle, self->dst.handle, imp, &w));
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
	EXPECT_EQ(1u, ((struct drm_vpux_profile *)rw.map)->op_count[0]);

	ASSERT_EQ(0, bo_new(self->exp, 4096, 0, &ro));
	ASSERT_EQ(0, share(self->exp, ro.handle, 0, self->fd, &imp));
	EXPECT_EQ(DRM_VPUX_BO_IMPORTED | DRM_VPUX_BO_DEVICE_READONLY,
		  bo_flags(self->fd, imp));
	EXPECT_EQ(-EACCES, copy_job(self, self->src.handle, imp, 0, &w));
	EXPECT_EQ(-EACCES, copy_job(self, self->src.handle, self->dst.handle,
				    imp, &w));
	EXPECT_TRUE(all_bytes(ro.map, 4096, 0));
}

/*
 * Every op kind that writes: a DPU output and a SHAVE window on a
 * read-only import are refused like a DMA destination.
 */
TEST_F(readonly, dpu_output_and_shave_window_refused)
{
	struct drm_vpux_buf l[2];
	struct drm_vpux_submit s;
	struct bo ro;
	struct tb t;
	__u32 imp;

	ASSERT_EQ(0, bo_new(self->exp, 4096, DRM_VPUX_BO_DEVICE_READONLY, &ro));
	ASSERT_EQ(0, share(self->exp, ro.handle, 0, self->fd, &imp));
	l[0] = (struct drm_vpux_buf){ .handle = self->src.handle, .size = 4096 };
	l[1] = (struct drm_vpux_buf){ .handle = imp, .size = 4096 };

	/* an elementwise add of 1x1x16 bytes, its output in the import */
	tb_init(&t, self->task.map, 0, 0, 1, 0);
	t.dpu[0].op = 2;	/* VPUX_DPU_OP_ADD (include/hw/vpux_regs.h) */
	t.dpu[0].in_c = 16;
	t.dpu[0].in_h = 1;
	t.dpu[0].in_w = 1;
	t.dpu[0].out_c = 16;
	t.dpu[0].out_h = 1;
	t.dpu[0].out_w = 1;
	t.dpu[0].in = tb_ref(1, 0, 16);
	t.dpu[0].in2 = tb_ref(1, 16, 16);
	t.dpu[0].out = tb_ref(2, 0, 16);
	tb_dpu_quant(&t.dpu[0]);	/* rescales the engine requires */
	submit_args(&s, &self->task, 0, t.size, l, 2);
	EXPECT_EQ(-EACCES, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s));
	/* the import as an input is fine (the job runs) */
	t.dpu[0].in = tb_ref(2, 0, 16);
	t.dpu[0].out = tb_ref(1, 64, 16);
	EXPECT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s));

	/* a SHAVE kernel may write any window it gets */
	tb_init(&t, self->task.map, 0, 0, 0, 1);
	t.shave[0].args = tb_ref(1, 0, 16);
	t.shave[0].windows[3] = tb_ref(2, 0, 4096);
	submit_args(&s, &self->task, 0, t.size, l, 2);
	EXPECT_EQ(-EACCES, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s));
	/* SHAVE arguments are only read */
	t.shave[0].args = tb_ref(2, 0, 16);
	t.shave[0].windows[3] = tb_ref(1, 0, 4096);
	EXPECT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s));
	EXPECT_TRUE(all_bytes(ro.map, 4096, 0));
}

/*
 * Behind SUBMIT's check, the import is mapped read-only in the
 * importer's address space: with the check off (debugfs
 * skip_readonly_check) the DMA into it faults there, nothing lands in
 * the exporter's pages, and the importing file is banned.
 */
TEST_F(readonly, import_is_mapped_readonly)
{
	struct drm_vpux_bo_info info = { 0 };
	struct drm_vpux_wait w;
	struct bo ro;
	__u32 imp;
	int ret;

	ASSERT_EQ(0, bo_new(self->exp, 4096, 0, &ro));
	memset(ro.map, 0x33, 4096);
	ASSERT_EQ(0, share(self->exp, ro.handle, 0, self->fd, &imp));
	info.handle = imp;
	ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_BO_INFO, &info));
	ret = dbg_write(self->minor, "skip_readonly_check", "Y");
	if (ret)
		SKIP(return, "no debugfs skip_readonly_check: %d", ret);
	self->ro_unchecked = 1;
	ASSERT_EQ(0, copy_job(self, self->src.handle, imp, 0, &w));
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_MMU_FAULT, w.status);
	EXPECT_GE(w.fault_addr, info.device_addr);
	EXPECT_LT(w.fault_addr, info.device_addr + 4096);
	EXPECT_TRUE(all_bytes(ro.map, 4096, 0x33));
}

/*
 * A writable BO exported without DRM_RDWR: its import is read-only for
 * the CPU as for the NPU, on every path the driver offers: mmap of the
 * accel file and the dma-buf PRIME_HANDLE_TO_FD hands out for the import
 * (the exporter's read-only file again, even when asked for DRM_RDWR).
 * The exporter's own mapping stays writable.
 */
TEST_F(readonly, readonly_import_not_writable_by_cpu)
{
	struct drm_prime_handle ex = { .flags = DRM_CLOEXEC | DRM_RDWR };
	unsigned char *p;
	struct bo rw;
	__u32 imp;

	ASSERT_EQ(0, bo_new(self->exp, 4096, 0, &rw));
	memset(rw.map, 0x6c, 4096);
	ASSERT_EQ(0, share(self->exp, rw.handle, 0, self->fd, &imp));
	ASSERT_EQ(DRM_VPUX_BO_IMPORTED | DRM_VPUX_BO_DEVICE_READONLY,
		  bo_flags(self->fd, imp));
	cpu_readonly(_metadata, self, imp, rw.map, 0x6c);

	ex.handle = imp;
	ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ex));
	errno = 0;
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				   MAP_SHARED, ex.fd, 0));
	EXPECT_EQ(EACCES, errno);
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, ex.fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_TRUE(all_bytes(p, 4096, 0x6c));
	munmap(p, 4096);
	close(ex.fd);

	/* nothing the importer did wrote the exporter's pages */
	EXPECT_TRUE(all_bytes(rw.map, 4096, 0x6c));
	rw.map[0] = 1;
	EXPECT_EQ(1, rw.map[0]);
}

/*
 * Exported with DRM_RDWR, the import is writable by the CPU through the
 * accel file: the exporter sees the write. So is the import of a
 * DEVICE_READONLY BO exported with DRM_RDWR: DEVICE_READONLY binds the
 * NPU; the CPU's rights are the dma-buf file's, as on the dma-buf itself.
 */
TEST_F(readonly, readwrite_import_writable_by_cpu)
{
	unsigned char *p;
	struct bo rw, ro;
	__u32 imp;

	ASSERT_EQ(0, bo_new(self->exp, 4096, 0, &rw));
	ASSERT_EQ(0, share(self->exp, rw.handle, 1, self->fd, &imp));
	ASSERT_EQ(DRM_VPUX_BO_IMPORTED, bo_flags(self->fd, imp));
	p = map_handle(self->fd, imp, PROT_READ | PROT_WRITE, MAP_SHARED);
	ASSERT_NE(MAP_FAILED, p) TH_LOG("writable mmap: %s", strerror(errno));
	memset(p, 0x77, 4096);
	EXPECT_TRUE(all_bytes(rw.map, 4096, 0x77));
	munmap(p, 4096);
	/* a read-only mapping of it may become writable */
	p = map_handle(self->fd, imp, PROT_READ, MAP_SHARED);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, mprotect(p, 4096, PROT_READ | PROT_WRITE));
	p[1] = 0x78;
	EXPECT_EQ(0x78, rw.map[1]);
	munmap(p, 4096);

	ASSERT_EQ(0, bo_new(self->exp, 4096, DRM_VPUX_BO_DEVICE_READONLY, &ro));
	ASSERT_EQ(0, share(self->exp, ro.handle, 1, self->fd, &imp));
	ASSERT_EQ(DRM_VPUX_BO_IMPORTED | DRM_VPUX_BO_DEVICE_READONLY,
		  bo_flags(self->fd, imp));
	p = map_handle(self->fd, imp, PROT_READ | PROT_WRITE, MAP_SHARED);
	ASSERT_NE(MAP_FAILED, p) TH_LOG("writable mmap: %s", strerror(errno));
	p[0] = 0x79;
	EXPECT_EQ(0x79, ro.map[0]);
	munmap(p, 4096);
}

/* A vgem BO of one page, exported (DRM_RDWR if @rdwr) and imported into @fd. */
static int vgem_share(int vgem, int rdwr, int fd, __u32 *imp, int *dmabuf)
{
	struct drm_mode_create_dumb c = { .width = 1024, .height = 1, .bpp = 32 };
	struct drm_prime_handle ex = { .flags = DRM_CLOEXEC }, im = { 0 };
	int ret;

	ret = vpux_ioctl(vgem, DRM_IOCTL_MODE_CREATE_DUMB, &c);
	if (ret)
		return ret;
	ex.handle = c.handle;
	if (rdwr)
		ex.flags |= DRM_RDWR;
	ret = vpux_ioctl(vgem, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ex);
	if (ret)
		return ret;
	im.fd = ex.fd;
	ret = vpux_ioctl(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &im);
	*imp = im.handle;
	*dmabuf = ex.fd;
	return ret;
}

/*
 * Another driver's dma-buf whose file is not open for writing: the import
 * is DEVICE_READONLY, a DMA into it fails with -EACCES, reading it works,
 * the CPU cannot map it writable through the accel file.
 * Open for writing, it takes a DMA; a profile never goes into another
 * driver's buffer.
 */
TEST_F(readonly, foreign_dmabuf_follows_its_file_mode)
{
	struct drm_vpux_wait w;
	unsigned char *view;
	int vgem, dmabuf;
	__u32 imp;

	vgem = vgem_open();
	if (vgem < 0)
		SKIP(return, "no vgem");
	ASSERT_EQ(0, vgem_share(vgem, 0, self->fd, &imp, &dmabuf));
	EXPECT_EQ(DRM_VPUX_BO_IMPORTED | DRM_VPUX_BO_DEVICE_READONLY,
		  bo_flags(self->fd, imp));
	EXPECT_EQ(-EACCES, copy_job(self, self->src.handle, imp, 0, &w));
	EXPECT_EQ(-EACCES, copy_job(self, self->src.handle, self->dst.handle,
				    imp, &w));
	memset(self->dst.map, 0xff, 4096);
	ASSERT_EQ(0, copy_job(self, imp, self->dst.handle, 0, &w));
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
	EXPECT_TRUE(all_bytes(self->dst.map, 4096, 0));
	view = mmap(NULL, 4096, PROT_READ, MAP_SHARED, dmabuf, 0);
	ASSERT_NE(MAP_FAILED, view);
	EXPECT_TRUE(all_bytes(view, 4096, 0));
	munmap(view, 4096);
	/* nor does the CPU write it through the accel file */
	cpu_readonly(_metadata, self, imp, NULL, 0);
	close(dmabuf);

	ASSERT_EQ(0, vgem_share(vgem, 1, self->fd, &imp, &dmabuf));
	EXPECT_EQ(DRM_VPUX_BO_IMPORTED, bo_flags(self->fd, imp));
	ASSERT_EQ(0, copy_job(self, self->src.handle, imp, 0, &w));
	EXPECT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
	view = mmap(NULL, 4096, PROT_READ, MAP_SHARED, dmabuf, 0);
	ASSERT_NE(MAP_FAILED, view);
	EXPECT_EQ(0, memcmp(view, self->src.map, 4096));
	munmap(view, 4096);
	EXPECT_EQ(-EACCES, copy_job(self, self->src.handle, self->dst.handle,
				    imp, &w));
	close(dmabuf);
	close(vgem);
}

TEST_HARNESS_MAIN
