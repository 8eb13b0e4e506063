// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Logical vs memory dims (the NN compiler's Dim/MemDim, Shape/MemShape,
 * Strides/MemStrides, DimsOrder and StrideReqs). A packed order holds one
 * nibble per dim, outermost first; nibble value = logical dim + 1; the
 * least significant nibble is memory dim 0 (innermost).
 */
#include "vpux.h"

uint32_t vpux_order_rank(vpux_dims_order o)
{
	uint32_t r = 0;

	while (r < 16 && (o.code >> (4 * r)) & 0xf)
		r++;
	return r;
}

int vpux_order_valid(vpux_dims_order o, uint32_t rank)
{
	uint32_t seen = 0, i;

	if (rank < 1 || rank > VPUX_MAX_RANK || o.code >> (4 * rank))
		return 0;
	for (i = 0; i < rank; i++) {
		uint32_t n = (o.code >> (4 * i)) & 0xf;

		if (n < 1 || n > rank || seen & (1u << n))
			return 0;
		seen |= 1u << n;
	}
	return 1;
}

vpux_dims_order vpux_order_default(uint32_t rank)
{
	vpux_dims_order o = { 0 };
	uint32_t i;

	/* identity: innermost memory dim is the last logical dim */
	for (i = 0; i < rank && i < VPUX_MAX_RANK; i++)
		o.code |= (uint64_t)(rank - i) << (4 * i);
	return o;
}

vpux_memdim vpux_order_to_memdim(vpux_dims_order o, vpux_dim d)
{
	uint32_t i;

	for (i = 0; i < VPUX_MAX_RANK; i++)
		if (((o.code >> (4 * i)) & 0xf) == d.ind + 1)
			return vpux_memdim_make(i);
	return vpux_memdim_make(UINT32_MAX);
}

vpux_dim vpux_order_to_dim(vpux_dims_order o, vpux_memdim m)
{
	if (m.ind >= VPUX_MAX_RANK)
		return vpux_dim_make(UINT32_MAX);
	return vpux_dim_make((uint32_t)((o.code >> (4 * m.ind)) & 0xf) - 1);
}

/* The same permutation for shapes and strides; @to_mem selects direction. */
static int permute(vpux_dims_order o, uint32_t rank, const uint64_t *in,
		   uint64_t *out, int to_mem)
{
	uint32_t m;

	if (!vpux_order_valid(o, rank))
		return VPUX_E_INVAL;
	for (m = 0; m < rank; m++) {
		uint32_t d = vpux_order_to_dim(o, vpux_memdim_make(m)).ind;

		if (to_mem)
			out[m] = in[d];
		else
			out[d] = in[m];
	}
	for (m = rank; m < VPUX_MAX_RANK; m++)
		out[m] = 0;
	return 0;
}

int vpux_order_to_memshape(vpux_dims_order o, const struct vpux_shape *s,
			   struct vpux_memshape *ms)
{
	ms->rank = s->rank;
	return permute(o, s->rank, s->d, ms->d, 1);
}

int vpux_order_to_shape(vpux_dims_order o, const struct vpux_memshape *ms,
			struct vpux_shape *s)
{
	s->rank = ms->rank;
	return permute(o, ms->rank, ms->d, s->d, 0);
}

int vpux_order_to_memstrides(vpux_dims_order o, const struct vpux_strides *s,
			     struct vpux_memstrides *ms)
{
	ms->rank = s->rank;
	return permute(o, s->rank, s->bits, ms->bits, 1);
}

int vpux_order_to_strides(vpux_dims_order o, const struct vpux_memstrides *ms,
			  struct vpux_strides *s)
{
	s->rank = ms->rank;
	return permute(o, ms->rank, ms->bits, s->bits, 0);
}

int vpux_stride_reqs_compute(const struct vpux_stride_reqs *r,
			     uint32_t elem_bits,
			     const struct vpux_memshape *ms,
			     struct vpux_memstrides *out)
{
	uint64_t next = elem_bits;	/* compact stride of the current dim */
	uint32_t m;

	if (!r || !ms || !out || r->rank != ms->rank || !ms->rank ||
	    ms->rank > VPUX_MAX_RANK || !elem_bits)
		return VPUX_E_INVAL;
	out->rank = ms->rank;
	for (m = 0; m < VPUX_MAX_RANK; m++)
		out->bits[m] = 0;
	for (m = 0; m < ms->rank; m++) {
		uint64_t s = next, a;

		switch (r->kind[m]) {
		case VPUX_STRIDE_ANY:
		case VPUX_STRIDE_COMPACT:
			break;
		case VPUX_STRIDE_ALIGNED:
			if (!r->value[m] || r->value[m] > (1ull << 32))
				return VPUX_E_INVAL;
			a = r->value[m] * 8;
			if (s > UINT64_MAX - a)
				return VPUX_E_INVAL;
			s = (s + a - 1) / a * a;
			break;
		case VPUX_STRIDE_FIXED:
			if (r->value[m] < next || r->value[m] % 8)
				return VPUX_E_INVAL;
			s = r->value[m];
			break;
		default:
			return VPUX_E_INVAL;
		}
		out->bits[m] = s;
		if (ms->d[m] && s > UINT64_MAX / ms->d[m])
			return VPUX_E_INVAL;
		next = s * ms->d[m];
	}
	return 0;
}
