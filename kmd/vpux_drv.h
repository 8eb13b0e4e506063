/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vpux_accel: DRM accel driver for the vpux NPU.
 */
#ifndef __VPUX_DRV_H__
#define __VPUX_DRV_H__

#include <drm/drm_device.h>
#include <drm/drm_print.h>
#include <linux/mutex.h>
#include <linux/regmap.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include <drm/gpu_scheduler.h>

struct platform_device;

#include "dla_limits.h"
#include "vpux_fw.h"
#include "vpux_job.h"
#include "vpux_mmu.h"
#include "vpux_pm.h"
#include "vpux_netlink.h"

#define DRIVER_NAME	"vpux_accel"
#define DRIVER_DESC	"vpux NPU accelerator"

/* the NPU's platform device name, and its device-tree compatible */
#define VPUX_PLATFORM_NAME	"vpux-npu"
#define VPUX_OF_COMPATIBLE	"vpux,npu"

/**
 * struct vpux_hw_info - what the identity registers say about the device
 * @device_id: VPUX_REG_DEVICE_ID
 * @revision: VPUX_REG_REVISION
 * @caps: VPUX_REG_CAPS (hardware capability bits)
 * @n_dma: DMA engines
 * @n_dpu: DPU engines
 * @n_shave: SHAVE engines
 * @n_tiles: CMX tiles
 * @cmx_size: bytes of CMX per tile
 * @ctx_slots: MMU context slots
 * @clock_khz: cycle counter frequency
 * @serial: per-instance serial number
 * @va_base: first translated device address
 * @va_size: size of the translated range
 * @cmx_base: device address of tile 0's CMX
 */
struct vpux_hw_info {
	u32 device_id;
	u32 revision;
	u32 caps;
	u32 n_dma;
	u32 n_dpu;
	u32 n_shave;
	u32 n_tiles;
	u32 cmx_size;
	u32 ctx_slots;
	u32 clock_khz;
	u32 serial;
	u64 va_base;
	u64 va_size;
	u64 cmx_base;
};

/**
 * struct vpux_device - one NPU
 * @drm: DRM device (accel node)
 * @regmap: the NPU's register window (vpux_hw_map())
 * @irq: the NPU's interrupt
 * @hw: identity read from the hardware at probe
 * @bo_lock: protects the binding of every BO to an address space
 * @fw: the engine core instance; @fw.lock also protects every field
 *	below marked (fw)
 * @slots: (fw) MMU context slots: the address space bound to each and
 *	how many of its jobs are on the engine core
 * @running: (fw) jobs on the engine core by core task id
 * @n_running: (fw) entries of @running in use
 * @runq: (fw) queues with a job to start and none on the core, one
 *	FIFO per priority
 * @done: (fw) completed jobs whose fences are still to be signalled,
 *	in completion order
 * @dead: (fw) the device was removed: nothing starts any more (written
 *	under fw.isr_lock too: the top half reads it)
 * @signal_lock: serialises signalling @done's fences, so that the jobs
 *	of one queue signal in their order
 * @watchdog: the hang check (vpux_watchdog.c)
 * @recovery_wq: where the hang check and the headed firmware reload run:
 *	ordered, WQ_MEM_RECLAIM and high priority, shared with nothing that
 *	allocates (jobs wait on what runs here)
 * @timeout_ms: time a job may run without progress before it is aborted
 * @run_limit_ms: time a job may spend on the NPU, progress or not, before
 *	it is aborted; 0: no limit (sysfs job_run_limit_ms)
 * @hang: the watchdog's capture of the job it aborts, reported once the
 *	job's fence signalled
 * @resets: engine recoveries after hung jobs (debugfs)
 * @bo_pinned: bytes of system memory the device's BOs pin (vpux_gem.c)
 * @skip_ro_check: (debugfs, tests) SUBMIT lets jobs write BOs the device
 *	may only read, so that the MMU's read-only mappings stop them
 * @inject: INJECT and INJECT_ARG as debugfs "inject" last wrote them
 *	(the model's fault state, recorded in a job's devcoredump)
 * @dump_failed: (debugfs coredump_failed) failed jobs get a devcoredump
 *	too, not only hung ones
 * @result_lock: protects the last-job records of the BOs (vpux_bo)
 * @busy_jobs: (fw) jobs on the NPU now
 * @busy_since: (fw) when @busy_jobs last became non-zero
 * @busy_ns: (fw) time with at least one job on the NPU until @busy_since
 * @mc: headed mode: the firmware on the management core (vpux_headed.c)
 * @cmx: (fw) CMX ownership (vpux_cmx.c): each tile's owning file (its
 *	id), how many of the owner's jobs on the NPU use it, the tiles
 *	being cleared, and how many clears were started (debugfs)
 * @pm: power state (vpux_pm.c)
 * @nl: telemetry counters and pending events (vpux_netlink.c)
 * @kcov_handle: the KCOV common handle of the job last handed to the
 *	device (run_job): the IRQ thread's remote-coverage section
 */
