// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Editing the graph IR (ir.h) for the passes: use counts kept exact on
 * every change, nodes marked dead and dropped by vc_edit_compact() which
 * also restores a topological order (nodes a pass appends come before
 * their readers), drops values nothing produces or reads, renumbers and
 * rebuilds the name hash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "ir_edit.h"

int vc_is_op(const struct vc_node *n, const char *op)
{
	return (!*n->domain || !strcmp(n->domain, "ai.onnx")) &&
	       !strcmp(n->op, op);
}

int vc_edit_init(struct vc_edit *e, struct vpuxc_model *m)
{
	memset(e, 0, sizeof(*e));
	e->m = m;
	e->cap = m->n_n + 16;
	e->dead = calloc(e->cap, 1);
	if (!e->dead)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	return 0;
}

void vc_edit_fini(struct vc_edit *e)
{
	free(e->dead);
	e->dead = NULL;
}

void vc_edit_set_in(struct vc_edit *e, unsigned int k, unsigned int slot,
		    int v)
{
	struct vc_node *n = &e->m->n[k];

	if (n->in[slot] >= 0)
		e->m->v[n->in[slot]].n_uses--;
	n->in[slot] = v;
	if (v >= 0)
		e->m->v[v].n_uses++;
}

void vc_edit_kill(struct vc_edit *e, unsigned int k)
{
	struct vc_node *n = &e->m->n[k];
	unsigned int i;

	if (e->dead[k])
		return;
	for (i = 0; i < n->n_in; i++)
		if (n->in[i] >= 0)
			e->m->v[n->in[i]].n_uses--;
	for (i = 0; i < n->n_out; i++)
		if (n->out[i] >= 0 && e->m->v[n->out[i]].producer == (int)k)
			e->m->v[n->out[i]].producer = -1;
	e->dead[k] = 1;
}

void vc_edit_replace_uses(struct vc_edit *e, int from, int to)
{
	struct vpuxc_model *m = e->m;
	unsigned int k, i;

	for (k = 0; k < m->n_n; k++) {
		if (e->dead[k])
			continue;
		for (i = 0; i < m->n[k].n_in; i++)
			if (m->n[k].in[i] == from)
				vc_edit_set_in(e, k, i, to);
	}
}

int vc_edit_user(const struct vc_edit *e, int v, unsigned int *slot)
{
	const struct vpuxc_model *m = e->m;
	unsigned int k, i;

	for (k = 0; k < m->n_n; k++) {
		if (e->dead[k])
			continue;
		for (i = 0; i < m->n[k].n_in; i++)
			if (m->n[k].in[i] == v) {
				if (slot)
					*slot = i;
				return (int)k;
			}
	}
	return -1;
}

int vc_edit_new_value(struct vc_edit *e, const char *base)
{
	char name[300];
	unsigned int i;

	for (i = 0;; i++) {
		snprintf(name, sizeof(name), "%s/vc%u", base, i);
		if (vc_find(e->m, name) < 0)
			break;
	}
	return vc_add_value(e->m, name);
}

int vc_edit_new_cst(struct vc_edit *e, const char *base, int32_t dtype,
		    int rank, const int64_t *dims, void **data)
{
	struct vpuxc_tensor *t = calloc(1, sizeof(*t));
	size_t cnt = 1, esize = dtype == 9 ? 1 : vpuxc_dtype_size(dtype);
	struct vc_value *v;
	int i, idx;

	if (!t)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	t->dtype = dtype;
	t->rank = (uint32_t)rank;
	for (i = 0; i < rank; i++) {
		t->dims[i] = dims[i];
		cnt *= (size_t)dims[i];
	}
	t->size = cnt * esize;
	t->data = calloc(1, t->size ? t->size : 1);
	idx = t->data ? vc_edit_new_value(e, base) : VPUX_E_NOMEM;
	if (idx < 0) {
		free(t->data);
		free(t);
		return idx == VPUX_E_NOMEM ?
			vpux_err(VPUX_E_NOMEM, "compiler: out of memory") : idx;
	}
	v = &e->m->v[idx];
	v->cst = t;
	v->dtype = dtype;
	v->rank = rank;
	memcpy(v->dims, t->dims, sizeof(v->dims));
	*data = t->data;
	return idx;
}

