// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hang check. drm_sched's own timeout is not used (each queue's
 * scheduler is created with MAX_SCHEDULE_TIMEOUT): the device runs
 * several queues' jobs at once, so a per-queue "oldest job" timer can
 * neither see the others nor tell a stuck job from one that waits for
 * an engine. Instead one delayed work per device, armed while a job is
 * on the engine core, looks at every running job once per timeout:
 *
 * - a job whose own ops complete is making progress and runs on;
 * - a job with no op on an engine waits for engines other jobs hold:
 *   it is not the one that hangs (if one of those hangs, that one is
 *   aborted and the engines come free);
 * - one with an op on an engine but no progress while the device
 *   completes other jobs' ops (the device clock moves only then) may be
 *   slow behind higher priorities sharing its engines: it is given more
 *   time, a bounded number of checks in a row;
 * - one whose op sits on an engine while nothing at all completes is
 *   given one more check (a long op on a slow host completes nothing
 *   for a while); at the second such check in a row (the engines are
 *   polled for a lost interrupt first) it hung: only its task is
 *   aborted, its fence gets -ETIMEDOUT, its file is banned, and the
 *   engines' state as they hung goes into a devcoredump, written once
 *   the fence signalled (it allocates).
 *
 * Apart from hangs, the administrator may cap the time any job spends on
 * the NPU (sysfs job_run_limit_ms, default the module parameter of that
 * name, ten minutes; 0: no cap): a job over it is aborted at the next
 * check, whatever its progress, with -ETIME instead of -ETIMEDOUT; it
 * did not hang, so its file is not banned. Checks then come at least
 * every limit.
 *
 * A job is checked once it has run for a whole timeout, so it is
 * aborted between two and three timeouts after its last progress. The
 * engines run independently (a long DPU op does not hold a DMA back), and
 * a job with no op on an engine is never blamed: a job that could not
 * start its ops waits for the one holding the engine. When several jobs
 * look stuck at once, each check aborts only the one whose running op
 * was started first (the longest stuck) and looks at the others again at
 * the next check: they may have been waiting behind it.
 */

#include <linux/kcov.h>
#include <linux/module.h>
#include <linux/workqueue.h>

#include <drm/drm_managed.h>

#include "dla_interface.h"
#include "vpux_drv.h"
#include "vpux_job.h"
#include "vpux_trace.h"

/* checks in a row a job may wait without progress while others make some */
#define VPUX_MAX_STALLS		5

static unsigned int job_timeout_ms = 2000;
module_param(job_timeout_ms, uint, 0444);
MODULE_PARM_DESC(job_timeout_ms, "Time a job may run without progress before it is aborted (ms, default 2000; per device in debugfs job_timeout_ms)");

/*
 * Ten minutes by default: slots held by several files' endless jobs come
 * free within it (architecture.rst, "Sharing the NPU"), and a job of low
 * priority that waits on the engine core behind higher ones for minutes
 * (its time counts) is still left alone.
 */
static unsigned int job_run_limit_ms = 600000;
module_param(job_run_limit_ms, uint, 0444);
MODULE_PARM_DESC(job_run_limit_ms, "Time a job may spend on the NPU before it is aborted, progress or not (ms, default 600000; 0: no limit; per device in sysfs job_run_limit_ms)");

/**
 * vpux_job_timeout_ms() - the device's job timeout
 * @vdev: the device
 *
 * Return: milliseconds.
 */
unsigned int vpux_job_timeout_ms(struct vpux_device *vdev)
{
	return READ_ONCE(vdev->timeout_ms);
}

/**
 * vpux_set_job_timeout_ms() - change the device's job timeout
 * @vdev: the device
 * @ms: milliseconds, >= 1
 *
 * Takes effect at the next check, which is brought forward to now.
 */
void vpux_set_job_timeout_ms(struct vpux_device *vdev, unsigned int ms)
{
	WRITE_ONCE(vdev->timeout_ms, ms);
	vpux_watchdog_kick(vdev);
}

/**
 * vpux_job_run_limit_ms() - the device's cap on a job's time on the NPU
 * @vdev: the device
 *
 * Return: milliseconds, 0 for none.
 */
unsigned int vpux_job_run_limit_ms(struct vpux_device *vdev)
{
	return READ_ONCE(vdev->run_limit_ms);
}

/**
 * vpux_set_job_run_limit_ms() - change the device's run-time cap
 * @vdev: the device
 * @ms: milliseconds, 0 for none
 *
 * Applies to the jobs on the NPU too, from the next check, which is
 * brought forward to now.
 */
void vpux_set_job_run_limit_ms(struct vpux_device *vdev, unsigned int ms)
{
	WRITE_ONCE(vdev->run_limit_ms, ms);
	vpux_watchdog_kick(vdev);
}

/**
 * vpux_watchdog_arm_locked() - make sure a check is pending
 * @vdev: the device, fw.lock held, a job on the engine core
 */
