// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Firmware main loop of the headed configuration: take commands from the
 * host's mailbox, run the engine core, report finished tasks. The stub
 * polls the NPU's interrupt status instead of taking the interrupt (a
 * real image would call dla_isr_handler() from its PLIC handler and the
 * bottom half from this loop).
 *
 * Memory is static: the core instance, and for each of the mailbox's
 * task entries room for the largest task the limits allow
 * (DLA_TASK_SIZE_MAX). A task is validated once when submitted, into the
 * memory of its mailbox entry; the entry's address list and that memory
 * stay the task's until it is cleared.
 */
#include "bm.h"
#include "dla_interface.h"

static dla_u64 bm_engine_mem[(DLA_ENGINE_SIZE_MAX + 7) / 8];
static dla_u64 bm_task_mem[DLA_MAX_TASKS][(DLA_TASK_SIZE_MAX + 7) / 8];
static struct dla_task *bm_task[DLA_MAX_TASKS];

/* Validate mailbox task @i and start it: the task id or -DLA_ERR_*. */
static dla_s32 bm_submit(struct dla_engine *engine, struct bm_mailbox *mb,
			 dla_u32 i, dla_u32 ctx, dla_u32 prio)
{
	dla_u32 size;
	dla_s32 ret;

	if (i >= DLA_MAX_TASKS)
		return -DLA_ERR_INVAL;
	/* the entry's previous task still holds its memory */
	if (bm_task[i] && dla_task_id(bm_task[i]) >= 0)
		return -DLA_ERR_BUSY;
	bm_task[i] = NULL;
	ret = dla_task_measure(engine, &mb->tasks[i], &size);
	if (ret)
		return ret;
	if (size > sizeof(bm_task_mem[i]))
		return -DLA_ERR_BUSY;
	ret = dla_task_prepare(engine, &mb->tasks[i], bm_task_mem[i], size,
			       &bm_task[i]);
	if (ret)
		return ret;
	return dla_task_start(engine, bm_task[i], ctx, prio);
}

int main(void);

int main(void)
{
	struct bm_mailbox *mb = (struct bm_mailbox *)BM_MAILBOX_BASE;
	struct dla_engine *engine;

	if (dla_engine_size() > sizeof(bm_engine_mem) ||
	    dla_register_driver(&engine, bm_engine_mem, sizeof(bm_engine_mem),
				mb))
		for (;;)
			;
	for (;;) {
		dla_u32 done = 0;

		if (mb->cmd == BM_CMD_SUBMIT) {
			mb->result = bm_submit(engine, mb, mb->arg[0],
					       mb->arg[1], mb->arg[2]);
			mb->cmd = BM_CMD_NONE;
		} else if (mb->cmd == BM_CMD_CLEAR) {
			mb->result = dla_clear_task(engine, mb->arg[0]);
			mb->cmd = BM_CMD_NONE;
		}
		if (dla_isr_handler(engine)) {
			dla_process_events(engine, &done);
			mb->done_mask |= done;
		}
	}
}