int vc_edit_new_node(struct vc_edit *e, const char *op, const char *domain,
		     const char *name, unsigned int n_in, unsigned int n_out)
{
	struct vpuxc_model *m = e->m;
	struct vc_node *nn, *n;
	unsigned int i;

	if (m->n_n + 1 > e->cap) {
		char *d = realloc(e->dead, e->cap * 2);

		if (!d)
			return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		memset(d + e->cap, 0, e->cap);
		e->dead = d;
		e->cap *= 2;
	}
	nn = realloc(m->n, sizeof(*nn) * (m->n_n + 2));
	if (!nn)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	m->n = nn;
	n = &m->n[m->n_n];
	memset(n, 0, sizeof(*n));
	n->op = strdup(op);
	n->domain = strdup(domain);
	n->name = strdup(name);
	n->in = malloc(sizeof(int) * (n_in + 1));
	n->out = malloc(sizeof(int) * (n_out + 1));
	n->attrs = calloc(1, sizeof(*n->attrs));
	if (!n->op || !n->domain || !n->name || !n->in || !n->out || !n->attrs) {
		free(n->op);
		free(n->domain);
		free(n->name);
		free(n->in);
		free(n->out);
		free(n->attrs);
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	}
	n->n_in = n_in;
	n->n_out = n_out;
	for (i = 0; i < n_in; i++)
		n->in[i] = -1;
	for (i = 0; i < n_out; i++)
		n->out[i] = -1;
	e->dead[m->n_n] = 0;
	return (int)m->n_n++;
}

/* ---- attributes ---- */

static void attr_fini(struct vc_attr *a)
{
	free(a->name);
	free(a->s);
	free(a->floats);
	free(a->ints);
	if (a->t) {
		vpuxc_tensor_fini(a->t);
		free(a->t);
	}
	memset(a, 0, sizeof(*a));
}

void vc_edit_clear_attrs(struct vc_node *n)
{
	unsigned int i;

	for (i = 0; i < n->n_attrs; i++)
		attr_fini(&n->attrs[i]);
	n->n_attrs = 0;
}

/* attribute @name of @n emptied, or a new one; NULL when out of memory */
static struct vc_attr *attr_slot(struct vc_node *n, const char *name)
{
	struct vc_attr *a;
	unsigned int i;

	for (i = 0; i < n->n_attrs; i++)
		if (!strcmp(n->attrs[i].name, name)) {
			a = &n->attrs[i];
			attr_fini(a);
			a->name = strdup(name);
			return a->name ? a : NULL;
		}
	a = realloc(n->attrs, sizeof(*a) * (n->n_attrs + 2));
	if (!a)
		return NULL;
	n->attrs = a;
	a = &n->attrs[n->n_attrs];
	memset(a, 0, sizeof(*a));
	a->name = strdup(name);
	if (!a->name)
		return NULL;
	n->n_attrs++;
	return a;
}

int vc_edit_attr_i(struct vc_node *n, const char *name, int64_t v)
{
	struct vc_attr *a = attr_slot(n, name);

	if (!a)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	a->type = VC_ATTR_INT;
	a->i = v;
	return 0;
}

int vc_edit_attr_f(struct vc_node *n, const char *name, float v)
{
	struct vc_attr *a = attr_slot(n, name);

	if (!a)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	a->type = VC_ATTR_FLOAT;
	a->f = v;
	return 0;
}

int vc_edit_attr_s(struct vc_node *n, const char *name, const char *v)
{
	struct vc_attr *a = attr_slot(n, name);

	if (!a)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	a->type = VC_ATTR_STRING;
	a->s = strdup(v);
	if (!a->s)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	return 0;
}

int vc_edit_attr_ints(struct vc_node *n, const char *name, const int64_t *v,
		      unsigned int cnt)
{
	struct vc_attr *a = attr_slot(n, name);

	if (!a)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	a->type = VC_ATTR_INTS;
	a->ints = malloc(sizeof(int64_t) * (cnt + 1));
	if (!a->ints)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	memcpy(a->ints, v, sizeof(int64_t) * cnt);
	a->n_ints = cnt;
	return 0;
}

int vc_edit_set_op(struct vc_node *n, const char *op, const char *domain)
{
	char *o = strdup(op), *d = strdup(domain);

	if (!o || !d) {
		free(o);
		free(d);
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	}
	free(n->op);
	free(n->domain);
	n->op = o;
	n->domain = d;
	return 0;
}

int vc_edit_set_inputs(struct vc_edit *e, unsigned int k, const int *in,
		       unsigned int n_in)
{
	struct vc_node *n = &e->m->n[k];
	unsigned int i;
	int *p;

	for (i = 0; i < n_in; i++)
		if (in[i] >= 0)
			e->m->v[in[i]].n_uses++;
	for (i = 0; i < n->n_in; i++)
		if (n->in[i] >= 0)
			e->m->v[n->in[i]].n_uses--;
	p = realloc(n->in, sizeof(int) * (n_in + 1));
	if (!p) {
		/* keep the counts true to the old inputs */
		for (i = 0; i < n_in; i++)
			if (in[i] >= 0)
				e->m->v[in[i]].n_uses--;
		for (i = 0; i < n->n_in; i++)
			if (n->in[i] >= 0)
				e->m->v[n->in[i]].n_uses++;
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	}
	memcpy(p, in, sizeof(int) * n_in);
	n->in = p;
	n->n_in = n_in;
	return 0;
}