void vpux_watchdog_arm_locked(struct vpux_device *vdev)
{
	unsigned int ms = vpux_job_timeout_ms(vdev);
	unsigned int limit = vpux_job_run_limit_ms(vdev);

	lockdep_assert_held(&vdev->fw.lock);
	if (limit && limit < ms)
		ms = limit;
	queue_delayed_work(vdev->recovery_wq, &vdev->watchdog,
			   msecs_to_jiffies(ms));
}

/**
 * vpux_watchdog_kick() - run the check now (debugfs force_recovery)
 * @vdev: the device
 */
void vpux_watchdog_kick(struct vpux_device *vdev)
{
	mod_delayed_work(vdev->recovery_wq, &vdev->watchdog, 0);
}

/* A running job's progress: the core's status, or the firmware's table. */
static void vpux_watchdog_status(struct vpux_device *vdev, struct vpux_job *job,
				 struct dla_task_status *st)
{
	if (vdev->mc.on)
		vpux_headed_progress(vdev, job, st);
	else
		dla_task_result(job->task, st);
}

/*
 * How long @job has been on the NPU at @now. A pass reads the clock
 * before it handles the completions a lost interrupt left, which may start
 * jobs: those started after @now have run for 0 ns, not for 2^64 - 1.
 */
static u64 vpux_job_on_npu_ns(const struct vpux_job *job, u64 now)
{
	return now > job->start_ns ? now - job->start_ns : 0;
}

/* One running job: true if it looks hung (no progress of its own). */
static bool vpux_watchdog_check(struct vpux_device *vdev, struct vpux_job *job,
				u64 now, u64 cycles, struct dla_task_status *st)
{
	u64 timeout_ns = (u64)vpux_job_timeout_ms(vdev) * NSEC_PER_MSEC;
	bool hung = false;

	if (vpux_job_on_npu_ns(job, now) < timeout_ns)
		return false;
	vpux_watchdog_status(vdev, job, st);
	if (st->ops_done > job->ops_done || !st->ops_running) {
		job->ops_done = st->ops_done;
		job->stalls = 0;
		job->quiet = 0;
	} else if (cycles != job->cycles) {
		hung = ++job->stalls > VPUX_MAX_STALLS;
		job->quiet = 0;
	} else {
		/* a long op on a slow host: two quiet checks in a row */
		hung = ++job->quiet >= 2;
	}
	job->cycles = cycles;
	trace_vpux_job_timeout(dev_name(vdev->drm.dev), job->slot->seqno,
			       st->ops_done, hung);
	return hung;
}

/* The result of a job the watchdog aborts, from its task's last status */
static struct vpux_job_result vpux_timeout_result(const struct dla_task_status *st,
						  int sys_error)
{
	return (struct vpux_job_result){
		.status = DRM_VPUX_STATUS_TIMEOUT,
		.sys_error = sys_error,
		.fail_op = st->ops_done,
		.device_cycles = st->device_cycles,
		.op_cycles = st->op_cycles,
	};
}

/*
 * Stop @job and complete it with @res: at once headless (the core stops
 * its ops), once the firmware confirms headed.
 */
static void vpux_watchdog_abort_locked(struct vpux_device *vdev,
				       struct vpux_job *job,
				       const struct vpux_job_result *res)
{
	if (vdev->mc.on)
		vpux_headed_abort_locked(vdev, job, res);
	else
		vpux_sched_complete_locked(vdev, job, res);
}

/* Abort every job that has been on the NPU for longer than the cap. */
static void vpux_watchdog_run_limit_locked(struct vpux_device *vdev, u64 now)
{
	u64 limit_ns = (u64)vpux_job_run_limit_ms(vdev) * NSEC_PER_MSEC;
	struct dla_task_status st;
	u32 id;

	lockdep_assert_held(&vdev->fw.lock);
	if (!limit_ns)
		return;
	for (id = 0; id < DLA_MAX_TASKS; id++) {
		struct vpux_job *job = vdev->running[id];
		struct vpux_job_result res;

		if (!job || vpux_job_on_npu_ns(job, now) < limit_ns)
			continue;
		vpux_watchdog_status(vdev, job, &st);
		res = vpux_timeout_result(&st, -ETIME);
		drm_dbg_driver(&vdev->drm,
			       "job %llu: over the run-time limit after %u of %u ops: aborted\n",
			       job->slot->seqno, st.ops_done, st.ops_total);
		vpux_watchdog_abort_locked(vdev, job, &res);
	}
}

/*
 * The hang check, on the recovery queue. A KCOV remote-coverage section
 * of the task that submitted the job last handed to the device, as the
 * IRQ thread (vpux_irq.c): the fuzzer's coverage includes recovery.
 */
