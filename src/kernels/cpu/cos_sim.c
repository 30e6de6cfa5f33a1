/* cos_sim: fluid's cosine similarity of rows. X [N, ...] and Y [N or 1, ...] (Y's one row is
 * compared with every row of X), flattened to rows of D; Out [N, 1] = x . y / (|x| |y|),
 * XNorm [N, 1] and YNorm [rows of Y, 1] the norms (paddle/phi/kernels/impl/cos_sim_kernel_impl.h,
 * funcs/cos_sim_functor.h). The sums run in the dtype, element by element. float32, float64. */
#include <math.h>

#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (y->dtype != x->dtype) return ic_kfail_in(c, 1, 0, "expected X's dtype");
  if (x->ndim < 1 || y->ndim != x->ndim) return ic_kfail_in(c, 1, 0, "expected X's rank (>= 1)");
  for (int i = 1; i < x->ndim; i++) {
    if (x->dims[i] != y->dims[i]) return ic_kfail_in(c, 1, 0, "expected X's dims after the first");
  }
  if (y->dims[0] != x->dims[0] && y->dims[0] != 1) {
    return ic_kfail_in(c, 1, 0, "has %lld rows, expected X's %lld or 1", (long long)y->dims[0],
                       (long long)x->dims[0]);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 2, (int64_t[]){x->dims[0], 1});
  if (ic_out(c, 1, 0)) ic_tensor_set_meta(ic_out(c, 1, 0), x->dtype, 2, (int64_t[]){x->dims[0], 1});
  if (ic_out(c, 2, 0)) ic_tensor_set_meta(ic_out(c, 2, 0), x->dtype, 2, (int64_t[]){y->dims[0], 1});
  return IC_OK;
}

#define COS_SIM(T, SQRT)                                                          \
  do {                                                                            \
    const T *xd = x->data, *yd = y->data;                                         \
    T *od = o->data, *xn = xo ? xo->data : NULL, *yn = yo ? yo->data : NULL;      \
    for (int64_t r = 0; r < yrows; r++) {                                         \
      T s = 0;                                                                    \
      for (int64_t k = 0; k < D; k++) s += yd[r * D + k] * yd[r * D + k];         \
      ynorm[r] = SQRT(s);                                                         \
      if (yn) yn[r] = (T)ynorm[r];                                                \
    }                                                                             \
    for (int64_t r = 0; r < N; r++) {                                             \
      const int64_t yr = yrows == 1 ? 0 : r;                                      \
      T sx = 0, dot = 0;                                                          \
      for (int64_t k = 0; k < D; k++) {                                           \
        sx += xd[r * D + k] * xd[r * D + k];                                      \
        dot += xd[r * D + k] * yd[yr * D + k];                                    \
      }                                                                           \
      const T nx = SQRT(sx);                                                      \
      if (xn) xn[r] = nx;                                                         \
      od[r] = dot / (nx * (T)ynorm[yr]);                                          \
    }                                                                             \
  } while (0)

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_tensor *o = ic_out(c, 0, 0), *xo = ic_out(c, 1, 0), *yo = ic_out(c, 2, 0);
  const int64_t N = x->dims[0], yrows = y->dims[0];
  const int64_t D = N ? ic_tensor_numel_(x) / N : 0;
  ic_buffer *scr = ic_kscratch(c, (size_t)(yrows ? yrows : 1) * sizeof(double));
  if (!scr) return c->err->code;
  double *ynorm = scr->data;
  if (x->dtype == IC_FP32) COS_SIM(float, sqrtf);
  else COS_SIM(double, sqrt);
  ic_buffer_release(scr);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Y", 0}};
static const ic_slotdef outputs[] = {
    {"Out", 0}, {"XNorm", IC_SLOT_OPTIONAL}, {"YNorm", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_cos_sim = {
    .name = "cos_sim", .n_inputs = 2, .inputs = inputs, .n_outputs = 3, .outputs = outputs,
    .infer = infer, .cpu = run,
};
