/* square: Out = X * X for float32, float64, int32 and int64 (integers wrap). */
#include "kernels/cpu/activation.h"

static ic_status square_cpu(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t n = ic_numel(x->ndim, x->dims);
  switch (x->dtype) {
    case IC_FP32: IC_UNARY_LOOP(float, x->data, o->data, n, v * v); break;
    case IC_FP64: IC_UNARY_LOOP(double, x->data, o->data, n, v * v); break;
    case IC_INT32:
      IC_UNARY_LOOP(int32_t, x->data, o->data, n, (int32_t)((uint32_t)v * (uint32_t)v));
      break;
    default:
      IC_UNARY_LOOP(int64_t, x->data, o->data, n, (int64_t)((uint64_t)v * (uint64_t)v));
      break;
  }
  return IC_OK;
}

const ic_opdef ic_op_square = IC_ACTIVATION_DEF(square, ic_noattrs, NULL, ic_activation_infer_num);
