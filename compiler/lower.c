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
 *   and type, and only then is it lowered to one int8 NPU op;
 * - QuantizeLinear of a view requantizes it (or is nothing when the
 *   parameters agree); QuantizeLinear of a float graph input and
 *   DequantizeLinear to a graph output are the host's boundary
 *   conversions (vpuxc_io);
 * - QLinearConv, QLinearMatMul work on integer tensors directly.
 *
 * Anything else is reported, every node at once, by vc_unsupported().
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "lower_int.h"
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

static int same_scale(double a, double b)
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
static int qparam(struct lctx *c, const struct vc_node *n, unsigned int ss,
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

static int qparam1(struct lctx *c, const struct vc_node *n, unsigned int ss,
		   unsigned int sz, double *scale, int32_t *zp, int32_t *dt)
{
	return qparam(c, n, ss, sz, scale, zp, dt, NULL);
}

/* ---- layouts ---- */

static int is_act4(const struct qt *t)
{
	return t->rank == 4;
}

/* rank-4 tensor: (C, H, W); N must be 1 */
static int chw(struct lctx *c, const struct vc_node *n, const struct qt *t,
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

/* ---- constants: weights and biases ---- */

/*
 * A quantized constant: the integer data of @v (an integer initializer,
 * DequantizeLinear of one, or DequantizeLinear(QuantizeLinear(float
 * initializer))) with its scales (per tensor or per @axis).
 */
struct qconst {
	const struct vpuxc_tensor *data;	/* integer data, or NULL */
	const struct vpuxc_tensor *fdata;	/* float data to quantize */
	int32_t dt;
	double scale[4096];
	int32_t zp[4096];
	unsigned int n;		/* 0: no scale known (raw integers) */
	int axis;
};

static int qconst_of(struct lctx *c, const struct vc_value *v,
		     struct qconst *q)
{
	const struct vc_node *dq, *qn;
	const struct vc_value *x;
	unsigned int cnt = 4096;

	memset(q, 0, sizeof(*q));
	q->axis = -1;
	if (v->cst) {
		q->dt = vc_dt_of_onnx(v->cst->dtype);
		if (!q->dt)
			return -1;
		q->data = v->cst;
		return 0;
	}
	if (v->producer < 0)
		return -1;
	dq = &c->m->n[v->producer];
	if (strcmp(dq->op, "DequantizeLinear"))
		return -1;
	x = vc_in(c->m, dq, 0);
	if (!x)
		return -1;
	if (qparam(c, dq, 1, 2, q->scale, q->zp, &q->dt, &cnt))
		return -2;
	q->n = cnt;
	q->axis = cnt > 1 ? (int)vc_attr_i(dq, "axis", 1) : -1;
	if (x->cst) {
		if (vc_dt_of_onnx(x->cst->dtype) != q->dt &&
		    !(x->cst->dtype == VPUXC_INT32 && q->dt == VPUX_DT_I32))
			return -1;
		q->dt = vc_dt_of_onnx(x->cst->dtype);
		q->data = x->cst;
		return 0;
	}
	if (x->producer < 0)
		return -1;
	qn = &c->m->n[x->producer];
	if (strcmp(qn->op, "QuantizeLinear") || !vc_in(c->m, qn, 0) ||
	    !vc_in(c->m, qn, 0)->cst ||
	    vc_in(c->m, qn, 0)->cst->dtype != VPUXC_FLOAT)
		return -1;
	q->fdata = vc_in(c->m, qn, 0)->cst;
	return 0;
}

/* element @i of a qconst as an integer (quantizing float data) */
static int64_t qconst_at(const struct qconst *q, size_t i, size_t ch)
{
	if (q->data)
		return vc_cst_i(q->data, i);
	return vc_quantize(vc_cst_f(q->fdata, i), q->scale[q->n > 1 ? ch : 0],
			   q->zp[q->n > 1 ? ch : 0], q->dt);
}

static const struct vpuxc_tensor *qconst_t(const struct qconst *q)
{
	return q->data ? q->data : q->fdata;
}

/* ---- DPU ops ---- */

struct dpu_q {
	int32_t in_dt, w_dt, out_dt;
	int32_t in_zp, w_zp, out_zp;
	int32_t act_min, act_max;
};

static int clamp_q(double lo, double hi, double s, int32_t zp, int32_t dt,
		   int32_t *amin, int32_t *amax)
{
	*amin = vc_dt_min(dt);
	*amax = vc_dt_max(dt);
	if (lo > -INFINITY)
		*amin = vc_quantize(lo, s, zp, dt);
	if (hi < INFINITY)
		*amax = vc_quantize(hi, s, zp, dt);
	return *amin <= *amax ? 0 : -1;
}

static unsigned int flags_of(const struct dpu_q *d, int bias, int perch)
{
	unsigned int f = 0;

	if (d->in_dt == VPUX_DT_I8)
		f |= VPUX_DPU_F_IN_SIGNED;
	if (d->w_dt == VPUX_DT_I8)
		f |= VPUX_DPU_F_W_SIGNED;
	if (d->out_dt == VPUX_DT_I8)
		f |= VPUX_DPU_F_OUT_SIGNED;
	if (d->out_dt == VPUX_DT_I32)
		f |= VPUX_DPU_F_OUT_I32;
	if (bias)
		f |= VPUX_DPU_F_BIAS;
	if (perch)
		f |= VPUX_DPU_F_PER_CHANNEL;
	return f;
}

/*
 * Per-output-channel requant records (real factor @f[c]): a weights
 * tensor of (mult, shift) pairs, or one record in @rq when all agree.
 */
static int requant_records(struct lctx *c, const struct vc_node *n,
			   const double *f, unsigned int oc,
			   struct vpux_hw_requant *rq, int *quant_t)
{
	struct vpux_hw_requant *recs;
	unsigned int i;
	int all_same = 1;
	int64_t dims[1] = { 2 * (int64_t)oc };

	*quant_t = -1;
	recs = calloc(oc, sizeof(*recs));
	if (!recs)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	for (i = 0; i < oc; i++) {
		if (vc_requant(f[i], &recs[i])) {
			vc_unsupported(c->p, n, "output channel %u: %s", i,
				       vpux_last_error());
			free(recs);
			return -1;
		}
		if (recs[i].mult != recs[0].mult || recs[i].shift != recs[0].shift)
			all_same = 0;
	}
	*rq = recs[0];
	if (!all_same) {
		*quant_t = vc_const_qt(c->p, VPUX_DT_I32, 1, dims, recs);
		if (*quant_t < 0) {
			free(recs);
			return *quant_t;
		}
	}
	free(recs);
	return 0;
}

/* the shape and window fields of a CONV, MAXPOOL or AVGPOOL descriptor */
void vc_dpu_window(struct vpux_hw_dpu_desc *d, const struct vc_conv_geom *g,
		       int64_t C, int64_t H, int64_t W, int64_t OC, int64_t oh,
		       int64_t ow)
{
	d->in_c = (uint16_t)C;
	d->in_h = (uint16_t)H;
	d->in_w = (uint16_t)W;
	d->out_c = (uint16_t)OC;
	d->out_h = (uint16_t)oh;
	d->out_w = (uint16_t)ow;
	d->kernel_h = (uint16_t)g->kh;
	d->kernel_w = (uint16_t)g->kw;
	d->stride_h = (uint16_t)g->sh;
	d->stride_w = (uint16_t)g->sw;
	d->pad_top = (uint16_t)g->pt;
	d->pad_left = (uint16_t)g->pl;
	d->pad_bottom = (uint16_t)g->pb;
	d->pad_right = (uint16_t)g->pr;
	d->dilation_h = (uint16_t)g->dh;
	d->dilation_w = (uint16_t)g->dw;
	d->groups = (uint16_t)g->groups;
}

int vc_conv_geom(struct lctx *c, const struct vc_node *n, int64_t H,
		     int64_t W, int64_t kh, int64_t kw, struct vc_conv_geom *g)
{
	int64_t st[2] = { 1, 1 }, dl[2] = { 1, 1 }, pd[4] = { 0 };
	const char *ap = vc_attr_s(n, "auto_pad", "NOTSET");
	int i;

	if (vc_attr_ints(n, "strides", st, 2) < 0 ||
	    vc_attr_ints(n, "dilations", dl, 2) < 0 ||
	    vc_attr_ints(n, "pads", pd, 4) < 0) {
		vc_unsupported(c->p, n, "strides, dilations or pads are not 2-D");
		return -1;
	}
	if (vc_attr_i(n, "ceil_mode", 0)) {
		vc_unsupported(c->p, n, "ceil_mode=1 is not supported");
		return -1;
	}
	if (!strcmp(ap, "SAME_UPPER") || !strcmp(ap, "SAME_LOWER")) {
		int64_t in[2] = { H, W }, k[2] = { kh, kw };

		for (i = 0; i < 2; i++) {
			int64_t o = (in[i] + st[i] - 1) / st[i];
			int64_t tot = (o - 1) * st[i] + dl[i] * (k[i] - 1) + 1 - in[i];

			if (tot < 0)
				tot = 0;
			pd[i] = !strcmp(ap, "SAME_UPPER") ? tot / 2 : tot - tot / 2;
			pd[i + 2] = tot - pd[i];
		}
	} else if (!strcmp(ap, "VALID")) {
		memset(pd, 0, sizeof(pd));
	} else if (strcmp(ap, "NOTSET")) {
		vc_unsupported(c->p, n, "auto_pad '%s' unknown", ap);
		return -1;
	}
	g->kh = kh;
	g->kw = kw;
	g->sh = st[0];
	g->sw = st[1];
	g->dh = dl[0];
	g->dw = dl[1];
	g->pt = pd[0];
	g->pl = pd[1];
	g->pb = pd[2];
	g->pr = pd[3];
	g->groups = vc_attr_i(n, "group", 1);
	if (g->kh < 1 || g->kw < 1 || g->sh < 1 || g->sw < 1 || g->dh < 1 ||
	    g->dw < 1 || g->pt < 0 || g->pl < 0 || g->pb < 0 || g->pr < 0 ||
	    g->kh > 65535 || g->kw > 65535 || g->sh > 65535 || g->sw > 65535 ||
	    g->dh > 65535 || g->dw > 65535 || g->pt > 65535 || g->pl > 65535 ||
	    g->pb > 65535 || g->pr > 65535 || g->groups < 1 ||
	    g->groups > 65535) {
		vc_unsupported(c->p, n, "kernel, stride, dilation, padding or group out of range");
		return -1;
	}
	return 0;
}

/*
 * Convolution (or a pooling window op): x NHWC, weights repacked to
 * [oc][kh][kw][ic/g] with channel-wise zero points folded when they
 * differ, bias int32 in units of s_x * s_w[c], output y.
 */
struct conv_args {
	int x;				/* activation qt (any layout) */
	double sx;
	struct qconst *w;		/* NULL: runtime weights @wt */
	int wt;				/* runtime weights qt (NCHW layout) */
	double sw1;			/* runtime weights scale */
	int32_t wzp1;
	const struct vc_value *bias;	/* int32 const, DQ(...) or float const */
	double sy;
	int32_t zy, dty;
	double lo, hi;			/* output clamp (real) */
	double alpha;			/* extra factor (Gemm) */
};

static int bias_values(struct lctx *c, const struct vc_node *n,
		       const struct vc_value *b, const double *sacc,
		       unsigned int oc, int32_t *out)
{
	struct qconst q;
	unsigned int i;

	if (qconst_of(c, b, &q) == 0 && q.data && q.dt == VPUX_DT_I32 &&
	    vpuxc_tensor_count(q.data) == oc) {
		for (i = 0; i < oc; i++) {
			double bs = q.n ? q.scale[q.n > 1 ? i : 0] : sacc[i];
			double v = (double)(vc_cst_i(q.data, i) -
					    (q.n ? q.zp[q.n > 1 ? i : 0] : 0)) * bs /
				   sacc[i];

			if (fabs(v) > 2147483647.0)
				goto range;
			out[i] = (int32_t)llround(v);
		}
		return 0;
	}
	if (b->cst && b->cst->dtype == VPUXC_FLOAT &&
	    vpuxc_tensor_count(b->cst) == oc) {
		for (i = 0; i < oc; i++) {
			double v = vc_cst_f(b->cst, i) / sacc[i];

			if (fabs(v) > 2147483647.0)
				goto range;
			out[i] = (int32_t)llround(v);
		}
		return 0;
	}
	vc_unsupported(c->p, n, "bias '%s': an int32 or float constant of %u values is needed",
		       b->name, oc);
	return -1;
range:
	vc_unsupported(c->p, n, "bias '%s' does not fit int32 at the accumulator's scale",
		       b->name);
	return -1;
}

static int lower_conv(struct lctx *c, int node, const struct vc_value *yv,
		      struct conv_args *a)
{
	const struct vc_node *n = &c->m->n[node];
	struct qprog *p = c->p;
	struct vc_conv_geom g;
	struct dpu_q d;
	int64_t C, H, W, OC, ICg, KH, KW, wd[4], oh, ow;
	int x, y, wt, bt = -1, qt = -1;
	double *fac = NULL;
	int32_t *bias = NULL;
	struct vpux_hw_requant rq;
	struct qdpu q;
	unsigned int i;
	int ret = -1;

	x = vc_as_nhwc(c, node, a->x);
	if (x < 0 || chw(c, n, &p->t[x], &C, &H, &W))
		return -1;
	if (a->w) {
		const struct vpuxc_tensor *wt_ = qconst_t(a->w);

		if (wt_->rank != 4) {
			vc_unsupported(c->p, n, "weights are not 4-D");
			return -1;
		}
		OC = wt_->dims[0];
		ICg = wt_->dims[1];
		KH = wt_->dims[2];
		KW = wt_->dims[3];
	} else {
		OC = p->t[a->wt].dims[0];
		ICg = p->t[a->wt].dims[1];
		KH = p->t[a->wt].dims[2];
		KW = p->t[a->wt].dims[3];
	}
	if (vc_conv_geom(c, n, H, W, KH, KW, &g))
		return -1;
	if (C % g.groups || OC % g.groups || ICg * g.groups != C) {
		vc_unsupported(c->p, n, "group %lld does not match channels %lld -> %lld (weights have %lld input channels)",
			       (long long)g.groups, (long long)C,
			       (long long)OC, (long long)ICg);
		return -1;
	}
	if (OC > 65535 || KH * KW * ICg > 32768) {
		vc_unsupported(c->p, n, "reduction %lld above the DPU's 32768 or %lld output channels",
			       (long long)(KH * KW * ICg), (long long)OC);
		return -1;
	}
	oh = (H + g.pt + g.pb - (g.dh * (KH - 1) + 1));
	ow = (W + g.pl + g.pr - (g.dw * (KW - 1) + 1));
	if (oh < 0 || ow < 0) {
		vc_unsupported(c->p, n, "the window does not fit the padded input");
		return -1;
	}
	oh = oh / g.sh + 1;
	ow = ow / g.sw + 1;
	if (yv->rank != 4 || yv->dims[2] != oh || yv->dims[3] != ow ||
	    yv->dims[1] != OC) {
		vc_unsupported(c->p, n, "output shape differs from the convolution's");
		return -1;
	}
	memset(&d, 0, sizeof(d));
	d.in_dt = p->t[x].dt;
	d.in_zp = p->t[x].zp;
	d.out_dt = a->dty;
	d.out_zp = a->zy;
	if (a->dty != VPUX_DT_I32 &&
	    clamp_q(a->lo, a->hi, a->sy, a->zy, a->dty, &d.act_min, &d.act_max)) {
		vc_unsupported(c->p, n, "the output clamp is empty");
		return -1;
	}
	fac = calloc((size_t)OC, sizeof(*fac));
	bias = calloc((size_t)OC, sizeof(*bias));
	if (!fac || !bias) {
		ret = vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		goto out;
	}
	if (a->w) {
		struct qconst *q = a->w;
		uint64_t cnt = (uint64_t)OC * KH * KW * ICg, k;
		int32_t zp0 = q->n ? q->zp[0] : 0;
		int uniform = 1, fold = 0;
		uint8_t *buf;

		if (q->n > 1 && (q->n != OC || q->axis != 0)) {
			vc_unsupported(c->p, n, "weight scales per axis %d with %u values (per output channel expected)",
				       q->axis, q->n);
			goto out;
		}
		for (i = 0; i < q->n; i++)
			if (q->zp[i] != zp0)
				uniform = 0;
		/* channel-wise zero points: recentre into int8 */
		if (!uniform)
			fold = 1;
		d.w_dt = fold ? VPUX_DT_I8 : q->dt;
		d.w_zp = fold ? 0 : zp0;
		buf = malloc(cnt ? cnt : 1);
		if (!buf) {
			ret = vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
			goto out;
		}
		/* ONNX [oc][ic][kh][kw] -> [oc][kh][kw][ic] */
		for (k = 0; k < cnt; k++) {
			uint64_t oc = k / (KH * KW * ICg), r = k % (KH * KW * ICg);
			uint64_t ky = r / (KW * ICg), kx = r / ICg % KW;
			uint64_t ic = r % ICg;
			size_t src = ((oc * ICg + ic) * KH + ky) * KW + kx;
			int64_t v = qconst_at(q, src, oc);

			if (fold) {
				v -= q->zp[oc];
				if (v < -128 || v > 127) {
					free(buf);
					vc_unsupported(c->p, n, "per-channel weight zero points: weight %lld of channel %llu does not fit int8 after recentring",
						       (long long)v, (unsigned long long)oc);
					goto out;
				}
			}
			buf[k] = (uint8_t)v;
		}
		wd[0] = OC;
		wd[1] = KH;
		wd[2] = KW;
		wd[3] = ICg;
		wt = vc_const_qt(p, d.w_dt, 4, wd, buf);
		free(buf);
		if (wt < 0)
			goto out;
		for (i = 0; i < OC; i++)
			fac[i] = a->sx * (q->n ? q->scale[q->n > 1 ? i : 0] : 1.0);
	} else {
		/* runtime weights: NCHW [oc][ic][kh][kw] -> NHWC [oc][kh][kw][ic] */
		wt = vc_as_nhwc(c, node, a->wt);
		if (wt < 0)
			goto out;
		d.w_dt = p->t[wt].dt;
		d.w_zp = a->wzp1;
		for (i = 0; i < OC; i++)
			fac[i] = a->sx * a->sw1;
	}
	if (a->bias) {
		if (bias_values(c, n, a->bias, fac, (unsigned int)OC, bias))
			goto out;
		wd[0] = OC;
		bt = vc_const_qt(p, VPUX_DT_I32, 1, wd, bias);
		if (bt < 0)
			goto out;
	}
	if (a->dty == VPUX_DT_I32) {
		/* ConvInteger: raw accumulators, no output stage */
		rq.mult = rq.shift = 0;
		d.act_min = d.act_max = d.out_zp = 0;
	} else {
		for (i = 0; i < OC; i++)
			fac[i] = fac[i] * a->alpha / a->sy;
		if (requant_records(c, n, fac, (unsigned int)OC, &rq, &qt))
			goto out;
	}
	y = vc_out_qt(p, a->dty, yv, a->sy, a->zy, ORDER_NHWC);
	if (y < 0)
		goto out;
	vc_dpu_init(&q, VPUX_DPU_OP_CONV,
		 flags_of(&d, bt >= 0, qt >= 0));
	q.t[QD_IN] = x;
	q.t[QD_IN2] = wt;
	q.t[QD_BIAS] = bt;
	q.t[QD_QUANT] = qt;
	q.t[QD_OUT] = y;
	vc_dpu_window(&q.d, &g, C, H, W, OC, oh, ow);
	q.d.in_zp = d.in_zp;
	q.d.in2_zp = d.w_zp;
	q.d.out_zp = d.out_zp;
	q.d.act_min = d.act_min;
	q.d.act_max = d.act_max;
	if (qt < 0 && a->dty != VPUX_DT_I32)
		q.d.requant = rq;
	if (vc_emit_dpu(p, node, &q) < 0)
		goto out;
	vc_set_vq(c, yv, y);
	ret = 0;
out:
	free(fac);
	free(bias);
	return ret;
}

/* the innermost-first split of an element-wise tensor into (C, H, W) */
static int eltwise_chw(const struct qt *t, int64_t *C, int64_t *H, int64_t *W)
{
	uint64_t n = t->size / vc_dt_bytes(t->dt);

	if (t->rank == 4 && t->order == ORDER_NHWC && t->dims[0] == 1) {
		*C = t->dims[1];
		*H = t->dims[2];
		*W = t->dims[3];
	} else {
		/* row-major: innermost dim as C, the rest as H (x W) */
		*C = t->dims[t->rank - 1];
		*H = (int64_t)(n / (uint64_t)*C);
		*W = 1;
		while (*H > 65535 && !(*H % 2)) {
			*H /= 2;
			*W *= 2;
		}
	}
	return *C <= 65535 && *H <= 65535 && *W <= 65535 ? 0 : -1;
}

/* a float or quantized constant operand of an element-wise op, full shape */
static int eltwise_const(struct lctx *c, const struct vc_node *n,
			 const struct vc_value *v, const struct qt *like,
			 double *scale, int32_t *zp)
{
	struct qprog *p = c->p;
	const struct vpuxc_tensor *ct;
	struct qconst *q = malloc(sizeof(*q));
	uint64_t cnt = like->size / vc_dt_bytes(like->dt), i;
	int64_t dims[QT_MAX_RANK];
	int32_t dt;
	uint8_t *buf;
	int t = -1, r;
	unsigned int k;

	if (!q)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	r = qconst_of(c, v, q);
	if (r || (!q->n && !(q->fdata))) {
		/* a plain float constant: symmetric int8 of its range */
		if (v->cst && v->cst->dtype == VPUXC_FLOAT) {
			double mx = 0;

			for (i = 0; i < vpuxc_tensor_count(v->cst); i++)
				mx = fmax(mx, fabs(vc_cst_f(v->cst, i)));
			memset(q, 0, sizeof(*q));
			q->fdata = v->cst;
			q->dt = VPUX_DT_I8;
			q->n = 1;
			q->scale[0] = mx > 0 ? mx / 127 : 1.0;
			q->axis = -1;
		} else {
			vc_unsupported(p, n, "operand '%s' is neither a quantized view nor a constant",
				       v->name);
			goto out;
		}
	}
	if (q->n != 1 || q->dt == VPUX_DT_I32) {
		vc_unsupported(p, n, "constant operand '%s': per-tensor 8-bit quantization needed",
			       v->name);
		goto out;
	}
	ct = qconst_t(q);
	/* broadcast ct (numpy rules) to like's logical dims, stored like @like */
	for (k = 0; k < like->rank; k++)
		dims[k] = like->dims[k];
	dt = q->dt;
	buf = malloc(cnt * 1);
	if (!buf) {
		t = vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		goto out;
	}
	for (i = 0; i < cnt; i++) {
		/* memory index i -> logical coordinates of @like */
		uint64_t rem = i, coord[QT_MAX_RANK], src = 0, mul = 1;
		unsigned int md;

		for (md = 0; md < like->rank; md++) {
			vpux_dim ld = vpux_order_to_dim((vpux_dims_order){ like->order },
							vpux_memdim_make(md));

			coord[ld.ind] = rem % (uint64_t)like->dims[ld.ind];
			rem /= (uint64_t)like->dims[ld.ind];
		}
		for (k = ct->rank; k-- > 0;) {
			int ld = (int)like->rank - (int)ct->rank + (int)k;
			uint64_t cc = ct->dims[k] == 1 || ld < 0 ? 0 : coord[ld];

			src += cc * mul;
			mul *= (uint64_t)ct->dims[k];
		}
		buf[i] = (uint8_t)qconst_at(q, src, 0);
	}
	t = vc_const_qt(p, dt, like->rank, dims, buf);
	free(buf);
	if (t >= 0) {
		p->t[t].order = like->order;
		p->t[t].scale = *scale = q->scale[0];
		p->t[t].zp = *zp = q->zp[0];
	}
out:
	free(q);
	return t;
}

static int bcast_ok(const struct vc_value *v, const struct qt *like)
{
	int k;

	if (!v || v->rank < 0 || (unsigned int)v->rank > like->rank)
		return 0;
	for (k = 0; k < v->rank; k++) {
		int64_t d = v->dims[k], l = like->dims[like->rank - v->rank + k];

		if (d != 1 && d != l)
			return 0;
	}
	return 1;
}

/* Add / Mul of two quantized operands (one may be a constant) */
static int lower_eltwise(struct lctx *c, int node, const struct vc_value *yv,
			 double sy, int32_t zy, int32_t dty, double lo,
			 double hi)
{
	const struct vc_node *n = &c->m->n[node];
	struct qprog *p = c->p;
	const struct vc_value *av = vc_in(c->m, n, 0), *bv = vc_in(c->m, n, 1);
	int a = vc_vq_of(c, av), b = vc_vq_of(c, bv), y, is_add = !strcmp(n->op, "Add");
	double sa, sb = 0;
	int32_t za, zb = 0, amin, amax;
	int64_t C, H, W;
	struct vpux_hw_requant r0, r1, r2;
	struct dpu_q d;
	struct qdpu q;

	if (a < 0 && b < 0) {
		vc_unsupported(p, n, "no operand is a quantized tensor");
		return -1;
	}
	if (a < 0) {		/* constant first: swap */
		const struct vc_value *tv = av;

		av = bv;
		bv = tv;
		a = b;
		b = -1;
	}
	if (p->t[a].rank == 4) {
		a = vc_as_nhwc(c, node, a);
	} else {
		a = vc_as_rowmajor(c, node, a);
	}
	if (a < 0)
		return -1;
	if (b >= 0) {
		const struct qt *ta = &p->t[a], *tb = &p->t[b];
		unsigned int k;

		if (ta->rank != tb->rank)
			goto shape;
		for (k = 0; k < ta->rank; k++)
			if (ta->dims[k] != tb->dims[k])
				goto shape;
		b = ta->order == ORDER_NHWC ? vc_as_nhwc(c, node, b) :
		    vc_as_rowmajor(c, node, b);
		if (b < 0)
			return -1;
		sb = p->t[b].scale;
		zb = p->t[b].zp;
	} else {
		if (!bcast_ok(bv, &p->t[a]))
			goto shape;
		b = eltwise_const(c, n, bv, &p->t[a], &sb, &zb);
		if (b < 0)
			return -1;
	}
	sa = p->t[a].scale;
	za = p->t[a].zp;
	if (!(sa > 0) || !(sb > 0)) {
		vc_unsupported(p, n, "an operand has no quantization scale");
		return -1;
	}
	if (eltwise_chw(&p->t[a], &C, &H, &W)) {
		vc_unsupported(p, n, "element-wise shape does not fit the DPU's 16-bit dims");
		return -1;
	}
	if (clamp_q(lo, hi, sy, zy, dty, &amin, &amax)) {
		vc_unsupported(p, n, "the output clamp is empty");
		return -1;
	}
	memset(&d, 0, sizeof(d));
	d.in_dt = p->t[a].dt;
	d.w_dt = p->t[b].dt;
	d.out_dt = dty;
	y = vc_new_qt(p, dty, p->t[a].rank, p->t[a].dims, p->t[a].order);
	if (y < 0)
		return -1;
	p->t[y].scale = sy;
	p->t[y].zp = zy;
	if (is_add) {
		double smax = fmax(sa, sb);
		const double L = 1048576.0;	/* 2^20 headroom */

		if (vc_requant(sa / smax * L, &r1) ||
		    vc_requant(sb / smax * L, &r2) ||
		    vc_requant(smax / (sy * L), &r0)) {
			vc_unsupported(p, n, "%s", vpux_last_error());
			return -1;
		}
		vc_dpu_init(&q, VPUX_DPU_OP_ADD, flags_of(&d, 0, 0));
		q.d.requant = r0;
		q.d.in_scale = r1;
		q.d.in2_scale = r2;
	} else {
		if (vc_requant(sa * sb / sy, &r0)) {
			vc_unsupported(p, n, "%s", vpux_last_error());
			return -1;
		}
		vc_dpu_init(&q, VPUX_DPU_OP_MUL, flags_of(&d, 0, 0));
		q.d.requant = r0;
	}
	q.t[QD_IN] = a;
	q.t[QD_IN2] = b;
	q.t[QD_OUT] = y;
	q.d.in_c = q.d.out_c = (uint16_t)C;
	q.d.in_h = q.d.out_h = (uint16_t)H;
	q.d.in_w = q.d.out_w = (uint16_t)W;
	q.d.in_zp = za;
	q.d.in2_zp = zb;
	q.d.out_zp = zy;
	q.d.act_min = amin;
	q.d.act_max = amax;
	if (vc_emit_dpu(p, node, &q) < 0)
		return -1;
	vc_set_vq(c, yv, y);
	return 0;
shape:
	vc_unsupported(p, n, "operand shapes differ (broadcasting is supported for constants only)");
	return -1;
}

/* an average over whole windows as a depthwise convolution of ones */
static int avg_as_conv(struct lctx *c, int node, const struct vc_value *yv,
		       int x, const struct vc_conv_geom *g, int64_t C, int64_t H,
		       int64_t W, int64_t oh, int64_t ow, double sy, int32_t zy,
		       int32_t dty, double lo, double hi)
{
	const struct vc_node *n = &c->m->n[node];
	struct qprog *p = c->p;
	int64_t wd[4] = { C, g->kh, g->kw, 1 };
	uint64_t cnt = (uint64_t)(C * g->kh * g->kw);
	struct vpux_hw_requant rq;
	struct dpu_q d;
	struct qdpu q;
	uint8_t *ones;
	int wt, y;

	if (!(p->t[x].scale > 0) ||
	    vc_requant(p->t[x].scale / ((double)g->kh * g->kw * sy), &rq)) {
		vc_unsupported(p, n, "input has no scale or the factor is out of range");
		return -1;
	}
	ones = malloc(cnt);
	if (!ones)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	memset(ones, 1, cnt);
	wt = vc_const_qt(p, VPUX_DT_U8, 4, wd, ones);
	free(ones);
	if (wt < 0)
		return wt;
	memset(&d, 0, sizeof(d));
	d.in_dt = p->t[x].dt;
	d.w_dt = VPUX_DT_U8;
	d.out_dt = dty;
	if (clamp_q(lo, hi, sy, zy, dty, &d.act_min, &d.act_max)) {
		vc_unsupported(p, n, "the output clamp is empty");
		return -1;
	}
	y = vc_out_qt(p, dty, yv, sy, zy, ORDER_NHWC);
	if (y < 0)
		return -1;
	vc_dpu_init(&q, VPUX_DPU_OP_CONV, flags_of(&d, 0, 0));
	q.t[QD_IN] = x;
	q.t[QD_IN2] = wt;
	q.t[QD_OUT] = y;
	vc_dpu_window(&q.d, g, C, H, W, C, oh, ow);
	q.d.groups = (uint16_t)C;	/* depthwise */
	q.d.in_zp = p->t[x].zp;
	q.d.out_zp = zy;
	q.d.act_min = d.act_min;
	q.d.act_max = d.act_max;
	q.d.requant = rq;
	if (vc_emit_dpu(p, node, &q) < 0)
		return -1;
	vc_set_vq(c, yv, y);
	return 0;
}

/* MaxPool / AveragePool / GlobalAveragePool */
static int lower_pool(struct lctx *c, int node, const struct vc_value *yv,
		      int x, double sy, int32_t zy, int32_t dty, double lo,
		      double hi)
{
	const struct vc_node *n = &c->m->n[node];
	struct qprog *p = c->p;
	int is_max = !strcmp(n->op, "MaxPool");
	int global = !strncmp(n->op, "Global", 6);
	int64_t C, H, W, k[2] = { 0, 0 }, oh, ow;
	struct vpux_hw_requant rq;
	struct vc_conv_geom g;
	struct dpu_q d;
	struct qdpu q;
	int32_t amin, amax;
	int y, incl_pad = 0;

	x = vc_as_nhwc(c, node, x);
	if (x < 0 || chw(c, n, &p->t[x], &C, &H, &W))
		return -1;
	if (global) {
		k[0] = H;
		k[1] = W;
		memset(&g, 0, sizeof(g));
		g.kh = H;
		g.kw = W;
		g.sh = g.sw = g.dh = g.dw = 1;
	} else {
		if (vc_attr_ints(n, "kernel_shape", k, 2) != 2) {
			vc_unsupported(p, n, "kernel_shape must be 2-D");
			return -1;
		}
		if (vc_conv_geom(c, n, H, W, k[0], k[1], &g))
			return -1;
		if (g.groups != 1) {
			vc_unsupported(p, n, "group attribute on a pool");
			return -1;
		}
		incl_pad = (int)vc_attr_i(n, "count_include_pad", 0);
		if (is_max && n->n_out > 1 && n->out[1] >= 0 &&
		    c->m->v[n->out[1]].n_uses) {
			vc_unsupported(p, n, "the Indices output is not supported");
			return -1;
		}
		if (vc_attr_i(n, "storage_order", 0)) {
			vc_unsupported(p, n, "storage_order=1 is not supported");
			return -1;
		}
	}
	if (g.kh * g.kw > 32768) {
		vc_unsupported(p, n, "window of %lld elements above 32768",
			       (long long)(g.kh * g.kw));
		return -1;
	}
	oh = (H + g.pt + g.pb - (g.dh * (g.kh - 1) + 1)) / g.sh + 1;
	ow = (W + g.pl + g.pr - (g.dw * (g.kw - 1) + 1)) / g.sw + 1;
	/*
	 * An average whose divisor is the whole window (no padding, or
	 * count_include_pad) is a depthwise convolution with weights 1 and
	 * the divisor folded into the requantisation: one rounding, as
	 * ONNX's float average followed by QuantizeLinear. The DPU's AVGPOOL
	 * rounds the average in the input's units first; it stays for
	 * windows whose padding is excluded (a divisor per position).
	 */
	if (!is_max && (incl_pad || !(g.pt | g.pl | g.pb | g.pr)))
		return avg_as_conv(c, node, yv, x, &g, C, H, W, oh, ow, sy, zy,
				   dty, lo, hi);
	memset(&d, 0, sizeof(d));
	d.in_dt = p->t[x].dt;
	d.out_dt = dty;
	if (is_max) {
		/* max commutes with the dequantization: raw max, same params */
		rq.mult = 1 << 30;
		rq.shift = -1;
		d.in_zp = 0;
		d.out_zp = 0;
		amin = vc_dt_min(dty);
		amax = vc_dt_max(dty);
		sy = p->t[x].scale;
		zy = p->t[x].zp;
	} else {
		if (!(p->t[x].scale > 0) || vc_requant(p->t[x].scale / sy, &rq)) {
			vc_unsupported(p, n, "input has no scale or the factor is out of range");
			return -1;
		}
		d.in_zp = p->t[x].zp;
		d.out_zp = zy;
		if (clamp_q(lo, hi, sy, zy, dty, &amin, &amax)) {
			vc_unsupported(p, n, "the output clamp is empty");
			return -1;
		}
	}
	y = vc_out_qt(p, dty, yv, sy, zy, ORDER_NHWC);
	if (y < 0)
		return -1;
	vc_dpu_init(&q, is_max ? VPUX_DPU_OP_MAXPOOL : VPUX_DPU_OP_AVGPOOL,
		 flags_of(&d, 0, 0));
	q.t[QD_IN] = x;
	q.t[QD_OUT] = y;
	vc_dpu_window(&q.d, &g, C, H, W, C, oh, ow);
	q.d.groups = 0;		/* pools: no groups */
	q.d.in_zp = d.in_zp;
	q.d.out_zp = d.out_zp;
	q.d.act_min = amin;
	q.d.act_max = amax;
	q.d.requant = rq;
	if (vc_emit_dpu(p, node, &q) < 0)
		return -1;
	vc_set_vq(c, yv, y);
	return 0;
}

/* ---- MatMul / Gemm / QLinearMatMul ---- */

struct mm_args {
	int a;				/* activation qt [.., M, K] */
	double sa;
	int32_t za;
	const struct vc_value *bv;	/* B value: constant or quantized */
	int transb;			/* B given as [N][K] (Gemm transB) */
	const struct vc_value *bias;	/* Gemm C, or NULL */
	double beta, alpha;
	double sy;
	int32_t zy, dty;
	double lo, hi;
	/* QOperator: B's parameters come from the node */
	int qop;
	double sb[4096];
	int32_t zb[4096];
	unsigned int nb;
};

/* [R][Cc] -> [Cc][R] by one DMA (a runtime B into the DPU's [N][K]) */
static int transpose2(struct lctx *c, int node, int src, uint64_t off,
		      int64_t R, int64_t Cc, int dst, uint64_t doff)
{
	struct qprog *p = c->p;
	unsigned int e = vc_dt_bytes(p->t[src].dt);
	uint64_t bytes = (uint64_t)(R * Cc * e);
	int op;

	op = vc_emit_op(p, QOP_DMA, node,
			"dma src=t%d[%llu:%llu] dst=t%d[%llu:%llu] len=%u count=%lld,%lld,1 src_stride=%lld,%u,0 dst_stride=%lld,%u,0",
			src, (unsigned long long)off, (unsigned long long)bytes,
			dst, (unsigned long long)doff,
			(unsigned long long)bytes, e, (long long)R,
			(long long)Cc, (long long)(Cc * e), e, (long long)e,
			(unsigned int)(R * e));
	if (op < 0)
		return op;
	vc_op_uses(p, op, src);
	vc_op_uses(p, op, dst);
	p->dma_bytes += bytes;
	return 0;
}

static int lower_matmul(struct lctx *c, int node, const struct vc_value *yv,
			struct mm_args *m)
{
	const struct vc_node *n = &c->m->n[node];
	struct qprog *p = c->p;
	struct qconst *q = NULL;
	int a, bt = -1, wt = -1, qt = -1, y, runtime;
	int64_t M, K, N, batch = 1, bbatch = 1, wd[2];
	double *fac = NULL;
	int32_t *bias = NULL, amin, amax, wzp = 0, wdt;
	struct vpux_hw_requant rq;
	struct dpu_q d;
	struct qdpu qd;
	unsigned int i, r;
	int64_t bb;
	int ret = -1;

	a = vc_as_rowmajor(c, node, m->a);
	if (a < 0)
		return -1;
	r = p->t[a].rank;
	if (r < 2) {
		vc_unsupported(p, n, "input A must be at least 2-D");
		return -1;
	}
	M = p->t[a].dims[r - 2];
	K = p->t[a].dims[r - 1];
	for (i = 0; i + 2 < r; i++)
		batch *= p->t[a].dims[i];
	runtime = vc_vq_of(c, m->bv) >= 0;
	if (runtime) {
		const struct qt *tb = &p->t[vc_vq_of(c, m->bv)];

		if (m->transb || tb->rank < 2) {
			vc_unsupported(p, n, "a runtime B must be [.., K, N]");
			return -1;
		}
		if (tb->dims[tb->rank - 2] != K) {
			vc_unsupported(p, n, "inner dims differ");
			return -1;
		}
		N = tb->dims[tb->rank - 1];
		for (i = 0; i + 2 < tb->rank; i++)
			bbatch *= tb->dims[i];
		if (bbatch != 1 && bbatch != batch) {
			vc_unsupported(p, n, "batch dims of A and B must match (or B be 2-D)");
			return -1;
		}
	} else {
		const struct vpuxc_tensor *bt_;

		q = malloc(sizeof(*q));
		if (!q)
			return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		if (!m->bv || qconst_of(c, m->bv, q)) {
			vc_unsupported(p, n, "B is neither a quantized tensor nor a constant");
			goto out;
		}
		if (m->qop) {
			q->n = m->nb;
			memcpy(q->scale, m->sb, sizeof(double) * m->nb);
			memcpy(q->zp, m->zb, sizeof(int32_t) * m->nb);
			q->axis = m->nb > 1 ? 1 : -1;
		}
		bt_ = qconst_t(q);
		if (bt_->rank != 2 || q->dt == VPUX_DT_I32) {
			vc_unsupported(p, n, "constant B must be 2-D and 8-bit");
			goto out;
		}
		N = bt_->dims[m->transb ? 0 : 1];
		if (bt_->dims[m->transb ? 1 : 0] != K) {
			vc_unsupported(p, n, "inner dims differ");
			goto out;
		}
		if (!q->n && !m->qop) {
			vc_unsupported(p, n, "constant B has no quantization scale");
			goto out;
		}
		if (q->n > 1 && (q->n != N ||
				 q->axis != (m->transb ? 0 : 1))) {
			vc_unsupported(p, n, "B scales per axis %d with %u values (per output column expected)",
				       q->axis, q->n);
			goto out;
		}
	}
	if (K > 32768 || N > 65535 || batch * M > 65535 ||
	    (runtime && M > 65535)) {
		vc_unsupported(p, n, "K %lld above 32768, N above 65535 or M above 65535",
			       (long long)K);
		goto out;
	}
	if (yv->rank < 2 || yv->dims[yv->rank - 1] != N ||
	    yv->dims[yv->rank - 2] != M) {
		vc_unsupported(p, n, "output shape differs from the product's");
		goto out;
	}
	fac = calloc((size_t)N, sizeof(*fac));
	bias = calloc((size_t)N, sizeof(*bias));
	if (!fac || !bias) {
		ret = vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		goto out;
	}
	memset(&d, 0, sizeof(d));
	if (runtime) {
		const struct qt *tb = &p->t[vc_vq_of(c, m->bv)];
		double sb = m->qop ? m->sb[0] : tb->scale;

		if ((m->qop && m->nb != 1) || !(sb > 0)) {
			vc_unsupported(p, n, "a runtime B needs one per-tensor scale");
			goto out;
		}
		wzp = m->qop ? m->zb[0] : tb->zp;
		wdt = tb->dt;
		for (i = 0; i < N; i++)
			fac[i] = m->sa * sb;
	} else {
		int32_t zp0 = q->n ? q->zp[0] : 0;
		int fold = 0;
		uint8_t *buf;
		int64_t k, j;

		for (i = 0; i < q->n; i++)
			if (q->zp[i] != zp0)
				fold = 1;
		wdt = fold ? VPUX_DT_I8 : q->dt;
		wzp = fold ? 0 : zp0;
		buf = malloc((size_t)(N * K));
		if (!buf) {
			ret = vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
			goto out;
		}
		for (j = 0; j < N; j++)
			for (k = 0; k < K; k++) {
				size_t src = m->transb ? (size_t)(j * K + k) :
					     (size_t)(k * N + j);
				int64_t v = qconst_at(q, src, (size_t)j);

				if (fold) {
					v -= q->zp[j];
					if (v < -128 || v > 127) {
						free(buf);
						vc_unsupported(p, n, "per-column zero points: a recentred weight does not fit int8");
						goto out;
					}
				}
				buf[j * K + k] = (uint8_t)v;
			}
		wd[0] = N;
		wd[1] = K;
		wt = vc_const_qt(p, wdt, 2, wd, buf);
		free(buf);
		if (wt < 0)
			goto out;
		for (i = 0; i < N; i++)
			fac[i] = m->sa * (q->n ? q->scale[q->n > 1 ? i : 0] : 1.0);
	}
	if (m->bias) {
		const struct vc_value *bv = m->bias;
		int64_t bd = bv->rank > 0 ? bv->dims[bv->rank - 1] : 1;

		if (vc_numel(bv) != (uint64_t)N && vc_numel(bv) != 1) {
			vc_unsupported(p, n, "bias C must have N or 1 values");
			goto out;
		}
		if (bd == N || vc_numel(bv) == (uint64_t)N) {
			double *sacc = malloc(sizeof(double) * (size_t)N);

			if (!sacc)
				goto out;
			for (i = 0; i < N; i++)
				sacc[i] = fac[i] * m->alpha / m->beta;
			r = (unsigned int)bias_values(c, n, bv, sacc, (unsigned int)N, bias);
			free(sacc);
			if (r)
				goto out;
		} else {
			vc_unsupported(p, n, "a scalar bias C is not supported");
			goto out;
		}
		wd[0] = N;
		bt = vc_const_qt(p, VPUX_DT_I32, 1, wd, bias);
		if (bt < 0)
			goto out;
	}
	if (m->dty == VPUX_DT_I32) {
		/* MatMulInteger: raw accumulators, no output stage */
		amin = amax = 0;
	} else {
		for (i = 0; i < N; i++)
			fac[i] = fac[i] * m->alpha / m->sy;
		if (requant_records(c, n, fac, (unsigned int)N, &rq, &qt))
			goto out;
		if (clamp_q(m->lo, m->hi, m->sy, m->zy, m->dty, &amin, &amax)) {
			vc_unsupported(p, n, "the output clamp is empty");
			goto out;
		}
	}
	d.in_dt = p->t[a].dt;
	d.w_dt = wdt;
	d.out_dt = m->dty;
	y = vc_new_qt(p, m->dty, (unsigned int)yv->rank, yv->dims, 0);
	if (y < 0)
		goto out;
	p->t[y].scale = m->sy;
	p->t[y].zp = m->zy;
	vc_dpu_init(&qd, VPUX_DPU_OP_MATMUL, flags_of(&d, bt >= 0, qt >= 0));
	qd.t[QD_IN] = a;
	qd.t[QD_IN2] = wt;
	qd.t[QD_BIAS] = bt;
	qd.t[QD_QUANT] = qt;
	qd.t[QD_OUT] = y;
	qd.d.in_c = (uint16_t)K;
	qd.d.out_c = (uint16_t)N;
	qd.d.in_w = qd.d.out_w = 1;
	qd.d.in_zp = m->za;
	qd.d.in2_zp = wzp;
	qd.d.out_zp = m->dty == VPUX_DT_I32 ? 0 : m->zy;
	qd.d.act_min = amin;
	qd.d.act_max = amax;
	if (qt < 0 && m->dty != VPUX_DT_I32)
		qd.d.requant = rq;
	if (!runtime) {
		qd.d.in_h = qd.d.out_h = (uint16_t)(batch * M);
		if (vc_emit_dpu(p, node, &qd) < 0)
			goto out;
	} else {
		int b = vc_vq_of(c, m->bv);
		int64_t dd[2] = { bbatch * N, K };
		unsigned int ea = vc_dt_bytes(p->t[a].dt);
		unsigned int eb = vc_dt_bytes(p->t[b].dt);
		unsigned int eo = vc_dt_bytes(m->dty);

		b = vc_as_rowmajor(c, node, b);
		if (b < 0)
			goto out;
		wt = vc_new_qt(p, wdt, 2, dd, 0);
		if (wt < 0)
			goto out;
		qd.t[QD_IN2] = wt;
		for (bb = 0; bb < bbatch; bb++)
			if (transpose2(c, node, b, (uint64_t)(bb * K * N * eb), K,
				       N, wt, (uint64_t)(bb * N * K * eb)))
				goto out;
		qd.d.in_h = qd.d.out_h = (uint16_t)M;
		for (bb = 0; bb < batch; bb++) {
			int64_t wb = bbatch == 1 ? 0 : bb;

			qd.off[QD_IN] = (uint64_t)(bb * M * K * ea);
			qd.len[QD_IN] = (uint64_t)(M * K * ea);
			qd.off[QD_IN2] = (uint64_t)(wb * N * K * eb);
			qd.len[QD_IN2] = (uint64_t)(N * K * eb);
			qd.off[QD_OUT] = (uint64_t)(bb * M * N * eo);
			qd.len[QD_OUT] = (uint64_t)(M * N * eo);
			if (vc_emit_dpu(p, node, &qd) < 0)
				goto out;
		}
	}
	vc_set_vq(c, yv, y);
	ret = 0;
out:
	free(q);
	free(fac);
	free(bias);
	return ret;
}

/* ---- SHAVE kernels ---- */

int vc_shave_op(struct lctx *c, int node, int x, int y, const char *fmt,
		    ...)
{
	struct qprog *p = c->p;
	char params[256];
	va_list ap;
	int op;

	va_start(ap, fmt);
	vsnprintf(params, sizeof(params), fmt, ap);
	va_end(ap);
	op = vc_emit_op(p, QOP_SHAVE, node, "shave %s", params);
	if (op < 0)
		return op;
	/* @fmt names @x and @y as in= and out=; they are its tensors */
	vc_op_uses(p, op, x);
	vc_op_uses(p, op, y);
	return op;
}

/* Softmax / Sigmoid / Tanh of a quantized view into (sy, zy, dty) */
static int lower_act(struct lctx *c, int node, const struct vc_value *yv,
		     int x, double sy, int32_t zy, int32_t dty)
{
	const struct vc_node *n = &c->m->n[node];
	struct qprog *p = c->p;
	double sx = p->t[x].scale;
	struct vpux_hw_requant ri, ro;
	int y, op;

	if (!(sx > 0) || p->t[x].dt == VPUX_DT_I32 || dty == VPUX_DT_I32) {
		vc_unsupported(p, n, "8-bit quantized input and output needed");
		return -1;
	}
	y = vc_new_qt(p, dty, p->t[x].rank, p->t[x].dims, p->t[x].order);
	if (y < 0)
		return -1;
	p->t[y].scale = sy;
	p->t[y].zp = zy;
	if (vc_requant(1.0 / (65536.0 * sy), &ro))
		goto range;
	if (!strcmp(n->op, "Softmax")) {
		int64_t axis = vc_attr_i(n, "axis", c->m->opset >= 13 ? -1 : 1);

		if (axis < 0)
			axis += p->t[x].rank;
		if (axis < 0 || axis >= p->t[x].rank) {
			vc_unsupported(p, n, "axis out of range");
			return -1;
		}
		if (c->m->opset < 13 && axis != p->t[x].rank - 1) {
			int64_t k, rest = 1;

			for (k = axis + 1; k < p->t[x].rank; k++)
				rest *= p->t[x].dims[k];
			if (rest != 1) {
				vc_unsupported(p, n, "opset < 13 softmax over the flattened dims from axis %lld",
					       (long long)axis);
				return -1;
			}
		}
		if (vc_requant(sx * 65536.0, &ri))
			goto range;
		op = vc_shave_op(c, node, x, y,
			      "softmax in=t%d out=t%d axis=%lld out_zp=%d beta_scale=%d,%d out_scale=%d,%d",
			      x, y, (long long)axis, zy, ri.mult, ri.shift,
			      ro.mult, ro.shift);
	} else {
		if (vc_requant(sx * 65536.0, &ri))
			goto range;
		op = vc_shave_op(c, node, x, y,
			      "%s in=t%d out=t%d in_zp=%d out_zp=%d in_scale=%d,%d out_scale=%d,%d",
			      !strcmp(n->op, "Sigmoid") ? "sigmoid" : "tanh", x,
			      y, p->t[x].zp, zy, ri.mult, ri.shift, ro.mult,
			      ro.shift);
	}
	if (op < 0)
		return -1;
	vc_set_vq(c, yv, y);
	return 0;
range:
	vc_unsupported(p, n, "%s", vpux_last_error());
	return -1;
}

/* requantize x into (sy, zy, dty): SHAVE QUANTIZE, or nothing */
static int requantize(struct lctx *c, int node, int x, double sy, int32_t zy,
		      int32_t dty)
{
	struct qprog *p = c->p;
	struct vpux_hw_requant rq;
	int y, op;

	if (p->t[x].dt == dty && p->t[x].zp == zy &&
	    same_scale(p->t[x].scale, sy))
		return x;
	if (!(p->t[x].scale > 0) || vc_requant(p->t[x].scale / sy, &rq)) {
		vc_unsupported(p, &c->m->n[node], "cannot requantize (input has no scale or the factor is out of range)");
		return -1;
	}
	y = vc_new_qt(p, dty, p->t[x].rank, p->t[x].dims, p->t[x].order);
	if (y < 0)
		return -1;
	p->t[y].scale = sy;
	p->t[y].zp = zy;
	op = vc_shave_op(c, node, x, y,
		      "quantize in=t%d out=t%d in_zp=%d out_zp=%d scale=%d,%d",
		      x, y, p->t[x].zp, zy, rq.mult, rq.shift);
	return op < 0 ? -1 : y;
}

/* clamp x's raw values into [lo, hi] (SHAVE CLAMP); same parameters */
static int clamp_raw(struct lctx *c, int node, int x, int32_t lo, int32_t hi)
{
	struct qprog *p = c->p;
	int y, op;

	if (lo <= vc_dt_min(p->t[x].dt) && hi >= vc_dt_max(p->t[x].dt))
		return x;
	y = vc_new_qt(p, p->t[x].dt, p->t[x].rank, p->t[x].dims,
		      p->t[x].order);
	if (y < 0)
		return -1;
	p->t[y].scale = p->t[x].scale;
	p->t[y].zp = p->t[x].zp;
	op = vc_shave_op(c, node, x, y, "clamp in=t%d out=t%d min=%d max=%d", x,
		      y, lo, hi);
	return op < 0 ? -1 : y;
}

/* ---- the node walk ---- */

int vc_is_float(const struct vc_value *v)
{
	return v && v->dtype == VPUXC_FLOAT;
}

/* t with quantization (s, zp): itself or a view */
static int with_params(struct lctx *c, int t, double s, int32_t zp)
{
	struct qt *q = &c->p->t[t];

	if (!(q->scale > 0)) {
		q->scale = s;
		q->zp = zp;
		return t;
	}
	if (same_scale(q->scale, s) && q->zp == zp)
		return t;
	t = vc_view_qt(c->p, t, q->rank, q->dims, q->order);
	if (t >= 0) {
		c->p->t[t].scale = s;
		c->p->t[t].zp = zp;
	}
	return t;
}

static int clip_bounds(struct lctx *c, const struct vc_node *n, double *lo,
		       double *hi)
{
	const struct vpuxc_tensor *a, *b;

	*lo = -INFINITY;
	*hi = INFINITY;
	if (!strcmp(n->op, "Relu")) {
		*lo = 0;
		return 0;
	}
	if (c->m->opset < 11) {
		*lo = vc_attr_f(n, "min", -INFINITY);
		*hi = vc_attr_f(n, "max", INFINITY);
		return 0;
	}
	if ((vc_in(c->m, n, 1) && !(a = vc_cst_of(c, n, 1))) ||
	    (vc_in(c->m, n, 2) && !(b = vc_cst_of(c, n, 2)))) {
		vc_unsupported(c->p, n, "min/max are not constants");
		return -1;
	}
	a = vc_cst_of(c, n, 1);
	b = vc_cst_of(c, n, 2);
	if ((a && vpuxc_tensor_count(a) != 1) ||
	    (b && vpuxc_tensor_count(b) != 1)) {
		vc_unsupported(c->p, n, "min/max must be scalars");
		return -1;
	}
	if (a)
		*lo = vc_cst_f(a, 0);
	if (b)
		*hi = vc_cst_f(b, 0);
	return 0;
}

/* lower pending compute node @k so that its result is @yv in (s, zp, dt) */
static int lower_pending(struct lctx *c, int k, const struct vc_value *yv,
			 double s, int32_t zp, int32_t dt, double lo, double hi)
{
	const struct vc_node *n = &c->m->n[k];
	const char *op = n->op;
	int x = vc_vq_of(c, vc_in(c->m, n, 0));

	if (!strcmp(op, "Conv")) {
		struct conv_args a;
		struct qconst *w = malloc(sizeof(*w));
		const struct vc_value *wv = vc_in(c->m, n, 1);
		int r;

		if (!w)
			return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		memset(&a, 0, sizeof(a));
		a.x = x;
		a.sx = c->p->t[x].scale;
		a.bias = vc_in(c->m, n, 2);
		a.sy = s;
		a.zy = zp;
		a.dty = dt;
		a.lo = lo;
		a.hi = hi;
		a.alpha = 1;
		if (wv && vc_vq_of(c, wv) >= 0) {
			a.wt = vc_vq_of(c, wv);
			a.sw1 = c->p->t[a.wt].scale;
			a.wzp1 = c->p->t[a.wt].zp;
			r = lower_conv(c, k, yv, &a);
		} else if (wv && !qconst_of(c, wv, w) && w->n) {
			a.w = w;
			r = lower_conv(c, k, yv, &a);
		} else {
			vc_unsupported(c->p, n, "weights are not a quantized constant (DequantizeLinear of an integer initializer)");
			r = -1;
		}
		free(w);
		return r;
	}
	if (!strcmp(op, "MatMul") || !strcmp(op, "Gemm")) {
		struct mm_args *m = calloc(1, sizeof(*m));
		int r, gemm = !strcmp(op, "Gemm");

		if (!m)
			return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		if (gemm && vc_attr_i(n, "transA", 0)) {
			vc_unsupported(c->p, n, "transA=1 is not supported");
			free(m);
			return -1;
		}
		m->a = x;
		m->sa = c->p->t[x].scale;
		m->za = c->p->t[x].zp;
		m->bv = vc_in(c->m, n, 1);
		m->transb = gemm ? (int)vc_attr_i(n, "transB", 0) : 0;
		m->bias = gemm ? vc_in(c->m, n, 2) : NULL;
		m->alpha = gemm ? vc_attr_f(n, "alpha", 1.0f) : 1.0;
		m->beta = gemm ? vc_attr_f(n, "beta", 1.0f) : 1.0;
		m->sy = s;
		m->zy = zp;
		m->dty = dt;
		m->lo = lo;
		m->hi = hi;
		if (!(m->alpha > 0) || (m->bias && !(m->beta > 0))) {
			vc_unsupported(c->p, n, "alpha and beta must be positive");
			free(m);
			return -1;
		}
		r = lower_matmul(c, k, yv, m);
		free(m);
		return r;
	}
	if (!strcmp(op, "Add") || !strcmp(op, "Mul"))
		return lower_eltwise(c, k, yv, s, zp, dt, lo, hi);
	if (!strcmp(op, "AveragePool") || !strcmp(op, "GlobalAveragePool"))
		return lower_pool(c, k, yv, x, s, zp, dt, lo, hi);
	if (!strcmp(op, "Softmax") || !strcmp(op, "Sigmoid") ||
	    !strcmp(op, "Tanh")) {
		int32_t amin, amax;
		int y;

		if (lower_act(c, k, yv, x, s, zp, dt))
			return -1;
		if (clamp_q(lo, hi, s, zp, dt, &amin, &amax)) {
			vc_unsupported(c->p, n, "the output clamp is empty");
			return -1;
		}
		y = clamp_raw(c, k, vc_vq_of(c, yv), amin, amax);
		if (y < 0)
			return -1;
		vc_set_vq(c, yv, y);
		return 0;
	}
	vc_unsupported(c->p, n, "internal: not a compute op");
	return -1;
}

static int float_compute(const char *op)
{
	static const char *const ops[] = {
		"Conv", "MatMul", "Gemm", "Add", "Mul", "AveragePool",
		"GlobalAveragePool", "Softmax", "Sigmoid", "Tanh",
	};
	unsigned int i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(op, ops[i]))
			return 1;
	return 0;
}

/* QuantizeLinear of an FP16 tensor: SHAVE CONVERT to the 8-bit type */
static int quantize_f16(struct lctx *c, int k, int x,
			const struct vc_value *y, unsigned int cnt, double s,
			int32_t zp, int32_t dt)
{
	struct qprog *p = c->p;
	int ts[2], t;

	if (cnt != 1) {
		vc_unsupported(p, &c->m->n[k], "per-axis quantization of a float tensor");
		return VC_REPORTED;
	}
	x = vc_f16_shave_in(c, k, x);
	if (x < 0)
		return x;
	t = vc_new_qt(p, dt, p->t[x].rank, p->t[x].dims, p->t[x].order);
	if (t < 0)
		return t;
	p->t[t].scale = s;
	p->t[t].zp = zp;
	ts[0] = x;
	ts[1] = t;
	if (vc_shave_f(c, k, ts, 2, "convert in=t%d out=t%d scale=%a zero_point=%d",
		       x, t, (double)(float)s, zp) < 0)
		return VPUX_E_NOMEM;
	vc_set_vq(c, y, t);
	return 0;
}

static int do_quantize(struct lctx *c, int k)
{
	const struct vc_node *n = &c->m->n[k];
	struct qprog *p = c->p;
	const struct vc_value *x = vc_in(c->m, n, 0), *y = vc_out(c->m, n, 0);
	double s[4096];
	int32_t zp[4096], dt;
	unsigned int cnt = 4096;
	int vx = x ? (int)(x - c->m->v) : -1, t;

	if (!x || !y)
		return 0;
	if (x->cst)
		return 0;	/* a constant: folded where it is used */
	if (qparam(c, n, 1, 2, s, zp, &dt, &cnt))
		return -1;
	if (dt == VPUX_DT_I32) {
		vc_unsupported(p, n, "int32 output");
		return -1;
	}
	t = vc_vq_of(c, x);
	if (t >= 0 && vc_qt_is_f(&p->t[t]))
		return quantize_f16(c, k, t, y, cnt, s[0], zp[0], dt);
	if ((x->flags & VC_V_INPUT) && vc_is_float(x)) {
		unsigned int i;

		for (i = 0; i < p->n_in; i++)
			if (p->in_v[i] == vx)
				break;
		if (p->in_q[i] >= 0) {
			int prev = p->in_qnode[i];

			if (prev != k) {
				vc_unsupported(p, n, "graph input '%s' is quantized by two QuantizeLinear nodes",
					       x->name);
				return -1;
			}
		}
		if (x->rank < 0 || vc_numel(x) == 0) {
			vc_unsupported(p, n, "graph input '%s' has no static shape",
				       x->name);
			return -1;
		}
		t = vc_new_qt(p, dt, (unsigned int)x->rank, x->dims, 0);
		if (t < 0)
			return -1;
		p->t[t].region = QR_INPUT;
		p->t[t].index = i;
		if (cnt == 1) {
			p->t[t].scale = s[0];
			p->t[t].zp = zp[0];
		}
		p->in_q[i] = t;
		p->in_qnode[i] = k;
		vc_set_vq(c, y, t);
		return 0;
	}
	if (cnt != 1) {
		vc_unsupported(p, n, "per-axis quantization inside the graph");
		return -1;
	}
	if (c->pend[vx].node >= 0) {
		if (x->n_uses != 1) {
			vc_unsupported(p, &c->m->n[c->pend[vx].node],
				       "its float result '%s' has other uses than one QuantizeLinear",
				       x->name);
			return -1;
		}
		return lower_pending(c, c->pend[vx].node, y, s[0], zp[0], dt,
				     c->pend[vx].lo, c->pend[vx].hi);
	}
	if (vc_vq_of(c, x) >= 0 && vc_is_float(x)) {
		t = requantize(c, k, vc_vq_of(c, x), s[0], zp[0], dt);
		if (t < 0)
			return -1;
		vc_set_vq(c, y, t);
		return 0;
	}
	vc_unsupported(p, n, "input '%s' is neither a graph input, a quantized view nor a lowered float op",
		       x->name);
	return -1;
}

static int do_dequantize(struct lctx *c, int k)
{
	const struct vc_node *n = &c->m->n[k];
	struct qprog *p = c->p;
	const struct vc_value *x = vc_in(c->m, n, 0), *y = vc_out(c->m, n, 0);
	double s[4096];
	int32_t zp[4096], dt;
	unsigned int cnt = 4096;
	int t;

	if (!x || !y || x->cst)
		return 0;	/* constants: read where they are used */
	t = vc_vq_of(c, x);
	if (t < 0) {
		vc_unsupported(p, n, "input '%s' is not a quantized tensor on the NPU",
			       x->name);
		return -1;
	}
	if (qparam(c, n, 1, 2, s, zp, &dt, &cnt))
		return -1;
	if (dt != p->t[t].dt && !(cnt && dt == VPUX_DT_U8 &&
				  !vc_in(c->m, n, 2))) {
		vc_unsupported(p, n, "zero point type differs from the input's");
		return -1;
	}
	if (cnt > 1) {
		if (!(y->flags & VC_V_OUTPUT) || y->n_uses) {
			vc_unsupported(p, n, "per-axis dequantization of an activation inside the graph");
			return -1;
		}
		vc_set_vq(c, y, t);	/* the host dequantizes per axis */
		return 0;
	}
	t = with_params(c, t, s[0], zp[0]);
	if (t < 0)
		return -1;
	vc_set_vq(c, y, t);
	return 0;
}

static int do_qlinear(struct lctx *c, int k)
{
	const struct vc_node *n = &c->m->n[k];
	struct qprog *p = c->p;
	const struct vc_value *y = vc_out(c->m, n, 0), *xv = vc_in(c->m, n, 0);
	int conv = !strcmp(n->op, "QLinearConv");
	double sx, sy;
	int32_t zx, zy, dx, dy, dw;
	int x = vc_vq_of(c, xv), r;

	if (!y)
		return 0;
	if (x < 0) {
		vc_unsupported(p, n, "input '%s' is not a quantized tensor on the NPU",
			       xv ? xv->name : "");
		return -1;
	}
	if (qparam1(c, n, 1, 2, &sx, &zx, &dx) ||
	    qparam1(c, n, 6, 7, &sy, &zy, &dy))
		return -1;
	if (dx != p->t[x].dt) {
		vc_unsupported(p, n, "x_zero_point type differs from x's");
		return -1;
	}
	x = with_params(c, x, sx, zx);
	if (x < 0)
		return -1;
	if (conv) {
		struct conv_args a;
		struct qconst *w = calloc(1, sizeof(*w));
		const struct vc_value *wv = vc_in(c->m, n, 3);
		unsigned int cnt = 4096;

		if (!w)
			return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		memset(&a, 0, sizeof(a));
		if (qparam(c, n, 4, 5, w->scale, w->zp, &dw, &cnt)) {
			free(w);
			return -1;
		}
		w->n = cnt;
		w->axis = cnt > 1 ? 0 : -1;
		w->dt = dw;
		a.x = x;
		a.sx = sx;
		a.bias = vc_in(c->m, n, 8);
		a.sy = sy;
		a.zy = zy;
		a.dty = dy;
		a.lo = -INFINITY;
		a.hi = INFINITY;
		a.alpha = 1;
		if (wv && wv->cst && vc_dt_of_onnx(wv->cst->dtype) == dw) {
			w->data = wv->cst;
			a.w = w;
		} else if (wv && vc_vq_of(c, wv) >= 0 && cnt == 1 &&
			   p->t[vc_vq_of(c, wv)].dt == dw) {
			a.wt = vc_vq_of(c, wv);
			a.sw1 = w->scale[0];
			a.wzp1 = w->zp[0];
		} else {
			vc_unsupported(p, n, "weights must be an 8-bit constant, or a tensor with one scale, of the zero point's type");
			free(w);
			return -1;
		}
		r = lower_conv(c, k, y, &a);
		free(w);
		return r;
	} else {
		struct mm_args *m = calloc(1, sizeof(*m));
		unsigned int cnt = 4096;
		const struct vc_value *bv = vc_in(c->m, n, 3);

		if (!m)
			return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		if (qparam(c, n, 4, 5, m->sb, m->zb, &dw, &cnt)) {
			free(m);
			return -1;
		}
		m->nb = cnt;
		m->qop = 1;
		m->a = x;
		m->sa = sx;
		m->za = zx;
		m->bv = bv;
		m->alpha = m->beta = 1;
		m->sy = sy;
		m->zy = zy;
		m->dty = dy;
		m->lo = -INFINITY;
		m->hi = INFINITY;
		r = lower_matmul(c, k, y, m);
		free(m);
		return r;
	}
}

/* an integer zero-point input (scalar, or per channel) */
static int int_zp(struct lctx *c, const struct vc_node *n, unsigned int slot,
		  int32_t *zp, unsigned int *cnt, int32_t dt)
{
	const struct vc_value *v = vc_in(c->m, n, slot);
	size_t i, nz;

	*cnt = 1;
	zp[0] = 0;
	if (!v)
		return 0;
	if (!v->cst) {
		vc_unsupported(c->p, n, "input %u (zero point) is not a constant",
			       slot);
		return -1;
	}
	nz = vpuxc_tensor_count(v->cst);
	if (!nz || nz > 4096 || (dt && vc_dt_of_onnx(v->cst->dtype) != dt)) {
		vc_unsupported(c->p, n, "zero point '%s': %zu values of type %s",
			       v->name, nz, vpuxc_dtype_name(v->cst->dtype));
		return -1;
	}
	for (i = 0; i < nz; i++)
		zp[i] = (int32_t)vc_cst_i(v->cst, i);
	*cnt = (unsigned int)nz;
	return 0;
}

/* ConvInteger / MatMulInteger: int32 accumulators out of the DPU */
static int do_integer(struct lctx *c, int k)
{
	const struct vc_node *n = &c->m->n[k];
	struct qprog *p = c->p;
	const struct vc_value *y = vc_out(c->m, n, 0), *xv = vc_in(c->m, n, 0);
	const struct vc_value *wv = vc_in(c->m, n, 1);
	int x = vc_vq_of(c, xv), conv = !strcmp(n->op, "ConvInteger"), r = -1;
	struct qconst *w = calloc(1, sizeof(*w));
	int32_t xzp[4096];
	unsigned int nx, nw, i;

	if (!w)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	if (!y)
		goto out0;
	if (x < 0) {
		vc_unsupported(p, n, "input '%s' is not a tensor on the NPU",
			       xv ? xv->name : "");
		goto out;
	}
	if (int_zp(c, n, 2, xzp, &nx, p->t[x].dt) ||
	    int_zp(c, n, 3, w->zp, &nw, 0))
		goto out;
	if (nx != 1) {
		vc_unsupported(p, n, "the input zero point must be one value");
		goto out;
	}
	x = with_params(c, x, 1.0, xzp[0]);
	if (x < 0)
		goto out;
	w->n = nw;
	w->axis = nw > 1 ? (conv ? 0 : 1) : -1;
	for (i = 0; i < nw; i++)
		w->scale[i] = 1.0;
	if (conv) {
		struct conv_args a;

		memset(&a, 0, sizeof(a));
		a.x = x;
		a.sx = 1;
		a.sy = 1;
		a.dty = VPUX_DT_I32;
		a.lo = -INFINITY;
		a.hi = INFINITY;
		a.alpha = 1;
		if (wv && wv->cst && vc_dt_of_onnx(wv->cst->dtype)) {
			w->data = wv->cst;
			w->dt = vc_dt_of_onnx(wv->cst->dtype);
			a.w = w;
		} else if (wv && vc_vq_of(c, wv) >= 0 && nw == 1) {
			a.wt = vc_vq_of(c, wv);
			a.sw1 = 1;
			a.wzp1 = w->zp[0];
		} else {
			vc_unsupported(p, n, "weights must be an 8-bit constant, or a tensor with one zero point");
			goto out;
		}
		r = lower_conv(c, k, y, &a);
	} else {
		struct mm_args *m = calloc(1, sizeof(*m));

		if (!m) {
			r = vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
			goto out;
		}
		m->qop = 1;
		m->nb = nw;
		for (i = 0; i < nw; i++) {
			m->sb[i] = 1;
			m->zb[i] = w->zp[i];
		}
		m->a = x;
		m->sa = 1;
		m->za = xzp[0];
		m->bv = wv;
		m->alpha = m->beta = 1;
		m->sy = 1;
		m->dty = VPUX_DT_I32;
		m->lo = -INFINITY;
		m->hi = INFINITY;
		r = lower_matmul(c, k, y, m);
		free(m);
	}
out:
	free(w);
	return r;
out0:
	free(w);
	return 0;
}

static int do_layout(struct lctx *c, int k)
{
	const struct vc_node *n = &c->m->n[k];
	struct qprog *p = c->p;
	const struct vc_value *xv = vc_in(c->m, n, 0), *y = vc_out(c->m, n, 0);
	int x = vc_vq_of(c, xv), t;

	if (!y)
		return 0;
	if (x < 0) {
		vc_unsupported(p, n, "input '%s' is not a quantized tensor on the NPU",
			       xv ? xv->name : "");
		return -1;
	}
	if (!strcmp(n->op, "Identity")) {
		vc_set_vq(c, y, x);
		return 0;
	}
	if (y->rank < 0 || !vc_numel(y) || (unsigned int)y->rank > QT_MAX_RANK) {
		vc_unsupported(p, n, "output shape unknown");
		return -1;
	}
	if (!strcmp(n->op, "Transpose")) {
		int64_t perm[VPUXC_MAX_RANK];
		int np = vc_attr_ints(n, "perm", perm, VPUXC_MAX_RANK), i;
		const struct qt *q = &p->t[x];
		char ps[64] = "";
		int op;

		if (np <= 0)
			for (i = 0, np = (int)q->rank; i < np; i++)
				perm[i] = np - 1 - i;
		/* NHWC data read as [N, H, W, C]: the same bytes */
		if (q->rank == 4 && q->order == ORDER_NHWC && perm[0] == 0 &&
		    perm[1] == 2 && perm[2] == 3 && perm[3] == 1) {
			t = vc_view_qt(p, x, 4, y->dims, 0);
			if (t < 0)
				return -1;
			vc_set_vq(c, y, t);
			return 0;
		}
		t = vc_new_qt(p, q->dt, (unsigned int)y->rank, y->dims, 0);
		if (t < 0)
			return -1;
		p->t[t].scale = p->t[x].scale;
		p->t[t].zp = p->t[x].zp;
		for (i = 0; i < np; i++)
			snprintf(ps + strlen(ps), sizeof(ps) - strlen(ps),
				 "%s%lld", i ? "," : "", (long long)perm[i]);
		op = vc_shave_op(c, k, x, t, "permute in=t%d out=t%d perm=%s", x,
			      t, ps);
		if (op < 0)
			return -1;
		vc_set_vq(c, y, t);
		return 0;
	}
	/* Reshape, Flatten, Squeeze, Unsqueeze: a row-major view */
	x = vc_as_rowmajor(c, k, x);
	if (x < 0)
		return -1;
	t = vc_view_qt(p, x, (unsigned int)y->rank, y->dims, 0);
	if (t < 0)
		return -1;
	vc_set_vq(c, y, t);
	return 0;
}

static int do_clip(struct lctx *c, int k)
{
	const struct vc_node *n = &c->m->n[k];
	struct qprog *p = c->p;
	const struct vc_value *xv = vc_in(c->m, n, 0), *y = vc_out(c->m, n, 0);
	int vx = xv ? (int)(xv - c->m->v) : -1, x, t;
	double lo, hi;
	int32_t qlo, qhi;

	if (!y || vx < 0)
		return 0;
	if (clip_bounds(c, n, &lo, &hi))
		return -1;
	if (c->pend[vx].node >= 0) {
		int vy = (int)(y - c->m->v);

		if (xv->n_uses != 1) {
			vc_unsupported(p, n, "input '%s' has other uses", xv->name);
			return -1;
		}
		c->pend[vy] = c->pend[vx];
		c->pend[vy].lo = fmax(c->pend[vy].lo, lo);
		c->pend[vy].hi = fmin(c->pend[vy].hi, hi);
		c->pend[vx].node = -1;
		return 0;
	}
	x = vc_vq_of(c, xv);
	if (x < 0) {
		vc_unsupported(p, n, "input '%s' is not a quantized tensor on the NPU",
			       xv->name);
		return -1;
	}
	if (vc_is_float(xv)) {
		if (!(p->t[x].scale > 0)) {
			vc_unsupported(p, n, "input has no scale");
			return -1;
		}
		if (clamp_q(lo, hi, p->t[x].scale, p->t[x].zp, p->t[x].dt,
			    &qlo, &qhi)) {
			vc_unsupported(p, n, "empty clamp");
			return -1;
		}
	} else {
		/* integer Clip: raw bounds */
		qlo = lo < vc_dt_min(p->t[x].dt) ? vc_dt_min(p->t[x].dt) :
		      lo > vc_dt_max(p->t[x].dt) ? vc_dt_max(p->t[x].dt) : (int32_t)lo;
		qhi = hi > vc_dt_max(p->t[x].dt) ? vc_dt_max(p->t[x].dt) :
		      hi < vc_dt_min(p->t[x].dt) ? vc_dt_min(p->t[x].dt) : (int32_t)hi;
		if (qlo > qhi)
			qlo = qhi;	/* ONNX: min > max gives max */
	}
	t = clamp_raw(c, k, x, qlo, qhi);
	if (t < 0)
		return -1;
	if (t == x && !(y->flags & VC_V_OUTPUT))
		t = x;
	vc_set_vq(c, y, t);
	return 0;
}

static int do_node(struct lctx *c, int k)
{
	const struct vc_node *n = &c->m->n[k];
	struct qprog *p = c->p;
	const char *op = n->op;
	unsigned int i;

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
		return do_quantize(c, k);
	if (!strcmp(op, "DequantizeLinear"))
		return do_dequantize(c, k);
	if (!strcmp(op, "QLinearConv") || !strcmp(op, "QLinearMatMul"))
		return do_qlinear(c, k);
	if (!strcmp(op, "ConvInteger") || !strcmp(op, "MatMulInteger"))
		return do_integer(c, k);
	if (!strcmp(op, "Relu") || !strcmp(op, "Clip"))
		return do_clip(c, k);
	if (!strcmp(op, "Reshape") || !strcmp(op, "Flatten") ||
	    !strcmp(op, "Squeeze") || !strcmp(op, "Unsqueeze") ||
	    !strcmp(op, "Identity") || !strcmp(op, "Transpose"))
		return do_layout(c, k);
	if (!strcmp(op, "MaxPool")) {
		const struct vc_value *xv = vc_in(c->m, n, 0);
		int x = vc_vq_of(c, xv);

		if (x < 0) {
			vc_unsupported(p, n, "input is not a quantized tensor on the NPU");
			return -1;
		}
		if (!vc_out(c->m, n, 0))
			return 0;
		return lower_pool(c, k, vc_out(c->m, n, 0), x, 0, 0,
				  p->t[x].dt, -INFINITY, INFINITY);
	}
	if (float_compute(op)) {
		const struct vc_value *y = vc_out(c->m, n, 0);

		for (i = 0; i < n->n_in; i++) {
			const struct vc_value *v = vc_in(c->m, n, i);

			if (!v || v->cst)
				continue;
			if (c->pend[v - c->m->v].node >= 0) {
				vc_unsupported(p, n, "input '%s' is the float result of '%s', not quantized in between",
					       v->name,
					       c->m->n[c->pend[v - c->m->v].node].name);
				return -1;
			}
			if (!vc_is_float(v) || vc_vq_of(c, v) < 0) {
				if (!vc_is_float(v))
					vc_unsupported(p, n, "integer input '%s' (the NPU runs this op on quantized views)",
						       v->name);
				else if (v->producer >= 0 &&
					 !strcmp(c->m->n[v->producer].op, "DequantizeLinear"))
					continue;	/* DQ of a constant */
				else
					vc_unsupported(p, n, "input '%s' is a float value that is not dequantized from a quantized tensor",
						       v->name);
				return -1;
			}
		}
		if (!vc_in(c->m, n, 0) || vc_vq_of(c, vc_in(c->m, n, 0)) < 0) {
			if (strcmp(op, "Add") && strcmp(op, "Mul")) {
				vc_unsupported(p, n, "first input is not a quantized view");
				return -1;
			}
		}
		if (y)
			c->pend[y - c->m->v].node = k;
		return 0;
	}
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
	if (vc_qt_is_f(q))
		;	/* an FP16 result: the host converts it */
	else if (!vc_is_float(v) && vc_dt_of_onnx(v->dtype) != q->dt) {
		vc_unsupported(p, v->producer >= 0 ? &c->m->n[v->producer] : NULL,
			       "graph output '%s' is declared %s but holds %s values",
			       v->name, vpuxc_dtype_name(v->dtype),
			       q->dt == VPUX_DT_U8 ? "uint8" :
			       q->dt == VPUX_DT_I8 ? "int8" : "int32");
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
	    q->dims[2] * q->dims[3] > 1)
		return vc_reorder_into(c, -1, t, o, p->t[o].order) < 0 ? -1 : 0;
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
		if (vc_is_float(v) || v->dtype == 10) {
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
	return ret;
}
