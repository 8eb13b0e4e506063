/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Headed mode: the engine core runs as firmware on the NPU's management
 * core (vpux_headed.c, Documentation/firmware.rst).
 */
#ifndef __VPUX_HEADED_H__
#define __VPUX_HEADED_H__

#include <linux/types.h>
#include <linux/workqueue.h>

struct dla_task_status;
struct firmware;
struct vpux_device;
struct vpux_fw_cmd;
struct vpux_fw_cpl;
struct vpux_fw_progress;
struct vpux_fw_shm;
struct vpux_job;
struct vpux_job_result;

/**
 * struct vpux_headed - the firmware of one device
 * @on: the device runs headed (module parameter mode=headed at probe)
 * @plans: the image runs plans (ABI minor VPUX_FW_ABI_MINOR_PLANS or
 *	later: it reads the symbol copy a staging buffer carries)
 * @image: the firmware file, kept for reloads
 * @shm: the shared memory (coherent DMA memory, devm)
 * @shm_dma: its bus address
 * @shm_size: its bytes
 * @cmd: the command ring in @shm
 * @cpl: the completion ring in @shm
 * @progress: the progress table in @shm
 * @log: the log ring in @shm
 * @cmd_seq: (fw) number of the next command
 * @heartbeat: (fw) the firmware's heartbeat at the last check
 * @heartbeat_ns: (fw) when @heartbeat last moved
 * @down: (fw) the firmware is being reloaded: no job starts
 * @failed: (fw) a reload failed: jobs fail until the device is bound again
 * @recover: reloads the firmware after a crash or a lost heartbeat
 * @reloads: firmware reloads since probe, counted when one is decided,
 *	before the failed jobs signal (debugfs)
 */
struct vpux_headed {
	bool on;
	bool plans;
	const struct firmware *image;
	struct vpux_fw_shm *shm;
	dma_addr_t shm_dma;
	u32 shm_size;
	struct vpux_fw_cmd *cmd;
	struct vpux_fw_cpl *cpl;
	struct vpux_fw_progress *progress;
	char *log;
	u32 cmd_seq;
	u32 heartbeat;
	u64 heartbeat_ns;
	bool down;
	bool failed;
	struct work_struct recover;
	atomic_t reloads;
};

/**
 * struct vpux_job_stage - a headed job's staging buffer (struct
 *	vpux_fw_task and what follows it), in coherent DMA memory
 * @cpu: kernel address, NULL for a headless job
 * @dma: bus address
 * @size: bytes
 * @cycles_offset: where the firmware writes each op's cycles
 * @cycles_count: room for that many
 * @seq: the RUN command's number while the job is on the firmware
 * @aborting: an ABORT was sent; complete with @abort_res
 */
struct vpux_job_stage {
	void *cpu;
	dma_addr_t dma;
	size_t size;
	u32 cycles_offset;
	u32 cycles_count;
	u32 seq;
	bool aborting;
};

int vpux_headed_init(struct vpux_device *vdev);
void vpux_headed_stop_locked(struct vpux_device *vdev);
void vpux_headed_fini(struct vpux_device *vdev);
int vpux_headed_stage(struct vpux_job *job);
void vpux_headed_stage_free(struct vpux_job *job);
int vpux_headed_run_locked(struct vpux_device *vdev, struct vpux_job *job,
			   int ctx_slot);
void vpux_headed_abort_locked(struct vpux_device *vdev, struct vpux_job *job,
			      const struct vpux_job_result *res);
bool vpux_headed_isr(struct vpux_device *vdev);
void vpux_headed_events_locked(struct vpux_device *vdev);
void vpux_headed_progress(struct vpux_device *vdev, struct vpux_job *job,
			  struct dla_task_status *st);
void vpux_headed_watchdog_locked(struct vpux_device *vdev, u64 now);
void vpux_headed_op_cycles(struct vpux_job *job, u32 *cycles, u32 n);
u32 vpux_headed_log(struct vpux_device *vdev, char *buf, u32 len);
bool vpux_headed_mode(void);
void vpux_headed_power_down(struct vpux_device *vdev);
int vpux_headed_power_up(struct vpux_device *vdev);

#endif /* __VPUX_HEADED_H__ */
