/* elementwise_heaviside: Out = Y where X == 0, else 1 where X > 0 and 0 otherwise (a NaN X
 * gives 0), with Paddle's broadcasting (ew_simple.h); float32, float64, int32 and int64
 * (paddle/phi/kernels/funcs/elementwise_functor.h, HeavisideFunctor). */
#include "kernels/cpu/ew_simple.h"

#define F32(a, b) ((a) == 0.0f ? (b) : (float)((a) > 0.0f))
#define F64(a, b) ((a) == 0.0 ? (b) : (double)((a) > 0.0))
#define I32(a, b) ((a) == 0 ? (b) : (int32_t)((a) > 0))
#define I64(a, b) ((a) == 0 ? (b) : (int64_t)((a) > 0))
IC_EWS_LOOPS(hv_f32, float, F32)
IC_EWS_LOOPS(hv_f64, double, F64)
IC_EWS_LOOPS(hv_i32, int32_t, I32)
IC_EWS_LOOPS(hv_i64, int64_t, I64)

static ic_status infer(ic_kctx *c) { return ic_ews_infer(c, IC_DT_NUM); }

static ic_status run(ic_kctx *c) {
  static const ic_ew_loop loops[4][3] = {IC_EWS_ROW(hv_f32), IC_EWS_ROW(hv_f64),
                                         IC_EWS_ROW(hv_i32), IC_EWS_ROW(hv_i64)};
  switch (ic_in(c, 0, 0)->dtype) {
    case IC_FP32: return ic_ews_run(c, loops[0]);
    case IC_FP64: return ic_ews_run(c, loops[1]);
    case IC_INT32: return ic_ews_run(c, loops[2]);
    default: return ic_ews_run(c, loops[3]);
  }
}

const ic_opdef ic_op_elementwise_heaviside = IC_EWS_DEF("elementwise_heaviside", infer, run);
