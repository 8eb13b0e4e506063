// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The op registry: which ONNX operators the compiler lowers on FP16
 * tensors, found by (domain, op type, opset). One table per op family
 * (ops_*.c); Documentation/compiler.rst, "The op registry", says how to
 * add one.
 */
#include <stdio.h>
#include <string.h>

#include "kernels.h"
#include "lower_int.h"

static const struct vc_op *const families[] = {
	vc_ops_conv, vc_ops_matmul, vc_ops_eltwise, vc_ops_pool,
	vc_ops_act, vc_ops_norm, vc_ops_layout, vc_ops_resize,
};

static bool default_domain(const char *d)
{
	return !d || !*d || !strcmp(d, "ai.onnx");
}

const struct vc_op *vc_op_find(const struct vpuxc_model *m,
			       const struct vc_node *n)
{
	unsigned int f;

	for (f = 0; f < sizeof(families) / sizeof(families[0]); f++) {
		const struct vc_op *o;

		for (o = families[f]; o->name; o++) {
			bool dd = default_domain(o->domain);

			if (strcmp(o->name, n->op) ||
			    dd != default_domain(n->domain) ||
			    (!dd && strcmp(o->domain, n->domain)))
				continue;
			if (dd && ((o->since && m->opset < o->since) ||
				   (o->until && m->opset > o->until)))
				continue;
			return o;
		}
	}
	/* a custom kernel's node (kernels.c, --kernels DIR) */
	if (n->domain && !strcmp(n->domain, VC_CUSTOM_DOMAIN))
		return &vc_op_custom;
	return NULL;
}

const char *vc_op_npu(const struct vpuxc_model *m, int k, char *buf,
		      size_t len)
{
	const struct vc_node *n = &m->n[k];
	const struct vc_op *o = vc_op_find(m, n);

	if (!o || !o->lower) {
		snprintf(buf, len, "operator %s%s%s (opset %lld) not supported by the NPU compiler",
			 default_domain(n->domain) ? "" : n->domain,
			 default_domain(n->domain) ? "" : ".", n->op,
			 (long long)m->opset);
		return buf;
	}
	return o->npu ? o->npu(m, n, buf, len) : NULL;
}
