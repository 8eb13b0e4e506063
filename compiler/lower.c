// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Lowering: the ONNX graph (QOperator or QDQ form) into the NPU program
 * of lower.h. Nodes are visited in topological order:
 *
 * - a float value that is DequantizeLinear(x) is a *quantized view* of
 *   x's device tensor (vq[] maps it to a qt carrying the scale and zero
 *   point); MaxPool, Relu, Clip, Reshape, Flatten, Transpose keep a view
 *   a view (max and clamps commute with the monotonic dequantization);
 * - a float compute node (Conv, MatMul, Gemm, Add, Mul, AveragePool,
 *   GlobalAveragePool, Softmax, Sigmoid, Tanh) whose inputs are views is
 *   *pending*; Relu/Clip after it narrow its output clamp; the
 *   QuantizeLinear that consumes it gives the output's scale, zero point
 *   and type, and only then is it lowered to one int8 NPU op (the
 *   pattern table of qdq_patterns.c says which ops, inputs and lowering);
 * - QuantizeLinear of a view requantizes it (or is nothing when the
 *   parameters agree); QuantizeLinear of a float graph input and
 *   DequantizeLinear to a graph output are the host's boundary
 *   conversions (vpuxc_io);
 * - QLinearConv, QLinearMatMul work on integer tensors directly.
 *
 * Anything else is reported, every node at once, by vc_unsupported().
 *
 * This file: program building, layouts and the node walk; the quantized
 * path's ops are in lower_qdpu.c, lower_qshave.c and lower_qdq.c
 * (lower_q.h), the float path's in fp16.c and the op families ops_*.c.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "lower_q.h"
#include "vpux_dpu_rules.h"


/* ---- program building ---- */

int vc_grow(void **a, unsigned int *cap, unsigned int n, size_t el)
{
	void *q;
	unsigned int c;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : 64;
	q = realloc(*a, el * c);
	if (!q)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	memset((char *)q + el * *cap, 0, el * (c - *cap));
	*a = q;
	*cap = c;
	return 0;
}

int vc_new_qt(struct qprog *p, int32_t dt, unsigned int rank,
	      const int64_t *dims, uint64_t order)
{
	struct qt *t;
	uint64_t size = vc_dt_bytes(dt);
	unsigned int i;

	if (rank > QT_MAX_RANK)
		return vpux_err(VPUX_E_UNSUPPORTED, "compiler: rank %u above %d",
				rank, QT_MAX_RANK);
	if (vc_grow((void **)&p->t, &p->cap_t, p->nt, sizeof(*p->t)))
		return VPUX_E_NOMEM;
	t = &p->t[p->nt];
	memset(t, 0, sizeof(*t));
	t->dt = dt;
	t->rank = rank ? rank : 1;
	for (i = 0; i < t->rank; i++) {
		t->dims[i] = rank ? dims[i] : 1;
		if (t->dims[i] <= 0 || t->dims[i] > (1ll << 30))
			return vpux_err(VPUX_E_UNSUPPORTED,
					"compiler: dim %lld out of range",
					(long long)t->dims[i]);
		size *= (uint64_t)t->dims[i];
		if (size > (1ull << 32))
			return vpux_err(VPUX_E_UNSUPPORTED,
					"compiler: tensor above 4 GiB");
	}
	t->order = order ? order : vpux_order_default(t->rank).code;
	t->size = size;
	t->alias = -1;
	t->def = -1;
	t->last = -1;
	t->sym = -1;
	t->dyn_dim = -1;
	t->region = QR_SCRATCH;
	return (int)p->nt++;
}

int vc_emit_op(struct qprog *p, int kind, int node, const char *fmt, ...)
{
	struct qop *o;
	va_list ap;
	int n;

	if (vc_grow((void **)&p->op, &p->cap_op, p->nop, sizeof(*p->op)))
		return VPUX_E_NOMEM;
	o = &p->op[p->nop];
	memset(o, 0, sizeof(*o));
	o->kind = kind;
	o->node = node;
	va_start(ap, fmt);
	n = vasprintf(&o->text, fmt, ap);
	va_end(ap);
	if (n < 0)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	return (int)p->nop++;
}

void vc_op_uses(struct qprog *p, int op, int t)
{
	struct qop *o = &p->op[op];

	if (o->nt < QOP_MAX_T)
		o->t[o->nt++] = t;
}

