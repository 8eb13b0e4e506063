// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Dynamic shapes through libvpux (Documentation/dynamic-shapes.rst): a
 * plan loadable built in C (plan_util.h) loads once and runs in-process
 * with many token counts, bit for bit against the CPU reference (which
 * expands the plan itself) and an independent computation; requests of
 * different sizes run at once; every loader rule of symbols, dynamic
 * dims and plans refuses its bad image; the engine core's own check at
 * load names what it refuses; the API refuses bad bindings.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "err.h"
#include "plan_util.h"
#include "priv.h"
#include "vpux_tap.h"

static struct vpux_device *dev;
static struct mlp M;

static void fresh(void)
{
	mlp_build(&M);
}

/* validate the mutated image; expect @code and @what in the message */
static void expect(int code, const char *what, const char *name)
{
	int r = lf_validate(&M.img);

	tap_check(r == code && strstr(vpux_last_error(), what),
		  "%s: refused (%d, '%s')", name, r, vpux_last_error());
	fresh();
}

static void test_symbols(void)
{
	fresh();
	tap_check(lf_validate(&M.img) == 0, "the MLP plan loadable is valid (%s)",
		  vpux_last_error());
	M.sym[0].name[0] = 0;
	expect(VPUX_E_FORMAT, ".vpux.symbols: record 0: field name", "symbol without a name");
	M.img.n_symbols = 2;
	M.sym[1] = M.sym[0];
	expect(VPUX_E_FORMAT, "record 1: field name: 'tokens' not unique", "two symbols of one name");
	M.sym[0].kind = 3;
	expect(VPUX_E_FORMAT, "field kind", "unknown symbol kind");
	M.sym[0].hash ^= 1;
	expect(VPUX_E_FORMAT, "field hash", "symbol hash not the FNV-1a of its name");
	M.sym[0].width = 5;
	expect(VPUX_E_FORMAT, "field width", "symbol width not 4 or 8");
	M.sym[0].min = 65;
	expect(VPUX_E_FORMAT, "field min/max", "symbol min > max");
	M.sym[0].min = -1;
	expect(VPUX_E_FORMAT, "field min/max", "negative symbol min");
	M.sym[0].max = 1ll << 32;
	expect(VPUX_E_FORMAT, "field min/max", "symbol max above 2^32 - 1");
	M.sym[0].reserved = 1;
	expect(VPUX_E_FORMAT, "field reserved", "symbol reserved field");
	M.img.n_symbols = 17;
	expect(VPUX_E_FORMAT, "17 symbols, at most 16", "more than 16 symbols");
	tap_check(lf_fnv1a("tokens") == 0xfcebc453u,
		  "FNV-1a of 'tokens' is 0x%08x", lf_fnv1a("tokens"));
	tap_check(lf_fnv1a("") == 2166136261u && lf_fnv1a("a") == 0xe40c292cu,
		  "FNV-1a: the offset basis for '', 0xe40c292c for 'a'");
}

static void test_dyn_dims(void)
{
	M.t[MLP_T_X].dyn_dims = 4;
	expect(VPUX_E_FORMAT, ".vpux.tensors: record 0: field dyn_dims", "dyn_dims bit at the rank");
	M.t[MLP_T_X].dims[0] = 1;
	expect(VPUX_E_FORMAT, "symbol 1 does not exist", "dynamic dim naming no symbol");
	M.sym[0].kind = VPUX_LF_SYM_SCALAR;
	expect(VPUX_E_FORMAT, "is not an axis", "dynamic dim naming a scalar");
	M.t[MLP_T_X].size -= 1;
	expect(VPUX_E_FORMAT, "record 0: field size", "tensor size below its extent at max");
	M.sym[0].max = 65;
	expect(VPUX_E_FORMAT, "record 0: field size", "a larger max no longer fits the tensor");
}