struct vpux_device {
	struct drm_device drm;
	struct regmap *regmap;
	int irq;
	struct vpux_hw_info hw;
	struct mutex bo_lock;
	struct vpux_fw fw;
	struct {
		struct vpux_mmu_ctx *ctx;
		u32 active;
	} slots[VPUX_MAX_CTX_SLOTS];
	struct vpux_job *running[DLA_MAX_TASKS];
	u32 n_running;
	struct list_head runq[VPUX_PRIORITIES];
	struct list_head done;
	bool dead;
	struct mutex signal_lock;
	struct delayed_work watchdog;
	struct workqueue_struct *recovery_wq;
	unsigned int timeout_ms;
	unsigned int run_limit_ms;
	struct vpux_hang_state hang;
	atomic_t resets;
	atomic64_t bo_pinned;
	bool skip_ro_check;
	u32 inject[2];
	bool dump_failed;
	spinlock_t result_lock;
	u32 busy_jobs;
	u64 busy_since;
	u64 busy_ns;
	struct vpux_headed mc;
	struct {
		u64 owner[64];
		u32 users[64];
		u64 clearing;
		atomic_t clears;
	} cmx;
	struct vpux_pm pm;
	struct vpux_nl_dev nl;
	u64 kcov_handle;
};

/**
 * struct vpux_file_priv - per open file state
 * @ref: held by the file and by each of its queues
 * @vdev: the device
 * @ctx: the file's device address space
 * @bos: BOs mapped in @ctx, under vpux_device.bo_lock
 * @job_lock: protects @next_seqno, @ring, @queues' ids and @defq
 * @queues: the queues QUEUE_CREATE made, by id
 * @defq: the default queue (id 0, priority NORMAL), created on first use
 * @next_seqno: number of the next job
 * @ring: the last VPUX_JOB_RING jobs, by seqno % VPUX_JOB_RING
 * @n_running: (fw) its jobs on the engine core: task slots it holds
 * @banned: a job of this file hung or faulted; later submits fail
 * @busy_ns: time its jobs spent on the NPU (fdinfo drm-engine-npu)
 * @id: the DRM file's client id: unique for the device's lifetime (CMX
 *	ownership, vpux_cmx.c)
 * @nl: its job counters (vpux_netlink.c)
 */
struct vpux_file_priv {
	struct kref ref;
	struct vpux_device *vdev;
	struct vpux_mmu_ctx ctx;
	struct list_head bos;
	struct mutex job_lock;
	struct xarray queues;
	struct vpux_queue *defq;
	u64 next_seqno;
	struct vpux_job_slot ring[VPUX_JOB_RING];
	u32 n_running;
	bool banned;
	atomic64_t busy_ns;
	u64 id;
	struct vpux_nl_file nl;
};

void vpux_file_priv_put(struct vpux_file_priv *fpriv);
unsigned int vpux_num_devices(void);

#define to_vpux_device(dev) container_of(dev, struct vpux_device, drm)

#define vpux_err(vdev, fmt, ...) drm_err(&(vdev)->drm, fmt, ##__VA_ARGS__)
#define vpux_dbg(vdev, fmt, ...) drm_dbg_driver(&(vdev)->drm, fmt, ##__VA_ARGS__)
#define vpux_err_ratelimited(vdev, fmt, ...) \
	drm_err_ratelimited(&(vdev)->drm, fmt, ##__VA_ARGS__)

/* vpux_sysfs.c */
int vpux_sysfs_init(struct vpux_device *vdev);
void vpux_busy_begin_locked(struct vpux_device *vdev);
void vpux_busy_end_locked(struct vpux_device *vdev);
u64 vpux_busy_time_ns(struct vpux_device *vdev);

/**
 * vpux_reg_read() - read an NPU register
 * @vdev: the device, bound (its window is there)
 * @offset: byte offset in the register window
 *
 * Return: the register's value.
 */
static inline u32 vpux_reg_read(struct vpux_device *vdev, u32 offset)
{
	unsigned int val = 0;

	WARN_ON_ONCE(regmap_read(vdev->regmap, offset, &val));
	return val;
}

/**
 * vpux_reg_write() - write an NPU register
 * @vdev: the device, bound
 * @offset: byte offset in the register window
 * @value: the value
 */
static inline void vpux_reg_write(struct vpux_device *vdev, u32 offset,
				  u32 value)
{
	WARN_ON_ONCE(regmap_write(vdev->regmap, offset, value));
}

/* vpux_hw.c */
int vpux_hw_map(struct vpux_device *vdev, struct platform_device *pdev);
int vpux_hw_probe(struct vpux_device *vdev);
void vpux_hw_quiesce(struct vpux_device *vdev);
u64 vpux_reg_read64(struct vpux_device *vdev, u32 lo, u32 hi);

/* vpux_irq.c */
int vpux_irq_init(struct vpux_device *vdev);

/* vpux_debugfs.c */
#ifdef CONFIG_DEBUG_FS
void vpux_debugfs_init(struct vpux_device *vdev);
#else
static inline void vpux_debugfs_init(struct vpux_device *vdev) { }
#endif

/**
 * struct vpux_uargs - the arguments of an ioctl vpux_ioctl() handles
 * @kdata: the kernel copy, the handler's arguments
 * @uptr: the caller's struct
 * @out_size: bytes of @kdata to copy back (0 for an ioctl without output)
 * @copied: the handler copied @kdata back itself, before its point of no
 *	return
 */
struct vpux_uargs {
	void *kdata;
	void __user *uptr;
	u32 out_size;
	bool copied;
};

int vpux_uargs_copy_nofault(struct vpux_uargs *u);

/* vpux_param.c */
int vpux_get_param_ioctl(struct drm_device *dev, void *data,
			 struct drm_file *file);

#endif /* __VPUX_DRV_H__ */