static const char *const dpu_names[] = {
	"conv", "matmul", "add", "mul", "maxpool", "avgpool", "sub",
};

static const char *const act_names[] = {
	"none", "relu", "clamp", "leaky", "leaky_ch",
};

/* an FP32 field as a vpux-asm float value (exact: C99 hex float) */
static void fval(char *buf, size_t len, const char *name, uint32_t bits)
{
	float f;

	memcpy(&f, &bits, sizeof(f));
	snprintf(buf, len, " %s=%a", name, (double)f);
}

/* an FP16 op's output stage, vpux-asm fields */
static void fstage(const struct vpux_hw_dpu_desc *d, char *buf, size_t len)
{
	const struct vpux_hw_dpu_fparams *f = &d->f;
	size_t o;

	snprintf(buf, len, " act=%s", act_names[f->act < 5 ? f->act : 0]);
	o = strlen(buf);
	if (f->act == VPUX_DPU_ACT_CLAMP) {
		fval(buf + o, len - o, "clamp_lo", f->clamp_lo);
		o = strlen(buf);
		fval(buf + o, len - o, "clamp_hi", f->clamp_hi);
		o = strlen(buf);
	}
	if (f->act == VPUX_DPU_ACT_LEAKY) {
		fval(buf + o, len - o, "slope", f->slope);
		o = strlen(buf);
	}
	if (d->flags & VPUX_DPU_F_SCALE) {
		fval(buf + o, len - o, "scale", f->scale);
		o = strlen(buf);
		fval(buf + o, len - o, "shift", f->shift);
	}
}

char *vc_dpu_text(const struct qdpu *q)
{
	static const char *const on[QD_N] = { "in", "in2", "bias", "quant", "out" };
	const struct vpux_hw_dpu_desc *d = &q->d;
	char ops[5][64], *s = NULL;
	unsigned int i;

	for (i = 0; i < QD_N; i++) {
		if (q->t[i] < 0)
			ops[i][0] = 0;
		else if (q->len[i])
			snprintf(ops[i], sizeof(ops[i]), " %s=t%d[%llu:%llu]", on[i],
				 q->t[i], (unsigned long long)q->off[i],
				 (unsigned long long)q->len[i]);
		else
			snprintf(ops[i], sizeof(ops[i]), " %s=t%d", on[i], q->t[i]);
	}
	if (d->flags & VPUX_DPU_F_FP16) {
		char st[256];

		fstage(d, st, sizeof(st));
		if (asprintf(&s,
			     "dpu %s%s%s%s%s%s flags=%u in_c=%u in_h=%u in_w=%u out_c=%u out_h=%u out_w=%u kernel_h=%u kernel_w=%u stride_h=%u stride_w=%u pad_top=%u pad_left=%u pad_bottom=%u pad_right=%u dilation_h=%u dilation_w=%u groups=%u%s",
			     dpu_names[d->op % 7], ops[0], ops[1], ops[2], ops[3],
			     ops[4], d->flags, d->in_c, d->in_h, d->in_w,
			     d->out_c, d->out_h, d->out_w, d->kernel_h,
			     d->kernel_w, d->stride_h, d->stride_w, d->pad_top,
			     d->pad_left, d->pad_bottom, d->pad_right,
			     d->dilation_h, d->dilation_w, d->groups, st) < 0)
			return NULL;
		return s;
	}
	if (asprintf(&s,
		     "dpu %s%s%s%s%s%s flags=%u in_c=%u in_h=%u in_w=%u out_c=%u out_h=%u out_w=%u kernel_h=%u kernel_w=%u stride_h=%u stride_w=%u pad_top=%u pad_left=%u pad_bottom=%u pad_right=%u dilation_h=%u dilation_w=%u groups=%u in_zp=%d in2_zp=%d out_zp=%d act_min=%d act_max=%d requant=%d,%d in_scale=%d,%d in2_scale=%d,%d",
		     dpu_names[d->op], ops[0], ops[1], ops[2], ops[3], ops[4],
		     d->flags, d->in_c, d->in_h, d->in_w, d->out_c, d->out_h,
		     d->out_w, d->kernel_h, d->kernel_w, d->stride_h,
		     d->stride_w, d->pad_top, d->pad_left, d->pad_bottom,
		     d->pad_right, d->dilation_h, d->dilation_w, d->groups,
		     d->in_zp, d->in2_zp, d->out_zp, d->act_min, d->act_max,
		     d->requant.mult, d->requant.shift, d->in_scale.mult,
		     d->in_scale.shift, d->in2_scale.mult,
		     d->in2_scale.shift) < 0)
		return NULL;
	return s;
}

