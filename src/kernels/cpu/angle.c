/* angle (paddle.angle; phi AngleKernel): the argument atan2(im, re) of complex X (complex64
 * -> float32, complex128 -> float64); of a real X, 0 for x >= 0 (and NaN kept) and pi for
 * x < 0, X's dtype. */
#include <math.h>

#include "kernels/cpu/complexutil.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  if (ic_kcheck_dtype(c, 0, 0, IC_DT_COMPLEX | IC_DT_FLOAT)) return c->err->code;
  const ic_dtype dt = x->dtype == IC_COMPLEX64 || x->dtype == IC_COMPLEX128
                          ? ic_complex_part_dtype(x->dtype) : x->dtype;
  ic_tensor_set_meta(ic_out(c, 0, 0), dt, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(x);
  for (int64_t i = 0; i < n; i++) {
    double v;
    if (x->dtype == IC_COMPLEX64 || x->dtype == IC_COMPLEX128) {
      double re, im;
      ic_complex_get(x, i, &re, &im);
      v = atan2(im, re);
    } else {
      const double r = ic_read_f64(x, i);
      v = isnan(r) ? r : r < 0 ? IC_COMPLEX_PI : 0.0;
    }
    if (o->dtype == IC_FP32) ((float *)o->data)[i] = (float)v;
    else ((double *)o->data)[i] = v;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_angle = {
    .name = "angle", .n_inputs = 1, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