static void test_plan_rules(void)
{
	struct vpux_lf_barrier bar = { 0, 0, 0 };
	uint32_t bad_expr[2] = { DLA_EXPR_TOKEN(DLA_EXPR_ADD, 0),
				 DLA_EXPR_TOKEN(DLA_EXPR_SYM, 0) };

	M.blk[1].n_templates = 2;
	expect(VPUX_E_FORMAT, ".vpux.plan.blocks: record 1: field first_template/n_templates",
	       "block templates outside the section");
	M.tpl[2].op = 2;
	expect(VPUX_E_FORMAT, ".vpux.plan.templates: record 2: field op", "template of an op that does not exist");
	M.tpl[2].op = 0;
	expect(VPUX_E_FORMAT, "already template 1", "one op, two templates");
	M.img.n_dma = 3;
	M.img.dma = calloc(3, sizeof(struct vpux_lf_dma));
	memcpy(M.img.dma, M.dma, sizeof(M.dma));
	M.img.dma[2] = M.dma[1];
	tap_check(lf_validate(&M.img) == VPUX_E_FORMAT &&
		  strstr(vpux_last_error(), ".vpux.ops.dma: record 2") &&
		  strstr(vpux_last_error(), "no template"),
		  "an op that is no template: refused (%s)", vpux_last_error());
	free(M.img.dma);
	fresh();
	M.dma[0].deps.num_waits = 1;
	expect(VPUX_E_FORMAT, ".vpux.ops.dma: record 0: field deps", "deps in a plan loadable");
	M.img.barriers = &bar;
	M.img.n_barriers = 1;
	expect(VPUX_E_FORMAT, ".vpux.barriers", "barriers with a plan");
	M.pat[0].field = VPUX_LF_FIELD(VPUX_LF_OP_DPU, 99);
	expect(VPUX_E_FORMAT, ".vpux.plan.patches: record 0: field field", "unknown patch field");
	M.pat[0].field = lf_field_by_name(LF_DMA, "len")->id;
	expect(VPUX_E_FORMAT, "no field of a .vpux.ops.dpu op", "field of another op kind");
	M.pat[0].expr = M.img.n_expr;
	M.img.n_expr += 2;
	memcpy(&M.expr[M.pat[0].expr], bad_expr, sizeof(bad_expr));
	M.pat[0].len = 2;
	expect(VPUX_E_FORMAT, "stack underflow", "malformed expression");
	M.pat[0].len = 40;
	expect(VPUX_E_FORMAT, "length not 1..32", "expression longer than 32 words");
	M.pat[0].expr = M.img.n_expr;
	expect(VPUX_E_FORMAT, "outside .vpux.plan.expr", "expression outside its section");
	M.expr[M.blk[0].loop[0].extent] = DLA_EXPR_TOKEN(DLA_EXPR_LEN, 0);
	expect(VPUX_E_FORMAT, "loop value in a loop extent", "loop value in an extent");
	M.expr[M.pat[0].expr] = DLA_EXPR_TOKEN(DLA_EXPR_LEN, 1);
	expect(VPUX_E_FORMAT, "loop level not in the block", "loop level past the block's depth");
	M.expr[M.pat[0].expr] = DLA_EXPR_TOKEN(DLA_EXPR_SYM, 3);
	expect(VPUX_E_FORMAT, "SYM of a symbol that does not exist", "unknown symbol in an expression");
	M.expr[M.pat[0].expr] = DLA_EXPR_TOKEN(40, 0);
	expect(VPUX_E_FORMAT, "unknown token", "unknown expression token");
	M.blk[0].depth = 4;
	expect(VPUX_E_FORMAT, "field depth: 4: nesting past the limit", "nesting past the limit");
	M.blk[0].n_templates = 9;
	expect(VPUX_E_FORMAT, "1..8 templates", "block body above 8 templates");
	M.tpl[0].n_patches = 17;
	expect(VPUX_E_FORMAT, "field first_patch/n_patches", "more than 16 patches");
	M.tpl[1].first_patch = 14;
	expect(VPUX_E_FORMAT, "record 1: field first_patch/n_patches", "patches outside their section");
	M.tpl[0].wait_mask = 1;
	expect(VPUX_E_FORMAT, "field wait_mask", "template waiting for itself");
	M.blk[1].first_template = 1;
	M.blk[1].n_templates = 1;
	expect(VPUX_E_FORMAT, "template 1 already in block 0", "template in two blocks");
	M.blk[0].n_templates = 1;
	expect(VPUX_E_FORMAT, "record 1: field kind: in no block", "template in no block");
	M.blk[1].loop[2].tile = 3;
	expect(VPUX_E_FORMAT, "level 2 not used but not zero", "unused loop level not zero");
	M.blk[0].loop[0].tile = 0;
	expect(VPUX_E_FORMAT, "field loop.tile", "tile 0");
	M.img.n_blocks = 0;
	expect(VPUX_E_FORMAT, ".vpux.plan.blocks: missing", "plan sections without blocks");
	M.tpl[0].kind = 7;
	expect(VPUX_E_FORMAT, "field kind: 7 unknown", "unknown template kind");
}