int vc_emit_dpu(struct qprog *p, int node, const struct qdpu *q)
{
	struct vpux_dpu_extents ext;
	enum vpux_dpu_rule r;
	struct qop *o;
	unsigned int i;

	r = vpux_dpu_check(&q->d, &ext);
	if (r)
		return vpux_err(VPUX_E_INVAL,
				"compiler: internal error: a %s descriptor breaks the DPU rule on '%s'",
				dpu_names[q->d.op % 7], vpux_dpu_rule_field(r));
	if (vc_grow((void **)&p->op, &p->cap_op, p->nop, sizeof(*p->op)))
		return VPUX_E_NOMEM;
	o = &p->op[p->nop];
	memset(o, 0, sizeof(*o));
	o->kind = QOP_DPU;
	o->node = node;
	o->dpu = malloc(sizeof(*o->dpu));
	if (!o->dpu)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	*o->dpu = *q;
	o->macs = ext.macs;
	o->tiles = 1;
	for (i = 0; i < QD_N; i++)
		if (q->t[i] >= 0)
			vc_op_uses(p, (int)p->nop, q->t[i]);
	return (int)p->nop++;
}

/* a descriptor with the fields every op sets */
void vc_dpu_init(struct qdpu *q, unsigned int op, unsigned int flags)
{
	unsigned int i;

	memset(q, 0, sizeof(*q));
	for (i = 0; i < QD_N; i++)
		q->t[i] = -1;
	q->d.op = op;
	q->d.flags = flags;
	if (op == VPUX_DPU_OP_MATMUL || op == VPUX_DPU_OP_ADD ||
	    op == VPUX_DPU_OP_MUL || op == VPUX_DPU_OP_SUB) {
		q->d.kernel_h = q->d.kernel_w = 1;
		q->d.stride_h = q->d.stride_w = 1;
		q->d.dilation_h = q->d.dilation_w = 1;
		q->d.groups = 1;
	}
}

void vc_unsupported(struct qprog *p, const struct vc_node *n,
		    const char *fmt, ...)
{
	char why[512], *line = NULL;
	va_list ap;
	size_t len;
	char *e;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if ((n ? asprintf(&line, "  %s '%s': %s\n", n->op, n->name, why) :
		 asprintf(&line, "  graph: %s\n", why)) < 0)
		return;
	if (n && p->first_bad < 0 && p->m)
		p->first_bad = (int)(n - p->m->n);
	len = strlen(line);
	e = realloc(p->errs, p->errs_len + len + 1);
	if (e) {
		memcpy(e + p->errs_len, line, len + 1);
		p->errs = e;
		p->errs_len += len;
	}
	p->n_errs++;
	free(line);
}

void vc_prog_free(struct qprog *p)
{
	unsigned int i;

	for (i = 0; i < p->nop; i++) {
		free(p->op[i].text);
		free(p->op[i].dpu);
	}
	free(p->op);
	free(p->t);
	free(p->blob);
	free(p->vq);
	free(p->in_v);
	free(p->in_q);
	free(p->out_v);
	free(p->out_q);
	free(p->in_qnode);
	free(p->out_qnode);
	free(p->errs);
	free(p->lay_log);
	for (i = 0; i < p->n_kernels; i++)
		free(p->kernels[i]);
	free(p->kernels);
	memset(p, 0, sizeof(*p));
}

/* append @size bytes to the weight blob (64-byte aligned); its offset */
int64_t vc_blob_add(struct qprog *p, const void *data, uint64_t size)
{
	uint64_t off = (p->blob_size + 63) & ~63ull;

	if (off + size > p->blob_cap) {
		uint64_t cap = p->blob_cap ? p->blob_cap : 4096;
		uint8_t *b;

		while (cap < off + size)
			cap *= 2;
		b = realloc(p->blob, cap);
		if (!b)
			return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		memset(b + p->blob_cap, 0, cap - p->blob_cap);
		p->blob = b;
		p->blob_cap = cap;
	}
	memcpy(p->blob + off, data, size);
	p->blob_size = off + size;
	return (int64_t)off;
}

