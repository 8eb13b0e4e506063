// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Real scales to the NPU's fixed-point requantisation records. This is
 * the one place where the compiler's floating point meets the device's
 * integer arithmetic: a real factor s becomes {mult, shift} with
 * s = mult / 2^(31 + shift), mult a Q31 mantissa in [2^30, 2^31), as
 * Documentation/compute-ops.rst defines vpux_requant() (single rounding).
 */
#include <math.h>

#include "err.h"
#include "hostconv.h"
#include "lower.h"

int vc_requant(double real, struct vpux_hw_requant *rq)
{
	double m;
	int e;
	long long mult;

	if (!(real > 0) || !isfinite(real))
		return vpux_err(VPUX_E_UNSUPPORTED,
				"requant: factor %g is not a positive finite number",
				real);
	m = frexp(real, &e);		/* real = m * 2^e, m in [0.5, 1) */
	mult = llround(m * 2147483648.0);
	if (mult == 2147483648ll) {
		mult /= 2;
		e++;
	}
	/* shift = -e must lie in -31..31; tiny factors round towards 0 */
	if (-e > 31) {
		int extra = -e - 31;

		mult = extra > 31 ? 0 : (mult + (1ll << (extra - 1))) >> extra;
		e = -31;
		if (!mult)
			mult = 1;	/* smallest factor the device has */
	}
	if (-e < -31)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"requant: factor %g above 2^31 cannot be represented",
				real);
	rq->mult = (int32_t)mult;
	rq->shift = -e;
	return 0;
}

int32_t vc_dt_min(int32_t dt)
{
	return dt == VPUX_DT_U8 ? 0 : dt == VPUX_DT_I8 ? -128 : INT32_MIN;
}

int32_t vc_dt_max(int32_t dt)
{
	return dt == VPUX_DT_U8 ? 255 : dt == VPUX_DT_I8 ? 127 : INT32_MAX;
}

unsigned int vc_dt_bytes(int32_t dt)
{
	/* the float types: known, not lowered to yet (vc_dt_of_onnx()) */
	return dt == VPUX_DT_I32 || dt == VPUX_DT_F32 ? 4 :
	       dt == VPUX_DT_F16 ? 2 : 1;
}

int32_t vc_dt_of_onnx(int32_t t)
{
	switch (t) {
	case VPUXC_UINT8:
		return VPUX_DT_U8;
	case VPUXC_INT8:
		return VPUX_DT_I8;
	case VPUXC_INT32:
		return VPUX_DT_I32;
	}
	return 0;
}

/*
 * umd/hostconv.h's one rounding, the quotient in double: the bits the
 * compiler's constants always had. A NaN is HC_QNAN (*@q the zero
 * point); the callers refuse it.
 */
int vc_quantize(double v, double scale, int32_t zp, int32_t dt, int32_t *q)
{
	return hc_quantize_f64(v, scale, zp, vc_dt_min(dt), vc_dt_max(dt), q);
}
