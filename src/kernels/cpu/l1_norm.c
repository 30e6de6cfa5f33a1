/* l1_norm: Out = sum |X| over every element, a 0-D tensor (paddle/fluid/operators/
 * l1_norm_op.h; Paddle 2.x before 2.5 gave shape [1], which icore reads the same way).
 * float32 (Paddle's kernel) and float64; summed in double, rounded once. */
#include <math.h>

#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), ic_in(c, 0, 0)->dtype, 0, NULL);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(x);
  double s = 0;
  if (x->dtype == IC_FP32) {
    const float *p = x->data;
    for (int64_t i = 0; i < n; i++) s += fabs((double)p[i]);
    *(float *)o->data = (float)s;
  } else {
    const double *p = x->data;
    for (int64_t i = 0; i < n; i++) s += fabs(p[i]);
    *(double *)o->data = s;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_l1_norm = {
    .name = "l1_norm", .n_inputs = 1, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
