// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Random FP16 DPU jobs against the CPU reference: networks of one to six
 * independent FP16 DPU ops, each of a random kind (conv: grouped,
 * depthwise, strided, dilated, padded; matmul: batched, either weight
 * layout; add/sub/mul with every broadcast; max and average pooling,
 * padding counted or not), random flags (bias, per-tensor or per-channel
 * scale stage, FP32 out), a random activation with random bounds and
 * slopes, and data full of the values FP16 arithmetic gets wrong: +-0,
 * subnormals, the largest finite values, infinities, quiet and
 * signalling NaNs. Everything is written as vpux-asm text (data lines of
 * float values), assembled, validated, run on the in-process device and
 * compared byte for byte with vpux_network_run_reference(), which runs
 * ref/dpu_ref_f16.c.
 *
 * With VPUX_FP16_RANDOM_DIR=DIR it also writes the first VPUX_FP16_SAVE
 * networks as DIR/fp16rand_NNN.vpux (and .vasm): umd/umd.mk puts them into
 * the VM, where vpux-run --check runs each through /dev/accel against
 * the same reference (tools/vm/tests.list, Documentation/testing.rst).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "vasm.h"
#include "vasm_util.h"
#include "vpux.h"
#include "vpux_dpu_rules.h"
#include "vpux_tap.h"

#define NETS		300
#define VPUX_FP16_SAVE	40

static unsigned int rs = 29;

static unsigned int rnd(unsigned int lo, unsigned int hi)
{
	rs = rs * 1103515245u + 12345u;
	return lo + (rs >> 8) % (hi - lo + 1);
}

struct gen {
	struct vt_text t;
};

/* what the draws covered */
static unsigned int n_op[VPUX_DPU_OPS], n_act[VPUX_DPU_ACTS], n_bcast[4];
static unsigned int n_stage[3], n_f32out, n_batch, n_wkn, n_countpad;
static unsigned int n_groups, n_dil;

/*
 * An FP16 value: one time in 8 a special one (zeros, subnormals, the
 * extremes, infinities, NaNs), else a normal value of random mantissa in
 * [2^-6, 2^3) of either sign, written as an exact hex-float.
 */
static void v16(char *b, size_t n)
{
	static const char *const sp[] = {
		"0", "-0", "0x1p-24", "-0x1p-24", "0x1.ff8p-15", "0x1p-14",
		"65504", "-65504", "inf", "-inf", "nan", "-nan", "snan",
		"-snan", "0x1p-20",
	};

	if (!rnd(0, 7)) {
		snprintf(b, n, "%s", sp[rnd(0, sizeof(sp) / sizeof(sp[0]) - 1)]);
		return;
	}
	snprintf(b, n, "%s0x1.%03xp%d", rnd(0, 1) ? "-" : "",
		 rnd(0, 1023) << 2, (int)rnd(0, 9) - 6);
}

/*
 * An FP32 value: the same idea; @nan 0 keeps NaNs out (descriptor
 * fields, where the rules refuse them).
 */
static void v32(char *b, size_t n, int nan, int lo_exp, int hi_exp)
{
	static const char *const sp[] = {
		"0", "-0", "1e-45", "-0x1p-149", "0x1p-126", "inf", "-inf",
		"3.4028235e38", "nan", "snan", "-nan",
	};
	unsigned int k = sizeof(sp) / sizeof(sp[0]) - (nan ? 0 : 3);

	if (!rnd(0, 9)) {
		snprintf(b, n, "%s", sp[rnd(0, k - 1)]);
		return;
	}
	snprintf(b, n, "%s0x1.%06xp%d", rnd(0, 1) ? "-" : "",
		 rnd(0, (1u << 23) - 1) << 1,
		 lo_exp + (int)rnd(0, (unsigned int)(hi_exp - lo_exp)));
}

