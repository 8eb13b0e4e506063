/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Editing the graph IR for the passes (ir_edit.c). Value and node
 * indices stay valid until vc_edit_compact(); struct pointers into
 * m->v and m->n do not survive vc_edit_new_value/_new_cst/_new_node
 * (the arrays grow).
 */
#ifndef VPUXC_IR_EDIT_H
#define VPUXC_IR_EDIT_H

#include "ir.h"

struct vc_edit {
	struct vpuxc_model *m;
	char *dead;		/* per node: removed, dropped at compaction */
	unsigned int cap;
};

int vc_edit_init(struct vc_edit *e, struct vpuxc_model *m);
void vc_edit_fini(struct vc_edit *e);

/* op @op of the default domain */
int vc_is_op(const struct vc_node *n, const char *op);

/* input @slot of node @k reads value @v (-1: omitted); uses recounted */
void vc_edit_set_in(struct vc_edit *e, unsigned int k, unsigned int slot,
		    int v);
/* node @k's inputs become @in[0..n_in) */
int vc_edit_set_inputs(struct vc_edit *e, unsigned int k, const int *in,
		       unsigned int n_in);
/* node @k removed: its inputs lose a use, its outputs their producer */
void vc_edit_kill(struct vc_edit *e, unsigned int k);
/* every live reader of value @from reads @to instead */
void vc_edit_replace_uses(struct vc_edit *e, int from, int to);
/* the first live node reading @v (its input slot in @slot), or -1 */
int vc_edit_user(const struct vc_edit *e, int v, unsigned int *slot);

/* a new value named after @base, unique; its index */
int vc_edit_new_value(struct vc_edit *e, const char *base);
/* a new constant (zeroed data of @dims, returned in @data); its index */
int vc_edit_new_cst(struct vc_edit *e, const char *base, int32_t dtype,
		    int rank, const int64_t *dims, void **data);
/* a new node, appended (compaction moves it before its readers) */
int vc_edit_new_node(struct vc_edit *e, const char *op, const char *domain,
		     const char *name, unsigned int n_in, unsigned int n_out);

int vc_edit_set_op(struct vc_node *n, const char *op, const char *domain);
void vc_edit_clear_attrs(struct vc_node *n);
int vc_edit_attr_i(struct vc_node *n, const char *name, int64_t v);
int vc_edit_attr_f(struct vc_node *n, const char *name, float v);
int vc_edit_attr_s(struct vc_node *n, const char *name, const char *v);
int vc_edit_attr_ints(struct vc_node *n, const char *name, const int64_t *v,
		      unsigned int cnt);

/*
 * Drop dead nodes and the values nothing produces or reads, put the
 * nodes in a topological order, renumber, recount uses, rehash.
 */
int vc_edit_compact(struct vc_edit *e);

#endif /* VPUXC_IR_EDIT_H */