/* ---- compaction ---- */

static void node_fini(struct vc_node *n)
{
	vc_edit_clear_attrs(n);
	free(n->attrs);
	free(n->op);
	free(n->domain);
	free(n->name);
	free(n->in);
	free(n->out);
}

int vc_edit_compact(struct vc_edit *e)
{
	struct vpuxc_model *m = e->m;
	unsigned int nn = m->n_n, k, i, j, top = 0, n_new = 0, nv = 0;
	int *order = malloc(sizeof(int) * (nn + 1));
	int *nmap = malloc(sizeof(int) * (nn + 1));
	int *vmap = malloc(sizeof(int) * (m->n_v + 1));
	unsigned int *stk = malloc(sizeof(unsigned int) * 2 * (nn + 1));
	char *state = calloc(nn + 1, 1);
	struct vc_node *nodes = calloc(nn + 1, sizeof(*nodes));
	int ret = 0;

	if (!order || !nmap || !vmap || !stk || !state || !nodes) {
		ret = vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		goto out;
	}
	/* producers first, otherwise the present order (depth first) */
	for (k = 0; k < nn; k++) {
		if (e->dead[k] || state[k])
			continue;
		state[k] = 1;
		stk[0] = k;
		stk[1] = 0;
		top = 1;
		while (top) {
			unsigned int u = stk[2 * (top - 1)];
			unsigned int *pi = &stk[2 * (top - 1) + 1];

			if (*pi < m->n[u].n_in) {
				int v = m->n[u].in[(*pi)++], p;

				if (v < 0)
					continue;
				p = m->v[v].producer;
				if (p >= 0 && !e->dead[p] && !state[p]) {
					state[p] = 1;
					stk[2 * top] = (unsigned int)p;
					stk[2 * top + 1] = 0;
					top++;
				}
				continue;
			}
			top--;
			order[n_new++] = (int)u;
		}
	}
	for (k = 0; k < nn; k++)
		nmap[k] = -1;
	for (i = 0; i < n_new; i++) {
		nodes[i] = m->n[order[i]];
		nmap[order[i]] = (int)i;
	}
	for (k = 0; k < nn; k++)
		if (nmap[k] < 0)
			node_fini(&m->n[k]);
	free(m->n);
	m->n = nodes;
	nodes = NULL;
	m->n_n = n_new;
	/* the values: recount uses, drop what nothing produces or reads */
	for (i = 0; i < m->n_v; i++) {
		struct vc_value *v = &m->v[i];

		v->n_uses = 0;
		if (v->producer >= 0)
			v->producer = nmap[v->producer];
	}
	for (k = 0; k < m->n_n; k++)
		for (i = 0; i < m->n[k].n_in; i++)
			if (m->n[k].in[i] >= 0)
				m->v[m->n[k].in[i]].n_uses++;
	for (i = 0; i < m->n_v; i++) {
		struct vc_value *v = &m->v[i];

		if (v->producer >= 0 || v->n_uses ||
		    (v->flags & (VC_V_INPUT | VC_V_OUTPUT))) {
			vmap[i] = (int)nv;
			if (nv != i)
				m->v[nv] = *v;
			nv++;
			continue;
		}
		vmap[i] = -1;
		free(v->name);
		if (v->cst) {
			vpuxc_tensor_fini(v->cst);
			free(v->cst);
		}
	}
	m->n_v = nv;
	for (k = 0; k < m->n_n; k++) {
		struct vc_node *n = &m->n[k];

		for (j = 0; j < n->n_in; j++)
			if (n->in[j] >= 0)
				n->in[j] = vmap[n->in[j]];
		for (j = 0; j < n->n_out; j++)
			if (n->out[j] >= 0)
				n->out[j] = vmap[n->out[j]];
	}
	for (i = 0; i < m->n_inputs; i++)
		m->inputs[i] = vmap[m->inputs[i]];
	for (i = 0; i < m->n_outputs; i++)
		m->outputs[i] = vmap[m->outputs[i]];
	memset(e->dead, 0, e->cap);
	ret = vc_rehash(m);
out:
	free(order);
	free(nmap);
	free(vmap);
	free(stk);
	free(state);
	free(nodes);
	return ret;
}