/* a constant tensor in the weights */
int vc_const_qt(struct qprog *p, int32_t dt, unsigned int rank,
		    const int64_t *dims, const void *data)
{
	int t = vc_new_qt(p, dt, rank, dims, 0);
	int64_t off;

	if (t < 0)
		return t;
	off = vc_blob_add(p, data, p->t[t].size);
	if (off < 0)
		return (int)off;
	p->t[t].region = QR_WEIGHTS;
	p->t[t].blob = (uint64_t)off;
	return t;
}

/* a view of @src with other quantization parameters or dims */
int vc_view_qt(struct qprog *p, int src, unsigned int rank,
		   const int64_t *dims, uint64_t order)
{
	int t = vc_new_qt(p, p->t[src].dt, rank, dims, order);

	if (t < 0)
		return t;
	p->t[t].alias = src;
	p->t[t].region = p->t[src].region;
	p->t[t].index = p->t[src].index;
	p->t[t].blob = p->t[src].blob;
	p->t[t].scale = p->t[src].scale;
	p->t[t].zp = p->t[src].zp;
	return t;
}

int vcq_same_scale(double a, double b)
{
	return fabs(a - b) <= 1e-6 * fmax(fabs(a), fabs(b));
}

/* ---- reading constant parameters ---- */

const struct vpuxc_tensor *vc_cst_of(const struct lctx *c,
					 const struct vc_node *n,
					 unsigned int slot)
{
	const struct vc_value *v = vc_in(c->m, n, slot);

	return v ? v->cst : NULL;
}

/*
 * Scale and zero point of a quantize/dequantize-style parameter pair
 * (inputs @ss and @sz of @n). Per tensor only unless @count is given:
 * then up to *count entries (per axis) are returned.
 */
int vcq_qparam(struct lctx *c, const struct vc_node *n, unsigned int ss,
		  unsigned int sz, double *scale, int32_t *zp, int32_t *dt,
		  unsigned int *count)
{
	const struct vpuxc_tensor *s = vc_cst_of(c, n, ss), *z = vc_cst_of(c, n, sz);
	const struct vc_value *zv = vc_in(c->m, n, sz);
	size_t ns, i, max = count ? *count : 1;

	if (!s) {
		vc_unsupported(c->p, n, "input %u (scale) is not a constant", ss);
		return -1;
	}
	if (zv && !z) {
		vc_unsupported(c->p, n, "input %u (zero point) is not a constant",
			       sz);
		return -1;
	}
	ns = vpuxc_tensor_count(s);
	if (s->dtype != VPUXC_FLOAT || !ns || ns > max ||
	    (z && vpuxc_tensor_count(z) != ns)) {
		vc_unsupported(c->p, n,
			       "scale: %zu float values expected at most %zu%s",
			       ns, max, z && vpuxc_tensor_count(z) != ns ?
			       ", zero point count differs" : "");
		return -1;
	}
	*dt = z ? vc_dt_of_onnx(z->dtype) : VPUX_DT_U8;
	if (!*dt || *dt == VPUX_DT_I32) {
		if (!(z && z->dtype == VPUXC_INT32 && sz == 2 &&
		      !strcmp(n->op, "DequantizeLinear"))) {
			vc_unsupported(c->p, n, "zero point type %s is not 8-bit",
				       z ? vpuxc_dtype_name(z->dtype) : "?");
			return -1;
		}
	}
	for (i = 0; i < ns; i++) {
		scale[i] = vc_cst_f(s, i);
		zp[i] = z ? (int32_t)vc_cst_i(z, i) : 0;
		if (!(scale[i] > 0) || !isfinite(scale[i])) {
			vc_unsupported(c->p, n, "scale %g is not positive",
				       scale[i]);
			return -1;
		}
	}
	if (count)
		*count = (unsigned int)ns;
	return 0;
}

int vcq_qparam1(struct lctx *c, const struct vc_node *n, unsigned int ss,
		   unsigned int sz, double *scale, int32_t *zp, int32_t *dt)
{
	return vcq_qparam(c, n, ss, sz, scale, zp, dt, NULL);
}

/* ---- layouts ---- */

static int is_act4(const struct qt *t)
{
	return t->rank == 4;
}

