// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The firmware's main loop (headed mode, Documentation/firmware.rst):
 * check the shared memory the host set up, bind the engine core to the
 * NPU, say READY, then serve the command ring, the NPU's interrupt and
 * the heartbeat until the host resets the core.
 *
 * Interrupts stay off (mstatus.MIE = 0); mie enables the NPU's line, the
 * doorbell and the timer, so WFI returns when any of them is pending and
 * each wake-up is one pass: clear the doorbell, drain the command ring,
 * handle the NPU's events, post completions, update the progress table,
 * beat the heart, interrupt the host once if anything was posted.
 *
 * Memory is static: the core instance, and for each of the host's task
 * slots room for the largest task this image's limits allow
 * (DLA_TASK_SIZE_MAX), the same limits as the kernel's headless build.
 * The core picks its own task ids (dla_task_start() takes the lowest
 * free one), so the firmware maps the host's slot to the core's id and
 * back; completions carry the host's slot.
 */
#include "bm.h"
#include "dla_err.h"
#include "dla_interface.h"
#include "dla_port.h"

/* start.S's copies of these values */
DLA_STATIC_ASSERT(VPUX_MC_REG_BASE == 0x02000000u, "start.S MC_REG_BASE");
DLA_STATIC_ASSERT(VPUX_MC_REG_STATUS == 0xc000u &&
		  VPUX_MC_REG_INFO == VPUX_MC_REG_STATUS + 4 &&
		  VPUX_MC_REG_HOST_IRQ == VPUX_MC_REG_STATUS + 8,
		  "start.S MC_REG_STATUS");
DLA_STATIC_ASSERT(VPUX_MC_STATUS_CRASHED == 0x02u, "start.S MC_STATUS_CRASHED");

/* mie bits */
#define FW_MIE_MSIE		(1u << 3)
#define FW_MIE_MTIE		(1u << 7)
#define FW_MIE_MEIE		(1u << 11)

/**
 * struct fw_slot - one of the host's task slots
 * @task: the prepared task while the slot is busy, else NULL
 * @id: the core's task id of @task
 * @seq: the RUN command's seq, echoed in the completion
 * @task_addr: bus address of the staging buffer (cycles go there)
 * @cycles_offset: from the staging buffer's struct vpux_fw_task
 * @cycles_count: likewise
 */
struct fw_slot {
	struct dla_task *task;
	dla_u32 id;
	dla_u32 seq;
	dla_u64 task_addr;
	dla_u32 cycles_offset;
	dla_u32 cycles_count;
};

static dla_u64 fw_engine_mem[(DLA_ENGINE_SIZE_MAX + 7) / 8];
/* not zeroed at boot (link.ld): dla_task_prepare() writes it all first */
#define FW_NOINIT __attribute__((section(".noinit")))
static dla_u64 fw_task_mem[DLA_MAX_TASKS][(DLA_TASK_SIZE_MAX + 7) / 8] FW_NOINIT;
static struct fw_slot fw_slots[DLA_MAX_TASKS];
static dla_u8 fw_id_slot[DLA_MAX_TASKS];	/* core id -> host slot */
static struct fw_stage fw_stage;
static dla_u32 fw_cycles[DLA_MAX_OPS_PER_TASK] FW_NOINIT;

static struct dla_engine *fw_engine;
static volatile struct vpux_fw_shm *fw_shm;
static dla_u32 fw_posted;	/* completions posted this pass */

static dla_u32 rd(const volatile dla_u32 *p)
{
	return *p;
}

static void fw_host_irq(void)
{
	fw_mc_write(VPUX_MC_REG_HOST_IRQ, 1);
}

/* Report @status (READY, ERROR | reason << 8) and interrupt the host. */
static void fw_status(dla_u32 status)
{
	fw_mc_write(VPUX_MC_REG_STATUS, status);
	fw_host_irq();
}

static void fw_stop(void)
{
	for (;;)
		__asm__ volatile("wfi");
}

static int fw_pow2(dla_u32 v)
{
	return v && !(v & (v - 1));
}

/* [@off, @off + @n * @esize) inside the shared memory, after its header. */
static int fw_inside(dla_u32 size, dla_u32 off, dla_u32 n, dla_u32 esize,
		     dla_u32 align)
{
	dla_u64 end = (dla_u64)off + (dla_u64)n * esize;

	return off >= sizeof(struct vpux_fw_shm) && !(off & (align - 1)) &&
	       end <= size;
}

