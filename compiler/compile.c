// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vpuxc_compile(): shape inference, lowering, placement, emission, then
 * the assembler and libvpux's loadable writer and validator. The .vpux.io
 * and .vpux.ioq sections record the ONNX view of the inputs and outputs
 * (compiler/io_format.h). A model with dim_params is bound to its
 * bounds' max first and becomes a plan after assembly (plan.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "err.h"
#include "io_format.h"
#include "kernels.h"
#include "lf_format.h"
#include "lower.h"
#include "vpux_dpu_rules.h"

struct ioq_buf {
	struct vpuxc_ioq_rec *r;
	unsigned int n, cap;
};

static int ioq_add(struct ioq_buf *b, double scale, int32_t zp)
{
	if (b->n == b->cap) {
		unsigned int cap = b->cap ? b->cap * 2 : 16;
		struct vpuxc_ioq_rec *r = realloc(b->r, sizeof(*r) * cap);

		if (!r)
			return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		b->r = r;
		b->cap = cap;
	}
	memset(&b->r[b->n], 0, sizeof(b->r[0]));
	b->r[b->n].scale = scale;
	b->r[b->n].zero_point = zp;
	b->n++;
	return 0;
}

/* the quantization parameters of Q/DQ node @k into @b; axis in @rec */
static int ioq_of_node(const struct vpuxc_model *m, int k,
		       struct vpuxc_io_rec *rec, struct ioq_buf *b)
{
	const struct vc_node *n = &m->n[k];
	const struct vc_value *s = vc_in(m, n, 1), *z = vc_in(m, n, 2);
	size_t cnt = vpuxc_tensor_count(s->cst), i;
	int64_t axis = vc_attr_i(n, "axis", 1);

	rec->qoffset = b->n;
	rec->qcount = (uint32_t)cnt;
	if (axis < 0)
		axis += rec->rank;
	rec->axis = cnt > 1 ? (int32_t)axis : -1;
	if (cnt > 1 && (axis < 0 || axis >= rec->rank ||
			(size_t)rec->dims[axis] != cnt))
		return vpux_err(VPUX_E_UNSUPPORTED,
				"%s '%s': %zu scales do not match axis %lld",
				n->op, n->name, cnt, (long long)axis);
	for (i = 0; i < cnt; i++)
		if (ioq_add(b, vc_cst_f(s->cst, i),
			    z && z->cst ? (int32_t)vc_cst_i(z->cst, i) : 0))
			return VPUX_E_NOMEM;
	return 0;
}

static int io_tables(const struct qprog *p, struct vpuxc_io_rec **recs,
		     unsigned int *nrec, struct ioq_buf *b)
{
	const struct vpuxc_model *m = p->m;
	unsigned int n = p->n_in + p->n_out, i;
	struct vpuxc_io_rec *r = calloc(n + 1, sizeof(*r));
	int ret = 0;

	if (!r)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	for (i = 0; !ret && i < n; i++) {
		int out = i >= p->n_in;
		unsigned int idx = out ? i - p->n_in : i;
		const struct vc_value *v = &m->v[out ? p->out_v[idx] : p->in_v[idx]];
		int qnode = out ? p->out_qnode[idx] : p->in_qnode[idx];
		const struct qt *t = &p->t[out ? p->out_q[idx] : p->in_q[idx]];
		unsigned int d;

		snprintf(r[i].name, sizeof(r[i].name), "%s", v->name);
		r[i].dir = out ? VPUXC_IO_OUTPUT : VPUXC_IO_INPUT;
		r[i].index = idx;
		r[i].onnx_dtype = v->dtype;
		r[i].rank = t->rank;
		for (d = 0; d < t->rank; d++)
			r[i].dims[d] = t->dims[d];
		if (v->rank == 0) {	/* a scalar travels as [1] */
			r[i].rank = 0;
			memset(r[i].dims, 0, sizeof(r[i].dims));
		}
		r[i].axis = -1;
		/* an integer or FP16 device tensor: no quantization */
		if (v->dtype != VPUXC_FLOAT || t->dt == VPUX_DT_F16 ||
		    t->dt == VPUX_DT_F32)
			continue;
		if (qnode >= 0) {
			ret = ioq_of_node(m, qnode, &r[i], b);
		} else {
			r[i].qoffset = b->n;
			r[i].qcount = 1;
			ret = ioq_add(b, t->scale, t->zp);
		}
	}
	if (ret) {
		free(r);
		return ret;
	}
	*recs = r;
	*nrec = n;
	return 0;
}