/* rank-4 tensor: (C, H, W); N must be 1 */
int vcq_chw(struct lctx *c, const struct vc_node *n, const struct qt *t,
	       int64_t *C, int64_t *H, int64_t *W)
{
	if (t->rank != 4 || t->dims[0] != 1) {
		vc_unsupported(c->p, n,
			       t->rank != 4 ? "a 4-D (NCHW) tensor is needed" :
			       "batch %lld: only batch 1 is supported (compile one model per image or export with batch 1)",
			       (long long)t->dims[0]);
		return -1;
	}
	*C = t->dims[1];
	*H = t->dims[2];
	*W = t->dims[3];
	if (*C > 65535 || *H > 65535 || *W > 65535) {
		vc_unsupported(c->p, n, "a dim above 65535");
		return -1;
	}
	return 0;
}

int vc_twins(struct lctx *c)
{
	unsigned int cap = c->twin_cap;

	if (c->p->nt < cap)
		return 0;
	while (cap <= c->p->nt)
		cap = cap ? cap * 2 : 256;
	c->nhwc = realloc(c->nhwc, sizeof(int) * cap);
	c->rowmajor = realloc(c->rowmajor, sizeof(int) * cap);
	c->f16 = realloc(c->f16, sizeof(int) * cap);
	c->scr = realloc(c->scr, sizeof(int) * cap);
	if (!c->nhwc || !c->rowmajor || !c->f16 || !c->scr)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	memset(c->nhwc + c->twin_cap, 0xff, sizeof(int) * (cap - c->twin_cap));
	memset(c->rowmajor + c->twin_cap, 0xff,
	       sizeof(int) * (cap - c->twin_cap));
	memset(c->f16 + c->twin_cap, 0xff, sizeof(int) * (cap - c->twin_cap));
	memset(c->scr + c->twin_cap, 0xff, sizeof(int) * (cap - c->twin_cap));
	c->twin_cap = cap;
	return 0;
}

/*
 * Copy 4-D @src into tensor @t of the same dims stored in @order: one
 * strided DMA per item of the outermost dim (N; a runtime weight tensor
 * has N > 1).
 */
int vc_reorder_into(struct lctx *c, int node, int src, int t,
			uint64_t order)
{
	struct qprog *p = c->p;
	const struct qt *s = &p->t[src];
	int64_t N = s->dims[0], C = s->dims[1], H = s->dims[2], W = s->dims[3];
	unsigned int e = vc_dt_bytes(s->dt);
	uint64_t item = (uint64_t)(C * H * W * e);
	int64_t n;
	int op;

	for (n = 0; n < N; n++) {
		unsigned long long off = (unsigned long long)n * item;

		if (order == ORDER_NHWC)	/* [C][H][W] -> [H][W][C] */
			op = vc_emit_op(p, QOP_DMA, node,
					"dma src=t%d[%llu:%llu] dst=t%d[%llu:%llu] len=%u count=%lld,%lld,%lld src_stride=%lld,%lld,%lld dst_stride=%lld,%lld,%lld",
					src, off, (unsigned long long)item, t, off,
					(unsigned long long)item, e, (long long)C,
					(long long)W, (long long)H,
					(long long)(H * W * e), (long long)e,
					(long long)(W * e), (long long)e,
					(long long)(C * e), (long long)(W * C * e));
		else				/* [H][W][C] -> [C][H][W] */
			op = vc_emit_op(p, QOP_DMA, node,
					"dma src=t%d[%llu:%llu] dst=t%d[%llu:%llu] len=%u count=%lld,%lld,%lld src_stride=%lld,%lld,%lld dst_stride=%lld,%lld,%lld",
					src, off, (unsigned long long)item, t, off,
					(unsigned long long)item, e, (long long)W,
					(long long)H, (long long)C,
					(long long)(C * e), (long long)(W * C * e),
					(long long)e, (long long)e, (long long)(W * e),
					(long long)(H * W * e));
		if (op < 0)
			return op;
		vc_op_uses(p, op, src);
		vc_op_uses(p, op, t);
	}
	p->dma_bytes += s->size;
	return 0;
}

