/* nextafter: out = the next representable value after x in the direction of y, with Paddle's
 * broadcasting of x and y (ew_simple.h, trailing dims aligned); float32 and float64 through
 * libm's nextafterf / nextafter as Paddle's NextafterFunctor calls std::nextafter: x itself
 * when x == y (y's value, so nextafter(-0, +0) = +0), NaN when either is NaN
 * (paddle/phi/kernels/impl/nextafter_kernel_impl.h). Legacy slots x, y, out. */
#include <math.h>

#include "kernels/cpu/ew_simple.h"

#define F32(a, b) nextafterf(a, b)
#define F64(a, b) nextafter(a, b)
IC_EWS_LOOPS(nextafter_f32, float, F32)
IC_EWS_LOOPS(nextafter_f64, double, F64)

static ic_status infer(ic_kctx *c) { return ic_ews_infer(c, IC_DT_FLOAT); }

static ic_status run(ic_kctx *c) {
  static const ic_ew_loop f32[3] = IC_EWS_ROW(nextafter_f32), f64[3] = IC_EWS_ROW(nextafter_f64);
  return ic_ews_run(c, ic_in(c, 0, 0)->dtype == IC_FP32 ? f32 : f64);
}

static const ic_slotdef inputs[] = {{"x", 0}, {"y", 0}};
static const ic_slotdef outputs[] = {{"out", 0}};

const ic_opdef ic_op_nextafter = {
    .name = "nextafter", .n_inputs = 2, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ic_elementwise_attrs), .parse = ic_elementwise_parse, .infer = infer,
    .cpu = run,
};