/* data lines: @elems random values of @type for weights tensor @name */
static void values(struct gen *g, const char *name, const char *type,
		   unsigned int elems, int f32_nan)
{
	unsigned int i, esz = type[1] == '1' ? 2 : 4;
	char v[64];

	for (i = 0; i < elems; i++) {
		if (i % 24 == 0)
			vt_out(&g->t, "%sdata %s[%u:%u] %s ", i ? "\n" : "", name,
			       i * esz, (elems - i < 24 ? elems - i : 24) * esz,
			       type);
		if (esz == 2)
			v16(v, sizeof(v));
		else
			v32(v, sizeof(v), f32_nan, -8, 4);
		vt_out(&g->t, "%s%s", i % 24 ? "," : "", v);
	}
	vt_out(&g->t, "\n");
}

/* a rank-1 weights tensor of @elems random values */
static void data(struct gen *g, const char *name, const char *type,
		 unsigned int elems, int f32_nan)
{
	vt_out(&g->t, "tensor %s %s %u region=weights\n", name, type, elems);
	values(g, name, type, elems, f32_nan);
}

static unsigned int win(unsigned int in, unsigned int pa, unsigned int pb,
			unsigned int k, unsigned int s, unsigned int d)
{
	unsigned int eff = d * (k - 1) + 1;

	return in + pa + pb < eff ? 0 : (in + pa + pb - eff) / s + 1;
}

