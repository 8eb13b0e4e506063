// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Emission: the placed NPU program as vpux-asm text
 * (Documentation/vpux-asm.rst), the weights as the assembler's blob.
 * The assembler then lays out the records, builds the SHAVE argument
 * records and derives the barriers from the byte ranges, exactly as for
 * a hand-written network; `vpux-onnx compile --emit-vasm` shows the text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "hostconv.h"
#include "lower.h"
#include "vasm.h"

static void dims_str(const struct qt *t, char *buf, size_t len)
{
	size_t o = 0;
	unsigned int i;

	buf[0] = 0;
	for (i = 0; i < t->rank && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%lld", i ? "x" : "",
				      (long long)t->dims[i]);
}

static const char *type_str(int32_t dt)
{
	return hc_dev_type_name((uint32_t)dt);	/* umd/hostconv.c */
}

static void quant_str(const struct qt *t, char *buf, size_t len)
{
	struct vpux_hw_requant rq;

	buf[0] = 0;
	if (t->scale > 0 && !vc_requant(t->scale, &rq))
		snprintf(buf, len, " zp=%d scale=%d,%d", t->zp, rq.mult,
			 rq.shift);
	else if (t->zp)
		snprintf(buf, len, " zp=%d", t->zp);
}

static void decl(const struct qprog *p, int i, FILE *f)
{
	const struct qt *t = &p->t[i];
	char dims[128], q[64];

	dims_str(t, dims, sizeof(dims));
	quant_str(t, q, sizeof(q));
	fprintf(f, "tensor t%d %s %s order=0x%llx", i, type_str(t->dt), dims,
		(unsigned long long)t->order);
	switch (t->region) {
	case QR_WEIGHTS:
		fprintf(f, " region=weights offset=%llu%s",
			(unsigned long long)t->blob, q);
		if (t->alias < 0)
			fprintf(f, " fill=blob:%llu",
				(unsigned long long)t->blob);
		break;
	case QR_SCRATCH:
		fprintf(f, " region=scratch offset=%llu%s",
			(unsigned long long)t->offset, q);
		break;
	case QR_CMX:
		fprintf(f, " region=cmx%u offset=%llu", t->index,
			(unsigned long long)t->offset);
		break;
	case QR_INPUT:
	case QR_OUTPUT:
		fprintf(f, " region=%s%u offset=%llu%s",
			t->region == QR_INPUT ? "input" : "output", t->index,
			(unsigned long long)t->offset, q);
		break;
	}
	fputc('\n', f);
}

/*
 * name=: the ONNX name of graph input (@out 0) or output @i, the
 * loadable's full name of the tensor (format 1.4), unless an earlier
 * input or output of the same tensor has it already
 */
static int io_name(const struct qprog *p, unsigned int out, unsigned int i,
		   FILE *f)
{
	int v = out ? p->out_v[i] : p->in_v[i];
	const char *n = v >= 0 ? p->m->v[v].name : NULL;
	unsigned int k, j;
	char *esc;

	if (!n || !*n)
		return 0;
	for (k = 0; k <= out; k++)
		for (j = 0; j < (k ? p->n_out : p->n_in); j++) {
			int w = k ? p->out_v[j] : p->in_v[j];
			int qk = k ? p->out_q[j] : p->in_q[j];

			if (k == out && j == i)
				break;
			if (qk >= 0 && w >= 0 && !strcmp(p->m->v[w].name, n))
				return 0;
		}
	esc = malloc(3 * strlen(n) + 1);
	if (!esc)
		return -1;
	vasm_name_escape(n, esc);
	fprintf(f, " name=%s", esc);
	free(esc);
	return 0;
}

int vc_emit_vasm(const struct qprog *p, const char *name, FILE *f)
{
	unsigned int i, k;
	char dims[128], q[64];
	char *used;

	fprintf(f, "# compiled by vpux-onnx from the ONNX graph '%s'\n",
		p->m->graph_name);
	fprintf(f, "network %s\n", name);
	/* custom kernels: DIR/NAME.elf (the assembler's kernel_dir) */
	for (i = 0; i < p->n_kernels; i++)
		fprintf(f, "kernel %s file=%s.elf\n", p->kernels[i],
			p->kernels[i]);
	for (k = 0; k < 2; k++) {
		unsigned int n = k ? p->n_out : p->n_in;

		for (i = 0; i < n; i++) {
			int t = k ? p->out_q[i] : p->in_q[i];
			const struct qt *q_;

			if (t < 0)
				continue;
			q_ = &p->t[t];
			dims_str(q_, dims, sizeof(dims));
			quant_str(q_, q, sizeof(q));
			fprintf(f, "%s t%d %s %s order=0x%llx%s",
				k ? "output" : "input", t, type_str(q_->dt), dims,
				(unsigned long long)q_->order, q);
			if (io_name(p, k, i, f))
				return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
			fputc('\n', f);
		}
	}
	used = calloc(p->nt + 1, 1);
	if (!used)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	for (i = 0; i < p->nop; i++)
		for (k = 0; k < p->op[i].nt; k++)
			used[p->op[i].t[k]] = 1;
	for (i = 0; i < p->nt; i++)
		if (used[i]) {
			int r = (int)i;

			while (p->t[r].alias >= 0)
				r = p->t[r].alias;
			used[r] = 1;
		}
	for (k = 0; k < p->n_in; k++)
		if (p->in_q[k] >= 0)
			used[p->in_q[k]] = 0;
	for (k = 0; k < p->n_out; k++)
		if (p->out_q[k] >= 0)
			used[p->out_q[k]] = 0;
	for (i = 0; i < p->nt; i++)
		if (used[i])
			decl(p, (int)i, f);
	free(used);
	for (i = 0; i < p->nop; i++) {
		const struct qop *o = &p->op[i];
		char *dt = NULL;

		if (o->node >= 0 && (!i || p->op[i - 1].node != o->node))
			fprintf(f, "# %s '%s'\n", p->m->n[o->node].op,
				p->m->n[o->node].name);
		if (o->dpu) {
			dt = vc_dpu_text(o->dpu);
			if (!dt)
				return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		}
		fprintf(f, "%s\n", dt ? dt : o->text);
		free(dt);
	}
	return ferror(f) ? vpux_err(VPUX_E_IO, "compiler: write error") : 0;
}
