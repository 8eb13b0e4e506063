// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Writes the fuzz corpus seeds (valid tasks of every op kind and graph
 * shape) into the directory given as argument. Run by hand when the task
 * format changes (the plan seeds end with their symbol buffer):
 *   cc -Ifirmware/include -Iinclude/hw -Iuapi/vpux -Iuapi -Ifirmware/tests \
 *      firmware/fuzz/gen_seeds.c -o /tmp/gen && /tmp/gen firmware/fuzz/corpus
 */
#include <stdio.h>
#include <stdlib.h>

#include "task_builder.h"
#include "plan_builder.h"
#include "vpux_regs.h"

/*
 * A plan seed: the plan task, then the symbol buffer (16 u64 slots),
 * which the harness maps as entry 5 (the last 128 bytes of the input).
 */
static void save_plan(const char *dir, const char *name, struct pb *p,
		      const dla_u64 *vals, unsigned int n)
{
	dla_u64 slots[16] = { 0 };
	char path[512];
	FILE *f;

	memcpy(slots, vals, n * 8);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(p->buf, 1, p->size, f) != p->size ||
	    fwrite(slots, 1, sizeof(slots), f) != sizeof(slots))
		exit(1);
	fclose(f);
	free(p->buf);
}

static void save(const char *dir, const char *name, struct tb *t)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(t->buf, 1, t->size, f) != t->size)
		exit(1);
	fclose(f);
	free(t->buf);
}

static void conv(struct dla_dpu_op *d)
{
	d->op = VPUX_DPU_OP_CONV;
	d->flags = VPUX_DPU_F_BIAS;
	d->in_c = 4, d->in_h = 4, d->in_w = 4;
	d->out_c = 4, d->out_h = 4, d->out_w = 4;
	d->kernel_h = d->kernel_w = 3;
	d->stride_h = d->stride_w = 1;
	d->pad_top = d->pad_left = d->pad_bottom = d->pad_right = 1;
	d->dilation_h = d->dilation_w = 1;
	d->groups = 1;
	d->in = tb_cmx(0, 0, 64);
	d->in2 = tb_ref(2, 0, 144);
	d->bias = tb_ref(2, 256, 16);
	d->out = tb_cmx(1, 0, 64);
	d->requant.mult = 1 << 30;
}

/*
 * FP16 ops (VPUX_DPU_F_FP16): the output stage, struct
 * vpux_hw_dpu_fparams, in the words from in_zp (act, two zero words,
 * clamp_lo, clamp_hi, scale, shift, slope, three zero words).
 */
static void fp16_stage(struct dla_dpu_op *d, dla_u32 act, dla_u32 lo,
		       dla_u32 hi, dla_u32 scale, dla_u32 shift, dla_u32 slope)
{
	d->in_zp = (dla_s32)act;
	d->act_min = (dla_s32)lo;
	d->act_max = (dla_s32)hi;
	d->requant.mult = (dla_s32)scale;
	d->requant.shift = (dla_s32)shift;
	d->in_scale.mult = (dla_s32)slope;
}

