/* sign: Out = -1, 0 or 1 by the sign of X (a NaN stays NaN, as Paddle 3.3 computes it), for
 * float32, float64, int32, int64 and, as Paddle's CPU kernel, int8, uint8 and int16. */
#include "kernels/cpu/activation.h"

static ic_status sign_cpu(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t n = ic_numel(x->ndim, x->dims);
  switch (x->dtype) {
    case IC_FP32:
      IC_UNARY_LOOP(float, x->data, o->data, n, v != v ? v : (float)((v > 0) - (v < 0)));
      break;
    case IC_FP64:
      IC_UNARY_LOOP(double, x->data, o->data, n, v != v ? v : (double)((v > 0) - (v < 0)));
      break;
    case IC_INT32: IC_UNARY_LOOP(int32_t, x->data, o->data, n, (int32_t)((v > 0) - (v < 0))); break;
    case IC_INT16: IC_UNARY_LOOP(int16_t, x->data, o->data, n, (int16_t)((v > 0) - (v < 0))); break;
    case IC_INT8: IC_UNARY_LOOP(int8_t, x->data, o->data, n, (int8_t)((v > 0) - (v < 0))); break;
    case IC_UINT8: IC_UNARY_LOOP(uint8_t, x->data, o->data, n, (uint8_t)(v > 0)); break;
    default: IC_UNARY_LOOP(int64_t, x->data, o->data, n, (int64_t)((v > 0) - (v < 0))); break;
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_NUM | IC_DT(IC_INT8) | IC_DT(IC_UINT8) |
                                              IC_DT(IC_INT16));
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

const ic_opdef ic_op_sign = IC_ACTIVATION_DEF(sign, ic_noattrs, NULL, infer);