/* @src copied into a new tensor of the same dims in @order */
int vc_reorder(struct lctx *c, int node, int src, uint64_t order)
{
	struct qprog *p = c->p;
	int t = vc_new_qt(p, p->t[src].dt, p->t[src].rank, p->t[src].dims,
			  order), ret;

	if (t < 0)
		return t;
	p->t[t].scale = p->t[src].scale;
	p->t[t].zp = p->t[src].zp;
	ret = vc_reorder_into(c, node, src, t, order);
	return ret < 0 ? ret : t;
}

/* @t as an NHWC tensor (the DPU's layout): itself, a view or a copy */
int vc_as_nhwc(struct lctx *c, int node, int t)
{
	struct qt *s = &c->p->t[t];
	int r;

	if (!is_act4(s) || s->order == ORDER_NHWC)
		return t;
	if (vc_twins(c))
		return VPUX_E_NOMEM;
	if (c->nhwc[t] >= 0)
		return c->nhwc[t];
	if (s->dims[1] == 1 || s->dims[2] * s->dims[3] == 1)
		r = vc_view_qt(c->p, t, 4, s->dims, ORDER_NHWC);	/* same bytes */
	else
		r = vc_reorder(c, node, t, ORDER_NHWC);
	if (r >= 0 && !vc_twins(c))
		c->nhwc[t] = r;
	return r;
}

/* @t in row-major order (ONNX's): itself, a view or a copy */
int vc_as_rowmajor(struct lctx *c, int node, int t)
{
	struct qt *s = &c->p->t[t];
	uint64_t rm = vpux_order_default(s->rank).code;
	int r;

	if (s->order == rm)
		return t;
	if (vc_twins(c))
		return VPUX_E_NOMEM;
	if (c->rowmajor[t] >= 0)
		return c->rowmajor[t];
	if (s->dims[1] == 1 || s->dims[2] * s->dims[3] == 1)
		r = vc_view_qt(c->p, t, s->rank, s->dims, rm);
	else
		r = vc_reorder(c, node, t, rm);
	if (r >= 0 && !vc_twins(c))
		c->rowmajor[t] = r;
	return r;
}

/* a fresh activation tensor for the output of a DPU/SHAVE op */
int vc_out_qt(struct qprog *p, int32_t dt, const struct vc_value *v,
		  double scale, int32_t zp, uint64_t order)
{
	int t = vc_new_qt(p, dt, (unsigned int)v->rank, v->dims,
			  v->rank == 4 ? order : 0);

	if (t >= 0) {
		p->t[t].scale = scale;
		p->t[t].zp = zp;
	}
	return t;
}

void vc_set_vq(struct lctx *c, const struct vc_value *v, int t)
{
	c->p->vq[v - c->m->v] = t;
}

int vc_vq_of(const struct lctx *c, const struct vc_value *v)
{
	return v ? c->p->vq[v - c->m->v] : -1;
}

static int do_node(struct lctx *c, int k)
{
	const struct vc_node *n = &c->m->n[k];
	struct qprog *p = c->p;
	const char *op = n->op;
	const struct vcq_pattern *pat;

	if (*n->domain && strcmp(n->domain, "ai.onnx") &&
	    !vc_op_find(c->m, n)) {
		vc_unsupported(p, n, "operator domain '%s' is not supported",
			       n->domain);
		return -1;
	}
	if (!strcmp(op, "Constant") || c->done[k])
		return 0;
	if (vc_wants_float(c, k))
		return vc_lower_float(c, k);
	if (!strcmp(op, "QuantizeLinear"))
		return vcq_do_quantize(c, k);
	if (!strcmp(op, "DequantizeLinear"))
		return vcq_do_dequantize(c, k);
	if (!strcmp(op, "QLinearConv") || !strcmp(op, "QLinearMatMul"))
		return vcq_do_qlinear(c, k);
	if (!strcmp(op, "ConvInteger") || !strcmp(op, "MatMulInteger"))
		return vcq_do_integer(c, k);
	if (!strcmp(op, "Relu") || !strcmp(op, "Clip"))
		return vcq_do_clip(c, k);
	if (!strcmp(op, "Reshape") || !strcmp(op, "Flatten") ||
	    !strcmp(op, "Squeeze") || !strcmp(op, "Unsqueeze") ||
	    !strcmp(op, "Identity") || !strcmp(op, "Transpose"))
		return vcq_do_layout(c, k);
	if (!strcmp(op, "MaxPool")) {
		const struct vc_value *xv = vc_in(c->m, n, 0);
		int x = vc_vq_of(c, xv);

		if (x < 0) {
			vc_unsupported(p, n, "input is not a quantized tensor on the NPU");
			return -1;
		}
		if (!vc_out(c->m, n, 0))
			return 0;
		return vcq_lower_pool(c, k, vc_out(c->m, n, 0), x, 0, 0,
				  p->t[x].dt, -INFINITY, INFINITY);
	}
	pat = vcq_pattern_of(c->m, n);
	if (pat)
		return vcq_pattern_pend(c, k, pat);	/* qdq_patterns.c */
	vc_unsupported(p, n, "operator not supported by the NPU compiler");
	return -1;
}

