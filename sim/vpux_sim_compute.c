// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vpux NPU model: the DPU and SHAVE engines. Both fetch their operands
 * through the MMU (or straight from CMX), hand them to the compute kernels
 * of sim/ops/, and store results through the MMU.
 *
 * DPU: the descriptor is validated and sized by vpux_dpu_extents(); every
 * operand range is then checked (reads and the output write) before any
 * data moves, so a fault stores nothing. Input operands in CMX are used in
 * place (but the requant records, checked before use), and so are those
 * in system memory where the platform shows it contiguous in place
 * (env->phys_ptr: the host's arena, not the kernel); the output always
 * goes through a buffer and is stored once the kernel succeeded.
 *
 * SHAVE: the argument buffer is copied in; the kernel reaches memory only
 * through window addresses, which this file translates: window bounds
 * first (VPUX_ENG_ERR_ARGS), then the MMU.
 */

#include "vpux_ops.h"
#include "vpux_sim_priv.h"
#include "vpux_shave_elf.h"

/* Largest operand a DPU op may touch; beyond it the model is out of memory. */
#define VPUX_SIM_DPU_MAX_OPERAND	(256ull << 20)

struct dpu_operand {
	u64 addr;
	u64 len;
	const void *ptr;	/* data, in CMX or in @buf */
	void *buf;		/* owned buffer or NULL */
};

/*
 * The kernels' yield: give the CPU away, and stop the kernel if the op
 * was aborted or reset meanwhile (see VPUX_DPU_YIELD_WORK for how often
 * the DPU kernels call it, struct vpux_shave_mem for SHAVE).
 */
static bool op_yield(void *arg)
{
	struct vpux_sim_op *op = arg;

	op->sim->ops->yield(op->sim->env);
	return vpux_sim_op_cancelled(op);
}

/*
 * Fetch a read operand: in place if @in_place allows it, it is CMX and
 * suitably aligned.
 */
static int dpu_fetch(struct vpux_sim_op *op, struct dpu_operand *o, u32 align,
		     bool in_place)
{
	struct vpux_sim *sim = op->sim;
	int ret;

	if (!o->len)
		return 0;
	if (in_place && vpux_sim_is_cmx(sim, o->addr, o->len) &&
	    !(o->addr & (align - 1))) {
		/* still an access: lets an injected fault hit it */
		ret = vpux_sim_mem_check(op, o->addr, o->len, false);
		if (ret)
			return ret;
		o->ptr = sim->cmx + (o->addr - sim->cmx_base);
		return 0;
	}
	if (in_place && !(o->addr & (align - 1))) {
		/* system memory the platform can show in place */
		o->ptr = vpux_sim_mem_ptr(op, o->addr, o->len);
		if (o->ptr)
			return 0;
	}
	o->buf = sim->ops->alloc(sim->env, o->len);
	if (!o->buf)
		return -VPUX_ENG_ERR_NOMEM;
	o->ptr = o->buf;
	return vpux_sim_mem_read(op, o->addr, o->buf, o->len);
}

/* run the kernel on fetched operands (in, in2, bias, quant, out) and store */
static noinline_for_stack int dpu_compute(struct vpux_sim_op *op,
					  const struct vpux_hw_dpu_desc *d,
					  const struct dpu_operand *opd)
{
	struct vpux_dpu_operands o;
	int ret;

	memset(&o, 0, sizeof(o));
	o.in = opd[0].ptr;
	o.in2 = opd[1].ptr;
	o.bias = opd[2].ptr;
	o.quant = opd[3].ptr;
	o.out = opd[4].buf;
	o.yield = op_yield;
	o.yield_arg = op;
	ret = vpux_dpu_run(d, &o);
	if (!ret)
		ret = vpux_sim_mem_write(op, d->out, opd[4].buf, opd[4].len);
	if (!ret)
		op->cycles = vpux_dpu_cycles(d);
	return ret;
}

/*
 * Size, check and fetch the operands, then compute. Split from
 * vpux_sim_dpu_exec() (and dpu_compute() from this) to keep the model's
 * stack frames small on kernel stacks.
 */
static noinline_for_stack int dpu_exec(struct vpux_sim_op *op,
				       const struct vpux_hw_dpu_desc *d)
{
	struct vpux_sim *sim = op->sim;
	struct vpux_dpu_extents ext;
	/* in, in2, bias, quant, out */
	struct dpu_operand opd[5];
	int ret, i;

	memset(opd, 0, sizeof(opd));
	ret = vpux_dpu_extents(d, &ext);
	if (ret)
		return ret;
	opd[0].addr = d->in;
	opd[0].len = ext.in;
	opd[1].addr = d->in2;
	opd[1].len = ext.in2;
	opd[2].addr = d->bias;
	opd[2].len = ext.bias;
	opd[3].addr = d->quant;
	opd[3].len = ext.quant;
	opd[4].addr = d->out;
	opd[4].len = ext.out;
	for (i = 0; i < 5; i++) {
		if (opd[i].len > VPUX_SIM_DPU_MAX_OPERAND)
			return -VPUX_ENG_ERR_NOMEM;
	}

	/* check everything before the first byte moves */
	for (i = 0; i < 5 && !ret; i++)
		ret = vpux_sim_mem_check(op, opd[i].addr, opd[i].len, i == 4);
	/*
	 * Requant records are validated before use: they are always copied,
	 * so that another engine storing into the same CMX bytes meanwhile
	 * (which the driver must not let happen) can only change the data.
	 */
	for (i = 0; i < 4 && !ret; i++)
		ret = dpu_fetch(op, &opd[i], i < 2 ? 1 : 4, i != 3);
	if (ret)
		goto out;
	opd[4].buf = sim->ops->alloc(sim->env, opd[4].len ? opd[4].len : 1);
	if (!opd[4].buf) {
		ret = -VPUX_ENG_ERR_NOMEM;
		goto out;
	}
	ret = dpu_compute(op, d, opd);
out:
	for (i = 0; i < 5; i++)
		if (opd[i].buf)
			sim->ops->free(sim->env, opd[i].buf);
	return ret;
}

void vpux_sim_dpu_exec(struct vpux_sim_op *op)
{
	struct vpux_hw_dpu_desc d;
	int ret;

	memcpy(&d, op->words, sizeof(d));
	ret = dpu_exec(op, &d);
	if (ret)
		op->err = -ret;
	if (op->fault.reason)
		op->err = VPUX_ENG_ERR_MMU;
	if (op->err && !op->cycles)
		op->cycles = VPUX_SIM_ERR_CYCLES;
}

/* ---- SHAVE ---- */

struct shave_ctx {
	struct vpux_sim_op *op;
	const struct vpux_hw_shave_desc *d;
};

static int shave_addr(const struct shave_ctx *c, u32 waddr, u32 len, u64 *addr)
{
	u32 win = VPUX_WADDR_WINDOW(waddr), off = VPUX_WADDR_OFFSET(waddr);

	if (win >= VPUX_SHAVE_WINDOWS)
		return -VPUX_ENG_ERR_ARGS;
	if (off > c->d->window_size[win] || len > c->d->window_size[win] - off)
		return -VPUX_ENG_ERR_ARGS;
	*addr = c->d->window_base[win] + off;
	if (*addr < c->d->window_base[win])
		return -VPUX_ENG_ERR_ARGS;
	return 0;
}

static int shave_read(void *ctx, u32 waddr, void *dst, u32 len)
{
	struct shave_ctx *c = ctx;
	u64 addr;
	int ret;

	ret = shave_addr(c, waddr, len, &addr);
	if (ret)
		return ret;
	return vpux_sim_mem_read(c->op, addr, dst, len);
}

static int shave_write(void *ctx, u32 waddr, const void *src, u32 len)
{
	struct shave_ctx *c = ctx;
	u64 addr;
	int ret;

	ret = shave_addr(c, waddr, len, &addr);
	if (ret)
		return ret;
	vpux_sim_op_yield(c->op, len);
	return vpux_sim_mem_write(c->op, addr, src, len);
}

static void *shave_alloc(void *ctx, size_t size)
{
	struct shave_ctx *c = ctx;

	return c->op->sim->ops->alloc(c->op->sim->env, size);
}

static void shave_free(void *ctx, void *ptr)
{
	struct shave_ctx *c = ctx;

	c->op->sim->ops->free(c->op->sim->env, ptr);
}

static bool shave_yield(void *ctx)
{
	struct shave_ctx *c = ctx;

	return op_yield(c->op);
}

void vpux_sim_shave_exec(struct vpux_sim_op *op)
{
	struct vpux_sim *sim = op->sim;
	struct vpux_hw_shave_desc d;
	struct vpux_shave_mem mem;
	struct shave_ctx c;
	void *args = NULL;
	u64 cycles = 0;
	int ret;

	memcpy(&d, op->words, sizeof(d));
	if (d.kernel_id == VPUX_SHAVE_KERNEL_ELF) {
		vpux_sim_shave_elf_exec(op);
		return;
	}
	if (d.args_size > VPUX_SHAVE_ARGS_MAX) {
		ret = -VPUX_ENG_ERR_DESC;
		goto out;
	}
	args = sim->ops->alloc(sim->env, d.args_size ? d.args_size : 1);
	if (!args) {
		ret = -VPUX_ENG_ERR_NOMEM;
		goto out;
	}
	ret = vpux_sim_mem_read(op, d.args, args, d.args_size);
	if (ret)
		goto out;

	c.op = op;
	c.d = &d;
	mem.ctx = &c;
	mem.read = shave_read;
	mem.write = shave_write;
	mem.alloc = shave_alloc;
	mem.free = shave_free;
	mem.yield = shave_yield;
	ret = vpux_shave_run(d.kernel_id, args, d.args_size, &mem, &cycles);
	if (!ret)
		op->cycles = cycles;
out:
	if (args)
		sim->ops->free(sim->env, args);
	if (ret)
		op->err = -ret;
	if (op->fault.reason)
		op->err = VPUX_ENG_ERR_MMU;
	if (op->err && !op->cycles)
		op->cycles = VPUX_SIM_ERR_CYCLES;
}