/* 0 or the enum vpux_fw_error the shared memory's header breaks. */
static dla_u32 fw_shm_check(volatile struct vpux_fw_shm *shm)
{
	dla_u32 size;

	if (rd(&shm->magic) != VPUX_FW_SHM_MAGIC)
		return VPUX_FW_ERR_SHM_MAGIC;
	size = rd(&shm->size);
	if (size < sizeof(struct vpux_fw_shm) || size > VPUX_MC_SHM_MAX)
		return VPUX_FW_ERR_SHM_SIZE;
	if (!fw_pow2(rd(&shm->log_size)) ||
	    !fw_inside(size, rd(&shm->log_offset), rd(&shm->log_size), 1, 1))
		return VPUX_FW_ERR_SHM_LOG;
	if (!fw_pow2(rd(&shm->cmd_entries)) ||
	    !fw_inside(size, rd(&shm->cmd_offset), rd(&shm->cmd_entries),
		       sizeof(struct vpux_fw_cmd), 8))
		return VPUX_FW_ERR_SHM_CMD;
	if (!fw_pow2(rd(&shm->cpl_entries)) ||
	    !fw_inside(size, rd(&shm->cpl_offset), rd(&shm->cpl_entries),
		       sizeof(struct vpux_fw_cpl), 8))
		return VPUX_FW_ERR_SHM_CPL;
	if (rd(&shm->progress_entries) < DLA_MAX_TASKS ||
	    !fw_inside(size, rd(&shm->progress_offset), DLA_MAX_TASKS,
		       sizeof(struct vpux_fw_progress), 4))
		return VPUX_FW_ERR_SHM_PROGRESS;
	return 0;
}

static volatile void *fw_shm_at(dla_u32 off)
{
	return (volatile dla_u8 *)fw_shm + off;
}

/* Point the window at @addr's 4 KiB page; @addr's address through it. */
static volatile dla_u8 *fw_win(dla_u64 addr)
{
	dla_u64 page = addr & ~(dla_u64)0xfff;

	fw_mc_write(VPUX_MC_REG_WIN_LO, (dla_u32)page);
	fw_mc_write(VPUX_MC_REG_WIN_HI, (dla_u32)(page >> 32));
	fw_fence();
	return (volatile dla_u8 *)(unsigned long)VPUX_MC_WIN_BASE +
	       (addr & 0xfff);
}

/*
 * Post one completion: wait for room (the host consumes on its interrupt,
 * so tell it about what is there first), write the entry, then move the
 * tail past it.
 */
static void fw_post(const struct vpux_fw_cpl *c)
{
	volatile dla_u32 *dst;
	const dla_u32 *src = (const dla_u32 *)c;
	dla_u32 tail = rd(&fw_shm->cpl_tail), n = rd(&fw_shm->cpl_entries);
	dla_u32 i, waited = 0;

	while (tail - rd(&fw_shm->cpl_head) >= n) {
		if (!waited++ && fw_posted) {
			fw_host_irq();
			fw_posted = 0;
		}
	}
	fw_fence();	/* the host's head before our entry */
	dst = fw_shm_at(rd(&fw_shm->cpl_offset) +
			(tail & (n - 1)) * sizeof(struct vpux_fw_cpl));
	for (i = 0; i < sizeof(*c) / 4; i++)
		dst[i] = src[i];
	fw_fence();
	fw_shm->cpl_tail = tail + 1;
	fw_posted++;
}

static void fw_refuse(const struct vpux_fw_cmd *cmd, dla_s32 err)
{
	struct vpux_fw_cpl c;

	dla_memset(&c, 0, sizeof(c));
	c.kind = VPUX_FW_CPL_REFUSED;
	c.slot = cmd->slot;
	c.seq = cmd->seq;
	c.error = err;
	fw_post(&c);
}

