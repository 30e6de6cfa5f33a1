/* maxout_grad: each Out@GRAD element goes to the first element of its group (channels
 * c * groups .. c * groups + groups - 1 along the channel axis) equal to Out, the others
 * get 0; a group with no element equal to Out (Out NaN) gives nothing (phi
 * MaxOutGradFunctor). Inputs X, Out, Out@GRAD (X [N, C, H, W], or [N, H, W, C] with axis
 * -1 / 3); attributes groups (required), axis (default 1); float32 and float64. */
#include <string.h>

#include "kernels/cpu/maxout.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  int64_t d[4];
  ic_status st = ic_maxout_out_dims(c, d);
  if (st) return st;
  for (size_t s = 1; s < 3; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t->dtype != x->dtype || !ic_dims_equal(t->ndim, t->dims, 4, d)) {
      char b[96];
      return ic_kfail_in(c, s, 0, "expected %s%s (X with its channels / groups)",
                         ic_dtype_name(x->dtype), ic_dims_str(4, d, b, sizeof b));
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define MAXOUT_GRAD(T)                                                                     \
  do {                                                                                     \
    const T *xd = x->data, *od = o->data, *gd = g->data;                                   \
    T *dd = dx->data;                                                                      \
    memset(dd, 0, sizeof(T) * (size_t)ic_tensor_numel_(dx));                               \
    for (int64_t b = 0; b < N; b++)                                                        \
      for (int64_t p = 0; p < HW; p++)                                                     \
        for (int64_t ch = 0; ch < OC; ch++) {                                              \
          const int64_t oi = last ? (b * HW + p) * OC + ch : (b * OC + ch) * HW + p;       \
          for (int64_t j = 0; j < G; j++) {                                                \
            const int64_t ic = ch * G + j;                                                 \
            const int64_t xi = last ? (b * HW + p) * C + ic : (b * C + ic) * HW + p;       \
            if (xd[xi] == od[oi]) {                                                        \
              dd[xi] += gd[oi];                                                            \
              break;                                                                       \
            }                                                                              \
          }                                                                                \
        }                                                                                  \
  } while (0)

static ic_status run(ic_kctx *c) {
  const ic_maxout_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *o = ic_in(c, 1, 0), *g = ic_in(c, 2, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const bool last = a->axis != 1;
  const int64_t N = x->dims[0], C = last ? x->dims[3] : x->dims[1], G = a->groups;
  const int64_t HW = last ? x->dims[1] * x->dims[2] : x->dims[2] * x->dims[3], OC = C / G;
  if (x->dtype == IC_FP32) MAXOUT_GRAD(float);
  else MAXOUT_GRAD(double);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Out", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_maxout_grad = {
    .name = "maxout_grad",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ic_maxout_attrs), .parse = ic_maxout_parse,
    .infer = infer, .cpu = run,
};
