/* clip_by_norm: Out = X * max_norm / ||X||_2 when the L2 norm of all of X exceeds max_norm,
 * else X (phi ClipByNormKernel, CPU; ClipGradByNorm emits it per gradient). The norm is
 * summed in double and rounded to X's precision; the scale max_norm / norm is taken in X's
 * precision, as Paddle computes it. max_norm must be > 0. */
#include <math.h>
#include <string.h>

#include "kernels/kernel.h"

typedef struct cbn_attrs {
  float max_norm;
} cbn_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  cbn_attrs *a = attrs;
  a->max_norm = (float)ic_ar_float(r, "max_norm", 0.0);
  if (!r->st && !(a->max_norm > 0)) {
    ic_ar_fail(r, "max_norm", "is %g, expected > 0", (double)a->max_norm);
  }
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define CLIP(T, SQRT)                                                                      \
  do {                                                                                     \
    const T *restrict xp = x->data;                                                        \
    T *restrict o = out->data;                                                             \
    double s = 0;                                                                          \
    for (int64_t i = 0; i < n; i++) s += (double)xp[i] * xp[i];                            \
    T norm = SQRT((T)s), mx = (T)a->max_norm;                                              \
    if (norm > mx) {                                                                       \
      T scale = mx / norm;                                                                 \
      for (int64_t i = 0; i < n; i++) o[i] = xp[i] * scale;                                \
    } else {                                                                               \
      memcpy(o, xp, (size_t)n * sizeof(T));                                                \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const cbn_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  int64_t n = ic_tensor_numel_(x);
  if (x->dtype == IC_FP32) CLIP(float, sqrtf);
  else CLIP(double, sqrt);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_clip_by_norm = {
    .name = "clip_by_norm",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(cbn_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