/* copy the result @t of graph output @i into its output tensor */
static int lower_output(struct lctx *c, unsigned int i)
{
	struct qprog *p = c->p;
	const struct vc_value *v = &c->m->v[p->out_v[i]];
	int t = vc_vq_of(c, v), o, op;
	const struct qt *q;

	if (c->pend[p->out_v[i]].node >= 0) {
		/* a float result of the quantized path: FP16 */
		t = vc_f16(c, c->pend[p->out_v[i]].node, v);
		if (t < 0)
			return t;
	}
	if (t < 0) {
		vc_unsupported(p, v->producer >= 0 ? &c->m->n[v->producer] : NULL,
			       "graph output '%s' is not computed on the NPU",
			       v->name);
		return -1;
	}
	q = &p->t[t];
	if (vc_qt_is_f(q) && !vc_is_float(v)) {
		vc_unsupported(p, v->producer >= 0 ? &c->m->n[v->producer] : NULL,
			       "graph output '%s' is declared %s but holds float values",
			       v->name, vpuxc_dtype_name(v->dtype));
		return VC_REPORTED;
	} else if (vc_qt_is_f(q)) {
		;	/* an FP16 result: the host converts it */
	} else if (!vc_is_float(v) && vc_dt_of_onnx(v->dtype) != q->dt) {
		vc_unsupported(p, v->producer >= 0 ? &c->m->n[v->producer] : NULL,
			       "graph output '%s' is declared %s but holds %s values",
			       v->name, vpuxc_dtype_name(v->dtype),
			       vpuxc_dtype_name(q->dt == VPUX_DT_U8 ? VPUXC_UINT8 :
						q->dt == VPUX_DT_I8 ? VPUXC_INT8 :
						VPUXC_INT32));
		return -1;
	}
	if (vc_is_float(v) && !vc_qt_is_f(q) && !(q->scale > 0) &&
	    !(v->producer >= 0 &&
	      !strcmp(c->m->n[v->producer].op, "DequantizeLinear"))) {
		vc_unsupported(p, NULL, "float output '%s' has no quantization scale",
			       v->name);
		return -1;
	}
	if (v->producer >= 0 &&
	    !strcmp(c->m->n[v->producer].op, "DequantizeLinear"))
		p->out_qnode[i] = v->producer;
	o = vc_new_qt(p, q->dt, q->rank, q->dims, 0);
	if (o < 0)
		return -1;
	q = &p->t[t];
	p->t[o].region = QR_OUTPUT;
	p->t[o].index = i;
	p->t[o].scale = q->scale;
	p->t[o].zp = q->zp;
	p->out_q[i] = o;
	if (q->rank == 4 && q->order == ORDER_NHWC && q->dims[1] > 1 &&
	    q->dims[2] * q->dims[3] > 1) {
		vc_layout_check(c, v, VC_LAY_RM);
		return vc_reorder_into(c, -1, t, o, p->t[o].order) < 0 ? -1 : 0;
	}
	op = vc_emit_op(p, QOP_DMA, -1, "dma src=t%d dst=t%d len=%llu", t, o,
			(unsigned long long)q->size);
	if (op < 0)
		return -1;
	vc_op_uses(p, op, t);
	vc_op_uses(p, op, o);
	p->dma_bytes += q->size;
	return 0;
}