/* a patch's expression replaced by @x */
static void set_patch(unsigned int p, const uint32_t *x, uint32_t n)
{
	M.pat[p].expr = mlp_expr(&M, x, n);
	M.pat[p].len = n;
}

static void test_plan_bounds(void)
{
	/* block 1's DMA dst.size: T * 32 + 32 fits e at T = 1, not at 64 */
	set_patch(15, MLP_E(X_(SYM, 0), XI_(MUL, MLP_K), XI_(ADD, MLP_K)));
	set_patch(13, MLP_E(X_(SYM, 0), XI_(MUL, MLP_K), XI_(ADD, MLP_K)));
	set_patch(14, MLP_E(X_(SYM, 0), XI_(MUL, MLP_K), XI_(ADD, MLP_K)));
	M.t[MLP_T_X].size += MLP_K;	/* only the destination leaves */
	tap_check(lf_validate(&M.img) == VPUX_E_FORMAT &&
		  strstr(vpux_last_error(), ".vpux.plan.templates: record 2: block 1") &&
		  strstr(vpux_last_error(), "symbol at its max") &&
		  strstr(vpux_last_error(), "field dst"),
		  "a template leaving its buffer at max, not at min: refused (%s)",
		  vpux_last_error());
	fresh();
	M.sym[0].max = 8;
	set_patch(15, MLP_E(X_(SYM, 0), XI_(MUL, MLP_K), XI_(ADD, MLP_K)));
	set_patch(13, MLP_E(X_(SYM, 0), XI_(MUL, MLP_K), XI_(ADD, MLP_K)));
	set_patch(14, MLP_E(X_(SYM, 0), XI_(MUL, MLP_K), XI_(ADD, MLP_K)));
	M.t[MLP_T_X].size += MLP_K;
	tap_check(lf_validate(&M.img) == 0,
		  "the same template with a max whose extent fits: valid (%s)",
		  vpux_last_error());
	fresh();
	/* one iteration at min, 63 * 2^20 + 1 at max */
	M.blk[0].loop[0].extent = mlp_expr(&M, MLP_E(X_(SYM, 0), XI_(SUB, 1),
						     X_(CONST32, 0), 1u << 20,
						     X_(MUL, 0), XI_(ADD, 1)));
	M.blk[0].loop[0].extent_len = 6;
	M.blk[0].loop[0].tile = 1;
	expect(VPUX_E_FORMAT, "loop count overflow", "loop count overflow at max");
	M.blk[0].loop[0].extent = mlp_expr(&M, MLP_E(X_(SYM, 0), XI_(SUB, 1),
						     X_(CONST32, 0), 0x10000000u,
						     X_(MUL, 0), XI_(ADD, 1)));
	M.blk[0].loop[0].extent_len = 6;
	expect(VPUX_E_FORMAT, "overflows 32 bits with every symbol at its max",
	       "loop extent overflowing 32 bits");
	/* three levels of 2^31 iterations: 2^94 ops, saturated, not wrapped */
	M.blk[0].depth = 3;
	for (unsigned int l = 0; l < 3; l++) {
		M.blk[0].loop[l].extent = mlp_expr(&M, MLP_E(X_(CONST32, 0),
							     1u << 31));
		M.blk[0].loop[l].extent_len = 2;
		M.blk[0].loop[l].tile = 1;
	}
	expect(VPUX_E_FORMAT, "loop count overflow", "loop counts whose product passes 2^64");
	set_patch(0, MLP_E(X_(LEN, 0), XI_(MUL, 70000)));
	expect(VPUX_E_FORMAT, "field in_h of template 0 (block 0): value overflows the field",
	       "patch value too large for a 16-bit field");
	set_patch(1, MLP_E(X_(LEN, 0), XI_(SUB, 1)));
	set_patch(0, MLP_E(X_(LEN, 0), XI_(SUB, 1)));
	expect(VPUX_E_FORMAT, "block 0, first iteration, every symbol at its min",
	       "an instance refused by the DPU rules at min (0 rows)");
	M.blk[0].loop[0].extent = mlp_expr(&M, MLP_E(X_(SYM, 0), XI_(SUB, 1)));
	M.blk[1].loop[0].extent = 0;
	M.blk[1].depth = 1;
	M.blk[1].loop[0].tile = 1;
	M.blk[1].loop[0].extent = M.blk[0].loop[0].extent;
	M.blk[1].loop[0].extent_len = 2;
	M.blk[0].loop[0].extent_len = 2;
	expect(VPUX_E_FORMAT, "expands to no op with every symbol at its min",
	       "a plan with no op at min");
}

