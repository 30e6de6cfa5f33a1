/* dot: X and Y of the same dims, rank 1 [N] or 2 [B, N]; Out = the sum over the last dim of
 * X * Y, a 0-D tensor for rank 1 and [B] for rank 2, accumulated in order in X's dtype as
 * Paddle's CPU kernel does (float32, float64, int32, int64; integers wrap)
 * (paddle/phi/kernels/cpu/dot_kernel.cc, DotInferMeta). */
#include "kernels/kernel.h"

enum { IN_X, IN_Y };
static const ic_slotdef k_inputs[2] = {{"X", 0}, {"Y", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_NUM);
  if (st) return st;
  if (x->ndim != 1 && x->ndim != 2) return ic_kfail_in(c, IN_X, 0, "expected rank 1 or 2");
  if (y->dtype != x->dtype || !ic_dims_equal(x->ndim, x->dims, y->ndim, y->dims)) {
    char want[96];
    return ic_kfail_in(c, IN_Y, 0, "expected X's dtype and dims (%s%s)", ic_dtype_name(x->dtype),
                       ic_dims_str(x->ndim, x->dims, want, sizeof want));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim - 1, x->dims);
  return IC_OK;
}

#define DOT(T, U)                                                                          \
  do {                                                                                     \
    const T *xp = x->data, *yp = y->data;                                                  \
    T *op = o->data;                                                                       \
    for (int64_t b = 0; b < rows; b++) {                                                   \
      U s = 0;                                                                             \
      for (int64_t i = 0; i < n; i++) s += (U)xp[b * n + i] * (U)yp[b * n + i];            \
      op[b] = (T)s;                                                                        \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = x->dims[x->ndim - 1], rows = x->ndim == 2 ? x->dims[0] : 1;
  switch (x->dtype) {
    case IC_FP32: DOT(float, float); break;
    case IC_FP64: DOT(double, double); break;
    case IC_INT32: DOT(int32_t, uint32_t); break;
    default: DOT(int64_t, uint64_t); break;
  }
  return IC_OK;
}

const ic_opdef ic_op_dot = {
    .name = "dot", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .infer = infer, .cpu = run,
};
