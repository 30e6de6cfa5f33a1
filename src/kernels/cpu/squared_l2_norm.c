/* squared_l2_norm: Out = sum of X's squared elements, one value (phi SquaredL2NormKernel;
 * ClipGradByGlobalNorm emits it per gradient). Out has dims [1] as SquaredL2NormInferMeta
 * sets them; the sum runs in double and is rounded once to X's dtype. */
#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), ic_in(c, 0, 0)->dtype, 1, (const int64_t[]){1});
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t n = ic_tensor_numel_(x);
  double s = 0;
  if (x->dtype == IC_FP32) {
    const float *p = x->data;
    for (int64_t i = 0; i < n; i++) s += (double)p[i] * p[i];
    *(float *)o->data = (float)s;
  } else {
    const double *p = x->data;
    for (int64_t i = 0; i < n; i++) s += p[i] * p[i];
    *(double *)o->data = s;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_squared_l2_norm = {
    .name = "squared_l2_norm",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