/* write @in, swap the section names .vpux.symbols and .vpux.symbolX, parse */
static int write_v1(const struct lf_image *in, void **data, size_t *size,
		    struct lf_image *out)
{
	char *p, *a = NULL, *b = NULL;
	size_t i;
	int r;

	memset(out, 0, sizeof(*out));
	r = lf_write_mem(in, data, size);
	if (r)
		return r;
	p = *data;
	for (i = 0; i + 14 <= *size; i++) {
		if (!memcmp(p + i, ".vpux.symbols", 14))
			a = p + i;
		if (!memcmp(p + i, ".vpux.symbolX", 14))
			b = p + i;
	}
	if (!a || !b)
		return -1;
	a[12] = 'Y';
	b[12] = 's';
	return lf_parse(*data, *size, out);
}

/* A 1.1 file: 56-byte symbol records read with the hash computed, width 8 */
static void test_v11_symbols(void)
{
	unsigned char rec[56];
	/* written under a stand-in name, swapped with the writer's own */
	struct lf_extra_section ex = { ".vpux.symbolX", 0, rec, 56, 56, 0 };
	struct lf_image in, out;
	void *data;
	size_t size;
	int r;

	fresh();
	in = M.img;
	in.n_blocks = in.n_templates = in.n_patches = in.n_expr = 0;
	in.hdr.version_minor = 1;
	in.n_symbols = 0;
	in.extra = &ex;
	in.n_extra = 1;
	memcpy(rec, &M.sym[0], 56);
	r = write_v1(&in, &data, &size, &out);
	tap_check(!r && out.n_symbols == 1 && !strcmp(out.symbols[0].name, "tokens") &&
		  out.symbols[0].hash == lf_fnv1a("tokens") &&
		  out.symbols[0].width == 8 && out.symbols[0].max == MLP_TMAX,
		  "a 1.1 file's 56-byte symbol record: hash computed, width 8 (%s)",
		  r ? vpux_last_error() : "ok");
	lf_image_free(&out);
	in.hdr.version_minor = 2;
	free(data);
	r = write_v1(&in, &data, &size, &out);
	tap_check(r == VPUX_E_FORMAT && strstr(vpux_last_error(), "rec_size 56"),
		  "a 1.2 file with 56-byte symbol records: refused (%s)",
		  vpux_last_error());
	lf_image_free(&out);
	free(data);
	ex.size = ex.rec_size = 48;
	in.hdr.version_minor = 1;
	r = write_v1(&in, &data, &size, &out);
	tap_check(r == VPUX_E_FORMAT && strstr(vpux_last_error(), "rec_size 48"),
		  "symbol records shorter than 56 bytes: refused (%s)",
		  vpux_last_error());
	lf_image_free(&out);
	free(data);
}

static struct vpux_network *load_mlp(void)
{
	struct vpux_network *net = NULL;
	void *data;
	size_t size;

	fresh();
	if (lf_write_mem(&M.img, &data, &size))
		return NULL;
	if (vpux_network_load(dev, data, size, &net))
		tap_diag("load: %s", vpux_last_error());
	free(data);
	return net;
}

struct run {
	struct vpux_network *net;
	struct vpux_request *req;
	struct vpux_buffer *bx, *by, *be;
	unsigned int tokens;
	int8_t x[MLP_TMAX * MLP_K];
};