static uint64_t op_cycles(const struct qop *o)
{
	/* Documentation/compute-ops.rst: DPU 64 + max(compute, transfer) */
	if (o->kind == QOP_DPU) {
		struct vpux_dpu_extents e;
		uint64_t comp, tr;

		if (vpux_dpu_check(&o->dpu->d, &e))
			return 0;
		comp = o->dpu->d.op <= VPUX_DPU_OP_MATMUL ?
		       (e.macs + 255) / 256 : (e.macs + 31) / 32;
		tr = (e.in + e.in2 + e.out + e.bias + e.quant + 63) / 64;
		return 64 + (comp > tr ? comp : tr);
	}
	return o->kind == QOP_SHAVE ? 200 : 32;
}

/* one line per ONNX node (its consecutive ops), then the totals */
static void report(const struct qprog *p, const struct lf_image *img,
		   FILE *f)
{
	uint64_t macs = 0, cyc[3] = { 0 };
	unsigned int i, j, cnt[3] = { 0 }, ddr = 0, tiled = 0;
	char line[512];

	fprintf(f, "network %s: %u inputs, %u outputs\n", img->hdr.name,
		p->n_in, p->n_out);
	fprintf(f, "%-28s %-18s %4s %4s %5s %5s %12s %10s\n", "node",
		"onnx op", "DMA", "DPU", "SHAVE", "tiles", "MACs", "cycles~");
	for (i = 0; i < p->nop; i = j) {
		const struct vc_node *n = p->op[i].node >= 0 ?
					  &p->m->n[p->op[i].node] : NULL;
		unsigned int k[3] = { 0 }, tiles = 0, dpu_ddr = 0, e;
		uint64_t m = 0, c = 0;
		char ts[16];

		for (j = i; j < p->nop && p->op[j].node == p->op[i].node; j++) {
			const struct qop *o = &p->op[j];

			k[o->kind]++;
			m += o->macs;
			c += op_cycles(o);
			cyc[o->kind] += op_cycles(o);
			if (o->kind == QOP_DPU) {
				if (o->tiles)
					tiles = o->tiles;
				else
					dpu_ddr = 1;
			}
		}
		for (e = 0; e < 3; e++)
			cnt[e] += k[e];
		macs += m;
		ddr += dpu_ddr;
		tiled += tiles > 0;
		if (!k[1])
			snprintf(ts, sizeof(ts), "-");
		else if (dpu_ddr)
			snprintf(ts, sizeof(ts), "ddr");
		else
			snprintf(ts, sizeof(ts), "%u", tiles);
		fprintf(f, "%-28.28s %-18.18s %4u %4u %5u %5s %12llu %10llu\n",
			n ? n->name : "(output copy)", n ? n->op : "", k[0], k[1],
			k[2], ts,
			(unsigned long long)m, (unsigned long long)c);
	}
	fprintf(f, "ops per engine: DMA %u, DPU %u, SHAVE %u (%u in all)\n",
		cnt[0], cnt[1], cnt[2], p->nop);
	fprintf(f, "tiling: %u layers in CMX bands (%u KiB tiles), %u from scratch\n",
		tiled, (unsigned int)(VPUX_LF_CMX_TILE_SIZE / 1024), ddr);
	fprintf(f, "weights: %llu bytes; scratch: %llu bytes; DMA: %llu bytes\n",
		(unsigned long long)img->hdr.weights_size,
		(unsigned long long)img->hdr.scratch_size,
		(unsigned long long)p->dma_bytes);
	fprintf(f, "MACs: %llu\n", (unsigned long long)macs);
	if (p->lay_nhwc + p->lay_rm)
		fprintf(f, "layouts: %u NHWC, %u row-major; planned %u reorder DMAs, %u views; made %u reorder DMAs, %u unplanned\n%s",
			p->lay_nhwc, p->lay_rm, p->lay_dma, p->lay_views,
			p->lay_made, p->lay_unplanned,
			p->lay_log ? p->lay_log : "");
	vc_pass_summary(p->m, line, sizeof(line));
	fprintf(f, "%s\n", line);
	for (i = 0; i < p->syms.n; i++)
		fprintf(f, "symbol %s: %lld..%lld, tile %lld\n", p->syms.name[i],
			(long long)p->syms.min[i], (long long)p->syms.max[i],
			(long long)(p->syms.tile < p->syms.max[i] ?
				    p->syms.tile : p->syms.max[i]));
	if (p->syms.n)
		fprintf(f, "plan: %u blocks, %u templates, %u patches (each op above a template, run once per tile)\n",
			p->plan_blocks, p->plan_templates, p->plan_patches);
	fprintf(f, "cycle estimate: %llu serial (DMA %llu, DPU %llu, SHAVE %llu); %llu with full overlap\n",
		(unsigned long long)(cyc[0] + cyc[1] + cyc[2]),
		(unsigned long long)cyc[0], (unsigned long long)cyc[1],
		(unsigned long long)cyc[2],
		(unsigned long long)(cyc[0] > cyc[1] ?
				     (cyc[0] > cyc[2] ? cyc[0] : cyc[2]) :
				     (cyc[1] > cyc[2] ? cyc[1] : cyc[2])));
}