/* one random FP16 op, number @i: 0 if the draw is unusable */
static int op(struct gen *g, unsigned int i)
{
	unsigned int kind = rnd(0, 6), c = rnd(1, 12), h = rnd(1, 6);
	unsigned int w = rnd(1, 6), oc = c, oh = h, ow = w, stage, act;
	unsigned int k = 1, kw = 1, s = 1, sw = 1, d = 1, gr = 1, bc = 0;
	unsigned int pt = 0, pl = 0, pb = 0, pr = 0, f32out = rnd(0, 3) == 0;
	int bias = 0, batch = 0, wkn = 0, cpad = 0;
	char name[16], fields[512] = "", words[64] = "", v[64], v2[64];
	static const unsigned int opcode[] = {
		VPUX_DPU_OP_CONV, VPUX_DPU_OP_MATMUL, VPUX_DPU_OP_ADD,
		VPUX_DPU_OP_SUB, VPUX_DPU_OP_MUL, VPUX_DPU_OP_MAXPOOL,
		VPUX_DPU_OP_AVGPOOL,
	};
	static const char *const opname[] = {
		"conv", "matmul", "add", "sub", "mul", "maxpool", "avgpool",
	};

	switch (kind) {
	case 0:		/* conv */
		oc = rnd(1, 12);
		k = rnd(1, 3), kw = rnd(1, 3), s = rnd(1, 2), sw = rnd(1, 2);
		d = rnd(1, 2);
		pt = rnd(0, 1), pl = rnd(0, 1), pb = rnd(0, 1), pr = rnd(0, 1);
		gr = rnd(0, 2) ? 1 : rnd(0, 1) ? c : rnd(1, c);
		if (c % gr)
			gr = 1;
		if (gr == c && gr > 1)
			oc = c * rnd(1, 2);	/* depthwise, multiplier 1 or 2 */
		else if (oc % gr)
			oc = gr * rnd(1, 3);
		oh = win(h, pt, pb, k, s, d);
		ow = win(w, pl, pr, kw, sw, d);
		if (!oh || !ow)
			return 0;
		snprintf(name, sizeof(name), "w%u", i);
		data(g, name, "f16", oc * k * kw * (c / gr), 1);
		n_groups += gr > 1;
		n_dil += d > 1;
		snprintf(fields, sizeof(fields),
			 " kernel_h=%u kernel_w=%u stride_h=%u stride_w=%u dilation_h=%u dilation_w=%u pad_top=%u pad_left=%u pad_bottom=%u pad_right=%u groups=%u",
			 k, kw, s, sw, d, d, pt, pl, pb, pr, gr);
		bias = rnd(0, 1);
		break;
	case 1:		/* matmul: K = c, M = h * w rows, N = oc */
		oc = rnd(1, 12);
		c = rnd(1, 24);
		batch = rnd(0, 1);
		wkn = rnd(0, 1);
		snprintf(name, sizeof(name), "w%u", i);
		data(g, name, "f16", oc * c * (batch ? h : 1), 1);
		snprintf(words, sizeof(words), "%s%s", batch ? " batch" : "",
			 wkn ? " w_kn" : "");
		n_batch += batch;
		n_wkn += wkn;
		bias = rnd(0, 1);
		break;
	case 2: case 3: case 4:	/* add, sub, mul; in2 broadcast */
		bc = rnd(0, 3);
		snprintf(name, sizeof(name), "w%u", i);
		data(g, name, "f16", bc == VPUX_DPU_BCAST_C ? c :
				     bc == VPUX_DPU_BCAST_HW ? h * w :
				     bc == VPUX_DPU_BCAST_SCALAR ? 1 : c * h * w, 1);
		snprintf(fields, sizeof(fields), " bcast=%s",
			 vasm_name_of(vasm_bcasts, bc));
		n_bcast[bc]++;
		break;
	default:	/* pools */
		k = rnd(1, 3), kw = rnd(1, 3), s = rnd(1, 2), sw = rnd(1, 2);
		pt = rnd(0, 1), pl = rnd(0, 1), pb = rnd(0, 1), pr = rnd(0, 1);
		oh = win(h, pt, pb, k, s, 1);
		ow = win(w, pl, pr, kw, sw, 1);
		if (!oh || !ow)
			return 0;
		cpad = kind == 6 && rnd(0, 1);
		n_countpad += cpad;
		snprintf(fields, sizeof(fields),
			 " kernel_h=%u kernel_w=%u stride_h=%u stride_w=%u pad_top=%u pad_left=%u pad_bottom=%u pad_right=%u",
			 k, kw, s, sw, pt, pl, pb, pr);
		if (cpad)
			snprintf(words, sizeof(words), " count_pad");
		break;
	}
	/* the activations: in the weights too, to hold the special values */
	snprintf(name, sizeof(name), "a%u", i);
	vt_out(&g->t, "tensor %s f16 1x%ux%ux%u order=NHWC region=weights\n", name,
	       c, h, w);
	values(g, name, "f16", c * h * w, 1);
	if (bias) {
		snprintf(name, sizeof(name), "b%u", i);
		data(g, name, "f32", oc, 1);
	}
	/* the scale stage: none, per tensor, per channel */
	stage = rnd(0, 2);
	act = rnd(0, VPUX_DPU_ACTS - 1);
	n_stage[stage]++;
	n_act[act]++;
	n_op[opcode[kind]]++;
	n_f32out += f32out;
	if (stage == 2 || act == VPUX_DPU_ACT_LEAKY_CH) {
		/* records: scale, shift, slope, reserved: any bits at all */
		snprintf(name, sizeof(name), "q%u", i);
		data(g, name, "f32", 4 * oc, 1);
	}
	if (stage == 1) {
		v32(v, sizeof(v), 0, -4, 2);
		v32(v2, sizeof(v2), 0, -4, 2);
		snprintf(fields + strlen(fields), sizeof(fields) - strlen(fields),
			 " scale=%s shift=%s", v, v2);
	}
	if (stage == 2)
		strcat(words, " per_channel");
	snprintf(fields + strlen(fields), sizeof(fields) - strlen(fields),
		 " act=%s", vasm_name_of(vasm_acts, act));
	if (act == VPUX_DPU_ACT_CLAMP) {
		uint32_t lo, hi;
		const char *why;

		do {
			v32(v, sizeof(v), 0, -3, 3);
			v32(v2, sizeof(v2), 0, -3, 3);
		} while (vasm_float_parse(v, VPUX_DT_F32, &lo, &why) ||
			 vasm_float_parse(v2, VPUX_DT_F32, &hi, &why) ||
			 vpux_dpu_f32_lt(hi, lo));
		snprintf(fields + strlen(fields), sizeof(fields) - strlen(fields),
			 " clamp_lo=%s clamp_hi=%s", v, v2);
	}
	if (act == VPUX_DPU_ACT_LEAKY) {
		v32(v, sizeof(v), 0, -5, 1);
		snprintf(fields + strlen(fields), sizeof(fields) - strlen(fields),
			 " slope=%s", v);
	}
	vt_out(&g->t, "output o%u %s 1x%ux%ux%u order=NHWC\n", i, f32out ? "f32" : "f16",
	       oc, oh, ow);
	vt_out(&g->t, "dpu %s%s in=a%u", opname[kind], words, i);
	if (kind <= 4)
		vt_out(&g->t, " in2=w%u", i);
	if (bias)
		vt_out(&g->t, " bias=b%u", i);
	if (stage == 2 || act == VPUX_DPU_ACT_LEAKY_CH)
		vt_out(&g->t, " quant=q%u", i);
	vt_out(&g->t, " out=o%u%s\n", i, fields);
	return 1;
}