static int run_setup(struct run *r, struct vpux_network *net, unsigned int t,
		     unsigned int seed)
{
	struct vpux_shape s = { 2, { t, MLP_K } };
	unsigned int i;
	int bad;

	memset(r, 0, sizeof(*r));
	r->net = net;
	r->tokens = t;
	for (i = 0; i < sizeof(r->x); i++) {
		seed = seed * 1103515245u + 12345u;
		r->x[i] = (int8_t)(seed >> 16);
	}
	bad = vpux_request_create(net, &r->req);
	bad = bad ? bad : vpux_buffer_alloc(dev, sizeof(r->x), &r->bx);
	bad = bad ? bad : vpux_buffer_alloc(dev, 4 * MLP_N * MLP_TMAX, &r->by);
	bad = bad ? bad : vpux_buffer_alloc(dev, MLP_K * MLP_TMAX, &r->be);
	if (bad)
		return bad;
	memcpy(vpux_buffer_map(r->bx), r->x, sizeof(r->x));
	memset(vpux_buffer_map(r->by), 0x5a, 4 * MLP_N * MLP_TMAX);
	memset(vpux_buffer_map(r->be), 0x5a, MLP_K * MLP_TMAX);
	bad = vpux_request_bind_input(r->req, 0, r->bx, 0);
	bad |= vpux_request_bind_output(r->req, 0, r->by, 0);
	bad |= vpux_request_bind_output(r->req, 1, r->be, 0);
	return bad ? bad : vpux_request_set_input_shape(r->req, 0, &s);
}

/* device == reference == independent, for the first @tokens rows */
static int run_compare(struct run *r, char *why, size_t n)
{
	static int32_t ref_y[MLP_TMAX * MLP_N], exp_y[MLP_TMAX * MLP_N];
	static int8_t ref_e[MLP_TMAX * MLP_K];
	const void *in[1] = { r->x };
	void *out[2] = { ref_y, ref_e };
	struct vpux_shape s;
	unsigned int t = r->tokens;

	memset(ref_y, 0, sizeof(ref_y));
	memset(ref_e, 0, sizeof(ref_e));
	if (vpux_request_run_reference(r->req, in, out)) {
		snprintf(why, n, "reference: %s", vpux_last_error());
		return 1;
	}
	mlp_expect(&M, r->x, t, exp_y);
	if (memcmp(vpux_buffer_map(r->by), ref_y, 4 * MLP_N * t) ||
	    memcmp(ref_y, exp_y, 4 * MLP_N * t)) {
		snprintf(why, n, "y differs");
		return 1;
	}
	if (memcmp(vpux_buffer_map(r->be), r->x, MLP_K * t) ||
	    memcmp(ref_e, r->x, MLP_K * t)) {
		snprintf(why, n, "e differs");
		return 1;
	}
	/* nothing written past the actual rows */
	if (t < MLP_TMAX &&
	    ((unsigned char *)vpux_buffer_map(r->by))[4 * MLP_N * t] != 0x5a) {
		snprintf(why, n, "y written past row %u", t);
		return 1;
	}
	if (vpux_request_output_shape(r->req, 0, &s) || s.rank != 2 ||
	    s.d[0] != t || s.d[1] != MLP_N) {
		snprintf(why, n, "output shape");
		return 1;
	}
	snprintf(why, n, "ok");
	return 0;
}

static void run_free(struct run *r)
{
	vpux_request_destroy(r->req);
	vpux_buffer_free(r->bx);
	vpux_buffer_free(r->by);
	vpux_buffer_free(r->be);
}