int vc_lower(const struct vpuxc_model *m, struct qprog *p)
{
	struct lctx c;
	unsigned int i;
	int ret = 0;

	memset(p, 0, sizeof(*p));
	memset(&c, 0, sizeof(c));
	c.p = p;
	c.m = m;
	p->m = m;
	p->first_bad = -1;
	p->vq = malloc(sizeof(int) * (m->n_v + 1));
	c.pend = malloc(sizeof(*c.pend) * (m->n_v + 1));
	c.done = calloc(m->n_n + 1, sizeof(*c.done));
	p->n_in = m->n_inputs;
	p->n_out = m->n_outputs;
	p->in_v = calloc(m->n_inputs + 1, sizeof(int));
	p->in_q = calloc(m->n_inputs + 1, sizeof(int));
	p->in_qnode = calloc(m->n_inputs + 1, sizeof(int));
	p->out_v = calloc(m->n_outputs + 1, sizeof(int));
	p->out_q = calloc(m->n_outputs + 1, sizeof(int));
	p->out_qnode = calloc(m->n_outputs + 1, sizeof(int));
	if (!p->vq || !c.pend || !c.done || !p->in_v || !p->in_q || !p->in_qnode ||
	    !p->out_v || !p->out_q || !p->out_qnode) {
		ret = vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		goto out;
	}
	for (i = 0; i < m->n_v; i++) {
		p->vq[i] = -1;
		c.pend[i].node = -1;
		c.pend[i].lo = -INFINITY;
		c.pend[i].hi = INFINITY;
	}
	if (m->n_inputs > 64 || m->n_outputs > 64 || !m->n_outputs) {
		vc_unsupported(p, NULL, "%u inputs and %u outputs (1..64 outputs, at most 64 inputs)",
			       m->n_inputs, m->n_outputs);
		goto report;
	}
	/* integer graph inputs are device inputs as they are */
	for (i = 0; i < m->n_inputs; i++) {
		const struct vc_value *v = &m->v[m->inputs[i]];
		int32_t dt = vc_dt_of_onnx(v->dtype);
		int t;

		p->in_v[i] = m->inputs[i];
		p->in_q[i] = -1;
		p->in_qnode[i] = -1;
		if (vc_is_float(v)) {
			/* FP16 on the device, or quantized by the host */
			t = vc_float_input(&c, i);
			if (t < 0 && t != VC_REPORTED) {
				ret = t;
				goto out;
			}
			continue;
		}
		if (!dt || v->rank < 0 || !vc_numel(v)) {
			vc_unsupported(p, NULL, "graph input '%s': %s",
				       v->name, !dt ? "element type not supported (u8, i8, i32 or float)" :
				       "no static shape");
			continue;
		}
		t = vc_new_qt(p, dt, (unsigned int)v->rank, v->dims, 0);
		if (t < 0) {
			ret = t;
			goto out;
		}
		p->t[t].region = QR_INPUT;
		p->t[t].index = i;
		p->in_q[i] = t;
		p->vq[m->inputs[i]] = t;
	}
	ret = vc_assign_layouts(&c);	/* layout.c */
	if (ret)
		goto out;
	for (i = 0; i < m->n_n; i++) {
		unsigned int before = p->n_errs;
		int r = do_node(&c, (int)i);

		if (r == VPUX_E_NOMEM) {
			ret = r;
			goto out;
		}
		/*
		 * Every failure leaves a message: VC_REPORTED (and the
		 * quantized path's -1) after vc_unsupported(), any other
		 * code with vpux_last_error()'s.
		 */
		if (r < 0 && p->n_errs == before)
			vc_unsupported(p, &m->n[i], "%s",
				       r == VC_REPORTED || r == -1 ?
				       "internal error: the node failed without a reason" :
				       vpux_last_error());
	}
	for (i = 0; i < m->n_outputs; i++) {
		p->out_v[i] = m->outputs[i];
		p->out_q[i] = -1;
		p->out_qnode[i] = -1;
		if (!p->n_errs)
			lower_output(&c, i);
	}
	for (i = 0; i < m->n_inputs; i++)
		if (p->in_q[i] < 0 && vc_is_float(&m->v[m->inputs[i]]))
			vc_unsupported(p, NULL, "float graph input '%s' is not quantized by a QuantizeLinear",
				       m->v[m->inputs[i]].name);
report:
	if (p->n_errs)
		ret = vpux_err(VPUX_E_UNSUPPORTED,
			       "%u unsupported node%s:\n%s", p->n_errs,
			       p->n_errs == 1 ? "" : "s", p->errs);
out:
	free(c.pend);
	free(c.nhwc);
	free(c.rowmajor);
	free(c.f16);
	free(c.scr);
	free(c.done);
	free(c.lay);
	return ret;
}