/* a 4x4x4 FP16 map: 128 bytes */
static void f16_map(struct dla_dpu_op *d, unsigned int op, dla_u32 flags)
{
	d->op = op;
	d->flags = VPUX_DPU_F_FP16 | flags;
	d->in_c = d->out_c = 4, d->in_h = d->in_w = 4;
	d->out_h = d->out_w = 4;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : ".";
	struct tb t;
	unsigned int i;

	/* pipeline: dma -> dpu -> shave -> dma */
	tb_init(&t, NULL, 3, 2, 1, 1);
	tb_copy(&t.dma[0], tb_ref(1, 0, 64), tb_cmx(0, 0, 64), 64);
	tb_update(&t, &t.dma[0].deps, 0);
	conv(&t.dpu[0]);
	tb_wait(&t, &t.dpu[0].deps, 0);
	tb_update(&t, &t.dpu[0].deps, 1);
	t.shave[0].kernel_id = 1;
	t.shave[0].args = tb_ref(3, 0, 64);
	t.shave[0].windows[0] = tb_cmx(1, 0, 256);
	tb_wait(&t, &t.shave[0].deps, 1);
	tb_update(&t, &t.shave[0].deps, 2);
	tb_copy(&t.dma[1], tb_cmx(1, 0, 64), tb_ref(4, 0, 64), 64);
	tb_wait(&t, &t.dma[1].deps, 2);
	save(dir, "pipeline", &t);

	/*
	 * chain of strided copies, the last one into the task memory: after
	 * the task was prepared, so it changes nothing of what runs
	 */
	tb_init(&t, NULL, 4, 5, 0, 0);
	for (i = 0; i < 5; i++) {
		struct dla_dma_op *m = &t.dma[i];

		m->len = 16;
		m->count[0] = 4, m->count[1] = 2, m->count[2] = 1;
		m->src_stride[0] = 32, m->src_stride[1] = 256;
		m->dst_stride[0] = 16, m->dst_stride[1] = 64;
		m->src = tb_ref(1 + i % 4, 0, 1024);
		m->dst = i == 4 ? tb_ref(0, 0, 128) : tb_cmx(i % 2, 0, 128);
		if (i)
			tb_wait(&t, &m->deps, i - 1);
		if (i < 4)
			tb_update(&t, &m->deps, i);
	}
	save(dir, "dma-chain", &t);

	/*
	 * a valid copy of 2^72 one-byte rows onto one byte: the fake engine
	 * refuses it; when its row bound wrapped (three counts of 2^24 make
	 * a 64-bit product of 0) this ran for ever, a fuzzer timeout
	 */
	tb_init(&t, NULL, 4, 1, 0, 0);
	t.dma[0].len = 1;
	t.dma[0].count[0] = t.dma[0].count[1] = t.dma[0].count[2] = 1u << 24;
	t.dma[0].src = tb_ref(1, 0, 1);
	t.dma[0].dst = tb_cmx(0, 0, 1);
	save(dir, "dma-wrapping-rows", &t);

	/* fan-out / fan-in */
	tb_init(&t, NULL, 2, 2, 4, 4);
	tb_copy(&t.dma[0], tb_ref(1, 0, 64), tb_cmx(0, 0, 64), 64);
	tb_update(&t, &t.dma[0].deps, 0);
	for (i = 0; i < 4; i++) {
		struct dla_dpu_op *d = &t.dpu[i];

		d->op = VPUX_DPU_OP_MAXPOOL;
		d->in_c = d->out_c = 4, d->in_h = d->in_w = 4;
		d->out_h = d->out_w = 2;
		d->kernel_h = d->kernel_w = 2;
		d->stride_h = d->stride_w = 2;
		d->in = tb_cmx(0, 0, 64);
		d->out = tb_cmx(1, 16 * i, 16);
		tb_dpu_quant(d);
		tb_wait(&t, &d->deps, 0);
		tb_update(&t, &d->deps, 1);
		t.shave[i].kernel_id = 2;
		t.shave[i].args = tb_ref(3, 64 * i, 64);
		tb_wait(&t, &t.shave[i].deps, 0);
		tb_update(&t, &t.shave[i].deps, 1);
	}
	tb_copy(&t.dma[1], tb_cmx(1, 0, 64), tb_ref(4, 0, 64), 64);
	tb_wait(&t, &t.dma[1].deps, 1);
	save(dir, "fan", &t);

	/* matmul + add, per-channel quant */
	tb_init(&t, NULL, 1, 0, 2, 0);
	t.dpu[0].op = VPUX_DPU_OP_MATMUL;
	t.dpu[0].flags = VPUX_DPU_F_PER_CHANNEL;
	t.dpu[0].in_c = 8, t.dpu[0].in_h = 2, t.dpu[0].in_w = 2;
	t.dpu[0].out_c = 4, t.dpu[0].out_h = 2, t.dpu[0].out_w = 2;
	t.dpu[0].in = tb_ref(1, 0, 32);
	t.dpu[0].in2 = tb_ref(2, 0, 32);
	t.dpu[0].quant = tb_ref(3, 0, 32);
	t.dpu[0].out = tb_ref(4, 0, 16);
	tb_update(&t, &t.dpu[0].deps, 0);
	t.dpu[1].op = VPUX_DPU_OP_ADD;
	t.dpu[1].in_c = t.dpu[1].out_c = 4;
	t.dpu[1].in_h = t.dpu[1].out_h = 2;
	t.dpu[1].in_w = t.dpu[1].out_w = 2;
	t.dpu[1].in = tb_ref(4, 0, 16);
	t.dpu[1].in2 = tb_ref(4, 0, 16);
	t.dpu[1].out = tb_cmx(0, 0, 16);
	tb_dpu_quant(&t.dpu[0]);
	tb_dpu_quant(&t.dpu[1]);
	tb_wait(&t, &t.dpu[1].deps, 0);
	save(dir, "matmul-add", &t);

	/*
	 * FP16: DMA in -> conv (FP32 bias, per-channel records, leaky_ch)
	 * -> add (in2 per channel, per-tensor scale stage, clamp) ->
	 * avgpool (padding counted, leaky) -> sub (in2 one value) out; a
	 * batched matmul with [K][N] weights and FP32 out beside them
	 */
	tb_init(&t, NULL, 4, 1, 5, 0);
	tb_copy(&t.dma[0], tb_ref(1, 0, 128), tb_cmx(0, 0, 128), 128);
	tb_update(&t, &t.dma[0].deps, 0);
	f16_map(&t.dpu[0], VPUX_DPU_OP_CONV,
		VPUX_DPU_F_BIAS | VPUX_DPU_F_PER_CHANNEL);
	t.dpu[0].kernel_h = t.dpu[0].kernel_w = 3;
	t.dpu[0].stride_h = t.dpu[0].stride_w = 1;
	t.dpu[0].pad_top = t.dpu[0].pad_left = 1;
	t.dpu[0].pad_bottom = t.dpu[0].pad_right = 1;
	t.dpu[0].in = tb_cmx(0, 0, 128);
	t.dpu[0].in2 = tb_ref(2, 0, 288);
	t.dpu[0].bias = tb_ref(2, 512, 16);
	t.dpu[0].quant = tb_ref(2, 768, 64);
	t.dpu[0].out = tb_cmx(1, 0, 128);
	fp16_stage(&t.dpu[0], VPUX_DPU_ACT_LEAKY_CH, 0, 0, 0, 0, 0);
	tb_wait(&t, &t.dpu[0].deps, 0);
	tb_update(&t, &t.dpu[0].deps, 1);
	f16_map(&t.dpu[1], VPUX_DPU_OP_ADD, VPUX_DPU_F_SCALE |
		VPUX_DPU_BCAST_C << VPUX_DPU_F_BCAST_SHIFT);
	t.dpu[1].in = tb_cmx(1, 0, 128);
	t.dpu[1].in2 = tb_ref(2, 1024, 8);
	t.dpu[1].out = tb_cmx(0, 256, 128);
	/* x 0.5 + 1, clamped to [-1, 6] */
	fp16_stage(&t.dpu[1], VPUX_DPU_ACT_CLAMP, 0xbf800000u, 0x40c00000u,
		   0x3f000000u, 0x3f800000u, 0);
	tb_wait(&t, &t.dpu[1].deps, 1);
	tb_update(&t, &t.dpu[1].deps, 2);
	f16_map(&t.dpu[2], VPUX_DPU_OP_AVGPOOL, VPUX_DPU_F_COUNT_PAD);
	t.dpu[2].kernel_h = t.dpu[2].kernel_w = 3;
	t.dpu[2].stride_h = t.dpu[2].stride_w = 1;
	t.dpu[2].pad_top = t.dpu[2].pad_left = 1;
	t.dpu[2].pad_bottom = t.dpu[2].pad_right = 1;
	t.dpu[2].in = tb_cmx(0, 256, 128);
	t.dpu[2].out = tb_cmx(1, 256, 128);
	fp16_stage(&t.dpu[2], VPUX_DPU_ACT_LEAKY, 0, 0, 0, 0, 0x3dcccccdu);
	tb_wait(&t, &t.dpu[2].deps, 2);
	tb_update(&t, &t.dpu[2].deps, 3);
	f16_map(&t.dpu[3], VPUX_DPU_OP_SUB,
		VPUX_DPU_BCAST_SCALAR << VPUX_DPU_F_BCAST_SHIFT);
	t.dpu[3].in = tb_cmx(1, 256, 128);
	t.dpu[3].in2 = tb_ref(3, 512, 2);
	t.dpu[3].out = tb_ref(4, 512, 128);
	fp16_stage(&t.dpu[3], VPUX_DPU_ACT_RELU, 0, 0, 0, 0, 0);
	tb_wait(&t, &t.dpu[3].deps, 3);
	/* 2 batches of [2][4] x [4][3], FP32 out */
	t.dpu[4].op = VPUX_DPU_OP_MATMUL;
	t.dpu[4].flags = VPUX_DPU_F_FP16 | VPUX_DPU_F_OUT_F32 |
			 VPUX_DPU_F_BATCH | VPUX_DPU_F_W_KN;
	t.dpu[4].in_c = 4, t.dpu[4].in_h = 2, t.dpu[4].in_w = 2;
	t.dpu[4].out_c = 3, t.dpu[4].out_h = 2, t.dpu[4].out_w = 2;
	t.dpu[4].in = tb_ref(1, 256, 32);
	t.dpu[4].in2 = tb_ref(3, 0, 48);
	t.dpu[4].out = tb_ref(4, 0, 48);
	save(dir, "fp16-ops", &t);

	/* plans: sym_index 5, the trailing symbol buffer */
	{
		static struct pb p;
		struct dla_dma_op *o;
		struct dla_dpu_op *d;
		dla_u64 v[2] = { 77, 0 };

		pb_row_copy(&p, 1, 200, 8, 16);
		pb_finish(&p, 5);
		save_plan(dir, "plan-rows", &p, v, 1);

		/* nested 2-D tiles, two templates (copy, copy on), 2 blocks */
		pb_init(&p);
		pb_symbol(&p, 1, 10);
		pb_symbol(&p, 1, 64);
		pb_block(&p, 2);
		pb_loop(&p, 0, 3, PB_E(PB_T(SYM, 0)));
		pb_loop(&p, 1, 16, PB_E(PB_T(SYM, 1)));
		for (i = 0; i < 2; i++) {
			o = pb_template(&p, DLA_OP_DMA, i);
			o->src.index = 1 + i;
			o->dst.index = 2 + i;
			o->count[1] = o->count[2] = 1;
			o->src_stride[0] = o->dst_stride[0] = 64;
			pb_patch(&p, PB_DMA(len), 4, PB_E(PB_T(LEN, 1)));
			pb_patch(&p, PB_DMA(count[0]), 4, PB_E(PB_T(LEN, 0)));
			pb_patch(&p, PB_DMA(src.offset), 4,
				 PB_E(PB_T(OFF, 0), PB_T(CONST, 64),
				      PB_OP(MUL), PB_T(OFF, 1), PB_OP(ADD)));
			pb_patch(&p, PB_DMA(dst.offset), 4,
				 PB_E(PB_T(OFF, 0), PB_T(CONST, 64),
				      PB_OP(MUL), PB_T(OFF, 1), PB_OP(ADD)));
			pb_patch(&p, PB_DMA(src.size), 4,
				 PB_E(PB_T(LEN, 0), PB_T(CONST, 1), PB_OP(SUB),
				      PB_T(CONST, 64), PB_OP(MUL),
				      PB_T(LEN, 1), PB_OP(ADD)));
			pb_patch(&p, PB_DMA(dst.size), 4,
				 PB_E(PB_T(LEN, 0), PB_T(CONST, 1), PB_OP(SUB),
				      PB_T(CONST, 64), PB_OP(MUL),
				      PB_T(LEN, 1), PB_OP(ADD)));
		}
		pb_block(&p, 0);
		o = pb_template(&p, DLA_OP_DMA, 0);
		tb_copy(o, tb_ref(3, 0, 640), tb_cmx(0, 0, 640), 640);
		v[0] = 7, v[1] = 33;
		pb_finish(&p, 5);
		save_plan(dir, "plan-nested", &p, v, 2);

		/* matmul over a dynamic token count, u16 patches */
		pb_token_matmul(&p, 3);
		v[0] = 37;
		pb_finish(&p, 5);
		save_plan(dir, "plan-tokens", &p, v, 1);
	}
	return 0;
}