static void test_run(struct vpux_network *net)
{
	static const unsigned int sizes[] = { 1, 16, 17, 40, 63, 64, 5 };
	struct vpux_request_status st;
	struct vpux_network_info ni;
	struct vpux_symbol_info si;
	struct vpux_tensor_desc d;
	struct run r, r2;
	unsigned int i;
	char why[128];
	int sym = 7;

	tap_check(!vpux_network_query(net, &ni) && ni.num_symbols == 1 &&
		  !vpux_network_symbol(net, 0, &si) &&
		  !strcmp(si.name, "tokens") && si.kind == VPUX_SYMBOL_AXIS &&
		  si.width == 4 && si.min == 1 && si.max == MLP_TMAX &&
		  vpux_network_symbol(net, 1, &si) == VPUX_E_INVAL,
		  "query: 1 symbol, 'tokens' axis [1, 64] width 4");
	tap_check(!vpux_network_dim_symbol(net, 0, 0, 0, &sym) && sym == 0 &&
		  !vpux_network_dim_symbol(net, 1, 0, 1, &sym) && sym == -1 &&
		  vpux_network_dim_symbol(net, 0, 0, 2, &sym) == VPUX_E_INVAL &&
		  vpux_network_dim_symbol(net, 0, 1, 0, &sym) == VPUX_E_INVAL &&
		  !vpux_network_input(net, 0, &d) && d.shape.d[0] == MLP_TMAX,
		  "dim symbols: input dim 0 names 'tokens', output dim 1 static; desc at max");

	/* one network, one request, many sizes */
	if (run_setup(&r, net, 1, 3)) {
		tap_check(0, "request setup: %s", vpux_last_error());
		return;
	}
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		int ret;

		r.tokens = sizes[i];
		memset(vpux_buffer_map(r.by), 0x5a, 4 * MLP_N * MLP_TMAX);
		memset(vpux_buffer_map(r.be), 0x5a, MLP_K * MLP_TMAX);
		ret = vpux_request_set_symbol(r.req, "tokens", sizes[i]);
		ret = ret ? ret : vpux_request_submit(r.req);
		ret = ret ? ret : vpux_request_wait(r.req, 10000);
		ret = ret ? ret : vpux_request_status(r.req, &st);
		if (ret)
			snprintf(why, sizeof(why), "%s", vpux_last_error());
		tap_check(!ret && st.state == VPUX_REQ_DONE &&
			  st.ops_done == 2 * ((sizes[i] + 15) / 16) + 1 &&
			  !run_compare(&r, why, sizeof(why)),
			  "tokens %u: device == reference == independent, bit for bit; %u expanded ops (%s)",
			  sizes[i], st.ops_done, why);
	}
	run_free(&r);

	/* two requests of different sizes at once */
	if (!run_setup(&r, net, 64, 11) && !run_setup(&r2, net, 23, 12)) {
		int ret = vpux_request_submit(r.req);

		ret |= vpux_request_submit(r2.req);
		ret |= vpux_request_wait(r2.req, 10000);
		ret |= vpux_request_wait(r.req, 10000);
		tap_check(!ret && !run_compare(&r, why, sizeof(why)) &&
			  !run_compare(&r2, why, sizeof(why)),
			  "two requests, 64 and 23 tokens, concurrently on one network (%s)",
			  why);
		run_free(&r2);
	}
	run_free(&r);
}

