/* trunc: Out = X rounded toward zero (phi TruncKernel, std::trunc). Integer inputs (int32,
 * int64) come through unchanged, as Paddle registers them. */
#include "kernels/cpu/activation.h"

static ic_status trunc_cpu(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t n = ic_numel(x->ndim, x->dims);
  switch (x->dtype) {
    case IC_FP32: IC_UNARY_LOOP(float, x->data, o->data, n, truncf(v)); break;
    case IC_FP64: IC_UNARY_LOOP(double, x->data, o->data, n, trunc(v)); break;
    case IC_INT32: IC_UNARY_LOOP(int32_t, x->data, o->data, n, v); break;
    default: IC_UNARY_LOOP(int64_t, x->data, o->data, n, v); break;
  }
  return IC_OK;
}

const ic_opdef ic_op_trunc = IC_ACTIVATION_DEF(trunc, ic_noattrs, NULL, ic_activation_infer_num);