static void make_net(char *buf, size_t size, unsigned int idx)
{
	struct gen g = { { buf, size } };
	unsigned int want = rnd(1, 6), n = 0, tries = 0;

	vt_out(&g.t, "# random FP16 DPU job %u (umd/tests/test_fp16_random.c)\n"
		   "network fp16rand_%03u\n", idx, idx);
	while (n < want && tries++ < 50) {
		char *at = g.t.p;
		size_t left = g.t.left;

		if (op(&g, n))
			n++;
		else
			g.t.p = at, g.t.left = left, *at = 0;
	}
}

static int save(const char *dir, unsigned int i, const char *text,
		const void *data, size_t n)
{
	char path[4096];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/fp16rand_%03u.vasm", dir, i);
	f = fopen(path, "w");
	ok = f && fputs(text, f) >= 0;
	if (f)
		ok &= !fclose(f);
	snprintf(path, sizeof(path), "%s/fp16rand_%03u.vpux", dir, i);
	f = fopen(path, "wb");
	ok &= f && fwrite(data, 1, n, f) == n;
	if (f)
		ok &= !fclose(f);
	return ok;
}

int main(void)
{
	const char *dir = getenv("VPUX_FP16_RANDOM_DIR");
	unsigned int i, j, ran = 0, bad = 0, ops = 0, saved = 0, nan = 0;
	unsigned int total = 0, rt_bad = 0, refused = 0, covered = 1;
	struct vpux_device *dev;
	static char text[1 << 18];

	if (!tap_check(!vpux_device_open("inproc", &dev), "device"))
		return tap_finish();
	for (i = 0; i < NETS; i++) {
		struct vpux_network *net;
		struct vpux_request *req;
		struct vpux_buffer *ob[8];
		void *ref[8];
		struct vpux_tensor_desc d;
		struct lf_image img, back;
		void *bytes, *bytes2;
		unsigned int nout;
		size_t n, n2;
		int r;

		make_net(text, sizeof(text), i);
		if (asm_text("random", text, NULL, &img, stderr)) {
			bad++;
			tap_diag("assembler refused:\n%s", text);
			continue;
		}
		if (lf_validate(&img)) {
			refused++;	/* the generator draws valid ops only */
			tap_diag("refused: %s\n%s", vpux_last_error(), text);
			asm_free(&img);
			continue;
		}
		ops += img.n_dpu;
		lf_write_mem(&img, &bytes, &n);
		asm_free(&img);
		if (lf_parse(bytes, n, &back) ||
		    lf_write_mem(&back, &bytes2, &n2) || n2 != n ||
		    memcmp(bytes, bytes2, n))
			rt_bad++;
		else
			free(bytes2);
		lf_image_free(&back);
		if (dir && saved < VPUX_FP16_SAVE &&
		    save(dir, saved, text, bytes, n))
			saved++;
		r = vpux_network_load(dev, bytes, n, &net);
		free(bytes);
		if (r) {
			bad++;
			tap_diag("load: %s\n%s", vpux_last_error(), text);
			continue;
		}
		nout = vpux_network_num_outputs(net);
		r = vpux_request_create(net, &req);
		for (j = 0; !r && j < nout; j++) {
			vpux_network_output(net, j, &d);
			r = vpux_buffer_alloc(dev, d.size, &ob[j]);
			if (!r) {
				memset(vpux_buffer_map(ob[j]), 0xa5, d.size);
				r = vpux_request_bind_output(req, j, ob[j], 0);
			}
			ref[j] = calloc(1, d.size);
		}
		r = r ? r : vpux_request_submit(req);
		r = r ? r : vpux_request_wait(req, 10000);
		r = r ? r : vpux_network_run_reference(net, NULL, ref);
		for (j = 0; j < nout; j++) {
			const uint8_t *o = vpux_buffer_map(ob[j]);
			size_t e, es;

			vpux_network_output(net, j, &d);
			es = d.data_type == VPUX_DT_F32 ? 4 : 2;
			if (r || memcmp(o, ref[j], d.size)) {
				bad++;
				tap_diag("output %u differs (%d %s):\n%s", j, r,
					 vpux_last_error(), text);
				r = -1;
			}
			for (e = 0; e < d.size / es; e++) {
				uint32_t x = es == 4 ?
					(uint32_t)o[4 * e] | o[4 * e + 1] << 8 |
					o[4 * e + 2] << 16 | (uint32_t)o[4 * e + 3] << 24 :
					(uint32_t)(o[2 * e] | o[2 * e + 1] << 8);

				nan += es == 4 ? (x & 0x7fffffffu) > 0x7f800000u :
						 (x & 0x7fffu) > 0x7c00u;
				total++;
			}
			free(ref[j]);
			vpux_buffer_free(ob[j]);
		}
		ran++;
		vpux_request_destroy(req);
		vpux_network_unload(net);
	}
	tap_check(ran == NETS && !refused,
		  "%u random FP16 networks, %u DPU ops, ran (%u refused by the loader)",
		  ran, ops, refused);
	tap_check(!bad, "every output matches the CPU reference bit for bit (%u bad)",
		  bad);
	tap_check(nan * 2 < total,
		  "outputs are not degenerate: %u of %u values NaN", nan, total);
	tap_check(!rt_bad, "parse + write reproduces every loadable (%u differ)",
		  rt_bad);
	for (i = 0; i < VPUX_DPU_OPS; i++)
		covered &= n_op[i] > 0;
	for (i = 0; i < VPUX_DPU_ACTS; i++)
		covered &= n_act[i] > 0;
	for (i = 0; i < 4; i++)
		covered &= n_bcast[i] > 0;
	for (i = 0; i < 3; i++)
		covered &= n_stage[i] > 0;
	covered &= n_f32out && n_batch && n_wkn && n_countpad && n_groups &&
		   n_dil;
	tap_check(covered,
		  "every op (%u conv, %u matmul, %u add, %u sub, %u mul, %u maxpool, %u avgpool), activation, broadcast, scale stage, out_f32 (%u), batch (%u), w_kn (%u), count_pad (%u), groups (%u), dilation (%u) drawn",
		  n_op[VPUX_DPU_OP_CONV], n_op[VPUX_DPU_OP_MATMUL],
		  n_op[VPUX_DPU_OP_ADD], n_op[VPUX_DPU_OP_SUB],
		  n_op[VPUX_DPU_OP_MUL], n_op[VPUX_DPU_OP_MAXPOOL],
		  n_op[VPUX_DPU_OP_AVGPOOL], n_f32out, n_batch, n_wkn,
		  n_countpad, n_groups, n_dil);
	if (dir)
		tap_check(saved == VPUX_FP16_SAVE, "%u networks written to %s",
			  saved, dir);
	vpux_device_close(dev);
	return tap_finish();
}
