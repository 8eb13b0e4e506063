// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* Logical vs memory dims, dims orders and stride requirements. */
#include <string.h>

#include "vpux.h"
#include "vpux_tap.h"

static void test_order(void)
{
	vpux_dims_order nhwc = { 0x1342 }, nchw = { 0x1234 };
	struct vpux_shape s = { 4, { 1, 8, 16, 32 } }, back;
	struct vpux_memshape ms;
	struct vpux_strides st;
	struct vpux_memstrides mst;
	struct vpux_stride_reqs rq;

	tap_check(vpux_order_valid(nhwc, 4) && vpux_order_valid(nchw, 4) &&
		  !vpux_order_valid((vpux_dims_order){ 0x1134 }, 4) &&
		  !vpux_order_valid((vpux_dims_order){ 0x1235 }, 4) &&
		  !vpux_order_valid((vpux_dims_order){ 0x1234 }, 3) &&
		  !vpux_order_valid((vpux_dims_order){ 0 }, 0),
		  "order: permutations accepted, repeats/out-of-range/rank mismatch refused");
	tap_check(vpux_order_rank(nhwc) == 4 &&
		  vpux_order_default(4).code == 0x1234 &&
		  vpux_order_default(2).code == 0x12,
		  "order: rank and default (identity) order");
	tap_check(vpux_order_to_memdim(nhwc, vpux_dim_make(1)).ind == 0 &&
		  vpux_order_to_memdim(nhwc, vpux_dim_make(3)).ind == 1 &&
		  vpux_order_to_memdim(nhwc, vpux_dim_make(0)).ind == 3 &&
		  vpux_order_to_dim(nhwc, vpux_memdim_make(2)).ind == 2,
		  "order: NHWC puts C innermost, then W, H, N");
	tap_check(!vpux_order_to_memshape(nhwc, &s, &ms) && ms.d[0] == 8 &&
		  ms.d[1] == 32 && ms.d[2] == 16 && ms.d[3] == 1 &&
		  !vpux_order_to_shape(nhwc, &ms, &back) &&
		  !memcmp(back.d, s.d, sizeof(s.d)),
		  "shape <-> memshape round trip through NHWC");
	memset(&rq, 0, sizeof(rq));
	rq.rank = 4;
	tap_check(!vpux_stride_reqs_compute(&rq, 8, &ms, &mst) &&
		  mst.bits[0] == 8 && mst.bits[1] == 64 &&
		  mst.bits[2] == 64 * 32 && mst.bits[3] == 64 * 32 * 16 &&
		  !vpux_order_to_strides(nhwc, &mst, &st) &&
		  st.bits[1] == 8 && st.bits[3] == 64 && st.bits[2] == 2048,
		  "stride reqs ANY: compact NHWC strides in bits");
	rq.kind[1] = VPUX_STRIDE_ALIGNED;
	rq.value[1] = 128;
	tap_check(!vpux_stride_reqs_compute(&rq, 8, &ms, &mst) &&
		  mst.bits[1] == 128 * 8 && mst.bits[2] == 128 * 8 * 32,
		  "stride reqs ALIGNED: W stride rounded up to 128 bytes");
	rq.kind[1] = VPUX_STRIDE_FIXED;
	rq.value[1] = 8 * 24;
	tap_check(!vpux_stride_reqs_compute(&rq, 8, &ms, &mst) &&
		  mst.bits[1] == 192 && mst.bits[2] == 192 * 32,
		  "stride reqs FIXED: the given stride, outer dims follow");
	rq.value[1] = 8 * 4;
	tap_check(vpux_stride_reqs_compute(&rq, 8, &ms, &mst) == VPUX_E_INVAL,
		  "stride reqs FIXED smaller than compact refused");
	rq.kind[1] = VPUX_STRIDE_ALIGNED;
	rq.value[1] = 0;
	tap_check(vpux_stride_reqs_compute(&rq, 8, &ms, &mst) == VPUX_E_INVAL,
		  "stride reqs ALIGNED to 0 refused");
	rq.kind[1] = VPUX_STRIDE_COMPACT;
	rq.rank = 3;
	tap_check(vpux_stride_reqs_compute(&rq, 8, &ms, &mst) == VPUX_E_INVAL,
		  "stride reqs rank mismatch refused");
	tap_check(vpux_order_to_memshape((vpux_dims_order){ 0x1235 }, &s,
					 &ms) == VPUX_E_INVAL,
		  "conversion with an invalid order refused");
}

int main(void)
{
	test_order();
	return tap_finish();
}
