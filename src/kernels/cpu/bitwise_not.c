/* bitwise_not: Out = ~X for uint8, int8, int16, int32 and int64 X, and the logical not for
 * bool X; Out has X's dtype and dims (paddle/phi/kernels/funcs/bitwise_functors.h). */
#include "kernels/cpu/activation.h"

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(
      c, 0, 0, IC_DT(IC_BOOL) | IC_DT(IC_UINT8) | IC_DT(IC_INT8) | IC_DT(IC_INT16) | IC_DT_INT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define NOT_LOOP(T, EXPR)                                                                  \
  do {                                                                                     \
    const T *xp = x->data;                                                                 \
    T *op = o->data;                                                                       \
    for (int64_t i = 0; i < n; i++) op[i] = (T)(EXPR);                                     \
  } while (0)

static ic_status bitwise_not_cpu(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = ic_numel(x->ndim, x->dims);
  if (x->dtype == IC_BOOL) {
    NOT_LOOP(uint8_t, xp[i] == 0);
    return IC_OK;
  }
  switch (ic_dtype_size(x->dtype)) {
    case 1: NOT_LOOP(uint8_t, ~xp[i]); break;
    case 2: NOT_LOOP(uint16_t, ~xp[i]); break;
    case 4: NOT_LOOP(uint32_t, ~xp[i]); break;
    default: NOT_LOOP(uint64_t, ~xp[i]); break;
  }
  return IC_OK;
}

const ic_opdef ic_op_bitwise_not = IC_ACTIVATION_DEF(bitwise_not, ic_noattrs, NULL, infer);
