/* ic_scale_residual (internal; analysis inserts it on CPU plans, fuse.c): a squeeze-excitation
 * scale and its residual add in one pass,
 *   Out = X + X * Y
 * with Y broadcast onto X by Paddle's elementwise rule and `axis` (elementwise.c), Out of X's
 * shape. It replaces elementwise_mul(X, Y) -> M, elementwise_add(X, M) (either operand
 * order: both operations commute bitwise) where M has no other reader; each element is the
 * rounded product, then the rounded sum, exactly as the two ops compute it (ISO C11: no
 * contraction into a fused multiply-add), so the results are bitwise the unfused ones. One
 * read of X and one write instead of three reads and two writes (PP-OCRv4's RSEFPN neck). */
#include "kernels/cpu/elementwise.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT(IC_FP32) | IC_DT(IC_FP64));
  if (st) return st;
  if (y->dtype != x->dtype) return ic_bcast_dtype_mismatch(c);
  const ic_elementwise_attrs *a = c->attrs;
  ic_bcast b;
  if ((st = ic_bcast_plan(c, 0, 1, a->axis, &b))) return st;
  if (!ic_dims_equal(b.ndim, b.out, x->ndim, x->dims)) {
    char want[128];
    return ic_kfail_in(c, 1, 0, "expected to broadcast onto X's dims %s",
                       ic_dims_str(x->ndim, x->dims, want, sizeof want));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

/* Out = X + X * Y over n elements: Y running along the row (vv) or one value (vs). X always
 * runs (Out has X's shape). */
#define DEFINE_LOOPS(T, SUF)                                                                \
  static void vv_##SUF(void *o_, const void *x_, const void *y_, int64_t n) {              \
    T *o = o_;                                                                              \
    const T *x = x_, *y = y_;                                                               \
    for (int64_t i = 0; i < n; i++) {                                                       \
      T p = x[i] * y[i];                                                                    \
      o[i] = x[i] + p;                                                                      \
    }                                                                                       \
  }                                                                                         \
  static void vs_##SUF(void *o_, const void *x_, const void *y_, int64_t n) {              \
    T *o = o_;                                                                              \
    const T *x = x_, s = *(const T *)y_;                                                    \
    for (int64_t i = 0; i < n; i++) {                                                       \
      T p = x[i] * s;                                                                       \
      o[i] = x[i] + p;                                                                      \
    }                                                                                       \
  }                                                                                         \
  static const ic_ew_loop loops_##SUF[3] = {vv_##SUF, vs_##SUF, vv_##SUF};
DEFINE_LOOPS(float, f32)
DEFINE_LOOPS(double, f64)

static ic_status run(ic_kctx *c) {
  const ic_elementwise_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  ic_bcast b;
  ic_status st = ic_bcast_plan(c, 0, 1, a->axis, &b);
  if (st || b.numel == 0) return st;
  const int nt = ic_omp_threads(c->env);
  if (x->dtype == IC_FP64) ic_bcast_run(&b, loops_f64, out->data, x->data, y->data, 8, nt);
  else ic_bcast_run(&b, loops_f32, out->data, x->data, y->data, 4, nt);
  return IC_OK;
}

const ic_opdef ic_op_ic_scale_residual = {
    .name = "ic_scale_residual",
    .n_inputs = 2, .inputs = ic_elementwise_inputs,
    .n_outputs = 1, .outputs = ic_elementwise_outputs,
    .attrs_size = sizeof(ic_elementwise_attrs), .parse = ic_elementwise_parse,
    .infer = infer, .cpu = run,
};