/* Read RUN's staging buffer into fw_stage; 0 or -DLA_ERR_*. */
static dla_s32 fw_stage_task(const struct vpux_fw_cmd *cmd, struct fw_slot *s)
{
	const dla_u32 hsize = sizeof(struct vpux_fw_task);
	volatile const struct vpux_fw_task *t;
	dla_u32 n, off, size, coff, ccount, sidx, soff, ssize;

	if (cmd->task_size < hsize ||
	    (cmd->task_addr & 0xfff) + (dla_u64)cmd->task_size > VPUX_MC_WIN_SIZE)
		return -DLA_ERR_BUF_RANGE;
	t = (volatile const struct vpux_fw_task *)fw_win(cmd->task_addr);
	n = t->n_addr;
	off = t->data_offset;
	size = t->data_size;
	coff = t->cycles_offset;
	ccount = t->cycles_count;
	sidx = t->sym_index;
	soff = t->sym_offset;
	ssize = t->sym_size;
	if (!n || n > DLA_MAX_ADDR_ENTRIES || (sidx && sidx >= n))
		return -DLA_ERR_ADDR_INDEX;
	if (hsize + (dla_u64)n * sizeof(struct vpux_fw_addr) > cmd->task_size ||
	    (dla_u64)off + size > cmd->task_size ||
	    (dla_u64)coff + (dla_u64)ccount * 4 > cmd->task_size ||
	    (dla_u64)soff + ssize > cmd->task_size || (!sidx && ssize))
		return -DLA_ERR_BUF_RANGE;
	fw_win_copy_from(fw_stage.addr, (const volatile dla_u8 *)t + hsize,
			 n * sizeof(struct vpux_fw_addr));
	fw_stage.n_addr = n;
	fw_stage.data = (const volatile dla_u8 *)t + off;
	fw_stage.data_size = size;
	fw_stage.sym_index = sidx;
	fw_stage.sym = (const volatile dla_u8 *)t + soff;
	fw_stage.sym_size = ssize;
	s->task_addr = cmd->task_addr;
	s->cycles_offset = coff;
	s->cycles_count = ccount;
	return 0;
}

/* RUN: prepare the staged task into the slot's memory and start it. */
static void fw_run(const struct vpux_fw_cmd *cmd)
{
	struct fw_slot *s;
	struct dla_task *task = NULL;
	dla_u32 size;
	dla_s32 ret;

	if (cmd->slot >= DLA_MAX_TASKS) {
		dla_error("fw: RUN seq %u: slot %u out of range\n", cmd->seq,
			  cmd->slot);
		fw_refuse(cmd, -DLA_ERR_INVAL);
		return;
	}
	s = &fw_slots[cmd->slot];
	if (s->task) {
		dla_error("fw: RUN seq %u: slot %u is busy\n", cmd->seq,
			  cmd->slot);
		fw_refuse(cmd, -DLA_ERR_BUSY);
		return;
	}
	ret = fw_stage_task(cmd, s);
	if (!ret)
		ret = dla_task_measure(fw_engine, &fw_stage, &size);
	if (!ret && size > sizeof(fw_task_mem[0]))
		ret = -DLA_ERR_OVERFLOW;	/* DLA_TASK_SIZE_MAX is wrong */
	if (!ret)
		ret = dla_task_prepare(fw_engine, &fw_stage,
				       fw_task_mem[cmd->slot], size, &task);
	if (!ret)
		ret = dla_task_start(fw_engine, task, cmd->ctx_slot,
				     cmd->priority);
	if (ret < 0) {
		fw_refuse(cmd, ret);
		return;
	}
	s->task = task;
	s->id = (dla_u32)ret;
	s->seq = cmd->seq;
	fw_id_slot[ret] = (dla_u8)cmd->slot;
}

/* Write the task's per-op cycles into its staging buffer. */
static void fw_write_cycles(const struct fw_slot *s)
{
	dla_u32 count[DLA_OP_KINDS];
	volatile dla_u8 *p;
	dla_s32 n;
	dla_u32 i;

	if (!s->cycles_count)
		return;
	n = dla_task_op_cycles(s->task, count, fw_cycles,
			       DLA_MAX_OPS_PER_TASK);
	if (n <= 0)
		return;
	if ((dla_u32)n > s->cycles_count)
		n = (dla_s32)s->cycles_count;
	p = fw_win(s->task_addr) + s->cycles_offset;
	if (!((unsigned long)p & 3)) {
		for (i = 0; i < (dla_u32)n; i++)
			((volatile dla_u32 *)p)[i] = fw_cycles[i];
		return;
	}
	for (i = 0; i < (dla_u32)n * 4; i++)
		p[i] = (dla_u8)(fw_cycles[i / 4] >> (8 * (i % 4)));
}