static void test_api_errors(struct vpux_network *net)
{
	struct vpux_shape s = { 2, { 10, MLP_K } };
	struct vpux_request *req;
	struct vpux_buffer *b;
	int r;

	if (vpux_request_create(net, &req) ||
	    vpux_buffer_alloc(dev, 8192, &b))
		return;
	vpux_request_bind_input(req, 0, b, 0);
	vpux_request_bind_output(req, 0, b, 0);
	vpux_request_bind_output(req, 1, b, 4096);
	r = vpux_request_submit(req);
	tap_check(r == VPUX_E_UNBOUND && strstr(vpux_last_error(), "'tokens'"),
		  "submit with a symbol unbound: VPUX_E_UNBOUND naming it (%s)",
		  vpux_last_error());
	r = vpux_request_output_shape(req, 0, &s);
	tap_check(r == VPUX_E_INVAL && strstr(vpux_last_error(), "'tokens' is not bound"),
		  "output shape before binding: refused (%s)", vpux_last_error());
	r = vpux_request_run_reference(req, NULL, NULL);
	tap_check(r == VPUX_E_INVAL && strstr(vpux_last_error(), "'tokens'"),
		  "reference before binding: refused (%s)", vpux_last_error());
	r = vpux_request_set_symbol(req, "tokens", 65);
	tap_check(r == VPUX_E_INVAL && strstr(vpux_last_error(), "'tokens'") &&
		  strstr(vpux_last_error(), "[1, 64]"),
		  "symbol above max: refused naming symbol and bounds (%s)",
		  vpux_last_error());
	r = vpux_request_set_symbol(req, "tokens", 0);
	tap_check(r == VPUX_E_INVAL && strstr(vpux_last_error(), "[1, 64]"),
		  "symbol below min: refused (%s)", vpux_last_error());
	r = vpux_request_set_symbol(req, "batch", 1);
	s = (struct vpux_shape){ 2, { 10, MLP_K } };
	tap_check(r == VPUX_E_INVAL && strstr(vpux_last_error(), "'batch'") &&
		  strstr(vpux_last_error(), "no such symbol"),
		  "unknown symbol name: refused (%s)", vpux_last_error());
	s.d[1] = 31;
	r = vpux_request_set_input_shape(req, 0, &s);
	tap_check(r == VPUX_E_INVAL && strstr(vpux_last_error(), "dim 1 is 31") &&
		  strstr(vpux_last_error(), "static dim"),
		  "input shape with a wrong static dim: refused (%s)",
		  vpux_last_error());
	s.d[1] = MLP_K;
	s.d[0] = 100;
	r = vpux_request_set_input_shape(req, 0, &s);
	tap_check(r == VPUX_E_INVAL && strstr(vpux_last_error(), "input 0: dim 0") &&
		  strstr(vpux_last_error(), "[1, 64]"),
		  "input shape with a dynamic dim out of bounds: refused (%s)",
		  vpux_last_error());
	s.rank = 3;
	r = vpux_request_set_input_shape(req, 0, &s);
	tap_check(r == VPUX_E_INVAL && strstr(vpux_last_error(), "rank 3"),
		  "input shape of another rank: refused (%s)", vpux_last_error());
	s.rank = 2;
	s.d[0] = 9;
	r = vpux_request_set_symbol(req, "tokens", 10);
	r = r ? r : vpux_request_set_input_shape(req, 0, &s);
	tap_check(r == VPUX_E_INVAL && strstr(vpux_last_error(), "already bound to 10"),
		  "input shape disagreeing with a value bound for this run: refused (%s)",
		  vpux_last_error());
	s.d[0] = 10;
	tap_check(!vpux_request_set_input_shape(req, 0, &s) &&
		  !vpux_request_output_shape(req, 0, &s) && s.d[0] == 10 &&
		  s.d[1] == MLP_N,
		  "input shape agreeing: bound; output shape 10x16");
	vpux_request_destroy(req);
	vpux_buffer_free(b);
}

/* two dims naming one symbol must agree */
static void test_two_dims(void)
{
	struct vpux_network *net = NULL;
	struct vpux_shape s = { 2, { 4, 5 } };
	struct vpux_request *req;
	void *data;
	size_t size;
	int r;

	fresh();
	/* x becomes T x T (K = T): a square input; only its shape matters */
	M.t[MLP_T_X].dims[1] = 0;
	M.t[MLP_T_X].dyn_dims = 3;
	M.t[MLP_T_X].strides[0] = 8 * MLP_TMAX;
	M.t[MLP_T_X].size = MLP_TMAX * MLP_TMAX;
	if (lf_write_mem(&M.img, &data, &size) ||
	    vpux_network_load(dev, data, size, &net) ||
	    vpux_request_create(net, &req)) {
		tap_check(0, "square-input network: %s", vpux_last_error());
		return;
	}
	free(data);
	r = vpux_request_set_input_shape(req, 0, &s);
	tap_check(r == VPUX_E_INVAL && strstr(vpux_last_error(), "dims disagree on symbol 'tokens': 4 and 5"),
		  "input shape with two dims of one symbol disagreeing: refused (%s)",
		  vpux_last_error());
	vpux_request_destroy(req);
	vpux_network_unload(net);
}