static void vpux_watchdog_work(struct work_struct *work)
{
	struct vpux_device *vdev = container_of(to_delayed_work(work),
						struct vpux_device, watchdog);
	struct dla_task_status st, hung_st;
	struct vpux_job *hung = NULL;
	bool cookie;
	u64 now, cycles;
	u32 id;

	kcov_remote_start_common(READ_ONCE(vdev->kcov_handle));
	cookie = dma_fence_begin_signalling();
	mutex_lock(&vdev->fw.lock);
	/* powered off: nothing runs, and no register may be touched */
	if (vdev->dead || vdev->pm.off)
		goto out_unlock;
	now = ktime_get_ns();
	/*
	 * Completions whose interrupt went missing first: latched as the top
	 * half would (one register read per busy engine, a fixed number),
	 * then handled as the bottom half does.
	 */
	if (vdev->mc.on) {
		vpux_headed_watchdog_locked(vdev, now);
		vpux_sched_dispatch_locked(vdev);
	} else {
		scoped_guard(spinlock_irq, &vdev->fw.isr_lock)
			dla_poll_engines(vdev->fw.engine);
		vpux_events_locked(vdev);
	}

	vpux_watchdog_run_limit_locked(vdev, now);
	cycles = vpux_reg_read64(vdev, VPUX_REG_CYCLES_LO, VPUX_REG_CYCLES_HI);
	for (id = 0; id < DLA_MAX_TASKS; id++) {
		struct vpux_job *job = vdev->running[id];

		if (job && vpux_watchdog_check(vdev, job, now, cycles, &st) &&
		    (!hung || (s32)(st.oldest_seq - hung_st.oldest_seq) < 0)) {
			hung = job;
			hung_st = st;
		}
	}
	if (hung) {
		struct vpux_job_result res = vpux_timeout_result(&hung_st,
								 -ETIMEDOUT);

		vpux_hang_capture(vdev, hung, &hung_st, &vdev->hang);
		/* its devcoredump is written when it is freed */
		hung->hang = vdev->hang;
		hung->hung = true;
		vpux_nl_notify_hang(vdev, hung);
		vpux_nl_notify_reset(vdev, atomic_inc_return(&vdev->resets));
		/* only this task is stopped; the others run on */
		vpux_watchdog_abort_locked(vdev, hung, &res);
		/*
		 * The others may have waited behind it the whole time: they
		 * get a whole timeout from now before they are blamed.
		 */
		for (id = 0; id < DLA_MAX_TASKS; id++) {
			struct vpux_job *job = vdev->running[id];

			if (job) {
				job->cycles = ~0ull;
				job->stalls = 0;
				job->quiet = 0;
			}
		}
	}
	vpux_sched_dispatch_locked(vdev);
	if (vdev->n_running || vpux_cmx_clearing_locked(vdev))
		vpux_watchdog_arm_locked(vdev);
out_unlock:
	mutex_unlock(&vdev->fw.lock);
	vpux_sched_signal_done(vdev);
	dma_fence_end_signalling(cookie);

	if (hung) {
		/* the job may be gone: only its capture is used */
		drm_err_ratelimited(&vdev->drm, "job %llu hung after %u of %u ops: aborted\n",
				    vdev->hang.seqno, vdev->hang.st.ops_done,
				    vdev->hang.st.ops_total);
	}
	kcov_remote_stop();
}

static void vpux_recovery_wq_release(struct drm_device *drm, void *wq)
{
	destroy_workqueue(wq);
}

/**
 * vpux_watchdog_init() - set the device's watchdog up, not armed
 * @vdev: the device
 *
 * Recovery gets a workqueue of its own, as ivpu's and amdxdna's do:
 * jobs' fences wait for it, so it must make progress when memory is
 * short (WQ_MEM_RECLAIM's rescuer) and must not queue behind work that
 * allocates (devcoredumps, freeing jobs and queues run on vpux_wq). What
 * runs on it is a fence signalling section, so lockdep reports any
 * allocation there. It is destroyed after vpux_sched_quiesce() stopped
 * its works (drmm actions run in reverse).
 *
 * Return: 0 or -ENOMEM.
 */
int vpux_watchdog_init(struct vpux_device *vdev)
{
	INIT_DELAYED_WORK(&vdev->watchdog, vpux_watchdog_work);
	vdev->timeout_ms = max(job_timeout_ms, 1u);
	vdev->run_limit_ms = job_run_limit_ms;
	vdev->recovery_wq = alloc_ordered_workqueue("vpux-recovery-%s",
						    WQ_MEM_RECLAIM | WQ_HIGHPRI,
						    dev_name(vdev->drm.dev));
	if (!vdev->recovery_wq)
		return -ENOMEM;
	return drmm_add_action_or_reset(&vdev->drm, vpux_recovery_wq_release,
					vdev->recovery_wq);
}

/**
 * vpux_watchdog_fini() - stop the watchdog; the device is dead
 * @vdev: the device
 */
void vpux_watchdog_fini(struct vpux_device *vdev)
{
	cancel_delayed_work_sync(&vdev->watchdog);
}