/*
 * The slot's task left the core (finished, or aborted by @abort): its
 * cycles, its completion, the core's slot released, the host's too.
 */
static void fw_complete(dla_u32 slot, int abort)
{
	struct fw_slot *s = &fw_slots[slot];
	struct dla_task_status st;
	struct vpux_fw_cpl c;

	if (abort)
		dla_clear_task(fw_engine, s->id);	/* FAILED, -DLA_ERR_ABORTED */
	dla_task_result(s->task, &st);
	fw_write_cycles(s);
	dla_memset(&c, 0, sizeof(c));
	c.kind = VPUX_FW_CPL_TASK;
	c.slot = slot;
	c.seq = s->seq;
	c.state = st.state;
	c.error = st.error;
	c.fail_kind = st.fail_kind;
	c.fail_index = st.fail_index;
	c.eng_status = st.eng_status;
	c.fault_status = st.fault_status;
	c.fault_addr = st.fault_addr;
	c.ops_total = st.ops_total;
	c.ops_done = st.ops_done;
	c.op_cycles = st.op_cycles;
	c.device_cycles = st.device_cycles;
	fw_post(&c);
	if (!abort)
		dla_clear_task(fw_engine, s->id);
	s->task = NULL;
}

static void fw_abort(const struct vpux_fw_cmd *cmd)
{
	if (cmd->slot >= DLA_MAX_TASKS || !fw_slots[cmd->slot].task) {
		/* finished before the ABORT: its completion is posted */
		dla_debug("fw: ABORT seq %u: slot %u is free\n", cmd->seq,
			  cmd->slot);
		return;
	}
	fw_complete(cmd->slot, 1);
}

/* Every command the host wrote since the last pass. */
static void fw_drain_commands(void)
{
	dla_u32 head = rd(&fw_shm->cmd_head), n = rd(&fw_shm->cmd_entries);
	dla_u32 off = rd(&fw_shm->cmd_offset);
	dla_u32 tail = rd(&fw_shm->cmd_tail);

	fw_fence();	/* the host's tail before its entries */
	for (; head != tail; head++) {
		struct vpux_fw_cmd cmd;

		fw_win_copy_from(&cmd, fw_shm_at(off + (head & (n - 1)) *
						 sizeof(cmd)), sizeof(cmd));
		switch (cmd.op) {
		case VPUX_FW_CMD_RUN:
			fw_run(&cmd);
			break;
		case VPUX_FW_CMD_ABORT:
			fw_abort(&cmd);
			break;
		case VPUX_FW_CMD_NOP:
			break;
		default:
			dla_error("fw: command seq %u: unknown op %u\n",
				  cmd.seq, cmd.op);
			break;
		}
		fw_fence();	/* entry read before the slot is given back */
		fw_shm->cmd_head = head + 1;
		/* the host may have added more meanwhile */
		if (head + 1 == tail) {
			tail = rd(&fw_shm->cmd_tail);
			fw_fence();
		}
	}
}

/* Handle the latched events; every task that finished completes. */
static void fw_process_events(void)
{
	dla_u32 done = 0, id;

	dla_process_events(fw_engine, &done);
	for (id = 0; id < DLA_MAX_TASKS; id++) {
		dla_u32 slot = fw_id_slot[id];

		if ((done & (1u << id)) && fw_slots[slot].task &&
		    fw_slots[slot].id == id)
			fw_complete(slot, 0);
	}
}

static void fw_progress(void)
{
	volatile struct vpux_fw_progress *p =
		fw_shm_at(rd(&fw_shm->progress_offset));
	dla_u32 slot;

	for (slot = 0; slot < DLA_MAX_TASKS; slot++) {
		struct dla_task_status st;

		dla_memset(&st, 0, sizeof(st));
		st.state = DLA_TASK_FREE;
		if (fw_slots[slot].task)
			dla_task_result(fw_slots[slot].task, &st);
		p[slot].ops_done = st.ops_done;
		p[slot].ops_running = st.ops_running;
		p[slot].oldest_seq = st.oldest_seq;
		p[slot].state = st.state;
	}
}

