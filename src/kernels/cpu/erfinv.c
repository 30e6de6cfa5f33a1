/* erfinv: Out = the inverse error function of X elementwise: +inf from 1 up, -inf from -1
 * down (Eigen's ndtri saturates outside (0, 1)), NaN for NaN
 * (paddle/phi/kernels/cpu/erfinv_kernel.cc: Eigen's ndtri((x + 1) / 2) / sqrt(2)). Computed in double whatever the dtype: a rough closed form
 * refined by Newton steps on erf (erfc past |x| = 0.5, where erf flattens), then rounded
 * once. float32, float64. */
#include <math.h>

#include "kernels/kernel.h"

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static double erfinv_d(double y) {
  if (isnan(y)) return NAN;
  if (y >= 1.0) return INFINITY;
  if (y <= -1.0) return -INFINITY;
  if (y == 0.0) return y;
  double s = y < 0 ? -1.0 : 1.0, a = fabs(y);
  /* Winitzki's approximation (relative error about 2e-3) as the start */
  const double k = 0.147, pi = 3.14159265358979323846;
  double l = log1p(-a) + log1p(a), t = 2.0 / (pi * k) + l / 2.0;
  double x = sqrt(sqrt(t * t - l / k) - t);
  const double two_over_sqrt_pi = 1.12837916709551257390;
  for (int i = 0; i < 6; i++) {
    /* f(x) = erf(x) - a, written as (1 - a) - erfc(x) where erf is close to 1 */
    double f = a < 0.5 ? erf(x) - a : (1.0 - a) - erfc(x);
    double d = two_over_sqrt_pi * exp(-x * x);
    if (d == 0.0) break;
    double step = f / d;
    /* Halley's correction: f'' / f' = -2x */
    double nx = x - step / (1.0 + x * step);
    if (nx == x) break;
    x = nx;
  }
  return s * x;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t n = ic_numel(x->ndim, x->dims);
  if (x->dtype == IC_FP32) {
    const float *xp = x->data;
    float *op = o->data;
    for (int64_t i = 0; i < n; i++) op[i] = (float)erfinv_d(xp[i]);
  } else {
    const double *xp = x->data;
    double *op = o->data;
    for (int64_t i = 0; i < n; i++) op[i] = erfinv_d(xp[i]);
  }
  return IC_OK;
}

const ic_opdef ic_op_erfinv = {
    .name = "erfinv", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .infer = infer, .cpu = run,
};
