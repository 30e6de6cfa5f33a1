/* logical_not: Out = !X as bool (nonzero is true) for bool, uint8, int8, int16, int32,
 * int64, float32 and float64 X (paddle/phi/kernels/cpu/logical_kernel.cc). */
#include "kernels/cpu/activation.h"

#define NOT_DTYPES                                                                         \
  (IC_DT(IC_BOOL) | IC_DT(IC_UINT8) | IC_DT(IC_INT8) | IC_DT(IC_INT16) | IC_DT_NUM)

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 0, 0, NOT_DTYPES);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor_set_meta(ic_out(c, 0, 0), IC_BOOL, x->ndim, x->dims);
  return IC_OK;
}

#define NOT_LOOP(T)                                                                        \
  do {                                                                                     \
    const T *xp = x->data;                                                                 \
    for (int64_t i = 0; i < n; i++) o[i] = (uint8_t)(xp[i] == 0);                          \
  } while (0)

static ic_status logical_not_cpu(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  uint8_t *o = ic_out(c, 0, 0)->data;
  int64_t n = ic_numel(x->ndim, x->dims);
  switch (x->dtype) {
    case IC_FP32: NOT_LOOP(float); break;
    case IC_FP64: NOT_LOOP(double); break;
    case IC_INT32: NOT_LOOP(int32_t); break;
    case IC_INT64: NOT_LOOP(int64_t); break;
    case IC_INT16: NOT_LOOP(int16_t); break;
    default: NOT_LOOP(uint8_t); break;
  }
  return IC_OK;
}

const ic_opdef ic_op_logical_not =
    IC_ACTIVATION_DEF(logical_not, ic_noattrs, NULL, infer);
