/* lerp: Out = X + Weight * (Y - X), X, Y and Weight broadcast NumPy-style to Out's shape
 * (paddle/phi/kernels/impl/lerp_kernel_impl.h, LerpInferMeta). float32, float64; all three
 * of one dtype. */
#include "kernels/cpu/nbcast.h"

static const ic_slotdef k_inputs[3] = {{"X", 0}, {"Y", 0}, {"Weight", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};
static const size_t k_slots[3] = {0, 1, 2}, k_zero[3] = {0, 0, 0};

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  for (size_t s = 1; s < 3; s++) {
    if (ic_in(c, s, 0)->dtype != x->dtype) {
      return ic_kfail_in(c, s, 0, "expected the dtype of X '%s' (%s)", ic_in_name(c, 0, 0),
                         ic_dtype_name(x->dtype));
    }
  }
  int r = 0;
  int64_t d[IC_MAX_RANK];
  st = ic_nbcast_dims(c, 3, k_slots, k_zero, &r, d);
  if (st) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, r, d);
  return IC_OK;
}

#define LERP(T)                                                                        \
  do {                                                                                 \
    const T *xp = x->data, *yp = y->data, *wp = w->data;                               \
    T *op = o->data;                                                                   \
    for (int64_t i = 0; i < n; i++) {                                                  \
      T a = xp[off[0]], b = yp[off[1]], t = wp[off[2]];                                \
      op[i] = a + t * (b - a);                                                         \
      ic_nbcast_next(r, o->dims, idx, 3, st, off);                                     \
    }                                                                                  \
  } while (0)

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0), *w = ic_in(c, 2, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int r = o->ndim;
  int64_t st[3][IC_MAX_RANK], idx[IC_MAX_RANK] = {0}, off[3] = {0, 0, 0};
  ic_nbcast_strides(x, r, o->dims, st[0]);
  ic_nbcast_strides(y, r, o->dims, st[1]);
  ic_nbcast_strides(w, r, o->dims, st[2]);
  int64_t n = ic_numel(o->ndim, o->dims);
  if (o->dtype == IC_FP32) LERP(float);
  else LERP(double);
  return IC_OK;
}

const ic_opdef ic_op_lerp = {
    .name = "lerp", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .infer = infer, .cpu = run,
};