/* The engine core's prepare at load: a plan it refuses, named */
static void test_core_check(struct vpux_network *net)
{
	unsigned char *copy = malloc(net->task_size);
	struct dla_task_desc *td = (void *)copy;
	struct dla_plan_header *h;
	struct dla_plan_block *b;
	int r;

	memcpy(copy, net->task.cpu, net->task_size);
	tap_check(td->flags == DLA_TASK_F_PLAN && td->sym_index == net->n_slots &&
		  !td->ops[0].count && !td->num_barriers &&
		  !vpux_plan_core_check(net, copy),
		  "task memory: a plan, symbols in entry %u, the core accepts it at min and max",
		  td->sym_index);
	h = (void *)(copy + td->plan_offset);
	b = (void *)(copy + td->plan_offset + sizeof(*h) +
		     h->n_symbols * sizeof(struct dla_plan_symbol));
	{
		/* template 0's 5th patch, out.offset: OFF0 * 64 + 256 (h's offset) */
		const dla_u32 *ex = (const dla_u32 *)(copy + td->plan_offset +
						      td->plan_size) - h->expr_words;
		const struct dla_plan_patch *pa = (const void *)((const char *)ex -
			h->n_patches * sizeof(*pa));

		tap_check(pa[4].offset == offsetof(struct dla_dpu_op, out.offset) &&
			  pa[4].len == 4 &&
			  ex[pa[4].expr + 3] == DLA_EXPR_TOKEN(DLA_EXPR_ADD + DLA_EXPR_IMM, 256) &&
			  pa[0].offset == offsetof(struct dla_dpu_op, in_h) &&
			  pa[0].width == 2,
			  "task memory: a ref-offset patch adds its tensor's offset (+256 for h)");
	}
	b[0].depth = 4;
	r = vpux_plan_core_check(net, copy);
	tap_check(r == VPUX_E_FORMAT && strstr(vpux_last_error(), "block 0") &&
		  strstr(vpux_last_error(), "depth"),
		  "core at load: nesting past the limit, named (%s)",
		  vpux_last_error());
	b[0].depth = 1;
	b[1].n_templates = 2;
	r = vpux_plan_core_check(net, copy);
	tap_check(r == VPUX_E_FORMAT && strstr(vpux_last_error(), "block 1") &&
		  strstr(vpux_last_error(), "n_templates"),
		  "core at load: block past the templates, named (%s)",
		  vpux_last_error());
	b[1].n_templates = 1;
	/* the whole-x copy's dst.size +1 word per token: leaves at max only */
	{
		dla_u32 *ex = (dla_u32 *)(copy + td->plan_offset + td->plan_size) -
			      h->expr_words;
		struct dla_plan_patch *pa = (void *)((char *)ex -
			h->n_patches * sizeof(*pa));

		/* last patch: block 1's dst.size = SYM0 * 32 */
		ex[pa[h->n_patches - 1].expr + 1] =
			DLA_EXPR_TOKEN(DLA_EXPR_MUL + DLA_EXPR_IMM, MLP_K + 1);
		r = vpux_plan_core_check(net, copy);
		tap_check(r == VPUX_E_FORMAT &&
			  strstr(vpux_last_error(), "symbol at its max") &&
			  strstr(vpux_last_error(), "block 1"),
			  "core at load: a template leaving its buffer at max only, named (%s)",
			  vpux_last_error());
	}
	free(copy);
}

static void test_bad_load(void)
{
	struct vpux_network *net = NULL;
	void *data;
	size_t size;
	int r;

	fresh();
	M.blk[0].depth = 4;
	r = lf_write_mem(&M.img, &data, &size);
	r = r ? r : vpux_network_load(dev, data, size, &net);
	tap_check(r == VPUX_E_FORMAT && !net && strstr(vpux_last_error(), "nesting"),
		  "libvpux load of a plan nested past the limit: VPUX_E_FORMAT (%s)",
		  vpux_last_error());
	if (!r || data)
		free(data);
}

int main(void)
{
	const char *seed = getenv("VPUX_PLAN_SEED");
	struct vpux_network *net;

	/* the loader fuzzer's seed (umd.mk): the valid MLP plan loadable */
	if (seed) {
		fresh();
		return lf_write_file(&M.img, seed) ? 1 : 0;
	}

	test_symbols();
	test_dyn_dims();
	test_plan_rules();
	test_plan_bounds();
	test_v11_symbols();
	if (vpux_device_open("inproc", &dev)) {
		tap_check(0, "inproc: %s", vpux_last_error());
		return tap_finish();
	}
	net = load_mlp();
	if (tap_check(net != NULL, "the MLP plan loads once")) {
		test_run(net);
		test_api_errors(net);
		test_core_check(net);
		vpux_network_unload(net);
	}
	test_two_dims();
	test_bad_load();
	vpux_device_close(dev);
	return tap_finish();
}
