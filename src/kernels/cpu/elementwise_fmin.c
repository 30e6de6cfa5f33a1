/* elementwise_fmin: Out = fmin(X, Y) with Paddle's broadcasting (ew_simple.h): a NaN operand
 * gives the other operand (NaN only when both are). float32 and float64 through libm's
 * fminf / fmin, as Paddle's FMinFunctor calls std::fmin; int32 and int64 as Paddle
 * computes them: int32 through float (fminf of the values as floats, lrintf, wrapped to
 * int32: beyond 2^24 the values come back rounded to a float, and 2^31 - 1 rounds to 2^31,
 * which wraps to -2^31), int64 through double (fmin, llrint: values beyond 2^53 come back
 * rounded to a double) (paddle/phi/kernels/funcs/elementwise_functor.h). */
#include <math.h>

#include "kernels/cpu/ew_simple.h"

#define F32(a, b) fminf(a, b)
#define F64(a, b) fmin(a, b)
#define I32(a, b) ((int32_t)(uint32_t)(uint64_t)lrintf(fminf((float)(a), (float)(b))))
#define I64(a, b) ((int64_t)llrint(fmin((double)(a), (double)(b))))
IC_EWS_LOOPS(fmin_f32, float, F32)
IC_EWS_LOOPS(fmin_f64, double, F64)
IC_EWS_LOOPS(fmin_i32, int32_t, I32)
IC_EWS_LOOPS(fmin_i64, int64_t, I64)

static ic_status infer(ic_kctx *c) { return ic_ews_infer(c, IC_DT_NUM); }

static ic_status run(ic_kctx *c) {
  static const ic_ew_loop loops[4][3] = {IC_EWS_ROW(fmin_f32), IC_EWS_ROW(fmin_f64),
                                         IC_EWS_ROW(fmin_i32), IC_EWS_ROW(fmin_i64)};
  switch (ic_in(c, 0, 0)->dtype) {
    case IC_FP32: return ic_ews_run(c, loops[0]);
    case IC_FP64: return ic_ews_run(c, loops[1]);
    case IC_INT32: return ic_ews_run(c, loops[2]);
    default: return ic_ews_run(c, loops[3]);
  }
}

const ic_opdef ic_op_elementwise_fmin = IC_EWS_DEF("elementwise_fmin", infer, run);