int vpuxc_compile(struct vpuxc_model *m, const struct vpuxc_options *o,
		  struct vpuxc_result *r)
{
	static const struct vpuxc_options defaults;
	struct lf_extra_section extra[2];
	struct vpuxc_io_rec *recs = NULL;
	struct ioq_buf ioq = { 0 };
	struct asm_opts ao;
	struct lf_image img;
	struct vc_syms syms;
	struct qprog p;
	unsigned int nrec = 0;
	char name[32], *text = NULL, *errs = NULL;
	size_t tlen = 0, elen = 0;
	FILE *f;
	int ret;

	memset(r, 0, sizeof(*r));
	memset(&img, 0, sizeof(img));
	if (!o)
		o = &defaults;
	snprintf(name, sizeof(name), "%s", o->name ? o->name : m->graph_name);
	for (char *c = name; *c; c++)
		if (*c == ' ' || *c == '#' || *c == '=' || *c < 0x21 || *c > 0x7e)
			*c = '_';
	memset(&p, 0, sizeof(p));
	if (o->cmx_tiles > VPUX_LF_CMX_TILES)
		return vpux_err(VPUX_E_INVAL,
				"compiler: cmx_tiles %u: the target has %u CMX tiles (0: all)",
				o->cmx_tiles, VPUX_LF_CMX_TILES);
	ret = vc_kernels_use(m, o);
	if (!ret)
		ret = vc_bind_symbols(m, o, &syms);
	if (ret)
		return ret;
	ret = vc_infer_shapes(m);
	if (!ret)
		ret = vc_run_passes(m);
	if (ret)
		return ret;
	ret = vc_lower(m, &p);
	if (ret)
		goto out;
	p.syms = syms;
	ret = vc_dyn_mark(&p);
	if (ret)
		goto out;
	/* a plan's iterations run in any order: no shared CMX bands */
	if (!o->no_cmx && !p.syms.n) {
		ret = vc_tile(&p, o->cmx_tiles);
		if (ret)
			goto out;
	}
	ret = vc_place(&p);
	if (ret)
		goto out;
	f = open_memstream(&text, &tlen);
	if (!f) {
		ret = vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		goto out;
	}
	ret = vc_emit_vasm(&p, name, f);
	fclose(f);
	if (ret)
		goto out;
	memset(&ao, 0, sizeof(ao));
	ao.blob = p.blob;
	ao.kernel_dir = vc_kernels_dir(m);
	ao.blob_size = p.blob_size;
	f = open_memstream(&errs, &elen);
	if (!f) {
		ret = vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		goto out;
	}
	ret = asm_text("<compiled>", text, &ao, &img, f);
	fclose(f);
	if (ret) {
		ret = vpux_err(VPUX_E_INVAL,
			       "compiler: internal error: the emitted program does not assemble: %s",
			       errs);
		goto out;
	}
	if (p.syms.n) {
		ret = vc_plan(&p, &img);
		if (ret)
			goto out_img;
	}
	ret = io_tables(&p, &recs, &nrec, &ioq);
	if (ret)
		goto out_img;
	memset(extra, 0, sizeof(extra));
	extra[0].name = VPUXC_IO_SECTION;
	extra[0].data = recs;
	extra[0].size = nrec * (uint32_t)sizeof(*recs);
	extra[0].rec_size = sizeof(*recs);
	extra[1].name = VPUXC_IOQ_SECTION;
	extra[1].data = ioq.r;
	extra[1].size = ioq.n * (uint32_t)sizeof(*ioq.r);
	extra[1].rec_size = sizeof(*ioq.r);
	img.extra = extra;
	img.n_extra = 2;
	ret = lf_validate(&img);
	if (ret) {
		char msg[1024];

		snprintf(msg, sizeof(msg), "%s", vpux_last_error());
		ret = vpux_err(ret, "compiler: internal error: the loadable fails validation: %s",
			       msg);
		goto out_img;
	}
	ret = lf_write_mem(&img, &r->loadable, &r->size);
	if (ret)
		goto out_img;
	if (o->report) {
		f = open_memstream(&r->report, &tlen);
		if (!f) {
			ret = vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
			goto out_img;
		}
		report(&p, &img, f);
		fclose(f);
	}
	if (o->vasm) {
		r->vasm = text;
		text = NULL;
	}
out_img:
	img.extra = NULL;
	img.n_extra = 0;
	vc_plan_free(&img);
	asm_free(&img);
out:
	if (ret)
		vpuxc_result_fini(r);
	free(recs);
	free(ioq.r);
	free(text);
	free(errs);
	vc_prog_free(&p);
	return ret;
}

void vpuxc_result_fini(struct vpuxc_result *r)
{
	free(r->loadable);
	free(r->report);
	free(r->vasm);
	memset(r, 0, sizeof(*r));
}
