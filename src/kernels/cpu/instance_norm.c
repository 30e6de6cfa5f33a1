/* instance_norm, as paddle/phi/infermeta/ternary.cc InstanceNormInferMeta and
 * paddle/phi/kernels/cpu/instance_norm_kernel.cc: every (image, channel) of X [N, C, ...]
 * (rank 2 to 5) is normalized by its own mean and biased variance,
 *   Y = (X - mean) / sqrt(var + epsilon) * Scale[c] + Bias[c]
 * with Scale and Bias optional ([C]; 1 and 0 when absent). SavedMean is the mean and
 * SavedVariance 1 / sqrt(var + epsilon), both [N * C]. Statistics are computed in double;
 * every element is rounded once to X's dtype. */
#include <math.h>

#include "kernels/kernel.h"

typedef struct in_attrs {
  double epsilon;
} in_attrs;

enum { IN_X, IN_SCALE, IN_BIAS };
enum { OUT_Y, OUT_MEAN, OUT_VAR };

static ic_status parse(ic_attr_reader *r, void *attrs) {
  in_attrs *a = attrs;
  a->epsilon = ic_ar_float(r, "epsilon", (double)1e-5f);
  if (r->st) return r->st;
  if (!(a->epsilon >= 0)) return ic_ar_fail(r, "epsilon", "is %g, expected >= 0", a->epsilon);
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim < 2 || x->ndim > 5) {
    return ic_kfail_in(c, IN_X, 0, "expected rank 2 to 5 ([N, C, ...])");
  }
  const int64_t C = x->dims[1];
  for (size_t s = IN_SCALE; s <= IN_BIAS; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t && (t->dtype != x->dtype || ic_numel(t->ndim, t->dims) != C)) {
      return ic_kfail_in(c, s, 0, "expected %s with %lld elements (one per channel)",
                         ic_dtype_name(x->dtype), (long long)C);
    }
  }
  ic_tensor_set_meta(ic_out(c, OUT_Y, 0), x->dtype, x->ndim, x->dims);
  int64_t nc = x->dims[0] * C;
  if (ic_out(c, OUT_MEAN, 0)) ic_tensor_set_meta(ic_out(c, OUT_MEAN, 0), x->dtype, 1, &nc);
  if (ic_out(c, OUT_VAR, 0)) ic_tensor_set_meta(ic_out(c, OUT_VAR, 0), x->dtype, 1, &nc);
  return IC_OK;
}

#define INORM(T)                                                                             \
  do {                                                                                       \
    const T *xp = x->data, *sp = sc ? sc->data : NULL, *bp = bi ? bi->data : NULL;           \
    T *yp = y->data, *mp = mo ? mo->data : NULL, *vp = vo ? vo->data : NULL;                 \
    for (int64_t nc = 0; nc < N * C; nc++) {                                                 \
      const T *xs = xp + nc * S;                                                             \
      T *ys = yp + nc * S;                                                                   \
      double s = 0;                                                                          \
      for (int64_t p = 0; p < S; p++) s += xs[p];                                            \
      const double mean = S ? s / (double)S : 0;                                             \
      double v = 0;                                                                          \
      for (int64_t p = 0; p < S; p++) v += ((double)xs[p] - mean) * ((double)xs[p] - mean);  \
      const double inv = 1.0 / sqrt((S ? v / (double)S : 0) + a->epsilon);                   \
      if (mp) mp[nc] = (T)mean;                                                              \
      if (vp) vp[nc] = (T)inv;                                                               \
      const int64_t ch = nc % C;                                                             \
      const double k = inv * (sp ? (double)sp[ch] : 1.0), b = bp ? (double)bp[ch] : 0.0;     \
      for (int64_t p = 0; p < S; p++) ys[p] = (T)(((double)xs[p] - mean) * k + b);           \
    }                                                                                        \
  } while (0)

static ic_status run(ic_kctx *c) {
  const in_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *sc = ic_in(c, IN_SCALE, 0), *bi = ic_in(c, IN_BIAS, 0);
  ic_tensor *y = ic_out(c, OUT_Y, 0), *mo = ic_out(c, OUT_MEAN, 0), *vo = ic_out(c, OUT_VAR, 0);
  const int64_t N = x->dims[0], C = x->dims[1];
  const int64_t S = ic_numel(x->ndim - 2, x->dims + 2);
  if (x->dtype == IC_FP64) INORM(double);
  else INORM(float);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"X", 0},
    {"Scale", IC_SLOT_OPTIONAL},
    {"Bias", IC_SLOT_OPTIONAL},
};
static const ic_slotdef outputs[] = {
    {"Y", 0},
    {"SavedMean", IC_SLOT_OPTIONAL},
    {"SavedVariance", IC_SLOT_OPTIONAL},
};

const ic_opdef ic_op_instance_norm = {
    .name = "instance_norm",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(in_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
