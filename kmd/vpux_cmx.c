// SPDX-License-Identifier: GPL-2.0-only
/*
 * CMX ownership. The NPU's on-chip memory (CMX tiles) is not behind the
 * MMU: any op may address any tile, and a tile keeps what the last op
 * wrote. So that no file reads what another left there, each tile
 * belongs to one file at a time:
 *
 * - a job may start only when every tile its task uses (the engine core
 *   knows them from validation, dla_task_cmx_tiles()) belongs to its file;
 * - a tile changes hands only while no job of its owner that uses it is
 *   on the NPU, and only through the hardware's CMX clear
 *   (VPUX_REG_CMX_CLEAR_*): the job that wants it waits for the clear's
 *   interrupt, then starts;
 * - tiles wanted by a waiting job are reserved for it for the rest of
 *   the dispatch pass, so that their owner's later jobs cannot keep them
 *   (first come, first served; a priority's queues are visited in order);
 * - at probe every tile counts as dirty (a previous driver instance's
 *   files may have used it): the first job to use one waits for a clear.
 *
 * A file's jobs find their own CMX data from job to job: nothing is
 * cleared while a tile stays with its owner. Jobs that use no CMX are not
 * affected at all. Everything here runs under fw.lock, in the dispatch
 * path (the interrupt's thread, run_job, the watchdog): register writes only.
 */

#include "dla_interface.h"
#include "vpux_drv.h"
#include "vpux_job.h"

/* owner of a tile nobody may read: at probe, before the first clear */
#define VPUX_CMX_DIRTY		(~0ull)

/**
 * vpux_cmx_init() - every tile dirty, nothing cleared yet
 * @vdev: the device, identified (vpux_hw_init())
 */
void vpux_cmx_init(struct vpux_device *vdev)
{
	u32 t;

	for (t = 0; t < ARRAY_SIZE(vdev->cmx.owner); t++)
		vdev->cmx.owner[t] = VPUX_CMX_DIRTY;
	vdev->cmx.clearing = 0;
	atomic_set(&vdev->cmx.clears, 0);
}

/* Drop the tiles the hardware finished clearing from @clearing */
static void vpux_cmx_refresh_locked(struct vpux_device *vdev)
{
	u64 busy;

	lockdep_assert_held(&vdev->fw.lock);
	if (!vdev->cmx.clearing)
		return;
	busy = vpux_reg_read(vdev, VPUX_REG_CMX_CLEAR_LO) |
	       (u64)vpux_reg_read(vdev, VPUX_REG_CMX_CLEAR_HI) << 32;
	vdev->cmx.clearing &= busy;
}

/**
 * vpux_cmx_clearing_locked() - is a CMX clear still running?
 * @vdev: the device, fw.lock held
 *
 * Return: true while some tile is being cleared (read from the hardware).
 */
bool vpux_cmx_clearing_locked(struct vpux_device *vdev)
{
	vpux_cmx_refresh_locked(vdev);
	return vdev->cmx.clearing;
}

static void vpux_cmx_clear_locked(struct vpux_device *vdev, u64 tiles, u64 id)
{
	u64 m = tiles;

	while (m) {
		vdev->cmx.owner[__ffs64(m)] = id;
		m &= m - 1;
	}
	vdev->cmx.clearing |= tiles;
	atomic_inc(&vdev->cmx.clears);
	/* the check also polls the clear, should its interrupt be lost */
	vpux_watchdog_arm_locked(vdev);
	if (lower_32_bits(tiles))
		vpux_reg_write(vdev, VPUX_REG_CMX_CLEAR_LO, lower_32_bits(tiles));
	if (upper_32_bits(tiles))
		vpux_reg_write(vdev, VPUX_REG_CMX_CLEAR_HI, upper_32_bits(tiles));
}

/**
 * vpux_cmx_acquire_locked() - may @job start as far as CMX goes?
 * @vdev: the device, fw.lock held
 * @job: the job about to start
 * @reserved: tiles wanted by jobs that wait, earlier in this dispatch
 *	pass; updated
 *
 * Return: 0 when every tile of the job is its file's: they are counted as
 * in use until vpux_cmx_release_locked(). -EAGAIN when the job must wait:
 * for its tiles to be cleared (a clear of the tiles no job holds is
 * started now) or released by their owner's jobs, or for an earlier
 * waiting job.
 */
int vpux_cmx_acquire_locked(struct vpux_device *vdev, struct vpux_job *job,
			    u64 *reserved)
{
	u64 need = job->cmx_tiles, id = job->fpriv->id, foreign = 0, held = 0;
	u64 m;

	lockdep_assert_held(&vdev->fw.lock);
	if (!need)
		return 0;
	vpux_cmx_refresh_locked(vdev);
	if (need & (*reserved | vdev->cmx.clearing)) {
		*reserved |= need;
		return -EAGAIN;
	}
	for (m = need; m; m &= m - 1) {
		u32 t = __ffs64(m);

		if (vdev->cmx.owner[t] != id) {
			foreign |= BIT_ULL(t);
			if (vdev->cmx.users[t])
				held |= BIT_ULL(t);
		}
	}
	if (foreign) {
		*reserved |= need;
		if (foreign & ~held)
			vpux_cmx_clear_locked(vdev, foreign & ~held, id);
		return -EAGAIN;
	}
	for (m = need; m; m &= m - 1)
		vdev->cmx.users[__ffs64(m)]++;
	return 0;
}

/**
 * vpux_cmx_release_locked() - @job left the NPU: its tiles are not in use
 * @vdev: the device, fw.lock held
 * @job: a job vpux_cmx_acquire_locked() let start
 */
void vpux_cmx_release_locked(struct vpux_device *vdev, struct vpux_job *job)
{
	u64 m;

	lockdep_assert_held(&vdev->fw.lock);
	for (m = job->cmx_tiles; m; m &= m - 1) {
		u32 t = __ffs64(m);

		if (!WARN_ON(!vdev->cmx.users[t]))
			vdev->cmx.users[t]--;
	}
}