static void fw_set_timer(dla_u64 when)
{
	fw_mc_write(VPUX_MC_REG_MTIMECMP_LO, 0xffffffffu);
	fw_mc_write(VPUX_MC_REG_MTIMECMP_HI, (dla_u32)(when >> 32));
	fw_mc_write(VPUX_MC_REG_MTIMECMP_LO, (dla_u32)when);
}

/* when the next beat is due (fw_heartbeat(), fw_pulse()) */
static dla_u64 fw_next_beat;

/**
 * fw_pulse() - beat, if one is due, in the middle of long work
 *
 * Validating and building a large task takes many passes' worth of time
 * (a 1024-op task under a slow host): the port calls this from its
 * callbacks so the heartbeat keeps moving. It only beats: it may run
 * inside a call into the engine core, so it must not call back.
 */
void fw_pulse(void)
{
	dla_u64 now;

	if (!fw_shm)
		return;
	now = fw_mtime();
	if (now < fw_next_beat)
		return;
	fw_shm->heartbeat = rd(&fw_shm->heartbeat) + 1;
	fw_next_beat = now + VPUX_FW_HEARTBEAT_US / 2;
}

/*
 * The heartbeat, twice per VPUX_FW_HEARTBEAT_US; each beat also latches
 * completions whose interrupt went missing (the kernel's watchdog does
 * the same headless).
 */
static void fw_heartbeat(dla_u64 *next)
{
	dla_u64 now = fw_mtime();

	if (now < *next)
		return;
	fw_shm->heartbeat = rd(&fw_shm->heartbeat) + 1;
	*next = now + VPUX_FW_HEARTBEAT_US / 2;
	fw_set_timer(*next);
	if (dla_poll_engines(fw_engine) > 0)
		fw_process_events();
}

int main(void);

int main(void)
{
	volatile struct vpux_fw_shm *shm =
		(volatile struct vpux_fw_shm *)(unsigned long)VPUX_MC_SHM_BASE;
	dla_u32 err;
	dla_s32 ret;

	err = fw_shm_check(shm);
	if (err) {
		/* the console only: the log ring is not known to be usable */
		dla_error("fw: bad shared memory header: reason %u\n", err);
		fw_status(VPUX_MC_STATUS_ERROR | err << 8);
		fw_stop();
	}
	fw_shm = shm;
	fw_log_attach(fw_shm_at(rd(&shm->log_offset)), rd(&shm->log_size),
		      &shm->log_tail);
	fw_log("%s: abi %u.%u, %u tasks, %u ops, %u barriers, %u deps\n",
	       vpux_fw_header.version, VPUX_FW_ABI_MAJOR, VPUX_FW_ABI_MINOR,
	       DLA_MAX_TASKS, DLA_MAX_OPS_PER_TASK, DLA_MAX_BARRIERS,
	       DLA_MAX_DEPS_PER_TASK);

	ret = dla_register_driver(&fw_engine, fw_engine_mem,
				  sizeof(fw_engine_mem), NULL);
	if (ret) {
		dla_error("fw: the engine core refused the NPU: %d\n", ret);
		fw_status(VPUX_MC_STATUS_ERROR | VPUX_FW_ERR_NPU << 8);
		fw_stop();
	}
	/*
	 * dla_register_driver() unmasked VPUX_IRQ_ALL in IRQ_MASK; this
	 * core's view of it holds VPUX_MC_IRQ_BITS only (the CMX-clear bit
	 * is the host's): say exactly that.
	 */
	dla_reg_write(NULL, VPUX_REG_IRQ_MASK, VPUX_MC_IRQ_BITS);
	fw_progress();
	/* zicsr is part of rv32imac; newer binutils want it named */
	__asm__ volatile(".option push\n.option arch, +zicsr\n"
			 "csrw mie, %0\n.option pop" : :
			 "r"(FW_MIE_MEIE | FW_MIE_MSIE | FW_MIE_MTIE));
	fw_heartbeat(&fw_next_beat);
	fw_status(VPUX_MC_STATUS_READY);

	for (;;) {
		fw_posted = 0;
		fw_mc_write(VPUX_MC_REG_MSIP, 0);
		fw_fence();
		fw_drain_commands();
		if (dla_isr_handler(fw_engine))
			fw_process_events();
		fw_heartbeat(&fw_next_beat);
		fw_progress();
		if (fw_posted)
			fw_host_irq();
		__asm__ volatile("wfi");
	}
}
