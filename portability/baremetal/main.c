// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Firmware main loop of the headed configuration: take commands from the
 * host's mailbox, run the engine core, report finished tasks. The stub
 * polls the NPU's interrupt status instead of taking the interrupt (a
 * real image would call dla_isr_handler() from its PLIC handler and the
 * bottom half from this loop).
 */
#include "bm.h"
#include "dla_interface.h"

int main(void);

int main(void)
{
	struct bm_mailbox *mb = (struct bm_mailbox *)BM_MAILBOX_BASE;
	void *engine;

	if (dla_register_driver(&engine, mb))
		for (;;)
			;
	for (;;) {
		dla_u32 done = 0;

		if (mb->cmd == BM_CMD_SUBMIT) {
			dla_u32 i = mb->arg[0];

			mb->result = i < DLA_MAX_TASKS ?
				     dla_execute_task(engine, &mb->tasks[i],
						      mb->arg[1], mb->arg[2]) :
				     -DLA_ERR_INVAL;
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
